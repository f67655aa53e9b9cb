//! The rules of accounts and tokens as plain Rust: what a username, a password, a token name,
//! a set of scopes and an expiry may be, what a token looks like, and the accounts and tokens
//! themselves. No I/O, no clock (times come in as arguments), no randomness, no protobuf.
//!
//! Hashing passwords and minting tokens need a CSPRNG and CPU time: they live in
//! [`crate::secrets`]. What is said in `kit::auth`'s words (token kinds, scopes) is in
//! [`crate::tokens`].

mod account;
mod password;
mod token;
mod username;

pub use account::{Account, AccountId, TokenId};
pub use password::Password;
pub use token::{TOKEN_BYTES, TokenName, expire_time, session_expiry};
pub use username::{Username, key_of as username_key};

/// A request field that breaks a rule: the field's name as the request spells it, and the
/// rule in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid {field}: {rule}")]
pub struct Invalid {
    /// The field (`username`, `password`, `name`, `scopes`, `expire_time`).
    pub field: &'static str,
    /// The rule it breaks, in words.
    pub rule: &'static str,
}
