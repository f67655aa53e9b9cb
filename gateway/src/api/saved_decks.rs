//! `/api/v1/{game}/decks`: the decks players save — saved by name (a name in use replaces that
//! deck), read, listed a page at a time, changed, deleted and exported — and shared deck
//! links (`/api/v1/{game}/decks/shared/{code}`, no account needed), through
//! `turnier.decks.v1.DeckService` with the caller's token forwarded. The ownership rule
//! answers 401 / 403 / 404 with the codes the accounts issue defines.

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

use crate::ApiError;
use crate::auth::Calls;
use crate::state::AppState;

/// The saved decks' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1/{game}/decks", get(list).post(save))
        .route(
            "/api/v1/{game}/decks/{id}",
            get(read).patch(change).delete(remove),
        )
        .route("/api/v1/{game}/decks/shared/{code}", get(shared))
        .route("/api/v1/users/{username}/decks", get(profile))
}

/// The saved decks' part of the OpenAPI document.
#[derive(Debug, OpenApi)]
#[openapi(
    paths(list, save, read, change, remove, shared, profile),
    components(schemas(SaveDeckBody, ChangeDeckBody, SavedPileBody, DeckRulesBody, RuleRefBody, PileViewBody)),
    tags((name = "saved decks", description = "The decks players save, and shared deck links"))
)]
pub struct SavedDecksDoc;

/// The query of a listing: a page at a time (AIP-158).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct PageQuery {
    pub(crate) page_size: Option<u32>,
    pub(crate) page_token: Option<String>,
}

/// The query of a profile's listing.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ProfileQuery {
    game: Option<String>,
    page_size: Option<u32>,
    page_token: Option<String>,
}

/// A ruleset a deck is checked with: its id (`"riftbound-legend"`), or `{"ruleset", "version"?}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum RuleRefBody {
    /// A ruleset's id, at its latest version.
    Id(String),
    /// A ruleset at a version.
    Pinned {
        /// The ruleset's id.
        ruleset: String,
        /// The version; absent: the latest.
        version: Option<u32>,
    },
}

/// What a pile's panel shows; every part is shown unless turned off.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PileViewBody {
    summary: Option<bool>,
    curve: Option<bool>,
    footer: Option<bool>,
}

/// One pile of a saved deck.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SavedPileBody {
    /// The pile's label (Deck name in its settings); may be empty.
    #[serde(default)]
    name: String,
    /// `main` (the default), `sideboard`, `maybeboard` or `command-zone`.
    role: Option<String>,
    /// Card ref → copies, in pile order.
    #[serde(default)]
    #[schema(value_type = Object)]
    cards: Map<String, Value>,
    /// The rule that checks this pile alone.
    zone_rule: Option<RuleRefBody>,
    /// The pile's column (default 0).
    column: Option<u32>,
    /// Its order in the column (default: its place in the list).
    order: Option<u32>,
    /// What its panel shows.
    view: Option<PileViewBody>,
    /// In a deck set: the id of the saved deck of yours this pile is synced to.
    synced_deck: Option<String>,
}

/// The rules a deck is checked with.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeckRulesBody {
    card_rule: Option<RuleRefBody>,
    deck_rule: Option<RuleRefBody>,
    deckset_rule: Option<RuleRefBody>,
}

/// The body of `POST /api/v1/{game}/decks`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SaveDeckBody {
    /// 1 to 100 characters; a name you already use for a deck of the game (in any case)
    /// replaces that deck.
    name: String,
    /// Default false: private.
    public: Option<bool>,
    /// `piles` (the default), `single-deck` or `multi-deck`.
    layout: Option<String>,
    /// The piles, in order.
    #[serde(default)]
    piles: Vec<SavedPileBody>,
    /// The rules the deck is checked with.
    rules: Option<DeckRulesBody>,
}

/// The body of `PATCH /api/v1/{game}/decks/{id}`: any of its fields.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChangeDeckBody {
    name: Option<String>,
    public: Option<bool>,
    layout: Option<String>,
    piles: Option<Vec<SavedPileBody>>,
    rules: Option<DeckRulesBody>,
}

pub(crate) fn bad_field(field: &str, message: String) -> ApiError {
    ApiError::invalid_argument(format!("`{field}`: {message}"))
        .with_details(json!({"field": field}))
}

/// Reads a layout's name.
pub(crate) fn layout(name: &str) -> Result<pb::DeckLayout, ApiError> {
    match name {
        "piles" => Ok(pb::DeckLayout::Piles),
        "single-deck" => Ok(pb::DeckLayout::SingleDeck),
        "multi-deck" => Ok(pb::DeckLayout::MultiDeck),
        other => Err(bad_field(
            "layout",
            format!(
                "`{}` is not a layout (expected piles, single-deck or multi-deck)",
                kit::status::quote(other)
            ),
        )),
    }
}

pub(crate) fn layout_name(value: i32) -> &'static str {
    match pb::DeckLayout::try_from(value) {
        Ok(pb::DeckLayout::SingleDeck) => "single-deck",
        Ok(pb::DeckLayout::MultiDeck) => "multi-deck",
        Ok(pb::DeckLayout::Piles) | Err(_) => "piles",
    }
}

pub(crate) fn role(name: Option<&str>, field: &str) -> Result<pb::PileRole, ApiError> {
    match name {
        None | Some("main") => Ok(pb::PileRole::Main),
        Some("sideboard") => Ok(pb::PileRole::Sideboard),
        Some("maybeboard") => Ok(pb::PileRole::Maybeboard),
        Some("command-zone") => Ok(pb::PileRole::CommandZone),
        Some(other) => Err(bad_field(
            field,
            format!(
                "`{}` is not a pile role (expected main, sideboard, maybeboard or command-zone)",
                kit::status::quote(other)
            ),
        )),
    }
}

fn role_name(value: i32) -> &'static str {
    match pb::PileRole::try_from(value) {
        Ok(pb::PileRole::Sideboard) => "sideboard",
        Ok(pb::PileRole::Maybeboard) => "maybeboard",
        Ok(pb::PileRole::CommandZone) => "command-zone",
        Ok(pb::PileRole::Main) | Err(_) => "main",
    }
}

pub(crate) fn rule_ref(body: RuleRefBody) -> pb::RuleRef {
    match body {
        RuleRefBody::Id(ruleset) => pb::RuleRef {
            ruleset,
            version: None,
        },
        RuleRefBody::Pinned { ruleset, version } => pb::RuleRef { ruleset, version },
    }
}

pub(crate) fn rule_ref_json(rule: Option<&pb::RuleRef>) -> Option<Value> {
    rule.map(|rule| match rule.version {
        Some(version) => json!({"ruleset": rule.ruleset, "version": version}),
        None => json!({"ruleset": rule.ruleset}),
    })
}

/// Reads the piles of a body into the wire's, each card's copies a whole number.
pub(crate) fn piles(bodies: Vec<SavedPileBody>) -> Result<Vec<pb::SavedPile>, ApiError> {
    bodies
        .into_iter()
        .enumerate()
        .map(|(index, body)| {
            let at = |field: &str| format!("piles[{index}].{field}");
            let cards = body
                .cards
                .into_iter()
                .map(|(reference, copies)| {
                    let count = copies
                        .as_u64()
                        .and_then(|count| u32::try_from(count).ok())
                        .ok_or_else(|| {
                            bad_field(
                                &at("cards"),
                                format!(
                                    "`{}`: copies must be a whole number",
                                    kit::status::quote(&reference)
                                ),
                            )
                        })?;
                    Ok(pb::SavedCard {
                        r#ref: reference,
                        count,
                    })
                })
                .collect::<Result<Vec<_>, ApiError>>()?;
            Ok(pb::SavedPile {
                name: body.name,
                role: role(body.role.as_deref(), &at("role"))?.into(),
                cards,
                zone_rule: body.zone_rule.map(rule_ref),
                column: body.column.unwrap_or(0),
                order: body
                    .order
                    .unwrap_or_else(|| u32::try_from(index).unwrap_or(u32::MAX)),
                view: Some(view(body.view)),
                synced_deck: body.synced_deck,
            })
        })
        .collect()
}

/// Reads a pile's view options: every part shown unless turned off.
pub(crate) fn view(body: Option<PileViewBody>) -> pb::PileView {
    let body = body.unwrap_or(PileViewBody {
        summary: None,
        curve: None,
        footer: None,
    });
    pb::PileView {
        summary: body.summary.unwrap_or(true),
        curve: body.curve.unwrap_or(true),
        footer: body.footer.unwrap_or(true),
    }
}

pub(crate) fn rules(body: DeckRulesBody) -> pb::DeckRules {
    pb::DeckRules {
        card_rule: body.card_rule.map(rule_ref),
        deck_rule: body.deck_rule.map(rule_ref),
        deckset_rule: body.deckset_rule.map(rule_ref),
    }
}

/// Writes a pile as the API shows it: cards as ref → copies, in pile order.
pub(crate) fn pile_json(pile: &pb::SavedPile) -> Value {
    let cards: Map<String, Value> = pile
        .cards
        .iter()
        .map(|card| (card.r#ref.clone(), json!(card.count)))
        .collect();
    let view = pile.view.unwrap_or(pb::PileView {
        summary: true,
        curve: true,
        footer: true,
    });
    let mut out = Map::new();
    out.insert("name".into(), json!(pile.name));
    out.insert("role".into(), json!(role_name(pile.role)));
    out.insert("cards".into(), Value::Object(cards));
    if let Some(rule) = rule_ref_json(pile.zone_rule.as_ref()) {
        out.insert("zoneRule".into(), rule);
    }
    out.insert("column".into(), json!(pile.column));
    out.insert("order".into(), json!(pile.order));
    out.insert(
        "view".into(),
        json!({"summary": view.summary, "curve": view.curve, "footer": view.footer}),
    );
    if let Some(deck) = &pile.synced_deck {
        out.insert("syncedDeck".into(), json!(deck));
    }
    Value::Object(out)
}

/// Writes rules as the API shows them; a rule not set is left out.
pub(crate) fn rules_json(rules: Option<&pb::DeckRules>) -> Value {
    let mut out = Map::new();
    if let Some(rules) = rules {
        for (key, rule) in [
            ("cardRule", &rules.card_rule),
            ("deckRule", &rules.deck_rule),
            ("decksetRule", &rules.deckset_rule),
        ] {
            if let Some(rule) = rule_ref_json(rule.as_ref()) {
                out.insert(key.into(), rule);
            }
        }
    }
    Value::Object(out)
}

/// Writes a saved deck as the API shows it.
pub(crate) fn deck_json(deck: &pb::SavedDeck) -> Value {
    json!({
        "id": deck.id,
        "game": proto::game::from_wire(deck.game).map(proto::game::Game::name),
        "name": deck.name,
        "owner": deck.owner,
        "public": deck.public,
        "layout": layout_name(deck.layout),
        "piles": deck.piles.iter().map(pile_json).collect::<Vec<_>>(),
        "rules": rules_json(deck.rules.as_ref()),
        "mainCount": deck.main_count,
        "sideboardCount": deck.sideboard_count,
        "createTime": super::rfc3339(deck.create_time.as_ref()),
        "updateTime": super::rfc3339(deck.update_time.as_ref()),
    })
}

/// Writes a deck's warning list as the API shows it.
pub(crate) fn warnings_json(warnings: &[pb::DeckWarning]) -> Value {
    Value::Array(
        warnings
            .iter()
            .map(|warning| {
                let mut out = Map::new();
                out.insert("rule".into(), json!(warning.rule));
                for (key, value) in [
                    ("pile", &warning.pile),
                    ("ref", &warning.r#ref),
                    ("code", &warning.code),
                ] {
                    if let Some(value) = value {
                        out.insert(key.into(), json!(value));
                    }
                }
                out.insert("message".into(), json!(warning.message));
                Value::Object(out)
            })
            .collect(),
    )
}

fn saved_json(response: &pb::SaveDeckResponse) -> Value {
    json!({
        "deck": response.deck.as_ref().map_or(Value::Null, deck_json),
        "replaced": response.replaced,
        "warnings": warnings_json(&response.warnings),
    })
}

/// Writes a shared deck as the API shows it.
fn shared_json(deck: &pb::SharedDeck) -> Result<Value, ApiError> {
    let mut piles = Map::new();
    for pile in &deck.piles {
        let cards: Vec<Value> = pile
            .cards
            .iter()
            .map(|card| {
                json!({"ref": card.r#ref, "cardId": card.card_id, "name": card.name, "count": card.count})
            })
            .collect();
        piles.insert(pile.name.clone(), Value::Array(cards));
    }
    let exports = deck.exports.as_ref().map(|exports| {
        let mut out = Map::new();
        out.insert("shareCode".into(), json!(exports.share_code));
        out.insert(
            "deckList".into(),
            json!({"format": exports.deck_list_format, "text": exports.deck_list}),
        );
        if let (Some(text), Some(format)) = (&exports.deck_code, &exports.deck_code_format) {
            out.insert("deckCode".into(), json!({"format": format, "text": text}));
        }
        out.insert("notes".into(), json!(exports.notes));
        Value::Object(out)
    });
    Ok(json!({
        "game": proto::game::from_wire(deck.game).map(proto::game::Game::name),
        "format": deck.format,
        "piles": piles,
        "chosenChampion": deck.chosen_champion,
        "unknownCards": super::to_json(&deck.unknown)?,
        "exports": exports,
    }))
}

fn page_json(response: &pb::ListDecksResponse) -> Value {
    json!({
        "decks": response.decks.iter().map(deck_json).collect::<Vec<_>>(),
        "nextPageToken": response.next_page_token,
    })
}

/// Lists the caller's saved decks of a game, the last changed first, a page at a time.
#[utoipa::path(get, path = "/api/v1/{game}/decks", tag = "saved decks",
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("pageSize" = Option<u32>, Query, description = "1 to 1000 (default 50; more is brought down to 1000)"),
           ("pageToken" = Option<String>, Query, description = "The `nextPageToken` of the previous page")),
    responses((status = 200, description = "`{\"decks\": [deck], \"nextPageToken\"}` (empty on the last page)"),
              (status = 400, description = "`invalid_argument`: a page token this listing did not write", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody)))]
async fn list(
    calls: Calls,
    Path(game_name): Path<String>,
    Query(query): Query<PageQuery>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .decks()?
        .list_decks(pb::ListDecksRequest {
            game: proto::game::to_wire(game),
            page_size: query.page_size.unwrap_or(0),
            page_token: query.page_token.unwrap_or_default(),
        })
        .await?;
    Ok(Json(page_json(&response)))
}

/// Saves a deck of the caller's by name: a name already used for a deck of the game (in any
/// case) replaces that deck and keeps its id. The rule warnings the deck still has come back
/// with it.
#[utoipa::path(post, path = "/api/v1/{game}/decks", tag = "saved decks", request_body = SaveDeckBody,
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 201, description = "`{\"deck\", \"replaced\": false, \"warnings\"}`: a new deck"),
              (status = 200, description = "`{\"deck\", \"replaced\": true, \"warnings\"}`: the deck of that name, replaced"),
              (status = 400, description = "`invalid_argument` naming the field", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: the token may not write", body = crate::ErrorBody),
              (status = 404, description = "`ruleset_not_found`: a rule of the deck", body = crate::ErrorBody)))]
async fn save(
    calls: Calls,
    Path(game_name): Path<String>,
    Json(body): Json<SaveDeckBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .decks()?
        .save_deck(pb::SaveDeckRequest {
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
            piles: piles(body.piles)?,
            rules: body.rules.map(rules),
        })
        .await?;
    let status = if response.replaced {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    Ok((status, Json(saved_json(&response))))
}

/// A saved deck the caller may see; `{id}:export` gives it in the game's share and export
/// formats.
#[utoipa::path(get, path = "/api/v1/{game}/decks/{id}", tag = "saved decks",
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The deck's id (`dk_…`), or `dk_…:export` for its exports")),
    responses((status = 200, description = "`{\"deck\"}`; with `:export` the shared deck: `{\"game\", \"format\": \"saved\", \"piles\", \"unknownCards\", \"exports\"}`"),
              (status = 404, description = "`not_found`: no such deck, or a private one of someone else's", body = crate::ErrorBody)))]
async fn read(
    calls: Calls,
    Path((game_name, id)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let game = proto::game::to_wire(super::game(&game_name)?);
    if id.contains(':') {
        let (id, _export) = super::custom_method(&id, "deck", &["export"])?;
        let deck = calls
            .decks()?
            .export_saved_deck(pb::ExportSavedDeckRequest { game, id })
            .await?;
        return Ok(Json(shared_json(&deck)?));
    }
    let response = calls
        .decks()?
        .get_deck(pb::GetDeckRequest { game, id })
        .await?;
    Ok(Json(
        json!({"deck": response.deck.as_ref().map_or(Value::Null, deck_json)}),
    ))
}

/// Changes a deck of the caller's: any of its name, visibility, layout, piles and rules. Its
/// rules run again when its layout, piles or rules change.
#[utoipa::path(patch, path = "/api/v1/{game}/decks/{id}", tag = "saved decks", request_body = ChangeDeckBody,
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The deck's id")),
    responses((status = 200, description = "`{\"deck\", \"warnings\"}`"),
              (status = 400, description = "`invalid_argument`", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody),
              (status = 409, description = "`already_exists`: another deck of yours has the name", body = crate::ErrorBody)))]
async fn change(
    calls: Calls,
    Path((game_name, id)): Path<(String, String)>,
    Json(body): Json<ChangeDeckBody>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let replace_piles = body.piles.is_some();
    let response = calls
        .decks()?
        .update_deck(pb::UpdateDeckRequest {
            game: proto::game::to_wire(game),
            id,
            name: body.name,
            public: body.public,
            layout: body
                .layout
                .as_deref()
                .map(layout)
                .transpose()?
                .map(i32::from),
            piles: piles(body.piles.unwrap_or_default())?,
            replace_piles,
            rules: body.rules.map(rules),
        })
        .await?;
    Ok(Json(json!({
        "deck": response.deck.as_ref().map_or(Value::Null, deck_json),
        "warnings": warnings_json(&response.warnings),
    })))
}

/// Deletes a deck of the caller's.
#[utoipa::path(delete, path = "/api/v1/{game}/decks/{id}", tag = "saved decks",
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The deck's id")),
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
        .delete_deck(pb::DeleteDeckRequest {
            game: proto::game::to_wire(game),
            id,
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A shared deck's page: the deck a share code (or any code or list the game imports) carries,
/// its cards by pile resolved against the catalog, the cards it does not know listed, and its
/// exports (Share, Copy deck list, Copy deck code), with what each leaves out. No account
/// needed.
#[utoipa::path(get, path = "/api/v1/{game}/decks/shared/{code}", tag = "saved decks",
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("code" = String, Path, description = "`RIFT1.…`, `PTCG1.…`, a LoR code, or any code or list the game imports (percent-encoded)")),
    responses((status = 200, description = "`{\"game\", \"format\", \"piles\": {name: [{\"ref\", \"cardId\", \"name\", \"count\"}]}, \"chosenChampion\", \"unknownCards\", \"exports\": {\"shareCode\", \"deckList\": {\"format\", \"text\"}, \"deckCode\"?, \"notes\"}}`"),
              (status = 400, description = "`unreadable_deck`: no code or list of the game reads it", body = crate::ErrorBody)))]
async fn shared(
    calls: Calls,
    Path((game_name, code)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let deck = calls
        .decks()?
        .get_shared_deck(pb::GetSharedDeckRequest {
            game: proto::game::to_wire(game),
            code,
        })
        .await?;
    Ok(Json(shared_json(&deck)?))
}

/// A user's public decks, as their profile lists them, a page at a time.
#[utoipa::path(get, path = "/api/v1/users/{username}/decks", tag = "saved decks",
    params(("username" = String, Path, description = "The username, in any case"),
           ("game" = Option<String>, Query, description = "lor, pokemon or riftbound; absent: every game"),
           ("pageSize" = Option<u32>, Query, description = "1 to 1000 (default 50)"),
           ("pageToken" = Option<String>, Query, description = "The `nextPageToken` of the previous page")),
    responses((status = 200, description = "`{\"decks\": [deck], \"nextPageToken\"}`"),
              (status = 404, description = "`not_found`: no such user", body = crate::ErrorBody)))]
async fn profile(
    calls: Calls,
    Path(username): Path<String>,
    Query(query): Query<ProfileQuery>,
) -> Result<Json<Value>, ApiError> {
    let (username, game) = super::profile_of(&calls, username, query.game.as_deref()).await?;
    let response = calls
        .decks()?
        .list_public_decks(pb::ListPublicDecksRequest {
            username,
            game: game.map_or(0, proto::game::to_wire),
            page_size: query.page_size.unwrap_or(0),
            page_token: query.page_token.unwrap_or_default(),
        })
        .await?;
    Ok(Json(page_json(&response)))
}
