//! The card search language as plain Rust: parsing a query, resolving it against one game's
//! fields and shortcuts, and running it on an in-memory [`Index`] of that game's cards.
//!
//! No I/O and no protobuf conversions beyond reading the catalog's card messages: serving the
//! index over gRPC and rebuilding it when the catalog changes belong to the service layer.

pub mod compile;
pub mod cost;
pub mod games;
pub mod index;
pub mod matcher;
pub mod order;
pub mod query;
pub mod text;
pub mod typo;

pub use index::{Explanation, Hit, Index, Results, SearchError};
pub use order::SortKey;
pub use query::{Query, QueryError, parse};
