//! The catalog service: cards, printings, aliases and globals per game, imported from the
//! games' real card data, served over gRPC.
//!
//! `domain` turns upstream files into cards (pure); `import` reads a data folder and saves
//! what the domain made; `store` keeps the catalog; `grpc` serves it.

pub mod client;
pub mod domain;
mod error;
pub mod grpc;
pub mod import;
mod settings;
pub mod store;
pub mod testing;

use kit::services::Service;

pub use error::Error;
pub use settings::Settings;

/// The service this crate implements.
pub const SERVICE: Service = Service::Catalog;

/// Adds this service's gRPC routes to a server's routes.
pub fn mount(routes: &mut tonic::service::RoutesBuilder, db: &kit::db::Database) {
    routes.add_service(grpc::server(grpc::Api::new(store::Store::new(db.clone()))));
}
