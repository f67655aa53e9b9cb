//! The value shapes a format is written with: codes, card identifiers, names and copy limits.
//!
//! Each type here can only hold a value of its documented shape (`spec/formats-and-rules.md`,
//! "Value | Shape"). Which field a bad value came from is added by the caller, in
//! [`super::InvalidDeck`].

use std::fmt;

use serde::{Serialize, Serializer};

/// Why a text is not of the shape its value needs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// The text has fewer than one or more than `max` characters.
    #[error("must be 1 to {max} characters long, found {found}")]
    Length {
        /// The most characters the value may have.
        max: usize,
        /// How many characters the text has.
        found: usize,
    },
    /// The first character is not a letter or a digit.
    #[error("must start with a {allowed}, found `{}`", .found.escape_debug())]
    First {
        /// What the value may start with.
        allowed: &'static str,
        /// The character it starts with.
        found: char,
    },
    /// A character outside the value's alphabet.
    #[error("may hold only {allowed}, found `{}`", .found.escape_debug())]
    Character {
        /// The alphabet of the value, in words.
        allowed: &'static str,
        /// The first character outside it.
        found: char,
    },
    /// A name holds a control character.
    #[error("must not hold control characters, found `{}`", .0.escape_debug())]
    Control(char),
    /// A name starts or ends with white space.
    #[error("must not start or end with a space")]
    SurroundingSpace,
}

/// The most characters of a format or taboo-list code.
pub const MAX_CODE_CHARS: usize = 64;
/// The most characters of a card or deck identifier.
pub const MAX_ID_CHARS: usize = 255;
/// The most characters of a name.
pub const MAX_NAME_CHARS: usize = 200;

const CODE_FIRST: &str = "lower-case letter or a digit";
const CODE_ALPHABET: &str = "lower-case letters, digits, `_`, `.` and `-`";
const ID_FIRST: &str = "letter or a digit";
const ID_ALPHABET: &str = "ASCII letters, digits, `_`, `.`, `:`, `/` and `-`";

/// Checks the shape of a format or taboo-list code: 1 to 64 lower-case letters, digits, `_`,
/// `.` or `-`, starting with a letter or a digit.
fn check_code(text: &str) -> Result<(), ShapeError> {
    // Every allowed character is ASCII, so a byte count is a character count once the
    // alphabet is checked; the length is checked on characters so the message is right.
    let first = text.chars().next();
    let found = text.chars().count();
    if first.is_none() || found > MAX_CODE_CHARS {
        return Err(ShapeError::Length {
            max: MAX_CODE_CHARS,
            found,
        });
    }
    check_alphabet(
        text,
        |c| c.is_ascii_lowercase() || c.is_ascii_digit(),
        |c| matches!(c, '_' | '.' | '-'),
        CODE_FIRST,
        CODE_ALPHABET,
    )
}

/// Checks the shape of a card or deck identifier: 1 to 255 ASCII letters, digits, `_`, `.`,
/// `:`, `/` or `-`, starting with a letter or a digit.
fn check_id(text: &str) -> Result<(), ShapeError> {
    let found = text.chars().count();
    if found == 0 || found > MAX_ID_CHARS {
        return Err(ShapeError::Length {
            max: MAX_ID_CHARS,
            found,
        });
    }
    check_alphabet(
        text,
        |c| c.is_ascii_alphanumeric(),
        |c| matches!(c, '_' | '.' | ':' | '/' | '-'),
        ID_FIRST,
        ID_ALPHABET,
    )
}

fn check_alphabet(
    text: &str,
    alphanumeric: impl Fn(char) -> bool,
    punctuation: impl Fn(char) -> bool,
    first_allowed: &'static str,
    allowed: &'static str,
) -> Result<(), ShapeError> {
    let mut chars = text.chars();
    if let Some(first) = chars.next()
        && !alphanumeric(first)
    {
        return Err(ShapeError::First {
            allowed: first_allowed,
            found: first,
        });
    }
    match chars.find(|&c| !alphanumeric(c) && !punctuation(c)) {
        Some(found) => Err(ShapeError::Character { allowed, found }),
        None => Ok(()),
    }
}

/// Checks the shape of a name: 1 to 200 characters, no control characters, no white space at
/// either end.
fn check_name(text: &str) -> Result<(), ShapeError> {
    let found = text.chars().count();
    if found == 0 || found > MAX_NAME_CHARS {
        return Err(ShapeError::Length {
            max: MAX_NAME_CHARS,
            found,
        });
    }
    if let Some(control) = text.chars().find(|c| c.is_control()) {
        return Err(ShapeError::Control(control));
    }
    // "Surrounding spaces" read as any white space, so a no-break space is refused too.
    if text.starts_with(char::is_whitespace) || text.ends_with(char::is_whitespace) {
        return Err(ShapeError::SurroundingSpace);
    }
    Ok(())
}

macro_rules! text_value {
    ($(#[$doc:meta])* $name:ident, $check:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(String);

        impl $name {
            /// Parses a text of this value's shape.
            pub fn parse(text: &str) -> Result<Self, ShapeError> {
                $check(text)?;
                Ok(Self(text.to_owned()))
            }

            /// Returns the text of this value.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl TryFrom<&str> for $name {
            type Error = ShapeError;

            fn try_from(text: &str) -> Result<Self, ShapeError> {
                Self::parse(text)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.0)
            }
        }
    };
}

text_value!(
    /// The code of a format: 1 to 64 lower-case letters, digits, `_`, `.` or `-`, starting with
    /// a letter or a digit.
    FormatCode,
    check_code
);
text_value!(
    /// The code of a taboo list, of the same shape as a [`FormatCode`].
    TabooListCode,
    check_code
);
text_value!(
    /// The identifier of a card: 1 to 255 ASCII letters, digits, `_`, `.`, `:`, `/` or `-`,
    /// starting with a letter or a digit.
    CardId,
    check_id
);
text_value!(
    /// A name shown to people: 1 to 200 characters of UTF-8, without control characters or
    /// white space at either end.
    Name,
    check_name
);

/// The copies allowed of one card, 1 to 999.
///
/// Used for a format's `copies`, for each restriction and for a card's own limit, which all share
/// this range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CopyLimit(u16);

impl CopyLimit {
    /// The fewest copies a limit allows.
    pub const MIN: u16 = 1;
    /// The most copies a limit allows, and a format's `copies` when it sets none.
    pub const MAX: u16 = 999;

    /// Returns the limit of `copies`, or `None` outside 1 to 999.
    pub fn new(copies: u64) -> Option<Self> {
        u16::try_from(copies)
            .ok()
            .filter(|c| (Self::MIN..=Self::MAX).contains(c))
            .map(Self)
    }

    /// Returns the number of copies allowed.
    pub fn get(self) -> u16 {
        self.0
    }
}

impl Default for CopyLimit {
    /// Returns 999, the copies a format allows when it sets none.
    fn default() -> Self {
        Self(Self::MAX)
    }
}

impl fmt::Display for CopyLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for CopyLimit {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u16(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_of_one_to_sixty_four_characters_is_accepted() {
        assert!(FormatCode::parse("a").is_ok());
        assert!(FormatCode::parse(&"a".repeat(64)).is_ok());
        assert!(TabooListCode::parse(&"9".repeat(64)).is_ok());
    }

    #[test]
    fn a_code_of_zero_or_sixty_five_characters_is_refused() {
        assert_eq!(
            FormatCode::parse(""),
            Err(ShapeError::Length { max: 64, found: 0 })
        );
        assert_eq!(
            TabooListCode::parse(&"a".repeat(65)),
            Err(ShapeError::Length { max: 64, found: 65 })
        );
    }

    #[test]
    fn a_code_holds_lower_case_letters_digits_underscores_dots_and_dashes() {
        assert!(FormatCode::parse("league_2026.v1-b").is_ok());
        assert!(FormatCode::parse("0league").is_ok());
        for bad in [
            "League", "lea gue", "le:ague", "le/ague", "léague", "lea+gue",
        ] {
            assert!(
                matches!(
                    FormatCode::parse(bad),
                    Err(ShapeError::Character { .. } | ShapeError::First { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_code_starts_with_a_letter_or_a_digit() {
        for bad in ["_league", ".league", "-league"] {
            assert!(
                matches!(FormatCode::parse(bad), Err(ShapeError::First { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_card_id_of_one_to_two_hundred_fifty_five_characters_is_accepted() {
        assert!(CardId::parse("x").is_ok());
        assert!(CardId::parse(&"x".repeat(255)).is_ok());
        assert_eq!(
            CardId::parse(&"x".repeat(256)),
            Err(ShapeError::Length {
                max: 255,
                found: 256
            })
        );
        assert_eq!(
            CardId::parse(""),
            Err(ShapeError::Length { max: 255, found: 0 })
        );
    }

    #[test]
    fn a_card_id_holds_ascii_letters_digits_and_five_punctuation_marks() {
        assert!(CardId::parse("Set1:Storm_Call/2.b-x").is_ok());
        for bad in ["storm call", "storm+call", "stórm", "storm\u{0}"] {
            assert!(
                matches!(CardId::parse(bad), Err(ShapeError::Character { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_card_id_starts_with_a_letter_or_a_digit() {
        assert!(CardId::parse("01-storm").is_ok());
        for bad in ["_x", ".x", ":x", "/x", "-x"] {
            assert!(
                matches!(CardId::parse(bad), Err(ShapeError::First { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_name_of_one_to_two_hundred_characters_is_accepted_counting_characters_not_bytes() {
        assert!(Name::parse("L").is_ok());
        assert!(Name::parse(&"é".repeat(200)).is_ok());
        assert_eq!(
            Name::parse(&"é".repeat(201)),
            Err(ShapeError::Length {
                max: 200,
                found: 201
            })
        );
        assert_eq!(
            Name::parse(""),
            Err(ShapeError::Length { max: 200, found: 0 })
        );
    }

    #[test]
    fn a_name_refuses_control_characters() {
        assert_eq!(Name::parse("Storm\nCall"), Err(ShapeError::Control('\n')));
        assert_eq!(
            Name::parse("Storm\u{7f}"),
            Err(ShapeError::Control('\u{7f}'))
        );
    }

    #[test]
    fn a_name_refuses_surrounding_spaces_but_not_inner_ones() {
        assert!(Name::parse("Storm Call").is_ok());
        assert_eq!(Name::parse(" Storm"), Err(ShapeError::SurroundingSpace));
        assert_eq!(Name::parse("Storm "), Err(ShapeError::SurroundingSpace));
        assert_eq!(
            Name::parse("Storm\u{a0}"),
            Err(ShapeError::SurroundingSpace)
        );
    }

    #[test]
    fn a_copy_limit_is_one_to_nine_hundred_ninety_nine() {
        assert_eq!(CopyLimit::new(0), None);
        assert_eq!(CopyLimit::new(1).map(CopyLimit::get), Some(1));
        assert_eq!(CopyLimit::new(999).map(CopyLimit::get), Some(999));
        assert_eq!(CopyLimit::new(1000), None);
        assert_eq!(CopyLimit::new(u64::MAX), None);
    }
}
