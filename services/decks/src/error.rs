//! The decks service's one error type and its one mapping to `tonic::Status`.
//!
//! Bad input carries a precise code (`invalid_format`, `invalid_deck`, …) through
//! [`kit::status::status`], which the gateway turns into `{"error": {"code", "message",
//! "details"}}`.

use tonic::{Code, Status};

use crate::domain::format::{InvalidDeck, InvalidMoment, Problem};

/// What can go wrong in the decks service.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A deck import that failed as a whole.
    #[error(transparent)]
    Import(#[from] crate::import::ImportError),
    /// A format, or a deck, that fails to read; its code says which.
    #[error(transparent)]
    InvalidDeck(#[from] InvalidDeck),
    /// A moment that is not an RFC 3339 date and time with a UTC offset.
    #[error(transparent)]
    InvalidMoment(#[from] InvalidMoment),
    /// A card asked about in a ruling that is not of a card's shape.
    #[error("invalid card: `{field}` {problem}")]
    InvalidCard {
        /// The path of the offending field (`cards[2].id`).
        field: String,
        /// What is wrong with it.
        problem: Problem,
    },
    /// A required message field is absent.
    #[error("missing field `{0}`")]
    MissingField(&'static str),
    /// A request field over its size limit.
    #[error("{what} is over the {limit}-byte limit")]
    TooLarge {
        /// What was too large.
        what: &'static str,
        /// The limit in bytes.
        limit: usize,
    },
    /// The blocking task that read and checked the format failed: a bug.
    #[error("the format check did not finish: {0}")]
    TaskFailed(#[from] tokio::task::JoinError),
}

impl From<Error> for Status {
    fn from(err: Error) -> Self {
        match &err {
            Error::InvalidDeck(invalid) => {
                let details = serde_json::json!({ "field": invalid.field() });
                kit::status::status(
                    Code::InvalidArgument,
                    invalid.code(),
                    err.to_string(),
                    Some(&details),
                )
            }
            Error::InvalidMoment(_) => kit::status::status(
                Code::InvalidArgument,
                "invalid_moment",
                err.to_string(),
                None,
            ),
            Error::InvalidCard { field, .. } => {
                let details = serde_json::json!({ "field": field });
                kit::status::status(
                    Code::InvalidArgument,
                    "invalid_card",
                    err.to_string(),
                    Some(&details),
                )
            }
            Error::MissingField(field) => {
                let details = serde_json::json!({ "field": field });
                kit::status::status(
                    Code::InvalidArgument,
                    "missing_field",
                    err.to_string(),
                    Some(&details),
                )
            }
            Error::Import(crate::import::ImportError::Unexportable(_)) => kit::status::status(
                Code::InvalidArgument,
                "unexportable_deck",
                err.to_string(),
                None,
            ),
            Error::Import(crate::import::ImportError::Unreadable(_)) => kit::status::status(
                Code::InvalidArgument,
                "unreadable_deck",
                err.to_string(),
                None,
            ),
            Error::Import(crate::import::ImportError::Lookup(_)) => {
                Status::unavailable(err.to_string())
            }
            Error::TooLarge { .. } => {
                kit::status::status(Code::ResourceExhausted, "too_large", err.to_string(), None)
            }
            Error::TaskFailed(_) => {
                // The caller gets a generic message; the cause is logged inside the request span.
                tracing::error!(error = %err, "internal error");
                Status::internal("internal error")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_format_that_fails_to_read_is_an_invalid_argument_coded_invalid_format() {
        let err = crate::domain::format::Format::from_json("{}").expect_err("no code");
        let status = Status::from(Error::from(err));
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(kit::status::error_code(&status), Some("invalid_format"));
        assert_eq!(status.message(), "invalid format: `code` is missing");
        assert_eq!(
            kit::status::details(&status),
            Some(serde_json::json!({"field": "code"}))
        );
    }

    #[test]
    fn a_deck_that_fails_to_read_is_coded_invalid_deck() {
        let err =
            crate::domain::format::Deck::from_json(r#"{"cards": [{"id": "a"}]}"#).expect_err("");
        let status = Status::from(Error::from(err));
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(kit::status::error_code(&status), Some("invalid_deck"));
    }

    #[test]
    fn a_bad_moment_is_coded_invalid_moment() {
        let err = crate::domain::format::parse_moment("tomorrow").expect_err("not a moment");
        let status = Status::from(Error::from(err));
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(kit::status::error_code(&status), Some("invalid_moment"));
    }
}
