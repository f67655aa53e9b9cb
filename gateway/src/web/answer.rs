//! What a page answers when it cannot show itself: an HTML page with the status and message the
//! JSON routes would give, and the refusal of a form without its CSRF token.

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::response::{IntoResponse, Response};
use http::StatusCode;
use maud::html;

use super::layout::{game_name, page};
use super::session::Viewer;
use crate::ApiError;

/// An HTML page for a failure: the status and message the JSON routes would answer.
pub fn error_page(error: &ApiError) -> Response {
    let viewer = Viewer::anonymous();
    let status = error.status();
    let title = status.canonical_reason().unwrap_or("Error");
    let body = page(
        &viewer,
        title,
        html! {
            h1 { (title) }
            p class="error" role="alert" { (error.message()) }
            p { a href="/" { "Back to the start page" } }
        },
    );
    (status, body).into_response()
}

/// What a page answers: the page, or an HTML error page.
pub type PageResult = Result<Response, Response>;

pub fn failed(error: impl Into<ApiError>) -> Response {
    error_page(&error.into())
}

/// A service's answer to a form it refused: `Ok` with the refusal, to show on the form again
/// under its status ([`again`]), or `Err` with the error page when the service failed instead.
pub fn refused(error: impl Into<ApiError>) -> Result<ApiError, Response> {
    let refusal = error.into();
    if refusal.status().is_server_error() {
        return Err(failed(refusal));
    }
    Ok(refusal)
}

/// The form's `page` again, answered with the status of the `refusal` it shows.
pub fn again(refusal: &ApiError, page: Response) -> PageResult {
    Ok((refusal.status(), page).into_response())
}

/// Refuses a form posted without the viewer's CSRF token.
pub fn check_csrf(viewer: &Viewer, sent: &str) -> Result<(), Response> {
    if viewer.csrf_matches(sent) {
        return Ok(());
    }
    Err(error_page(&ApiError::new(
        StatusCode::FORBIDDEN,
        "csrf",
        "this form is out of date or was not sent from this site: reload the page and try again",
    )))
}

/// Sends a visitor who is not signed in to the sign-in page.
pub fn signed_in(viewer: &Viewer) -> Result<(), Response> {
    match viewer.caller.account() {
        Some(_) => Ok(()),
        None => Err(axum::response::Redirect::to("/signin").into_response()),
    }
}

/// A form that changes something of the viewer's account: refused without its CSRF token, and
/// a visitor who is not signed in is sent to sign in.
pub fn account_form(viewer: &Viewer, sent: &str) -> Result<(), Response> {
    check_csrf(viewer, sent)?;
    signed_in(viewer)
}

/// The page for a form's `action` that is none of those its handler knows (`where_`: "on a
/// ruleset", "in the console").
pub fn no_action(action: &str, where_: &str) -> Response {
    failed(ApiError::invalid_argument(format!(
        "no action `{}` {where_}",
        kit::status::quote(action)
    )))
}

/// Text typed into a form's text area as the viewer typed it: a browser posts its line breaks
/// as CR LF.
pub fn typed(text: &str) -> String {
    text.replace("\r\n", "\n")
}

/// The game named in an address (`lor`, `pokemon`, `riftbound`) and its display name, or a
/// 404 page.
pub fn known_game(slug: &str) -> Result<(proto::game::Game, &'static str), Response> {
    let name = game_name(slug).ok_or_else(|| {
        failed(ApiError::not_found(format!(
            "no game `{}`: lor, pokemon or riftbound",
            kit::status::quote(slug)
        )))
    })?;
    Ok((crate::api::game(slug).map_err(failed)?, name))
}
