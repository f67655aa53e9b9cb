//! A calculator people own: its name, visibility, the switch that hides it from deck views,
//! and its source (every change of source a new version).

use std::time::SystemTime;

use proto::game::Game;

/// The most characters of a calculator's name.
pub const MAX_NAME_CHARS: usize = 100;
/// The most bytes of a calculator's source.
pub const MAX_SOURCE_BYTES: usize = 256 * 1024;

/// Why a calculator cannot be saved as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CalculatorError {
    /// A name that is blank, too long or holds control characters.
    #[error("`name`: {0}")]
    InvalidName(&'static str),
    /// A source over the size limit.
    #[error("`source`: at most {MAX_SOURCE_BYTES} bytes (found {0})")]
    SourceTooLarge(usize),
}

/// A calculator's name: 1 to 100 characters, not blank, no control characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalculatorName(String);

impl CalculatorName {
    /// Reads a name as typed.
    pub fn parse(name: &str) -> Result<CalculatorName, CalculatorError> {
        if name.trim().is_empty() {
            return Err(CalculatorError::InvalidName("give a name"));
        }
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(CalculatorError::InvalidName("at most 100 characters"));
        }
        if name.chars().any(char::is_control) {
            return Err(CalculatorError::InvalidName("no control characters"));
        }
        Ok(CalculatorName(name.to_owned()))
    }

    /// Returns the name as typed.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Checks a source's size.
pub fn check_source(source: &str) -> Result<(), CalculatorError> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(CalculatorError::SourceTooLarge(source.len()));
    }
    Ok(())
}

/// A calculator saved on an account, with the source of its latest version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Calculator {
    /// Opaque and stable (`calc_…`).
    pub id: String,
    /// Its game.
    pub game: Game,
    /// The owning account's id.
    pub owner: String,
    /// The owner's username, as typed at sign-up.
    pub owner_name: String,
    /// Its name.
    pub name: CalculatorName,
    /// Whether anyone may see it (and it shows on the owner's profile).
    pub public: bool,
    /// Whether it shows in deck views.
    pub enabled: bool,
    /// Its latest version.
    pub version: u32,
    /// The latest version's source.
    pub source: String,
    /// When it was created.
    pub create_time: SystemTime,
    /// When it last changed.
    pub update_time: SystemTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_sources_keep_to_their_limits() {
        assert!(CalculatorName::parse("Starter check").is_ok());
        assert_eq!(
            CalculatorName::parse(" "),
            Err(CalculatorError::InvalidName("give a name"))
        );
        assert_eq!(
            CalculatorName::parse("a\u{7}"),
            Err(CalculatorError::InvalidName("no control characters"))
        );
        assert!(check_source(&"x".repeat(MAX_SOURCE_BYTES)).is_ok());
        assert_eq!(
            check_source(&"x".repeat(MAX_SOURCE_BYTES + 1)),
            Err(CalculatorError::SourceTooLarge(MAX_SOURCE_BYTES + 1))
        );
    }
}
