//! Who a request is made by, and what they may do: the bearer token a caller presents, the
//! typed [`Caller`] every handler gets, and the one [`Verifier`] that turns the first into the
//! second by asking the accounts service (with a short, bounded cache).
//!
//! A token travels as `authorization: Bearer <token>`: in the HTTP header a browser or a third
//! party sends the gateway, and in the gRPC metadata the gateway forwards (and a third party
//! calling a service directly sends). Tokens are opaque; their prefix names their kind
//! (sessions `tns_…`, API tokens `tnp_…`) so a leaked one can be recognized. Nothing here
//! prints a token: [`Bearer`]'s `Debug` shows its kind only, and the metadata it is sent as is
//! marked sensitive.
//!
//! Every gRPC server verifies the token of each request before its handler runs
//! ([`AuthLayer`], added by [`crate::server::serve`]): a request without one is
//! [`Caller::Anonymous`]; one with a token that is malformed, unknown, expired or revoked is
//! answered UNAUTHENTICATED at once. Health and reflection stay open whatever is sent. What an
//! anonymous caller may do is each method's decision, through [`crate::access`].

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime};

use tonic::Code;
use tonic::metadata::{AsciiMetadataValue, MetadataMap};

use crate::status::{Failure, ServiceError};

/// The metadata key (and HTTP header) that carries a bearer token.
pub const AUTHORIZATION: &str = "authorization";

/// The prefix of a session token.
pub const SESSION_PREFIX: &str = "tns_";

/// The prefix of an API token.
pub const API_PREFIX: &str = "tnp_";

/// The longest `Authorization` value read; a longer one is malformed (a token is ~50 bytes).
pub const MAX_AUTHORIZATION_BYTES: usize = 512;

/// The longest time a verified token is believed without asking again: a revoked or expired
/// token stops working everywhere within it.
pub const MAX_CACHE_FOR: Duration = Duration::from_secs(5);

/// The most verified tokens one process keeps.
pub const CACHE_CAPACITY: u64 = 100_000;

/// The reason of the error for an `Authorization` value that is not `Bearer <token>`.
pub const REASON_MALFORMED: &str = "malformed_authorization";

/// The reason of the error for a token that is unknown, expired, revoked or of no known kind.
pub const REASON_INVALID_TOKEN: &str = "invalid_token";

/// The reason of the error for a request that needs an account and came without a token.
pub const REASON_UNAUTHENTICATED: &str = "unauthenticated";

/// The kind of a token, as its prefix names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// A signed-in session (`tns_…`): every scope.
    Session,
    /// An API token for a third party (`tnp_…`): its own scopes.
    Api,
}

impl TokenKind {
    /// Returns the kind a token's prefix names, if any.
    pub fn of(token: &str) -> Option<TokenKind> {
        if token.starts_with(SESSION_PREFIX) {
            Some(TokenKind::Session)
        } else if token.starts_with(API_PREFIX) {
            Some(TokenKind::Api)
        } else {
            None
        }
    }

    /// Returns the prefix of tokens of this kind.
    pub fn prefix(self) -> &'static str {
        match self {
            TokenKind::Session => SESSION_PREFIX,
            TokenKind::Api => API_PREFIX,
        }
    }
}

/// What a token may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// Read what the account may see (its private resources too).
    Read,
    /// Change what the account owns.
    Write,
}

impl Scope {
    /// Returns the scope's name, as the HTTP API and the CLI write it.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Write => "write",
        }
    }

    /// Returns the scope named `name` (`read`, `write`).
    pub fn parse(name: &str) -> Option<Scope> {
        match name {
            "read" => Some(Scope::Read),
            "write" => Some(Scope::Write),
            _ => None,
        }
    }
}

/// A set of scopes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Scopes {
    read: bool,
    write: bool,
}

impl Scopes {
    /// Every scope: what a session may do.
    pub const ALL: Scopes = Scopes {
        read: true,
        write: true,
    };

    /// No scope.
    pub const NONE: Scopes = Scopes {
        read: false,
        write: false,
    };

    /// Returns whether the set holds `scope`.
    pub fn has(self, scope: Scope) -> bool {
        match scope {
            Scope::Read => self.read,
            Scope::Write => self.write,
        }
    }

    /// Returns the set with `scope` added.
    #[must_use]
    pub fn with(mut self, scope: Scope) -> Scopes {
        match scope {
            Scope::Read => self.read = true,
            Scope::Write => self.write = true,
        }
        self
    }

    /// Returns the scopes of the set, in order.
    pub fn iter(self) -> impl Iterator<Item = Scope> {
        [Scope::Read, Scope::Write]
            .into_iter()
            .filter(move |scope| self.has(*scope))
    }

    /// Returns whether the set is empty.
    pub fn is_empty(self) -> bool {
        !self.read && !self.write
    }
}

impl FromIterator<Scope> for Scopes {
    fn from_iter<I: IntoIterator<Item = Scope>>(iter: I) -> Self {
        iter.into_iter().fold(Scopes::NONE, Scopes::with)
    }
}

/// A bearer token as a caller presented it. Its `Debug` and `Display` show the kind only,
/// never the secret, so it can sit in any struct that is logged.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Bearer(Arc<str>);

impl Bearer {
    /// Returns the token `secret` (what follows `Bearer `).
    pub fn new(secret: impl Into<Arc<str>>) -> Self {
        Self(secret.into())
    }

    /// Returns the token itself, to send on or to verify: never log it.
    pub fn secret(&self) -> &str {
        &self.0
    }

    /// Returns the kind its prefix names, if any.
    pub fn kind(&self) -> Option<TokenKind> {
        TokenKind::of(&self.0)
    }

    /// Reads an `Authorization` value: `Bearer <token>`, the scheme in any case, the token
    /// one run of visible ASCII.
    pub fn from_authorization(value: &[u8]) -> Result<Bearer, AuthError> {
        if value.len() > MAX_AUTHORIZATION_BYTES {
            return Err(AuthError::Malformed("the Authorization value is too long"));
        }
        let text = std::str::from_utf8(value)
            .map_err(|_| AuthError::Malformed("the Authorization value is not ASCII"))?;
        let (scheme, token) = text.trim().split_once(' ').ok_or(AuthError::Malformed(
            "expected `Authorization: Bearer <token>`",
        ))?;
        if !scheme.eq_ignore_ascii_case("bearer") {
            return Err(AuthError::Malformed(
                "only the Bearer scheme is accepted: `Authorization: Bearer <token>`",
            ));
        }
        let token = token.trim_start_matches(' ');
        if token.is_empty() || !token.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(AuthError::Malformed(
                "the token after `Bearer ` must be one word of visible ASCII",
            ));
        }
        Ok(Bearer::new(token))
    }

    /// Reads the bearer token of gRPC `metadata`, if it has an `authorization` entry.
    pub fn from_metadata(metadata: &MetadataMap) -> Result<Option<Bearer>, AuthError> {
        match metadata.get(AUTHORIZATION) {
            None => Ok(None),
            Some(value) => Bearer::from_authorization(value.as_bytes()).map(Some),
        }
    }

    /// Returns the `authorization` metadata value that carries this token, marked sensitive
    /// (HPACK never indexes it; tracing layers that honour the flag skip it).
    pub fn to_metadata(&self) -> AsciiMetadataValue {
        // Visible ASCII only, checked when read; a token made here is base64url.
        let mut value = AsciiMetadataValue::try_from(format!("Bearer {}", self.0))
            .unwrap_or_else(|_| AsciiMetadataValue::from_static("Bearer invalid"));
        value.set_sensitive(true);
        value
    }

    /// Puts this token into `metadata` as its `authorization` entry.
    pub fn insert_into(&self, metadata: &mut MetadataMap) {
        metadata.insert(AUTHORIZATION, self.to_metadata());
    }
}

impl fmt::Debug for Bearer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Bearer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            Some(kind) => write!(f, "Bearer({}…)", kind.prefix()),
            None => f.write_str("Bearer(…)"),
        }
    }
}

/// An account a verified token speaks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountCaller {
    /// The account's opaque id (`acc_…`): what resources name as their owner.
    pub id: String,
    /// The account's username, as typed at sign-up.
    pub username: String,
    /// The kind of token it came with.
    pub kind: TokenKind,
    /// What the token may do.
    pub scopes: Scopes,
    /// When the token stops working by itself, if it does.
    pub expires: Option<SystemTime>,
}

/// Who a request is made by.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Caller {
    /// No token came with the request.
    #[default]
    Anonymous,
    /// A verified token of an account.
    Account(AccountCaller),
}

impl Caller {
    /// Returns the caller a handler's request was verified as: what [`AuthLayer`] put in its
    /// extensions, else anonymous (a server without the layer, a request built in memory).
    pub fn of<T>(request: &tonic::Request<T>) -> Caller {
        request
            .extensions()
            .get::<Caller>()
            .cloned()
            .unwrap_or_default()
    }

    /// Returns the account, if the caller has one.
    pub fn account(&self) -> Option<&AccountCaller> {
        match self {
            Caller::Anonymous => None,
            Caller::Account(account) => Some(account),
        }
    }

    /// Returns the account id, if the caller has one.
    pub fn account_id(&self) -> Option<&str> {
        self.account().map(|account| account.id.as_str())
    }

    /// Returns the account, or the UNAUTHENTICATED error of a request that needs one.
    // The error goes straight into a `Status`, as every `Failure` does (as in the gateway).
    #[allow(clippy::result_large_err)]
    pub fn require_account(&self) -> Result<&AccountCaller, Failure> {
        self.account().ok_or_else(|| {
            Failure::new(
                Code::Unauthenticated,
                REASON_UNAUTHENTICATED,
                "this needs an account: send `Authorization: Bearer <token>`",
            )
        })
    }
}

/// Why a token could not be turned into a caller.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// The `Authorization` value is not `Bearer <token>`.
    #[error("malformed Authorization: {0}")]
    Malformed(&'static str),
    /// The token is unknown, expired, revoked, or of no known kind.
    #[error("the token is not valid (unknown, expired or revoked)")]
    Invalid,
    /// The accounts service could not answer.
    #[error("cannot verify the token: {0}")]
    Unavailable(ServiceError),
}

impl AuthError {
    /// Returns the error as it goes on the wire.
    pub fn to_failure(&self) -> Failure {
        match self {
            AuthError::Malformed(_) => {
                Failure::new(Code::Unauthenticated, REASON_MALFORMED, self.to_string())
            }
            AuthError::Invalid => Failure::new(
                Code::Unauthenticated,
                REASON_INVALID_TOKEN,
                self.to_string(),
            ),
            AuthError::Unavailable(cause) => Failure::from_upstream("accounts", cause),
        }
    }
}

impl From<AuthError> for tonic::Status {
    fn from(err: AuthError) -> Self {
        err.to_failure().into()
    }
}

/// A boxed future, as [`Verify`] returns.
pub type VerifyFuture<'a> =
    Pin<Box<dyn Future<Output = Result<AccountCaller, AuthError>> + Send + 'a>>;

/// Asks the one source of truth who a token is: the accounts service's `VerifyToken`
/// ([`crate::clients::AccountsClient`]), or, in the accounts service itself and in tests,
/// its store.
pub trait Verify: Send + Sync + 'static {
    /// Returns the account `bearer` speaks for, or [`AuthError::Invalid`].
    fn verify<'a>(&'a self, bearer: &'a Bearer) -> VerifyFuture<'a>;
}

/// Turns bearer tokens into callers: asks a [`Verify`] once per token and keeps the answer for
/// at most [`MAX_CACHE_FOR`] (never past the token's own expiry), for at most
/// [`CACHE_CAPACITY`] tokens. Only valid tokens are kept, so a token verifies the moment it
/// is made; an invalid one is asked about every time (the gateway's rate limits bound that).
/// Cheap to clone; clones share the cache.
#[derive(Clone)]
pub struct Verifier {
    source: Arc<dyn Verify>,
    cache: moka::sync::Cache<Bearer, AccountCaller>,
}

impl fmt::Debug for Verifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Verifier")
            .field("cached", &self.cache.entry_count())
            .finish()
    }
}

impl Verifier {
    /// Returns a verifier that asks `source`, caching for [`MAX_CACHE_FOR`].
    pub fn new(source: impl Verify) -> Self {
        Self::with_cache_for(source, MAX_CACHE_FOR)
    }

    /// Returns a verifier that asks `source`, caching for `cache_for` (at most
    /// [`MAX_CACHE_FOR`]; zero caches nothing).
    pub fn with_cache_for(source: impl Verify, cache_for: Duration) -> Self {
        Self {
            source: Arc::new(source),
            cache: moka::sync::Cache::builder()
                .max_capacity(CACHE_CAPACITY)
                .time_to_live(cache_for.min(MAX_CACHE_FOR).max(Duration::from_nanos(1)))
                .build(),
        }
    }

    /// Returns who `bearer` is. A token of no known kind is invalid without asking.
    pub async fn verify(&self, bearer: &Bearer) -> Result<AccountCaller, AuthError> {
        if bearer.kind().is_none() {
            return Err(AuthError::Invalid);
        }
        if let Some(account) = self.cache.get(bearer) {
            if account
                .expires
                .is_none_or(|expires| expires > SystemTime::now())
            {
                return Ok(account);
            }
            self.cache.invalidate(bearer);
            return Err(AuthError::Invalid);
        }
        let account = self.source.verify(bearer).await?;
        if bearer.kind() != Some(account.kind) {
            // A token of one kind presented with the other's prefix: never trusted.
            return Err(AuthError::Invalid);
        }
        self.cache.insert(bearer.clone(), account.clone());
        Ok(account)
    }

    /// Returns the caller of a request with `metadata`: anonymous without a token.
    pub async fn caller(&self, metadata: &MetadataMap) -> Result<Caller, AuthError> {
        match Bearer::from_metadata(metadata)? {
            None => Ok(Caller::Anonymous),
            Some(bearer) => self.verify(&bearer).await.map(Caller::Account),
        }
    }

    /// Forgets what is cached about `bearer` (this process signed it out or revoked it).
    pub fn forget(&self, bearer: &Bearer) {
        self.cache.invalidate(bearer);
    }

    /// Forgets every cached answer (a test that revokes and checks at once).
    pub fn forget_all(&self) {
        self.cache.invalidate_all();
    }
}

/// Whether a gRPC path is one of the infrastructure services that stay open whatever token
/// comes with the request (health, reflection).
fn is_open(path: &str) -> bool {
    path.starts_with("/grpc.health.v1.Health/") || path.starts_with("/grpc.reflection.")
}

/// The tower layer every gRPC server runs its requests through: reads `authorization`,
/// verifies it, puts the [`Caller`] into the request's extensions, and answers a bad token
/// UNAUTHENTICATED before any handler runs.
#[derive(Debug, Clone)]
pub struct AuthLayer {
    verifier: Option<Verifier>,
    /// The largest request message of a caller without a token (`crate::message_limit`);
    /// `None`: that module's default.
    anonymous_message_bytes: Option<usize>,
}

impl AuthLayer {
    /// Returns the layer that verifies with `verifier`.
    pub fn new(verifier: Verifier) -> Self {
        Self {
            verifier: Some(verifier),
            anonymous_message_bytes: None,
        }
    }

    /// Returns the layer of a server that cannot verify tokens (no accounts service is
    /// configured): a request without a token is anonymous, and one with a token is refused
    /// UNAUTHENTICATED, so a token is never silently ignored.
    pub fn without_accounts() -> Self {
        Self {
            verifier: None,
            anonymous_message_bytes: None,
        }
    }

    /// Returns this layer letting a caller without a token send request messages of at most
    /// `max_bytes` (`TURNIER_GRPC_ANONYMOUS_MESSAGE_BYTES`).
    #[must_use]
    pub fn with_anonymous_message_limit(mut self, max_bytes: usize) -> Self {
        self.anonymous_message_bytes = Some(max_bytes);
        self
    }

    /// Returns the largest request message a caller this layer finds anonymous may send, if
    /// set (the layer that bounds them, `crate::message_limit`, goes inside this one).
    pub fn anonymous_message_bytes(&self) -> Option<usize> {
        self.anonymous_message_bytes
    }
}

impl<S> tower::Layer<S> for AuthLayer {
    type Service = AuthService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        AuthService {
            inner,
            verifier: self.verifier.clone(),
        }
    }
}

/// The service [`AuthLayer`] wraps around a server's routes.
#[derive(Debug, Clone)]
pub struct AuthService<S> {
    inner: S,
    verifier: Option<Verifier>,
}

impl<S, B, R> tower::Service<http::Request<B>> for AuthService<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<R>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    B: Send + 'static,
    R: Default + Send + 'static,
{
    type Response = http::Response<R>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> Self::Future {
        // The clone takes the readiness of the one polled (tower's documented pattern).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let verifier = self.verifier.clone();
        Box::pin(async move {
            if is_open(request.uri().path()) {
                return inner.call(request).await;
            }
            let caller = match request.headers().get(AUTHORIZATION) {
                None => Ok(Caller::Anonymous),
                Some(value) => match Bearer::from_authorization(value.as_bytes()) {
                    Err(err) => Err(err),
                    Ok(bearer) => match &verifier {
                        Some(verifier) => verifier.verify(&bearer).await.map(Caller::Account),
                        None => Err(AuthError::Invalid),
                    },
                },
            };
            match caller {
                Ok(caller) => {
                    request.extensions_mut().insert(caller);
                    inner.call(request).await
                }
                Err(err) => Ok(tonic::Status::from(err).into_http()),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A source that knows one token of each kind and counts how often it is asked.
    #[derive(Default)]
    struct Known {
        asked: Arc<AtomicUsize>,
    }

    fn account(kind: TokenKind, scopes: Scopes) -> AccountCaller {
        AccountCaller {
            id: "acc_1".to_owned(),
            username: "Ana".to_owned(),
            kind,
            scopes,
            expires: None,
        }
    }

    impl Verify for Known {
        fn verify<'a>(&'a self, bearer: &'a Bearer) -> VerifyFuture<'a> {
            self.asked.fetch_add(1, Ordering::SeqCst);
            Box::pin(async move {
                match bearer.secret() {
                    "tns_good" => Ok(account(TokenKind::Session, Scopes::ALL)),
                    "tnp_good" => Ok(account(TokenKind::Api, Scopes::NONE.with(Scope::Read))),
                    // The accounts service would never say so; a verifier must not believe it.
                    "tnp_claims_session" => Ok(account(TokenKind::Session, Scopes::ALL)),
                    _ => Err(AuthError::Invalid),
                }
            })
        }
    }

    #[test]
    fn reads_bearer_values_and_refuses_everything_else() {
        for good in [
            "Bearer tns_abc",
            "bearer tns_abc",
            "BEARER  tns_abc",
            " Bearer tns_abc ",
        ] {
            let bearer = Bearer::from_authorization(good.as_bytes()).expect(good);
            assert_eq!(bearer.secret(), "tns_abc", "{good:?}");
        }
        let long = format!("Bearer {}", "a".repeat(600));
        for bad in [
            "",
            "Bearer",
            "Bearer ",
            "Basic dXNlcjpwYXNz",
            "Token tns_abc",
            "Bearer tns abc",
            "Bearer tns_\u{e9}",
            long.as_str(),
        ] {
            assert!(
                matches!(
                    Bearer::from_authorization(bad.as_bytes()),
                    Err(AuthError::Malformed(_))
                ),
                "{bad:?}"
            );
        }
        assert!(Bearer::from_authorization(b"Bearer \xff\xfe").is_err());
    }

    #[test]
    fn a_bearer_never_prints_its_secret() {
        let bearer = Bearer::new("tns_supersecret");
        assert_eq!(format!("{bearer:?}"), "Bearer(tns_…)");
        assert_eq!(bearer.to_string(), "Bearer(tns_…)");
        assert_eq!(format!("{:?}", Bearer::new("nope")), "Bearer(…)");
        assert!(bearer.to_metadata().is_sensitive());
        assert!(!format!("{:?}", bearer.to_metadata()).contains("supersecret"));
    }

    #[tokio::test]
    async fn verifies_once_within_the_cache_time_and_never_trusts_a_kind_mismatch() {
        let source = Known::default();
        let asked = source.asked.clone();
        let verifier = Verifier::new(source);
        for _ in 0..3 {
            let caller = verifier
                .verify(&Bearer::new("tns_good"))
                .await
                .expect("valid");
            assert_eq!(caller.kind, TokenKind::Session);
        }
        assert_eq!(asked.load(Ordering::SeqCst), 1);
        // Unknown prefixes are invalid without asking; unknown tokens are asked every time.
        assert!(matches!(
            verifier.verify(&Bearer::new("good")).await,
            Err(AuthError::Invalid)
        ));
        assert_eq!(asked.load(Ordering::SeqCst), 1);
        for _ in 0..2 {
            assert!(verifier.verify(&Bearer::new("tns_bad")).await.is_err());
        }
        assert_eq!(asked.load(Ordering::SeqCst), 3);
        assert!(matches!(
            verifier.verify(&Bearer::new("tnp_claims_session")).await,
            Err(AuthError::Invalid)
        ));
    }

    #[tokio::test]
    async fn a_cached_token_past_its_own_expiry_is_invalid() {
        struct Expiring;
        impl Verify for Expiring {
            fn verify<'a>(&'a self, _bearer: &'a Bearer) -> VerifyFuture<'a> {
                Box::pin(async {
                    Ok(AccountCaller {
                        expires: Some(SystemTime::now() + Duration::from_millis(30)),
                        ..account(TokenKind::Session, Scopes::ALL)
                    })
                })
            }
        }
        let verifier = Verifier::new(Expiring);
        let bearer = Bearer::new("tns_short");
        assert!(verifier.verify(&bearer).await.is_ok());
        std::thread::sleep(Duration::from_millis(50));
        assert!(matches!(
            verifier.verify(&bearer).await,
            Err(AuthError::Invalid)
        ));
    }

    #[tokio::test]
    async fn the_caller_of_metadata_is_anonymous_without_a_token() {
        let verifier = Verifier::new(Known::default());
        let mut metadata = MetadataMap::new();
        assert_eq!(
            verifier.caller(&metadata).await.expect("anonymous"),
            Caller::Anonymous
        );
        Bearer::new("tnp_good").insert_into(&mut metadata);
        let caller = verifier.caller(&metadata).await.expect("valid");
        assert_eq!(
            caller.account().map(|account| account.scopes),
            Some(Scopes::NONE.with(Scope::Read))
        );
        metadata.insert(AUTHORIZATION, "Basic x".parse().expect("ASCII"));
        assert!(matches!(
            verifier.caller(&metadata).await,
            Err(AuthError::Malformed(_))
        ));
    }

    #[test]
    fn auth_errors_are_unauthenticated_with_their_reason() {
        let status = tonic::Status::from(AuthError::Invalid);
        assert_eq!(status.code(), Code::Unauthenticated);
        let read = ServiceError::from(status);
        assert_eq!(read.reason, REASON_INVALID_TOKEN);
        let malformed = ServiceError::from(tonic::Status::from(AuthError::Malformed("x")));
        assert_eq!(malformed.reason, REASON_MALFORMED);
        assert_eq!(
            ServiceError::from(tonic::Status::from(
                Caller::Anonymous.require_account().unwrap_err()
            ))
            .reason,
            REASON_UNAUTHENTICATED
        );
    }

    #[test]
    fn scopes_parse_and_combine() {
        let scopes: Scopes = ["write", "read"]
            .into_iter()
            .filter_map(Scope::parse)
            .collect();
        assert_eq!(scopes, Scopes::ALL);
        assert_eq!(
            scopes.iter().map(Scope::name).collect::<Vec<_>>(),
            ["read", "write"]
        );
        assert!(Scope::parse("admin").is_none());
        assert!(Scopes::NONE.is_empty());
    }
}
