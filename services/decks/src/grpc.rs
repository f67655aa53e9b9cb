//! The tonic implementation of `turnier.decks.v1.DeckService`.

use proto::decks::v1::deck_service_server::{DeckService, DeckServiceServer};

/// The `DeckService` implementation.
#[derive(Debug, Clone, Default)]
pub struct Api;

impl DeckService for Api {}

/// Returns the tonic server for this service.
pub fn server() -> DeckServiceServer<Api> {
    DeckServiceServer::new(Api)
}
