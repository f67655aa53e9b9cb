//! `POST /api/v1/formats:check` through the gateway's router, against the real decks service
//! served over gRPC on loopback.

mod common;

use axum::Router;
use axum::body::Body;
use common::{Reply, app, config, get, send};
use http::{Request, StatusCode};
use kit::services::Service;
use serde_json::{Value, json};

/// Serves the decks service on a free port and returns a router that reaches it.
async fn gateway_with_decks() -> Router {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port");
    let addr = listener.local_addr().expect("a bound address");
    let mut routes = tonic::service::RoutesBuilder::default();
    // Formats need no catalog: an address nobody listens on is never dialled.
    let deps = kit::server::Deps::new([(Service::Catalog, "http://127.0.0.1:9".to_owned())].into());
    <decks::Decks as kit::server::Mount>::mount(&mut routes, &deps, &()).expect("a valid URL");
    tokio::spawn(kit::server::serve(
        listener,
        &[Service::Decks],
        routes,
        kit::server::ShutdownTiming::default(),
        kit::shutdown::Shutdown::new(),
    ));
    app(config(&[(Service::Decks, addr)]))
}

async fn post_check(app: &Router, body: &Value) -> Reply {
    let request = Request::post("/api/v1/formats:check")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .expect("a valid request");
    send(app, request).await
}

fn league() -> Value {
    json!({
        "code": "league",
        "name": "League",
        "min_size": 40,
        "max_size": 60,
        "copies": 3,
        "banned": ["old-relic"],
        "restricted": {},
        "taboo_lists": [
            {"code": "autumn", "effective_from": "2026-10-01", "banned": ["night-owl"],
             "restricted": {"storm-call": 1}}
        ]
    })
}

#[tokio::test]
async fn checking_a_deck_answers_the_report_json_of_the_issue() {
    let app = gateway_with_decks().await;
    let reply = post_check(
        &app,
        &json!({
            "format": league(),
            "deck": {"cards": [
                {"id": "storm-call", "name": "Storm Call", "count": 2},
                {"id": "path", "count": 20, "copyLimit": 20},
                {"id": "old-relic", "count": 1},
            ]},
            "at": "2026-10-02T09:00:00-04:00",
        }),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json());
    let body = reply.json();
    assert_eq!(
        body,
        json!({
            "valid": false,
            "tabooList": {"code": "autumn", "effectiveFrom": "2026-10-01"},
            "cards": {
                "storm-call": {
                    "bannedBy": null,
                    "copyLimit": 1,
                    "restrictedBy": {"kind": "tabooList", "code": "autumn", "effectiveFrom": "2026-10-01"}
                },
                "path": {"bannedBy": null, "copyLimit": 20, "restrictedBy": null},
                "old-relic": {
                    "bannedBy": {"kind": "format", "code": "league"},
                    "copyLimit": null,
                    "restrictedBy": null
                }
            },
            "issues": [
                {"code": "deck_too_small", "card": null,
                 "message": "Deck: at least 40 cards under the format league (found 23)."},
                {"code": "too_many_copies", "card": "storm-call",
                 "message": "Storm Call: at most 1 copy under the taboo list autumn from 2026-10-01 (found 2)."},
                {"code": "banned_card", "card": "old-relic",
                 "message": "old-relic: banned by the format league (found 1)."}
            ]
        })
    );
    let keys: Vec<&String> = body["cards"]
        .as_object()
        .expect("an object")
        .keys()
        .collect();
    assert_eq!(
        keys,
        ["storm-call", "path", "old-relic"],
        "the deck's order"
    );
}

#[tokio::test]
async fn a_valid_deck_before_the_taboo_list_names_none() {
    let app = gateway_with_decks().await;
    let reply = post_check(
        &app,
        &json!({
            "format": league(),
            "deck": {"cards": [{"id": "path", "count": 40, "copyLimit": 40}]},
            "at": "2026-09-30T22:00:00-04:00",
        }),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.json()["valid"], true);
    assert_eq!(reply.json()["tabooList"], Value::Null);
    assert_eq!(reply.json()["issues"], json!([]));
}

#[tokio::test]
async fn a_format_that_fails_to_read_is_a_400_invalid_format_naming_the_field() {
    let app = gateway_with_decks().await;
    let mut format = league();
    format["min_size"] = json!("forty");
    let reply = post_check(
        &app,
        &json!({"format": format, "deck": {"cards": []}, "at": "2026-10-02T09:00:00-04:00"}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        reply.json(),
        json!({"error": {
            "code": "invalid_format",
            "message": "invalid format: `min_size` must be an integer, found a string",
            "details": {"field": "min_size"},
        }})
    );
}

#[tokio::test]
async fn a_bad_deck_or_moment_is_a_400_with_its_own_code() {
    let app = gateway_with_decks().await;
    let unknown_key = post_check(
        &app,
        &json!({"format": league(), "deck": {"cards": [], "sideboard": []},
                "at": "2026-10-02T09:00:00-04:00"}),
    )
    .await;
    assert_eq!(unknown_key.status, StatusCode::BAD_REQUEST);
    assert_eq!(unknown_key.json()["error"]["code"], "invalid_deck");

    let bad_count = post_check(
        &app,
        &json!({"format": league(), "deck": {"cards": [{"id": "path", "count": 100001}]},
                "at": "2026-10-02T09:00:00-04:00"}),
    )
    .await;
    assert_eq!(bad_count.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        bad_count.json()["error"]["message"],
        "invalid deck: `cards[0].count` must be from 1 to 100000, found 100001"
    );

    let bad_moment = post_check(
        &app,
        &json!({"format": league(), "deck": {"cards": []}, "at": "next tuesday"}),
    )
    .await;
    assert_eq!(bad_moment.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad_moment.json()["error"]["code"], "invalid_moment");
}

#[tokio::test]
async fn the_openapi_document_lists_the_route() {
    let reply = get(&app(config(&[])), "/api/openapi.json").await;
    let spec = reply.json();
    assert!(
        spec["paths"]["/api/v1/formats:check"]["post"].is_object(),
        "{}",
        spec["paths"]
    );
}
