//! `gateway::serve` on a real socket: it answers, and shuts down gracefully.

use crate::common;

use std::net::SocketAddr;

use kit::services::Service;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// Starts `serve` on a loopback port; returns its address, the shutdown trigger and its task.
async fn start(
    config: gateway::GatewayConfig,
) -> (
    SocketAddr,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<Result<(), gateway::Error>>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let addr = listener.local_addr().expect("a bound address");
    let (stop, stopped) = oneshot::channel::<()>();
    let shutdown = async move {
        // A dropped sender also means stop.
        let _ = stopped.await;
    };
    let server = tokio::spawn(gateway::serve(
        listener,
        config,
        kit::metrics::Metrics::for_tests(),
        shutdown,
    ));
    (addr, stop, server)
}

#[tokio::test]
async fn serves_until_shutdown_then_returns() {
    let (addr, stop, server) = start(common::config(&[])).await;

    let response = reqwest::get(format!("http://{addr}/healthz"))
        .await
        .expect("the gateway answers");
    assert_eq!(response.status(), reqwest::StatusCode::OK);
    assert!(response.headers().contains_key("x-request-id"));
    let body: serde_json::Value = response.json().await.expect("a JSON body");
    assert_eq!(body, serde_json::json!({"status": "ok"}));

    stop.send(()).expect("the server is running");
    server
        .await
        .expect("the server task does not panic")
        .expect("the server shuts down cleanly");
}

#[tokio::test]
async fn a_request_in_flight_at_shutdown_is_still_answered() {
    // A "service" that accepts connections but never speaks gRPC: the readiness check the
    // gateway sends to it stays in flight until we close that connection.
    let silent = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let silent_addr = silent.local_addr().expect("a bound address");
    let mut config = common::config(&[(Service::Catalog, silent_addr)]);
    config.readiness_timeout = std::time::Duration::from_secs(60);
    let (addr, stop, server) = start(config).await;

    let client = tokio::spawn(reqwest::get(format!("http://{addr}/readyz")));
    // The gateway dialled the service: the /readyz request is in flight.
    let (connection, _) = silent.accept().await.expect("the gateway connects");

    stop.send(()).expect("the server is running");
    // The service goes away (and refuses any redial), which ends the readiness check.
    drop(connection);
    drop(silent);

    let response = client
        .await
        .expect("the client task does not panic")
        .expect("the in-flight request is answered, not cut off");
    assert_eq!(response.status(), reqwest::StatusCode::SERVICE_UNAVAILABLE);
    let body: serde_json::Value = response.json().await.expect("a JSON body");
    assert_eq!(body["status"], "not_ready");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|message| message.starts_with("not ready: catalog (")),
        "{body}"
    );
    server
        .await
        .expect("the server task does not panic")
        .expect("the server shuts down cleanly");
}

#[tokio::test]
async fn a_service_url_tonic_cannot_dial_stops_startup() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let config = gateway::GatewayConfig::with_services(vec![(
        Service::Catalog,
        "http://exa mple".to_owned(),
    )]);
    let result = gateway::serve(
        listener,
        config,
        kit::metrics::Metrics::for_tests(),
        std::future::pending(),
    )
    .await;
    let error = result.expect_err("the URL is not a URI");
    assert!(
        error
            .to_string()
            .starts_with("catalog: cannot use `http://exa mple`"),
        "{error}"
    );
}

#[tokio::test]
async fn every_accepted_connection_has_nodelay() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let addr = listener.local_addr().expect("a bound address");
    // The listener `serve` accepts on.
    let listener = kit::listener::Listener::from(listener);
    let _client = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let accepted = listener.accept().await;
    assert!(accepted.stream.nodelay().expect("a readable option"));
}

#[tokio::test]
async fn an_oversized_uri_or_header_set_is_refused_in_the_json_error_shape() {
    let (addr, stop, server) = start(common::config(&[])).await;
    let client = reqwest::Client::new();
    let json = |response: reqwest::Response| async move {
        let status = response.status().as_u16();
        let body: serde_json::Value = response.json().await.expect("a JSON error body");
        (status, body)
    };

    let long_query = "q".repeat(gateway::layers::MAX_URI_BYTES);
    let (status, body) = json(
        client
            .get(format!("http://{addr}/healthz?{long_query}"))
            .send()
            .await
            .expect("the gateway answers"),
    )
    .await;
    assert_eq!(status, 414, "{body}");
    assert_eq!(body["error"]["code"], "uri_too_long");
    assert_eq!(
        body["error"]["details"]["limit_bytes"],
        gateway::layers::MAX_URI_BYTES
    );

    let (status, body) = json(
        client
            .get(format!("http://{addr}/healthz"))
            .header("x-padding", "p".repeat(gateway::layers::MAX_HEADER_BYTES))
            .send()
            .await
            .expect("the gateway answers"),
    )
    .await;
    assert_eq!(status, 431, "{body}");
    assert_eq!(body["error"]["code"], "headers_too_large");

    // Just under both limits, the request is served.
    let fits = client
        .get(format!(
            "http://{addr}/healthz?{}",
            "q".repeat(gateway::layers::MAX_URI_BYTES - 1024)
        ))
        .header(
            "x-padding",
            "p".repeat(gateway::layers::MAX_HEADER_BYTES - 1024),
        )
        .send()
        .await
        .expect("the gateway answers");
    assert_eq!(fits.status(), reqwest::StatusCode::OK);

    stop.send(()).expect("the server is running");
    server
        .await
        .expect("the server task does not panic")
        .expect("the server shuts down cleanly");
}
