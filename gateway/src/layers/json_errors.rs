//! Gives the JSON error body to error responses produced outside our handlers.
//!
//! tower-http's timeout and body limit layers, and axum's own 404/405 and extractor
//! rejections, answer with an empty or plain-text body. A client should parse one error
//! shape, so every error response that is not JSON (or a web page's HTML) already is rebuilt here as an
//! [`ApiError`], keeping its status and headers.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use http::header::{CONTENT_LENGTH, CONTENT_TYPE};

use crate::api_error::ApiError;

/// The most of a bare error body read to reuse as the message; rejection texts are one line.
const MAX_BARE_BODY_BYTES: usize = 4 * 1024;

/// Rewrites a non-JSON error response into the JSON error body. `body_limit_bytes` is the
/// configured limit, quoted in the 413 message.
pub(super) async fn rewrite_bare_errors(
    State(body_limit_bytes): State<usize>,
    request: Request,
    next: Next,
) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) || is_json(&response) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let error = if status == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::payload_too_large(body_limit_bytes)
    } else {
        let text = axum::body::to_bytes(body, MAX_BARE_BODY_BYTES).await.ok();
        let text = text
            .as_deref()
            .and_then(|bytes| std::str::from_utf8(bytes).ok());
        ApiError::from_http_status(status, text)
    };
    let (error_parts, error_body) = error.into_response().into_parts();
    // Keep what the original response said besides its body (`allow` on a 405, CORS and
    // request id headers set further in), replacing only the body's own headers.
    parts.headers.remove(CONTENT_LENGTH);
    parts.headers.remove(CONTENT_TYPE);
    parts.headers.extend(error_parts.headers);
    Response::from_parts(parts, Body::new(error_body))
}

/// Returns whether the response already has a JSON body (`application/json`, `…+json`).
fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .map(str::trim)
        // A web page's error is an HTML page for the person reading it: left as it is.
        .is_some_and(|mime| {
            mime == "application/json" || mime.ends_with("+json") || mime == "text/html"
        })
}
