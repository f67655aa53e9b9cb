//! Who a gRPC request is made for, and how long they wait for its answer: what a service that
//! shares something scarce between its callers (the scripts service's sandbox slots) needs to
//! know about a request beyond its message.
//!
//! The gateway knows the address of the HTTP client it calls on behalf of, and names it in the
//! [`CALLER_METADATA`] metadata (the typed clients do it, see `clients::call`); a third party
//! calling a service directly is known by the address its connection comes from. How the
//! caller is charged (shares, queues) is the service's business.
//!
//! A named address is believed only on an *internal* call: one that carries the deployment's
//! internal key in [`crate::internal::INTERNAL_METADATA`], which every channel of our own clients adds
//! (`crate::client::traced`) and no third party knows. Anyone else naming an address is
//! counted by its own connection's address, so nobody escapes a limit by naming another one.
//! The key is random per process in the all-in-one (its clients and servers share the
//! process) and `TURNIER_INTERNAL_KEY` in a split deployment (`crate::internal::use_internal_key`).

use std::net::IpAddr;
use std::time::Duration;

use tonic::Request;
use tonic::metadata::MetadataValue;

/// The metadata key that names the client a request is made for: its IP address, as the
/// gateway saw it.
pub const CALLER_METADATA: &str = "x-turnier-caller";

/// How the key of a signed-in caller begins (no IP address does).
const ACCOUNT_PREFIX: &str = "account:";

/// What a caller is counted as, wherever its request came from. Two requests with the same key
/// share one caller's share.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallerKey(String);

impl CallerKey {
    /// The key of requests whose caller cannot be told (no metadata, no peer address: an
    /// in-memory transport). They all share one key.
    pub fn unknown() -> Self {
        Self("unknown".to_owned())
    }

    /// Returns the key of the signed-in account `id`.
    pub fn account(id: &str) -> Self {
        Self(format!("{ACCOUNT_PREFIX}{id}"))
    }

    /// Returns whether the key is a signed-in account's (else an address, or unknown).
    pub fn is_account(&self) -> bool {
        self.0.starts_with(ACCOUNT_PREFIX)
    }

    /// Returns the key as text, for logs.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<IpAddr> for CallerKey {
    fn from(address: IpAddr) -> Self {
        Self(address.to_string())
    }
}

impl std::fmt::Display for CallerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Returns the key of the caller `request` is made for: its account, when the auth layer
/// verified a token for it (`crate::auth`), whatever address it calls from; else, on an
/// internal call (`crate::internal::is_internal`), the client address the gateway named in
/// [`CALLER_METADATA`]; else the address of the peer that sent it. Anonymous callers from one
/// address share one key.
///
/// The named address is parsed as an IP address, so it cannot grow the keys beyond what
/// addresses can be.
pub fn key<T>(request: &Request<T>) -> CallerKey {
    key_from(
        request.metadata().as_ref(),
        request.extensions(),
        request.remote_addr().map(|peer| peer.ip()),
    )
}

/// Returns the key of the caller of a gRPC request as a tower layer sees it (before tonic
/// makes it a [`Request`]): the same rule as [`key`].
pub fn key_of_http<B>(request: &http::Request<B>) -> CallerKey {
    let peer = request
        .extensions()
        .get::<tonic::transport::server::TcpConnectInfo>()
        .and_then(|info| info.remote_addr())
        .map(|peer| peer.ip());
    key_from(request.headers(), request.extensions(), peer)
}

/// Returns the client address a request is made for: on an internal call the one it names,
/// else its peer's. What the sign-in limits count an attempt against.
pub fn address<T>(request: &Request<T>) -> Option<IpAddr> {
    named(request.metadata().as_ref()).or_else(|| request.remote_addr().map(|peer| peer.ip()))
}

fn named(headers: &http::HeaderMap) -> Option<IpAddr> {
    if !crate::internal::is_internal(headers) {
        return None;
    }
    headers
        .get(CALLER_METADATA)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<IpAddr>().ok())
}

fn key_from(
    headers: &http::HeaderMap,
    extensions: &http::Extensions,
    peer: Option<IpAddr>,
) -> CallerKey {
    if let Some(crate::auth::Caller::Account(account)) = extensions.get::<crate::auth::Caller>() {
        return CallerKey(format!("{ACCOUNT_PREFIX}{}", account.id));
    }
    match named(headers).or(peer) {
        Some(address) => CallerKey::from(address),
        None => CallerKey::unknown(),
    }
}

/// Names `caller` in `request`'s metadata: the request is made on that client's behalf.
pub fn name<T>(request: &mut Request<T>, caller: IpAddr) {
    // An address's text is always valid ASCII metadata; `Err` cannot happen.
    if let Ok(value) = MetadataValue::try_from(caller.to_string()) {
        request.metadata_mut().insert(CALLER_METADATA, value);
    }
}

/// Returns how long the caller waits for the answer: the `grpc-timeout` it sent, which tonic's
/// server enforces by dropping the handler when it passes. `None` when it sent none (or one
/// that does not parse, which tonic ignores too).
pub fn timeout<T>(request: &Request<T>) -> Option<Duration> {
    let text = request.metadata().get("grpc-timeout")?.to_str().ok()?;
    // gRPC over HTTP/2: at most 8 digits, then one unit letter.
    let digits = text.get(..text.len().checked_sub(1)?)?;
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value: u64 = digits.parse().ok()?;
    Some(match text.get(text.len() - 1..)? {
        "H" => Duration::from_secs(value * 3600),
        "M" => Duration::from_secs(value * 60),
        "S" => Duration::from_secs(value),
        "m" => Duration::from_millis(value),
        "u" => Duration::from_micros(value),
        "n" => Duration::from_nanos(value),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_metadata(key: &'static str, value: &str) -> Request<()> {
        let mut request = Request::new(());
        request
            .metadata_mut()
            .insert(key, value.parse().expect("ASCII"));
        request
    }

    fn internal(mut request: Request<()>) -> Request<()> {
        crate::internal::mark_internal(request.metadata_mut());
        request
    }

    #[test]
    fn the_client_an_internal_call_names_is_the_caller() {
        let mut request = Request::new(());
        name(&mut request, "203.0.113.7".parse().expect("an address"));
        assert_eq!(key(&internal(request)).as_str(), "203.0.113.7");
        let v6 = internal(with_metadata(CALLER_METADATA, " 2001:db8::1 "));
        assert_eq!(key(&v6).as_str(), "2001:db8::1");
    }

    #[test]
    fn an_address_named_without_the_internal_key_is_not_believed() {
        let mut request = with_metadata(CALLER_METADATA, "203.0.113.7");
        assert_eq!(key(&request), CallerKey::unknown());
        request.metadata_mut().insert(
            crate::internal::INTERNAL_METADATA,
            "not-the-key".parse().expect("ASCII"),
        );
        assert!(!crate::internal::is_internal(request.metadata().as_ref()));
        assert_eq!(key(&request), CallerKey::unknown());
        assert_eq!(address(&request), None);
        let request = internal(request);
        assert!(crate::internal::is_internal(request.metadata().as_ref()));
        assert_eq!(address(&request), "203.0.113.7".parse().ok());
    }

    #[test]
    fn a_verified_account_is_the_caller_whatever_address_it_names() {
        use crate::auth::{AccountCaller, Caller, Scopes, TokenKind};
        let mut request = internal(with_metadata(CALLER_METADATA, "203.0.113.7"));
        request
            .extensions_mut()
            .insert(Caller::Account(AccountCaller {
                id: "acc_1".to_owned(),
                username: "Ana".to_owned(),
                kind: TokenKind::Api,
                scopes: Scopes::ALL,
                expires: None,
            }));
        assert_eq!(key(&request).as_str(), "account:acc_1");
        assert!(key(&request).is_account());
        let mut anonymous = internal(with_metadata(CALLER_METADATA, "203.0.113.7"));
        anonymous.extensions_mut().insert(Caller::Anonymous);
        assert_eq!(key(&anonymous).as_str(), "203.0.113.7");
        assert!(!key(&anonymous).is_account());
    }

    #[test]
    fn without_a_usable_name_the_peer_or_nobody_is_the_caller() {
        // No peer address on a request built in memory: the one unknown key.
        assert_eq!(key(&Request::new(())), CallerKey::unknown());
        let garbage = internal(with_metadata(CALLER_METADATA, "anything-at-all"));
        assert_eq!(key(&garbage), CallerKey::unknown());
    }

    #[test]
    fn reads_every_unit_of_grpc_timeout() {
        let cases = [
            ("2H", Duration::from_secs(7200)),
            ("3M", Duration::from_secs(180)),
            ("30S", Duration::from_secs(30)),
            ("1500m", Duration::from_millis(1500)),
            ("250u", Duration::from_micros(250)),
            ("99999999n", Duration::from_nanos(99_999_999)),
        ];
        for (text, expected) in cases {
            assert_eq!(
                timeout(&with_metadata("grpc-timeout", text)),
                Some(expected),
                "{text}"
            );
        }
    }

    #[test]
    fn a_grpc_timeout_that_does_not_parse_is_none() {
        for text in ["", "S", "123456789S", "12s", "-1S", "1.5S", "ten S"] {
            assert_eq!(
                timeout(&with_metadata("grpc-timeout", text)),
                None,
                "{text}"
            );
        }
        assert_eq!(timeout(&Request::new(())), None);
    }

    #[test]
    fn what_a_tonic_client_sends_reads_back() {
        let mut request = Request::new(());
        request.set_timeout(Duration::from_millis(2500));
        assert_eq!(timeout(&request), Some(Duration::from_millis(2500)));
    }
}
