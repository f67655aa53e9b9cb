//! The Riftbound list Turny.gg exported before it switched to Piltover Archive's:
//! `<count> <name> <SET> <number>` lines under `Main Deck (10)`, `Runes (12)`, `Legend (1)` and
//! `Battlefields (3)`. It has no sideboard; any printing's set and number names the card.

use super::line::{header, label_key, split_count, split_set_number, trim_number};
use super::{
    CardText, ExportDeck, ImportedList, ListEntry, ListError, ListFormat, Section, SkipReason,
    SkippedLine,
};

/// The sections in the order the list writes them, with their labels.
const SECTIONS: [(Section, &str); 4] = [
    (Section::MainDeck, "Main Deck"),
    (Section::Runes, "Runes"),
    (Section::Legend, "Legend"),
    (Section::Battlefields, "Battlefields"),
];

fn section_of(label: &str) -> Option<Section> {
    match label_key(label).as_str() {
        "maindeck" | "main" => Some(Section::MainDeck),
        "runes" | "runedeck" => Some(Section::Runes),
        "legend" => Some(Section::Legend),
        "battlefields" => Some(Section::Battlefields),
        "sideboard" => Some(Section::Sideboard),
        _ => None,
    }
}

/// Reads an old Turny.gg list; `None` when no line is a card.
pub(super) fn read(text: &str) -> Option<ImportedList> {
    let mut list = ImportedList {
        format: ListFormat::TurnyList,
        entries: Vec::new(),
        chosen_champion: None,
        skipped: Vec::new(),
        split_from_one_line: None,
    };
    let mut section = Section::Main;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let skip = |reason| SkippedLine {
            line: number,
            text: line.to_owned(),
            reason,
        };
        if let Some(label) = header(line) {
            match section_of(label) {
                Some(named) => section = named,
                None => list
                    .skipped
                    .push(skip(SkipReason::UnknownSection(label.to_owned()))),
            }
            continue;
        }
        match split_count(line).and_then(|(count, rest)| {
            split_set_number(rest)
                .map(|parts| (count, parts))
                .ok_or(SkipReason::NoSetAndNumber)
        }) {
            Ok((count, (name, set, card_number))) => list.entries.push(ListEntry {
                line: number,
                count,
                card: CardText::Printing {
                    name: Some(name.to_owned()),
                    set: set.to_uppercase(),
                    number: card_number.to_owned(),
                },
                section,
            }),
            Err(reason) => list.skipped.push(skip(reason)),
        }
    }
    (!list.entries.is_empty()).then_some(list)
}

/// Writes the list; the sideboard is left out, as the format never had one.
pub(super) fn write(deck: &ExportDeck) -> Result<String, ListError> {
    let mut blocks = Vec::new();
    for (section, label) in SECTIONS {
        let cards: Vec<_> = deck
            .cards
            .iter()
            .filter(|c| c.count > 0 && zone(c.section) == Some(section))
            .collect();
        if cards.is_empty() {
            continue;
        }
        let total: u32 = cards.iter().map(|c| c.count).sum();
        let mut block = format!("{label} ({total})");
        for card in cards {
            let (set, tail) = card.set_and_tail(ListFormat::TurnyList)?;
            // `042-298` → `42`: the collector number without the ref's printed total.
            let number = trim_number(tail.split('-').next().unwrap_or(tail));
            block.push_str(&format!(
                "\n{} {} {} {number}",
                card.count,
                card.name,
                set.to_uppercase()
            ));
        }
        blocks.push(block);
    }
    Ok(blocks.join("\n\n"))
}

/// The section of the list a card goes in; `None` for the sideboard.
fn zone(section: Section) -> Option<Section> {
    match section {
        Section::Sideboard => None,
        Section::Legend | Section::Battlefields | Section::Runes => Some(section),
        Section::Main
        | Section::MainDeck
        | Section::Champion
        | Section::Pokemon
        | Section::Trainer
        | Section::Energy => Some(Section::MainDeck),
    }
}
