//! The documented JSON of tournaments, for the gateway, the CLI and anyone else who prints
//! them: the tournaments API's answers written from the messages alone, and its create body
//! read into a `CreateTournamentRequest`, so the HTTP API and `turnier tournament … --server`
//! print and read the same JSON without depending on the tournaments service's crate.
//!
//! The canonical proto3 JSON mapping (pbjson) is not that JSON: it writes the game as
//! `GAME_RIFTBOUND`, leaves out members at their default (a `currentRound` of 0, a `false`
//! `checkIn`), and carries the service's settings, exports and placements as JSON text
//! (`settingsJson`) or with sentinels (an open placement range ends at [`u32::MAX`]). These
//! functions write every member the API documents, in its order, with that JSON embedded and
//! the sentinels shown as `null`; the create body's reader undoes them the other way.
//!
//! With the `openapi` feature (the gateway's), the body types are also the API's OpenAPI
//! schemas (`utoipa::ToSchema`), their doc comments the schemas' descriptions: one definition
//! for the reader, the document and the CLI.
//!
//! Pairing, results, standings and what the values mean (formats, settings, whether the
//! advancement rules make a plan) are the service's: nothing here judges them.

use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::game::Game;
use crate::json::rfc3339;
use crate::tournaments::v1 as pb;

/// The last place of a placement range with no end: the wire has no "open" placement (its
/// fields are not optional), and no stage has this many players, so it reads as "every
/// placement from `from` on" in the service and is shown as `null` again.
const OPEN_LAST_PLACE: u32 = u32::MAX;

/// How many characters of a value an error message quotes: `kit::status::QUOTE_CHARS`, which
/// this crate cannot name (`kit` depends on `proto`).
const QUOTE_CHARS: usize = 64;

/// The body of `POST /api/v1/{game}/tournaments`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateTournamentBody {
    name: String,
    /// The stages, played in this order.
    stages: Vec<StageBody>,
    /// Who goes from one stage to the next, or out.
    #[serde(default)]
    advancement: Vec<AdvancementRuleBody>,
    /// Absent: no cap (and no waitlist).
    max_participants: Option<u32>,
    /// Default false.
    check_in: Option<bool>,
    /// The seed of every draw; absent: random.
    seed: Option<SeedBody>,
    /// `better_seed` (default), `draw_lots` or `advance_whole_tie`.
    cut_tiebreaker: Option<String>,
}

/// One stage of a new tournament.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct StageBody {
    /// `swiss`, `single_elimination`, `double_elimination` or `round_robin`.
    format: String,
    /// The settings given, in the offline tool's stage-config names; the rest take the game's
    /// defaults.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    settings: Option<Map<String, Value>>,
}

/// An advancement rule: `placements` or `points` of a stage's final standings, and what
/// happens to those players.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AdvancementRuleBody {
    /// The stage whose final standings the rule reads, from 1.
    from_stage: u32,
    /// `[from, to]`, both included, from 1; `null` is an open end.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<Option<u32>>>))]
    placements: Option<[Option<u32>; 2]>,
    /// `[min, max]`, both included; `null` is an open end.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<Option<f64>>>))]
    points: Option<[Option<f64>; 2]>,
    /// `advance` or `eliminate`.
    action: String,
    /// The stage players advance to, from 1; absent: the next one.
    to_stage: Option<u32>,
}

/// A seed: a number, or its decimal text (JSON numbers above 2^53 lose digits in JavaScript).
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum SeedBody {
    /// The seed as a JSON number.
    Number(u64),
    /// The seed as decimal text.
    Text(String),
}

/// Why a create body that parsed is refused: the member at fault and what is wrong with it.
///
/// The gateway answers it as `invalid_argument` with `{"field"}` in the details; the CLI
/// prints it as a refusal of `--file`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct BodyError {
    /// The body's member at fault: `advancement` or `seed`.
    pub field: &'static str,
    /// What is wrong: lowercase, naming the member, quoting at most a short prefix of a value.
    pub message: String,
}

/// Reads a create body (the HTTP API's, and the file of `turnier tournament create`) into the
/// request for `game`: each advancement rule names placements or points (an open end of a
/// range filled in as the wire needs), and a seed given as text is parsed. The rules are read
/// before the seed, so a body wrong in both names its rules.
///
/// Parsing the body already refused an unknown member (`deny_unknown_fields`: a misspelt
/// `maxParticipant` would otherwise be dropped without a word).
pub fn create_request(
    game: Game,
    body: CreateTournamentBody,
) -> Result<pb::CreateTournamentRequest, BodyError> {
    let advancement = body
        .advancement
        .into_iter()
        .enumerate()
        .map(|(at, rule)| advancement_rule(at, rule))
        .collect::<Result<_, _>>()?;
    Ok(pb::CreateTournamentRequest {
        game: crate::game::to_wire(game),
        name: body.name,
        stages: body
            .stages
            .into_iter()
            .map(|stage| pb::StageInput {
                format: stage.format,
                settings_json: stage
                    .settings
                    .map(|settings| Value::Object(settings).to_string()),
            })
            .collect(),
        advancement,
        max_participants: body.max_participants,
        check_in: body.check_in.unwrap_or(false),
        seed: body.seed.map(seed).transpose()?,
        cut_tiebreaker: body.cut_tiebreaker,
    })
}

/// Turns one rule of a new tournament into the request's; `at` counts from 0.
fn advancement_rule(
    at: usize,
    rule: AdvancementRuleBody,
) -> Result<pb::AdvancementRule, BodyError> {
    let condition = match (rule.placements, rule.points) {
        (Some([from, to]), None) => {
            pb::advancement_rule::Condition::Placements(pb::PlacementRange {
                // Placements count from 1, so an open start is the first place.
                from: from.unwrap_or(1),
                to: to.unwrap_or(OPEN_LAST_PLACE),
            })
        }
        (None, Some([min, max])) => {
            pb::advancement_rule::Condition::Points(pb::PointsRange { min, max })
        }
        _ => {
            return Err(BodyError {
                field: "advancement",
                message: format!(
                    "advancement rule {}: give either `placements` or `points`",
                    at + 1
                ),
            });
        }
    };
    Ok(pb::AdvancementRule {
        from_stage: rule.from_stage,
        condition: Some(condition),
        action: rule.action,
        to_stage: rule.to_stage,
    })
}

/// Reads a seed given as a number or as its decimal text.
fn seed(seed: SeedBody) -> Result<u64, BodyError> {
    match seed {
        SeedBody::Number(seed) => Ok(seed),
        SeedBody::Text(text) => text.trim().parse().map_err(|_| BodyError {
            field: "seed",
            message: format!(
                "`seed` is a whole number from 0 to {}, not `{}`",
                u64::MAX,
                quote(&text)
            ),
        }),
    }
}

/// Returns the first [`QUOTE_CHARS`] characters of `input`, with `…` when there was more, as
/// `kit::status::quote` does.
fn quote(input: &str) -> String {
    match input.char_indices().nth(QUOTE_CHARS) {
        Some((end, _)) => format!("{}…", &input[..end]),
        None => input.to_owned(),
    }
}

/// Parses a JSON text the service wrote (settings, an export) to embed it; text that does not
/// parse is a service bug, shown as `null` and logged.
pub fn embedded(text: &str) -> Value {
    if text.is_empty() {
        return Value::Null;
    }
    serde_json::from_str(text).unwrap_or_else(|err| {
        tracing::warn!(error = %err, "the tournaments service sent JSON that does not parse");
        Value::Null
    })
}

/// An advancement rule in the shape it is created with: `{"fromStage", "placements": [from,
/// to] | "points": [min, max], "action", "toStage"?}`, an open end `null`.
pub fn rule(rule: &pb::AdvancementRule) -> Value {
    let mut out = Map::new();
    out.insert("fromStage".into(), json!(rule.from_stage));
    match &rule.condition {
        Some(pb::advancement_rule::Condition::Placements(range)) => {
            let to = (range.to != OPEN_LAST_PLACE).then_some(range.to);
            out.insert("placements".into(), json!([range.from, to]));
        }
        Some(pb::advancement_rule::Condition::Points(range)) => {
            out.insert("points".into(), json!([range.min, range.max]));
        }
        None => {}
    }
    out.insert("action".into(), json!(rule.action));
    if let Some(to_stage) = rule.to_stage {
        out.insert("toStage".into(), json!(to_stage));
    }
    Value::Object(out)
}

/// A tournament, keys in the API's order: `{"id", "game", "name", "state", "organizers":
/// [{"account", "username"}], "stages": [{"number", "format", "settings", "state", "rounds"}],
/// "currentStage", "currentRound", "maxParticipants"?, "checkIn", "registrationOpen", "seed",
/// "placements", "registered", "waitlisted", "cutTiebreaker", "advancement", "createTime",
/// "seq"}`.
pub fn tournament(tournament: &pb::Tournament) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(tournament.id));
    out.insert(
        "game".into(),
        json!(crate::game::from_wire(tournament.game).map(Game::name)),
    );
    out.insert("name".into(), json!(tournament.name));
    out.insert("state".into(), json!(tournament.state));
    out.insert(
        "organizers".into(),
        tournament
            .organizers
            .iter()
            .map(|organizer| json!({"account": organizer.account, "username": organizer.username}))
            .collect(),
    );
    out.insert(
        "stages".into(),
        tournament
            .stages
            .iter()
            .map(|stage| {
                json!({
                    "number": stage.number,
                    "format": stage.format,
                    "settings": embedded(&stage.settings_json),
                    "state": stage.state,
                    "rounds": stage.rounds,
                })
            })
            .collect(),
    );
    out.insert("currentStage".into(), json!(tournament.current_stage));
    out.insert("currentRound".into(), json!(tournament.current_round));
    if let Some(max) = tournament.max_participants {
        out.insert("maxParticipants".into(), json!(max));
    }
    out.insert("checkIn".into(), json!(tournament.check_in));
    out.insert(
        "registrationOpen".into(),
        json!(tournament.registration_open),
    );
    // A string, as proto3's JSON writes a uint64: JavaScript numbers stop at 2^53.
    out.insert("seed".into(), json!(tournament.seed.to_string()));
    out.insert("placements".into(), json!(tournament.placements));
    out.insert("registered".into(), json!(tournament.registered));
    out.insert("waitlisted".into(), json!(tournament.waitlisted));
    out.insert("cutTiebreaker".into(), json!(tournament.cut_tiebreaker));
    out.insert(
        "advancement".into(),
        tournament.advancement.iter().map(rule).collect(),
    );
    out.insert(
        "createTime".into(),
        rfc3339(tournament.create_time.as_ref()),
    );
    out.insert("seq".into(), json!(tournament.seq));
    if let Some(settings) = &tournament.deck_settings {
        out.insert("deckSettings".into(), deck_settings(settings));
    }
    Value::Object(out)
}

/// A tournament's deck settings: `{"decksToBring", "bannedCards", "rules": {"card", "deck",
/// "deckset"} (each `{"ruleset", "version", "name", "source", "builtIn", "unverified",
/// "directBans"?}`, the version pinned; a custom rule is "Unverified code"), "deadline"?, "decklistVisibility", "dropWithoutLineup"}`.
pub fn deck_settings(settings: &pb::DeckSettings) -> Value {
    let rule = |rule: Option<&pb::PinnedRule>| {
        rule.map_or(Value::Null, |rule| {
            let mut out = Map::new();
            out.insert("ruleset".into(), json!(rule.ruleset));
            out.insert("version".into(), json!(rule.version));
            out.insert("name".into(), json!(rule.name));
            out.insert("source".into(), json!(rule.source));
            out.insert("builtIn".into(), json!(rule.built_in));
            out.insert("unverified".into(), json!(!rule.built_in));
            if !rule.direct_bans.is_empty() {
                out.insert("directBans".into(), json!(rule.direct_bans));
            }
            Value::Object(out)
        })
    };
    let mut out = Map::new();
    out.insert("decksToBring".into(), json!(settings.decks_to_bring));
    out.insert("bannedCards".into(), json!(settings.banned_cards));
    out.insert(
        "rules".into(),
        json!({
            "card": rule(settings.card.as_ref()),
            "deck": rule(settings.deck.as_ref()),
            "deckset": rule(settings.deckset.as_ref()),
        }),
    );
    if settings.deadline.is_some() {
        out.insert("deadline".into(), rfc3339(settings.deadline.as_ref()));
    }
    out.insert(
        "decklistVisibility".into(),
        json!(settings.decklist_visibility),
    );
    out.insert(
        "dropWithoutLineup".into(),
        json!(settings.drop_without_lineup),
    );
    Value::Object(out)
}

/// A registration: `{"id", "displayName", "account"?, "state", "fixedTable"?,
/// "lineupUnlocked"?}` (`lineupUnlocked` only when true: an organizer let the player submit
/// after the deadline).
pub fn registration(registration: &pb::Registration) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(registration.id));
    out.insert("displayName".into(), json!(registration.display_name));
    if let Some(account) = &registration.account {
        out.insert("account".into(), json!(account));
    }
    out.insert("state".into(), json!(registration.state));
    if let Some(table) = registration.fixed_table {
        out.insert("fixedTable".into(), json!(table));
    }
    if registration.lineup_unlocked {
        out.insert("lineupUnlocked".into(), json!(true));
    }
    Value::Object(out)
}

/// A match (`match_`: `match` is a keyword): `{"id", "stage", "round", "table"?, "players",
/// "bye"?, "label"?, "result"?: {"games", "state", "corrections", "reported"?}, "timeLeftMs"?}`
/// (`reported`: which players reported a result not yet final, in `players` order), its
/// optional parts only when it has them (`bye` only when true).
pub fn match_(played: &pb::Match) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(played.id));
    out.insert("stage".into(), json!(played.stage));
    out.insert("round".into(), json!(played.round));
    if let Some(table) = played.table {
        out.insert("table".into(), json!(table));
    }
    out.insert("players".into(), json!(played.players));
    if played.bye {
        out.insert("bye".into(), json!(true));
    }
    if let Some(label) = &played.label {
        out.insert("label".into(), json!(label));
    }
    if let Some(result) = &played.result {
        // A one-on-one match's games, or a free-for-all lobby's finishes (and eliminations,
        // when recorded), in `players` order.
        let mut written = Map::new();
        if result.finish.is_empty() {
            written.insert("games".into(), json!(result.games));
        } else {
            written.insert("finish".into(), json!(result.finish));
            if !result.eliminations.is_empty() {
                written.insert("eliminations".into(), json!(result.eliminations));
            }
        }
        written.insert("state".into(), json!(result.state));
        written.insert("corrections".into(), json!(result.corrections));
        if result.reported.iter().any(|reported| *reported) {
            written.insert("reported".into(), json!(result.reported));
        }
        out.insert("result".into(), Value::Object(written));
    }
    if let Some(left) = played.time_left_ms {
        out.insert("timeLeftMs".into(), json!(left));
    }
    Value::Object(out)
}

/// A round: `{"stage", "number", "matches", "lateLosses", "manual", "timer": {"minutes",
/// "started", "running", "timeLeftMs"}}`, a round without a timer showing one at zero.
pub fn round(round: &pb::Round) -> Value {
    let timer = round.timer.unwrap_or_default();
    json!({
        "stage": round.stage,
        "number": round.number,
        "matches": round.matches.iter().map(match_).collect::<Vec<_>>(),
        "lateLosses": round.late_losses,
        "manual": round.manual,
        "timer": {
            "minutes": timer.minutes,
            "started": timer.started,
            "running": timer.running,
            "timeLeftMs": timer.time_left_ms,
        },
    })
}

/// One line of the standings: `{"rank", "player", "displayName", "points", "record": [wins,
/// losses, draws], "tiebreakers": {name: value}, "matchWinPercentage", "dropped"}`, the
/// tiebreakers in the stage's order.
pub fn standing(standing: &pb::Standing) -> Value {
    if standing.record.is_empty() && standing.tiebreakers.is_empty() {
        // A free-for-all stage: points over its matches, nothing else.
        return json!({
            "rank": standing.rank,
            "player": standing.player,
            "displayName": standing.display_name,
            "points": standing.points,
            "matches": standing.matches,
            "dropped": standing.dropped,
        });
    }
    // In the stage's order: the map keeps insertion order (serde_json's `preserve_order`).
    let tiebreakers: Map<String, Value> = standing
        .tiebreakers
        .iter()
        .map(|tiebreaker| (tiebreaker.name.clone(), json!(tiebreaker.value)))
        .collect();
    json!({
        "rank": standing.rank,
        "player": standing.player,
        "displayName": standing.display_name,
        "points": standing.points,
        "record": standing.record,
        "tiebreakers": tiebreakers,
        "matchWinPercentage": standing.match_win_percentage,
        "dropped": standing.dropped,
    })
}

/// A lineup as submitted, with its verdict once checked: `{"id", "registration", "state",
/// "issues", "decks", "submitTime", "checkTime"?, "failure"?}`.
pub fn submission(submission: &pb::Submission) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(submission.id));
    out.insert("registration".into(), json!(submission.registration));
    out.insert("state".into(), json!(submission.state));
    out.insert("issues".into(), json!(submission.issues));
    out.insert("decks".into(), json!(submission.decks));
    out.insert(
        "submitTime".into(),
        rfc3339(submission.submit_time.as_ref()),
    );
    if submission.check_time.is_some() {
        out.insert("checkTime".into(), rfc3339(submission.check_time.as_ref()));
    }
    if let Some(failure) = &submission.failure {
        out.insert("failure".into(), json!(failure));
    }
    Value::Object(out)
}

/// `{"submission": {"id", "state": "pending", "submitTime"}}`: a lineup just submitted.
pub fn submitted_answer(response: &pb::SubmissionResponse) -> Value {
    json!({"submission": response.submission.as_ref().map_or(Value::Null, |submitted| json!({
        "id": submitted.id,
        "state": submitted.state,
        "submitTime": rfc3339(submitted.submit_time.as_ref()),
    }))})
}

/// `{"submission"}`: a registration's latest lineup.
pub fn submission_answer(response: &pb::SubmissionResponse) -> Value {
    json!({"submission": response.submission.as_ref().map_or(Value::Null, submission)})
}

/// `{"lineups": [submission]}`: every latest lineup the caller may see.
pub fn lineups_answer(response: &pb::ListLineupsResponse) -> Value {
    json!({"lineups": response.submissions.iter().map(submission).collect::<Vec<_>>()})
}

/// A webhook: `{"id", "url", "events", "createTime"}`.
pub fn webhook(hook: &pb::Webhook) -> Value {
    json!({
        "id": hook.id,
        "url": hook.url,
        "events": hook.events,
        "createTime": rfc3339(hook.create_time.as_ref()),
    })
}

/// One delivery of a webhook: `{"id", "event", "state", "attempts", "lastStatus"?,
/// "lastError"?, "createTime", "updateTime", "body"}` (the body as the JSON it is).
pub fn webhook_delivery(delivery: &pb::WebhookDelivery) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(delivery.id));
    out.insert("event".into(), json!(delivery.event));
    out.insert("state".into(), json!(delivery.state));
    out.insert("attempts".into(), json!(delivery.attempts));
    if let Some(status) = delivery.last_status {
        out.insert("lastStatus".into(), json!(status));
    }
    if !delivery.last_error.is_empty() {
        out.insert("lastError".into(), json!(delivery.last_error));
    }
    out.insert("createTime".into(), rfc3339(delivery.create_time.as_ref()));
    out.insert("updateTime".into(), rfc3339(delivery.update_time.as_ref()));
    out.insert(
        "body".into(),
        serde_json::from_str(&delivery.body).unwrap_or(Value::Null),
    );
    Value::Object(out)
}

/// `{"webhook", "secret"}`: a webhook just added, with its secret (shown only now).
pub fn added_webhook_answer(response: &pb::AddWebhookResponse) -> Value {
    json!({
        "webhook": response.webhook.as_ref().map_or(Value::Null, webhook),
        "secret": response.secret,
    })
}

/// `{"webhooks": [webhook]}`.
pub fn webhooks_answer(response: &pb::ListWebhooksResponse) -> Value {
    json!({"webhooks": response.webhooks.iter().map(webhook).collect::<Vec<_>>()})
}

/// `{"deliveries": [delivery]}`, the newest first.
pub fn deliveries_answer(response: &pb::ListWebhookDeliveriesResponse) -> Value {
    json!({"deliveries": response.deliveries.iter().map(webhook_delivery).collect::<Vec<_>>()})
}

/// `{"delivery"}`.
pub fn delivery_answer(response: &pb::WebhookDeliveryResponse) -> Value {
    json!({"delivery": response.delivery.as_ref().map_or(Value::Null, webhook_delivery)})
}

/// `{"tournament"}`: the answer of creating, reading, changing, starting or advancing one.
pub fn tournament_answer(response: &pb::TournamentResponse) -> Value {
    json!({"tournament": response.tournament.as_ref().map_or(Value::Null, tournament)})
}

/// `{"format", "settings", "formats"}`: the settings a new stage starts from.
pub fn stage_defaults_answer(response: &pb::StageDefaultsResponse) -> Value {
    json!({
        "format": response.format,
        "settings": embedded(&response.settings_json),
        "formats": response.formats,
    })
}

/// `{"tournaments": [tournament]}`: a game's tournaments.
pub fn tournaments_answer(response: &pb::ListTournamentsResponse) -> Value {
    json!({"tournaments": response.tournaments.iter().map(tournament).collect::<Vec<_>>()})
}

/// `{"registration"}`: the answer of signing up, dropping or any change of a registration.
pub fn registration_answer(response: &pb::RegistrationResponse) -> Value {
    json!({"registration": response.registration.as_ref().map_or(Value::Null, registration)})
}

/// `{"registrations": [registration]}`, in sign-up order.
pub fn registrations_answer(response: &pb::ListRegistrationsResponse) -> Value {
    json!({
        "registrations": response.registrations.iter().map(registration).collect::<Vec<_>>(),
    })
}

/// `{"round"}`: the answer of pairing or reading a round, or of its timer.
pub fn round_answer(response: &pb::RoundResponse) -> Value {
    json!({"round": response.round.as_ref().map_or(Value::Null, round)})
}

/// `{"match"}`: the answer of reporting a result.
pub fn match_answer(response: &pb::MatchResponse) -> Value {
    json!({"match": response.r#match.as_ref().map_or(Value::Null, match_)})
}

/// `{"stage", "standings": [standing]}`: a stage's standings from the results so far.
pub fn standings_answer(response: &pb::StandingsResponse) -> Value {
    let mut out = Map::new();
    out.insert("stage".into(), json!(response.stage));
    out.insert(
        "standings".into(),
        Value::Array(response.standings.iter().map(standing).collect()),
    );
    if !response.lobbies.is_empty() {
        // Threshold Win: each lobby, and its winner once it has one.
        let lobbies = response
            .lobbies
            .iter()
            .map(|lobby| {
                let mut shown = Map::new();
                shown.insert("lobby".into(), json!(lobby.lobby));
                shown.insert("players".into(), json!(lobby.players));
                shown.insert("matchesPlayed".into(), json!(lobby.matches_played));
                if let Some(winner) = &lobby.winner {
                    shown.insert(
                        "winner".into(),
                        json!({
                            "player": winner,
                            "match": lobby.won_in_match,
                            "points": lobby.points,
                            "decidedBy": lobby.decided_by,
                        }),
                    );
                }
                Value::Object(shown)
            })
            .collect();
        out.insert("lobbies".into(), Value::Array(lobbies));
    }
    Value::Object(out)
}

/// `{"event", "stage"}`: a stage as the offline tool reads it, its event file and its stage
/// config.
pub fn export_answer(response: &pb::ExportStageResponse) -> Value {
    json!({
        "event": embedded(&response.event_json),
        "stage": embedded(&response.stage_json),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule_of(body: Value) -> Result<pb::AdvancementRule, BodyError> {
        advancement_rule(0, serde_json::from_value(body).expect("a rule body"))
    }

    fn request(body: Value) -> Result<pb::CreateTournamentRequest, BodyError> {
        create_request(
            Game::Riftbound,
            serde_json::from_value(body).expect("a body"),
        )
    }

    #[test]
    fn a_placement_rule_becomes_a_range_with_its_open_ends_filled_in() {
        let top8 = rule_of(json!({"fromStage": 1, "placements": [1, 8], "action": "advance"}))
            .expect("a rule");
        assert_eq!(
            top8.condition,
            Some(pb::advancement_rule::Condition::Placements(
                pb::PlacementRange { from: 1, to: 8 }
            ))
        );
        assert_eq!(top8.to_stage, None);
        let rest = rule_of(json!({"fromStage": 1, "placements": [9, null], "action": "eliminate"}))
            .expect("a rule");
        assert_eq!(
            rest.condition,
            Some(pb::advancement_rule::Condition::Placements(
                pb::PlacementRange {
                    from: 9,
                    to: OPEN_LAST_PLACE
                }
            ))
        );
        assert_eq!(
            rule(&rest),
            json!({"fromStage": 1, "placements": [9, null], "action": "eliminate"})
        );
    }

    #[test]
    fn a_points_rule_keeps_its_open_ends_and_its_target_stage() {
        let body =
            json!({"fromStage": 2, "points": [null, 6.5], "action": "advance", "toStage": 4});
        let wire = rule_of(body.clone()).expect("a rule");
        assert_eq!(
            wire.condition,
            Some(pb::advancement_rule::Condition::Points(pb::PointsRange {
                min: None,
                max: Some(6.5)
            }))
        );
        assert_eq!(wire.to_stage, Some(4));
        assert_eq!(rule(&wire), body);
    }

    #[test]
    fn a_rule_with_both_conditions_or_neither_is_refused_naming_advancement() {
        let both = rule_of(
            json!({"fromStage": 1, "placements": [1, 4], "points": [3, null], "action": "advance"}),
        )
        .expect_err("both");
        assert_eq!(
            both,
            BodyError {
                field: "advancement",
                message: "advancement rule 1: give either `placements` or `points`".into(),
            }
        );
        assert!(rule_of(json!({"fromStage": 1, "action": "advance"})).is_err());
        assert!(
            serde_json::from_value::<AdvancementRuleBody>(
                json!({"fromStage": 1, "placements": [1, 2, 3], "action": "advance"})
            )
            .is_err(),
            "a range has two ends"
        );
    }

    #[test]
    fn rules_are_numbered_from_1_and_read_before_the_seed() {
        let refused = request(json!({
            "name": "Cup",
            "stages": [{"format": "swiss"}],
            "advancement": [
                {"fromStage": 1, "placements": [1, 8], "action": "advance"},
                {"fromStage": 1, "action": "eliminate"}
            ],
            "seed": "soon"
        }))
        .expect_err("a rule without a condition");
        assert_eq!(
            refused.message,
            "advancement rule 2: give either `placements` or `points`"
        );
    }

    #[test]
    fn a_seed_is_read_from_a_number_or_its_text() {
        let seed_of = |seed: Value| {
            request(json!({"name": "Cup", "stages": [], "seed": seed})).map(|r| r.seed)
        };
        assert_eq!(seed_of(json!(42)), Ok(Some(42)));
        assert_eq!(seed_of(json!(" 18446744073709551615 ")), Ok(Some(u64::MAX)));
        let refused = seed_of(json!("soon")).expect_err("text");
        assert_eq!(refused.field, "seed");
        assert_eq!(
            refused.message,
            "`seed` is a whole number from 0 to 18446744073709551615, not `soon`"
        );
        let long = seed_of(json!("9".repeat(100))).expect_err("too big");
        assert!(
            long.message
                .ends_with(&format!("not `{}…`", "9".repeat(QUOTE_CHARS))),
            "{}",
            long.message
        );
    }

    #[test]
    fn reads_stages_with_settings_and_every_rule_and_option() {
        let request = request(json!({
            "name": "Summer Open",
            "stages": [
                {"format": "swiss", "settings": {"rounds": 5}},
                {"format": "single_elimination"}
            ],
            "advancement": [
                {"fromStage": 1, "placements": [1, 8], "action": "advance", "toStage": 2},
                {"fromStage": 1, "points": [null, 6], "action": "eliminate"}
            ],
            "maxParticipants": 64,
            "checkIn": true,
            "seed": "18446744073709551615",
            "cutTiebreaker": "draw_lots"
        }))
        .expect("a good body");
        assert_eq!(request.game, crate::game::to_wire(Game::Riftbound));
        assert_eq!(request.name, "Summer Open");
        assert_eq!(
            request.stages[0].settings_json.as_deref(),
            Some(r#"{"rounds":5}"#)
        );
        assert_eq!(request.stages[1].settings_json, None);
        assert_eq!(
            request.advancement[0],
            pb::AdvancementRule {
                from_stage: 1,
                condition: Some(pb::advancement_rule::Condition::Placements(
                    pb::PlacementRange { from: 1, to: 8 }
                )),
                action: "advance".into(),
                to_stage: Some(2),
            }
        );
        assert_eq!(
            request.advancement[1].condition,
            Some(pb::advancement_rule::Condition::Points(pb::PointsRange {
                min: None,
                max: Some(6.0)
            }))
        );
        assert_eq!(
            (request.max_participants, request.check_in, request.seed),
            (Some(64), true, Some(u64::MAX))
        );
        assert_eq!(request.cut_tiebreaker.as_deref(), Some("draw_lots"));
    }

    #[test]
    fn leaves_check_in_off_and_the_seed_to_the_service_when_absent() {
        let request =
            request(json!({"name": "Open", "stages": [{"format": "swiss"}], "checkIn": null}))
                .expect("a good body");
        assert_eq!((request.check_in, request.seed), (false, None));
        assert!(request.advancement.is_empty());
        assert_eq!(request.cut_tiebreaker, None);
    }

    #[test]
    fn unknown_fields_of_a_new_tournament_are_refused() {
        let refused = serde_json::from_value::<CreateTournamentBody>(
            json!({"name": "Cup", "stages": [], "rounds": 5}),
        )
        .expect_err("an unknown member");
        assert!(
            refused.to_string().starts_with("unknown field `rounds`"),
            "{refused}"
        );
        assert!(
            serde_json::from_value::<CreateTournamentBody>(
                json!({"name": "Cup", "stages": [{"format": "swiss", "rounds": 5}]})
            )
            .is_err(),
            "nor in a stage"
        );
    }

    fn keys(value: &Value) -> Vec<&str> {
        value
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect()
    }

    #[test]
    fn a_tournament_shows_every_member_in_order_with_its_settings_embedded() {
        let written = tournament(&pb::Tournament {
            id: "t_1".into(),
            game: crate::game::to_wire(Game::Riftbound),
            name: "Open".into(),
            state: "registration".into(),
            stages: vec![pb::Stage {
                number: 1,
                format: "swiss".into(),
                settings_json: r#"{"rounds":5,"pairing_style":"fold"}"#.into(),
                state: "pending".into(),
                rounds: 0,
            }],
            current_stage: 1,
            seed: u64::MAX,
            create_time: Some(pbjson_types::Timestamp {
                seconds: 1_767_225_600,
                nanos: 0,
            }),
            ..pb::Tournament::default()
        });
        assert_eq!(
            keys(&written),
            [
                "id",
                "game",
                "name",
                "state",
                "organizers",
                "stages",
                "currentStage",
                "currentRound",
                "checkIn",
                "registrationOpen",
                "seed",
                "placements",
                "registered",
                "waitlisted",
                "cutTiebreaker",
                "advancement",
                "createTime",
                "seq"
            ]
        );
        assert_eq!(written["game"], "riftbound");
        assert_eq!(written["seed"], "18446744073709551615");
        assert_eq!(written["currentRound"], 0);
        assert_eq!(written["checkIn"], false);
        assert_eq!(written["createTime"], "2026-01-01T00:00:00Z");
        assert_eq!(
            written["stages"],
            json!([{"number": 1, "format": "swiss",
                    "settings": {"rounds": 5, "pairing_style": "fold"},
                    "state": "pending", "rounds": 0}])
        );
        let capped = tournament(&pb::Tournament {
            max_participants: Some(8),
            ..pb::Tournament::default()
        });
        assert_eq!(capped["maxParticipants"], 8);
        assert_eq!(capped["game"], Value::Null);
    }

    #[test]
    fn a_registration_shows_its_account_and_table_only_when_it_has_them() {
        let guest = pb::Registration {
            id: "r2".into(),
            display_name: "Guest 2".into(),
            state: "registered".into(),
            ..pb::Registration::default()
        };
        assert_eq!(
            registration(&guest),
            json!({"id": "r2", "displayName": "Guest 2", "state": "registered"})
        );
        let seated = pb::Registration {
            account: Some("acc_1".into()),
            fixed_table: Some(3),
            lineup_unlocked: true,
            ..guest
        };
        assert_eq!(
            keys(&registration(&seated)),
            [
                "id",
                "displayName",
                "account",
                "state",
                "fixedTable",
                "lineupUnlocked"
            ]
        );
    }

    #[test]
    fn a_standing_lists_its_tiebreakers_in_the_stage_order() {
        let line = pb::Standing {
            rank: 1,
            player: "reg_1".into(),
            points: 9.0,
            record: vec![3, 0, 0],
            tiebreakers: [
                "opponent_match_win_percentage",
                "game_win_percentage",
                "buchholz",
            ]
            .into_iter()
            .zip([0.5, 0.75, 4.0])
            .map(|(name, value)| pb::Tiebreaker {
                name: name.into(),
                value,
            })
            .collect(),
            match_win_percentage: 1.0,
            display_name: "Ana".into(),
            dropped: false,
            matches: 3,
        };
        let written = standing(&line).to_string();
        assert!(
            written.contains(
                r#""tiebreakers":{"opponent_match_win_percentage":0.5,"game_win_percentage":0.75,"buchholz":4.0}"#
            ),
            "{written}"
        );
        let answer = standings_answer(&pb::StandingsResponse {
            stage: 1,
            standings: vec![line],
            lobbies: Vec::new(),
        });
        assert_eq!(keys(&answer), ["stage", "standings"]);
        assert_eq!(answer["standings"][0]["displayName"], "Ana");
    }

    #[test]
    fn a_match_shows_its_optional_parts_only_when_it_has_them() {
        let pending = pb::Match {
            id: "m_1".into(),
            players: vec!["reg_1".into(), "reg_2".into()],
            stage: 1,
            round: 2,
            ..pb::Match::default()
        };
        assert_eq!(
            match_(&pending),
            json!({"id": "m_1", "stage": 1, "round": 2, "players": ["reg_1", "reg_2"]})
        );
        let bye = pb::Match {
            bye: true,
            table: Some(4),
            result: Some(pb::MatchResult {
                games: vec![2, 0],
                state: "final".into(),
                corrections: 0,
                ..pb::MatchResult::default()
            }),
            ..pending
        };
        let written = match_(&bye);
        assert_eq!(written["bye"], true);
        assert_eq!(written["table"], 4);
        assert_eq!(
            written["result"],
            json!({"games": [2, 0], "state": "final", "corrections": 0})
        );
        assert_eq!(
            match_answer(&pb::MatchResponse { r#match: None }),
            json!({"match": null})
        );
        // One player reported: the other is the one to confirm.
        let reported = pb::Match {
            result: Some(pb::MatchResult {
                games: vec![0, 2],
                state: "reported".into(),
                reported: vec![false, true],
                ..pb::MatchResult::default()
            }),
            ..bye
        };
        assert_eq!(
            match_(&reported)["result"],
            json!({"games": [0, 2], "state": "reported", "corrections": 0, "reported": [false, true]})
        );
    }

    #[test]
    fn a_round_without_a_timer_shows_one_at_zero() {
        let written = round_answer(&pb::RoundResponse {
            round: Some(pb::Round {
                stage: 1,
                number: 3,
                ..pb::Round::default()
            }),
        });
        assert_eq!(
            written,
            json!({"round": {"stage": 1, "number": 3, "matches": [], "lateLosses": [],
                   "manual": false,
                   "timer": {"minutes": 0, "started": false, "running": false, "timeLeftMs": 0}}})
        );
    }

    #[test]
    fn an_export_embeds_its_event_and_stage_and_shows_bad_json_as_null() {
        let exported = pb::ExportStageResponse {
            event_json: r#"{"players":[]}"#.into(),
            stage_json: r#"{"format":"swiss"}"#.into(),
        };
        assert_eq!(
            export_answer(&exported).to_string(),
            r#"{"event":{"players":[]},"stage":{"format":"swiss"}}"#
        );
        assert_eq!(embedded(""), Value::Null);
        assert_eq!(embedded("{not json"), Value::Null);
    }
}
