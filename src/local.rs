//! The services a command-line tool needs, served by this process on a free loopback port,
//! when no running platform is given (`--server`): the tool then calls them through the same
//! typed clients it would use against a platform, so there is one code path for both.
//!
//! The local state is the one `turnier serve` keeps (`DATABASE_URL`, by default the embedded
//! database in the state folder); an empty catalog is filled with the sample cards and the data
//! folder before the first call, as on the platform's first start.

use std::path::PathBuf;

use anyhow::Context as _;
use kit::config::Config;
use kit::server::{Deps, Mount as _, ShutdownTiming};
use kit::services::Service;
use kit::shutdown::Shutdown;

/// Where the tools that read cards (`card show`, `search`, `deck import`, `script run`) find
/// the local catalog: the database `turnier serve` keeps, and the card data imported into it
/// on first use.
///
/// No `Debug`: the database URL may carry a password.
#[derive(Clone)]
pub struct LocalCatalogSettings {
    /// The database (`DATABASE_URL`).
    pub database_url: String,
    /// The card data folder imported into an empty catalog.
    pub data_dir: Option<PathBuf>,
    /// The catalog's settings, for a catalog served in this process.
    catalog: catalog::Settings,
}

impl LocalCatalogSettings {
    /// Takes the database from the plumbing settings and the data folder from the catalog's.
    pub fn new(config: &Config, catalog: &catalog::Settings) -> Self {
        Self {
            database_url: config.database_url.clone(),
            data_dir: catalog.data_dir(),
            catalog: catalog.clone(),
        }
    }

    /// Returns the catalog's settings.
    pub fn catalog_settings(&self) -> catalog::Settings {
        self.catalog.clone()
    }
}

/// Serves `services` in this process until it exits, and returns their URL.
pub async fn serve(local: &LocalCatalogSettings, services: &[Service]) -> anyhow::Result<String> {
    let db = kit::db::Database::connect(&local.database_url, 4).await?;
    if services.contains(&Service::Catalog) {
        db.migrate(&[&catalog::store::MIGRATOR]).await?;
        // Filled before the tool's first call, not in the background as a server does.
        catalog::import::bootstrap(
            catalog::store::Store::new(db.clone()),
            local.data_dir.clone(),
        )
        .await;
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .context("cannot listen on a loopback port for the local services")?;
    let url = format!("http://{}", listener.local_addr()?);
    let urls = Service::ALL
        .into_iter()
        .map(|service| (service, url.clone()))
        .collect();
    let deps = Deps::new(urls).with_db(db);
    let mut routes = tonic::service::RoutesBuilder::default();
    for service in services {
        match service {
            Service::Catalog => {
                catalog::Catalog::mount(&mut routes, &deps, &local.catalog_settings())?
            }
            // One search of one game: its index is built when asked for.
            Service::Search => {
                search::Search::mount(&mut routes, &deps, &search::Settings { warm_up: false })?
            }
            other => anyhow::bail!("the {other} service is not served locally"),
        }
    }
    let services = services.to_vec();
    tokio::spawn(async move {
        let served = kit::server::serve(
            listener,
            &services,
            routes,
            ShutdownTiming::default(),
            deps.readiness.clone(),
            Shutdown::new(),
            // The local catalog and search take no tokens.
            kit::auth::AuthLayer::without_accounts(),
        )
        .await;
        if let Err(err) = served {
            tracing::error!(error = %err, "the local services stopped");
        }
    });
    Ok(url)
}

/// Returns a client of the catalog at `server`, or of the local catalog when none is given.
pub async fn catalog(
    local: &LocalCatalogSettings,
    server: Option<&str>,
) -> anyhow::Result<kit::clients::CatalogClient> {
    let url = match server {
        Some(url) => url.to_owned(),
        None => serve(local, &[Service::Catalog]).await?,
    };
    Ok(kit::clients::CatalogClient::connect_lazy(&url)?)
}
