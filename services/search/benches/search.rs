//! Search benchmarks on the real catalog: index build per game, and every example query of
//! `reference-search-pokemon.md` (plus a few typical extras) on the full Pokémon catalog.
//!
//! Data comes from `TURNIER_DATA_DIR`, else `../shared/data` next to the repository.

use std::hint::black_box;
use std::path::PathBuf;

use catalog::domain::{Game, Import};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use search::domain::Index;

fn load(game: Game) -> Import {
    let dir = std::env::var_os("TURNIER_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"))
        .join(game.name());
    let files = catalog::import::read_sources(game, &dir).expect("the data folder is readable");
    catalog::import::convert(game, &files)
}

fn build(c: &mut Criterion) {
    let mut group = c.benchmark_group("build");
    group.sample_size(10);
    for game in Game::ALL {
        let import = load(game);
        group.bench_function(game.name(), |b| {
            b.iter_batched(
                || import.cards.clone(),
                |cards| black_box(Index::new(game, cards, &import.sets)),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

const POKEMON_QUERIES: &[&str] = &[
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

fn queries(c: &mut Criterion) {
    let import = load(Game::Pokemon);
    let index = Index::new(Game::Pokemon, import.cards, &import.sets);
    let mut group = c.benchmark_group("pokemon");
    for query in POKEMON_QUERIES {
        group.bench_function(*query, |b| {
            b.iter(|| black_box(index.search(black_box(query), 60, "").map(|r| r.total)))
        });
    }
    group.finish();
}

criterion_group!(benches, build, queries);
criterion_main!(benches);
