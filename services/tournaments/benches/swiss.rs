//! Criterion benchmarks of the engine on simulated events (random results from a fixed seed):
//! pairing a late Swiss round with rematch prevention, and standings with every tiebreaker.
//!
//! `cargo bench -p tournaments --bench swiss`; figures go into the README's performance table.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use tournaments::domain::defaults::{Game, GameDefaults, SeedingMethod, SwissSettings};
use tournaments::domain::random::Rng;
use tournaments::domain::swiss::pair_next_round;
use tournaments::domain::{Entry, Event, Player, PlayerId, Round, Tiebreaker, standings};

/// Plays `rounds` Swiss rounds of `players` with Riftbound's defaults and random results.
fn simulated(players: usize, rounds: u32) -> (Event, SwissSettings) {
    let defaults = GameDefaults::of(Game::Riftbound);
    let mut stage = defaults.swiss.clone();
    stage.rounds = rounds + 1;
    stage.first_round_seeding = SeedingMethod::Random;
    let mut settings = stage.scoring(defaults.win_percentage);
    settings.tiebreakers = Tiebreaker::ALL.to_vec();
    let mut event = Event {
        settings,
        players: (1..=players)
            .map(|seed| Player {
                id: PlayerId(format!("player-{seed}")),
                seed: u32::try_from(seed).expect("a small seed"),
                rating: None,
                dropped: false,
            })
            .collect(),
        rounds: Vec::new(),
    };
    let mut rng = Rng::new(2026, 0);
    for _ in 0..rounds {
        let pairing = pair_next_round(&event, &stage, 7, None).expect("a simulated round");
        let mut entries: Vec<Entry> = pairing
            .matches
            .into_iter()
            .map(|players| {
                let games = match rng.below(5) {
                    0 | 1 => [2, 0],
                    2 | 3 => [1, 2],
                    _ => [1, 1],
                };
                Entry::Match { players, games }
            })
            .collect();
        entries.extend(pairing.bye.map(Entry::Bye));
        event.rounds.push(Round(entries));
    }
    (event, stage)
}

fn swiss_pairing(c: &mut Criterion) {
    let mut group = c.benchmark_group("swiss_pairing_late_round");
    group.sample_size(10);
    for (players, rounds) in [(256, 7), (1_024, 9), (2_048, 10), (8_000, 12)] {
        let (event, stage) = simulated(players, rounds);
        group.bench_function(format!("{players} players, round {}", rounds + 1), |b| {
            b.iter_batched(
                || (),
                |()| pair_next_round(&event, &stage, 7, None).expect("a pairing"),
                BatchSize::SmallInput,
            );
        });
    }
    group.finish();
}

fn standings_with_every_tiebreaker(c: &mut Criterion) {
    let (event, _) = simulated(8_000, 12);
    let mut group = c.benchmark_group("standings");
    group.sample_size(20);
    group.bench_function("8000 players, 12 rounds, all tiebreakers", |b| {
        b.iter(|| standings(&event));
    });
    group.finish();
}

criterion_group!(benches, swiss_pairing, standings_with_every_tiebreaker);
criterion_main!(benches);
