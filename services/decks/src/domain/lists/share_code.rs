//! Turny.gg's share codes, `PTCG1` (Pokémon) and `RIFT1` (Riftbound): one grammar.
//!
//! `<PREFIX>.<set>:<entry>,<entry>.<set>:…`, each entry `<count>x<number>` or `<number>` for
//! one copy, where `<set>-<number>` is the catalog's printing ref (`sv8-76`, `ogn-042-298`).
//! `RIFT1` writes sets in upper case and puts the sideboard after an `SB` segment.

use std::collections::BTreeMap;

use super::line::{count_token, number_order};
use super::{
    CardText, ExportDeck, ImportedList, ListEntry, ListError, ListFormat, Section, SkipReason,
    SkippedLine,
};

fn prefix(format: ListFormat) -> &'static str {
    match format {
        ListFormat::Rift1 => "RIFT1.",
        _ => "PTCG1.",
    }
}

/// The segment after which a `RIFT1` code lists the sideboard.
const SIDEBOARD_SEGMENT: &str = "SB";

/// Reads a share code; `None` when the text does not start with the format's prefix.
pub(super) fn read(format: ListFormat, text: &str) -> Option<ImportedList> {
    let prefix = prefix(format);
    let head = text.get(..prefix.len())?;
    if !head.eq_ignore_ascii_case(prefix) {
        return None;
    }
    // A code wrapped by a chat app or a phone comes back with spaces or line breaks in it.
    let body: String = text[prefix.len()..]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut list = ImportedList {
        format,
        entries: Vec::new(),
        chosen_champion: None,
        skipped: Vec::new(),
        split_from_one_line: None,
    };
    let mut section = Section::Main;
    let skip = |list: &mut ImportedList, text: &str, reason: SkipReason| {
        list.skipped.push(SkippedLine {
            line: 1,
            text: text.to_owned(),
            reason,
        });
    };
    for segment in body.split('.').filter(|s| !s.is_empty()) {
        if format == ListFormat::Rift1 && segment.eq_ignore_ascii_case(SIDEBOARD_SEGMENT) {
            section = Section::Sideboard;
            continue;
        }
        let Some((set, cards)) = segment.split_once(':').filter(|(set, _)| is_code_set(set)) else {
            skip(
                &mut list,
                segment,
                SkipReason::BadShareCodeEntry(segment.to_owned()),
            );
            continue;
        };
        let set = match format {
            // Catalog refs are lower case; RIFT1 writes its sets upper case.
            ListFormat::Rift1 => set.to_lowercase(),
            _ => set.to_owned(),
        };
        for entry in cards.split(',').filter(|e| !e.is_empty()) {
            match read_entry(entry) {
                Ok((count, number)) => list.entries.push(ListEntry {
                    line: 1,
                    count,
                    card: CardText::Ref(format!("{set}-{number}")),
                    section,
                }),
                Err(reason) => skip(&mut list, entry, reason),
            }
        }
    }
    Some(list)
}

fn is_code_set(set: &str) -> bool {
    !set.is_empty() && set.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// `4x66` → (4, `66`); `66` → (1, `66`).
fn read_entry(entry: &str) -> Result<(u32, &str), SkipReason> {
    let (count, number) = match entry.split_once('x') {
        Some((count, number)) if !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()) => {
            let count = count_token(count)
                .ok_or_else(|| SkipReason::BadShareCodeEntry(entry.to_owned()))??;
            (count, number)
        }
        _ => (1, entry),
    };
    let is_number = !number.is_empty()
        && number
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'*');
    if is_number {
        Ok((count, number))
    } else {
        Err(SkipReason::BadShareCodeEntry(entry.to_owned()))
    }
}

/// Writes a share code: sets in alphabetical order, numbers ascending, a card listed twice
/// written once with its total. `PTCG1` adds the sideboard to the main deck.
pub(super) fn write(format: ListFormat, deck: &ExportDeck) -> Result<String, ListError> {
    type Groups<'a> = BTreeMap<String, BTreeMap<(u8, u64, &'a str), u32>>;
    let mut main: Groups = BTreeMap::new();
    let mut sideboard: Groups = BTreeMap::new();
    for card in deck.cards.iter().filter(|c| c.count > 0) {
        let (set, number) = card.set_and_tail(format)?;
        let set = match format {
            ListFormat::Rift1 => set.to_uppercase(),
            _ => set.to_owned(),
        };
        let groups = if format == ListFormat::Rift1 && card.section.is_sideboard() {
            &mut sideboard
        } else {
            &mut main
        };
        *groups
            .entry(set)
            .or_default()
            .entry(number_order(number))
            .or_default() += card.count;
    }
    let mut code = prefix(format).to_owned();
    write_groups(&mut code, &main);
    if !sideboard.is_empty() {
        code.push('.');
        code.push_str(SIDEBOARD_SEGMENT);
        code.push('.');
        write_groups(&mut code, &sideboard);
    }
    Ok(code)
}

fn write_groups(code: &mut String, groups: &BTreeMap<String, BTreeMap<(u8, u64, &str), u32>>) {
    for (i, (set, cards)) in groups.iter().enumerate() {
        if i > 0 {
            code.push('.');
        }
        code.push_str(set);
        code.push(':');
        for (j, ((_, _, number), count)) in cards.iter().enumerate() {
            if j > 0 {
                code.push(',');
            }
            if *count != 1 {
                code.push_str(&format!("{count}x"));
            }
            code.push_str(number);
        }
    }
}
