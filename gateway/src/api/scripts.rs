//! `POST /api/v1/scripts:*`: the static safety check and sandboxed runs of ruleset and
//! calculator scripts for the web frontend.
//!
//! Each route turns its JSON body into a `ScriptService` request (arguments as JSON text, so
//! their key order survives) and the normalized result into the documented JSON: `{"valid",
//! "issues"}` for a rule, `{"widgets"}` for a calculator, the same shapes `turnier script run`
//! prints. A script is `{"source": "…"}` or `{"hash": "…"}` (the hash `scripts:check` returns).

// `ApiError` is what every handler answers with; it lives for one response, so its size on
// the error path does not matter and boxing it would only add noise to every `?`.
#![allow(clippy::result_large_err)]

use axum::routing::post;
use axum::{Json, Router};
use http::StatusCode;
use kit::clients::ServiceError;
use proto::scripts::v1 as pb;
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::OpenApi;

use crate::ApiError;
use crate::auth::Calls;
use crate::state::AppState;

/// The scripts' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1/scripts:check", post(check))
        .route("/api/v1/scripts:runCardRule", post(run_card_rule))
        .route("/api/v1/scripts:filterCardPool", post(filter_card_pool))
        .route("/api/v1/scripts:runDeckRule", post(run_deck_rule))
        .route("/api/v1/scripts:runDecksetRule", post(run_deckset_rule))
        .route(
            "/api/v1/scripts:resolvePoolFilters",
            post(resolve_pool_filters),
        )
        .route("/api/v1/scripts:runCalculator", post(run_calculator))
}

/// The scripts' part of the OpenAPI document.
#[derive(Debug, OpenApi)]
#[openapi(
    paths(check, run_card_rule, filter_card_pool, run_deck_rule, run_deckset_rule,
          resolve_pool_filters, run_calculator),
    components(schemas(ScriptCheckBody, ScriptBody, CardRuleBody, CardPoolBody, DeckRuleBody,
                        DecksetRuleBody, PoolFiltersBody, CalculatorBody)),
    tags((name = "scripts", description = "Ruleset and calculator scripts: safety check and sandboxed runs"))
)]
pub struct ScriptsDoc;

/// The body of `scripts:check`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScriptCheckBody {
    /// The JavaScript module source.
    source: String,
}

/// A script: its source, the hash `scripts:check` returned for it, or a ruleset by id (a
/// built-in rule such as `lor-standard`) and optionally its version.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ScriptBody {
    /// The JavaScript module source.
    source: Option<String>,
    /// The hex SHA-256 of a source the service has compiled.
    hash: Option<String>,
    /// A ruleset's id.
    ruleset: Option<String>,
    /// The ruleset's version (with `ruleset`); absent: the latest.
    version: Option<u32>,
}

/// The body of `scripts:runCardRule`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CardRuleBody {
    script: ScriptBody,
    /// The card object.
    #[schema(value_type = Object)]
    card: Value,
    /// The optional context, `{"globals": …}`.
    #[schema(value_type = Option<Object>)]
    context: Option<Value>,
}

/// The body of `scripts:filterCardPool`: the cards, or the game whose whole catalog is the pool.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CardPoolBody {
    script: ScriptBody,
    /// The card objects; leave out to run over `game`'s whole catalog.
    #[schema(value_type = Option<Vec<Object>>)]
    cards: Option<Vec<Value>>,
    /// `lor`, `pokemon` or `riftbound`: every card of its catalog, in catalog order.
    game: Option<String>,
    #[schema(value_type = Option<Object>)]
    context: Option<Value>,
}

/// The body of `scripts:runDeckRule`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeckRuleBody {
    script: ScriptBody,
    /// The deck: card ref → copies (or the zoned shape).
    #[schema(value_type = Object)]
    deck: Value,
    /// Card ref → card object.
    #[schema(value_type = Object)]
    cards_by_id: Value,
    #[schema(value_type = Option<Object>)]
    context: Option<Value>,
}

/// The body of `scripts:runDecksetRule`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DecksetRuleBody {
    script: ScriptBody,
    /// The decks of the lineup.
    #[schema(value_type = Vec<Object>)]
    decks: Vec<Value>,
    #[schema(value_type = Object)]
    cards_by_id: Value,
    #[schema(value_type = Option<Object>)]
    context: Option<Value>,
}

/// The body of `scripts:resolvePoolFilters`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PoolFiltersBody {
    script: ScriptBody,
    /// `lor`, `pokemon` or `riftbound`.
    game: String,
    /// `{"lineup", "activePileId", "cardsById", "filters"}`.
    #[schema(value_type = Object)]
    input: Value,
    #[schema(value_type = Option<Object>)]
    context: Option<Value>,
}

/// The body of `scripts:runCalculator`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CalculatorBody {
    script: ScriptBody,
    /// The pile: card ref → copies.
    #[schema(value_type = Object)]
    pile: Value,
    #[schema(value_type = Object)]
    cards_by_id: Value,
    #[schema(value_type = Option<Object>)]
    context: Option<Value>,
}

pub(crate) fn script(body: ScriptBody) -> Result<pb::Script, ApiError> {
    let script = match (body.source, body.hash, body.ruleset, body.version) {
        (Some(source), None, None, None) => pb::script::Script::Source(source),
        (None, Some(hash), None, None) => pb::script::Script::Hash(hash),
        (None, None, Some(id), version) => {
            pb::script::Script::Ruleset(pb::RulesetRef { id, version })
        }
        _ => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_argument",
                "`script` is {\"source\": \"…\"}, {\"hash\": \"…\"} or {\"ruleset\": \"…\", \"version\"?: n}",
            ));
        }
    };
    Ok(pb::Script {
        script: Some(script),
    })
}

fn context(context: Option<Value>) -> Option<String> {
    context.map(|context| context.to_string())
}

/// A service error: a script that ran past its time limit keeps its precise code (`timeout`)
/// and message, which the 5xx rule of [`ApiError`] would otherwise replace.
fn failed(error: ServiceError) -> ApiError {
    if error.code == tonic::Code::DeadlineExceeded && error.reason == "timeout" {
        return ApiError::new(StatusCode::GATEWAY_TIMEOUT, "timeout", error.message);
    }
    error.into()
}

/// Awaits a service call: its message, or the error the caller sees.
pub(crate) async fn answer<T>(
    call: impl Future<Output = Result<T, ServiceError>>,
) -> Result<T, ApiError> {
    call.await.map_err(failed)
}

fn rule(response: pb::RuleRunResponse) -> Json<Value> {
    Json(proto::json::rule_result(
        &response.result.unwrap_or_default(),
    ))
}

/// Runs the static safety check; a safe script is compiled and its hash returned.
#[utoipa::path(post, path = "/api/v1/scripts:check", tag = "scripts", request_body = ScriptCheckBody,
    responses((status = 200, description = "`{\"safe\", \"issues\": [{\"code\", \"message\", \"line\", \"column\"}], \"hash\"?}`")))]
async fn check(calls: Calls, Json(body): Json<ScriptCheckBody>) -> Result<Json<Value>, ApiError> {
    let response = answer(calls.scripts()?.check_script(pb::CheckScriptRequest {
        source: body.source,
    }))
    .await?;
    let issues: Vec<Value> = response
        .issues
        .into_iter()
        .map(|issue| {
            json!({"code": issue.code, "message": issue.message, "line": issue.line,
                   "column": issue.column})
        })
        .collect();
    let mut answer = json!({"safe": response.safe, "issues": issues});
    if let Some(hash) = response.hash {
        answer["hash"] = Value::String(hash);
    }
    Ok(Json(answer))
}

/// Runs a card rule on one card.
#[utoipa::path(post, path = "/api/v1/scripts:runCardRule", tag = "scripts", request_body = CardRuleBody,
    responses((status = 200, description = "`{\"valid\", \"issues\"}`"),
              (status = 400, description = "`unsafe_script`, `script_error`, `no_entry_point`, `empty_source`", body = crate::ErrorBody),
              (status = 504, description = "`timeout`", body = crate::ErrorBody)))]
async fn run_card_rule(
    calls: Calls,
    Json(body): Json<CardRuleBody>,
) -> Result<Json<Value>, ApiError> {
    let response = answer(calls.scripts()?.run_card_rule(pb::RunCardRuleRequest {
        script: Some(script(body.script)?),
        card_json: body.card.to_string(),
        context_json: context(body.context),
    }))
    .await?;
    Ok(rule(response))
}

/// Runs a card rule over many cards, or over a game's whole catalog: one verdict per card, in
/// order, each with the card's `cardId` when the card has an id.
#[utoipa::path(post, path = "/api/v1/scripts:filterCardPool", tag = "scripts", request_body = CardPoolBody,
    responses((status = 200, description = "`{\"verdicts\": [{\"cardId\"?, \"valid\", \"issues\"} | {\"cardId\"?, \"error\": {\"code\": \"script_error\", \"message\"}}]}`")))]
async fn filter_card_pool(
    calls: Calls,
    Json(body): Json<CardPoolBody>,
) -> Result<Json<Value>, ApiError> {
    let (cards_json, game) = match (body.cards, body.game) {
        (Some(cards), None) => (Value::Array(cards).to_string(), 0),
        (None, Some(game)) => (String::new(), proto::game::to_wire(body_game(&game)?)),
        _ => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_argument",
                "give either `cards` (the card objects) or `game` (lor, pokemon or riftbound: \
                 its whole catalog)",
            ));
        }
    };
    let response = answer(
        calls
            .scripts()?
            .filter_card_pool(pb::FilterCardPoolRequest {
                script: Some(script(body.script)?),
                cards_json,
                context_json: context(body.context),
                game,
            }),
    )
    .await?;
    let verdicts: Vec<Value> = response
        .verdicts
        .into_iter()
        .map(|verdict| {
            let result = verdict.result.unwrap_or_default();
            let outcome = verdict.error.as_deref().map_or(Ok(&result), Err);
            proto::json::card_verdict(verdict.card_id.as_deref(), outcome)
        })
        .collect();
    Ok(Json(json!({ "verdicts": verdicts })))
}

/// Reads a body's `game`; an unknown name is a 400 (the body is wrong, not the route).
fn body_game(name: &str) -> Result<proto::game::Game, ApiError> {
    super::game(name).map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_argument",
            format!("`game`: unknown game `{name}` (expected lor, pokemon or riftbound)"),
        )
    })
}

/// Runs a deck rule on one deck.
#[utoipa::path(post, path = "/api/v1/scripts:runDeckRule", tag = "scripts", request_body = DeckRuleBody,
    responses((status = 200, description = "`{\"valid\", \"issues\"}`")))]
async fn run_deck_rule(
    calls: Calls,
    Json(body): Json<DeckRuleBody>,
) -> Result<Json<Value>, ApiError> {
    let response = answer(calls.scripts()?.run_deck_rule(pb::RunDeckRuleRequest {
        script: Some(script(body.script)?),
        deck_json: body.deck.to_string(),
        cards_by_id_json: body.cards_by_id.to_string(),
        context_json: context(body.context),
    }))
    .await?;
    Ok(rule(response))
}

/// Runs a deck set rule on a lineup.
#[utoipa::path(post, path = "/api/v1/scripts:runDecksetRule", tag = "scripts", request_body = DecksetRuleBody,
    responses((status = 200, description = "`{\"valid\", \"issues\"}`")))]
async fn run_deckset_rule(
    calls: Calls,
    Json(body): Json<DecksetRuleBody>,
) -> Result<Json<Value>, ApiError> {
    let response = answer(
        calls
            .scripts()?
            .run_deckset_rule(pb::RunDecksetRuleRequest {
                script: Some(script(body.script)?),
                decks_json: Value::Array(body.decks).to_string(),
                cards_by_id_json: body.cards_by_id.to_string(),
                context_json: context(body.context),
            }),
    )
    .await?;
    Ok(rule(response))
}

/// Runs a deck rule's `resolvePoolFilters` hook.
#[utoipa::path(post, path = "/api/v1/scripts:resolvePoolFilters", tag = "scripts", request_body = PoolFiltersBody,
    responses((status = 200, description = "`{\"patch\": {filter key: [values]} | null}`")))]
async fn resolve_pool_filters(
    calls: Calls,
    Json(body): Json<PoolFiltersBody>,
) -> Result<Json<Value>, ApiError> {
    let game = body_game(&body.game)?;
    let response = answer(
        calls
            .scripts()?
            .resolve_pool_filters(pb::ResolvePoolFiltersRequest {
                script: Some(script(body.script)?),
                game: proto::game::to_wire(game),
                input_json: body.input.to_string(),
                context_json: context(body.context),
            }),
    )
    .await?;
    Ok(Json(
        json!({ "patch": proto::json::patch(response.patch.as_ref()) }),
    ))
}

/// Runs a calculator's `compute` and returns the normalized dashboard.
#[utoipa::path(post, path = "/api/v1/scripts:runCalculator", tag = "scripts", request_body = CalculatorBody,
    responses((status = 200, description = "`{\"widgets\": [...]}`")))]
async fn run_calculator(
    calls: Calls,
    Json(body): Json<CalculatorBody>,
) -> Result<Json<Value>, ApiError> {
    let response = answer(calls.scripts()?.run_calculator(pb::RunCalculatorRequest {
        script: Some(script(body.script)?),
        pile_json: body.pile.to_string(),
        cards_by_id_json: body.cards_by_id.to_string(),
        context_json: context(body.context),
    }))
    .await?;
    Ok(Json(proto::json::dashboard(
        &response.dashboard.unwrap_or_default(),
    )))
}
