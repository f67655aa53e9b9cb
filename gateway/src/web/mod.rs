//! The web frontend: server-rendered pages at `/`, on the same origin as `/api`.
//!
//! Pages are `maud` templates (checked at compile time; every spliced value is escaped, so a
//! ruleset named `<script>` shows as text) that call the services through the same typed
//! clients as the JSON routes ([`crate::auth::Calls`]). The browser is known by its session
//! cookie ([`session`]); forms carry a CSRF token bound to it ([`crate::csrf`]), and a form another
//! site sent is refused whatever it carries ([`origin`]). Our own CSS and JavaScript are served
//! from `/assets/` ([`assets`]); every HTML answer carries a Content-Security-Policy that allows
//! no inline script and nothing from another origin but card images ([`headers`]).

pub mod answer;
pub mod assets;
mod bracket;
mod builder;
mod calculator_settings;
mod calculators;
mod charts;
mod deck_rules;
mod deck_settings;
pub mod headers;
mod layout;
pub mod origin;
mod pages;
pub mod session;
mod settings;
mod stage_settings;
mod templates;
mod tournament_console;
mod tournament_create;
mod tournaments;
mod wording;

use crate::csrf;
use std::net::{IpAddr, SocketAddr};

use axum::Router;
use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use cookie::{Cookie, SameSite};
use http::header::SET_COOKIE;
use kit::auth::{AuthError, Bearer, Caller};

use self::session::{CSRF_COOKIE, SESSION_COOKIE, Viewer};
use crate::auth::{self, Authenticated};
use crate::state::AppState;

/// The pages' Content-Security-Policy: our own scripts and styles only (no `unsafe-inline`),
/// card images from anywhere over HTTPS, forms posted only to us, never framed.
pub const CONTENT_SECURITY_POLICY_VALUE: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' https: data:; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The pages and the assets. Pages run behind [`attach`].
pub fn routes(state: AppState) -> Router<AppState> {
    let pages = pages::routes()
        .merge(settings::routes())
        .merge(builder::routes())
        .merge(calculator_settings::routes())
        .merge(templates::routes())
        .merge(tournaments::routes())
        .merge(tournament_console::routes())
        .merge(bracket::routes())
        .merge(tournament_create::routes())
        .merge(deck_settings::routes())
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), attach))
        // Outside `attach`: a form another site sent is refused before its session is
        // verified or counted.
        .route_layer(axum::middleware::from_fn_with_state(
            state,
            origin::refuse_cross_site,
        ))
        // Outermost, so that every answer of a page, the refusals above included, has them.
        .route_layer(axum::middleware::from_fn(headers::page_headers));
    Router::new().merge(pages).merge(assets::routes())
}

/// Reads and verifies the session cookie of every page request, counts the request against
/// the general limit, and hands the page its [`Viewer`] (and the services' calls their
/// [`Authenticated`] caller) with the CSRF token of its forms ([`crate::csrf`]). Sets the CSRF cookie
/// when the browser has none, and clears a session cookie that no longer verifies.
pub async fn attach(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    let proxies = &state.config().trusted_proxies;
    let address: Option<IpAddr> = proxies.client(peer, request.headers());
    // Only a proxy we trust may say the browser came over TLS.
    let secure = peer.is_some_and(|peer| proxies.contains(peer))
        && request
            .headers()
            .get("x-forwarded-proto")
            .is_some_and(|proto| proto.as_bytes().eq_ignore_ascii_case(b"https"));
    let headers = request.headers();
    // The browser's own random value, which its forms' token is bound to until it signs in.
    let (visitor, new_csrf_cookie) = match session::cookie(headers, CSRF_COOKIE) {
        Some(value) if value.len() == 64 => (value, false),
        _ => (csrf::new_visitor_value(), true),
    };
    let sent = session::cookie(headers, SESSION_COOKIE).filter(|token| !token.is_empty());
    let verified = match sent {
        None => None,
        Some(token) => Some(
            match Bearer::from_authorization(format!("Bearer {token}").as_bytes()) {
                Ok(bearer) => auth::verify(&state, &bearer)
                    .await
                    .map(|account| (account, bearer)),
                Err(err) => Err(err),
            },
        ),
    };
    // A cookie that no longer verifies makes the page anonymous, and goes.
    let (caller, bearer, stale) = match verified {
        None => (Caller::Anonymous, None, false),
        Some(Ok((account, bearer))) => (Caller::Account(account), Some(bearer), false),
        Some(Err(AuthError::Unavailable(cause))) => {
            return answer::error_page(&crate::ApiError::from(cause)).into_response();
        }
        Some(Err(_)) => (Caller::Anonymous, None, true),
    };
    if let Err(refused) = auth::count(&state, &caller, address).await {
        return refused.into_response();
    }
    let key = &state.config().csrf_key;
    let csrf = match &bearer {
        Some(bearer) => key.token(csrf::Binding::Session(bearer.secret())),
        None => key.token(csrf::Binding::Visitor(&visitor)),
    };
    let viewer = Viewer {
        caller: caller.clone(),
        csrf,
        secure,
    };
    request.extensions_mut().insert(Authenticated {
        caller,
        bearer,
        address,
    });
    request.extensions_mut().insert(viewer.clone());
    let mut response = next.run(request).await;
    let cookies = response.headers_mut();
    if new_csrf_cookie {
        let cookie = Cookie::build((CSRF_COOKIE, visitor))
            .path("/")
            .http_only(true)
            .same_site(SameSite::Strict)
            .secure(secure)
            .build();
        if let Ok(value) = cookie.to_string().parse() {
            cookies.append(SET_COOKIE, value);
        }
    }
    // A page that signs in or out sets the session cookie itself; otherwise a stale one goes.
    let sets_session = cookies.get_all(SET_COOKIE).iter().any(|value| {
        value
            .to_str()
            .is_ok_and(|text| text.starts_with(SESSION_COOKIE))
    });
    if stale
        && !sets_session
        && let Ok(value) = viewer.sign_out_cookie().parse()
    {
        cookies.append(SET_COOKIE, value);
    }
    response
}
