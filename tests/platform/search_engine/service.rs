//! The search service over a real catalog service: the index follows the catalog version.

use catalog::domain::{Card, Game, Import};
use catalog::store::Store;
use proto::search::v1::SearchRequest;

async fn search(api: &search::grpc::Api, query: &str) -> Vec<String> {
    api.search(SearchRequest {
        game: proto::game::to_wire(Game::Riftbound),
        query: query.to_owned(),
        page_size: 0,
        page_token: String::new(),
    })
    .await
    .expect("search")
    .cards
    .into_iter()
    .filter_map(|hit| hit.card.map(|card| card.name))
    .collect()
}

#[tokio::test]
async fn the_index_is_rebuilt_when_the_catalog_version_changes() {
    let database = kit::testing::TestDatabase::sqlite();
    let db = database.connect().await;
    db.migrate(&[&catalog::store::MIGRATOR])
        .await
        .expect("migrate");
    let store = Store::new(db);
    store
        .save_import(Game::Riftbound, &catalog::import::sample(Game::Riftbound))
        .await
        .expect("save");

    let url = catalog::testing::serve(store.clone()).await;
    let api = search::grpc::Api::new(
        kit::clients::CatalogClient::connect_lazy(&url).expect("a valid URL"),
    );

    assert_eq!(search(&api, "jinx").await, ["Jinx - Demolitionist"]);

    // A new import: another card, so a new catalog version.
    let yasuo = Card {
        id: "rb-yasuo".to_owned(),
        name: "Yasuo, Unforgiven".to_owned(),
        set_code: "OGN".to_owned(),
        ..Card::default()
    };
    let import = Import {
        cards: vec![yasuo],
        ..Import::default()
    };
    store
        .save_import(Game::Riftbound, &import)
        .await
        .expect("save");
    assert_eq!(search(&api, "yasuo").await, ["Yasuo, Unforgiven"]);
    assert!(search(&api, "jinx").await.is_empty());
}
