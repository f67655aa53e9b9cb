//! `FilterCardPool` over a game's whole catalog: the scripts service reads the cards from a real
//! catalog service (SQLite store, real gRPC), runs the rule over every card in catalog order,
//! names each verdict's card, and reads the catalog again after an import changes it.

use catalog::domain::{Card, Game, Import};
use catalog::store::Store;
use kit::testing::TestDatabase;
use proto::catalog::v1::CardGameData;
use proto::common::v1::Game as ProtoGame;
use proto::scripts::v1 as pb;
use proto::scripts::v1::script_service_server::ScriptService;
use scripts::catalog_pool::CatalogPools;
use scripts::grpc::Api;
use tonic::{Code, Request};

const RULE: &str = "export default (card) =>\n  card.game.supertype === \"Pokemon\" || { valid: false, issues: [`${card.name} is a ${card.game.supertype}`] };\n";

fn card(id: &str, name: &str, supertype: &str) -> Card {
    Card {
        id: id.to_owned(),
        name: name.to_owned(),
        set_code: "sv2".to_owned(),
        game: Some(CardGameData {
            supertype: Some(supertype.to_owned()),
            ..CardGameData::default()
        }),
        ..Card::default()
    }
}

async fn save(store: &Store, cards: Vec<Card>) {
    let import = Import {
        cards,
        ..Import::default()
    };
    store
        .save_import(Game::Pokemon, &import)
        .await
        .expect("the import saves");
}

fn settings() -> scripts::Settings {
    scripts::Settings {
        concurrency: 4,
        memory_mib: 64,
        caller_share: None,
        queue: None,
        queue_wait_ms: 2000,
        compile_cache: None,
    }
}

fn request(cards_json: &str, game: ProtoGame) -> Request<pb::FilterCardPoolRequest> {
    Request::new(pb::FilterCardPoolRequest {
        script: Some(pb::Script {
            script: Some(pb::script::Script::Source(RULE.to_owned())),
        }),
        cards_json: cards_json.to_owned(),
        context_json: None,
        game: game as i32,
    })
}

/// Each verdict as (card id, valid, first issue's message).
fn verdicts(response: pb::FilterCardPoolResponse) -> Vec<(String, bool, Option<String>)> {
    response
        .verdicts
        .into_iter()
        .map(|verdict| {
            let result = verdict.result.expect("the rule returned");
            (
                verdict.card_id.expect("every card has an id"),
                result.valid.expect("a verdict"),
                result
                    .issues
                    .first()
                    .and_then(|issue| issue.message.clone()),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rule_runs_over_the_whole_catalog_and_follows_its_imports() {
    let database = TestDatabase::sqlite();
    let db = database.connect().await;
    db.migrate(&[&catalog::store::MIGRATOR])
        .await
        .expect("migrations apply");
    let store = Store::new(db);
    save(
        &store,
        vec![
            card("pikachu--1", "Pikachu", "Pokemon"),
            card("ultra-ball--1", "Ultra Ball", "Trainer"),
        ],
    )
    .await;
    let url = catalog::testing::serve(store.clone()).await;
    let api = Api::new(settings()).with_catalog(CatalogPools::new(
        kit::clients::CatalogClient::connect_lazy(&url).expect("a valid URL"),
    ));

    let first = api
        .filter_card_pool(request("", ProtoGame::Pokemon))
        .await
        .expect("the pool runs")
        .into_inner();
    let mut expected = vec![
        ("pikachu--1".to_owned(), true, None),
        (
            "ultra-ball--1".to_owned(),
            false,
            Some("Ultra Ball is a Trainer".to_owned()),
        ),
    ];
    let mut got = verdicts(first);
    got.sort();
    assert_eq!(got, expected);

    // An import changes the catalog's version: the next pool is read again.
    save(
        &store,
        vec![
            card("pikachu--1", "Pikachu", "Pokemon"),
            card("ultra-ball--1", "Ultra Ball", "Trainer"),
            card("basic-fire-energy--1", "Basic Fire Energy", "Energy"),
        ],
    )
    .await;
    let second = api
        .filter_card_pool(request("", ProtoGame::Pokemon))
        .await
        .expect("the pool runs")
        .into_inner();
    expected.insert(
        0,
        (
            "basic-fire-energy--1".to_owned(),
            false,
            Some("Basic Fire Energy is a Energy".to_owned()),
        ),
    );
    let mut got = verdicts(second);
    got.sort();
    assert_eq!(got, expected);

    // Given cards still run, each verdict named by the card's id when it has one.
    let given = api
        .filter_card_pool(request(
            r#"[{"id": "x-1", "name": "X", "game": {"supertype": "Pokemon"}},
                {"name": "No id", "game": {"supertype": "Energy"}}]"#,
            ProtoGame::Unspecified,
        ))
        .await
        .expect("the pool runs")
        .into_inner();
    let ids: Vec<Option<String>> = given.verdicts.into_iter().map(|v| v.card_id).collect();
    assert_eq!(ids, [Some("x-1".to_owned()), None]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pool_is_either_given_cards_or_a_catalog() {
    let api = Api::new(settings());
    // The reason travels in the standard `google.rpc.ErrorInfo`, as any client reads it.
    let error_code = |status: &tonic::Status| {
        use tonic_types::StatusExt as _;
        status
            .get_error_details()
            .error_info()
            .map(|info| info.reason.clone())
    };
    for (cards, game, message) in [
        ("[]", ProtoGame::Pokemon, "not both"),
        ("", ProtoGame::Unspecified, "leave it empty and set `game`"),
        ("{}", ProtoGame::Unspecified, "must be a JSON array"),
    ] {
        let status = api
            .filter_card_pool(request(cards, game))
            .await
            .expect_err("an invalid pool");
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
        assert!(status.message().contains(message), "{status:?}");
    }
    let mut unknown = request("", ProtoGame::Unspecified);
    unknown.get_mut().game = 42;
    let status = api
        .filter_card_pool(unknown)
        .await
        .expect_err("no such game");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("42 is not a game"), "{status:?}");

    // No catalog to read: the service says so instead of answering with an empty pool.
    let status = api
        .filter_card_pool(request("", ProtoGame::Riftbound))
        .await
        .expect_err("no catalog");
    assert_eq!(status.code(), Code::Unavailable);
    assert_eq!(error_code(&status).as_deref(), Some("catalog_unavailable"));

    // A catalog that does not answer is the same error, not a hang or a crash.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        format!("http://{}", listener.local_addr().expect("address"))
    };
    let api = Api::new(settings()).with_catalog(CatalogPools::new(
        kit::clients::CatalogClient::connect_lazy(&closed).expect("a valid URL"),
    ));
    let status = api
        .filter_card_pool(request("", ProtoGame::Lor))
        .await
        .expect_err("the catalog is down");
    assert_eq!(status.code(), Code::Unavailable);
    assert_eq!(error_code(&status).as_deref(), Some("catalog_unavailable"));
}
