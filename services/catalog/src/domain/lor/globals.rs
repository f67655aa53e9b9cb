//! The LoR globals object: the lookup tables of `reference-card-data-lor.md` (regions, keywords,
//! rarities, spell speeds, sets, formats, vocab terms, types, Runeterra champions).
//!
//! Tables come from `globals-en_us.json` where Data Dragon has them and are completed from the
//! cards, so that every ref on a card resolves: a ref the globals bundle lacks gets an entry
//! labelled with the ref itself. `types` and `runeterraChampions` have no upstream table and
//! are built from the cards alone.
//!
//! Entry fields the upstream data cannot provide are left absent: `color` (Data Dragon has no
//! colors) and `metadataRef` (an anchor for operator overrides, which an import has none of).
//! `order` is the upstream list position except where that order is arbitrary (sets, regions,
//! types; see [`Table::order_key`]). `showInFilter` is true when at least one collectible card
//! carries the key, so tokens-only entries (`rarities.None`) are not offered as filters.
//! Upstream `adventureRarities` (Path of Champions) is not on the page and is dropped.

use std::collections::HashSet;

use proto::catalog::v1::Card;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::RecordError;
use super::card::CHAMPION;
use super::sets::SetCode;
use crate::domain::{Skipped, SourceFile};

/// Regions in the numbering of Riot's deck code format (`DE` = 0, `FR` = 1, …), keyed by the
/// globals' `abbreviation`; regions are ordered by it. Upstream lists regions in no useful
/// order (Noxus, then Elder Dragon, Ryze, …).
const REGION_ORDER: [&str; 11] = [
    "DE", "FR", "IO", "NX", "PZ", "SI", "BW", "SH", "MT", "BC", "RU",
];

/// Card types in the order a card browser lists them: champions and followers first (the split
/// of `Unit` that deck builders use), then the other card types.
const TYPE_ORDER: [&str; 8] = [
    CHAMPION,
    FOLLOWER,
    "Unit",
    "Spell",
    "Landmark",
    "Equipment",
    "Ability",
    "Trap",
];

/// The `types` key of units that are not champions.
const FOLLOWER: &str = "Follower";

/// One globals table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    Regions,
    Keywords,
    VocabTerms,
    Rarities,
    SpellSpeeds,
    Sets,
    Formats,
    Types,
}

impl Table {
    /// Tables in the order they appear in the globals object.
    const ALL: [Table; 8] = [
        Table::Regions,
        Table::Keywords,
        Table::Rarities,
        Table::SpellSpeeds,
        Table::Sets,
        Table::Formats,
        Table::VocabTerms,
        Table::Types,
    ];

    /// Returns the table's key in the globals object, which is also its key upstream.
    fn key(self) -> &'static str {
        match self {
            Table::Regions => "regions",
            Table::Keywords => "keywords",
            Table::VocabTerms => "vocabTerms",
            Table::Rarities => "rarities",
            Table::SpellSpeeds => "spellSpeeds",
            Table::Sets => "sets",
            Table::Formats => "formats",
            Table::Types => "types",
        }
    }

    /// Returns the keys of this table that a card refers to. Runeterra champion codes in
    /// `regionRefs` are `runeterraChampions` keys, not regions.
    fn refs_of(self, card: &Card, champions: &[String]) -> Vec<String> {
        let Some(game) = card.game.as_ref() else {
            return Vec::new();
        };
        match self {
            Table::Regions => game
                .region_refs
                .iter()
                .filter(|region| !champions.contains(region))
                .cloned()
                .collect(),
            Table::Keywords => game.keyword_refs.clone(),
            Table::VocabTerms => game.vocab_terms.clone(),
            Table::Rarities => game.rarity_ref.iter().cloned().collect(),
            Table::SpellSpeeds => game.spell_speed_ref.iter().cloned().collect(),
            Table::Sets => vec![card.set_code.clone()],
            Table::Formats => game.format_refs.clone(),
            // Keys are English type refs; in the `en_us` catalog they are also the labels.
            Table::Types => {
                let is_champion = game.supertype_ref.as_deref() == Some(CHAMPION);
                let mut types: Vec<String> = game.type_ref.iter().cloned().collect();
                if is_champion {
                    types.push(CHAMPION.to_owned());
                } else if game.type_ref.as_deref() == Some("Unit") {
                    types.push(FOLLOWER.to_owned());
                }
                types
            }
        }
    }

    /// Returns the sort key of an entry, `position` being its place in the upstream list
    /// (then in catalog order for entries completed from the cards).
    fn order_key(self, entry: &Entry, position: usize) -> (usize, usize, Option<SetCode>) {
        match self {
            Table::Regions => {
                let known = entry.abbreviation.as_deref().and_then(|abbreviation| {
                    REGION_ORDER.iter().position(|known| *known == abbreviation)
                });
                (known.unwrap_or(usize::MAX), position, None)
            }
            Table::Types => {
                let known = TYPE_ORDER.iter().position(|known| *known == entry.key);
                (known.unwrap_or(usize::MAX), position, None)
            }
            // Upstream lists sets shuffled (Set3, Set5, Set1, …): release order instead.
            Table::Sets => (0, 0, Some(SetCode::new(&entry.key))),
            _ => (0, position, None),
        }
    }
}

/// An entry of an upstream globals table (`{ "name": "Noxus", "nameRef": "Noxus", … }`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct UpstreamEntry {
    name_ref: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    /// `Some(None)` when upstream writes `null` (formats without an icon), kept as `null`.
    #[serde(default, deserialize_with = "present")]
    icon_absolute_path: Option<Option<String>>,
    #[serde(default)]
    abbreviation: Option<String>,
}

/// Reads a field that may be `null` as `Some(None)`, so `null` and a missing field differ.
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// One entry of a globals table, before it gets its `order` and `showInFilter`.
#[derive(Debug, Clone, PartialEq)]
struct Entry {
    key: String,
    label: String,
    card_code: Option<String>,
    description: Option<String>,
    /// `Some(None)` writes `"icon": null`.
    icon: Option<Option<String>>,
    abbreviation: Option<String>,
}

impl Entry {
    /// An entry known only from a card's ref: labelled with the ref.
    fn from_ref(key: String) -> Self {
        Self {
            label: key.clone(),
            key,
            card_code: None,
            description: None,
            icon: None,
            abbreviation: None,
        }
    }

    fn from_upstream(table: Table, upstream: UpstreamEntry) -> Self {
        let key = match table {
            Table::Sets => SetCode::new(&upstream.name_ref).as_str().to_owned(),
            _ => upstream.name_ref,
        };
        let label = upstream
            .name
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| key.clone());
        Self {
            key,
            label,
            card_code: None,
            description: upstream.description,
            icon: upstream.icon_absolute_path,
            abbreviation: upstream.abbreviation,
        }
    }

    /// Returns the entry as the page documents it.
    fn to_json(&self, order: usize, show_in_filter: bool) -> Value {
        let mut fields = Map::new();
        fields.insert("label".into(), Value::from(self.label.clone()));
        if let Some(card_code) = &self.card_code {
            fields.insert("cardCode".into(), Value::from(card_code.clone()));
        }
        if let Some(description) = &self.description {
            fields.insert("description".into(), Value::from(description.clone()));
        }
        if let Some(icon) = &self.icon {
            fields.insert("icon".into(), icon.clone().map_or(Value::Null, Value::from));
        }
        fields.insert("order".into(), Value::from(order));
        fields.insert("showInFilter".into(), Value::from(show_in_filter));
        Value::Object(fields)
    }
}

/// What [`build`] makes: the globals object, and each set's label for the `CardSet` list.
#[derive(Debug, Clone, Default)]
pub(super) struct Globals {
    pub(super) object: Map<String, Value>,
    pub(super) set_labels: Vec<(SetCode, String)>,
}

/// Builds the globals object from the globals bundle (if there is one) and the imported cards.
/// Malformed upstream tables and entries are reported in `skipped` and left out.
pub(super) fn build(
    upstream: Option<&SourceFile>,
    cards: &[Card],
    champions: &[String],
    skipped: &mut Vec<Skipped>,
) -> Globals {
    let mut upstream_tables = read_upstream(upstream, skipped);
    let champion_regions = take_champion_regions(&mut upstream_tables, cards, champions);

    let mut object = Map::new();
    let mut set_labels = Vec::new();
    for table in Table::ALL {
        let upstream_entries = upstream_tables
            .iter()
            .find(|(known, _)| *known == table)
            .map(|(_, entries)| entries.clone())
            .unwrap_or_default();
        let entries = complete_from_cards(table, upstream_entries, cards, champions);
        if table == Table::Sets {
            set_labels = entries
                .iter()
                .map(|entry| (SetCode::new(&entry.key), entry.label.clone()))
                .collect();
        }
        let shown: HashSet<String> = cards
            .iter()
            .filter(|card| card.collectible == Some(true))
            .flat_map(|card| table.refs_of(card, champions))
            .collect();
        object.insert(table.key().into(), to_table(table, entries, &shown));
    }
    object.insert(
        "runeterraChampions".into(),
        runeterra_champions(cards, champions, &champion_regions),
    );
    Globals { object, set_labels }
}

/// Reads the upstream tables the page documents, each entry with its key; a malformed file,
/// table or entry, or a repeated key, is reported and left out.
fn read_upstream(
    upstream: Option<&SourceFile>,
    skipped: &mut Vec<Skipped>,
) -> Vec<(Table, Vec<Entry>)> {
    let Some(file) = upstream else {
        return Vec::new();
    };
    let object = match serde_json::from_slice::<Map<String, Value>>(&file.contents) {
        Ok(object) => object,
        Err(error) => {
            skipped.push(Skipped {
                record: file.path.clone(),
                reason: RecordError::NotAnObject(error).to_string(),
            });
            return Vec::new();
        }
    };
    let mut tables = Vec::new();
    for table in Table::ALL {
        let Some(value) = object.get(table.key()) else {
            continue;
        };
        let Some(list) = value.as_array() else {
            skipped.push(Skipped {
                record: format!("{}#{}", file.path, table.key()),
                reason: RecordError::NotAList.to_string(),
            });
            continue;
        };
        let mut entries: Vec<Entry> = Vec::new();
        for (index, value) in list.iter().enumerate() {
            let record = format!("{}#{}[{index}]", file.path, table.key());
            let entry = serde_json::from_value::<UpstreamEntry>(value.clone())
                .map_err(RecordError::Malformed)
                .and_then(|upstream| {
                    if upstream.name_ref.is_empty() {
                        Err(RecordError::EmptyField("nameRef"))
                    } else {
                        Ok(Entry::from_upstream(table, upstream))
                    }
                })
                .and_then(
                    |entry| match entries.iter().any(|known| known.key == entry.key) {
                        true => Err(RecordError::DuplicateKey(entry.key)),
                        false => Ok(entry),
                    },
                );
            match entry {
                Ok(entry) => entries.push(entry),
                Err(error) => skipped.push(Skipped {
                    record,
                    reason: error.to_string(),
                }),
            }
        }
        tables.push((table, entries));
    }
    tables
}

/// Removes the upstream regions that are Runeterra champions (Data Dragon lists Bard, Jhin, …
/// as regions, but cards never carry those keys) and returns them as `(card code, entry)`.
///
/// An upstream region is a champion's when its name is the champion card's name, ignoring case,
/// punctuation and a leading "The" (`Poro King` is `The Poro King`).
fn take_champion_regions(
    tables: &mut [(Table, Vec<Entry>)],
    cards: &[Card],
    champions: &[String],
) -> Vec<(String, Entry)> {
    fn comparable(name: &str) -> String {
        let name = name.strip_prefix("The ").unwrap_or(name);
        name.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    }
    let champion_names: Vec<(&String, String)> = champions
        .iter()
        .filter_map(|code| {
            let card = cards.iter().find(|card| card.id == *code)?;
            Some((code, comparable(&card.name)))
        })
        .collect();
    let Some((_, regions)) = tables
        .iter_mut()
        .find(|(table, _)| *table == Table::Regions)
    else {
        return Vec::new();
    };
    let mut taken = Vec::new();
    regions.retain(|entry| {
        let name = comparable(&entry.label);
        match champion_names
            .iter()
            .find(|(_, champion)| *champion == name)
        {
            Some((code, _)) => {
                taken.push(((*code).clone(), entry.clone()));
                false
            }
            None => true,
        }
    });
    taken
}

/// Appends an entry, labelled with the key, for every ref a card carries that the upstream
/// table lacks, in catalog order.
fn complete_from_cards(
    table: Table,
    mut entries: Vec<Entry>,
    cards: &[Card],
    champions: &[String],
) -> Vec<Entry> {
    for key in cards.iter().flat_map(|card| table.refs_of(card, champions)) {
        if !entries.iter().any(|entry| entry.key == key) {
            entries.push(Entry::from_ref(key));
        }
    }
    entries
}

/// Orders a table's entries and writes them as a JSON object keyed by entry key.
fn to_table(table: Table, entries: Vec<Entry>, shown: &HashSet<String>) -> Value {
    let mut keyed: Vec<_> = entries
        .into_iter()
        .enumerate()
        .map(|(position, entry)| (table.order_key(&entry, position), entry))
        .collect();
    keyed.sort_by(|(a, _), (b, _)| a.cmp(b));
    let object: Map<String, Value> = keyed
        .into_iter()
        .enumerate()
        .map(|(order, (_, entry))| {
            let json = entry.to_json(order, shown.contains(&entry.key));
            (entry.key, json)
        })
        .collect();
    Value::Object(object)
}

/// Returns the `runeterraChampions` table: one entry per champion, keyed by card code, in
/// catalog order, with the icon of its upstream region entry when there is one.
fn runeterra_champions(
    cards: &[Card],
    champions: &[String],
    champion_regions: &[(String, Entry)],
) -> Value {
    let entries = champions.iter().enumerate().filter_map(|(order, code)| {
        let card = cards.iter().find(|card| card.id == *code)?;
        let region = champion_regions.iter().find(|(owner, _)| owner == code);
        let entry = Entry {
            key: code.clone(),
            label: card.name.clone(),
            card_code: Some(code.clone()),
            description: None,
            icon: region.and_then(|(_, region)| region.icon.clone()),
            abbreviation: None,
        };
        // Champions are collectible by definition, so always offered as a filter.
        Some((code.clone(), entry.to_json(order, true)))
    });
    Value::Object(entries.collect())
}

#[cfg(test)]
mod tests {
    use super::super::card::RUNETERRA;
    use super::*;
    use proto::catalog::v1::CardGameData;
    use serde_json::json;

    fn globals_file(value: Value) -> SourceFile {
        SourceFile {
            path: "globals-en_us.json".into(),
            contents: serde_json::to_vec(&value).expect("test globals serialize"),
        }
    }

    fn unit(code: &str, name: &str, region: &str, champion: bool) -> Card {
        Card {
            id: code.into(),
            name: name.into(),
            set_code: "set1".into(),
            collectible: Some(true),
            game: Some(CardGameData {
                region_refs: vec![region.into()],
                keyword_refs: vec!["Regeneration".into()],
                rarity_ref: Some(if champion { "Champion" } else { "Common" }.into()),
                type_ref: Some("Unit".into()),
                supertype_ref: champion.then(|| CHAMPION.into()),
                format_refs: vec!["client_Formats_Eternal_name".into()],
                vocab_terms: vec!["Strike".into()],
                ..CardGameData::default()
            }),
            ..Card::default()
        }
    }

    fn upstream() -> Value {
        json!({
            "vocabTerms": [{"description": "When a unit strikes…", "name": "Strike", "nameRef": "Strike"}],
            "keywords": [
                {"description": "Heals fully at round start.", "name": "Regeneration", "nameRef": "Regeneration"},
                {"description": "Can't be blocked.", "name": "Elusive", "nameRef": "Elusive"}
            ],
            "regions": [
                {"abbreviation": "NX", "iconAbsolutePath": "http://x/icon-noxus.png", "name": "Noxus", "nameRef": "Noxus"},
                {"abbreviation": "Bard", "iconAbsolutePath": "http://x/icon-bard.png", "name": "Bard", "nameRef": "Bard"},
                {"abbreviation": "RU", "iconAbsolutePath": "http://x/icon-runeterra.png", "name": "Runeterra", "nameRef": "Runeterra"},
                {"abbreviation": "DE", "iconAbsolutePath": "http://x/icon-demacia.png", "name": "Demacia", "nameRef": "Demacia"}
            ],
            "spellSpeeds": [{"name": "Slow", "nameRef": "Slow"}],
            "rarities": [{"name": "COMMON", "nameRef": "Common"}, {"name": "None", "nameRef": "None"}],
            "sets": [
                {"iconAbsolutePath": "http://x/set2.png", "name": "Rising Tides", "nameRef": "Set2"},
                {"iconAbsolutePath": "http://x/set1.png", "name": "Foundations", "nameRef": "Set1"}
            ],
            "formats": [{"iconAbsolutePath": null, "name": "Eternal", "nameRef": "client_Formats_Eternal_name"}],
            "adventureRarities": [{"name": "LEGENDARY", "nameRef": "Legendary"}]
        })
    }

    fn build_from(value: Value, cards: &[Card]) -> (Globals, Vec<Skipped>) {
        let champions = super::super::card::runeterra_champions(cards);
        let mut skipped = Vec::new();
        let globals = build(Some(&globals_file(value)), cards, &champions, &mut skipped);
        (globals, skipped)
    }

    fn cards() -> Vec<Card> {
        let mut bard = unit("06RU001", "Bard", RUNETERRA, true);
        if let Some(game) = bard.game.as_mut() {
            game.region_refs.push("06RU001".into());
        }
        vec![
            unit("01DE012", "Garen", "Demacia", true),
            unit("01DE001", "Vanguard", "Demacia", false),
            bard,
        ]
    }

    #[test]
    fn globals_have_exactly_the_documented_tables() {
        let (globals, skipped) = build_from(upstream(), &cards());
        let tables: Vec<&str> = globals.object.keys().map(String::as_str).collect();
        assert_eq!(
            tables,
            [
                "regions",
                "keywords",
                "rarities",
                "spellSpeeds",
                "sets",
                "formats",
                "vocabTerms",
                "types",
                "runeterraChampions"
            ]
        );
        assert!(skipped.is_empty(), "{skipped:?}");
    }

    #[test]
    fn regions_are_keyed_by_ref_in_deck_code_order_without_champions() {
        let (globals, _) = build_from(upstream(), &cards());
        assert_eq!(
            globals.object["regions"],
            json!({
                "Demacia": {"label": "Demacia", "icon": "http://x/icon-demacia.png", "order": 0, "showInFilter": true},
                "Noxus": {"label": "Noxus", "icon": "http://x/icon-noxus.png", "order": 1, "showInFilter": false},
                "Runeterra": {"label": "Runeterra", "icon": "http://x/icon-runeterra.png", "order": 2, "showInFilter": true}
            })
        );
        let order: Vec<&String> = globals.object["regions"]
            .as_object()
            .expect("regions is an object")
            .keys()
            .collect();
        assert_eq!(order, ["Demacia", "Noxus", "Runeterra"]);
    }

    #[test]
    fn runeterra_champions_are_keyed_by_card_code_with_their_region_icon() {
        let (globals, _) = build_from(upstream(), &cards());
        assert_eq!(
            globals.object["runeterraChampions"],
            json!({
                "06RU001": {"label": "Bard", "cardCode": "06RU001", "icon": "http://x/icon-bard.png", "order": 0, "showInFilter": true}
            })
        );
    }

    #[test]
    fn keyword_and_vocab_entries_carry_their_description() {
        let (globals, _) = build_from(upstream(), &cards());
        assert_eq!(
            globals.object["keywords"]["Regeneration"],
            json!({"label": "Regeneration", "description": "Heals fully at round start.", "order": 0, "showInFilter": true})
        );
        assert_eq!(
            globals.object["keywords"]["Elusive"]["showInFilter"],
            json!(false)
        );
        assert_eq!(
            globals.object["vocabTerms"]["Strike"],
            json!({"label": "Strike", "description": "When a unit strikes…", "order": 0, "showInFilter": true})
        );
    }

    #[test]
    fn sets_are_keyed_by_set_code_in_release_order() {
        let (globals, _) = build_from(upstream(), &cards());
        assert_eq!(
            globals.object["sets"],
            json!({
                "set1": {"label": "Foundations", "icon": "http://x/set1.png", "order": 0, "showInFilter": true},
                "set2": {"label": "Rising Tides", "icon": "http://x/set2.png", "order": 1, "showInFilter": false}
            })
        );
        assert!(
            globals
                .set_labels
                .contains(&(SetCode::new("set1"), "Foundations".to_owned()))
        );
    }

    #[test]
    fn a_null_icon_stays_null_and_tables_without_icons_have_none() {
        let (globals, _) = build_from(upstream(), &cards());
        assert_eq!(
            globals.object["formats"]["client_Formats_Eternal_name"]["icon"],
            Value::Null
        );
        assert!(globals.object["rarities"]["Common"].get("icon").is_none());
        assert!(globals.object["rarities"]["Common"].get("color").is_none());
    }

    #[test]
    fn rarities_used_only_by_tokens_are_not_offered_as_filters() {
        let (globals, _) = build_from(upstream(), &cards());
        assert_eq!(
            globals.object["rarities"],
            json!({
                "Common": {"label": "COMMON", "order": 0, "showInFilter": true},
                "None": {"label": "None", "order": 1, "showInFilter": false},
                "Champion": {"label": "Champion", "order": 2, "showInFilter": true}
            })
        );
    }

    #[test]
    fn types_split_units_into_champions_and_followers() {
        let (globals, _) = build_from(upstream(), &cards());
        assert_eq!(
            globals.object["types"],
            json!({
                "Champion": {"label": "Champion", "order": 0, "showInFilter": true},
                "Follower": {"label": "Follower", "order": 1, "showInFilter": true},
                "Unit": {"label": "Unit", "order": 2, "showInFilter": true}
            })
        );
    }

    #[test]
    fn refs_missing_upstream_get_an_entry_labelled_with_the_ref() {
        let (globals, _) = build_from(json!({}), &cards());
        assert_eq!(
            globals.object["keywords"],
            json!({"Regeneration": {"label": "Regeneration", "order": 0, "showInFilter": true}})
        );
        assert_eq!(
            globals.object["runeterraChampions"]["06RU001"],
            json!({"label": "Bard", "cardCode": "06RU001", "order": 0, "showInFilter": true})
        );
    }

    #[test]
    fn malformed_tables_and_entries_are_skipped_with_a_reason() {
        let mut value = upstream();
        value["spellSpeeds"] = json!("fast");
        value["keywords"] = json!([
            {"name": "No ref"},
            {"name": "Elusive", "nameRef": "Elusive"},
            {"name": "Elusive again", "nameRef": "Elusive"},
            {"name": "", "nameRef": ""}
        ]);
        let (globals, skipped) = build_from(value, &cards());
        let records: Vec<&str> = skipped.iter().map(|s| s.record.as_str()).collect();
        assert_eq!(
            records,
            [
                "globals-en_us.json#keywords[0]",
                "globals-en_us.json#keywords[2]",
                "globals-en_us.json#keywords[3]",
                "globals-en_us.json#spellSpeeds",
            ]
        );
        assert!(
            skipped[0].reason.contains("nameRef"),
            "{}",
            skipped[0].reason
        );
        assert!(
            skipped[1].reason.contains("duplicate"),
            "{}",
            skipped[1].reason
        );
        assert_eq!(
            globals.object["keywords"]["Elusive"]["label"],
            json!("Elusive")
        );
    }

    #[test]
    fn an_unreadable_globals_file_is_skipped_and_tables_come_from_the_cards() {
        let mut skipped = Vec::new();
        let file = SourceFile {
            path: "globals-en_us.json".into(),
            contents: b"[1, 2".to_vec(),
        };
        let globals = build(Some(&file), &cards(), &[], &mut skipped);
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].record, "globals-en_us.json");
        assert_eq!(
            globals.object["regions"]["Demacia"]["label"],
            json!("Demacia")
        );
    }
}
