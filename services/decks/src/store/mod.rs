//! Persistence of what players keep: saved decks and deck sets (`decks`) and templates
//! (`templates`), with sqlx over PostgreSQL or
//! SQLite through `kit::db`, the same SQL for both.
//!
//! Every time is an argument (`now`). Who may read or change a deck is the caller's to ask
//! (`kit::access`); the store keeps only its own rules: one name per account and game,
//! whatever the case.

mod decks;
mod templates;

pub use decks::{DeckStore, Saved};
pub use templates::{TEMPLATE_ID_PREFIX, TemplateStore};

use std::time::SystemTime;

use kit::timestamp::to_millis;

use crate::domain::page::Cursor;

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

/// A page of a listing.
#[derive(Debug, Clone)]
pub struct Page<T> {
    /// The items, newest change first.
    pub items: Vec<T>,
    /// Where the next page starts; `None` on the last page.
    pub next: Option<Cursor>,
}

impl<T> Page<T> {
    /// Makes a page of `size` from `items` read with [`limit`] (one more than a page holds,
    /// so that one more tells that another page follows); `key` gives an item's update time
    /// and id, where the next page starts.
    fn of(mut items: Vec<T>, size: usize, key: impl Fn(&T) -> (SystemTime, String)) -> Page<T> {
        let next = if items.len() > size {
            items.truncate(size);
            items.last().map(|last| {
                let (time, id) = key(last);
                Cursor {
                    update_millis: to_millis(time),
                    id,
                }
            })
        } else {
            None
        };
        Page { items, next }
    }
}

/// The rows to read for a page of `size`: one more than it holds.
fn limit(size: usize) -> i64 {
    i64::try_from(size).unwrap_or(i64::MAX).saturating_add(1)
}
