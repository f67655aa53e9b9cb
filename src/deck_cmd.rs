//! `turnier deck decode` and `turnier deck encode`: binary deck codes from the command line,
//! converted in this process (no server needed).
//!
//! The JSON is the reference libraries' shape, which the codecs in `decks::domain::codes`
//! serialise: `{"main":[{"cardCode":…,"count":…}],"sideboard":[…],"chosenChampion":null,
//! "version":2}` (`chosenChampion` only for Riftbound). Success prints one JSON line on stdout;
//! a failure prints `{"error":"…"}` on stdout, the same message on stderr, and exits 1.

use std::io::Read as _;

use anyhow::Context as _;
use clap::Subcommand;
use decks::domain::codes::{lor, riftbound};

/// `turnier deck …`
#[derive(Debug, Subcommand)]
pub enum DeckCommand {
    /// Decodes a deck code and prints the deck as JSON.
    Decode {
        /// lor or riftbound (the Piltover Archive code).
        #[arg(long)]
        game: String,
        /// The deck code.
        code: String,
    },
    /// Reads a deck as JSON on stdin (what `deck decode` prints) and prints {"code":"…"}.
    Encode {
        /// lor or riftbound (the Piltover Archive code).
        #[arg(long)]
        game: String,
        /// The code version to write; without it, the lowest version that carries the deck
        /// (for Riftbound never below 2).
        #[arg(long, value_name = "N")]
        version: Option<u8>,
    },
    /// Reads any supported deck code or list on stdin and prints the cards by pile, the format
    /// that read it and every skipped line (cards found in the local catalog).
    Import {
        /// lor, pokemon or riftbound.
        #[arg(long)]
        game: String,
        /// A single-deck layout: the sideboard is left out, with a warning saying how many cards.
        #[arg(long)]
        single_deck: bool,
    },
}

/// A game that has a binary deck code.
#[derive(Debug, Clone, Copy)]
enum CodeGame {
    Lor,
    Riftbound,
}

impl CodeGame {
    fn parse(game: &str) -> anyhow::Result<Self> {
        match game {
            "lor" => Ok(Self::Lor),
            "riftbound" => Ok(Self::Riftbound),
            "pokemon" => {
                anyhow::bail!("--game pokemon has no binary deck code: use lor or riftbound")
            }
            other => anyhow::bail!("--game `{other}` is not lor or riftbound"),
        }
    }
}

/// `turnier deck import`, which needs the catalog; the other commands are pure.
pub use crate::deck_import::run as import;

/// Runs `turnier deck …`.
pub fn run(command: DeckCommand) -> anyhow::Result<()> {
    match answer(command) {
        Ok(json) => {
            outln!("{json}");
            Ok(())
        }
        Err(err) => {
            let message = format!("{err:#}");
            outln!("{}", serde_json::json!({ "error": message }));
            // `main` prints the message on stderr too, and exits 1.
            Err(err)
        }
    }
}

/// Returns the JSON the command prints on success.
fn answer(command: DeckCommand) -> anyhow::Result<serde_json::Value> {
    match command {
        DeckCommand::Decode { game, code } => decode(CodeGame::parse(&game)?, code.trim()),
        // Routed to `import` by the command line before it gets here: it needs the catalog.
        DeckCommand::Import { .. } => anyhow::bail!("`deck import` needs the catalog"),
        DeckCommand::Encode { game, version } => {
            let game = CodeGame::parse(&game)?;
            let mut input = String::new();
            std::io::stdin()
                .read_to_string(&mut input)
                .context("cannot read the deck JSON on stdin")?;
            let code = encode(game, &input, version)?;
            Ok(serde_json::json!({ "code": code }))
        }
    }
}

fn decode(game: CodeGame, code: &str) -> anyhow::Result<serde_json::Value> {
    let json = match game {
        CodeGame::Lor => serde_json::to_value(lor::decode(code)?),
        CodeGame::Riftbound => serde_json::to_value(riftbound::decode(code)?),
    };
    json.context("cannot write the deck as JSON")
}

fn encode(game: CodeGame, input: &str, version: Option<u8>) -> anyhow::Result<String> {
    // Unknown fields (such as the `version` that `deck decode` prints) are ignored, so a
    // decoded deck can be piped straight back.
    Ok(match game {
        CodeGame::Lor => {
            let deck: lor::LorDeck =
                serde_json::from_str(input).context("stdin is not a deck as JSON")?;
            match version {
                Some(version) => lor::encode_as(&deck, version)?,
                None => lor::encode(&deck)?,
            }
        }
        CodeGame::Riftbound => {
            let deck: riftbound::RiftboundDeck =
                serde_json::from_str(input).context("stdin is not a deck as JSON")?;
            match version {
                Some(version) => riftbound::encode_as(&deck, version)?,
                None => riftbound::encode(&deck)?,
            }
        }
    })
}
