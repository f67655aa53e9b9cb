//! The decks service: deck codes, deck lists, formats and rulings.
//!
//! It checks decks against declarative formats and gives the rulings of a day
//! (`CheckDeckAgainstFormat`, `GetRuling`); formats travel in the request, so it stores
//! nothing. The gRPC health protocol and server reflection are added by `kit::server`.

pub mod domain;
mod error;
pub mod grpc;

pub use error::Error;

use kit::services::Service;

/// The service this crate implements.
pub const SERVICE: Service = Service::Decks;

/// Adds this service's gRPC routes to a server's routes.
pub fn mount(routes: &mut tonic::service::RoutesBuilder) {
    routes.add_service(grpc::server());
}
