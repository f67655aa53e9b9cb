//! `turnier tournament …`: the tournament engine offline, on an event read on stdin, computed in
//! this process (no server needed), in the event format issue 8 documents; and the tournaments
//! of a running platform, over gRPC ([`server`]).
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
//! Given a tournament ID, `standings` and `pair` ask the platform instead (`--server`), as
//! the other server commands (`create`, `show`, `register`, `start`, `report`, `drop`,
//! `advance`, `export`) do; those are [`server`]'s.
//!
//! Reading the input, and every message about its JSON, is `tournaments::offline`; this module
//! calls the domain and prints. Offline, an input that cannot be read or is refused prints
//! `{"error": {"code", "message"}}` on stdout (`invalid_event`, `invalid_stage` or
//! `cannot_pair`), the message on stderr, and exits 1.

mod server;

use std::io::Read as _;
use std::path::PathBuf;

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

use crate::server_cmd::{self, Connection};

/// `turnier tournament …`
#[derive(Debug, Subcommand)]
pub enum TournamentCommand {
    /// Prints the standings of an event read on stdin, or with ID, of a tournament on the
    /// platform.
    ///
    /// The event is {"settings": {"points": {"win", "draw", "loss", "bye"}, "bye_handling",
    /// "tiebreakers", "match_win_formula", "opponent_match_win_floor", "game_win_floor"},
    /// "players": [{"id", "seed"}], "rounds": [[{"players": [a, b], "games": [2, 0]},
    /// {"players": [c], "bye": true}, {"players": [d], "late_loss": true}]]}. A free-for-all
    /// event is {"format", "settings", "players", "matches": [[{"lobby": [..], "finish": [..]}]]}.
    ///
    /// With ID, prints the platform's {"stage", "standings"} and reads nothing.
    Standings {
        /// A tournament on the platform (--server); without it, the event is read on stdin.
        id: Option<String>,
        /// With ID: the stage, from 1; without it, the current one.
        #[arg(long, value_name = "K", requires = "id")]
        stage: Option<u32>,
        #[command(flatten)]
        connection: Connection,
    },
    /// Prints the next round's pairings of an event read on stdin, or with ID, pairs the next
    /// round of a tournament on the platform.
    ///
    /// The stage config names the `format` (swiss, single_elimination, double_elimination,
    /// round_robin; cumulative_points and threshold_win read a free-for-all event), the event's
    /// `seed`, the prior stage's order `prior_stage`, and any of the format's settings
    /// (e.g. {"format": "swiss", "seed": 7, "rounds": 5, "pairing_style": "fold"}).
    ///
    /// With ID (organizers), the platform pairs its current stage's next round and this prints
    /// {"round"}.
    Pair {
        /// A tournament on the platform (--server); without it, the event is read on stdin.
        id: Option<String>,
        /// The stage config: a JSON object, or the path of a file holding one. Without it,
        /// the input's "stage" member is used.
        #[arg(long, value_name = "JSON|FILE", conflicts_with = "id")]
        stage: Option<String>,
        #[command(flatten)]
        connection: Connection,
    },
    /// Creates a tournament on the platform, organized by you. Prints {"tournament"}.
    ///
    /// The file holds the HTTP API's body: {"name", "stages": [{"format", "settings"?}],
    /// "advancement"?: [{"fromStage", "placements": [from, to] | "points": [min, max],
    /// "action", "toStage"?}], "maxParticipants"?, "checkIn"?, "seed"?, "cutTiebreaker"?}.
    Create {
        /// lor, pokemon or riftbound.
        #[arg(long)]
        game: String,
        /// The tournament's JSON; `-` reads stdin.
        #[arg(long, value_name = "FILE")]
        file: PathBuf,
        #[command(flatten)]
        connection: Connection,
    },
    /// Shows a tournament on the platform. Prints {"tournament"}.
    Show {
        /// The tournament.
        id: String,
        #[command(flatten)]
        connection: Connection,
    },
    /// Signs you up for a tournament, or (organizers) a guest by name. Prints
    /// {"registration"}.
    Register {
        /// The tournament.
        id: String,
        /// Signs up a guest with this display name instead of you.
        #[arg(long, value_name = "NAME")]
        guest: Option<String>,
        #[command(flatten)]
        connection: Connection,
    },
    /// Organizers: starts a tournament (its first stage, with the players then in it).
    /// Prints {"tournament"}.
    Start {
        /// The tournament.
        id: String,
        #[command(flatten)]
        connection: Connection,
    },
    /// Reports a match's result: the games won by its players[0] and players[1] (or, for a
    /// free-for-all lobby, `--finish` with each player's finish). A player's report waits for
    /// the opponent's confirmation; an organizer's is final. Prints {"match"}.
    Report {
        /// The tournament.
        id: String,
        /// The match.
        match_id: String,
        /// Games won by the match's players[0].
        #[arg(value_name = "A", required_unless_present = "finish")]
        games_a: Option<u32>,
        /// Games won by the match's players[1].
        #[arg(value_name = "B", required_unless_present = "finish")]
        games_b: Option<u32>,
        /// A free-for-all lobby (organizers): each player's finish from 1, in the lobby's
        /// order, comma-separated (`1,2,2,4`).
        #[arg(long, value_delimiter = ',', conflicts_with_all = ["games_a", "games_b"])]
        finish: Vec<u32>,
        /// With `--finish`: the opponents each player eliminated, comma-separated.
        #[arg(long, value_delimiter = ',', requires = "finish")]
        eliminations: Vec<u32>,
        #[command(flatten)]
        connection: Connection,
    },
    /// Drops a player from a tournament: yourself, or (organizers) anyone. Prints
    /// {"registration"}.
    Drop {
        /// The tournament.
        id: String,
        /// The registration id.
        registration: String,
        #[command(flatten)]
        connection: Connection,
    },
    /// Organizers: applies the complete stage's advancement rules and starts the next stage,
    /// or finishes the tournament. Prints {"tournament"}.
    Advance {
        /// The tournament.
        id: String,
        #[command(flatten)]
        connection: Connection,
    },
    /// Prints a stage of a tournament on the platform as the offline commands read it,
    /// {"event", "stage"}.
    ///
    /// With --out-dir, also writes event.json and stage.json there, so that
    /// `turnier tournament standings < event.json` and
    /// `turnier tournament pair --stage stage.json < event.json` run offline.
    Export {
        /// The tournament.
        id: String,
        /// The stage, from 1.
        #[arg(long, value_name = "K")]
        stage: u32,
        /// A directory for event.json and stage.json (created if missing).
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
        #[command(flatten)]
        connection: Connection,
    },
}

/// Runs `turnier tournament …`: `standings` and `pair` without an ID in process, everything
/// else on the platform.
pub async fn run(command: TournamentCommand) -> anyhow::Result<()> {
    match command {
        TournamentCommand::Standings { id: None, .. } => run_offline(Offline::Standings),
        TournamentCommand::Pair {
            id: None, stage, ..
        } => run_offline(Offline::Pair { stage }),
        command => server_cmd::print(server::answer(command).await),
    }
}

/// The commands computed in this process, on an event read on stdin.
enum Offline {
    Standings,
    Pair { stage: Option<String> },
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

fn run_offline(command: Offline) -> anyhow::Result<()> {
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
fn answer(command: Offline) -> Result<String, Failure> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .context("cannot read the event on stdin")
        .map_err(|err| Failure::new("invalid_event", err))?;
    match command {
        Offline::Standings => standings_json(&input),
        Offline::Pair { stage } => Ok(pair_json(&input, stage.as_deref())?.to_string()),
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
