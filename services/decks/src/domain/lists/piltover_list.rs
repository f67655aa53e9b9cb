//! Piltover Archive's Riftbound list: `<count> <name>` lines under `Legend:`, `Champion:`,
//! `MainDeck:`, `Battlefields:`, `Runes:` and `Sideboard:`.
//!
//! Cards are named, not numbered. `Champion:` cards belong to the main deck; the first of them
//! is the deck's chosen champion, kept so an export writes the section again.

use super::line::{header, label_key, split_count, split_set_number};
use super::{
    CardText, DeckCard, ExportDeck, ImportedList, ListEntry, ListFormat, Section, SkipReason,
    SkippedLine,
};

/// The sections in the order the list writes them, with their labels.
const SECTIONS: [(Section, &str); 6] = [
    (Section::Legend, "Legend"),
    (Section::Champion, "Champion"),
    (Section::MainDeck, "MainDeck"),
    (Section::Battlefields, "Battlefields"),
    (Section::Runes, "Runes"),
    (Section::Sideboard, "Sideboard"),
];

fn section_of(label: &str) -> Option<Section> {
    match label_key(label).as_str() {
        "legend" | "legends" => Some(Section::Legend),
        "champion" | "champions" | "chosenchampion" => Some(Section::Champion),
        "maindeck" | "main" => Some(Section::MainDeck),
        "battlefields" | "battlefield" => Some(Section::Battlefields),
        "runes" | "rune" | "runedeck" => Some(Section::Runes),
        "sideboard" | "side" => Some(Section::Sideboard),
        _ => None,
    }
}

/// Reads a Piltover Archive list; `None` when no line is a card, or when the text has none of
/// the list's `Label:` headers and its lines end in a set and number (the old Turny list, tried
/// next).
pub(super) fn read(text: &str) -> Option<ImportedList> {
    let mut list = ImportedList {
        format: ListFormat::PiltoverList,
        entries: Vec::new(),
        chosen_champion: None,
        skipped: Vec::new(),
        split_from_one_line: None,
    };
    let mut section = Section::Main;
    let mut has_header = false;
    let mut looks_numbered = false;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(label) = header(line).filter(|_| line.ends_with(':')) {
            match section_of(label) {
                Some(named) => {
                    section = named;
                    has_header = true;
                }
                None => list.skipped.push(SkippedLine {
                    line: number,
                    text: line.to_owned(),
                    reason: SkipReason::UnknownSection(label.to_owned()),
                }),
            }
            continue;
        }
        match split_count(line) {
            Ok((count, name)) => {
                looks_numbered |= split_set_number(name)
                    .is_some_and(|(_, set, _)| set.bytes().all(|b| b.is_ascii_uppercase()));
                let card = CardText::Name(name.to_owned());
                if section == Section::Champion && list.chosen_champion.is_none() {
                    list.chosen_champion = Some(card.clone());
                }
                list.entries.push(ListEntry {
                    line: number,
                    count,
                    card,
                    section,
                });
            }
            Err(reason) => list.skipped.push(SkippedLine {
                line: number,
                text: line.to_owned(),
                reason,
            }),
        }
    }
    let reads = !list.entries.is_empty() && (has_header || !looks_numbered);
    reads.then_some(list)
}

/// Writes the list, sections in the list's order and cards in the deck's order. The chosen
/// champion takes one copy out of the main deck into `Champion:`.
pub(super) fn write(deck: &ExportDeck) -> String {
    let champion = deck.chosen_champion.as_ref().and_then(|reference| {
        deck.cards
            .iter()
            .find(|c| &c.reference == reference && c.count > 0 && !c.section.is_sideboard())
    });
    let mut blocks = Vec::new();
    for (section, label) in SECTIONS {
        let mut block = format!("{label}:");
        let mut any = false;
        let mut line = |count: u32, card: &DeckCard| {
            if count > 0 {
                block.push_str(&format!("\n{count} {}", card.name));
                any = true;
            }
        };
        if section == Section::Champion {
            if let Some(card) = champion {
                line(1, card);
            }
        } else {
            for card in deck.cards.iter().filter(|c| zone(c.section) == section) {
                let taken = champion.is_some_and(|c| std::ptr::eq(c, card));
                line(card.count - u32::from(taken), card);
            }
        }
        if any {
            blocks.push(block);
        }
    }
    blocks.join("\n\n")
}

/// The section of the list a card goes in.
fn zone(section: Section) -> Section {
    match section {
        Section::Legend | Section::Battlefields | Section::Runes | Section::Sideboard => section,
        Section::Main
        | Section::MainDeck
        | Section::Champion
        | Section::Pokemon
        | Section::Trainer
        | Section::Energy => Section::MainDeck,
    }
}
