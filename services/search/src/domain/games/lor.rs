//! Legends of Runeterra: `spec/turny/reference-search-lor.md`.

use proto::catalog::v1::Card;

use super::{
    CardDoc, FieldDef, FieldKey, FieldKind, GameSpec, Normalize, PrintDoc, SetRanks, ShortcutDef,
    is,
};
use crate::domain::text::Folded;

/// Rarities in comparison order.
pub const RARITIES: &[&str] = &["Common", "Rare", "Epic", "Champion"];

const TYPES: &[&str] = &["Unit", "Spell", "Landmark", "Ability", "Equipment"];

const REGIONS: &[&str] = &[
    "Demacia",
    "Freljord",
    "Ionia",
    "Noxus",
    "PiltoverZaun",
    "ShadowIsles",
    "Bilgewater",
    "Shurima",
    "Targon",
    "BandleCity",
    "Runeterra",
];

const FIELDS: &[FieldDef] = &[
    FieldDef {
        name: "name",
        aliases: &["n"],
        kind: FieldKind::Text,
        key: FieldKey::Name,
        order: None,
        normalize: Normalize::Plain,
    },
    FieldDef {
        name: "text",
        aliases: &["o", "oracle"],
        kind: FieldKind::Text,
        key: FieldKey::Text,
        order: None,
        normalize: Normalize::Plain,
    },
    FieldDef {
        name: "type",
        aliases: &["t"],
        kind: FieldKind::Value,
        key: FieldKey::Type,
        order: Some(TYPES),
        normalize: Normalize::Plain,
    },
    FieldDef {
        name: "rarity",
        aliases: &["r"],
        kind: FieldKind::Value,
        key: FieldKey::Rarity,
        order: Some(RARITIES),
        normalize: Normalize::Plain,
    },
    FieldDef {
        name: "set",
        aliases: &["e"],
        kind: FieldKind::Value,
        key: FieldKey::Set,
        order: None,
        normalize: Normalize::Plain,
    },
    FieldDef {
        name: "cost",
        aliases: &["mv", "cmc"],
        kind: FieldKind::Number,
        key: FieldKey::Cost,
        order: None,
        normalize: Normalize::Plain,
    },
    FieldDef {
        name: "region",
        aliases: &["c", "color"],
        kind: FieldKind::Value,
        key: FieldKey::Region,
        order: Some(REGIONS),
        normalize: Normalize::JoinWords,
    },
    FieldDef {
        name: "keyword",
        aliases: &["kw"],
        kind: FieldKind::Value,
        key: FieldKey::Keyword,
        order: None,
        normalize: Normalize::JoinWords,
    },
    FieldDef {
        name: "supertype",
        aliases: &[],
        kind: FieldKind::Value,
        key: FieldKey::Supertype,
        order: Some(&["Champion"]),
        normalize: Normalize::Plain,
    },
];

fn type_is(card: &Card, expected: &str) -> bool {
    let game = card.game.as_ref();
    is(
        game.and_then(|g| g.type_ref.as_deref().or(g.r#type.as_deref())),
        expected,
    )
}

const SHORTCUTS: &[ShortcutDef] = &[
    ShortcutDef {
        name: "champion",
        case_sensitive: false,
        test: |card| {
            type_is(card, "Unit")
                && is(
                    card.game.as_ref().and_then(|g| g.supertype_ref.as_deref()),
                    "Champion",
                )
        },
    },
    ShortcutDef {
        name: "landmark",
        case_sensitive: false,
        test: |card| type_is(card, "Landmark"),
    },
    ShortcutDef {
        name: "unit",
        case_sensitive: false,
        test: |card| type_is(card, "Unit"),
    },
    ShortcutDef {
        name: "spell",
        case_sensitive: false,
        test: |card| type_is(card, "Spell"),
    },
    ShortcutDef {
        name: "equipment",
        case_sensitive: false,
        test: |card| type_is(card, "Equipment"),
    },
    ShortcutDef {
        name: "collectible",
        case_sensitive: false,
        test: |card| card.collectible == Some(true),
    },
    ShortcutDef {
        name: "runeterra",
        case_sensitive: false,
        test: |card| {
            card.game
                .as_ref()
                .is_some_and(|g| g.region_refs.iter().any(|r| r == "Runeterra"))
        },
    },
];

/// The language of Legends of Runeterra.
pub static SPEC: GameSpec = GameSpec {
    fields: FIELDS,
    shortcuts: SHORTCUTS,
    document,
};

fn document(card: &Card, sets: &SetRanks) -> CardDoc {
    let game = card.game.clone().unwrap_or_default();
    // Rules text includes a champion's level-up text (fields table, `text`).
    let text = [
        game.description_raw.as_deref(),
        game.levelup_description_raw.as_deref(),
    ]
    .into_iter()
    .flatten()
    .filter(|part| !part.is_empty())
    .collect::<Vec<_>>()
    .join("\n");
    let mut doc = CardDoc::new(&card.name, text);
    doc.add(
        FieldKey::Type,
        game.type_ref.as_deref().or(game.r#type.as_deref()),
    );
    doc.add(FieldKey::Region, &game.region_refs);
    doc.add(FieldKey::Keyword, &game.keyword_refs);
    doc.add(
        FieldKey::Supertype,
        game.supertype_ref.as_deref().or(game.supertype.as_deref()),
    );
    doc.set_number(FieldKey::Cost, game.cost.map(i64::from));
    // LoR has no printings: the card is its own single printing.
    doc.printings.push(PrintDoc {
        printing: None,
        set: Folded::new(card.set_code.as_str()),
        rarity: game.rarity_ref.as_deref().map(Folded::new),
        regmark: None,
        released: String::new(),
        set_rank: sets.rank(&card.set_code),
        number: card.id.clone(),
    });
    doc
}
