//! The organizer's console (`/tournaments/{id}/manage`) and the print views of pairings.
//!
//! The console: the disputes queue first, then the controls the tournament's state allows
//! (start, pair the next round, the round timer, advance to the next stage), the current
//! round's matches with a result to enter or override for each, and the registrations (add a
//! guest by name, check in, drop, reinstate). Every control is a form with the CSRF token,
//! sent with the organizer's session; the tournament service decides who may do what, so a
//! player who finds the address is refused there as through the API.
//!
//! Print views (`/tournaments/{id}/pairings/print?by=table|name` and
//! `/tournaments/{id}/standings/print`): the current round and the standings for the wall of a
//! store, 50 lines to a printed page.

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::extract::{Path, Query};
use axum::response::{IntoResponse, Redirect};
use axum::routing::get;
use axum::{Form, Router};
use maud::{Markup, html};
use proto::tournaments::v1 as pb;
use serde::Deserialize;
use serde_json::Value;

use super::answer::{PageResult, account_form, again, failed, no_action, refused, signed_in};
use super::layout::{csrf_field, urlencode};
use super::session::Viewer;
use super::tournaments::{
    current_round, frame, items, matches_of, organized, player_names, read, registrations,
};
use super::wording::{text, words};
use crate::auth::Calls;
use crate::state::AppState;

/// Lines on one printed page.
const PRINTED_LINES: usize = 50;

/// The console's and the print views' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tournaments/{id}/manage", get(console).post(act))
        .route("/tournaments/{id}/pairings/print", get(print))
        .route("/tournaments/{id}/standings/print", get(print_standings))
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

/// What a running stage may still change (the guide: a Swiss stage that cannot be paired
/// without a rematch is mended by turning Prevent repeat matchups off or changing its pairing
/// style), and its round time.
fn stage_form(viewer: &Viewer, id: &str, number: u64, stage: &Value) -> Markup {
    let settings = &stage["settings"];
    let swiss = stage["format"] == "swiss";
    let style = text(&settings["pairing_style"]);
    let choices = super::wording::CHOICES
        .iter()
        .find(|(key, _)| *key == "pairing_style")
        .map_or(&[][..], |(_, choices)| *choices);
    html! {
        details class="stage-settings" {
            summary { "Stage " (number) " settings that may change while it runs" }
            form method="post" action={ "/tournaments/" (urlencode(id)) "/manage" } class="stack" id="stage-form" {
                (csrf_field(viewer))
                input type="hidden" name="action" value="stage";
                input type="hidden" name="stage" value=(number);
                @if swiss {
                    label for="stage-pairing-style" { "Pairing style" }
                    select id="stage-pairing-style" name="pairing_style" {
                        @for (value, label) in choices { option value=(value) selected[*value == style] { (label) } }
                    }
                    label { input type="checkbox" name="prevent_repeat_matchups" value="on" checked[settings["prevent_repeat_matchups"] == true]; " Prevent repeat matchups" }
                }
                label for="stage-round-minutes" { "Round time (minutes)" }
                input id="stage-round-minutes" name="round_minutes" type="number" min="1" max="1440" value=(text(&settings["round_minutes"]));
                button type="submit" class="secondary" { "Save stage settings" }
            }
        }
    }
}

/// The id of the console's one form for its rows (see `console`).
const CONSOLE_FORM: &str = "console";

/// A row's button in the console's form: `action` on `target` (a match or a registration).
fn row_button(action: &str, target: &str, label: &str, aria: Option<&str>) -> Markup {
    html! {
        button type="submit" form=(CONSOLE_FORM) name="action" value={ (action) ":" (target) } class="secondary small" aria-label=[aria] { (label) }
    }
}

async fn console(viewer: Viewer, calls: Calls, Path(id): Path<String>) -> PageResult {
    signed_in(&viewer)?;
    console_page(&viewer, &calls, &id, None).await
}

/// The console, with what the service refused of the organizer's last action (`problem`).
async fn console_page(
    viewer: &Viewer,
    calls: &Calls,
    id: &str,
    problem: Option<&str>,
) -> PageResult {
    let id = id.to_owned();
    let tournament = organized(viewer, calls, &id).await?;
    let registrations = registrations(calls, &id).await;
    let round = current_round(calls, &tournament).await;
    let matches = matches_of(round.as_ref());
    let lineups = lineups(calls, &id).await;
    let hooks = webhooks(calls, &id).await;
    let takes_lineups = tournament["deckSettings"].is_object();
    let disputed: Vec<&Value> = matches
        .iter()
        .filter(|played| played["result"]["state"] == "disputed")
        .collect();
    let state = text(&tournament["state"]);
    let stages = tournament["stages"].as_array().map_or(0, Vec::len);
    let current_stage = tournament["currentStage"].as_u64().unwrap_or(1);
    let names = |played: &Value| player_names(played, &registrations);
    // The round's and the registrations' controls all belong to one form (`form="console"`):
    // one CSRF token for the page instead of one per button, each button naming its action
    // and what it acts on (`drop:<registration>`), each field its match or registration.
    let enter = |played: &Value, shared: bool| {
        let match_id = text(&played["id"]);
        let players = names(played);
        let form = shared.then_some(CONSOLE_FORM);
        let suffix = if shared {
            format!("-{match_id}")
        } else {
            String::new()
        };
        let lobby = players.len() > 2;
        let fields = html! {
            @if lobby {
                // A free-for-all lobby: each player's finish, 1st to last (ties share a place).
                @for (at, player) in players.iter().enumerate() {
                    label for={ "finish-" (match_id) "-" (at) } { (player) }
                    select id={ "finish-" (match_id) "-" (at) } form=[form] name={ "finish" (at) (suffix) } {
                        @for place in 1..=players.len() { option value=(place) selected[place == at + 1] { (super::wording::ordinal(place)) } }
                    }
                }
            } @else {
                @for (side, player) in players.iter().enumerate().take(2) {
                    label class="visually-hidden" for={ "games-" (match_id) "-" (side) (if shared { "" } else { "-dispute" }) } { "Games " (player) " won" }
                    select id={ "games-" (match_id) "-" (side) (if shared { "" } else { "-dispute" }) } form=[form] name={ "games" (side) (suffix) } {
                        @for n in 0..=3_u32 { option value=(n) { (n) } }
                    }
                }
            }
        };
        let verb = if lobby { "enterLobby" } else { "enter" };
        let aria = format!("Enter the result of table {}", text(&played["table"]));
        html! {
            @if shared {
                span class={ "enter" (if lobby { " lobby" } else { "" }) } {
                    (fields)
                    button type="submit" form=(CONSOLE_FORM) name="action" value={ (verb) ":" (match_id) } class="secondary small" aria-label=(aria) { "Enter" }
                }
            } @else {
                form method="post" action={ "/tournaments/" (urlencode(&id)) "/manage" } class={ "inline enter" (if lobby { " lobby" } else { "" }) } {
                    (csrf_field(viewer))
                    input type="hidden" name="action" value=(verb);
                    input type="hidden" name="match" value=(match_id);
                    (fields)
                    button type="submit" class="secondary small" aria-label=(aria) { "Enter" }
                }
            }
        }
    };
    let extend = |played: &Value| {
        let match_id = text(&played["id"]);
        html! {
            span class="extend" {
                label class="visually-hidden" for={ "extend-" (match_id) } { "Minutes to add at table " (text(&played["table"])) }
                select id={ "extend-" (match_id) } form=(CONSOLE_FORM) name={ "minutes-" (match_id) } { @for minutes in [3, 5, 10, 15] { option value=(minutes) { "+" (minutes) " min" } } }
                (row_button("extend", &match_id, "Extend", Some(&format!("Extend table {}", text(&played["table"])))))
            }
        }
    };
    let fix_table = |registration: &Value| {
        let registration_id = text(&registration["id"]);
        html! {
            span class="fix-table" {
                label class="visually-hidden" for={ "table-" (registration_id) } { "Fixed table of " (text(&registration["displayName"])) " (0 or empty: none)" }
                input id={ "table-" (registration_id) } form=(CONSOLE_FORM) name={ "table-" (registration_id) } type="number" min="0" size="3" value=(text(&registration["fixedTable"]));
                (row_button("fixTable", &registration_id, "Fix", Some(&format!("Fix the table of {}", text(&registration["displayName"])))))
            }
        }
    };
    let body = html! {
        @if let Some(problem) = problem { p class="error" role="alert" id="console-error" { (problem) } }
        @if !disputed.is_empty() {
            section id="disputes" role="alert" aria-labelledby="disputes-heading" {
                h2 id="disputes-heading" { "Disputes (" (disputed.len()) ")" }
                ul { @for played in &disputed {
                    li { "Table " (text(&played["table"])) ": " (names(played).join(" vs ")) " reported different results. " (enter(played, false)) }
                } }
            }
        }
        form method="post" action={ "/tournaments/" (urlencode(&id)) "/manage" } id=(CONSOLE_FORM) {
            // Enter in a field of the form submits this first button: nothing happens, rather
            // than the first row's action.
            button type="submit" name="action" value="none" class="visually-hidden" tabindex="-1" aria-hidden="true" { "Reload" }
            (csrf_field(viewer))
        }
        section aria-labelledby="controls-heading" {
            h2 id="controls-heading" { "Run the event" }
            // A `div`: a form cannot sit in a paragraph (the parser would close it first).
            div class="actions" id="controls" {
                @if state == "registration" { (button(viewer, &id, "start", "Start the tournament", &[])) }
                @if state == "running" {
                    (button(viewer, &id, "pair", "Pair the next round", &[]))
                    @if let Some(round) = &round {
                        @if round["timer"]["running"] == true { (button(viewer, &id, "pauseTimer", "Pause the timer", &[])) }
                        @else { (button(viewer, &id, "startTimer", "Start the timer", &[])) }
                    }
                    @if (current_stage as usize) < stages { (button(viewer, &id, "advance", "Advance to the next stage", &[])) }
                    @else { (button(viewer, &id, "advance", "Finish the tournament", &[])) }
                }
                @if state != "finished" {
                    @if tournament["registrationOpen"] == true { (button(viewer, &id, "closeRegistration", "Close registration", &[])) }
                    @else { (button(viewer, &id, "openRegistration", "Open registration", &[])) }
                }
                a href={ "/tournaments/" (urlencode(&id)) "/pairings/print?by=table" } { "Print pairings by table" }
                a href={ "/tournaments/" (urlencode(&id)) "/pairings/print?by=name" } { "Print pairings by name" }
                a href={ "/tournaments/" (urlencode(&id)) "/standings/print" } { "Print standings" }
                a href={ "/tournaments/" (urlencode(&id)) "/deck-settings" } id="deck-settings-link" { "Deck settings" }
            }
            @if state == "running" {
                @if let Some(stage) = tournament["stages"].get(usize::try_from(current_stage.max(1) - 1).unwrap_or(0)) {
                    (stage_form(viewer, &id, current_stage, stage))
                }
            }
            @if state != "registration" {
                p class="actions" id="exports" {
                    @for stage in 1..=(current_stage as usize).min(stages) {
                        a href={ "/api/v1/tournaments/" (urlencode(&id)) "/stages/" (stage) ":export" } download={ "stage-" (stage) ".json" } { "Export stage " (stage) " (offline tool JSON)" }
                    }
                }
            }
        }
        @if let Some(round) = &round {
            section aria-labelledby="round-heading" {
                h2 id="round-heading" { "Round " (text(&round["number"])) }
                div class="table-scroll" { table class="console-matches" {
                    thead { tr { th scope="col" { "Table" } th scope="col" { "Players" } th scope="col" { "Result" } th scope="col" { "Enter or override" } th scope="col" { "Time" } } }
                    tbody { @for played in &matches {
                        tr class=[(played["result"]["state"] == "disputed").then_some("disputed")] {
                            td { (text(&played["table"])) }
                            td { (names(played).join(" vs ")) @if played["bye"] == true { " (bye)" } }
                            td { (super::tournaments::result_text(played, &names(played))) }
                            td { @if played["bye"] != true { (enter(played, true)) } }
                            td { @if played["bye"] != true && played.get("result").is_none_or(|result| result["state"] != "final") {
                                @if let Some(left) = played["timeLeftMs"].as_i64() { span class="timer" data-time-left-ms=(left) data-running=(text(&round["timer"]["running"])) { (super::tournaments::clock(left)) } " " }
                                (extend(played))
                            } }
                        }
                    } }
                } }
            }
        }
        section aria-labelledby="registrations-heading" {
            h2 id="registrations-heading" { "Registrations (" (registrations.len()) ")" }
            form method="post" action={ "/tournaments/" (urlencode(&id)) "/manage" } class="search" {
                (csrf_field(viewer))
                input type="hidden" name="action" value="guest";
                label for="guest-name" { "Add a guest" }
                input id="guest-name" name="name" required maxlength="100" placeholder="Name";
                button type="submit" { "Add" }
            }
            div class="table-scroll" { table class="registrations" {
                thead { tr { th scope="col" { "Player" } th scope="col" { "State" } th scope="col" { "Fixed table" } @if takes_lineups { th scope="col" { "Lineup" } } th scope="col" { "Actions" } } }
                tbody { @for registration in &registrations {
                    @let registration_id = text(&registration["id"]);
                    @let registration_state = text(&registration["state"]);
                    tr data-id=(registration_id) {
                        td { (text(&registration["displayName"])) }
                        td { (words(&registration_state)) }
                        td { (fix_table(registration)) }
                        @if takes_lineups {
                            @let submission = lineups.iter().find(|submission| submission["registration"] == registration_id.as_str());
                            td class="lineup" {
                                @match submission {
                                    None => { "Not submitted" }
                                    Some(submission) => {
                                        @let verdict = text(&submission["state"]);
                                        span class={ "verdict " (verdict) } { (words(&verdict)) }
                                        @if let Some(issues) = submission["issues"].as_array().filter(|issues| !issues.is_empty()) {
                                            details { summary { (issues.len()) " issues" } ul { @for issue in issues { li { (text(issue)) } } } }
                                        }
                                        " " (row_button("recheck", &registration_id, "Recheck", None))
                                    }
                                }
                                @if registration["lineupUnlocked"] == true { " · unlocked" }
                                @else { " " (row_button("unlock", &registration_id, "Unlock", None)) }
                            }
                        }
                        td class="actions" {
                            @if registration_state == "registered" { (row_button("checkIn", &registration_id, "Check in", None)) }
                            @if registration_state == "dropped" { (row_button("reinstate", &registration_id, "Reinstate", None)) }
                            @else if registration_state != "waitlisted" { (row_button("drop", &registration_id, "Drop", None)) }
                        }
                    }
                } }
            } }
        }
        section aria-labelledby="webhooks-heading" id="webhooks" {
            h2 id="webhooks-heading" { "Webhooks" }
            p class="help" { "Each event is sent as JSON, signed with the hook's secret (" code { "X-Turnier-Signature" } ")." }
            @if hooks.is_empty() { p { "None." } }
            ul { @for hook in &hooks {
                li { code { (text(&hook["url"])) } " · " (if hook["events"].as_array().is_none_or(Vec::is_empty) { "every event".to_owned() } else { text(&hook["events"]) })
                    " " (button(viewer, &id, "removeWebhook", "Remove", &[("webhook", &text(&hook["id"]))])) }
            } }
            form method="post" action={ "/tournaments/" (urlencode(&id)) "/manage" } class="search" {
                (csrf_field(viewer))
                input type="hidden" name="action" value="addWebhook";
                label for="webhook-url" { "Add a webhook" }
                input id="webhook-url" name="url" type="url" required placeholder="https://example.com/turnier";
                button type="submit" { "Add" }
            }
        }
    };
    frame(viewer, &tournament, "/manage", "Manage", body)
}

/// The fields of a console form: its own (`action` with `registration` or `match`), or the
/// console's one form, whose button says `action:target` and whose fields are named after
/// their match or registration (`games0-<match>`, `table-<registration>`).
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
    url: String,
    #[serde(default)]
    webhook: String,
    /// Every other field (numbers arrive as text: a flattened map takes each as a string).
    #[serde(flatten)]
    rest: std::collections::BTreeMap<String, String>,
}

impl ConsoleForm {
    /// The action and what it acts on: `drop:r3` → (`drop`, `r3`).
    fn verb(&self) -> (&str, &str) {
        self.action
            .split_once(':')
            .unwrap_or((self.action.as_str(), ""))
    }

    /// The field `name` of the target (`games0-<match>` in the console's form, `games0` in a
    /// form of its own).
    fn value(&self, name: &str) -> &str {
        let key = match self.verb() {
            (_, "") => name.to_owned(),
            (_, target) => format!("{name}-{target}"),
        };
        self.rest.get(&key).map_or("", String::as_str)
    }
}

/// A number a select posted (0 when it is not one).
fn posted_number(text: &str) -> u32 {
    text.trim().parse().unwrap_or(0)
}

async fn act(
    viewer: Viewer,
    calls: Calls,
    Path(id): Path<String>,
    Form(form): Form<ConsoleForm>,
) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    let client = calls.tournaments().map_err(failed)?;
    let (verb, target) = form.verb();
    let registration = if target.is_empty() {
        form.registration.clone()
    } else {
        target.to_owned()
    };
    let match_id = if target.is_empty() {
        form.match_id.clone()
    } else {
        target.to_owned()
    };
    let change = |change: pb::change_registration_request::Change| pb::ChangeRegistrationRequest {
        id: id.clone(),
        registration: registration.clone(),
        change: Some(change),
    };
    let timer = |action: pb::control_timer_request::Action| pb::ControlTimerRequest {
        id: id.clone(),
        action: Some(action),
    };
    use pb::change_registration_request::Change;
    use pb::control_timer_request::Action;
    let done = match verb {
        // Enter pressed in a field of the console's form.
        "none" => Ok(()),
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
                match_id: match_id.clone(),
                games: vec![
                    posted_number(form.value("games0")),
                    posted_number(form.value("games1")),
                ],
                finish: Vec::new(),
                eliminations: Vec::new(),
            })
            .await
            .map(drop),
        "enterLobby" => {
            let finish: Vec<u32> = (0..)
                .map(|at| form.value(&format!("finish{at}")))
                .take_while(|finish| !finish.is_empty())
                .map(posted_number)
                .collect();
            client
                .report_result(pb::ReportResultRequest {
                    id: id.clone(),
                    match_id: match_id.clone(),
                    games: Vec::new(),
                    finish,
                    eliminations: Vec::new(),
                })
                .await
                .map(drop)
        }
        "extend" => client
            .control_timer(timer(Action::Extend(pb::ExtendMatch {
                match_id: match_id.clone(),
                minutes: posted_number(form.value("minutes")),
            })))
            .await
            .map(drop),
        "fixTable" => client
            .change_registration(change(Change::FixedTable(posted_number(
                form.value("table"),
            ))))
            .await
            .map(drop),
        "stage" => {
            let swiss = form.rest.contains_key("pairing_style");
            client
                .update_tournament(pb::UpdateTournamentRequest {
                    id: id.clone(),
                    registration_open: None,
                    stages: vec![pb::StageSettingsPatch {
                        stage: posted_number(form.value("stage")),
                        pairing_style: form.rest.get("pairing_style").cloned(),
                        prevent_repeat_matchups: swiss
                            .then(|| form.rest.contains_key("prevent_repeat_matchups")),
                        round_minutes: Some(posted_number(form.value("round_minutes"))),
                    }],
                    deck_settings: None,
                })
                .await
                .map(drop)
        }
        "openRegistration" | "closeRegistration" => client
            .update_tournament(pb::UpdateTournamentRequest {
                id: id.clone(),
                registration_open: Some(form.action == "openRegistration"),
                stages: Vec::new(),
                deck_settings: None,
            })
            .await
            .map(drop),
        "unlock" => client
            .unlock_lineup(pb::UnlockLineupRequest {
                id: id.clone(),
                registration: registration.clone(),
            })
            .await
            .map(drop),
        "recheck" => client
            .recheck_lineup(pb::RecheckLineupRequest {
                id: id.clone(),
                registration: registration.clone(),
            })
            .await
            .map(drop),
        "removeWebhook" => client
            .remove_webhook(pb::RemoveWebhookRequest {
                id: id.clone(),
                webhook: form.webhook.clone(),
            })
            .await
            .map(drop),
        "addWebhook" => {
            let added = client
                .add_webhook(pb::AddWebhookRequest {
                    id: id.clone(),
                    url: form.url.trim().to_owned(),
                    events: Vec::new(),
                })
                .await
                .map_err(failed)?;
            return Ok(webhook_secret(&viewer, &id, Some(&added.secret), &[]));
        }
        other => {
            return Err(no_action(other, "in the console"));
        }
    };
    if let Err(error) = done {
        // The service's refusal (pairing before every result is in, advancing a stage still
        // running, a read-only token) is shown on the console, with its status.
        let api = refused(error)?;
        let page = console_page(&viewer, &calls, &id, Some(api.message())).await?;
        return again(&api, page);
    }
    Ok(Redirect::to(&format!("/tournaments/{}/manage", urlencode(&id))).into_response())
}

/// The page after adding a webhook (in the console, or with a new tournament): its signing
/// secret, shown only now, and anything that went wrong on the way (`problems`).
pub(super) fn webhook_secret(
    viewer: &Viewer,
    id: &str,
    secret: Option<&str>,
    problems: &[String],
) -> axum::response::Response {
    let manage = format!("/tournaments/{}/manage", urlencode(id));
    let title = if secret.is_some() {
        "Webhook added"
    } else {
        "Tournament created"
    };
    super::layout::page(
        viewer,
        title,
        html! {
            h1 { (title) }
            @for problem in problems { p class="error" role="alert" { (problem) } }
            @if let Some(secret) = secret {
                p { "The webhook's signing secret (the key of " code { "X-Turnier-Signature" } "). It is shown only now: keep it." }
                p class="copy-row" {
                    label for="webhook-secret" class="visually-hidden" { "Signing secret" }
                    input id="webhook-secret" readonly value=(secret) size="48";
                    " " button type="button" class="secondary small" data-copy="webhook-secret" hidden { "Copy" }
                }
            }
            // A query of its own: after a console form, this page's address is Manage's, and
            // a link to it with only a fragment added would not load it again.
            p { a class="button" href={ (manage) "?after=webhook#webhooks" } { "Manage the tournament" } }
        },
    )
    .into_response()
}

/// Every latest lineup the organizer sees (none when the tournament takes none).
async fn lineups(calls: &Calls, id: &str) -> Vec<Value> {
    let Ok(client) = calls.tournaments() else {
        return Vec::new();
    };
    client
        .list_lineups(pb::ListLineupsRequest { id: id.to_owned() })
        .await
        .map(|answer| items(proto::tournaments_json::lineups_answer(&answer), "lineups"))
        .unwrap_or_default()
}

/// The tournament's webhooks.
async fn webhooks(calls: &Calls, id: &str) -> Vec<Value> {
    let Ok(client) = calls.tournaments() else {
        return Vec::new();
    };
    client
        .list_webhooks(pb::ListWebhooksRequest { id: id.to_owned() })
        .await
        .map(|answer| {
            items(
                proto::tournaments_json::webhooks_answer(&answer),
                "webhooks",
            )
        })
        .unwrap_or_default()
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
                // Everyone else at the table: one opponent, or a lobby's others.
                let opponent = if bye {
                    "Bye".to_owned()
                } else {
                    let others: Vec<&str> = players
                        .iter()
                        .enumerate()
                        .filter(|(other, _)| *other != at)
                        .map(|(_, name)| name.as_str())
                        .collect();
                    others.join(", ")
                };
                lines.push((table.clone(), player.clone(), opponent));
            }
        } else {
            let second = if bye {
                "Bye".to_owned()
            } else {
                players
                    .get(1..)
                    .map(|rest| rest.join(", "))
                    .unwrap_or_default()
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
    let (headers, rows): (Vec<String>, Vec<Vec<String>>) = if by_name {
        (
            vec!["Player".into(), "Table".into(), "Opponent".into()],
            lines
                .into_iter()
                .map(|(table, first, second)| vec![first, table, second])
                .collect(),
        )
    } else {
        (
            vec!["Table".into(), "Player".into(), "Opponent".into()],
            lines
                .into_iter()
                .map(|(table, first, second)| vec![table, first, second])
                .collect(),
        )
    };
    Ok(printed(&title, "No round has been paired yet.", &headers, &rows).into_response())
}

/// The current stage's standings for the wall, 50 lines to a printed page: rank, player,
/// points, record and each tiebreaker by its short name.
async fn print_standings(calls: Calls, Path(id): Path<String>) -> PageResult {
    let tournament = read(&calls, &id).await?;
    let (lines, names) = super::tournaments::standing_lines(&calls, &id).await;
    let mut headers: Vec<String> = ["Rank", "Player", "Points", "Record"]
        .map(str::to_owned)
        .to_vec();
    headers.extend(
        names
            .iter()
            .map(|name| super::wording::tiebreaker_name(name).0.to_owned()),
    );
    let rows: Vec<Vec<String>> = lines
        .iter()
        .map(|line| {
            let mut row = vec![text(&line["rank"]), text(&line["displayName"])];
            if line["dropped"] == true {
                row[1].push_str(" (dropped)");
            }
            row.extend(super::tournaments::standing_cells(line, &names));
            row
        })
        .collect();
    let title = format!(
        "{} · standings after round {}",
        text(&tournament["name"]),
        text(&tournament["currentRound"])
    );
    Ok(printed(&title, "No standings yet.", &headers, &rows).into_response())
}

/// A page for the printer: the title, then the rows in tables of 50, each its own printed page
/// with the headers again.
fn printed(title: &str, empty: &str, headers: &[String], rows: &[Vec<String>]) -> Markup {
    super::layout::print_page(
        title,
        html! {
            h1 { (title) }
            @if rows.is_empty() { p { (empty) } }
            @for (page, chunk) in rows.chunks(PRINTED_LINES).enumerate() {
                table class="print-page" aria-label={ "Page " (page + 1) } {
                    thead { tr { @for header in headers { th scope="col" { (header) } } } }
                    tbody { @for row in chunk { tr { @for cell in row { td { (cell) } } } } }
                }
            }
        },
    )
}
