//! Bounds the request head (the URI and the headers) below hyper's own limits, so that an
//! oversized head is refused with the JSON error body rather than hyper's empty one.
//!
//! hyper refuses a URI the `http` crate cannot hold (64 KiB and more) and a head larger than
//! its read buffer (~400 KiB, or more than 100 headers) itself, with an empty 414 or 431 and a
//! closed connection, before any layer runs; a malformed request line gets an empty 400 the
//! same way. Those stay bare: no code of ours sees them. Everything from these limits up to
//! hyper's is refused here, in the documented shape.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::StatusCode;

use crate::api_error::ApiError;

/// The longest request URI (path and query) served, in bytes: 16 KiB, a quarter of what hyper
/// itself takes; a search query of a few hundred characters is far below it.
pub const MAX_URI_BYTES: usize = 16 * 1024;

/// The most header bytes (names, values and their separators) a request may carry: 64 KiB,
/// well below hyper's read buffer.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;

/// Refuses a request whose URI or headers are over their limits: 414 `uri_too_long`, 431
/// `headers_too_large`, each saying the size found and the limit.
pub(super) async fn bound_request_head(request: Request, next: Next) -> Response {
    let uri_bytes = request
        .uri()
        .path_and_query()
        .map_or(0, |path| path.as_str().len());
    if uri_bytes > MAX_URI_BYTES {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            "uri_too_long",
            format!("the request URI is {uri_bytes} bytes, more than the {MAX_URI_BYTES} allowed"),
        )
        .with_details(serde_json::json!({ "limit_bytes": MAX_URI_BYTES }))
        .into_response();
    }
    let header_bytes: usize = request
        .headers()
        .iter()
        // `name: value\r\n`, as the client sent it.
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    if header_bytes > MAX_HEADER_BYTES {
        return ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers_too_large",
            format!(
                "the request headers are {header_bytes} bytes, more than the {MAX_HEADER_BYTES} \
                 allowed"
            ),
        )
        .with_details(serde_json::json!({ "limit_bytes": MAX_HEADER_BYTES }))
        .into_response();
    }
    next.run(request).await
}
