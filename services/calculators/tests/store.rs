//! The calculators store on PostgreSQL and SQLite (each test its own fresh database): a
//! calculator's versions made only by changes of source, listings, deletes, and the defaults
//! an account switched off.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use calculators::domain::calculator::CalculatorName;
use calculators::store::{CalculatorPatch, CalculatorStore};
use kit::testing::TestDatabase;
use proto::game::Game;

macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod postgres {
            $(#[tokio::test] async fn $name() { super::$name(kit::testing::TestDatabase::postgres().await).await; })*
        }
        mod sqlite {
            $(#[tokio::test] async fn $name() { super::$name(kit::testing::TestDatabase::sqlite()).await; })*
        }
    };
}

on_both_databases!(
    a_change_of_source_makes_a_version_and_others_do_not,
    listings_hold_own_and_public_calculators,
    a_deleted_calculator_is_gone_with_its_versions,
    defaults_are_switched_off_per_account,
);

fn at(seconds: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_800_000_000 + seconds)
}

fn name(name: &str) -> CalculatorName {
    CalculatorName::parse(name).expect("a valid name")
}

async fn store(database: &TestDatabase) -> CalculatorStore {
    let db = database.connect().await;
    db.migrate(&[&calculators::store::MIGRATOR])
        .await
        .expect("migrations apply");
    CalculatorStore::new(db)
}

const SOURCE: &str = "export default function compute() { return { widgets: [] }; }";

async fn a_change_of_source_makes_a_version_and_others_do_not(database: TestDatabase) {
    let store = store(&database).await;
    let made = store
        .create(
            "acc_ana",
            "ana",
            Game::Pokemon,
            &name("Mine"),
            SOURCE,
            false,
            at(1),
        )
        .await
        .expect("created");
    assert_eq!(made.version, 1);
    assert!(made.enabled);
    let renamed = store
        .update(
            made.clone(),
            CalculatorPatch {
                name: Some(name("Renamed")),
                source: Some(SOURCE.to_owned()),
                enabled: Some(false),
                ..CalculatorPatch::default()
            },
            at(2),
        )
        .await
        .expect("updated")
        .expect("there");
    assert_eq!(renamed.version, 1, "the same source makes no version");
    assert_eq!(renamed.name.as_str(), "Renamed");
    assert!(!renamed.enabled);
    let edited = store
        .update(
            renamed.clone(),
            CalculatorPatch {
                source: Some(format!("{SOURCE}\n")),
                ..CalculatorPatch::default()
            },
            at(3),
        )
        .await
        .expect("updated")
        .expect("there");
    assert_eq!(edited.version, 2);
    assert_eq!(edited.source, format!("{SOURCE}\n"));
    assert_eq!(edited.create_time, at(1));
    assert_eq!(edited.update_time, at(3));
    // What the update answers is what is stored.
    assert_eq!(
        store.get(&made.id).await.expect("read").as_ref(),
        Some(&edited)
    );
}

async fn listings_hold_own_and_public_calculators(database: TestDatabase) {
    let store = store(&database).await;
    for (index, (owner, title, public, game)) in [
        ("acc_ana", "Public", true, Game::Lor),
        ("acc_ana", "Private", false, Game::Lor),
        ("acc_ana", "Other game", true, Game::Pokemon),
        ("acc_bob", "Bob's", true, Game::Lor),
    ]
    .into_iter()
    .enumerate()
    {
        let username = owner.strip_prefix("acc_").expect("a prefix");
        store
            .create(
                owner,
                username,
                game,
                &name(title),
                SOURCE,
                public,
                at(index as u64),
            )
            .await
            .expect("created");
    }
    let own: Vec<String> = store
        .list_own("acc_ana", Game::Lor)
        .await
        .expect("listed")
        .into_iter()
        .map(|c| c.name.as_str().to_owned())
        .collect();
    assert_eq!(own, ["Private", "Public"], "the last changed first");
    let public: Vec<String> = store
        .list_public("ana", None)
        .await
        .expect("listed")
        .into_iter()
        .map(|c| c.name.as_str().to_owned())
        .collect();
    assert_eq!(public, ["Other game", "Public"]);
    assert_eq!(
        store
            .list_public("ana", Some(Game::Lor))
            .await
            .expect("listed")
            .len(),
        1
    );
}

async fn a_deleted_calculator_is_gone_with_its_versions(database: TestDatabase) {
    let store = store(&database).await;
    let made = store
        .create(
            "acc_ana",
            "ana",
            Game::Lor,
            &name("Gone"),
            SOURCE,
            false,
            at(1),
        )
        .await
        .expect("created");
    store
        .update(
            made.clone(),
            CalculatorPatch {
                source: Some("export default function compute() {}".to_owned()),
                ..CalculatorPatch::default()
            },
            at(2),
        )
        .await
        .expect("updated");
    assert!(store.delete(&made.id).await.expect("deleted"));
    assert!(store.get(&made.id).await.expect("read").is_none());
    assert!(!store.delete(&made.id).await.expect("deleted"));
}

async fn defaults_are_switched_off_per_account(database: TestDatabase) {
    let store = store(&database).await;
    store
        .set_default_off("acc_ana", "lor-deck-breakdown", true)
        .await
        .expect("off");
    store
        .set_default_off("acc_ana", "lor-deck-breakdown", true)
        .await
        .expect("twice is fine");
    assert!(
        store
            .defaults_off("acc_ana")
            .await
            .expect("read")
            .contains("lor-deck-breakdown")
    );
    assert!(
        store
            .defaults_off("acc_bob")
            .await
            .expect("read")
            .is_empty()
    );
    store
        .set_default_off("acc_ana", "lor-deck-breakdown", false)
        .await
        .expect("on");
    assert!(
        store
            .defaults_off("acc_ana")
            .await
            .expect("read")
            .is_empty()
    );
}
