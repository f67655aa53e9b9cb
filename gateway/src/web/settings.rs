//! Settings pages of the signed-in viewer (API tokens) and public profiles.
//!
//! A settings page asks for an account: a visitor who is not signed in is sent to `/signin`.
//! Every change is a form post with the CSRF token, made with the viewer's own session, so the
//! accounts service applies the same ownership rule as for the JSON routes.

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::Form;
use axum::Router;
use axum::extract::Path;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use http::StatusCode;
use kit::auth::Scope;
use maud::{Markup, html};
use proto::accounts::v1 as pb;
use serde::Deserialize;

use super::answer::{PageResult, check_csrf, failed};
use super::layout::{csrf_field, page};
use super::session::Viewer;
use crate::api::accounts::failed as account_failed;
use crate::auth::Calls;
use crate::state::AppState;

/// The settings and profile routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/settings/tokens", get(tokens).post(create_token))
        .route("/settings/tokens/{id}/revoke", post(revoke_token))
        .route("/users/{username}", get(profile))
}

/// Sends a visitor who is not signed in to the sign-in page.
fn signed_in(viewer: &Viewer) -> Result<(), Response> {
    match viewer.caller.account() {
        Some(_) => Ok(()),
        None => Err(Redirect::to("/signin").into_response()),
    }
}

/// A time of the accounts service as `YYYY-MM-DD HH:MM` UTC, or `never`.
fn when(time: Option<&pbjson_types::Timestamp>) -> String {
    time.and_then(|time| jiff::Timestamp::new(time.seconds, 0).ok())
        .map_or_else(
            || "never".to_owned(),
            |time| time.strftime("%Y-%m-%d %H:%M UTC").to_string(),
        )
}

fn scope_names(scopes: &[i32]) -> String {
    scopes
        .iter()
        .filter_map(|scope| match pb::Scope::try_from(*scope) {
            Ok(pb::Scope::Read) => Some(Scope::Read.name()),
            Ok(pb::Scope::Write) => Some(Scope::Write.name()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The tokens page, with a secret just made shown once above the list, or a problem.
async fn tokens_page(
    viewer: &Viewer,
    calls: &Calls,
    made: Option<(String, String)>,
    problem: Option<String>,
) -> PageResult {
    let listed = calls
        .accounts()
        .map_err(failed)?
        .list_api_tokens()
        .await
        .map_err(|error| failed(account_failed(error)))?;
    Ok(page(
        viewer,
        "API tokens",
        html! {
            h1 { "API tokens" }
            p { "A token lets a program call the API as you: " code { "Authorization: Bearer <token>" } "." }
            @if let Some((name, secret)) = &made {
                div class="ok" role="status" id="new-token" {
                    p { "Token " strong { (name) } " made. Copy it now: it is not shown again." }
                    p { code class="secret" { (secret) } }
                }
            }
            @if let Some(problem) = &problem { p class="error" role="alert" id="form-error" { (problem) } }
            form method="post" action="/settings/tokens" class="stack" {
                (csrf_field(viewer))
                label for="token-name" { "Name" }
                input id="token-name" name="name" required maxlength="100";
                fieldset {
                    legend { "May" }
                    label { input type="checkbox" name="read" value="on" checked; " read" }
                    " "
                    label { input type="checkbox" name="write" value="on"; " write" }
                }
                button type="submit" { "Make a token" }
            }
            h2 { "Your tokens" }
            @if listed.api_tokens.is_empty() {
                p { "None yet." }
            } @else {
                table {
                    thead { tr {
                        th scope="col" { "Name" } th scope="col" { "May" } th scope="col" { "Made" }
                        th scope="col" { "Last used" } th scope="col" { span class="visually-hidden" { "Revoke" } }
                    } }
                    tbody {
                        @for token in &listed.api_tokens {
                            tr {
                                td { (token.name) }
                                td { (scope_names(&token.scopes)) }
                                td { (when(token.create_time.as_ref())) }
                                td { (when(token.last_use_time.as_ref())) }
                                td {
                                    form method="post" action={ "/settings/tokens/" (token.id) "/revoke" } class="inline" {
                                        (csrf_field(viewer))
                                        button type="submit" class="secondary" aria-label={ "Revoke " (token.name) } { "Revoke" }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        },
    )
    .into_response())
}

async fn tokens(viewer: Viewer, calls: Calls) -> PageResult {
    signed_in(&viewer)?;
    tokens_page(&viewer, &calls, None, None).await
}

/// The fields of the new-token form.
#[derive(Debug, Deserialize)]
struct TokenForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    read: Option<String>,
    write: Option<String>,
}

async fn create_token(viewer: Viewer, calls: Calls, Form(form): Form<TokenForm>) -> PageResult {
    check_csrf(&viewer, &form.csrf)?;
    signed_in(&viewer)?;
    let mut scopes = Vec::new();
    if form.read.is_some() {
        scopes.push(kit::clients::accounts::scope_to_proto(Scope::Read) as i32);
    }
    if form.write.is_some() {
        scopes.push(kit::clients::accounts::scope_to_proto(Scope::Write) as i32);
    }
    let answer = calls
        .accounts()
        .map_err(failed)?
        .create_api_token(pb::CreateApiTokenRequest {
            name: form.name.clone(),
            scopes,
            expire_time: None,
        })
        .await;
    match answer {
        Ok(made) => tokens_page(&viewer, &calls, Some((form.name, made.token)), None).await,
        Err(error) => {
            let error = account_failed(error);
            if error.status().is_server_error() {
                return Err(failed(error));
            }
            let page = tokens_page(&viewer, &calls, None, Some(error.message().to_owned())).await?;
            Ok((error.status(), page).into_response())
        }
    }
}

#[derive(Debug, Deserialize)]
struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

async fn revoke_token(
    viewer: Viewer,
    calls: Calls,
    Path(id): Path<String>,
    Form(form): Form<CsrfForm>,
) -> PageResult {
    check_csrf(&viewer, &form.csrf)?;
    signed_in(&viewer)?;
    calls
        .accounts()
        .map_err(failed)?
        .revoke_api_token(&id)
        .await
        .map_err(|error| failed(account_failed(error)))?;
    Ok(Redirect::to("/settings/tokens").into_response())
}

async fn profile(viewer: Viewer, calls: Calls, Path(username): Path<String>) -> PageResult {
    let answer = calls
        .accounts()
        .map_err(failed)?
        .get_user(&username)
        .await
        .map_err(|error| failed(account_failed(error)))?;
    let Some(user) = answer.user else {
        return Err(failed(crate::ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "no such user",
        )));
    };
    let own = viewer
        .username()
        .is_some_and(|name| name.eq_ignore_ascii_case(&user.username));
    let body: Markup = html! {
        h1 { (user.username) }
        p { "Member since " (when(user.create_time.as_ref())) "." }
        @if own { p { a href="/settings/tokens" { "API tokens" } } }
    };
    Ok(page(&viewer, &user.username, body).into_response())
}
