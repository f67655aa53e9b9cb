//! What every handler can reach: the configuration, the service channels, the metrics handle
//! and whether the gateway is shutting down.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use kit::metrics::Metrics;

use kit::limits::Limiter;

use crate::config::GatewayConfig;
use crate::upstream::{Clients, UpstreamError, Upstreams};

/// The shared state of the gateway's handlers. Cheap to clone.
#[derive(Debug, Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: GatewayConfig,
    upstreams: Upstreams,
    clients: Clients,
    metrics: Metrics,
    /// Who bearer tokens are: the accounts service, briefly cached; none without one.
    verifier: Option<kit::auth::Verifier>,
    /// The abuse limits, shared with the process's other edge (and, through Redis, with the
    /// other processes of a split deployment).
    limiter: Limiter,
    /// Set once graceful shutdown has begun; `/healthz` answers 503 from then on so that a
    /// load balancer still holding a kept-alive connection stops sending new work.
    shutting_down: AtomicBool,
}

impl AppState {
    /// Builds the state, creating a lazily connecting channel to every configured service.
    ///
    /// Must run inside a Tokio runtime (see [`Upstreams::connect_lazy`]).
    pub fn new(config: GatewayConfig, metrics: Metrics) -> Result<Self, UpstreamError> {
        let upstreams = Upstreams::connect_lazy(&config)?;
        let clients = upstreams.clients();
        let verifier = clients
            .accounts_if_configured()
            .map(|accounts| kit::auth::Verifier::new(accounts.clone()));
        let limiter = config
            .limiter
            .clone()
            .unwrap_or_else(|| Limiter::in_memory(config.limits));
        let state = Self {
            inner: Arc::new(Inner {
                config,
                upstreams,
                clients,
                metrics,
                verifier,
                limiter,
                shutting_down: AtomicBool::new(false),
            }),
        };
        Ok(state)
    }

    /// Returns the verifier of bearer tokens, if the gateway calls an accounts service.
    pub fn verifier(&self) -> Option<&kit::auth::Verifier> {
        self.inner.verifier.as_ref()
    }

    /// Returns the abuse limits every request is counted against (`kit::limits`).
    pub fn limiter(&self) -> &Limiter {
        &self.inner.limiter
    }

    /// Returns the configuration the gateway runs with.
    pub fn config(&self) -> &GatewayConfig {
        &self.inner.config
    }

    /// Returns the channels to the services.
    pub fn upstreams(&self) -> &Upstreams {
        &self.inner.upstreams
    }

    /// Returns the typed clients of the services.
    pub fn clients(&self) -> &Clients {
        &self.inner.clients
    }

    /// Returns the Prometheus registry handle.
    pub fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    /// Marks the gateway as shutting down: `/healthz` answers 503 from now on.
    pub fn begin_shutdown(&self) {
        self.inner.shutting_down.store(true, Ordering::Relaxed);
    }

    /// Returns whether graceful shutdown has begun.
    pub fn is_shutting_down(&self) -> bool {
        // Relaxed: the flag guards no other memory; a probe seeing it one request late is fine.
        self.inner.shutting_down.load(Ordering::Relaxed)
    }
}
