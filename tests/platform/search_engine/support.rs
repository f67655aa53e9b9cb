//! Loads the real catalog of each game once per test binary.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

use catalog::domain::{Card, Game};
use search::domain::Index;

/// The data folder: `shared/data` beside the repository (`kit::testing::shared`).
pub fn data_dir() -> PathBuf {
    kit::testing::shared::data_dir()
}

/// Builds the index of `game` from the real data.
pub fn build(game: Game) -> Index {
    let dir = data_dir().join(game.name());
    let files = catalog::import::read_sources(game, &dir)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", dir.display()));
    let import = catalog::import::convert(game, &files);
    assert!(
        !import.cards.is_empty(),
        "no {game} cards in {}",
        dir.display()
    );
    Index::new(game, import.cards, &import.sets)
}

/// The index of `game`, built on first use.
pub fn index(game: Game) -> &'static Index {
    static LOR: OnceLock<Index> = OnceLock::new();
    static POKEMON: OnceLock<Index> = OnceLock::new();
    static RIFTBOUND: OnceLock<Index> = OnceLock::new();
    let cell = match game {
        Game::Lor => &LOR,
        Game::Pokemon => &POKEMON,
        Game::Riftbound => &RIFTBOUND,
    };
    cell.get_or_init(|| build(game))
}

/// Every card a query finds, in result order, with its warnings.
pub fn search_all(game: Game, query: &str) -> (Vec<&'static Card>, Vec<String>) {
    let index = index(game);
    let mut cards = Vec::new();
    let mut token = String::new();
    loop {
        let page = index
            .search(query, 1_000, &token)
            .unwrap_or_else(|err| panic!("{query}: {err}"));
        cards.extend(page.cards.iter().map(|hit| hit.card));
        match page.next_page_token {
            Some(next) => token = next,
            None => return (cards, page.warnings),
        }
    }
}

/// Every card a query finds; asserts there is at least one and no warning.
pub fn found(game: Game, query: &str) -> Vec<&'static Card> {
    let (cards, warnings) = search_all(game, query);
    assert!(warnings.is_empty(), "{query}: {warnings:?}");
    assert!(!cards.is_empty(), "{query} finds nothing");
    cards
}
