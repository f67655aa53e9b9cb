//! The search service's one error type and its mapping to `tonic::Status`.

use tonic::{Code, Status};

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
    Catalog(String),
    /// Building the index or running the query did not finish: a bug.
    #[error("the search did not finish: {0}")]
    TaskFailed(#[from] tokio::task::JoinError),
}

impl From<Status> for Error {
    /// A failed call to the catalog service.
    fn from(status: Status) -> Self {
        Error::Catalog(status.message().to_owned())
    }
}

impl From<Error> for Status {
    fn from(err: Error) -> Self {
        match &err {
            Error::Search(SearchError::Query(query)) => {
                let details = serde_json::json!({ "position": query.position() });
                kit::status::status(
                    Code::InvalidArgument,
                    "invalid_query",
                    err.to_string(),
                    Some(&details),
                )
            }
            Error::Search(SearchError::PageToken(_)) => kit::status::status(
                Code::InvalidArgument,
                "invalid_page_token",
                err.to_string(),
                None,
            ),
            Error::MissingGame => {
                kit::status::status(Code::InvalidArgument, "unknown_game", err.to_string(), None)
            }
            Error::Catalog(_) => Status::unavailable(err.to_string()),
            Error::TaskFailed(_) => {
                tracing::error!(error = %err, "internal error");
                Status::internal("internal error")
            }
        }
    }
}
