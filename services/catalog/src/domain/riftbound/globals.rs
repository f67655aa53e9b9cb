//! The Riftbound globals object (`ctx.globals`) and the set list, exactly as the card-data
//! page documents them: lookup tables for the values on cards, the keyword glossary, the
//! symbol lexicon and the alias map.
//!
//! Built from the imported cards and records only: a lookup holds the values that occur, and
//! `keywords` only the keywords some card references.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::record::PrintRecord;
use super::sets;
use super::text;
use super::{Card, CardSet};

/// Domains in the order the game lists them (rune numbering in Origins), colorless last.
const DOMAIN_ORDER: [&str; 7] = [
    "fury",
    "calm",
    "mind",
    "body",
    "chaos",
    "order",
    "colorless",
];
/// Rarities from most to least common.
const RARITY_ORDER: [&str; 6] = ["common", "uncommon", "rare", "epic", "showcase", "promo"];
/// Card types in the order the card-data page lists them.
const TYPE_ORDER: [&str; 6] = ["unit", "spell", "gear", "battlefield", "rune", "legend"];

/// Builds the globals object from the cards (in catalog order) and every imported record.
pub fn build(cards: &[Card], records: &[&PrintRecord]) -> Map<String, Value> {
    let games = || cards.iter().filter_map(|card| card.game.as_ref());
    let domains = games()
        .flat_map(|game| game.domains.iter().cloned())
        .collect();
    let rarities = records
        .iter()
        .filter_map(|record| record.rarity.clone())
        .collect();
    let types = games().filter_map(|game| game.r#type.clone()).collect();
    let referenced: BTreeSet<String> = games()
        .flat_map(|game| game.keyword_refs.iter().cloned())
        .collect();

    let keywords = keyword_glossary(&referenced, records);
    let symbols = symbol_lexicon(records, &keywords);

    let mut globals = Map::new();
    globals.insert("domains".into(), lookup(domains, &DOMAIN_ORDER).into());
    globals.insert("rarities".into(), lookup(rarities, &RARITY_ORDER).into());
    globals.insert("types".into(), lookup(types, &TYPE_ORDER).into());
    globals.insert("sets".into(), set_lookup(records).into());
    globals.insert(
        "formats".into(),
        json!({ "standard": { "label": "Standard", "order": 1 } }),
    );
    globals.insert("keywords".into(), keywords.into());
    globals.insert("symbols".into(), symbols.into());
    globals.insert("aliases".into(), alias_map(cards).into());
    globals
}

/// Builds the game's sets in release order, as [`CardSet`]s.
pub fn card_sets(records: &[&PrintRecord]) -> Vec<CardSet> {
    sets_in_order(records)
        .into_iter()
        .map(|(code, members)| {
            let printings: BTreeSet<&str> = members.iter().map(|r| r.id.as_str()).collect();
            CardSet {
                label: members[0].set_label.clone(),
                printed_total: printed_size(&code, &members)
                    .and_then(|size| i32::try_from(size).ok()),
                total: i32::try_from(printings.len()).ok(),
                code,
                ..CardSet::default()
            }
        })
        .collect()
}

/// Lookup entries `{ label, order }` for the keys that occur: known keys in `known` order,
/// the rest after them alphabetically. `order` starts at 1, so a script's `entry.order || …`
/// never mistakes the first entry for a missing one.
fn lookup(keys: BTreeSet<String>, known: &[&str]) -> Map<String, Value> {
    let mut keys: Vec<String> = keys.into_iter().collect();
    keys.sort_by_key(|key| known.iter().position(|k| k == key).unwrap_or(known.len()));
    keys.into_iter()
        .enumerate()
        .map(|(at, key)| {
            let entry = json!({ "label": title_case(&key), "order": at + 1 });
            (key, entry)
        })
        .collect()
}

/// `sets`: `OGN` → `{ label: "Origins", order }`, in release order.
fn set_lookup(records: &[&PrintRecord]) -> Map<String, Value> {
    sets_in_order(records)
        .into_iter()
        .enumerate()
        .map(|(at, (code, members))| {
            (
                code,
                json!({ "label": members[0].set_label, "order": at + 1 }),
            )
        })
        .collect()
}

/// Records per set code, sets in release order, records in the order they were read.
fn sets_in_order<'a>(records: &[&'a PrintRecord]) -> Vec<(String, Vec<&'a PrintRecord>)> {
    let mut by_set: BTreeMap<((usize, String), String), Vec<&PrintRecord>> = BTreeMap::new();
    for record in records {
        let (rank, tie) = sets::release_rank(&record.set_code);
        by_set
            .entry(((rank, tie.to_owned()), record.set_code.clone()))
            .or_default()
            .push(record);
    }
    by_set
        .into_iter()
        .map(|((_, code), mut members)| {
            members.sort_by_key(|record| record.position);
            (code, members)
        })
        .collect()
}

/// The printed set size of a main set: the size most of its ids carry (`298` for Origins;
/// Vendetta's six `sp` slots say `006`). Promo series number against other sets: none.
fn printed_size(code: &str, members: &[&PrintRecord]) -> Option<u32> {
    if sets::is_promo(code) {
        return None;
    }
    let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
    for record in members {
        if let Some(size) = record.id.set_size() {
            *counts.entry(size).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .max_by_key(|(size, count)| (*count, *size))
        .map(|(size, _)| size)
}

/// `keywords`: the referenced keywords, alphabetically, each with the label it is most often
/// printed with and its reminder text as `description`.
///
/// The description is the most common reminder after the bare keyword (`[Assault]`); keywords
/// printed only with a number (`[Level 6]`) get none, since their reminders carry the number.
fn keyword_glossary(referenced: &BTreeSet<String>, records: &[&PrintRecord]) -> Map<String, Value> {
    #[derive(Default)]
    struct Seen {
        labels: BTreeMap<String, usize>,
        reminders: BTreeMap<String, usize>,
    }
    let mut seen: BTreeMap<&str, Seen> = BTreeMap::new();
    for record in records {
        for marker in text::keyword_markers(record.text_plain.as_deref().unwrap_or_default()) {
            let Some(key) = referenced.get(&marker.key) else {
                continue;
            };
            let entry = seen.entry(key.as_str()).or_default();
            *entry.labels.entry(marker.label).or_default() += 1;
            if let (false, Some(reminder)) = (marker.has_number, marker.reminder) {
                *entry.reminders.entry(reminder).or_default() += 1;
            }
        }
    }
    // Ties go to the alphabetically first text, so the glossary never depends on read order.
    let most_common = |counts: &BTreeMap<String, usize>| {
        counts
            .iter()
            .max_by(|(a_text, a), (b_text, b)| a.cmp(b).then_with(|| b_text.cmp(a_text)))
            .map(|(text, _)| text.clone())
    };
    referenced
        .iter()
        .enumerate()
        .map(|(at, key)| {
            let seen = seen.get(key.as_str());
            let label = seen
                .and_then(|s| most_common(&s.labels))
                .unwrap_or_else(|| title_case(key));
            let mut entry = Map::new();
            entry.insert("label".into(), label.into());
            entry.insert("order".into(), (at + 1).into());
            if let Some(description) = seen.and_then(|s| most_common(&s.reminders)) {
                entry.insert("description".into(), description.into());
            }
            (key.clone(), Value::Object(entry))
        })
        .collect()
}

/// `symbols`: every `:rb_…:` token in rules text and keyword descriptions, keyed by the
/// token without its colons (`rb_energy_1` → `{ token: ":rb_energy_1:" }`).
fn symbol_lexicon(records: &[&PrintRecord], keywords: &Map<String, Value>) -> Map<String, Value> {
    let descriptions = keywords
        .values()
        .filter_map(|entry| entry["description"].as_str());
    let texts = records
        .iter()
        .flat_map(|record| [record.text.as_deref(), record.text_plain.as_deref()])
        .flatten()
        .chain(descriptions);
    let tokens: BTreeSet<&str> = texts.flat_map(text::symbol_tokens).collect();
    tokens
        .into_iter()
        .map(|token| {
            (
                token.trim_matches(':').to_owned(),
                json!({ "token": token }),
            )
        })
        .collect()
}

/// `aliases`: every printing id and variant id → its identity id; identity ids → themselves.
fn alias_map(cards: &[Card]) -> Map<String, Value> {
    let mut aliases: BTreeMap<&str, &str> = BTreeMap::new();
    for card in cards {
        aliases.insert(&card.id, &card.id);
        for printing in &card.printings {
            aliases.insert(&printing.id, &card.id);
            for variant in &printing.variants {
                aliases.insert(&variant.id, &card.id);
            }
        }
    }
    aliases
        .into_iter()
        .map(|(alias, id)| (alias.to_owned(), id.into()))
        .collect()
}

/// `fury` → `Fury`, `alternate_art` → `Alternate art`.
fn title_case(key: &str) -> String {
    let spaced = key.replace(['_', '-'], " ");
    let mut chars = spaced.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
