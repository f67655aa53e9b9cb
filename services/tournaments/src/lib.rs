//! The tournaments service: the tournament engine, registration and deck submission
//! (`turnier.tournaments.v1.TournamentService`).
//!
//! Today it owns the engine's rules (`domain`: standings, pairings, brackets, lobbies) and
//! serves only the gRPC health protocol and server reflection; events, registration, rounds and
//! deck submission, with their tables and the submission worker, arrive with the tournaments
//! issue. It will call the decks service (deck codes and lists), the catalog (cards) and the
//! scripts service (rulesets) through `kit::clients`. Its callers are the CLI (`turnier tournament
//! standings|pair`, the engine in process), and then the gateway and third parties.

pub mod domain;
pub mod grpc;
pub mod offline;
pub mod run;

use kit::server::{Deps, Mount, MountError};
use kit::services::Service;

/// The tournaments service, as `turnier serve` mounts it.
#[derive(Debug)]
pub struct Tournaments;

impl Mount for Tournaments {
    const SERVICE: Service = Service::Tournaments;
    type Settings = ();

    fn mount(
        routes: &mut tonic::service::RoutesBuilder,
        _deps: &Deps,
        (): &(),
    ) -> Result<(), MountError> {
        routes.add_service(grpc::server());
        Ok(())
    }
}
