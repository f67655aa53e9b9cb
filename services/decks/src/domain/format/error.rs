//! The one error a format, or a deck read from JSON, is refused with, naming the field that is
//! wrong.
//!
//! The spec calls it `InvalidDeck` (`spec/formats-and-rules.md`, "Reading a format"): building a
//! format and reading one from JSON both refuse with it and with nothing else.

use std::fmt;

use super::values::ShapeError;

/// Refuses a format, or a taboo list, that breaks a rule of `spec/formats-and-rules.md`.
///
/// `field` is the path of the offending value as written in JSON (`min_size`,
/// `taboo_lists[2].effective_from`, `restricted.storm-call`); it is empty when the document as a
/// whole is refused (too large, too deep, not JSON).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct InvalidDeck {
    subject: Subject,
    field: String,
    problem: Problem,
}

/// What an [`InvalidDeck`] refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// A format, or one of its taboo lists.
    Format,
    /// A deck read from JSON to be checked.
    Deck,
}

/// What is wrong with the field an [`InvalidDeck`] names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// The JSON text is longer than 1 MiB.
    #[error("is larger than 1 MiB ({found} bytes)")]
    TooLarge {
        /// The length of the text, in bytes.
        found: usize,
    },
    /// The JSON text nests arrays and objects more than 15 levels deep.
    #[error("is nested more than 15 levels deep")]
    TooDeep,
    /// The text is not JSON, or an object in it repeats a key.
    #[error("is not readable JSON ({0})")]
    Syntax(String),
    /// A key the format does not know.
    #[error("is not a known key")]
    UnknownKey,
    /// A required key is absent.
    #[error("is missing")]
    MissingKey,
    /// A value of the wrong JSON type.
    #[error("must be {expected}, found {found}")]
    WrongType {
        /// The type the field needs, in words ("an integer").
        expected: &'static str,
        /// The type it holds, in words ("a string").
        found: &'static str,
    },
    /// A number outside the field's range.
    #[error("must be from {min} to {max}, found {found}")]
    OutOfRange {
        /// The smallest value allowed.
        min: u64,
        /// The largest value allowed.
        max: u64,
        /// The value given; signed so a negative number is reported as written.
        found: i128,
    },
    /// A text that is not of the value's shape.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// A day not written as a date `YYYY-MM-DD`.
    #[error("must be a date written YYYY-MM-DD, found `{}`", .0.escape_debug())]
    Day(String),
    /// A card, code or day that a list may hold only once.
    #[error("appears more than once")]
    Repeated,
    /// A list longer than allowed.
    #[error("must hold at most {max} entries, found {found}")]
    TooMany {
        /// The most entries allowed.
        max: usize,
        /// The entries given.
        found: usize,
    },
}

impl InvalidDeck {
    /// Returns the error for `problem` in `field` of a format.
    pub fn new(field: impl Into<String>, problem: impl Into<Problem>) -> Self {
        Self {
            subject: Subject::Format,
            field: field.into(),
            problem: problem.into(),
        }
    }

    /// Returns the error for the document as a whole.
    pub(crate) fn document(problem: Problem) -> Self {
        Self::new(String::new(), problem)
    }

    /// Returns this error with its field placed inside `parent` (`taboo_lists[1]`).
    pub(crate) fn within(mut self, parent: &str) -> Self {
        self.field = if self.field.is_empty() {
            parent.to_owned()
        } else {
            format!("{parent}.{}", self.field)
        };
        self
    }

    /// Returns this error as one about a deck rather than a format.
    pub(crate) fn about_a_deck(mut self) -> Self {
        self.subject = Subject::Deck;
        self
    }

    /// Returns what is refused: a format or a deck.
    pub fn subject(&self) -> Subject {
        self.subject
    }

    /// Returns the path of the offending field, empty for the document as a whole.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// Returns what is wrong with the field.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Returns the stable code a caller reports this error with: `invalid_format` or
    /// `invalid_deck`.
    pub fn code(&self) -> &'static str {
        match self.subject {
            Subject::Format => "invalid_format",
            Subject::Deck => "invalid_deck",
        }
    }

    /// Returns the error as the JSON `turnier format check` prints:
    /// `{"error": {"code": "invalid_format", "message": "…"}}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"error": {"code": self.code(), "message": self.to_string()}})
    }
}

impl fmt::Display for InvalidDeck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let subject = match self.subject {
            Subject::Format => "format",
            Subject::Deck => "deck",
        };
        if self.field.is_empty() {
            write!(f, "invalid {subject}: the document {}", self.problem)
        } else {
            write!(f, "invalid {subject}: `{}` {}", self.field, self.problem)
        }
    }
}

/// Returns the path of item `index` of the list `field` (`banned[3]`).
pub(crate) fn item(field: &str, index: usize) -> String {
    format!("{field}[{index}]")
}

/// Returns the path of `key` in the object `field` (`restricted.storm-call`).
pub(crate) fn entry(field: &str, key: &str) -> String {
    // A key may be any text when it is refused, so it is escaped to keep the message one line.
    format!("{field}.{}", key.escape_debug())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_the_field_and_the_problem_in_lower_case_without_a_period() {
        let err = InvalidDeck::new(
            "min_size",
            Problem::OutOfRange {
                min: 0,
                max: 100_000,
                found: -1,
            },
        );
        assert_eq!(
            err.to_string(),
            "invalid format: `min_size` must be from 0 to 100000, found -1"
        );
    }

    #[test]
    fn a_nested_field_is_named_by_its_whole_path() {
        let err = InvalidDeck::new("effective_from", Problem::MissingKey).within("taboo_lists[2]");
        assert_eq!(err.field(), "taboo_lists[2].effective_from");
        assert_eq!(
            err.to_string(),
            "invalid format: `taboo_lists[2].effective_from` is missing"
        );
    }

    #[test]
    fn an_error_of_the_whole_document_says_so() {
        let err = InvalidDeck::document(Problem::TooDeep);
        assert_eq!(
            err.to_string(),
            "invalid format: the document is nested more than 15 levels deep"
        );
        assert_eq!(err.code(), "invalid_format");
    }

    #[test]
    fn the_cli_prints_the_error_with_its_code_and_message() {
        let err = InvalidDeck::new("code", Problem::MissingKey);
        assert_eq!(
            err.to_json(),
            serde_json::json!({"error": {
                "code": "invalid_format",
                "message": "invalid format: `code` is missing"
            }})
        );
    }

    #[test]
    fn an_error_about_a_deck_says_deck_and_has_its_own_code() {
        let err = InvalidDeck::new("cards[0].count", Problem::MissingKey).about_a_deck();
        assert_eq!(err.code(), "invalid_deck");
        assert_eq!(err.to_string(), "invalid deck: `cards[0].count` is missing");
    }
}
