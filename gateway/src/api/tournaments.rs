//! `/api/v1/{game}/tournaments` and `/api/v1/tournaments/{id}`: tournaments created, listed,
//! read, changed, started and advanced; registrations, rounds, timers, results, standings and
//! a stage's export for the offline tool; and the live events of a tournament as Server-Sent
//! Events, through `turnier.tournaments.v1.TournamentService` with the caller's token.
//!
//! Pairing, results, standings and who may do what are the service's: this module only turns
//! JSON into requests and the answers back into JSON. The create body and the answers' JSON are
//! `proto::tournaments_json`'s, which `turnier tournament … --server` prints too.

// `ApiError` is what every handler answers with; it lives for one response.
#![allow(clippy::result_large_err)]

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::response::IntoResponse;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};
use futures::StreamExt as _;
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use proto::tournaments::v1 as pb;
use proto::tournaments_json::{
    self, AdvancementRuleBody, BodyError, CreateTournamentBody, SeedBody, StageBody,
};
use serde::{Deserialize, Deserializer};
use serde_json::{Value, json};
use utoipa::OpenApi;

use crate::ApiError;
use crate::auth::Calls;
use crate::state::AppState;

/// The header an `EventSource` sends when it reconnects: the `id` of the last event it read.
const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");

/// How often an open event stream looks whether the gateway is shutting down.
const SHUTDOWN_POLL: Duration = Duration::from_secs(1);

/// The tournaments' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1/{game}/tournaments", get(list).post(create))
        .route("/api/v1/{game}/tournaments/defaults", get(stage_defaults))
        .route(
            "/api/v1/tournaments/{id}",
            get(read).patch(change).post(act),
        )
        .route("/api/v1/tournaments/{id}/organizers", post(add_organizer))
        .route(
            "/api/v1/tournaments/{id}/registrations",
            get(registrations).post(register),
        )
        .route(
            "/api/v1/tournaments/{id}/registrations/{registration}",
            delete(unregister)
                .patch(fix_table)
                .post(act_on_registration),
        )
        .route("/api/v1/tournaments/{id}/rounds", post(pair_round))
        .route("/api/v1/tournaments/{id}/rounds/{number}", get(round))
        .route(
            "/api/v1/tournaments/{id}/matches/{match}",
            post(act_on_match),
        )
        .route("/api/v1/tournaments/{id}/standings", get(standings))
        .route("/api/v1/tournaments/{id}/stages/{stage}", get(export_stage))
        .route("/api/v1/tournaments/{id}/events", get(events))
        .route(
            "/api/v1/tournaments/{id}/registrations/{registration}/lineup",
            put(submit_lineup).get(lineup),
        )
        .route("/api/v1/tournaments/{id}/lineups", get(lineups))
        .route(
            "/api/v1/tournaments/{id}/registrations/{registration}/{action}",
            post(act_on_lineup),
        )
        .route(
            "/api/v1/tournaments/{id}/webhooks",
            get(webhooks).post(add_webhook),
        )
        .route(
            "/api/v1/tournaments/{id}/webhooks/{webhook}",
            delete(remove_webhook),
        )
        .route(
            "/api/v1/tournaments/{id}/webhooks/{webhook}/deliveries",
            get(deliveries),
        )
        .route(
            "/api/v1/tournaments/{id}/webhooks/{webhook}/deliveries/{delivery}",
            post(redeliver),
        )
}

/// The body of `POST …/webhooks`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookBody {
    /// Where to send the events: http or https.
    url: String,
    /// Which events (absent or empty: all): `submission.checked`, `round.paired`,
    /// `match.reported`, `standings.updated`, `stage.advanced`.
    #[serde(default)]
    events: Vec<String>,
}

/// Organizers: registers a webhook. Each delivery is a POST of JSON `{"id", "event",
/// "tournament", "createTime", "data"}` with `X-Turnier-Event`, `X-Turnier-Delivery` and
/// `X-Turnier-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the
/// secret>`; the secret is in this answer only.
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/webhooks", tag = "tournaments",
    request_body = WebhookBody,
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id")),
    responses((status = 201, description = "`{\"webhook\": {\"id\", \"url\", \"events\", \"createTime\"}, \"secret\"}`"),
              (status = 400, description = "`invalid_argument`: not http(s), a private address, an unknown event", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: not an organizer", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody),
              (status = 409, description = "`webhooks_off`: the operator set no webhook key", body = crate::ErrorBody)))]
async fn add_webhook(
    calls: Calls,
    Path(id): Path<String>,
    Json(body): Json<WebhookBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let response = calls
        .tournaments()?
        .add_webhook(pb::AddWebhookRequest {
            id,
            url: body.url,
            events: body.events,
        })
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(tournaments_json::added_webhook_answer(&response)),
    ))
}

/// Organizers: the tournament's webhooks.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/webhooks", tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id")),
    responses((status = 200, description = "`{\"webhooks\": [...]}`"),
              (status = 403, description = "`permission_denied`: not an organizer", body = crate::ErrorBody)))]
async fn webhooks(calls: Calls, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let response = calls
        .tournaments()?
        .list_webhooks(pb::ListWebhooksRequest { id })
        .await?;
    Ok(Json(tournaments_json::webhooks_answer(&response)))
}

/// Organizers: removes a webhook.
#[utoipa::path(delete, path = "/api/v1/tournaments/{id}/webhooks/{webhook}", tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id"),
           ("webhook" = String, Path, description = "The webhook's id")),
    responses((status = 204, description = "removed"),
              (status = 403, description = "`permission_denied`: not an organizer", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn remove_webhook(
    calls: Calls,
    Path((id, webhook)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    calls
        .tournaments()?
        .remove_webhook(pb::RemoveWebhookRequest { id, webhook })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Organizers: a webhook's delivery log (the latest 100, newest first).
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/webhooks/{webhook}/deliveries", tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id"),
           ("webhook" = String, Path, description = "The webhook's id")),
    responses((status = 200, description = "`{\"deliveries\": [{\"id\", \"event\", \"state\", \"attempts\", \"lastStatus\"?, \"lastError\"?, \"createTime\", \"updateTime\", \"body\"}]}`"),
              (status = 403, description = "`permission_denied`: not an organizer", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn deliveries(
    calls: Calls,
    Path((id, webhook)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let response = calls
        .tournaments()?
        .list_webhook_deliveries(pb::ListWebhookDeliveriesRequest { id, webhook })
        .await?;
    Ok(Json(tournaments_json::deliveries_answer(&response)))
}

/// Organizers: `…/deliveries/{delivery}:redeliver` sends a delivery again.
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/webhooks/{webhook}/deliveries/{delivery}:redeliver", tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id"),
           ("webhook" = String, Path, description = "The webhook's id"),
           ("delivery" = String, Path, description = "The delivery's id")),
    responses((status = 202, description = "`{\"delivery\"}`: pending again"),
              (status = 403, description = "`permission_denied`: not an organizer", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn redeliver(
    calls: Calls,
    Path((id, webhook, target)): Path<(String, String, String)>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let (delivery, _) = super::custom_method(&target, "delivery", &["redeliver"])?;
    let response = calls
        .tournaments()?
        .redeliver_webhook(pb::RedeliverWebhookRequest {
            id,
            webhook,
            delivery,
        })
        .await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(tournaments_json::delivery_answer(&response)),
    ))
}

/// Organizers: `lineup:unlock` (one player may submit after the deadline) and
/// `lineup:recheck` (the latest lineup checked again, as a new submission).
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/registrations/{registration}/lineup:{action}", tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id"),
           ("registration" = String, Path, description = "The registration's id"),
           ("action" = String, Path, description = "`unlock` or `recheck`")),
    responses((status = 200, description = "`{\"tournament\"}` (`:unlock`)"),
              (status = 202, description = "`{\"submission\"}` (`:recheck`): pending"),
              (status = 403, description = "`permission_denied`: not an organizer", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn act_on_lineup(
    calls: Calls,
    Path((id, registration, target)): Path<(String, String, String)>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let (what, action) = super::custom_method(&target, "lineup", &["unlock", "recheck"])?;
    if what != "lineup" {
        return Err(ApiError::not_found(format!(
            "no route for `POST …/registrations/{registration}/{}`",
            kit::status::quote(&target)
        )));
    }
    let tournaments = calls.tournaments()?;
    if action == "unlock" {
        let response = tournaments
            .unlock_lineup(pb::UnlockLineupRequest { id, registration })
            .await?;
        return Ok((
            StatusCode::OK,
            Json(tournaments_json::tournament_answer(&response)),
        ));
    }
    let response = tournaments
        .recheck_lineup(pb::RecheckLineupRequest { id, registration })
        .await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(tournaments_json::submitted_answer(&response)),
    ))
}

/// The body of `PUT …/lineup`: one deck code or list per deck.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LineupBody {
    decks: Vec<String>,
}

/// Submits a lineup: the player, or an organizer for a guest. Checked by the submission worker.
#[utoipa::path(put, path = "/api/v1/tournaments/{id}/registrations/{registration}/lineup", tag = "tournaments",
    request_body = LineupBody,
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id"),
           ("registration" = String, Path, description = "The registration's id")),
    responses((status = 202, description = "`{\"submission\": {\"id\", \"state\": \"pending\", \"submitTime\"}}`"),
              (status = 400, description = "`invalid_argument`", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: not the player or an organizer", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody),
              (status = 409, description = "`failed_precondition`: after the deadline, or no deck settings", body = crate::ErrorBody)))]
async fn submit_lineup(
    calls: Calls,
    Path((id, registration)): Path<(String, String)>,
    Json(body): Json<LineupBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let response = calls
        .tournaments()?
        .submit_lineup(pb::SubmitLineupRequest {
            id,
            registration,
            decks: body.decks,
        })
        .await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(tournaments_json::submitted_answer(&response)),
    ))
}

/// A registration's latest lineup, with its verdict once checked.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/registrations/{registration}/lineup", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id"),
           ("registration" = String, Path, description = "The registration's id")),
    responses((status = 200, description = "`{\"submission\": {\"id\", \"state\", \"issues\", \"decks\", \"submitTime\", \"checkTime\"?, \"failure\"?}}`"),
              (status = 403, description = "`permission_denied`: the decklists are not shown to you", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn lineup(
    calls: Calls,
    Path((id, registration)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let response = calls
        .tournaments()?
        .get_lineup(pb::GetLineupRequest { id, registration })
        .await?;
    Ok(Json(tournaments_json::submission_answer(&response)))
}

/// Every latest lineup the caller may see under the tournament's decklist visibility.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/lineups", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    responses((status = 200, description = "`{\"lineups\": [submission]}`"),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn lineups(calls: Calls, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let response = calls
        .tournaments()?
        .list_lineups(pb::ListLineupsRequest { id })
        .await?;
    Ok(Json(tournaments_json::lineups_answer(&response)))
}

/// The tournaments' part of the OpenAPI document.
#[derive(Debug, OpenApi)]
#[openapi(
    paths(list, stage_defaults, create, read, change, act, add_organizer, registrations, register, unregister,
          fix_table, act_on_registration, pair_round, round, act_on_match, standings,
          export_stage, events, submit_lineup, lineup, lineups, act_on_lineup, add_webhook,
          webhooks, remove_webhook, deliveries, redeliver),
    components(schemas(CreateTournamentBody, StageBody, AdvancementRuleBody, SeedBody,
                       ChangeTournamentBody, StagePatchBody, AddOrganizerBody, RegisterBody,
                       FixTableBody, PairRoundBody, ManualPairingBody, ReportResultBody,
                       ExtendMatchBody, DeckSettingsBody, RulesBody, LineupBody,
                       WebhookBody)),
    tags((name = "tournaments", description = "Tournaments: stages, registration, rounds, results, standings and live events"))
)]
pub struct TournamentsDoc;

/// The body of `PATCH /api/v1/tournaments/{id}`: any of its fields.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChangeTournamentBody {
    registration_open: Option<bool>,
    /// What a stage may still change.
    #[serde(default)]
    stages: Vec<StagePatchBody>,
    /// The deck settings: saving them pins the current version of every rule they use.
    deck_settings: Option<DeckSettingsBody>,
}

/// A tournament's deck settings as an organizer saves them.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeckSettingsBody {
    /// Decks each player brings (default 1).
    decks_to_bring: Option<u32>,
    /// Card refs rejected before any rule runs.
    #[serde(default)]
    banned_cards: Vec<String>,
    /// The rule of each scope by ruleset id; a scope left out takes the game's default.
    #[serde(default)]
    rules: RulesBody,
    /// When lineups lock (RFC 3339); absent: the start.
    deadline: Option<String>,
    /// `organizers` (default), `after_event` or `public`.
    decklist_visibility: Option<String>,
    /// At the start, drop the players without an accepted lineup.
    #[serde(default)]
    drop_without_lineup: bool,
}

/// The rule of each scope, by ruleset id.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesBody {
    card: Option<String>,
    deck: Option<String>,
    deckset: Option<String>,
}

/// Reads deck settings into their request, or the 400 naming what does not read.
#[allow(clippy::result_large_err)]
fn deck_settings_input(body: DeckSettingsBody) -> Result<pb::DeckSettingsInput, ApiError> {
    let deadline = body
        .deadline
        .as_deref()
        .map(|text| super::time_input(text, "deckSettings.deadline"))
        .transpose()?;
    Ok(pb::DeckSettingsInput {
        decks_to_bring: body.decks_to_bring,
        banned_cards: body.banned_cards,
        card_rule: body.rules.card,
        deck_rule: body.rules.deck,
        deckset_rule: body.rules.deckset,
        deadline,
        decklist_visibility: body.decklist_visibility,
        drop_without_lineup: body.drop_without_lineup,
    })
}

/// The settings of one stage that may change once it runs.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StagePatchBody {
    /// The stage, from 1.
    stage: u32,
    pairing_style: Option<String>,
    prevent_repeat_matchups: Option<bool>,
    round_minutes: Option<u32>,
}

/// The body of `POST /api/v1/tournaments/{id}/organizers`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddOrganizerBody {
    username: String,
}

/// The body of `POST /api/v1/tournaments/{id}/registrations`: empty (the caller signs up) or
/// a guest's name (organizers).
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RegisterBody {
    display_name: Option<String>,
}

/// The body of `PATCH /api/v1/tournaments/{id}/registrations/{registration}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FixTableBody {
    /// The table the player always sits at; `null` frees it. Required.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>, required = true)]
    fixed_table: Option<Option<u32>>,
}

/// The body of `POST /api/v1/tournaments/{id}/rounds`: empty (the engine pairs) or an
/// organizer's own pairings (Swiss).
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PairRoundBody {
    #[serde(default)]
    pairings: Vec<ManualPairingBody>,
}

/// One table of an organizer's pairings.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ManualPairingBody {
    /// Two registration ids, or one for a bye.
    players: Vec<String>,
}

/// The body of `:report`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportResultBody {
    /// Games won by `players[0]` and `players[1]` (a one-on-one match).
    #[serde(default)]
    games: Vec<u32>,
    /// A free-for-all lobby (organizers): each player's finish from 1, in `players` order.
    #[serde(default)]
    finish: Vec<u32>,
    /// With `finish`: the opponents each player eliminated (optional).
    #[serde(default)]
    eliminations: Vec<u32>,
}

/// The body of `:extend`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtendMatchBody {
    minutes: u32,
}

/// The query of a round or of standings: which stage.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StageQuery {
    /// From 1; absent or 0: the current stage.
    stage: Option<u32>,
}

/// The query of the event stream.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventsQuery {
    /// Resume after this event (what `Last-Event-ID` says on a reconnect, which wins).
    after: Option<u64>,
}

/// Reads a key that must be present, `null` or not: `Some(None)` for `null`, and `None` (from
/// `#[serde(default)]`) when the key is missing.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Option<u32>>, D::Error> {
    Option::<u32>::deserialize(deserializer).map(Some)
}

/// Reads an optional JSON body: empty (or blank) is `T::default()`; `shape` names what the body
/// should be in the error.
fn optional_body<T>(body: &[u8], shape: &str) -> Result<T, ApiError>
where
    T: Default + serde::de::DeserializeOwned,
{
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    json_body(body, shape)
}

/// Reads a JSON body; `shape` names what the body should be in the error.
fn json_body<T: serde::de::DeserializeOwned>(body: &[u8], shape: &str) -> Result<T, ApiError> {
    serde_json::from_slice(body)
        .map_err(|err| ApiError::invalid_argument(format!("the body is not `{shape}`: {err}")))
}

/// Answers a create body the shared reader refused: `invalid_argument` naming the member.
fn invalid_body(err: BodyError) -> ApiError {
    ApiError::invalid_argument(err.message).with_details(json!({"field": err.field}))
}

/// Reads a number in a path (a stage, a round): anything else names no resource.
fn path_number(segment: &str, kind: &str) -> Result<u32, ApiError> {
    segment.parse().map_err(|_| {
        ApiError::not_found(format!(
            "no {kind} `{}` (they are numbered from 1)",
            kit::status::quote(segment)
        ))
    })
}

/// Reads the stage number of a path (`stages/{k}:export`): a whole number below 1 (`0`, `-1`)
/// is a 400, as a stage number below 1 is everywhere; anything else that is not a number
/// names no stage.
fn stage_number(segment: &str) -> Result<u32, ApiError> {
    match segment.parse::<i64>() {
        Ok(number) if number < 1 => Err(ApiError::invalid_argument(format!(
            "stage `{number}`: stages are numbered from 1"
        ))
        .with_details(json!({"field": "stage"}))),
        _ => path_number(segment, "stage"),
    }
}

/// Returns where an event stream resumes: after the `Last-Event-ID` an `EventSource` sends
/// when it reconnects, else after the `after` query (the first connection's), else from the
/// start.
fn resume_point(last_event_id: Option<&HeaderValue>, after: Option<u64>) -> Result<u64, ApiError> {
    let Some(header) = last_event_id else {
        return Ok(after.unwrap_or(0));
    };
    header
        .to_str()
        .ok()
        .map(str::trim)
        .and_then(|id| id.parse().ok())
        .ok_or_else(|| {
            ApiError::invalid_argument("`Last-Event-ID` is not the number of an event")
                .with_details(json!({"field": "Last-Event-ID"}))
        })
}

/// Turns one of the service's events into a Server-Sent Event: its `seq` is the `id` an
/// `EventSource` resumes from, its kind the `event` a listener subscribes to.
fn sse_event(event: &pb::TournamentEvent) -> Event {
    let mut sse = Event::default().id(event.seq.to_string());
    // A kind with a line break would end the field early (axum panics on it); the service's
    // kinds are words, so this only guards against a bug there.
    if !event.kind.is_empty() && !event.kind.contains(['\r', '\n']) {
        sse = sse.event(&event.kind);
    }
    sse.data(&event.data_json)
}

/// Resolves once the gateway has begun shutting down.
///
/// An event stream has no end of its own, and a graceful shutdown waits for every response to
/// end: the stream ends here instead, and the client's `EventSource` reconnects (to another
/// pod) with `Last-Event-ID`, losing nothing. The state only has a flag, so it is polled.
async fn shutting_down(state: AppState) {
    let mut every = tokio::time::interval(SHUTDOWN_POLL);
    loop {
        every.tick().await;
        if state.is_shutting_down() {
            return;
        }
    }
}

/// Lists a game's tournaments, the newest first.
#[utoipa::path(get, path = "/api/v1/{game}/tournaments", tag = "tournaments",
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 200, description = "`{\"tournaments\": [tournament]}`"),
              (status = 404, description = "`unknown_game`", body = crate::ErrorBody)))]
async fn list(calls: Calls, Path(game_name): Path<String>) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .tournaments()?
        .list_tournaments(pb::ListTournamentsRequest {
            game: proto::game::to_wire(game),
        })
        .await?;
    Ok(Json(tournaments_json::tournaments_answer(&response)))
}

/// The query of a stage's defaults.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DefaultsQuery {
    /// The format; absent: `swiss`.
    format: Option<String>,
    /// The stage's place, from 1 (a later stage is seeded by prior stage results).
    stage: Option<u32>,
}

/// The settings a new stage of a format starts from in a game, every one filled in (what the
/// create form shows), and the formats the game offers.
#[utoipa::path(get, path = "/api/v1/{game}/tournaments/defaults", tag = "tournaments",
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("format" = Option<String>, Query, description = "the stage's format; absent: swiss"),
           ("stage" = Option<u32>, Query, description = "the stage's place, from 1")),
    responses((status = 200, description = "`{\"format\", \"settings\", \"formats\"}`"),
              (status = 400, description = "`invalid_argument`: a format the game does not offer", body = crate::ErrorBody),
              (status = 404, description = "`unknown_game`", body = crate::ErrorBody)))]
async fn stage_defaults(
    calls: Calls,
    Path(game_name): Path<String>,
    Query(query): Query<DefaultsQuery>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .tournaments()?
        .get_stage_defaults(pb::GetStageDefaultsRequest {
            game: proto::game::to_wire(game),
            format: query.format.unwrap_or_default(),
            stage: query.stage.unwrap_or(1),
        })
        .await?;
    Ok(Json(tournaments_json::stage_defaults_answer(&response)))
}

/// Creates a tournament; the caller organizes it.
#[utoipa::path(post, path = "/api/v1/{game}/tournaments", tag = "tournaments", request_body = CreateTournamentBody,
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 201, description = "`{\"tournament\"}`"),
              (status = 400, description = "`invalid_argument` naming the field", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: the token may not write", body = crate::ErrorBody)))]
async fn create(
    calls: Calls,
    Path(game_name): Path<String>,
    Json(body): Json<CreateTournamentBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let game = super::game(&game_name)?;
    let request = tournaments_json::create_request(game, body).map_err(invalid_body)?;
    let response = calls.tournaments()?.create_tournament(request).await?;
    Ok((
        StatusCode::CREATED,
        Json(tournaments_json::tournament_answer(&response)),
    ))
}

/// A tournament.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    responses((status = 200, description = "`{\"tournament\"}`"),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn read(calls: Calls, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let response = calls
        .tournaments()?
        .get_tournament(pb::GetTournamentRequest { id })
        .await?;
    Ok(Json(tournaments_json::tournament_answer(&response)))
}

/// Organizers: opens or closes registration, or changes what a stage may still change.
#[utoipa::path(patch, path = "/api/v1/tournaments/{id}", tag = "tournaments", request_body = ChangeTournamentBody,
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id")),
    responses((status = 200, description = "`{\"tournament\"}`"),
              (status = 400, description = "`invalid_argument`", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: not an organizer", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn change(
    calls: Calls,
    Path(id): Path<String>,
    Json(body): Json<ChangeTournamentBody>,
) -> Result<Json<Value>, ApiError> {
    let response = calls
        .tournaments()?
        .update_tournament(pb::UpdateTournamentRequest {
            id,
            registration_open: body.registration_open,
            deck_settings: body.deck_settings.map(deck_settings_input).transpose()?,
            stages: body
                .stages
                .into_iter()
                .map(|stage| pb::StageSettingsPatch {
                    stage: stage.stage,
                    pairing_style: stage.pairing_style,
                    prevent_repeat_matchups: stage.prevent_repeat_matchups,
                    round_minutes: stage.round_minutes,
                })
                .collect(),
        })
        .await?;
    Ok(Json(tournaments_json::tournament_answer(&response)))
}

/// Organizers: `:start` (the first stage, with the players then in it), `:advance` (the
/// complete stage's advancement rules, then the next stage or the final placements),
/// `:startTimer` (starts or resumes the current round's timer) and `:pauseTimer`.
#[utoipa::path(post, path = "/api/v1/tournaments/{id}:{action}", tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id"),
           ("action" = String, Path, description = "`start`, `advance`, `startTimer` or `pauseTimer`")),
    responses((status = 200, description = "`{\"tournament\"}` (`:start`, `:advance`) or `{\"round\"}` (`:startTimer`, `:pauseTimer`)"),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: not an organizer", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody),
              (status = 409, description = "`failed_precondition`: not now (the stage is not complete, no round runs…)", body = crate::ErrorBody)))]
async fn act(calls: Calls, Path(target): Path<String>) -> Result<Json<Value>, ApiError> {
    let (id, action) = super::custom_method(
        &target,
        "tournament",
        &["start", "advance", "startTimer", "pauseTimer"],
    )?;
    let tournaments = calls.tournaments()?;
    let answer = match action {
        "start" => tournaments_json::tournament_answer(
            &tournaments
                .start_tournament(pb::StartTournamentRequest { id })
                .await?,
        ),
        "advance" => tournaments_json::tournament_answer(
            &tournaments
                .advance_tournament(pb::AdvanceTournamentRequest { id })
                .await?,
        ),
        // `startTimer` and `pauseTimer`, the methods left.
        _ => {
            let action = if action == "startTimer" {
                pb::control_timer_request::Action::Start(true)
            } else {
                pb::control_timer_request::Action::Pause(true)
            };
            tournaments_json::round_answer(
                &tournaments
                    .control_timer(pb::ControlTimerRequest {
                        id,
                        action: Some(action),
                    })
                    .await?,
            )
        }
    };
    Ok(Json(answer))
}

/// Organizers: adds a co-organizer by username.
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/organizers", tag = "tournaments", request_body = AddOrganizerBody,
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id")),
    responses((status = 201, description = "`{\"tournament\"}`"),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: not an organizer", body = crate::ErrorBody),
              (status = 404, description = "`not_found`: no such tournament or user", body = crate::ErrorBody)))]
async fn add_organizer(
    calls: Calls,
    Path(id): Path<String>,
    Json(body): Json<AddOrganizerBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let response = calls
        .tournaments()?
        .add_organizer(pb::AddOrganizerRequest {
            id,
            username: body.username,
        })
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(tournaments_json::tournament_answer(&response)),
    ))
}

/// The registrations, in sign-up order.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/registrations", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    responses((status = 200, description = "`{\"registrations\": [registration]}`"),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn registrations(calls: Calls, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let response = calls
        .tournaments()?
        .list_registrations(pb::ListRegistrationsRequest { id })
        .await?;
    Ok(Json(tournaments_json::registrations_answer(&response)))
}

/// Signs up the caller (no body, or `{}`), or, for organizers, a guest by name.
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/registrations", tag = "tournaments",
    request_body(content = Option<RegisterBody>, description = "empty: the caller; `{\"displayName\"}`: a guest"),
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id")),
    responses((status = 201, description = "`{\"registration\"}`: registered, or waitlisted when full"),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: a guest, and not an organizer", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody),
              (status = 409, description = "`already_exists` or `failed_precondition`: registration is closed", body = crate::ErrorBody)))]
async fn register(
    calls: Calls,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let body: RegisterBody = optional_body(&body, "{\"displayName\"?}")?;
    let response = calls
        .tournaments()?
        .register(pb::RegisterRequest {
            id,
            display_name: body.display_name,
        })
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(tournaments_json::registration_answer(&response)),
    ))
}

/// Unregisters a player (themselves, or anyone for organizers).
#[utoipa::path(delete, path = "/api/v1/tournaments/{id}/registrations/{registration}", tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id"),
           ("registration" = String, Path, description = "The registration's id")),
    responses((status = 200, description = "`{\"registration\"}`"),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn unregister(
    calls: Calls,
    Path((id, registration)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    change_registration(
        &calls,
        id,
        registration,
        pb::change_registration_request::Change::Unregister(true),
    )
    .await
}

/// Organizers: seats a player at a fixed table every round, or frees it (`null`).
#[utoipa::path(patch, path = "/api/v1/tournaments/{id}/registrations/{registration}", tag = "tournaments", request_body = FixTableBody,
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id"),
           ("registration" = String, Path, description = "The registration's id")),
    responses((status = 200, description = "`{\"registration\"}`"),
              (status = 400, description = "`invalid_argument`", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: not an organizer", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn fix_table(
    calls: Calls,
    Path((id, registration)): Path<(String, String)>,
    Json(body): Json<FixTableBody>,
) -> Result<Json<Value>, ApiError> {
    let Some(table) = body.fixed_table else {
        return Err(ApiError::invalid_argument(
            "give `fixedTable`: a table number, or null to free it",
        )
        .with_details(json!({"field": "fixedTable"})));
    };
    // 0 frees the table on the wire.
    let change = pb::change_registration_request::Change::FixedTable(table.unwrap_or(0));
    change_registration(&calls, id, registration, change).await
}

/// `:drop` (leaves a running event), `:checkIn` and `:reinstate` (organizers: undoes a drop).
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/registrations/{registration}:{action}", tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id"),
           ("registration" = String, Path, description = "The registration's id"),
           ("action" = String, Path, description = "`drop`, `checkIn` or `reinstate`")),
    responses((status = 200, description = "`{\"registration\"}`"),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody),
              (status = 409, description = "`failed_precondition`: not now", body = crate::ErrorBody)))]
async fn act_on_registration(
    calls: Calls,
    Path((id, target)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let (registration, action) =
        super::custom_method(&target, "registration", &["drop", "checkIn", "reinstate"])?;
    let change = match action {
        "drop" => pb::change_registration_request::Change::Drop(true),
        "checkIn" => pb::change_registration_request::Change::CheckIn(true),
        // `reinstate`, the one method left.
        _ => pb::change_registration_request::Change::Reinstate(true),
    };
    change_registration(&calls, id, registration, change).await
}

/// Sends one change of a registration and answers `{"registration"}`.
async fn change_registration(
    calls: &Calls,
    id: String,
    registration: String,
    change: pb::change_registration_request::Change,
) -> Result<Json<Value>, ApiError> {
    let response = calls
        .tournaments()?
        .change_registration(pb::ChangeRegistrationRequest {
            id,
            registration,
            change: Some(change),
        })
        .await?;
    Ok(Json(tournaments_json::registration_answer(&response)))
}

/// Organizers: pairs the next round of the current stage with the engine (no body, or `{}`),
/// or records their own pairings (Swiss).
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/rounds", tag = "tournaments",
    request_body(content = Option<PairRoundBody>, description = "empty: the engine pairs; `{\"pairings\": [{\"players\": [id, id?]}]}`: your own"),
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id")),
    responses((status = 201, description = "`{\"round\"}`"),
              (status = 400, description = "`invalid_argument`: pairings that miss or repeat a player", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: not an organizer", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody),
              (status = 409, description = "`failed_precondition`: the round before is not over", body = crate::ErrorBody)))]
async fn pair_round(
    calls: Calls,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let body: PairRoundBody = optional_body(&body, "{\"pairings\"?}")?;
    let response = calls
        .tournaments()?
        .pair_round(pb::PairRoundRequest {
            id,
            pairings: body
                .pairings
                .into_iter()
                .map(|pairing| pb::ManualPairing {
                    players: pairing.players,
                })
                .collect(),
        })
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(tournaments_json::round_answer(&response)),
    ))
}

/// A round with its results and time left.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/rounds/{number}", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id"),
           ("number" = u32, Path, description = "The round, from 1"),
           ("stage" = Option<u32>, Query, description = "The stage, from 1; absent: the current one")),
    responses((status = 200, description = "`{\"round\"}`"),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn round(
    calls: Calls,
    Path((id, number)): Path<(String, String)>,
    Query(query): Query<StageQuery>,
) -> Result<Json<Value>, ApiError> {
    let number = path_number(&number, "round")?;
    let response = calls
        .tournaments()?
        .get_round(pb::GetRoundRequest {
            id,
            stage: query.stage.unwrap_or(0),
            number,
        })
        .await?;
    Ok(Json(tournaments_json::round_answer(&response)))
}

/// `:report` (a player reports their match and the opponent confirms; an organizer enters or
/// corrects a result) and `:extend` (organizers: more time for one match of the current round).
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/matches/{match}:{action}", tag = "tournaments",
    request_body(content = ReportResultBody, description = "`:report`: `{\"games\": [a, b]}`, or a free-for-all lobby's `{\"finish\": [...], \"eliminations\"?: [...]}`; `:extend`: `{\"minutes\"}` (`ExtendMatchBody`)"),
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The tournament's id"),
           ("match" = String, Path, description = "The match's id"),
           ("action" = String, Path, description = "`report` or `extend`")),
    responses((status = 200, description = "`{\"match\"}` (`:report`) or `{\"round\"}` (`:extend`)"),
              (status = 400, description = "`invalid_argument`", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: not a player of the match or an organizer", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody),
              (status = 409, description = "`failed_precondition`: not now", body = crate::ErrorBody)))]
async fn act_on_match(
    calls: Calls,
    Path((id, target)): Path<(String, String)>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    let (match_id, action) = super::custom_method(&target, "match", &["report", "extend"])?;
    let tournaments = calls.tournaments()?;
    match action {
        "report" => {
            let body: ReportResultBody =
                json_body(&body, "{\"games\": [a, b]} or {\"finish\": [...]}")?;
            let response = tournaments
                .report_result(pb::ReportResultRequest {
                    id,
                    match_id,
                    games: body.games,
                    finish: body.finish,
                    eliminations: body.eliminations,
                })
                .await?;
            Ok(Json(tournaments_json::match_answer(&response)))
        }
        // `extend`, the one method left.
        _ => {
            let body: ExtendMatchBody = json_body(&body, "{\"minutes\"}")?;
            let response = tournaments
                .control_timer(pb::ControlTimerRequest {
                    id,
                    action: Some(pb::control_timer_request::Action::Extend(pb::ExtendMatch {
                        match_id,
                        minutes: body.minutes,
                    })),
                })
                .await?;
            Ok(Json(tournaments_json::round_answer(&response)))
        }
    }
}

/// A stage's standings, from the results so far.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/standings", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id"),
           ("stage" = Option<u32>, Query, description = "The stage, from 1; absent: the current one")),
    responses((status = 200, description = "`{\"stage\", \"standings\": [{\"rank\", \"player\", \"displayName\", \"points\", \"record\": [wins, losses, draws], \"tiebreakers\": {name: value}, \"matchWinPercentage\", \"dropped\"}]}`, tiebreakers in the stage's order"),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn standings(
    calls: Calls,
    Path(id): Path<String>,
    Query(query): Query<StageQuery>,
) -> Result<Json<Value>, ApiError> {
    let response = calls
        .tournaments()?
        .get_standings(pb::GetStandingsRequest {
            id,
            stage: query.stage.unwrap_or(0),
        })
        .await?;
    Ok(Json(tournaments_json::standings_answer(&response)))
}

/// A stage as the offline tool reads it: its event file and its stage config.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/stages/{stage}:export", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id"),
           ("stage" = u32, Path, description = "The stage, from 1")),
    responses((status = 200, description = "`{\"event\", \"stage\"}`: the offline tool's event file and stage config"),
              (status = 400, description = "`invalid_argument`: a stage number below 1", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn export_stage(
    calls: Calls,
    Path((id, target)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    // A stage has no representation of its own (the tournament shows it): only its export.
    if !target.contains(':') {
        return Err(ApiError::not_found(format!(
            "a stage is read with its tournament; GET `/api/v1/tournaments/{}/stages/{}:export` for its export",
            kit::status::quote(&id),
            kit::status::quote(&target)
        )));
    }
    let (stage, _export) = super::custom_method(&target, "stage", &["export"])?;
    let stage = stage_number(&stage)?;
    let response = calls
        .tournaments()?
        .export_stage(pb::ExportStageRequest { id, stage })
        .await?;
    Ok(Json(tournaments_json::export_answer(&response)))
}

/// What happens in a tournament, as Server-Sent Events: each event's `id` is its number, its
/// `event` its kind (`pairings_published`, `result_reported`, …) and its `data` a JSON object.
/// A reconnecting `EventSource` resumes after the `Last-Event-ID` it sends.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/events", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id"),
           ("after" = Option<u64>, Query, description = "Resume after this event's number (a `Last-Event-ID` header wins); absent: from the start"),
           ("Last-Event-ID" = Option<u64>, Header, description = "Resume after this event's number, as an `EventSource` sends it on reconnecting")),
    responses((status = 200, description = "`text/event-stream`, until the client or the gateway closes it", content_type = "text/event-stream"),
              (status = 400, description = "`invalid_argument`: a `Last-Event-ID` that is not a number", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn events(
    State(state): State<AppState>,
    calls: Calls,
    Path(id): Path<String>,
    Query(query): Query<EventsQuery>,
    headers: HeaderMap,
) -> Result<impl IntoResponse, ApiError> {
    let after_seq = resume_point(headers.get(LAST_EVENT_ID), query.after)?;
    // The call returns once the service has accepted the watch (an unknown tournament fails
    // here, as a normal error response); the events follow on the stream. The gateway's
    // request timeout (`layers::apply`, tower-http's `TimeoutLayer`) bounds only the time to
    // the response head, which is this call, never the body: the stream needs no exemption
    // from it. The body limit reads only request bodies, and the rate limit counts the stream
    // as one request.
    let stream = calls
        .tournaments()?
        .watch_tournament(pb::WatchTournamentRequest { id, after_seq })
        .await?;
    let events = futures::stream::unfold(stream, |mut stream| async move {
        match stream.message().await {
            Ok(Some(event)) => Some((Ok::<_, Infallible>(sse_event(&event)), stream)),
            Ok(None) => None,
            // The client reconnects with `Last-Event-ID` and resumes where it stopped.
            Err(status) => {
                tracing::info!(code = ?status.code(), "the tournament's event stream broke off");
                None
            }
        }
    })
    .take_until(shutting_down(state));
    Ok((
        // Proxies that buffer responses (nginx, as the ingress) would hold events back.
        [(HeaderName::from_static("x-accel-buffering"), "no")],
        // A comment line every 15 s keeps idle proxies and load balancers from closing it.
        Sse::new(events).keep_alive(KeepAlive::default()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn created(body: Value) -> Result<pb::CreateTournamentRequest, ApiError> {
        let body = serde_json::from_value(body).expect("a create body");
        tournaments_json::create_request(proto::game::Game::Lor, body).map_err(invalid_body)
    }

    #[test]
    fn a_refused_create_body_is_an_invalid_argument_naming_its_member() {
        let rule = created(json!({"name": "Cup", "stages": [],
                                  "advancement": [{"fromStage": 1, "action": "advance"}]}))
        .expect_err("a rule without a condition");
        assert_eq!(rule.status(), StatusCode::BAD_REQUEST);
        assert_eq!(rule.code(), "invalid_argument");
        assert_eq!(
            rule.message(),
            "advancement rule 1: give either `placements` or `points`"
        );
        assert_eq!(rule.details(), Some(&json!({"field": "advancement"})));
        let seed = created(json!({"name": "Cup", "stages": [], "seed": "soon"}))
            .expect_err("a seed that is not a number");
        assert_eq!(seed.status(), StatusCode::BAD_REQUEST);
        assert_eq!(seed.details(), Some(&json!({"field": "seed"})));
        assert_eq!(
            created(json!({"name": "Cup", "stages": [], "seed": "42"}))
                .map(|request| request.seed)
                .ok(),
            Some(Some(42))
        );
    }

    #[test]
    fn a_fixed_table_must_be_given_and_null_frees_it() {
        let read = |body: Value| {
            serde_json::from_value::<FixTableBody>(body)
                .expect("a body")
                .fixed_table
        };
        assert_eq!(read(json!({"fixedTable": 3})), Some(Some(3)));
        assert_eq!(read(json!({"fixedTable": null})), Some(None));
        assert_eq!(read(json!({})), None);
    }

    #[test]
    fn an_event_stream_resumes_after_last_event_id_then_after_then_from_the_start() {
        let header = HeaderValue::from_static("17");
        assert_eq!(resume_point(Some(&header), Some(3)).ok(), Some(17));
        assert_eq!(resume_point(None, Some(3)).ok(), Some(3));
        assert_eq!(resume_point(None, None).ok(), Some(0));
        let bad = HeaderValue::from_static("seventeen");
        assert_eq!(
            resume_point(Some(&bad), None)
                .expect_err("not a number")
                .status(),
            StatusCode::BAD_REQUEST
        );
    }

    #[test]
    fn a_stage_number_below_1_is_a_400_and_a_word_names_no_stage() {
        for below in ["0", "-1", "-99999999999"] {
            assert_eq!(
                stage_number(below).expect_err(below).status(),
                StatusCode::BAD_REQUEST,
                "{below}"
            );
        }
        assert_eq!(stage_number("3").ok(), Some(3));
        for word in ["one", "99999999999", ""] {
            assert_eq!(
                stage_number(word).expect_err(word).status(),
                StatusCode::NOT_FOUND,
                "{word}"
            );
        }
    }

    /// The bytes an SSE response writes for `events`.
    fn written(events: Vec<pb::TournamentEvent>) -> String {
        let stream = futures::stream::iter(
            events
                .iter()
                .map(sse_event)
                .map(Ok::<_, Infallible>)
                .collect::<Vec<_>>(),
        );
        let body = Sse::new(stream).into_response().into_body();
        let bytes = futures::executor::block_on(axum::body::to_bytes(body, usize::MAX))
            .expect("an in-memory body");
        String::from_utf8(bytes.to_vec()).expect("text")
    }

    #[test]
    fn an_event_is_sent_with_its_seq_as_id_and_its_kind_as_event() {
        let event = |seq, kind: &str| pb::TournamentEvent {
            seq,
            kind: kind.into(),
            data_json: r#"{"round":1}"#.into(),
        };
        assert_eq!(
            written(vec![event(7, "pairings_published"), event(8, "bad\nkind")]),
            "id: 7\nevent: pairings_published\ndata: {\"round\":1}\n\n\
             id: 8\ndata: {\"round\":1}\n\n"
        );
    }
}
