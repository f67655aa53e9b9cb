//! The accounts service: accounts, sessions and API tokens, served over gRPC
//! (`turnier.accounts.v1.AccountService`), and the one question every other service asks it:
//! who is this bearer token, and what may it do (`VerifyToken`).
//!
//! It owns its tables (its migrations in `migrations/`) and calls no other service. Passwords
//! are argon2id at the OWASP parameters ([`secrets`]); tokens are 256 random bits behind a
//! prefix that names their kind (`tns_` sessions, `tnp_` API tokens) and are stored only as
//! their SHA-256, so neither a password nor a token is ever in the database or a log line.
//! `domain` holds the rules (pure); `store` keeps the rows; `grpc` serves them.
//!
//! # Who verifies the tokens of this service's own requests
//!
//! Every gRPC server runs its requests through `kit::auth::AuthLayer`, this one included
//! (sign-out, `GetMe` and the API-token methods act for the caller it verifies). The process
//! builds one verifier and hands it to every service it serves:
//!
//! - all-in-one (`turnier serve`): a `kit::clients::AccountsClient` pointed at the process's
//!   own port, like every other service's, so verification takes one code path, gRPC, in
//!   every mode. `VerifyToken` is called without a token of its own, so verifying never
//!   needs verifying.
//! - alone (`turnier serve --only accounts`): [`store_verifier`], the store asked directly.
//!   Asking itself over the network (through the Kubernetes Service, possibly another pod)
//!   would only add a hop to the same query; the answer is the one `VerifyToken` gives, from
//!   [`store::Store::verify_token`].
//!
//! Either way answers are cached for at most `kit::auth::MAX_CACHE_FOR`; sign-out and
//! revocation clear this process's cache at once ([`grpc::Api::with_verifier`]).

pub mod domain;
mod error;
pub mod grpc;
pub mod hash_pool;
pub mod secrets;
mod settings;
pub mod store;
pub mod tokens;
mod verify;

use kit::auth::Verifier;
use kit::server::{Deps, Mount, MountError};
use kit::services::Service;

pub use error::{
    Error, REASON_INVALID_ARGUMENT, REASON_NOT_A_SESSION, REASON_USERNAME_TAKEN,
    REASON_WRONG_CREDENTIALS,
};
pub use settings::Settings;
pub use verify::{StoreVerifier, caller_of};

/// The accounts service, as `turnier serve` mounts it.
#[derive(Debug)]
pub struct Accounts;

impl Mount for Accounts {
    const SERVICE: Service = Service::Accounts;
    type Settings = Settings;

    fn mount(
        routes: &mut tonic::service::RoutesBuilder,
        deps: &Deps,
        settings: &Settings,
    ) -> Result<(), MountError> {
        let store = store::Store::new(deps.database(Self::SERVICE)?.clone());
        let passwords = secrets::Passwords::owasp().on(settings.hash_pool());
        let api = grpc::Api::new(store, passwords, settings.session_ttl())
            .with_verifier(deps.verifier.clone())
            .with_limiter(deps.limiter.clone());
        routes.add_service(grpc::server(api));
        Ok(())
    }

    fn migrator() -> Option<&'static sqlx::migrate::Migrator> {
        Some(&store::MIGRATOR)
    }
}

/// Returns the verifier of a process that serves accounts alone: the store of `db` asked
/// directly, cached as every verifier is.
pub fn store_verifier(db: kit::db::Database) -> Verifier {
    Verifier::new(StoreVerifier::new(store::Store::new(db)))
}
