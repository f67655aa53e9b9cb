//! The versioned JSON API under `/api/v1`, which the web frontend calls.
//!
//! Each resource gets a module here with its routes and its `#[derive(OpenApi)]` document,
//! and one line in each of [`routes`] and [`openapi_parts`]. Handlers convert JSON to a
//! service's request, call it through its typed client ([`crate::AppState::clients`]), and convert back; errors
//! become [`crate::ApiError`] with `?`. Business rules stay in the services.

use axum::Router;
use http::StatusCode;
use proto::game::Game;
use utoipa::OpenApi as _;

use crate::ApiError;

pub mod accounts;
pub mod calculators;
pub mod catalog;
pub mod deck_checks;
pub mod deck_sets;
pub mod decks;
pub mod formats;
pub mod rulesets;
pub mod saved_decks;
pub mod scripts;
pub mod search;
pub mod templates;

use crate::state::AppState;

/// Returns the `/api/v1/...` routes.
pub fn routes() -> Router<AppState> {
    // TODO(gateway): tournaments join as their issue lands;
    // until then their paths get the JSON 404 fallback.
    Router::new()
        .merge(accounts::routes())
        .merge(calculators::routes())
        .merge(catalog::routes())
        .merge(deck_checks::routes())
        .merge(deck_sets::routes())
        .merge(decks::routes())
        .merge(formats::routes())
        .merge(rulesets::routes())
        .merge(saved_decks::routes())
        .merge(scripts::routes())
        .merge(search::routes())
        .merge(templates::routes())
}

/// Returns the OpenAPI documents of the `/api/v1` modules, merged into [`crate::openapi()`].
pub fn openapi_parts() -> Vec<utoipa::openapi::OpenApi> {
    vec![
        accounts::AccountsDoc::openapi(),
        calculators::CalculatorsDoc::openapi(),
        catalog::CatalogDoc::openapi(),
        deck_checks::DeckChecksDoc::openapi(),
        deck_sets::DeckSetsDoc::openapi(),
        decks::DecksDoc::openapi(),
        formats::FormatsDoc::openapi(),
        rulesets::RulesetsDoc::openapi(),
        saved_decks::SavedDecksDoc::openapi(),
        scripts::ScriptsDoc::openapi(),
        search::SearchDoc::openapi(),
        templates::TemplatesDoc::openapi(),
    ]
}

// Both helpers answer with `ApiError`, which lives for one response (see the route modules).
#[allow(clippy::result_large_err)]
/// Reads the `{game}` path segment: `lor`, `pokemon` or `riftbound`; anything else is a 404
/// `unknown_game`, since no resource lives under it.
pub(crate) fn game(name: &str) -> Result<Game, ApiError> {
    name.parse().map_err(|_| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_game",
            format!(
                "unknown game `{}` (expected lor, pokemon or riftbound)",
                kit::status::quote(name)
            ),
        )
    })
}

#[allow(clippy::result_large_err)]
/// Writes a message (or any serializable answer) as JSON: its canonical proto3 JSON for the
/// generated messages. Serialization of plain data cannot fail; if it did, it is a 500.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> Result<serde_json::Value, ApiError> {
    serde_json::to_value(value).map_err(|_| ApiError::internal())
}

pub(crate) use proto::json::rfc3339;

#[allow(clippy::result_large_err)]
/// Reads a profile's optional `game` query and finds the user: their username as typed at
/// sign-up (what rulesets, decks and templates keep; the accounts service knows it in any case
/// and spelling), or a 404 for no such user.
pub(crate) async fn profile_of(
    calls: &crate::auth::Calls,
    username: String,
    game_name: Option<&str>,
) -> Result<(String, Option<Game>), ApiError> {
    let game = game_name
        .map(|name| {
            game(name).map_err(|_| {
                ApiError::invalid_argument(format!(
                    "`game`: unknown game `{}` (expected lor, pokemon or riftbound)",
                    kit::status::quote(name)
                ))
                .with_details(serde_json::json!({"field": "game"}))
            })
        })
        .transpose()?;
    let user = calls.accounts()?.get_user(&username).await?;
    let username = user.user.map(|user| user.username).unwrap_or(username);
    Ok((username, game))
}
