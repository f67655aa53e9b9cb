//! The process's settings: how a setting is declared and parsed, and the plumbing settings every
//! role shares (addresses, service URLs, database, queues, telemetry, shutdown).
//!
//! A setting is declared once, as a field of a `#[derive(clap::Args)]` struct owned by whoever
//! uses it: [`Settings`] here, `gateway::Settings`, `catalog::Settings`, `scripts::Settings`.
//! The field's attributes give its flag, its environment variable (clap's `env`), its default
//! and its value parser, which is its validation; its doc comment is its `--help` text. The
//! `turnier` binary flattens those structs into its command line and reads them with
//! [`parse`]; tests read them with [`parse_from`] and a map, never the process environment.
//!
//! Defaults run the whole platform on a laptop with nothing set. A malformed value stops
//! startup with a one-line message naming the variable ([`ConfigError`]), whether it came from
//! the variable or from the flag. What a role does with its settings is its own business:
//! this module only declares, parses and resolves them.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::net::{Ipv4Addr, SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Duration;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::parser::ValueSource;
use clap::{Arg, ArgMatches, Command};

use crate::services::Service;
use crate::telemetry::{LogFormat, TelemetryConfig};

/// The gRPC port of the all-in-one process.
pub const DEFAULT_GRPC_PORT: u16 = 50051;

/// What one `turnier serve` process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Every service and the gateway (the embedded default).
    All,
    /// One gRPC service (`--only catalog`, …): what each Kubernetes Deployment runs.
    Service(Service),
    /// The HTTP gateway alone (`--only gateway`).
    Gateway,
    /// The submission worker alone (`--only worker`): consumes lineup checks from the job
    /// queue and calls the services over gRPC; it serves no gRPC, only its metrics.
    Worker,
}

/// The metrics port of the worker running alone.
pub const WORKER_METRICS_PORT: u16 = 9109;

impl Role {
    /// Parses the value of `--only`.
    pub fn parse_only(value: &str) -> Result<Self, crate::services::UnknownService> {
        if value == "gateway" {
            return Ok(Self::Gateway);
        }
        if value == "worker" {
            return Ok(Self::Worker);
        }
        value.parse().map(Self::Service)
    }

    /// Returns the services this role serves over gRPC.
    pub fn services(self) -> Vec<Service> {
        match self {
            Self::All => Service::ALL.to_vec(),
            Self::Service(service) => vec![service],
            Self::Gateway | Self::Worker => Vec::new(),
        }
    }

    /// Returns whether this role runs the HTTP gateway.
    pub fn runs_gateway(self) -> bool {
        matches!(self, Self::All | Self::Gateway)
    }

    /// Returns the short name used in logs and as the default `OTEL_SERVICE_NAME` suffix.
    pub fn name(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Service(service) => service.name(),
            Self::Gateway => "gateway",
            Self::Worker => "worker",
        }
    }

    /// Returns whether this role runs the submission worker (the all-in-one process runs one
    /// beside its services).
    pub fn runs_worker(self) -> bool {
        matches!(self, Self::All | Self::Worker)
    }
}

/// The plumbing settings of every `turnier` process, as given on the command line or in the
/// environment. [`Settings::resolve`] fills in the defaults that depend on the role.
///
/// No `Debug`: the database and Redis URLs are kept as given and may carry passwords. Log the
/// resolved [`Config`], which masks them.
#[derive(Clone, clap::Args)]
#[command(next_help_heading = "Process settings")]
// Every crate names its struct `Settings`; the group clap derives from it needs its own id.
#[group(id = "process_settings")]
pub struct Settings {
    /// gRPC listen address (default 127.0.0.1:50051; with --only <service>, that service's own
    /// port, 50052-50058).
    #[arg(long, env = "TURNIER_GRPC_ADDR", value_name = "HOST:PORT", value_parser = socket_addr)]
    pub grpc_addr: Option<SocketAddr>,
    /// Prometheus /metrics address of a service running alone (default 127.0.0.1:9102-9108 by
    /// service); the gateway serves /metrics on its HTTP address.
    #[arg(long, env = "TURNIER_METRICS_ADDR", value_name = "HOST:PORT", value_parser = socket_addr)]
    pub metrics_addr: Option<SocketAddr>,
    /// Where each service is reached.
    #[command(flatten)]
    pub service_urls: ServiceUrls,
    /// Folder for the embedded SQLite database.
    #[arg(
        long,
        env = "TURNIER_STATE_DIR",
        value_name = "DIR",
        default_value = ".turnier"
    )]
    pub state_dir: PathBuf,
    /// The database: postgres://user:pass@host/db or sqlite://path (default
    /// sqlite://<state dir>/turnier.db). May contain a password; never logged.
    #[arg(
        long,
        env = "DATABASE_URL",
        value_name = "URL",
        hide_env_values = true,
        value_parser = database_url
    )]
    pub database_url: Option<String>,
    /// Database pool size per process.
    #[arg(
        long,
        env = "DB_MAX_CONNECTIONS",
        value_name = "N",
        default_value_t = 10,
        value_parser = whole_number(1..=1000_u32)
    )]
    pub db_max_connections: u32,
    /// Whether serve applies migrations when it starts: true or false.
    #[arg(
        long,
        env = "TURNIER_MIGRATE_ON_START",
        value_name = "BOOL",
        action = clap::ArgAction::Set,
        default_value_t = true,
        value_parser = boolean
    )]
    pub migrate_on_start: bool,
    /// Redis for job queues, redis://host:port (unset: queues live in the database).
    #[arg(
        long,
        env = "REDIS_URL",
        value_name = "URL",
        hide_env_values = true,
        value_parser = redis_url
    )]
    pub redis_url: Option<String>,
    /// Prefix of the queues' Redis keys, so deployments can share one Redis server.
    #[arg(
        long,
        env = "TURNIER_QUEUE_PREFIX",
        value_name = "PREFIX",
        default_value = "turnier",
        value_parser = queue_prefix
    )]
    pub queue_prefix: String,
    /// Largest gRPC request message, in bytes, a caller without a token may send (larger:
    /// OUT_OF_RANGE); with a token, each service's own limit applies.
    #[arg(
        long,
        env = "TURNIER_GRPC_ANONYMOUS_MESSAGE_BYTES",
        value_name = "BYTES",
        default_value_t = crate::message_limit::DEFAULT_ANONYMOUS_MESSAGE_BYTES,
        value_parser = whole_number(1024..=(1_usize << 30))
    )]
    pub grpc_anonymous_message_bytes: usize,
    /// Log filter.
    #[arg(
        long = "log",
        env = "RUST_LOG",
        value_name = "FILTER",
        default_value = "info"
    )]
    pub log_filter: String,
    /// Log format: text or json.
    #[arg(
        long,
        env = "LOG_FORMAT",
        value_name = "FORMAT",
        default_value = "text",
        value_parser = log_format
    )]
    pub log_format: LogFormat,
    /// OTLP/gRPC collector for traces, e.g. http://otel-collector:4317 (unset: no export).
    #[arg(
        long,
        env = "OTEL_EXPORTER_OTLP_ENDPOINT",
        value_name = "URL",
        value_parser = http_url
    )]
    pub otlp_endpoint: Option<String>,
    /// service.name of exported spans (default turnier-<role>).
    #[arg(long, env = "OTEL_SERVICE_NAME", value_name = "NAME")]
    pub otel_service_name: Option<String>,
    /// Seconds between health NOT_SERVING and closing listeners.
    #[arg(
        long,
        env = "TURNIER_SHUTDOWN_DELAY_SECS",
        value_name = "SECS",
        default_value_t = 0,
        value_parser = whole_number(0..=300_u64)
    )]
    pub shutdown_delay_secs: u64,
    /// Seconds requests in flight get to finish on shutdown.
    #[arg(
        long,
        env = "TURNIER_SHUTDOWN_GRACE_SECS",
        value_name = "SECS",
        default_value_t = 25,
        value_parser = whole_number(0..=3600_u64)
    )]
    pub shutdown_grace_secs: u64,
    /// How long connections may take to send a request or sit idle, and how many each
    /// listener holds.
    #[command(flatten)]
    pub connections: crate::listener::Settings,
    /// The abuse limits both edges share.
    #[command(flatten)]
    pub limits: crate::limits::LimitSettings,
    /// The key our own processes' calls carry, so a service believes the client they name and
    /// does not count them again (`caller`): the same secret in every process of a split
    /// deployment; unset: a random key of this process's own (enough for the all-in-one).
    /// Never logged.
    #[arg(
        long,
        env = "TURNIER_INTERNAL_KEY",
        value_name = "KEY",
        hide_env_values = true
    )]
    pub internal_key: Option<String>,
}

/// Where each service is reached, as given: one setting per service of [`Service::ALL`]
/// (`--catalog-url` and `TURNIER_CATALOG_URL`, …), declared from that list so that a new
/// service gets its setting with its row there. [`Settings::resolve`] fills in the rest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServiceUrls(BTreeMap<Service, String>);

impl ServiceUrls {
    /// Returns the URL given for `service`, if one was.
    pub fn get(&self, service: Service) -> Option<&str> {
        self.0.get(&service).map(String::as_str)
    }
}

impl clap::Args for ServiceUrls {
    fn augment_args(command: Command) -> Command {
        Service::ALL.into_iter().fold(command, |command, service| {
            command.arg(
                // The variable is the id too: `FromArgMatches` below reads the value by it.
                Arg::new(service.url_env())
                    .long(format!("{}-url", service.name()))
                    .env(service.url_env())
                    .value_name("URL")
                    .value_parser(grpc_url)
                    .help(format!(
                        "Where the {service} service is reached (default: this process \
                         all-in-one, else http://127.0.0.1:{})",
                        service.default_port()
                    )),
            )
        })
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl clap::FromArgMatches for ServiceUrls {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let urls = Service::ALL
            .into_iter()
            .filter_map(|service| {
                // Declared above with this id and a `String` value parser, as derived fields are.
                let url = matches.get_one::<String>(service.url_env())?;
                Some((service, url.clone()))
            })
            .collect();
        Ok(Self(urls))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// The plumbing settings of a `turnier` process in one role, with every default filled in:
/// what `serve`, `migrate` and the tools run with.
#[derive(Clone)]
pub struct Config {
    /// What this process runs.
    pub role: Role,
    /// Where the gRPC server listens (`TURNIER_GRPC_ADDR`).
    pub grpc_addr: SocketAddr,
    /// Where a service running alone serves `/metrics` (`TURNIER_METRICS_ADDR`); `None` when
    /// the gateway in the same process already serves it.
    pub metrics_addr: Option<SocketAddr>,
    /// How to reach each service (`TURNIER_<SERVICE>_URL`), one entry per [`Service::ALL`].
    pub service_urls: BTreeMap<Service, String>,
    /// The folder for the embedded database and other local state (`TURNIER_STATE_DIR`).
    pub state_dir: PathBuf,
    /// The database (`DATABASE_URL`): `postgres://…` or `sqlite://…`. May hold a password.
    pub database_url: String,
    /// The pool size per process (`DB_MAX_CONNECTIONS`).
    pub db_max_connections: u32,
    /// Whether `serve` applies migrations at start (`TURNIER_MIGRATE_ON_START`).
    pub migrate_on_start: bool,
    /// The Redis server for job queues (`REDIS_URL`); `None` queues in the database.
    pub redis_url: Option<String>,
    /// The prefix of every Redis key of the queues (`TURNIER_QUEUE_PREFIX`), so deployments
    /// can share one Redis server.
    pub queue_prefix: String,
    /// The largest gRPC request message of a caller without a token
    /// (`TURNIER_GRPC_ANONYMOUS_MESSAGE_BYTES`).
    pub grpc_anonymous_message_bytes: usize,
    /// Logs and traces.
    pub telemetry: TelemetryConfig,
    /// Graceful shutdown (`TURNIER_SHUTDOWN_DELAY_SECS`, `TURNIER_SHUTDOWN_GRACE_SECS`).
    pub shutdown: crate::server::ShutdownTiming,
    /// The limits of both listeners' connections (`TURNIER_HEADER_READ_TIMEOUT_SECS`, …).
    pub connections: crate::listener::ConnectionLimits,
    /// The abuse limits both edges share (`TURNIER_RATE_LIMIT_*`, `TURNIER_SIGN_*`).
    pub limits: crate::limits::LimitSettings,
    /// The deployment's internal key (`TURNIER_INTERNAL_KEY`), if given. Never logged.
    pub internal_key: Option<String>,
}

impl Settings {
    /// Returns the configuration of `role`, filling in the defaults that depend on it: the
    /// gRPC and metrics ports of a service running alone, how services reach each other, the
    /// database inside the state folder and the name of exported spans.
    pub fn resolve(&self, role: Role) -> Config {
        let default_grpc_port = match role {
            Role::Service(service) => service.default_port(),
            Role::All | Role::Gateway | Role::Worker => DEFAULT_GRPC_PORT,
        };
        let grpc_addr = self
            .grpc_addr
            .unwrap_or_else(|| loopback(default_grpc_port));
        let metrics_addr = match role {
            Role::Service(service) => Some(
                self.metrics_addr
                    .unwrap_or_else(|| loopback(service.default_metrics_port())),
            ),
            Role::Worker => Some(
                self.metrics_addr
                    .unwrap_or_else(|| loopback(WORKER_METRICS_PORT)),
            ),
            Role::All | Role::Gateway => None,
        };
        let service_urls = Service::ALL
            .into_iter()
            .map(|service| {
                let url = match (self.service_urls.get(service), role) {
                    (Some(url), _) => url.to_owned(),
                    // In one process, services reach each other through the process's own
                    // port: the same gRPC path as in Kubernetes, tested once.
                    (None, Role::All) => format!("http://{}", connectable(grpc_addr)),
                    (None, Role::Service(_) | Role::Gateway | Role::Worker) => {
                        format!("http://{}", loopback(service.default_port()))
                    }
                };
                (service, url)
            })
            .collect();
        let database_url = self
            .database_url
            .clone()
            .unwrap_or_else(|| format!("sqlite://{}", self.state_dir.join("turnier.db").display()));

        Config {
            role,
            grpc_addr,
            metrics_addr,
            service_urls,
            state_dir: self.state_dir.clone(),
            database_url,
            db_max_connections: self.db_max_connections,
            migrate_on_start: self.migrate_on_start,
            redis_url: self.redis_url.clone(),
            queue_prefix: self.queue_prefix.clone(),
            grpc_anonymous_message_bytes: self.grpc_anonymous_message_bytes,
            telemetry: TelemetryConfig {
                log_filter: self.log_filter.clone(),
                log_format: self.log_format,
                otlp_endpoint: self.otlp_endpoint.clone(),
                service_name: self
                    .otel_service_name
                    .clone()
                    .unwrap_or_else(|| format!("turnier-{}", role.name())),
            },
            shutdown: crate::server::ShutdownTiming {
                delay: Duration::from_secs(self.shutdown_delay_secs),
                grace: Duration::from_secs(self.shutdown_grace_secs),
            },
            connections: self.connections.limits(),
            limits: self.limits,
            internal_key: self.internal_key.clone().filter(|key| !key.is_empty()),
        }
    }
}

impl Config {
    /// Returns the resolved settings as `(variable, value)` pairs for the startup log, with
    /// secrets (passwords in URLs) masked.
    pub fn describe(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![
            ("role", self.role.name().to_owned()),
            ("TURNIER_GRPC_ADDR", self.grpc_addr.to_string()),
        ];
        if let Some(addr) = self.metrics_addr {
            out.push(("TURNIER_METRICS_ADDR", addr.to_string()));
        }
        for (service, url) in &self.service_urls {
            out.push((service.url_env(), url.clone()));
        }
        out.extend([
            ("TURNIER_STATE_DIR", self.state_dir.display().to_string()),
            ("DATABASE_URL", redact_url(&self.database_url)),
            ("DB_MAX_CONNECTIONS", self.db_max_connections.to_string()),
            (
                "TURNIER_MIGRATE_ON_START",
                self.migrate_on_start.to_string(),
            ),
            (
                "REDIS_URL",
                self.redis_url
                    .as_deref()
                    .map_or_else(|| "(none: queues in the database)".to_owned(), redact_url),
            ),
            ("TURNIER_QUEUE_PREFIX", self.queue_prefix.clone()),
            (
                "TURNIER_GRPC_ANONYMOUS_MESSAGE_BYTES",
                self.grpc_anonymous_message_bytes.to_string(),
            ),
            ("RUST_LOG", self.telemetry.log_filter.clone()),
            (
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                self.telemetry
                    .otlp_endpoint
                    .clone()
                    .unwrap_or_else(|| "(none)".to_owned()),
            ),
            ("OTEL_SERVICE_NAME", self.telemetry.service_name.clone()),
            (
                "TURNIER_SHUTDOWN_DELAY_SECS",
                self.shutdown.delay.as_secs().to_string(),
            ),
            (
                "TURNIER_SHUTDOWN_GRACE_SECS",
                self.shutdown.grace.as_secs().to_string(),
            ),
            (
                "TURNIER_HEADER_READ_TIMEOUT_SECS",
                self.connections.header_read_timeout.as_secs().to_string(),
            ),
            (
                "TURNIER_IDLE_TIMEOUT_SECS",
                self.connections.idle_timeout.as_secs().to_string(),
            ),
            (
                "TURNIER_MAX_CONNECTIONS",
                self.connections.max_connections.to_string(),
            ),
            (
                "TURNIER_KEEPALIVE_INTERVAL_SECS",
                self.connections.keepalive_interval.as_secs().to_string(),
            ),
            (
                "TURNIER_KEEPALIVE_TIMEOUT_SECS",
                self.connections.keepalive_timeout.as_secs().to_string(),
            ),
        ]);
        out
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print DATABASE_URL or REDIS_URL as given: they may carry passwords.
        f.debug_map().entries(self.describe()).finish()
    }
}

/// A setting with a bad value. The message names the variable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{variable}: {problem}")]
pub struct ConfigError {
    /// The environment variable (or the flag's variable) that was wrong.
    pub variable: String,
    /// What was wrong with it.
    pub problem: String,
}

impl ConfigError {
    /// Creates an error for `variable`.
    pub fn new(variable: &str, problem: impl Into<String>) -> Self {
        Self {
            variable: variable.to_owned(),
            problem: problem.into(),
        }
    }
}

/// Why a command line and its variables were refused.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// A setting has a malformed value: print the one line, naming the variable, and stop.
    #[error(transparent)]
    Setting(#[from] ConfigError),
    /// Everything else clap answers: `--help` and `--version` (not failures), an unknown flag,
    /// a missing argument. [`clap::Error::exit`] prints it and exits with clap's status.
    #[error(transparent)]
    Command(#[from] clap::Error),
}

/// Parses the process's command line against `command`, reading each setting's variable from
/// the process environment, as [`parse_from`] describes.
pub fn parse<P: clap::FromArgMatches>(command: Command) -> Result<P, ParseError> {
    parse_from(command, std::env::args_os(), |variable| {
        std::env::var(variable).ok()
    })
}

/// Parses one settings struct alone, as the binary flattens it: `args` are the flags after the
/// program name, and `vars` the only variables set. Each crate's tests of its own settings use
/// it.
pub fn parse_settings<S: clap::Args>(
    args: &[&str],
    vars: &[(&str, &str)],
) -> Result<S, ParseError> {
    let command = S::augment_args(Command::new("turnier"));
    let args = std::iter::once("turnier").chain(args.iter().copied());
    parse_from::<S, _, _>(command, args, |key| {
        vars.iter()
            .find(|(name, _)| *name == key)
            .map(|(_, value)| (*value).to_owned())
    })
}

/// Parses `args` (the program name first) against `command`, reading each setting's variable
/// through `get` instead of the process environment.
///
/// A setting is a top-level argument with a long flag and an `env` variable. Its flag wins
/// over its variable, a blank variable counts as unset (Helm renders an unset value as an
/// empty string), and a malformed value, from either, is [`ParseError::Setting`] naming the
/// variable. `--help` still shows every variable, as clap's `env` does. Arguments of
/// subcommands are not settings: an `env` on one of them keeps clap's own handling.
pub fn parse_from<P, I, T>(
    command: Command,
    args: I,
    get: impl Fn(&str) -> Option<String>,
) -> Result<P, ParseError>
where
    P: clap::FromArgMatches,
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    // clap reads every `env` variable from the process environment as the command is built.
    // Parsing drops those values and hands clap the ones `get` returns, as flags; the command
    // as declared is kept to print `--help`, which names each variable.
    let bare = command
        .clone()
        .mut_args(|arg| arg.env(None::<&'static str>));

    // The command line alone first, as clap itself does: `--help`, `--version` and mistakes
    // in the flags are answered before any variable is read.
    let flags = match bare.clone().try_get_matches_from(&args) {
        Ok(flags) => flags,
        Err(err) if is_help(&err) => {
            let help = command.try_get_matches_from(&args).err().unwrap_or(err);
            return Err(ParseError::Command(help));
        }
        Err(err) => return Err(naming_the_variable(err, &command)),
    };
    // Then every setting whose flag is absent takes its variable's value, as that flag.
    let from_variables: Vec<OsString> = command
        .get_arguments()
        .filter_map(|arg| {
            let variable = arg.get_env()?.to_str()?;
            let long = arg.get_long()?;
            if flags.value_source(arg.get_id().as_str()) == Some(ValueSource::CommandLine) {
                return None;
            }
            let value = get(variable).filter(|value| !value.trim().is_empty())?;
            Some(format!("--{long}={value}").into())
        })
        .collect();
    let program = args.first().cloned().unwrap_or_default();
    let with_variables = std::iter::once(program)
        .chain(from_variables)
        .chain(args.into_iter().skip(1));
    let matches = bare
        .try_get_matches_from(with_variables)
        .map_err(|err| naming_the_variable(err, &command))?;
    Ok(P::from_arg_matches(&matches)?)
}

fn is_help(err: &clap::Error) -> bool {
    matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    )
}

/// Turns clap's error for a setting's malformed value (which names the flag, over several
/// lines) into a [`ConfigError`] naming the setting's variable, with the value parser's message.
/// Any other error stays clap's.
fn naming_the_variable(err: clap::Error, command: &Command) -> ParseError {
    let variable = match (err.kind(), err.get(ContextKind::InvalidArg)) {
        (ErrorKind::ValueValidation, Some(ContextValue::String(shown))) => {
            // clap shows the argument as `--long <VALUE>`: the long flag identifies it.
            let long = shown
                .split([' ', '='])
                .next()
                .and_then(|s| s.strip_prefix("--"));
            command
                .get_arguments()
                .find(|arg| long.is_some() && arg.get_long() == long)
                .and_then(Arg::get_env)
                .and_then(OsStr::to_str)
        }
        _ => None,
    };
    match (variable, std::error::Error::source(&err)) {
        (Some(variable), Some(problem)) => ConfigError::new(variable, problem.to_string()).into(),
        _ => ParseError::Command(err),
    }
}

/// A value a setting's parser refused: what the setting expects, and what it got.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}, got `{value}`")]
pub struct InvalidValue {
    /// What the setting expects, e.g. "a whole number from 1 to 1000".
    pub expected: Cow<'static, str>,
    /// The value as given, or with its password masked.
    pub value: String,
}

impl InvalidValue {
    /// Creates the error for `value`, which was not `expected`.
    pub fn new(expected: impl Into<Cow<'static, str>>, value: impl Into<String>) -> Self {
        Self {
            expected: expected.into(),
            value: value.into(),
        }
    }
}

/// Parses `host:port`; host names (`localhost:8080`) resolve to their first address.
pub fn socket_addr(value: &str) -> Result<SocketAddr, InvalidValue> {
    value
        .to_socket_addrs()
        .ok()
        .and_then(|mut addrs| addrs.next())
        .ok_or_else(|| InvalidValue::new("host:port", value))
}

/// Returns a value parser for a whole number within `range`.
pub fn whole_number<T>(
    range: std::ops::RangeInclusive<T>,
) -> impl Fn(&str) -> Result<T, InvalidValue> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Clone + Send + Sync + 'static,
{
    move |value| match value.trim().parse::<T>() {
        Ok(number) if range.contains(&number) => Ok(number),
        _ => Err(InvalidValue::new(
            format!("a whole number from {} to {}", range.start(), range.end()),
            value,
        )),
    }
}

/// Reads a setting that is `true`/`1`/`yes` or `false`/`0`/`no`.
pub fn boolean(value: &str) -> Result<bool, InvalidValue> {
    match value.trim() {
        "true" | "1" | "yes" => Ok(true),
        "false" | "0" | "no" => Ok(false),
        _ => Err(InvalidValue::new("true or false", value)),
    }
}

fn log_format(value: &str) -> Result<LogFormat, InvalidValue> {
    value
        .trim()
        .parse()
        .map_err(|_| InvalidValue::new("`text` or `json`", value))
}

fn http_url(value: &str) -> Result<String, InvalidValue> {
    let error = || InvalidValue::new("an http:// or https:// URL", value);
    let url = url::Url::parse(value.trim()).map_err(|_| error())?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(error());
    }
    Ok(value.trim().trim_end_matches('/').to_owned())
}

/// Checks a service's address as tonic dials it: an `http://` or `https://` URL with a host.
fn grpc_url(value: &str) -> Result<String, InvalidValue> {
    let error = || {
        InvalidValue::new(
            "an http:// or https:// URL such as `http://127.0.0.1:50052`",
            value,
        )
    };
    let url = http_url(value).map_err(|_| error())?;
    // tonic parses the address again as an `http::Uri`; check here so a bad one stops startup
    // with the variable's name rather than failing later inside the transport.
    url.parse::<http::Uri>().map_err(|_| error())?;
    Ok(url)
}

fn database_url(value: &str) -> Result<String, InvalidValue> {
    let scheme = value.split(':').next().unwrap_or_default();
    match scheme {
        "postgres" | "postgresql" => {
            url::Url::parse(value)
                .ok()
                .filter(|url| url.host_str().is_some_and(|host| !host.is_empty()))
                .ok_or_else(|| {
                    InvalidValue::new("a PostgreSQL URL with a host", redact_url(value))
                })?;
            Ok(value.to_owned())
        }
        "sqlite" if value.len() > "sqlite:".len() => Ok(value.to_owned()),
        _ => Err(InvalidValue::new(
            "postgres://… or sqlite://…",
            redact_url(value),
        )),
    }
}

fn redis_url(value: &str) -> Result<String, InvalidValue> {
    match url::Url::parse(value) {
        Ok(url) if matches!(url.scheme(), "redis" | "rediss") && url.host_str().is_some() => {
            Ok(value.to_owned())
        }
        _ => Err(InvalidValue::new("redis://host:port", redact_url(value))),
    }
}

fn queue_prefix(value: &str) -> Result<String, InvalidValue> {
    let valid = value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'));
    if valid && value.len() <= 64 {
        Ok(value.to_owned())
    } else {
        Err(InvalidValue::new(
            "up to 64 letters, digits, `-`, `_`, `.` or `:`",
            value,
        ))
    }
}

fn loopback(port: u16) -> SocketAddr {
    SocketAddr::from((Ipv4Addr::LOCALHOST, port))
}

/// Returns an address other processes can connect to: `0.0.0.0` and `::` become loopback.
pub fn connectable(addr: SocketAddr) -> SocketAddr {
    if addr.ip().is_unspecified() {
        SocketAddr::new(Ipv4Addr::LOCALHOST.into(), addr.port())
    } else {
        addr
    }
}

/// Masks the password of a URL (`postgres://user:***@host/db`).
pub fn redact_url(raw: &str) -> String {
    match url::Url::parse(raw) {
        Ok(mut url) if url.password().is_some() => {
            // Cannot fail: the URL has a host, since it has a password.
            let _ = url.set_password(Some("***"));
            url.to_string()
        }
        Ok(_) => raw.to_owned(),
        Err(_) => "(unparseable)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory as _;

    use super::*;

    fn parse_with(args: &[&str], vars: &[(&str, &str)]) -> Result<Settings, ParseError> {
        parse_settings(args, vars)
    }

    fn config(role: Role, vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        match parse_with(&[], vars) {
            Ok(settings) => Ok(settings.resolve(role)),
            Err(ParseError::Setting(err)) => Err(err),
            Err(ParseError::Command(err)) => panic!("not a setting's error: {err}"),
        }
    }

    #[test]
    fn with_nothing_set_the_all_in_one_process_runs_on_a_laptop() {
        let config = config(Role::All, &[]).expect("defaults are valid");
        assert_eq!(config.grpc_addr.to_string(), "127.0.0.1:50051");
        assert_eq!(config.metrics_addr, None);
        assert_eq!(config.database_url, "sqlite://.turnier/turnier.db");
        assert_eq!(config.redis_url, None);
        assert_eq!(config.db_max_connections, 10);
        assert!(config.migrate_on_start);
        assert_eq!(config.queue_prefix, "turnier");
        assert_eq!(config.telemetry.log_filter, "info");
        assert_eq!(config.shutdown.grace, Duration::from_secs(25));
        // Every service is reached through the process's own gRPC port.
        assert!(
            config
                .service_urls
                .values()
                .all(|url| url == "http://127.0.0.1:50051")
        );
    }

    #[test]
    fn a_service_running_alone_takes_its_own_ports() {
        let config = config(Role::Service(Service::Decks), &[]).expect("defaults are valid");
        assert_eq!(config.grpc_addr.port(), 50054);
        assert_eq!(config.metrics_addr.map(|a| a.port()), Some(9104));
        assert_eq!(
            config.service_urls[&Service::Catalog],
            "http://127.0.0.1:50052"
        );
        assert_eq!(config.telemetry.service_name, "turnier-decks");
    }

    #[test]
    fn listening_on_every_interface_still_connects_through_loopback() {
        let config = config(Role::All, &[("TURNIER_GRPC_ADDR", "0.0.0.0:6000")]).expect("valid");
        assert_eq!(
            config.service_urls[&Service::Search],
            "http://127.0.0.1:6000"
        );
    }

    #[test]
    fn every_service_has_a_url_setting_named_by_its_variable() {
        for service in Service::ALL {
            let url = "http://elsewhere:1234";
            let config = config(Role::Gateway, &[(service.url_env(), url)]).expect("valid");
            assert_eq!(config.service_urls[&service], url, "{service}");
        }
    }

    #[test]
    fn every_default_service_url_passes_the_check_a_given_one_gets() {
        let roles = [Role::All, Role::Gateway, Role::Service(Service::Scripts)];
        for role in roles {
            let config = config(role, &[]).expect("defaults are valid");
            for (service, url) in &config.service_urls {
                assert_eq!(grpc_url(url).as_ref(), Ok(url), "{service} in {role:?}");
            }
        }
    }

    #[test]
    fn every_malformed_value_names_its_variable() {
        let cases = [
            ("TURNIER_GRPC_ADDR", "localhost"),
            ("TURNIER_METRICS_ADDR", "nope:port"),
            ("DATABASE_URL", "mysql://db/x"),
            ("DATABASE_URL", "postgres://"),
            ("REDIS_URL", "http://redis"),
            ("DB_MAX_CONNECTIONS", "0"),
            ("DB_MAX_CONNECTIONS", "ten"),
            ("LOG_FORMAT", "xml"),
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4317"),
            ("TURNIER_CATALOG_URL", "catalog:50051"),
            ("TURNIER_MIGRATE_ON_START", "maybe"),
            ("TURNIER_QUEUE_PREFIX", "a b*"),
            ("TURNIER_SHUTDOWN_GRACE_SECS", "-1"),
        ];
        for (variable, value) in cases {
            let err = config(Role::All, &[(variable, value)]).expect_err(variable);
            assert_eq!(err.variable, variable, "{value}");
            assert!(
                err.to_string().starts_with(&format!("{variable}: ")),
                "{err}"
            );
        }
    }

    #[test]
    fn a_malformed_value_is_one_line_with_the_parsers_message() {
        let err = config(Role::All, &[("DB_MAX_CONNECTIONS", "ten")]).expect_err("malformed");
        assert_eq!(
            err.to_string(),
            "DB_MAX_CONNECTIONS: expected a whole number from 1 to 1000, got `ten`"
        );
    }

    #[test]
    fn a_malformed_flag_names_its_variable_too() {
        let Err(ParseError::Setting(err)) = parse_with(&["--db-max-connections", "ten"], &[])
        else {
            panic!("a malformed flag is a setting's error");
        };
        assert_eq!(
            err.to_string(),
            "DB_MAX_CONNECTIONS: expected a whole number from 1 to 1000, got `ten`"
        );
    }

    #[test]
    fn a_malformed_service_url_names_the_variable() {
        for bad in ["catalog:50052", "grpc://catalog:50052", "http://"] {
            let err = config(Role::Gateway, &[("TURNIER_CATALOG_URL", bad)]).expect_err(bad);
            let message = err.to_string();
            assert!(
                message.starts_with("TURNIER_CATALOG_URL: expected an http:// or https:// URL"),
                "{message}"
            );
            assert!(message.ends_with(&format!("got `{bad}`")), "{message}");
        }
    }

    #[test]
    fn the_flag_wins_over_the_variable() {
        let settings = parse_with(
            &["--db-max-connections", "7"],
            &[("DB_MAX_CONNECTIONS", "ten")],
        )
        .unwrap_or_else(|err| panic!("the malformed variable is not read: {err}"));
        assert_eq!(settings.db_max_connections, 7);
    }

    #[test]
    fn blank_variables_take_their_defaults() {
        let config = config(
            Role::All,
            &[
                ("DB_MAX_CONNECTIONS", ""),
                ("REDIS_URL", "  "),
                ("TURNIER_GRPC_ADDR", ""),
            ],
        )
        .expect("blank means unset");
        assert_eq!(config.db_max_connections, 10);
        assert_eq!(config.redis_url, None);
        assert_eq!(config.grpc_addr.port(), DEFAULT_GRPC_PORT);
    }

    #[test]
    fn variables_are_read_only_through_the_lookup() {
        /// One setting bound to a variable every test process has.
        #[derive(clap::Parser)]
        struct Path {
            #[arg(long, env = "PATH")]
            path: Option<String>,
        }
        assert!(
            std::env::var_os("PATH").is_some(),
            "the test needs PATH set"
        );
        let parsed: Path = parse_from(Path::command(), ["turnier"], |_| None).expect("parses");
        assert_eq!(parsed.path, None);
    }

    #[test]
    fn help_names_every_variable() {
        let Err(ParseError::Command(help)) = parse_with(&["--help"], &[]) else {
            panic!("--help is answered by clap");
        };
        assert_eq!(help.kind(), ErrorKind::DisplayHelp);
        let help = help.to_string();
        for variable in ["TURNIER_GRPC_ADDR", "DATABASE_URL", "RUST_LOG"]
            .into_iter()
            .chain(Service::ALL.map(Service::url_env))
        {
            assert!(help.contains(variable), "{variable} missing from:\n{help}");
        }
    }

    #[test]
    fn passwords_never_reach_the_log() {
        let config = config(
            Role::All,
            &[
                ("DATABASE_URL", "postgres://app:hunter2@db:5432/turnier"),
                ("REDIS_URL", "redis://:s3cret@redis:6379"),
            ],
        )
        .expect("valid");
        let printed = format!("{config:?}");
        assert!(
            !printed.contains("hunter2") && !printed.contains("s3cret"),
            "{printed}"
        );
        assert!(
            printed.contains("postgres://app:***@db:5432/turnier"),
            "{printed}"
        );
    }

    #[test]
    fn a_malformed_database_url_never_shows_its_password() {
        let err = config(
            Role::All,
            &[("DATABASE_URL", "mysql://app:hunter2@db/turnier")],
        )
        .expect_err("not postgres or sqlite");
        assert!(!err.to_string().contains("hunter2"), "{err}");
    }

    #[test]
    fn only_accepts_the_gateway_and_every_service() {
        assert_eq!(Role::parse_only("gateway"), Ok(Role::Gateway));
        assert_eq!(Role::parse_only("worker"), Ok(Role::Worker));
        assert!(Role::Worker.services().is_empty());
        assert!(Role::Worker.runs_worker() && Role::All.runs_worker());
        assert!(!Role::Gateway.runs_worker() && !Role::Worker.runs_gateway());
        assert_eq!(
            Role::parse_only("search"),
            Ok(Role::Service(Service::Search))
        );
        assert!(Role::parse_only("billing").is_err());
    }
}
