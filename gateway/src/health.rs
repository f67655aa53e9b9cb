//! `GET /healthz` (is the process alive?) and `GET /readyz` (can it do its job, that is, does
//! every service it calls answer SERVING?), the two endpoints the Kubernetes probes use.
//!
//! Readiness asks each service's `grpc.health.v1.Health/Check` under its proto name, all at
//! once, each within the readiness timeout. The services decide their own health; this module
//! only collects the answers.

use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use kit::services::Service;
use serde::{Deserialize, Serialize};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use utoipa::ToSchema;

use crate::state::AppState;
use crate::upstream::Upstreams;

/// The body of `/healthz`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Liveness {
    /// `ok` while the gateway runs, `shutting_down` once graceful shutdown has begun.
    #[schema(example = "ok")]
    pub status: String,
}

/// The body of `/readyz`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Readiness {
    /// `ready` when every service answered SERVING, `not_ready` otherwise.
    #[schema(example = "ready")]
    pub status: String,
    /// Each configured service's answer, by service name, in start order.
    #[schema(
        value_type = std::collections::HashMap<String, ServiceHealth>,
        example = json!({"catalog": "SERVING", "search": "UNREACHABLE"})
    )]
    pub services: serde_json::Map<String, serde_json::Value>,
    /// When not ready: which services are not, e.g. `not ready: search (UNREACHABLE)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// What a service answered to the readiness health check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ServiceHealth {
    /// The service answered SERVING.
    Serving,
    /// The service answered NOT_SERVING (starting, draining or unhealthy).
    NotServing,
    /// The service could not be reached in time (refused, unresolvable, or silent).
    Unreachable,
    /// The service answered, but not with a known status for its proto name (not registered
    /// with its health service, no health service at all, or some other error).
    Unknown,
}

impl ServiceHealth {
    /// Returns the name as it appears in the JSON body: `SERVING`, `NOT_SERVING`, ….
    pub fn as_str(self) -> &'static str {
        match self {
            ServiceHealth::Serving => "SERVING",
            ServiceHealth::NotServing => "NOT_SERVING",
            ServiceHealth::Unreachable => "UNREACHABLE",
            ServiceHealth::Unknown => "UNKNOWN",
        }
    }
}

/// Answers 200 `{"status":"ok"}` while the gateway runs, 503 once shutdown has begun.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "operations",
    responses(
        (status = 200, description = "The gateway process is alive", body = Liveness),
        (status = 503, description = "The gateway is shutting down", body = Liveness),
    )
)]
pub async fn healthz(State(state): State<AppState>) -> (StatusCode, Json<Liveness>) {
    if state.is_shutting_down() {
        let body = Liveness {
            status: "shutting_down".to_owned(),
        };
        return (StatusCode::SERVICE_UNAVAILABLE, Json(body));
    }
    let body = Liveness {
        status: "ok".to_owned(),
    };
    (StatusCode::OK, Json(body))
}

/// Answers 200 when every configured service is SERVING, 503 naming the ones that are not.
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "operations",
    responses(
        (status = 200, description = "Every service answered SERVING", body = Readiness),
        (status = 503, description = "At least one service is not serving", body = Readiness),
    )
)]
pub async fn readyz(State(state): State<AppState>) -> Response {
    let answers = check_services(state.upstreams(), state.config().readiness_timeout).await;
    let readiness = readiness(&answers);
    let status = if readiness.message.is_none() {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(readiness)).into_response()
}

/// Asks every service for its health, concurrently, each within `timeout`.
pub async fn check_services(
    upstreams: &Upstreams,
    timeout: Duration,
) -> Vec<(Service, ServiceHealth)> {
    let checks = upstreams
        .services()
        .map(|service| async move { (service, check_service(upstreams, service, timeout).await) });
    futures::future::join_all(checks).await
}

/// Asks one service for its health under its proto name.
async fn check_service(
    upstreams: &Upstreams,
    service: Service,
    timeout: Duration,
) -> ServiceHealth {
    let Some(channel) = upstreams.channel(service) else {
        return ServiceHealth::Unknown;
    };
    let mut request = tonic::Request::new(HealthCheckRequest {
        service: service.proto_name().to_owned(),
    });
    // Tells the service our deadline, so it does not keep working for an answer we dropped.
    request.set_timeout(timeout);
    let answer = tokio::time::timeout(timeout, HealthClient::new(channel).check(request)).await;
    match answer {
        Ok(Ok(response)) => match response.into_inner().status() {
            ServingStatus::Serving => ServiceHealth::Serving,
            ServingStatus::NotServing => ServiceHealth::NotServing,
            ServingStatus::Unknown | ServingStatus::ServiceUnknown => ServiceHealth::Unknown,
        },
        Ok(Err(status)) => match status.code() {
            // tonic reports a failed dial (refused, unresolvable, connect timeout) as
            // Unavailable, and our own deadline as DeadlineExceeded (or Cancelled).
            tonic::Code::Unavailable | tonic::Code::DeadlineExceeded | tonic::Code::Cancelled => {
                tracing::warn!(%service, error = %status.message(), "service unreachable");
                ServiceHealth::Unreachable
            }
            _ => {
                tracing::warn!(%service, code = ?status.code(), error = %status.message(), "health check failed");
                ServiceHealth::Unknown
            }
        },
        Err(_elapsed) => {
            tracing::warn!(%service, ?timeout, "health check timed out");
            ServiceHealth::Unreachable
        }
    }
}

/// Summarises the answers as the `/readyz` body; `message` is set exactly when not ready.
pub fn readiness(answers: &[(Service, ServiceHealth)]) -> Readiness {
    let services = answers
        .iter()
        .map(|(service, health)| (service.name().to_owned(), health.as_str().into()))
        .collect();
    let failing: Vec<String> = answers
        .iter()
        .filter(|(_, health)| *health != ServiceHealth::Serving)
        .map(|(service, health)| format!("{service} ({})", health.as_str()))
        .collect();
    if failing.is_empty() {
        Readiness {
            status: "ready".to_owned(),
            services,
            message: None,
        }
    } else {
        Readiness {
            status: "not_ready".to_owned(),
            services,
            message: Some(format!("not ready: {}", failing.join(", "))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_when_every_service_serves() {
        let body = readiness(&[
            (Service::Catalog, ServiceHealth::Serving),
            (Service::Search, ServiceHealth::Serving),
        ]);
        assert_eq!(
            serde_json::to_value(body).expect("serialisable"),
            serde_json::json!({"status": "ready", "services": {"catalog": "SERVING", "search": "SERVING"}})
        );
    }

    #[test]
    fn not_ready_names_every_failing_service_in_order() {
        let body = readiness(&[
            (Service::Catalog, ServiceHealth::Unreachable),
            (Service::Search, ServiceHealth::Serving),
            (Service::Decks, ServiceHealth::NotServing),
            (Service::Scripts, ServiceHealth::Unknown),
        ]);
        assert_eq!(body.status, "not_ready");
        assert_eq!(
            body.message.as_deref(),
            Some("not ready: catalog (UNREACHABLE), decks (NOT_SERVING), scripts (UNKNOWN)")
        );
        let keys: Vec<&str> = body.services.keys().map(String::as_str).collect();
        assert_eq!(keys, ["catalog", "search", "decks", "scripts"]);
    }

    #[test]
    fn health_names_match_their_serde_form() {
        for health in [
            ServiceHealth::Serving,
            ServiceHealth::NotServing,
            ServiceHealth::Unreachable,
            ServiceHealth::Unknown,
        ] {
            assert_eq!(
                serde_json::to_value(health).expect("serialisable"),
                serde_json::Value::from(health.as_str())
            );
        }
    }
}
