//! `turnier ruleset list|show|run`: the rulesets of a running platform over gRPC
//! (`turnier.scripts.v1.ScriptService`), as a third-party developer or an organizer at a
//! terminal sees them. Every answer is the JSON the HTTP API gives (`proto::json::ruleset`).
//!
//! - `list --game G [--scope S]` prints `{"rulesets": [...]}`: the built-ins, then (with a
//!   token) your own and downloaded ones; `list --user NAME` prints that user's public
//!   rulesets grouped, `{"card": [...], "deck": [...], "deckset": [...]}`.
//! - `show --game G ID` prints `{"ruleset"}` with its source; `--source` prints the source
//!   alone ("View code").
//! - `run --game G ID --kind card|deck|deckset` runs the ruleset by reference (its direct bans
//!   apply) on the arguments read as JSON on stdin (`{"card"}`, `{"deck", "cardsById"}`,
//!   `{"decks", "cardsById"}`, each with an optional `"context"`), and prints
//!   `{"valid", "issues"}`.
//!
//! The token (`--token`, `TURNIER_TOKEN`) is a session or API token; it is sent as
//! `authorization: Bearer …` and never printed. A refused call prints `{"error": {"code",
//! "message"}}` and exits 1.

use std::io::Read as _;

use clap::{Subcommand, ValueEnum};
use kit::clients::{AccountsClient, ScriptsClient, ServiceError};
use proto::game::Game;
use proto::scripts::v1 as pb;
use serde_json::{Value, json};

use crate::server_cmd::Connection;

/// `turnier ruleset …`
#[derive(Debug, Subcommand)]
pub enum RulesetCommand {
    /// Lists a game's built-in rules, then your own and downloaded rulesets; with --user, that
    /// user's public rulesets grouped by scope.
    ///
    /// Prints {"rulesets": [ruleset]}, or with --user {"card": [...], "deck": [...],
    /// "deckset": [...]}.
    List {
        /// lor, pokemon or riftbound (with --user, optional: every game).
        #[arg(long)]
        game: Option<String>,
        /// card, deck or deckset.
        #[arg(long)]
        scope: Option<String>,
        /// A username: their public rulesets, as their profile lists them.
        #[arg(long, value_name = "USERNAME")]
        user: Option<String>,
        #[command(flatten)]
        connection: Connection,
    },
    /// Shows a ruleset with its source. Prints {"ruleset"}; --source prints the source alone.
    Show {
        /// lor, pokemon or riftbound.
        #[arg(long)]
        game: String,
        /// A built-in id (lor-standard) or a ruleset's (rs_…).
        id: String,
        /// Prints only the source.
        #[arg(long)]
        source: bool,
        #[command(flatten)]
        connection: Connection,
    },
    /// Runs a ruleset by reference on the arguments read as JSON on stdin.
    ///
    /// stdin: {"card"} (card), {"deck", "cardsById"} (deck), {"decks", "cardsById"}
    /// (deckset), each with an optional "context". Prints {"valid", "issues"}.
    Run {
        /// lor, pokemon or riftbound.
        #[arg(long)]
        game: String,
        /// A built-in id (lor-standard) or a ruleset's (rs_…).
        id: String,
        /// One of its versions; without it, the latest (a downloaded copy: its pinned one).
        #[arg(long)]
        version: Option<u32>,
        /// Which entry point to run.
        #[arg(long, value_enum)]
        kind: Kind,
        #[command(flatten)]
        connection: Connection,
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
}

/// Why a command fails: what it prints, and the message on stderr.
struct Refused {
    code: String,
    message: String,
}

impl From<ServiceError> for Refused {
    fn from(err: ServiceError) -> Self {
        Refused {
            code: err.reason.clone(),
            message: err.message.clone(),
        }
    }
}

fn refused(code: &str, message: impl Into<String>) -> Refused {
    Refused {
        code: code.to_owned(),
        message: message.into(),
    }
}

/// Runs `turnier ruleset …`.
pub async fn run(command: RulesetCommand) -> anyhow::Result<()> {
    match answer(command).await {
        Ok(Printed::Json(value)) => {
            outln!("{value}");
            Ok(())
        }
        Ok(Printed::Text(text)) => {
            outln!("{text}");
            Ok(())
        }
        Err(Refused { code, message }) => {
            let message = if code == "unavailable" {
                format!(
                    "{message}: is the platform running (`turnier serve`)? --server or \
                     TURNIER_SERVER says where"
                )
            } else {
                message
            };
            outln!("{}", json!({"error": {"code": code, "message": message}}));
            // `main` prints the message on stderr too, and exits 1.
            Err(anyhow::anyhow!(message))
        }
    }
}

enum Printed {
    Json(Value),
    Text(String),
}

fn game(name: &str) -> Result<Game, Refused> {
    name.parse().map_err(|_| {
        refused(
            "invalid_argument",
            format!("--game: unknown game `{name}` (expected lor, pokemon or riftbound)"),
        )
    })
}

fn scope(name: &str) -> Result<pb::RuleScope, Refused> {
    proto::json::rule_scope(name).ok_or_else(|| {
        refused(
            "invalid_argument",
            format!("--scope: `{name}` is not a scope (expected card, deck or deckset)"),
        )
    })
}

fn scripts(connection: &Connection) -> Result<ScriptsClient, Refused> {
    let client = ScriptsClient::connect_lazy(&connection.server)
        .map_err(|err| refused("invalid_argument", format!("--server: {err}")))?;
    Ok(client.with_bearer(connection.bearer()))
}

async fn answer(command: RulesetCommand) -> Result<Printed, Refused> {
    match command {
        RulesetCommand::List {
            game: game_name,
            scope: scope_name,
            user: Some(user),
            connection,
        } => {
            if scope_name.is_some() {
                return Err(refused(
                    "invalid_argument",
                    "--scope: a profile lists every scope, grouped",
                ));
            }
            let game = game_name.as_deref().map(game).transpose()?;
            let accounts = AccountsClient::connect_lazy(&connection.server)
                .map_err(|err| refused("invalid_argument", format!("--server: {err}")))?;
            let username = accounts
                .get_user(&user)
                .await?
                .user
                .map_or(user, |found| found.username);
            let listed = scripts(&connection)?
                .list_public_rulesets(pb::ListPublicRulesetsRequest {
                    username,
                    game: game.map_or(0, proto::game::to_wire),
                })
                .await?;
            Ok(Printed::Json(proto::json::rulesets_by_scope(
                &listed.rulesets,
            )))
        }
        RulesetCommand::List {
            game: game_name,
            scope: scope_name,
            user: None,
            connection,
        } => {
            let game = game(
                game_name
                    .as_deref()
                    .ok_or_else(|| refused("invalid_argument", "--game: give the game"))?,
            )?;
            let scope = scope_name.as_deref().map(scope).transpose()?;
            let listed = scripts(&connection)?
                .list_rulesets(pb::ListRulesetsRequest {
                    game: proto::game::to_wire(game),
                    scope: scope.unwrap_or(pb::RuleScope::Unspecified).into(),
                })
                .await?;
            let rulesets: Vec<Value> = listed.rulesets.iter().map(proto::json::ruleset).collect();
            Ok(Printed::Json(json!({ "rulesets": rulesets })))
        }
        RulesetCommand::Show {
            game: game_name,
            id,
            source,
            connection,
        } => {
            let shown = scripts(&connection)?
                .get_ruleset(pb::GetRulesetRequest {
                    game: proto::game::to_wire(game(&game_name)?),
                    id,
                })
                .await?
                .ruleset
                .unwrap_or_default();
            if source {
                Ok(Printed::Text(shown.source))
            } else {
                Ok(Printed::Json(
                    json!({"ruleset": proto::json::ruleset(&shown)}),
                ))
            }
        }
        RulesetCommand::Run {
            game: game_name,
            id,
            version,
            kind,
            connection,
        } => {
            // The game is checked here: a ruleset runs on the cards of its own game.
            game(&game_name)?;
            let mut stdin = String::new();
            std::io::stdin()
                .read_to_string(&mut stdin)
                .map_err(|err| refused("invalid_argument", format!("cannot read stdin: {err}")))?;
            let input: Value = serde_json::from_str(&stdin)
                .map_err(|err| refused("invalid_argument", format!("stdin is not JSON: {err}")))?;
            let script = Some(pb::Script {
                script: Some(pb::script::Script::Ruleset(pb::RulesetRef { id, version })),
            });
            let context_json = input.get("context").map(Value::to_string);
            let field = |name: &str| -> Result<String, Refused> {
                input.get(name).map(Value::to_string).ok_or_else(|| {
                    refused("invalid_argument", format!("stdin: `{name}` is missing"))
                })
            };
            let client = scripts(&connection)?;
            let response = match kind {
                Kind::Card => {
                    client
                        .run_card_rule(pb::RunCardRuleRequest {
                            script,
                            card_json: field("card")?,
                            context_json,
                        })
                        .await?
                }
                Kind::Deck => {
                    client
                        .run_deck_rule(pb::RunDeckRuleRequest {
                            script,
                            deck_json: field("deck")?,
                            cards_by_id_json: field("cardsById")?,
                            context_json,
                        })
                        .await?
                }
                Kind::Deckset => {
                    client
                        .run_deckset_rule(pb::RunDecksetRuleRequest {
                            script,
                            decks_json: field("decks")?,
                            cards_by_id_json: field("cardsById")?,
                            context_json,
                        })
                        .await?
                }
            };
            Ok(Printed::Json(proto::json::rule_result(
                &response.result.unwrap_or_default(),
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_and_a_scope_are_read_or_refused_with_the_flag_named() {
        assert_eq!(game("lor").ok(), Some(Game::Lor));
        assert!(game("chess").is_err_and(|err| err.message.starts_with("--game:")));
        assert_eq!(scope("deckset").ok(), Some(pb::RuleScope::Deckset));
        assert!(scope("pile").is_err_and(|err| err.code == "invalid_argument"));
    }
}
