//! The service's secrets: password hashes (argon2id), tokens and ids from a CSPRNG, and the
//! SHA-256 a token is stored as.
//!
//! Hashing runs on the service's own bounded pool ([`crate::hash_pool`]): one hash at the OWASP
//! parameters is 19 MiB of memory and tens of milliseconds of CPU, which must neither stall the
//! threads that answer requests nor grow with the number of sign-ups at once. Each pool thread
//! lends its own memory to the hash ([`Argon2::hash_password_into_with_memory`]), so the PHC
//! strings are put together here from argon2's own parts rather than by its allocating
//! `PasswordHasher`.

use std::sync::Arc;

use argon2::password_hash::phc::{Output, ParamsString, PasswordHash, Salt};
use argon2::{Algorithm, Argon2, Params, Version};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use kit::auth::{Bearer, TokenKind};
use rand::RngCore as _;
use sha2::{Digest as _, Sha256};
use tokio::sync::OnceCell;

use crate::domain::{Password, TOKEN_BYTES};
use crate::error::Error;
use crate::hash_pool::{HashPool, Memory};

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

/// Hashes and verifies passwords with argon2id at one set of parameters, on one bounded pool.
/// Cheap to clone; clones share the pool and the dummy hash.
#[derive(Debug, Clone)]
pub struct Passwords {
    params: Params,
    pool: HashPool,
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
            pool: HashPool::per_core(),
            dummy: Arc::default(),
        })
    }

    /// Returns this hasher running on `pool` instead of a pool of its own.
    #[must_use]
    pub fn on(mut self, pool: HashPool) -> Self {
        self.pool = pool;
        self
    }

    /// Returns the PHC string of `password` under a fresh random salt (parameters inside).
    pub async fn hash(&self, password: &Password) -> Result<String, Error> {
        let params = self.params.clone();
        let password = password.clone();
        let mut salt = [0_u8; SALT_BYTES];
        rand::rng().fill_bytes(&mut salt);
        self.pool
            .run(move |memory| phc_string(&params, password.expose(), &salt, memory))
            .await?
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
        self.pool
            .run(move |memory| {
                let parsed = PasswordHash::new(&hash).map_err(Error::hashing)?;
                let outdated = parsed.algorithm.as_str() != Algorithm::Argon2id.ident().as_str()
                    || parsed.version != Some(Version::V0x13.into())
                    || Params::try_from(&parsed)
                        .map_or(true, |params| !same_costs(&params, &current));
                let matches = verifies(&parsed, password.expose(), memory)?;
                Ok(Verdict {
                    matches: matches && known,
                    outdated,
                })
            })
            .await?
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

/// Hashes `password` with `salt` at `params` in `memory` and returns the PHC string
/// (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), as argon2's own `PasswordHasher` writes it.
fn phc_string(
    params: &Params,
    password: &[u8],
    salt: &[u8],
    memory: &mut Memory,
) -> Result<String, Error> {
    let argon2 = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let mut buffer = [0_u8; Output::MAX_LENGTH];
    let out = &mut buffer[..params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN)];
    argon2
        .hash_password_into_with_memory(
            password,
            salt,
            &mut *out,
            memory.blocks(params.block_count()),
        )
        .map_err(Error::hashing)?;
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(params).map_err(Error::hashing)?,
        salt: Some(Salt::new(salt).map_err(Error::hashing)?),
        hash: Some(Output::new(out).map_err(Error::hashing)?),
    };
    Ok(hash.to_string())
}

/// Returns whether `password` hashes to `stored` under the algorithm, version, parameters and
/// salt written in it, computed in `memory` and compared in constant time ([`Output`]'s `==`).
fn verifies(stored: &PasswordHash, password: &[u8], memory: &mut Memory) -> Result<bool, Error> {
    let (Some(salt), Some(expected)) = (&stored.salt, &stored.hash) else {
        return Ok(false);
    };
    let algorithm = Algorithm::try_from(stored.algorithm.as_str()).map_err(Error::hashing)?;
    let version = stored
        .version
        .map(Version::try_from)
        .transpose()
        .map_err(Error::hashing)?
        .unwrap_or_default();
    let params = Params::try_from(stored).map_err(Error::hashing)?;
    let blocks = params.block_count();
    let argon2 = Argon2::new(algorithm, version, params);
    let mut buffer = [0_u8; Output::MAX_LENGTH];
    let out = buffer
        .get_mut(..expected.len())
        .ok_or_else(|| Error::hashing("a stored hash longer than argon2 makes"))?;
    argon2
        .hash_password_into_with_memory(password, salt.as_ref(), &mut *out, memory.blocks(blocks))
        .map_err(Error::hashing)?;
    Ok(Output::new(out).map_err(Error::hashing)? == *expected)
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

    #[tokio::test]
    async fn hashes_read_and_written_exactly_as_argon2s_own_hasher_does() {
        use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _};
        let passwords = Passwords::with_costs(256, 2, 1).expect("valid costs");
        let password = Password::parse("correct horse battery".to_owned()).expect("valid");
        let argon2 = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(256, 2, 1, None).expect("valid"),
        );
        // A hash stored before the pool (argon2's own) verifies with the pool's memory …
        let theirs = argon2
            .hash_password_with_salt(password.expose(), &[7; SALT_BYTES])
            .expect("hashes")
            .to_string();
        let verdict = passwords
            .verify(&password, Some(&theirs))
            .await
            .expect("verifies");
        assert!(verdict.matches && !verdict.outdated, "{verdict:?}");
        // … the same salt gives the same string from both …
        let mut memory = Memory::default();
        let ours = phc_string(
            &passwords.params,
            password.expose(),
            &[7; SALT_BYTES],
            &mut memory,
        )
        .expect("hashes");
        assert_eq!(ours, theirs);
        // … and argon2 verifies ours.
        let parsed = PasswordHash::new(&passwords.hash(&password).await.expect("hashes"))
            .expect("a PHC string");
        assert!(argon2.verify_password(password.expose(), &parsed).is_ok());
        // Argon2i and other versions still verify (and are outdated).
        let argon2i = Argon2::new(
            Algorithm::Argon2i,
            Version::V0x10,
            Params::new(64, 1, 1, None).expect("valid"),
        )
        .hash_password_with_salt(password.expose(), &[9; SALT_BYTES])
        .expect("hashes")
        .to_string();
        let verdict = passwords
            .verify(&password, Some(&argon2i))
            .await
            .expect("verifies");
        assert!(verdict.matches && verdict.outdated, "{verdict:?}");
    }
}
