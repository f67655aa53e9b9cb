//! Fuzzes the strict JSON readers of formats and decks (issue 6): any bytes are either read as a
//! format that writes and reads back the same, or refused with the one error `invalid_format`;
//! never a panic. Decks are read from the same bytes and refused only with `invalid_deck`.

#![no_main]

use decks::domain::format::{Deck, Format};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match Format::from_json_bytes(data) {
        Ok(format) => assert_eq!(Format::from_json(&format.to_json()), Ok(format)),
        Err(err) => assert_eq!(err.code(), "invalid_format"),
    }
    if let Ok(text) = std::str::from_utf8(data) {
        match Deck::from_json(text) {
            Ok(deck) => assert_eq!(Deck::from_json(&deck.to_json().to_string()), Ok(deck)),
            Err(err) => assert_eq!(err.code(), "invalid_deck"),
        }
    }
});
