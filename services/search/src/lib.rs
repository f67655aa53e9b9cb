//! The search service: the card search language of the three search reference pages over the
//! catalog (`turnier.search.v1.SearchService`).
//!
//! It owns no tables: it keeps, in memory, one index per game built from the catalog's card
//! stream and rebuilt when the catalog's version changes. It calls the catalog service
//! (`kit::clients::CatalogClient`: the version, every card, the sets). Its callers are the gateway
//! (`/api/v1/{game}/cards:search` and `:explain`), the CLI (`turnier search --server`) and
//! third parties over gRPC.
//!
//! `domain` parses queries and runs them on an index of one game's cards (pure); `grpc` keeps
//! the indexes and serves them.

pub mod domain;
mod error;
pub mod grpc;

use kit::clients::CatalogClient;
use kit::server::{Deps, Mount, MountError};
use kit::services::Service;

pub use error::Error;

/// The search service, as `turnier serve` mounts it.
#[derive(Debug)]
pub struct Search;

/// How the search service is mounted.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Whether it builds every game's index when mounted, reporting NOT_SERVING until they are
    /// built and rebuilding each when the catalog changes (a server), or each on first use (a
    /// one-off command that searches one game).
    pub warm_up: bool,
}

impl Mount for Search {
    const SERVICE: Service = Service::Search;
    type Settings = Settings;

    fn mount(
        routes: &mut tonic::service::RoutesBuilder,
        deps: &Deps,
        settings: &Settings,
    ) -> Result<(), MountError> {
        let catalog = CatalogClient::connect_lazy(deps.url(Service::Catalog))?;
        let api = grpc::Api::new(catalog);
        if settings.warm_up {
            let hold = deps.readiness.hold(Service::Search);
            tokio::spawn(api.clone().keep_warm(hold));
        }
        routes.add_service(grpc::server(api));
        Ok(())
    }
}
