//! The command line: commands, and the settings every command shares.
//!
//! Settings are declared once, by whoever uses them (`kit::config::Settings`,
//! `gateway::Settings`, `accounts::Settings`, `catalog::Settings`, `scripts::Settings`), and flattened here; each is
//! also its environment variable, read through `kit::config::parse`.

use clap::{CommandFactory as _, Parser, Subcommand};
use kit::config::{ParseError, Role};

use crate::local::LocalCatalogSettings;

/// Turnier: a multi-game trading-card-game platform.
#[derive(Parser)]
#[command(
    name = "turnier",
    version,
    about = "Turnier: card catalog and search, deck codes, sandboxed rules and calculators, and tournaments for Legends of Runeterra, Pokémon TCG and Riftbound.",
    after_help = "Every setting is also the environment variable shown with it ([env: …]); the flag wins, and a blank variable counts as unset."
)]
pub struct Cli {
    /// What to do; with no command, `serve` (so `cargo run --release` runs the platform).
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    process: kit::config::Settings,
    #[command(flatten)]
    gateway: gateway::Settings,
    #[command(flatten)]
    accounts: accounts::Settings,
    #[command(flatten)]
    catalog: catalog::Settings,
    #[command(flatten)]
    scripts: scripts::Settings,
    #[command(flatten)]
    webhooks: tournaments::WebhookArgs,
    #[command(flatten)]
    worker: tournaments::WorkerArgs,
    #[command(flatten)]
    event_streams: tournaments::EventStreamArgs,
}

impl Cli {
    /// Parses the process's command line and environment. A malformed setting is
    /// [`ParseError::Setting`], naming its variable.
    pub fn from_env() -> Result<Self, ParseError> {
        // Every setting is global, so it may follow any command (`turnier serve --grpc-addr …`).
        kit::config::parse(Self::command().mut_args(|arg| arg.global(true)))
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Runs the platform: every service and the HTTP gateway in one process, or one of them.
    ///
    /// With no settings, serves gRPC on 127.0.0.1:50051 and HTTP on 127.0.0.1:8080, with an
    /// embedded SQLite database in .turnier/ and job queues in that database.
    Serve {
        /// Runs one role alone: accounts, catalog, search, decks, scripts, tournaments,
        /// calculators, gateway or worker (the submission worker; what each Kubernetes
        /// Deployment runs). Services find each other through the TURNIER_<SERVICE>_URL settings.
        #[arg(long, value_name = "ROLE")]
        only: Option<String>,
    },
    /// Applies every service's database migrations to DATABASE_URL and exits.
    Migrate,
    /// Creates accounts and API tokens in the database (DATABASE_URL), for operators.
    #[command(subcommand)]
    Account(crate::account_cmd::AccountCommand),
    /// Imports card data into the catalog.
    #[command(subcommand)]
    Catalog(crate::catalog_cmd::CatalogCommand),
    /// Looks up cards.
    #[command(subcommand)]
    Card(crate::catalog_cmd::CardCommand),
    /// Searches cards with the card search language; prints one line per card (ref and name).
    Search(crate::search_cmd::SearchArgs),
    /// Inspects the job queues: depth, dead letters, replay.
    #[command(subcommand)]
    Queue(crate::queue_cmd::QueueCommand),
    /// Decodes and encodes deck codes (Legends of Runeterra, Piltover Archive), in process.
    #[command(subcommand)]
    Deck(crate::deck_cmd::DeckCommand),
    /// Checks decks against declarative formats (taboo lists, rulings), in process.
    #[command(subcommand)]
    Format(crate::format_cmd::FormatCommand),
    /// Computes tournament standings and pairings from an event file, in process, and runs
    /// the tournaments of a running platform over gRPC.
    #[command(subcommand)]
    Tournament(crate::tournament_cmd::TournamentCommand),
    /// Checks and runs ruleset and calculator scripts in the sandbox, in process.
    #[command(subcommand)]
    Script(crate::script_cmd::ScriptCommand),
    /// Lists, shows and runs the rulesets of a running platform (built-in, yours, a user's
    /// public ones), over gRPC.
    #[command(subcommand)]
    Ruleset(crate::ruleset_cmd::RulesetCommand),
    /// Generates a no-code builder calculator's script (in process), and runs the calculators
    /// of a running platform over gRPC.
    #[command(subcommand)]
    Calculator(crate::calculator_cmd::CalculatorCommand),
}

/// Runs the parsed command line.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let Cli {
        command,
        process,
        gateway,
        accounts,
        catalog,
        scripts,
        webhooks,
        worker,
        event_streams,
    } = cli;
    // The tools that are not a role run with the all-in-one defaults.
    let config = || process.resolve(Role::All);
    let local_catalog = || LocalCatalogSettings::new(&config(), &catalog);
    match command.unwrap_or(Command::Serve { only: None }) {
        Command::Serve { only } => {
            let role = match only {
                Some(only) => Role::parse_only(&only)?,
                None => Role::All,
            };
            let settings = crate::serve::ServiceSettings {
                accounts,
                catalog,
                scripts,
                webhooks,
                worker,
                event_streams,
            };
            crate::serve::serve(process.resolve(role), gateway, settings).await
        }
        Command::Migrate => crate::serve::migrate(&config()).await,
        Command::Account(command) => crate::account_cmd::run(&config(), &accounts, command).await,
        Command::Catalog(command) => crate::catalog_cmd::run_catalog(&config(), command).await,
        Command::Card(command) => crate::catalog_cmd::run_card(&local_catalog(), command).await,
        Command::Search(args) => crate::search_cmd::run(&local_catalog(), args).await,
        Command::Queue(command) => crate::queue_cmd::run(&config(), command).await,
        Command::Deck(crate::deck_cmd::DeckCommand::Import { game, single_deck }) => {
            crate::deck_cmd::import(&local_catalog(), &game, single_deck).await
        }
        // Pure conversion: no settings, no database.
        Command::Deck(command) => crate::deck_cmd::run(command),
        // Pure rules over a format file and stdin: no settings, no database, no server.
        Command::Format(command) => crate::format_cmd::run(command),
        // Pure rules over an event on stdin (no settings, no database, no server), or a client
        // of a running platform.
        Command::Tournament(command) => crate::tournament_cmd::run(command).await,
        // The sandbox over a script file and stdin; a card pool over a whole game reads the
        // local catalog, as `turnier deck import` does.
        Command::Script(command) => {
            crate::script_cmd::run(&local_catalog(), &scripts, command).await
        }
        // A client of a running platform: no settings of its own but where and who.
        Command::Ruleset(command) => crate::ruleset_cmd::run(command).await,
        // The builder in process, or a client of a running platform.
        Command::Calculator(command) => crate::calculator_cmd::run(command).await,
    }
}
