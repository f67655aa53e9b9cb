//! The tonic implementation of `turnier.catalog.v1.CatalogService`.

use proto::catalog::v1::catalog_service_server::{CatalogService, CatalogServiceServer};

/// The `CatalogService` implementation.
#[derive(Debug, Clone, Default)]
pub struct Api;

impl CatalogService for Api {}

/// Returns the tonic server for this service.
pub fn server() -> CatalogServiceServer<Api> {
    CatalogServiceServer::new(Api)
}
