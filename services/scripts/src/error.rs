//! The scripts service's one error type and its mapping to `tonic::Status`.

use std::time::Duration;

use kit::status::{Failure, ServiceError};
use proto::scripts::v1 as pb;
use tonic::{Code, Status};

use crate::domain::safety::SafetyReport;
use crate::runner::RunFailure;
use crate::slots::Busy;

/// How long a caller told `busy` is asked to wait before it tries again (`retry_after_ms`): a
/// typical script run, so that one has likely ended by then.
pub const RETRY_AFTER: Duration = Duration::from_secs(1);

/// What can go wrong in the scripts service.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The script could not run, or gave no result.
    #[error(transparent)]
    Run(#[from] RunFailure),
    /// No sandbox slot for this caller now: its share is taken, or the queue is full, or no
    /// slot came free in time.
    #[error(transparent)]
    Busy(Busy),
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
    Catalog(#[from] ServiceError),
    /// A catalog pool was asked for and this server reads no catalog.
    #[error("this server reads no catalog: send the cards in `cards_json`")]
    NoCatalog,
    /// A card of the catalog does not convert to the JSON scripts read: a bug.
    #[error("a catalog card does not convert to JSON: {0}")]
    CardJson(#[source] serde_json::Error),
}

impl From<Error> for Status {
    fn from(err: Error) -> Self {
        let failure = match &err {
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
                    RunFailure::Unavailable(_) | RunFailure::ShuttingDown => Code::Unavailable,
                    // Nobody reads it: the caller is gone. Logs and metrics see it as such.
                    RunFailure::Cancelled => Code::Cancelled,
                    RunFailure::Internal(_) => {
                        tracing::error!(error = %err, "sandbox error");
                        Code::Internal
                    }
                };
                let out = Failure::new(code, failure.code(), err.to_string());
                match failure {
                    RunFailure::Unsafe(report) => unsafe_script(out, report),
                    _ => out,
                }
            }
            Error::Busy(_) => Failure::new(Code::ResourceExhausted, "busy", err.to_string())
                .with_metadata("retry_after_ms", RETRY_AFTER.as_millis()),
            Error::BadField { field, reason } => {
                Failure::invalid_argument("invalid_argument", err.to_string())
                    .with_metadata("field", field)
                    .with_violation(field, reason)
            }
            Error::Sandbox(_) => {
                tracing::error!(error = %err, "sandbox unavailable");
                Failure::new(Code::Unavailable, "sandbox_unavailable", err.to_string())
            }
            Error::Catalog(cause) => {
                tracing::warn!(error = %cause, "catalog unavailable");
                Failure::new(
                    Code::Unavailable,
                    "catalog_unavailable",
                    "the catalog is not available",
                )
            }
            Error::NoCatalog => {
                Failure::new(Code::Unavailable, "catalog_unavailable", err.to_string())
            }
            Error::CardJson(_) => {
                tracing::error!(error = %err, "internal error");
                Failure::internal()
            }
        };
        failure.into()
    }
}

/// An unsafe script's error: each issue as a `BadRequest` violation of `script.source` (what
/// any client reads), and all of them with their lines and columns as our own detail.
fn unsafe_script(failure: Failure, report: &SafetyReport) -> Failure {
    let issues: Vec<pb::SafetyIssue> = report.issues.iter().map(pb::SafetyIssue::from).collect();
    let failure = report.issues.iter().fold(failure, |failure, issue| {
        failure.with_violation(
            "script.source",
            &format!(
                "{} at line {}, column {}: {}",
                issue.code, issue.line, issue.column, issue.message
            ),
        )
    });
    failure.with_detail(&pb::UnsafeScript { issues })
}
