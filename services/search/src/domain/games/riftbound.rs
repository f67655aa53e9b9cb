//! Riftbound: `spec/turny/reference-search-riftbound.md`.

use proto::catalog::v1::Card;

use super::field;
use super::{
    CardDoc, FieldDef, FieldKey, FieldKind, GameSpec, Normalize, PrintDoc, SetRanks, ShortcutDef,
    is,
};
use crate::domain::text::Folded;

/// Rarities in comparison order.
pub const RARITIES: &[&str] = &[
    "common",
    "uncommon",
    "rare",
    "epic",
    "legendary",
    "showcase",
    "ultimate",
];

const TYPES: &[&str] = &[
    "unit",
    "champion",
    "spell",
    "gear",
    "battlefield",
    "rune",
    "legend",
];

const DOMAINS: &[&str] = &[
    "body",
    "calm",
    "chaos",
    "fury",
    "mind",
    "order",
    "colorless",
    "neutral",
];

const FIELDS: &[FieldDef] = &[
    field("name", &["n"], FieldKind::Text, FieldKey::Name, None),
    field(
        "text",
        &["o", "oracle"],
        FieldKind::Text,
        FieldKey::Text,
        None,
    ),
    field(
        "type",
        &["t"],
        FieldKind::Value,
        FieldKey::Type,
        Some(TYPES),
    ),
    field(
        "rarity",
        &["r"],
        FieldKind::Value,
        FieldKey::Rarity,
        Some(RARITIES),
    ),
    field("set", &["e"], FieldKind::Value, FieldKey::Set, None),
    field(
        "cost",
        &["mv", "cmc", "energy"],
        FieldKind::Number,
        FieldKey::Cost,
        None,
    ),
    field(
        "domain",
        &[],
        FieldKind::Value,
        FieldKey::Domain,
        Some(DOMAINS),
    ),
    field("supertype", &[], FieldKind::Text, FieldKey::Supertype, None),
    field("tag", &[], FieldKind::Value, FieldKey::Tag, None),
    FieldDef {
        name: "keyword",
        aliases: &["kw"],
        kind: FieldKind::Value,
        key: FieldKey::Keyword,
        order: None,
        normalize: Normalize::Underscores,
    },
    field("might", &[], FieldKind::Number, FieldKey::Might, None),
    field("power", &["pow"], FieldKind::Number, FieldKey::Power, None),
];

const SHORTCUTS: &[ShortcutDef] = &[ShortcutDef {
    name: "champion",
    case_sensitive: false,
    test: |card| {
        is(
            card.game.as_ref().and_then(|g| g.supertype.as_deref()),
            "Champion",
        )
    },
}];

/// The language of Riftbound.
pub static SPEC: GameSpec = GameSpec {
    fields: FIELDS,
    shortcuts: SHORTCUTS,
    document,
};

fn document(card: &Card, sets: &SetRanks) -> CardDoc {
    let game = card.game.clone().unwrap_or_default();
    let mut doc = CardDoc::new(&card.name, game.text_plain.clone().unwrap_or_default());
    doc.add(FieldKey::Type, game.r#type.as_deref());
    // The type list's `champion` is a champion unit.
    if is(game.r#type.as_deref(), "unit") && is(game.supertype.as_deref(), "Champion") {
        doc.add(FieldKey::Type, ["champion"]);
    }
    doc.add(FieldKey::Domain, &game.domains);
    doc.add(FieldKey::Supertype, game.supertype.as_deref());
    doc.add(FieldKey::Tag, &game.tags);
    doc.add(FieldKey::Keyword, &game.keyword_refs);
    doc.set_number(FieldKey::Cost, game.energy.map(i64::from));
    doc.set_number(FieldKey::Might, game.might.map(i64::from));
    // A card with an Energy cost and no Power cost has a Power cost of 0.
    doc.set_number(
        FieldKey::Power,
        game.power.or(game.energy.map(|_| 0)).map(i64::from),
    );
    for (i, printing) in card.printings.iter().enumerate() {
        // Showcase and ultimate prints are rarities of their own.
        let treatment = printing.variants.iter().find_map(|v| {
            v.kind
                .as_deref()
                .filter(|kind| matches!(*kind, "showcase" | "ultimate"))
        });
        doc.printings.push(PrintDoc {
            printing: Some(i),
            set: Folded::new(printing.set_code.as_str()),
            rarity: treatment.or(game.rarity.as_deref()).map(Folded::new),
            regmark: None,
            released: String::new(),
            set_rank: sets.rank(&printing.set_code),
            number: printing.number.clone().unwrap_or_default(),
        });
    }
    if doc.printings.is_empty() {
        doc.printings.push(PrintDoc {
            printing: None,
            set: Folded::new(card.set_code.as_str()),
            rarity: game.rarity.as_deref().map(Folded::new),
            regmark: None,
            released: String::new(),
            set_rank: sets.rank(&card.set_code),
            number: game.collector_number.clone().unwrap_or_default(),
        });
    }
    doc
}
