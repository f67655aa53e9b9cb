//! Binary deck codes: the short base32 strings players paste to share a deck.
//!
//! Two codecs live here, built on the same pieces (base32 without padding in [`base32`], LEB128
//! varints in [`varint`]):
//!
//! - [`lor`]: the Legends of Runeterra deck code, every version up to
//!   [`lor::NEWEST_VERSION`];
//! - [`riftbound`]: the Piltover Archive Riftbound code, versions 1 to
//!   [`riftbound::NEWEST_VERSION`].
//!
//! This module only converts between a code and a deck of card codes with counts. Text deck
//! lists, resolving card codes against the catalog and legality are left to others.

pub mod base32;
mod error;
pub mod lor;
pub mod riftbound;
pub mod varint;

pub use error::DeckCodeError;

use serde::{Deserialize, Serialize};

/// One line of a deck: a card and how many copies of it.
///
/// Serialises as `{"cardCode":"OGN-007","count":3}`, the shape the reference libraries use.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardCount<C> {
    /// The card, in the game's card-code form.
    pub card_code: C,
    /// How many copies; a deck code never carries 0.
    pub count: u32,
}

impl<C> CardCount<C> {
    /// Returns `count` copies of `card_code`.
    pub fn new(card_code: C, count: u32) -> Self {
        Self { card_code, count }
    }
}

/// A deck read from a code, with the code's version.
///
/// Serialises flat, the deck's fields followed by `"version"`, e.g.
/// `{"main":[…],"sideboard":[…],"chosenChampion":null,"version":2}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecodedDeck<D> {
    /// The cards the code carries.
    #[serde(flatten)]
    pub deck: D,
    /// The version byte of the code (the low four bits of its first byte).
    pub version: u8,
}

/// Adds up the counts of cards listed more than once, keeping the first position of each card.
///
/// Encoders call this so a card pasted twice is written once with its total, rather than as two
/// entries that a decoder would return separately.
fn merge_duplicates<C: Clone + Eq + std::hash::Hash>(cards: &[CardCount<C>]) -> Vec<CardCount<C>> {
    // A deck has a few dozen distinct cards: a linear scan beats hashing them (the encoders'
    // budget is 2 µs per code). Pasted monsters still get the hash map.
    const LINEAR_UP_TO: usize = 64;
    if cards.len() <= LINEAR_UP_TO {
        let mut merged: Vec<CardCount<C>> = Vec::with_capacity(cards.len());
        for card in cards {
            match merged.iter_mut().find(|m| m.card_code == card.card_code) {
                Some(existing) => existing.count = existing.count.saturating_add(card.count),
                None => merged.push(card.clone()),
            }
        }
        return merged;
    }
    let mut merged: Vec<CardCount<C>> = Vec::with_capacity(cards.len());
    let mut index: std::collections::HashMap<&C, usize> = std::collections::HashMap::new();
    for card in cards {
        match index.get(&card.card_code) {
            Some(&at) => merged[at].count = merged[at].count.saturating_add(card.count),
            None => {
                index.insert(&card.card_code, merged.len());
                merged.push(card.clone());
            }
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_a_card_listed_twice_into_one_entry_with_the_total() {
        let cards = [
            CardCount::new("a", 2),
            CardCount::new("b", 1),
            CardCount::new("a", 3),
        ];
        assert_eq!(
            merge_duplicates(&cards),
            vec![CardCount::new("a", 5), CardCount::new("b", 1)]
        );
    }

    #[test]
    fn serialises_a_card_count_with_the_reference_field_names() {
        let json = serde_json::to_string(&CardCount::new("OGN-007", 7)).expect("serialises");
        assert_eq!(json, r#"{"cardCode":"OGN-007","count":7}"#);
    }
}
