//! The command line: commands, flags, and the settings they mirror.

use std::collections::BTreeMap;

use clap::{Args, Parser, Subcommand};
use kit::config::{Config, Role};

/// Turnier: a multi-game trading-card-game platform.
#[derive(Debug, Parser)]
#[command(
    name = "turnier",
    version,
    about = "Turnier: card catalog and search, deck codes, sandboxed rules and calculators, and tournaments for Legends of Runeterra, Pokémon TCG and Riftbound.",
    after_help = settings_help(),
)]
pub struct Cli {
    /// What to do; with no command, `serve` (so `cargo run --release` runs the platform).
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    settings: Settings,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Runs the platform: every service and the HTTP gateway in one process, or one of them.
    ///
    /// With no settings, serves gRPC on 127.0.0.1:50051 and HTTP on 127.0.0.1:8080, with an
    /// embedded SQLite database in .turnier/ and job queues in that database.
    Serve {
        /// Runs one role alone: catalog, search, decks, scripts, tournaments, calculators or
        /// gateway (what each Kubernetes Deployment runs). Services find each other through
        /// the TURNIER_<SERVICE>_URL settings.
        #[arg(long, value_name = "ROLE")]
        only: Option<String>,
    },
    /// Applies every service's database migrations to DATABASE_URL and exits.
    Migrate,
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
    /// Computes tournament standings and pairings from an event file, in process.
    #[command(subcommand)]
    Tournament(crate::tournament_cmd::TournamentCommand),
    /// Checks and runs ruleset and calculator scripts in the sandbox, in process.
    #[command(subcommand)]
    Script(crate::script_cmd::ScriptCommand),
}

/// Settings shared by every command. Each flag mirrors an environment variable; the flag wins.
#[derive(Debug, Args)]
struct Settings {
    /// gRPC listen address.
    #[arg(
        long,
        global = true,
        env = "TURNIER_GRPC_ADDR",
        value_name = "HOST:PORT"
    )]
    grpc_addr: Option<String>,
    /// Gateway HTTP listen address.
    #[arg(
        long,
        global = true,
        env = "TURNIER_HTTP_ADDR",
        value_name = "HOST:PORT"
    )]
    http_addr: Option<String>,
    /// Prometheus /metrics address of a service running alone.
    #[arg(
        long,
        global = true,
        env = "TURNIER_METRICS_ADDR",
        value_name = "HOST:PORT"
    )]
    metrics_addr: Option<String>,
    /// Where the catalog service is reached.
    #[arg(long, global = true, env = "TURNIER_CATALOG_URL", value_name = "URL")]
    catalog_url: Option<String>,
    /// Where the search service is reached.
    #[arg(long, global = true, env = "TURNIER_SEARCH_URL", value_name = "URL")]
    search_url: Option<String>,
    /// Where the decks service is reached.
    #[arg(long, global = true, env = "TURNIER_DECKS_URL", value_name = "URL")]
    decks_url: Option<String>,
    /// Where the scripts service is reached.
    #[arg(long, global = true, env = "TURNIER_SCRIPTS_URL", value_name = "URL")]
    scripts_url: Option<String>,
    /// Where the tournaments service is reached.
    #[arg(
        long,
        global = true,
        env = "TURNIER_TOURNAMENTS_URL",
        value_name = "URL"
    )]
    tournaments_url: Option<String>,
    /// Where the calculators service is reached.
    #[arg(
        long,
        global = true,
        env = "TURNIER_CALCULATORS_URL",
        value_name = "URL"
    )]
    calculators_url: Option<String>,
    /// Folder for the embedded database.
    #[arg(long, global = true, env = "TURNIER_STATE_DIR", value_name = "DIR")]
    state_dir: Option<String>,
    /// Card data folder imported on the catalog's first start.
    #[arg(long, global = true, env = "TURNIER_DATA_DIR", value_name = "DIR")]
    data_dir: Option<String>,
    /// postgres://… or sqlite://… (may contain a password; never logged).
    #[arg(
        long,
        global = true,
        env = "DATABASE_URL",
        value_name = "URL",
        hide_env_values = true
    )]
    database_url: Option<String>,
    /// Database pool size per process.
    #[arg(long, global = true, env = "DB_MAX_CONNECTIONS", value_name = "N")]
    db_max_connections: Option<String>,
    /// Apply migrations when serve starts.
    #[arg(
        long,
        global = true,
        env = "TURNIER_MIGRATE_ON_START",
        value_name = "BOOL"
    )]
    migrate_on_start: Option<String>,
    /// Redis for job queues (unset: queues in the database).
    #[arg(
        long,
        global = true,
        env = "REDIS_URL",
        value_name = "URL",
        hide_env_values = true
    )]
    redis_url: Option<String>,
    /// Prefix of the queues' Redis keys.
    #[arg(
        long,
        global = true,
        env = "TURNIER_QUEUE_PREFIX",
        value_name = "PREFIX"
    )]
    queue_prefix: Option<String>,
    /// Log filter.
    #[arg(long, global = true, env = "RUST_LOG", value_name = "FILTER")]
    log: Option<String>,
    /// Log format: text or json.
    #[arg(long, global = true, env = "LOG_FORMAT", value_name = "FORMAT")]
    log_format: Option<String>,
    /// OTLP/gRPC trace collector.
    #[arg(
        long,
        global = true,
        env = "OTEL_EXPORTER_OTLP_ENDPOINT",
        value_name = "URL"
    )]
    otlp_endpoint: Option<String>,
    /// service.name of exported spans.
    #[arg(long, global = true, env = "OTEL_SERVICE_NAME", value_name = "NAME")]
    otel_service_name: Option<String>,
    /// Seconds between health NOT_SERVING and closing listeners.
    #[arg(
        long,
        global = true,
        env = "TURNIER_SHUTDOWN_DELAY_SECS",
        value_name = "SECS"
    )]
    shutdown_delay_secs: Option<String>,
    /// Seconds requests in flight get to finish on shutdown.
    #[arg(
        long,
        global = true,
        env = "TURNIER_SHUTDOWN_GRACE_SECS",
        value_name = "SECS"
    )]
    shutdown_grace_secs: Option<String>,
    /// Gateway CORS origins: * or a comma-separated list.
    #[arg(
        long,
        global = true,
        env = "TURNIER_CORS_ORIGINS",
        value_name = "ORIGINS"
    )]
    cors_origins: Option<String>,
    /// Gateway request body limit in bytes.
    #[arg(
        long,
        global = true,
        env = "TURNIER_BODY_LIMIT_BYTES",
        value_name = "BYTES"
    )]
    body_limit_bytes: Option<String>,
    /// Gateway request timeout in seconds.
    #[arg(
        long,
        global = true,
        env = "TURNIER_REQUEST_TIMEOUT_SECS",
        value_name = "SECS"
    )]
    request_timeout_secs: Option<String>,
}

impl Settings {
    /// Returns the settings as the variables `kit::config` and the gateway read.
    fn into_lookup(self) -> BTreeMap<&'static str, String> {
        let pairs = [
            ("TURNIER_GRPC_ADDR", self.grpc_addr),
            ("TURNIER_HTTP_ADDR", self.http_addr),
            ("TURNIER_METRICS_ADDR", self.metrics_addr),
            ("TURNIER_CATALOG_URL", self.catalog_url),
            ("TURNIER_SEARCH_URL", self.search_url),
            ("TURNIER_DECKS_URL", self.decks_url),
            ("TURNIER_SCRIPTS_URL", self.scripts_url),
            ("TURNIER_TOURNAMENTS_URL", self.tournaments_url),
            ("TURNIER_CALCULATORS_URL", self.calculators_url),
            ("TURNIER_STATE_DIR", self.state_dir),
            ("TURNIER_DATA_DIR", self.data_dir),
            ("DATABASE_URL", self.database_url),
            ("DB_MAX_CONNECTIONS", self.db_max_connections),
            ("TURNIER_MIGRATE_ON_START", self.migrate_on_start),
            ("REDIS_URL", self.redis_url),
            ("TURNIER_QUEUE_PREFIX", self.queue_prefix),
            ("RUST_LOG", self.log),
            ("LOG_FORMAT", self.log_format),
            ("OTEL_EXPORTER_OTLP_ENDPOINT", self.otlp_endpoint),
            ("OTEL_SERVICE_NAME", self.otel_service_name),
            ("TURNIER_SHUTDOWN_DELAY_SECS", self.shutdown_delay_secs),
            ("TURNIER_SHUTDOWN_GRACE_SECS", self.shutdown_grace_secs),
            ("TURNIER_CORS_ORIGINS", self.cors_origins),
            ("TURNIER_BODY_LIMIT_BYTES", self.body_limit_bytes),
            ("TURNIER_REQUEST_TIMEOUT_SECS", self.request_timeout_secs),
        ];
        pairs
            .into_iter()
            .filter_map(|(key, value)| value.map(|value| (key, value)))
            .collect()
    }
}

fn settings_help() -> String {
    let mut help = String::from(
        "Settings (flags mirror these environment variables; defaults in parentheses):\n",
    );
    for (variable, meaning) in kit::config::VARIABLES {
        help.push_str(&format!("  {variable:<30} {meaning}\n"));
    }
    help
}

/// Runs the parsed command line.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let settings = cli.settings.into_lookup();
    let lookup = |key: &str| settings.get(key).cloned();
    match cli.command.unwrap_or(Command::Serve { only: None }) {
        Command::Serve { only } => {
            let role = match only {
                Some(only) => Role::parse_only(&only)?,
                None => Role::All,
            };
            let config = Config::from_lookup(role, lookup)?;
            crate::serve::serve(config, &lookup).await
        }
        Command::Migrate => {
            let config = Config::from_lookup(Role::All, lookup)?;
            crate::serve::migrate(&config).await
        }
        Command::Catalog(command) => {
            let config = Config::from_lookup(Role::All, lookup)?;
            crate::catalog_cmd::run_catalog(&config, command).await
        }
        Command::Card(command) => {
            let config = Config::from_lookup(Role::All, lookup)?;
            crate::catalog_cmd::run_card(&config, command).await
        }
        Command::Search(args) => {
            let config = Config::from_lookup(Role::All, lookup)?;
            crate::search_cmd::run(&config, args).await
        }
        Command::Queue(command) => {
            let config = Config::from_lookup(Role::All, lookup)?;
            crate::queue_cmd::run(&config, command).await
        }
        // Pure conversion: no settings, no database.
        Command::Deck(crate::deck_cmd::DeckCommand::Import { game, single_deck }) => {
            let config = Config::from_lookup(Role::All, lookup)?;
            crate::deck_cmd::import(&config, &game, single_deck).await
        }
        Command::Deck(command) => crate::deck_cmd::run(command),
        // Pure rules over a format file and stdin: no settings, no database, no server.
        Command::Format(command) => crate::format_cmd::run(command),
        // Pure rules over an event on stdin: no settings, no database, no server.
        Command::Tournament(command) => crate::tournament_cmd::run(command),
        // The sandbox over a script file and stdin; a card pool over a whole game reads the
        // local catalog, as `turnier deck import` does.
        Command::Script(command) => {
            let config = Config::from_lookup(Role::All, lookup)?;
            crate::script_cmd::run(&config, command).await
        }
    }
}
