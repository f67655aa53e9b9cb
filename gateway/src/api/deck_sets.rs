//! `/api/v1/{game}/decksets`: lineups saved as deck sets — a multi-deck layout's piles saved
//! together by name, each pile optionally synced to a saved deck (reading the set shows that
//! deck's current cards; saving the set writes the pile back to it) — through
//! `turnier.decks.v1.DeckService` with the caller's token forwarded.

// `ApiError` is what every handler answers with; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::extract::{Path, Query};
use axum::routing::get;
use axum::{Json, Router};
use http::StatusCode;
use proto::decks::v1 as pb;
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::OpenApi;

use super::saved_decks::{
    DeckRulesBody, PageQuery, SavedPileBody, deck_json, piles, rules, warnings_json,
};
use crate::ApiError;
use crate::auth::Calls;
use crate::state::AppState;

/// The deck sets' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1/{game}/decksets", get(list).post(save))
        .route(
            "/api/v1/{game}/decksets/{id}",
            get(read).patch(change).delete(remove),
        )
}

/// The deck sets' part of the OpenAPI document.
#[derive(Debug, OpenApi)]
#[openapi(
    paths(list, save, read, change, remove),
    components(schemas(SaveDeckSetBody, ChangeDeckSetBody)),
    tags((name = "deck sets", description = "Lineups saved as deck sets, their piles synced to saved decks"))
)]
pub struct DeckSetsDoc;

/// The body of `POST /api/v1/{game}/decksets`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SaveDeckSetBody {
    /// 1 to 100 characters; a name you already use for a deck set of the game (in any case)
    /// replaces that set.
    name: String,
    /// Default false: private.
    public: Option<bool>,
    /// The piles: each a deck of the lineup, optionally with `syncedDeck`.
    #[serde(default)]
    piles: Vec<SavedPileBody>,
    /// The card rule and the deck set rule (`decksetRule`).
    rules: Option<DeckRulesBody>,
}

/// The body of `PATCH /api/v1/{game}/decksets/{id}`: any of its fields.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChangeDeckSetBody {
    name: Option<String>,
    public: Option<bool>,
    piles: Option<Vec<SavedPileBody>>,
    rules: Option<DeckRulesBody>,
}

fn answer(deck_set: Option<&pb::SavedDeck>) -> Value {
    deck_set.map_or(Value::Null, deck_json)
}

/// Lists the caller's deck sets of a game, the last changed first, a page at a time.
#[utoipa::path(get, path = "/api/v1/{game}/decksets", tag = "deck sets",
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("pageSize" = Option<u32>, Query, description = "1 to 1000 (default 50)"),
           ("pageToken" = Option<String>, Query, description = "The `nextPageToken` of the previous page")),
    responses((status = 200, description = "`{\"deckSets\": [deckSet], \"nextPageToken\"}`"),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody)))]
async fn list(
    calls: Calls,
    Path(game_name): Path<String>,
    Query(query): Query<PageQuery>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .decks()?
        .list_deck_sets(pb::ListDeckSetsRequest {
            game: proto::game::to_wire(game),
            page_size: query.page_size.unwrap_or(0),
            page_token: query.page_token.unwrap_or_default(),
        })
        .await?;
    Ok(Json(json!({
        "deckSets": response.deck_sets.iter().map(deck_json).collect::<Vec<_>>(),
        "nextPageToken": response.next_page_token,
    })))
}

/// Saves a deck set of the caller's by name; synced piles write their cards back to their
/// saved decks, which must be the caller's.
#[utoipa::path(post, path = "/api/v1/{game}/decksets", tag = "deck sets", request_body = SaveDeckSetBody,
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 201, description = "`{\"deckSet\", \"replaced\": false, \"warnings\"}`"),
              (status = 200, description = "`{\"deckSet\", \"replaced\": true, \"warnings\"}`: the set of that name, replaced"),
              (status = 400, description = "`invalid_argument` naming the field", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`", body = crate::ErrorBody),
              (status = 404, description = "`not_found`: a synced deck that is not yours", body = crate::ErrorBody)))]
async fn save(
    calls: Calls,
    Path(game_name): Path<String>,
    Json(body): Json<SaveDeckSetBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .decks()?
        .save_deck_set(pb::SaveDeckSetRequest {
            game: proto::game::to_wire(game),
            name: body.name,
            public: body.public.unwrap_or(false),
            piles: piles(body.piles)?,
            rules: body.rules.map(rules),
        })
        .await?;
    let status = if response.replaced {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    Ok((
        status,
        Json(json!({
            "deckSet": answer(response.deck_set.as_ref()),
            "replaced": response.replaced,
            "warnings": warnings_json(&response.warnings),
        })),
    ))
}

/// A deck set the caller may see; each synced pile shows its saved deck's current cards.
#[utoipa::path(get, path = "/api/v1/{game}/decksets/{id}", tag = "deck sets",
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The deck set's id (`ds_…`)")),
    responses((status = 200, description = "`{\"deckSet\"}`"),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn read(
    calls: Calls,
    Path((game_name, id)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .decks()?
        .get_deck_set(pb::GetDeckSetRequest {
            game: proto::game::to_wire(game),
            id,
        })
        .await?;
    Ok(Json(json!({"deckSet": answer(response.deck_set.as_ref())})))
}

/// Changes a deck set of the caller's; new piles write synced piles back.
#[utoipa::path(patch, path = "/api/v1/{game}/decksets/{id}", tag = "deck sets", request_body = ChangeDeckSetBody,
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The deck set's id")),
    responses((status = 200, description = "`{\"deckSet\", \"warnings\"}`"),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody),
              (status = 409, description = "`already_exists`", body = crate::ErrorBody)))]
async fn change(
    calls: Calls,
    Path((game_name, id)): Path<(String, String)>,
    Json(body): Json<ChangeDeckSetBody>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let replace_piles = body.piles.is_some();
    let response = calls
        .decks()?
        .update_deck_set(pb::UpdateDeckSetRequest {
            game: proto::game::to_wire(game),
            id,
            name: body.name,
            public: body.public,
            piles: piles(body.piles.unwrap_or_default())?,
            replace_piles,
            rules: body.rules.map(rules),
        })
        .await?;
    Ok(Json(json!({
        "deckSet": answer(response.deck_set.as_ref()),
        "warnings": warnings_json(&response.warnings),
    })))
}

/// Deletes a deck set of the caller's; the saved decks its piles were synced to stay.
#[utoipa::path(delete, path = "/api/v1/{game}/decksets/{id}", tag = "deck sets",
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The deck set's id")),
    responses((status = 204, description = "deleted"),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn remove(
    calls: Calls,
    Path((game_name, id)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    let game = super::game(&game_name)?;
    calls
        .decks()?
        .delete_deck_set(pb::DeleteDeckSetRequest {
            game: proto::game::to_wire(game),
            id,
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
