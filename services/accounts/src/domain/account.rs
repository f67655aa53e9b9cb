//! Accounts and API tokens as the service keeps them, and what a verified token says.

use std::fmt;
use std::time::SystemTime;

use super::Username;

/// An account's opaque, stable id (`acc_…`): what resources name as their owner.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AccountId(pub String);

/// An API token's opaque id (`tok_…`): how its owner names it to revoke it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TokenId(pub String);

impl TokenId {
    /// The prefix every API token id starts with.
    pub const PREFIX: &'static str = "tok_";
}

impl fmt::Display for AccountId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for TokenId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Its id.
    pub id: AccountId,
    /// Its username, as typed at sign-up.
    pub username: Username,
    /// When it was made.
    pub create_time: SystemTime,
}
