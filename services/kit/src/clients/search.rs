//! The search service's client.

use std::time::Duration;

use crate::client::TracedChannel;
use crate::status::ServiceError;
use proto::search::v1 as pb;
use proto::search::v1::search_service_client::SearchServiceClient;

use crate::clients::call::{CallOptions, client, rpc};

/// A page of search results is at most a thousand cards.
pub const DEFAULT_OPTIONS: CallOptions = CallOptions {
    deadline: Duration::from_secs(30),
    max_decoding_bytes: 32 << 20,
};

client!(
    /// A client of `turnier.search.v1.SearchService`. Cheap to clone.
    SearchClient,
    SearchServiceClient<TracedChannel>,
    DEFAULT_OPTIONS
);

impl SearchClient {
    /// Runs a query: one page of matching cards.
    pub async fn search(
        &self,
        request: pb::SearchRequest,
    ) -> Result<pb::SearchResponse, ServiceError> {
        rpc!(self, Idempotent, request, search)
    }

    /// Explains a query: how it parsed, its warnings and its order.
    pub async fn explain_query(
        &self,
        request: pb::ExplainQueryRequest,
    ) -> Result<pb::ExplainQueryResponse, ServiceError> {
        rpc!(self, Idempotent, request, explain_query)
    }
}
