//! Deck codes and deck lists (issue 5: target under 2 µs per code).
//!
//! The codes are the deck-builder guide's 40-card Legends of Runeterra sample and the Kai'Sa
//! code of the Piltover Archive README (`shared/vectors/riftbound/readme-examples.json`); the
//! list is a 60-line Pokémon TCG Live list built here.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use decks::domain::codes::{lor, riftbound};
use decks::domain::lists::{self, Game};

/// 13 cards × 3 + 1: 40 cards, version 1.
const LOR_40_CARDS: &str = "CEAQ2AIAAEDASCYMCQKRUJZNFY2TOAABAEAQABY";

/// 56 main-deck cards and 8 in the sideboard, version 2.
const KAISA: &str = "CIAAAAAAAAAQCAAAA4AACAIAABMQAAILAAAAICIMDMOVOX3AM5UHIAIDAAACO6XYAEAQKAAABX3QDGACUABKIAQAAEBQAAAWDBOQCAQAABMHE";

/// A Pokémon TCG Live list of 60 card lines (one copy each) under its three headers.
fn live_list_of_60_lines() -> String {
    let mut text = String::from("Pokémon: 20\n");
    for i in 1..=20 {
        text.push_str(&format!("1 Iron Hands ex PAR {i}\n"));
    }
    text.push_str("\nTrainer: 30\n");
    for i in 1..=30 {
        text.push_str(&format!("1 Professor's Research SVI {i}\n"));
    }
    text.push_str("\nEnergy: 10\n");
    for _ in 1..=5 {
        text.push_str("1 Basic {L} Energy SVE 4\n1 Basic Psychic Energy\n");
    }
    text.push_str("\nTotal Cards: 60\n");
    text
}

fn codes(c: &mut Criterion) {
    let lor_deck = lor::decode(LOR_40_CARDS).expect("the sample decodes").deck;
    assert_eq!(lor::encode(&lor_deck).as_deref(), Ok(LOR_40_CARDS));
    let kaisa = riftbound::decode(KAISA)
        .expect("the README code decodes")
        .deck;
    assert_eq!(riftbound::encode(&kaisa).as_deref(), Ok(KAISA));

    c.bench_function("lor decode 40 cards", |b| {
        b.iter(|| lor::decode(black_box(LOR_40_CARDS)))
    });
    c.bench_function("lor encode 40 cards", |b| {
        b.iter(|| lor::encode(black_box(&lor_deck)))
    });
    c.bench_function("riftbound decode kai'sa", |b| {
        b.iter(|| riftbound::decode(black_box(KAISA)))
    });
    c.bench_function("riftbound encode kai'sa", |b| {
        b.iter(|| riftbound::encode(black_box(&kaisa)))
    });
}

fn lists_import(c: &mut Criterion) {
    let text = live_list_of_60_lines();
    let list = lists::import(Game::Pokemon, &text).expect("the list reads");
    assert_eq!(list.entries.len(), 60);
    assert!(list.skipped.is_empty());
    c.bench_function("pokemon live list import 60 lines", |b| {
        b.iter(|| lists::import(Game::Pokemon, black_box(&text)))
    });
}

criterion_group!(benches, codes, lists_import);
criterion_main!(benches);
