//! Search benchmarks on the real catalog: index build per game, and every example query of
//! `reference-search-pokemon.md` (plus a few typical extras) on the full Pokémon catalog.
//!
//! Data comes from `shared/data` beside the repository (`kit::testing::shared`).

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use proto::game::Game;
use search::domain::Index;

mod common;

use common::{POKEMON_QUERIES, load};

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
