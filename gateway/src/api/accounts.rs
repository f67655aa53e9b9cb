//! Accounts, sessions, API tokens and public profiles: sign-up, sign-in, sign-out, the
//! caller's own account and tokens, and `GET /api/v1/users/{username}`.
//!
//! Each route calls `turnier.accounts.v1.AccountService` with the caller's token forwarded.
//! Errors keep the documented codes (`unauthenticated`, `permission_denied`, `not_found`,
//! `already_exists`, `invalid_argument`, `resource_exhausted`); the service's precise reason
//! (`wrong_credentials`, `username_taken`, `invalid_token`, …) is in `details.reason`. Sign-in
//! and sign-up are limited per username and per client address on failures, and sign-ups per
//! address, by the accounts service itself (`kit::limits`), which the gateway names the client
//! to: so the same counts hold over gRPC. Times are RFC 3339.

// `ApiError` is what every handler answers with; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::extract::{Path, State};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use http::StatusCode;
use kit::auth::Scope;
use kit::clients::ServiceError;
use proto::accounts::v1 as pb;
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::OpenApi;

use crate::ApiError;
use crate::auth::{Authenticated, Calls};
use crate::state::AppState;

/// The accounts' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1/accounts", post(create_account))
        .route("/api/v1/sessions", post(sign_in))
        .route("/api/v1/sessions/current", delete(sign_out))
        .route("/api/v1/me", get(me))
        .route("/api/v1/me/tokens", post(create_token).get(list_tokens))
        .route("/api/v1/me/tokens/{id}", delete(revoke_token))
        .route("/api/v1/users/{username}", get(user))
}

/// The accounts' part of the OpenAPI document.
#[derive(Debug, OpenApi)]
#[openapi(
    paths(create_account, sign_in, sign_out, me, create_token, list_tokens, revoke_token, user),
    components(schemas(CredentialsBody, CreateTokenBody)),
    tags((name = "accounts", description = "Accounts, sessions, API tokens and public profiles"))
)]
pub struct AccountsDoc;

/// The name of the bearer security scheme in the OpenAPI document.
pub const BEARER_SCHEME: &str = "bearer";

/// Adds the bearer security scheme: `Authorization: Bearer <token>`.
#[derive(Debug)]
pub(crate) struct BearerScheme;

impl utoipa::Modify for BearerScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        let mut scheme = Http::new(HttpAuthScheme::Bearer);
        scheme.description = Some(
            "A session token (`tns_…`, from sign-up or sign-in) or an API token (`tnp_…`, \
             from `POST /api/v1/me/tokens`), as `Authorization: Bearer <token>`."
                .to_owned(),
        );
        components.add_security_scheme(BEARER_SCHEME, SecurityScheme::Http(scheme));
        // Every route takes a token, and most work without one (as anonymous): the document's
        // default is "optional bearer"; the routes that need an account say so themselves.
        openapi.security = Some(vec![
            utoipa::openapi::security::SecurityRequirement::default(),
            utoipa::openapi::security::SecurityRequirement::new(
                BEARER_SCHEME,
                Vec::<String>::new(),
            ),
        ]);
    }
}

/// The body of sign-up and sign-in.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CredentialsBody {
    /// 3–32 ASCII letters, digits, `_` or `-`, starting with a letter or digit.
    username: String,
    /// 10 to 1,024 characters.
    password: String,
}

// Never print a password, even in a debug log.
impl std::fmt::Debug for CredentialsBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CredentialsBody")
            .field("username", &self.username)
            .finish_non_exhaustive()
    }
}

/// The body of `POST /api/v1/me/tokens`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateTokenBody {
    /// 1 to 100 characters: what the token is for.
    name: String,
    /// `read`, `write`, or both.
    scopes: Vec<String>,
    /// When it stops working (RFC 3339, in the future); leave out for never.
    expire_time: Option<String>,
}

/// A service error with the documented code: the gRPC code's name, the service's own reason
/// in `details.reason`.
pub(crate) fn failed(error: ServiceError) -> ApiError {
    let reason = error.reason.clone();
    let code = error.code;
    let api = ApiError::from(error);
    if api.status().is_server_error() {
        return api;
    }
    let mut details = api
        .details()
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    details.insert("reason".to_owned(), Value::String(reason));
    ApiError::new(
        api.status(),
        crate::grpc_code_name(code),
        api.message().to_owned(),
    )
    .with_details(Value::Object(details))
}

fn account(account: Option<&pb::Account>) -> Value {
    match account {
        None => Value::Null,
        Some(account) => json!({
            "id": account.id,
            "username": account.username,
            "createTime": super::rfc3339(account.create_time.as_ref()),
        }),
    }
}

fn scope_names(scopes: &[i32]) -> Vec<&'static str> {
    scopes
        .iter()
        .filter_map(|scope| match pb::Scope::try_from(*scope) {
            Ok(pb::Scope::Read) => Some(Scope::Read.name()),
            Ok(pb::Scope::Write) => Some(Scope::Write.name()),
            _ => None,
        })
        .collect()
}

fn api_token(token: &pb::ApiToken) -> Value {
    json!({
        "id": token.id,
        "name": token.name,
        "scopes": scope_names(&token.scopes),
        "createTime": super::rfc3339(token.create_time.as_ref()),
        "expireTime": super::rfc3339(token.expire_time.as_ref()),
        "lastUseTime": super::rfc3339(token.last_use_time.as_ref()),
    })
}

fn session(response: &pb::SessionResponse) -> Value {
    json!({
        "account": account(response.account.as_ref()),
        "token": response.token,
        "expireTime": super::rfc3339(response.expire_time.as_ref()),
    })
}

/// Signs up or in through `call`: the accounts service counts the attempt against the
/// username and the client address the call names (`kit::limits`), and answers 429 with
/// `Retry-After` while either is held. The JSON routes and the web pages' forms both sign in
/// here.
pub(crate) async fn guarded(
    call: impl Future<Output = Result<pb::SessionResponse, ServiceError>>,
) -> Result<pb::SessionResponse, ApiError> {
    call.await.map_err(failed)
}

/// Creates an account and signs it in.
#[utoipa::path(post, path = "/api/v1/accounts", tag = "accounts", request_body = CredentialsBody,
    responses((status = 201, description = "`{\"account\": {\"id\", \"username\", \"createTime\"}, \"token\", \"expireTime\"}`: signed in"),
              (status = 400, description = "`invalid_argument`, naming the field and the rule", body = crate::ErrorBody),
              (status = 409, description = "`already_exists`: the username is taken (without regard to case)", body = crate::ErrorBody),
              (status = 429, description = "`resource_exhausted`: too many failed sign-ups; see `Retry-After`", body = crate::ErrorBody)))]
async fn create_account(
    calls: Calls,
    Json(body): Json<CredentialsBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let client = calls.accounts()?;
    let call = client.create_account(pb::CreateAccountRequest {
        username: body.username,
        password: body.password,
    });
    let response = guarded(call).await?;
    Ok((StatusCode::CREATED, Json(session(&response))))
}

/// Signs in.
#[utoipa::path(post, path = "/api/v1/sessions", tag = "accounts", request_body = CredentialsBody,
    responses((status = 201, description = "`{\"account\", \"token\", \"expireTime\"}`"),
              (status = 401, description = "`unauthenticated`: wrong username or password (the same answer for both)", body = crate::ErrorBody),
              (status = 429, description = "`resource_exhausted`: too many failed sign-ins for this username or address; see `Retry-After`", body = crate::ErrorBody)))]
async fn sign_in(
    calls: Calls,
    Json(body): Json<CredentialsBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let client = calls.accounts()?;
    let call = client.sign_in(pb::SignInRequest {
        username: body.username,
        password: body.password,
    });
    let response = guarded(call).await?;
    Ok((StatusCode::CREATED, Json(session(&response))))
}

/// Signs out: the session token of the request stops working.
#[utoipa::path(delete, path = "/api/v1/sessions/current", tag = "accounts",
    security(("bearer" = [])),
    responses((status = 204, description = "signed out"),
              (status = 401, description = "`unauthenticated`: no or bad token", body = crate::ErrorBody)))]
async fn sign_out(
    State(state): State<AppState>,
    caller: Authenticated,
    calls: Calls,
) -> Result<StatusCode, ApiError> {
    calls.accounts()?.sign_out().await.map_err(failed)?;
    if let (Some(verifier), Some(bearer)) = (state.verifier(), &caller.bearer) {
        // This gateway forgets it at once; every other process within the cache time.
        verifier.forget(bearer);
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The caller's own account.
#[utoipa::path(get, path = "/api/v1/me", tag = "accounts",
    security(("bearer" = [])),
    responses((status = 200, description = "`{\"account\": {\"id\", \"username\", \"createTime\"}}`"),
              (status = 401, description = "`unauthenticated`: no or bad token", body = crate::ErrorBody)))]
async fn me(calls: Calls) -> Result<Json<Value>, ApiError> {
    let response = calls.accounts()?.get_me().await.map_err(failed)?;
    Ok(Json(
        json!({ "account": account(response.account.as_ref()) }),
    ))
}

/// Makes an API token for a third party; its secret is in this answer only.
#[utoipa::path(post, path = "/api/v1/me/tokens", tag = "accounts", request_body = CreateTokenBody,
    security(("bearer" = [])),
    responses((status = 201, description = "`{\"token\", \"apiToken\": {\"id\", \"name\", \"scopes\", \"createTime\", \"expireTime\", \"lastUseTime\"}}`"),
              (status = 400, description = "`invalid_argument`", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`session_required`: API tokens are made from a signed-in session, never by an API token", body = crate::ErrorBody)))]
async fn create_token(
    calls: Calls,
    Json(body): Json<CreateTokenBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let scopes = body
        .scopes
        .iter()
        .map(|name| {
            Scope::parse(name)
                .map(|scope| kit::clients::accounts::scope_to_proto(scope) as i32)
                .ok_or_else(|| {
                    ApiError::invalid_argument(format!(
                        "`scopes`: unknown scope `{}` (expected read or write)",
                        kit::status::quote(name)
                    ))
                    .with_details(json!({"field": "scopes"}))
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let expire_time = body
        .expire_time
        .as_deref()
        .map(|text| super::time_input(text, "expireTime"))
        .transpose()?;
    let response = calls
        .accounts()?
        .create_api_token(pb::CreateApiTokenRequest {
            name: body.name,
            scopes,
            expire_time,
        })
        .await
        .map_err(failed)?;
    let token = response.api_token.as_ref().map_or(Value::Null, api_token);
    Ok((
        StatusCode::CREATED,
        Json(json!({ "token": response.token, "apiToken": token })),
    ))
}

/// The caller's API tokens, never with a secret.
#[utoipa::path(get, path = "/api/v1/me/tokens", tag = "accounts",
    security(("bearer" = [])),
    responses((status = 200, description = "`{\"apiTokens\": [{\"id\", \"name\", \"scopes\", \"createTime\", \"expireTime\", \"lastUseTime\"}]}`, newest first"),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`session_required`: listed from a signed-in session only", body = crate::ErrorBody)))]
async fn list_tokens(calls: Calls) -> Result<Json<Value>, ApiError> {
    let response = calls.accounts()?.list_api_tokens().await.map_err(failed)?;
    let tokens: Vec<Value> = response.api_tokens.iter().map(api_token).collect();
    Ok(Json(json!({ "apiTokens": tokens })))
}

/// Revokes one of the caller's API tokens: it stops working everywhere within 5 seconds.
#[utoipa::path(delete, path = "/api/v1/me/tokens/{id}", tag = "accounts",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The token's id (`tok_…`)")),
    responses((status = 204, description = "revoked"),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`session_required`: revoked from a signed-in session only", body = crate::ErrorBody),
              (status = 404, description = "`not_found`: no such token of the caller's", body = crate::ErrorBody)))]
async fn revoke_token(calls: Calls, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    calls
        .accounts()?
        .revoke_api_token(&id)
        .await
        .map_err(failed)?;
    Ok(StatusCode::NO_CONTENT)
}

/// A public profile.
#[utoipa::path(get, path = "/api/v1/users/{username}", tag = "accounts",
    params(("username" = String, Path, description = "The username, in any case")),
    responses((status = 200, description = "`{\"user\": {\"username\", \"createTime\"}}`"),
              (status = 404, description = "`not_found`: no such user", body = crate::ErrorBody)))]
async fn user(calls: Calls, Path(username): Path<String>) -> Result<Json<Value>, ApiError> {
    let response = calls
        .accounts()?
        .get_user(&username)
        .await
        .map_err(failed)?;
    let user = response.user.as_ref().map_or(
        Value::Null,
        |user| json!({"username": user.username, "createTime": super::rfc3339(user.create_time.as_ref())}),
    );
    Ok(Json(json!({ "user": user })))
}
