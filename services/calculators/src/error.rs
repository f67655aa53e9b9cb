//! The calculators service's one error type and its one mapping to `tonic::Status`.

use kit::clients::ServiceError;
use kit::status::Failure;
use tonic::{Code, Status};

use crate::domain::calculator::CalculatorError;
use crate::domain::spec::SpecError;

/// What can go wrong in the calculators service.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A builder spec that does not read.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A name or source that breaks a limit.
    #[error(transparent)]
    Calculator(#[from] CalculatorError),
    /// A deck to run on that is not a pile of card refs and copies.
    #[error("`{field}`: {problem}")]
    BadDeck {
        /// The request field.
        field: &'static str,
        /// What is wrong with it.
        problem: String,
    },
    /// A required field is absent.
    #[error("missing field `{0}`")]
    MissingField(&'static str),
    /// The ownership rule refused the caller (`kit::access`).
    #[error("calculator `{id}`: {denied:?}")]
    Denied {
        /// Why.
        denied: kit::access::Denied,
        /// The id as given.
        id: String,
    },
    /// An anonymous caller, or a token that may not write, asked to create something.
    #[error("cannot create: {0:?}")]
    CannotCreate(kit::access::Denied),
    /// A default calculator takes only `enabled` (it is nobody's to change).
    #[error("the default calculator `{0}` cannot be changed: duplicate it to edit a copy")]
    DefaultIsReadOnly(String),
    /// The scripts service refused or failed the run.
    #[error("the scripts service: {0}")]
    Scripts(ServiceError),
    /// The catalog could not be asked for the deck's cards.
    #[error("the catalog: {0}")]
    Catalog(ServiceError),
    /// A stored row that does not read back.
    #[error("stored {what} cannot be read")]
    Corrupt {
        /// What could not be read.
        what: &'static str,
    },
    /// The database failed.
    #[error("database query failed")]
    Db(#[from] sqlx::Error),
}

/// What the catalog cache's reads fail with (`kit::clients::catalog::PerCatalogVersion`).
impl From<ServiceError> for Error {
    fn from(cause: ServiceError) -> Self {
        Error::Catalog(cause)
    }
}

impl From<Error> for Status {
    fn from(err: Error) -> Self {
        let failure = match &err {
            Error::Spec(spec) => Failure::invalid_argument("invalid_spec", err.to_string())
                .with_metadata("field", &spec.path)
                .with_violation("spec_json", &err.to_string()),
            Error::Calculator(calculator) => {
                Failure::invalid_argument("invalid_argument", err.to_string())
                    .with_metadata("field", calculator.field())
                    .with_violation(calculator.field(), &calculator.to_string())
            }
            Error::BadDeck { field, .. } => {
                Failure::invalid_argument("invalid_argument", err.to_string())
                    .with_metadata("field", field)
                    .with_violation(field, &err.to_string())
            }
            Error::MissingField(field) => {
                Failure::invalid_argument("missing_field", err.to_string())
                    .with_metadata("field", field)
                    .with_violation(field, "required")
            }
            Error::Denied { denied, id } => denied.to_failure("calculator", id),
            Error::CannotCreate(denied) => denied.to_create_failure(),
            Error::DefaultIsReadOnly(_) => {
                Failure::new(Code::PermissionDenied, "permission_denied", err.to_string())
            }
            // A run that ran out of time or memory is the script's, as the guide reports it.
            Error::Scripts(cause)
                if matches!(cause.reason.as_str(), "timeout" | "out_of_memory") =>
            {
                Failure::new(cause.code, &cause.reason, cause.message.clone())
            }
            Error::Scripts(cause) => Failure::from_upstream("scripts", cause),
            Error::Catalog(cause) => Failure::from_upstream("catalog", cause),
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
