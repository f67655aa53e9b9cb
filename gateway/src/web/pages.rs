//! The pages: home, card search and card pages, sign-up, sign-in and sign-out.
//!
//! Each page calls the services through [`Calls`] for its viewer and renders with
//! [`super::layout::page`]. A service's refusal becomes an HTML page with the same status and
//! message the JSON routes would give ([`super::answer::error_page`]).

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::Form;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use http::StatusCode;
use http::header::SET_COOKIE;
use maud::{Markup, html};
use proto::accounts::v1 as accounts_pb;
use proto::search::v1::SearchRequest;
use serde::Deserialize;
use serde_json::Value;

use super::answer::{PageResult, check_csrf, error_page, failed, known_game};
use super::layout::{GAMES, csrf_field, page, urlencode};
use super::session::Viewer;
use crate::ApiError;
use crate::auth::{Authenticated, Calls};
use crate::state::AppState;

/// Cards per page of search results.
const PAGE_SIZE: i32 = 60;

/// The pages' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(home))
        .route("/{game}/cards", get(search))
        .route("/{game}/cards/{reference}", get(card))
        .route("/signup", get(signup_form).post(signup))
        .route("/signin", get(signin_form).post(signin))
        .route("/signout", post(signout))
}

async fn home(viewer: Viewer) -> Markup {
    page(
        &viewer,
        "Cards, decks and tournaments",
        html! {
            h1 { "Turnier" }
            p { "Find cards, build and check decks, and run tournaments." }
            @for (slug, name) in GAMES {
                section class="game" {
                    h2 { (name) }
                    form method="get" action={ "/" (slug) "/cards" } role="search" {
                        label for={ "q-" (slug) } { "Search " (name) " cards" }
                        input id={ "q-" (slug) } type="search" name="q";
                        button type="submit" { "Search" }
                    }
                    p { a href={ "/" (slug) "/deck-builder" } { "Open the " (name) " deck builder" } }
                }
            }
        },
    )
}

/// The query string of the search page.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SearchParams {
    #[serde(default)]
    q: String,
    #[serde(default)]
    page_token: String,
}

/// The first image of a card (its `card` asset when it has one), if any.
fn image_of(card: &Value) -> Option<&str> {
    let assets = card["assets"].as_array()?;
    assets
        .iter()
        .find(|asset| asset["kind"] == "card")
        .or_else(|| assets.first())
        .and_then(|asset| asset["url"].as_str())
}

/// The query with the error's position marked: the text before it, the character at it, and
/// the rest.
fn marked(query: &str, position: usize) -> Markup {
    let at = query
        .char_indices()
        .map(|(index, _)| index)
        .nth(position)
        .unwrap_or(query.len());
    let (before, rest) = query.split_at(at);
    let mut chars = rest.chars();
    let here = chars.next().map(String::from).unwrap_or_default();
    html! {
        code class="query" {
            (before)
            mark title="here" { @if here.is_empty() { "\u{2038}" } @else { (here) } }
            (chars.as_str())
        }
    }
}

async fn search(
    viewer: Viewer,
    calls: Calls,
    Path(game): Path<String>,
    Query(params): Query<SearchParams>,
) -> PageResult {
    let (parsed, name) = known_game(&game)?;
    let client = calls.search().map_err(failed)?;
    let title = if params.q.is_empty() {
        format!("{name} cards")
    } else {
        format!("{} · {name} cards", params.q)
    };
    let answer = if params.q.trim().is_empty() {
        None
    } else {
        Some(
            client
                .search(SearchRequest {
                    game: proto::game::to_wire(parsed),
                    query: params.q.clone(),
                    page_size: PAGE_SIZE,
                    page_token: params.page_token.clone(),
                })
                .await,
        )
    };
    let results = match answer {
        None => {
            html! { p { "Type a card name or a query, for example " code { "t:unit cost<=3" } "." } }
        }
        Some(Err(error)) if error.reason == "invalid_query" => {
            let position = error
                .metadata()
                .get("position")
                .and_then(|position| position.parse::<usize>().ok());
            html! {
                div class="error" role="alert" {
                    p { (error.message) }
                    @if let Some(position) = position { p { (marked(&params.q, position)) } }
                }
            }
        }
        Some(Err(error)) => return Err(failed(error)),
        Some(Ok(response)) => {
            let mut cards = Vec::with_capacity(response.cards.len());
            for hit in response.cards {
                if let Some(card) = hit.card {
                    cards.push((crate::api::to_json(&card).map_err(failed)?, hit.printing_id));
                }
            }
            let next = (!response.next_page_token.is_empty()).then(|| {
                format!(
                    "/{game}/cards?{}",
                    serde_urlencoded_pairs(&[
                        ("q", params.q.as_str()),
                        ("pageToken", response.next_page_token.as_str()),
                    ])
                )
            });
            html! {
                @for warning in &response.warnings { p class="warning" role="status" { (warning) } }
                p class="count" role="status" { (response.total_size) " cards" }
                ul class="cards" {
                    @for (card, printing) in &cards {
                        @let reference = printing.as_deref().or(card["id"].as_str()).unwrap_or_default();
                        @let card_name = card["name"].as_str().unwrap_or(reference);
                        li {
                            a href={ "/" (game) "/cards/" (urlencode(reference)) } {
                                @if let Some(image) = image_of(card) {
                                    img src=(super::layout::secure(image)) alt=(card_name) loading="lazy" width="250" height="350";
                                } @else {
                                    span class="noimage" { (card_name) }
                                }
                                span class="name" { (card_name) }
                                span class="meta" { (card["setCode"].as_str().unwrap_or_default()) " · " (reference) }
                            }
                        }
                    }
                }
                @if let Some(next) = next {
                    nav aria-label="Pages" { a rel="next" href=(next) { "Next page" } }
                }
            }
        }
    };
    Ok(page(
        &viewer,
        &title,
        html! {
            h1 { (name) " cards" }
            form method="get" action={ "/" (game) "/cards" } role="search" class="search" {
                label for="q" { "Search" }
                input id="q" type="search" name="q" value=(params.q) autocomplete="off"
                    aria-describedby="q-help";
                button type="submit" { "Search" }
                p id="q-help" class="help" {
                    "Names or the search language; " code { "order:" } " and " code { "direction:" } " sort."
                }
            }
            (results)
        },
    )
    .into_response())
}

/// `application/x-www-form-urlencoded` pairs.
fn serde_urlencoded_pairs(pairs: &[(&str, &str)]) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

/// One card field's value as text: strings as they are, lists joined, anything else as JSON.
fn field_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Array(items) => items.iter().map(field_text).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

async fn card(
    viewer: Viewer,
    calls: Calls,
    Path((game, reference)): Path<(String, String)>,
) -> PageResult {
    let (parsed, name) = known_game(&game)?;
    let response = calls
        .catalog()
        .map_err(failed)?
        .get_cards(parsed, vec![reference.clone()])
        .await
        .map_err(failed)?;
    let Some(card) = response
        .cards
        .into_iter()
        .next()
        .and_then(|entry| entry.card)
    else {
        return Err(failed(ApiError::new(
            StatusCode::NOT_FOUND,
            "card_not_found",
            format!(
                "no card `{}` in the {game} catalog",
                kit::status::quote(&reference)
            ),
        )));
    };
    let card = crate::api::to_json(&card).map_err(failed)?;
    let card_name = card["name"].as_str().unwrap_or(&reference).to_owned();
    let fields: Vec<(&String, &Value)> = card["game"]
        .as_object()
        .map(|fields| {
            fields
                .iter()
                .filter(|(_, value)| !value.is_object() && !value.is_null())
                .collect()
        })
        .unwrap_or_default();
    let printings = card["printings"].as_array().cloned().unwrap_or_default();
    Ok(page(
        &viewer,
        &card_name,
        html! {
            p class="crumbs" { a href={ "/" (game) "/cards" } { (name) " cards" } }
            article class="card" {
                @if let Some(image) = image_of(&card) {
                    img src=(super::layout::secure(image)) alt=(card_name) width="250" height="350";
                }
                div {
                    h1 { (card_name) }
                    dl {
                        dt { "Ref" } dd { code { (card["id"].as_str().unwrap_or_default()) } }
                        dt { "Set" } dd { (card["setCode"].as_str().unwrap_or_default()) }
                        @for (key, value) in &fields {
                            dt { (key) } dd { (field_text(value)) }
                        }
                    }
                }
            }
            @if !printings.is_empty() {
                section {
                    h2 { "Printings" }
                    table {
                        thead { tr { th scope="col" { "Printing" } th scope="col" { "Set" } th scope="col" { "Number" } } }
                        tbody {
                            @for printing in &printings {
                                tr {
                                    td { code { (printing["id"].as_str().unwrap_or_default()) } }
                                    td { (printing["setCode"].as_str().unwrap_or_default()) }
                                    td { (printing["number"].as_str().unwrap_or_default()) }
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

/// The fields of the sign-up and sign-in forms.
#[derive(Deserialize)]
struct CredentialsForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
}

// Never print a password, even in a debug log.
impl std::fmt::Debug for CredentialsForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CredentialsForm")
            .field("username", &self.username)
            .finish_non_exhaustive()
    }
}

/// The sign-up or sign-in form, with `problem` above it when the last try failed.
fn credentials_page(
    viewer: &Viewer,
    signing_up: bool,
    username: &str,
    problem: Option<&str>,
) -> Markup {
    let (title, action, other) = if signing_up {
        (
            "Sign up",
            "/signup",
            html! { "Have an account? " a href="/signin" { "Sign in" } },
        )
    } else {
        (
            "Sign in",
            "/signin",
            html! { "New here? " a href="/signup" { "Sign up" } },
        )
    };
    page(
        viewer,
        title,
        html! {
            h1 { (title) }
            @if let Some(problem) = problem { p class="error" role="alert" id="form-error" { (problem) } }
            form method="post" action=(action) class="stack" {
                (csrf_field(viewer))
                label for="username" { "Username" }
                input id="username" name="username" value=(username) required
                    autocomplete="username" minlength="3" maxlength="32";
                label for="password" { "Password" }
                input id="password" name="password" type="password" required minlength="10"
                    autocomplete=(if signing_up { "new-password" } else { "current-password" });
                @if signing_up { p class="help" { "3–32 letters, digits, _ or -; a password of at least 10 characters." } }
                button type="submit" { (title) }
            }
            p { (other) }
        },
    )
}

async fn signup_form(viewer: Viewer) -> Markup {
    credentials_page(&viewer, true, "", None)
}

async fn signin_form(viewer: Viewer) -> Markup {
    credentials_page(&viewer, false, "", None)
}

/// Signs the browser in with the session `response` holds, and sends it home.
fn signed_in(viewer: &Viewer, response: &accounts_pb::SessionResponse) -> Response {
    (
        [(SET_COOKIE, viewer.sign_in_cookie(&response.token))],
        Redirect::to("/"),
    )
        .into_response()
}

async fn signup(viewer: Viewer, calls: Calls, Form(form): Form<CredentialsForm>) -> PageResult {
    credentials(&viewer, &calls, form, true).await
}

async fn signin(viewer: Viewer, calls: Calls, Form(form): Form<CredentialsForm>) -> PageResult {
    credentials(&viewer, &calls, form, false).await
}

/// Signs up (`signing_up`) or in with the form, through the same guard as the JSON routes:
/// signed in and sent home, or the form again with what went wrong.
async fn credentials(
    viewer: &Viewer,
    calls: &Calls,
    form: CredentialsForm,
    signing_up: bool,
) -> PageResult {
    check_csrf(viewer, &form.csrf)?;
    let client = calls.accounts().map_err(failed)?;
    let (username, password) = (form.username, form.password);
    let answer = if signing_up {
        let call = client.create_account(accounts_pb::CreateAccountRequest {
            username: username.clone(),
            password,
        });
        crate::api::accounts::guarded(call).await
    } else {
        let call = client.sign_in(accounts_pb::SignInRequest {
            username: username.clone(),
            password,
        });
        crate::api::accounts::guarded(call).await
    };
    match answer {
        Ok(response) => Ok(signed_in(viewer, &response)),
        Err(error) => Ok(problem(viewer, signing_up, &username, &error)),
    }
}

/// The form again, with what went wrong, under the status the JSON route would give.
fn problem(viewer: &Viewer, signing_up: bool, username: &str, error: &ApiError) -> Response {
    if error.status().is_server_error() {
        return error_page(error);
    }
    (
        error.status(),
        credentials_page(viewer, signing_up, username, Some(error.message())),
    )
        .into_response()
}

#[derive(Debug, Deserialize)]
struct SignOutForm {
    #[serde(default)]
    csrf: String,
}

async fn signout(
    State(state): State<AppState>,
    viewer: Viewer,
    caller: Authenticated,
    calls: Calls,
    Form(form): Form<SignOutForm>,
) -> PageResult {
    check_csrf(&viewer, &form.csrf)?;
    if caller.bearer.is_some() {
        calls
            .accounts()
            .map_err(failed)?
            .sign_out()
            .await
            .map_err(|error| failed(crate::api::accounts::failed(error)))?;
        if let (Some(verifier), Some(bearer)) = (state.verifier(), &caller.bearer) {
            verifier.forget(bearer);
        }
    }
    Ok(([(SET_COOKIE, viewer.sign_out_cookie())], Redirect::to("/")).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_position_is_marked_in_the_query() {
        let html = marked("t:unit )", 7).into_string();
        assert_eq!(
            html,
            "<code class=\"query\">t:unit <mark title=\"here\">)</mark></code>"
        );
        let end = marked("cost<", 5).into_string();
        assert!(
            end.contains("<mark title=\"here\">\u{2038}</mark>"),
            "{end}"
        );
        let escaped = marked("<b>x", 3).into_string();
        assert!(
            escaped.starts_with("<code class=\"query\">&lt;b&gt;"),
            "{escaped}"
        );
    }

    #[test]
    fn fields_read_as_text() {
        assert_eq!(
            field_text(&serde_json::json!(["Ionia", "Demacia"])),
            "Ionia, Demacia"
        );
        assert_eq!(field_text(&serde_json::json!(3)), "3");
        assert_eq!(field_text(&serde_json::json!("Zed")), "Zed");
    }
}
