//! The CSRF token of a page's forms: what it is bound to, and the key it is made with.
//!
//! A form's token is HMAC-SHA256 under the deployment's [`CsrfKey`] of what the browser holds
//! and another site cannot know:
//!
//! - signed in, the session token (its SHA-256, so the key never touches the token itself):
//!   another account's token, or one made for the same browser before it signed in, is
//!   refused;
//! - not signed in (the sign-in and sign-up forms), a random value the gateway puts in the
//!   `turnier_csrf` cookie on the first page. A value chosen by someone else (a cookie
//!   planted by a sibling site, sent with the same value as the form's field) is refused: its
//!   token is an HMAC only the gateway can make.
//!
//! Nothing is stored: any gateway replica that holds the same key checks any form. The key is
//! derived from the deployment's internal key (`TURNIER_INTERNAL_KEY`), which every process
//! of a split deployment shares; the all-in-one process has one gateway and a random key of
//! its own, so its forms go stale when it restarts (a reload fixes them).
//!
//! Checking a token is `super::answer::check_csrf`; refusing requests another site made the
//! browser send, whatever their token, is [`super::origin`].

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// What a form's CSRF token is bound to.
#[derive(Debug, Clone, Copy)]
pub enum Binding<'a> {
    /// A signed-in browser's session token.
    Session(&'a str),
    /// The random value of a browser's `turnier_csrf` cookie, before it signs in.
    Visitor(&'a str),
}

/// The key every form's CSRF token is made with: 32 bytes, never logged.
#[derive(Clone, PartialEq, Eq)]
pub struct CsrfKey([u8; 32]);

impl CsrfKey {
    /// Returns a key of this process's own: what the all-in-one process uses.
    pub fn random() -> Self {
        Self(rand::random())
    }

    /// Returns the key derived from the deployment's internal key, so that every gateway
    /// replica makes and accepts the same tokens.
    pub fn derived_from(internal_key: &str) -> Self {
        Self(mac(internal_key.as_bytes(), &[b"turnier.gg csrf v1"]))
    }

    /// Returns the deployment's key: derived from `internal_key` when there is one, else
    /// random for this process.
    pub fn for_deployment(internal_key: Option<&str>) -> Self {
        internal_key.map_or_else(Self::random, Self::derived_from)
    }

    /// Returns the token of forms bound to `binding`: 64 hex digits.
    pub fn token(&self, binding: Binding<'_>) -> String {
        let digest = match binding {
            Binding::Session(token) => {
                let hashed = Sha256::digest(token.as_bytes());
                mac(&self.0, &[b"session\0", &hashed[..]])
            }
            Binding::Visitor(value) => mac(&self.0, &[b"visitor\0", value.as_bytes()]),
        };
        hex::encode(digest)
    }
}

impl std::fmt::Debug for CsrfKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CsrfKey(…)")
    }
}

/// HMAC-SHA256 of the concatenated `parts` under `key`.
fn mac(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

/// A new value for the `turnier_csrf` cookie: 32 random bytes, hex.
pub fn new_visitor_value() -> String {
    hex::encode(rand::random::<[u8; 32]>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_bound_to_its_session_and_never_equals_what_it_is_bound_to() {
        let key = CsrfKey::random();
        let mine = key.token(Binding::Session("tns_mine"));
        assert_eq!(mine.len(), 64);
        assert_eq!(mine, key.token(Binding::Session("tns_mine")));
        assert_ne!(mine, key.token(Binding::Session("tns_theirs")));
        let cookie = new_visitor_value();
        let visitor = key.token(Binding::Visitor(&cookie));
        assert_ne!(
            visitor, cookie,
            "an attacker who sets the cookie cannot know the token"
        );
        assert_ne!(visitor, key.token(Binding::Session(&cookie)));
    }

    #[test]
    fn replicas_sharing_the_internal_key_make_the_same_tokens_and_others_do_not() {
        let a = CsrfKey::for_deployment(Some("internal key of the deployment"));
        let b = CsrfKey::for_deployment(Some("internal key of the deployment"));
        let c = CsrfKey::for_deployment(Some("another deployment"));
        let binding = Binding::Visitor("v");
        assert_eq!(a.token(binding), b.token(binding));
        assert_ne!(a.token(binding), c.token(binding));
        assert_ne!(
            CsrfKey::for_deployment(None).token(binding),
            CsrfKey::for_deployment(None).token(binding),
            "without an internal key each process has its own"
        );
    }

    #[test]
    fn the_key_never_prints() {
        assert_eq!(format!("{:?}", CsrfKey::random()), "CsrfKey(…)");
    }
}
