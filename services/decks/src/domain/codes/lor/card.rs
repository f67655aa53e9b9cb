//! Legends of Runeterra card codes (`01DE123`) and their factions.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::domain::codes::DeckCodeError;

/// A Legends of Runeterra region, as the deck code numbers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Faction {
    /// `DE`, id 0.
    Demacia,
    /// `FR`, id 1.
    Freljord,
    /// `IO`, id 2.
    Ionia,
    /// `NX`, id 3.
    Noxus,
    /// `PZ`, id 4.
    PiltoverZaun,
    /// `SI`, id 5.
    ShadowIsles,
    /// `BW`, id 6, from version 2.
    Bilgewater,
    /// `SH`, id 7, from version 3.
    Shurima,
    /// `MT`, id 9, from version 2.
    Targon,
    /// `BC`, id 10, from version 4.
    BandleCity,
    /// `RU`, id 12, from version 5.
    Runeterra,
}

impl Faction {
    /// Every faction, in id order.
    pub const ALL: [Faction; 11] = [
        Faction::Demacia,
        Faction::Freljord,
        Faction::Ionia,
        Faction::Noxus,
        Faction::PiltoverZaun,
        Faction::ShadowIsles,
        Faction::Bilgewater,
        Faction::Shurima,
        Faction::Targon,
        Faction::BandleCity,
        Faction::Runeterra,
    ];

    /// Returns the two letters the card code uses.
    pub fn code(self) -> &'static str {
        self.row().0
    }

    /// Returns the id the deck code writes.
    pub fn id(self) -> u64 {
        self.row().1
    }

    /// Returns the first deck-code version that knows this faction.
    pub fn version(self) -> u8 {
        self.row().2
    }

    /// Returns the faction with this deck-code id.
    pub fn from_id(id: u64) -> Result<Self, DeckCodeError> {
        Self::ALL
            .into_iter()
            .find(|f| f.id() == id)
            .ok_or(DeckCodeError::UnknownFaction(id))
    }

    /// Returns the faction with these two card-code letters.
    pub fn from_code(code: &str) -> Result<Self, DeckCodeError> {
        Self::ALL
            .into_iter()
            .find(|f| f.code() == code)
            .ok_or_else(|| DeckCodeError::UnknownFactionCode(code.to_owned()))
    }

    // The faction table of Riot's LoRDeckCodes README: letters, id, version that introduced it.
    // Ids 8 and 11 were never assigned.
    fn row(self) -> (&'static str, u64, u8) {
        match self {
            Faction::Demacia => ("DE", 0, 1),
            Faction::Freljord => ("FR", 1, 1),
            Faction::Ionia => ("IO", 2, 1),
            Faction::Noxus => ("NX", 3, 1),
            Faction::PiltoverZaun => ("PZ", 4, 1),
            Faction::ShadowIsles => ("SI", 5, 1),
            Faction::Bilgewater => ("BW", 6, 2),
            Faction::Shurima => ("SH", 7, 3),
            Faction::Targon => ("MT", 9, 2),
            Faction::BandleCity => ("BC", 10, 4),
            Faction::Runeterra => ("RU", 12, 5),
        }
    }
}

/// A Legends of Runeterra card code: two set digits, two faction letters, three number digits.
///
/// Serialises as its text, e.g. `"01DE123"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct LorCardCode {
    /// The set, 0 to 99.
    set: u8,
    faction: Faction,
    /// The number within set and faction, 0 to 999.
    number: u16,
}

impl LorCardCode {
    /// Builds a card code, failing when `set` needs more than two digits or `number` more
    /// than three.
    pub fn from_parts(set: u64, faction: Faction, number: u64) -> Result<Self, DeckCodeError> {
        let set =
            u8::try_from(set)
                .ok()
                .filter(|s| *s <= 99)
                .ok_or(DeckCodeError::FieldOutOfRange {
                    field: "set",
                    value: set,
                })?;
        let number = u16::try_from(number).ok().filter(|n| *n <= 999).ok_or(
            DeckCodeError::FieldOutOfRange {
                field: "card number",
                value: number,
            },
        )?;
        Ok(Self {
            set,
            faction,
            number,
        })
    }

    /// Returns the set number.
    pub fn set(&self) -> u8 {
        self.set
    }

    /// Returns the faction.
    pub fn faction(&self) -> Faction {
        self.faction
    }

    /// Returns the card number within its set and faction.
    pub fn number(&self) -> u16 {
        self.number
    }

    /// Returns the order of the card-code text, which the encoder sorts by.
    pub(super) fn text_order(&self) -> (u8, &'static str, u16) {
        (self.set, self.faction.code(), self.number)
    }
}

impl fmt::Display for LorCardCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:02}{}{:03}",
            self.set,
            self.faction.code(),
            self.number
        )
    }
}

impl FromStr for LorCardCode {
    type Err = DeckCodeError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let invalid = || DeckCodeError::InvalidCardCode(text.to_owned());
        let bytes = text.as_bytes();
        if bytes.len() != 7 {
            return Err(invalid());
        }
        let (set, faction, number) = (&bytes[0..2], &bytes[2..4], &bytes[4..7]);
        if !set.iter().chain(number).all(u8::is_ascii_digit)
            || !faction.iter().all(u8::is_ascii_uppercase)
        {
            return Err(invalid());
        }
        let digits = |part: &[u8]| part.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
        // Checked above: the faction bytes are ASCII letters, so they are valid UTF-8.
        let faction = Faction::from_code(&text[2..4])?;
        Self::from_parts(digits(set), faction, digits(number))
    }
}

impl TryFrom<String> for LorCardCode {
    type Error = DeckCodeError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<LorCardCode> for String {
    fn from(card: LorCardCode) -> Self {
        card.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_a_card_code() {
        let card: LorCardCode = "01DE123".parse().expect("valid code");
        assert_eq!(
            (card.set(), card.faction(), card.number()),
            (1, Faction::Demacia, 123)
        );
        assert_eq!(card.to_string(), "01DE123");
    }

    #[test]
    fn knows_every_faction_by_letters_and_id() {
        for faction in Faction::ALL {
            assert_eq!(Faction::from_code(faction.code()), Ok(faction));
            assert_eq!(Faction::from_id(faction.id()), Ok(faction));
        }
        assert_eq!(Faction::from_id(8), Err(DeckCodeError::UnknownFaction(8)));
    }

    #[test]
    fn rejects_malformed_card_codes() {
        for text in [
            "01DE02", "01DE0022", "0XDE002", "01de002", "01DE00A", "", "01DÉ02",
        ] {
            assert_eq!(
                text.parse::<LorCardCode>(),
                Err(DeckCodeError::InvalidCardCode(text.to_owned())),
                "{text}"
            );
        }
        assert_eq!(
            "01XX002".parse::<LorCardCode>(),
            Err(DeckCodeError::UnknownFactionCode("XX".to_owned()))
        );
    }

    #[test]
    fn rejects_parts_that_do_not_fit_the_card_code_text() {
        assert_eq!(
            LorCardCode::from_parts(100, Faction::Ionia, 1),
            Err(DeckCodeError::FieldOutOfRange {
                field: "set",
                value: 100
            })
        );
        assert_eq!(
            LorCardCode::from_parts(1, Faction::Ionia, 1000),
            Err(DeckCodeError::FieldOutOfRange {
                field: "card number",
                value: 1000
            })
        );
    }
}
