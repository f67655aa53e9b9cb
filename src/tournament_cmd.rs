//! `turnier tournament …`: the tournament engine offline, on an event read on stdin, computed in
//! this process (no server needed), in the event format issue 8 documents.
//!
//! - `standings` prints `{"standings": [{"rank", "player", "points", "record", "tiebreakers",
//!   "match_win_percentage"}, …]}`. Given a free-for-all event (one with `matches` of lobby
//!   results), it prints `{"standings": [{"rank", "player", "points", "matches"}]}` and, for
//!   Threshold Win, each lobby's winner so far under `"lobbies"`.
//! - `pair` prints the next round: `{"format", "round", "pairings": [{"table", "players"},
//!   {"players": [p], "bye": true}], …}`, or a free-for-all stage's next lobbies
//!   `{"format", "match", "lobbies": [{"lobby", "players"}]}`. The stage config comes from
//!   `--stage` (a JSON object, or a file holding one) or from a `"stage"` member of the input.
//!
//! Reading the input, and every message about its JSON, is `tournaments::offline`; this module
//! calls the domain and prints. An input that cannot be read or is refused prints
//! `{"error": {"code", "message"}}` on stdout (`invalid_event`, `invalid_stage` or
//! `cannot_pair`), the message on stderr, and exits 1.

use std::io::Read as _;

use anyhow::Context as _;
use clap::Subcommand;
use serde_json::{Value, json};
use tournaments::domain::defaults::Format;
use tournaments::domain::free_for_all;
use tournaments::domain::next_round::{self, NextRoundError};
use tournaments::domain::round_robin::RoundRobinError;
use tournaments::domain::standings;
use tournaments::domain::swiss::PairingError;
use tournaments::offline::{self, EventFile, PairInput, PairInputError};

/// `turnier tournament …`
#[derive(Debug, Subcommand)]
pub enum TournamentCommand {
    /// Reads an event on stdin and prints its standings as JSON.
    ///
    /// The event is {"settings": {"points": {"win", "draw", "loss", "bye"}, "bye_handling",
    /// "tiebreakers", "match_win_formula", "opponent_match_win_floor", "game_win_floor"},
    /// "players": [{"id", "seed"}], "rounds": [[{"players": [a, b], "games": [2, 0]},
    /// {"players": [c], "bye": true}, {"players": [d], "late_loss": true}]]}. A free-for-all
    /// event is {"format", "settings", "players", "matches": [[{"lobby": [..], "finish": [..]}]]}.
    Standings,
    /// Reads an event on stdin and prints the next round's pairings as JSON.
    ///
    /// The stage config names the `format` (swiss, single_elimination, double_elimination,
    /// round_robin; cumulative_points and threshold_win read a free-for-all event), the event's
    /// `seed`, the prior stage's order `prior_stage`, and any of the format's settings
    /// (e.g. {"format": "swiss", "seed": 7, "rounds": 5, "pairing_style": "fold"}).
    Pair {
        /// The stage config: a JSON object, or the path of a file holding one. Without it,
        /// the input's "stage" member is used.
        #[arg(long, value_name = "JSON|FILE")]
        stage: Option<String>,
    },
}

/// A failure of the command, with the code it prints.
struct Failure {
    code: &'static str,
    error: anyhow::Error,
}

impl Failure {
    fn new(code: &'static str, error: impl Into<anyhow::Error>) -> Self {
        Self {
            code,
            error: error.into(),
        }
    }
}

/// Runs `turnier tournament …`.
pub fn run(command: TournamentCommand) -> anyhow::Result<()> {
    match answer(command) {
        Ok(json) => {
            outln!("{json}");
            Ok(())
        }
        Err(Failure { code, error }) => {
            let message = format!("{error:#}");
            outln!("{}", json!({"error": {"code": code, "message": message}}));
            // `main` prints the message on stderr too, and exits 1.
            Err(error)
        }
    }
}

/// Returns the JSON the command prints on success.
fn answer(command: TournamentCommand) -> Result<String, Failure> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .context("cannot read the event on stdin")
        .map_err(|err| Failure::new("invalid_event", err))?;
    match command {
        TournamentCommand::Standings => standings_json(&input),
        TournamentCommand::Pair { stage } => Ok(pair_json(&input, stage.as_deref())?.to_string()),
    }
}

/// The standings as JSON text; a one-on-one table is written straight from the typed rows
/// (thousands of them in a large event), not through a `Value`.
fn standings_json(input: &str) -> Result<String, Failure> {
    match offline::read_event_file(input).map_err(invalid_event)? {
        EventFile::OneOnOne(event) => {
            serde_json::to_string(&standings(&event)).map_err(|err| Failure::new("internal", err))
        }
        EventFile::FreeForAll(event) => {
            let table = free_for_all::standings(&event).map_err(invalid_event)?;
            let mut printed = json!({"standings": table});
            if event.format == Format::ThresholdWin {
                let lobbies = free_for_all::threshold_winners(&event).map_err(invalid_event)?;
                printed["lobbies"] = json!(lobbies);
            }
            Ok(printed.to_string())
        }
    }
}

fn pair_json(input: &str, stage: Option<&str>) -> Result<Value, Failure> {
    let input = offline::read_pair_input(input, stage).map_err(|err| match err {
        PairInputError::Event(err) => Failure::new("invalid_event", err),
        PairInputError::Stage(err) => Failure::new("invalid_stage", err),
    })?;
    match input {
        PairInput::OneOnOne { event, stage } => {
            let next = next_round::next_round(&event, &stage).map_err(cannot_pair)?;
            Ok(json!(next))
        }
        PairInput::FreeForAll { event, seed } => {
            let next = next_round::next_lobbies(&event, seed).map_err(cannot_pair)?;
            Ok(json!(next))
        }
    }
}

fn invalid_event(err: impl Into<anyhow::Error>) -> Failure {
    Failure::new("invalid_event", err)
}

/// A refused stage setting is `invalid_stage`, a refused event `invalid_event`; anything else
/// stopping the round `cannot_pair`.
fn cannot_pair(err: NextRoundError) -> Failure {
    let code = match &err {
        NextRoundError::FreeForAllStageOfRounds(_)
        | NextRoundError::Swiss(PairingError::Settings(_))
        | NextRoundError::RoundRobin(RoundRobinError::Settings(_)) => "invalid_stage",
        NextRoundError::Swiss(PairingError::Event(_))
        | NextRoundError::RoundRobin(RoundRobinError::Event(_)) => "invalid_event",
        NextRoundError::Swiss(_)
        | NextRoundError::RoundRobin(_)
        | NextRoundError::Elimination(_)
        | NextRoundError::FreeForAll(_) => "cannot_pair",
    };
    Failure::new(code, err)
}
