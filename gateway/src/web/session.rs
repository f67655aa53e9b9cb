//! Who a page is for ([`Viewer`]): the session cookie, read and verified once per request by
//! the pages' middleware (`super::attach`), and the CSRF token every form that changes
//! something carries.
//!
//! The session cookie (`turnier_session`) holds the accounts service's session token, `HttpOnly`,
//! `SameSite=Lax`, `Secure` when a trusted proxy says the browser came over TLS. A cookie that
//! no longer verifies (signed out elsewhere, expired, revoked) makes the page anonymous and is
//! cleared; it is never an error page.
//!
//! CSRF: every form carries, as a hidden `csrf` field, a token bound to the browser's session,
//! or before it signs in to a random value in its own cookie (`turnier_csrf`, `HttpOnly`,
//! `SameSite=Strict`, set on the first page); a form post is refused (403) unless its field is
//! the token this browser's forms get ([`crate::csrf`]). Another site can make a browser post
//! a form, but cannot read our pages, so it cannot know the field's value; and one that plants
//! a cookie of its choosing cannot make the token that goes with it.

use axum::extract::FromRequestParts;
use cookie::{Cookie, SameSite};
use http::HeaderMap;
use http::header::COOKIE;
use http::request::Parts;
use kit::auth::Caller;
use sha2::{Digest, Sha256};

/// The cookie holding the session token.
pub const SESSION_COOKIE: &str = "turnier_session";
/// The cookie holding the CSRF token.
pub const CSRF_COOKIE: &str = "turnier_csrf";
/// The form field carrying the CSRF token.
pub const CSRF_FIELD: &str = "csrf";

/// What a page knows of its viewer: the verified caller (also in the request's
/// [`Authenticated`], so the services are called for them) and the CSRF token of its forms.
#[derive(Debug, Clone)]
pub struct Viewer {
    /// Anonymous, or the signed-in account.
    pub caller: Caller,
    /// The token every form carries: bound to the session, or to the `turnier_csrf` cookie of a
    /// browser not signed in ([`crate::csrf`]).
    pub csrf: String,
    /// Whether cookies set for this request should be `Secure`.
    pub secure: bool,
}

impl Viewer {
    /// A viewer who is not signed in and has no CSRF token (so no form of theirs matches).
    pub fn anonymous() -> Self {
        Viewer {
            caller: Caller::Anonymous,
            csrf: String::new(),
            secure: false,
        }
    }

    /// Returns the signed-in username, if any.
    pub fn username(&self) -> Option<&str> {
        self.caller
            .account()
            .map(|account| account.username.as_str())
    }

    /// Returns whether `sent` (a form's field) is this viewer's CSRF token.
    pub fn csrf_matches(&self, sent: &str) -> bool {
        // Digests compared, so the comparison's time says nothing about the token.
        !sent.is_empty() && Sha256::digest(sent.as_bytes()) == Sha256::digest(self.csrf.as_bytes())
    }

    /// The `Set-Cookie` value that signs the browser in with `token`.
    pub fn sign_in_cookie(&self, token: &str) -> String {
        Cookie::build((SESSION_COOKIE, token.to_owned()))
            .path("/")
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(self.secure)
            .build()
            .to_string()
    }

    /// The `Set-Cookie` value that signs the browser out.
    pub fn sign_out_cookie(&self) -> String {
        let mut cookie = Cookie::build((SESSION_COOKIE, ""))
            .path("/")
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(self.secure)
            .build();
        cookie.make_removal();
        cookie.to_string()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Viewer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        // Set by `attach` on every page; a page outside it is anonymous with no token.
        Ok(parts
            .extensions
            .get::<Viewer>()
            .cloned()
            .unwrap_or_else(Viewer::anonymous))
    }
}

/// The value of cookie `name` in `headers`.
pub(super) fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|cookie| cookie.name() == name)
        .map(|cookie| cookie.value().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn viewer(csrf: &str) -> Viewer {
        Viewer {
            caller: Caller::Anonymous,
            csrf: csrf.to_owned(),
            secure: false,
        }
    }

    #[test]
    fn a_form_token_must_be_the_viewers_own() {
        let token = crate::csrf::new_visitor_value();
        assert_eq!(token.len(), 64);
        assert!(viewer(&token).csrf_matches(&token));
        assert!(!viewer(&token).csrf_matches(&crate::csrf::new_visitor_value()));
        assert!(!viewer(&token).csrf_matches(""));
        assert!(!viewer("").csrf_matches(""), "no token never matches");
    }

    #[test]
    fn cookies_are_read_by_name_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(
            COOKIE,
            "a=1; turnier_session=tns_x; b=2".parse().expect("header"),
        );
        assert_eq!(cookie(&headers, SESSION_COOKIE).as_deref(), Some("tns_x"));
        assert_eq!(cookie(&headers, CSRF_COOKIE), None);
    }

    #[test]
    fn the_session_cookie_is_http_only_and_lax_and_secure_over_tls() {
        let mut over_tls = viewer("x");
        over_tls.secure = true;
        let set = over_tls.sign_in_cookie("tns_abc");
        assert!(set.starts_with("turnier_session=tns_abc"), "{set}");
        for part in ["HttpOnly", "SameSite=Lax", "Secure", "Path=/"] {
            assert!(set.contains(part), "{part} in {set}");
        }
        assert!(!viewer("x").sign_in_cookie("t").contains("Secure"));
        let gone = viewer("x").sign_out_cookie();
        assert!(gone.contains("Max-Age=0"), "{gone}");
    }
}
