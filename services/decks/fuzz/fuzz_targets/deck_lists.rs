//! Fuzzes the deck-list import of every game (issue 5): any text is read by some format or
//! refused with an error; never a panic.

#![no_main]

use decks::domain::lists::{self, Game};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for game in [Game::Lor, Game::Pokemon, Game::Riftbound] {
        let _ = lists::import(game, text);
    }
});
