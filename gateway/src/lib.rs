//! The HTTP/JSON front door of Turnier, for the web frontend: an axum router over gRPC clients
//! of the services, with OpenAPI, probes and metrics.
//!
//! The gateway holds no business rules. It converts JSON to a service's request and back, calls
//! the service through its typed client (`kit::clients`), and maps a service's error to one JSON
//! error shape ([`ApiError`]). It depends on no service crate. Channels to the
//! services connect lazily, so the gateway can start before them; `/readyz` says when they
//! are all serving.
//!
//! The `turnier` binary calls [`serve`]; tests call [`router`] with [`tower::ServiceExt::oneshot`]
//! or [`serve`] on a listener bound to `127.0.0.1:0`.

pub mod api;
mod api_error;
pub mod auth;
pub mod config;
pub mod csrf;
mod error;
pub mod forwarded;
pub mod health;
pub mod layers;
pub mod openapi;
mod scrape;
mod state;
pub mod upstream;
pub mod web;

use std::future::Future;

use axum::Router;
use axum::routing::get;
use http::header::CONTENT_TYPE;
use http::{Method, Uri};

pub use api_error::{ApiError, ErrorBody, ErrorObject, grpc_code_name, http_status};
pub use config::{CorsOrigins, GatewayConfig, Settings};
pub use error::Error;
pub use openapi::openapi;
pub use state::AppState;

/// Builds the gateway's router: every route, the JSON 404 fallback, and the layers of
/// [`layers::apply`] around all of them.
pub fn router(state: AppState) -> Router {
    let spec = openapi::openapi_json();
    let routes = Router::new()
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/metrics", get(scrape::metrics))
        .route(
            openapi::OPENAPI_PATH,
            get(move || async move { ([(CONTENT_TYPE, "application/json")], spec) }),
        )
        // Every API route knows its caller; the probes, metrics and the document need none.
        .merge(
            api::routes().route_layer(axum::middleware::from_fn_with_state(
                state.clone(),
                auth::authenticate,
            )),
        )
        // The web frontend's pages and assets, at `/`.
        .merge(web::routes(state.clone()))
        .fallback(no_route);
    // Layers go on last: they wrap only the routes that exist when they are applied.
    layers::apply(routes, state.config()).with_state(state)
}

/// Answers a path (or a path under `/api/v1`) that no route serves: an HTML page to a browser
/// asking for one outside `/api`, the JSON error to everyone else.
async fn no_route(method: Method, uri: Uri, headers: http::HeaderMap) -> axum::response::Response {
    use axum::response::IntoResponse as _;
    let error = ApiError::not_found(format!("no route for `{method} {}`", uri.path()));
    let wants_html = headers
        .get(http::header::ACCEPT)
        .and_then(|accept| accept.to_str().ok())
        .is_some_and(|accept| accept.contains("text/html"));
    if wants_html && !uri.path().starts_with("/api/") {
        return web::answer::error_page(&error);
    }
    error.into_response()
}

/// Serves the gateway on `listener` until `shutdown` resolves, then shuts down gracefully: it
/// answers `/healthz` with 503 `shutting_down` from that moment, keeps accepting connections
/// for the configured shutdown delay (so that load balancers and probes see it), then stops
/// accepting and returns once every in-flight request has been answered.
///
/// The client's address of each connection is known to the handlers (`ConnectInfo`), which
/// name it to the services they call on its behalf. Connections are held to the listener's
/// limits (`kit::listener`: header-read and idle timeouts, keep-alive pings, a cap; a plain
/// `TcpListener` gets the default ones), each with `TCP_NODELAY` set.
///
/// Must run inside a Tokio runtime. Fails at once when a service URL cannot be dialled.
pub async fn serve(
    listener: impl Into<kit::listener::Listener>,
    config: GatewayConfig,
    metrics: kit::metrics::Metrics,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), Error> {
    let listener: kit::listener::Listener = listener.into();
    let state = AppState::new(config, metrics)?;
    let config = state.config();
    let services: Vec<String> = config
        .services
        .iter()
        .map(|(service, url)| format!("{service}={url}"))
        .collect();
    // Logged once, resolved: what the gateway actually runs with (no secrets in here).
    tracing::info!(
        address = ?listener.local_addr().ok(),
        services = ?services,
        cors_origins = ?config.cors_origins,
        body_limit_bytes = config.body_limit_bytes,
        request_timeout = ?config.request_timeout,
        readiness_timeout = ?config.readiness_timeout,
        connections = ?listener.limits(),
        "gateway listening"
    );
    let app = router(state.clone());
    let delay = state.config().shutdown_delay;
    let shutdown = async move {
        shutdown.await;
        state.begin_shutdown();
        tracing::info!(
            delay_ms = delay.as_millis() as u64,
            "gateway shutting down: /healthz says so, then no new connections"
        );
        tokio::time::sleep(delay).await;
        tracing::info!("gateway draining requests in flight");
    };
    kit::listener::serve_http(listener, app, shutdown).await;
    tracing::info!("gateway stopped");
    Ok(())
}
