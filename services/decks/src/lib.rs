//! The decks service: deck codes, deck lists, formats and rulings
//! (`turnier.decks.v1.DeckService`).
//!
//! It owns the decks players save (`store`, its migrations in `migrations/`; `saved` the
//! RPCs over them through the one ownership rule), and opens shared deck links and exports
//! (`share`). Formats travel in the request as their documented JSON.
//! It checks decks against declarative formats and gives the rulings of a day
//! (`CheckDeckAgainstFormat`, `GetRuling`), and imports and exports pasted decks
//! (`ImportDeck`, `ExportDeck`), finding their cards through the catalog service
//! (`kit::clients::CatalogClient`), and runs a saved deck's rules in the scripts service
//! (`kit::clients::ScriptsClient`, with the caller's token). Its callers are the gateway (`/api/v1/{game}/decks:*`,
//! `/api/v1/formats:check`), third parties over gRPC, and soon the tournaments service's
//! submission worker. The CLI runs the same code in process: `turnier deck` and `turnier
//! format` use the codecs and rules directly, `turnier deck import` the import over a local
//! catalog service.

pub mod domain;
mod error;
pub mod grpc;
pub mod import;
pub mod saved;
pub mod share;
pub mod store;
pub mod templates;

pub use error::Error;

use kit::clients::{CatalogClient, ScriptsClient};
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
        // Saved decks live in the process's database: a process without one fails here, at
        // startup, rather than on the first save.
        let db = deps.database(Self::SERVICE)?;
        let store = store::DeckStore::new(db.clone());
        let templates = templates::Templates::new(store::TemplateStore::new(db.clone()));
        let catalog = CatalogClient::connect_lazy(deps.url(Service::Catalog))?;
        let scripts = ScriptsClient::connect_lazy(deps.url(Service::Scripts))?;
        let saved = saved::SavedDecks::new(store, scripts);
        routes.add_service(grpc::server(grpc::Api::new(catalog, saved, templates)));
        Ok(())
    }

    fn migrator() -> Option<&'static sqlx::migrate::Migrator> {
        Some(&store::MIGRATOR)
    }
}
