//! Why a query could not be parsed.

/// A query the parser refuses, with the character offset (from 0) where the problem is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    /// The query is longer than [`super::MAX_QUERY_CHARS`].
    #[error("query is {chars} characters long; the limit is {limit}")]
    TooLong {
        /// Characters in the query.
        chars: usize,
        /// The limit.
        limit: usize,
    },
    /// A `(` is never closed.
    #[error("unclosed parenthesis at position {position}")]
    UnclosedParenthesis {
        /// Where the `(` is.
        position: usize,
    },
    /// A `)` closes nothing.
    #[error("unmatched closing parenthesis at position {position}")]
    UnmatchedParenthesis {
        /// Where the `)` is.
        position: usize,
    },
    /// `()` holds no term.
    #[error("empty parentheses at position {position}")]
    EmptyGroup {
        /// Where the `(` is.
        position: usize,
    },
    /// A `"` is never closed.
    #[error("unclosed quote at position {position}")]
    UnclosedQuote {
        /// Where the opening `"` is.
        position: usize,
    },
    /// A `/pattern/` is never closed.
    #[error("unclosed regular expression at position {position}")]
    UnclosedRegex {
        /// Where the opening `/` is.
        position: usize,
    },
    /// A regular expression does not compile or is too large.
    #[error("invalid regular expression at position {position}: {reason}")]
    BadRegex {
        /// Where the opening `/` is.
        position: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// `field:` with nothing after it.
    #[error("empty value for `{field}` at position {position}")]
    EmptyValue {
        /// The field as typed.
        field: String,
        /// Where the term starts.
        position: usize,
    },
    /// `-` with no term after it.
    #[error("`-` at position {position} is not followed by a term")]
    DanglingNegation {
        /// Where the `-` is.
        position: usize,
    },
    /// `or` without a term on both sides.
    #[error("`or` at position {position} needs a term on each side")]
    DanglingOr {
        /// Where the `or` is.
        position: usize,
    },
    /// Parentheses and negations nested deeper than the parser allows.
    #[error("query nests too deeply at position {position}")]
    TooDeep {
        /// Where the limit was passed.
        position: usize,
    },
}

impl QueryError {
    /// Returns the character offset the error points at (0 for a query that is too long).
    pub fn position(&self) -> usize {
        match self {
            QueryError::TooLong { .. } => 0,
            QueryError::UnclosedParenthesis { position }
            | QueryError::UnmatchedParenthesis { position }
            | QueryError::EmptyGroup { position }
            | QueryError::UnclosedQuote { position }
            | QueryError::UnclosedRegex { position }
            | QueryError::BadRegex { position, .. }
            | QueryError::EmptyValue { position, .. }
            | QueryError::DanglingNegation { position }
            | QueryError::DanglingOr { position }
            | QueryError::TooDeep { position } => *position,
        }
    }
}
