//! Declarative formats: deck sizes, copy limits, banned and restricted cards and dated taboo
//! lists, the rules they give on a day, and checking a deck against them
//! (`spec/formats-and-rules.md`, issue 6).
//!
//! Everything here is pure: the moment a deck is checked on comes in as an argument, and JSON
//! comes in as text. Reading a format file, the catalog's card names and copy limits, and the
//! gRPC, HTTP and CLI shapes around a [`Report`] are the callers' concern.

mod card;
mod card_lists;
mod check;
mod day;
mod deck_json;
mod error;
mod json;
mod report;
mod rules;
mod ruling;
mod taboo;
mod values;

pub use card::Card;
pub use card_lists::MAX_LISTED_CARDS;
pub use check::{Deck, DeckEntry};
pub use day::{Day, DayOutOfRange, InvalidMoment, parse_moment};
pub use error::{InvalidDeck, Problem, Subject};
pub use json::{MAX_JSON_BYTES, MAX_JSON_DEPTH};
pub use report::{CardReport, Issue, IssueCode, Report, TabooListRef};
pub use rules::{DEFAULT_MIN_SIZE, Format, FormatBuilder, MAX_DECK_SIZE, MAX_TABOO_LISTS};
pub use ruling::{Authority, CardRuling, Ruling};
pub use taboo::{TabooList, TabooListBuilder};
pub use values::{
    CardId, CopyLimit, FormatCode, MAX_CODE_CHARS, MAX_ID_CHARS, MAX_NAME_CHARS, Name, ShapeError,
    TabooListCode,
};
