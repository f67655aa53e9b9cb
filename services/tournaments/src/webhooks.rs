//! Webhooks of a tournament: which events there are, which URLs may receive them, each hook's
//! secret and the signature of a delivery. Pure: the deliveries themselves are jobs of the
//! submission worker (`crate::delivery`).
//!
//! **Secrets.** A hook's secret is never stored: it is derived from the operator's webhook key
//! (`TURNIER_WEBHOOK_KEY`) and the hook's id, HMAC-SHA256, and shown to the organizer once,
//! when the hook is added. The tournaments service and every worker derive the same secret, so
//! nothing secret reaches the database or a log.
//!
//! **Signature.** `X-Turnier-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"
//! with the secret>`. A receiver recomputes it and refuses a timestamp outside its replay
//! window ([`verify`], five minutes by default).
//!
//! **Addresses.** Only `http` and `https` URLs, without credentials, to a host that is (and,
//! at each delivery, resolves to) a globally reachable address by the IANA special-purpose
//! registries ([`reach`]). Loopback, private-use, shared, unique-local and link-local
//! addresses are let through when the operator allows them (`TURNIER_WEBHOOK_ALLOW_PRIVATE`);
//! every other address that is not globally reachable is refused whatever the setting.

pub mod reach;

use std::net::IpAddr;

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Every event a hook may ask for, in the order they are listed.
pub const EVENTS: [&str; 5] = [
    "submission.checked",
    "round.paired",
    "match.reported",
    "standings.updated",
    "stage.advanced",
];

/// The most hooks one tournament keeps.
pub const MAX_HOOKS: usize = 10;

/// The longest URL a hook takes.
pub const MAX_URL_BYTES: usize = 2048;

/// The replay window a receiver should allow: a signature older (or newer) than this is
/// refused by [`verify`].
pub const REPLAY_WINDOW_SECS: i64 = 300;

/// The signature's header.
pub const SIGNATURE_HEADER: &str = "x-turnier-signature";

/// The webhook event of a live event of the tournament (`crate::service::Published::kind`):
/// a round paired, a result in any state, standings changed, a stage advanced or the final
/// placements.
pub fn event_of(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "pairings_published" => "round.paired",
        "result_reported" | "result_confirmed" | "result_disputed" | "result_final" => {
            "match.reported"
        }
        "standings_changed" => "standings.updated",
        "stage_advanced" | "tournament_finished" => "stage.advanced",
        _ => return None,
    })
}

/// What the operator set for webhooks: the key secrets are derived from (`None`: webhooks are
/// off) and whether private addresses may receive them (tests, a private deployment).
#[derive(Debug, Clone, Default)]
pub struct WebhookSettings {
    /// The key of every hook's secret.
    pub key: Option<WebhookKey>,
    /// Deliveries to loopback, private-use, shared, unique-local and link-local addresses
    /// ([`reach::Reach::Local`]) are allowed.
    pub allow_private: bool,
}

/// The body of a delivery: `{"id", "event", "tournament", "createTime", "data"}`.
pub fn body(
    id: &str,
    event: &str,
    tournament: &str,
    create_time: std::time::SystemTime,
    data: &serde_json::Value,
) -> String {
    let time = kit::timestamp::to_proto(create_time);
    serde_json::json!({
        "id": id,
        "event": event,
        "tournament": tournament,
        "createTime": proto::json::rfc3339(Some(&time)),
        "data": data,
    })
    .to_string()
}

/// Why a hook's URL or events were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HookError {
    /// The URL does not read, is not http(s), has credentials or no host.
    #[error("`{0}`")]
    BadUrl(String),
    /// The host is, or resolves to, a loopback, private or link-local address, and the
    /// operator did not allow them.
    #[error(
        "webhooks are not sent to loopback, private or link-local addresses ({0}): the operator \
         can allow them with TURNIER_WEBHOOK_ALLOW_PRIVATE"
    )]
    PrivateAddress(String),
    /// The host is, or resolves to, an address that is neither globally reachable nor local
    /// (documentation, reserved, multicast, a protocol's): never allowed.
    #[error(
        "webhooks are only sent to globally reachable addresses, and {address} is not \
         ({block}, IANA special-purpose address registry)"
    )]
    NotGlobal {
        /// The address.
        address: String,
        /// What decided it ([`reach::deciding_block`]).
        block: &'static str,
    },
    /// An event that is not one of [`EVENTS`].
    #[error("`{0}` is not an event (expected one of {events})", events = EVENTS.join(", "))]
    UnknownEvent(String),
}

/// Reads a hook's URL: `http(s)://host[:port]/path`, no credentials, at most
/// [`MAX_URL_BYTES`]; a literal address or `localhost` is checked against the address rule
/// here (a name is checked again when each delivery resolves it).
pub fn check_url(text: &str, allow_private: bool) -> Result<reqwest::Url, HookError> {
    let bad = |why: &str| HookError::BadUrl(why.to_owned());
    if text.len() > MAX_URL_BYTES {
        return Err(bad("the URL is longer than 2048 bytes"));
    }
    let url = reqwest::Url::parse(text).map_err(|err| HookError::BadUrl(err.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(bad("only http and https URLs receive webhooks"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad(
            "a webhook URL may not hold credentials: verify the signature instead",
        ));
    }
    let host = match url.host() {
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            if !allow_private && (name == "localhost" || name.ends_with(".localhost")) {
                return Err(HookError::PrivateAddress(name));
            }
            return Ok(url);
        }
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip),
        None => return Err(bad("the URL has no host")),
    };
    check_address(host, allow_private)?;
    Ok(url)
}

/// Refuses an address webhooks may not reach: one that is not globally reachable, unless it
/// is local and `allow_private`.
pub fn check_address(ip: IpAddr, allow_private: bool) -> Result<(), HookError> {
    match reach::reach(ip) {
        reach::Reach::Global => Ok(()),
        reach::Reach::Local if allow_private => Ok(()),
        reach::Reach::Local => Err(HookError::PrivateAddress(ip.to_string())),
        reach::Reach::Never => Err(HookError::NotGlobal {
            address: ip.to_string(),
            block: reach::deciding_block(ip),
        }),
    }
}

/// Reads a hook's events: none given means all of them; each must be one of [`EVENTS`];
/// answered in [`EVENTS`]' order without repeats.
pub fn check_events(events: &[String]) -> Result<Vec<String>, HookError> {
    if let Some(unknown) = events.iter().find(|e| !EVENTS.contains(&e.as_str())) {
        return Err(HookError::UnknownEvent(unknown.clone()));
    }
    Ok(EVENTS
        .iter()
        .filter(|event| events.is_empty() || events.iter().any(|e| e == *event))
        .map(|event| (*event).to_owned())
        .collect())
}

/// The operator's webhook key, from which every hook's secret is derived. Its `Debug` shows
/// nothing of it.
#[derive(Clone)]
pub struct WebhookKey(Vec<u8>);

impl std::fmt::Debug for WebhookKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WebhookKey(…)")
    }
}

/// The shortest key taken.
pub const MIN_KEY_BYTES: usize = 32;

impl WebhookKey {
    /// A key of at least [`MIN_KEY_BYTES`] bytes.
    pub fn new(key: &[u8]) -> Option<Self> {
        (key.len() >= MIN_KEY_BYTES).then(|| Self(key.to_vec()))
    }

    /// A new random key, as text: 64 hex digits (256 bits).
    pub fn generate() -> String {
        let mut bytes = [0_u8; 32];
        rand::RngCore::fill_bytes(&mut rand::rng(), &mut bytes);
        hex::encode(bytes)
    }

    /// The secret of hook `hook`: `whsec_` and 64 hex digits.
    pub fn secret(&self, hook: &str) -> String {
        format!("whsec_{}", hex::encode(mac(&self.0, hook.as_bytes())))
    }
}

fn mac(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut mac = hmac(key);
    mac.update(message);
    mac.finalize().into_bytes().into()
}

/// HMAC-SHA256 keyed with `key` (HMAC takes a key of any length).
fn hmac(key: &[u8]) -> Hmac<Sha256> {
    <Hmac<Sha256> as Mac>::new_from_slice(key).unwrap_or_else(|_| unreachable!())
}

/// What a signature covers: `"<timestamp>.<body>"`.
fn signed(timestamp: i64, body: &[u8]) -> Vec<u8> {
    let mut signed = format!("{timestamp}.").into_bytes();
    signed.extend_from_slice(body);
    signed
}

/// The `X-Turnier-Signature` value of `body` sent at `timestamp` (unix seconds) to a hook
/// whose secret is `secret`: `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`.
pub fn signature(secret: &str, timestamp: i64, body: &[u8]) -> String {
    let mac = mac(secret.as_bytes(), &signed(timestamp, body));
    format!("t={timestamp},v1={}", hex::encode(mac))
}

/// What a receiver does: whether `header` is a signature of `body` with `secret`, made within
/// `window_secs` of `now` (unix seconds). Compares in constant time.
pub fn verify(secret: &str, header: &str, body: &[u8], now: i64, window_secs: i64) -> bool {
    let mut timestamp = None;
    let mut given = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => timestamp = value.parse::<i64>().ok(),
            Some(("v1", value)) => given.extend(hex::decode(value).ok()),
            _ => {}
        }
    }
    let Some(timestamp) = timestamp else {
        return false;
    };
    if (now - timestamp).abs() > window_secs {
        return false;
    }
    let signed = signed(timestamp, body);
    given.iter().any(|candidate| {
        let mut mac = hmac(secret.as_bytes());
        mac.update(&signed);
        mac.verify_slice(candidate).is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_verifies_within_the_window_only_with_its_secret_and_body() {
        let key = WebhookKey::new(&[7; 32]).expect("long enough");
        let secret = key.secret("wh_1");
        assert!(secret.starts_with("whsec_") && secret.len() == 6 + 64);
        assert_eq!(secret, key.secret("wh_1"), "derived, so stable");
        assert_ne!(secret, key.secret("wh_2"));
        let header = signature(&secret, 1_700_000_000, b"{\"a\":1}");
        assert!(header.starts_with("t=1700000000,v1="));
        assert!(verify(&secret, &header, b"{\"a\":1}", 1_700_000_100, 300));
        assert!(!verify(&secret, &header, b"{\"a\":2}", 1_700_000_100, 300));
        assert!(!verify(
            &key.secret("wh_2"),
            &header,
            b"{\"a\":1}",
            1_700_000_100,
            300
        ));
        assert!(
            !verify(&secret, &header, b"{\"a\":1}", 1_700_000_301, 300),
            "a replay"
        );
        assert!(!verify(
            &secret,
            "t=1700000000",
            b"{\"a\":1}",
            1_700_000_000,
            300
        ));
        assert!(!verify(&secret, "garbage", b"", 0, 300));
        assert!(WebhookKey::new(&[1; 31]).is_none());
        assert_eq!(format!("{key:?}"), "WebhookKey(…)");
    }

    #[test]
    fn private_loopback_and_link_local_addresses_are_refused_unless_allowed() {
        for url in [
            "http://127.0.0.1:9000/hook",
            "http://10.1.2.3/",
            "http://172.16.0.1/",
            "http://192.168.1.1/",
            "http://169.254.169.254/latest/meta-data",
            "http://100.64.0.1/",
            "http://[::1]/",
            "http://[fe80::1]/",
            "http://[fd00::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://localhost:8080/",
            "http://api.localhost/",
        ] {
            assert!(
                matches!(check_url(url, false), Err(HookError::PrivateAddress(_))),
                "{url}"
            );
            assert!(check_url(url, true).is_ok(), "{url} when allowed");
        }
        for url in [
            "https://example.com/hooks/turnier",
            "http://93.184.216.34/",
            "https://[2606:4700::1111]/",
        ] {
            assert!(check_url(url, false).is_ok(), "{url}");
        }
        for url in [
            "ftp://example.com/",
            "file:///etc/passwd",
            "https://user:pass@example.com/",
            "not a url",
            "javascript:alert(1)",
        ] {
            assert!(
                matches!(check_url(url, true), Err(HookError::BadUrl(_))),
                "{url}"
            );
        }
    }

    #[test]
    fn addresses_that_are_not_globally_reachable_are_refused_even_when_private_ones_are_allowed() {
        for url in [
            // The probe's (issue 35): accepted and delivered to before.
            "http://192.0.0.170/",
            "http://192.0.0.1/",
            "http://[::127.0.0.1]/",
            "http://[64:ff9b::7f00:1]/",
            "http://[2002:7f00:1::]/",
            "http://[fec0::1]/",
            // More of the registries' blocks, and what is in none of them.
            "http://0.0.0.0/",
            "http://192.0.2.1/",
            "http://198.18.0.1/",
            "http://240.0.0.1/",
            "http://255.255.255.255/",
            "http://224.0.0.1/",
            "http://[::]/",
            "http://[2001:db8::1]/",
            "http://[3fff::1]/",
            "http://[5f00::1]/",
            "http://[64:ff9b:1::808:808]/",
            "http://[100::1]/",
            "http://[2001::1]/",
            "http://[ff02::1]/",
            "http://[::ffff:192.0.0.170]/",
        ] {
            for allow_private in [false, true] {
                assert!(
                    matches!(
                        check_url(url, allow_private),
                        Err(HookError::NotGlobal { .. })
                    ),
                    "{url} (private allowed: {allow_private})"
                );
            }
        }
        let refused = check_url("http://192.0.0.170/", false).expect_err("refused");
        assert_eq!(
            refused.to_string(),
            "webhooks are only sent to globally reachable addresses, and 192.0.0.170 is not \
             (NAT64/DNS64 Discovery, IANA special-purpose address registry)"
        );
        for url in [
            "http://8.8.8.8/",
            "http://1.1.1.1/",
            "http://192.0.0.9/",
            "https://[2606:4700::1111]/",
            "https://[2001:4860:4860::8888]/",
            "http://[64:ff9b::808:808]/",
        ] {
            assert!(check_url(url, false).is_ok(), "{url}");
        }
    }

    #[test]
    fn events_default_to_all_and_keep_their_order() {
        assert_eq!(check_events(&[]).expect("all"), EVENTS);
        assert_eq!(
            check_events(&["stage.advanced".into(), "round.paired".into()]).expect("two"),
            ["round.paired", "stage.advanced"]
        );
        assert_eq!(
            check_events(&["round.started".into()]),
            Err(HookError::UnknownEvent("round.started".into()))
        );
        assert_eq!(event_of("result_disputed"), Some("match.reported"));
        assert_eq!(event_of("round_timer"), None);
    }
}
