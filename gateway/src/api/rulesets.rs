//! `/api/v1/{game}/rulesets`: the built-in rules of a game and the rulesets people own —
//! listed, created, read, changed (a new source or new direct bans make a new version) and
//! deleted, through `turnier.scripts.v1.ScriptService` with the caller's token forwarded. The
//! ownership rule answers 401 / 403 / 404 with the codes the accounts issue defines.

// `ApiError` is what every handler answers with; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::extract::{Path, Query};
use axum::routing::get;
use axum::{Json, Router};
use http::StatusCode;
use proto::scripts::v1 as pb;
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::OpenApi;

use crate::ApiError;
use crate::auth::Calls;
use crate::state::AppState;
use proto::json::ruleset;

/// The rulesets' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1/{game}/rulesets", get(list).post(create))
        .route(
            "/api/v1/{game}/rulesets/{id}",
            get(read).patch(change).delete(remove).post(act),
        )
        .route("/api/v1/users/{username}/rulesets", get(profile))
}

/// The rulesets' part of the OpenAPI document.
#[derive(Debug, OpenApi)]
#[openapi(
    paths(list, create, read, change, remove, act, profile),
    components(schemas(CreateRulesetBody, ChangeRulesetBody, SaveRulesetBody)),
    tags((name = "rulesets", description = "Built-in rules and the rulesets people own"))
)]
pub struct RulesetsDoc;

/// The query of the listing.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    scope: Option<String>,
}

/// The query of a profile's rulesets.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileQuery {
    game: Option<String>,
}

/// The body of `POST /api/v1/{game}/rulesets`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateRulesetBody {
    /// 1 to 100 characters.
    name: String,
    /// `card`, `deck` or `deckset`.
    scope: String,
    /// The JavaScript module source; it must pass the safety check.
    source: String,
    /// Default false: private.
    public: Option<bool>,
    /// Card refs banned on top of what the script allows (LoR and Pokémon card rules).
    direct_bans: Option<Vec<String>>,
}

/// The body of `PATCH /api/v1/{game}/rulesets/{id}`: any of its fields.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChangeRulesetBody {
    name: Option<String>,
    source: Option<String>,
    public: Option<bool>,
    enabled: Option<bool>,
    direct_bans: Option<Vec<String>>,
}

/// The body of `POST /api/v1/{game}/rulesets/{id}:save` (it may be left out).
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SaveRulesetBody {
    /// The version to pin; absent: the latest (or the one `tournament` pins).
    version: Option<u32>,
    /// The tournament whose Rules tab the copy is saved from ("Add to saved rulesets"): any
    /// custom rule it pins may be saved, at the pinned version, even when private.
    tournament: Option<String>,
}

fn scope(name: &str) -> Result<pb::RuleScope, ApiError> {
    proto::json::rule_scope(name).ok_or_else(|| {
        ApiError::invalid_argument(format!(
            "`scope`: `{}` is not a scope (expected card, deck or deckset)",
            kit::status::quote(name)
        ))
        .with_details(json!({"field": "scope"}))
    })
}

fn answer(response: pb::RulesetResponse) -> Value {
    json!({"ruleset": response.ruleset.as_ref().map_or(Value::Null, ruleset)})
}

/// Lists the game's built-in rules, then the caller's own and downloaded rulesets.
#[utoipa::path(get, path = "/api/v1/{game}/rulesets", tag = "rulesets",
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("scope" = Option<String>, Query, description = "card, deck or deckset")),
    responses((status = 200, description = "`{\"rulesets\": [ruleset]}`: built-ins first")))]
async fn list(
    calls: Calls,
    Path(game_name): Path<String>,
    Query(query): Query<ListQuery>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let scope = query.scope.as_deref().map(scope).transpose()?;
    let response = calls
        .scripts()?
        .list_rulesets(pb::ListRulesetsRequest {
            game: proto::game::to_wire(game),
            scope: scope.unwrap_or(pb::RuleScope::Unspecified).into(),
        })
        .await?;
    let rulesets: Vec<Value> = response.rulesets.iter().map(ruleset).collect();
    Ok(Json(json!({ "rulesets": rulesets })))
}

/// Saves a new ruleset of the caller's (private unless `public`).
#[utoipa::path(post, path = "/api/v1/{game}/rulesets", tag = "rulesets", request_body = CreateRulesetBody,
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 201, description = "`{\"ruleset\"}`"),
              (status = 400, description = "`unsafe_script` with the issues, or `invalid_argument`", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: the token may not write", body = crate::ErrorBody)))]
async fn create(
    calls: Calls,
    Path(game_name): Path<String>,
    Json(body): Json<CreateRulesetBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .scripts()?
        .create_ruleset(pb::CreateRulesetRequest {
            game: proto::game::to_wire(game),
            name: body.name,
            scope: scope(&body.scope)?.into(),
            source: body.source,
            public: body.public.unwrap_or(false),
            direct_bans: body.direct_bans.unwrap_or_default(),
        })
        .await?;
    Ok((StatusCode::CREATED, Json(answer(response))))
}

/// A ruleset the caller may see, with its source.
#[utoipa::path(get, path = "/api/v1/{game}/rulesets/{id}", tag = "rulesets",
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "A built-in id (`lor-standard`) or a ruleset's (`rs_…`)")),
    responses((status = 200, description = "`{\"ruleset\"}`"),
              (status = 404, description = "`not_found`: no such ruleset, or a private one of someone else's", body = crate::ErrorBody)))]
async fn read(
    calls: Calls,
    Path((game_name, id)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .scripts()?
        .get_ruleset(pb::GetRulesetRequest {
            game: proto::game::to_wire(game),
            id,
        })
        .await?;
    Ok(Json(answer(response)))
}

/// Changes a ruleset of the caller's: a new source or new direct bans make a new version.
#[utoipa::path(patch, path = "/api/v1/{game}/rulesets/{id}", tag = "rulesets", request_body = ChangeRulesetBody,
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The ruleset's id")),
    responses((status = 200, description = "`{\"ruleset\"}`"),
              (status = 400, description = "`unsafe_script` or `invalid_argument`", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: a built-in, downloaded or someone else's public ruleset, or a token that may not write", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn change(
    calls: Calls,
    Path((game_name, id)): Path<(String, String)>,
    Json(body): Json<ChangeRulesetBody>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .scripts()?
        .update_ruleset(pb::UpdateRulesetRequest {
            game: proto::game::to_wire(game),
            id,
            name: body.name,
            source: body.source,
            public: body.public,
            enabled: body.enabled,
            direct_bans: body.direct_bans.map(|refs| pb::DirectBans { refs }),
        })
        .await?;
    Ok(Json(answer(response)))
}

/// Deletes a ruleset of the caller's; copies saved from it keep working.
#[utoipa::path(delete, path = "/api/v1/{game}/rulesets/{id}", tag = "rulesets",
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The ruleset's id")),
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
        .scripts()?
        .delete_ruleset(pb::DeleteRulesetRequest {
            game: proto::game::to_wire(game),
            id,
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `:duplicate`, `:save` and `:update` of a ruleset.
#[utoipa::path(post, path = "/api/v1/{game}/rulesets/{id}:{action}", tag = "rulesets",
    request_body(content = Option<SaveRulesetBody>, description = "for `:save` only: `{\"version\"?, \"tournament\"?}`"),
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The ruleset's id"),
           ("action" = String, Path, description = "`duplicate` (a private editable copy of your own), `save` (a downloaded copy pinned to a version) or `update` (a downloaded copy to the original's latest version and name)")),
    responses((status = 201, description = "`{\"ruleset\"}`: the new ruleset (`:duplicate`, `:save`)"),
              (status = 200, description = "`{\"ruleset\"}`: the updated copy (`:update`)"),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn act(
    calls: Calls,
    Path((game_name, target)): Path<(String, String)>,
    body: axum::body::Bytes,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let game = proto::game::to_wire(super::game(&game_name)?);
    let (id, action) = super::custom_method(&target, "ruleset", &["duplicate", "save", "update"])?;
    let scripts = calls.scripts()?;
    match action {
        "duplicate" => {
            let response = scripts
                .duplicate_ruleset(pb::DuplicateRulesetRequest { game, id })
                .await?;
            Ok((StatusCode::CREATED, Json(answer(response))))
        }
        "save" => {
            let body: SaveRulesetBody = if body.iter().all(u8::is_ascii_whitespace) {
                SaveRulesetBody::default()
            } else {
                serde_json::from_slice(&body).map_err(|err| {
                    ApiError::invalid_argument(format!(
                        "the body is not `{{\"version\"?, \"tournament\"?}}`: {err}"
                    ))
                })?
            };
            let response = scripts
                .save_ruleset(pb::SaveRulesetRequest {
                    game,
                    id,
                    version: body.version,
                    // A copy from a profile, or from the tournament named (the service's
                    // choice when `tournament` is set).
                    from: String::new(),
                    tournament: body.tournament.unwrap_or_default(),
                })
                .await?;
            Ok((StatusCode::CREATED, Json(answer(response))))
        }
        // `update`, the one method left.
        _ => {
            let response = scripts
                .update_ruleset_copy(pb::UpdateRulesetCopyRequest { game, id })
                .await?;
            Ok((StatusCode::OK, Json(answer(response))))
        }
    }
}

/// A user's public rulesets, grouped by scope, as their profile's Rulesets tab shows them.
#[utoipa::path(get, path = "/api/v1/users/{username}/rulesets", tag = "rulesets",
    params(("username" = String, Path, description = "The username, in any case"),
           ("game" = Option<String>, Query, description = "lor, pokemon or riftbound; absent: every game")),
    responses((status = 200, description = "`{\"card\": [ruleset], \"deck\": [ruleset], \"deckset\": [ruleset]}`, the last changed first"),
              (status = 404, description = "`not_found`: no such user", body = crate::ErrorBody)))]
async fn profile(
    calls: Calls,
    Path(username): Path<String>,
    Query(query): Query<ProfileQuery>,
) -> Result<Json<Value>, ApiError> {
    let (username, game) = super::profile_of(&calls, username, query.game.as_deref()).await?;
    let response = calls
        .scripts()?
        .list_public_rulesets(pb::ListPublicRulesetsRequest {
            username,
            game: game.map_or(0, proto::game::to_wire),
        })
        .await?;
    Ok(Json(proto::json::rulesets_by_scope(&response.rulesets)))
}
