//! Prometheus metrics: the process-wide recorder, the `/metrics` endpoint of a service that
//! runs alone, and the gRPC request metrics layer.
//!
//! Code records with the `metrics` crate's macros anywhere; this module only decides where the
//! numbers go. The gateway serves the same registry on its own `/metrics` route.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

/// Latency buckets in seconds, from a cached lookup to a slow script run.
const LATENCY_BUCKETS: [f64; 14] = [
    0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// A handle on the Prometheus registry: renders the text exposition format.
#[derive(Clone)]
pub struct Metrics {
    handle: PrometheusHandle,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

/// The error when the global recorder cannot be installed.
#[derive(Debug, thiserror::Error)]
#[error("cannot install the metrics recorder: {0}")]
pub struct MetricsError(String);

fn builder() -> Result<PrometheusBuilder, MetricsError> {
    PrometheusBuilder::new()
        .set_buckets(&LATENCY_BUCKETS)
        .map_err(|err| MetricsError(err.to_string()))
}

impl Metrics {
    /// Installs the process-wide recorder and starts its upkeep task (which keeps histogram
    /// memory bounded). Call once, from `main`, inside the Tokio runtime.
    pub fn install() -> Result<Self, MetricsError> {
        let handle = builder()?
            .install_recorder()
            .map_err(|err| MetricsError(err.to_string()))?;
        let upkeep = handle.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(5));
            loop {
                tick.tick().await;
                upkeep.run_upkeep();
            }
        });
        Ok(Self { handle })
    }

    /// Returns a handle on a recorder that is not installed globally: for tests that only
    /// need something to render.
    pub fn for_tests() -> Self {
        let recorder = builder()
            .expect("the constant buckets are valid")
            .build_recorder();
        Self {
            handle: recorder.handle(),
        }
    }

    /// Renders every metric in the Prometheus text format.
    pub fn render(&self) -> String {
        self.handle.render()
    }
}

/// Serves `GET /metrics` (and `GET /healthz`, for the container's liveness) on `listener` until
/// `shutdown` resolves: what a service running alone exposes for scraping.
pub async fn serve(
    listener: tokio::net::TcpListener,
    metrics: Metrics,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use axum::routing::get;
    let app = axum::Router::new()
        .route(
            "/metrics",
            get(move || {
                let metrics = metrics.clone();
                async move {
                    (
                        [(http::header::CONTENT_TYPE, "text/plain; version=0.0.4")],
                        metrics.render(),
                    )
                }
            }),
        )
        .route("/healthz", get(|| async { "ok" }));
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}

/// The tower layer that counts and times every gRPC request a server handles.
#[derive(Debug, Clone, Copy, Default)]
pub struct GrpcMetricsLayer;

impl<S> tower::Layer<S> for GrpcMetricsLayer {
    type Service = GrpcMetrics<S>;

    fn layer(&self, inner: S) -> Self::Service {
        GrpcMetrics { inner }
    }
}

/// See [`GrpcMetricsLayer`].
#[derive(Debug, Clone)]
pub struct GrpcMetrics<S> {
    inner: S,
}

impl<S, B, R> tower::Service<http::Request<B>> for GrpcMetrics<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<R>>,
    S::Future: Send + 'static,
    S::Error: 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let (service, method) = split_grpc_path(request.uri().path());
        let started = Instant::now();
        let response = self.inner.call(request);
        Box::pin(async move {
            let response = response.await;
            // Errors returned before any message travel as "trailers-only" responses, with the
            // status in the headers; a status in trailers (a streamed success) counts as OK.
            let code = match &response {
                Ok(response) => response
                    .headers()
                    .get("grpc-status")
                    .and_then(|value| value.to_str().ok())
                    .map_or_else(|| "0".to_owned(), str::to_owned),
                Err(_) => "transport_error".to_owned(),
            };
            let labels = [("service", service), ("method", method), ("code", code)];
            metrics::counter!("turnier_grpc_requests_total", &labels).increment(1);
            metrics::histogram!("turnier_grpc_request_duration_seconds", &labels[..2])
                .record(started.elapsed().as_secs_f64());
            response
        })
    }
}

/// Splits `/package.Service/Method` into its two labels; anything else is `unknown`.
fn split_grpc_path(path: &str) -> (String, String) {
    let mut parts = path.trim_start_matches('/').splitn(2, '/');
    match (parts.next(), parts.next()) {
        (Some(service), Some(method)) if !service.is_empty() && !method.is_empty() => {
            (service.to_owned(), method.to_owned())
        }
        _ => ("unknown".to_owned(), "unknown".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_paths_split_into_service_and_method() {
        assert_eq!(
            split_grpc_path("/grpc.health.v1.Health/Check"),
            ("grpc.health.v1.Health".to_owned(), "Check".to_owned())
        );
        assert_eq!(
            split_grpc_path("/nonsense"),
            ("unknown".to_owned(), "unknown".to_owned())
        );
    }

    #[test]
    fn a_test_handle_renders_without_a_global_recorder() {
        assert_eq!(Metrics::for_tests().render(), "");
    }
}
