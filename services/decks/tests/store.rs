//! The saved-decks store on PostgreSQL and SQLite (each test its own fresh database): saving by
//! name replaces without regard to case and keeps the id, renames never take another deck's
//! name, listings come a page at a time without repeats or gaps, and a profile lists only
//! public decks.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use decks::Error;
use decks::domain::page::Cursor;
use decks::domain::saved::{
    DeckContent, DeckName, DeckPatch, Kind, Layout, Owner, Pile, PileRole, SavedCard,
};
use decks::domain::saved::{PileView, RuleRef};
use decks::domain::template::{TemplateLayout, TemplatePile};
use decks::store::{DeckStore, TemplateStore};
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
    a_save_with_a_name_in_use_replaces_that_deck_whatever_the_case,
    saves_of_other_games_and_accounts_do_not_collide,
    a_rename_to_a_name_in_use_is_refused_and_changes_nothing,
    pages_list_every_deck_once_newest_first,
    a_profile_lists_only_public_decks,
    a_deleted_deck_is_gone,
    a_deck_and_a_deck_set_of_one_name_are_two,
    templates_are_saved_by_name_renamed_hidden_and_deleted,
);

/// A fixed clock start, so times compare exactly (stored to the millisecond).
fn at(seconds: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_800_000_000 + seconds)
}

fn owner(id: &str) -> Owner<'_> {
    Owner {
        id,
        username: id.strip_prefix("acc_").unwrap_or(id),
    }
}

fn name(name: &str) -> DeckName {
    DeckName::parse(name).expect("a valid name")
}

fn deck(cards: &[(&str, u32)]) -> DeckContent {
    DeckContent {
        layout: Layout::Piles,
        piles: vec![
            Pile {
                name: "Main Deck".to_owned(),
                cards: cards
                    .iter()
                    .map(|(reference, count)| SavedCard {
                        reference: (*reference).to_owned(),
                        count: *count,
                    })
                    .collect(),
                ..Pile::default()
            },
            Pile {
                name: "Maybeboard".to_owned(),
                role: PileRole::Maybeboard,
                cards: vec![SavedCard {
                    reference: "maybe".to_owned(),
                    count: 4,
                }],
                ..Pile::default()
            },
        ],
        ..DeckContent::default()
    }
}

async fn store(database: &TestDatabase) -> DeckStore {
    let db = database.connect().await;
    db.migrate(&[&decks::store::MIGRATOR])
        .await
        .expect("migrations apply");
    DeckStore::new(db)
}

async fn a_save_with_a_name_in_use_replaces_that_deck_whatever_the_case(database: TestDatabase) {
    let store = store(&database).await;
    let first = store
        .save(
            Kind::Deck,
            owner("acc_ana"),
            Game::Lor,
            &name("Zed Aggro"),
            false,
            &deck(&[("01IO009", 3)]),
            at(1),
        )
        .await
        .expect("saved");
    assert!(!first.replaced);
    let second = store
        .save(
            Kind::Deck,
            owner("acc_ana"),
            Game::Lor,
            &name("ZED aggro"),
            true,
            &deck(&[("01IO012", 2)]),
            at(2),
        )
        .await
        .expect("saved");
    assert!(second.replaced, "the same name in another case replaces");
    assert_eq!(second.deck.id, first.deck.id, "the id is kept");
    let read = store
        .get(Kind::Deck, &first.deck.id)
        .await
        .expect("read")
        .expect("there");
    assert_eq!(read.name.as_str(), "ZED aggro", "the name as last typed");
    assert!(read.public);
    assert_eq!(read.content, deck(&[("01IO012", 2)]));
    assert_eq!(read.create_time, at(1), "the first save's time stays");
    assert_eq!(read.update_time, at(2));
    assert_eq!(read.content.counts().main, 2, "the maybeboard never counts");
    let page = store
        .list_own(Kind::Deck, "acc_ana", Game::Lor, None, 10)
        .await
        .expect("listed");
    assert_eq!(page.items.len(), 1, "one deck, not two");
}

async fn saves_of_other_games_and_accounts_do_not_collide(database: TestDatabase) {
    let store = store(&database).await;
    let content = deck(&[("a", 1)]);
    let ana_lor = store
        .save(
            Kind::Deck,
            owner("acc_ana"),
            Game::Lor,
            &name("Mine"),
            false,
            &content,
            at(1),
        )
        .await
        .expect("saved");
    let ana_pokemon = store
        .save(
            Kind::Deck,
            owner("acc_ana"),
            Game::Pokemon,
            &name("Mine"),
            false,
            &content,
            at(2),
        )
        .await
        .expect("saved");
    let bo_lor = store
        .save(
            Kind::Deck,
            owner("acc_bo"),
            Game::Lor,
            &name("Mine"),
            false,
            &content,
            at(3),
        )
        .await
        .expect("saved");
    assert!(!ana_pokemon.replaced && !bo_lor.replaced);
    assert_ne!(ana_lor.deck.id, ana_pokemon.deck.id);
    assert_ne!(ana_lor.deck.id, bo_lor.deck.id);
}

async fn a_rename_to_a_name_in_use_is_refused_and_changes_nothing(database: TestDatabase) {
    let store = store(&database).await;
    store
        .save(
            Kind::Deck,
            owner("acc_ana"),
            Game::Lor,
            &name("Taken"),
            false,
            &deck(&[]),
            at(1),
        )
        .await
        .expect("saved");
    let other = store
        .save(
            Kind::Deck,
            owner("acc_ana"),
            Game::Lor,
            &name("Other"),
            false,
            &deck(&[]),
            at(2),
        )
        .await
        .expect("saved");
    let refused = store
        .update(
            Kind::Deck,
            &other.deck.id,
            DeckPatch {
                name: Some(name("TAKEN")),
                public: Some(true),
                ..DeckPatch::default()
            },
            at(3),
        )
        .await;
    assert!(
        matches!(refused, Err(Error::NameTaken { kind: "deck", .. })),
        "{refused:?}"
    );
    let read = store
        .get(Kind::Deck, &other.deck.id)
        .await
        .expect("read")
        .expect("there");
    assert_eq!(read.name.as_str(), "Other");
    assert!(!read.public);
    let renamed = store
        .update(
            Kind::Deck,
            &other.deck.id,
            DeckPatch {
                name: Some(name("OTHER")),
                ..DeckPatch::default()
            },
            at(4),
        )
        .await
        .expect("its own name in another case is fine")
        .expect("there");
    assert_eq!(renamed.name.as_str(), "OTHER");
}

async fn pages_list_every_deck_once_newest_first(database: TestDatabase) {
    let store = store(&database).await;
    // Two decks share each time, so pages must break ties by id.
    for index in 0..7_u64 {
        store
            .save(
                Kind::Deck,
                owner("acc_ana"),
                Game::Riftbound,
                &name(&format!("Deck {index}")),
                false,
                &deck(&[]),
                at(index / 2),
            )
            .await
            .expect("saved");
    }
    let mut seen = Vec::new();
    let mut after: Option<Cursor> = None;
    loop {
        let page = store
            .list_own(Kind::Deck, "acc_ana", Game::Riftbound, after.as_ref(), 3)
            .await
            .expect("listed");
        assert!(page.items.len() <= 3);
        seen.extend(
            page.items
                .iter()
                .map(|deck| (deck.update_time, deck.id.0.clone())),
        );
        match page.next {
            Some(next) => after = Some(next),
            None => break,
        }
    }
    assert_eq!(seen.len(), 7, "every deck once");
    let mut sorted = seen.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(seen, sorted, "newest first, then by id");
    sorted.dedup();
    assert_eq!(sorted.len(), 7, "no repeats");
}

async fn a_profile_lists_only_public_decks(database: TestDatabase) {
    let store = store(&database).await;
    for (index, (title, public, game)) in [
        ("Public LoR", true, Game::Lor),
        ("Private LoR", false, Game::Lor),
        ("Public Pokémon", true, Game::Pokemon),
    ]
    .into_iter()
    .enumerate()
    {
        store
            .save(
                Kind::Deck,
                owner("acc_ana"),
                game,
                &name(title),
                public,
                &deck(&[]),
                at(index as u64),
            )
            .await
            .expect("saved");
    }
    let all = store
        .list_public(Kind::Deck, "ana", None, None, 10)
        .await
        .expect("listed");
    let names: Vec<&str> = all.items.iter().map(|deck| deck.name.as_str()).collect();
    assert_eq!(names, ["Public Pokémon", "Public LoR"]);
    let lor = store
        .list_public(Kind::Deck, "ana", Some(Game::Lor), None, 10)
        .await
        .expect("listed");
    assert_eq!(lor.items.len(), 1);
    assert!(
        store
            .list_public(Kind::Deck, "bo", None, None, 10)
            .await
            .expect("listed")
            .items
            .is_empty()
    );
}

async fn a_deleted_deck_is_gone(database: TestDatabase) {
    let store = store(&database).await;
    let saved = store
        .save(
            Kind::Deck,
            owner("acc_ana"),
            Game::Lor,
            &name("Gone"),
            false,
            &deck(&[]),
            at(1),
        )
        .await
        .expect("saved");
    assert!(
        store
            .delete(Kind::Deck, &saved.deck.id)
            .await
            .expect("deleted")
    );
    assert!(
        store
            .get(Kind::Deck, &saved.deck.id)
            .await
            .expect("read")
            .is_none()
    );
    assert!(
        !store
            .delete(Kind::Deck, &saved.deck.id)
            .await
            .expect("deleted"),
        "only once"
    );
    let again = store
        .save(
            Kind::Deck,
            owner("acc_ana"),
            Game::Lor,
            &name("Gone"),
            false,
            &deck(&[]),
            at(2),
        )
        .await
        .expect("saved");
    assert!(!again.replaced, "its name is free again");
}

async fn a_deck_and_a_deck_set_of_one_name_are_two(database: TestDatabase) {
    let store = store(&database).await;
    let mut lineup = deck(&[("a", 1)]);
    lineup.layout = Layout::MultiDeck;
    let deck = store
        .save(
            Kind::Deck,
            owner("acc_ana"),
            Game::Lor,
            &name("Worlds"),
            false,
            &deck(&[]),
            at(1),
        )
        .await
        .expect("saved");
    let set = store
        .save(
            Kind::DeckSet,
            owner("acc_ana"),
            Game::Lor,
            &name("WORLDS"),
            false,
            &lineup,
            at(2),
        )
        .await
        .expect("saved");
    assert!(!set.replaced, "a deck set does not replace a deck");
    assert!(deck.deck.id.0.starts_with("dk_") && set.deck.id.0.starts_with("ds_"));
    assert!(
        store
            .get(Kind::Deck, &set.deck.id)
            .await
            .expect("read")
            .is_none()
    );
    assert!(
        !store
            .delete(Kind::Deck, &set.deck.id)
            .await
            .expect("deleted"),
        "kinds stay apart"
    );
    let sets = store
        .list_own(Kind::DeckSet, "acc_ana", Game::Lor, None, 10)
        .await
        .expect("listed");
    assert_eq!(sets.items.len(), 1);
    assert_eq!(sets.items[0].content, lineup);
}

fn layout(open_pile: usize) -> TemplateLayout {
    TemplateLayout {
        layout: Layout::MultiDeck,
        piles: vec![TemplatePile {
            name: "Deck 1".to_owned(),
            role: PileRole::Main,
            zone_rule: None,
            column: 0,
            order: 0,
            view: PileView::default(),
            zone: None,
        }],
        open_pile,
        deck_rule: None,
        deckset_rule: RuleRef {
            ruleset: "lor-riot-lock".to_owned(),
            version: None,
        },
        card_ruleset: None,
    }
}

async fn templates_are_saved_by_name_renamed_hidden_and_deleted(database: TestDatabase) {
    let db = database.connect().await;
    db.migrate(&[&decks::store::MIGRATOR])
        .await
        .expect("migrations apply");
    let store = TemplateStore::new(db);
    let (first, replaced) = store
        .save(
            owner("acc_ana"),
            Game::Lor,
            &name("Bo3"),
            false,
            &layout(0),
            at(1),
        )
        .await
        .expect("saved");
    assert!(!replaced);
    let (second, replaced) = store
        .save(
            owner("acc_ana"),
            Game::Lor,
            &name("BO3"),
            true,
            &layout(0),
            at(2),
        )
        .await
        .expect("saved");
    assert!(replaced, "the same name in another case updates it");
    assert_eq!(second.id, first.id);
    let read = store.get(&first.id).await.expect("read").expect("there");
    assert_eq!(read.layout, layout(0));
    assert_eq!(read.create_time, at(1));
    let (other, _) = store
        .save(
            owner("acc_ana"),
            Game::Lor,
            &name("Other"),
            false,
            &layout(0),
            at(3),
        )
        .await
        .expect("saved");
    let taken = store
        .update(&other.id, Some(&name("bo3")), None, at(4))
        .await;
    assert!(
        matches!(
            taken,
            Err(Error::NameTaken {
                kind: "template",
                ..
            })
        ),
        "{taken:?}"
    );
    let public = store
        .list_public("ana", Some(Game::Lor), None, 10)
        .await
        .expect("listed");
    assert_eq!(public.items.len(), 1);
    assert_eq!(
        store
            .list_own("acc_ana", Game::Lor, None, 1)
            .await
            .expect("listed")
            .items
            .len(),
        1,
        "a page of one"
    );

    store
        .set_hidden("acc_ana", "riftbound-constructed", true)
        .await
        .expect("hidden");
    store
        .set_hidden("acc_ana", "riftbound-constructed", true)
        .await
        .expect("hiding twice is fine");
    assert!(
        store
            .hidden("acc_ana")
            .await
            .expect("read")
            .contains("riftbound-constructed")
    );
    assert!(store.hidden("acc_bo").await.expect("read").is_empty());
    store
        .set_hidden("acc_ana", "riftbound-constructed", false)
        .await
        .expect("shown");
    assert!(store.hidden("acc_ana").await.expect("read").is_empty());

    assert!(store.delete(&first.id).await.expect("deleted"));
    assert!(store.get(&first.id).await.expect("read").is_none());
}
