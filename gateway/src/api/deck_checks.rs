//! `POST /api/v1/{game}/decks:validate`: a whole multi-pile deck checked as the deck builder
//! checks it (zone rules, the card rule, the whole-deck or deck set rule), through
//! `turnier.scripts.v1.ScriptService.ValidateDeck` with the caller's token forwarded (a
//! ruleset by reference is read through the ownership rule).

// `ApiError` is what every handler answers with; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::extract::Path;
use axum::routing::post;
use axum::{Json, Router};
use proto::scripts::v1 as pb;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use utoipa::OpenApi;

use super::scripts::{ScriptBody, script};
use crate::ApiError;
use crate::auth::Calls;
use crate::state::AppState;

/// The deck check's route.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/v1/{game}/decks:validate", post(validate))
}

/// The deck check's part of the OpenAPI document.
#[derive(Debug, OpenApi)]
#[openapi(
    paths(validate),
    components(schemas(ValidateBody, PileBody, RuleBody)),
    tags((name = "decks", description = "Deck codes and deck lists"))
)]
pub struct DeckChecksDoc;

/// A rule: a ruleset's id (`"riftbound-legend"`), or a script object (`{"source"}`,
/// `{"hash"}`, `{"ruleset", "version"?}`).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum RuleBody {
    /// A ruleset's id at its latest version.
    Id(String),
    /// A script.
    Script(ScriptBody),
}

/// One pile of the deck.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PileBody {
    /// Shown before its zone rule's issues (`Main Deck: …`).
    name: String,
    /// `main` (the default), `sideboard` or `maybeboard`.
    role: Option<String>,
    /// Card ref → copies, in pile order.
    #[schema(value_type = Object)]
    cards: Map<String, Value>,
    /// The pile's zone rule (a deck rule run on this pile alone).
    zone_rule: Option<RuleBody>,
}

/// The body of `decks:validate`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ValidateBody {
    /// The piles, in order.
    piles: Vec<PileBody>,
    /// The card rule, on every card that counts.
    card_rule: Option<RuleBody>,
    /// The whole-deck rule: the piles are zones of one deck. Not with `decksetRule`.
    deck_rule: Option<RuleBody>,
    /// The deck set rule: every main pile is a deck of the lineup.
    deckset_rule: Option<RuleBody>,
    /// The optional context every rule gets, `{"globals": …}`.
    #[schema(value_type = Option<Object>)]
    context: Option<Value>,
}

fn rule(body: RuleBody) -> Result<pb::Script, ApiError> {
    match body {
        RuleBody::Id(id) => Ok(pb::Script {
            script: Some(pb::script::Script::Ruleset(pb::RulesetRef {
                id,
                version: None,
            })),
        }),
        RuleBody::Script(body) => script(body),
    }
}

fn role(name: Option<&str>, pile: &str) -> Result<pb::PileRole, ApiError> {
    match name {
        None | Some("main") => Ok(pb::PileRole::Main),
        Some("sideboard") => Ok(pb::PileRole::Sideboard),
        Some("maybeboard") => Ok(pb::PileRole::Maybeboard),
        Some(other) => Err(ApiError::invalid_argument(format!(
            "pile `{}`: `role` is `{}` (expected main, sideboard or maybeboard)",
            kit::status::quote(pile),
            kit::status::quote(other)
        ))
        .with_details(json!({"field": "piles.role"}))),
    }
}

fn role_name(value: i32) -> &'static str {
    match pb::PileRole::try_from(value) {
        Ok(pb::PileRole::Sideboard) => "sideboard",
        Ok(pb::PileRole::Maybeboard) => "maybeboard",
        _ => "main",
    }
}

fn pile(body: PileBody) -> Result<pb::ValidatePile, ApiError> {
    let role = role(body.role.as_deref(), &body.name)?;
    let mut cards = Vec::with_capacity(body.cards.len());
    for (reference, copies) in body.cards {
        let count = copies
            .as_u64()
            .and_then(|count| u32::try_from(count).ok())
            .ok_or_else(|| {
                ApiError::invalid_argument(format!(
                    "pile `{}`, card `{}`: copies must be a whole number, got {}",
                    kit::status::quote(&body.name),
                    kit::status::quote(&reference),
                    kit::status::quote(&copies.to_string())
                ))
                .with_details(json!({"field": "piles.cards"}))
            })?;
        cards.push(pb::PileEntry {
            r#ref: reference,
            count,
        });
    }
    Ok(pb::ValidatePile {
        name: body.name,
        role: role.into(),
        cards,
        zone_rule: body.zone_rule.map(rule).transpose()?,
    })
}

fn result(result: Option<&pb::RuleResult>) -> Value {
    result.map_or(Value::Null, proto::json::rule_result)
}

/// The answer: the warning list, then every pile's, every card's and the deck's verdicts.
fn answer(response: &pb::ValidateDeckResponse) -> Value {
    let issues: Vec<Value> = response
        .issues
        .iter()
        .map(|issue| {
            let mut out = Map::new();
            out.insert("rule".into(), json!(issue.rule));
            if let Some(pile) = &issue.pile {
                out.insert("pile".into(), json!(pile));
            }
            if let Some(reference) = &issue.r#ref {
                out.insert("ref".into(), json!(reference));
            }
            if let Some(code) = &issue.code {
                out.insert("code".into(), json!(code));
            }
            out.insert("message".into(), json!(issue.message));
            Value::Object(out)
        })
        .collect();
    let piles: Vec<Value> = response
        .piles
        .iter()
        .map(|pile| {
            json!({"name": pile.name, "role": role_name(pile.role),
                   "valid": pile.valid == Some(true), "zone": result(pile.zone.as_ref())})
        })
        .collect();
    let cards: Vec<Value> = response
        .cards
        .iter()
        .map(|card| {
            let mut out = Map::new();
            out.insert("ref".into(), json!(card.r#ref));
            out.insert("name".into(), json!(card.name));
            out.insert("piles".into(), json!(card.piles));
            if let Value::Object(verdict) = result(card.result.as_ref()) {
                out.extend(verdict);
            }
            Value::Object(out)
        })
        .collect();
    json!({
        "valid": response.valid == Some(true),
        "issues": issues,
        "piles": piles,
        "cards": cards,
        "deck": result(response.deck.as_ref()),
        "deckset": result(response.deckset.as_ref()),
        "unknownRefs": response.unknown_refs,
    })
}

/// Checks a whole deck: every pile's zone rule (its issues prefixed with the pile's name), the
/// card rule on every card, then the whole-deck or deck set rule. Maybeboard piles never
/// count; sideboard piles reach the whole-deck rule as its `sideboard`.
#[utoipa::path(post, path = "/api/v1/{game}/decks:validate", tag = "decks", request_body = ValidateBody,
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 200, description = "`{\"valid\", \"issues\": [{\"rule\", \"pile\"?, \"ref\"?, \"code\"?, \"message\"}], \"piles\": [{\"name\", \"role\", \"valid\", \"zone\"}], \"cards\": [{\"ref\", \"name\", \"piles\", \"valid\", \"issues\"}], \"deck\", \"deckset\", \"unknownRefs\"}`"),
              (status = 400, description = "`invalid_argument` (the deck's shape), or a rule that cannot run (`script_error`, `unsafe_script`, …) named in the message", body = crate::ErrorBody),
              (status = 404, description = "`ruleset_not_found`", body = crate::ErrorBody),
              (status = 504, description = "`timeout`", body = crate::ErrorBody)))]
async fn validate(
    calls: Calls,
    Path(game_name): Path<String>,
    Json(body): Json<ValidateBody>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let piles = body
        .piles
        .into_iter()
        .map(pile)
        .collect::<Result<Vec<_>, _>>()?;
    let response =
        super::scripts::answer(calls.scripts()?.validate_deck(pb::ValidateDeckRequest {
            game: proto::game::to_wire(game),
            piles,
            card_rule: body.card_rule.map(rule).transpose()?,
            deck_rule: body.deck_rule.map(rule).transpose()?,
            deckset_rule: body.deckset_rule.map(rule).transpose()?,
            context_json: body.context.map(|context| context.to_string()),
        }))
        .await?;
    Ok(Json(answer(&response)))
}
