//! The tonic implementation of `turnier.accounts.v1.AccountService`: converts requests, calls
//! the domain, the hasher and the store, converts back. Errors become `Status` once, in
//! `crate::error`.
//!
//! The methods that act for the caller (sign-out, `GetMe`, API tokens) take it from the
//! request's [`Caller`], which the auth layer of the server verified before the handler ran.
//! Nothing here logs a request: several carry a password or a token.

use std::net::IpAddr;
use std::time::{Duration, SystemTime};

use kit::access::Denied;
use kit::auth::{AccountCaller, Bearer, Caller, Scope, Scopes, TokenKind, Verifier};
use kit::clients::accounts::scope_to_proto;
use kit::limits::Limiter;
use kit::timestamp::{from_millis, from_proto, to_millis, to_proto};
use proto::accounts::v1 as pb;
use proto::accounts::v1::account_service_server::{AccountService, AccountServiceServer};
use tonic::{Request, Response, Status};

use crate::domain::{
    Account, AccountId, Invalid, Password, TokenId, TokenName, Username, expire_time,
    session_expiry,
};
use crate::error::Error;
use crate::secrets::{Passwords, mint_token};
use crate::store::Store;
use crate::tokens::{ApiToken, require_scopes};

/// The `AccountService` implementation, and the operations the command line shares with it.
#[derive(Debug, Clone)]
pub struct Api {
    store: Store,
    passwords: Passwords,
    session_ttl: Duration,
    /// The process's verifier, if it has one: told to forget what it cached when a session
    /// ends or a token is revoked, so the token stops working in this process at once (other
    /// processes cache it for at most `kit::auth::MAX_CACHE_FOR`).
    verifier: Option<Verifier>,
    /// The limits on sign-ins and sign-ups both edges share (`kit::limits`); none: unlimited.
    limiter: Option<Limiter>,
}

impl Api {
    /// Creates the service over a store, hashing with `passwords`, sessions lasting
    /// `session_ttl`.
    pub fn new(store: Store, passwords: Passwords, session_ttl: Duration) -> Self {
        Self {
            store,
            passwords,
            session_ttl,
            verifier: None,
            limiter: None,
        }
    }

    /// Returns the service counting sign-ins and sign-ups with `limiter`: failed ones per
    /// username and per client address, accounts made per address. Over HTTP (the gateway
    /// names the client) and over gRPC alike, since both come here.
    #[must_use]
    pub fn with_limiter(mut self, limiter: Option<Limiter>) -> Self {
        self.limiter = limiter;
        self
    }

    /// Runs a sign-in or sign-up `attempt` for `username` from `address` under the limits:
    /// refused at once while either has failed too often, a failure (not an outage of ours)
    /// counted against both.
    async fn guarded<T>(
        &self,
        username: &str,
        address: Option<IpAddr>,
        what: &'static str,
        attempt: impl Future<Output = Result<T, Error>>,
    ) -> Result<T, Error> {
        let Some(limiter) = &self.limiter else {
            return attempt.await;
        };
        limiter.check_sign_in(username, address, what).await?;
        let result = attempt.await;
        if let Err(err) = &result
            && err.is_callers_fault()
        {
            limiter.sign_in_failed(username, address).await;
        }
        result
    }

    /// Returns the service telling `verifier` when a token stops working.
    #[must_use]
    pub fn with_verifier(mut self, verifier: Option<Verifier>) -> Self {
        self.verifier = verifier;
        self
    }

    /// Makes an account (no session): the username and password checked against their rules,
    /// the password hashed.
    #[tracing::instrument(skip_all)]
    pub async fn register(&self, username: &str, password: String) -> Result<Account, Error> {
        let username = Username::parse(username)?;
        let password = Password::parse(password)?;
        let hash = self.passwords.hash(&password).await?;
        let account = self
            .store
            .create_account(&username, &hash, SystemTime::now())
            .await?;
        tracing::info!(account_id = %account.id, "account created");
        Ok(account)
    }

    /// Makes an API token for `account`, returning its secret (never stored) and the token as
    /// its owner sees it.
    #[tracing::instrument(skip_all, fields(account_id = %account))]
    pub async fn issue_api_token(
        &self,
        account: &AccountId,
        name: &str,
        scopes: Scopes,
        expires: Option<SystemTime>,
    ) -> Result<(Bearer, ApiToken), Error> {
        let now = SystemTime::now();
        let name = TokenName::parse(name)?;
        let scopes = require_scopes(scopes)?;
        let expires = expire_time(expires, now)?;
        let token = mint_token(TokenKind::Api);
        let api_token = self
            .store
            .create_api_token(account, &token, &name, scopes, now, expires)
            .await?;
        tracing::info!(token_id = %api_token.id, "API token created");
        Ok((token, api_token))
    }

    async fn start_session(&self, account: Account) -> Result<pb::SessionResponse, Error> {
        let now = SystemTime::now();
        // To the millisecond, as stored: the expiry given is the one `VerifyToken` tells.
        let expires = from_millis(to_millis(session_expiry(now, self.session_ttl)));
        let token = mint_token(TokenKind::Session);
        self.store
            .create_session(&account.id, &token, now, expires)
            .await?;
        Ok(pb::SessionResponse {
            account: Some(account_to_proto(&account)),
            token: token.secret().to_owned(),
            expire_time: Some(to_proto(expires)),
        })
    }

    async fn create_account(
        &self,
        req: pb::CreateAccountRequest,
        address: Option<IpAddr>,
    ) -> Result<pb::SessionResponse, Error> {
        if let Some(limiter) = &self.limiter {
            limiter.check_sign_up(address).await?;
        }
        let registered = self.register(&req.username, req.password);
        let account = self
            .guarded(
                &req.username,
                address,
                "too many failed sign-ups",
                registered,
            )
            .await?;
        if let Some(limiter) = &self.limiter {
            limiter.signed_up(address).await;
        }
        self.start_session(account).await
    }

    #[tracing::instrument(skip_all)]
    async fn sign_in(
        &self,
        req: pb::SignInRequest,
        address: Option<IpAddr>,
    ) -> Result<pb::SessionResponse, Error> {
        let username = req.username.clone();
        self.guarded(
            &username,
            address,
            "too many failed sign-ins",
            self.check_password(req),
        )
        .await
    }

    /// Signs in with a username and password, without the limits.
    async fn check_password(&self, req: pb::SignInRequest) -> Result<pb::SessionResponse, Error> {
        let password = Password::parse_for_sign_in(req.password)?;
        // A name that is not a valid username (too long, a NUL, a space) cannot be one: not
        // looked up, but the password is still verified (against the dummy hash), so the
        // answer is the same and takes as long.
        let credentials = if Username::parse(&req.username).is_ok() {
            self.store.credentials(&req.username).await?
        } else {
            None
        };
        let stored = credentials.as_ref().map(|c| c.password_hash.as_str());
        let verdict = self.passwords.verify(&password, stored).await?;
        let Some(credentials) = credentials.filter(|_| verdict.matches) else {
            return Err(Error::WrongCredentials);
        };
        if verdict.outdated {
            // The parameters were raised since this hash was made: store one at today's. A
            // failure here is logged and the sign-in goes on (the old hash still works).
            let account = &credentials.account.id;
            match self.passwords.hash(&password).await {
                Ok(hash) => self.store.set_password_hash(account, &hash).await?,
                Err(err) => tracing::warn!(error = %err, account_id = %account, "cannot rehash"),
            }
        }
        self.start_session(credentials.account).await
    }

    #[tracing::instrument(skip_all)]
    async fn sign_out(
        &self,
        caller: Caller,
        bearer: Option<Bearer>,
    ) -> Result<pb::SignOutResponse, Error> {
        let account = require_account(&caller)?;
        let bearer = bearer.ok_or(Error::Anonymous)?;
        if account.kind != TokenKind::Session || bearer.kind() != Some(TokenKind::Session) {
            return Err(Error::NotASession);
        }
        self.store.end_session(&bearer).await?;
        self.forget_cached_tokens();
        Ok(pb::SignOutResponse {})
    }

    #[tracing::instrument(skip_all)]
    async fn verify_token(
        &self,
        req: pb::VerifyTokenRequest,
    ) -> Result<pb::VerifyTokenResponse, Error> {
        let verified = self
            .store
            .verify_token(&req.token, SystemTime::now())
            .await?
            .ok_or(Error::InvalidToken(kit::auth::AuthError::Invalid))?;
        Ok(pb::VerifyTokenResponse {
            account: Some(account_to_proto(&verified.account)),
            kind: match verified.kind {
                TokenKind::Session => pb::TokenKind::Session,
                TokenKind::Api => pb::TokenKind::Api,
            }
            .into(),
            scopes: scopes_to_proto(verified.scopes),
            expire_time: verified.expire_time.map(to_proto),
        })
    }

    #[tracing::instrument(skip_all)]
    async fn get_me(&self, caller: Caller) -> Result<pb::GetMeResponse, Error> {
        let account = require_account(&caller)?;
        let account = self
            .store
            .account(&AccountId(account.id.clone()))
            .await?
            // Verified a moment ago, gone since: as if the token were unknown.
            .ok_or(Error::InvalidToken(kit::auth::AuthError::Invalid))?;
        Ok(pb::GetMeResponse {
            account: Some(account_to_proto(&account)),
        })
    }

    #[tracing::instrument(skip_all)]
    async fn create_api_token(
        &self,
        caller: Caller,
        req: pb::CreateApiTokenRequest,
    ) -> Result<pb::CreateApiTokenResponse, Error> {
        // Only a session mints API tokens: a token's child could otherwise outrank and outlive it.
        let owner = AccountId(manager(&caller)?.id.clone());
        let scopes = scopes_from_proto(&req.scopes)?;
        let expires = req
            .expire_time
            .as_ref()
            .map(|time| {
                from_proto(time).ok_or(Invalid {
                    field: "expire_time",
                    rule: "a valid timestamp",
                })
            })
            .transpose()?;
        let (token, api_token) = self
            .issue_api_token(&owner, &req.name, scopes, expires)
            .await?;
        Ok(pb::CreateApiTokenResponse {
            token: token.secret().to_owned(),
            api_token: Some(api_token_to_proto(&api_token)),
        })
    }

    #[tracing::instrument(skip_all)]
    async fn list_api_tokens(&self, caller: Caller) -> Result<pb::ListApiTokensResponse, Error> {
        let account = manager(&caller)?;
        let tokens = self
            .store
            .api_tokens(&AccountId(account.id.clone()))
            .await?;
        Ok(pb::ListApiTokensResponse {
            api_tokens: tokens.iter().map(api_token_to_proto).collect(),
        })
    }

    #[tracing::instrument(skip_all)]
    async fn revoke_api_token(
        &self,
        caller: Caller,
        req: pb::RevokeApiTokenRequest,
    ) -> Result<pb::RevokeApiTokenResponse, Error> {
        let owner = AccountId(manager(&caller)?.id.clone());
        let id = TokenId(req.id);
        // An id that is not of the shape tokens get cannot name one: not looked up.
        if !kit::text::is_possible_id(&id.0, TokenId::PREFIX)
            || !self.store.revoke_api_token(&owner, &id).await?
        {
            return Err(Error::TokenNotFound(id.0));
        }
        self.forget_cached_tokens();
        tracing::info!(account_id = %owner, token_id = %id, "API token revoked");
        Ok(pb::RevokeApiTokenResponse {})
    }

    #[tracing::instrument(skip_all)]
    async fn get_user(&self, req: pb::GetUserRequest) -> Result<pb::GetUserResponse, Error> {
        // A name that is not a valid username cannot be anyone's: not looked up.
        let account = if Username::parse(&req.username).is_ok() {
            self.store.account_by_username(&req.username).await?
        } else {
            None
        };
        let account = account.ok_or(Error::UserNotFound(req.username))?;
        Ok(pb::GetUserResponse {
            user: Some(pb::User {
                username: account.username.as_str().to_owned(),
                create_time: Some(to_proto(account.create_time)),
                account: account.id.0.clone(),
            }),
        })
    }

    fn forget_cached_tokens(&self) {
        if let Some(verifier) = &self.verifier {
            verifier.forget_all();
        }
    }
}

/// Returns the account whose API tokens `caller` may manage: a session's only
/// (`kit::access::credential_manager`).
fn manager(caller: &Caller) -> Result<&AccountCaller, Error> {
    kit::access::credential_manager(caller).map_err(|denied| match denied {
        Denied::Unauthenticated => Error::Anonymous,
        Denied::PermissionDenied | Denied::NotFound => Error::NeedsSession,
    })
}

fn require_account(caller: &Caller) -> Result<&AccountCaller, Error> {
    caller.account().ok_or(Error::Anonymous)
}

/// Returns the scopes of a request; a value that is neither read nor write is refused.
fn scopes_from_proto(values: &[i32]) -> Result<Scopes, Invalid> {
    values
        .iter()
        .map(|value| match pb::Scope::try_from(*value) {
            Ok(pb::Scope::Read) => Ok(Scope::Read),
            Ok(pb::Scope::Write) => Ok(Scope::Write),
            Ok(pb::Scope::Unspecified) | Err(_) => Err(Invalid {
                field: "scopes",
                rule: "at least one of read, write, and nothing else",
            }),
        })
        .collect()
}

fn scopes_to_proto(scopes: Scopes) -> Vec<i32> {
    scopes
        .iter()
        .map(|scope| scope_to_proto(scope).into())
        .collect()
}

/// Returns an account as the wire carries it.
pub fn account_to_proto(account: &Account) -> pb::Account {
    pb::Account {
        id: account.id.0.clone(),
        username: account.username.as_str().to_owned(),
        create_time: Some(to_proto(account.create_time)),
    }
}

/// Returns an API token as the wire carries it: never its secret.
pub fn api_token_to_proto(token: &ApiToken) -> pb::ApiToken {
    pb::ApiToken {
        id: token.id.0.clone(),
        name: token.name.as_str().to_owned(),
        scopes: scopes_to_proto(token.scopes),
        create_time: Some(to_proto(token.create_time)),
        expire_time: token.expire_time.map(to_proto),
        last_use_time: token.last_use_time.map(to_proto),
    }
}

#[tonic::async_trait]
impl AccountService for Api {
    async fn create_account(
        &self,
        request: Request<pb::CreateAccountRequest>,
    ) -> Result<Response<pb::SessionResponse>, Status> {
        let address = kit::caller::address(&request);
        Ok(Response::new(
            self.create_account(request.into_inner(), address).await?,
        ))
    }

    async fn sign_in(
        &self,
        request: Request<pb::SignInRequest>,
    ) -> Result<Response<pb::SessionResponse>, Status> {
        let address = kit::caller::address(&request);
        Ok(Response::new(
            self.sign_in(request.into_inner(), address).await?,
        ))
    }

    async fn sign_out(
        &self,
        request: Request<pb::SignOutRequest>,
    ) -> Result<Response<pb::SignOutResponse>, Status> {
        let caller = Caller::of(&request);
        let bearer = Bearer::from_metadata(request.metadata()).map_err(Error::InvalidToken)?;
        Ok(Response::new(self.sign_out(caller, bearer).await?))
    }

    async fn verify_token(
        &self,
        request: Request<pb::VerifyTokenRequest>,
    ) -> Result<Response<pb::VerifyTokenResponse>, Status> {
        Ok(Response::new(
            self.verify_token(request.into_inner()).await?,
        ))
    }

    async fn get_me(
        &self,
        request: Request<pb::GetMeRequest>,
    ) -> Result<Response<pb::GetMeResponse>, Status> {
        Ok(Response::new(self.get_me(Caller::of(&request)).await?))
    }

    async fn create_api_token(
        &self,
        request: Request<pb::CreateApiTokenRequest>,
    ) -> Result<Response<pb::CreateApiTokenResponse>, Status> {
        let caller = Caller::of(&request);
        Ok(Response::new(
            self.create_api_token(caller, request.into_inner()).await?,
        ))
    }

    async fn list_api_tokens(
        &self,
        request: Request<pb::ListApiTokensRequest>,
    ) -> Result<Response<pb::ListApiTokensResponse>, Status> {
        Ok(Response::new(
            self.list_api_tokens(Caller::of(&request)).await?,
        ))
    }

    async fn revoke_api_token(
        &self,
        request: Request<pb::RevokeApiTokenRequest>,
    ) -> Result<Response<pb::RevokeApiTokenResponse>, Status> {
        let caller = Caller::of(&request);
        Ok(Response::new(
            self.revoke_api_token(caller, request.into_inner()).await?,
        ))
    }

    async fn get_user(
        &self,
        request: Request<pb::GetUserRequest>,
    ) -> Result<Response<pb::GetUserResponse>, Status> {
        Ok(Response::new(self.get_user(request.into_inner()).await?))
    }
}

/// Returns the tonic server of the service.
pub fn server(api: Api) -> AccountServiceServer<Api> {
    AccountServiceServer::new(api)
}
