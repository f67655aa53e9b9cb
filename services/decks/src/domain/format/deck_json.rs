//! Decks as JSON: the deck `turnier format check` reads on stdin (issue 6),
//! `{"cards": [{"id": "storm-call", "count": 2}, {"id": "path", "count": 20, "copyLimit": 20}]}`.
//!
//! Read as strictly as a format, with the same [`InvalidDeck`] (its code `invalid_deck`); where
//! the cards' names and own limits come from when the JSON gives none is the caller's concern.

use serde_json::{Map, Value, json};

use super::card::Card;
use super::card_lists::copy_limit_out_of_range;
use super::check::Deck;
use super::error::{InvalidDeck, Problem, item};
use super::json::{Object, parse_document};
use super::rules::MAX_DECK_SIZE;
use super::values::{CardId, CopyLimit, Name};

const DECK_KEYS: [&str; 1] = ["cards"];
/// `name` is not in the issue's example; it is read so that messages can name the card the way
/// people know it ("Storm Call"), as the issue's example message does.
const ENTRY_KEYS: [&str; 4] = ["id", "name", "count", "copyLimit"];
const ENTRY_REQUIRED: [&str; 2] = ["id", "count"];

impl Deck {
    /// Reads a deck of at most 1 MiB of JSON, nested at most 15 levels deep: `cards`, each with
    /// its `id`, `count` (1 to 100 000) and, where the card sets one, its own `copyLimit`
    /// (1 to 999) and `name`. Each card is listed once.
    pub fn from_json(json: &str) -> Result<Self, InvalidDeck> {
        parse_document(json)
            .and_then(|value| read_deck(&value))
            .map_err(InvalidDeck::about_a_deck)
    }

    /// Returns the deck as the JSON [`Deck::from_json`] reads, leaving out the names and copy
    /// limits the cards do not set.
    pub fn to_json(&self) -> Value {
        let cards = self
            .entries()
            .iter()
            .map(|entry| {
                let mut object = Map::new();
                object.insert("id".into(), entry.card.id().as_str().into());
                if let Some(name) = entry.card.name() {
                    object.insert("name".into(), name.as_str().into());
                }
                object.insert("count".into(), entry.count.into());
                if let Some(limit) = entry.card.copy_limit() {
                    object.insert("copyLimit".into(), limit.get().into());
                }
                Value::Object(object)
            })
            .collect::<Vec<_>>();
        json!({ "cards": cards })
    }
}

fn read_deck(value: &Value) -> Result<Deck, InvalidDeck> {
    let object = Object::read(value, "", &DECK_KEYS, &DECK_KEYS)?;
    let mut deck = Deck::new();
    for (index, entry) in object.array("cards")?.iter().enumerate() {
        let path = item("cards", index);
        let entry = Object::read(entry, &path, &ENTRY_KEYS, &ENTRY_REQUIRED)?;
        let id = entry.shaped("id", CardId::parse)?;
        if deck.contains(&id) {
            return Err(InvalidDeck::new(entry.path("id"), Problem::Repeated));
        }
        let mut card = Card::new(id);
        if let Some(name) = entry.optional_shaped("name", Name::parse)? {
            card = card.named(name);
        }
        if let Some(limit) = entry.nullable_integer("copyLimit")? {
            let limit = u64::try_from(limit)
                .ok()
                .and_then(CopyLimit::new)
                .ok_or_else(|| {
                    InvalidDeck::new(entry.path("copyLimit"), copy_limit_out_of_range(limit))
                })?;
            card = card.with_copy_limit(limit);
        }
        let count = entry.integer("count")?.unwrap_or_default();
        let count = u32::try_from(count)
            .ok()
            .filter(|count| (1..=MAX_DECK_SIZE).contains(count))
            .ok_or_else(|| {
                InvalidDeck::new(
                    entry.path("count"),
                    Problem::OutOfRange {
                        min: 1,
                        max: u64::from(MAX_DECK_SIZE),
                        found: count,
                    },
                )
            })?;
        deck.add(card, count);
    }
    Ok(deck)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn refusal(json: &str) -> (String, String, Problem) {
        let err = Deck::from_json(json).expect_err("the deck is refused");
        (
            err.code().to_owned(),
            err.field().to_owned(),
            err.problem().clone(),
        )
    }

    #[test]
    fn the_deck_of_the_issue_example_reads_with_its_own_copy_limit() {
        let deck = Deck::from_json(
            r#"{"cards": [{"id": "storm-call", "count": 2}, {"id": "path", "count": 20, "copyLimit": 20}]}"#,
        )
        .expect("the example reads");
        let [storm, path] = deck.entries() else {
            panic!("two cards")
        };
        assert_eq!(storm.card.id().as_str(), "storm-call");
        assert_eq!(storm.count, 2);
        assert_eq!(storm.card.copy_limit(), None);
        assert_eq!(path.count, 20);
        assert_eq!(path.card.copy_limit().map(CopyLimit::get), Some(20));
    }

    #[test]
    fn a_name_given_with_a_card_is_kept_for_messages() {
        let deck = Deck::from_json(
            r#"{"cards": [{"id": "storm-call", "name": "Storm Call", "count": 2}]}"#,
        )
        .expect("a valid deck");
        assert_eq!(deck.entries()[0].card.label(), "Storm Call");
    }

    #[test]
    fn a_deck_refuses_unknown_and_missing_keys_and_wrong_types_as_invalid_deck() {
        let cases = [
            (
                r#"{"cards": [], "format": "x"}"#,
                "format",
                Problem::UnknownKey,
            ),
            (r#"{}"#, "cards", Problem::MissingKey),
            (
                r#"{"cards": [{"id": "a"}]}"#,
                "cards[0].count",
                Problem::MissingKey,
            ),
            (
                r#"{"cards": [{"id": "a", "count": 1, "copy_limit": 2}]}"#,
                "cards[0].copy_limit",
                Problem::UnknownKey,
            ),
            (
                r#"{"cards": [{"id": "a", "count": "1"}]}"#,
                "cards[0].count",
                Problem::WrongType {
                    expected: "an integer",
                    found: "a string",
                },
            ),
            (
                r#"{"cards": {"a": 1}}"#,
                "cards",
                Problem::WrongType {
                    expected: "an array",
                    found: "an object",
                },
            ),
        ];
        for (json, field, problem) in cases {
            assert_eq!(
                refusal(json),
                ("invalid_deck".to_owned(), field.to_owned(), problem),
                "{json}"
            );
        }
    }

    #[test]
    fn a_count_is_1_to_100_000_and_a_copy_limit_1_to_999() {
        let deck = |count: i64, limit: i64| {
            Deck::from_json(&format!(
                r#"{{"cards": [{{"id": "a", "count": {count}, "copyLimit": {limit}}}]}}"#
            ))
        };
        assert!(deck(1, 1).is_ok());
        assert!(deck(100_000, 999).is_ok());
        assert_eq!(
            deck(0, 1).map_err(|e| e.field().to_owned()),
            Err("cards[0].count".into())
        );
        assert_eq!(
            deck(100_001, 1).map_err(|e| e.field().to_owned()),
            Err("cards[0].count".into())
        );
        assert_eq!(
            deck(1, 0).map_err(|e| e.field().to_owned()),
            Err("cards[0].copyLimit".into())
        );
        assert_eq!(
            deck(1, 1000).map_err(|e| e.field().to_owned()),
            Err("cards[0].copyLimit".into())
        );
    }

    #[test]
    fn a_card_listed_twice_is_refused() {
        assert_eq!(
            refusal(r#"{"cards": [{"id": "a", "count": 1}, {"id": "a", "count": 2}]}"#),
            (
                "invalid_deck".into(),
                "cards[1].id".into(),
                Problem::Repeated
            )
        );
    }

    #[test]
    fn a_deck_too_large_or_too_deep_is_refused_as_a_document() {
        let (code, field, problem) = refusal(&" ".repeat(super::super::MAX_JSON_BYTES + 1));
        assert_eq!((code.as_str(), field.as_str()), ("invalid_deck", ""));
        assert!(matches!(problem, Problem::TooLarge { .. }));
        let deep = format!("{}{}", "[".repeat(16), "]".repeat(16));
        assert_eq!(refusal(&deep).2, Problem::TooDeep);
    }

    proptest! {
        #[test]
        fn writing_then_reading_a_deck_gives_it_back(
            cards in prop::collection::btree_map(
                "[A-Za-z0-9][A-Za-z0-9_.:/-]{0,12}",
                (1_u32..=100_000, prop::option::of(1_u64..=999), prop::option::of("[A-Z][a-z]{0,8}")),
                0..20,
            ),
        ) {
            let deck: Deck = cards
                .into_iter()
                .map(|(id, (count, limit, name))| {
                    let mut card = Card::new(CardId::parse(&id).expect("an id"));
                    if let Some(limit) = limit.and_then(CopyLimit::new) {
                        card = card.with_copy_limit(limit);
                    }
                    if let Some(name) = name {
                        card = card.named(Name::parse(&name).expect("a name"));
                    }
                    (card, count)
                })
                .collect();
            prop_assert_eq!(Deck::from_json(&deck.to_json().to_string()), Ok(deck));
        }

        #[test]
        fn random_text_is_read_as_a_deck_or_refused_as_invalid_deck(text in "\\PC{0,64}") {
            if let Err(err) = Deck::from_json(&text) {
                prop_assert_eq!(err.code(), "invalid_deck");
            }
        }
    }
}
