//! `/readyz` against real gRPC health servers on loopback.

use crate::common;

use common::{app, config, get, health_server, unreachable_addr};
use http::StatusCode;
use kit::services::Service;
use tonic_health::ServingStatus;

#[tokio::test]
async fn ready_when_every_configured_service_is_serving() {
    // One health server answering for two services, as the all-in-one process does.
    let addr = health_server(&[
        (Service::Catalog, ServingStatus::Serving),
        (Service::Search, ServingStatus::Serving),
    ])
    .await;
    let app = app(config(&[(Service::Catalog, addr), (Service::Search, addr)]));

    let reply = get(&app, "/readyz").await;

    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        reply.json(),
        serde_json::json!({
            "status": "ready",
            "services": {"catalog": "SERVING", "search": "SERVING"},
        })
    );
}

#[tokio::test]
async fn not_ready_names_a_service_that_is_not_serving() {
    let catalog = health_server(&[(Service::Catalog, ServingStatus::Serving)]).await;
    let decks = health_server(&[(Service::Decks, ServingStatus::NotServing)]).await;
    let app = app(config(&[
        (Service::Catalog, catalog),
        (Service::Decks, decks),
    ]));

    let reply = get(&app, "/readyz").await;

    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        reply.json(),
        serde_json::json!({
            "status": "not_ready",
            "services": {"catalog": "SERVING", "decks": "NOT_SERVING"},
            "message": "not ready: decks (NOT_SERVING)",
        })
    );
}

#[tokio::test]
async fn not_ready_names_a_service_that_is_unreachable() {
    let catalog = health_server(&[(Service::Catalog, ServingStatus::Serving)]).await;
    let nobody = unreachable_addr().await;
    let app = app(config(&[
        (Service::Catalog, catalog),
        (Service::Search, nobody),
    ]));

    let reply = get(&app, "/readyz").await;

    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
    let body = reply.json();
    assert_eq!(body["status"], "not_ready");
    assert_eq!(body["services"]["catalog"], "SERVING");
    assert_eq!(body["services"]["search"], "UNREACHABLE");
    assert_eq!(body["message"], "not ready: search (UNREACHABLE)");
}

#[tokio::test]
async fn a_service_its_health_server_does_not_know_is_unknown() {
    // The server answers health checks, but nobody registered the scripts service with it.
    let addr = health_server(&[(Service::Catalog, ServingStatus::Serving)]).await;
    let app = app(config(&[(Service::Scripts, addr)]));

    let reply = get(&app, "/readyz").await;

    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(reply.json()["services"]["scripts"], "UNKNOWN");
    assert_eq!(reply.json()["message"], "not ready: scripts (UNKNOWN)");
}

#[tokio::test]
async fn ready_with_no_services_configured() {
    let reply = get(&app(config(&[])), "/readyz").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        reply.json(),
        serde_json::json!({"status": "ready", "services": {}})
    );
}
