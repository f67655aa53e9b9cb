//! The decks service's one error type and its one mapping to `tonic::Status`.
//!
//! Bad input carries a precise reason (`invalid_format`, `invalid_deck`, …) in the status's
//! `ErrorInfo` ([`kit::status::Failure`]), with the offending field in its metadata and a
//! `BadRequest` violation; the gateway turns them into `{"error": {"code", "message",
//! "details"}}`.

use kit::status::Failure;
use tonic::Status;

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
    /// A saved deck, deck set or template that breaks a limit or a rule.
    #[error(transparent)]
    SavedDeck(#[from] crate::domain::saved::SavedDeckError),
    /// A template that cannot be saved as given.
    #[error(transparent)]
    Template(#[from] crate::domain::template::TemplateError),
    /// A page token this service did not write.
    #[error(transparent)]
    InvalidPageToken(#[from] crate::domain::page::InvalidPageToken),
    /// The ownership rule refused the caller (`kit::access`).
    #[error("{kind} `{id}`: {denied:?}")]
    Denied {
        /// Why.
        denied: kit::access::Denied,
        /// What was asked for (`deck`).
        kind: &'static str,
        /// Its id as given.
        id: String,
    },
    /// An anonymous caller, or a token that may not write, asked to save something new.
    #[error("cannot save: {0:?}")]
    CannotCreate(kit::access::Denied),
    /// A name the owner already uses for another one of the same kind.
    #[error("you already have a {kind} named `{name}`")]
    NameTaken {
        /// `deck`, `deck set` or `template`.
        kind: &'static str,
        /// The name as asked.
        name: String,
    },
    /// The scripts service could not check the deck's rules.
    #[error("the deck's rules could not be checked: {0}")]
    Rules(kit::clients::ServiceError),
    /// The catalog could not be asked for a shared deck's cards.
    #[error("the catalog did not answer: {0}")]
    Catalog(kit::clients::ServiceError),
    /// A stored row that does not read back: a bug or a hand edit.
    #[error("stored {what} cannot be read")]
    Corrupt {
        /// What could not be read.
        what: &'static str,
    },
    /// The database failed.
    #[error("database query failed")]
    Db(#[from] sqlx::Error),
    /// The blocking task that read and checked the format failed: a bug.
    #[error("the format check did not finish: {0}")]
    TaskFailed(#[from] tokio::task::JoinError),
}

impl From<Error> for Status {
    fn from(err: Error) -> Self {
        use crate::import::ImportError;
        let failure = match &err {
            Error::InvalidDeck(invalid) => {
                // The format or the deck is a JSON text field of the request.
                let request_field = match invalid.code() {
                    "invalid_format" => "format_json",
                    _ => "deck",
                };
                Failure::invalid_argument(invalid.code(), err.to_string())
                    .with_metadata("field", invalid.field())
                    .with_violation(request_field, &err.to_string())
            }
            Error::InvalidMoment(_) => Failure::invalid_argument("invalid_moment", err.to_string())
                .with_violation(
                    "moment",
                    "expected an RFC 3339 date and time with a UTC offset",
                ),
            Error::InvalidCard { field, .. } => {
                Failure::invalid_argument("invalid_card", err.to_string())
                    .with_metadata("field", field)
                    .with_violation("cards", &err.to_string())
            }
            Error::MissingField(field) => {
                Failure::invalid_argument("missing_field", err.to_string())
                    .with_metadata("field", field)
                    .with_violation(field, "required")
            }
            Error::Import(ImportError::UnknownExportFormat { .. }) => {
                Failure::invalid_argument("unexportable_deck", err.to_string())
                    .with_violation("format", &err.to_string())
            }
            Error::Import(ImportError::UnknownCard(card)) => {
                Failure::invalid_argument("unexportable_deck", err.to_string())
                    .with_metadata("card", card)
                    .with_violation("cards", &err.to_string())
            }
            Error::Import(ImportError::Unreadable(_)) => {
                Failure::invalid_argument("unreadable_deck", err.to_string())
                    .with_violation("text", "no supported deck code or list reads it")
            }
            Error::Import(ImportError::Lookup(cause)) => Failure::from_upstream("catalog", cause),
            // A field over its limit is bad input (400 through the gateway), not a quota that
            // a retry later could meet.
            Error::TooLarge { what, limit } => {
                Failure::invalid_argument("too_large", err.to_string())
                    .with_metadata("what", what)
                    .with_metadata("limit", limit)
            }
            Error::SavedDeck(saved) => {
                let field = match saved {
                    crate::domain::saved::SavedDeckError::InvalidName(_) => "name".to_owned(),
                    crate::domain::saved::SavedDeckError::InvalidPile { field, .. } => {
                        field.clone()
                    }
                    crate::domain::saved::SavedDeckError::InvalidRules { field, .. } => {
                        format!("rules.{field}")
                    }
                };
                Failure::invalid_argument("invalid_argument", err.to_string())
                    .with_metadata("field", &field)
                    .with_violation(&field, &err.to_string())
            }
            Error::Template(template) => {
                use crate::domain::template::TemplateError;
                match template {
                    TemplateError::NotEmpty { cards, .. } => Failure::new(
                        tonic::Code::FailedPrecondition,
                        "template_not_empty",
                        err.to_string(),
                    )
                    .with_metadata("cards", cards),
                    TemplateError::NoDecksetRule => {
                        Failure::invalid_argument("deckset_rule_required", err.to_string())
                            .with_metadata("field", "decksetRule")
                            .with_violation("deckset_rule", "required")
                    }
                    TemplateError::NotBuiltIn => {
                        Failure::invalid_argument("invalid_argument", err.to_string())
                            .with_metadata("field", "id")
                            .with_violation("id", &err.to_string())
                    }
                    TemplateError::OpenPile(_) => {
                        Failure::invalid_argument("invalid_argument", err.to_string())
                            .with_metadata("field", "openPile")
                            .with_violation("open_pile", &err.to_string())
                    }
                    TemplateError::Pile(saved) => {
                        return Status::from(Error::SavedDeck(saved.clone()));
                    }
                }
            }
            Error::InvalidPageToken(_) => {
                Failure::invalid_argument("invalid_argument", err.to_string())
                    .with_metadata("field", "pageToken")
                    .with_violation("page_token", &err.to_string())
            }
            Error::Denied { denied, kind, id } => denied.to_failure(kind, id),
            Error::CannotCreate(denied) => denied.to_create_failure(),
            Error::NameTaken { kind, .. } => Failure::new(
                tonic::Code::AlreadyExists,
                "already_exists",
                err.to_string(),
            )
            .with_metadata("kind", kind)
            .with_metadata("field", "name"),
            Error::Rules(cause) => Failure::from_upstream("scripts", cause),
            Error::Catalog(cause) => Failure::from_upstream("catalog", cause),
            Error::Corrupt { .. } => {
                tracing::error!(error = %err, "internal error");
                Failure::internal()
            }
            // Text no check at the edge caught (a NUL) is the caller's bad input, not ours.
            Error::Db(cause) => kit::db::refused_text(cause).unwrap_or_else(|| {
                // The caller gets a generic message; the cause is logged inside the request span.
                tracing::error!(error = ?cause, "database error");
                Failure::internal()
            }),
            Error::TaskFailed(_) => {
                // The caller gets a generic message; the cause is logged inside the request span.
                tracing::error!(error = %err, "internal error");
                Failure::internal()
            }
        };
        failure.into()
    }
}

#[cfg(test)]
mod tests {
    use tonic::Code;

    use super::*;

    #[test]
    fn a_format_that_fails_to_read_is_an_invalid_argument_coded_invalid_format() {
        let err = crate::domain::format::Format::from_json("{}").expect_err("no code");
        let status = Status::from(Error::from(err));
        assert_eq!(status.code(), Code::InvalidArgument);
        let error = kit::status::ServiceError::from(&status);
        assert_eq!(error.reason, "invalid_format");
        assert_eq!(status.message(), "invalid format: `code` is missing");
        assert_eq!(error.metadata()["field"], "code");
        assert_eq!(error.violations()[0].field, "format_json");
    }

    #[test]
    fn a_deck_that_fails_to_read_is_coded_invalid_deck() {
        let err =
            crate::domain::format::Deck::from_json(r#"{"cards": [{"id": "a"}]}"#).expect_err("");
        let status = Status::from(Error::from(err));
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(
            kit::status::ServiceError::from(&status).reason,
            "invalid_deck"
        );
    }

    #[test]
    fn a_bad_moment_is_coded_invalid_moment() {
        let err = crate::domain::format::parse_moment("tomorrow").expect_err("not a moment");
        let status = Status::from(Error::from(err));
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(
            kit::status::ServiceError::from(&status).reason,
            "invalid_moment"
        );
    }
}
