//! Who calls the API: the `Authorization` header read and verified once per request
//! ([`authenticate`]), which also counts the request against the general rate limit
//! ([`crate::limits`]).
//!
//! Every `/api/v1` route runs behind [`authenticate`]: no header is an anonymous caller; a
//! header that is not `Bearer <token>`, or a token that is unknown, expired or revoked, is
//! answered 401 `unauthenticated` before any handler runs, whatever the route. The handler gets
//! the verified [`Authenticated`] caller and forwards the same token to the services it calls
//! ([`Authenticated::bearer`]), which verify it again through `kit::auth` (cached there too):
//! the gateway decides nothing a service would not.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use http::request::Parts;
use kit::auth::{AccountCaller, AuthError, Bearer, Caller};
use kit::caller::CallerKey;
use serde_json::json;

use crate::ApiError;
use crate::state::AppState;

/// The caller of a request, as [`authenticate`] verified it.
#[derive(Debug, Clone, Default)]
pub struct Authenticated {
    /// Anonymous, or the account the token speaks for.
    pub caller: Caller,
    /// The token as sent, to forward to the services.
    pub bearer: Option<Bearer>,
    /// The client's address, when the request came over a connection.
    pub address: Option<IpAddr>,
}

impl<S: Send + Sync> FromRequestParts<S> for Authenticated {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        // Set by `authenticate` on every API route; a route outside it is anonymous.
        Ok(parts
            .extensions
            .get::<Authenticated>()
            .cloned()
            .unwrap_or_else(|| Authenticated {
                address: peer(parts),
                ..Authenticated::default()
            }))
    }
}

fn peer(parts: &Parts) -> Option<IpAddr> {
    parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip())
}

/// The 401 of a request whose `Authorization` could not be verified.
pub fn unauthenticated(err: &AuthError) -> ApiError {
    let reason = match err {
        AuthError::Malformed(_) => kit::auth::REASON_MALFORMED,
        _ => kit::auth::REASON_INVALID_TOKEN,
    };
    ApiError::new(StatusCode::UNAUTHORIZED, "unauthenticated", err.to_string())
        .with_details(json!({ "reason": reason }))
}

/// The services' clients for one request: every call made for its client address and with its
/// token (`Authorization` forwarded as gRPC metadata), so a service sees the same caller the
/// gateway verified. What every handler calls the services through.
#[derive(Debug, Clone)]
pub struct Calls(pub crate::upstream::Clients);

impl std::ops::Deref for Calls {
    type Target = crate::upstream::Clients;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl FromRequestParts<AppState> for Calls {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let Ok(caller) = Authenticated::from_request_parts(parts, state).await;
        Ok(Calls(
            state
                .clients()
                .acting_for(caller.address, caller.bearer.as_ref()),
        ))
    }
}

/// The account `bearer` speaks for, as the accounts service (briefly cached) says; a gateway
/// without an accounts service knows no token. What the API's `Authorization` header and the
/// web pages' session cookie are both verified by.
pub(crate) async fn verify(state: &AppState, bearer: &Bearer) -> Result<AccountCaller, AuthError> {
    match state.verifier() {
        None => Err(AuthError::Invalid),
        Some(verifier) => verifier.verify(bearer).await,
    }
}

// `ApiError` lives for one response; boxing it would only add noise (as in every handler).
#[allow(clippy::result_large_err)]
/// Counts a request of `caller` (an account, else its client address) against the general
/// rate limit (`kit::limits`, shared with the gRPC edge): the API's and the web pages' requests
/// alike.
pub(crate) async fn count(
    state: &AppState,
    caller: &Caller,
    address: Option<IpAddr>,
) -> Result<(), ApiError> {
    let key = match (caller, address) {
        (Caller::Account(account), _) => CallerKey::account(&account.id),
        (Caller::Anonymous, Some(address)) => CallerKey::from(address),
        (Caller::Anonymous, None) => CallerKey::unknown(),
    };
    state
        .limiter()
        .count_request(&key)
        .await
        .map_err(|refused| ApiError::from(tonic::Status::from(refused)))
}

/// Verifies the caller of every API request, counts it against the general limit, and hands
/// the handler its [`Authenticated`].
pub async fn authenticate(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    // Behind a trusted ingress, the client it names; else the connection's peer.
    let address = state
        .config()
        .trusted_proxies
        .client(peer, request.headers());
    let bearer = match request.headers().get(http::header::AUTHORIZATION) {
        None => None,
        Some(value) => match Bearer::from_authorization(value.as_bytes()) {
            Ok(bearer) => Some(bearer),
            Err(err) => return unauthenticated(&err).into_response(),
        },
    };
    let caller = match &bearer {
        None => Caller::Anonymous,
        Some(bearer) => match verify(&state, bearer).await {
            Ok(account) => Caller::Account(account),
            Err(AuthError::Unavailable(cause)) => return ApiError::from(cause).into_response(),
            Err(err) => return unauthenticated(&err).into_response(),
        },
    };
    if let Err(refused) = count(&state, &caller, address).await {
        return refused.into_response();
    }
    request.extensions_mut().insert(Authenticated {
        caller,
        bearer,
        address,
    });
    next.run(request).await
}
