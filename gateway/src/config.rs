//! The gateway's settings: where each gRPC service is, which browser origins may call the API,
//! and the limits every request runs under.
//!
//! This is the only module of the crate that reads the environment. Parsing takes a lookup
//! function so that tests never touch the process environment; the `turnier` binary decides
//! the default address of each service (its own port in the all-in-one mode).

use std::time::Duration;

use http::HeaderValue;
use kit::services::Service;

/// Variable: `*`, or a comma-separated list of browser origins allowed to call the API.
pub const CORS_ORIGINS_VAR: &str = "TURNIER_CORS_ORIGINS";
/// Variable: the largest request body accepted, in bytes.
pub const BODY_LIMIT_BYTES_VAR: &str = "TURNIER_BODY_LIMIT_BYTES";
/// Variable: how long a request may take, in whole seconds, before it is answered with 504.
pub const REQUEST_TIMEOUT_SECS_VAR: &str = "TURNIER_REQUEST_TIMEOUT_SECS";

/// The default largest request body: 2 MiB, well above a deck list or a script source.
pub const DEFAULT_BODY_LIMIT_BYTES: usize = 2 * 1024 * 1024;
/// The default time a request may take before the gateway answers 504.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The default time every service has to answer a readiness health check.
///
/// Short, because a Kubernetes readiness probe has its own timeout (1 s by default in the
/// probe, which the chart raises) and an answer after it is worthless.
pub const DEFAULT_READINESS_TIMEOUT: Duration = Duration::from_secs(2);

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

/// A setting that does not parse; the message names the variable and the value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{variable}: expected {expected}, got `{value}`")]
pub struct ConfigError {
    /// The environment variable that holds the bad value.
    pub variable: &'static str,
    /// What the variable should hold.
    pub expected: &'static str,
    /// The offending value (or, for a list, the offending entry).
    pub value: String,
}

impl GatewayConfig {
    /// Reads the configuration from the process environment.
    ///
    /// `default_service_url` gives the URL of a service whose variable is unset.
    pub fn from_env(default_service_url: impl Fn(Service) -> String) -> Result<Self, ConfigError> {
        Self::from_lookup(|key| std::env::var(key).ok(), default_service_url)
    }

    /// Reads the configuration through `get`, which returns a variable's value if it is set.
    ///
    /// Unset and blank variables take their defaults (a Helm chart often renders an unset value
    /// as an empty string). Every service of [`Service::ALL`] is configured; `default_service_url`
    /// gives the URL of one whose variable is unset, and is validated like a given one.
    pub fn from_lookup(
        get: impl Fn(&str) -> Option<String>,
        default_service_url: impl Fn(Service) -> String,
    ) -> Result<Self, ConfigError> {
        let get = |key: &str| get(key).filter(|value| !value.trim().is_empty());
        let services = Service::ALL
            .into_iter()
            .map(|service| {
                let url = get(service.url_env()).unwrap_or_else(|| default_service_url(service));
                Ok((service, parse_service_url(service.url_env(), &url)?))
            })
            .collect::<Result<Vec<_>, ConfigError>>()?;
        Ok(Self {
            services,
            cors_origins: get(CORS_ORIGINS_VAR)
                .map(|value| parse_cors_origins(&value))
                .transpose()?
                .unwrap_or_default(),
            body_limit_bytes: get(BODY_LIMIT_BYTES_VAR)
                .map(|value| {
                    parse_positive(BODY_LIMIT_BYTES_VAR, "a positive number of bytes", &value)
                })
                .transpose()?
                .unwrap_or(DEFAULT_BODY_LIMIT_BYTES),
            request_timeout: get(REQUEST_TIMEOUT_SECS_VAR)
                .map(|value| {
                    parse_positive(
                        REQUEST_TIMEOUT_SECS_VAR,
                        "a positive number of seconds",
                        &value,
                    )
                    .map(Duration::from_secs)
                })
                .transpose()?
                .unwrap_or(DEFAULT_REQUEST_TIMEOUT),
            readiness_timeout: DEFAULT_READINESS_TIMEOUT,
        })
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
        }
    }
}

/// Parses a whole number greater than zero.
fn parse_positive<T>(
    variable: &'static str,
    expected: &'static str,
    value: &str,
) -> Result<T, ConfigError>
where
    T: std::str::FromStr + PartialOrd + Default,
{
    match value.trim().parse::<T>() {
        Ok(number) if number > T::default() => Ok(number),
        _ => Err(ConfigError {
            variable,
            expected,
            value: value.to_owned(),
        }),
    }
}

/// Checks that `value` is an `http://` or `https://` URL with a host, as tonic dials it.
fn parse_service_url(variable: &'static str, value: &str) -> Result<String, ConfigError> {
    let error = || ConfigError {
        variable,
        expected: "an http:// or https:// URL such as `http://127.0.0.1:50052`",
        value: value.to_owned(),
    };
    let value = value.trim();
    let url = url::Url::parse(value).map_err(|_| error())?;
    let is_http = matches!(url.scheme(), "http" | "https");
    // tonic parses the address again as an `http::Uri`; check here so a bad one stops startup
    // with the variable's name rather than failing later inside the transport.
    if !is_http || url.host_str().is_none() || value.parse::<http::Uri>().is_err() {
        return Err(error());
    }
    Ok(value.to_owned())
}

/// Parses `*` or a comma-separated list of origins.
fn parse_cors_origins(value: &str) -> Result<CorsOrigins, ConfigError> {
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
fn parse_origin(entry: &str) -> Result<HeaderValue, ConfigError> {
    let error = || ConfigError {
        variable: CORS_ORIGINS_VAR,
        expected: "`*` or comma-separated origins such as `https://turnier.example`",
        value: entry.to_owned(),
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
    use super::*;
    use std::collections::HashMap;

    fn default_url(service: Service) -> String {
        format!("http://127.0.0.1:{}", service.default_port())
    }

    fn parse(vars: &[(&str, &str)]) -> Result<GatewayConfig, ConfigError> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        GatewayConfig::from_lookup(|key| vars.get(key).cloned(), default_url)
    }

    fn error_message(vars: &[(&str, &str)]) -> String {
        parse(vars).expect_err("the value is invalid").to_string()
    }

    #[test]
    fn no_variables_give_the_defaults() {
        let config = parse(&[]).expect("defaults are valid");
        assert_eq!(config.cors_origins, CorsOrigins::None);
        assert_eq!(config.body_limit_bytes, 2 * 1024 * 1024);
        assert_eq!(config.request_timeout, Duration::from_secs(30));
        assert_eq!(config.readiness_timeout, Duration::from_secs(2));
        assert_eq!(config.services.len(), Service::ALL.len());
        assert_eq!(
            config.services[0],
            (Service::Catalog, "http://127.0.0.1:50052".to_owned())
        );
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
            config.services[1],
            (Service::Search, "https://search.turnier.svc:443".to_owned())
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
    fn a_malformed_default_service_url_is_reported_too() {
        let err = GatewayConfig::from_lookup(|_| None, |_| "nonsense".to_owned())
            .expect_err("the default is invalid");
        assert_eq!(err.variable, "TURNIER_CATALOG_URL");
    }
}
