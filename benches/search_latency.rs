//! p50 and p99 of every Pokémon example query on the full catalog — what criterion's medians
//! leave out. Each query runs 500 times after 20 warm-up runs; the figures go to stdout as a
//! table. Run with `cargo bench -p search --bench latency`.
//!
//! Data comes from `shared/data` beside the repository (`kit::testing::shared`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use proto::game::Game;
use search::domain::Index;

mod common;

use common::{POKEMON_QUERIES, load};

const RUNS: usize = 500;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

fn main() {
    // `cargo test --benches` runs bench targets with `--test`: nothing to measure then.
    if std::env::args().any(|arg| arg == "--test" || arg == "--list") {
        return;
    }
    let import = load(Game::Pokemon);
    let index = Index::new(Game::Pokemon, import.cards, &import.sets);
    println!("| query | p50 | p99 |");
    println!("| --- | --- | --- |");
    for query in POKEMON_QUERIES {
        for _ in 0..20 {
            black_box(index.search(query, 60, "").expect("the query parses").total);
        }
        let mut times: Vec<Duration> = (0..RUNS)
            .map(|_| {
                let started = Instant::now();
                black_box(index.search(query, 60, "").expect("the query parses").total);
                started.elapsed()
            })
            .collect();
        times.sort();
        println!(
            "| `{query}` | {:.0} µs | {:.0} µs |",
            percentile(&times, 0.50).as_secs_f64() * 1e6,
            percentile(&times, 0.99).as_secs_f64() * 1e6
        );
    }
}
