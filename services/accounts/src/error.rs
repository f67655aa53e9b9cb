//! The accounts service's one error type and its mapping to `tonic::Status`.

use kit::access::{Denied, REASON_NOT_FOUND, REASON_PERMISSION_DENIED};
use kit::auth::{AuthError, REASON_UNAUTHENTICATED, Scope};
use kit::status::{Failure, quote};
use tonic::{Code, Status};

use crate::domain::Invalid;

/// The reason of the error for a taken username.
pub const REASON_USERNAME_TAKEN: &str = "username_taken";

/// The reason of the error for a sign-in with an unknown username or a wrong password.
pub const REASON_WRONG_CREDENTIALS: &str = "wrong_credentials";

/// The reason of the error for bad input.
pub const REASON_INVALID_ARGUMENT: &str = "invalid_argument";

/// The reason of the error for a sign-out with a token that is not a session's.
pub const REASON_NOT_A_SESSION: &str = "not_a_session";

/// The reason of the error when every password hashing thread is taken and the queue is full.
pub const REASON_BUSY: &str = "busy";

/// The reason of the error for managing API tokens with an API token.
pub const REASON_SESSION_REQUIRED: &str = "session_required";

/// What can go wrong in the accounts service.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A request field breaks its rule.
    #[error(transparent)]
    Invalid(#[from] Invalid),
    /// Another account has this username, without regard to case.
    #[error("the username `{}` is taken", quote(.0))]
    UsernameTaken(String),
    /// An unknown username or a wrong password: the same words for both.
    #[error("wrong username or password")]
    WrongCredentials,
    /// A token that is malformed, unknown, expired or revoked.
    #[error(transparent)]
    InvalidToken(#[from] AuthError),
    /// The method acts for an account and the request came without a token.
    #[error("this needs an account: send `Authorization: Bearer <token>`")]
    Anonymous,
    /// The caller's token may not change anything (it lacks the `write` scope).
    #[error("this token may not write: it lacks the `write` scope")]
    MayNotWrite,
    /// API tokens are created, listed and revoked from a session only: an API token asked.
    #[error(
        "API tokens are managed from a signed-in session: an API token cannot create, list or revoke them"
    )]
    NeedsSession,
    /// Sign-out was asked with an API token, which only revocation ends.
    #[error("sign-out ends a session; an API token is revoked instead (RevokeApiToken)")]
    NotASession,
    /// The caller has no API token with this id.
    #[error("no API token `{}`", quote(.0))]
    TokenNotFound(String),
    /// No account has this username.
    #[error("no user `{}`", quote(.0))]
    UserNotFound(String),
    /// Argon2 refused its parameters or a stored hash does not parse: a bug or a manual edit.
    #[error("password hashing failed: {0}")]
    Hashing(String),
    /// A sign-in or sign-up limit holds (`kit::limits`).
    #[error("{}: try again later", .0.what)]
    Limited(kit::limits::TooMany),
    /// Every password hashing thread is busy and the queue in front of them is full.
    #[error("too many sign-ins at once: try again in a few seconds")]
    HashingBusy,
    /// The password hashing pool stopped (its threads could not start, or one panicked).
    #[error("password hashing stopped")]
    HashingStopped,
    /// A stored row no longer reads back: a bug or a manual edit of the database.
    #[error("stored {what} is corrupt")]
    Corrupt {
        /// What did not read back.
        what: &'static str,
    },
    /// The database failed.
    #[error("database query failed: {0}")]
    Db(#[from] sqlx::Error),
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Database(#[from] kit::db::DbError),
}

impl Error {
    /// Returns the error of a failed hash, whatever argon2 said.
    pub(crate) fn hashing(cause: impl std::fmt::Display) -> Self {
        Error::Hashing(cause.to_string())
    }
}

impl From<kit::limits::TooMany> for Error {
    fn from(refused: kit::limits::TooMany) -> Self {
        Error::Limited(refused)
    }
}

impl Error {
    /// Returns whether the error is the caller's doing (bad input, a taken name, a wrong
    /// password), which the sign-in limits count, rather than ours or a limit's.
    pub fn is_callers_fault(&self) -> bool {
        matches!(
            self,
            Error::Invalid(_) | Error::UsernameTaken(_) | Error::WrongCredentials
        )
    }
}

impl From<Denied> for Error {
    fn from(denied: Denied) -> Self {
        match denied {
            Denied::Unauthenticated => Error::Anonymous,
            // What `kit::access::creator` says of a token without `write`; nothing here asks
            // the rule about a resource, so it never answers not found.
            Denied::PermissionDenied | Denied::NotFound => Error::MayNotWrite,
        }
    }
}

impl From<&Error> for Failure {
    fn from(err: &Error) -> Self {
        match err {
            Error::Invalid(invalid) => {
                Failure::invalid_argument(REASON_INVALID_ARGUMENT, err.to_string())
                    .with_metadata("field", invalid.field)
                    .with_violation(invalid.field, invalid.rule)
            }
            Error::UsernameTaken(_) => {
                Failure::new(Code::AlreadyExists, REASON_USERNAME_TAKEN, err.to_string())
                    .with_metadata("field", "username")
            }
            Error::WrongCredentials => Failure::new(
                Code::Unauthenticated,
                REASON_WRONG_CREDENTIALS,
                err.to_string(),
            ),
            Error::InvalidToken(auth) => auth.to_failure(),
            Error::Anonymous => Failure::new(
                Code::Unauthenticated,
                REASON_UNAUTHENTICATED,
                err.to_string(),
            ),
            Error::MayNotWrite => Failure::new(
                Code::PermissionDenied,
                REASON_PERMISSION_DENIED,
                err.to_string(),
            )
            .with_metadata("scope", Scope::Write.name()),
            Error::Limited(refused) => refused.to_failure(),
            Error::HashingBusy => {
                Failure::new(Code::ResourceExhausted, REASON_BUSY, err.to_string())
            }
            Error::NeedsSession => Failure::new(
                Code::PermissionDenied,
                REASON_SESSION_REQUIRED,
                err.to_string(),
            ),
            Error::NotASession => Failure::new(
                Code::FailedPrecondition,
                REASON_NOT_A_SESSION,
                err.to_string(),
            ),
            Error::TokenNotFound(_) | Error::UserNotFound(_) => {
                Failure::new(Code::NotFound, REASON_NOT_FOUND, err.to_string())
            }
            // Text no check at the edge caught (a NUL) is the caller's bad input, not ours.
            Error::Db(cause) => kit::db::refused_text(cause).unwrap_or_else(|| {
                tracing::error!(error = %err, "internal error");
                Failure::internal()
            }),
            Error::Hashing(_)
            | Error::HashingStopped
            | Error::Corrupt { .. }
            | Error::Database(_) => {
                // The caller gets a generic message; the cause is logged inside the request span.
                // No variant carries a password or a token.
                tracing::error!(error = %err, "internal error");
                Failure::internal()
            }
        }
    }
}

impl From<Error> for Status {
    fn from(err: Error) -> Self {
        Failure::from(&err).into()
    }
}
