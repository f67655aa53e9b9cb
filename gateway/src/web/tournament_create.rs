//! `/{game}/tournaments/new`: an organizer creates a tournament — its name, the first stage's
//! format with its number of rounds and round time, a top cut (a single-elimination stage the
//! top 4 or 8 advance to), the participant cap and check-in; the game's defaults fill every
//! other setting, and the tournament's page shows them all. For Pokémon TCG the form suggests
//! the Play! Pokémon handbook's round count for the cap (the guide's table), with **Apply**.
//! The body is the API's (`proto::tournaments_json::create_request`), so the same checks apply.

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::extract::Path;
use axum::response::{IntoResponse, Redirect};
use axum::routing::get;
use axum::{Form, Router};
use maud::html;
use proto::game::Game;
use proto::tournaments_json::{self, CreateTournamentBody};
use serde::Deserialize;
use serde_json::{Value, json};

use super::answer::{PageResult, account_form, failed, known_game, signed_in};
use super::layout::{csrf_field, page, urlencode};
use super::session::Viewer;
use crate::auth::Calls;
use crate::state::AppState;

/// The create page's route.
pub fn routes() -> Router<AppState> {
    Router::new().route("/{game}/tournaments/new", get(form).post(create))
}

/// The Play! Pokémon handbook's Swiss round count for `players` (the guide's table); `None`
/// past 1,024 players.
pub fn pokemon_rounds(players: u32) -> Option<u32> {
    const TABLE: [(u32, u32); 12] = [
        (4, 3),
        (8, 3),
        (12, 4),
        (16, 5),
        (32, 5),
        (64, 6),
        (128, 7),
        (226, 8),
        (256, 9),
        (409, 9),
        (512, 10),
        (1024, 10),
    ];
    TABLE
        .iter()
        .find(|(most, _)| players <= *most)
        .map(|(_, rounds)| *rounds)
}

/// What the form holds.
#[derive(Debug, Deserialize)]
struct CreateForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    format: String,
    #[serde(default)]
    rounds: String,
    #[serde(default)]
    minutes: String,
    #[serde(default)]
    cut: String,
    #[serde(default)]
    max: String,
    check_in: Option<String>,
    /// `apply`: put the suggested round count in (no script needed).
    #[serde(default)]
    op: String,
}

impl Default for CreateForm {
    fn default() -> Self {
        CreateForm {
            csrf: String::new(),
            name: String::new(),
            format: "swiss".to_owned(),
            rounds: "5".to_owned(),
            minutes: "50".to_owned(),
            cut: String::new(),
            max: String::new(),
            check_in: None,
            op: String::new(),
        }
    }
}

const FORMATS: [(&str, &str); 4] = [
    ("swiss", "Swiss"),
    ("single_elimination", "Single elimination"),
    ("double_elimination", "Double elimination"),
    ("round_robin", "Round robin"),
];

fn render(
    viewer: &Viewer,
    game: Game,
    slug: &str,
    name: &str,
    form: &CreateForm,
    problem: Option<&str>,
) -> PageResult {
    let suggestion = (game == Game::Pokemon)
        .then(|| form.max.trim().parse::<u32>().ok().and_then(pokemon_rounds))
        .flatten();
    let title = format!("New {name} tournament");
    Ok(page(
        viewer,
        &title,
        html! {
            h1 { (title) }
            @if let Some(problem) = problem { p class="error" role="alert" id="form-error" { (problem) } }
            form method="post" action={ "/" (slug) "/tournaments/new" } class="stack wide" id="create-tournament" {
                (csrf_field(viewer))
                label for="tournament-name" { "Name" }
                input id="tournament-name" name="name" required maxlength="100" value=(form.name);
                label for="format" { "Format" }
                select id="format" name="format" {
                    @for (value, label) in FORMATS { option value=(value) selected[form.format == value] { (label) } }
                }
                label for="max" { "Maximum participants (empty: no cap)" }
                input id="max" name="max" inputmode="numeric" value=(form.max);
                label for="rounds" { "Number of rounds (Swiss)" }
                input id="rounds" name="rounds" inputmode="numeric" value=(form.rounds);
                @if game == Game::Pokemon {
                    p class="help" id="round-suggestion" {
                        @if let Some(rounds) = suggestion {
                            "The Play! Pokémon handbook suggests " strong { (rounds) } " rounds for " (form.max.trim()) " players. "
                            button type="submit" name="op" value="apply" class="secondary small" formnovalidate { "Apply" }
                        } @else {
                            "Set a maximum to see the handbook's round count for it, then Apply."
                            button type="submit" name="op" value="apply" class="secondary small" formnovalidate { "Suggest" }
                        }
                    }
                }
                label for="minutes" { "Round time (minutes)" }
                input id="minutes" name="minutes" inputmode="numeric" value=(form.minutes);
                label for="cut" { "Top cut" }
                select id="cut" name="cut" {
                    @for (value, label) in [("", "None"), ("4", "Top 4 (single elimination)"), ("8", "Top 8 (single elimination)")] {
                        option value=(value) selected[form.cut == value] { (label) }
                    }
                }
                label { input type="checkbox" name="check_in" value="on" checked[form.check_in.is_some()]; " Players check in before the first round" }
                p class="help" { "Every other setting takes the game's defaults; the tournament's page lists them all." }
                button type="submit" name="op" value="create" { "Create" }
            }
        },
    )
    .into_response())
}

async fn form(viewer: Viewer, Path(slug): Path<String>) -> PageResult {
    signed_in(&viewer)?;
    let (game, name) = known_game(&slug)?;
    render(&viewer, game, &slug, name, &CreateForm::default(), None)
}

/// The API's create body for the form.
fn body(form: &CreateForm) -> Value {
    let number = |text: &str| text.trim().parse::<u32>().ok();
    let mut settings = serde_json::Map::new();
    if form.format == "swiss"
        && let Some(rounds) = number(&form.rounds)
    {
        settings.insert("rounds".into(), json!(rounds));
    }
    if let Some(minutes) = number(&form.minutes) {
        settings.insert("round_minutes".into(), json!(minutes));
    }
    let mut stages = vec![json!({"format": form.format, "settings": settings})];
    let mut advancement = Vec::new();
    if let Some(cut) = number(&form.cut) {
        stages.push(json!({"format": "single_elimination"}));
        advancement.push(
            json!({"fromStage": 1, "placements": [1, cut], "action": "advance", "toStage": 2}),
        );
    }
    let mut out = json!({"name": form.name, "stages": stages, "advancement": advancement});
    if let Some(max) = number(&form.max) {
        out["maxParticipants"] = json!(max);
    }
    if form.check_in.is_some() {
        out["checkIn"] = json!(true);
    }
    out
}

async fn create(
    viewer: Viewer,
    calls: Calls,
    Path(slug): Path<String>,
    Form(mut form): Form<CreateForm>,
) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    let (game, name) = known_game(&slug)?;
    if form.op == "apply" {
        if let Some(rounds) = form.max.trim().parse::<u32>().ok().and_then(pokemon_rounds) {
            form.rounds = rounds.to_string();
        }
        return render(&viewer, game, &slug, name, &form, None);
    }
    let parsed: Result<CreateTournamentBody, _> = serde_json::from_value(body(&form));
    let request = parsed.map_err(|err| err.to_string()).and_then(|parsed| {
        tournaments_json::create_request(game, parsed).map_err(|err| err.to_string())
    });
    let request = match request {
        Ok(request) => request,
        Err(problem) => return render(&viewer, game, &slug, name, &form, Some(&problem)),
    };
    let created = calls
        .tournaments()
        .map_err(failed)?
        .create_tournament(request)
        .await;
    match created {
        Ok(answer) => {
            let id = answer
                .tournament
                .map(|tournament| tournament.id)
                .unwrap_or_default();
            Ok(Redirect::to(&format!("/tournaments/{}/manage", urlencode(&id))).into_response())
        }
        Err(error) => {
            let api = crate::ApiError::from(error);
            if api.status().is_server_error() {
                return Err(failed(api));
            }
            render(&viewer, game, &slug, name, &form, Some(api.message()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_handbooks_round_counts_follow_the_guides_table() {
        for (players, rounds) in [
            (4, 3),
            (8, 3),
            (9, 4),
            (13, 5),
            (16, 5),
            (33, 6),
            (129, 8),
            (227, 9),
            (257, 9),
            (410, 10),
            (1024, 10),
        ] {
            assert_eq!(pokemon_rounds(players), Some(rounds), "{players} players");
        }
        assert_eq!(pokemon_rounds(1025), None);
    }

    #[test]
    fn a_top_cut_adds_an_elimination_stage_the_top_advance_to() {
        let form = CreateForm {
            name: "Cup".into(),
            cut: "4".into(),
            max: "32".into(),
            ..CreateForm::default()
        };
        let written = body(&form);
        assert_eq!(written["stages"][1]["format"], "single_elimination");
        assert_eq!(written["advancement"][0]["placements"], json!([1, 4]));
        assert_eq!(written["stages"][0]["settings"]["rounds"], 5);
        assert_eq!(written["maxParticipants"], 32);
        let parsed: CreateTournamentBody = serde_json::from_value(written).expect("the API's body");
        assert!(tournaments_json::create_request(Game::Lor, parsed).is_ok());
    }
}
