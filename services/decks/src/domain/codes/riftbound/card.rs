//! Riftbound card codes as the Piltover Archive code writes them: `OGN-007a`, `SFD-R02`,
//! `VEN-SP1`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::domain::codes::DeckCodeError;

/// A Riftbound set, as the Piltover Archive code numbers it (a raw byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RiftboundSet {
    /// `OGN`, Origins, id 0.
    Origins,
    /// `OGS`, Proving Grounds, id 1.
    ProvingGrounds,
    /// `ARC`, Arcane Box Set, id 2.
    Arcane,
    /// `SFD`, Spiritforged, id 3.
    Spiritforged,
    /// `UNL`, Unleashed, id 4.
    Unleashed,
    /// `VEN`, Vendetta, id 5.
    Vendetta,
    /// `RAD`, Radiance, id 6.
    Radiance,
}

impl RiftboundSet {
    /// Every set, in id order.
    pub const ALL: [RiftboundSet; 7] = [
        RiftboundSet::Origins,
        RiftboundSet::ProvingGrounds,
        RiftboundSet::Arcane,
        RiftboundSet::Spiritforged,
        RiftboundSet::Unleashed,
        RiftboundSet::Vendetta,
        RiftboundSet::Radiance,
    ];

    /// Returns the three-letter set code.
    pub fn code(self) -> &'static str {
        match self {
            RiftboundSet::Origins => "OGN",
            RiftboundSet::ProvingGrounds => "OGS",
            RiftboundSet::Arcane => "ARC",
            RiftboundSet::Spiritforged => "SFD",
            RiftboundSet::Unleashed => "UNL",
            RiftboundSet::Vendetta => "VEN",
            RiftboundSet::Radiance => "RAD",
        }
    }

    /// Returns the byte the code writes.
    pub fn id(self) -> u8 {
        self as u8
    }

    /// Returns the set with this byte.
    pub fn from_id(id: u8) -> Result<Self, DeckCodeError> {
        Self::ALL
            .get(usize::from(id))
            .copied()
            .ok_or(DeckCodeError::UnknownSet(u64::from(id)))
    }

    /// Returns the set with this three-letter code (upper case, as the code writes it).
    pub fn from_code(code: &str) -> Result<Self, DeckCodeError> {
        Self::ALL
            .into_iter()
            .find(|s| s.code() == code)
            .ok_or_else(|| DeckCodeError::UnknownSetCode(code.to_owned()))
    }
}

/// A printing variant, written as a letter after the card number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// No letter, id 0.
    Base,
    /// `a`, alternate art A, id 1.
    AltArtA,
    /// `s` (or `*` when read), signed, id 2.
    Signed,
    /// `b`, alternate art B, id 3.
    AltArtB,
}

impl Variant {
    /// Returns the letter written after the number; `None` for the base variant.
    pub fn suffix(self) -> Option<char> {
        match self {
            Variant::Base => None,
            Variant::AltArtA => Some('a'),
            Variant::Signed => Some('s'),
            Variant::AltArtB => Some('b'),
        }
    }

    /// Returns the byte the code writes.
    pub fn id(self) -> u8 {
        self as u8
    }

    /// Returns the variant with this byte.
    pub fn from_id(id: u8) -> Result<Self, DeckCodeError> {
        match id {
            0 => Ok(Variant::Base),
            1 => Ok(Variant::AltArtA),
            2 => Ok(Variant::Signed),
            3 => Ok(Variant::AltArtB),
            _ => Err(DeckCodeError::UnknownVariant(id)),
        }
    }

    fn from_suffix(letter: char) -> Result<Self, DeckCodeError> {
        match letter {
            'a' => Ok(Variant::AltArtA),
            // The reference reads both letters for a signed card and writes `s`.
            's' | '*' => Ok(Variant::Signed),
            'b' => Ok(Variant::AltArtB),
            _ => Err(DeckCodeError::UnknownVariantSuffix(letter)),
        }
    }
}

/// The prefix of a card number. Sorted as the reference sorts numbers: plain before `R`
/// before `SP`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NumberPrefix {
    /// No prefix (flag 0), written with at least three digits: `007`.
    Plain,
    /// `R`, a rune (flag 1, version 4 on), written with at least two digits: `R02`.
    Rune,
    /// `SP`, a special card (flag 2, version 5 on), written without padding: `SP1`.
    Special,
}

impl NumberPrefix {
    /// Returns the flag byte written before the number in versions that flag numbers.
    pub fn flag(self) -> u8 {
        self as u8
    }

    fn text(self) -> &'static str {
        match self {
            NumberPrefix::Plain => "",
            NumberPrefix::Rune => "R",
            NumberPrefix::Special => "SP",
        }
    }
}

/// A Riftbound card code: set, number with its prefix, and variant.
///
/// Serialises as its text, e.g. `"OGN-007a"`. Numbers are stored as values, so `VEN-SP01`
/// reads as `VEN-SP1` and `OGN-7` as `OGN-007`, as the reference normalises them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct RiftboundCardCode {
    /// The set.
    pub set: RiftboundSet,
    /// The number's prefix.
    pub prefix: NumberPrefix,
    /// The number's value.
    pub number: u32,
    /// The printing variant.
    pub variant: Variant,
}

impl RiftboundCardCode {
    /// Returns the order the encoder writes card numbers of one set and variant in.
    pub(super) fn number_order(&self) -> (NumberPrefix, u32) {
        (self.prefix, self.number)
    }
}

impl fmt::Display for RiftboundCardCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.set.code(), self.prefix.text())?;
        match self.prefix {
            NumberPrefix::Plain => write!(f, "{:03}", self.number)?,
            NumberPrefix::Rune => write!(f, "{:02}", self.number)?,
            NumberPrefix::Special => write!(f, "{}", self.number)?,
        }
        match self.variant.suffix() {
            Some(letter) => write!(f, "{letter}"),
            None => Ok(()),
        }
    }
}

impl FromStr for RiftboundCardCode {
    type Err = DeckCodeError;

    /// Reads `SET-` then an optional upper-case `R` or `SP`, digits, and an optional variant
    /// letter.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let invalid = || DeckCodeError::InvalidCardCode(text.to_owned());
        let (set, rest) = text.split_once('-').ok_or_else(invalid)?;
        if set.is_empty() || rest.contains('-') {
            return Err(invalid());
        }
        let (prefix, rest) = if let Some(rest) = rest.strip_prefix("SP") {
            (NumberPrefix::Special, rest)
        } else if let Some(rest) = rest.strip_prefix('R') {
            (NumberPrefix::Rune, rest)
        } else {
            (NumberPrefix::Plain, rest)
        };
        let digits_end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (digits, suffix) = rest.split_at(digits_end);
        if digits.is_empty() {
            return Err(invalid());
        }
        let mut letters = suffix.chars();
        let variant = match (letters.next(), letters.next()) {
            (None, _) => Variant::Base,
            (Some(letter), None) if letter.is_ascii_lowercase() || letter == '*' => {
                Variant::from_suffix(letter)?
            }
            _ => return Err(invalid()),
        };
        let number = digits
            .parse::<u32>()
            .map_err(|_| DeckCodeError::FieldOutOfRange {
                field: "card number",
                value: digits.parse::<u64>().unwrap_or(u64::MAX),
            })?;
        let set = RiftboundSet::from_code(set)?;
        Ok(Self {
            set,
            prefix,
            number,
            variant,
        })
    }
}

impl TryFrom<String> for RiftboundCardCode {
    type Error = DeckCodeError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<RiftboundCardCode> for String {
    fn from(card: RiftboundCardCode) -> Self {
        card.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> RiftboundCardCode {
        text.parse().expect("valid card code")
    }

    #[test]
    fn reads_and_writes_every_kind_of_number_and_variant() {
        for text in [
            "OGN-007", "OGN-007a", "OGN-288s", "ARC-001b", "SFD-R02", "UNL-R05a", "VEN-SP1",
        ] {
            assert_eq!(parsed(text).to_string(), text);
        }
        assert_eq!(
            parsed("VEN-SP1a"),
            RiftboundCardCode {
                set: RiftboundSet::Vendetta,
                prefix: NumberPrefix::Special,
                number: 1,
                variant: Variant::AltArtA,
            }
        );
    }

    #[test]
    fn normalises_padding_and_the_signed_star() {
        assert_eq!(parsed("VEN-SP01").to_string(), "VEN-SP1");
        assert_eq!(parsed("OGN-7").to_string(), "OGN-007");
        assert_eq!(parsed("OGN-007*"), parsed("OGN-007s"));
    }

    #[test]
    fn rejects_text_that_is_not_a_card_code() {
        for text in [
            "",
            "OGN",
            "OGN-",
            "OGN-a",
            "VEN-sp1",
            "OGN-007ab",
            "OGN-007A",
            "OGN-0-07",
            "-007",
        ] {
            assert_eq!(
                text.parse::<RiftboundCardCode>(),
                Err(DeckCodeError::InvalidCardCode(text.to_owned())),
                "{text}"
            );
        }
    }

    #[test]
    fn rejects_an_unknown_set_or_variant() {
        assert_eq!(
            "XYZ-001".parse::<RiftboundCardCode>(),
            Err(DeckCodeError::UnknownSetCode("XYZ".to_owned()))
        );
        assert_eq!(
            "ogn-001".parse::<RiftboundCardCode>(),
            Err(DeckCodeError::UnknownSetCode("ogn".to_owned()))
        );
        assert_eq!(
            "OGN-001c".parse::<RiftboundCardCode>(),
            Err(DeckCodeError::UnknownVariantSuffix('c'))
        );
        assert_eq!(RiftboundSet::from_id(7), Err(DeckCodeError::UnknownSet(7)));
        assert_eq!(Variant::from_id(4), Err(DeckCodeError::UnknownVariant(4)));
    }

    #[test]
    fn numbers_sets_in_the_order_of_the_reference_table() {
        let codes: Vec<_> = RiftboundSet::ALL
            .iter()
            .map(|s| (s.id(), s.code()))
            .collect();
        assert_eq!(
            codes,
            [
                (0, "OGN"),
                (1, "OGS"),
                (2, "ARC"),
                (3, "SFD"),
                (4, "UNL"),
                (5, "VEN"),
                (6, "RAD")
            ]
        );
    }
}
