//! The scripts service: the static safety check, compilation and sandboxed runs of user
//! JavaScript, rulesets and calculators (`turnier.scripts.v1.ScriptService`).
//!
//! It owns the rulesets people write and their immutable versions (`rulesets_store`, its
//! migrations in `migrations/`); compiled scripts are cached in memory by the hash of their
//! source. It calls the catalog service
//! (`kit::clients::CatalogClient`) for card pools over a whole catalog, kept per catalog version.
//! Its callers are the gateway (`/api/v1/scripts:*`), third parties over gRPC, and soon the
//! tournaments service's submission worker.
//!
//! `builtin` holds the built-in rules of each game (JavaScript embedded at compile time).
//! `domain` holds the pure rules (safety check, preparation, normalization, fair admission,
//! rulesets and their versions), `rulesets_store` keeps rulesets,
//! `sandbox` the Wasmtime runtime, `runner` the two put together, `slots` the wait for a turn
//! in the sandbox, and `grpc` the service over it.

pub mod builtin;
pub mod catalog_pool;
pub mod deck_check;
pub mod domain;
mod error;
pub mod grpc;
pub mod rulesets;
pub mod rulesets_store;
pub mod runner;
pub mod sandbox;
mod settings;
pub mod slots;

use kit::clients::{CatalogClient, TournamentsClient};
use kit::server::{Deps, Mount, MountError};
use kit::services::Service;

pub use error::Error;
pub use settings::Settings;

/// The scripts service, as `turnier serve` mounts it.
#[derive(Debug)]
pub struct Scripts;

impl Mount for Scripts {
    const SERVICE: Service = Service::Scripts;
    type Settings = Settings;

    /// A release build starts creating the sandbox in the background (about a second), so the
    /// first request finds it ready; a debug build, where it takes several seconds of CPU,
    /// creates it on first use, so the many processes tests start do not all pay for a sandbox
    /// they never use. Card pools over a whole catalog are read from the catalog service.
    /// When the process's shutdown grace is over, every run still in flight is halted, so the
    /// process exits in time.
    fn mount(
        routes: &mut tonic::service::RoutesBuilder,
        deps: &Deps,
        settings: &Self::Settings,
    ) -> Result<(), MountError> {
        // The rulesets live in the process's database: a process without one fails here, at
        // startup, rather than on the first ruleset request.
        let rulesets = rulesets::Rulesets::new(rulesets_store::RulesetStore::new(
            deps.database(Self::SERVICE)?.clone(),
        ))
        .with_tournaments(TournamentsClient::connect_lazy(
            deps.url(Service::Tournaments),
        )?);
        let catalog = CatalogClient::connect_lazy(deps.url(Service::Catalog))?;
        let api = grpc::Api::new(settings.clone())
            .with_catalog(catalog_pool::CatalogPools::new(catalog))
            .with_rulesets(rulesets);
        let halting = api.clone();
        let grace_over = deps.shutdown.wait_expired();
        tokio::spawn(async move {
            grace_over.await;
            tracing::warn!(
                runs = halting.slots_held(),
                "shutdown grace over: halting the sandbox runs in flight"
            );
            halting.halt();
        });
        if !cfg!(debug_assertions) {
            let warming = api.clone();
            tokio::spawn(async move {
                if let Err(err) = warming.warm_up().await {
                    tracing::error!(error = %err, "the script sandbox could not be created");
                }
            });
        }
        routes.add_service(grpc::server(api));
        Ok(())
    }

    fn migrator() -> Option<&'static sqlx::migrate::Migrator> {
        Some(&rulesets_store::MIGRATOR)
    }
}
