//! The gRPC channels from the gateway to the services.
//!
//! Channels connect lazily: the gateway starts (and answers `/healthz`) before the services
//! are up, and a service that restarts is redialled on the next call. Which RPCs the API
//! makes over them is up to the route modules; readiness is in [`crate::health`].

pub use kit::client::TracedChannel;
use kit::services::Service;
use tonic::transport::Channel;

use crate::config::GatewayConfig;

/// One lazily connected channel per configured service.
#[derive(Debug, Clone)]
pub struct Upstreams {
    channels: Vec<(Service, Channel)>,
}

/// A configured service URL that tonic cannot dial.
#[derive(Debug, thiserror::Error)]
#[error("{service}: cannot use `{url}` as a gRPC address")]
pub struct UpstreamError {
    /// The service whose URL is bad.
    pub service: Service,
    /// The URL as configured.
    pub url: String,
    /// Why it cannot be dialled.
    #[source]
    pub source: kit::client::ClientError,
}

impl Upstreams {
    /// Creates a lazily connecting channel for each service in `config`.
    ///
    /// Must run inside a Tokio runtime: each channel spawns its connection task.
    pub fn connect_lazy(config: &GatewayConfig) -> Result<Self, UpstreamError> {
        let channels = config
            .services
            .iter()
            .map(|(service, url)| {
                // kit's channel fails fast when a service is unreachable (so `/readyz` reports
                // it rather than waiting for the request deadline) and balances over every
                // pod behind a headless Service.
                let channel = kit::client::channel(url).map_err(|source| UpstreamError {
                    service: *service,
                    url: url.clone(),
                    source,
                })?;
                Ok((*service, channel))
            })
            .collect::<Result<_, UpstreamError>>()?;
        Ok(Self { channels })
    }

    /// Returns the services the gateway is configured to call, in configuration order.
    pub fn services(&self) -> impl Iterator<Item = Service> + '_ {
        self.channels.iter().map(|(service, _)| *service)
    }

    /// Returns the channel to `service`, with trace propagation, or `None` when the gateway
    /// is not configured to call it.
    ///
    /// Wrap it in the generated client: `CatalogServiceClient::new(upstreams.channel(..)?)`.
    pub fn channel(&self, service: Service) -> Option<TracedChannel> {
        self.channels
            .iter()
            .find(|(configured, _)| *configured == service)
            .map(|(_, channel)| kit::client::traced(channel.clone()))
    }
}
