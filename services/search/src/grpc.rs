//! The tonic implementation of `turnier.search.v1.SearchService`.

use proto::search::v1::search_service_server::{SearchService, SearchServiceServer};

/// The `SearchService` implementation.
#[derive(Debug, Clone, Default)]
pub struct Api;

impl SearchService for Api {}

/// Returns the tonic server for this service.
pub fn server() -> SearchServiceServer<Api> {
    SearchServiceServer::new(Api)
}
