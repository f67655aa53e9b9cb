//! The organizer's console (`/tournaments/{id}/manage`) and the print views of pairings.
//!
//! The console: the disputes queue first, then the controls the tournament's state allows
//! (start, pair the next round, the round timer, advance to the next stage), the current
//! round's matches with a result to enter or override for each, and the registrations (add a
//! guest by name, check in, drop, reinstate). Every control is a form with the CSRF token,
//! sent with the organizer's session; the tournament service decides who may do what, so a
//! player who finds the address is refused there as through the API.
//!
//! Print views (`/tournaments/{id}/pairings/print?by=table|name`): the current round for the
//! wall of a store, 50 lines to a printed page.

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::extract::{Path, Query};
use axum::response::{IntoResponse, Redirect};
use axum::routing::get;
use axum::{Form, Router};
use http::StatusCode;
use maud::{DOCTYPE, Markup, html};
use proto::tournaments::v1 as pb;
use serde::Deserialize;
use serde_json::Value;

use super::answer::{PageResult, account_form, failed, no_action, signed_in};
use super::layout::{csrf_field, urlencode};
use super::session::Viewer;
use super::tournaments::{
    current_round, frame, matches_of, organizes, player_names, read, registrations, text, words,
};
use crate::auth::Calls;
use crate::state::AppState;

/// Lines on one printed page.
const PRINTED_LINES: usize = 50;

/// The console's and the print views' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tournaments/{id}/manage", get(console).post(act))
        .route("/tournaments/{id}/pairings/print", get(print))
}

fn button(viewer: &Viewer, id: &str, action: &str, label: &str, fields: &[(&str, &str)]) -> Markup {
    html! {
        form method="post" action={ "/tournaments/" (urlencode(id)) "/manage" } class="inline" {
            (csrf_field(viewer))
            input type="hidden" name="action" value=(action);
            @for (name, value) in fields { input type="hidden" name=(name) value=(value); }
            button type="submit" class="secondary small" { (label) }
        }
    }
}

async fn console(viewer: Viewer, calls: Calls, Path(id): Path<String>) -> PageResult {
    signed_in(&viewer)?;
    let tournament = read(&calls, &id).await?;
    if !organizes(&viewer, &tournament) {
        return Err(failed(crate::ApiError::new(
            StatusCode::FORBIDDEN,
            "permission_denied",
            "only the tournament's organizers manage it",
        )));
    }
    let registrations = registrations(&calls, &id).await;
    let round = current_round(&calls, &tournament).await;
    let matches = matches_of(round.as_ref());
    let disputed: Vec<&Value> = matches
        .iter()
        .filter(|played| played["result"]["state"] == "disputed")
        .collect();
    let state = text(&tournament["state"]);
    let stages = tournament["stages"].as_array().map_or(0, Vec::len);
    let current_stage = tournament["currentStage"].as_u64().unwrap_or(1);
    let names = |played: &Value| player_names(played, &registrations);
    let enter = |played: &Value| {
        let match_id = text(&played["id"]);
        let players = names(played);
        html! {
            form method="post" action={ "/tournaments/" (urlencode(&id)) "/manage" } class="inline enter" {
                (csrf_field(&viewer))
                input type="hidden" name="action" value="enter";
                input type="hidden" name="match" value=(match_id);
                @for (side, player) in players.iter().enumerate().take(2) {
                    label class="visually-hidden" for={ "games-" (match_id) "-" (side) } { "Games " (player) " won" }
                    select id={ "games-" (match_id) "-" (side) } name={ "games" (side) } {
                        @for n in 0..=3_u32 { option value=(n) { (n) } }
                    }
                }
                button type="submit" class="secondary small" aria-label={ "Enter the result of table " (text(&played["table"])) } { "Enter" }
            }
        }
    };
    let body = html! {
        @if !disputed.is_empty() {
            section id="disputes" role="alert" aria-labelledby="disputes-heading" {
                h2 id="disputes-heading" { "Disputes (" (disputed.len()) ")" }
                ul { @for played in &disputed {
                    li { "Table " (text(&played["table"])) ": " (names(played).join(" vs ")) " reported different results. " (enter(played)) }
                } }
            }
        }
        section aria-labelledby="controls-heading" {
            h2 id="controls-heading" { "Run the event" }
            p class="actions" {
                @if state == "registration" { (button(&viewer, &id, "start", "Start the tournament", &[])) }
                @if state == "running" {
                    (button(&viewer, &id, "pair", "Pair the next round", &[]))
                    @if let Some(round) = &round {
                        @if round["timer"]["running"] == true { (button(&viewer, &id, "pauseTimer", "Pause the timer", &[])) }
                        @else { (button(&viewer, &id, "startTimer", "Start the timer", &[])) }
                    }
                    @if (current_stage as usize) < stages { (button(&viewer, &id, "advance", "Advance to the next stage", &[])) }
                }
                a href={ "/tournaments/" (urlencode(&id)) "/pairings/print?by=table" } { "Print pairings by table" }
                a href={ "/tournaments/" (urlencode(&id)) "/pairings/print?by=name" } { "Print pairings by name" }
            }
        }
        @if let Some(round) = &round {
            section aria-labelledby="round-heading" {
                h2 id="round-heading" { "Round " (text(&round["number"])) }
                div class="table-scroll" { table class="console-matches" {
                    thead { tr { th scope="col" { "Table" } th scope="col" { "Players" } th scope="col" { "Result" } th scope="col" { "Enter or override" } } }
                    tbody { @for played in &matches {
                        tr class=[(played["result"]["state"] == "disputed").then_some("disputed")] {
                            td { (text(&played["table"])) }
                            td { (names(played).join(" vs ")) @if played["bye"] == true { " (bye)" } }
                            td { @if let Some(result) = played.get("result") { (text(&result["games"]).replace(", ", "–")) " · " (text(&result["state"])) } @else { "—" } }
                            td { @if played["bye"] != true { (enter(played)) } }
                        }
                    } }
                } }
            }
        }
        section aria-labelledby="registrations-heading" {
            h2 id="registrations-heading" { "Registrations (" (registrations.len()) ")" }
            form method="post" action={ "/tournaments/" (urlencode(&id)) "/manage" } class="search" {
                (csrf_field(&viewer))
                input type="hidden" name="action" value="guest";
                label for="guest-name" { "Add a guest" }
                input id="guest-name" name="name" required maxlength="100" placeholder="Name";
                button type="submit" { "Add" }
            }
            div class="table-scroll" { table class="registrations" {
                thead { tr { th scope="col" { "Player" } th scope="col" { "State" } th scope="col" { "Actions" } } }
                tbody { @for registration in &registrations {
                    @let registration_id = text(&registration["id"]);
                    @let registration_state = text(&registration["state"]);
                    tr data-id=(registration_id) {
                        td { (text(&registration["displayName"])) }
                        td { (words(&registration_state)) }
                        td class="actions" {
                            @if registration_state == "registered" { (button(&viewer, &id, "checkIn", "Check in", &[("registration", &registration_id)])) }
                            @if registration_state == "dropped" { (button(&viewer, &id, "reinstate", "Reinstate", &[("registration", &registration_id)])) }
                            @else if registration_state != "waitlisted" { (button(&viewer, &id, "drop", "Drop", &[("registration", &registration_id)])) }
                        }
                    }
                } }
            } }
        }
    };
    frame(&viewer, &tournament, "/manage", "Manage", body)
}

/// The fields of a console form.
#[derive(Debug, Deserialize)]
struct ConsoleForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    action: String,
    #[serde(default)]
    registration: String,
    #[serde(default)]
    name: String,
    #[serde(rename = "match", default)]
    match_id: String,
    #[serde(default)]
    games0: u32,
    #[serde(default)]
    games1: u32,
}

async fn act(
    viewer: Viewer,
    calls: Calls,
    Path(id): Path<String>,
    Form(form): Form<ConsoleForm>,
) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    let client = calls.tournaments().map_err(failed)?;
    let change = |change: pb::change_registration_request::Change| pb::ChangeRegistrationRequest {
        id: id.clone(),
        registration: form.registration.clone(),
        change: Some(change),
    };
    let timer = |action: pb::control_timer_request::Action| pb::ControlTimerRequest {
        id: id.clone(),
        action: Some(action),
    };
    use pb::change_registration_request::Change;
    use pb::control_timer_request::Action;
    let done = match form.action.as_str() {
        "start" => client
            .start_tournament(pb::StartTournamentRequest { id: id.clone() })
            .await
            .map(drop),
        "advance" => client
            .advance_tournament(pb::AdvanceTournamentRequest { id: id.clone() })
            .await
            .map(drop),
        "pair" => client
            .pair_round(pb::PairRoundRequest {
                id: id.clone(),
                pairings: Vec::new(),
            })
            .await
            .map(drop),
        "startTimer" => client
            .control_timer(timer(Action::Start(true)))
            .await
            .map(drop),
        "pauseTimer" => client
            .control_timer(timer(Action::Pause(true)))
            .await
            .map(drop),
        "guest" => client
            .register(pb::RegisterRequest {
                id: id.clone(),
                display_name: Some(form.name.clone()),
            })
            .await
            .map(drop),
        "checkIn" => client
            .change_registration(change(Change::CheckIn(true)))
            .await
            .map(drop),
        "drop" => client
            .change_registration(change(Change::Drop(true)))
            .await
            .map(drop),
        "reinstate" => client
            .change_registration(change(Change::Reinstate(true)))
            .await
            .map(drop),
        "enter" => client
            .report_result(pb::ReportResultRequest {
                id: id.clone(),
                match_id: form.match_id.clone(),
                games: vec![form.games0, form.games1],
                finish: Vec::new(),
                eliminations: Vec::new(),
            })
            .await
            .map(drop),
        other => {
            return Err(no_action(other, "in the console"));
        }
    };
    done.map_err(failed)?;
    Ok(Redirect::to(&format!("/tournaments/{}/manage", urlencode(&id))).into_response())
}

/// How a print view orders the round.
#[derive(Debug, Deserialize)]
struct PrintQuery {
    #[serde(default)]
    by: String,
}

/// The current round's pairings for the wall: by table, or by player name (each player's line
/// with their table and opponent), 50 lines to a printed page.
async fn print(
    calls: Calls,
    Path(id): Path<String>,
    Query(query): Query<PrintQuery>,
) -> PageResult {
    let tournament = read(&calls, &id).await?;
    let registrations = registrations(&calls, &id).await;
    let round = current_round(&calls, &tournament).await;
    let matches = matches_of(round.as_ref());
    let by_name = query.by == "name";
    // Each line: (table, first column, second column).
    let mut lines: Vec<(String, String, String)> = Vec::new();
    for played in &matches {
        let players = player_names(played, &registrations);
        let table = text(&played["table"]);
        let bye = played["bye"] == true;
        if by_name {
            for (at, player) in players.iter().enumerate() {
                let opponent = if bye {
                    "Bye".to_owned()
                } else {
                    players.get(1 - at.min(1)).cloned().unwrap_or_default()
                };
                lines.push((table.clone(), player.clone(), opponent));
            }
        } else {
            let second = if bye {
                "Bye".to_owned()
            } else {
                players.get(1).cloned().unwrap_or_default()
            };
            lines.push((table, players.first().cloned().unwrap_or_default(), second));
        }
    }
    if by_name {
        lines.sort_by_key(|line| line.1.to_lowercase());
    }
    let name = text(&tournament["name"]);
    let number = text(&tournament["currentRound"]);
    let title = format!(
        "{name} · round {number} · by {}",
        if by_name { "name" } else { "table" }
    );
    let headers = if by_name {
        ["Player", "Table", "Opponent"]
    } else {
        ["Table", "Player", "Opponent"]
    };
    let body = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link rel="stylesheet" href=(super::assets::href("site.css"));
            }
            body class="print" {
                main id="main" {
                    h1 { (title) }
                    @if lines.is_empty() { p { "No round has been paired yet." } }
                    @for (page, chunk) in lines.chunks(PRINTED_LINES).enumerate() {
                        table class="print-page" aria-label={ "Page " (page + 1) } {
                            thead { tr { @for header in headers { th scope="col" { (header) } } } }
                            tbody { @for (table, first, second) in chunk {
                                tr {
                                    @if by_name { td { (first) } td { (table) } td { (second) } }
                                    @else { td { (table) } td { (first) } td { (second) } }
                                }
                            } }
                        }
                    }
                }
            }
        }
    };
    Ok(body.into_response())
}
