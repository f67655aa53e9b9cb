//! The gRPC channels from the gateway to the services, and the typed clients over them.
//!
//! Channels connect lazily: the gateway starts (and answers `/healthz`) before the services
//! are up, and a service that restarts is redialled on the next call. The route modules call
//! the services through [`Clients`]; readiness asks each channel's health service, in
//! [`crate::health`].

pub use kit::client::TracedChannel;
use kit::services::Service;
use tonic::transport::Channel;

use crate::ApiError;
use crate::config::GatewayConfig;

/// The typed client of every service the API calls (the same channels as [`Upstreams`]); a
/// service the gateway is not configured to call has none.
#[derive(Debug, Clone)]
pub struct Clients {
    accounts: Option<kit::clients::AccountsClient>,
    catalog: Option<kit::clients::CatalogClient>,
    search: Option<kit::clients::SearchClient>,
    decks: Option<kit::clients::DecksClient>,
    scripts: Option<kit::clients::ScriptsClient>,
    calculators: Option<kit::clients::CalculatorsClient>,
    tournaments: Option<kit::clients::TournamentsClient>,
}

// Each accessor answers with `ApiError`, which lives for one response (see the route modules).
#[allow(clippy::result_large_err)]
impl Clients {
    /// Returns the accounts service's client.
    pub fn accounts(&self) -> Result<&kit::clients::AccountsClient, ApiError> {
        configured(self.accounts.as_ref(), Service::Accounts)
    }

    /// Returns the accounts service's client, if the gateway calls one: what verifies tokens.
    pub fn accounts_if_configured(&self) -> Option<&kit::clients::AccountsClient> {
        self.accounts.as_ref()
    }

    /// Returns the catalog service's client.
    pub fn catalog(&self) -> Result<&kit::clients::CatalogClient, ApiError> {
        configured(self.catalog.as_ref(), Service::Catalog)
    }

    /// Returns the search service's client.
    pub fn search(&self) -> Result<&kit::clients::SearchClient, ApiError> {
        configured(self.search.as_ref(), Service::Search)
    }

    /// Returns the decks service's client.
    pub fn decks(&self) -> Result<&kit::clients::DecksClient, ApiError> {
        configured(self.decks.as_ref(), Service::Decks)
    }

    /// Returns the scripts service's client.
    pub fn scripts(&self) -> Result<&kit::clients::ScriptsClient, ApiError> {
        configured(self.scripts.as_ref(), Service::Scripts)
    }

    /// Returns the calculators service's client.
    pub fn calculators(&self) -> Result<&kit::clients::CalculatorsClient, ApiError> {
        configured(self.calculators.as_ref(), Service::Calculators)
    }

    /// Returns the tournaments service's client.
    pub fn tournaments(&self) -> Result<&kit::clients::TournamentsClient, ApiError> {
        configured(self.tournaments.as_ref(), Service::Tournaments)
    }
}

impl Clients {
    /// Returns these clients with every call made for `address` (the HTTP client) and with
    /// `bearer` (the token it sent): what a handler calls the services with.
    pub fn acting_for(
        &self,
        address: Option<std::net::IpAddr>,
        bearer: Option<&kit::auth::Bearer>,
    ) -> Clients {
        macro_rules! act {
            ($client:expr) => {
                $client
                    .as_ref()
                    .map(|client| client.on_behalf_of(address).with_bearer(bearer.cloned()))
            };
        }
        Clients {
            accounts: act!(self.accounts),
            catalog: act!(self.catalog),
            search: act!(self.search),
            decks: act!(self.decks),
            scripts: act!(self.scripts),
            calculators: act!(self.calculators),
            tournaments: act!(self.tournaments),
        }
    }
}

/// A client the gateway was not configured with is a wiring bug, answered as a 500.
#[allow(clippy::result_large_err)]
fn configured<T>(client: Option<&T>, service: Service) -> Result<&T, ApiError> {
    client.ok_or_else(|| {
        tracing::error!(%service, "the gateway is not configured to call this service");
        ApiError::internal()
    })
}

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

    /// Returns the typed clients over these channels.
    pub fn clients(&self) -> Clients {
        let raw = |service: Service| {
            self.channels
                .iter()
                .find(|(configured, _)| *configured == service)
                .map(|(_, channel)| channel.clone())
        };
        Clients {
            accounts: raw(Service::Accounts).map(kit::clients::AccountsClient::new),
            catalog: raw(Service::Catalog).map(kit::clients::CatalogClient::new),
            search: raw(Service::Search).map(kit::clients::SearchClient::new),
            decks: raw(Service::Decks).map(kit::clients::DecksClient::new),
            scripts: raw(Service::Scripts).map(kit::clients::ScriptsClient::new),
            calculators: raw(Service::Calculators).map(kit::clients::CalculatorsClient::new),
            tournaments: raw(Service::Tournaments).map(kit::clients::TournamentsClient::new),
        }
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
