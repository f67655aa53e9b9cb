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
    /// A client of `turnier.decks.v1.DeckService`. Cheap to clone. Reads and checks are
    /// retried when a retry can help; saves and changes are sent once (a repeated save by name
    /// would answer that it replaced the deck it had just made).
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

    /// Saves a deck of the caller's by name (a name in use replaces that deck).
    pub async fn save_deck(
        &self,
        request: pb::SaveDeckRequest,
    ) -> Result<pb::SaveDeckResponse, ServiceError> {
        rpc!(self, Once, request, save_deck)
    }

    /// Returns a saved deck the caller may see.
    pub async fn get_deck(
        &self,
        request: pb::GetDeckRequest,
    ) -> Result<pb::SavedDeckResponse, ServiceError> {
        rpc!(self, Idempotent, request, get_deck)
    }

    /// Lists a page of the caller's saved decks of a game.
    pub async fn list_decks(
        &self,
        request: pb::ListDecksRequest,
    ) -> Result<pb::ListDecksResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_decks)
    }

    /// Lists a page of a user's public decks.
    pub async fn list_public_decks(
        &self,
        request: pb::ListPublicDecksRequest,
    ) -> Result<pb::ListDecksResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_public_decks)
    }

    /// Changes a saved deck of the caller's.
    pub async fn update_deck(
        &self,
        request: pb::UpdateDeckRequest,
    ) -> Result<pb::SaveDeckResponse, ServiceError> {
        rpc!(self, Once, request, update_deck)
    }

    /// Deletes a saved deck of the caller's.
    pub async fn delete_deck(
        &self,
        request: pb::DeleteDeckRequest,
    ) -> Result<pb::DeleteDeckResponse, ServiceError> {
        rpc!(self, Idempotent, request, delete_deck)
    }

    /// Opens a shared deck by its share code.
    pub async fn get_shared_deck(
        &self,
        request: pb::GetSharedDeckRequest,
    ) -> Result<pb::SharedDeck, ServiceError> {
        rpc!(self, Idempotent, request, get_shared_deck)
    }

    /// Returns a saved deck in the game's share and export formats.
    pub async fn export_saved_deck(
        &self,
        request: pb::ExportSavedDeckRequest,
    ) -> Result<pb::SharedDeck, ServiceError> {
        rpc!(self, Idempotent, request, export_saved_deck)
    }

    /// Saves a deck set of the caller's by name.
    pub async fn save_deck_set(
        &self,
        request: pb::SaveDeckSetRequest,
    ) -> Result<pb::SaveDeckSetResponse, ServiceError> {
        rpc!(self, Once, request, save_deck_set)
    }

    /// Returns a deck set the caller may see.
    pub async fn get_deck_set(
        &self,
        request: pb::GetDeckSetRequest,
    ) -> Result<pb::DeckSetResponse, ServiceError> {
        rpc!(self, Idempotent, request, get_deck_set)
    }

    /// Lists a page of the caller's deck sets of a game.
    pub async fn list_deck_sets(
        &self,
        request: pb::ListDeckSetsRequest,
    ) -> Result<pb::ListDeckSetsResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_deck_sets)
    }

    /// Changes a deck set of the caller's.
    pub async fn update_deck_set(
        &self,
        request: pb::UpdateDeckSetRequest,
    ) -> Result<pb::SaveDeckSetResponse, ServiceError> {
        rpc!(self, Once, request, update_deck_set)
    }

    /// Deletes a deck set of the caller's.
    pub async fn delete_deck_set(
        &self,
        request: pb::DeleteDeckSetRequest,
    ) -> Result<pb::DeleteDeckSetResponse, ServiceError> {
        rpc!(self, Idempotent, request, delete_deck_set)
    }

    /// Lists a game's built-in templates and a page of the caller's own.
    pub async fn list_templates(
        &self,
        request: pb::ListTemplatesRequest,
    ) -> Result<pb::ListTemplatesResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_templates)
    }

    /// Saves the caller's layout as a template by name.
    pub async fn save_template(
        &self,
        request: pb::SaveTemplateRequest,
    ) -> Result<pb::SaveTemplateResponse, ServiceError> {
        rpc!(self, Once, request, save_template)
    }

    /// Returns a template the caller may see.
    pub async fn get_template(
        &self,
        request: pb::GetTemplateRequest,
    ) -> Result<pb::TemplateResponse, ServiceError> {
        rpc!(self, Idempotent, request, get_template)
    }

    /// Renames or publishes a template of the caller's.
    pub async fn update_template(
        &self,
        request: pb::UpdateTemplateRequest,
    ) -> Result<pb::TemplateResponse, ServiceError> {
        rpc!(self, Once, request, update_template)
    }

    /// Deletes a template of the caller's.
    pub async fn delete_template(
        &self,
        request: pb::DeleteTemplateRequest,
    ) -> Result<pb::DeleteTemplateResponse, ServiceError> {
        rpc!(self, Idempotent, request, delete_template)
    }

    /// Hides a built-in template from the caller's pickers, or shows it again.
    pub async fn hide_template(
        &self,
        request: pb::HideTemplateRequest,
    ) -> Result<pb::TemplateResponse, ServiceError> {
        rpc!(self, Idempotent, request, hide_template)
    }

    /// Lists a page of a user's public templates.
    pub async fn list_public_templates(
        &self,
        request: pb::ListPublicTemplatesRequest,
    ) -> Result<pb::ListTemplatesResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_public_templates)
    }

    /// Reads a pasted deck into a template's piles.
    pub async fn import_into_template(
        &self,
        request: pb::ImportIntoTemplateRequest,
    ) -> Result<pb::ImportIntoTemplateResponse, ServiceError> {
        rpc!(self, Idempotent, request, import_into_template)
    }
}
