//! The services a command-line tool needs, served by this process on a free loopback port,
//! when no running platform is given (`--server`): the tool then calls them through the same
//! typed clients it would use against a platform, so there is one code path for both.
//!
//! The local state is the one `turnier serve` keeps (`DATABASE_URL`, by default the embedded
//! database in the state folder); an empty catalog is filled with the sample cards and the data
//! folder before the first call, as on the platform's first start.

use anyhow::Context as _;
use kit::config::Config;
use kit::server::{Deps, Mount as _, ShutdownTiming};
use kit::services::Service;
use kit::shutdown::Shutdown;

/// Serves `services` in this process until it exits, and returns their URL.
pub async fn serve(config: &Config, services: &[Service]) -> anyhow::Result<String> {
    let db = kit::db::Database::connect(&config.database_url, 4).await?;
    let catalog_settings = catalog::Settings {
        data_dir: config.data_dir.clone(),
    };
    if services.contains(&Service::Catalog) {
        db.migrate(&[&catalog::store::MIGRATOR]).await?;
        // Filled before the tool's first call, not in the background as a server does.
        catalog::import::bootstrap(
            catalog::store::Store::new(db.clone()),
            catalog_settings.data_dir.clone(),
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
            Service::Catalog => catalog::Catalog::mount(&mut routes, &deps, &catalog_settings)?,
            Service::Search => search::Search::mount(&mut routes, &deps, &())?,
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
            Shutdown::new(),
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
    config: &Config,
    server: Option<&str>,
) -> anyhow::Result<clients::CatalogClient> {
    let url = match server {
        Some(url) => url.to_owned(),
        None => serve(config, &[Service::Catalog]).await?,
    };
    Ok(clients::CatalogClient::connect_lazy(&url)?)
}
