//! The query language's syntax: the parsed tree ([`Query`]), its parser and its errors.
//!
//! This module knows nothing about games: `t:unit` parses to a term on the field `t` whether
//! or not the game has one. Fields, shortcuts and matching are [`super::compile`]'s business.

mod error;
mod parse;

use std::fmt;

use serde::Serialize;

pub use error::QueryError;
pub use parse::{MAX_QUERY_CHARS, MAX_REGEX_CHARS, parse, regex_for};

/// A parsed query. `root` is `None` for an empty query, which matches every card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Query {
    /// The tree of terms.
    pub root: Option<Node>,
}

/// One node of the parsed tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "node", rename_all = "camelCase")]
pub enum Node {
    /// Every child must match (`a b`).
    And {
        /// Two or more children.
        terms: Vec<Node>,
    },
    /// At least one child must match (`a or b`).
    Or {
        /// Two or more children.
        terms: Vec<Node>,
    },
    /// The child must not match (`-a`, `not:x`).
    Not {
        /// The negated node.
        term: Box<Node>,
    },
    /// A single term.
    Term(Term),
}

/// One term: a plain word (`field` is `None`) or `field op value`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Term {
    /// The field as typed, lower-cased (`t`, `cost`, `is`); `None` for a plain word.
    pub field: Option<String>,
    /// The comparison.
    pub op: Op,
    /// The value, without quotes, `!` or slashes.
    pub value: String,
    /// How the value was written.
    pub form: Form,
    /// Character offset of the term in the query.
    pub position: usize,
}

/// The comparison of a term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Op {
    /// `:` — contains for text and values, equal for numbers.
    #[serde(rename = ":")]
    Has,
    /// `=`
    #[serde(rename = "=")]
    Eq,
    /// `!=`
    #[serde(rename = "!=")]
    Ne,
    /// `<`
    #[serde(rename = "<")]
    Lt,
    /// `<=`
    #[serde(rename = "<=")]
    Le,
    /// `>`
    #[serde(rename = ">")]
    Gt,
    /// `>=`
    #[serde(rename = ">=")]
    Ge,
}

impl Op {
    /// Returns the operator as typed.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Has => ":",
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }

    /// Compares two ordered things with this operator (`Has` is equality).
    pub fn compare<T: PartialOrd>(self, left: T, right: T) -> bool {
        match self {
            Op::Has | Op::Eq => left == right,
            Op::Ne => left != right,
            Op::Lt => left < right,
            Op::Le => left <= right,
            Op::Gt => left > right,
            Op::Ge => left >= right,
        }
    }
}

/// How a term's value was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Form {
    /// Unquoted: names are typo-tolerant.
    Bare,
    /// `"in quotes"`: no typos, may hold spaces.
    Quoted,
    /// `field:!value`: the whole value must be equal.
    Exact,
    /// `field:/pattern/`: a case-insensitive regular expression.
    Regex,
}

impl Query {
    /// Returns the same tree with every position set to 0, to compare trees of queries that
    /// are spelled differently.
    pub fn without_positions(&self) -> Query {
        fn strip(node: &Node) -> Node {
            match node {
                Node::And { terms } => Node::And {
                    terms: terms.iter().map(strip).collect(),
                },
                Node::Or { terms } => Node::Or {
                    terms: terms.iter().map(strip).collect(),
                },
                Node::Not { term } => Node::Not {
                    term: Box::new(strip(term)),
                },
                Node::Term(term) => Node::Term(Term {
                    position: 0,
                    ..term.clone()
                }),
            }
        }
        Query {
            root: self.root.as_ref().map(strip),
        }
    }
}

impl fmt::Display for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.root {
            Some(node) => fmt::Display::fmt(node, f),
            None => Ok(()),
        }
    }
}

impl Node {
    fn fmt_child(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::And { .. } | Node::Or { .. } => write!(f, "({self})"),
            _ => fmt::Display::fmt(self, f),
        }
    }
}

impl fmt::Display for Node {
    /// Prints the node back as a query that parses to the same tree.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::And { terms } | Node::Or { terms } => {
                let separator = if matches!(self, Node::And { .. }) {
                    " "
                } else {
                    " or "
                };
                for (i, term) in terms.iter().enumerate() {
                    if i > 0 {
                        f.write_str(separator)?;
                    }
                    term.fmt_child(f)?;
                }
                Ok(())
            }
            Node::Not { term } => {
                f.write_str("-")?;
                term.fmt_child(f)
            }
            Node::Term(term) => fmt::Display::fmt(term, f),
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(field) = &self.field {
            write!(f, "{field}{}", self.op.as_str())?;
        }
        match self.form {
            Form::Bare => f.write_str(&self.value),
            Form::Quoted => write_quoted(f, &self.value),
            Form::Exact => {
                f.write_str("!")?;
                write_quoted(f, &self.value)
            }
            Form::Regex => write!(f, "/{}/", self.value),
        }
    }
}

fn write_quoted(f: &mut fmt::Formatter<'_>, value: &str) -> fmt::Result {
    f.write_str("\"")?;
    for ch in value.chars() {
        if ch == '"' || ch == '\\' {
            f.write_str("\\")?;
        }
        write!(f, "{ch}")?;
    }
    f.write_str("\"")
}
