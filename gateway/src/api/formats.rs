//! `POST /api/v1/formats:check`: checking a deck against a declarative format for the web
//! frontend.
//!
//! The decks service reads the format and the deck and applies the rules; this module only
//! turns the body into a `CheckDeckAgainstFormat` request and its response into the report JSON
//! `turnier format check --json` prints (issue 6).

// `ApiError` is what every handler answers with; it lives for one response, so its size on
// the error path does not matter and boxing it would only add noise to every `?`.
#![allow(clippy::result_large_err)]

use axum::routing::post;
use axum::{Json, Router};
use http::StatusCode;
use proto::decks::v1::{
    Authority, CardRuling, CheckDeckAgainstFormatRequest, CheckDeckAgainstFormatResponse, Deck,
    TabooListRef, authority,
};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use utoipa::OpenApi;

use crate::ApiError;
use crate::auth::Calls;
use crate::state::AppState;

/// The formats' routes.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/v1/formats:check", post(check))
}

/// The formats' part of the OpenAPI document.
#[derive(Debug, OpenApi)]
#[openapi(
    paths(check),
    components(schemas(FormatCheckBody)),
    tags((name = "formats", description = "Declarative formats: checking decks against them"))
)]
pub struct FormatsDoc;

/// The body of `formats:check`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FormatCheckBody {
    /// The format as documented in `spec/formats-and-rules.md`: `{"code", "name", "min_size",
    /// "max_size", "copies", "banned", "restricted", "taboo_lists"}`; `code` and `name` are
    /// required, the rest take the spec's defaults. Passed on as written, so the service reads
    /// exactly what `turnier format check` reads from a file (a repeated key is refused).
    #[schema(value_type = Object)]
    format: Box<RawValue>,
    /// The deck: `{"cards": [{"id": "storm-call", "count": 2}, {"id": "path", "count": 20,
    /// "copyLimit": 20}]}`; each card may also carry the `name` messages call it by.
    #[schema(value_type = Object)]
    deck: Value,
    /// The moment the deck is checked on, RFC 3339 with a UTC offset
    /// (`2026-10-02T09:00:00-04:00`); its day is taken in that offset.
    #[schema(example = "2026-10-02T09:00:00-04:00")]
    at: String,
}

/// Checks a deck against a format on a moment and returns every issue at once.
#[utoipa::path(
    post,
    path = "/api/v1/formats:check",
    tag = "formats",
    request_body = FormatCheckBody,
    responses((status = 200, description = "`{\"valid\", \"tabooList\", \"cards\": {id: {\"bannedBy\", \"copyLimit\", \"restrictedBy\"}}, \"issues\": [{\"code\", \"card\", \"message\"}]}`"),
              (status = 400, description = "A format, deck or moment that fails to read (`invalid_format`, `invalid_deck`, `invalid_moment`)", body = crate::ErrorBody))
)]
async fn check(calls: Calls, Json(body): Json<FormatCheckBody>) -> Result<Json<Value>, ApiError> {
    // The deck's JSON is the canonical proto3 JSON of `Deck`, so pbjson reads it; the rules of
    // a deck (shapes, counts, each card once) are the service's to apply.
    let deck: Deck = serde_json::from_value(body.deck).map_err(|err| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_deck",
            format!("invalid deck: {err}"),
        )
    })?;
    let response = calls
        .decks()?
        .check_deck_against_format(CheckDeckAgainstFormatRequest {
            format_json: body.format.get().to_owned(),
            deck: Some(deck),
            moment: body.at,
        })
        .await?;
    Ok(Json(report_json(response)))
}

/// Returns the report JSON of the CLI: cards keyed by id in the deck's order, absent values as
/// `null`, and what bans or restricts a card with its `kind`.
fn report_json(response: CheckDeckAgainstFormatResponse) -> Value {
    // serde_json keeps insertion order: the cards come out in the deck's order.
    let cards: Map<String, Value> = response.cards.into_iter().map(card_ruling_json).collect();
    let issues: Vec<Value> = response
        .issues
        .into_iter()
        .map(|issue| json!({"code": issue.code, "card": issue.card, "message": issue.message}))
        .collect();
    json!({
        "valid": response.valid,
        "tabooList": response.taboo_list.map(taboo_list_json),
        "cards": cards,
        "issues": issues,
    })
}

fn card_ruling_json(ruling: CardRuling) -> (String, Value) {
    let json = json!({
        "bannedBy": authority_json(ruling.banned_by),
        "copyLimit": ruling.copy_limit,
        "restrictedBy": authority_json(ruling.restricted_by),
    });
    (ruling.card, json)
}

fn authority_json(authority: Option<Authority>) -> Value {
    match authority.and_then(|authority| authority.kind) {
        Some(authority::Kind::Format(format)) => json!({"kind": "format", "code": format.code}),
        Some(authority::Kind::TabooList(list)) => json!({
            "kind": "tabooList",
            "code": list.code,
            "effectiveFrom": list.effective_from,
        }),
        None => Value::Null,
    }
}

fn taboo_list_json(list: TabooListRef) -> Value {
    json!({"code": list.code, "effectiveFrom": list.effective_from})
}
