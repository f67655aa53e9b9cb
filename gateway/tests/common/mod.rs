//! Helpers shared by the gateway's integration tests: a router over a given configuration,
//! one-shot requests, and real gRPC health servers on loopback.

#![allow(dead_code)] // Each test binary uses a different subset.

use std::net::SocketAddr;

use axum::Router;
use axum::body::Body;
use gateway::{AppState, GatewayConfig};
use http::{HeaderMap, Request, StatusCode};
use kit::services::Service;
use tokio::net::TcpListener;
use tonic_health::ServingStatus;
use tower::ServiceExt;

/// A response, buffered.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    /// Parses the body as JSON, failing the test with the body when it is not.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|err| {
            panic!(
                "body is not JSON ({err}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// Returns a header's value as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }
}

/// Returns a configuration with these services and the defaults for everything else.
pub fn config(services: &[(Service, SocketAddr)]) -> GatewayConfig {
    GatewayConfig::with_services(
        services
            .iter()
            .map(|(service, addr)| (*service, format!("http://{addr}")))
            .collect(),
    )
}

/// Builds the gateway's router over `config`.
pub fn app(config: GatewayConfig) -> Router {
    gateway::router(state(config))
}

/// Builds the gateway's state over `config`, with a metrics handle that is not installed.
pub fn state(config: GatewayConfig) -> AppState {
    AppState::new(config, kit::metrics::Metrics::for_tests()).expect("test URLs are valid")
}

/// Sends one request through the router and buffers the response.
pub async fn send(app: &Router, request: Request<Body>) -> Reply {
    let response = app
        .clone()
        .oneshot(request)
        .await
        .expect("the router is infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("the body can be buffered")
        .to_vec();
    Reply {
        status,
        headers,
        body,
    }
}

/// Sends `GET path`.
pub async fn get(app: &Router, path: &str) -> Reply {
    send(
        app,
        Request::get(path)
            .body(Body::empty())
            .expect("a valid request"),
    )
    .await
}

/// Starts a real gRPC health server on loopback answering `statuses` under each service's proto
/// name, and returns its address. The port is bound before this returns, so a client can
/// connect at once; the server lives until the test's runtime ends.
pub async fn health_server(statuses: &[(Service, ServingStatus)]) -> SocketAddr {
    let (reporter, health) = tonic_health::server::health_reporter();
    for (service, status) in statuses {
        reporter
            .set_service_status(service.proto_name(), *status)
            .await;
    }
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let addr = listener.local_addr().expect("a bound address");
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(health)
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    addr
}

/// Returns a loopback address with nothing listening on it.
pub async fn unreachable_addr() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    listener.local_addr().expect("a bound address")
    // Dropping the listener closes the port: connecting to it is refused.
}
