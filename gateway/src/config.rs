//! The gateway's settings: where it listens, which browser origins may call the API, and the
//! limits every request runs under; and [`GatewayConfig`], what the gateway runs with.
//!
//! The settings are declared once, in [`Settings`], and parsed with the rest of the binary's
//! command line by `kit::config::parse`. Where each service is reached is a plumbing setting
//! (`kit::config::Settings`), resolved by the binary for its role and handed to
//! [`GatewayConfig::new`].

use std::net::SocketAddr;
use std::time::Duration;

use http::HeaderValue;
use kit::config::InvalidValue;
use kit::services::Service;

use crate::forwarded::TrustedProxies;
use kit::limits::{LimitSettings, Limiter};

/// The default largest request body: 2 MiB, well above a deck list or a script source.
pub const DEFAULT_BODY_LIMIT_BYTES: usize = 2 * 1024 * 1024;
/// The default time a request may take before the gateway answers 504.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The default time every service has to answer a readiness health check.
///
/// Short, because a Kubernetes readiness probe has its own timeout (1 s by default in the
/// probe, which the chart raises) and an answer after it is worthless.
pub const DEFAULT_READINESS_TIMEOUT: Duration = Duration::from_secs(2);

/// The gateway's settings, as given on the command line or in the environment.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Gateway settings")]
// Every crate names its struct `Settings`; the group clap derives from it needs its own id.
#[group(id = "gateway_settings")]
pub struct Settings {
    /// Gateway HTTP listen address.
    #[arg(
        long,
        env = "TURNIER_HTTP_ADDR",
        value_name = "HOST:PORT",
        default_value = "127.0.0.1:8080",
        value_parser = kit::config::socket_addr
    )]
    pub http_addr: SocketAddr,
    /// Browser origins allowed to call the API cross-origin: * or a comma-separated list
    /// (unset: no cross-origin access).
    #[arg(
        long,
        env = "TURNIER_CORS_ORIGINS",
        value_name = "ORIGINS",
        value_parser = parse_cors_origins
    )]
    pub cors_origins: Option<CorsOrigins>,
    /// Largest request body accepted, in bytes; larger ones get 413.
    #[arg(
        long,
        env = "TURNIER_BODY_LIMIT_BYTES",
        value_name = "BYTES",
        default_value_t = DEFAULT_BODY_LIMIT_BYTES,
        value_parser = positive_bytes
    )]
    pub body_limit_bytes: usize,
    /// Seconds a request may take before the gateway answers 504.
    #[arg(
        long,
        env = "TURNIER_REQUEST_TIMEOUT_SECS",
        value_name = "SECS",
        default_value_t = DEFAULT_REQUEST_TIMEOUT.as_secs(),
        value_parser = positive_secs
    )]
    pub request_timeout_secs: u64,
    /// Proxies whose X-Forwarded-For names the client (an ingress, a load balancer): a
    /// comma-separated list of addresses and networks; unset: trust none, the connection's
    /// peer is the client.
    #[arg(
        long,
        env = "TURNIER_TRUSTED_PROXIES",
        value_name = "NETWORKS",
        value_parser = parse_trusted_proxies
    )]
    pub trusted_proxies: Option<TrustedProxies>,
}

/// The gateway's resolved configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayConfig {
    /// Each service the gateway calls, with its gRPC URL (`http://host:port`), in
    /// [`Service::ALL`] order. `/readyz` checks exactly these.
    pub services: Vec<(Service, String)>,
    /// Which browser origins may call the API cross-origin.
    pub cors_origins: CorsOrigins,
    /// The largest request body accepted, in bytes; larger ones get 413.
    pub body_limit_bytes: usize,
    /// How long a request may take before the gateway answers 504.
    pub request_timeout: Duration,
    /// How long every service has to answer the readiness health check.
    pub readiness_timeout: Duration,
    /// How long the gateway keeps accepting connections once shutdown has begun, answering
    /// `/healthz` with `shutting_down` meanwhile (the process's `TURNIER_SHUTDOWN_DELAY_SECS`).
    pub shutdown_delay: Duration,
    /// The abuse limits (the process's `kit::limits` settings), counted in a limiter of the
    /// gateway's own unless [`GatewayConfig::limiter`] is given.
    pub limits: LimitSettings,
    /// The limiter the process shares between its edges (the all-in-one's, or Redis's in a
    /// split deployment); `None`: one of the gateway's own from [`GatewayConfig::limits`].
    pub limiter: Option<Limiter>,
    /// The proxies whose X-Forwarded-For names the client.
    pub trusted_proxies: TrustedProxies,
    /// The key the pages' CSRF tokens are made with: random for this process unless the
    /// binary derives it from the deployment's internal key (`crate::csrf`).
    pub csrf_key: crate::csrf::CsrfKey,
}

/// The browser origins allowed to call the API cross-origin (CORS).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum CorsOrigins {
    /// No cross-origin calls: the frontend is served from the gateway's own origin. The default,
    /// because allowing origins is a decision an operator makes, not one a default makes.
    #[default]
    None,
    /// Any origin (`*`): for public, credential-less use.
    Any,
    /// Exactly these origins, each normalised to `scheme://host[:port]` as browsers send it.
    List(Vec<HeaderValue>),
}

impl GatewayConfig {
    /// Returns the configuration `settings` give, calling `services` (each with its gRPC URL).
    pub fn new(settings: &Settings, services: Vec<(Service, String)>) -> Self {
        Self {
            services,
            cors_origins: settings.cors_origins.clone().unwrap_or_default(),
            body_limit_bytes: settings.body_limit_bytes,
            request_timeout: Duration::from_secs(settings.request_timeout_secs),
            readiness_timeout: DEFAULT_READINESS_TIMEOUT,
            shutdown_delay: Duration::ZERO,
            limits: LimitSettings::default(),
            limiter: None,
            trusted_proxies: settings.trusted_proxies.clone().unwrap_or_default(),
            csrf_key: crate::csrf::CsrfKey::random(),
        }
    }

    /// Returns a configuration with the given services and every other setting at its default:
    /// what tests and the embedded mode start from.
    pub fn with_services(services: Vec<(Service, String)>) -> Self {
        Self {
            services,
            cors_origins: CorsOrigins::None,
            body_limit_bytes: DEFAULT_BODY_LIMIT_BYTES,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            readiness_timeout: DEFAULT_READINESS_TIMEOUT,
            shutdown_delay: Duration::ZERO,
            limits: LimitSettings::default(),
            limiter: None,
            trusted_proxies: TrustedProxies::default(),
            csrf_key: crate::csrf::CsrfKey::random(),
        }
    }
}

/// Parses `TURNIER_TRUSTED_PROXIES`.
fn parse_trusted_proxies(value: &str) -> Result<TrustedProxies, InvalidValue> {
    TrustedProxies::parse(value).map_err(|_| {
        InvalidValue::new(
            "comma-separated IP addresses or networks (10.0.0.0/8, 192.168.1.5)",
            value,
        )
    })
}

/// Parses a number of bytes greater than zero.
fn positive_bytes(value: &str) -> Result<usize, InvalidValue> {
    positive(value, "a positive number of bytes")
}

/// Parses a number of seconds greater than zero.
fn positive_secs(value: &str) -> Result<u64, InvalidValue> {
    positive(value, "a positive number of seconds")
}

fn positive<T>(value: &str, expected: &'static str) -> Result<T, InvalidValue>
where
    T: std::str::FromStr + PartialOrd + Default,
{
    match value.trim().parse::<T>() {
        Ok(number) if number > T::default() => Ok(number),
        _ => Err(InvalidValue::new(expected, value)),
    }
}

/// Parses `*` or a comma-separated list of origins.
fn parse_cors_origins(value: &str) -> Result<CorsOrigins, InvalidValue> {
    if value.trim() == "*" {
        return Ok(CorsOrigins::Any);
    }
    let origins = value
        .split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(parse_origin)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CorsOrigins::List(origins))
}

/// Parses one origin: `http(s)://host[:port]`, nothing else (no path, query or credentials).
fn parse_origin(entry: &str) -> Result<HeaderValue, InvalidValue> {
    let error = || {
        InvalidValue::new(
            "`*` or comma-separated origins such as `https://turnier.example`",
            entry,
        )
    };
    let url = url::Url::parse(entry).map_err(|_| error())?;
    let is_bare_origin = matches!(url.scheme(), "http" | "https")
        && url.host_str().is_some()
        && url.username().is_empty()
        && url.password().is_none()
        && url.path() == "/"
        && url.query().is_none()
        && url.fragment().is_none();
    if !is_bare_origin {
        return Err(error());
    }
    // Browsers send the serialised origin (lowercase host, no default port), so compare to that.
    HeaderValue::from_str(&url.origin().ascii_serialization()).map_err(|_| error())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use clap::CommandFactory as _;
    use kit::config::{ConfigError, ParseError, Role};

    use super::*;

    /// The gateway's settings and the plumbing ones (the service URLs), as the binary has them.
    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        process: kit::config::Settings,
        #[command(flatten)]
        gateway: Settings,
    }

    fn parse_settings(vars: &[(&str, &str)]) -> Result<Cli, ConfigError> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        match kit::config::parse_from(Cli::command(), ["turnier"], |key| vars.get(key).cloned()) {
            Ok(cli) => Ok(cli),
            Err(ParseError::Setting(err)) => Err(err),
            Err(ParseError::Command(err)) => panic!("not a setting's error: {err}"),
        }
    }

    fn parse(vars: &[(&str, &str)]) -> Result<GatewayConfig, ConfigError> {
        let cli = parse_settings(vars)?;
        let services = cli.process.resolve(Role::Gateway).service_urls;
        Ok(GatewayConfig::new(
            &cli.gateway,
            services.into_iter().collect(),
        ))
    }

    fn error_message(vars: &[(&str, &str)]) -> String {
        parse(vars).expect_err("the value is invalid").to_string()
    }

    #[test]
    fn no_variables_give_the_defaults() {
        let settings = parse_settings(&[]).expect("defaults are valid").gateway;
        assert_eq!(settings.http_addr.to_string(), "127.0.0.1:8080");
        let config = parse(&[]).expect("defaults are valid");
        assert_eq!(config.cors_origins, CorsOrigins::None);
        assert_eq!(config.body_limit_bytes, 2 * 1024 * 1024);
        assert_eq!(config.request_timeout, Duration::from_secs(30));
        assert_eq!(config.readiness_timeout, Duration::from_secs(2));
        assert_eq!(config.services.len(), Service::ALL.len());
        assert_eq!(
            config.services[0],
            (Service::Accounts, "http://127.0.0.1:50058".to_owned())
        );
        assert_eq!(
            config.services[1],
            (Service::Catalog, "http://127.0.0.1:50052".to_owned())
        );
        assert!(config.trusted_proxies.is_empty());
    }

    #[test]
    fn reads_every_variable() {
        let config = parse(&[
            (
                "TURNIER_CORS_ORIGINS",
                "https://turnier.example, http://localhost:5173",
            ),
            ("TURNIER_BODY_LIMIT_BYTES", "1024"),
            ("TURNIER_REQUEST_TIMEOUT_SECS", "5"),
            ("TURNIER_SEARCH_URL", "https://search.turnier.svc:443"),
            ("TURNIER_TRUSTED_PROXIES", "10.0.0.0/8"),
        ])
        .expect("all values are valid");
        assert_eq!(
            config.cors_origins,
            CorsOrigins::List(vec![
                HeaderValue::from_static("https://turnier.example"),
                HeaderValue::from_static("http://localhost:5173"),
            ])
        );
        assert_eq!(config.body_limit_bytes, 1024);
        assert_eq!(config.request_timeout, Duration::from_secs(5));
        assert_eq!(
            config.services[2],
            (Service::Search, "https://search.turnier.svc:443".to_owned())
        );
        assert!(
            config
                .trusted_proxies
                .contains("10.2.3.4".parse().expect("an address"))
        );
    }

    #[test]
    fn a_star_allows_any_origin() {
        let config = parse(&[("TURNIER_CORS_ORIGINS", " * ")]).expect("`*` is valid");
        assert_eq!(config.cors_origins, CorsOrigins::Any);
    }

    #[test]
    fn origins_are_normalised_as_browsers_send_them() {
        let config = parse(&[("TURNIER_CORS_ORIGINS", "HTTPS://Turnier.Example:443/")])
            .expect("a trailing slash and a default port are harmless");
        assert_eq!(
            config.cors_origins,
            CorsOrigins::List(vec![HeaderValue::from_static("https://turnier.example")])
        );
    }

    #[test]
    fn blank_variables_take_their_defaults() {
        let config = parse(&[
            ("TURNIER_BODY_LIMIT_BYTES", ""),
            ("TURNIER_CORS_ORIGINS", "  "),
        ])
        .expect("blank means unset");
        assert_eq!(config.body_limit_bytes, DEFAULT_BODY_LIMIT_BYTES);
        assert_eq!(config.cors_origins, CorsOrigins::None);
    }

    #[test]
    fn a_malformed_body_limit_names_the_variable() {
        assert_eq!(
            error_message(&[("TURNIER_BODY_LIMIT_BYTES", "abc")]),
            "TURNIER_BODY_LIMIT_BYTES: expected a positive number of bytes, got `abc`"
        );
        assert_eq!(
            error_message(&[("TURNIER_BODY_LIMIT_BYTES", "0")]),
            "TURNIER_BODY_LIMIT_BYTES: expected a positive number of bytes, got `0`"
        );
    }

    #[test]
    fn a_malformed_trusted_proxy_names_the_variable() {
        assert_eq!(
            error_message(&[("TURNIER_TRUSTED_PROXIES", "10.0.0.0/8, ingress")]),
            "TURNIER_TRUSTED_PROXIES: expected comma-separated IP addresses or networks (10.0.0.0/8, 192.168.1.5), got `10.0.0.0/8, ingress`"
        );
    }

    #[test]
    fn a_malformed_timeout_names_the_variable() {
        assert_eq!(
            error_message(&[("TURNIER_REQUEST_TIMEOUT_SECS", "-3")]),
            "TURNIER_REQUEST_TIMEOUT_SECS: expected a positive number of seconds, got `-3`"
        );
    }

    #[test]
    fn a_malformed_origin_names_the_variable_and_the_entry() {
        for bad in [
            "turnier.example",
            "ftp://turnier.example",
            "https://x.example/app",
        ] {
            let message =
                error_message(&[("TURNIER_CORS_ORIGINS", &format!("https://ok.example,{bad}"))]);
            assert!(
                message.starts_with("TURNIER_CORS_ORIGINS: expected"),
                "{message}"
            );
            assert!(message.ends_with(&format!("got `{bad}`")), "{message}");
        }
    }

    #[test]
    fn a_malformed_service_url_names_the_variable() {
        for bad in ["catalog:50052", "grpc://catalog:50052", "http://"] {
            let message = error_message(&[("TURNIER_CATALOG_URL", bad)]);
            assert!(
                message.starts_with("TURNIER_CATALOG_URL: expected an http:// or https:// URL"),
                "{message}"
            );
            assert!(message.ends_with(&format!("got `{bad}`")), "{message}");
        }
    }

    #[test]
    fn a_malformed_listen_address_names_the_variable() {
        assert_eq!(
            error_message(&[("TURNIER_HTTP_ADDR", "nope:port")]),
            "TURNIER_HTTP_ADDR: expected host:port, got `nope:port`"
        );
    }
}
