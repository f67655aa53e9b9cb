//! The catalog's one error type and its mapping to `tonic::Status`.

use kit::status::Failure;
use tonic::{Code, Status};

use crate::domain::game::UnknownGame;

/// What can go wrong in the catalog service.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request named no game, or one the catalog does not serve.
    #[error("unknown or missing game")]
    MissingGame,
    /// A game name that is not one of the three.
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    /// A request asked for more than the limit.
    #[error("too many {what}: {given} given, at most {limit}")]
    TooMany {
        /// What there were too many of.
        what: &'static str,
        /// How many were given.
        given: usize,
        /// The limit.
        limit: usize,
    },
    /// A card with this ref is not in the catalog.
    #[error("no card `{0}` in the {1} catalog")]
    CardNotFound(String, String),
    /// The data folder could not be read.
    #[error("cannot read {path}: {cause}")]
    ReadData {
        /// The path.
        path: String,
        /// Why.
        cause: std::io::Error,
    },
    /// An import found no cards: the folder is probably not the game's data folder. Saving it
    /// would empty the catalog, so it is refused.
    #[error("no {game} cards found in {path} (expected the game's upstream data folder)")]
    NothingToImport {
        /// The game.
        game: String,
        /// The folder.
        path: String,
    },
    /// A stored card no longer parses: a bug or a manual edit of the database.
    #[error("stored card `{id}` is corrupt: {cause}")]
    CorruptCard {
        /// The card id.
        id: String,
        /// The parse error.
        cause: serde_json::Error,
    },
    /// The database failed.
    #[error("database query failed: {0}")]
    Db(#[from] sqlx::Error),
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Database(#[from] kit::db::DbError),
}

impl From<Error> for Status {
    fn from(err: Error) -> Self {
        let failure = match &err {
            Error::MissingGame => Failure::invalid_argument("unknown_game", err.to_string())
                .with_violation("game", "expected lor, pokemon or riftbound"),
            Error::UnknownGame(_) => Failure::invalid_argument("unknown_game", err.to_string()),
            // A request over its limit is bad input (400 through the gateway), not a quota
            // that a retry later could meet.
            Error::TooMany { what, limit, .. } => {
                Failure::invalid_argument("too_many", err.to_string())
                    .with_metadata("what", what)
                    .with_metadata("limit", limit)
                    .with_violation(what, &err.to_string())
            }
            Error::CardNotFound(card, _) => {
                Failure::new(Code::NotFound, "card_not_found", err.to_string())
                    .with_metadata("card", kit::status::quote(card))
            }
            Error::NothingToImport { .. } => Failure::new(
                Code::FailedPrecondition,
                "nothing_to_import",
                err.to_string(),
            ),
            // Text no check at the edge caught (a NUL) is the caller's bad input, not ours.
            Error::Db(cause) => kit::db::refused_text(cause).unwrap_or_else(|| {
                tracing::error!(error = %err, "internal error");
                Failure::internal()
            }),
            Error::ReadData { .. } | Error::CorruptCard { .. } | Error::Database(_) => {
                // The caller gets a generic message; the cause is logged inside the request span.
                tracing::error!(error = %err, "internal error");
                Failure::internal()
            }
        };
        failure.into()
    }
}
