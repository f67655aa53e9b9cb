//! The catalog store on PostgreSQL and SQLite, and the catalog service over real gRPC.

use std::collections::BTreeSet;

use catalog::domain::{Card, Game, Import};
use catalog::import::sample;
use catalog::store::Store;
use kit::testing::TestDatabase;
use proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use proto::catalog::v1::{
    CardPrinting, GetCardsRequest, GetCatalogVersionRequest, StreamCardsRequest,
};

async fn store(database: &TestDatabase) -> Store {
    let db = database.connect().await;
    db.migrate(&[&catalog::store::MIGRATOR])
        .await
        .expect("migrations apply");
    Store::new(db)
}

fn card(id: &str, name: &str, printings: &[&str]) -> Card {
    Card {
        id: id.to_owned(),
        name: name.to_owned(),
        set_code: "sv2".to_owned(),
        printings: printings
            .iter()
            .map(|printing| CardPrinting {
                id: (*printing).to_owned(),
                set_code: "sv2".to_owned(),
                ..CardPrinting::default()
            })
            .collect(),
        game: Some(proto::catalog::v1::CardGameData::default()),
        ..Card::default()
    }
}

fn import_of(cards: Vec<Card>) -> Import {
    let aliases = cards
        .iter()
        .flat_map(|card| {
            card.printings
                .iter()
                .map(|p| (p.id.clone(), card.id.clone()))
        })
        .collect();
    Import {
        cards,
        aliases,
        ..Import::default()
    }
}

/// Serves the catalog over `store` on a port of its own, as `kit::server` serves it, and
/// returns a client; the port is bound before the client connects.
async fn serve(store: Store) -> CatalogServiceClient<tonic::transport::Channel> {
    CatalogServiceClient::connect(catalog::testing::serve(store).await)
        .await
        .expect("connect")
}

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
    a_second_identical_import_changes_nothing,
    two_printings_of_one_card_resolve_to_the_same_card,
    an_identity_that_disappears_keeps_resolving_through_its_printings,
    cards_page_in_catalog_order,
    globals_and_sets_round_trip,
);

async fn a_second_identical_import_changes_nothing(database: TestDatabase) {
    let store = store(&database).await;
    assert_eq!(store.version(Game::Pokemon).await.expect("version"), None);
    let first = store
        .save_import(Game::Pokemon, &sample(Game::Pokemon))
        .await
        .expect("save");
    assert!(first.changed);
    let second = store
        .save_import(Game::Pokemon, &sample(Game::Pokemon))
        .await
        .expect("save");
    assert!(!second.changed);
    assert_eq!(first.version, second.version);
    assert_eq!(
        store.version(Game::Pokemon).await.expect("version"),
        Some(first.version)
    );
}

async fn two_printings_of_one_card_resolve_to_the_same_card(database: TestDatabase) {
    let store = store(&database).await;
    let import = import_of(vec![card(
        "pikachu-ex--a",
        "Pikachu ex",
        &["sv2-11", "svp-106"],
    )]);
    store
        .save_import(Game::Pokemon, &import)
        .await
        .expect("save");
    let refs = ["sv2-11", "svp-106", "pikachu-ex--a", "nope-1"].map(str::to_owned);
    let resolved = store
        .resolve_refs(Game::Pokemon, &refs)
        .await
        .expect("resolve");
    assert_eq!(resolved.len(), 3);
    assert!(resolved.values().all(|id| id == "pikachu-ex--a"));
    let ids: BTreeSet<String> = resolved.values().cloned().collect();
    let cards = store.cards_by_id(Game::Pokemon, &ids).await.expect("cards");
    assert_eq!(cards["pikachu-ex--a"].name, "Pikachu ex");
    // Games are apart: the same ref means nothing in another game.
    assert!(
        store
            .resolve_refs(Game::Lor, &refs)
            .await
            .expect("resolve")
            .is_empty()
    );
}

async fn an_identity_that_disappears_keeps_resolving_through_its_printings(database: TestDatabase) {
    let store = store(&database).await;
    let old = import_of(vec![card("pikachu-ex--old", "Pikachu ex", &["sv2-11"])]);
    store.save_import(Game::Pokemon, &old).await.expect("save");
    // Newer data: the identity hash changed (say, an errata), the printing is the same.
    let new = import_of(vec![card(
        "pikachu-ex--new",
        "Pikachu ex",
        &["sv2-11", "svp-106"],
    )]);
    let outcome = store.save_import(Game::Pokemon, &new).await.expect("save");
    assert_eq!(outcome.retired_ids, 1);
    let resolved = store
        .resolve_refs(Game::Pokemon, &["pikachu-ex--old".to_owned()])
        .await
        .expect("resolve");
    assert_eq!(resolved["pikachu-ex--old"], "pikachu-ex--new");
    assert_eq!(store.card_count(Game::Pokemon).await.expect("count"), 1);
    // The card itself says so, as the card-data page documents.
    let ids = BTreeSet::from(["pikachu-ex--new".to_owned()]);
    let cards = store.cards_by_id(Game::Pokemon, &ids).await.expect("cards");
    let game = cards["pikachu-ex--new"].game.clone().expect("game data");
    assert_eq!(game.identity_aliases, ["pikachu-ex--old"]);
}

async fn cards_page_in_catalog_order(database: TestDatabase) {
    let store = store(&database).await;
    let cards: Vec<Card> = (0..25)
        .map(|n| card(&format!("c{n:02}"), &format!("Card {n}"), &[]))
        .collect();
    store
        .save_import(Game::Lor, &import_of(cards))
        .await
        .expect("save");
    let mut seen = Vec::new();
    let mut after = -1;
    loop {
        let page = store.cards_after(Game::Lor, after, 10).await.expect("page");
        let Some((last, _)) = page.last() else { break };
        after = *last;
        seen.extend(page.into_iter().map(|(_, card)| card.id));
    }
    let expected: Vec<String> = (0..25).map(|n| format!("c{n:02}")).collect();
    assert_eq!(seen, expected);
}

async fn globals_and_sets_round_trip(database: TestDatabase) {
    let store = store(&database).await;
    let import = sample(Game::Riftbound);
    store
        .save_import(Game::Riftbound, &import)
        .await
        .expect("save");
    assert_eq!(
        store.globals(Game::Riftbound).await.expect("globals"),
        import.globals
    );
    assert_eq!(
        store.sets(Game::Riftbound).await.expect("sets"),
        import.sets
    );
}

/// The service over real gRPC on a port of its own, backed by SQLite.
#[tokio::test]
async fn get_cards_keys_cards_by_the_refs_given_and_lists_unknown_ones() {
    let database = TestDatabase::sqlite();
    let store = store(&database).await;
    let import = import_of(vec![
        card("pikachu-ex--a", "Pikachu ex", &["sv2-11", "svp-106"]),
        card("raichu--b", "Raichu", &["sv2-12"]),
    ]);
    store
        .save_import(Game::Pokemon, &import)
        .await
        .expect("save");

    let mut client = serve(store.clone()).await;

    let refs = ["svp-106", "nope-1", "sv2-11", "raichu--b", "svp-106"]
        .map(str::to_owned)
        .to_vec();
    let response = client
        .get_cards(GetCardsRequest {
            game: proto::game::to_wire(Game::Pokemon),
            refs,
        })
        .await
        .expect("get cards")
        .into_inner();
    let keys: Vec<&str> = response
        .cards
        .iter()
        .map(|entry| entry.r#ref.as_str())
        .collect();
    assert_eq!(keys, ["svp-106", "sv2-11", "raichu--b"]);
    assert_eq!(
        response.cards[0].card, response.cards[1].card,
        "two printings, one card"
    );
    assert_eq!(response.unknown_refs, ["nope-1"]);

    let missing_game = client
        .get_cards(GetCardsRequest {
            game: 0,
            refs: vec![],
        })
        .await
        .expect_err("no game");
    assert_eq!(missing_game.code(), tonic::Code::InvalidArgument);

    let mut stream = client
        .stream_cards(StreamCardsRequest {
            game: proto::game::to_wire(Game::Pokemon),
        })
        .await
        .expect("stream")
        .into_inner();
    let mut streamed = Vec::new();
    while let Some(batch) = stream.message().await.expect("batch") {
        streamed.extend(batch.cards.into_iter().map(|card| card.id));
    }
    assert_eq!(streamed, ["pikachu-ex--a", "raichu--b"]);

    let before = client
        .get_catalog_version(GetCatalogVersionRequest {
            game: proto::game::to_wire(Game::Pokemon),
        })
        .await
        .expect("version")
        .into_inner()
        .version;
    store
        .save_import(Game::Pokemon, &sample(Game::Pokemon))
        .await
        .expect("save");
    let after = client
        .get_catalog_version(GetCatalogVersionRequest {
            game: proto::game::to_wire(Game::Pokemon),
        })
        .await
        .expect("version")
        .into_inner()
        .version;
    assert_ne!(
        before, after,
        "an import that changes cards changes the version"
    );
}

/// The documented JSON comes out of the card messages unchanged: the sample cards are the
/// spec pages' example objects, read into `Card` and written back. The one difference proto3
/// allows is an empty list (`"variants": []`), which is written as absent: the pages mark such
/// fields optional (`variants?`), so a reader already treats absent and empty alike.
#[test]
fn the_spec_example_cards_survive_a_round_trip_through_the_card_message() {
    fn without_empty_lists(value: &serde_json::Value) -> serde_json::Value {
        match value {
            serde_json::Value::Object(map) => serde_json::Value::Object(
                map.iter()
                    .filter(|(_, v)| !v.as_array().is_some_and(Vec::is_empty))
                    .map(|(k, v)| (k.clone(), without_empty_lists(v)))
                    .collect(),
            ),
            serde_json::Value::Array(items) => {
                serde_json::Value::Array(items.iter().map(without_empty_lists).collect())
            }
            other => other.clone(),
        }
    }
    let spec: serde_json::Value =
        serde_json::from_str(include_str!("../sample/catalog.json")).expect("sample JSON");
    for game in ["lor", "pokemon", "riftbound"] {
        let example = &spec[game]["cards"][0];
        let card: Card =
            serde_json::from_value(example.clone()).expect("the example parses as a Card");
        let written = serde_json::to_value(&card).expect("serializes");
        assert_eq!(written, without_empty_lists(example), "{game}");
    }
}

/// Deck-list lines resolve through the service: names with either separator, set + number.
#[tokio::test]
async fn resolve_card_names_finds_names_and_printings_and_says_why_not() {
    let database = TestDatabase::sqlite();
    let store = store(&database).await;
    store
        .save_import(Game::Riftbound, &sample(Game::Riftbound))
        .await
        .expect("save");
    let mut client = serve(store).await;
    let lines = [
        "Jinx, Demolitionist",
        "jinx - demolitionist",
        "OGN 30",
        "OGN 31",
        "Nobody",
    ]
    .map(str::to_owned)
    .to_vec();
    let results = client
        .resolve_card_names(proto::catalog::v1::ResolveCardNamesRequest {
            game: proto::game::to_wire(Game::Riftbound),
            lines,
        })
        .await
        .expect("resolve")
        .into_inner()
        .results;
    let refs: Vec<Option<&str>> = results.iter().map(|r| r.r#ref.as_deref()).collect();
    assert_eq!(
        refs,
        [
            Some("ogn-030-298"),
            Some("ogn-030-298"),
            Some("ogn-030-298"),
            None,
            None
        ]
    );
    assert_eq!(results[3].problem.as_deref(), Some("no printing OGN 31"));
    assert_eq!(
        results[4].problem.as_deref(),
        Some("no card named `Nobody`")
    );
}

/// Cards are parsed once per catalog version: a new import is seen at once.
#[tokio::test]
async fn get_cards_sees_a_new_import_at_once() {
    let database = TestDatabase::sqlite();
    let store = store(&database).await;
    let api = catalog::grpc::Api::new(store.clone());
    let refs = ["sv2-11".to_owned()];
    store
        .save_import(
            Game::Pokemon,
            &import_of(vec![card("pikachu--a", "Pikachu", &["sv2-11"])]),
        )
        .await
        .expect("save");
    let first = api
        .cards_for_refs(Game::Pokemon, &refs)
        .await
        .expect("cards");
    assert_eq!(
        first.cards[0].card.as_ref().map(|c| c.name.as_str()),
        Some("Pikachu")
    );
    // Asked twice: served from the parsed cache, same answer.
    assert_eq!(
        api.cards_for_refs(Game::Pokemon, &refs)
            .await
            .expect("cards"),
        first
    );
    store
        .save_import(
            Game::Pokemon,
            &import_of(vec![card("pikachu--a", "Pikachu (errata)", &["sv2-11"])]),
        )
        .await
        .expect("save");
    let second = api
        .cards_for_refs(Game::Pokemon, &refs)
        .await
        .expect("cards");
    assert_eq!(
        second.cards[0].card.as_ref().map(|c| c.name.as_str()),
        Some("Pikachu (errata)")
    );
}
