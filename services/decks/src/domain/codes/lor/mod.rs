//! The Legends of Runeterra deck code (Riot's LoRDeckCodes, format 1, versions 1 to 5).
//!
//! Layout after base32: one byte `format << 4 | version`, then three sections for cards with
//! 3, 2 and 1 copies, each `[lists] ([cards] [set] [faction] [number]…)…` in varints, then, to
//! the end of the code, `[count] [set] [faction] [number]` for every card with 4 or more
//! copies. The version is the lowest that knows every faction in the deck. A code whose
//! version is older than its factions is read anyway, as Riot's decoder reads it.

mod card;

pub use card::{Faction, LorCardCode};

use serde::{Deserialize, Serialize};

use super::{CardCount, DeckCodeError, DecodedDeck, base32, merge_duplicates, varint};

/// The only deck-code format.
const FORMAT: u8 = 1;

/// The newest version this codec reads; a newer code is refused with
/// [`DeckCodeError::UnknownVersion`].
pub const NEWEST_VERSION: u8 = 5;

/// A Legends of Runeterra deck as a code carries it.
///
/// The game has no sideboard: decoding always leaves `sideboard` empty, and encoding adds its
/// cards to the main deck (the deck builder's documented export).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LorDeck {
    /// The cards of the deck.
    pub main: Vec<CardCount<LorCardCode>>,
    /// Cards set aside; written into the code with the main deck.
    #[serde(default)]
    pub sideboard: Vec<CardCount<LorCardCode>>,
}

/// Decodes a Legends of Runeterra deck code.
///
/// Cards come back in code order: 3-copy lists, 2-copy, 1-copy, then 4+ copies.
pub fn decode(code: &str) -> Result<DecodedDeck<LorDeck>, DeckCodeError> {
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

    let mut main = Vec::new();
    for count in [3, 2, 1] {
        let lists = reader.varint("number of set and faction lists")?;
        for _ in 0..lists {
            let cards = reader.varint("number of cards in the list")?;
            let set = reader.varint("set")?;
            let faction = Faction::from_id(reader.varint("faction")?)?;
            for _ in 0..cards {
                let number = reader.varint("card number")?;
                main.push(CardCount::new(
                    LorCardCode::from_parts(set, faction, number)?,
                    count,
                ));
            }
        }
    }
    // The rest of the code, however long, is cards with 4 or more copies. Riot's decoder takes
    // any count here; so do we, except 0.
    while !reader.is_at_end() {
        let count = reader.varint("copy count")?;
        let count = u32::try_from(count)
            .ok()
            .filter(|c| *c > 0)
            .ok_or(DeckCodeError::CountOutOfRange { count })?;
        let set = reader.varint("set")?;
        let faction = Faction::from_id(reader.varint("faction")?)?;
        let number = reader.varint("card number")?;
        main.push(CardCount::new(
            LorCardCode::from_parts(set, faction, number)?,
            count,
        ));
    }

    Ok(DecodedDeck {
        deck: LorDeck {
            main,
            sideboard: Vec::new(),
        },
        version,
    })
}

/// Encodes a deck as a Legends of Runeterra deck code.
///
/// The same cards in any order give the same code, byte for byte the code Riot's library
/// writes. A card listed twice (or in both main deck and sideboard) is written once with the
/// sum of its counts.
pub fn encode(deck: &LorDeck) -> Result<String, DeckCodeError> {
    encode_with(deck, None)
}

/// Encodes a deck in the version asked for, from the lowest that knows every faction of the
/// deck up to [`NEWEST_VERSION`].
///
/// Fails with [`DeckCodeError::VersionTooLow`] when a faction of the deck is newer than
/// `version`, and with [`DeckCodeError::UnknownVersion`] for 0 or a version newer than this
/// codec writes.
pub fn encode_as(deck: &LorDeck, version: u8) -> Result<String, DeckCodeError> {
    if version == 0 || version > NEWEST_VERSION {
        return Err(DeckCodeError::UnknownVersion {
            version,
            newest: NEWEST_VERSION,
        });
    }
    encode_with(deck, Some(version))
}

/// Encodes in `requested`, or in the lowest version that knows every faction when `None`.
fn encode_with(deck: &LorDeck, requested: Option<u8>) -> Result<String, DeckCodeError> {
    let all: Vec<_> = deck.main.iter().chain(&deck.sideboard).cloned().collect();
    if let Some(empty) = all.iter().find(|c| c.count == 0) {
        return Err(DeckCodeError::ZeroCount {
            card: empty.card_code.to_string(),
        });
    }
    let mut cards = merge_duplicates(&all);
    // Riot groups a list of cards sorted by code: lists then tie on their first card's code.
    cards.sort_by_key(|c| c.card_code.text_order());

    let version = cards
        .iter()
        .map(|c| c.card_code.faction().version())
        .max()
        .unwrap_or(1);
    let version = match requested {
        Some(requested) if requested < version => {
            return Err(DeckCodeError::VersionTooLow {
                requested,
                required: version,
                reason: "a faction of the deck",
            });
        }
        Some(requested) => requested,
        None => version,
    };
    let mut bytes = vec![FORMAT << 4 | version];
    for count in [3, 2, 1] {
        write_lists(
            &mut bytes,
            cards
                .iter()
                .filter(|c| c.count == count)
                .map(|c| c.card_code),
        );
    }
    for card in cards.iter().filter(|c| c.count > 3) {
        varint::write(&mut bytes, u64::from(card.count));
        write_card(&mut bytes, &card.card_code);
        varint::write(&mut bytes, u64::from(card.card_code.number()));
    }
    Ok(base32::encode(&bytes))
}

/// Writes one copy-count section: the cards, already sorted by code, grouped by set and
/// faction; shorter lists first, equal lengths in the order of their first card.
fn write_lists(bytes: &mut Vec<u8>, cards: impl Iterator<Item = LorCardCode>) {
    let mut lists: Vec<Vec<LorCardCode>> = Vec::new();
    for card in cards {
        match lists
            .iter_mut()
            .find(|list| list[0].set() == card.set() && list[0].faction() == card.faction())
        {
            Some(list) => list.push(card),
            None => lists.push(vec![card]),
        }
    }
    // Stable: lists of equal length keep first-card order, as in Riot's `ThenBy(c[0])`.
    lists.sort_by_key(Vec::len);
    varint::write(bytes, lists.len() as u64);
    for list in &lists {
        varint::write(bytes, list.len() as u64);
        write_card(bytes, &list[0]);
        for card in list {
            varint::write(bytes, u64::from(card.number()));
        }
    }
}

/// Writes the set and faction of a card.
fn write_card(bytes: &mut Vec<u8>, card: &LorCardCode) {
    varint::write(bytes, u64::from(card.set()));
    varint::write(bytes, card.faction().id());
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn card(code: &str, count: u32) -> CardCount<LorCardCode> {
        CardCount::new(code.parse().expect("valid card code"), count)
    }

    fn sorted(mut cards: Vec<CardCount<LorCardCode>>) -> Vec<CardCount<LorCardCode>> {
        cards.sort_by_key(|c| (c.card_code.text_order(), c.count));
        cards
    }

    #[test]
    fn decodes_the_deck_builder_guide_sample() {
        let decoded = decode("CEAQ2AIAAEDASCYMCQKRUJZNFY2TOAABAEAQABY").expect("valid code");
        assert_eq!(decoded.version, 1);
        let mut expected: Vec<_> = [1, 6, 9, 11, 12, 20, 21, 26, 39, 45, 46, 53, 55]
            .iter()
            .map(|n| card(&format!("01DE{n:03}"), 3))
            .collect();
        expected.push(card("01DE007", 1));
        assert_eq!(decoded.deck.main, expected);
        assert_eq!(decoded.deck.main.iter().map(|c| c.count).sum::<u32>(), 40);
        assert_eq!(
            encode(&decoded.deck).expect("encodes"),
            "CEAQ2AIAAEDASCYMCQKRUJZNFY2TOAABAEAQABY"
        );
    }

    #[test]
    fn writes_the_lowest_version_that_knows_every_faction() {
        for (code, version) in [
            ("01DE001", 1),
            ("01BW002", 2),
            ("01MT002", 2),
            ("01SH002", 3),
            ("01BC002", 4),
            ("01RU002", 5),
        ] {
            let deck = LorDeck {
                main: vec![card("01DE001", 1), card(code, 1)],
                sideboard: vec![],
            };
            let decoded = decode(&encode(&deck).expect("encodes")).expect("decodes");
            assert_eq!(decoded.version, version, "{code}");
        }
    }

    #[test]
    fn writes_the_version_asked_for_when_it_knows_every_faction() {
        let deck = LorDeck {
            main: vec![card("01DE001", 3), card("04SH001", 1)],
            sideboard: vec![],
        };
        let lowest = decode(&encode(&deck).expect("encodes")).expect("decodes");
        assert_eq!(lowest.version, 3);
        let asked = decode(&encode_as(&deck, 5).expect("encodes")).expect("decodes");
        assert_eq!(
            (asked.version, sorted(asked.deck.main)),
            (5, sorted(deck.main.clone()))
        );
        assert_eq!(
            encode_as(&deck, 2),
            Err(DeckCodeError::VersionTooLow {
                requested: 2,
                required: 3,
                reason: "a faction of the deck",
            })
        );
        for version in [0, NEWEST_VERSION + 1] {
            assert_eq!(
                encode_as(&deck, version),
                Err(DeckCodeError::UnknownVersion {
                    version,
                    newest: NEWEST_VERSION
                })
            );
        }
    }

    #[test]
    fn writes_an_empty_deck_as_a_version_1_code() {
        let code = encode(&LorDeck::default()).expect("encodes");
        let decoded = decode(&code).expect("decodes");
        assert_eq!((decoded.version, decoded.deck), (1, LorDeck::default()));
    }

    #[test]
    fn adds_the_sideboard_and_repeated_cards_to_the_main_deck() {
        let deck = LorDeck {
            main: vec![card("01DE001", 2), card("01DE001", 1)],
            sideboard: vec![card("01FR001", 1)],
        };
        let decoded = decode(&encode(&deck).expect("encodes")).expect("decodes");
        assert_eq!(
            decoded.deck.main,
            vec![card("01DE001", 3), card("01FR001", 1)]
        );
        assert!(decoded.deck.sideboard.is_empty());
    }

    #[test]
    fn rejects_a_card_with_no_copies() {
        let deck = LorDeck {
            main: vec![card("01DE002", 0)],
            sideboard: vec![],
        };
        assert_eq!(
            encode(&deck),
            Err(DeckCodeError::ZeroCount {
                card: "01DE002".to_owned()
            })
        );
    }

    #[test]
    fn rejects_a_code_from_a_newer_version() {
        // 0x19: format 1, version 9.
        assert_eq!(
            decode("DEAAABABAEFACAIBAAAQCAIFAEAQGCTP"),
            Err(DeckCodeError::UnknownVersion {
                version: 9,
                newest: 5
            })
        );
        // 0x16: the first version after the newest known.
        assert_eq!(
            decode(&base32::encode(&[0x16, 0, 0, 0])),
            Err(DeckCodeError::UnknownVersion {
                version: 6,
                newest: 5
            })
        );
    }

    #[test]
    fn says_what_is_wrong_with_bad_codes() {
        let cases: [(&[u8], DeckCodeError); 7] = [
            (&[0x58], DeckCodeError::UnknownFormat(5)),
            (
                &[0x10, 0, 0, 0],
                DeckCodeError::UnknownVersion {
                    version: 0,
                    newest: 5,
                },
            ),
            (
                &[0x11],
                DeckCodeError::UnexpectedEnd {
                    expected: "number of set and faction lists",
                    offset: 1,
                },
            ),
            (
                &[0x11, 1, 1, 1, 8, 1, 0, 0],
                DeckCodeError::UnknownFaction(8),
            ),
            (
                &[0x11, 1, 1, 1, 0, 0x80],
                DeckCodeError::TruncatedVarint { offset: 5 },
            ),
            (
                &[0x11, 0, 0, 0, 0, 1, 0, 1],
                DeckCodeError::CountOutOfRange { count: 0 },
            ),
            (
                &[0x11, 0, 0, 0, 4, 1, 0],
                DeckCodeError::UnexpectedEnd {
                    expected: "card number",
                    offset: 7,
                },
            ),
        ];
        for (bytes, error) in cases {
            assert_eq!(decode(&base32::encode(bytes)), Err(error), "{bytes:?}");
        }
        assert_eq!(decode(""), Err(DeckCodeError::Empty));
        assert_eq!(
            decode(&base32::encode(&[0x11, 1, 1, 100, 0, 1, 0, 0])),
            Err(DeckCodeError::FieldOutOfRange {
                field: "set",
                value: 100
            })
        );
    }

    #[test]
    fn survives_a_megabyte_of_garbage() {
        let garbage: String = "CE"
            .chars()
            .chain("Z7A2".chars().cycle().take(1 << 20))
            .collect();
        assert!(decode(&garbage).is_err());
        // A megabyte of well-formed 4-copy entries is a (silly) valid code.
        let mut bytes = vec![0x11, 0, 0, 0];
        for _ in 0..(1 << 18) {
            bytes.extend([4, 1, 0, 1]);
        }
        let decoded = decode(&base32::encode(&bytes)).expect("decodes");
        assert_eq!(decoded.deck.main.len(), 1 << 18);
    }

    fn any_card() -> impl Strategy<Value = LorCardCode> {
        (
            0u64..=99,
            proptest::sample::select(Faction::ALL.to_vec()),
            0u64..=999,
        )
            .prop_map(|(set, faction, number)| {
                LorCardCode::from_parts(set, faction, number).expect("parts are in range")
            })
    }

    fn any_deck() -> impl Strategy<Value = Vec<CardCount<LorCardCode>>> {
        proptest::collection::hash_map(
            any_card(),
            prop_oneof![4 => 1u32..=3, 1 => 4u32..=300],
            0..45,
        )
        .prop_map(|cards| {
            cards
                .into_iter()
                .map(|(c, n)| CardCount::new(c, n))
                .collect()
        })
    }

    proptest! {
        #[test]
        fn decoding_what_was_encoded_gives_the_same_deck(main in any_deck()) {
            let deck = LorDeck { main: main.clone(), sideboard: vec![] };
            let code = encode(&deck)?;
            let decoded = decode(&code)?;
            prop_assert_eq!(sorted(decoded.deck.main), sorted(main.clone()));
            let newest = main.iter().map(|c| c.card_code.faction().version()).max().unwrap_or(1);
            prop_assert_eq!(decoded.version, newest);
        }

        #[test]
        fn the_order_of_the_cards_does_not_change_the_code(main in any_deck(), seed in any::<u64>()) {
            let mut shuffled = main.clone();
            // A cheap deterministic shuffle: rotate and reverse by the seed.
            if !shuffled.is_empty() {
                let by = (seed as usize) % shuffled.len();
                shuffled.rotate_left(by);
            }
            if seed % 2 == 0 {
                shuffled.reverse();
            }
            prop_assert_eq!(
                encode(&LorDeck { main, sideboard: vec![] })?,
                encode(&LorDeck { main: shuffled, sideboard: vec![] })?
            );
        }

        #[test]
        fn decoding_any_text_never_panics(text in ".{0,80}") {
            let _ = decode(&text);
        }

        #[test]
        fn decoding_any_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..120)) {
            let _ = decode(&base32::encode(&bytes));
        }

        #[test]
        fn decoding_bytes_with_a_valid_header_never_panics(
            version in 1u8..=5,
            body in proptest::collection::vec(prop_oneof![0u8..=12, any::<u8>()], 0..120),
        ) {
            let mut bytes = vec![0x10 | version];
            bytes.extend(body);
            let _ = decode(&base32::encode(&bytes));
        }
    }
}
