//! `/api/v1/{game}/decks:import` and `/api/v1/{game}/decks:formats`: pasted decks for the web
//! frontend's deck builder.

// `ApiError` is what every handler answers with; it lives for one response, so its size on
// the error path does not matter and boxing it would only add noise to every `?`.
#![allow(clippy::result_large_err)]

use axum::extract::Path;
use axum::routing::{get, post};
use axum::{Json, Router};
use proto::decks::v1::{ExportCard, ExportDeckRequest, ImportDeckRequest, ListDeckFormatsRequest};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use utoipa::OpenApi;

use crate::ApiError;
use crate::auth::Calls;
use crate::state::AppState;

/// The deck-import routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1/{game}/decks:import", post(import_deck))
        .route("/api/v1/{game}/decks:export", post(export_deck))
        .route("/api/v1/{game}/decks:formats", get(list_formats))
}

/// The deck routes' part of the OpenAPI document.
#[derive(Debug, OpenApi)]
#[openapi(
    paths(import_deck, export_deck, list_formats),
    components(schemas(ImportBody, ExportBody, ExportCardBody)),
    tags((name = "decks", description = "Deck codes and deck lists"))
)]
pub struct DecksDoc;

/// The body of `decks:import`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ImportBody {
    /// The pasted deck code or list.
    text: String,
    /// `piles` (the default) or `single-deck`: in a single-deck layout the sideboard is left
    /// out, with a warning saying how many cards.
    #[serde(default)]
    layout: Option<String>,
}

fn layout(value: Option<&str>) -> Result<proto::decks::v1::DeckLayout, ApiError> {
    match value {
        None | Some("piles") => Ok(proto::decks::v1::DeckLayout::Piles),
        Some("single-deck") => Ok(proto::decks::v1::DeckLayout::SingleDeck),
        Some(other) => Err(ApiError::invalid_argument(format!(
            "layout: expected `piles` or `single-deck`, got `{other}`"
        ))),
    }
}

/// Reads a pasted deck code or list and returns its cards by pile, the format that read it,
/// and every line left out with why.
#[utoipa::path(
    post,
    path = "/api/v1/{game}/decks:import",
    tag = "decks",
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    request_body = ImportBody,
    responses(
        (status = 200, description = "`{\"format\", \"piles\": {name: [card]}, \"chosenChampion\", \"warnings\"}`"),
        (status = 400, description = "No format reads the text (`unreadable_deck`)", body = crate::ErrorBody)
    )
)]
async fn import_deck(
    calls: Calls,
    Path(game_name): Path<String>,
    Json(body): Json<ImportBody>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .decks()?
        .import_deck(ImportDeckRequest {
            game: proto::game::to_wire(game),
            text: body.text,
            layout: layout(body.layout.as_deref())? as i32,
        })
        .await?;
    let mut piles = Map::new();
    for pile in response.piles {
        let cards = super::to_json(&pile.cards)?;
        piles.insert(pile.name, cards);
    }
    let warnings = super::to_json(&response.warnings)?;
    Ok(Json(json!({
        "game": game_name,
        "format": response.format,
        "piles": piles,
        "chosenChampion": response.chosen_champion,
        "warnings": warnings,
    })))
}

/// The body of `decks:export`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ExportBody {
    /// The format's id (`ptcg-live`, `rift1`, `piltover-list`, …).
    format: String,
    /// The cards.
    cards: Vec<ExportCardBody>,
    /// The ref of the chosen champion (Riftbound).
    #[serde(default)]
    chosen_champion: Option<String>,
}

/// One card to export.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportCardBody {
    /// The deck ref.
    #[serde(rename = "ref")]
    reference: String,
    /// Copies.
    count: u32,
    /// `main` (the default), `sideboard`, `legend`, `runes`, `battlefields`.
    #[serde(default)]
    pile: String,
}

/// Writes a deck in one of the game's code or list formats.
#[utoipa::path(
    post,
    path = "/api/v1/{game}/decks:export",
    tag = "decks",
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    request_body = ExportBody,
    responses(
        (status = 200, description = "`{\"text\": \"…\"}`"),
        (status = 400, description = "Unknown format or card (`unexportable_deck`)", body = crate::ErrorBody)
    )
)]
async fn export_deck(
    calls: Calls,
    Path(game_name): Path<String>,
    Json(body): Json<ExportBody>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .decks()?
        .export_deck(ExportDeckRequest {
            game: proto::game::to_wire(game),
            format: body.format,
            cards: body
                .cards
                .into_iter()
                .map(|card| ExportCard {
                    r#ref: card.reference,
                    count: card.count,
                    pile: card.pile,
                })
                .collect(),
            chosen_champion: body.chosen_champion,
        })
        .await?;
    Ok(Json(json!({ "text": response.text })))
}

/// Lists the formats a game imports, in the order they are tried.
#[utoipa::path(
    get,
    path = "/api/v1/{game}/decks:formats",
    tag = "decks",
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 200, description = "`{\"formats\": [{\"id\", \"hasSideboard\"}]}`"))
)]
async fn list_formats(
    calls: Calls,
    Path(game_name): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .decks()?
        .list_deck_formats(ListDeckFormatsRequest {
            game: proto::game::to_wire(game),
        })
        .await?;
    Ok(Json(super::to_json(&response)?))
}
