//! The decks service: deck codes, deck lists, formats and rulings
//! (`turnier.decks.v1.DeckService`).
//!
//! It owns no tables yet: formats travel in the request as their documented JSON, and decks are
//! read and written, not kept (saved decks, deck sets and templates arrive with their issue).
//! It checks decks against declarative formats and gives the rulings of a day
//! (`CheckDeckAgainstFormat`, `GetRuling`), and imports and exports pasted decks
//! (`ImportDeck`, `ExportDeck`), finding their cards through the catalog service
//! (`kit::clients::CatalogClient`). Its callers are the gateway (`/api/v1/{game}/decks:*`,
//! `/api/v1/formats:check`), third parties over gRPC, and soon the tournaments service's
//! submission worker. The CLI runs the same code in process: `turnier deck` and `turnier
//! format` use the codecs and rules directly, `turnier deck import` the import over a local
//! catalog service.

pub mod domain;
mod error;
pub mod grpc;
pub mod import;

pub use error::Error;

use kit::clients::CatalogClient;
use kit::server::{Deps, Mount, MountError};
use kit::services::Service;

/// The decks service, as `turnier serve` mounts it.
#[derive(Debug)]
pub struct Decks;

impl Mount for Decks {
    const SERVICE: Service = Service::Decks;
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
