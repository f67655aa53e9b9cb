//! The rules of decks as plain Rust: deck codes and lists, formats and rulings, saved decks
//! and the pages of their listings. No I/O, no async, no protobuf types.

pub mod codes;
pub mod format;
pub mod lists;
pub mod page;
pub mod saved;
pub mod template;
