//! The tournaments service: the tournament engine, registration and deck submission
//! (`turnier.tournaments.v1.TournamentService`).
//!
//! It owns the engine's rules (`domain`: standings, pairings, brackets, lobbies), the events run
//! on the platform as the fold of their append-only log (`run`: what organizers and players
//! may do, and when), the log's tables (`store`, migrations `7…`), the operations with their
//! ownership checks and live events (`service`) and the gRPC surface (`grpc`). It calls the
//! accounts service to find co-organizers by username and the scripts service for the rules a
//! tournament's deck settings pin. Its callers are the gateway
//! (`/api/v1/…/tournaments…`), third parties over gRPC, and the CLI (`turnier tournament`:
//! the engine in process, or a server with `--server`). Deck submission arrives with its own
//! issue.

pub mod domain;
mod error;
pub mod grpc;
pub mod jobs;
pub mod lineup;
pub mod offline;
pub mod run;
pub mod service;
pub mod store;
pub mod worker;

pub use error::Error;

use kit::clients::{AccountsClient, ScriptsClient};
use kit::server::{Deps, Mount, MountError};
use kit::services::Service;

/// The tournaments service, as `turnier serve` mounts it.
#[derive(Debug)]
pub struct Tournaments;

/// What the tournaments service takes besides its dependencies.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Where lineup checks are queued (`worker::QUEUE`); `None`: nowhere (submissions stay
    /// pending).
    pub queue: Option<kit::queue::Queue>,
}

impl Mount for Tournaments {
    const SERVICE: Service = Service::Tournaments;
    type Settings = Settings;

    fn mount(
        routes: &mut tonic::service::RoutesBuilder,
        deps: &Deps,
        settings: &Settings,
    ) -> Result<(), MountError> {
        // Tournaments live in the process's database: a process without one fails here.
        let store = store::TournamentStore::new(deps.database(Self::SERVICE)?.clone());
        let accounts = AccountsClient::connect_lazy(deps.url(Service::Accounts))?;
        let scripts = ScriptsClient::connect_lazy(deps.url(Service::Scripts))?;
        let mut tournaments = service::Tournaments::new(store, Some(accounts), Some(scripts));
        if let Some(queue) = &settings.queue {
            tournaments = tournaments.with_queue(queue.clone());
        }
        routes.add_service(grpc::server(grpc::Api::new(tournaments)));
        Ok(())
    }

    fn migrator() -> Option<&'static sqlx::migrate::Migrator> {
        Some(&store::MIGRATOR)
    }
}
