//! `turnier`: the one binary of the platform. `serve` runs every service and the gateway in one
//! process (or one of them with `--only`), `migrate` applies database migrations, and the
//! command-line tools for organizers and integrators live here too.
//!
//! This file only wires: settings come from flags or environment variables (clap's `env`),
//! declared by the crates that use them and read by `kit::config`; each service crate says
//! what it serves.

/// Prints a line to stdout as `println!` does, except that a closed stdout (`turnier … | head`)
/// ends the process quietly instead of panicking, and another write error ends it with the
/// one-line message. Every command prints its answers through it.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::print_line(format_args!($($arg)*))
    };
}

mod account_cmd;
mod calculator_cmd;
mod catalog_cmd;
mod cli;
mod deck_cmd;
mod deck_import;
mod format_cmd;
mod local;
mod queue_cmd;
mod ruleset_cmd;
mod script_cmd;
mod search_cmd;
mod serve;
mod server_cmd;
mod tournament_cmd;

use std::process::ExitCode;
use std::time::Duration;

use kit::config::ParseError;

fn main() -> ExitCode {
    let cli = match cli::Cli::from_env() {
        Ok(cli) => cli,
        // --help, --version and mistakes in the command line: clap's own text and exit status.
        Err(ParseError::Command(err)) => err.exit(),
        // A malformed setting: the one line an operator reads, naming the variable.
        Err(ParseError::Setting(err)) => {
            eprintln!("turnier: {err}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("turnier: cannot start the async runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(cli::run(cli));
    // A blocking thread still busy (a sandbox run is halted at the end of the shutdown grace,
    // but a stuck file or database call is not) must not hold the exit: Kubernetes would kill
    // the process anyway, later. Wait for them a moment, then leave them.
    runtime.shutdown_timeout(EXIT_WAIT);
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // One line, the whole chain of causes, no backtrace: what an operator reads in a
            // crash-looping pod's log.
            eprintln!("turnier: {}", one_line(&err));
            ExitCode::FAILURE
        }
    }
}

/// Writes one line to stdout and flushes it (see [`outln!`]).
pub(crate) fn print_line(line: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    if let Err(err) = writeln!(stdout, "{line}").and_then(|()| stdout.flush()) {
        if err.kind() == std::io::ErrorKind::BrokenPipe {
            // The reader has all it wanted; there is no one left to tell.
            std::process::exit(0);
        }
        eprintln!("turnier: cannot write to stdout: {err}");
        std::process::exit(1);
    }
}

/// How long the exit waits for blocking threads still running.
const EXIT_WAIT: Duration = Duration::from_millis(500);

/// Joins an error and its causes into one line, skipping a cause whose text the message
/// already carries (many errors quote their source in their own message).
fn one_line(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line.replace('\n', " ")
}
