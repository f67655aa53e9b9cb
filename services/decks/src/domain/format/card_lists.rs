//! Banned and restricted card lists: the bounds a format's own lists and a taboo list's share
//! (`spec/formats-and-rules.md`, "A format" and "Taboo lists").
//!
//! This module only checks a list as it is given, naming the offending field; which lists apply
//! on a day is [`super::Ruling`]'s concern.

use std::collections::{BTreeMap, BTreeSet};

use super::error::{InvalidDeck, Problem, entry, item};
use super::values::{CardId, CopyLimit};

/// The most cards a `banned` list, or a `restricted` one, may name.
pub const MAX_LISTED_CARDS: usize = 10_000;

/// Checks a list of banned cards: each once, up to 10 000.
pub(crate) fn collect_banned(
    field: &str,
    cards: Vec<CardId>,
) -> Result<BTreeSet<CardId>, InvalidDeck> {
    too_many(field, cards.len(), MAX_LISTED_CARDS)?;
    let mut banned = BTreeSet::new();
    for (index, card) in cards.into_iter().enumerate() {
        if !banned.insert(card) {
            return Err(InvalidDeck::new(item(field, index), Problem::Repeated));
        }
    }
    Ok(banned)
}

/// Checks a list of restricted cards: each once with 1 to 999 copies, up to 10 000.
pub(crate) fn collect_restricted(
    field: &str,
    cards: Vec<(CardId, i128)>,
) -> Result<BTreeMap<CardId, CopyLimit>, InvalidDeck> {
    too_many(field, cards.len(), MAX_LISTED_CARDS)?;
    let mut restricted = BTreeMap::new();
    for (card, copies) in cards {
        let field = entry(field, card.as_str());
        let limit = copy_limit(copies)
            .ok_or_else(|| InvalidDeck::new(&field, copy_limit_out_of_range(copies)))?;
        if restricted.insert(card, limit).is_some() {
            return Err(InvalidDeck::new(field, Problem::Repeated));
        }
    }
    Ok(restricted)
}

/// Returns the copy limit of a number given as any integer, or `None` outside 1 to 999.
pub(crate) fn copy_limit(copies: i128) -> Option<CopyLimit> {
    u64::try_from(copies).ok().and_then(CopyLimit::new)
}

/// Returns the problem of a copy limit outside 1 to 999.
pub(crate) fn copy_limit_out_of_range(found: i128) -> Problem {
    Problem::OutOfRange {
        min: u64::from(CopyLimit::MIN),
        max: u64::from(CopyLimit::MAX),
        found,
    }
}

/// Refuses a list of `found` entries in `field` when it holds more than `max`.
pub(crate) fn too_many(field: &str, found: usize, max: usize) -> Result<(), InvalidDeck> {
    if found > max {
        return Err(InvalidDeck::new(field, Problem::TooMany { max, found }));
    }
    Ok(())
}
