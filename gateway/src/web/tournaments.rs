//! The tournament pages players read: the tournaments of a game (upcoming, running,
//! finished), a tournament's page (its stages and their settings, the deck rules with each
//! scope's script, registration), the pairings of a round and the standings with each
//! tiebreaker as a named column. The pages are drawn from the JSON the API answers
//! (`proto::tournaments_json`), so they say exactly what the API says; with our script they
//! follow the tournament's events stream and redraw themselves when something happens.

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::extract::{Path, Query};
use axum::response::{IntoResponse, Redirect};
use axum::routing::{get, post};
use axum::{Form, Router};
use maud::{Markup, html};
use proto::tournaments::v1 as pb;
use proto::tournaments_json;
use serde::Deserialize;
use serde_json::Value;

use super::answer::{PageResult, account_form, failed, known_game, no_action, typed};
use super::layout::{csrf_field, game_name, page, urlencode};
use super::session::Viewer;
use super::wording::{number, ordinal, setting_in_words, text, tiebreaker_name, time, words};
use crate::auth::Calls;
use crate::state::AppState;

/// The tournament pages' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/{game}/tournaments", get(list))
        .route("/tournaments/{id}", get(overview))
        .route("/tournaments/{id}/pairings", get(pairings))
        .route("/tournaments/{id}/standings", get(standings))
        .route("/tournaments/{id}/registration", post(registration))
        .route("/tournaments/{id}/report", post(report))
        .route("/tournaments/{id}/lineup", post(submit_lineup))
        .route("/tournaments/{id}/rules", post(save_rule))
}

/// The list under `key` of an answer the API writes (`{"registrations": [...]}`), or none.
pub(super) fn items(mut answer: Value, key: &str) -> Vec<Value> {
    match answer[key].take() {
        Value::Array(list) => list,
        _ => Vec::new(),
    }
}

pub(super) async fn read(calls: &Calls, id: &str) -> Result<Value, axum::response::Response> {
    let answer = calls
        .tournaments()
        .map_err(failed)?
        .get_tournament(pb::GetTournamentRequest { id: id.to_owned() })
        .await
        .map_err(failed)?;
    Ok(tournaments_json::tournament_answer(&answer)["tournament"].clone())
}

pub(super) async fn registrations(calls: &Calls, id: &str) -> Vec<Value> {
    let Ok(client) = calls.tournaments() else {
        return Vec::new();
    };
    client
        .list_registrations(pb::ListRegistrationsRequest { id: id.to_owned() })
        .await
        .map(|answer| {
            items(
                tournaments_json::registrations_answer(&answer),
                "registrations",
            )
        })
        .unwrap_or_default()
}

/// A tiebreaker's value as the standings show it: a percentage as one (`33.33%`), a number
/// without needless decimals.
fn tiebreaker_value(name: &str, value: &Value) -> String {
    match value.as_f64() {
        Some(share) if name.ends_with("percentage") => format!("{:.2}%", share * 100.0),
        Some(number) => super::charts::number(number),
        None => text(value),
    }
}

/// A registration's name by its id.
pub(super) fn name_of(registrations: &[Value], id: &str) -> String {
    registrations
        .iter()
        .find(|registration| registration["id"] == id)
        .map_or_else(
            || id.to_owned(),
            |registration| text(&registration["displayName"]),
        )
}

/// The tabs of a tournament's pages, `current` marked; its organizers also see Manage.
pub(super) fn tabs(id: &str, current: &str, organizer: bool) -> Markup {
    let id = urlencode(id);
    let manage = organizer.then_some(("/manage", "Manage"));
    html! {
        nav aria-label="Tournament" { ul class="tabs" {
            @for (path, label) in [("", "Overview"), ("/pairings", "Pairings"), ("/standings", "Standings"), ("/bracket", "Bracket")].into_iter().chain(manage) {
                li { a href={ "/tournaments/" (id) (path) } aria-current=[(path == current).then_some("page")] { (label) } }
            }
        } }
    }
}

/// The tournament `id`, for one of its organizers; anyone else is refused 403 (the service
/// refuses their changes too: this keeps its console and settings pages from them).
pub(super) async fn organized(
    viewer: &Viewer,
    calls: &Calls,
    id: &str,
) -> Result<Value, axum::response::Response> {
    let tournament = read(calls, id).await?;
    if !organizes(viewer, &tournament) {
        return Err(failed(crate::ApiError::new(
            http::StatusCode::FORBIDDEN,
            "permission_denied",
            "only the tournament's organizers manage it",
        )));
    }
    Ok(tournament)
}

/// Whether the viewer organizes `tournament`.
fn organizes(viewer: &Viewer, tournament: &Value) -> bool {
    viewer.caller.account().is_some_and(|account| {
        tournament["organizers"]
            .as_array()
            .is_some_and(|organizers| {
                organizers
                    .iter()
                    .any(|organizer| organizer["account"] == account.id.as_str())
            })
    })
}

/// The frame of a tournament's page: the title, the tabs, and the events it follows live.
pub(super) fn frame(
    viewer: &Viewer,
    tournament: &Value,
    current: &str,
    title: &str,
    body: Markup,
) -> PageResult {
    let id = text(&tournament["id"]);
    let name = text(&tournament["name"]);
    Ok(page(
        viewer,
        &format!("{title} · {name}"),
        html! {
            div class="tournament" data-live-events={ "/api/v1/tournaments/" (urlencode(&id)) "/events?after=" (text(&tournament["seq"])) } {
                h1 { (name) }
                p class="help" {
                    (game_name(&text(&tournament["game"])).unwrap_or_default()) " · " (text(&tournament["state"]))
                    @if tournament["currentRound"].as_u64().unwrap_or(0) > 0 {
                        " · stage " (text(&tournament["currentStage"])) ", round " (text(&tournament["currentRound"]))
                    }
                }
                (tabs(&id, current, organizes(viewer, tournament)))
                (body)
            }
        },
    )
    .into_response())
}

async fn list(viewer: Viewer, calls: Calls, Path(slug): Path<String>) -> PageResult {
    let (game, name) = known_game(&slug)?;
    let answer = calls
        .tournaments()
        .map_err(failed)?
        .list_tournaments(pb::ListTournamentsRequest {
            game: proto::game::to_wire(game),
        })
        .await
        .map_err(failed)?;
    let all = items(tournaments_json::tournaments_answer(&answer), "tournaments");
    let title = format!("{name} tournaments");
    Ok(page(
        &viewer,
        &title,
        html! {
            h1 { (title) }
            @if viewer.caller.account().is_some() {
                p { a class="button" id="new-tournament" href={ "/" (slug) "/tournaments/new" } { "New tournament" } }
            }
            @for (state, heading) in [("registration", "Upcoming"), ("running", "Running"), ("finished", "Finished")] {
                @let these: Vec<&Value> = all.iter().filter(|tournament| tournament["state"] == state).collect();
                section aria-labelledby={ "state-" (state) } {
                    h2 id={ "state-" (state) } { (heading) }
                    @if these.is_empty() { p class="help" { "None." } }
                    ul class="tournaments" {
                        @for tournament in &these {
                            li {
                                a href={ "/tournaments/" (urlencode(&text(&tournament["id"]))) } { (text(&tournament["name"])) }
                                " · " (text(&tournament["registered"])) " registered"
                                @if let Some(max) = tournament["maxParticipants"].as_u64() { " of " (max) }
                            }
                        }
                    }
                }
            }
        },
    )
    .into_response())
}

async fn overview(viewer: Viewer, calls: Calls, Path(id): Path<String>) -> PageResult {
    let tournament = read(&calls, &id).await?;
    let registrations = registrations(&calls, &id).await;
    let mine = viewer.caller.account().and_then(|account| {
        registrations
            .iter()
            .find(|registration| registration["account"] == account.id.as_str())
    });
    let open = tournament["registrationOpen"] == true;
    let round = if mine.is_some() {
        current_round(&calls, &tournament).await
    } else {
        None
    };
    let lineup = match (mine, tournament["deckSettings"].is_object()) {
        (Some(registration), true) => my_lineup(&calls, &id, &text(&registration["id"])).await,
        _ => None,
    };
    let body = html! {
        @if let (Some(registration), Some(round)) = (mine, &round) {
            (my_match(&viewer, &id, registration, &registrations, round))
        }
        section aria-labelledby="registration-heading" {
            h2 id="registration-heading" { "Registration" }
            p id="registration-count" {
                (text(&tournament["registered"])) " registered"
                @if let Some(max) = tournament["maxParticipants"].as_u64() { " of " (max) }
                @if tournament["waitlisted"].as_u64().unwrap_or(0) > 0 { ", " (text(&tournament["waitlisted"])) " on the waitlist" }
                @if open { " · open" } @else { " · closed" }
            }
            @match (viewer.caller.account(), mine) {
                (None, _) => { @if open { p { a href="/signin" { "Sign in" } " to register." } } }
                (Some(_), Some(registration)) => {
                    @let state = text(&registration["state"]);
                    @let registration_id = text(&registration["id"]);
                    p id="my-registration" {
                        "You are " (words(&state).to_lowercase())
                        @if state == "waitlisted" {
                            // The waitlist moves up in sign-up order.
                            @let place = registrations.iter().filter(|other| other["state"] == "waitlisted").position(|other| other["id"] == registration["id"]).map_or(1, |at| at + 1);
                            " (" (ordinal(place)) " in line)"
                        }
                        "."
                    }
                    @if tournament["state"] == "registration" {
                        @if tournament["checkIn"] == true && state == "registered" {
                            p class="help" { "Check in to be paired in the first round." }
                            (action(&viewer, &id, "checkIn", "Check in", &registration_id))
                        }
                        (action(&viewer, &id, "unregister", "Unregister", &registration_id))
                    } @else if tournament["state"] == "running" && (state == "registered" || state == "checked_in") {
                        (action(&viewer, &id, "drop", "Drop from the tournament", &registration_id))
                    }
                }
                (Some(_), None) => {
                    @if open { (action(&viewer, &id, "register", "Register", "")) }
                }
            }
        }
        @if let (Some(registration), Some(settings)) = (mine, tournament["deckSettings"].as_object()) {
            (lineup_section(&viewer, &tournament, registration, settings, lineup.as_ref()))
        }
        section aria-labelledby="stages-heading" {
            h2 id="stages-heading" { "Stages" }
            ol class="stages" {
                @for stage in tournament["stages"].as_array().into_iter().flatten() {
                    li {
                        strong { (words(&text(&stage["format"]))) } " · " (text(&stage["state"]))
                        dl class="settings" {
                            @for (key, value) in stage["settings"].as_object().into_iter().flatten() {
                                @let (name, shown) = setting_in_words(key, value);
                                dt { (name) } dd { (shown) }
                            }
                        }
                    }
                }
            }
        }
        @if let Some(settings) = tournament["deckSettings"].as_object() {
            section aria-labelledby="rules-heading" id="rules" {
                h2 id="rules-heading" { "Rules" }
                p { "Decks to bring: " (text(&settings["decksToBring"]))
                    @if settings.contains_key("deadline") { " · deadline " (time(&text(&settings["deadline"]))) } }
                @for (scope, label) in [("card", "Card rule"), ("deck", "Deck rule"), ("deckset", "Deck set rule")] {
                    @if let Some(rule) = settings.get("rules").and_then(|rules| rules.get(scope)).filter(|rule| rule.is_object()) {
                        article class="rule" data-scope=(scope) {
                            h3 { (label) ": " (text(&rule["name"]))
                                @if rule["unverified"] == true { " " span class="badge warning" { "Unverified code" } }
                                @else { " " span class="badge" { "Built-in" } } }
                            details class="view-code" {
                                summary { "Script" }
                                pre { code { (text(&rule["source"])) } }
                            }
                            @if rule["unverified"] == true && viewer.caller.account().is_some() {
                                form method="post" action={ "/tournaments/" (urlencode(&id)) "/rules" } class="inline" {
                                    (csrf_field(&viewer))
                                    input type="hidden" name="ruleset" value=(text(&rule["ruleset"]));
                                    input type="hidden" name="version" value=(text(&rule["version"]));
                                    button type="submit" class="secondary small" { "Add to saved rulesets" }
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    frame(&viewer, &tournament, "", "Overview", body)
}

/// The tournament's current round as the API writes it: none before the first is paired, or
/// when it cannot be read.
pub(super) async fn current_round(calls: &Calls, tournament: &Value) -> Option<Value> {
    let number = u32::try_from(tournament["currentRound"].as_u64().unwrap_or(0)).ok()?;
    if number == 0 {
        return None;
    }
    let id = text(&tournament["id"]);
    let answer = calls
        .tournaments()
        .ok()?
        .get_round(pb::GetRoundRequest {
            id,
            stage: 0,
            number,
        })
        .await
        .ok()?;
    Some(tournaments_json::round_answer(&answer)["round"].clone())
}

/// A round's matches (none without a round).
pub(super) fn matches_of(round: Option<&Value>) -> Vec<Value> {
    round
        .and_then(|round| round["matches"].as_array().cloned())
        .unwrap_or_default()
}

/// A match's result as the pages write it: a one-on-one match's games (`2–1 · final`), a
/// free-for-all lobby's finishing order (`1st Ana, 2nd Ben … · final`), or `—` before one.
pub(super) fn result_text(played: &Value, names: &[String]) -> String {
    let Some(result) = played.get("result") else {
        return "—".to_owned();
    };
    let state = text(&result["state"]);
    match result["finish"].as_array() {
        Some(finish) => {
            let mut order: Vec<(u64, &str)> = finish
                .iter()
                .zip(names)
                .map(|(place, name)| (place.as_u64().unwrap_or(0), name.as_str()))
                .collect();
            order.sort_by_key(|(place, _)| *place);
            let order: Vec<String> = order
                .iter()
                .map(|(place, name)| {
                    format!("{} {name}", ordinal(usize::try_from(*place).unwrap_or(0)))
                })
                .collect();
            format!("{} · {state}", order.join(", "))
        }
        None => format!("{} · {state}", text(&result["games"]).replace(", ", "–")),
    }
}

/// A match's players by name, in its order.
pub(super) fn player_names(played: &Value, registrations: &[Value]) -> Vec<String> {
    played["players"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|player| name_of(registrations, &text(player)))
        .collect()
}

/// A player's match of the round: table, opponent, the round's time left, and what they can do
/// with its result — report it, confirm the opponent's report (or report what happened), or
/// wait; a disputed result says the organizer decides.
fn my_match(
    viewer: &Viewer,
    id: &str,
    registration: &Value,
    registrations: &[Value],
    round: &Value,
) -> Markup {
    let me = text(&registration["id"]);
    let played = round["matches"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|played| {
            played["players"]
                .as_array()
                .is_some_and(|players| players.iter().any(|player| *player == me.as_str()))
        });
    let Some(played) = played else {
        return html! {};
    };
    let players: Vec<String> = played["players"]
        .as_array()
        .into_iter()
        .flatten()
        .map(text)
        .collect();
    if players.len() > 2 {
        // A free-for-all lobby: its organizer enters the finishing order.
        let names = player_names(played, registrations);
        let others: Vec<&String> = players
            .iter()
            .zip(&names)
            .filter(|(player, _)| **player != me)
            .map(|(_, name)| name)
            .collect();
        return html! {
            section id="my-match" aria-labelledby="my-match-heading" {
                h2 id="my-match-heading" { "Your match" }
                p id="my-table" {
                    "Round " (text(&round["number"])) " · Table " (text(&played["table"])) " · a lobby with "
                    strong { (others.iter().map(|name| name.as_str()).collect::<Vec<_>>().join(", ")) }
                }
                @if let Some(left) = played["timeLeftMs"].as_i64() {
                    p { "Time left: " span class="timer" data-time-left-ms=(left) data-running=(text(&round["timer"]["running"])) { (clock(left)) } }
                }
                @if played.get("result").is_some() { p id="decided" { "Result: " (result_text(played, &names)) } }
                @else { p class="help" { "The organizer enters the lobby's finishing order." } }
            }
        };
    }
    let mine = usize::from(players.get(1) == Some(&me));
    let theirs = 1 - mine;
    let opponent = players
        .get(theirs)
        .map(|player| name_of(registrations, player))
        .unwrap_or_default();
    let result = played.get("result");
    let games = |side: usize| {
        result
            .and_then(|result| result["games"].get(side))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    let state = result
        .map(|result| text(&result["state"]))
        .unwrap_or_default();
    let reported = |side: usize| {
        result.is_some_and(|result| result["reported"].get(side) == Some(&Value::Bool(true)))
    };
    let match_id = text(&played["id"]);
    let report_form = |label: &str, mine_games: u64, their_games: u64| {
        html! {
            form method="post" action={ "/tournaments/" (urlencode(id)) "/report" } class="report" {
                (csrf_field(viewer))
                input type="hidden" name="match" value=(match_id);
                input type="hidden" name="side" value=(mine);
                label for={ "mine-" (label.len()) } { "Games you won" }
                select id={ "mine-" (label.len()) } name="mine" {
                    @for n in 0..=3_u64 { option value=(n) selected[n == mine_games] { (n) } }
                }
                label for={ "theirs-" (label.len()) } { "Games " (opponent) " won" }
                select id={ "theirs-" (label.len()) } name="theirs" {
                    @for n in 0..=3_u64 { option value=(n) selected[n == their_games] { (n) } }
                }
                button type="submit" { (label) }
            }
        }
    };
    html! {
        section id="my-match" aria-labelledby="my-match-heading" {
            h2 id="my-match-heading" { "Your match" }
            @if played["bye"] == true {
                p id="my-table" { "Round " (text(&round["number"])) ": a bye." }
            } @else {
                p id="my-table" {
                    "Round " (text(&round["number"])) " · Table " (text(&played["table"])) " · against " strong { (opponent) }
                }
                @if let Some(left) = played["timeLeftMs"].as_i64() {
                    p { "Time left: " span class="timer" data-time-left-ms=(left) data-running=(text(&round["timer"]["running"])) { (clock(left)) } }
                }
                @match state.as_str() {
                    "" => { (report_form("Report result", 0, 0)) }
                    "reported" if reported(mine) && !reported(theirs) => {
                        p id="waiting" { "You reported " (games(mine)) "–" (games(theirs)) ": waiting for " (opponent) " to confirm." }
                    }
                    "reported" => {
                        div id="confirm" role="alert" {
                            p { (opponent) " reported: you " (games(mine)) " – " (games(theirs)) " " (opponent) ". Is that right?" }
                            (report_form("Confirm", games(mine), games(theirs)))
                        }
                        details { summary { "Report what happened instead" } (report_form("Report result", 0, 0)) }
                    }
                    "disputed" => { p id="disputed" class="warning" { "Disputed: you and " (opponent) " reported different results. The organizer decides." } }
                    _ => { p id="decided" { "Result: you " (games(mine)) " – " (games(theirs)) " " (opponent) " (" (state) ")." } }
                }
            }
        }
    }
}

/// Milliseconds as `m:ss` (never below zero).
pub(super) fn clock(left_ms: i64) -> String {
    let seconds = left_ms.max(0) / 1000;
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// The fields of a report.
#[derive(Debug, Deserialize)]
struct ReportForm {
    #[serde(default)]
    csrf: String,
    #[serde(rename = "match", default)]
    match_id: String,
    /// The reporter's place in the match's players (0 or 1).
    #[serde(default)]
    side: usize,
    #[serde(default)]
    mine: u32,
    #[serde(default)]
    theirs: u32,
}

/// Reports (or confirms) the viewer's match: the games in the match's players order.
async fn report(
    viewer: Viewer,
    calls: Calls,
    Path(id): Path<String>,
    Form(form): Form<ReportForm>,
) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    let games = if form.side == 1 {
        vec![form.theirs, form.mine]
    } else {
        vec![form.mine, form.theirs]
    };
    calls
        .tournaments()
        .map_err(failed)?
        .report_result(pb::ReportResultRequest {
            id: id.clone(),
            match_id: form.match_id.clone(),
            games,
            finish: Vec::new(),
            eliminations: Vec::new(),
        })
        .await
        .map_err(failed)?;
    Ok(Redirect::to(&format!("/tournaments/{}", urlencode(&id))).into_response())
}

/// The viewer's latest lineup, if they submitted one.
async fn my_lineup(calls: &Calls, id: &str, registration: &str) -> Option<Value> {
    let answer = calls
        .tournaments()
        .ok()?
        .get_lineup(pb::GetLineupRequest {
            id: id.to_owned(),
            registration: registration.to_owned(),
        })
        .await
        .ok()?;
    let submission = tournaments_json::submission_answer(&answer)["submission"].clone();
    submission.is_object().then_some(submission)
}

/// The player's lineup: one box per deck to bring, and the latest submission's verdict with
/// every issue as the service wrote it (`pending` until it is checked; the page then looks
/// again by itself).
fn lineup_section(
    viewer: &Viewer,
    tournament: &Value,
    registration: &Value,
    settings: &serde_json::Map<String, Value>,
    submission: Option<&Value>,
) -> Markup {
    let id = text(&tournament["id"]);
    let id = id.as_str();
    let deadline = settings
        .get("deadline")
        .and_then(Value::as_str)
        .and_then(|deadline| deadline.parse::<jiff::Timestamp>().ok());
    // As the service decides: past the deadline, or once the event starts when there is none;
    // an organizer may unlock one player.
    let locked = match deadline {
        Some(deadline) => jiff::Timestamp::now() > deadline,
        None => tournament["state"] != "registration",
    } && registration["lineupUnlocked"] != true;
    let decks = settings
        .get("decksToBring")
        .and_then(Value::as_u64)
        .unwrap_or(1)
        .clamp(1, 10);
    let state = submission
        .map(|submission| text(&submission["state"]))
        .unwrap_or_default();
    html! {
        section id="lineup" aria-labelledby="lineup-heading" data-poll=[(state == "pending").then_some("lineup")] {
            h2 id="lineup-heading" { "Your lineup" }
            @if let Some(submission) = submission {
                p id="lineup-state" class=(match state.as_str() { "accepted" => "ok", "pending" => "help", _ => "error" }) {
                    @match state.as_str() {
                        "pending" => { "Pending: your lineup is being checked…" }
                        "accepted" => { "Accepted." }
                        "rejected" => { "Rejected: fix what the rules say and submit again." }
                        other => { (words(other)) @if let Some(failure) = submission["failure"].as_str() { ": " (failure) } }
                    }
                }
                @if let Some(issues) = submission["issues"].as_array().filter(|issues| !issues.is_empty()) {
                    ul id="lineup-issues" class="error" { @for issue in issues { li { (text(issue)) } } }
                }
            }
            p id="lineup-deadline" class="help" {
                @match deadline {
                    Some(deadline) => { "Submit by " time datetime=(deadline.to_string()) { (deadline.strftime("%Y-%m-%d %H:%M UTC")) } "; until then, your latest submission counts." }
                    None => { "Submit before the tournament starts; until then, your latest submission counts." }
                }
            }
            @if locked {
                p id="lineup-locked" class="warning" { "Lineups are locked: the deadline has passed. An organizer can unlock yours." }
            } @else {
            form method="post" action={ "/tournaments/" (urlencode(id)) "/lineup" } class="stack wide" {
                (csrf_field(viewer))
                input type="hidden" name="registration" value=(text(&registration["id"]));
                @for at in 0..decks {
                    @let shown = submission.map(|submission| text(&submission["decks"][usize::try_from(at).unwrap_or(0)])).unwrap_or_default();
                    label for={ "lineup-deck-" (at) } { "Deck " (at + 1) ": a deck code or list" }
                    textarea id={ "lineup-deck-" (at) } name="deck" rows="3" required { (shown) }
                }
                button type="submit" { @if submission.is_some() { "Submit again" } @else { "Submit lineup" } }
            }
            }
        }
    }
}

/// Submits the viewer's lineup (the service checks it in the background).
async fn submit_lineup(
    viewer: Viewer,
    calls: Calls,
    Path(id): Path<String>,
    Form(fields): Form<Vec<(String, String)>>,
) -> PageResult {
    let field = |name: &str| {
        fields
            .iter()
            .find(|(key, _)| key == name)
            .map_or("", |(_, value)| value.as_str())
    };
    account_form(&viewer, field("csrf"))?;
    let decks = fields
        .iter()
        .filter(|(key, _)| key == "deck")
        .map(|(_, deck)| typed(deck))
        .collect();
    calls
        .tournaments()
        .map_err(failed)?
        .submit_lineup(pb::SubmitLineupRequest {
            id: id.clone(),
            registration: field("registration").to_owned(),
            decks,
        })
        .await
        .map_err(failed)?;
    Ok(Redirect::to(&format!("/tournaments/{}#lineup", urlencode(&id))).into_response())
}

/// The fields of "Add to saved rulesets".
#[derive(Debug, Deserialize)]
struct SaveRuleForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    ruleset: String,
    version: Option<u32>,
}

/// Saves a read-only copy of a custom rule the tournament pins, at its pinned version, to the
/// viewer's rulesets (a copy saved from a tournament shows Update available when the author's
/// latest differs).
async fn save_rule(
    viewer: Viewer,
    calls: Calls,
    Path(id): Path<String>,
    Form(form): Form<SaveRuleForm>,
) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    let tournament = read(&calls, &id).await?;
    let game = text(&tournament["game"]).parse::<proto::game::Game>().ok();
    let slug = text(&tournament["game"]);
    calls
        .scripts()
        .map_err(failed)?
        .save_ruleset(proto::scripts::v1::SaveRulesetRequest {
            game: game.map_or(0, proto::game::to_wire),
            id: form.ruleset.clone(),
            version: form.version,
            from: "tournament".to_owned(),
            tournament: id.clone(),
        })
        .await
        .map_err(failed)?;
    Ok(Redirect::to(&format!("/settings/rulesets?game={}", urlencode(&slug))).into_response())
}

/// A registration button: its own small form with the CSRF token.
fn action(viewer: &Viewer, id: &str, what: &str, label: &str, registration: &str) -> Markup {
    html! {
        form method="post" action={ "/tournaments/" (urlencode(id)) "/registration" } class="inline" {
            (csrf_field(viewer))
            input type="hidden" name="action" value=(what);
            input type="hidden" name="registration" value=(registration);
            button type="submit" { (label) }
        }
    }
}

/// The fields of a registration form.
#[derive(Debug, Deserialize)]
struct RegistrationForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    action: String,
    #[serde(default)]
    registration: String,
}

/// Registers the viewer (or puts them on the waitlist when it is full), unregisters them,
/// checks them in, or drops them from a running event.
async fn registration(
    viewer: Viewer,
    calls: Calls,
    Path(id): Path<String>,
    Form(form): Form<RegistrationForm>,
) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    let client = calls.tournaments().map_err(failed)?;
    match form.action.as_str() {
        "register" => {
            client
                .register(pb::RegisterRequest {
                    id: id.clone(),
                    display_name: None,
                })
                .await
                .map_err(failed)?;
        }
        "unregister" | "checkIn" | "drop" => {
            use pb::change_registration_request::Change;
            let change = match form.action.as_str() {
                "unregister" => Change::Unregister(true),
                "checkIn" => Change::CheckIn(true),
                _ => Change::Drop(true),
            };
            client
                .change_registration(pb::ChangeRegistrationRequest {
                    id: id.clone(),
                    registration: form.registration.clone(),
                    change: Some(change),
                })
                .await
                .map_err(failed)?;
        }
        other => {
            return Err(no_action(other, "on a registration"));
        }
    }
    Ok(Redirect::to(&format!("/tournaments/{}", urlencode(&id))).into_response())
}

/// The round a pairings page shows.
#[derive(Debug, Deserialize)]
struct RoundQuery {
    round: Option<u32>,
}

async fn pairings(
    viewer: Viewer,
    calls: Calls,
    Path(id): Path<String>,
    Query(query): Query<RoundQuery>,
) -> PageResult {
    let tournament = read(&calls, &id).await?;
    let current = u32::try_from(tournament["currentRound"].as_u64().unwrap_or(0)).unwrap_or(0);
    let number = query.round.unwrap_or(current);
    let registrations = registrations(&calls, &id).await;
    let round = if number == 0 {
        None
    } else {
        let answer = calls
            .tournaments()
            .map_err(failed)?
            .get_round(pb::GetRoundRequest {
                id: id.clone(),
                stage: 0,
                number,
            })
            .await
            .map_err(failed)?;
        Some(tournaments_json::round_answer(&answer)["round"].clone())
    };
    let body = html! {
        @if current > 1 {
            nav aria-label="Rounds" { ul class="tabs" {
                @for each in 1..=current {
                    li { a href={ "?round=" (each) } aria-current=[(each == number).then_some("page")] { "Round " (each) } }
                }
            } }
        }
        @match &round {
            None => { p { "No round has been paired yet." } }
            Some(round) => {
                h2 { "Round " (number) }
                div class="table-scroll" { table class="pairings" {
                    @let lobbies = round["matches"].as_array().into_iter().flatten().any(|played| played["players"].as_array().is_some_and(|players| players.len() > 2));
                    thead { tr { th scope="col" { "Table" } th scope="col" { "Player" } th scope="col" { @if lobbies { "Opponents" } @else { "Opponent" } } th scope="col" { "Result" } } }
                    tbody {
                        @for played in round["matches"].as_array().into_iter().flatten() {
                            @let players = player_names(played, &registrations);
                            tr {
                                td { (text(&played["table"])) }
                                td { (players.first().cloned().unwrap_or_default()) }
                                td { @if played["bye"] == true { "Bye" } @else { (players.get(1..).map(|rest| rest.join(", ")).unwrap_or_default()) } }
                                td { (result_text(played, &players)) }
                            }
                        }
                    }
                } }
            }
        }
    };
    frame(&viewer, &tournament, "/pairings", "Pairings", body)
}

/// The current stage's standings as the API writes them (none before any, or when they
/// cannot be read), and the names of its tiebreakers in the stage's order.
pub(super) async fn standing_lines(calls: &Calls, id: &str) -> (Vec<Value>, Vec<String>) {
    let Ok(client) = calls.tournaments() else {
        return (Vec::new(), Vec::new());
    };
    let lines = client
        .get_standings(pb::GetStandingsRequest {
            id: id.to_owned(),
            stage: 0,
        })
        .await
        .map(|answer| items(tournaments_json::standings_answer(&answer), "standings"))
        .unwrap_or_default();
    let names = lines
        .first()
        .and_then(|line| line["tiebreakers"].as_object())
        .map(|tiebreakers| tiebreakers.keys().cloned().collect())
        .unwrap_or_default();
    (lines, names)
}

/// A standings line's cells after the rank and name: points, record, then each tiebreaker.
pub(super) fn standing_cells(line: &Value, names: &[String]) -> Vec<String> {
    let mut cells = vec![
        number(&line["points"]),
        text(&line["record"]).replace(", ", "–"),
    ];
    cells.extend(
        names
            .iter()
            .map(|name| tiebreaker_value(name, &line["tiebreakers"][name.as_str()])),
    );
    cells
}

async fn standings(viewer: Viewer, calls: Calls, Path(id): Path<String>) -> PageResult {
    let tournament = read(&calls, &id).await?;
    let (lines, names) = standing_lines(&calls, &id).await;
    let body = html! {
        p class="actions" { a href={ "/tournaments/" (urlencode(&id)) "/standings/print" } { "Print view" } }
        @if lines.is_empty() { p { "No standings yet." } }
        @else {
            div class="table-scroll" { table class="standings" {
                thead { tr {
                    th scope="col" { "Rank" } th scope="col" { "Player" } th scope="col" { "Points" } th scope="col" { "Record" }
                    @for name in &names {
                        @let (short, meaning) = tiebreaker_name(name);
                        th scope="col" { abbr title=(meaning) tabindex="0" aria-label=(meaning) { (short) } }
                    }
                } }
                tbody {
                    @for line in &lines {
                        tr class=[(line["dropped"] == true).then_some("dropped")] {
                            td { (text(&line["rank"])) }
                            td { (text(&line["displayName"])) @if line["dropped"] == true { " (dropped)" } }
                            @for cell in standing_cells(line, &names) { td { (cell) } }
                        }
                    }
                }
            } }
        }
    };
    frame(&viewer, &tournament, "/standings", "Standings", body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_read_as_percentages() {
        assert_eq!(
            tiebreaker_value("opponent_match_win_percentage", &serde_json::json!(0.3333)),
            "33.33%"
        );
        assert_eq!(tiebreaker_value("buchholz", &serde_json::json!(6.0)), "6");
    }

    #[test]
    fn a_lobbys_result_reads_as_its_finishing_order() {
        let lobby = serde_json::json!({"result": {"finish": [2, 1, 3, 3], "state": "final"}});
        let names = ["Ana", "Ben", "Cam", "Dee"].map(str::to_owned);
        assert_eq!(
            result_text(&lobby, &names),
            "1st Ben, 2nd Ana, 3rd Cam, 3rd Dee · final"
        );
        let played = serde_json::json!({"result": {"games": [2, 1], "state": "reported"}});
        assert_eq!(result_text(&played, &names), "2–1 · reported");
        assert_eq!(result_text(&serde_json::json!({}), &names), "—");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(22), "22nd");
    }
}
