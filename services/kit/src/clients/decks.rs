//! The decks service's client.

use std::time::Duration;

use crate::client::TracedChannel;
use crate::status::ServiceError;
use proto::decks::v1 as pb;
use proto::decks::v1::deck_service_client::DeckServiceClient;

use crate::clients::call::{CallOptions, client, rpc};

/// Decks, reports and rulings are small.
pub const DEFAULT_OPTIONS: CallOptions = CallOptions {
    deadline: Duration::from_secs(30),
    max_decoding_bytes: 16 << 20,
};

client!(
    /// A client of `turnier.decks.v1.DeckService`. Cheap to clone. Every call is a pure
    /// computation, so every call is retried when a retry can help.
    DecksClient,
    DeckServiceClient<TracedChannel>,
    DEFAULT_OPTIONS
);

impl DecksClient {
    /// Checks a deck against a declarative format at a moment.
    pub async fn check_deck_against_format(
        &self,
        request: pb::CheckDeckAgainstFormatRequest,
    ) -> Result<pb::CheckDeckAgainstFormatResponse, ServiceError> {
        rpc!(self, Idempotent, request, check_deck_against_format)
    }

    /// Returns the rulings of a format on a day.
    pub async fn get_ruling(
        &self,
        request: pb::GetRulingRequest,
    ) -> Result<pb::GetRulingResponse, ServiceError> {
        rpc!(self, Idempotent, request, get_ruling)
    }

    /// Reads a pasted deck code or list.
    pub async fn import_deck(
        &self,
        request: pb::ImportDeckRequest,
    ) -> Result<pb::ImportDeckResponse, ServiceError> {
        rpc!(self, Idempotent, request, import_deck)
    }

    /// Writes a deck in a code or list format.
    pub async fn export_deck(
        &self,
        request: pb::ExportDeckRequest,
    ) -> Result<pb::ExportDeckResponse, ServiceError> {
        rpc!(self, Idempotent, request, export_deck)
    }

    /// Returns the formats a game imports, in the order they are tried.
    pub async fn list_deck_formats(
        &self,
        request: pb::ListDeckFormatsRequest,
    ) -> Result<pb::ListDeckFormatsResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_deck_formats)
    }
}
