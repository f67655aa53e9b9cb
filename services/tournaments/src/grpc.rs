//! The tonic implementation of `turnier.tournaments.v1.TournamentService`.

use proto::tournaments::v1::tournament_service_server::{
    TournamentService, TournamentServiceServer,
};

/// The `TournamentService` implementation.
#[derive(Debug, Clone, Default)]
pub struct Api;

impl TournamentService for Api {}

/// Returns the tonic server for this service.
pub fn server() -> TournamentServiceServer<Api> {
    TournamentServiceServer::new(Api)
}
