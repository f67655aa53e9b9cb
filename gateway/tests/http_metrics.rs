//! The HTTP metrics the gateway records, read back from a real, globally installed recorder.
//!
//! The recorder is process-wide, so this file holds a single test: its binary installs it once.

use crate::common;

use axum::body::Body;
use http::Request;

#[tokio::test]
async fn requests_are_counted_and_timed_by_route_template_and_status() {
    let metrics = kit::metrics::Metrics::install().expect("the first recorder of this process");
    let state =
        gateway::AppState::new(common::config(&[]), metrics.clone()).expect("no services to dial");
    let app = gateway::router(state);

    common::get(&app, "/healthz").await;
    common::get(&app, "/healthz").await;
    common::get(&app, "/no/such/path/12345").await;
    common::send(
        &app,
        Request::builder()
            .method("BREW")
            .uri("/healthz")
            .body(Body::empty())
            .expect("a valid request"),
    )
    .await;

    let text = metrics.render();
    assert!(
        text.contains(
            r#"turnier_http_requests_total{method="GET",route="/healthz",status="200"} 2"#
        ),
        "{text}"
    );
    // An unmatched path is one series, whatever the path was.
    assert!(
        text.contains(
            r#"turnier_http_requests_total{method="GET",route="unmatched",status="404"} 1"#
        ),
        "{text}"
    );
    assert!(!text.contains("12345"), "{text}");
    // An extension method cannot mint series either.
    assert!(
        text.contains(
            r#"turnier_http_requests_total{method="OTHER",route="/healthz",status="405"} 1"#
        ),
        "{text}"
    );
    assert!(
        text.contains(
            r#"turnier_http_request_duration_seconds_count{method="GET",route="/healthz"} 2"#
        ),
        "{text}"
    );

    // The same text is what `/metrics` serves.
    let scraped = common::get(&app, "/metrics").await;
    let scraped = String::from_utf8(scraped.body).expect("UTF-8 text");
    assert!(
        scraped.contains("turnier_http_requests_total{"),
        "{scraped}"
    );
}
