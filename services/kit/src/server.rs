//! The gRPC server bootstrap every service runs under: health, reflection, tracing, metrics
//! and a graceful shutdown.
//!
//! A service crate contributes only its routes; this module decides how they are served, so
//! all-in-one and one-service-per-process run the same code. On shutdown the health status
//! turns NOT_SERVING first (so load balancers stop sending work), then the server stops
//! accepting and drains requests in flight, bounded by a grace period; when the grace is over
//! the server says so ([`Shutdown::expire`]), and services stop what they still run.

use std::net::SocketAddr;
use std::time::Duration;

use tonic::service::RoutesBuilder;
use tonic_health::ServingStatus;

use crate::metrics::GrpcMetricsLayer;
use crate::services::Service;
use crate::shutdown::Shutdown;
use crate::telemetry;

/// The fully qualified names of the services every server adds to the domain ones.
const INFRASTRUCTURE_SERVICES: [&str; 3] = [
    "grpc.health.v1.Health",
    "grpc.reflection.v1.ServerReflection",
    "grpc.reflection.v1alpha.ServerReflection",
];

/// How a server shuts down.
#[derive(Debug, Clone, Copy)]
pub struct ShutdownTiming {
    /// Time between reporting NOT_SERVING and closing the listener, so that load balancers
    /// see the change before connections are refused (0 on a laptop, a few seconds in
    /// Kubernetes).
    pub delay: Duration,
    /// The longest time requests in flight get to finish once the listener is closed.
    pub grace: Duration,
}

impl Default for ShutdownTiming {
    fn default() -> Self {
        Self {
            delay: Duration::ZERO,
            grace: Duration::from_secs(25),
        }
    }
}

/// What a service crate gets from the process that serves it: how to reach the other services,
/// the database (the process connects once and shares the pool), and the shutdown signal.
#[derive(Debug, Clone)]
pub struct Deps {
    /// Each service's gRPC URL: this process's own port in the all-in-one mode, the service's
    /// address otherwise.
    pub urls: std::collections::BTreeMap<Service, String>,
    /// The process's shutdown: a service stops its long work when the grace is over
    /// ([`Shutdown::wait_expired`]).
    pub shutdown: Shutdown,
    /// The process's database, for the services that store something.
    #[cfg(feature = "db")]
    pub db: Option<crate::db::Database>,
    /// Whether each service is ready: a service that warms a cache holds its readiness until
    /// the cache is built.
    pub readiness: Readiness,
    /// Who the bearer tokens of requests are (the accounts service), if the process knows
    /// where to ask.
    pub verifier: Option<crate::auth::Verifier>,
    /// The abuse limits the process shares between its edges (`crate::limits`), if any.
    pub limiter: Option<crate::limits::Limiter>,
}

impl Deps {
    /// Returns the dependencies of services that reach each other at `urls` and store nothing.
    pub fn new(urls: std::collections::BTreeMap<Service, String>) -> Self {
        Self {
            urls,
            shutdown: Shutdown::new(),
            #[cfg(feature = "db")]
            db: None,
            readiness: Readiness::default(),
            verifier: None,
            limiter: None,
        }
    }

    /// Returns these dependencies with the process's abuse limits: its gRPC server counts the
    /// calls clients make straight to it, and the accounts service its sign-ins.
    #[must_use]
    pub fn with_limiter(mut self, limiter: crate::limits::Limiter) -> Self {
        self.limiter = Some(limiter);
        self
    }

    /// Returns these dependencies with the verifier of bearer tokens.
    #[must_use]
    pub fn with_verifier(mut self, verifier: crate::auth::Verifier) -> Self {
        self.verifier = Some(verifier);
        self
    }

    /// Returns the auth layer the process's gRPC server runs every request through: verifying
    /// with [`Deps::verifier`], or refusing every token when there is none.
    pub fn auth_layer(&self) -> crate::auth::AuthLayer {
        match &self.verifier {
            Some(verifier) => crate::auth::AuthLayer::new(verifier.clone()),
            None => crate::auth::AuthLayer::without_accounts(),
        }
    }

    /// Returns these dependencies with the process's shutdown signal (without it, a signal
    /// that never fires).
    #[must_use]
    pub fn with_shutdown(mut self, shutdown: Shutdown) -> Self {
        self.shutdown = shutdown;
        self
    }

    /// Returns these dependencies with the process's database.
    #[cfg(feature = "db")]
    #[must_use]
    pub fn with_db(mut self, db: crate::db::Database) -> Self {
        self.db = Some(db);
        self
    }

    /// Returns the database, for a service that stores something.
    #[cfg(feature = "db")]
    pub fn database(&self, service: Service) -> Result<&crate::db::Database, MountError> {
        self.db.as_ref().ok_or(MountError::NoDatabase(service))
    }

    /// Returns the URL of `service`.
    pub fn url(&self, service: Service) -> &str {
        self.urls.get(&service).map_or("", String::as_str)
    }
}

/// Whether the services of a process are ready to take work, as their health says.
///
/// A service that must build something before it answers quickly (the search index of each
/// game) takes a [`ReadinessHold`] when it is mounted and drops it once built: until then its
/// health is NOT_SERVING, so `/readyz` and load balancers wait for it rather than sending it
/// requests that would each pay for the build. Cheap to clone; clones share the state.
#[derive(Debug, Clone, Default)]
pub struct Readiness {
    holds: std::sync::Arc<tokio::sync::watch::Sender<std::collections::BTreeMap<Service, usize>>>,
}

impl Readiness {
    /// Holds `service` NOT_SERVING until the returned guard is dropped.
    #[must_use = "the service is ready again as soon as the hold is dropped"]
    pub fn hold(&self, service: Service) -> ReadinessHold {
        self.holds
            .send_modify(|holds| *holds.entry(service).or_default() += 1);
        ReadinessHold {
            readiness: self.clone(),
            service,
        }
    }

    /// Returns whether nothing holds `service`.
    pub fn is_ready(&self, service: Service) -> bool {
        self.holds.borrow().get(&service).copied().unwrap_or(0) == 0
    }
}

/// Keeps a service NOT_SERVING while it lives ([`Readiness::hold`]).
#[derive(Debug)]
pub struct ReadinessHold {
    readiness: Readiness,
    service: Service,
}

impl Drop for ReadinessHold {
    fn drop(&mut self) {
        self.readiness.holds.send_modify(|holds| {
            if let Some(count) = holds.get_mut(&self.service) {
                *count = count.saturating_sub(1);
            }
        });
    }
}

/// The one way a service crate is mounted: each crate implements it once (on a unit type named
/// after the service), and `turnier serve` mounts any set of services through it, in one
/// process or one per pod.
pub trait Mount {
    /// The service.
    const SERVICE: Service;
    /// The service's own settings (parsed with the process's, declared in the crate).
    type Settings;
    /// Adds the service's routes to a server's routes, starting whatever it runs in the
    /// background (a first import, a cache warm-up). Runs inside the Tokio runtime.
    fn mount(
        routes: &mut RoutesBuilder,
        deps: &Deps,
        settings: &Self::Settings,
    ) -> Result<(), MountError>;
    /// The migrations of the tables the service owns, if it stores anything.
    #[cfg(feature = "db")]
    fn migrator() -> Option<&'static sqlx::migrate::Migrator> {
        None
    }
}

/// Why a service could not be mounted.
#[derive(Debug, thiserror::Error)]
pub enum MountError {
    /// The URL of a service it calls cannot be dialled.
    #[error(transparent)]
    Client(#[from] crate::client::ClientError),
    /// The service stores something and the process gave it no database.
    #[error("the {0} service needs a database")]
    NoDatabase(Service),
}

/// The error when a gRPC server cannot start or fails while serving.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The reflection service could not be built from the descriptors.
    #[error("cannot build the reflection service: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// The transport failed.
    #[error("gRPC server on {addr} failed: {cause}")]
    Transport {
        /// The address the server listened on.
        addr: String,
        /// What failed (in the message, so not a `source`: the message is one line).
        cause: tonic::transport::Error,
    },
}

/// Serves `services` (their routes already added to `routes`) on `listener`, with the health
/// protocol and server reflection, until `shutdown` fires and requests in flight drain, or
/// the grace period of `timing` is over (or `shutdown` expires otherwise): then it expires
/// `shutdown`, so that what still runs stops, and returns. Each service is SERVING while
/// nothing holds its `readiness`. Every request passes `auth` first (`crate::auth`): its
/// handler gets its [`crate::auth::Caller`], and a bad token never reaches it.
///
/// `listener` holds its connections to its limits ([`crate::listener`]): a plain
/// `TcpListener` gets the default ones. No call is counted against a rate limit
/// ([`serve_limited`] counts them).
pub async fn serve(
    listener: impl Into<crate::listener::Listener>,
    services: &[Service],
    routes: RoutesBuilder,
    timing: ShutdownTiming,
    readiness: Readiness,
    shutdown: Shutdown,
    auth: crate::auth::AuthLayer,
) -> Result<(), ServerError> {
    let unlimited = crate::limits::LimitLayer::new(None);
    serve_limited(
        listener, services, routes, timing, readiness, shutdown, auth, unlimited,
    )
    .await
}

/// [`serve`], counting every call a client makes straight to the server against the general
/// rate limit of `rate_limits` (`crate::limits`), once `auth` has said who the caller is.
#[allow(clippy::too_many_arguments)] // `serve`'s, and the one layer more.
pub async fn serve_limited(
    listener: impl Into<crate::listener::Listener>,
    services: &[Service],
    mut routes: RoutesBuilder,
    timing: ShutdownTiming,
    readiness: Readiness,
    shutdown: Shutdown,
    auth: crate::auth::AuthLayer,
    rate_limits: crate::limits::LimitLayer,
) -> Result<(), ServerError> {
    let listener: crate::listener::Listener = listener.into();
    let limits = listener.limits();
    let addr = listener
        .local_addr()
        .map_or_else(|_| "an unknown address".to_owned(), |addr| addr.to_string());

    let (health, health_service) = tonic_health::server::health_reporter();
    // The empty name is the server as a whole: what a liveness probe without a service asks.
    health.set_service_status("", ServingStatus::Serving).await;
    report_readiness(&health, services, &readiness).await;
    // The one writer of the services' health from here on: readiness, then NOT_SERVING.
    let health_task = tokio::spawn(follow_readiness(
        health,
        services.to_vec(),
        readiness,
        shutdown.clone(),
    ));
    routes.add_service(health_service);
    add_reflection(&mut routes, services)?;

    let drain = {
        let shutdown = shutdown.clone();
        async move {
            shutdown.wait().await;
            if let Err(err) = health_task.await {
                tracing::error!(error = %err, "the health task failed");
            }
            tracing::info!(
                delay_ms = timing.delay.as_millis() as u64,
                "health is NOT_SERVING"
            );
            tokio::time::sleep(timing.delay).await;
        }
    };

    let anonymous = crate::message_limit::AnonymousLimitLayer::new(
        auth.anonymous_message_bytes()
            .unwrap_or(crate::message_limit::DEFAULT_ANONYMOUS_MESSAGE_BYTES),
    );
    let server = tonic::transport::Server::builder()
        // A peer that stops answering pings is gone: its connection is closed. No per-request
        // timeout here: event streams (`WatchTournament`) stay open for as long as they are
        // watched, and a client sets its own deadline (`grpc-timeout`).
        .http2_keepalive_interval(Some(limits.keepalive_interval))
        .http2_keepalive_timeout(Some(limits.keepalive_timeout))
        .trace_fn(|request| {
            let span = tracing::info_span!(
                "grpc.request",
                otel.kind = "server",
                rpc = %request.uri().path(),
            );
            telemetry::set_parent_from_http(&span, request.headers());
            span
        })
        .layer(GrpcMetricsLayer)
        .layer(auth)
        // Inside auth, which has told who the caller is: counted against its account, else
        // its address (`crate::limits`).
        .layer(rate_limits)
        // Inside auth, which has told who the caller is: one without a token may send only
        // small messages, whatever the service accepts from others (`crate::message_limit`).
        .layer(anonymous)
        .add_routes(routes.routes())
        .serve_with_incoming_shutdown(listener.incoming(), drain);

    tracing::info!(%addr, services = ?services.iter().map(|s| s.name()).collect::<Vec<_>>(), "gRPC server listening");
    shutdown.expire_after(timing.delay + timing.grace);
    tokio::select! {
        result = server => result.map_err(|cause| ServerError::Transport { addr: addr.clone(), cause })?,
        () = shutdown.wait_expired() => {
            tracing::warn!(grace_ms = timing.grace.as_millis() as u64, "requests still in flight after the grace period; stopping anyway");
        }
    }
    tracing::info!(%addr, "gRPC server stopped");
    Ok(())
}

/// Sets each service's health from its readiness: SERVING unless something holds it.
async fn report_readiness(
    health: &tonic_health::server::HealthReporter,
    services: &[Service],
    readiness: &Readiness,
) {
    for service in services {
        let status = if readiness.is_ready(*service) {
            ServingStatus::Serving
        } else {
            ServingStatus::NotServing
        };
        health
            .set_service_status(service.proto_name(), status)
            .await;
    }
}

/// Reports every change of readiness until shutdown begins, then NOT_SERVING for the server
/// and every service, so load balancers stop sending work.
async fn follow_readiness(
    health: tonic_health::server::HealthReporter,
    services: Vec<Service>,
    readiness: Readiness,
    shutdown: Shutdown,
) {
    let mut changes = readiness.holds.subscribe();
    loop {
        tokio::select! {
            biased;
            () = shutdown.wait() => break,
            // The sender lives in `readiness`, held here: `changed` fails only if it is gone.
            _ = changes.changed() => report_readiness(&health, &services, &readiness).await,
        }
    }
    health
        .set_service_status("", ServingStatus::NotServing)
        .await;
    for service in &services {
        health
            .set_service_status(service.proto_name(), ServingStatus::NotServing)
            .await;
    }
}

fn add_reflection(routes: &mut RoutesBuilder, services: &[Service]) -> Result<(), ServerError> {
    let names: Vec<&str> = services
        .iter()
        .map(|service| service.proto_name())
        .chain(INFRASTRUCTURE_SERVICES)
        .collect();
    let mut v1 = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET);
    let mut v1alpha = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET);
    for name in names {
        v1 = v1.with_service_name(name);
        v1alpha = v1alpha.with_service_name(name);
    }
    routes.add_service(v1.build_v1()?);
    // v1alpha is what older grpcurl and Postman versions ask for.
    routes.add_service(v1alpha.build_v1alpha()?);
    Ok(())
}

/// Binds a TCP listener, naming the setting that chose the address when it fails
/// (`TURNIER_GRPC_ADDR: cannot listen on 127.0.0.1:50051: address already in use`).
pub async fn bind(addr: SocketAddr, setting: &str) -> Result<tokio::net::TcpListener, BindError> {
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|cause| BindError {
            setting: setting.to_owned(),
            addr,
            cause,
        })
}

/// The error when a listener cannot be bound.
#[derive(Debug, thiserror::Error)]
#[error("{setting}: cannot listen on {addr}: {}", describe_io(cause))]
pub struct BindError {
    /// The setting (environment variable) that gave the address.
    pub setting: String,
    /// The address.
    pub addr: SocketAddr,
    /// Why binding failed (in the message, so not a `source`: the message is one line).
    pub cause: std::io::Error,
}

/// Describes an I/O error without the OS's "(os error 98)" suffix.
fn describe_io(err: &std::io::Error) -> String {
    match err.kind() {
        std::io::ErrorKind::AddrInUse => "address already in use".to_owned(),
        std::io::ErrorKind::AddrNotAvailable => "address not available on this machine".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => err.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn binding_a_taken_port_names_the_setting_and_the_address() {
        let taken = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = taken.local_addr().expect("address");
        let err = bind(addr, "TURNIER_GRPC_ADDR").await.unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("TURNIER_GRPC_ADDR: cannot listen on {addr}: address already in use")
        );
    }

    /// Asks the server at `addr` for the health of `service`, until it is `want` (a status
    /// changes a moment after its cause; gives up after five seconds).
    async fn wait_for_health(addr: SocketAddr, service: Service, want: ServingStatus) {
        use tonic_health::pb::HealthCheckRequest;
        use tonic_health::pb::health_client::HealthClient;

        let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
            .expect("a URL")
            .connect_lazy();
        let mut last = None;
        for _ in 0..100 {
            let request = HealthCheckRequest {
                service: service.proto_name().to_owned(),
            };
            if let Ok(answer) = HealthClient::new(channel.clone()).check(request).await {
                let status = answer.into_inner().status();
                if status == want.into() {
                    return;
                }
                last = Some(status);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{service} stayed {last:?}, never {want:?}");
    }

    #[tokio::test]
    async fn a_held_service_is_not_serving_until_released_and_none_is_after_shutdown() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("address");
        let readiness = Readiness::default();
        let hold = readiness.hold(Service::Search);
        let shutdown = Shutdown::new();
        // A delay between NOT_SERVING and closing the listener: time to see the drain.
        let timing = ShutdownTiming {
            delay: Duration::from_secs(3),
            grace: Duration::from_secs(1),
        };
        tokio::spawn(serve(
            listener,
            &[Service::Search, Service::Catalog],
            RoutesBuilder::default(),
            timing,
            readiness.clone(),
            shutdown.clone(),
            crate::auth::AuthLayer::without_accounts(),
        ));
        wait_for_health(addr, Service::Search, ServingStatus::NotServing).await;
        wait_for_health(addr, Service::Catalog, ServingStatus::Serving).await;

        drop(hold);
        assert!(readiness.is_ready(Service::Search));
        wait_for_health(addr, Service::Search, ServingStatus::Serving).await;

        // A hold released during shutdown changes nothing: draining is NOT_SERVING.
        shutdown.trigger();
        let late = readiness.hold(Service::Catalog);
        drop(late);
        wait_for_health(addr, Service::Catalog, ServingStatus::NotServing).await;
    }
}
