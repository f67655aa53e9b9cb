//! The Pokémon TCG importer: upstream `sets/en.json` and `cards/en/<setId>.json` (the
//! PokemonTCG/pokemon-tcg-data format) become card identities, printings, aliases and the
//! globals of `reference-card-data-pokemon.md`.
//!
//! Parsing one record is in [`upstream`], grouping printings into identities and choosing the
//! default printing in [`identity`], and the card object in [`card`]. Other files in the
//! game's folder (`decks/`, `SOURCE.md`) are ignored. Reading the folder and storing the
//! result are the caller's.
//!
//! Catalog order: by the default printing's set release date, then set code, then collector
//! number.

mod card;
mod identity;
mod upstream;

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{Map, Value};

use self::card::{EvolutionIndex, Printing, build_card};
use self::identity::{IdentityKey, NumberKey, ReleaseOrder, is_promo_set, printing_order};
use self::upstream::{RecordError, UpstreamSet, parse_array, parse_card, parse_set, printing_id};
use super::{CardSet, Import, Skipped, SourceFile};

pub use self::card::{CARD_ASSET_KIND, THUMBNAIL_ASSET_KIND};

/// Path of the set list inside the game's data folder.
const SETS_PATH: &str = "sets/en.json";
/// Folder of the per-set card files inside the game's data folder.
const CARDS_DIR: &str = "cards/en/";

/// Imports the Pokémon TCG data folder's files (paths relative to it). A malformed record or
/// file is listed in [`Import::skipped`] and the rest is imported.
pub fn import(files: &[SourceFile]) -> Import {
    let mut skipped = Vec::new();
    let sets = read_sets(files, &mut skipped);
    let printings = read_printings(files, &mut skipped);
    let set_index: HashMap<String, UpstreamSet> = sets
        .iter()
        .map(|set| (set.id.clone(), set.clone()))
        .collect();

    let identities = group_identities(&printings, &set_index);
    let evolutions =
        EvolutionIndex::new(identities.iter().map(|(id, group)| (id.as_str(), group[0])));
    let cards = identities
        .iter()
        .map(|(id, group)| build_card(id, group, &set_index, &evolutions))
        .collect();

    let aliases: Vec<(String, String)> = identities
        .iter()
        .flat_map(|(id, group)| {
            group
                .iter()
                .map(|printing| (printing.id.clone(), id.clone()))
        })
        .collect();
    let mut globals = Map::new();
    globals.insert(
        "printings".into(),
        Value::Object(
            aliases
                .iter()
                .map(|(printing, id)| (printing.clone(), Value::from(id.clone())))
                .collect(),
        ),
    );
    globals.insert(
        "sets".into(),
        Value::Object(
            sets.iter()
                .map(|set| (set.id.clone(), set_entry(set)))
                .collect(),
        ),
    );

    Import {
        cards,
        aliases,
        globals,
        sets: sets.iter().map(card_set).collect(),
        skipped,
    }
}

/// Groups printings into identities, each as `(identity id, printings default first)`, in
/// catalog order: the default printing's set release date, set code, collector number.
fn group_identities<'a>(
    printings: &'a [Printing],
    set_index: &HashMap<String, UpstreamSet>,
) -> Vec<(String, Vec<&'a Printing>)> {
    let release_order = |printing: &Printing| ReleaseOrder {
        release_date: set_index
            .get(&printing.set_code)
            .and_then(|set| set.release_date.clone()),
        set_code: printing.set_code.clone(),
        number: NumberKey::new(&printing.card.number),
        printing_id: printing.id.clone(),
    };
    let is_promo = |printing: &Printing| {
        set_index
            .get(&printing.set_code)
            .is_some_and(|set| is_promo_set(&set.name))
    };

    // A BTreeMap, so that the grouping never depends on the order files were read in.
    let mut identities: BTreeMap<String, Vec<&Printing>> = BTreeMap::new();
    for printing in printings {
        let id = IdentityKey::of(&printing.card, printing.supertype).id();
        identities.entry(id).or_default().push(printing);
    }
    let mut ordered: Vec<(ReleaseOrder, String, Vec<&Printing>)> = identities
        .into_iter()
        .map(|(id, group)| {
            let keys: Vec<(bool, ReleaseOrder)> = group
                .iter()
                .map(|printing| (is_promo(printing), release_order(printing)))
                .collect();
            let group: Vec<&Printing> = printing_order(&keys)
                .into_iter()
                .map(|index| group[index])
                .collect();
            (release_order(group[0]), id, group)
        })
        .collect();
    ordered.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    ordered
        .into_iter()
        .map(|(_, id, group)| (id, group))
        .collect()
}

/// Reads `sets/en.json`, in release order (then set code).
fn read_sets(files: &[SourceFile], skipped: &mut Vec<Skipped>) -> Vec<UpstreamSet> {
    let Some(file) = files.iter().find(|file| file.path == SETS_PATH) else {
        skipped.push(Skipped {
            record: SETS_PATH.into(),
            reason: "file missing: printings have no release date and sets no details".into(),
        });
        return Vec::new();
    };
    let records = match parse_array(&file.contents) {
        Ok(records) => records,
        Err(err) => {
            skipped.push(Skipped {
                record: SETS_PATH.into(),
                reason: err.to_string(),
            });
            return Vec::new();
        }
    };
    let mut seen = HashSet::new();
    let mut sets = Vec::new();
    for (index, record) in records.into_iter().enumerate() {
        let set = parse_set(record).and_then(|set| {
            if seen.insert(set.id.clone()) {
                Ok(set)
            } else {
                Err(RecordError::DuplicateSet(set.id))
            }
        });
        match set {
            Ok(set) => sets.push(set),
            Err(err) => skipped.push(Skipped {
                record: format!("{SETS_PATH}#{index}"),
                reason: err.to_string(),
            }),
        }
    }
    let key = |set: &UpstreamSet| {
        (
            set.release_date.is_none(),
            set.release_date.clone(),
            set.id.clone(),
        )
    };
    sets.sort_by_key(key);
    sets
}

/// Reads every `cards/en/<setId>.json`, files in path order, records in file order.
fn read_printings(files: &[SourceFile], skipped: &mut Vec<Skipped>) -> Vec<Printing> {
    let mut card_files: Vec<(&SourceFile, &str)> = files
        .iter()
        .filter_map(|file| {
            let set_code = file.path.strip_prefix(CARDS_DIR)?.strip_suffix(".json")?;
            (!set_code.is_empty() && !set_code.contains('/')).then_some((file, set_code))
        })
        .collect();
    card_files.sort_by(|a, b| a.0.path.cmp(&b.0.path));

    let mut seen = HashSet::new();
    let mut printings = Vec::new();
    for (file, set_code) in card_files {
        let records = match parse_array(&file.contents) {
            Ok(records) => records,
            Err(err) => {
                skipped.push(Skipped {
                    record: file.path.clone(),
                    reason: err.to_string(),
                });
                continue;
            }
        };
        for (index, record) in records.into_iter().enumerate() {
            let printing = parse_card(record).and_then(|(card, supertype)| {
                let id = printing_id(set_code, &card);
                if seen.insert(id.clone()) {
                    Ok(Printing {
                        id,
                        set_code: set_code.to_owned(),
                        supertype,
                        card,
                    })
                } else {
                    Err(RecordError::DuplicatePrinting(id))
                }
            });
            match printing {
                Ok(printing) => printings.push(printing),
                Err(err) => skipped.push(Skipped {
                    record: format!("{}#{index}", file.path),
                    reason: err.to_string(),
                }),
            }
        }
    }
    printings
}

/// A `globals.sets` entry, with the page's field names; absent upstream fields stay absent.
fn set_entry(set: &UpstreamSet) -> Value {
    let mut entry = Map::new();
    entry.insert("label".into(), set.name.clone().into());
    let optional = [
        ("series", set.series.clone().map(Value::from)),
        ("printedTotal", set.printed_total.map(Value::from)),
        ("total", set.total.map(Value::from)),
        ("ptcgoCode", set.ptcgo_code.clone().map(Value::from)),
        ("releaseDate", set.release_date.clone().map(Value::from)),
    ];
    for (key, value) in optional {
        if let Some(value) = value {
            entry.insert(key.into(), value);
        }
    }
    let mut images = Map::new();
    for (key, url) in [("logo", &set.images.logo), ("symbol", &set.images.symbol)] {
        if let Some(url) = url {
            images.insert(key.into(), url.clone().into());
        }
    }
    if !images.is_empty() {
        entry.insert("images".into(), Value::Object(images));
    }
    Value::Object(entry)
}

fn card_set(set: &UpstreamSet) -> CardSet {
    CardSet {
        code: set.id.clone(),
        label: set.name.clone(),
        release_date: set.release_date.clone(),
        printed_total: set.printed_total,
        total: set.total,
        series: set.series.clone(),
        ptcgo_code: set.ptcgo_code.clone(),
    }
}

#[cfg(test)]
mod tests;
