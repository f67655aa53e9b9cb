//! Usernames: how people name their account, kept as typed, unique without regard to case.

use std::fmt;

use super::Invalid;

/// The rule, as an error states it.
const RULE: &str =
    "3 to 32 characters: ASCII letters, digits, `_` or `-`, starting with a letter or digit";

/// A valid username, as typed at sign-up (`Ana` stays `Ana`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Username(String);

impl Username {
    /// The fewest characters of a username.
    pub const MIN_CHARS: usize = 3;
    /// The most characters of a username.
    pub const MAX_CHARS: usize = 32;

    /// Reads a username: 3–32 ASCII letters (either case), digits, `_` or `-`, starting with a
    /// letter or digit. Nothing is trimmed or changed.
    pub fn parse(text: &str) -> Result<Username, Invalid> {
        let invalid = Invalid {
            field: "username",
            rule: RULE,
        };
        let bytes = text.as_bytes();
        let allowed = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-';
        // Every allowed character is one byte, so bytes count characters here.
        if !(Self::MIN_CHARS..=Self::MAX_CHARS).contains(&bytes.len())
            || !bytes.iter().all(allowed)
            || !bytes[0].is_ascii_alphanumeric()
        {
            return Err(invalid);
        }
        Ok(Username(text.to_owned()))
    }

    /// Returns the username as typed.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Returns the key that makes names unique without regard to case (`ana` for `Ana`).
    pub fn key(&self) -> String {
        key_of(&self.0)
    }
}

/// Returns the case-free key of any text a caller gives as a username (a sign-in or a profile
/// lookup need not be a valid username to be looked up: it just finds nothing).
pub fn key_of(text: &str) -> String {
    text.to_ascii_lowercase()
}

impl fmt::Display for Username {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_names_within_the_rule_and_keeps_them_as_typed() {
        for good in ["Ana", "ana", "a_b", "9lives", "Z-z_9", &"x".repeat(32)] {
            let name = Username::parse(good).expect(good);
            assert_eq!(name.as_str(), good);
        }
        assert_eq!(Username::parse("AnA").expect("valid").key(), "ana");
    }

    #[test]
    fn refuses_names_outside_the_rule() {
        for bad in [
            "",
            "ab",
            "_ana",
            "-ana",
            "an a",
            "ana!",
            "Åsa",
            "ana\n",
            " ana",
            &"x".repeat(33),
        ] {
            let err = Username::parse(bad).expect_err(bad);
            assert_eq!(err.field, "username", "{bad:?}");
        }
    }
}
