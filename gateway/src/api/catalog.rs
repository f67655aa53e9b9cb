//! `/api/v1/{game}/cards…`, `/sets`, `/globals`: the card catalog for the web frontend.
//!
//! Cards come back as the catalog's canonical proto3 JSON, which is the documented card JSON.

// `ApiError` is what every handler answers with; it lives for one response, so its size on
// the error path does not matter and boxing it would only add noise to every `?`.
#![allow(clippy::result_large_err)]

use axum::extract::Path;
use axum::routing::{get, post};
use axum::{Json, Router};
use http::StatusCode;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use utoipa::OpenApi;

use crate::ApiError;
use crate::auth::Calls;
use crate::state::AppState;

/// The most refs one batch request may carry.
const MAX_BATCH_REFS: usize = 10_000;

/// The catalog's routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1/{game}/cards/{reference}", get(get_card))
        .route("/api/v1/{game}/cards:batchGet", post(batch_get))
        .route("/api/v1/{game}/sets", get(list_sets))
        .route("/api/v1/{game}/globals", get(get_globals))
}

/// The catalog's part of the OpenAPI document.
#[derive(Debug, OpenApi)]
#[openapi(
    paths(get_card, batch_get, list_sets, get_globals),
    components(schemas(BatchGetBody)),
    tags((name = "catalog", description = "Cards, sets and globals per game"))
)]
pub struct CatalogDoc;

/// Returns the card a ref (printing id, identity id or alias) resolves to.
#[utoipa::path(
    get,
    path = "/api/v1/{game}/cards/{reference}",
    tag = "catalog",
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("reference" = String, Path, description = "printing id, identity id or alias")),
    responses((status = 200, description = "The card, as the card-data pages document it"),
              (status = 404, description = "No such card or game", body = crate::ErrorBody))
)]
async fn get_card(
    calls: Calls,
    Path((game_name, reference)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .catalog()?
        .get_cards(game, vec![reference.clone()])
        .await?;
    let card = response
        .cards
        .into_iter()
        .next()
        .and_then(|entry| entry.card)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "card_not_found",
                format!(
                    "no card `{}` in the {game_name} catalog",
                    kit::status::quote(&reference)
                ),
            )
        })?;
    Ok(Json(super::to_json(&card)?))
}

/// The body of `cards:batchGet`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchGetBody {
    /// Deck refs: printing ids, identity ids or aliases.
    refs: Vec<String>,
}

/// Returns `cardsById` keyed by the refs given (in their order) and the refs nobody knows.
#[utoipa::path(
    post,
    path = "/api/v1/{game}/cards:batchGet",
    tag = "catalog",
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    request_body = BatchGetBody,
    responses((status = 200, description = "`{\"cardsById\": {ref: card}, \"unknownRefs\": [ref]}`"),
              (status = 400, description = "Malformed body or too many refs", body = crate::ErrorBody))
)]
async fn batch_get(
    calls: Calls,
    Path(game_name): Path<String>,
    Json(body): Json<BatchGetBody>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    if body.refs.len() > MAX_BATCH_REFS {
        return Err(ApiError::invalid_argument(format!(
            "too many refs: {} given, at most {MAX_BATCH_REFS}",
            body.refs.len()
        )));
    }
    let response = calls.catalog()?.get_cards(game, body.refs).await?;
    // serde_json keeps insertion order: the frontend sees the refs in the order it sent them.
    let mut cards_by_id = Map::new();
    for entry in response.cards {
        if let Some(card) = entry.card {
            cards_by_id.insert(entry.r#ref, super::to_json(&card)?);
        }
    }
    Ok(Json(
        json!({ "cardsById": cards_by_id, "unknownRefs": response.unknown_refs }),
    ))
}

/// Lists a game's sets.
#[utoipa::path(
    get,
    path = "/api/v1/{game}/sets",
    tag = "catalog",
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 200, description = "`{\"sets\": [...]}`"))
)]
async fn list_sets(calls: Calls, Path(game_name): Path<String>) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let sets = calls.catalog()?.list_sets(game).await?;
    Ok(Json(json!({ "sets": super::to_json(&sets)? })))
}

/// Returns a game's globals object, as the card-data pages document it.
#[utoipa::path(
    get,
    path = "/api/v1/{game}/globals",
    tag = "catalog",
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 200, description = "The globals object"))
)]
async fn get_globals(calls: Calls, Path(game_name): Path<String>) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls.catalog()?.get_globals(game).await?;
    Ok(Json(match response.globals {
        Some(globals) => super::to_json(&globals)?,
        None => Value::Object(Map::new()),
    }))
}
