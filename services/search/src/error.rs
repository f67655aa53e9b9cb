//! The search service's one error type and its mapping to `tonic::Status`.

use kit::status::{Failure, ServiceError};
use tonic::Status;

use crate::domain::index::SearchError;

/// What can go wrong in the search service.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The query does not parse, or the page token is not ours.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The request named no game.
    #[error("unknown or missing game")]
    MissingGame,
    /// The catalog could not be asked for the cards.
    #[error("the catalog did not answer: {0}")]
    Catalog(#[from] ServiceError),
    /// Building the index or running the query did not finish: a bug.
    #[error("the search did not finish: {0}")]
    TaskFailed(#[from] tokio::task::JoinError),
    /// An explanation did not serialize as JSON: a bug, since it is plain data.
    #[error("an explanation did not serialize: {0}")]
    Unserializable(#[from] serde_json::Error),
}

impl From<Error> for Status {
    fn from(err: Error) -> Self {
        let failure = match &err {
            Error::Search(SearchError::Query(query)) => {
                Failure::invalid_argument("invalid_query", err.to_string())
                    .with_metadata("position", query.position())
                    .with_violation("query", &err.to_string())
            }
            Error::Search(SearchError::PageToken(_)) => {
                Failure::invalid_argument("invalid_page_token", err.to_string())
                    .with_violation("page_token", "not a token this service gave")
            }
            Error::MissingGame => Failure::invalid_argument("unknown_game", err.to_string())
                .with_violation("game", "expected lor, pokemon or riftbound"),
            Error::Catalog(cause) => Failure::from_upstream("catalog", cause),
            Error::TaskFailed(_) | Error::Unserializable(_) => {
                tracing::error!(error = %err, "internal error");
                Failure::internal()
            }
        };
        failure.into()
    }
}
