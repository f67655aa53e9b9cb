//! The tournaments service's one error type and its one mapping to `tonic::Status`.

use kit::clients::ServiceError;
use kit::status::Failure;
use tonic::{Code, Status};

use crate::domain::registration::RosterError;
use crate::domain::result::ResultError;
use crate::run::RunError;

/// What can go wrong in the tournaments service.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The event refused the command.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A field of the request that does not read.
    #[error("`{field}`: {problem}")]
    BadRequest {
        /// The field.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// The ownership rule refused the caller (`kit::access`).
    #[error("tournament `{id}`: {denied:?}")]
    Denied {
        /// Why.
        denied: kit::access::Denied,
        /// The tournament's id as given.
        id: String,
    },
    /// A player acting on a registration or match that is not theirs.
    #[error("{0}")]
    NotYours(&'static str),
    /// An anonymous caller, or a token that may not write, asked to create or join something.
    #[error("cannot create: {0:?}")]
    CannotCreate(kit::access::Denied),
    /// No account of that username.
    #[error("no user `{0}`")]
    UnknownUser(String),
    /// Another writer appended to the log again and again while this one retried.
    #[error("the tournament is busy: try again")]
    Busy,
    /// The accounts service could not be asked.
    #[error("the accounts service: {0}")]
    Accounts(ServiceError),
    /// The scripts service refused or failed to give a ruleset (`ruleset_not_found` for one
    /// the organizer may not see).
    #[error("the scripts service: {0}")]
    Scripts(ServiceError),
    /// Webhooks were asked for and the operator set no webhook key.
    #[error("webhooks are off: the operator has set no TURNIER_WEBHOOK_KEY for signing them")]
    WebhooksOff,
    /// No delivery of that id for that webhook.
    #[error("no delivery `{0}` of this webhook")]
    UnknownDelivery(String),
    /// The caller holds as many live event streams as it may.
    #[error(transparent)]
    TooManyStreams(#[from] crate::streams::TooManyStreams),
    /// A stored fact that does not read back.
    #[error("stored {what} cannot be read")]
    Corrupt {
        /// What could not be read.
        what: &'static str,
    },
    /// The database failed.
    #[error("database query failed")]
    Db(#[from] sqlx::Error),
}

impl From<Error> for Status {
    fn from(err: Error) -> Self {
        let conflict =
            |reason: &str| Failure::new(Code::FailedPrecondition, reason, err.to_string());
        let failure = match &err {
            Error::Run(run) => match run {
                RunError::BadSettings { field, .. } => {
                    Failure::invalid_argument("invalid_argument", err.to_string())
                        .with_metadata("field", field)
                        .with_violation(field, &run.to_string())
                }
                RunError::Roster(RosterError::Unknown(_)) => {
                    Failure::new(Code::NotFound, "not_found", err.to_string())
                        .with_metadata("kind", "registration")
                }
                RunError::Roster(RosterError::AlreadyRegistered(_)) => {
                    Failure::new(Code::AlreadyExists, "already_registered", err.to_string())
                }
                RunError::Roster(RosterError::Closed) => conflict("registration_closed"),
                RunError::Roster(_) => conflict("failed_precondition"),
                RunError::Result(ResultError::TooManyGames | ResultError::NotAPlayer) => {
                    Failure::invalid_argument("invalid_argument", err.to_string())
                        .with_metadata("field", "games")
                        .with_violation("games", &run.to_string())
                }
                RunError::Result(ResultError::AlreadyDecided(_)) => conflict("result_decided"),
                RunError::NoDraws(_) => {
                    Failure::invalid_argument("invalid_argument", err.to_string())
                        .with_metadata("field", "games")
                        .with_violation("games", &run.to_string())
                }
                RunError::WrongPhase(_) => conflict("failed_precondition"),
                RunError::RoundNotComplete { .. } => conflict("round_not_complete"),
                RunError::CannotPair(_) => conflict("cannot_pair"),
                RunError::StageComplete(_) => conflict("stage_complete"),
                RunError::StageNotComplete(_) => conflict("stage_not_complete"),
                RunError::BracketMovedOn(_) => conflict("bracket_moved_on"),
                RunError::ByeHasNoResult(_) => conflict("failed_precondition"),
                RunError::UnknownMatch(_) => {
                    Failure::new(Code::NotFound, "not_found", err.to_string())
                        .with_metadata("kind", "match")
                }
                RunError::UnknownWebhook(_) => {
                    Failure::new(Code::NotFound, "not_found", err.to_string())
                        .with_metadata("kind", "webhook")
                }
                RunError::UnknownRound { .. } => {
                    Failure::new(Code::NotFound, "not_found", err.to_string())
                        .with_metadata("kind", "round")
                }
                RunError::UnknownStage(_) => {
                    Failure::new(Code::NotFound, "not_found", err.to_string())
                        .with_metadata("kind", "stage")
                }
            },
            Error::BadRequest { field, .. } => {
                Failure::invalid_argument("invalid_argument", err.to_string())
                    .with_metadata("field", field)
                    .with_violation(field, &err.to_string())
            }
            Error::Denied { denied, id } => denied.to_failure("tournament", id),
            Error::NotYours(_) => Failure::new(
                Code::PermissionDenied,
                kit::access::REASON_PERMISSION_DENIED,
                err.to_string(),
            ),
            Error::CannotCreate(denied) => denied.to_create_failure(),
            Error::UnknownUser(_) => Failure::new(Code::NotFound, "not_found", err.to_string())
                .with_metadata("kind", "user"),
            Error::WebhooksOff => conflict("webhooks_off"),
            Error::UnknownDelivery(_) => Failure::new(Code::NotFound, "not_found", err.to_string())
                .with_metadata("kind", "delivery"),
            Error::Busy => Failure::new(Code::Aborted, "aborted", err.to_string()),
            Error::TooManyStreams(refused) => Failure::new(
                Code::ResourceExhausted,
                "resource_exhausted",
                err.to_string(),
            )
            .with_metadata("limit", refused.limit),
            Error::Accounts(cause) => Failure::from_upstream("accounts", cause),
            Error::Scripts(cause) => Failure::from_upstream("scripts", cause),
            Error::Corrupt { .. } => {
                tracing::error!(error = %err, "internal error");
                Failure::internal()
            }
            // Text no check at the edge caught (a NUL) is the caller's bad input, not ours.
            Error::Db(cause) => kit::db::refused_text(cause).unwrap_or_else(|| {
                tracing::error!(error = ?cause, "database error");
                Failure::internal()
            }),
        };
        failure.into()
    }
}
