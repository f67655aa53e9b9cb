//! Tokens: how many random bytes they carry, what an API token may be named, when it may
//! expire, and when a session ends. Their kinds and scopes are the platform's auth vocabulary
//! and live with it, in [`crate::tokens`].

use std::time::{Duration, SystemTime};

use super::Invalid;

/// The random bytes in a token: 256 bits.
pub const TOKEN_BYTES: usize = 32;

/// The name an owner gives an API token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenName(String);

impl TokenName {
    /// The most characters of a name.
    pub const MAX_CHARS: usize = 100;

    /// Reads a name by the platform's one text rule for names (`kit::text`): not blank, 1 to
    /// 100 characters, no control or bidirectional formatting characters.
    pub fn parse(text: &str) -> Result<TokenName, Invalid> {
        if proto::text::check_name(text, Self::MAX_CHARS).is_err() {
            return Err(Invalid {
                field: "name",
                rule: "1 to 100 characters, not blank, no control or bidirectional formatting characters",
            });
        }
        Ok(TokenName(text.to_owned()))
    }

    /// Returns a name as stored: checked when it was given, perhaps under an older rule, and
    /// read back as it is so a tightened rule never hides a token from its owner.
    pub fn stored(text: String) -> TokenName {
        TokenName(text)
    }

    /// Returns the name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Returns the expiry of a new API token: none, or a time after `now`.
pub fn expire_time(
    given: Option<SystemTime>,
    now: SystemTime,
) -> Result<Option<SystemTime>, Invalid> {
    match given {
        Some(time) if time <= now => Err(Invalid {
            field: "expire_time",
            rule: "must be in the future (or absent: the token does not expire)",
        }),
        other => Ok(other),
    }
}

/// Returns when a session made at `now` ends, `ttl` later (the far future if that overflows).
pub fn session_expiry(now: SystemTime, ttl: Duration) -> SystemTime {
    now.checked_add(ttl)
        .unwrap_or_else(|| now + Duration::from_secs(100 * 365 * 86_400))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_names_are_1_to_100_characters_without_control_or_bidi_characters() {
        let table: [(&str, bool); 10] = [
            ("CI", true),
            ("my bot 🤖", true),
            (&"n".repeat(100), true),
            ("", false),
            (&"n".repeat(101), false),
            ("tab\there", false),
            ("line\n", false),
            ("nul\0", false),
            ("   ", false),
            ("evil\u{202E}txt.exe", false),
        ];
        for (name, ok) in table {
            assert_eq!(TokenName::parse(name).is_ok(), ok, "{name:?}");
        }
        assert_eq!(TokenName::parse("").expect_err("empty").field, "name");
    }

    #[test]
    fn a_token_needs_a_future_expiry_if_any() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        assert_eq!(expire_time(None, now), Ok(None));
        let later = now + Duration::from_secs(1);
        assert_eq!(expire_time(Some(later), now), Ok(Some(later)));
        for past in [now, now - Duration::from_secs(1)] {
            assert_eq!(
                expire_time(Some(past), now).expect_err("past").field,
                "expire_time"
            );
        }
    }

    #[test]
    fn a_session_ends_its_time_to_live_after_it_starts() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(10);
        let day = Duration::from_secs(86_400);
        assert_eq!(session_expiry(now, 30 * day), now + 30 * day);
        assert!(session_expiry(now, Duration::MAX) > now);
    }
}
