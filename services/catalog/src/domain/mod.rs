//! The catalog's rules as plain Rust: what a card is for each game, how the upstream card data
//! becomes cards, printings, aliases and globals. No I/O: the importers take the upstream files'
//! contents and return an [`Import`]; reading folders and storing cards is elsewhere.
//!
//! Cards are the generated `proto::catalog::v1::Card` messages rather than a parallel set of
//! domain structs: the card object *is* the contract (its canonical proto3 JSON is the
//! documented JSON), and a second copy of ~90 fields would only drift.

pub mod game;
pub mod ids;
pub mod lor;
pub mod names;
pub mod pokemon;
pub mod riftbound;

pub use game::Game;
pub use proto::catalog::v1::{Card, CardSet};

/// One upstream file handed to an importer: its path relative to the game's data folder
/// (`set1-en_us.json`, `cards/en/sv2.json`) and its contents.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path relative to the game's data folder, with `/` separators.
    pub path: String,
    /// The file's bytes.
    pub contents: Vec<u8>,
}

/// What an importer makes of a game's upstream files.
#[derive(Debug, Clone, Default)]
pub struct Import {
    /// Every card identity, in catalog order (set order, then collector number).
    pub cards: Vec<Card>,
    /// Every ref that resolves to a card besides its own id: printing ids, variant ids, older
    /// identity ids, as `(ref, identity id)`.
    pub aliases: Vec<(String, String)>,
    /// The game's globals object, exactly as the card-data page documents it.
    pub globals: serde_json::Map<String, serde_json::Value>,
    /// The game's sets, in release order.
    pub sets: Vec<CardSet>,
    /// Records that were not imported, each with where it was and why.
    pub skipped: Vec<Skipped>,
}

/// A record the importer could not turn into a card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Where it was: the file and the record's index or id (`cards/en/sv2.json#12`).
    pub record: String,
    /// Why it was skipped.
    pub reason: String,
}
