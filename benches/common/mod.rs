//! What the search benchmarks share: the real catalog and the Pokémon example queries.
//!
//! Data comes from `shared/data` beside the repository (`kit::testing::shared`).

use catalog::domain::{Game, Import};

/// Imports one game's real card data.
pub fn load(game: Game) -> Import {
    let dir = kit::testing::shared::data_dir().join(game.name());
    let files = catalog::import::read_sources(game, &dir).expect("the data folder is readable");
    catalog::import::convert(game, &files)
}

/// Every example query of `reference-search-pokemon.md`, plus a few typical extras.
pub const POKEMON_QUERIES: &[&str] = &[
    "t:water hp>=120",
    "is:ex t:fire",
    r#"subtype:supporter o:"search your deck""#,
    "cost:RCC",
    "cost>=RR damage>=200",
    "cost:1 damage>=60",
    "retreat=0 stage:basic",
    "stage:2 weakness:fighting",
    "pkachu",
    "n:pkachu",
    r#"is:"ace spec""#,
    "not:ex t:psychic stage:basic reg:h",
    "charizard",
    "draw",
    "n:/^mega /",
    "t:fire order:name",
    "pikachu unique:prints",
];
