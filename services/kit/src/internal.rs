//! Which calls are our own: the deployment's internal key, which every call one of our
//! processes makes carries (`crate::client::traced` channels add it) and no third party knows.
//! A service believes the client address such a call names and does not count it against the
//! limits again (`crate::caller`, `crate::limits`). The key is random per process in the
//! all-in-one (its clients and servers share the process) and `TURNIER_INTERNAL_KEY` in a
//! split deployment ([`use_internal_key`]).

use std::sync::OnceLock;

use tonic::metadata::MetadataValue;

/// The metadata key of the deployment's internal key: present and right on the calls our own
/// processes make, so a service believes what they name and does not count them again.
pub const INTERNAL_METADATA: &str = "x-turnier-internal";

/// The deployment's internal key, set once per process.
static INTERNAL_KEY: OnceLock<String> = OnceLock::new();

/// Sets the key this process's internal calls carry and its servers accept: `configured`
/// (`TURNIER_INTERNAL_KEY`, shared by every process of a split deployment), else a random one
/// of this process's own (the all-in-one). Returns `false` when the key was already set (a
/// process sets it once, before it serves).
pub fn use_internal_key(configured: Option<&str>) -> bool {
    let key = configured.map_or_else(random_key, str::to_owned);
    INTERNAL_KEY.set(key).is_ok()
}

fn internal_key() -> &'static str {
    INTERNAL_KEY.get_or_init(random_key)
}

fn random_key() -> String {
    use rand::RngCore as _;
    let mut bytes = [0_u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Marks a call as made by one of our own processes (what [`crate::client::traced`] channels
/// do to every call).
pub fn mark_internal(metadata: &mut tonic::metadata::MetadataMap) {
    if let Ok(value) = MetadataValue::try_from(internal_key()) {
        metadata.insert(INTERNAL_METADATA, value);
    }
}

/// Returns whether a request with `headers` was made by one of our own processes: it carries
/// the internal key (compared in constant time, so its bytes cannot be guessed one by one).
pub fn is_internal(headers: &http::HeaderMap) -> bool {
    let Some(sent) = headers.get(INTERNAL_METADATA) else {
        return false;
    };
    let (sent, key) = (sent.as_bytes(), internal_key().as_bytes());
    sent.len() == key.len() && sent.iter().zip(key).fold(0_u8, |acc, (a, b)| acc | (a ^ b)) == 0
}
