//! The process configuration: every setting, its environment variable, its default, and its
//! validation. The only code that interprets settings; the binary's flags mirror the same
//! variables (clap's `env`), and reach this module through a lookup function.
//!
//! Defaults run the whole platform on a laptop with nothing set. A malformed value stops
//! startup with a one-line message naming the variable.

use std::collections::BTreeMap;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Duration;

use crate::services::Service;
use crate::telemetry::{LogFormat, TelemetryConfig};

/// The gRPC port of the all-in-one process.
pub const DEFAULT_GRPC_PORT: u16 = 50051;
/// The gateway's HTTP port.
pub const DEFAULT_HTTP_PORT: u16 = 8080;

/// What one `turnier serve` process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Every service and the gateway (the embedded default).
    All,
    /// One gRPC service (`--only catalog`, …): what each Kubernetes Deployment runs.
    Service(Service),
    /// The HTTP gateway alone (`--only gateway`).
    Gateway,
}

impl Role {
    /// Parses the value of `--only`.
    pub fn parse_only(value: &str) -> Result<Self, crate::services::UnknownService> {
        if value == "gateway" {
            return Ok(Self::Gateway);
        }
        value.parse().map(Self::Service)
    }

    /// Returns the services this role serves over gRPC.
    pub fn services(self) -> Vec<Service> {
        match self {
            Self::All => Service::ALL.to_vec(),
            Self::Service(service) => vec![service],
            Self::Gateway => Vec::new(),
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
        }
    }
}

/// Every setting of a `turnier serve` or `turnier migrate` process.
#[derive(Clone)]
pub struct Config {
    /// What this process runs.
    pub role: Role,
    /// Where the gRPC server listens (`TURNIER_GRPC_ADDR`).
    pub grpc_addr: SocketAddr,
    /// Where the gateway listens (`TURNIER_HTTP_ADDR`).
    pub http_addr: SocketAddr,
    /// Where a service running alone serves `/metrics` (`TURNIER_METRICS_ADDR`); `None` when
    /// the gateway in the same process already serves it.
    pub metrics_addr: Option<SocketAddr>,
    /// How to reach each service (`TURNIER_<SERVICE>_URL`).
    pub service_urls: BTreeMap<Service, String>,
    /// The folder for the embedded database and other local state (`TURNIER_STATE_DIR`).
    pub state_dir: PathBuf,
    /// The folder of upstream card data, one sub-folder per game (`TURNIER_DATA_DIR`; by
    /// default `../shared/data` when it exists). Imported on the catalog's first start.
    pub data_dir: Option<PathBuf>,
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
    /// Logs and traces.
    pub telemetry: TelemetryConfig,
    /// Graceful shutdown (`TURNIER_SHUTDOWN_DELAY_SECS`, `TURNIER_SHUTDOWN_GRACE_SECS`).
    pub shutdown: crate::server::ShutdownTiming,
    /// The script sandbox's limits (`TURNIER_SCRIPT_CONCURRENCY`, `TURNIER_SCRIPT_MEMORY_MIB`).
    pub scripts: ScriptSettings,
}

/// How many scripts run at once and how much memory each may use: together the most memory
/// the scripts service's sandboxes can take (concurrency × memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptSettings {
    /// Runs at the same time; further requests wait their turn (`TURNIER_SCRIPT_CONCURRENCY`).
    pub concurrency: u32,
    /// Linear memory of one run, in MiB (`TURNIER_SCRIPT_MEMORY_MIB`).
    pub memory_mib: u32,
}

impl ScriptSettings {
    /// Two runs per CPU (at least 4), 64 MiB each.
    pub fn default_for_host() -> Self {
        let cpus = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Self {
            concurrency: u32::try_from(cpus * 2).unwrap_or(u32::MAX).clamp(4, 256),
            memory_mib: 64,
        }
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

/// Every variable [`Config`] reads, with what it means: the `--help` text and the README's
/// configuration table come from the same words.
pub const VARIABLES: &[(&str, &str)] = &[
    (
        "TURNIER_GRPC_ADDR",
        "gRPC listen address (all-in-one 127.0.0.1:50051; --only <service>: that service's own port, 50052-50057)",
    ),
    (
        "TURNIER_HTTP_ADDR",
        "gateway HTTP listen address (127.0.0.1:8080)",
    ),
    (
        "TURNIER_METRICS_ADDR",
        "Prometheus /metrics of a service running alone (127.0.0.1:9102-9107); the gateway serves /metrics on its HTTP address",
    ),
    (
        "TURNIER_<SERVICE>_URL",
        "where to reach a service, e.g. TURNIER_CATALOG_URL=http://catalog:50051 (default: this process, or the service's default port)",
    ),
    (
        "TURNIER_STATE_DIR",
        "folder for the embedded SQLite database (.turnier)",
    ),
    (
        "DATABASE_URL",
        "postgres://user:pass@host/db or sqlite://path (sqlite://<TURNIER_STATE_DIR>/turnier.db)",
    ),
    ("DB_MAX_CONNECTIONS", "database pool size per process (10)"),
    (
        "TURNIER_MIGRATE_ON_START",
        "apply migrations when serve starts: true|false (true)",
    ),
    (
        "REDIS_URL",
        "Redis for job queues; unset: queues live in the database",
    ),
    (
        "TURNIER_QUEUE_PREFIX",
        "prefix of the queues' Redis keys (turnier)",
    ),
    (
        "TURNIER_SCRIPT_CONCURRENCY",
        "scripts service: sandbox runs at the same time, the rest wait (2 per CPU, at least 4)",
    ),
    (
        "TURNIER_SCRIPT_MEMORY_MIB",
        "scripts service: memory of one sandbox run in MiB, 16-4096 (64)",
    ),
    ("RUST_LOG", "log filter (info)"),
    ("LOG_FORMAT", "text|json (text)"),
    (
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTLP/gRPC collector for traces, e.g. http://otel-collector:4317; unset: no export",
    ),
    (
        "OTEL_SERVICE_NAME",
        "service.name of exported spans (turnier-<role>)",
    ),
    (
        "TURNIER_SHUTDOWN_DELAY_SECS",
        "seconds between health NOT_SERVING and closing listeners (0)",
    ),
    (
        "TURNIER_SHUTDOWN_GRACE_SECS",
        "seconds requests in flight get to finish on shutdown (25)",
    ),
    (
        "TURNIER_CORS_ORIGINS",
        "gateway CORS: * or comma-separated origins; unset: no cross-origin access",
    ),
    (
        "TURNIER_BODY_LIMIT_BYTES",
        "gateway request body limit (2097152)",
    ),
    (
        "TURNIER_REQUEST_TIMEOUT_SECS",
        "gateway request timeout (30)",
    ),
];

impl Config {
    /// Reads the configuration of `role` through `get` (the environment, or the parsed flags).
    pub fn from_lookup(
        role: Role,
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let get = |key: &str| get(key).filter(|value| !value.trim().is_empty());

        let default_grpc_port = match role {
            Role::Service(service) => service.default_port(),
            Role::All | Role::Gateway => DEFAULT_GRPC_PORT,
        };
        let grpc_addr = socket_addr(
            &get,
            "TURNIER_GRPC_ADDR",
            &format!("127.0.0.1:{default_grpc_port}"),
        )?;
        let http_addr = socket_addr(
            &get,
            "TURNIER_HTTP_ADDR",
            &format!("127.0.0.1:{DEFAULT_HTTP_PORT}"),
        )?;
        let metrics_addr = match role {
            Role::Service(service) => Some(socket_addr(
                &get,
                "TURNIER_METRICS_ADDR",
                &format!("127.0.0.1:{}", service.default_metrics_port()),
            )?),
            Role::All | Role::Gateway => None,
        };

        let mut service_urls = BTreeMap::new();
        for service in Service::ALL {
            let default = match role {
                // In one process, services reach each other through the process's own port:
                // the same gRPC path as in Kubernetes, tested once.
                Role::All => format!("http://{}", connectable(grpc_addr)),
                Role::Service(_) | Role::Gateway => {
                    format!("http://127.0.0.1:{}", service.default_port())
                }
            };
            let url = get(service.url_env()).unwrap_or(default);
            service_urls.insert(service, grpc_url(service.url_env(), &url)?);
        }

        let state_dir =
            PathBuf::from(get("TURNIER_STATE_DIR").unwrap_or_else(|| ".turnier".to_owned()));
        let data_dir = match get("TURNIER_DATA_DIR") {
            Some(dir) => {
                let dir = PathBuf::from(dir);
                if !dir.is_dir() {
                    return Err(ConfigError::new(
                        "TURNIER_DATA_DIR",
                        format!("`{}` is not a folder", dir.display()),
                    ));
                }
                Some(dir)
            }
            None => Some(PathBuf::from("../shared/data")).filter(|dir| dir.is_dir()),
        };
        let database_url = match get("DATABASE_URL") {
            Some(url) => database_url(&url)?,
            None => format!("sqlite://{}", state_dir.join("turnier.db").display()),
        };
        let redis_url = get("REDIS_URL").map(|url| redis_url(&url)).transpose()?;

        let log_format = match get("LOG_FORMAT") {
            Some(value) => value
                .parse::<LogFormat>()
                .map_err(|problem| ConfigError::new("LOG_FORMAT", problem))?,
            None => LogFormat::Text,
        };
        let otlp_endpoint = get("OTEL_EXPORTER_OTLP_ENDPOINT")
            .map(|url| http_url("OTEL_EXPORTER_OTLP_ENDPOINT", &url))
            .transpose()?;

        Ok(Self {
            role,
            grpc_addr,
            http_addr,
            metrics_addr,
            service_urls,
            state_dir,
            data_dir,
            database_url,
            db_max_connections: number(&get, "DB_MAX_CONNECTIONS", 10, 1..=1000)?,
            migrate_on_start: boolean(&get, "TURNIER_MIGRATE_ON_START", true)?,
            redis_url,
            queue_prefix: queue_prefix(get("TURNIER_QUEUE_PREFIX"))?,
            telemetry: TelemetryConfig {
                log_filter: get("RUST_LOG").unwrap_or_else(|| "info".to_owned()),
                log_format,
                otlp_endpoint,
                service_name: get("OTEL_SERVICE_NAME")
                    .unwrap_or_else(|| format!("turnier-{}", role.name())),
            },
            shutdown: crate::server::ShutdownTiming {
                delay: Duration::from_secs(number(
                    &get,
                    "TURNIER_SHUTDOWN_DELAY_SECS",
                    0,
                    0..=300,
                )?),
                grace: Duration::from_secs(number(
                    &get,
                    "TURNIER_SHUTDOWN_GRACE_SECS",
                    25,
                    0..=3600,
                )?),
            },
            scripts: {
                let defaults = ScriptSettings::default_for_host();
                ScriptSettings {
                    concurrency: number(
                        &get,
                        "TURNIER_SCRIPT_CONCURRENCY",
                        defaults.concurrency,
                        1..=1024,
                    )?,
                    memory_mib: number(
                        &get,
                        "TURNIER_SCRIPT_MEMORY_MIB",
                        defaults.memory_mib,
                        16..=4096,
                    )?,
                }
            },
        })
    }

    /// Returns the resolved settings as `(variable, value)` pairs for the startup log, with
    /// secrets (passwords in URLs) masked.
    pub fn describe(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![
            ("role", self.role.name().to_owned()),
            ("TURNIER_GRPC_ADDR", self.grpc_addr.to_string()),
        ];
        if self.role.runs_gateway() {
            out.push(("TURNIER_HTTP_ADDR", self.http_addr.to_string()));
        }
        if let Some(addr) = self.metrics_addr {
            out.push(("TURNIER_METRICS_ADDR", addr.to_string()));
        }
        for (service, url) in &self.service_urls {
            out.push((service.url_env(), url.clone()));
        }
        out.extend([
            (
                "TURNIER_DATA_DIR",
                self.data_dir.as_ref().map_or_else(
                    || "(none: sample catalog only)".to_owned(),
                    |dir| dir.display().to_string(),
                ),
            ),
            ("DATABASE_URL", redact_url(&self.database_url)),
            ("DB_MAX_CONNECTIONS", self.db_max_connections.to_string()),
            (
                "REDIS_URL",
                self.redis_url
                    .as_deref()
                    .map_or_else(|| "(none: queues in the database)".to_owned(), redact_url),
            ),
            ("TURNIER_QUEUE_PREFIX", self.queue_prefix.clone()),
            (
                "TURNIER_SCRIPT_CONCURRENCY",
                self.scripts.concurrency.to_string(),
            ),
            (
                "TURNIER_SCRIPT_MEMORY_MIB",
                self.scripts.memory_mib.to_string(),
            ),
            ("RUST_LOG", self.telemetry.log_filter.clone()),
            (
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                self.telemetry
                    .otlp_endpoint
                    .clone()
                    .unwrap_or_else(|| "(none)".to_owned()),
            ),
            (
                "TURNIER_SHUTDOWN_DELAY_SECS",
                self.shutdown.delay.as_secs().to_string(),
            ),
            (
                "TURNIER_SHUTDOWN_GRACE_SECS",
                self.shutdown.grace.as_secs().to_string(),
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

/// Returns an address other processes can connect to: `0.0.0.0` and `::` become loopback.
pub fn connectable(addr: SocketAddr) -> SocketAddr {
    if addr.ip().is_unspecified() {
        SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), addr.port())
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

fn socket_addr(
    get: &impl Fn(&str) -> Option<String>,
    variable: &str,
    default: &str,
) -> Result<SocketAddr, ConfigError> {
    let value = get(variable).unwrap_or_else(|| default.to_owned());
    // Accept host names (`localhost:8080`) as well as literal addresses.
    value
        .to_socket_addrs()
        .ok()
        .and_then(|mut addrs| addrs.next())
        .ok_or_else(|| ConfigError::new(variable, format!("expected host:port, got `{value}`")))
}

fn number<T>(
    get: &impl Fn(&str) -> Option<String>,
    variable: &str,
    default: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, ConfigError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    let Some(value) = get(variable) else {
        return Ok(default);
    };
    match value.trim().parse::<T>() {
        Ok(number) if range.contains(&number) => Ok(number),
        _ => Err(ConfigError::new(
            variable,
            format!(
                "expected a whole number from {} to {}, got `{value}`",
                range.start(),
                range.end()
            ),
        )),
    }
}

fn boolean(
    get: &impl Fn(&str) -> Option<String>,
    variable: &str,
    default: bool,
) -> Result<bool, ConfigError> {
    match get(variable).as_deref().map(str::trim) {
        None => Ok(default),
        Some("true" | "1" | "yes") => Ok(true),
        Some("false" | "0" | "no") => Ok(false),
        Some(other) => Err(ConfigError::new(
            variable,
            format!("expected true or false, got `{other}`"),
        )),
    }
}

fn http_url(variable: &str, raw: &str) -> Result<String, ConfigError> {
    let url = url::Url::parse(raw).map_err(|err| {
        ConfigError::new(
            variable,
            format!("expected an http:// or https:// URL, got `{raw}` ({err})"),
        )
    })?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(ConfigError::new(
            variable,
            format!("expected an http:// or https:// URL, got `{raw}`"),
        ));
    }
    Ok(raw.trim_end_matches('/').to_owned())
}

fn grpc_url(variable: &str, raw: &str) -> Result<String, ConfigError> {
    http_url(variable, raw)
}

fn database_url(raw: &str) -> Result<String, ConfigError> {
    let scheme = raw.split(':').next().unwrap_or_default();
    match scheme {
        "postgres" | "postgresql" => {
            url::Url::parse(raw)
                .ok()
                .filter(|url| url.host_str().is_some_and(|host| !host.is_empty()))
                .ok_or_else(|| {
                    ConfigError::new(
                        "DATABASE_URL",
                        format!("malformed PostgreSQL URL `{}`", redact_url(raw)),
                    )
                })?;
            Ok(raw.to_owned())
        }
        "sqlite" if raw.len() > "sqlite:".len() => Ok(raw.to_owned()),
        _ => Err(ConfigError::new(
            "DATABASE_URL",
            format!(
                "expected postgres://… or sqlite://…, got `{}`",
                redact_url(raw)
            ),
        )),
    }
}

fn queue_prefix(value: Option<String>) -> Result<String, ConfigError> {
    let prefix = value.unwrap_or_else(|| "turnier".to_owned());
    let valid = prefix
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'));
    if valid && prefix.len() <= 64 {
        Ok(prefix)
    } else {
        Err(ConfigError::new(
            "TURNIER_QUEUE_PREFIX",
            format!("expected up to 64 letters, digits, `-`, `_`, `.` or `:`, got `{prefix}`"),
        ))
    }
}

fn redis_url(raw: &str) -> Result<String, ConfigError> {
    match url::Url::parse(raw) {
        Ok(url) if matches!(url.scheme(), "redis" | "rediss") && url.host_str().is_some() => {
            Ok(raw.to_owned())
        }
        _ => Err(ConfigError::new(
            "REDIS_URL",
            format!("expected redis://host:port, got `{}`", redact_url(raw)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(role: Role, vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let vars: BTreeMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        Config::from_lookup(role, |key| vars.get(key).cloned())
    }

    #[test]
    fn with_nothing_set_the_all_in_one_process_runs_on_a_laptop() {
        let config = config(Role::All, &[]).expect("defaults are valid");
        assert_eq!(config.grpc_addr.to_string(), "127.0.0.1:50051");
        assert_eq!(config.http_addr.to_string(), "127.0.0.1:8080");
        assert_eq!(config.metrics_addr, None);
        assert_eq!(config.database_url, "sqlite://.turnier/turnier.db");
        assert_eq!(config.redis_url, None);
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
    fn every_malformed_value_names_its_variable() {
        let cases = [
            ("TURNIER_GRPC_ADDR", "localhost"),
            ("TURNIER_HTTP_ADDR", "nope:port"),
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
            ("TURNIER_DATA_DIR", "/no/such/folder"),
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
    fn only_accepts_the_gateway_and_every_service() {
        assert_eq!(Role::parse_only("gateway"), Ok(Role::Gateway));
        assert_eq!(
            Role::parse_only("search"),
            Ok(Role::Service(Service::Search))
        );
        assert!(Role::parse_only("billing").is_err());
    }
}
