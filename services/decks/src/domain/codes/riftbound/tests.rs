//! Table tests over known codes and property tests of the Piltover Archive codec.

use super::*;
use proptest::prelude::*;

fn card(code: &str, count: u32) -> CardCount<RiftboundCardCode> {
    CardCount::new(code.parse().expect("valid card code"), count)
}

fn code(text: &str) -> RiftboundCardCode {
    text.parse().expect("valid card code")
}

fn sorted(mut cards: Vec<CardCount<RiftboundCardCode>>) -> Vec<CardCount<RiftboundCardCode>> {
    cards.sort_by_key(|c| {
        (
            c.card_code.set,
            c.card_code.variant,
            c.card_code.number_order(),
            c.count,
        )
    });
    cards
}

/// The Piltover Archive code of the deck builder guide (`guide-deck-builder.md`), version 4.
const GUIDE_SAMPLE: &str =
    "CQAAAAAAAAAACAQFAAAQEAIFAAAACAYAAAACWABNABAAAAIFAAAABTIBACBQEAE2AIAKCAQAUUBAAAIBAAAAAMQAAA";

#[test]
fn decodes_the_deck_builder_guide_sample_as_version_4() {
    let decoded = decode(GUIDE_SAMPLE).expect("valid code");
    assert_eq!(decoded.version, 4);
    assert_eq!(
        decoded.deck.main,
        vec![
            card("VEN-R02", 6),
            card("VEN-R05", 6),
            card("OGN-043", 3),
            card("OGN-045", 3),
            card("OGN-064", 3),
            card("OGN-205", 1),
            card("OGN-259", 1),
            card("OGN-282", 1),
            card("OGN-289", 1),
            card("OGN-293", 1),
        ]
    );
    assert_eq!(decoded.deck.sideboard, vec![card("OGN-050", 2)]);
    assert_eq!(decoded.deck.chosen_champion, None);
    assert_eq!(encode(&decoded.deck).expect("encodes"), GUIDE_SAMPLE);
}

#[test]
fn decodes_the_spec_page_kaisa_sample_as_version_2() {
    let sample = "CIAAAAAAAAAQCAAAA4AACAIAABMQAAILAAAAICIMDMOVOX3AM5UHIAIDAAACO6XYAEAQKAAABX3QDGACUABKIAQAAEBQAAAWDBOQCAQAABMHE";
    let decoded = decode(sample).expect("valid code");
    assert_eq!(decoded.version, 2);
    assert_eq!(decoded.deck.main.len(), 21);
    assert_eq!(decoded.deck.main[0], card("OGN-007", 7));
    assert_eq!(
        decoded.deck.sideboard,
        vec![
            card("OGN-022", 2),
            card("OGN-024", 2),
            card("OGN-093", 2),
            card("OGN-088", 1),
            card("OGN-114", 1),
        ]
    );
    assert_eq!(encode(&decoded.deck).expect("encodes"), sample);
}

#[test]
fn serialises_a_decoded_deck_in_the_cli_shape() {
    let deck = RiftboundDeck {
        main: vec![card("OGN-007", 7)],
        ..RiftboundDeck::default()
    };
    let decoded = decode(&encode(&deck).expect("encodes")).expect("decodes");
    assert_eq!(
        serde_json::to_string(&decoded).expect("serialises"),
        r#"{"main":[{"cardCode":"OGN-007","count":7}],"sideboard":[],"chosenChampion":null,"version":2}"#
    );
    let read: RiftboundDeck =
        serde_json::from_str(r#"{"main":[{"cardCode":"OGN-007","count":7}],"version":2}"#)
            .expect("parses");
    assert_eq!(read, deck);
}

#[test]
fn picks_the_lowest_version_that_carries_the_deck() {
    let plain = RiftboundDeck {
        main: vec![card("OGN-004", 12)],
        ..RiftboundDeck::default()
    };
    let cases = [
        (plain.clone(), 2),
        (
            RiftboundDeck {
                chosen_champion: Some(code("OGN-004")),
                ..plain.clone()
            },
            3,
        ),
        (
            RiftboundDeck {
                main: vec![card("SFD-R02", 3)],
                ..plain.clone()
            },
            4,
        ),
        (
            RiftboundDeck {
                main: vec![card("OGN-004", 13)],
                ..plain.clone()
            },
            5,
        ),
        (
            RiftboundDeck {
                sideboard: vec![card("OGN-050", 4)],
                ..plain.clone()
            },
            5,
        ),
        (
            RiftboundDeck {
                main: vec![card("VEN-SP1", 1)],
                ..plain.clone()
            },
            5,
        ),
        (
            RiftboundDeck {
                additional_legends: vec![code("OGN-280")],
                ..plain.clone()
            },
            6,
        ),
    ];
    for (deck, version) in cases {
        assert_eq!(lowest_version(&deck), Ok(version), "{deck:?}");
        let decoded = decode(&encode(&deck).expect("encodes")).expect("decodes");
        assert_eq!((decoded.version, decoded.deck), (version, deck));
    }
}

#[test]
fn writes_any_version_that_carries_the_deck_when_asked() {
    let deck = RiftboundDeck {
        main: vec![card("OGN-004", 3), card("OGN-009", 1)],
        ..RiftboundDeck::default()
    };
    for version in 1..=NEWEST_VERSION {
        let decoded = decode(&encode_as(&deck, version).expect("encodes")).expect("decodes");
        assert_eq!((decoded.version, &decoded.deck), (version, &deck));
    }
}

#[test]
fn refuses_a_version_too_old_for_the_deck() {
    let deck = RiftboundDeck {
        main: vec![card("SFD-R02", 3)],
        chosen_champion: Some(code("OGN-004")),
        ..RiftboundDeck::default()
    };
    assert_eq!(
        encode_as(&deck, 3),
        Err(DeckCodeError::VersionTooLow {
            requested: 3,
            required: 4,
            reason: "a rune (R) card number"
        })
    );
    let sideboard = RiftboundDeck {
        sideboard: vec![card("OGN-050", 1)],
        ..RiftboundDeck::default()
    };
    assert_eq!(
        encode_as(&sideboard, 1),
        Err(DeckCodeError::VersionTooLow {
            requested: 1,
            required: 2,
            reason: "a sideboard"
        })
    );
    assert_eq!(
        encode_as(&sideboard, 7),
        Err(DeckCodeError::UnknownVersion {
            version: 7,
            newest: 6
        })
    );
    assert_eq!(
        encode_as(&sideboard, 0),
        Err(DeckCodeError::UnknownVersion {
            version: 0,
            newest: 6
        })
    );
}

#[test]
fn adds_up_a_card_listed_twice_in_one_section() {
    let deck = RiftboundDeck {
        main: vec![card("OGN-004", 2), card("OGN-004", 1)],
        sideboard: vec![card("OGN-004", 1)],
        ..RiftboundDeck::default()
    };
    let decoded = decode(&encode(&deck).expect("encodes")).expect("decodes");
    assert_eq!(decoded.deck.main, vec![card("OGN-004", 3)]);
    assert_eq!(decoded.deck.sideboard, vec![card("OGN-004", 1)]);
}

#[test]
fn rejects_a_card_with_no_copies() {
    let deck = RiftboundDeck {
        main: vec![card("OGN-004", 0)],
        ..RiftboundDeck::default()
    };
    assert_eq!(
        encode(&deck),
        Err(DeckCodeError::ZeroCount {
            card: "OGN-004".to_owned()
        })
    );
}

#[test]
fn says_what_is_wrong_with_bad_codes() {
    let v2_empty = [0x12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let mut trailing = v2_empty.to_vec();
    trailing.push(9);
    let unknown_set = vec![
        0x12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 7, 0, 1, 0, 0, 0,
    ];
    let cases: Vec<(Vec<u8>, DeckCodeError)> = vec![
        (vec![0x22], DeckCodeError::UnknownFormat(2)),
        (
            vec![0x10],
            DeckCodeError::UnknownVersion {
                version: 0,
                newest: 6,
            },
        ),
        (
            vec![0x17],
            DeckCodeError::UnknownVersion {
                version: 7,
                newest: 6,
            },
        ),
        (
            vec![0x1f],
            DeckCodeError::UnknownVersion {
                version: 15,
                newest: 6,
            },
        ),
        (
            vec![0x12, 0, 0],
            DeckCodeError::UnexpectedEnd {
                expected: "number of set and variant lists",
                offset: 3,
            },
        ),
        (
            trailing,
            DeckCodeError::TrailingBytes {
                count: 1,
                offset: 16,
            },
        ),
        (unknown_set, DeckCodeError::UnknownSet(7)),
        (
            vec![0x11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 4, 1],
            DeckCodeError::UnknownVariant(4),
        ),
        (
            vec![0x11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0x80],
            DeckCodeError::TruncatedVarint { offset: 16 },
        ),
        (vec![0x15, 2], DeckCodeError::UnknownDeckPrefixFlag(2)),
        (
            vec![0x15, 0, 1, 0, 0, 0, 0],
            DeckCodeError::CountOutOfRange { count: 0 },
        ),
        (
            vec![0x15, 0, 1, 0x80, 0x80, 0x80, 0x80, 0x10, 0, 0, 0],
            DeckCodeError::CountOutOfRange { count: 1 << 32 },
        ),
        (
            vec![0x15, 0, 0, 0, 2],
            DeckCodeError::UnknownChampionMarker(2),
        ),
        (
            vec![0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 2, 1],
            DeckCodeError::UnknownNumberPrefix {
                flag: 2,
                offset: 16,
                version: 4,
            },
        ),
        (
            vec![0x16, 0, 0, 0, 0, 2, 0, 0, 1],
            DeckCodeError::UnexpectedEnd {
                expected: "set",
                offset: 9,
            },
        ),
    ];
    for (bytes, error) in cases {
        assert_eq!(decode(&base32::encode(&bytes)), Err(error), "{bytes:?}");
    }
    assert_eq!(decode(""), Err(DeckCodeError::Empty));
    assert_eq!(
        decode("CQAA!"),
        Err(DeckCodeError::InvalidBase32 {
            character: '!',
            position: 4
        })
    );
}

#[test]
fn survives_a_megabyte_of_garbage() {
    let garbage: String = "CQ"
        .chars()
        .chain("Z7A2".chars().cycle().take(1 << 20))
        .collect();
    assert!(decode(&garbage).is_err());
    let noise: String = (0..1 << 20)
        .map(|i| char::from(b'A' + (i * 7 % 26) as u8))
        .collect();
    assert!(decode(&noise).is_err());
}

fn any_card(prefixes: &'static [NumberPrefix]) -> impl Strategy<Value = RiftboundCardCode> {
    (
        proptest::sample::select(RiftboundSet::ALL.to_vec()),
        proptest::sample::select(prefixes.to_vec()),
        prop_oneof![0u32..400, any::<u32>()],
        proptest::sample::select(vec![
            Variant::Base,
            Variant::AltArtA,
            Variant::Signed,
            Variant::AltArtB,
        ]),
    )
        .prop_map(|(set, prefix, number, variant)| RiftboundCardCode {
            set,
            prefix,
            number,
            variant,
        })
}

fn any_section(
    prefixes: &'static [NumberPrefix],
    counts: std::ops::RangeInclusive<u32>,
) -> impl Strategy<Value = Vec<CardCount<RiftboundCardCode>>> {
    proptest::collection::hash_map(any_card(prefixes), counts, 0..30).prop_map(|cards| {
        cards
            .into_iter()
            .map(|(c, n)| CardCount::new(c, n))
            .collect()
    })
}

const EVERY_PREFIX: &[NumberPrefix] = &[
    NumberPrefix::Plain,
    NumberPrefix::Rune,
    NumberPrefix::Special,
];

fn any_deck() -> impl Strategy<Value = RiftboundDeck> {
    (
        prop_oneof![
            any_section(EVERY_PREFIX, 1..=12),
            any_section(EVERY_PREFIX, 1..=300)
        ],
        prop_oneof![
            any_section(EVERY_PREFIX, 1..=3),
            any_section(EVERY_PREFIX, 1..=20)
        ],
        proptest::option::of(any_card(EVERY_PREFIX)),
        proptest::collection::vec(any_card(EVERY_PREFIX), 0..3),
    )
        .prop_map(
            |(main, sideboard, chosen_champion, additional_legends)| RiftboundDeck {
                main,
                sideboard,
                chosen_champion,
                additional_legends,
            },
        )
}

fn same_deck_up_to_order(a: &RiftboundDeck, b: &RiftboundDeck) -> bool {
    sorted(a.main.clone()) == sorted(b.main.clone())
        && sorted(a.sideboard.clone()) == sorted(b.sideboard.clone())
        && a.chosen_champion == b.chosen_champion
        && a.additional_legends == b.additional_legends
}

proptest! {
    #[test]
    fn decoding_what_was_encoded_gives_the_same_deck(deck in any_deck()) {
        let code = encode(&deck)?;
        let decoded = decode(&code)?;
        prop_assert!(same_deck_up_to_order(&decoded.deck, &deck), "{:?} != {:?}", decoded.deck, deck);
        prop_assert_eq!(decoded.version, lowest_version(&deck)?);
    }

    #[test]
    fn every_version_from_the_lowest_up_gives_the_same_deck(deck in any_deck()) {
        for version in lowest_version(&deck)?..=NEWEST_VERSION {
            let decoded = decode(&encode_as(&deck, version)?)?;
            prop_assert!(same_deck_up_to_order(&decoded.deck, &deck));
            prop_assert_eq!(decoded.version, version);
        }
    }

    #[test]
    fn the_order_of_the_cards_does_not_change_the_code(deck in any_deck()) {
        let mut reversed = deck.clone();
        reversed.main.reverse();
        reversed.sideboard.reverse();
        prop_assert_eq!(encode(&deck)?, encode(&reversed)?);
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
        version in 1u8..=6,
        body in proptest::collection::vec(prop_oneof![0u8..=6, any::<u8>()], 0..120),
    ) {
        let mut bytes = vec![0x10 | version];
        bytes.extend(body);
        let _ = decode(&base32::encode(&bytes));
    }

    #[test]
    fn a_code_cut_short_is_an_error_not_a_panic(deck in any_deck(), cut in any::<prop::sample::Index>()) {
        let code = encode(&deck)?;
        let bytes = base32::decode(&code)?;
        let kept = cut.index(bytes.len());
        if kept > 0 {
            // Any prefix of a valid code either fails or, by chance, is itself a complete code.
            let _ = decode(&base32::encode(&bytes[..kept]));
        }
    }
}
