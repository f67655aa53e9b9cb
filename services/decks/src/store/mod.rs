//! Persistence of what players keep: saved decks (`decks`), with sqlx over PostgreSQL or
//! SQLite through `kit::db`, the same SQL for both.
//!
//! Every time is an argument (`now`). Who may read or change a deck is the caller's to ask
//! (`kit::access`); the store keeps only its own rules: one name per account and game,
//! whatever the case.

mod decks;

pub use decks::{DeckPatch, DeckStore, Page, Saved};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore as _;

/// The decks service's tables (versions 5xxxxxxx, see `kit::db`).
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Random bytes in an id: 128 bits, unguessable.
const ID_BYTES: usize = 16;

/// Returns a new unguessable id with `prefix` (`dk_`).
fn new_id(prefix: &str) -> String {
    let mut bytes = [0_u8; ID_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    format!("{prefix}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// Returns a flag as stored: 1 or 0.
fn flag(value: bool) -> i64 {
    i64::from(value)
}
