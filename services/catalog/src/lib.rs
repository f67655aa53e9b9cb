//! The catalog service: cards, printings, aliases and globals per game, imported from the
//! games' real card data, served over gRPC (`turnier.catalog.v1.CatalogService`).
//!
//! It owns the catalog tables (its migrations in `migrations/`): every card identity of the
//! three games with its printings, the refs that resolve to it, the sets, the globals, and a
//! version per game that changes whenever an import changes a card. It calls no other service.
//! Its callers are the gateway (card lookups and sets for the web frontend), the search service
//! (every card, to index), the decks service (cards and names for deck imports and exports),
//! the scripts service (whole catalogs as card pools), and the CLI; all of them through
//! `kit::clients::CatalogClient`.
//!
//! `domain` turns upstream files into cards (pure); `import` reads a data folder and saves
//! what the domain made; `store` keeps the catalog; `grpc` serves it. On its first start it
//! fills an empty catalog with the built-in sample cards, then imports the data folder in the
//! background.

pub mod domain;
mod error;
pub mod grpc;
pub mod import;
mod settings;
pub mod store;
#[cfg(feature = "testing")]
pub mod testing;

use kit::server::{Deps, Mount, MountError};
use kit::services::Service;

pub use error::Error;
pub use settings::Settings;

/// The catalog service, as `turnier serve` mounts it.
#[derive(Debug)]
pub struct Catalog;

impl Mount for Catalog {
    const SERVICE: Service = Service::Catalog;
    type Settings = Settings;

    fn mount(
        routes: &mut tonic::service::RoutesBuilder,
        deps: &Deps,
        settings: &Settings,
    ) -> Result<(), MountError> {
        let store = store::Store::new(deps.database(Self::SERVICE)?.clone());
        // First start: the sample catalog at once, the data folder in the background.
        tokio::spawn(import::bootstrap(store.clone(), settings.data_dir()));
        routes.add_service(grpc::server(grpc::Api::new(store)));
        Ok(())
    }

    fn migrator() -> Option<&'static sqlx::migrate::Migrator> {
        Some(&store::MIGRATOR)
    }
}
