//! Catalog benchmarks on the real card data: converting each game's upstream files into cards,
//! and `GetCards` for a 60-card deck against an SQLite catalog holding every Pokémon card.
//!
//! Needs the data folder (`kit::testing::shared`: `TURNIER_SHARED_DIR`, else `../shared` beside the project).

use std::time::Duration;

use catalog::domain::Game;
use criterion::{Criterion, criterion_group, criterion_main};

fn convert(c: &mut Criterion) {
    let mut group = c.benchmark_group("import/convert");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for game in Game::ALL {
        let files = catalog::import::read_sources(
            game,
            &kit::testing::shared::data_dir().join(game.name()),
        )
        .expect("the data folder is readable");
        group.bench_function(game.name(), |b| {
            b.iter(|| catalog::import::convert(game, &files))
        });
    }
    group.finish();
}

fn get_cards(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let (api, refs) = runtime.block_on(async {
        let db = kit::db::Database::connect(&url, 4).await.expect("sqlite");
        db.migrate(&[&catalog::store::MIGRATOR])
            .await
            .expect("migrate");
        let store = catalog::store::Store::new(db);
        let files = catalog::import::read_sources(
            Game::Pokemon,
            &kit::testing::shared::data_dir().join("pokemon"),
        )
        .expect("the data folder is readable");
        let import = catalog::import::convert(Game::Pokemon, &files);
        // 60 distinct printing refs spread over the catalog: a deck without repeats, the
        // worst case for lookups.
        let step = import.aliases.len() / 60;
        let refs: Vec<String> = import
            .aliases
            .iter()
            .step_by(step.max(1))
            .take(60)
            .map(|(alias, _)| alias.clone())
            .collect();
        store
            .save_import(Game::Pokemon, &import)
            .await
            .expect("save");
        (catalog::grpc::Api::new(store), refs)
    });
    assert_eq!(refs.len(), 60);
    c.bench_function("get_cards/pokemon/60-card deck", |b| {
        b.iter(|| {
            runtime
                .block_on(api.cards_for_refs(Game::Pokemon, &refs))
                .expect("cards")
        });
    });
}

criterion_group!(benches, convert, get_cards);
criterion_main!(benches);
