//! The accounts service's own answer to "who is this token", for the auth layer of a process
//! that serves accounts alone (`turnier serve --only accounts`): its store, asked directly.

use std::time::SystemTime;

use kit::auth::{AccountCaller, AuthError, Bearer, Verify, VerifyFuture};
use kit::status::ServiceError;
use tonic::Code;

use crate::store::Store;
use crate::tokens::Verified;

/// Verifies tokens against the accounts store, as `VerifyToken` does.
#[derive(Debug, Clone)]
pub struct StoreVerifier {
    store: Store,
}

impl StoreVerifier {
    /// Returns a verifier over `store`.
    pub fn new(store: Store) -> Self {
        Self { store }
    }
}

impl Verify for StoreVerifier {
    fn verify<'a>(&'a self, bearer: &'a Bearer) -> VerifyFuture<'a> {
        Box::pin(async move {
            match self
                .store
                .verify_token(bearer.secret(), SystemTime::now())
                .await
            {
                Ok(Some(verified)) => Ok(caller_of(verified)),
                Ok(None) => Err(AuthError::Invalid),
                Err(err) => {
                    tracing::error!(error = %err, "cannot verify a token");
                    Err(AuthError::Unavailable(ServiceError::local(
                        Code::Unavailable,
                        "accounts_unavailable",
                        "the accounts store did not answer",
                    )))
                }
            }
        })
    }
}

/// Returns the caller a verified token speaks for.
pub fn caller_of(verified: Verified) -> AccountCaller {
    AccountCaller {
        id: verified.account.id.0,
        username: verified.account.username.as_str().to_owned(),
        kind: verified.kind,
        scopes: verified.scopes,
        expires: verified.expire_time,
    }
}
