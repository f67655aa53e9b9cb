//! Fuzzes the two binary deck-code decoders (issue 5): any text either decodes to a deck that
//! encodes and decodes back to the same deck, or is refused with an error; never a panic.
//! "The same deck" is the copies per card: a code may list one card twice, and the encoder
//! writes it once with the copies added (the fuzzer found such codes).

#![no_main]

use decks::domain::codes::{lor, riftbound};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(deck) = lor::decode(text) {
        let code = lor::encode(&deck.deck).expect("a decoded LoR deck encodes");
        let again = lor::decode(&code).expect("an encoded LoR deck decodes");
        assert_eq!(sorted(&again.deck.main), sorted(&deck.deck.main));
    }
    if let Ok(deck) = riftbound::decode(text) {
        let code = riftbound::encode(&deck.deck).expect("a decoded Riftbound deck encodes");
        let again = riftbound::decode(&code).expect("an encoded Riftbound deck decodes");
        assert_eq!(sorted(&again.deck.main), sorted(&deck.deck.main));
    }
});

fn sorted<C: std::fmt::Debug>(cards: &[decks::domain::codes::CardCount<C>]) -> Vec<(String, u64)> {
    let mut copies = std::collections::BTreeMap::new();
    for card in cards {
        *copies.entry(format!("{:?}", card.card_code)).or_insert(0) += u64::from(card.count);
    }
    copies.into_iter().collect()
}
