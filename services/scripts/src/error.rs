//! The scripts service's one error type and its mapping to `tonic::Status`.

use std::time::Duration;

use kit::status::{Failure, ServiceError};
use prost::Message as _;
use proto::scripts::v1 as pb;
use tonic::{Code, Status};

use crate::domain::ruleset::{RulesetError, RulesetId};
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
    /// One rule of a whole-deck check could not run: the failure, naming the rule
    /// (`Main Deck's zone rule`, `the card rule on Zed`).
    #[error("{rule}: {failure}")]
    RuleFailed {
        /// Which rule, for people.
        rule: String,
        /// Why it could not run.
        failure: RunFailure,
    },
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
    /// A ruleset was saved from a tournament and the tournaments service did not answer.
    #[error("the tournaments service is not available: {0}")]
    Tournaments(ServiceError),
    /// A catalog pool was asked for and this server reads no catalog.
    #[error("this server reads no catalog: send the cards in `cards_json`")]
    NoCatalog,
    /// No ruleset (or no such version of one) with this id that the caller may see.
    #[error("no ruleset `{}`{}", kit::status::quote(id), version.map(|v| format!(" at version {v}")).unwrap_or_default())]
    RulesetNotFound {
        /// The id asked for.
        id: String,
        /// The version asked for, if one was.
        version: Option<u32>,
    },
    /// The ownership rule refused (`kit::access`): not found, permission denied or
    /// unauthenticated, naming the ruleset.
    #[error("{denied:?} for the ruleset `{}`", kit::status::quote(id))]
    Denied {
        /// What the rule said.
        denied: kit::access::Denied,
        /// The ruleset's id.
        id: String,
    },
    /// The caller may not create a ruleset (`kit::access::creator`).
    #[error("{0:?}: may not create a ruleset")]
    CannotCreate(kit::access::Denied),
    /// A card of the catalog does not convert to the JSON scripts read: a bug.
    #[error("a catalog card does not convert to JSON: {0}")]
    CardJson(#[source] serde_json::Error),
    /// A ruleset or a change of one breaks the rulesets' rules.
    #[error(transparent)]
    Ruleset(#[from] RulesetError),
    /// A copy was to pin a version its origin does not have.
    #[error("ruleset `{ruleset}` has no version {version}")]
    UnknownVersion {
        /// The origin.
        ruleset: RulesetId,
        /// The version asked for.
        version: u32,
    },
    /// Concurrent edits of one ruleset kept taking the version number this edit wanted.
    #[error("ruleset `{0}` is being edited concurrently: try again")]
    EditConflict(RulesetId),
    /// A stored row does not read back as what was written: a bug or a hand-edited table.
    #[error("a stored ruleset has an invalid {what}")]
    Corrupt {
        /// The field that does not read.
        what: &'static str,
    },
    /// A query failed.
    #[error("database query failed")]
    Db(#[from] sqlx::Error),
}

impl From<Error> for Status {
    fn from(err: Error) -> Self {
        let failure = match &err {
            Error::Run(failure) | Error::RuleFailed { failure, .. } => {
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
            Error::Catalog(cause) => Failure::from_upstream("catalog", cause),
            Error::Tournaments(cause) => Failure::from_upstream("tournaments", cause),
            Error::NoCatalog => {
                Failure::new(Code::Unavailable, "catalog_unavailable", err.to_string())
            }
            Error::Denied { denied, id } => denied.to_failure("ruleset", id),
            Error::CannotCreate(denied) => denied.to_create_failure(),
            Error::RulesetNotFound { .. } => {
                Failure::new(Code::NotFound, "ruleset_not_found", err.to_string())
            }
            Error::Ruleset(ruleset) => {
                let failure = Failure::invalid_argument("invalid_ruleset", err.to_string());
                match ruleset.field() {
                    Some(field) => failure
                        .with_metadata("field", field)
                        .with_violation(field, &ruleset.to_string()),
                    None => failure,
                }
            }
            Error::UnknownVersion { .. } => {
                Failure::new(Code::NotFound, "unknown_version", err.to_string())
            }
            Error::EditConflict(_) => Failure::new(Code::Aborted, "edit_conflict", err.to_string()),
            Error::CardJson(_) | Error::Corrupt { .. } => {
                tracing::error!(error = %err, "internal error");
                Failure::internal()
            }
            // Text no check at the edge caught (a NUL) is the caller's bad input, not ours.
            Error::Db(cause) => kit::db::refused_text(cause).unwrap_or_else(|| {
                // The caller gets a generic message; the cause is logged inside the request span.
                tracing::error!(error = ?cause, "database error");
                Failure::internal()
            }),
        };
        failure.into()
    }
}

/// An unsafe script's error: each issue as a `BadRequest` violation of `script.source` (what
/// any client reads), and all of them with their lines and columns as our own detail.
fn unsafe_script(failure: Failure, report: &SafetyReport) -> Failure {
    // As many issues as the status details may carry (each message may name a long
    // identifier of the script); the rest are counted. `scripts:check` answers every issue in
    // its response body.
    let mut packed = pb::UnsafeScript::default();
    for issue in &report.issues {
        let mut issue = pb::SafetyIssue::from(issue);
        issue.message = kit::status::bounded(&issue.message, kit::status::MAX_VALUE_BYTES);
        packed.issues.push(issue);
        if packed.encoded_len() + ANY_OVERHEAD_BYTES > kit::status::MAX_EXTRA_DETAIL_BYTES {
            packed.issues.pop();
            break;
        }
    }
    let left_out = report.issues.len() - packed.issues.len();
    let failure = if left_out > 0 {
        failure.with_metadata("issues_left_out", left_out)
    } else {
        failure
    };
    let failure = report.issues.iter().fold(failure, |failure, issue| {
        failure.with_violation(
            "script.source",
            &format!(
                "{} at line {}, column {}: {}",
                issue.code, issue.line, issue.column, issue.message
            ),
        )
    });
    failure.with_detail(&packed)
}

/// What packing a detail as `google.protobuf.Any` adds: its type URL and framing.
const ANY_OVERHEAD_BYTES: usize = 96;

#[cfg(test)]
mod tests {
    use crate::domain::safety::{IssueCode, SafetyIssue};

    use super::*;

    #[test]
    fn an_unsafe_scripts_issues_travel_within_the_bound_of_a_status() {
        let long_name = "x".repeat(20_000);
        let report = SafetyReport {
            safe: false,
            issues: (1..=12)
                .map(|line| SafetyIssue {
                    code: IssueCode::InvalidSyntax,
                    message: format!("`{long_name}` is not defined"),
                    line,
                    column: 1,
                })
                .collect(),
        };
        let status = Status::from(Error::Run(RunFailure::Unsafe(report)));
        let headers = kit::status::header_bytes(&status);
        assert!(headers < 16 * 1024, "{headers} bytes of trailers");

        let error = ServiceError::from(&status);
        assert_eq!(error.reason, "unsafe_script");
        let packed: pb::UnsafeScript = error.detail().expect("the issues travel");
        assert!(!packed.issues.is_empty());
        assert!(packed.issues.iter().all(|issue| issue.message.len() <= 256));
        let left_out: usize = error
            .metadata()
            .get("issues_left_out")
            .map_or(0, |count| count.parse().expect("a count"));
        assert_eq!(packed.issues.len() + left_out, 12);
        assert_eq!(
            packed.issues[0].line, 1,
            "the first issues, in source order"
        );
    }
}
