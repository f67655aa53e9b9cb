//! The scripts service: the static safety check, compilation and sandboxed runs of user JavaScript.
//!
//! `domain` holds the pure rules (safety check, preparation, normalization), `sandbox` the
//! Wasmtime runtime, `runner` the two put together, and `grpc` the service over it.

pub mod catalog_pool;
pub mod domain;
mod error;
pub mod grpc;
pub mod json;
pub mod runner;
pub mod sandbox;
mod settings;

use kit::services::Service;

pub use settings::Settings;

/// The service this crate implements.
pub const SERVICE: Service = Service::Scripts;

/// Adds this service's gRPC routes to a server's routes. A release build starts creating the
/// sandbox in the background (about a second), so the first request finds it ready; a debug
/// build, where it takes several seconds of CPU, creates it on first use, so the many
/// processes tests start do not all pay for a sandbox they never use.
///
/// Card pools over a whole catalog are read from the catalog service at `catalog_url`.
pub fn mount(
    routes: &mut tonic::service::RoutesBuilder,
    settings: Settings,
    catalog_url: &str,
) -> Result<(), kit::client::ClientError> {
    let api = grpc::Api::new(settings).with_catalog(catalog_pool::CatalogPools::new(catalog_url)?);
    if !cfg!(debug_assertions) {
        let warming = api.clone();
        tokio::spawn(async move {
            if let Err(err) = warming.warm_up().await {
                tracing::error!(error = %err, "the script sandbox could not be created");
            }
        });
    }
    routes.add_service(grpc::server(api));
    Ok(())
}
