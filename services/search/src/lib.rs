//! The search service: the card search language over the catalog.
//!
//! Its RPCs arrive with the issue that builds it; until then it serves only the gRPC health
//! protocol and server reflection (added by `kit::server`).

pub mod domain;
pub mod grpc;

use kit::services::Service;

/// The service this crate implements.
pub const SERVICE: Service = Service::Search;

/// Adds this service's gRPC routes to a server's routes.
pub fn mount(routes: &mut tonic::service::RoutesBuilder) {
    routes.add_service(grpc::server());
}
