//! The rules of decks as plain Rust: deck codes and lists, formats and rulings. No I/O, no
//! async, no protobuf types.

pub mod codes;
pub mod format;
pub mod lists;
