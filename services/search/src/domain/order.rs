//! The order of results: closest names first when the query has a plain word or an `n:` term,
//! catalog order otherwise, and `order:`/`direction:` when the user picks a sort (which wins).

use std::cmp::Ordering;

use serde::Serialize;

use super::games::{CardDoc, PrintDoc};
use super::typo::{allowed_typos, typos_within};

/// A sort the user can pick with `order:`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SortKey {
    /// By name.
    Name,
    /// By cost (LoR mana, Pokémon cheapest attack, Riftbound Energy).
    Cost,
    /// By set release order, then collector number.
    Set,
    /// By release date (earliest printing), then set order.
    Released,
    /// By the game's rarity order.
    Rarity,
}

impl SortKey {
    /// Reads the value of `order:`.
    pub fn parse(value: &str) -> Option<Self> {
        Some(match value {
            "name" => SortKey::Name,
            "cost" | "cmc" | "mv" => SortKey::Cost,
            "set" => SortKey::Set,
            "released" | "release" | "date" => SortKey::Released,
            "rarity" => SortKey::Rarity,
            _ => return None,
        })
    }
}

/// How close a card's name is to one ranking word; lower is closer: exact name, name prefix,
/// a whole word of the name, a word prefix, contained, then by typos (5 + 2 × typos, one less
/// when the typed word only misses letters, as `jnx` for Jinx), 20 for no name match.
///
/// `typos` is the word's precomputed fewest typos for this card, when known: it skips the
/// typo comparison for names that are not close.
pub fn name_closeness(doc: &CardDoc, word: &str, typos: Option<u8>) -> u32 {
    let name = doc.name.folded.as_str();
    if name == word {
        return 0;
    }
    if name.starts_with(word) {
        return 1;
    }
    if doc.name_keys.iter().any(|key| key == word) {
        return 2;
    }
    if doc.name_keys.iter().any(|key| key.starts_with(word)) {
        return 3;
    }
    if name.contains(word) {
        return 4;
    }
    if typos == Some(u8::MAX) {
        return 20;
    }
    let typed: Vec<char> = word.chars().collect();
    let limit = allowed_typos(typed.len());
    doc.name_keys
        .iter()
        .filter_map(|key| {
            let key: Vec<char> = key.chars().collect();
            let typos = typos_within(&typed, &key, limit)? as u32;
            Some(5 + 2 * typos - u32::from(is_subsequence(&typed, &key)))
        })
        .min()
        .unwrap_or(20)
}

/// True when `typed` is `key` with letters left out.
fn is_subsequence(typed: &[char], key: &[char]) -> bool {
    let mut rest = key.iter();
    typed.iter().all(|ch| rest.any(|k| k == ch))
}

/// The sort value of one result row for a picked [`SortKey`]; `None` sorts last.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum SortValue {
    /// A number.
    Number(Option<i64>),
    /// Text.
    Text(String),
    /// A release rank and collector number.
    Place(usize, u64, String),
    /// A date (empty is unknown) and set rank.
    Date(Option<String>, usize),
}

/// Computes the sort value of a row: the printing (with `unique:prints`) or the card.
pub fn sort_value(
    key: SortKey,
    doc: &CardDoc,
    print: Option<&PrintDoc>,
    rarity_order: &[String],
) -> SortValue {
    let first = print.or(doc.printings.first());
    match key {
        SortKey::Name => SortValue::Text(doc.name.folded.clone()),
        SortKey::Cost => SortValue::Number(doc.numbers[super::games::FieldKey::Cost.slot()]),
        SortKey::Set => match first {
            Some(p) => SortValue::Place(p.set_rank, leading_number(&p.number), p.number.clone()),
            None => SortValue::Place(usize::MAX, u64::MAX, String::new()),
        },
        SortKey::Released => {
            let prints: Vec<&PrintDoc> = match print {
                Some(p) => vec![p],
                None => doc.printings.iter().collect(),
            };
            let date = prints
                .iter()
                .filter(|p| !p.released.is_empty())
                .map(|p| p.released.clone())
                .min();
            let rank = prints
                .iter()
                .map(|p| p.set_rank)
                .min()
                .unwrap_or(usize::MAX);
            SortValue::Date(date, rank)
        }
        SortKey::Rarity => SortValue::Number(
            first
                .and_then(|p| p.rarity.as_ref())
                .and_then(|r| rarity_order.iter().position(|o| *o == r.folded))
                .map(|rank| rank as i64),
        ),
    }
}

fn leading_number(number: &str) -> u64 {
    let digits: String = number.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or(u64::MAX)
}

/// Compares two sort values, unknown (`None`) last in both directions.
pub fn compare_values(a: &SortValue, b: &SortValue, descending: bool) -> Ordering {
    let missing = |v: &SortValue| match v {
        SortValue::Number(n) => n.is_none(),
        SortValue::Date(d, rank) => d.is_none() && *rank == usize::MAX,
        SortValue::Place(rank, ..) => *rank == usize::MAX,
        SortValue::Text(_) => false,
    };
    match (missing(a), missing(b)) {
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => {
            // Known dates sort before unknown ones whichever the direction.
            let ordering = match (a, b) {
                (SortValue::Date(None, _), SortValue::Date(Some(_), _)) => {
                    return Ordering::Greater;
                }
                (SortValue::Date(Some(_), _), SortValue::Date(None, _)) => return Ordering::Less,
                _ => a.cmp(b),
            };
            if descending {
                ordering.reverse()
            } else {
                ordering
            }
        }
    }
}
