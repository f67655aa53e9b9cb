//! Logs and traces: `tracing` everywhere, OpenTelemetry spans exported over OTLP when an
//! endpoint is configured, and the W3C trace context carried across every gRPC hop.
//!
//! A tracer provider is installed even without an exporter, so trace ids exist and propagate
//! (and appear in logs) on a laptop too; only the export needs a collector. Metrics live in
//! [`crate::metrics`].

use std::str::FromStr;

use opentelemetry::propagation::{Extractor, Injector, TextMapPropagator};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig as _;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

/// How log lines are written to standard error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// Human-readable lines (the default on a laptop).
    #[default]
    Text,
    /// One JSON object per line (what the Helm chart sets, for log collectors).
    Json,
}

impl FromStr for LogFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "text" => Ok(Self::Text),
            "json" => Ok(Self::Json),
            other => Err(format!("expected `text` or `json`, got `{other}`")),
        }
    }
}

/// What [`init`] needs: read once by [`crate::config`], never from the environment here.
#[derive(Debug, Clone)]
pub struct TelemetryConfig {
    /// The `RUST_LOG` filter directives (default `info`).
    pub log_filter: String,
    /// The log line format.
    pub log_format: LogFormat,
    /// The OTLP/gRPC collector endpoint; `None` exports no spans.
    pub otlp_endpoint: Option<String>,
    /// The `service.name` resource attribute of exported spans.
    pub service_name: String,
}

/// The error when telemetry cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    /// The log filter does not parse.
    #[error("RUST_LOG: {0}")]
    Filter(String),
    /// The OTLP exporter could not be built.
    #[error("OTEL_EXPORTER_OTLP_ENDPOINT: {0}")]
    Exporter(String),
    /// A global subscriber was already installed.
    #[error("telemetry is already initialised: {0}")]
    AlreadyInitialised(String),
}

/// Keeps the tracer provider alive; flushes pending spans when dropped.
#[must_use = "dropping the guard stops span export"]
pub struct TelemetryGuard {
    provider: SdkTracerProvider,
}

impl std::fmt::Debug for TelemetryGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TelemetryGuard").finish_non_exhaustive()
    }
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        // Export what is buffered; a collector that is gone must not hang the exit.
        if let Err(err) = self
            .provider
            .shutdown_with_timeout(std::time::Duration::from_secs(3))
        {
            eprintln!("turnier: flushing traces failed: {err}");
        }
    }
}

/// Builds the tracer provider: always sampling, exporting over OTLP only when configured.
fn tracer_provider(config: &TelemetryConfig) -> Result<SdkTracerProvider, TelemetryError> {
    let resource = Resource::builder()
        .with_service_name(config.service_name.clone())
        .build();
    let mut builder = SdkTracerProvider::builder().with_resource(resource);
    if let Some(endpoint) = &config.otlp_endpoint {
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_tonic()
            .with_endpoint(endpoint.clone())
            .build()
            .map_err(|err| TelemetryError::Exporter(err.to_string()))?;
        builder = builder.with_batch_exporter(exporter);
    }
    Ok(builder.build())
}

/// Installs the global subscriber (filter, log format, OpenTelemetry layer) and the W3C
/// trace-context propagator. Call once, first thing in `main`.
pub fn init(config: &TelemetryConfig) -> Result<TelemetryGuard, TelemetryError> {
    let filter = EnvFilter::builder()
        .parse(&config.log_filter)
        .map_err(|err| TelemetryError::Filter(err.to_string()))?;
    let provider = tracer_provider(config)?;
    let otel = tracing_opentelemetry::layer().with_tracer(provider.tracer("turnier"));
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());

    let fmt = match config.log_format {
        LogFormat::Text => tracing_subscriber::fmt::layer()
            // Colours only for a person at a terminal, never in a log file.
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .with_writer(std::io::stderr)
            .boxed(),
        LogFormat::Json => tracing_subscriber::fmt::layer()
            .json()
            .with_current_span(true)
            .with_writer(std::io::stderr)
            .boxed(),
    };
    tracing_subscriber::registry()
        .with(filter)
        .with(fmt)
        .with(otel)
        .try_init()
        .map_err(|err| TelemetryError::AlreadyInitialised(err.to_string()))?;
    Ok(TelemetryGuard { provider })
}

/// Writes the W3C `traceparent` (and `tracestate`) of the current span into outgoing gRPC
/// metadata, so the callee's spans join the caller's trace.
pub fn inject_into_metadata(metadata: &mut tonic::metadata::MetadataMap) {
    let context = tracing::Span::current().context();
    TraceContextPropagator::new().inject_context(&context, &mut MetadataInjector(metadata));
}

/// Makes the trace context in incoming HTTP (or gRPC, which is HTTP/2) headers the parent of
/// `span`. Headers without a valid `traceparent` leave the span a trace root.
pub fn set_parent_from_http(span: &tracing::Span, headers: &http::HeaderMap) {
    let context = TraceContextPropagator::new().extract(&HeaderExtractor(headers));
    // Fails only when no OpenTelemetry layer is installed (e.g. in a unit test): nothing to link.
    let _ = span.set_parent(context);
}

/// Returns the trace id of `span` as 32 hex digits, or `None` outside a sampled trace.
pub fn trace_id(span: &tracing::Span) -> Option<String> {
    use opentelemetry::trace::TraceContextExt;
    let context = span.context();
    let span_context = context.span().span_context().clone();
    span_context
        .is_valid()
        .then(|| span_context.trace_id().to_string())
}

/// The `tonic` interceptor for outgoing calls: adds the current trace context.
pub fn trace_interceptor(
    mut request: tonic::Request<()>,
) -> Result<tonic::Request<()>, tonic::Status> {
    inject_into_metadata(request.metadata_mut());
    // Every channel of our own clients is traced: its calls are ours (`crate::internal`).
    crate::internal::mark_internal(request.metadata_mut());
    Ok(request)
}

struct MetadataInjector<'a>(&'a mut tonic::metadata::MetadataMap);

impl Injector for MetadataInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(key), Ok(value)) = (
            tonic::metadata::MetadataKey::from_bytes(key.as_bytes()),
            tonic::metadata::MetadataValue::try_from(value.as_str()),
        ) {
            self.0.insert(key, value);
        }
    }
}

struct HeaderExtractor<'a>(&'a http::HeaderMap);

impl Extractor for HeaderExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|value| value.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(http::HeaderName::as_str).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    fn with_otel_subscriber(test: impl FnOnce()) {
        let provider = SdkTracerProvider::builder().build();
        let subscriber = tracing_subscriber::registry()
            .with(tracing_opentelemetry::layer().with_tracer(provider.tracer("test")));
        tracing::subscriber::with_default(subscriber, test);
    }

    #[test]
    fn a_trace_context_received_over_http_is_sent_on_over_grpc() {
        with_otel_subscriber(|| {
            let mut headers = http::HeaderMap::new();
            headers.insert("traceparent", PARENT.parse().expect("a valid header value"));
            let span = tracing::info_span!("request");
            set_parent_from_http(&span, &headers);
            let _entered = span.enter();

            let mut metadata = tonic::metadata::MetadataMap::new();
            inject_into_metadata(&mut metadata);
            let sent = metadata
                .get("traceparent")
                .and_then(|v| v.to_str().ok())
                .expect("a traceparent is injected");
            // Same trace, new span id: the callee's span is a child of ours.
            assert!(
                sent.starts_with("00-4bf92f3577b34da6a3ce929d0e0e4736-"),
                "{sent}"
            );
            assert_ne!(sent, PARENT);
            assert_eq!(
                trace_id(&span).as_deref(),
                Some("4bf92f3577b34da6a3ce929d0e0e4736")
            );
        });
    }

    #[test]
    fn a_request_without_trace_context_starts_a_new_trace() {
        with_otel_subscriber(|| {
            let span = tracing::info_span!("request");
            set_parent_from_http(&span, &http::HeaderMap::new());
            let _entered = span.enter();
            let mut metadata = tonic::metadata::MetadataMap::new();
            inject_into_metadata(&mut metadata);
            assert!(metadata.get("traceparent").is_some());
        });
    }

    #[test]
    fn log_format_names_the_accepted_values() {
        assert_eq!("json".parse::<LogFormat>(), Ok(LogFormat::Json));
        assert!(
            "yaml"
                .parse::<LogFormat>()
                .unwrap_err()
                .contains("`text` or `json`")
        );
    }
}
