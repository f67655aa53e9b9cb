//! `GET /metrics`: the process's Prometheus metrics in the text exposition format.
//!
//! The gateway records its own HTTP metrics in [`crate::layers`]; in the all-in-one mode the
//! same registry also holds every service's, so one scrape sees the whole process.

use axum::extract::State;
use http::header::CONTENT_TYPE;

use crate::state::AppState;

/// The content type of the Prometheus text format.
const PROMETHEUS_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Renders every metric of the process.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    responses(
        (status = 200, description = "Prometheus text exposition format", body = String,
         content_type = "text/plain; version=0.0.4"),
    )
)]
pub async fn metrics(
    State(state): State<AppState>,
) -> ([(http::HeaderName, &'static str); 1], String) {
    ([(CONTENT_TYPE, PROMETHEUS_TEXT)], state.metrics().render())
}
