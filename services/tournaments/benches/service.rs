//! Criterion benchmarks of the tournaments service in process (its store on SQLite, the fold,
//! the engine; no gRPC or HTTP): pairing a Swiss round of 8,000 registered players, the
//! standings after one reported result, and result reports one after another.
//!
//! `cargo bench -p tournaments --bench service`; figures go into the README's performance
//! table (the gateway's end-to-end figures are measured separately, see the README).

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use kit::auth::{AccountCaller, Caller, Scopes, TokenKind};
use kit::testing::TestDatabase;
use proto::game::Game;
use serde_json::{Map, json};
use tournaments::domain::defaults::Format;
use tournaments::domain::stages::CutTiebreaker;
use tournaments::run::Run;
use tournaments::run::create::{CreateInput, StageInput};
use tournaments::service::{Reported, Tournaments};
use tournaments::store::TournamentStore;

const PLAYERS: usize = 8_000;

fn organizer() -> Caller {
    Caller::Account(AccountCaller {
        id: "acc_org".into(),
        username: "org".into(),
        kind: TokenKind::Session,
        scopes: Scopes::ALL,
        expires: None,
    })
}

async fn service(database: &TestDatabase) -> Tournaments {
    let db = database.connect().await;
    db.migrate(&[&tournaments::store::MIGRATOR])
        .await
        .expect("migrations apply");
    Tournaments::new(TournamentStore::new(db), None, None)
}

/// A started 8,000-player Swiss event (guests), with `rounds` rounds played (the better
/// registration number winning 2-1).
async fn event(service: &Tournaments, rounds: usize) -> Arc<Run> {
    let organizer = organizer();
    let mut settings = Map::new();
    settings.insert("rounds".into(), json!(9));
    let run = service
        .create(
            &organizer,
            CreateInput {
                game: Game::Riftbound,
                name: "Regional".into(),
                stages: vec![StageInput {
                    format: Format::Swiss,
                    settings,
                }],
                rules: vec![],
                cut_tiebreaker: CutTiebreaker::BetterSeed,
                max_participants: None,
                check_in: false,
                seed: 0,
            },
            Some(2026),
        )
        .await
        .expect("created");
    for n in 0..PLAYERS {
        service
            .register(&organizer, &run.id, Some(&format!("Player {n}")))
            .await
            .expect("registered");
    }
    let mut run = service.start(&organizer, &run.id).await.expect("started");
    for _ in 0..rounds {
        run = service
            .pair(&organizer, &run.id, &[])
            .await
            .expect("paired");
        run = report_all(service, &run).await;
    }
    run
}

async fn report_all(service: &Tournaments, run: &Run) -> Arc<Run> {
    let organizer = organizer();
    let round = run.stages[0].rounds.last().expect("a round").clone();
    let mut last = None;
    for played in round.matches.iter().filter(|m| !m.paired.bye) {
        last = Some(
            service
                .report(
                    &organizer,
                    &run.id,
                    &played.paired.id,
                    &Reported::Games([2, 1]),
                )
                .await
                .expect("reported"),
        );
    }
    last.expect("a match")
}

fn benches(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let mut group = c.benchmark_group("service");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(30));

    group.bench_function("pair a Swiss round 2 of 8,000 players", |b| {
        b.iter_custom(|iterations| {
            runtime.block_on(async {
                let mut total = Duration::ZERO;
                for _ in 0..iterations {
                    let database = TestDatabase::sqlite();
                    let service = service(&database).await;
                    let run = event(&service, 1).await;
                    let started = Instant::now();
                    service
                        .pair(&organizer(), &run.id, &[])
                        .await
                        .expect("paired");
                    total += started.elapsed();
                }
                total
            })
        });
    });

    // One event with round 2 paired, shared by the next two benches.
    let database = TestDatabase::sqlite();
    let (service, run) = runtime.block_on(async {
        let service = service(&database).await;
        let run = event(&service, 1).await;
        let run = service
            .pair(&organizer(), &run.id, &[])
            .await
            .expect("paired");
        (service, run)
    });
    let matches: Vec<String> = run.stages[0].rounds[1]
        .matches
        .iter()
        .filter(|m| !m.paired.bye)
        .map(|m| m.paired.id.clone())
        .collect();
    let mut next = 0;
    group.bench_function("a report then the standings, 8,000 players", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let id = &matches[next % matches.len()];
                next += 1;
                let run = service
                    .report(&organizer(), &run.id, id, &Reported::Games([2, 0]))
                    .await
                    .expect("reported");
                run.standings(0).expect("standings")
            })
        });
    });
    group.bench_function("standings alone, 8,000 players", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let run = service.get(&organizer(), &run.id).await.expect("read");
                run.standings(0).expect("standings")
            })
        });
    });
    group.bench_function("one result report, 8,000 players", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let id = &matches[next % matches.len()];
                next += 1;
                service
                    .report(&organizer(), &run.id, id, &Reported::Games([1, 2]))
                    .await
                    .expect("reported")
            })
        });
    });
    group.finish();
}

criterion_group!(service_benches, benches);
criterion_main!(service_benches);
