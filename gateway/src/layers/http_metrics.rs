//! Counts and times every HTTP request, labelled by method, route template and status.
//!
//! The route label is the template the request matched (`/api/v1/decks/{id}`), never the raw
//! path, so that the number of series stays bounded whatever clients send.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use http::Method;

/// Counter: requests answered, by `method`, `route` and `status`.
pub const HTTP_REQUESTS_TOTAL: &str = "turnier_http_requests_total";
/// Histogram: seconds until the response head was ready, by `method` and `route`.
pub const HTTP_REQUEST_DURATION_SECONDS: &str = "turnier_http_request_duration_seconds";

/// The route label of a request that matched no route (it got the 404 fallback).
pub(super) const UNMATCHED_ROUTE: &str = "unmatched";

/// Records one request's count and duration.
///
/// The duration ends when the response head is ready, not when its body has been sent: that
/// is the gateway's own latency, whatever the client's bandwidth.
pub(super) async fn record(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = method_label(request.method());
    let route = request.extensions().get::<MatchedPath>().map_or_else(
        || UNMATCHED_ROUTE.to_owned(),
        |path| path.as_str().to_owned(),
    );
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    // The histogram has the same labels as the kit's gRPC one (who and what, not the outcome).
    metrics::histogram!(
        HTTP_REQUEST_DURATION_SECONDS,
        "method" => method,
        "route" => route.clone(),
    )
    .record(started.elapsed().as_secs_f64());
    metrics::counter!(
        HTTP_REQUESTS_TOTAL,
        "method" => method,
        "route" => route,
        "status" => status,
    )
    .increment(1);
    response
}

/// Returns the method's label; extension methods share one, so clients cannot add series.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        _ => "OTHER",
    }
}
