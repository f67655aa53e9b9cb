//! The rulesets store on PostgreSQL and SQLite (each test its own fresh database): versions
//! made only by changes of code, soft deletes that keep versions readable, pinned copies and
//! their update, the two listings, and concurrent edits that never share a version number.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use kit::testing::TestDatabase;
use proto::game::Game;
use scripts::Error;
use scripts::domain::rule_result::Scope;
use scripts::domain::ruleset::{
    Origin, OriginKind, Owner, Patch, Ruleset, RulesetError, RulesetName,
};
use scripts::rulesets_store::RulesetStore;

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
    creates_a_ruleset_with_its_version_one,
    an_edit_of_the_source_or_bans_makes_a_new_version_and_keeps_the_old,
    a_change_of_name_public_or_enabled_makes_no_version,
    a_deleted_ruleset_is_gone_but_its_versions_stay_readable,
    a_saved_copy_keeps_its_pinned_version_through_the_authors_edit_and_delete,
    moving_a_copy_takes_the_new_version_and_the_authors_name,
    a_copy_is_read_only_but_can_be_disabled,
    own_listing_holds_own_and_downloaded_rulesets_of_the_game_newest_first,
    public_listing_holds_only_public_authored_live_rulesets,
    concurrent_edits_take_distinct_consecutive_versions,
    an_edit_whose_version_number_stays_taken_fails_clearly_and_writes_nothing,
    direct_bans_are_refused_where_the_game_or_scope_has_none,
);

/// A fixed clock start, so times compare exactly (stored to the millisecond).
fn at(seconds: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_800_000_000 + seconds)
}

/// The owner of account `id` (`acc_ana`), whose username is the id without its prefix (`ana`).
fn owner(id: &str) -> Owner<'_> {
    Owner {
        id,
        username: id.strip_prefix("acc_").unwrap_or(id),
    }
}

fn name(name: &str) -> RulesetName {
    RulesetName::parse(name).expect("a valid name")
}

async fn store(database: &TestDatabase) -> RulesetStore {
    let db = database.connect().await;
    db.migrate(&[&scripts::rulesets_store::MIGRATOR])
        .await
        .expect("migrations apply");
    RulesetStore::new(db)
}

async fn deck_rule(store: &RulesetStore, id: &str, title: &str, now: SystemTime) -> Ruleset {
    store
        .create(
            owner(id),
            Game::Lor,
            &name(title),
            Scope::Deck,
            "export function validateDeck() { return true; }",
            false,
            &[],
            now,
        )
        .await
        .expect("created")
}

fn source(patch: &str) -> Patch {
    Patch {
        source: Some(patch.to_owned()),
        ..Patch::default()
    }
}

async fn creates_a_ruleset_with_its_version_one(database: TestDatabase) {
    let store = store(&database).await;
    let bans = vec!["01IO049".to_owned(), "01SI001".to_owned()];
    let created = store
        .create(
            owner("acc_ana"),
            Game::Lor,
            &name("Two-of Standard"),
            Scope::Card,
            "export function validateCard() { return true; }",
            true,
            &bans,
            at(0),
        )
        .await
        .expect("created");
    let id = created.id.0.strip_prefix("rs_").expect("an rs_ id");
    assert!(
        id.len() >= 16
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
        "URL-safe: {id}"
    );
    assert_eq!(
        (created.public, created.enabled, created.latest_version),
        (true, true, 1)
    );
    assert_eq!(created.origin, None);
    assert_eq!((created.create_time, created.update_time), (at(0), at(0)));

    let read = store.get(&created.id).await.expect("query").expect("found");
    assert_eq!(read, created);
    // The owner's username is kept beside the id: what the ruleset shows and profiles list by.
    assert_eq!(
        (read.owner.as_str(), read.owner_name.as_str()),
        ("acc_ana", "ana")
    );
    let version = store
        .version(&created.id, 1)
        .await
        .expect("query")
        .expect("version 1");
    assert_eq!(version.ruleset, created.id);
    assert_eq!(version.version, 1);
    assert_eq!(
        version.source,
        "export function validateCard() { return true; }"
    );
    assert_eq!(version.direct_bans, bans);
    assert_eq!(version.create_time, at(0));
    assert_eq!(store.version(&created.id, 2).await.expect("query"), None);
    let (ruleset, latest) = store
        .latest(&created.id)
        .await
        .expect("query")
        .expect("found");
    assert_eq!((ruleset, latest), (created, version));
}

async fn an_edit_of_the_source_or_bans_makes_a_new_version_and_keeps_the_old(
    database: TestDatabase,
) {
    let store = store(&database).await;
    let created = store
        .create(
            owner("acc_ana"),
            Game::Pokemon,
            &name("Bans"),
            Scope::Card,
            "v1",
            false,
            &[],
            at(0),
        )
        .await
        .expect("created");
    let edited = store
        .update(&created.id, &source("v2"), at(10))
        .await
        .expect("updated")
        .expect("found");
    assert_eq!(edited.latest_version, 2);
    assert_eq!(edited.update_time, at(10));
    assert_eq!(edited.create_time, at(0));

    let banned = Patch {
        direct_bans: Some(vec!["sv1-1".into()]),
        ..Patch::default()
    };
    let edited = store
        .update(&created.id, &banned, at(20))
        .await
        .expect("updated")
        .expect("found");
    assert_eq!(edited.latest_version, 3);

    let v1 = store.version(&created.id, 1).await.expect("query");
    let v2 = store.version(&created.id, 2).await.expect("query");
    let v3 = store.version(&created.id, 3).await.expect("query");
    let (v1, v2, v3) = (
        v1.expect("v1 stays"),
        v2.expect("v2 stays"),
        v3.expect("v3"),
    );
    assert_eq!(
        (v1.source.as_str(), v1.direct_bans.len(), v1.create_time),
        ("v1", 0, at(0))
    );
    assert_eq!(
        (v2.source.as_str(), v2.direct_bans.len(), v2.create_time),
        ("v2", 0, at(10))
    );
    assert_eq!(
        (v3.source.as_str(), v3.direct_bans.as_slice()),
        ("v2", ["sv1-1".to_owned()].as_slice()),
        "a ban edit keeps the source"
    );
    let (ruleset, latest) = store
        .latest(&created.id)
        .await
        .expect("query")
        .expect("found");
    assert_eq!((ruleset.latest_version, latest.version), (3, 3));

    // The same source again is no change of code.
    let same = store
        .update(&created.id, &source("v2"), at(30))
        .await
        .expect("updated")
        .expect("found");
    assert_eq!(same.latest_version, 3);
    assert_eq!(same.update_time, at(30));
    assert_eq!(store.version(&created.id, 4).await.expect("query"), None);
}

async fn a_change_of_name_public_or_enabled_makes_no_version(database: TestDatabase) {
    let store = store(&database).await;
    let created = deck_rule(&store, "acc_ana", "Old", at(0)).await;
    let patch = Patch {
        name: Some(name("New")),
        public: Some(true),
        enabled: Some(false),
        ..Patch::default()
    };
    let edited = store
        .update(&created.id, &patch, at(5))
        .await
        .expect("updated")
        .expect("found");
    assert_eq!(edited.name.as_str(), "New");
    assert_eq!(
        (edited.public, edited.enabled, edited.latest_version),
        (true, false, 1)
    );
    assert_eq!(edited.update_time, at(5));
    assert_eq!(store.get(&created.id).await.expect("query"), Some(edited));
    assert_eq!(store.version(&created.id, 2).await.expect("query"), None);

    let back = Patch {
        enabled: Some(true),
        ..Patch::default()
    };
    let edited = store
        .update(&created.id, &back, at(6))
        .await
        .expect("updated")
        .expect("found");
    assert!(edited.enabled && edited.public, "untouched fields stay");
}

async fn a_deleted_ruleset_is_gone_but_its_versions_stay_readable(database: TestDatabase) {
    let store = store(&database).await;
    let created = deck_rule(&store, "acc_ana", "Gone", at(0)).await;
    store
        .update(&created.id, &source("v2"), at(1))
        .await
        .expect("updated");
    assert!(store.delete(&created.id, at(2)).await.expect("deleted"));
    assert!(
        !store.delete(&created.id, at(3)).await.expect("query"),
        "only once"
    );

    assert_eq!(store.get(&created.id).await.expect("query"), None);
    assert_eq!(store.latest(&created.id).await.expect("query"), None);
    assert!(
        store
            .list_own("acc_ana", Game::Lor, None)
            .await
            .expect("query")
            .is_empty()
    );
    assert_eq!(
        store
            .update(&created.id, &source("v3"), at(4))
            .await
            .expect("query"),
        None,
        "a deleted ruleset takes no edit"
    );
    for version in [1, 2] {
        assert!(
            store
                .version(&created.id, version)
                .await
                .expect("query")
                .is_some(),
            "version {version} stays"
        );
    }
}

async fn a_saved_copy_keeps_its_pinned_version_through_the_authors_edit_and_delete(
    database: TestDatabase,
) {
    let store = store(&database).await;
    let original = deck_rule(&store, "acc_author", "Shared", at(0)).await;
    let origin = Origin {
        ruleset: original.id.clone(),
        version: 1,
        from: OriginKind::Profile,
    };
    let copy = store
        .save_copy(
            owner("acc_fan"),
            &origin,
            &original.name,
            Game::Lor,
            Scope::Deck,
            at(1),
        )
        .await
        .expect("saved");
    assert_ne!(copy.id, original.id);
    assert_eq!(copy.owner, "acc_fan");
    assert_eq!(copy.origin.as_ref(), Some(&origin));
    assert_eq!(copy.latest_version, 1);
    assert!(!copy.public && copy.enabled);
    assert_eq!(
        store.version(&copy.id, 1).await.expect("query"),
        None,
        "no versions of its own"
    );

    let pinned_source = "export function validateDeck() { return true; }";
    store
        .update(&original.id, &source("v2"), at(2))
        .await
        .expect("updated");
    let unpublished = Patch {
        public: Some(false),
        ..Patch::default()
    };
    store
        .update(&original.id, &unpublished, at(3))
        .await
        .expect("updated");
    assert!(store.delete(&original.id, at(4)).await.expect("deleted"));

    let (read, code) = store
        .latest(&copy.id)
        .await
        .expect("query")
        .expect("the copy still runs");
    assert_eq!(read, copy);
    assert_eq!(
        (&code.ruleset, code.version, code.source.as_str()),
        (&original.id, 1, pinned_source)
    );
    assert_eq!(
        store
            .list_own("acc_fan", Game::Lor, None)
            .await
            .expect("query"),
        vec![copy]
    );

    let missing = Origin {
        version: 9,
        ..origin
    };
    let saved = store
        .save_copy(
            owner("acc_fan"),
            &missing,
            &name("x"),
            Game::Lor,
            Scope::Deck,
            at(5),
        )
        .await;
    assert!(
        matches!(saved, Err(Error::UnknownVersion { version: 9, .. })),
        "{saved:?}"
    );
}

async fn moving_a_copy_takes_the_new_version_and_the_authors_name(database: TestDatabase) {
    let store = store(&database).await;
    let original = deck_rule(&store, "acc_author", "Old name", at(0)).await;
    let origin = Origin {
        ruleset: original.id.clone(),
        version: 1,
        from: OriginKind::Tournament,
    };
    let copy = store
        .save_copy(
            owner("acc_fan"),
            &origin,
            &original.name,
            Game::Lor,
            Scope::Deck,
            at(1),
        )
        .await
        .expect("saved");
    let edited = store
        .update(
            &original.id,
            &Patch {
                name: Some(name("New name")),
                source: Some("v2".into()),
                ..Patch::default()
            },
            at(2),
        )
        .await
        .expect("updated")
        .expect("found");
    assert!(copy.is_update_available(edited.latest_version));

    let moved = store
        .move_copy(&copy.id, edited.latest_version, &edited.name, at(3))
        .await
        .expect("moved")
        .expect("found");
    assert_eq!(moved.name.as_str(), "New name");
    assert_eq!(moved.latest_version, 2);
    assert_eq!(moved.origin.as_ref().map(|origin| origin.version), Some(2));
    assert_eq!(moved.update_time, at(3));
    assert!(!moved.is_update_available(edited.latest_version));
    assert_eq!(
        store.get(&copy.id).await.expect("query"),
        Some(moved.clone())
    );
    let (_, code) = store.latest(&copy.id).await.expect("query").expect("found");
    assert_eq!(code.source, "v2");

    let too_far = store.move_copy(&copy.id, 3, &edited.name, at(4)).await;
    assert!(
        matches!(too_far, Err(Error::UnknownVersion { version: 3, .. })),
        "{too_far:?}"
    );
    assert_eq!(
        store
            .move_copy(&original.id, 2, &edited.name, at(4))
            .await
            .expect("query"),
        None,
        "only a copy moves"
    );
}

async fn a_copy_is_read_only_but_can_be_disabled(database: TestDatabase) {
    let store = store(&database).await;
    let original = deck_rule(&store, "acc_author", "Shared", at(0)).await;
    let origin = Origin {
        ruleset: original.id.clone(),
        version: 1,
        from: OriginKind::Profile,
    };
    let copy = store
        .save_copy(
            owner("acc_fan"),
            &origin,
            &original.name,
            Game::Lor,
            Scope::Deck,
            at(1),
        )
        .await
        .expect("saved");
    for patch in [
        source("mine now"),
        Patch {
            name: Some(name("Mine")),
            ..Patch::default()
        },
        Patch {
            public: Some(true),
            ..Patch::default()
        },
    ] {
        let refused = store.update(&copy.id, &patch, at(2)).await;
        assert!(
            matches!(refused, Err(Error::Ruleset(RulesetError::CopyIsReadOnly))),
            "{patch:?}: {refused:?}"
        );
    }
    assert_eq!(
        store.get(&copy.id).await.expect("query"),
        Some(copy.clone()),
        "a refused edit changes nothing, not even the update time"
    );
    let disabled = store
        .update(
            &copy.id,
            &Patch {
                enabled: Some(false),
                ..Patch::default()
            },
            at(3),
        )
        .await
        .expect("updated")
        .expect("found");
    assert!(!disabled.enabled);
    assert_eq!(disabled.latest_version, 1);
    assert_eq!(disabled.origin, copy.origin);
}

async fn own_listing_holds_own_and_downloaded_rulesets_of_the_game_newest_first(
    database: TestDatabase,
) {
    let store = store(&database).await;
    let old = deck_rule(&store, "acc_ana", "Old", at(0)).await;
    let card = store
        .create(
            owner("acc_ana"),
            Game::Lor,
            &name("Card"),
            Scope::Card,
            "c",
            false,
            &[],
            at(1),
        )
        .await
        .expect("created");
    let theirs = deck_rule(&store, "acc_bob", "Bob's", at(2)).await;
    let copy = store
        .save_copy(
            owner("acc_ana"),
            &Origin {
                ruleset: theirs.id.clone(),
                version: 1,
                from: OriginKind::Profile,
            },
            &theirs.name,
            Game::Lor,
            Scope::Deck,
            at(3),
        )
        .await
        .expect("saved");
    let other_game = store
        .create(
            owner("acc_ana"),
            Game::Riftbound,
            &name("Rift"),
            Scope::Deck,
            "r",
            false,
            &[],
            at(4),
        )
        .await
        .expect("created");
    let deleted = deck_rule(&store, "acc_ana", "Deleted", at(5)).await;
    store.delete(&deleted.id, at(6)).await.expect("deleted");
    // An edit moves the oldest to the front.
    let old = store
        .update(&old.id, &source("newer"), at(7))
        .await
        .expect("updated")
        .expect("found");

    let ids = |list: Vec<Ruleset>| list.into_iter().map(|r| r.id).collect::<Vec<_>>();
    assert_eq!(
        ids(store
            .list_own("acc_ana", Game::Lor, None)
            .await
            .expect("query")),
        vec![old.id.clone(), copy.id.clone(), card.id.clone()]
    );
    assert_eq!(
        ids(store
            .list_own("acc_ana", Game::Lor, Some(Scope::Deck))
            .await
            .expect("query")),
        vec![old.id, copy.id]
    );
    assert_eq!(
        ids(store
            .list_own("acc_ana", Game::Lor, Some(Scope::Card))
            .await
            .expect("query")),
        vec![card.id]
    );
    assert_eq!(
        ids(store
            .list_own("acc_ana", Game::Riftbound, None)
            .await
            .expect("query")),
        vec![other_game.id]
    );
    assert!(
        store
            .list_own("acc_ana", Game::Pokemon, None)
            .await
            .expect("query")
            .is_empty()
    );
}

async fn public_listing_holds_only_public_authored_live_rulesets(database: TestDatabase) {
    let store = store(&database).await;
    let public = |title: &'static str, game: Game, now: SystemTime| {
        let store = store.clone();
        async move {
            store
                .create(
                    owner("acc_ana"),
                    game,
                    &name(title),
                    Scope::Deck,
                    "s",
                    true,
                    &[],
                    now,
                )
                .await
                .expect("created")
        }
    };
    let lor = public("LoR", Game::Lor, at(0)).await;
    let rift = public("Rift", Game::Riftbound, at(1)).await;
    let _private = deck_rule(&store, "acc_ana", "Private", at(2)).await;
    let unpublished = public("Unpublished", Game::Lor, at(3)).await;
    store
        .update(
            &unpublished.id,
            &Patch {
                public: Some(false),
                ..Patch::default()
            },
            at(4),
        )
        .await
        .expect("updated");
    let deleted = public("Deleted", Game::Lor, at(5)).await;
    store.delete(&deleted.id, at(6)).await.expect("deleted");
    let _bobs = store
        .create(
            owner("acc_bob"),
            Game::Lor,
            &name("Bob's"),
            Scope::Deck,
            "s",
            true,
            &[],
            at(7),
        )
        .await
        .expect("created");
    let _downloaded = store
        .save_copy(
            owner("acc_ana"),
            &Origin {
                ruleset: _bobs.id.clone(),
                version: 1,
                from: OriginKind::Profile,
            },
            &name("Bob's"),
            Game::Lor,
            Scope::Deck,
            at(8),
        )
        .await
        .expect("saved");

    let ids = |list: Vec<Ruleset>| list.into_iter().map(|r| r.id).collect::<Vec<_>>();
    assert_eq!(
        ids(store.list_public("ana", None).await.expect("query")),
        vec![rift.id.clone(), lor.id.clone()]
    );
    assert_eq!(
        ids(store
            .list_public("ana", Some(Game::Lor))
            .await
            .expect("query")),
        vec![lor.id]
    );
    assert!(
        store
            .list_public("ana", Some(Game::Pokemon))
            .await
            .expect("query")
            .is_empty()
    );
    assert!(
        store
            .list_public("carol", None)
            .await
            .expect("query")
            .is_empty()
    );
}

async fn concurrent_edits_take_distinct_consecutive_versions(database: TestDatabase) {
    const EDITS: u32 = 8;
    let store = store(&database).await;
    let created = deck_rule(&store, "acc_ana", "Busy", at(0)).await;
    let edits = (0..EDITS).map(|n| {
        let store = store.clone();
        let id = created.id.clone();
        async move {
            store
                .update(&id, &source(&format!("edit {n}")), at(1 + u64::from(n)))
                .await
                .expect("no edit fails")
                .expect("found")
                .latest_version
        }
    });
    let mut versions = futures::future::join_all(edits).await;
    versions.sort_unstable();
    assert_eq!(versions, (2..=EDITS + 1).collect::<Vec<_>>());

    let mut sources = Vec::new();
    for version in 2..=EDITS + 1 {
        let version = store
            .version(&created.id, version)
            .await
            .expect("query")
            .expect("every number taken once");
        sources.push(version.source);
    }
    sources.sort();
    let mut expected: Vec<String> = (0..EDITS).map(|n| format!("edit {n}")).collect();
    expected.sort();
    assert_eq!(sources, expected, "each edit has its own version");
    let read = store.get(&created.id).await.expect("query").expect("found");
    assert_eq!(read.latest_version, EDITS + 1);
}

async fn direct_bans_are_refused_where_the_game_or_scope_has_none(database: TestDatabase) {
    let store = store(&database).await;
    let bans = vec!["01IO049".to_owned()];
    let refused = store
        .create(
            owner("acc_ana"),
            Game::Riftbound,
            &name("Rift bans"),
            Scope::Card,
            "s",
            false,
            &bans,
            at(0),
        )
        .await;
    assert!(
        matches!(
            refused,
            Err(Error::Ruleset(RulesetError::DirectBansNotAllowed { .. }))
        ),
        "{refused:?}"
    );
    let deck = deck_rule(&store, "acc_ana", "Deck", at(1)).await;
    let refused = store
        .update(
            &deck.id,
            &Patch {
                direct_bans: Some(bans),
                ..Patch::default()
            },
            at(2),
        )
        .await;
    assert!(
        matches!(
            refused,
            Err(Error::Ruleset(RulesetError::DirectBansNotAllowed { .. }))
        ),
        "{refused:?}"
    );
    assert_eq!(store.version(&deck.id, 2).await.expect("query"), None);
    assert!(
        store
            .list_own("acc_ana", Game::Riftbound, None)
            .await
            .expect("query")
            .is_empty(),
        "nothing half-written"
    );
}

async fn an_edit_whose_version_number_stays_taken_fails_clearly_and_writes_nothing(
    database: TestDatabase,
) {
    let store = store(&database).await;
    let created = deck_rule(&store, "acc_ana", "Taken", at(0)).await;
    // A version 2 the ruleset's row does not know of: every try wants that number again.
    let db = database.connect().await;
    sqlx::query(
        "INSERT INTO scripts_ruleset_versions (ruleset, version, source, direct_bans, create_time) \
         VALUES ($1, 2, 'squatter', '[]', 0)",
    )
    .bind(&created.id.0)
    .execute(db.pool())
    .await
    .expect("inserted");

    let edited = store.update(&created.id, &source("mine"), at(1)).await;
    assert!(
        matches!(&edited, Err(Error::EditConflict(id)) if *id == created.id),
        "{edited:?}"
    );
    assert_eq!(
        edited.expect_err("refused").to_string(),
        format!(
            "ruleset `{}` is being edited concurrently: try again",
            created.id
        )
    );
    assert_eq!(
        store.get(&created.id).await.expect("query"),
        Some(created.clone()),
        "the row is as it was"
    );
    let squatter = store
        .version(&created.id, 2)
        .await
        .expect("query")
        .expect("kept");
    assert_eq!(squatter.source, "squatter");
}
