//! The calculators service: the default dashboard of each game, the no-code builder and the
//! calculators people own and share (`turnier.calculators.v1.CalculatorService`).
//!
//! It owns calculators and their versions, and the defaults an account switched off (`store`,
//! its migrations in `migrations/`). Its domain holds the builder's fields per game, its spec
//! (version 1) and the script generated from a spec (`domain`); `defaults` the Deck breakdown
//! of each game, our own calculator scripts. It calls the catalog service for a deck's cards
//! and the scripts service to run a calculator (`kit::clients`). Its callers are the gateway
//! (`/api/v1/{game}/calculators…`), third parties over gRPC, and `turnier calculator`.

pub mod defaults;
pub mod domain;
mod error;
pub mod grpc;
pub mod service;
pub mod store;

pub use error::Error;

use kit::clients::{CatalogClient, ScriptsClient};
use kit::server::{Deps, Mount, MountError};
use kit::services::Service;

/// The calculators service, as `turnier serve` mounts it.
#[derive(Debug)]
pub struct Calculators;

impl Mount for Calculators {
    const SERVICE: Service = Service::Calculators;
    type Settings = ();

    fn mount(
        routes: &mut tonic::service::RoutesBuilder,
        deps: &Deps,
        (): &(),
    ) -> Result<(), MountError> {
        // Calculators live in the process's database: a process without one fails here.
        let store = store::CalculatorStore::new(deps.database(Self::SERVICE)?.clone());
        let scripts = ScriptsClient::connect_lazy(deps.url(Service::Scripts))?;
        let catalog = CatalogClient::connect_lazy(deps.url(Service::Catalog))?;
        routes.add_service(grpc::server(grpc::Api::new(service::Calculators::new(
            store, scripts, catalog,
        ))));
        Ok(())
    }

    fn migrator() -> Option<&'static sqlx::migrate::Migrator> {
        Some(&store::MIGRATOR)
    }
}
