//! A card as a format sees it: its identifier, the name shown in messages and the copy limit it
//! may set itself.
//!
//! What the card does in play is the catalog's concern; only what a ruling needs is here.

use super::values::{CardId, CopyLimit, Name};

/// A card, with the number of copies it allows of itself where it sets one.
///
/// A card's own limit replaces the format's `copies` (`spec/formats-and-rules.md`): 20 for a
/// basic card any number of which is played, 1 for a unique one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    id: CardId,
    name: Option<Name>,
    copy_limit: Option<CopyLimit>,
}

impl Card {
    /// Returns a card with no name and no limit of its own.
    pub fn new(id: CardId) -> Self {
        Self {
            id,
            name: None,
            copy_limit: None,
        }
    }

    /// Returns this card with the name messages show for it.
    pub fn named(mut self, name: Name) -> Self {
        self.name = Some(name);
        self
    }

    /// Returns this card with its own copy limit, which replaces the format's.
    pub fn with_copy_limit(mut self, copy_limit: CopyLimit) -> Self {
        self.copy_limit = Some(copy_limit);
        self
    }

    /// Returns the card's identifier.
    pub fn id(&self) -> &CardId {
        &self.id
    }

    /// Returns the card's name, if it was given one.
    pub fn name(&self) -> Option<&Name> {
        self.name.as_ref()
    }

    /// Returns the copies the card allows of itself, if it sets a number.
    pub fn copy_limit(&self) -> Option<CopyLimit> {
        self.copy_limit
    }

    /// Returns how messages call the card: its name, or its identifier when it has none.
    pub fn label(&self) -> &str {
        self.name.as_ref().map_or(self.id.as_str(), Name::as_str)
    }

    /// Lowers this card's own limit to `other` when that is lower, or sets it when it has none.
    pub(crate) fn keep_lowest_copy_limit(&mut self, other: Option<CopyLimit>) {
        self.copy_limit = match (self.copy_limit, other) {
            (Some(mine), Some(theirs)) => Some(mine.min(theirs)),
            (mine, theirs) => mine.or(theirs),
        };
    }
}
