//! The accounts service's client, and the [`Verify`] every other service's auth layer asks.

use std::time::Duration;

use crate::auth::{
    AccountCaller, AuthError, Bearer, Scope, Scopes, TokenKind, Verify, VerifyFuture,
};
use crate::client::TracedChannel;
use crate::status::ServiceError;
use proto::accounts::v1 as pb;
use proto::accounts::v1::account_service_client::AccountServiceClient;

use crate::clients::call::{CallOptions, client, rpc};

/// Accounts and tokens are small; verification is on every request's path, so its deadline is
/// short (a service that cannot verify answers UNAVAILABLE rather than hang).
pub const DEFAULT_OPTIONS: CallOptions = CallOptions {
    deadline: Duration::from_secs(10),
    max_decoding_bytes: 4 << 20,
};

client!(
    /// A client of `turnier.accounts.v1.AccountService`. Cheap to clone. Calls that act for
    /// the caller's own account (sign-out, `GetMe`, API tokens) take its token from
    /// [`AccountsClient::with_bearer`]. Reads are retried when a retry can help; nothing that
    /// makes or ends a session or token is.
    AccountsClient,
    AccountServiceClient<TracedChannel>,
    DEFAULT_OPTIONS
);

impl AccountsClient {
    /// Creates an account and signs it in.
    pub async fn create_account(
        &self,
        request: pb::CreateAccountRequest,
    ) -> Result<pb::SessionResponse, ServiceError> {
        rpc!(self, Once, request, create_account)
    }

    /// Signs in with a username and a password.
    pub async fn sign_in(
        &self,
        request: pb::SignInRequest,
    ) -> Result<pb::SessionResponse, ServiceError> {
        rpc!(self, Once, request, sign_in)
    }

    /// Ends the session of the client's token.
    pub async fn sign_out(&self) -> Result<pb::SignOutResponse, ServiceError> {
        rpc!(self, Once, pb::SignOutRequest {}, sign_out)
    }

    /// Says who `token` is.
    pub async fn verify_token(&self, token: &str) -> Result<pb::VerifyTokenResponse, ServiceError> {
        let request = pb::VerifyTokenRequest {
            token: token.to_owned(),
        };
        rpc!(self, Idempotent, request, verify_token)
    }

    /// Returns the account of the client's token.
    pub async fn get_me(&self) -> Result<pb::GetMeResponse, ServiceError> {
        rpc!(self, Idempotent, pb::GetMeRequest {}, get_me)
    }

    /// Makes an API token for the account of the client's token.
    pub async fn create_api_token(
        &self,
        request: pb::CreateApiTokenRequest,
    ) -> Result<pb::CreateApiTokenResponse, ServiceError> {
        rpc!(self, Once, request, create_api_token)
    }

    /// Lists the API tokens of the account of the client's token.
    pub async fn list_api_tokens(&self) -> Result<pb::ListApiTokensResponse, ServiceError> {
        rpc!(
            self,
            Idempotent,
            pb::ListApiTokensRequest {},
            list_api_tokens
        )
    }

    /// Revokes one API token of the account of the client's token.
    pub async fn revoke_api_token(
        &self,
        id: &str,
    ) -> Result<pb::RevokeApiTokenResponse, ServiceError> {
        let request = pb::RevokeApiTokenRequest { id: id.to_owned() };
        rpc!(self, Idempotent, request, revoke_api_token)
    }

    /// Returns the public profile of `username`.
    pub async fn get_user(&self, username: &str) -> Result<pb::GetUserResponse, ServiceError> {
        let request = pb::GetUserRequest {
            username: username.to_owned(),
        };
        rpc!(self, Idempotent, request, get_user)
    }
}

/// Returns the caller a `VerifyToken` answer describes, or `None` if it does not describe one
/// (no account, a kind or scope of no known value).
pub fn caller_of(answer: &pb::VerifyTokenResponse) -> Option<AccountCaller> {
    let account = answer.account.as_ref()?;
    let kind = match pb::TokenKind::try_from(answer.kind).ok()? {
        pb::TokenKind::Session => TokenKind::Session,
        pb::TokenKind::Api => TokenKind::Api,
        pb::TokenKind::Unspecified => return None,
    };
    let scopes = answer
        .scopes
        .iter()
        .map(|scope| match pb::Scope::try_from(*scope) {
            Ok(pb::Scope::Read) => Some(Scope::Read),
            Ok(pb::Scope::Write) => Some(Scope::Write),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .collect::<Scopes>();
    let expires = answer
        .expire_time
        .as_ref()
        .and_then(crate::timestamp::from_proto);
    Some(AccountCaller {
        id: account.id.clone(),
        username: account.username.clone(),
        kind,
        scopes,
        expires,
    })
}

/// Returns the wire value of `scope`.
pub fn scope_to_proto(scope: Scope) -> pb::Scope {
    match scope {
        Scope::Read => pb::Scope::Read,
        Scope::Write => pb::Scope::Write,
    }
}

impl Verify for AccountsClient {
    fn verify<'a>(&'a self, bearer: &'a Bearer) -> VerifyFuture<'a> {
        Box::pin(async move {
            match self.verify_token(bearer.secret()).await {
                Ok(answer) => caller_of(&answer).ok_or(AuthError::Invalid),
                Err(err) if err.code == tonic::Code::Unauthenticated => Err(AuthError::Invalid),
                Err(err) => Err(AuthError::Unavailable(err)),
            }
        })
    }
}
