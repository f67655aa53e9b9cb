//! Passwords: what people sign in with. Never printed: [`Password`]'s `Debug` hides it.

use std::fmt;

use super::Invalid;

/// A password a caller gave. Its `Debug` shows nothing of it, so it may sit in anything logged.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    /// The fewest characters of a new password.
    pub const MIN_CHARS: usize = 10;
    /// The most characters of any password.
    pub const MAX_CHARS: usize = 1024;

    /// Reads a new password (sign-up): 10 to 1,024 characters (not bytes).
    pub fn parse(text: String) -> Result<Password, Invalid> {
        let chars = text.chars().take(Self::MAX_CHARS + 1).count();
        if !(Self::MIN_CHARS..=Self::MAX_CHARS).contains(&chars) {
            return Err(too_short_or_long());
        }
        Ok(Password(text))
    }

    /// Reads a password given to sign in: at most 1,024 characters, so the hash of a huge one
    /// is never computed. A short one is not refused here: it simply does not match.
    pub fn parse_for_sign_in(text: String) -> Result<Password, Invalid> {
        if text.chars().take(Self::MAX_CHARS + 1).count() > Self::MAX_CHARS {
            return Err(too_short_or_long());
        }
        Ok(Password(text))
    }

    /// Returns the password's bytes, to hash or verify: never log them.
    pub fn expose(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

fn too_short_or_long() -> Invalid {
    Invalid {
        field: "password",
        rule: "10 to 1,024 characters",
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_characters_not_bytes() {
        // Ten characters, twenty bytes.
        assert!(Password::parse("é".repeat(10)).is_ok());
        assert!(Password::parse("é".repeat(9)).is_err());
        // 1,024 characters, 4,096 bytes.
        assert!(Password::parse("🂡".repeat(1024)).is_ok());
        assert!(Password::parse("a".repeat(1025)).is_err());
    }

    #[test]
    fn refuses_short_and_long_passwords_naming_the_field() {
        for bad in [String::new(), "123456789".to_owned(), "x".repeat(1025)] {
            assert_eq!(Password::parse(bad).expect_err("bad").field, "password");
        }
        assert!(Password::parse_for_sign_in("short".to_owned()).is_ok());
        assert!(Password::parse_for_sign_in("x".repeat(1025)).is_err());
    }

    #[test]
    fn never_prints_itself() {
        let password = Password::parse("correct horse battery".to_owned()).expect("valid");
        assert_eq!(format!("{password:?}"), "Password(…)");
    }
}
