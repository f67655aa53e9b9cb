//! What keeping decks costs in the store (SQLite, as the embedded default): saving a 60-card
//! deck by name (a replace, as a player re-saving the deck they are building) and reading it
//! back, and a page of 100 saved decks. The end-to-end figures through the gateway are in the
//! README.

use std::hint::black_box;
use std::time::SystemTime;

use criterion::{Criterion, criterion_group, criterion_main};
use decks::domain::saved::{DeckContent, DeckName, Kind, Layout, Owner, Pile, PileRole, SavedCard};
use decks::store::DeckStore;
use kit::testing::TestDatabase;
use proto::game::Game;

const OWNER: Owner<'static> = Owner {
    id: "acc_bench",
    username: "bench",
};

/// A 60-card Pokémon deck of 20 refs, and a sideboard-less maybeboard, as the builder saves it.
fn deck() -> DeckContent {
    let cards = (0..20)
        .map(|index| SavedCard {
            reference: format!("sv{}-{}", index % 5 + 1, index + 1),
            count: 3,
        })
        .collect();
    DeckContent {
        layout: Layout::Piles,
        piles: vec![
            Pile {
                name: "Main".to_owned(),
                cards,
                ..Pile::default()
            },
            Pile {
                name: "Maybeboard".to_owned(),
                role: PileRole::Maybeboard,
                ..Pile::default()
            },
        ],
        ..DeckContent::default()
    }
}

fn saved_decks(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let database = TestDatabase::sqlite();
    let store = runtime.block_on(async {
        let db = database.connect().await;
        db.migrate(&[&decks::store::MIGRATOR])
            .await
            .expect("migrations apply");
        DeckStore::new(db)
    });
    let content = deck();
    let name = DeckName::parse("Gardevoir").expect("a name");
    c.bench_function("save and read a 60-card deck (SQLite)", |b| {
        b.to_async(&runtime).iter(|| async {
            let saved = store
                .save(
                    Kind::Deck,
                    OWNER,
                    Game::Pokemon,
                    &name,
                    false,
                    &content,
                    SystemTime::now(),
                )
                .await
                .expect("saved");
            black_box(
                store
                    .get(Kind::Deck, &saved.deck.id)
                    .await
                    .expect("read")
                    .expect("there"),
            )
        });
    });

    runtime.block_on(async {
        for index in 0..100 {
            let name = DeckName::parse(&format!("Deck {index}")).expect("a name");
            store
                .save(
                    Kind::Deck,
                    OWNER,
                    Game::Lor,
                    &name,
                    false,
                    &content,
                    SystemTime::now(),
                )
                .await
                .expect("saved");
        }
    });
    c.bench_function("a page of 100 saved decks (SQLite)", |b| {
        b.to_async(&runtime).iter(|| async {
            let page = store
                .list_own(Kind::Deck, OWNER.id, Game::Lor, None, 100)
                .await
                .expect("listed");
            assert_eq!(page.items.len(), 100);
            black_box(page)
        });
    });
}

criterion_group!(benches, saved_decks);
criterion_main!(benches);
