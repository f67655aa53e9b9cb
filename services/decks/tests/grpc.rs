//! The decks service over real gRPC on a port of its own: checking a deck against a format and
//! the rulings of a day, as an integrator calls them.

use kit::server::{Deps, Mount as _};
use kit::services::Service;
use proto::decks::v1::deck_service_client::DeckServiceClient;
use proto::decks::v1::{
    CheckDeckAgainstFormatRequest, Deck, DeckCard, GetRulingRequest, RulingCard, authority,
};
use tonic::transport::Channel;

/// The spec's example format, with Storm Call restricted to 1 by the taboo list rather than by
/// the format, as in the issue's example message.
const LEAGUE: &str = r#"{
    "code": "league",
    "name": "League",
    "min_size": 0,
    "max_size": 60,
    "copies": 3,
    "banned": ["old-relic"],
    "restricted": {},
    "taboo_lists": [
        {"code": "autumn", "effective_from": "2026-10-01", "banned": ["night-owl"],
         "restricted": {"storm-call": 1, "ember-fox": 2}}
    ]
}"#;

/// Starts the service as `turnier serve` mounts it, on a port bound before the client connects.
async fn client() -> DeckServiceClient<Channel> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    let mut routes = tonic::service::RoutesBuilder::default();
    // Formats need no catalog nor scripts: an address nobody listens on is never dialled.
    let nowhere = "http://127.0.0.1:9".to_owned();
    let database = kit::testing::TestDatabase::sqlite();
    let db = database.connect().await;
    db.migrate(&[&decks::store::MIGRATOR])
        .await
        .expect("migrations apply");
    // The folder of the SQLite file lives as long as the test process.
    std::mem::forget(database);
    let deps = Deps::new(
        [
            (Service::Catalog, nowhere.clone()),
            (Service::Scripts, nowhere),
        ]
        .into(),
    )
    .with_db(db);
    decks::Decks::mount(&mut routes, &deps, &()).expect("a valid URL");
    tokio::spawn(kit::server::serve(
        listener,
        &[decks::Decks::SERVICE],
        routes,
        kit::server::ShutdownTiming::default(),
        deps.readiness.clone(),
        kit::shutdown::Shutdown::new(),
        kit::auth::AuthLayer::without_accounts(),
    ));
    DeckServiceClient::connect(url).await.expect("connect")
}

fn card(id: &str, count: u32) -> DeckCard {
    DeckCard {
        id: id.to_owned(),
        count,
        ..DeckCard::default()
    }
}

fn check_request(deck: Vec<DeckCard>, moment: &str) -> CheckDeckAgainstFormatRequest {
    CheckDeckAgainstFormatRequest {
        format_json: LEAGUE.to_owned(),
        deck: Some(Deck { cards: deck }),
        moment: moment.to_owned(),
    }
}

#[tokio::test]
async fn checking_a_deck_after_the_taboo_list_reports_every_issue_in_the_documented_json() {
    let mut client = client().await;
    let storm_call = DeckCard {
        name: Some("Storm Call".to_owned()),
        ..card("storm-call", 2)
    };
    let path = DeckCard {
        copy_limit: Some(20),
        ..card("path", 20)
    };
    let response = client
        .check_deck_against_format(check_request(
            vec![storm_call, path, card("night-owl", 1)],
            "2026-10-02T09:00:00-04:00",
        ))
        .await
        .expect("check")
        .into_inner();

    assert!(!response.valid);
    // The response's canonical JSON mirrors the CLI's report, with cards in the deck's order
    // (proto3 JSON leaves out `valid: false` and absent fields).
    assert_eq!(
        serde_json::to_value(&response).expect("pbjson"),
        serde_json::json!({
            "tabooList": {"code": "autumn", "effectiveFrom": "2026-10-01"},
            "cards": [
                {"card": "storm-call", "copyLimit": 1,
                 "restrictedBy": {"tabooList": {"code": "autumn", "effectiveFrom": "2026-10-01"}}},
                {"card": "path", "copyLimit": 20},
                {"card": "night-owl",
                 "bannedBy": {"tabooList": {"code": "autumn", "effectiveFrom": "2026-10-01"}}},
            ],
            "issues": [
                {"code": "too_many_copies", "card": "storm-call",
                 "message": "Storm Call: at most 1 copy under the taboo list autumn from 2026-10-01 (found 2)."},
                {"code": "banned_card", "card": "night-owl",
                 "message": "night-owl: banned by the taboo list autumn from 2026-10-01 (found 1)."},
            ]
        })
    );
}

#[tokio::test]
async fn ten_in_the_evening_in_montreal_on_30_september_is_before_the_taboo_list() {
    let mut client = client().await;
    let response = client
        .check_deck_against_format(check_request(
            vec![card("storm-call", 2)],
            "2026-09-30T22:00:00-04:00",
        ))
        .await
        .expect("check")
        .into_inner();
    assert!(response.valid, "{response:?}");
    assert_eq!(response.taboo_list, None);
    assert_eq!(response.cards[0].copy_limit, Some(3));
}

#[tokio::test]
async fn get_ruling_names_the_day_the_taboo_list_and_what_bans_or_restricts_each_card() {
    let mut client = client().await;
    let response = client
        .get_ruling(GetRulingRequest {
            format_json: LEAGUE.to_owned(),
            moment: "2026-10-01T00:30:00+02:00[Europe/Paris]".to_owned(),
            cards: vec![
                RulingCard {
                    id: "old-relic".to_owned(),
                    copy_limit: None,
                },
                RulingCard {
                    id: "ember-fox".to_owned(),
                    copy_limit: None,
                },
                // A restriction never raises a card's own lower limit.
                RulingCard {
                    id: "storm-call".to_owned(),
                    copy_limit: Some(1),
                },
            ],
        })
        .await
        .expect("ruling")
        .into_inner();
    assert_eq!(response.day, "2026-10-01");
    assert_eq!(response.format.expect("format").code, "league");
    assert_eq!(
        response.taboo_list.expect("the autumn list applies").code,
        "autumn"
    );
    let old_relic = &response.cards[0];
    assert!(matches!(
        old_relic.banned_by.as_ref().and_then(|by| by.kind.as_ref()),
        Some(authority::Kind::Format(format)) if format.code == "league"
    ));
    assert_eq!(old_relic.copy_limit, None);
    let ember_fox = &response.cards[1];
    assert_eq!(ember_fox.copy_limit, Some(2));
    assert!(matches!(
        ember_fox.restricted_by.as_ref().and_then(|by| by.kind.as_ref()),
        Some(authority::Kind::TabooList(list)) if list.effective_from == "2026-10-01"
    ));
    let storm_call = &response.cards[2];
    assert_eq!(storm_call.copy_limit, Some(1));
    assert_eq!(storm_call.restricted_by, None);
}

#[tokio::test]
async fn a_format_that_fails_to_read_is_refused_with_invalid_format_and_the_field() {
    let mut client = client().await;
    let status = client
        .check_deck_against_format(CheckDeckAgainstFormatRequest {
            format_json: r#"{"code": "league", "name": "League", "copies": 0}"#.to_owned(),
            deck: Some(Deck::default()),
            moment: "2026-10-02T09:00:00-04:00".to_owned(),
        })
        .await
        .expect_err("copies must be 1 to 999");
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert_eq!(error_code(&status).as_deref(), Some("invalid_format"));
    assert_eq!(
        status.message(),
        "invalid format: `copies` must be from 1 to 999, found 0"
    );
    assert_eq!(
        details(&status),
        Some(serde_json::json!({"field": "copies"}))
    );
}

#[tokio::test]
async fn a_bad_deck_a_bad_moment_and_a_bad_card_each_have_their_own_code() {
    let mut client = client().await;
    let bad_deck = client
        .check_deck_against_format(check_request(
            vec![card("storm-call", 1), card("storm-call", 1)],
            "2026-10-02T09:00:00-04:00",
        ))
        .await
        .expect_err("a card listed twice");
    assert_eq!(error_code(&bad_deck).as_deref(), Some("invalid_deck"));
    assert_eq!(
        bad_deck.message(),
        "invalid deck: `cards[1].id` appears more than once"
    );

    let bad_moment = client
        .check_deck_against_format(check_request(vec![], "2026-10-02"))
        .await
        .expect_err("a date is not a moment");
    assert_eq!(bad_moment.code(), tonic::Code::InvalidArgument);
    assert_eq!(error_code(&bad_moment).as_deref(), Some("invalid_moment"));

    let no_deck = client
        .check_deck_against_format(CheckDeckAgainstFormatRequest {
            deck: None,
            ..check_request(vec![], "2026-10-02T09:00:00-04:00")
        })
        .await
        .expect_err("no deck");
    assert_eq!(error_code(&no_deck).as_deref(), Some("missing_field"));

    let bad_card = client
        .get_ruling(GetRulingRequest {
            format_json: LEAGUE.to_owned(),
            moment: "2026-10-02T09:00:00-04:00".to_owned(),
            cards: vec![RulingCard {
                id: "path".to_owned(),
                copy_limit: Some(1000),
            }],
        })
        .await
        .expect_err("a copy limit over 999");
    assert_eq!(error_code(&bad_card).as_deref(), Some("invalid_card"));
    assert_eq!(
        bad_card.message(),
        "invalid card: `cards[0].copyLimit` must be from 1 to 999, found 1000"
    );
}

/// The reason of a status's `google.rpc.ErrorInfo`, as any gRPC client reads it.
fn error_code(status: &tonic::Status) -> Option<String> {
    use tonic_types::StatusExt as _;
    Some(status.get_error_details().error_info()?.reason.clone())
}

/// The scalar facts of a status's `google.rpc.ErrorInfo`, as a JSON object.
fn details(status: &tonic::Status) -> Option<serde_json::Value> {
    use tonic_types::StatusExt as _;
    let info = status.get_error_details().error_info()?.clone();
    let object: serde_json::Map<String, serde_json::Value> = info
        .metadata
        .into_iter()
        .map(|(key, value)| (key, serde_json::Value::String(value)))
        .collect();
    (!object.is_empty()).then_some(serde_json::Value::Object(object))
}
