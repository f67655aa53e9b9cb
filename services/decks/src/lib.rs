//! The decks service: deck codes, deck lists, formats and rulings.
//!
//! It checks decks against declarative formats and gives the rulings of a day
//! (`CheckDeckAgainstFormat`, `GetRuling`), and imports pasted decks (`ImportDeck`), finding
//! their cards through the catalog service; formats travel in the request, so it stores
//! nothing. The gRPC health protocol and server reflection are added by `kit::server`.

pub mod catalog_client;
pub mod domain;
mod error;
pub mod grpc;
pub mod import;

pub use error::Error;

use kit::services::Service;

/// The service this crate implements.
pub const SERVICE: Service = Service::Decks;

/// Adds this service's gRPC routes to a server's routes; imports find their cards in the
/// catalog at `catalog_url`.
pub fn mount(
    routes: &mut tonic::service::RoutesBuilder,
    catalog_url: &str,
) -> Result<(), kit::client::ClientError> {
    let catalog = catalog_client::CatalogClient::new(catalog_url)?;
    routes.add_service(grpc::server(grpc::Api::new(catalog)));
    Ok(())
}
