//! Tokens in the platform's auth vocabulary (`kit::auth`: their kinds and scopes, which every
//! service's auth layer shares): what a token of this service looks like, which scopes an API
//! token must carry, and the API tokens and verified tokens themselves.
//!
//! A token is its kind's prefix (`tns_`, `tnp_`) and [`TOKEN_BYTES`] random bytes in base64url
//! without padding. Only its SHA-256 is stored ([`crate::secrets`]). Pure, like `domain`, but
//! outside it: the domain speaks no plumbing crate's types.

use std::time::SystemTime;

use kit::auth::{Scopes, TokenKind};

use crate::domain::{Account, Invalid, TOKEN_BYTES, TokenId, TokenName};

/// The base64url characters of [`TOKEN_BYTES`] bytes without padding.
const TOKEN_TEXT_CHARS: usize = (TOKEN_BYTES * 4).div_ceil(3);

/// Returns the kind of `token` if it has the shape of one this service makes (its prefix,
/// then exactly the base64url text of [`TOKEN_BYTES`] bytes); anything else is not worth a
/// lookup.
pub fn is_well_formed(token: &str) -> Option<TokenKind> {
    let kind = TokenKind::of(token)?;
    let rest = &token[kind.prefix().len()..];
    let base64url = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
    (rest.len() == TOKEN_TEXT_CHARS && rest.bytes().all(base64url)).then_some(kind)
}

/// Returns `scopes` if there is at least one.
pub fn require_scopes(scopes: Scopes) -> Result<Scopes, Invalid> {
    if scopes.is_empty() {
        return Err(Invalid {
            field: "scopes",
            rule: "at least one of read, write",
        });
    }
    Ok(scopes)
}

/// An API token as its owner sees it: never its secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiToken {
    /// Its id.
    pub id: TokenId,
    /// The name its owner gave it.
    pub name: TokenName,
    /// What it may do; never empty.
    pub scopes: Scopes,
    /// When it was made.
    pub create_time: SystemTime,
    /// When it stops working by itself; `None`: never.
    pub expire_time: Option<SystemTime>,
    /// When it was last verified (to the minute); `None`: never.
    pub last_use_time: Option<SystemTime>,
}

/// What a valid token says: whose it is, and what it may do until when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The account it speaks for.
    pub account: Account,
    /// Its kind.
    pub kind: TokenKind,
    /// What it may do: every scope for a session.
    pub scopes: Scopes,
    /// When it stops working by itself, if it does.
    pub expire_time: Option<SystemTime>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_tokens_have_their_prefix_and_43_base64url_characters() {
        let body = "A".repeat(43);
        assert_eq!(
            is_well_formed(&format!("tns_{body}")),
            Some(TokenKind::Session)
        );
        assert_eq!(is_well_formed(&format!("tnp_{body}")), Some(TokenKind::Api));
        for bad in [
            String::new(),
            "tns_".to_owned(),
            format!("tnx_{body}"),
            format!("tns_{}", "A".repeat(42)),
            format!("tns_{}", "A".repeat(44)),
            format!("tns_{}=", "A".repeat(42)),
            format!("tns_{}+", "A".repeat(42)),
            format!("tns_{}é", "A".repeat(41)),
        ] {
            assert_eq!(is_well_formed(&bad), None, "{bad:?}");
        }
    }

    #[test]
    fn an_api_token_needs_a_scope() {
        assert_eq!(
            require_scopes(Scopes::NONE).expect_err("none").field,
            "scopes"
        );
        assert_eq!(require_scopes(Scopes::ALL), Ok(Scopes::ALL));
    }
}
