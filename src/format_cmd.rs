//! `turnier format check`: checks a deck read on stdin against a format file, in this process
//! (no server needed), as issue 6 documents.
//!
//! With `--json` it prints the report `decks` writes (`{"valid", "tabooList", "cards",
//! "issues"}`), or `{"error": {"code", "message"}}` for input that fails to read. Exit status:
//! 0 for a valid deck, 1 for a deck that breaks the format, 2 when the format, the deck or the
//! moment cannot be read (`invalid_format`, `invalid_deck`, `invalid_moment`).

use std::io::Read as _;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use decks::domain::format::{Deck, Format, Report, parse_moment};
use serde_json::json;

/// The exit status of input that cannot be read. A check that ran exits 0 whether or not the
/// deck is valid: the report says which, and programs read the report.
const EXIT_UNREADABLE_INPUT: i32 = 2;

/// `turnier format …`
#[derive(Debug, Subcommand)]
pub enum FormatCommand {
    /// Checks the deck on stdin against a format and prints every issue at once.
    ///
    /// The deck is JSON: {"cards": [{"id": "storm-call", "count": 2}, {"id": "path", "count":
    /// 20, "copyLimit": 20}]} (each card may carry the "name" messages call it by). Exits 0 for
    /// a valid deck, 1 for a deck that breaks the format, 2 when the format, the deck or the
    /// moment cannot be read.
    Check {
        /// The format file: the JSON of spec/formats-and-rules.md (code, name, min_size,
        /// max_size, copies, banned, restricted, taboo_lists).
        #[arg(long, value_name = "FILE")]
        format: PathBuf,
        /// The moment the deck is checked on, RFC 3339 with a UTC offset
        /// (2026-10-02T09:00:00-04:00); its day is taken in that offset.
        #[arg(long, value_name = "MOMENT")]
        at: String,
        /// Prints the report (or the error) as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Input that cannot be read, with the stable code it is reported under.
struct Unreadable {
    code: &'static str,
    message: String,
}

impl Unreadable {
    fn new(code: &'static str, message: impl std::fmt::Display) -> Self {
        Self {
            code,
            message: message.to_string(),
        }
    }
}

/// Runs `turnier format …`.
///
/// Ends the process itself for exit status 2, which `main`'s `anyhow` path cannot give (it
/// exits 1 for every error); nothing is left to clean up at that point.
pub fn run(command: FormatCommand) -> anyhow::Result<()> {
    let FormatCommand::Check { format, at, json } = command;
    let mut input = String::new();
    let outcome = std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|err| {
            Unreadable::new(
                "invalid_deck",
                format!("cannot read the deck on stdin: {err}"),
            )
        })
        .and_then(|_| check(&format, &at, &input));
    match outcome {
        Ok(report) => {
            if json {
                outln!("{}", report.to_json());
            } else {
                print_report(&report);
            }
            Ok(())
        }
        Err(unreadable) => {
            if json {
                outln!(
                    "{}",
                    json!({"error": {"code": unreadable.code, "message": unreadable.message}})
                );
            }
            eprintln!("turnier: {}", unreadable.message);
            std::process::exit(EXIT_UNREADABLE_INPUT)
        }
    }
}

/// Reads the format file, the moment and the deck, and checks the deck.
fn check(format: &Path, at: &str, deck: &str) -> Result<Report, Unreadable> {
    let bytes = std::fs::read(format).map_err(|err| {
        let message = format!("cannot read the format file {}: {err}", format.display());
        Unreadable::new("invalid_format", message)
    })?;
    let format =
        Format::from_json_bytes(&bytes).map_err(|err| Unreadable::new(err.code(), &err))?;
    let moment = parse_moment(at).map_err(|err| Unreadable::new("invalid_moment", err))?;
    let deck = Deck::from_json(deck).map_err(|err| Unreadable::new(err.code(), &err))?;
    Ok(format.check(&deck, &moment))
}

/// Prints the report for people: whether the deck is valid, then one line per issue.
fn print_report(report: &Report) {
    let under = report.taboo_list().map_or_else(String::new, |list| {
        format!(
            " (taboo list {} from {})",
            list.code.as_str(),
            list.effective_from
        )
    });
    match report.issues().len() {
        0 => outln!("valid{under}"),
        1 => outln!("not valid{under}: 1 issue"),
        n => outln!("not valid{under}: {n} issues"),
    }
    for issue in report.issues() {
        outln!("  {}: {}", issue.code.as_str(), issue.message);
    }
}
