//! The scripts service's one error type and its mapping to `tonic::Status`.

use tonic::{Code, Status};

use crate::runner::RunFailure;

/// What can go wrong in the scripts service.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The script could not run, or gave no result.
    #[error(transparent)]
    Run(#[from] RunFailure),
    /// A request field is missing or not the JSON it must hold.
    #[error("`{field}`: {reason}")]
    BadField {
        /// The request field, as the proto names it.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The sandbox could not be created, or a run's thread died: a bug or a broken host.
    #[error("the sandbox is not available: {0}")]
    Sandbox(String),
    /// A catalog pool was asked for and the catalog service did not answer with its cards.
    #[error("the catalog is not available: {0}")]
    Catalog(String),
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
            Error::Run(failure) => {
                let code = match failure {
                    RunFailure::EmptySource(_)
                    | RunFailure::Unsafe(_)
                    | RunFailure::NoEntryPoint(_)
                    | RunFailure::ScriptError(_)
                    | RunFailure::InvalidArgument(_) => Code::InvalidArgument,
                    RunFailure::Timeout(_) => Code::DeadlineExceeded,
                    RunFailure::OutOfMemory(_) | RunFailure::OutputTooLarge(_) => {
                        Code::ResourceExhausted
                    }
                    RunFailure::NotFound(_) => Code::NotFound,
                    RunFailure::Unavailable(_) => Code::Unavailable,
                    RunFailure::Internal(_) => {
                        tracing::error!(error = %err, "sandbox error");
                        Code::Internal
                    }
                };
                let details = match failure {
                    RunFailure::Unsafe(report) => {
                        Some(serde_json::json!({"issues": report.issues}))
                    }
                    _ => None,
                };
                kit::status::status(code, failure.code(), err.to_string(), details.as_ref())
            }
            Error::BadField { .. } => kit::status::status(
                Code::InvalidArgument,
                "invalid_argument",
                err.to_string(),
                None,
            ),
            Error::Sandbox(_) => {
                tracing::error!(error = %err, "sandbox unavailable");
                Status::unavailable(err.to_string())
            }
            Error::Catalog(_) => {
                tracing::warn!(error = %err, "catalog unavailable");
                kit::status::status(
                    Code::Unavailable,
                    "catalog_unavailable",
                    err.to_string(),
                    None,
                )
            }
        }
    }
}
