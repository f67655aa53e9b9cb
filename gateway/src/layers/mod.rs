//! The tower layers every request of the HTTP API passes through, and their order.
//!
//! The handlers know nothing of request ids, traces, metrics, CORS, body limits or timeouts:
//! [`apply`] wraps them all here, once, so a new route gets every one of them for free.

mod http_metrics;
mod json_errors;
mod request_head;

use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, MatchedPath};
use http::header::{AUTHORIZATION, CONTENT_TYPE};
use http::{HeaderName, Method, Request, StatusCode};
use tower::ServiceBuilder;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::sensitive_headers::SetSensitiveRequestHeadersLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::config::{CorsOrigins, GatewayConfig};

pub use http_metrics::{HTTP_REQUEST_DURATION_SECONDS, HTTP_REQUESTS_TOTAL};
pub use request_head::{MAX_HEADER_BYTES, MAX_URI_BYTES};

/// The header that carries a request's id, generated when the client sends none.
pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// How long a browser may cache a CORS preflight answer.
const CORS_MAX_AGE: Duration = Duration::from_secs(60 * 60);

/// Wraps every route (and the fallback) of `routes` in the gateway's layers.
///
/// Call it on the complete router: routes merged in afterwards would go unwrapped. The layers
/// go on with [`Router::layer`], inside the routing, so that the matched route template
/// ([`MatchedPath`]) is known to the trace span and to the metrics.
pub fn apply<S>(routes: Router<S>, config: &GatewayConfig) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    let stack = ServiceBuilder::new()
        // First of all: the token in `Authorization` (and any cookie) is marked sensitive, so
        // no layer or log that prints headers ever shows it.
        .layer(SetSensitiveRequestHeadersLayer::new([
            AUTHORIZATION,
            http::header::COOKIE,
        ]))
        // Outermost of the rest, so that the trace span, the logs and every response below it, including
        // the ones layers produce on their own (413, 504, CORS preflights), see one id.
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        // Right after the id is set, so that every response leaving the gateway echoes it,
        // whichever layer below produced it.
        .layer(PropagateRequestIdLayer::x_request_id())
        // Inside the request id (the span records it), outside the rest, so that the span
        // covers them all and the response log line carries the final status.
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(make_span)
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        // Outside CORS, the body limit and the timeout, so that their rejections are counted
        // with the status the client actually got.
        .layer(axum::middleware::from_fn(http_metrics::record))
        // Around everything that can answer HTML (a page, the 404 fallback, the error page of
        // a refused session): no HTML leaves without the pages' security headers.
        .layer(axum::middleware::from_fn(crate::web::headers::html_headers))
        // Outside the error rewriting, the limit and the timeout, so that a browser can read
        // our error responses too, and a preflight is answered before any of them runs.
        .layer(cors(&config.cors_origins))
        // Inside CORS (a browser reads the refusal) and before anything reads the request:
        // an oversized URI or header set is refused in the JSON error shape.
        .layer(axum::middleware::from_fn(request_head::bound_request_head))
        // Outside the timeout and the body limit (and around axum's own 404/405), because those
        // answer with bare statuses: this gives them the JSON error body.
        .layer(axum::middleware::from_fn_with_state(
            config.body_limit_bytes,
            json_errors::rewrite_bare_errors,
        ))
        // Inside the error rewriting, which turns its empty 504 into `deadline_exceeded`.
        .layer(TimeoutLayer::with_status_code(
            StatusCode::GATEWAY_TIMEOUT,
            config.request_timeout,
        ))
        // Innermost: it bounds what a handler can read. A declared Content-Length over the
        // limit is refused at once with 413; a streamed body that grows past it fails the
        // extractor, which axum also answers with 413.
        .layer(RequestBodyLimitLayer::new(config.body_limit_bytes))
        // axum's own 2 MiB default would otherwise cap bodies below a larger configured limit.
        .layer(DefaultBodyLimit::disable());
    routes.layer(stack)
}

/// Builds the span of one request: method, path, matched route and request id, continuing the
/// caller's trace when it sent a `traceparent`.
fn make_span<B>(request: &Request<B>) -> tracing::Span {
    let request_id = request
        .headers()
        .get(REQUEST_ID_HEADER)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or(http_metrics::UNMATCHED_ROUTE, MatchedPath::as_str);
    // The path only, never the query string: queries can carry tokens and search text.
    let span = tracing::info_span!(
        "http_request",
        http.method = %request.method(),
        http.path = %request.uri().path(),
        http.route = route,
        request_id,
    );
    kit::telemetry::set_parent_from_http(&span, request.headers());
    span
}

/// Builds the CORS layer for the configured origins.
///
/// With no origins configured the layer still runs but allows nothing: a preflight gets an
/// answer without `access-control-allow-origin`, which the browser treats as a refusal.
fn cors(origins: &CorsOrigins) -> CorsLayer {
    let allow_origin = match origins {
        CorsOrigins::None => AllowOrigin::list([]),
        CorsOrigins::Any => AllowOrigin::any(),
        CorsOrigins::List(origins) => AllowOrigin::list(origins.iter().cloned()),
    };
    CorsLayer::new()
        .allow_origin(allow_origin)
        .allow_methods([
            Method::GET,
            Method::POST,
            Method::PUT,
            Method::PATCH,
            Method::DELETE,
        ])
        .allow_headers([
            CONTENT_TYPE,
            AUTHORIZATION,
            HeaderName::from_static(REQUEST_ID_HEADER),
            HeaderName::from_static("traceparent"),
            HeaderName::from_static("tracestate"),
            // A tournament's event stream resumes after it. A browser's `EventSource` sends it
            // without a preflight; a fetch-based client that sets it itself needs it allowed.
            HeaderName::from_static("last-event-id"),
        ])
        // So that frontend code can read the id to quote it in a bug report.
        .expose_headers([HeaderName::from_static(REQUEST_ID_HEADER)])
        .max_age(CORS_MAX_AGE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::routing::get;
    use tower::ServiceExt;

    /// A request whose handler never finishes is answered 504 with the JSON error body.
    #[tokio::test(start_paused = true)]
    async fn a_slow_request_times_out_with_a_json_error() {
        let mut config = GatewayConfig::with_services(Vec::new());
        config.request_timeout = Duration::from_secs(3);
        let app = apply(
            Router::new().route("/slow", get(std::future::pending::<()>)),
            &config,
        );

        // Paused time advances to the timeout as soon as the runtime is idle: no waiting.
        let response = app
            .oneshot(
                Request::get("/slow")
                    .body(Body::empty())
                    .expect("valid request"),
            )
            .await
            .expect("infallible");

        assert_eq!(response.status(), StatusCode::GATEWAY_TIMEOUT);
        assert!(response.headers().contains_key(REQUEST_ID_HEADER));
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a buffered body");
        let body: serde_json::Value = serde_json::from_slice(&body).expect("a JSON body");
        assert_eq!(body["error"]["code"], "deadline_exceeded");
    }

    /// A body that streams past the limit without a Content-Length still gets 413 JSON.
    #[tokio::test]
    async fn a_streamed_body_over_the_limit_is_refused_with_a_json_error() {
        let mut config = GatewayConfig::with_services(Vec::new());
        config.body_limit_bytes = 8;
        let app = apply(
            Router::new().route("/echo", axum::routing::post(|body: String| async { body })),
            &config,
        );
        let chunks = futures::stream::iter(["0123", "4567", "89"].map(Ok::<_, std::io::Error>));
        let request = Request::post("/echo")
            .body(Body::from_stream(chunks))
            .expect("valid request");

        let response = app.oneshot(request).await.expect("infallible");

        assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a buffered body");
        let body: serde_json::Value = serde_json::from_slice(&body).expect("a JSON body");
        assert_eq!(body["error"]["code"], "payload_too_large");
        assert_eq!(body["error"]["details"]["limit_bytes"], 8);
    }
}
