//! `/tournaments/{id}/bracket`: each elimination stage of a tournament drawn as SVG we draw —
//! one column per round, one box per match with both players and their games, the winner in
//! bold, lines from a single-elimination match to the one its winner plays next. Like the
//! other tournament pages it follows the events stream.

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::Router;
use axum::extract::Path;
use axum::routing::get;
use maud::{Markup, html};
use proto::tournaments::v1 as pb;
use proto::tournaments_json;
use serde_json::Value;

use super::answer::{PageResult, failed};
use super::session::Viewer;
use super::tournaments::{frame, player_names, read, registrations};
use super::wording::{text, words};
use crate::auth::Calls;
use crate::state::AppState;

/// A match box's size and the gaps between columns and boxes.
const BOX_WIDTH: f64 = 180.0;
const BOX_HEIGHT: f64 = 44.0;
const COLUMN_GAP: f64 = 40.0;
const ROW_GAP: f64 = 16.0;

/// The bracket's route.
pub fn routes() -> Router<AppState> {
    Router::new().route("/tournaments/{id}/bracket", get(bracket))
}

/// A name cut to fit a box.
fn short(name: &str) -> String {
    if name.chars().count() <= 20 {
        name.to_owned()
    } else {
        name.chars().take(19).collect::<String>() + "…"
    }
}

/// One stage's rounds drawn: `rounds[r]` are round r+1's matches.
pub fn draw(format: &str, rounds: &[Vec<Value>], registrations: &[Value]) -> Markup {
    let tallest = rounds.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let height = tallest as f64 * (BOX_HEIGHT + ROW_GAP);
    let width = rounds.len().max(1) as f64 * (BOX_WIDTH + COLUMN_GAP);
    // A match's box: its column, and its place spread evenly down the column.
    let place = |round: usize, at: usize, count: usize| -> (f64, f64) {
        let slot = height / count.max(1) as f64;
        (
            round as f64 * (BOX_WIDTH + COLUMN_GAP),
            at as f64 * slot + (slot - BOX_HEIGHT) / 2.0,
        )
    };
    let single = format == "single_elimination";
    let summary = rounds
        .iter()
        .enumerate()
        .map(|(round, matches)| format!("round {}: {} matches", round + 1, matches.len()))
        .collect::<Vec<_>>()
        .join(", ");
    html! {
        svg class="bracket" viewBox={ "0 0 " (width) " " (height) } width=(width) height=(height)
            role="img" aria-label={ (words(format)) " bracket, " (summary) } {
            @for (round, matches) in rounds.iter().enumerate() {
                @for (at, played) in matches.iter().enumerate() {
                    @let (x, y) = place(round, at, matches.len());
                    @let players = player_names(played, registrations);
                    @let games: Vec<u64> = played["result"]["games"].as_array().into_iter().flatten().filter_map(Value::as_u64).collect();
                    @let decided = matches!(played["result"]["state"].as_str(), Some("confirmed" | "final"));
                    @let winner = (decided && games.len() == 2).then(|| usize::from(games[1] > games[0]));
                    g class="match" {
                        title { (players.join(" vs ")) @if games.len() == 2 { " (" (games[0]) "–" (games[1]) ")" } }
                        rect x=(x) y=(y) width=(BOX_WIDTH) height=(BOX_HEIGHT) rx="4" class="box" {}
                        line x1=(x) x2=(x + BOX_WIDTH) y1=(y + BOX_HEIGHT / 2.0) y2=(y + BOX_HEIGHT / 2.0) class="divider" {}
                        @for side in 0..2_usize {
                            @let name = if played["bye"] == true && side == 1 { "Bye".to_owned() } else { players.get(side).cloned().unwrap_or_default() };
                            text x=(x + 8.0) y=(y + 15.0 + side as f64 * 22.0) class=(if winner == Some(side) { "winner" } else { "" }) { (short(&name)) }
                            @if let Some(score) = games.get(side) {
                                text x=(x + BOX_WIDTH - 8.0) y=(y + 15.0 + side as f64 * 22.0) text-anchor="end" class="score" { (score) }
                            }
                        }
                        @if single && round + 1 < rounds.len() {
                            @let next_count = rounds[round + 1].len().max(matches.len().div_ceil(2));
                            @let (nx, ny) = place(round + 1, at / 2, next_count);
                            path class="link" d={ "M " (x + BOX_WIDTH) " " (y + BOX_HEIGHT / 2.0) " H " (x + BOX_WIDTH + COLUMN_GAP / 2.0) " V " (ny + BOX_HEIGHT / 2.0) " H " (nx) } {}
                        }
                    }
                }
            }
        }
    }
}

async fn bracket(viewer: Viewer, calls: Calls, Path(id): Path<String>) -> PageResult {
    let tournament = read(&calls, &id).await?;
    let registrations = registrations(&calls, &id).await;
    let client = calls.tournaments().map_err(failed)?;
    let mut drawn: Vec<(u64, String, Vec<Vec<Value>>)> = Vec::new();
    for stage in tournament["stages"].as_array().into_iter().flatten() {
        let format = text(&stage["format"]);
        if !format.ends_with("elimination") {
            continue;
        }
        let number = stage["number"].as_u64().unwrap_or(0);
        let mut rounds = Vec::new();
        for round in 1..=stage["rounds"].as_u64().unwrap_or(0) {
            let answer = client
                .get_round(pb::GetRoundRequest {
                    id: id.clone(),
                    stage: u32::try_from(number).unwrap_or(0),
                    number: u32::try_from(round).unwrap_or(0),
                })
                .await
                .map_err(failed)?;
            rounds.push(
                tournaments_json::round_answer(&answer)["round"]["matches"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default(),
            );
        }
        drawn.push((number, format, rounds));
    }
    let body = html! {
        @if drawn.is_empty() { p { "This tournament has no elimination stage." } }
        @for (number, format, rounds) in &drawn {
            section aria-labelledby={ "stage-" (number) } {
                h2 id={ "stage-" (number) } { "Stage " (number) ": " (words(format)) }
                @if rounds.is_empty() { p { "Not paired yet: the bracket appears once the stage begins." } }
                @else { div class="bracket-scroll" tabindex="0" aria-label="The bracket (scrolls sideways)" { (draw(format, rounds, &registrations)) } }
            }
        }
    };
    frame(&viewer, &tournament, "/bracket", "Bracket", body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_four_player_bracket_draws_three_boxes_two_links_and_bolds_the_winners() {
        let registrations = vec![
            json!({"id": "r1", "displayName": "Ana"}),
            json!({"id": "r2", "displayName": "<Ben>"}),
            json!({"id": "r3", "displayName": "Cam"}),
            json!({"id": "r4", "displayName": "Dee"}),
        ];
        let rounds = vec![
            vec![
                json!({"players": ["r1", "r4"], "result": {"games": [2, 0], "state": "final"}}),
                json!({"players": ["r2", "r3"], "result": {"games": [1, 2], "state": "confirmed"}}),
            ],
            vec![json!({"players": ["r1", "r3"]})],
        ];
        let svg = draw("single_elimination", &rounds, &registrations).into_string();
        assert_eq!(svg.matches("<rect").count(), 3, "{svg}");
        assert_eq!(svg.matches("class=\"link\"").count(), 2, "{svg}");
        assert_eq!(svg.matches("class=\"winner\"").count(), 2, "{svg}");
        assert!(
            svg.contains("&lt;Ben&gt;") && !svg.contains("<Ben>"),
            "{svg}"
        );
    }
}
