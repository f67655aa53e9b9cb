//! `turnier calculator build|run`: the no-code builder's script generation, in process, and a
//! run of a calculator of a running platform over gRPC
//! (`turnier.calculators.v1.CalculatorService`).
//!
//! - `build --game G [FILE]` reads a builder spec (version 1, JSON) from FILE or stdin and
//!   prints the script the builder generates from it, marker line first (`--json`:
//!   `{"source"}`); the same spec always gives the same bytes.
//! - `run --game G ID` runs a calculator (a default such as `pokemon-deck-breakdown`, yours, or
//!   a public one) on the deck read as JSON on stdin, `{"pile": {ref: copies}}` or
//!   `{"decks": [pile, ...]}` (a deck set, counted as one deck), and prints `{"widgets"}` as
//!   the HTTP API does.
//!
//! A refusal prints `{"error": {"code", "message"}}` and exits 1.

use calculators::domain::generate::generate;
use calculators::domain::spec::Spec;
use clap::Subcommand;
use kit::clients::CalculatorsClient;
use proto::calculators::v1 as pb;
use serde_json::{Value, json};

use crate::server_cmd::{self, Connection, Refusal, game, read_input, refused};

/// `turnier calculator …`
#[derive(Debug, Subcommand)]
pub enum CalculatorCommand {
    /// Generates the script of a builder spec (in process; no server).
    ///
    /// Reads {"widgets": [...]} from FILE (or stdin) and prints the script; --json prints
    /// {"source"}.
    Build {
        /// lor, pokemon or riftbound: the game whose card fields the spec names.
        #[arg(long)]
        game: String,
        /// The spec file; without it, stdin.
        file: Option<std::path::PathBuf>,
        /// Prints {"source"} instead of the script alone.
        #[arg(long)]
        json: bool,
    },
    /// Runs a calculator of a running platform on the deck read as JSON on stdin.
    ///
    /// stdin: {"pile": {ref: copies}} or {"decks": [pile, ...]}. Prints {"widgets"}.
    Run {
        /// lor, pokemon or riftbound.
        #[arg(long)]
        game: String,
        /// A default's id (pokemon-deck-breakdown) or a calculator's (calc_…).
        id: String,
        #[command(flatten)]
        connection: Connection,
    },
}

/// Runs `turnier calculator …`.
pub async fn run(command: CalculatorCommand) -> anyhow::Result<()> {
    server_cmd::print(answer(command).await)
}

async fn answer(command: CalculatorCommand) -> Result<String, Refusal> {
    match command {
        CalculatorCommand::Build {
            game: name,
            file,
            json,
        } => {
            let game = game(&name)?;
            let text = read_input(file.as_deref())?;
            let spec =
                Spec::parse(game, &text).map_err(|err| refused("invalid_spec", err.to_string()))?;
            let source = generate(game, &spec);
            Ok(if json {
                json!({ "source": source }).to_string()
            } else {
                source.trim_end().to_owned()
            })
        }
        CalculatorCommand::Run {
            game: name,
            id,
            connection,
        } => {
            let game = game(&name)?;
            let input: Value = serde_json::from_str(&read_input(None)?)
                .map_err(|err| refused("invalid_argument", format!("stdin is not JSON: {err}")))?;
            let deck = match (input.get("pile"), input.get("decks")) {
                (Some(pile @ Value::Object(_)), None) => {
                    pb::run_calculator_request::Deck::PileJson(pile.to_string())
                }
                (None, Some(Value::Array(decks))) => {
                    pb::run_calculator_request::Deck::Decks(pb::DeckSetPiles {
                        pile_json: decks.iter().map(Value::to_string).collect(),
                    })
                }
                _ => {
                    return Err(refused(
                        "invalid_argument",
                        "stdin: give {\"pile\": {ref: copies}} or {\"decks\": [pile, ...]}",
                    ));
                }
            };
            let client = CalculatorsClient::connect_lazy(&connection.server)
                .map_err(|err| refused("invalid_argument", format!("--server: {err}")))?
                .with_bearer(connection.bearer());
            let response = client
                .run_calculator(pb::RunCalculatorRequest {
                    game: proto::game::to_wire(game),
                    id,
                    deck: Some(deck),
                    source: None,
                })
                .await?;
            Ok(proto::json::dashboard(&response.dashboard.unwrap_or_default()).to_string())
        }
    }
}
