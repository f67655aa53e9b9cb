//! A calculator people own: its name, visibility, the switch that hides it from deck views,
//! and its source (every change of source a new version).

use std::time::SystemTime;

use proto::game::Game;

/// The most characters of a calculator's name.
pub const MAX_NAME_CHARS: usize = 100;
/// The most bytes of a calculator's source.
pub const MAX_SOURCE_BYTES: usize = 256 * 1024;

/// The prefix of every calculator's id (`calc_…`).
pub const ID_PREFIX: &str = "calc_";

/// Why a calculator cannot be saved as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CalculatorError {
    /// A name that breaks the platform's text rule (`kit::text`): blank, too long, or holding
    /// a control or bidirectional formatting character.
    #[error("`name`: {0}")]
    InvalidName(proto::text::Problem),
    /// A source over the size limit.
    #[error("`source`: at most {MAX_SOURCE_BYTES} bytes (found {0})")]
    SourceTooLarge(usize),
    /// A source holding text that cannot be stored (a NUL).
    #[error("`source`: {0}")]
    InvalidSource(proto::text::Problem),
}

impl CalculatorError {
    /// Returns the request field at fault.
    pub fn field(&self) -> &'static str {
        match self {
            CalculatorError::InvalidName(_) => "name",
            CalculatorError::SourceTooLarge(_) | CalculatorError::InvalidSource(_) => "source",
        }
    }
}

/// A calculator's name by the platform's text rule for names (`kit::text`): 1 to 100
/// characters, not blank, no control or bidirectional formatting characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalculatorName(String);

impl CalculatorName {
    /// Reads a name as typed.
    pub fn parse(name: &str) -> Result<CalculatorName, CalculatorError> {
        proto::text::check_name(name, MAX_NAME_CHARS).map_err(CalculatorError::InvalidName)?;
        Ok(CalculatorName(name.to_owned()))
    }

    /// Returns a name as stored: checked when it was given, perhaps under an older rule, and
    /// read back as it is so a tightened rule never hides a calculator from its owner.
    pub fn stored(name: String) -> CalculatorName {
        CalculatorName(name)
    }

    /// Returns the name as typed.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Checks a source's size, and that it holds nothing the database cannot store (`kit::text`).
pub fn check_source(source: &str) -> Result<(), CalculatorError> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(CalculatorError::SourceTooLarge(source.len()));
    }
    proto::text::check_free_text(source).map_err(CalculatorError::InvalidSource)
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
    use proto::text::Problem;

    use super::*;

    #[test]
    fn names_and_sources_keep_to_their_limits() {
        assert!(CalculatorName::parse("Starter check").is_ok());
        assert_eq!(
            CalculatorName::parse(" "),
            Err(CalculatorError::InvalidName(Problem::Blank))
        );
        assert_eq!(
            CalculatorName::parse("a\u{7}"),
            Err(CalculatorError::InvalidName(Problem::Control('\u{7}')))
        );
        assert_eq!(
            CalculatorName::parse("a\u{202E}"),
            Err(CalculatorError::InvalidName(Problem::Bidi('\u{202E}')))
        );
        assert_eq!(
            check_source("// \0"),
            Err(CalculatorError::InvalidSource(Problem::Nul))
        );
        assert!(check_source(&"x".repeat(MAX_SOURCE_BYTES)).is_ok());
        assert_eq!(
            check_source(&"x".repeat(MAX_SOURCE_BYTES + 1)),
            Err(CalculatorError::SourceTooLarge(MAX_SOURCE_BYTES + 1))
        );
    }
}
