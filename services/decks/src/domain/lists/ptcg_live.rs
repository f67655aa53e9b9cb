//! The Pokémon TCG Live deck list: `<count> <name> <SET> <number>` lines under `Pokémon:`,
//! `Trainer:` and `Energy:` headers.
//!
//! Read forgivingly, as the guide documents: headers, blank lines and `Total Cards:` are
//! ignored, `4x` is `4`, set codes keep the case they were pasted in (the resolver ignores
//! it), basic energy may come without set and number, and a list that lost its line breaks is
//! split back into lines (the split stands only if every card resolves, which
//! [`super::ImportedList::resolve`] checks).

use super::line::{count_token, header, is_number_token, label_key, split_count, split_set_number};
use super::{
    CardText, DeckCard, ExportDeck, ImportedList, ListEntry, ListError, ListFormat, Section,
    SkippedLine,
};

/// Reads a Pokémon TCG Live list; `None` when no line of it is a card.
pub(super) fn read(text: &str) -> Option<ImportedList> {
    let mut list = ImportedList {
        format: ListFormat::PtcgLive,
        entries: Vec::new(),
        chosen_champion: None,
        skipped: Vec::new(),
        split_from_one_line: None,
    };
    let trimmed = text.trim();
    if !trimmed.contains('\n') {
        let segments = split_run_together(trimmed);
        // Several cards, or one card after a header (`Pokémon: 1 1 Mew ex 30C 66`).
        if segments.len() > 1 || segments.first().is_some_and(|(_, s)| s != trimmed) {
            for (section, segment) in &segments {
                read_line(&mut list, 1, segment, section);
            }
            if segments.len() > 1 {
                list.split_from_one_line = Some(trimmed.to_owned());
            }
            return (!list.entries.is_empty()).then_some(list);
        }
    }
    let mut section = Section::Main;
    for (index, line) in text.lines().enumerate() {
        if let Some(label) = header(line) {
            if let Some(named) = section_of(label) {
                section = named;
            }
            continue;
        }
        read_line(&mut list, index + 1, line, &section);
    }
    (!list.entries.is_empty()).then_some(list)
}

/// The section a Pokémon TCG Live header names; `None` for `Total Cards` and the unknown.
fn section_of(label: &str) -> Option<Section> {
    match label_key(label).as_str() {
        "pokémon" | "pokemon" => Some(Section::Pokemon),
        "trainer" | "trainers" => Some(Section::Trainer),
        "energy" | "energies" => Some(Section::Energy),
        _ => None,
    }
}

fn read_line(list: &mut ImportedList, number: usize, line: &str, section: &Section) {
    let line = line.trim();
    if line.is_empty() {
        return;
    }
    match split_count(line) {
        Ok((count, rest)) => list.entries.push(ListEntry {
            line: number,
            count,
            card: card_text(rest),
            section: *section,
        }),
        Err(reason) => list.skipped.push(SkippedLine {
            line: number,
            text: line.to_owned(),
            reason,
        }),
    }
}

/// `Mew ex 30C 66` names a printing; `Basic {P} Energy` only a name.
fn card_text(rest: &str) -> CardText {
    match split_set_number(rest) {
        Some((name, set, number)) => CardText::Printing {
            name: Some(name.to_owned()),
            set: set.to_owned(),
            number: number.to_owned(),
        },
        None => CardText::Name(rest.to_owned()),
    }
}

/// Splits a list that lost its line breaks back into card lines, each with the section its
/// header gave. A card ends with an upper-case set and a number, or with `Energy`, right
/// before the next count or header; header labels and their totals are dropped.
fn split_run_together(text: &str) -> Vec<(Section, String)> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut segments: Vec<(Section, String)> = Vec::new();
    let mut section = Section::Main;
    let mut current: Vec<&str> = Vec::new();
    let mut skip_total = false;
    let mut i = 0;
    while i < tokens.len() {
        let token = tokens[i];
        if current.is_empty() {
            if let Some(label_len) = header_at(&tokens, i) {
                let label = tokens[i..i + label_len].join(" ");
                if let Some(named) = section_of(label.trim_end_matches(':')) {
                    section = named;
                }
                i += label_len;
                skip_total = true;
                continue;
            }
            if skip_total && token.bytes().all(|b| b.is_ascii_digit()) {
                skip_total = false;
                i += 1;
                continue;
            }
            skip_total = false;
        }
        current.push(token);
        i += 1;
        let at_boundary = i == tokens.len()
            || count_token(tokens[i]).is_some()
            || header_at(&tokens, i).is_some();
        if at_boundary && (i == tokens.len() || is_complete(&current)) {
            segments.push((section, current.join(" ")));
            current.clear();
        }
    }
    segments
}

/// Returns how many tokens a header starting at `i` takes (`Trainer:`, `Total Cards:`).
fn header_at(tokens: &[&str], i: usize) -> Option<usize> {
    let first = tokens.get(i)?;
    if count_token(first).is_some() {
        return None;
    }
    if first.ends_with(':') {
        return Some(1);
    }
    let second = tokens.get(i + 1)?;
    (second.ends_with(':') && count_token(second).is_none()).then_some(2)
}

/// Whether the tokens so far are a whole card: a count, a name, and an upper-case set with a
/// number, or a basic energy's name.
fn is_complete(tokens: &[&str]) -> bool {
    if count_token(tokens[0]).is_none() {
        // Words before any count: whatever they are, they end here and will be skipped.
        return true;
    }
    let n = tokens.len();
    if n < 2 {
        return false;
    }
    if tokens[n - 1].eq_ignore_ascii_case("energy") {
        return true;
    }
    n >= 4 && {
        let set = tokens[n - 2];
        // Upper case only when splitting: `Mew ex 30C 66` must not end at `ex 30C`.
        is_number_token(tokens[n - 1])
            && set.bytes().any(|b| b.is_ascii_uppercase())
            && !set.bytes().any(|b| b.is_ascii_lowercase())
            && super::line::is_set_token(set)
    }
}

/// Writes the list under `Pokémon:`, `Trainer:` and `Energy:` headers with their totals.
/// Cards of any other section (the sideboard, which the format has no place for) are written
/// under `Trainer:`.
pub(super) fn write(deck: &ExportDeck) -> Result<String, ListError> {
    let mut groups: [(&str, Vec<&DeckCard>); 3] = [
        ("Pokémon", Vec::new()),
        ("Trainer", Vec::new()),
        ("Energy", Vec::new()),
    ];
    for card in deck.cards.iter().filter(|c| c.count > 0) {
        let group = match card.section {
            Section::Pokemon => 0,
            Section::Energy => 2,
            _ => 1,
        };
        groups[group].1.push(card);
    }
    let mut blocks = Vec::new();
    for (label, cards) in groups.iter().filter(|(_, cards)| !cards.is_empty()) {
        let total: u32 = cards.iter().map(|c| c.count).sum();
        let mut block = format!("{label}: {total}");
        for card in cards {
            let (set, number) = card.set_and_tail(ListFormat::PtcgLive)?;
            let set = card.list_set.clone().unwrap_or_else(|| set.to_uppercase());
            block.push_str(&format!("\n{} {} {set} {number}", card.count, card.name));
        }
        blocks.push(block);
    }
    Ok(blocks.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_a_list_that_lost_its_line_breaks() {
        let segments = split_run_together(
            "Pokémon: 2 1 Mew ex 30C 66 1 Latias ex SSP 76 Energy: 6 4 Basic {P} Energy 2 Basic {L} Energy SVE 4 Total Cards: 8",
        );
        assert_eq!(
            segments,
            [
                (Section::Pokemon, "1 Mew ex 30C 66".to_owned()),
                (Section::Pokemon, "1 Latias ex SSP 76".to_owned()),
                (Section::Energy, "4 Basic {P} Energy".to_owned()),
                (Section::Energy, "2 Basic {L} Energy SVE 4".to_owned()),
            ]
        );
    }

    #[test]
    fn a_single_card_line_is_not_split() {
        assert_eq!(split_run_together("4 Mew ex 30C 66").len(), 1);
    }
}
