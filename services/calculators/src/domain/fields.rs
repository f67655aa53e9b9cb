//! The card fields the no-code builder offers per game: what a widget may count, group by or
//! filter on, and how the generated script reads each one from a card.
//!
//! A number field a card does not carry reads as 0 (as the reference's default calculators
//! read it); a category or text field it does not carry has no value at all, so it matches no
//! `is` and every `is_not`.

use proto::game::Game;

/// What a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// A number (a cost, a retreat cost, HP).
    Number,
    /// One of a known set of values, or several (a card's regions, its subtypes).
    Category,
    /// Free text (a name).
    Text,
}

impl FieldKind {
    /// Returns the kind as the API writes it.
    pub fn name(self) -> &'static str {
        match self {
            FieldKind::Number => "number",
            FieldKind::Category => "category",
            FieldKind::Text => "text",
        }
    }
}

/// A card field of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The id a spec names it by (`retreatCost`).
    pub id: &'static str,
    /// What the builder shows (`Retreat cost`), and a grouped table's first column.
    pub label: &'static str,
    /// What it holds.
    pub kind: FieldKind,
    /// The values a category offers in the builder's dropdown; empty where the catalog decides
    /// (sets, rarities).
    pub values: &'static [&'static str],
    /// The JavaScript expression reading it from `card` (a card, or `undefined`): a value, a
    /// list of values, or `undefined`.
    pub read: &'static str,
    /// Where a category whose values the catalog decides (`values` empty) is read in a card's
    /// JSON (`["game", "subtypes"]`): the builder offers the values the catalog's cards carry
    /// there. Empty for the other fields.
    pub path: &'static [&'static str],
}

const POKEMON: &[Field] = &[
    Field {
        id: "cardType",
        label: "Card type",
        kind: FieldKind::Category,
        values: &["Pokemon", "Trainer", "Energy"],
        path: &[],
        read: "card?.game?.supertype",
    },
    Field {
        id: "stage",
        label: "Stage",
        kind: FieldKind::Category,
        values: &["Basic", "Stage 1", "Stage 2"],
        // Pokémon only: Basic Energy carries a "Basic" subtype too, and stays out.
        path: &[],
        read: "card?.game?.supertype === \"Pokemon\" ? (card?.game?.subtypes ?? []).find((subtype) => subtype === \"Basic\" || subtype === \"Stage 1\" || subtype === \"Stage 2\") : undefined",
    },
    Field {
        id: "subtype",
        label: "Subtype",
        kind: FieldKind::Category,
        values: &[],
        path: &["game", "subtypes"],
        read: "card?.game?.subtypes",
    },
    Field {
        id: "energyType",
        label: "Energy type",
        kind: FieldKind::Category,
        values: &[
            "Colorless",
            "Darkness",
            "Dragon",
            "Fairy",
            "Fighting",
            "Fire",
            "Grass",
            "Lightning",
            "Metal",
            "Psychic",
            "Water",
        ],
        path: &[],
        read: "card?.game?.types",
    },
    Field {
        id: "retreatCost",
        label: "Retreat cost",
        kind: FieldKind::Number,
        values: &[],
        path: &[],
        read: "card?.game?.convertedRetreatCost",
    },
    Field {
        id: "hp",
        label: "HP",
        kind: FieldKind::Number,
        values: &[],
        path: &[],
        read: "card?.game?.hp",
    },
    Field {
        id: "regulationMark",
        label: "Regulation mark",
        kind: FieldKind::Category,
        values: &[],
        path: &["game", "regulationMark"],
        read: "card?.game?.regulationMark",
    },
    Field {
        id: "rarity",
        label: "Rarity",
        kind: FieldKind::Category,
        values: &[],
        path: &["game", "rarity"],
        read: "card?.game?.rarity",
    },
    Field {
        id: "set",
        label: "Set",
        kind: FieldKind::Category,
        values: &[],
        path: &["setCode"],
        read: "card?.setCode",
    },
    Field {
        id: "name",
        label: "Name",
        kind: FieldKind::Text,
        values: &[],
        path: &[],
        read: "card?.name",
    },
];

const LOR: &[Field] = &[
    Field {
        id: "cost",
        label: "Mana cost",
        kind: FieldKind::Number,
        values: &[],
        path: &[],
        read: "card?.game?.cost",
    },
    Field {
        id: "type",
        label: "Card type",
        kind: FieldKind::Category,
        values: &["Unit", "Spell", "Landmark", "Equipment", "Ability", "Trap"],
        path: &[],
        read: "card?.game?.typeRef",
    },
    Field {
        id: "supertype",
        label: "Supertype",
        kind: FieldKind::Category,
        values: &["Champion"],
        path: &[],
        read: "card?.game?.supertypeRef",
    },
    Field {
        id: "region",
        label: "Region",
        kind: FieldKind::Category,
        values: &[
            "Demacia",
            "Freljord",
            "Ionia",
            "Noxus",
            "PiltoverZaun",
            "ShadowIsles",
            "Bilgewater",
            "Targon",
            "Shurima",
            "BandleCity",
            "Runeterra",
        ],
        path: &[],
        read: "card?.game?.regionRefs",
    },
    Field {
        id: "rarity",
        label: "Rarity",
        kind: FieldKind::Category,
        values: &["Common", "Rare", "Epic", "Champion"],
        path: &[],
        read: "card?.game?.rarityRef",
    },
    Field {
        id: "set",
        label: "Set",
        kind: FieldKind::Category,
        values: &[],
        path: &["setCode"],
        read: "card?.setCode",
    },
    Field {
        id: "keyword",
        label: "Keyword",
        kind: FieldKind::Category,
        values: &[],
        path: &["game", "keywordRefs"],
        read: "card?.game?.keywordRefs",
    },
    Field {
        id: "name",
        label: "Name",
        kind: FieldKind::Text,
        values: &[],
        path: &[],
        read: "card?.name",
    },
];

const RIFTBOUND: &[Field] = &[
    Field {
        id: "energy",
        label: "Energy",
        kind: FieldKind::Number,
        values: &[],
        path: &[],
        read: "card?.game?.energy",
    },
    Field {
        id: "might",
        label: "Might",
        kind: FieldKind::Number,
        values: &[],
        path: &[],
        read: "card?.game?.might",
    },
    Field {
        id: "type",
        label: "Card type",
        kind: FieldKind::Category,
        values: &["legend", "unit", "spell", "gear", "rune", "battlefield"],
        path: &[],
        read: "card?.game?.type",
    },
    Field {
        id: "domain",
        label: "Domain",
        kind: FieldKind::Category,
        values: &[
            "fury",
            "calm",
            "mind",
            "body",
            "chaos",
            "order",
            "colorless",
        ],
        path: &[],
        read: "card?.game?.domains",
    },
    Field {
        id: "supertype",
        label: "Supertype",
        kind: FieldKind::Category,
        values: &["Champion", "Signature", "Token"],
        path: &[],
        read: "card?.game?.supertype",
    },
    Field {
        id: "tag",
        label: "Tag",
        kind: FieldKind::Category,
        values: &[],
        path: &["game", "tags"],
        read: "card?.game?.tags",
    },
    Field {
        id: "rarity",
        label: "Rarity",
        kind: FieldKind::Category,
        values: &[],
        path: &["game", "rarity"],
        read: "card?.game?.rarity",
    },
    Field {
        id: "set",
        label: "Set",
        kind: FieldKind::Category,
        values: &[],
        path: &["setCode"],
        read: "card?.setCode",
    },
    Field {
        id: "name",
        label: "Name",
        kind: FieldKind::Text,
        values: &[],
        path: &[],
        read: "card?.name",
    },
];

/// Returns, for each field of `game` whose values the catalog decides, the distinct values
/// `cards` (cards as their documented JSON) carry at its path, sorted; a list is read value by
/// value.
pub fn catalog_values(game: Game, cards: &[serde_json::Value]) -> Vec<(&'static str, Vec<String>)> {
    of_game(game)
        .iter()
        .filter(|field| field.kind == FieldKind::Category && field.values.is_empty())
        .map(|field| {
            let mut values = std::collections::BTreeSet::new();
            for card in cards {
                let found = field
                    .path
                    .iter()
                    .try_fold(card, |value, key| value.get(key));
                match found {
                    Some(serde_json::Value::String(text)) => {
                        values.insert(text.clone());
                    }
                    Some(serde_json::Value::Array(list)) => {
                        values.extend(list.iter().filter_map(|v| v.as_str().map(str::to_owned)));
                    }
                    _ => {}
                }
            }
            (
                field.id,
                values.into_iter().filter(|v| !v.is_empty()).collect(),
            )
        })
        .collect()
}

/// Returns the builder's fields of `game`, in the order the builder lists them.
pub fn of_game(game: Game) -> &'static [Field] {
    match game {
        Game::Lor => LOR,
        Game::Pokemon => POKEMON,
        Game::Riftbound => RIFTBOUND,
    }
}

/// Returns the field `id` of `game`.
pub fn find(game: Game, id: &str) -> Option<&'static Field> {
    of_game(game).iter().find(|field| field.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_decides_the_values_of_open_categories() {
        let cards = [
            serde_json::json!({"setCode": "sv1", "game": {"subtypes": ["Basic", "ex"], "regulationMark": "G"}}),
            serde_json::json!({"setCode": "sv2", "game": {"subtypes": ["Stage 1"], "rarity": "Rare"}}),
            serde_json::json!({"game": {"subtypes": "not a list", "rarity": 3}}),
        ];
        let values = catalog_values(Game::Pokemon, &cards);
        let of = |id: &str| {
            values
                .iter()
                .find(|(field, _)| *field == id)
                .map(|(_, v)| v.clone())
        };
        assert_eq!(
            of("subtype"),
            Some(vec![
                "Basic".to_owned(),
                "Stage 1".to_owned(),
                "ex".to_owned(),
                "not a list".to_owned()
            ])
        );
        assert_eq!(of("regulationMark"), Some(vec!["G".to_owned()]));
        assert_eq!(of("rarity"), Some(vec!["Rare".to_owned()]));
        assert_eq!(of("set"), Some(vec!["sv1".to_owned(), "sv2".to_owned()]));
        assert_eq!(
            of("energyType"),
            None,
            "a fixed category keeps its own values"
        );
    }

    #[test]
    fn every_game_has_the_fields_the_issue_asks_for_at_least() {
        let ids = |game| -> Vec<&str> { of_game(game).iter().map(|field| field.id).collect() };
        for (game, wanted) in [
            (
                Game::Pokemon,
                &[
                    "cardType",
                    "stage",
                    "subtype",
                    "energyType",
                    "retreatCost",
                    "hp",
                    "regulationMark",
                    "rarity",
                    "set",
                    "name",
                ][..],
            ),
            (
                Game::Lor,
                &[
                    "cost",
                    "type",
                    "supertype",
                    "region",
                    "rarity",
                    "set",
                    "keyword",
                    "name",
                ][..],
            ),
            (
                Game::Riftbound,
                &[
                    "energy",
                    "might",
                    "type",
                    "domain",
                    "supertype",
                    "tag",
                    "rarity",
                    "set",
                    "name",
                ][..],
            ),
        ] {
            assert_eq!(ids(game), wanted, "{game}");
        }
    }
}
