//! `turnier tournament standings`: standings of an event read on stdin, computed in this
//! process (no server needed), in the event format issue 8 documents.
//!
//! Success prints one JSON line, `{"standings": [{"rank", "player", "points", "record",
//! "tiebreakers", "match_win_percentage"}, …]}`. An event that cannot be read or is refused
//! prints `{"error": {"code": "invalid_event", "message"}}` on stdout, the message on stderr,
//! and exits 1.

use std::io::Read as _;

use anyhow::Context as _;
use clap::Subcommand;
use tournaments::domain::{Event, standings};

/// `turnier tournament …`
#[derive(Debug, Subcommand)]
pub enum TournamentCommand {
    /// Reads an event on stdin and prints its standings as JSON.
    ///
    /// The event is {"settings": {"points": {"win", "draw", "loss", "bye"}, "bye_handling",
    /// "tiebreakers", "match_win_formula", "opponent_match_win_floor", "game_win_floor"},
    /// "players": [{"id", "seed"}], "rounds": [[{"players": [a, b], "games": [2, 0]},
    /// {"players": [c], "bye": true}, {"players": [d], "late_loss": true}]]}.
    Standings,
}

/// Runs `turnier tournament …`.
pub fn run(command: TournamentCommand) -> anyhow::Result<()> {
    match answer(command) {
        Ok(json) => {
            println!("{json}");
            Ok(())
        }
        Err(err) => {
            let message = format!("{err:#}");
            let error = serde_json::json!({"error": {"code": "invalid_event", "message": message}});
            println!("{error}");
            // `main` prints the message on stderr too, and exits 1.
            Err(err)
        }
    }
}

/// Returns the JSON the command prints on success.
fn answer(command: TournamentCommand) -> anyhow::Result<String> {
    match command {
        TournamentCommand::Standings => {
            let mut input = String::new();
            std::io::stdin()
                .read_to_string(&mut input)
                .context("cannot read the event on stdin")?;
            let event = Event::from_json(&input)?;
            serde_json::to_string(&standings(&event)).context("cannot write the standings")
        }
    }
}
