//! `turnier script …`: the static safety check and sandboxed runs of a ruleset or calculator
//! script, in this process (no server needed), with the interface issue 7 documents.
//!
//! - `check FILE` prints `{"safe": bool, "issues": [{"code", "message", "line", "column"}]}`
//!   and exits 1 when the script is rejected (by the static check, or because the engine
//!   cannot compile it).
//! - `run FILE --kind <card|deck|deckset|calculator|card-pool|pool-filters>` reads the
//!   arguments as JSON on stdin (`{"card"}`, `{"deck", "cardsById"}`, `{"decks",
//!   "cardsById"}`, `{"pile", "cardsById"}`, `{"cards"}` or `{"game"}` (every card of the
//!   local catalog), `{"input", "game"}`, each with an optional `"context"`) and prints the
//!   normalized result: `{"valid", "issues"}` for a rule, `{"widgets"}` for a calculator,
//!   `{"verdicts"}` for a card pool (each with the card's `cardId` when it has an id),
//!   `{"patch"}` for pool filters. A script that is rejected, throws, has no entry point, or runs out of time or
//!   memory prints `{"error": {"code", "message"}}` and exits 1.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::{Subcommand, ValueEnum};
use scripts::catalog_pool::CardPool;
use scripts::domain::pool_filters::Game;
use scripts::runner::{RunFailure, Runner, ScriptRef, TimeLimits, Verdict};
use scripts::sandbox::Limits;
use serde_json::{Map, Value, json};

use crate::local::LocalCatalogSettings;

/// `turnier script …`
#[derive(Debug, Subcommand)]
pub enum ScriptCommand {
    /// Runs the safety check on a script file and prints its issues as JSON; a script the
    /// static check passes is also compiled, and one that cannot be is rejected with why.
    ///
    /// Prints {"safe": bool, "issues": [{"code": "unsafe_global", "message", "line",
    /// "column"}]}; exits 1 when the script is rejected.
    Check {
        /// The script file.
        file: PathBuf,
    },
    /// Runs a script in the sandbox with the arguments read as JSON on stdin.
    ///
    /// stdin: {"card"} (card), {"deck", "cardsById"} (deck), {"decks", "cardsById"} (deckset),
    /// {"pile", "cardsById"} (calculator), {"cards"} or {"game"} (card-pool; a game runs over
    /// every card of the local catalog), {"input", "game"} (pool-filters); each may add
    /// "context". Prints the normalized result, or {"error":
    /// {"code", "message"}} and exits 1.
    Run {
        /// The script file.
        file: PathBuf,
        /// Which entry point to run.
        #[arg(long, value_enum)]
        kind: Kind,
        /// The run's time limit in milliseconds (default: the spec's 15 s for rules, 5 s for
        /// calculators).
        #[arg(long, value_name = "MS")]
        timeout_ms: Option<u64>,
    },
}

/// The kinds of run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Kind {
    /// A card rule on one card.
    Card,
    /// A deck rule on one deck.
    Deck,
    /// A deck set rule on a lineup.
    Deckset,
    /// A calculator on a pile.
    Calculator,
    /// A card rule over many cards in one run.
    CardPool,
    /// A deck rule's resolvePoolFilters hook.
    PoolFilters,
}

/// Runs `turnier script …`; the sandbox runs on a blocking thread.
pub async fn run(
    local: &LocalCatalogSettings,
    settings: &scripts::Settings,
    command: ScriptCommand,
) -> anyhow::Result<()> {
    let local = local.clone();
    let limits = Limits {
        compile_cache: settings.compile_cache(),
        ..Limits::default()
    };
    let (printed, failed) = tokio::task::spawn_blocking(move || answer(&local, limits, command))
        .await
        .context("the script run stopped")?;
    outln!("{printed}");
    match failed {
        // `main` prints the message on stderr too, and exits 1.
        Some(message) => Err(anyhow::anyhow!(message)),
        None => Ok(()),
    }
}

/// Returns what the command prints, and the failure message when it exits 1.
fn answer(
    local: &LocalCatalogSettings,
    limits: Limits,
    command: ScriptCommand,
) -> (Value, Option<String>) {
    match command {
        ScriptCommand::Check { file } => match std::fs::read_to_string(&file) {
            Ok(source) => {
                // The same check as the service's: a script the static check passes is also
                // compiled, so "safe" means it can run.
                let checked = Runner::new(limits, TimeLimits::default())
                    .map_err(|err| err.to_string())
                    .and_then(|runner| runner.check(&source).map_err(|err| err.to_string()));
                let report = match checked {
                    Ok(checked) => checked.report,
                    Err(message) => return error("internal", &message),
                };
                let failed = (!report.safe).then(|| {
                    format!(
                        "{} is not safe: {} issue(s)",
                        file.display(),
                        report.issues.len()
                    )
                });
                (json!(report), failed)
            }
            Err(err) => error(
                "unreadable_file",
                &format!("cannot read {}: {err}", file.display()),
            ),
        },
        ScriptCommand::Run {
            file,
            kind,
            timeout_ms,
        } => match run_script(local, limits, &file, kind, timeout_ms) {
            Ok(printed) => (printed, None),
            Err(Failure { code, message }) => error(code, &message),
        },
    }
}

/// What a run that failed prints.
struct Failure {
    code: &'static str,
    message: String,
}

impl From<RunFailure> for Failure {
    fn from(err: RunFailure) -> Self {
        Self {
            code: err.code(),
            message: err.to_string(),
        }
    }
}

fn invalid_input(message: impl Into<String>) -> Failure {
    Failure {
        code: "invalid_input",
        message: message.into(),
    }
}

fn error(code: &str, message: &str) -> (Value, Option<String>) {
    (
        json!({"error": {"code": code, "message": message}}),
        Some(message.to_owned()),
    )
}

fn run_script(
    local: &LocalCatalogSettings,
    limits: Limits,
    file: &Path,
    kind: Kind,
    timeout_ms: Option<u64>,
) -> Result<Value, Failure> {
    let source = std::fs::read_to_string(file).map_err(|err| Failure {
        code: "unreadable_file",
        message: format!("cannot read {}: {err}", file.display()),
    })?;
    let mut stdin = String::new();
    std::io::stdin()
        .read_to_string(&mut stdin)
        .map_err(|err| invalid_input(format!("cannot read the arguments on stdin: {err}")))?;
    let mut input = match serde_json::from_str::<Value>(&stdin) {
        Ok(Value::Object(input)) => input,
        Ok(_) => {
            return Err(invalid_input(
                "the arguments on stdin must be a JSON object",
            ));
        }
        Err(err) => return Err(invalid_input(format!("the arguments are not JSON: {err}"))),
    };
    let mut times = TimeLimits::default();
    if let Some(ms) = timeout_ms {
        let time = std::time::Duration::from_millis(ms);
        times = TimeLimits {
            rule: time,
            card_pool: time,
            calculator: time,
        };
    }
    let runner = Runner::new(limits, times).map_err(|err| Failure {
        code: "internal",
        message: err.to_string(),
    })?;
    let script = ScriptRef::Source(source);
    let context = input.remove("context");
    let printed = match kind {
        Kind::Card => {
            let card = take(&mut input, "card")?;
            proto::json::rule_result(&runner.card_rule(&script, card, context)?)
        }
        Kind::Deck => {
            let deck = take(&mut input, "deck")?;
            let cards = take(&mut input, "cardsById")?;
            proto::json::rule_result(&runner.deck_rule(&script, deck, cards, context)?)
        }
        Kind::Deckset => {
            let decks = take(&mut input, "decks")?;
            let cards = take(&mut input, "cardsById")?;
            proto::json::rule_result(&runner.deckset_rule(&script, decks, cards, context)?)
        }
        Kind::Calculator => {
            let pile = take(&mut input, "pile")?;
            let cards = take(&mut input, "cardsById")?;
            proto::json::dashboard(&runner.calculator(&script, pile, cards, context)?)
        }
        Kind::CardPool => {
            let pool = match (input.remove("cards"), input.remove("game")) {
                (Some(Value::Array(cards)), None) => CardPool::from_values(&cards)
                    .map_err(|err| invalid_input(format!("`cards`: {err}")))?,
                (None, Some(game)) => catalog_pool(local, &game)?,
                _ => {
                    return Err(invalid_input(
                        "give either `cards` (an array of card objects) or `game` (lor, pokemon \
                         or riftbound: every card of the local catalog)",
                    ));
                }
            };
            let verdicts: Vec<Value> = runner
                .card_pool(&script, &pool.cards, context)?
                .iter()
                .zip(&pool.ids)
                .map(|(verdict, card_id)| {
                    let outcome = match verdict {
                        Verdict::Result(result) => Ok(result),
                        Verdict::Threw(message) => Err(message.as_str()),
                    };
                    proto::json::card_verdict(card_id.as_deref(), outcome)
                })
                .collect();
            json!({ "verdicts": verdicts })
        }
        Kind::PoolFilters => {
            let game: Game = serde_json::from_value(take(&mut input, "game")?).map_err(|err| {
                invalid_input(format!("`game` is lor, pokemon or riftbound: {err}"))
            })?;
            let hook_input = take(&mut input, "input")?;
            let patch = runner.pool_filters(&script, game, hook_input, context)?;
            json!({ "patch": proto::json::patch(patch.as_ref()) })
        }
    };
    if let Some(extra) = input.keys().next() {
        return Err(invalid_input(format!(
            "unknown argument `{extra}` for --kind {}",
            kind.to_possible_value()
                .map_or_else(String::new, |v| v.get_name().to_owned())
        )));
    }
    Ok(printed)
}

/// Every card of a game in the local catalog (the data folder, as `turnier serve` keeps it),
/// as the JSON scripts see. Runs on the blocking thread of the command.
fn catalog_pool(local: &LocalCatalogSettings, game: &Value) -> Result<CardPool, Failure> {
    let game: Game = game
        .as_str()
        .unwrap_or_default()
        .parse()
        .map_err(|err| invalid_input(format!("`game`: {err}")))?;
    let catalog_failure = |err: anyhow::Error| Failure {
        code: "catalog_unavailable",
        message: format!("cannot read the local {game} catalog: {err:#}"),
    };
    let cards = tokio::runtime::Handle::current()
        .block_on(async {
            let catalog = crate::local::catalog(local, None).await?;
            anyhow::Ok(catalog.all_cards(game).await?)
        })
        .map_err(catalog_failure)?;
    CardPool::from_cards(&cards).map_err(|err| catalog_failure(err.into()))
}

/// Takes a required argument.
fn take(input: &mut Map<String, Value>, name: &str) -> Result<Value, Failure> {
    input
        .remove(name)
        .ok_or_else(|| invalid_input(format!("the arguments on stdin need `{name}`")))
}
