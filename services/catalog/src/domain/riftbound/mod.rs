//! The Riftbound importer: turns the riftcodex card dump (`riftcodex_cards_raw.json`, one
//! record per printing and treatment) into card identities with their printings, aliases,
//! globals and sets, as `spec/turny/reference-card-data-riftbound.md` defines them.
//!
//! The steps, each in its own module: check every record ([`record`]), keep the newest record
//! of each printing and treatment, gather the treatments of a printing id, group printings
//! into playable cards and build each card ([`card`]), then the globals ([`globals`]).
//! Reading the data folder and storing the result are left to the caller.

mod card;
mod globals;
mod printing_id;
mod record;
mod sets;
mod text;
mod treatment;

use std::collections::{BTreeMap, BTreeSet};

use super::{Card, CardSet, Import, Skipped, SourceFile};
use card::Printing;
use printing_id::PrintingId;
use record::PrintRecord;
use treatment::Treatment;

pub use card::identity_id;

/// Imports the Riftbound card dump: every `.json` file among `files` (other files, such as
/// `SOURCE.md`, are ignored) is a JSON array of riftcodex card records.
///
/// A record that cannot be read, or that a newer record of the same printing and treatment
/// supersedes, is listed in [`Import::skipped`] with the reason; nothing here panics or gives
/// up on the rest. The same files always give the same cards, ids and order.
pub fn import(files: &[SourceFile]) -> Import {
    let mut skipped = Vec::new();
    let records = read_records(files, &mut skipped);
    let printings = merge_printings(records, &mut skipped);

    let known: BTreeSet<(String, String)> = printings
        .iter()
        .map(|printing| {
            let (name, card_type) = printing.primary().identity_key();
            (name, card_type.to_owned())
        })
        .collect();
    let mut identities: BTreeMap<String, Vec<Printing>> = BTreeMap::new();
    for printing in printings {
        let (name, card_type) = identity_key(printing.primary(), &known);
        identities
            .entry(identity_id(&name, &card_type))
            .or_default()
            .push(printing);
    }
    let kept: Vec<PrintRecord> = identities
        .values()
        .flatten()
        .flat_map(|printing| printing.records().iter().cloned())
        .collect();
    let mut cards: Vec<Card> = identities
        .into_iter()
        .filter_map(|(id, printings)| card::build(id, printings))
        .collect();
    cards.sort_by(|a, b| catalog_key(a).cmp(&catalog_key(b)));

    let mut aliases: Vec<(String, String)> = cards
        .iter()
        .flat_map(|card| {
            card.printings.iter().flat_map(move |printing| {
                std::iter::once(printing.id.clone())
                    .chain(printing.variants.iter().map(|variant| variant.id.clone()))
                    .map(move |alias| (alias, card.id.clone()))
            })
        })
        .collect();
    aliases.sort();

    let mut kept_refs: Vec<&PrintRecord> = kept.iter().collect();
    kept_refs.sort_by_key(|record| record.position);
    Import {
        globals: globals::build(&cards, &kept_refs),
        sets: globals::card_sets(&kept_refs),
        cards,
        aliases,
        skipped,
    }
}

/// Reads every record of every `.json` file, in path order, reporting the unreadable ones.
fn read_records(files: &[SourceFile], skipped: &mut Vec<Skipped>) -> Vec<PrintRecord> {
    let mut files: Vec<&SourceFile> = files
        .iter()
        .filter(|file| file.path.ends_with(".json"))
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let mut records = Vec::new();
    for (file_at, file) in files.into_iter().enumerate() {
        let values = match serde_json::from_slice::<Vec<serde_json::Value>>(&file.contents) {
            Ok(values) => values,
            Err(err) => {
                skipped.push(Skipped {
                    record: file.path.clone(),
                    reason: format!("not a JSON array of card records: {err}"),
                });
                continue;
            }
        };
        for (index, value) in values.into_iter().enumerate() {
            let source = format!("{}#{index}", file.path);
            match PrintRecord::parse(value, source.clone(), (file_at, index)) {
                Ok(record) => records.push(record),
                Err(err) => skipped.push(Skipped {
                    record: source,
                    reason: err.to_string(),
                }),
            }
        }
    }
    records
}

/// Keeps the newest record of each printing id and treatment, and gathers the treatments of
/// each printing id into one [`Printing`].
///
/// riftcodex holds two harvests of some printings (Vendetta's preview records, without
/// TCGplayer ids and sometimes without the champion's name, next to the released ones);
/// the newer `updated_on` wins, then the later record.
fn merge_printings(records: Vec<PrintRecord>, skipped: &mut Vec<Skipped>) -> Vec<Printing> {
    let mut newest: BTreeMap<(PrintingId, Treatment), PrintRecord> = BTreeMap::new();
    for record in records {
        let key = (record.id.clone(), record.treatment);
        let (keep, drop) = match newest.remove(&key) {
            None => (record, None),
            Some(seen) if freshness(&record) > freshness(&seen) => (record, Some(seen)),
            Some(seen) => (seen, Some(record)),
        };
        if let Some(drop) = drop {
            skipped.push(Skipped {
                reason: format!(
                    "superseded by {}, a newer record of {}",
                    keep.source, keep.id
                ),
                record: drop.source,
            });
        }
        newest.insert(key, keep);
    }

    let mut by_id: BTreeMap<PrintingId, Vec<PrintRecord>> = BTreeMap::new();
    for ((id, _), record) in newest {
        by_id.entry(id).or_default().push(record);
    }
    let mut printings = Vec::new();
    for records in by_id.into_values() {
        let Some(printing) = Printing::new(records) else {
            continue;
        };
        let (printing, strays) = printing.split_other_cards();
        for stray in strays {
            skipped.push(Skipped {
                reason: format!(
                    "printing {} is already {}, not {}",
                    stray.id,
                    printing.primary().name,
                    stray.name
                ),
                record: stray.source,
            });
        }
        printings.push(printing);
    }
    printings
}

/// The identity key of a record: its [`text::identity_name`] and type.
///
/// riftcodex's preview harvest names some champion cards by their subtitle alone
/// (`ven-194-166` "Defender of Tomorrow" for `Jayce - Defender of Tomorrow`). Such a name is
/// read as the full one when a card `<tag>, <name>` of the same type exists for one of the
/// record's tags (`Jayce`): the tag check keeps two genuinely different cards apart.
fn identity_key(record: &PrintRecord, known: &BTreeSet<(String, String)>) -> (String, String) {
    let (name, card_type) = record.identity_key();
    if !name.contains(", ") {
        for tag in &record.tags {
            let full = (
                text::identity_name(&format!("{tag}, {name}")),
                card_type.to_owned(),
            );
            if known.contains(&full) {
                return full;
            }
        }
    }
    (name, card_type.to_owned())
}

fn freshness(record: &PrintRecord) -> (Option<&str>, (usize, usize)) {
    (record.updated_on.as_deref(), record.position)
}

/// Catalog order: set release order, then collector number, of the default printing.
fn catalog_key(card: &Card) -> ((usize, &str), u32, &str, &str) {
    let default = card.printings.first();
    let number = default
        .and_then(|p| p.number.as_deref())
        .and_then(|n| n.parse().ok());
    (
        sets::release_rank(&card.set_code),
        number.unwrap_or(u32::MAX),
        default.map_or("", |p| p.id.as_str()),
        card.id.as_str(),
    )
}

#[cfg(test)]
mod tests;
