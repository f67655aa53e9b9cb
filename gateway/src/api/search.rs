//! `/api/v1/{game}/cards:search` and `cards:explain`: the card search language for the web
//! frontend.

// `ApiError` is what every handler answers with; it lives for one response, so its size on
// the error path does not matter and boxing it would only add noise to every `?`.
#![allow(clippy::result_large_err)]

use axum::extract::{Path, Query};
use axum::routing::get;
use axum::{Json, Router};
use proto::search::v1::{ExplainQueryRequest, SearchRequest};
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::OpenApi;

use crate::ApiError;
use crate::auth::Calls;
use crate::state::AppState;

/// The search routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1/{game}/cards:search", get(search))
        .route("/api/v1/{game}/cards:explain", get(explain))
}

/// The search routes' part of the OpenAPI document.
#[derive(Debug, OpenApi)]
#[openapi(
    paths(search, explain),
    tags((name = "search", description = "The card search language"))
)]
pub struct SearchDoc;

/// The query string of `cards:search`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct SearchParams {
    /// The query, at most 1,000 characters.
    #[serde(default)]
    q: String,
    /// Rows per page (default 60, at most 1,000).
    #[serde(default)]
    page_size: i32,
    /// From a previous page's `nextPageToken`.
    #[serde(default)]
    page_token: String,
}

/// Runs a query: `{"cards": [card], "totalSize", "warnings", "nextPageToken"}`.
#[utoipa::path(
    get,
    path = "/api/v1/{game}/cards:search",
    tag = "search",
    params(("game" = String, Path, description = "lor, pokemon or riftbound"), SearchParams),
    responses(
        (status = 200, description = "One page of cards, in the documented card JSON"),
        (status = 400, description = "The query does not parse (`invalid_query`, with its position)", body = crate::ErrorBody)
    )
)]
async fn search(
    calls: Calls,
    Path(game_name): Path<String>,
    Query(params): Query<SearchParams>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .search()?
        .search(SearchRequest {
            game: proto::game::to_wire(game),
            query: params.q,
            page_size: params.page_size,
            page_token: params.page_token,
        })
        .await?;
    let mut cards = Vec::with_capacity(response.cards.len());
    for hit in response.cards {
        let Some(card) = hit.card else { continue };
        let mut card = super::to_json(&card)?;
        if let (Some(printing), Some(object)) = (hit.printing_id, card.as_object_mut()) {
            // With `unique:prints`, which printing the row stands for.
            object.insert("printingId".to_owned(), Value::String(printing));
        }
        cards.push(card);
    }
    Ok(Json(json!({
        "cards": cards,
        "totalSize": response.total_size,
        "warnings": response.warnings,
        "nextPageToken": response.next_page_token,
    })))
}

/// The query string of `cards:explain`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct ExplainParams {
    /// The query.
    #[serde(default)]
    q: String,
}

/// Explains a query: the parsed tree, its warnings and its order, for query help.
#[utoipa::path(
    get,
    path = "/api/v1/{game}/cards:explain",
    tag = "search",
    params(("game" = String, Path, description = "lor, pokemon or riftbound"), ExplainParams),
    responses((status = 200, description = "`{\"query\", \"tree\", \"warnings\", \"order\", …}`"))
)]
async fn explain(
    calls: Calls,
    Path(game_name): Path<String>,
    Query(params): Query<ExplainParams>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .search()?
        .explain_query(ExplainQueryRequest {
            game: proto::game::to_wire(game),
            query: params.q,
        })
        .await?;
    // The service wrote the explanation's JSON in its documented key order; read it as a
    // value (kept in that order) so a malformed one is a 500, not a broken body.
    let explanation: Value = serde_json::from_str(&response.explanation_json).map_err(|err| {
        tracing::error!(error = %err, "the search service sent an explanation that is not JSON");
        ApiError::internal()
    })?;
    Ok(Json(explanation))
}
