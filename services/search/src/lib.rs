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

impl Mount for Search {
    const SERVICE: Service = Service::Search;
    type Settings = ();

    fn mount(
        routes: &mut tonic::service::RoutesBuilder,
        deps: &Deps,
        (): &(),
    ) -> Result<(), MountError> {
        let catalog = CatalogClient::connect_lazy(deps.url(Service::Catalog))?;
        routes.add_service(grpc::server(grpc::Api::new(catalog)));
        Ok(())
    }
}
