//! The search service: the card search language of the three search reference pages over the
//! catalog.
//!
//! `domain` parses queries and runs them on an index of one game's cards (pure); `grpc` keeps
//! one index per game, built from the catalog service's card stream and rebuilt when the
//! catalog version changes.

pub mod domain;
mod error;
pub mod grpc;

use kit::services::Service;

pub use error::Error;

/// The service this crate implements.
pub const SERVICE: Service = Service::Search;

/// Adds this service's gRPC routes to a server's routes; it reads cards from the catalog at
/// `catalog_url`.
pub fn mount(
    routes: &mut tonic::service::RoutesBuilder,
    catalog_url: &str,
) -> Result<(), kit::client::ClientError> {
    routes.add_service(grpc::server(grpc::Api::new(catalog_url)?));
    Ok(())
}
