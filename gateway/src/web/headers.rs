//! The security headers of every HTML answer: the strict Content-Security-Policy, never
//! framed, never sniffed, never cached.
//!
//! Pages get them from their own route layer ([`page_headers`], on every answer of theirs,
//! redirects included); any other HTML the gateway answers (the 404 page of an unknown
//! address, an error page a layer draws) gets them from [`html_headers`], which
//! `crate::layers::apply` puts around every route, so no HTML can leave without them.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use http::{HeaderMap, HeaderValue};

use super::CONTENT_SECURITY_POLICY_VALUE;

/// Sets the pages' security headers on `headers`. Pages are never cached: they show who is
/// signed in, and their forms carry that browser's CSRF token.
pub fn secure(headers: &mut HeaderMap) {
    headers.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY_VALUE),
    );
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

/// The security headers of every answer of a page.
pub(super) async fn page_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    secure(response.headers_mut());
    response
}

/// The security headers of every HTML answer, whichever route (or none) made it.
pub async fn html_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    if is_html(response.headers()) {
        secure(response.headers_mut());
    }
    response
}

/// Returns whether `headers` say the body is HTML.
fn is_html(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("text/html"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_told_by_its_content_type_whatever_its_parameters() {
        let mut headers = HeaderMap::new();
        assert!(!is_html(&headers));
        headers.insert(
            CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        assert!(is_html(&headers));
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        assert!(!is_html(&headers));
    }
}
