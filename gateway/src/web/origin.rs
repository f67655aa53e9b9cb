//! Refuses a form another site made the browser send: every request to the pages that may
//! change something (any method but GET, HEAD, OPTIONS) must come from the pages themselves.
//!
//! The CSRF token ([`crate::csrf`]) already stops another site that cannot read our pages.
//! This is the second, independent check the browser gives for free: it says where a request
//! comes from, in `Sec-Fetch-Site` (every current browser) and `Origin` (on every POST).
//!
//! - `Sec-Fetch-Site` must be `same-origin` or `none` (typed in, a bookmark). `cross-site` is
//!   another site; `same-site` is refused too, because a sibling host (`evil.example.com`
//!   next to `turnier.example.com`) is exactly who can plant cookies on us.
//! - `Origin`, when sent, must name the host the request was sent to (its `Host`, or the
//!   `X-Forwarded-Host` a trusted proxy set); `null` (a sandboxed frame, a cross-site
//!   redirect) is refused.
//!
//! A request without either header (a script with `curl`) is left to the token. A refusal is a
//! 403 page that says why.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::header::{HOST, ORIGIN};
use http::uri::Authority;
use http::{HeaderMap, StatusCode};

use crate::ApiError;
use crate::state::AppState;

/// The header a browser says where a request comes from in, relative to where it goes.
pub const SEC_FETCH_SITE: &str = "sec-fetch-site";

/// The header a trusted proxy names the host the browser asked for in.
pub const X_FORWARDED_HOST: &str = "x-forwarded-host";

/// The error code of the refusal.
const REASON: &str = "cross_site_request";

/// Answers a 403 page to a request that may change something and that another site sent;
/// passes everything else on.
pub(super) async fn refuse_cross_site(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    if request.method().is_safe() {
        return next.run(request).await;
    }
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    let mut hosts: Vec<&str> = Vec::with_capacity(2);
    if let Some(host) = request.headers().get(HOST).and_then(|v| v.to_str().ok()) {
        hosts.push(host);
    } else if let Some(authority) = request.uri().authority() {
        // HTTP/2 carries the host as the `:authority` of the URI, not as a header.
        hosts.push(authority.as_str());
    }
    // Only a proxy we trust may say which host the browser asked for.
    if peer.is_some_and(|peer| state.config().trusted_proxies.contains(peer))
        && let Some(forwarded) = request
            .headers()
            .get(X_FORWARDED_HOST)
            .and_then(|v| v.to_str().ok())
    {
        hosts.push(forwarded.split(',').next().unwrap_or_default().trim());
    }
    match why_cross_site(request.headers(), &hosts) {
        None => next.run(request).await,
        Some(why) => {
            tracing::info!(reason = why, "refused a cross-site form");
            super::answer::error_page(&ApiError::new(
                StatusCode::FORBIDDEN,
                REASON,
                format!("{why}: forms are only accepted from this site's own pages"),
            ))
        }
    }
}

/// Returns why a request with `headers`, sent to one of `hosts`, came from another site, or
/// `None` when nothing says it did.
pub fn why_cross_site(headers: &HeaderMap, hosts: &[&str]) -> Option<&'static str> {
    if let Some(site) = headers.get(SEC_FETCH_SITE) {
        match site.as_bytes() {
            b"same-origin" | b"none" => {}
            b"same-site" => return Some("this form was sent from another site of the same domain"),
            _ => return Some("this form was sent from another site"),
        }
    }
    let origin = headers.get(ORIGIN)?;
    let Some((host, port)) = origin.to_str().ok().and_then(origin_host) else {
        return Some("this form was sent from a page with no origin");
    };
    let same = hosts.iter().any(|sent_to| {
        sent_to.parse::<Authority>().is_ok_and(|authority| {
            authority.host().eq_ignore_ascii_case(&host)
                && authority.port_u16().unwrap_or(port.default) == port.actual
        })
    });
    (!same).then_some("this form was sent from another origin")
}

/// The port of an origin, and the default of its scheme (what a `Host` without one means).
struct OriginPort {
    actual: u16,
    default: u16,
}

/// Returns the host and port of an `Origin` value (`https://turnier.example:8443`); `None`
/// for `null` or anything that is not an origin.
fn origin_host(origin: &str) -> Option<(String, OriginPort)> {
    let url = url::Url::parse(origin).ok()?;
    let default = match url.scheme() {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    let host = match url.host()? {
        url::Host::Ipv6(address) => format!("[{address}]"),
        other => other.to_string(),
    };
    let actual = url.port().unwrap_or(default);
    Some((host, OriginPort { actual, default }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().expect("a header value"));
        }
        map
    }

    #[test]
    fn a_form_of_our_own_pages_passes() {
        let ours = headers(&[
            ("sec-fetch-site", "same-origin"),
            ("origin", "http://127.0.0.1:8080"),
        ]);
        assert_eq!(why_cross_site(&ours, &["127.0.0.1:8080"]), None);
        let tls = headers(&[("origin", "https://Turnier.example")]);
        assert_eq!(why_cross_site(&tls, &["turnier.example"]), None);
        assert_eq!(why_cross_site(&tls, &["turnier.example:443"]), None);
        let v6 = headers(&[("origin", "http://[::1]:8080")]);
        assert_eq!(why_cross_site(&v6, &["[::1]:8080"]), None);
        let typed_in = headers(&[("sec-fetch-site", "none")]);
        assert_eq!(why_cross_site(&typed_in, &["turnier.example"]), None);
        assert_eq!(
            why_cross_site(&HeaderMap::new(), &[]),
            None,
            "no header: the token decides"
        );
    }

    #[test]
    fn a_form_another_site_sent_is_refused_whatever_else_it_says() {
        for site in ["cross-site", "same-site", "anything"] {
            let sent = headers(&[
                ("sec-fetch-site", site),
                ("origin", "http://127.0.0.1:8080"),
            ]);
            assert!(
                why_cross_site(&sent, &["127.0.0.1:8080"]).is_some(),
                "{site}"
            );
        }
        for origin in [
            "https://evil.example",
            "http://127.0.0.1:8081",
            "null",
            "not an origin",
        ] {
            let sent = headers(&[("origin", origin)]);
            assert!(
                why_cross_site(&sent, &["127.0.0.1:8080"]).is_some(),
                "{origin}"
            );
        }
        let no_host = headers(&[("origin", "http://127.0.0.1:8080")]);
        assert!(why_cross_site(&no_host, &[]).is_some());
    }

    #[test]
    fn a_trusted_proxys_forwarded_host_counts_as_where_the_form_went() {
        let sent = headers(&[("origin", "https://turnier.example")]);
        assert!(why_cross_site(&sent, &["gateway:8080"]).is_some());
        assert_eq!(
            why_cross_site(&sent, &["gateway:8080", "turnier.example"]),
            None
        );
    }
}
