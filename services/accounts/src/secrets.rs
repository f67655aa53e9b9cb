//! The service's secrets: password hashes (argon2id), tokens and ids from a CSPRNG, and the
//! SHA-256 a token is stored as.
//!
//! Hashing runs on Tokio's blocking pool: one hash at the OWASP parameters is 19 MiB of memory
//! and tens of milliseconds of CPU, which must not stall the threads that answer requests.

use std::sync::Arc;

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _};
use argon2::{Algorithm, Argon2, Params, Version};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use kit::auth::{Bearer, TokenKind};
use rand::RngCore as _;
use sha2::{Digest as _, Sha256};
use tokio::sync::OnceCell;

use crate::domain::{Password, TOKEN_BYTES};
use crate::error::Error;

/// The OWASP Password Storage Cheat Sheet's argon2id parameters: 19 MiB (19,456 KiB) of memory,
/// 2 passes, 1 lane.
pub const OWASP_M_COST_KIB: u32 = 19_456;
/// Passes over the memory (OWASP).
pub const OWASP_T_COST: u32 = 2;
/// Lanes (OWASP).
pub const OWASP_P_COST: u32 = 1;

/// The bytes of a password hash's salt (the PHC string format's recommendation).
const SALT_BYTES: usize = 16;

/// The random bytes of an account or token id.
const ID_BYTES: usize = 16;

/// Hashes and verifies passwords with argon2id at one set of parameters. Cheap to clone;
/// clones share the dummy hash.
#[derive(Debug, Clone)]
pub struct Passwords {
    params: Params,
    /// The hash an unknown username's sign-in is verified against, so it costs what a wrong
    /// password costs. Made on first use, at the current parameters.
    dummy: Arc<OnceCell<String>>,
}

/// What verifying a password against a stored hash found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// The password is the one hashed.
    pub matches: bool,
    /// The hash was made with other parameters (or another algorithm or version) than the
    /// current ones: after a match, hash the password again and store that.
    pub outdated: bool,
}

impl Passwords {
    /// Returns the hasher at the OWASP parameters: what the service uses.
    pub fn owasp() -> Self {
        Self::with_costs(OWASP_M_COST_KIB, OWASP_T_COST, OWASP_P_COST)
            .expect("the OWASP parameters are within argon2's bounds")
    }

    /// Returns a hasher at other parameters (memory in KiB, passes, lanes): for tests that
    /// raise or lower them, and for an operator raising them later.
    pub fn with_costs(m_cost: u32, t_cost: u32, p_cost: u32) -> Result<Self, Error> {
        let params = Params::new(m_cost, t_cost, p_cost, None).map_err(Error::hashing)?;
        Ok(Self {
            params,
            dummy: Arc::default(),
        })
    }

    fn argon2(&self) -> Argon2<'static> {
        Argon2::new(Algorithm::Argon2id, Version::V0x13, self.params.clone())
    }

    /// Returns the PHC string of `password` under a fresh random salt (parameters inside).
    pub async fn hash(&self, password: &Password) -> Result<String, Error> {
        let argon2 = self.argon2();
        let password = password.clone();
        let mut salt = [0_u8; SALT_BYTES];
        rand::rng().fill_bytes(&mut salt);
        tokio::task::spawn_blocking(move || {
            argon2
                .hash_password_with_salt(password.expose(), &salt)
                .map(|hash| hash.to_string())
                .map_err(Error::hashing)
        })
        .await
        .map_err(Error::Blocking)?
    }

    /// Verifies `password` against the stored PHC string `stored`, or, when there is none (an
    /// unknown username), against the dummy hash, at the same cost, never matching.
    pub async fn verify(
        &self,
        password: &Password,
        stored: Option<&str>,
    ) -> Result<Verdict, Error> {
        let (hash, known) = match stored {
            Some(hash) => (hash.to_owned(), true),
            None => (self.dummy().await?.to_owned(), false),
        };
        let current = self.params.clone();
        let password = password.clone();
        tokio::task::spawn_blocking(move || {
            let parsed = PasswordHash::new(&hash).map_err(Error::hashing)?;
            let outdated = parsed.algorithm.as_str() != Algorithm::Argon2id.ident().as_str()
                || parsed.version != Some(Version::V0x13.into())
                || Params::try_from(&parsed).map_or(true, |params| !same_costs(&params, &current));
            // The verifier takes the parameters from the hash itself.
            let matches = Argon2::default()
                .verify_password(password.expose(), &parsed)
                .is_ok();
            Ok(Verdict {
                matches: matches && known,
                outdated,
            })
        })
        .await
        .map_err(Error::Blocking)?
    }

    async fn dummy(&self) -> Result<&str, Error> {
        self.dummy
            .get_or_try_init(|| async {
                let mut random = [0_u8; 24];
                rand::rng().fill_bytes(&mut random);
                let password = Password::parse(URL_SAFE_NO_PAD.encode(random))
                    .map_err(|_| Error::hashing("the dummy password is 32 characters"))?;
                self.hash(&password).await
            })
            .await
            .map(String::as_str)
    }
}

fn same_costs(a: &Params, b: &Params) -> bool {
    a.m_cost() == b.m_cost()
        && a.t_cost() == b.t_cost()
        && a.p_cost() == b.p_cost()
        && a.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN)
            == b.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN)
}

/// Makes a new token of `kind`: its prefix and [`TOKEN_BYTES`] bytes from the thread's CSPRNG
/// (ChaCha, seeded by the OS), base64url without padding.
pub fn mint_token(kind: TokenKind) -> Bearer {
    let mut bytes = [0_u8; TOKEN_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    Bearer::new(format!(
        "{}{}",
        kind.prefix(),
        URL_SAFE_NO_PAD.encode(bytes)
    ))
}

/// Returns what a token is stored and looked up as: the SHA-256 of the whole token (prefix
/// included), in lowercase hex.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// Returns a new opaque id: `prefix` and 128 random bits in base64url (`acc_…`, `tok_…`).
pub fn new_id(prefix: &str) -> String {
    let mut bytes = [0_u8; ID_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    format!("{prefix}{}", URL_SAFE_NO_PAD.encode(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_well_formed_distinct_and_hashed_whole() {
        let session = mint_token(TokenKind::Session);
        let api = mint_token(TokenKind::Api);
        assert_eq!(
            crate::tokens::is_well_formed(session.secret()),
            Some(TokenKind::Session)
        );
        assert_eq!(
            crate::tokens::is_well_formed(api.secret()),
            Some(TokenKind::Api)
        );
        assert_ne!(session.secret(), mint_token(TokenKind::Session).secret());
        let hash = token_hash(session.secret());
        assert_eq!(hash.len(), 64);
        let swapped = session.secret().replacen("tns_", "tnp_", 1);
        assert_ne!(token_hash(&swapped), hash);
    }

    #[test]
    fn ids_are_opaque_and_url_safe() {
        let id = new_id("acc_");
        assert!(id.starts_with("acc_") && id.len() == 4 + 22, "{id}");
        assert!(
            id[4..]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        assert_ne!(id, new_id("acc_"));
    }

    #[tokio::test]
    async fn a_hash_verifies_its_password_only_and_knows_its_parameters() {
        let weak = Passwords::with_costs(64, 1, 1).expect("valid costs");
        let password = Password::parse("correct horse battery".to_owned()).expect("valid");
        let hash = weak.hash(&password).await.expect("hashes");
        assert!(hash.starts_with("$argon2id$v=19$m=64,t=1,p=1$"), "{hash}");
        assert!(!hash.contains("correct horse"));
        let verdict = weak.verify(&password, Some(&hash)).await.expect("verifies");
        assert_eq!(
            verdict,
            Verdict {
                matches: true,
                outdated: false
            }
        );
        let other = Password::parse("wrong horse battery".to_owned()).expect("valid");
        assert!(
            !weak
                .verify(&other, Some(&hash))
                .await
                .expect("verifies")
                .matches
        );
        let stronger = Passwords::with_costs(128, 1, 1).expect("valid costs");
        assert!(
            stronger
                .verify(&password, Some(&hash))
                .await
                .expect("verifies")
                .outdated
        );
        // An unknown user never matches, whatever the password.
        assert!(
            !weak
                .verify(&password, None)
                .await
                .expect("verifies")
                .matches
        );
        // Two hashes of one password differ: a salt of their own.
        assert_ne!(weak.hash(&password).await.expect("hashes"), hash);
    }
}
