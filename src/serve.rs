//! `turnier serve` and `turnier migrate`: start what the role runs, stop it cleanly.

use anyhow::Context as _;
use kit::config::Config;
use kit::db::Database;
use kit::metrics::Metrics;
use kit::services::Service;
use kit::shutdown::Shutdown;
use tokio::task::JoinSet;

/// Adds the routes of `service` to a gRPC server.
fn mount(
    service: Service,
    routes: &mut tonic::service::RoutesBuilder,
    db: &Database,
    config: &Config,
    scripts: scripts::Settings,
) -> anyhow::Result<()> {
    match service {
        Service::Catalog => catalog::mount(routes, db),
        Service::Decks => decks::mount(routes, &config.service_urls[&Service::Catalog])?,
        Service::Search => search::mount(routes, &config.service_urls[&Service::Catalog])?,
        Service::Scripts => {
            scripts::mount(routes, scripts, &config.service_urls[&Service::Catalog])?
        }
        Service::Tournaments => tournaments::mount(routes),
        Service::Calculators => calculators::mount(routes),
    }
    Ok(())
}

/// Every service's migrations, in addition to kit's own.
fn migrators() -> Vec<&'static sqlx::migrate::Migrator> {
    vec![&catalog::store::MIGRATOR]
}

/// Applies the migrations and exits.
pub async fn migrate(config: &Config) -> anyhow::Result<()> {
    let _telemetry = kit::telemetry::init(&config.telemetry)?;
    let db = connect(config).await?;
    db.migrate(&migrators()).await?;
    tracing::info!(database = %kit::config::redact_url(&config.database_url), "migrations applied");
    Ok(())
}

async fn connect(config: &Config) -> anyhow::Result<Database> {
    Ok(Database::connect(&config.database_url, config.db_max_connections).await?)
}

/// Runs the role in `config` until SIGTERM or Ctrl-C, then drains and returns. The gateway,
/// the catalog and the scripts service take their own settings.
pub async fn serve(
    config: Config,
    gateway: gateway::Settings,
    catalog: catalog::Settings,
    scripts: scripts::Settings,
) -> anyhow::Result<()> {
    let _telemetry = kit::telemetry::init(&config.telemetry)?;
    let metrics = Metrics::install()?;
    let shutdown = Shutdown::on_signals().context("cannot listen for SIGTERM")?;
    let started = std::time::Instant::now();

    let services = config.role.services();
    let gateway_config = config.role.runs_gateway().then(|| {
        let services = config.service_urls.clone().into_iter().collect();
        gateway::GatewayConfig::new(&gateway, services)
    });

    // Bind every listener before anything else starts, so a taken port fails fast with the
    // setting named, and clients that connect early wait in the backlog instead of failing.
    let grpc_listener = if services.is_empty() {
        None
    } else {
        Some(kit::server::bind(config.grpc_addr, "TURNIER_GRPC_ADDR").await?)
    };
    let http_listener = match gateway_config {
        Some(_) => Some(kit::server::bind(gateway.http_addr, "TURNIER_HTTP_ADDR").await?),
        None => None,
    };
    let metrics_listener = match config.metrics_addr {
        Some(addr) => Some(kit::server::bind(addr, "TURNIER_METRICS_ADDR").await?),
        None => None,
    };

    // Logged once, after the settings proved usable, passwords masked.
    tracing::info!(
        config = ?config,
        data_dir = ?catalog.data_dir(),
        scripts = ?scripts,
        "configuration"
    );

    let db = if services.is_empty() {
        None
    } else {
        let db = connect(&config).await?;
        if config.migrate_on_start {
            db.migrate(&migrators()).await?;
        }
        Some(db)
    };

    let mut tasks: JoinSet<anyhow::Result<&'static str>> = JoinSet::new();
    if let (Some(listener), Some(db)) = (grpc_listener, &db) {
        let mut routes = tonic::service::RoutesBuilder::default();
        for service in &services {
            mount(*service, &mut routes, db, &config, scripts)?;
        }
        if services.contains(&Service::Catalog) {
            // First start: the sample catalog at once, the data folder in the background.
            tokio::spawn(catalog::import::bootstrap(
                catalog::store::Store::new(db.clone()),
                catalog.data_dir(),
            ));
        }
        let shutdown = shutdown.clone();
        let timing = config.shutdown;
        tasks.spawn(async move {
            kit::server::serve(listener, &services, routes, timing, shutdown).await?;
            Ok("gRPC server")
        });
    }
    if let (Some(listener), Some(gateway_config)) = (http_listener, gateway_config) {
        let metrics = metrics.clone();
        let stop = gateway_stop(&shutdown, config.shutdown.delay);
        tasks.spawn(async move {
            gateway::serve(listener, gateway_config, metrics, stop).await?;
            Ok("gateway")
        });
    }
    if let Some(listener) = metrics_listener {
        let metrics = metrics.clone();
        let stop = shutdown.wait();
        tasks.spawn(async move {
            kit::metrics::serve(listener, metrics, stop)
                .await
                .context("metrics endpoint failed")?;
            Ok("metrics endpoint")
        });
    }
    tracing::info!(
        role = config.role.name(),
        startup_ms = started.elapsed().as_millis() as u64,
        "turnier is up"
    );

    // Any part that stops on its own stops the whole process: a half-running pod is worse
    // than a restarted one.
    let mut first_error = None;
    while let Some(joined) = tasks.join_next().await {
        let outcome = joined
            .context("a server task panicked")
            .and_then(|result| result);
        match outcome {
            Ok(name) => tracing::info!(part = name, "stopped"),
            Err(err) => {
                tracing::error!(error = %format!("{err:#}"), "stopping after a failure");
                first_error.get_or_insert(err);
            }
        }
        shutdown.trigger();
    }
    match first_error {
        Some(err) => Err(err),
        None => {
            tracing::info!("shut down cleanly");
            Ok(())
        }
    }
}

/// The gateway stops accepting after the same delay the gRPC servers wait with NOT_SERVING,
/// so in one process both close together.
fn gateway_stop(
    shutdown: &Shutdown,
    delay: std::time::Duration,
) -> impl std::future::Future<Output = ()> + Send + 'static {
    let wait = shutdown.wait();
    async move {
        wait.await;
        tokio::time::sleep(delay).await;
    }
}
