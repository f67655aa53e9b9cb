//! The Piltover Archive Riftbound deck code, format 1, versions 1 to 6.
//!
//! Written from the reference implementation's vectors, which win where its README disagrees:
//! varints are LEB128 (the README says "big endian"), the lists of one copy count are ordered
//! by set then variant (not by length), set and variant are raw bytes. Layout after base32:
//!
//! - byte `format << 4 | version`;
//! - version 5+: a deck prefix byte, 1 when some card number is `R` or `SP` (then every number
//!   carries a flag byte), else 0;
//! - the main deck: in versions 1–4 a list count for every copy count from 12 down to 1, each
//!   list `[cards] [set] [variant] [number]…`; from version 5 only the counts that occur,
//!   `[distinct counts] ([count] [lists] list…)…`, most copies first;
//! - version 2+: the sideboard, the same way (versions 2–4 walk 3 down to 1);
//! - version 3+: the chosen champion, `0`, or `1 [set] [variant] [number]`;
//! - version 6: the additional legends, `[n]` then `n × [set] [variant] [number]`.
//!
//! Numbers are varints, preceded by a flag byte (0 plain, 1 `R`, 2 `SP`) in version 4, and in
//! versions 5–6 when the deck prefix byte is 1.

mod card;

pub use card::{NumberPrefix, RiftboundCardCode, RiftboundSet, Variant};

use serde::{Deserialize, Serialize};

use super::{CardCount, DeckCodeError, DecodedDeck, base32, merge_duplicates, varint};

/// The only deck-code format.
const FORMAT: u8 = 1;

/// The newest version this codec reads and writes.
pub const NEWEST_VERSION: u8 = 6;

/// The version [`encode`] writes when the deck needs nothing newer, as the spec asks.
pub const DEFAULT_VERSION: u8 = 2;

/// Most copies of a card versions 1–4 carry in the main deck.
const MAIN_COUNT_CEILING: u32 = 12;

/// Most copies of a card versions 2–4 carry in the sideboard.
const SIDEBOARD_COUNT_CEILING: u32 = 3;

/// A Riftbound deck as a Piltover Archive code carries it.
///
/// Serialises as `{"main":[…],"sideboard":[…],"chosenChampion":null}`, plus
/// `"additionalLegends"` when there are any.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RiftboundDeck {
    /// The main deck, including legend, runes and battlefields.
    pub main: Vec<CardCount<RiftboundCardCode>>,
    /// The sideboard.
    #[serde(default)]
    pub sideboard: Vec<CardCount<RiftboundCardCode>>,
    /// The champion chosen for the deck, if any (version 3+).
    #[serde(default)]
    pub chosen_champion: Option<RiftboundCardCode>,
    /// Legends beyond the first, in the order given (version 6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_legends: Vec<RiftboundCardCode>,
}

/// Decodes a Piltover Archive deck code of any version from 1 to [`NEWEST_VERSION`].
///
/// Cards come back in code order: most copies first, then by set, variant and number.
pub fn decode(code: &str) -> Result<DecodedDeck<RiftboundDeck>, DeckCodeError> {
    let bytes = base32::decode(code)?;
    let mut reader = varint::Reader::new(&bytes);
    let header = reader.byte("format and version byte")?;
    let (format, version) = (header >> 4, header & 0x0f);
    if format != FORMAT {
        return Err(DeckCodeError::UnknownFormat(format));
    }
    if version == 0 || version > NEWEST_VERSION {
        return Err(DeckCodeError::UnknownVersion {
            version,
            newest: NEWEST_VERSION,
        });
    }
    let mut cards = CardReader {
        reader,
        version,
        flagged: version == 4,
    };

    let mut deck = RiftboundDeck::default();
    if version >= 5 {
        cards.flagged = match cards.reader.byte("deck prefix flag")? {
            0 => false,
            1 => true,
            other => return Err(DeckCodeError::UnknownDeckPrefixFlag(other)),
        };
        deck.main = cards.sparse_section()?;
        deck.sideboard = cards.sparse_section()?;
    } else {
        deck.main = cards.dense_section(MAIN_COUNT_CEILING)?;
        if version >= 2 {
            deck.sideboard = cards.dense_section(SIDEBOARD_COUNT_CEILING)?;
        }
    }
    if version >= 3 {
        deck.chosen_champion = match cards.reader.byte("chosen-champion marker")? {
            0 => None,
            1 => Some(cards.card()?),
            other => return Err(DeckCodeError::UnknownChampionMarker(other)),
        };
    }
    if version >= 6 {
        let legends = cards.reader.varint("number of additional legends")?;
        for _ in 0..legends {
            deck.additional_legends.push(cards.card()?);
        }
    }
    cards.reader.finish()?;
    Ok(DecodedDeck { deck, version })
}

/// Encodes a deck in the lowest version that carries it exactly, and never below
/// [`DEFAULT_VERSION`].
///
/// A card listed twice in one section is written once with the sum of its counts.
pub fn encode(deck: &RiftboundDeck) -> Result<String, DeckCodeError> {
    let deck = Prepared::check(deck)?;
    let version = deck.requirement().version.max(DEFAULT_VERSION);
    Ok(base32::encode(&deck.write(version)))
}

/// Encodes a deck in the version asked for.
///
/// Fails with [`DeckCodeError::VersionTooLow`] when that version cannot carry the deck
/// exactly (a sideboard in version 1, a champion before 3, a rune number before 4, an `SP`
/// number or a high count before 5, additional legends before 6).
pub fn encode_as(deck: &RiftboundDeck, version: u8) -> Result<String, DeckCodeError> {
    if version == 0 || version > NEWEST_VERSION {
        return Err(DeckCodeError::UnknownVersion {
            version,
            newest: NEWEST_VERSION,
        });
    }
    let deck = Prepared::check(deck)?;
    let needed = deck.requirement();
    if version < needed.version {
        return Err(DeckCodeError::VersionTooLow {
            requested: version,
            required: needed.version,
            reason: needed.reason,
        });
    }
    Ok(base32::encode(&deck.write(version)))
}

/// Returns the version [`encode`] would write for this deck.
pub fn lowest_version(deck: &RiftboundDeck) -> Result<u8, DeckCodeError> {
    Ok(Prepared::check(deck)?
        .requirement()
        .version
        .max(DEFAULT_VERSION))
}

/// The oldest version that carries a deck, and why.
struct Requirement {
    version: u8,
    reason: &'static str,
}

/// A deck checked for encoding: counts at least 1, each card once per section.
struct Prepared<'a> {
    main: Vec<CardCount<RiftboundCardCode>>,
    sideboard: Vec<CardCount<RiftboundCardCode>>,
    champion: Option<RiftboundCardCode>,
    legends: &'a [RiftboundCardCode],
}

impl<'a> Prepared<'a> {
    fn check(deck: &'a RiftboundDeck) -> Result<Self, DeckCodeError> {
        if let Some(empty) = deck
            .main
            .iter()
            .chain(&deck.sideboard)
            .find(|c| c.count == 0)
        {
            return Err(DeckCodeError::ZeroCount {
                card: empty.card_code.to_string(),
            });
        }
        Ok(Self {
            main: merge_duplicates(&deck.main),
            sideboard: merge_duplicates(&deck.sideboard),
            champion: deck.chosen_champion,
            legends: &deck.additional_legends,
        })
    }

    fn every_card(&self) -> impl Iterator<Item = &RiftboundCardCode> {
        self.main
            .iter()
            .chain(&self.sideboard)
            .map(|c| &c.card_code)
            .chain(&self.champion)
            .chain(self.legends)
    }

    fn has_prefix(&self, prefix: NumberPrefix) -> bool {
        self.every_card().any(|c| c.prefix == prefix)
    }

    /// Returns the newest feature the deck uses, checked from the newest version down.
    fn requirement(&self) -> Requirement {
        let needs = |version, reason| Requirement { version, reason };
        if !self.legends.is_empty() {
            needs(6, "additional legends")
        } else if self.has_prefix(NumberPrefix::Special) {
            needs(5, "a special (SP) card number")
        } else if self.main.iter().any(|c| c.count > MAIN_COUNT_CEILING) {
            needs(5, "more than 12 copies of a card in the main deck")
        } else if self
            .sideboard
            .iter()
            .any(|c| c.count > SIDEBOARD_COUNT_CEILING)
        {
            needs(5, "more than 3 copies of a card in the sideboard")
        } else if self.has_prefix(NumberPrefix::Rune) {
            needs(4, "a rune (R) card number")
        } else if self.champion.is_some() {
            needs(3, "a chosen champion")
        } else if !self.sideboard.is_empty() {
            needs(2, "a sideboard")
        } else {
            needs(1, "")
        }
    }

    /// Writes the code's bytes; the caller has checked that `version` carries the deck.
    fn write(&self, version: u8) -> Vec<u8> {
        let mut out = CardWriter {
            bytes: vec![FORMAT << 4 | version],
            flagged: version == 4,
        };
        if version >= 5 {
            out.flagged =
                self.has_prefix(NumberPrefix::Rune) || self.has_prefix(NumberPrefix::Special);
            out.bytes.push(u8::from(out.flagged));
            out.sparse_section(&self.main);
            out.sparse_section(&self.sideboard);
        } else {
            out.dense_section(&self.main, MAIN_COUNT_CEILING);
            if version >= 2 {
                out.dense_section(&self.sideboard, SIDEBOARD_COUNT_CEILING);
            }
        }
        if version >= 3 {
            match &self.champion {
                Some(champion) => {
                    out.bytes.push(1);
                    out.card(champion);
                }
                None => out.bytes.push(0),
            }
        }
        if version >= 6 {
            varint::write(&mut out.bytes, self.legends.len() as u64);
            for legend in self.legends {
                out.card(legend);
            }
        }
        out.bytes
    }
}

/// Writes cards, with a flag byte before each number when `flagged`.
struct CardWriter {
    bytes: Vec<u8>,
    flagged: bool,
}

impl CardWriter {
    /// Versions 1–4: a list count for every copy count from `ceiling` down to 1.
    fn dense_section(&mut self, cards: &[CardCount<RiftboundCardCode>], ceiling: u32) {
        let sorted = sorted_for_writing(cards);
        for count in (1..=ceiling).rev() {
            self.lists(of_count(&sorted, count));
        }
    }

    /// Versions 5–6: only the copy counts that occur, most first.
    fn sparse_section(&mut self, cards: &[CardCount<RiftboundCardCode>]) {
        let sorted = sorted_for_writing(cards);
        let mut counts: Vec<u32> = sorted.iter().map(|c| c.count).collect();
        counts.dedup();
        varint::write(&mut self.bytes, counts.len() as u64);
        for count in counts {
            varint::write(&mut self.bytes, u64::from(count));
            self.lists(of_count(&sorted, count));
        }
    }

    /// Writes the cards of one copy count as lists sharing set and variant, ordered by set
    /// then variant, numbers ascending within a list. `cards` comes sorted that way.
    fn lists(&mut self, cards: &[&CardCount<RiftboundCardCode>]) {
        let same_list = |a: &&CardCount<RiftboundCardCode>, b: &&CardCount<RiftboundCardCode>| {
            (a.card_code.set, a.card_code.variant) == (b.card_code.set, b.card_code.variant)
        };
        varint::write(&mut self.bytes, cards.chunk_by(same_list).count() as u64);
        for list in cards.chunk_by(same_list) {
            let first = &list[0].card_code;
            varint::write(&mut self.bytes, list.len() as u64);
            self.bytes.extend([first.set.id(), first.variant.id()]);
            for card in list {
                self.number(&card.card_code);
            }
        }
    }

    /// Writes a whole card: set, variant, number.
    fn card(&mut self, card: &RiftboundCardCode) {
        self.bytes.extend([card.set.id(), card.variant.id()]);
        self.number(card);
    }

    fn number(&mut self, card: &RiftboundCardCode) {
        if self.flagged {
            self.bytes.push(card.prefix.flag());
        }
        varint::write(&mut self.bytes, u64::from(card.number));
    }
}

/// Returns the cards in writing order: most copies first, then by set, variant and number.
fn sorted_for_writing(
    cards: &[CardCount<RiftboundCardCode>],
) -> Vec<&CardCount<RiftboundCardCode>> {
    let mut sorted: Vec<_> = cards.iter().collect();
    sorted.sort_unstable_by_key(|c| {
        (
            std::cmp::Reverse(c.count),
            c.card_code.set,
            c.card_code.variant,
            c.card_code.number_order(),
        )
    });
    sorted
}

/// Returns the run of cards with `count` copies in a slice sorted by [`sorted_for_writing`].
fn of_count<'s, 'c>(
    sorted: &'s [&'c CardCount<RiftboundCardCode>],
    count: u32,
) -> &'s [&'c CardCount<RiftboundCardCode>] {
    let start = sorted.partition_point(|c| c.count > count);
    let end = sorted.partition_point(|c| c.count >= count);
    &sorted[start..end]
}

/// Reads cards, expecting a flag byte before each number when `flagged`.
struct CardReader<'a> {
    reader: varint::Reader<'a>,
    version: u8,
    flagged: bool,
}

impl CardReader<'_> {
    fn dense_section(
        &mut self,
        ceiling: u32,
    ) -> Result<Vec<CardCount<RiftboundCardCode>>, DeckCodeError> {
        let mut cards = Vec::new();
        for count in (1..=ceiling).rev() {
            self.lists(count, &mut cards)?;
        }
        Ok(cards)
    }

    fn sparse_section(&mut self) -> Result<Vec<CardCount<RiftboundCardCode>>, DeckCodeError> {
        let mut cards = Vec::new();
        let counts = self.reader.varint("number of copy counts")?;
        for _ in 0..counts {
            let count = self.reader.varint("copy count")?;
            let count = u32::try_from(count)
                .ok()
                .filter(|c| *c > 0)
                .ok_or(DeckCodeError::CountOutOfRange { count })?;
            self.lists(count, &mut cards)?;
        }
        Ok(cards)
    }

    fn lists(
        &mut self,
        count: u32,
        cards: &mut Vec<CardCount<RiftboundCardCode>>,
    ) -> Result<(), DeckCodeError> {
        let lists = self.reader.varint("number of set and variant lists")?;
        for _ in 0..lists {
            let in_list = self.reader.varint("number of cards in the list")?;
            let (set, variant) = self.set_and_variant()?;
            for _ in 0..in_list {
                let (prefix, number) = self.number()?;
                cards.push(CardCount::new(
                    RiftboundCardCode {
                        set,
                        prefix,
                        number,
                        variant,
                    },
                    count,
                ));
            }
        }
        Ok(())
    }

    fn card(&mut self) -> Result<RiftboundCardCode, DeckCodeError> {
        let (set, variant) = self.set_and_variant()?;
        let (prefix, number) = self.number()?;
        Ok(RiftboundCardCode {
            set,
            prefix,
            number,
            variant,
        })
    }

    fn set_and_variant(&mut self) -> Result<(RiftboundSet, Variant), DeckCodeError> {
        let set = RiftboundSet::from_id(self.reader.byte("set")?)?;
        let variant = Variant::from_id(self.reader.byte("variant")?)?;
        Ok((set, variant))
    }

    fn number(&mut self) -> Result<(NumberPrefix, u32), DeckCodeError> {
        let prefix = if self.flagged {
            let offset = self.reader.offset();
            match self.reader.byte("card number flag")? {
                0 => NumberPrefix::Plain,
                1 => NumberPrefix::Rune,
                2 if self.version >= 5 => NumberPrefix::Special,
                flag => {
                    return Err(DeckCodeError::UnknownNumberPrefix {
                        flag,
                        offset,
                        version: self.version,
                    });
                }
            }
        } else {
            NumberPrefix::Plain
        };
        let value = self.reader.varint("card number")?;
        let number = u32::try_from(value).map_err(|_| DeckCodeError::FieldOutOfRange {
            field: "card number",
            value,
        })?;
        Ok((prefix, number))
    }
}

#[cfg(test)]
mod tests;
