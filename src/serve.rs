//! `turnier serve` and `turnier migrate`: start what the role runs, stop it cleanly, and in
//! time: once the shutdown grace is over, what still runs is stopped (the sandbox halts its
//! runs), and whatever has not stopped [`AFTER_GRACE`] later is left behind.

use std::time::Duration;

use anyhow::Context as _;
use kit::auth::Verifier;
use kit::config::{Config, Role};
use kit::db::Database;
use kit::metrics::Metrics;
use kit::server::{Deps, Mount as _, MountError};
use kit::services::Service;
use kit::shutdown::Shutdown;
use tokio::task::JoinSet;

/// How long the parts of the process get to stop once the grace is over, before `serve`
/// returns without them: answering the requests the halt just ended takes milliseconds.
/// Kubernetes waits `terminationGracePeriodSeconds`, which the chart sets 5 s above the grace.
const AFTER_GRACE: Duration = Duration::from_secs(1);

/// Adds the routes of `service` to a gRPC server, each through the one [`kit::server::Mount`] signature.
fn mount(
    service: Service,
    routes: &mut tonic::service::RoutesBuilder,
    deps: &Deps,
    settings: &ServiceSettings,
    tournaments: &tournaments::Settings,
) -> Result<(), MountError> {
    let ServiceSettings {
        accounts,
        catalog,
        scripts,
        ..
    } = settings;
    match service {
        Service::Accounts => accounts::Accounts::mount(routes, deps, accounts),
        Service::Catalog => catalog::Catalog::mount(routes, deps, catalog),
        Service::Search => search::Search::mount(routes, deps, &search::Settings { warm_up: true }),
        Service::Decks => decks::Decks::mount(routes, deps, &()),
        Service::Scripts => scripts::Scripts::mount(routes, deps, scripts),
        Service::Tournaments => tournaments::Tournaments::mount(routes, deps, tournaments),
        Service::Calculators => calculators::Calculators::mount(routes, deps, &()),
    }
}

/// Every service's migrations, as each service declares them, in [`Service::ALL`] order.
fn migrators() -> Vec<&'static sqlx::migrate::Migrator> {
    Service::ALL
        .into_iter()
        .filter_map(|service| match service {
            Service::Accounts => accounts::Accounts::migrator(),
            Service::Catalog => catalog::Catalog::migrator(),
            Service::Search => search::Search::migrator(),
            Service::Decks => decks::Decks::migrator(),
            Service::Scripts => scripts::Scripts::migrator(),
            Service::Tournaments => tournaments::Tournaments::migrator(),
            Service::Calculators => calculators::Calculators::migrator(),
        })
        .collect()
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

/// The settings of the services that take their own.
pub struct ServiceSettings {
    /// The accounts service's.
    pub accounts: accounts::Settings,
    /// The catalog's.
    pub catalog: catalog::Settings,
    /// The scripts service's.
    pub scripts: scripts::Settings,
    /// The webhooks' (the tournaments service and the worker).
    pub webhooks: tournaments::WebhookArgs,
    /// The submission worker's.
    pub worker: tournaments::WorkerArgs,
    /// The tournaments service's caps on live event streams.
    pub event_streams: tournaments::EventStreamArgs,
}

/// The webhook settings of `role`: the operator's key, else (in the all-in-one process) a
/// random key kept in `<state dir>/webhook.key`, created on first start, readable by its owner
/// only; any other role without a key takes no webhooks (their secrets would differ).
fn webhook_settings(
    args: &tournaments::WebhookArgs,
    config: &Config,
) -> anyhow::Result<tournaments::webhooks::WebhookSettings> {
    use tournaments::webhooks::{MIN_KEY_BYTES, WebhookKey};
    let key =
        match (&args.webhook_key, config.role) {
            (Some(key), _) => Some(WebhookKey::new(key.as_bytes()).with_context(|| {
                format!("TURNIER_WEBHOOK_KEY: use at least {MIN_KEY_BYTES} bytes")
            })?),
            (None, Role::All) => Some(local_webhook_key(&config.state_dir)?),
            (None, _) => None,
        };
    Ok(tournaments::webhooks::WebhookSettings {
        key,
        allow_private: args.webhook_allow_private,
    })
}

/// The all-in-one process's webhook key: read from `<state_dir>/webhook.key`, or made there.
fn local_webhook_key(
    state_dir: &std::path::Path,
) -> anyhow::Result<tournaments::webhooks::WebhookKey> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let path = state_dir.join("webhook.key");
    let read = |path: &std::path::Path| -> anyhow::Result<_> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        tournaments::webhooks::WebhookKey::new(text.trim().as_bytes())
            .with_context(|| format!("{} holds too short a key", path.display()))
    };
    if path.exists() {
        kit::owner_only::warn_if_shared(&path);
        return read(&path);
    }
    // Owner-only, as the database beside it (`kit::owner_only`).
    kit::owner_only::create_dir(state_dir)
        .with_context(|| format!("cannot create {}", state_dir.display()))?;
    let made = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path);
    match made {
        Ok(mut file) => {
            file.write_all(tournaments::webhooks::WebhookKey::generate().as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        // Another process made it first: use theirs.
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(err) => return Err(err).with_context(|| format!("cannot create {}", path.display())),
    }
    read(&path)
}

/// Returns the one verifier of bearer tokens every service of the process uses: the accounts
/// store itself when the process serves accounts alone, else the accounts service over gRPC
/// (in the all-in-one process, its own port), so verification takes the same path in every
/// mode (see the `accounts` crate's docs).
fn verifier(deps: &Deps, role: Role, db: &Database) -> Result<Verifier, MountError> {
    Ok(match role {
        Role::Service(Service::Accounts) => accounts::store_verifier(db.clone()),
        Role::All | Role::Service(_) | Role::Gateway | Role::Worker => Verifier::new(
            kit::clients::AccountsClient::connect_lazy(deps.url(Service::Accounts))?,
        ),
    })
}

/// Returns the abuse limits of the process (`kit::limits`): kept in Redis when the deployment
/// has one, so every process of a split deployment shares the counts; else in this process,
/// whose two edges share them (the all-in-one).
async fn limiter(config: &Config) -> anyhow::Result<kit::limits::Limiter> {
    Ok(match &config.redis_url {
        Some(url) => kit::limits::Limiter::redis(url, &config.queue_prefix, config.limits)
            .await
            .context("cannot reach Redis (REDIS_URL) for the rate limits")?,
        None => kit::limits::Limiter::in_memory(config.limits),
    })
}

/// Runs the role in `config` until SIGTERM or Ctrl-C, then drains and returns. The gateway
/// and some services take their own settings.
pub async fn serve(
    config: Config,
    gateway: gateway::Settings,
    settings: ServiceSettings,
) -> anyhow::Result<()> {
    let _telemetry = kit::telemetry::init(&config.telemetry)?;
    let metrics = Metrics::install()?;
    let shutdown = Shutdown::on_signals().context("cannot listen for SIGTERM")?;
    // For every part of every role (the gRPC server also times its own, the same).
    shutdown.expire_after(config.shutdown.delay + config.shutdown.grace);
    let started = std::time::Instant::now();

    let services = config.role.services();
    // The key this process's calls to the services carry, so they believe the client it names
    // and do not count a request twice (`kit::caller`).
    kit::internal::use_internal_key(config.internal_key.as_deref());
    if config.internal_key.is_none() && config.role != Role::All {
        tracing::warn!(
            "TURNIER_INTERNAL_KEY is unset: this process's calls to other processes count as a \
             third party's (the gateway's against its own address); set the same key in every process"
        );
    }
    let limiter = limiter(&config).await?;
    let gateway_config = config.role.runs_gateway().then(|| {
        let services = config.service_urls.clone().into_iter().collect();
        gateway::GatewayConfig {
            // The gateway closes its listener together with the gRPC servers (after the same
            // delay), and says `shutting_down` on /healthz from the signal on.
            shutdown_delay: config.shutdown.delay,
            limits: config.limits,
            limiter: Some(limiter.clone()),
            // Every gateway replica of a deployment checks the forms any other one drew.
            csrf_key: gateway::csrf::CsrfKey::for_deployment(config.internal_key.as_deref()),
            ..gateway::GatewayConfig::new(&gateway, services)
        }
    });

    // Idle connections must not run the process out of descriptors: take all the OS allows
    // (each listener's cap is kept under it, `kit::listener`).
    match kit::listener::raise_open_files_limit() {
        Ok(limit) => tracing::info!(open_files = limit, "limit on open files"),
        Err(err) => tracing::warn!(error = %err, "cannot raise the limit on open files"),
    }
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
        data_dir = ?settings.catalog.data_dir(),
        scripts = ?settings.scripts,
        accounts = ?settings.accounts,
        "configuration"
    );

    let db = if services.is_empty() && !config.role.runs_worker() {
        None
    } else {
        let db = connect(&config).await?;
        if config.migrate_on_start {
            db.migrate(&migrators()).await?;
        }
        Some(db)
    };

    // Lineup checks are jobs on the queue (Redis, else the database): the tournaments service
    // queues them, and the all-in-one process runs a submission worker beside it.
    let queue = match &db {
        Some(db) if services.contains(&Service::Tournaments) || config.role.runs_worker() => Some(
            kit::queue::Queue::open(
                config.redis_url.as_deref(),
                db,
                &config.queue_prefix,
                kit::queue::QueueSettings::default(),
            )
            .await
            .context("cannot open the job queue")?,
        ),
        _ => None,
    };
    let webhooks = if services.contains(&Service::Tournaments) || config.role.runs_worker() {
        webhook_settings(&settings.webhooks, &config)?
    } else {
        tournaments::webhooks::WebhookSettings::default()
    };
    let tournament_settings = tournaments::Settings {
        queue: queue.clone(),
        webhooks: webhooks.clone(),
        streams: settings.event_streams.limits(),
    };

    let mut tasks: JoinSet<anyhow::Result<&'static str>> = JoinSet::new();
    let concurrency = settings.worker.worker_concurrency;
    let worker_runs = config.role.runs_worker() && (concurrency > 0 || config.role == Role::Worker);
    if let (Some(queue), Some(db), true) = (&queue, &db, worker_runs) {
        let worker = tournaments::service::Tournaments::new(
            tournaments::store::TournamentStore::new(db.clone()),
            None,
            None,
        );
        let importer = kit::clients::DecksClient::connect_lazy(
            config
                .service_urls
                .get(&Service::Decks)
                .map_or("", String::as_str),
        )?;
        let scripts = kit::clients::ScriptsClient::connect_lazy(
            config
                .service_urls
                .get(&Service::Scripts)
                .map_or("", String::as_str),
        )?;
        let queue = queue.clone();
        let stop = shutdown.wait();
        let config_role_name = config.role.name();
        tasks.spawn(async move {
            let consumer = format!("{}-{}", config_role_name, std::process::id());
            let setup = tournaments::worker::Setup {
                queue,
                importer,
                scripts,
                webhooks,
                concurrency,
            };
            tournaments::worker::run(worker, setup, &consumer, stop).await;
            Ok("submission worker")
        });
    }
    if let (Some(listener), Some(db)) = (grpc_listener, &db) {
        let mut routes = tonic::service::RoutesBuilder::default();
        let deps = Deps::new(config.service_urls.clone())
            .with_db(db.clone())
            .with_shutdown(shutdown.clone())
            .with_limiter(limiter.clone());
        let deps = {
            let verifier = verifier(&deps, config.role, db)?;
            deps.with_verifier(verifier)
        };
        for service in &services {
            mount(
                *service,
                &mut routes,
                &deps,
                &settings,
                &tournament_settings,
            )?;
        }
        let shutdown = shutdown.clone();
        let timing = config.shutdown;
        let connections = config.connections;
        let readiness = deps.readiness.clone();
        let auth = deps
            .auth_layer()
            .with_anonymous_message_limit(config.grpc_anonymous_message_bytes);
        let limits = kit::limits::LimitLayer::new(deps.limiter.clone());
        tasks.spawn(async move {
            let listener = kit::listener::Listener::new(listener, connections);
            kit::server::serve_limited(
                listener, &services, routes, timing, readiness, shutdown, auth, limits,
            )
            .await?;
            Ok("gRPC server")
        });
    }
    if let (Some(listener), Some(gateway_config)) = (http_listener, gateway_config) {
        let connections = config.connections;
        let metrics = metrics.clone();
        let stop = shutdown.wait();
        tasks.spawn(async move {
            let listener = kit::listener::Listener::new(listener, connections);
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
    let overdue = {
        let expired = shutdown.wait_expired();
        async move {
            expired.await;
            tokio::time::sleep(AFTER_GRACE).await;
        }
    };
    tokio::pin!(overdue);
    loop {
        let joined = tokio::select! {
            joined = tasks.join_next() => joined,
            () = &mut overdue => {
                tracing::warn!(parts = tasks.len(), "still running after the grace period; leaving them");
                tasks.abort_all();
                break;
            }
        };
        let Some(joined) = joined else { break };
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
