//! `turnier`: the one binary of the platform. `serve` runs every service and the gateway in one
//! process (or one of them with `--only`), `migrate` applies database migrations, and the
//! command-line tools for organizers and integrators live here too.
//!
//! This file only wires: settings come from flags or environment variables (clap's `env`) and
//! are validated by `kit::config`; each service crate says what it serves.

mod cli;
mod serve;

use std::process::ExitCode;

use clap::Parser as _;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
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
    match runtime.block_on(cli::run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // One line, the whole chain of causes, no backtrace: what an operator reads in a
            // crash-looping pod's log.
            eprintln!("turnier: {err:#}");
            ExitCode::FAILURE
        }
    }
}
