//! What the commands that call a running platform over gRPC share: where the platform is and
//! who asks (`--server`, `--token`), the input they read, and how they print an answer or a
//! refusal.
//!
//! An answer is one line of JSON on stdout. A refusal prints `{"error": {"code", "message"}}`
//! on stdout, and `main` prints the message on stderr and exits 1. What each command asks and
//! answers is its own module's (`calculator_cmd`, `tournament_cmd`, `ruleset_cmd`).

use std::io::Read as _;
use std::path::Path;

use clap::Args;
use kit::auth::Bearer;
use kit::clients::ServiceError;
use proto::game::Game;
use serde_json::json;

/// Where the platform is and who asks.
#[derive(Debug, Args)]
pub struct Connection {
    /// The platform's gRPC address.
    #[arg(
        long,
        value_name = "URL",
        env = "TURNIER_SERVER",
        default_value = "http://127.0.0.1:50051"
    )]
    pub(crate) server: String,
    /// A session or API token, sent as `authorization: Bearer …` (never printed); without
    /// it, the call is anonymous and only public things answer.
    #[arg(
        long,
        value_name = "TOKEN",
        env = "TURNIER_TOKEN",
        hide_env_values = true
    )]
    pub(crate) token: Option<String>,
}

impl Connection {
    /// Returns the bearer the token makes; a blank token (`TURNIER_TOKEN=`) is none, as a
    /// blank setting is unset everywhere else.
    pub(crate) fn bearer(&self) -> Option<Bearer> {
        self.token
            .as_deref()
            .filter(|token| !token.trim().is_empty())
            .map(Bearer::new)
    }
}

/// Why a command fails: the code it prints, and the message (printed on stderr too).
#[derive(Debug)]
pub(crate) struct Refusal {
    pub(crate) code: String,
    pub(crate) message: String,
}

impl From<ServiceError> for Refusal {
    fn from(err: ServiceError) -> Self {
        Refusal {
            code: err.reason,
            message: err.message,
        }
    }
}

/// Returns a refusal with `code` and `message`.
pub(crate) fn refused(code: &str, message: impl Into<String>) -> Refusal {
    Refusal {
        code: code.to_owned(),
        message: message.into(),
    }
}

/// Reads the `--game` flag.
pub(crate) fn game(name: &str) -> Result<Game, Refusal> {
    name.parse().map_err(|_| {
        refused(
            "invalid_argument",
            format!("--game: unknown game `{name}` (expected lor, pokemon or riftbound)"),
        )
    })
}

/// Reads a file, or stdin without one.
pub(crate) fn read_input(file: Option<&Path>) -> Result<String, Refusal> {
    match file {
        Some(path) => std::fs::read_to_string(path).map_err(|err| {
            refused(
                "unreadable_input",
                format!("cannot read {}: {err}", path.display()),
            )
        }),
        None => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|err| refused("unreadable_input", format!("cannot read stdin: {err}")))?;
            Ok(text)
        }
    }
}

/// Prints a command's answer, or its refusal as `{"error": {"code", "message"}}`; a refusal
/// comes back as the error `main` prints on stderr before it exits 1.
pub(crate) fn print(answer: Result<String, Refusal>) -> anyhow::Result<()> {
    match answer {
        Ok(text) => {
            outln!("{text}");
            Ok(())
        }
        Err(Refusal { code, message }) => {
            outln!("{}", json!({"error": {"code": code, "message": message}}));
            Err(anyhow::anyhow!(message))
        }
    }
}
