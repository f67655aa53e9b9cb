//! The tournaments service: the tournament engine, registration and deck submission.
//!
//! Its RPCs arrive with the issue that builds it; until then it serves only the gRPC health
//! protocol and server reflection (added by `kit::server`).

pub mod domain;
pub mod grpc;
pub mod offline;

use kit::services::Service;

/// The service this crate implements.
pub const SERVICE: Service = Service::Tournaments;

/// Adds this service's gRPC routes to a server's routes.
pub fn mount(routes: &mut tonic::service::RoutesBuilder) {
    routes.add_service(grpc::server());
}
