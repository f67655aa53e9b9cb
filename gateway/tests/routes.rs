//! The gateway's router without a socket: probes, errors, request ids, limits, CORS, OpenAPI.

use crate::common;

use axum::body::Body;
use common::{app, config, get, send};
use gateway::{CorsOrigins, GatewayConfig};
use http::{HeaderValue, Method, Request, StatusCode};
use tower::ServiceExt;

fn no_services() -> GatewayConfig {
    config(&[])
}

#[tokio::test]
async fn healthz_answers_ok_while_running() {
    let reply = get(&app(no_services()), "/healthz").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.json(), serde_json::json!({"status": "ok"}));
    assert_eq!(reply.header("content-type"), Some("application/json"));
}

#[tokio::test]
async fn healthz_answers_503_once_shutdown_has_begun() {
    let state = common::state(no_services());
    let app = gateway::router(state.clone());
    state.begin_shutdown();

    let reply = get(&app, "/healthz").await;

    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(reply.json(), serde_json::json!({"status": "shutting_down"}));
}

#[tokio::test]
async fn an_unknown_path_is_a_json_404() {
    let app = app(no_services());
    for path in ["/nope", "/api/v1/cards", "/api/v1/"] {
        let reply = get(&app, path).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(
            reply.json(),
            serde_json::json!({"error": {
                "code": "not_found",
                "message": format!("no route for `GET {path}`"),
                "details": null,
            }})
        );
        assert!(reply.header("x-request-id").is_some(), "{path}");
    }
}

#[tokio::test]
async fn a_browser_asking_for_an_unknown_page_gets_an_html_404() {
    let app = app(no_services());
    let reply = send(
        &app,
        Request::get("/nope")
            .header("accept", "text/html,application/xhtml+xml")
            .body(Body::empty())
            .expect("valid"),
    )
    .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert!(
        reply
            .header("content-type")
            .is_some_and(|value| value.starts_with("text/html")),
        "an HTML page"
    );
    // Under /api a browser still gets the JSON error.
    let api = send(
        &app,
        Request::get("/api/v1/nope")
            .header("accept", "text/html")
            .body(Body::empty())
            .expect("valid"),
    )
    .await;
    assert_eq!(api.status, StatusCode::NOT_FOUND);
    assert_eq!(api.json()["error"]["code"], "not_found");
}

#[tokio::test]
async fn a_wrong_method_is_a_json_405_that_keeps_its_allow_header() {
    let reply = send(
        &app(no_services()),
        Request::delete("/healthz")
            .body(Body::empty())
            .expect("valid"),
    )
    .await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(reply.json()["error"]["code"], "method_not_allowed");
    assert!(
        reply
            .header("allow")
            .is_some_and(|allow| allow.contains("GET"))
    );
}

#[tokio::test]
async fn a_request_id_is_generated_when_absent() {
    let app = app(no_services());
    let first = get(&app, "/healthz").await;
    let second = get(&app, "/healthz").await;
    let first = first.header("x-request-id").expect("an id is generated");
    let second = second.header("x-request-id").expect("an id is generated");
    assert_eq!(first.len(), 36, "a UUID: {first}");
    assert_ne!(first, second);
}

#[tokio::test]
async fn a_given_request_id_is_echoed_on_success_and_on_errors() {
    let app = app(no_services());
    for path in ["/healthz", "/nope"] {
        let request = Request::get(path)
            .header("x-request-id", "req-42")
            .body(Body::empty())
            .expect("valid");
        let reply = send(&app, request).await;
        assert_eq!(reply.header("x-request-id"), Some("req-42"), "{path}");
    }
}

#[tokio::test]
async fn a_body_over_the_limit_is_a_json_413() {
    let mut config = no_services();
    config.body_limit_bytes = 16;
    let request = Request::post("/api/v1/decks")
        .header("content-length", "17")
        .header("content-type", "application/json")
        .header("x-request-id", "big-1")
        .body(Body::from(vec![b'x'; 17]))
        .expect("valid");

    let reply = send(&app(config), request).await;

    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        reply.json(),
        serde_json::json!({"error": {
            "code": "payload_too_large",
            "message": "the request body is larger than the limit of 16 bytes",
            "details": {"limit_bytes": 16},
        }})
    );
    assert_eq!(reply.header("x-request-id"), Some("big-1"));
}

#[tokio::test]
async fn a_body_within_the_limit_reaches_the_routes() {
    let mut config = no_services();
    config.body_limit_bytes = 16;
    let request = Request::post("/api/v1/decks")
        .header("content-length", "16")
        .body(Body::from(vec![b'x'; 16]))
        .expect("valid");
    // No route takes it yet: the fallback's 404 shows the limit let it through.
    assert_eq!(
        send(&app(config), request).await.status,
        StatusCode::NOT_FOUND
    );
}

fn preflight(origin: &str) -> Request<Body> {
    Request::builder()
        .method(Method::OPTIONS)
        .uri("/healthz")
        .header("origin", origin)
        .header("access-control-request-method", "GET")
        .header("access-control-request-headers", "content-type")
        .body(Body::empty())
        .expect("valid")
}

fn with_origins(origins: &[&'static str]) -> GatewayConfig {
    let mut config = no_services();
    config.cors_origins = CorsOrigins::List(
        origins
            .iter()
            .map(|o| HeaderValue::from_static(o))
            .collect(),
    );
    config
}

#[tokio::test]
async fn a_preflight_from_a_listed_origin_is_allowed() {
    let app = app(with_origins(&["https://turnier.example"]));

    let reply = send(&app, preflight("https://turnier.example")).await;

    assert!(reply.status.is_success(), "{}", reply.status);
    assert_eq!(
        reply.header("access-control-allow-origin"),
        Some("https://turnier.example")
    );
    assert!(
        reply
            .header("access-control-allow-methods")
            .is_some_and(|methods| methods.contains("GET"))
    );
    assert!(
        reply
            .header("access-control-allow-headers")
            .is_some_and(|headers| headers.contains("content-type"))
    );
    assert!(reply.header("x-request-id").is_some());
}

#[tokio::test]
async fn a_preflight_from_another_origin_is_not_allowed() {
    let app = app(with_origins(&["https://turnier.example"]));
    let reply = send(&app, preflight("https://evil.example")).await;
    assert_eq!(reply.header("access-control-allow-origin"), None);
}

#[tokio::test]
async fn no_origin_is_allowed_by_default() {
    let reply = send(&app(no_services()), preflight("https://turnier.example")).await;
    assert_eq!(reply.header("access-control-allow-origin"), None);
}

#[tokio::test]
async fn any_origin_is_allowed_with_a_star() {
    let mut config = no_services();
    config.cors_origins = CorsOrigins::Any;
    let reply = send(&app(config), preflight("https://anyone.example")).await;
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
}

#[tokio::test]
async fn a_cross_origin_error_is_readable_by_the_browser() {
    let request = Request::get("/nope")
        .header("origin", "https://turnier.example")
        .body(Body::empty())
        .expect("valid");
    let reply = send(&app(with_origins(&["https://turnier.example"])), request).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(
        reply.header("access-control-allow-origin"),
        Some("https://turnier.example")
    );
    assert_eq!(
        reply.header("access-control-expose-headers"),
        Some("x-request-id")
    );
}

#[tokio::test]
async fn the_openapi_document_describes_the_operational_paths_and_the_error_shape() {
    let reply = get(&app(no_services()), "/api/openapi.json").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let doc = reply.json();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "Turnier");
    for path in ["/healthz", "/readyz", "/metrics"] {
        assert!(
            doc["paths"][path]["get"].is_object(),
            "{path} is documented"
        );
    }
    let error = &doc["components"]["schemas"]["ErrorBody"];
    assert!(error.is_object(), "ErrorBody is documented");
    assert_eq!(
        doc["components"]["schemas"]["ErrorObject"]["required"],
        serde_json::json!(["code", "message", "details"])
    );
}

#[tokio::test]
async fn the_served_document_is_the_one_the_crate_builds() {
    let reply = get(&app(no_services()), "/api/openapi.json").await;
    let built = serde_json::to_value(gateway::openapi()).expect("serialisable");
    assert_eq!(reply.json(), built);
}

#[tokio::test]
async fn the_openapi_document_lists_the_formats_check_route() {
    let spec = get(&app(no_services()), "/api/openapi.json").await.json();
    assert!(
        spec["paths"]["/api/v1/formats:check"]["post"].is_object(),
        "{}",
        spec["paths"]
    );
}

#[test]
fn no_two_modules_name_different_schemas_alike() {
    // Merging keeps one schema per name: a second module's `CheckBody` silently replaced the
    // first one's, and scripts:check was documented with the formats:check body. A schema
    // several modules share (`ErrorBody`) is the same definition everywhere.
    let mut seen: std::collections::BTreeMap<String, (usize, serde_json::Value)> =
        Default::default();
    for (part, doc) in gateway::api::openapi_parts().into_iter().enumerate() {
        for (name, schema) in doc.components.map(|c| c.schemas).unwrap_or_default() {
            let schema = serde_json::to_value(schema).expect("a schema serializes");
            if let Some((other, first)) = seen.get(&name) {
                assert_eq!(
                    first, &schema,
                    "schema {name} differs in parts {other} and {part}"
                );
            } else {
                seen.insert(name, (part, schema));
            }
        }
    }
    assert!(seen.contains_key("ScriptCheckBody") && seen.contains_key("FormatCheckBody"));
}

#[tokio::test]
async fn every_request_body_is_the_schema_of_its_own_route() {
    let spec = get(&app(no_services()), "/api/openapi.json").await.json();
    let body = |path: &str| {
        let reference = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
            ["schema"]["$ref"]
            .as_str()
            .unwrap_or_else(|| panic!("{path} has a request body"))
            .to_owned();
        let name = reference
            .trim_start_matches("#/components/schemas/")
            .to_owned();
        let properties = spec["components"]["schemas"][&name]["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{name} is documented"))
            .keys()
            .cloned()
            .collect::<std::collections::BTreeSet<_>>();
        properties.into_iter().collect::<Vec<_>>()
    };
    assert_eq!(body("/api/v1/scripts:check"), ["source"]);
    assert_eq!(body("/api/v1/formats:check"), ["at", "deck", "format"]);
    assert_eq!(body("/api/v1/accounts"), ["password", "username"]);
    assert_eq!(body("/api/v1/sessions"), ["password", "username"]);
    assert_eq!(body("/api/v1/me/tokens"), ["expireTime", "name", "scopes"]);
}

#[tokio::test]
async fn a_token_is_refused_when_no_accounts_service_can_verify_it_and_none_is_anonymous() {
    let app = app(no_services());
    let request = |authorization: Option<&str>| {
        let mut builder = Request::get("/api/v1/users/ana");
        if let Some(value) = authorization {
            builder = builder.header("authorization", value);
        }
        builder.body(Body::empty()).expect("a request")
    };
    for (authorization, reason) in [
        (Some("Bearer tns_abc"), "invalid_token"),
        (Some("Basic abc"), "malformed_authorization"),
    ] {
        let reply = send(&app, request(authorization)).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{authorization:?}");
        let body = reply.json();
        assert_eq!(body["error"]["code"], "unauthenticated");
        assert_eq!(body["error"]["details"]["reason"], reason);
    }
    // Anonymous goes on to the route, which has no accounts service to call: a 500, not a 401.
    let reply = send(&app, request(None)).await;
    assert_eq!(reply.status, StatusCode::INTERNAL_SERVER_ERROR);
    // The probes never look at tokens.
    let reply = send(
        &app,
        Request::get("/healthz")
            .header("authorization", "Bearer junk")
            .body(Body::empty())
            .expect("a request"),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
}

#[tokio::test]
async fn metrics_are_served_as_prometheus_text() {
    let reply = get(&app(no_services()), "/metrics").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(
        reply
            .header("content-type")
            .is_some_and(|value| value.starts_with("text/plain; version=0.0.4"))
    );
}

#[tokio::test]
async fn a_router_answers_many_requests() {
    // The router is cloned per request by `oneshot`; make sure one built router serves on.
    let app = app(no_services());
    for _ in 0..3 {
        let response = app
            .clone()
            .oneshot(Request::get("/healthz").body(Body::empty()).expect("valid"))
            .await
            .expect("infallible");
        assert_eq!(response.status(), StatusCode::OK);
    }
}
