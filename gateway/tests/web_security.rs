//! The pages' defences in the router, without a socket or services: the security headers of
//! every HTML answer, forms another site sends, and CSRF tokens someone else chose.

use crate::common;

use axum::body::Body;
use common::{Reply, app, config, send};
use http::{Request, StatusCode};

/// The headers every HTML answer carries, with what each must say.
fn assert_secured(reply: &Reply, what: &str) {
    let policy = reply.header("content-security-policy").unwrap_or_default();
    assert!(
        policy.contains("frame-ancestors 'none'") && policy.contains("script-src 'self'"),
        "{what}: {policy:?}"
    );
    assert_eq!(reply.header("x-frame-options"), Some("DENY"), "{what}");
    assert_eq!(
        reply.header("x-content-type-options"),
        Some("nosniff"),
        "{what}"
    );
    assert_eq!(reply.header("cache-control"), Some("no-store"), "{what}");
}

fn text(reply: &Reply) -> String {
    String::from_utf8_lossy(&reply.body).into_owned()
}

#[tokio::test]
async fn an_unknown_page_asked_for_by_a_browser_carries_the_pages_security_headers() {
    let app = app(config(&[]));
    let reply = send(
        &app,
        Request::get("/no-such-page")
            .header("accept", "text/html")
            .body(Body::empty())
            .expect("valid"),
    )
    .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert!(
        reply
            .header("content-type")
            .is_some_and(|value| value.starts_with("text/html"))
    );
    assert_secured(&reply, "the HTML 404");
}

/// `POST /signin` from a browser with these headers and form fields.
fn sign_in(headers: &[(&str, &str)], csrf: &str) -> Request<Body> {
    let mut request = Request::post("/signin")
        .header("host", "turnier.example")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "text/html");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request
        .body(Body::from(format!(
            "csrf={csrf}&username=victim&password=correct+horse+battery"
        )))
        .expect("valid")
}

#[tokio::test]
async fn a_form_another_site_sent_is_refused_whatever_token_it_carries() {
    let app = app(config(&[]));
    for headers in [
        &[("sec-fetch-site", "cross-site")][..],
        &[("sec-fetch-site", "same-site")][..],
        &[("origin", "https://evil.example")][..],
        &[("origin", "null")][..],
        &[
            ("sec-fetch-site", "same-origin"),
            ("origin", "https://turnier.example.evil.example"),
        ][..],
    ] {
        let reply = send(&app, sign_in(headers, "anything")).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{headers:?}");
        assert!(
            text(&reply).contains("forms are only accepted from this site"),
            "{headers:?}: {}",
            text(&reply)
        );
        assert_secured(&reply, "the refusal");
    }
}

#[tokio::test]
async fn a_csrf_cookie_and_field_chosen_by_someone_else_are_refused() {
    let app = app(config(&[]));
    let chosen = "0123456789abcdef".repeat(4);
    let reply = send(
        &app,
        sign_in(
            &[
                ("sec-fetch-site", "same-origin"),
                ("origin", "https://turnier.example"),
                ("cookie", &format!("turnier_csrf={chosen}")),
            ],
            &chosen,
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
    assert!(
        text(&reply).contains("this form is out of date"),
        "{}",
        text(&reply)
    );
}

#[tokio::test]
async fn the_token_of_a_pages_form_is_not_its_cookie_and_passes_the_check() {
    let app = app(config(&[]));
    let page = send(
        &app,
        Request::get("/signin")
            .header("accept", "text/html")
            .body(Body::empty())
            .expect("valid"),
    )
    .await;
    assert_eq!(page.status, StatusCode::OK);
    let cookie = page
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find_map(|value| value.strip_prefix("turnier_csrf="))
        .and_then(|value| value.split(';').next())
        .expect("a CSRF cookie")
        .to_owned();
    let html = text(&page);
    let token = html
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a CSRF field")
        .to_owned();
    assert_ne!(
        token, cookie,
        "the field is an HMAC of the cookie, not the cookie"
    );

    let reply = send(
        &app,
        sign_in(
            &[
                ("sec-fetch-site", "same-origin"),
                ("origin", "https://turnier.example"),
                ("cookie", &format!("turnier_csrf={cookie}")),
            ],
            &token,
        ),
    )
    .await;
    // Past the token: the form goes on to the accounts service, which this router has none of.
    assert_ne!(reply.status, StatusCode::FORBIDDEN, "{}", text(&reply));
}
