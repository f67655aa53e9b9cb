//! The card search language as plain Rust: parsing a query, resolving it against one game's
//! fields and shortcuts, and running it on an in-memory [`Index`] of that game's cards.
//!
//! No I/O. The one protobuf type here is the catalog's card (`proto::catalog::v1::Card`, with
//! its sets and printings), read as it is, deliberately: the card object is the contract every
//! service shares (its canonical JSON is the documented card JSON), and the index searches the
//! very fields the search reference pages name; a parallel copy of ~90 fields would only drift.
//! Serving the index over gRPC and rebuilding it when the catalog changes belong to the
//! service layer.

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
