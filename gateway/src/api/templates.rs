//! `/api/v1/{game}/templates`: saved deck builder layouts — the built-in ("Turny") templates,
//! read by anyone, and the templates people save by name (only while every pile is empty, with
//! a deck set rule chosen), rename, publish, delete, hide and open by link — and a pasted deck
//! read into a template's piles, through `turnier.decks.v1.DeckService` with the caller's token.

// `ApiError` is what every handler answers with; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::extract::{Path, Query};
use axum::routing::get;
use axum::{Json, Router};
use http::StatusCode;
use proto::decks::v1 as pb;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use utoipa::OpenApi;

use super::saved_decks::{
    PileViewBody, RuleRefBody, bad_field, layout, layout_name, pile_json, role, rule_ref,
    rule_ref_json, view,
};
use crate::ApiError;
use crate::auth::Calls;
use crate::state::AppState;

/// The templates' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1/{game}/templates", get(list).post(save))
        .route(
            "/api/v1/{game}/templates/{id}",
            get(read).patch(change).delete(remove).post(act),
        )
        .route("/api/v1/users/{username}/templates", get(profile))
}

/// The templates' part of the OpenAPI document.
#[derive(Debug, OpenApi)]
#[openapi(
    paths(list, save, read, change, remove, act, profile),
    components(schemas(SaveTemplateBody, TemplatePileBody, CardRulesetBody, ChangeTemplateBody, ImportIntoTemplateBody)),
    tags((name = "templates", description = "Saved deck builder layouts"))
)]
pub struct TemplatesDoc;

/// The query of the listing.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ListQuery {
    page_size: Option<u32>,
    page_token: Option<String>,
    include_hidden: Option<bool>,
}

/// The query of a profile's templates.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ProfileQuery {
    game: Option<String>,
    page_size: Option<u32>,
    page_token: Option<String>,
}

/// One pile of a layout saved as a template.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplatePileBody {
    #[serde(default)]
    name: String,
    /// `main` (the default), `sideboard`, `maybeboard` or `command-zone`.
    role: Option<String>,
    /// The builder's cards in the pile: a template is saved only while every pile is empty.
    #[serde(default)]
    #[schema(value_type = Object)]
    cards: Map<String, Value>,
    zone_rule: Option<RuleRefBody>,
    column: Option<u32>,
    order: Option<u32>,
    view: Option<PileViewBody>,
    /// Where an import's cards land: `legend`, `runes`, `battlefields`, `main` or `sideboard`.
    zone: Option<String>,
}

/// A template's card ruleset.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CardRulesetBody {
    ruleset: String,
    version: Option<u32>,
    /// `recommended` (the default) or `pinned` ("Also save the card ruleset").
    mode: Option<String>,
}

/// The body of `POST /api/v1/{game}/templates`: Save as Template.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SaveTemplateBody {
    /// A name you already use for a template of the game (in any case) updates that template.
    name: String,
    public: Option<bool>,
    /// `piles` (the default), `single-deck` or `multi-deck`.
    layout: Option<String>,
    #[serde(default)]
    piles: Vec<TemplatePileBody>,
    /// The index of the pile the builder opens on (default 0).
    open_pile: Option<u32>,
    deck_rule: Option<RuleRefBody>,
    /// Required: the deck set rule the template is made for.
    deckset_rule: Option<RuleRefBody>,
    card_ruleset: Option<CardRulesetBody>,
}

/// The body of `PATCH /api/v1/{game}/templates/{id}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangeTemplateBody {
    name: Option<String>,
    public: Option<bool>,
}

/// The body of `POST /api/v1/{game}/templates/{id}:import`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportIntoTemplateBody {
    /// The pasted deck code or list.
    text: String,
}

fn zone_check(name: Option<String>, field: &str) -> Result<Option<String>, ApiError> {
    match name.as_deref() {
        None | Some("legend" | "runes" | "battlefields" | "main" | "sideboard") => Ok(name),
        Some(other) => Err(bad_field(
            field,
            format!(
                "`{}` is not a zone (expected legend, runes, battlefields, main or sideboard)",
                kit::status::quote(other)
            ),
        )),
    }
}

fn template_piles(bodies: Vec<TemplatePileBody>) -> Result<Vec<pb::TemplatePile>, ApiError> {
    bodies
        .into_iter()
        .enumerate()
        .map(|(index, body)| {
            let at = |field: &str| format!("piles[{index}].{field}");
            let cards = body
                .cards
                .into_iter()
                .map(|(reference, copies)| pb::SavedCard {
                    r#ref: reference,
                    count: copies
                        .as_u64()
                        .and_then(|count| u32::try_from(count).ok())
                        .unwrap_or(1),
                })
                .collect();
            Ok(pb::TemplatePile {
                name: body.name,
                role: role(body.role.as_deref(), &at("role"))?.into(),
                zone_rule: body.zone_rule.map(rule_ref),
                column: body.column.unwrap_or(0),
                order: body
                    .order
                    .unwrap_or_else(|| u32::try_from(index).unwrap_or(u32::MAX)),
                view: Some(view(body.view)),
                zone: zone_check(body.zone, &at("zone"))?,
                cards,
            })
        })
        .collect()
}

fn card_ruleset(body: CardRulesetBody) -> Result<pb::CardRuleset, ApiError> {
    let mode = match body.mode.as_deref() {
        None | Some("recommended") => pb::RulesetMode::Recommended,
        Some("pinned") => pb::RulesetMode::Pinned,
        Some(other) => {
            return Err(bad_field(
                "cardRuleset.mode",
                format!(
                    "`{}` is not a mode (expected recommended or pinned)",
                    kit::status::quote(other)
                ),
            ));
        }
    };
    Ok(pb::CardRuleset {
        rule: Some(pb::RuleRef {
            ruleset: body.ruleset,
            version: body.version,
        }),
        mode: mode.into(),
    })
}

/// Writes a template as the API shows it.
fn template_json(template: &pb::Template) -> Value {
    let piles: Vec<Value> = template
        .piles
        .iter()
        .map(|pile| {
            let mut shown = pile_json(&pb::SavedPile {
                name: pile.name.clone(),
                role: pile.role,
                cards: Vec::new(),
                zone_rule: pile.zone_rule.clone(),
                column: pile.column,
                order: pile.order,
                view: pile.view,
                synced_deck: None,
            });
            if let Some(object) = shown.as_object_mut() {
                object.remove("cards");
                if let Some(zone) = &pile.zone {
                    object.insert("zone".into(), json!(zone));
                }
            }
            shown
        })
        .collect();
    let mut out = Map::new();
    out.insert("id".into(), json!(template.id));
    out.insert(
        "game".into(),
        json!(proto::game::from_wire(template.game).map(proto::game::Game::name)),
    );
    out.insert("name".into(), json!(template.name));
    out.insert("builtIn".into(), json!(template.built_in));
    out.insert(
        "owner".into(),
        if template.built_in {
            Value::Null
        } else {
            json!(template.owner)
        },
    );
    out.insert("public".into(), json!(template.public));
    out.insert("hidden".into(), json!(template.hidden));
    out.insert("layout".into(), json!(layout_name(template.layout)));
    out.insert("piles".into(), Value::Array(piles));
    out.insert("openPile".into(), json!(template.open_pile));
    if let Some(rule) = rule_ref_json(template.deck_rule.as_ref()) {
        out.insert("deckRule".into(), rule);
    }
    out.insert(
        "decksetRule".into(),
        rule_ref_json(template.deckset_rule.as_ref()).unwrap_or(Value::Null),
    );
    if let Some(ruleset) = &template.card_ruleset {
        let mut shown = rule_ref_json(ruleset.rule.as_ref()).unwrap_or_else(|| json!({}));
        shown["mode"] = json!(match pb::RulesetMode::try_from(ruleset.mode) {
            Ok(pb::RulesetMode::Pinned) => "pinned",
            Ok(pb::RulesetMode::Recommended) | Err(_) => "recommended",
        });
        out.insert("cardRuleset".into(), shown);
    }
    out.insert(
        "createTime".into(),
        super::rfc3339(template.create_time.as_ref()),
    );
    out.insert(
        "updateTime".into(),
        super::rfc3339(template.update_time.as_ref()),
    );
    Value::Object(out)
}

fn page_json(response: &pb::ListTemplatesResponse) -> Value {
    json!({
        "templates": response.templates.iter().map(template_json).collect::<Vec<_>>(),
        "nextPageToken": response.next_page_token,
    })
}

/// Lists a game's templates: the built-in ones first (on the first page), then the caller's
/// own, the last changed first.
#[utoipa::path(get, path = "/api/v1/{game}/templates", tag = "templates",
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("pageSize" = Option<u32>, Query, description = "1 to 1000 of your own (default 50)"),
           ("pageToken" = Option<String>, Query, description = "The `nextPageToken` of the previous page"),
           ("includeHidden" = Option<bool>, Query, description = "Also the built-in templates you hid")),
    responses((status = 200, description = "`{\"templates\": [template], \"nextPageToken\"}`")))]
async fn list(
    calls: Calls,
    Path(game_name): Path<String>,
    Query(query): Query<ListQuery>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .decks()?
        .list_templates(pb::ListTemplatesRequest {
            game: proto::game::to_wire(game),
            page_size: query.page_size.unwrap_or(0),
            page_token: query.page_token.unwrap_or_default(),
            include_hidden: query.include_hidden.unwrap_or(false),
        })
        .await?;
    Ok(Json(page_json(&response)))
}

/// Save as Template: the caller's builder layout, saved by name (the same name updates that
/// template). Only while every pile is empty, and only with a deck set rule chosen.
#[utoipa::path(post, path = "/api/v1/{game}/templates", tag = "templates", request_body = SaveTemplateBody,
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 201, description = "`{\"template\", \"replaced\": false}`"),
              (status = 200, description = "`{\"template\", \"replaced\": true}`: the template of that name, updated"),
              (status = 400, description = "`deckset_rule_required`, or `invalid_argument` naming the field", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 409, description = "`template_not_empty`: a pile holds cards", body = crate::ErrorBody)))]
async fn save(
    calls: Calls,
    Path(game_name): Path<String>,
    Json(body): Json<SaveTemplateBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .decks()?
        .save_template(pb::SaveTemplateRequest {
            game: proto::game::to_wire(game),
            name: body.name,
            public: body.public.unwrap_or(false),
            layout: body
                .layout
                .as_deref()
                .map(layout)
                .transpose()?
                .unwrap_or(pb::DeckLayout::Piles)
                .into(),
            piles: template_piles(body.piles)?,
            open_pile: body.open_pile.unwrap_or(0),
            deck_rule: body.deck_rule.map(rule_ref),
            deckset_rule: body.deckset_rule.map(rule_ref),
            card_ruleset: body.card_ruleset.map(card_ruleset).transpose()?,
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
            "template": response.template.as_ref().map_or(Value::Null, template_json),
            "replaced": response.replaced,
        })),
    ))
}

/// A template the caller may see: a built-in one, their own, or a public one (a template's
/// link).
#[utoipa::path(get, path = "/api/v1/{game}/templates/{id}", tag = "templates",
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "A built-in id (`riftbound-constructed`) or `tp_…`")),
    responses((status = 200, description = "`{\"template\"}`"),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn read(
    calls: Calls,
    Path((game_name, id)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .decks()?
        .get_template(pb::GetTemplateRequest {
            game: proto::game::to_wire(game),
            id,
        })
        .await?;
    Ok(Json(
        json!({"template": response.template.as_ref().map_or(Value::Null, template_json)}),
    ))
}

/// Renames a template of the caller's, or makes it public or private.
#[utoipa::path(patch, path = "/api/v1/{game}/templates/{id}", tag = "templates", request_body = ChangeTemplateBody,
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The template's id")),
    responses((status = 200, description = "`{\"template\"}`"),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: a built-in or someone else's public template", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody),
              (status = 409, description = "`already_exists`", body = crate::ErrorBody)))]
async fn change(
    calls: Calls,
    Path((game_name, id)): Path<(String, String)>,
    Json(body): Json<ChangeTemplateBody>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .decks()?
        .update_template(pb::UpdateTemplateRequest {
            game: proto::game::to_wire(game),
            id,
            name: body.name,
            public: body.public,
        })
        .await?;
    Ok(Json(
        json!({"template": response.template.as_ref().map_or(Value::Null, template_json)}),
    ))
}

/// Deletes a template of the caller's.
#[utoipa::path(delete, path = "/api/v1/{game}/templates/{id}", tag = "templates",
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The template's id")),
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
        .delete_template(pb::DeleteTemplateRequest {
            game: proto::game::to_wire(game),
            id,
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `:hide` and `:show` of a built-in template (for the caller's pickers), and `:import` of a
/// pasted deck into a template's piles.
#[utoipa::path(post, path = "/api/v1/{game}/templates/{id}:{action}", tag = "templates",
    request_body(content = Option<ImportIntoTemplateBody>, description = "for `:import` only: `{\"text\"}`"),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The template's id"),
           ("action" = String, Path, description = "`hide`, `show` (built-in templates) or `import`")),
    responses((status = 200, description = "`{\"template\"}` (`:hide`, `:show`); `{\"format\", \"piles\": [pile], \"chosenChampion\", \"warnings\"}` (`:import`)"),
              (status = 400, description = "`unreadable_deck`, or `invalid_argument`", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn act(
    calls: Calls,
    Path((game_name, target)): Path<(String, String)>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    let game = proto::game::to_wire(super::game(&game_name)?);
    let (id, action) = super::custom_method(&target, "template", &["hide", "show", "import"])?;
    let decks = calls.decks()?;
    match action {
        "hide" | "show" => {
            let response = decks
                .hide_template(pb::HideTemplateRequest {
                    game,
                    id,
                    hidden: action == "hide",
                })
                .await?;
            Ok(Json(
                json!({"template": response.template.as_ref().map_or(Value::Null, template_json)}),
            ))
        }
        // `import`, the one method left.
        _ => {
            let body: ImportIntoTemplateBody = serde_json::from_slice(&body).map_err(|err| {
                ApiError::invalid_argument(format!("the body is not `{{\"text\"}}`: {err}"))
            })?;
            let response = decks
                .import_into_template(pb::ImportIntoTemplateRequest {
                    game,
                    id,
                    text: body.text,
                })
                .await?;
            Ok(Json(json!({
                "format": response.format,
                "piles": response.piles.iter().map(pile_json).collect::<Vec<_>>(),
                "chosenChampion": response.chosen_champion,
                "warnings": super::to_json(&response.warnings)?,
            })))
        }
    }
}

/// A user's public templates, as their profile lists them, a page at a time.
#[utoipa::path(get, path = "/api/v1/users/{username}/templates", tag = "templates",
    params(("username" = String, Path, description = "The username, in any case"),
           ("game" = Option<String>, Query, description = "lor, pokemon or riftbound; absent: every game"),
           ("pageSize" = Option<u32>, Query, description = "1 to 1000 (default 50)"),
           ("pageToken" = Option<String>, Query, description = "The `nextPageToken` of the previous page")),
    responses((status = 200, description = "`{\"templates\": [template], \"nextPageToken\"}`"),
              (status = 404, description = "`not_found`: no such user", body = crate::ErrorBody)))]
async fn profile(
    calls: Calls,
    Path(username): Path<String>,
    Query(query): Query<ProfileQuery>,
) -> Result<Json<Value>, ApiError> {
    let (username, game) = super::profile_of(&calls, username, query.game.as_deref()).await?;
    let response = calls
        .decks()?
        .list_public_templates(pb::ListPublicTemplatesRequest {
            username,
            game: game.map_or(0, proto::game::to_wire),
            page_size: query.page_size.unwrap_or(0),
            page_token: query.page_token.unwrap_or_default(),
        })
        .await?;
    Ok(Json(page_json(&response)))
}
