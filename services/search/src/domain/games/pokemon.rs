//! Pokémon TCG: `spec/turny/reference-search-pokemon.md`.

use proto::catalog::v1::Card;

use super::field;
use super::{
    CardDoc, FieldDef, FieldKey, FieldKind, GameSpec, PrintDoc, SetRanks, ShortcutDef,
    metadata_string,
};
use crate::domain::cost::EnergyMix;
use crate::domain::text::Folded;

/// Energy types, in the page's order (type and weakness).
const ENERGY_TYPES: &[&str] = &[
    "Grass",
    "Fire",
    "Water",
    "Lightning",
    "Psychic",
    "Fighting",
    "Darkness",
    "Metal",
    "Fairy",
    "Dragon",
    "Colorless",
];

/// Rarities in comparison order; any other printed rarity never matches a comparison.
pub const RARITIES: &[&str] = &[
    "Common",
    "Uncommon",
    "Rare",
    "Double Rare",
    "Ultra Rare",
    "Illustration Rare",
    "Special Illustration Rare",
    "Hyper Rare",
];

const STAGES: &[&str] = &["Basic", "Stage 1", "Stage 2", "Final"];

const REGULATION_MARKS: &[&str] = &[
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S",
    "T", "U", "V", "W", "X", "Y", "Z",
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
        Some(ENERGY_TYPES),
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
        &["attackcost", "energy", "mv", "cmc"],
        FieldKind::CostSymbols,
        FieldKey::Cost,
        None,
    ),
    field("hp", &[], FieldKind::Number, FieldKey::Hp, None),
    field(
        "damage",
        &["dmg"],
        FieldKind::Number,
        FieldKey::Damage,
        None,
    ),
    field(
        "stage",
        &[],
        FieldKind::Value,
        FieldKey::Stage,
        Some(STAGES),
    ),
    field("retreat", &[], FieldKind::Number, FieldKey::Retreat, None),
    field(
        "weakness",
        &["weak"],
        FieldKind::Value,
        FieldKey::Weakness,
        Some(ENERGY_TYPES),
    ),
    field(
        "regmark",
        &["reg"],
        FieldKind::Value,
        FieldKey::RegMark,
        Some(REGULATION_MARKS),
    ),
    field("subtype", &[], FieldKind::Text, FieldKey::Subtype, None),
];

fn has_subtype(card: &Card, subtype: &str) -> bool {
    card.game
        .as_ref()
        .is_some_and(|g| g.subtypes.iter().any(|s| s == subtype))
}

macro_rules! subtype_shortcut {
    ($name:literal, $subtype:literal) => {
        ShortcutDef {
            name: $name,
            case_sensitive: false,
            test: |card| has_subtype(card, $subtype),
        }
    };
}

const SHORTCUTS: &[ShortcutDef] = &[
    subtype_shortcut!("ex", "ex"),
    subtype_shortcut!("v", "V"),
    subtype_shortcut!("vmax", "VMAX"),
    subtype_shortcut!("vstar", "VSTAR"),
    subtype_shortcut!("v-union", "V-UNION"),
    subtype_shortcut!("gx", "GX"),
    // Only the capitalised spelling: `is:ex` is the modern mechanic.
    ShortcutDef {
        name: "EX",
        case_sensitive: true,
        test: |card| has_subtype(card, "EX"),
    },
    subtype_shortcut!("break", "BREAK"),
    subtype_shortcut!("radiant", "Radiant"),
    subtype_shortcut!("prism star", "Prism Star"),
    subtype_shortcut!("ace spec", "ACE SPEC"),
    subtype_shortcut!("mega", "MEGA"),
    subtype_shortcut!("tera", "Tera"),
    subtype_shortcut!("ancient", "Ancient"),
    subtype_shortcut!("future", "Future"),
    subtype_shortcut!("fusion strike", "Fusion Strike"),
    subtype_shortcut!("single strike", "Single Strike"),
    subtype_shortcut!("rapid strike", "Rapid Strike"),
    subtype_shortcut!("tag team", "TAG TEAM"),
    subtype_shortcut!("ultra beast", "Ultra Beast"),
    subtype_shortcut!("team plasma", "Team Plasma"),
    subtype_shortcut!("sp", "SP"),
    // The data has no Delta Species subtype: those cards carry δ in their name.
    ShortcutDef {
        name: "delta species",
        case_sensitive: false,
        test: |card| card.name.contains('δ'),
    },
];

/// The language of the Pokémon TCG.
pub static SPEC: GameSpec = GameSpec {
    fields: FIELDS,
    shortcuts: SHORTCUTS,
    document,
};

/// Reads printed base damage: the leading number, ignoring a `+`, `×` or `-` after it.
pub fn base_damage(printed: &str) -> Option<i64> {
    let digits: String = printed
        .trim()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

fn document(card: &Card, sets: &SetRanks) -> CardDoc {
    let game = card.game.clone().unwrap_or_default();
    let is_pokemon = game.supertype.as_deref() == Some("Pokemon");
    // Rules text, plus the names and text of abilities and attacks (fields table, `text`).
    let mut parts: Vec<&str> = game.rules.iter().map(String::as_str).collect();
    for ability in &game.abilities {
        parts.push(&ability.name);
        parts.push(&ability.text);
    }
    for attack in &game.attacks {
        parts.push(&attack.name);
        parts.extend(attack.text.as_deref());
    }
    let mut doc = CardDoc::new(&card.name, parts.join("\n"));
    doc.add(FieldKey::Type, &game.types);
    doc.add(FieldKey::Subtype, &game.subtypes);
    doc.add(
        FieldKey::Weakness,
        game.weaknesses.iter().map(|w| &w.r#type),
    );
    if is_pokemon {
        doc.add(
            FieldKey::Stage,
            game.subtypes
                .iter()
                .filter(|s| matches!(s.as_str(), "Basic" | "Stage 1" | "Stage 2")),
        );
        // `final`: nothing in the whole card pool evolves from this card, and the card
        // names nothing it evolves into.
        if game.evolves_to_ids.is_empty() && game.evolves_to.is_empty() {
            doc.add(FieldKey::Stage, ["Final"]);
        }
        // A Pokémon with no retreat cost printed retreats for free.
        let retreat = game
            .converted_retreat_cost
            .map(i64::from)
            .unwrap_or(game.retreat_cost.len() as i64);
        doc.set_number(FieldKey::Retreat, Some(retreat));
    }
    doc.set_number(
        FieldKey::Hp,
        game.hp.as_deref().and_then(|hp| hp.trim().parse().ok()),
    );
    doc.set_number(
        FieldKey::Damage,
        game.attacks
            .iter()
            .filter_map(|a| a.damage.as_deref().and_then(base_damage))
            .max(),
    );
    doc.attack_costs = game
        .attacks
        .iter()
        .map(|a| EnergyMix::of_attack(&a.cost))
        .collect();
    doc.set_number(
        FieldKey::Cost,
        game.attacks
            .iter()
            .map(|a| {
                a.converted_energy_cost
                    .map(i64::from)
                    .unwrap_or_else(|| i64::from(EnergyMix::of_attack(&a.cost).total()))
            })
            .min(),
    );
    for (i, printing) in card.printings.iter().enumerate() {
        let metadata = printing.metadata.as_ref();
        doc.printings.push(PrintDoc {
            printing: Some(i),
            set: Folded::new(printing.set_code.as_str()),
            rarity: metadata_string(metadata, "rarity").map(Folded::new),
            regmark: metadata_string(metadata, "regulationMark")
                .or_else(|| game.regulation_mark.clone())
                .map(Folded::new),
            released: printing.release_date.clone().unwrap_or_default(),
            set_rank: sets.rank(&printing.set_code),
            number: printing.number.clone().unwrap_or_default(),
        });
    }
    if doc.printings.is_empty() {
        doc.printings.push(PrintDoc {
            printing: None,
            set: Folded::new(card.set_code.as_str()),
            rarity: game.rarity.as_deref().map(Folded::new),
            regmark: game.regulation_mark.as_deref().map(Folded::new),
            released: String::new(),
            set_rank: sets.rank(&card.set_code),
            number: game.number.clone().unwrap_or_default(),
        });
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damage_ignores_what_follows_the_number() {
        assert_eq!(base_damage("120"), Some(120));
        assert_eq!(base_damage("20+"), Some(20));
        assert_eq!(base_damage("30×"), Some(30));
        assert_eq!(base_damage("?"), None);
    }
}
