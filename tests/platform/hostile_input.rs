//! Hostile input through the gateway of the all-in-one process, where every call crosses gRPC
//! to a service: long values a service quotes in its error, limits one service reports to
//! another, and text the platform's one text rule refuses (a NUL, a control character, a
//! bidirectional override) on SQLite and on PostgreSQL, where a NUL in a query is an error.
//! Each answers in the documented error shape with a bounded message, and no answer takes down
//! the connection other callers share.

use serde_json::{Value, json};

use crate::support;

/// The longest message an error body may carry: the status message bound of `kit::status`.
const MAX_MESSAGE_BYTES: usize = 1024;

/// What the gateway answered: status and body.
async fn send(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.expect("the gateway answers");
    let status = response.status().as_u16();
    let body = response.json().await.unwrap_or(Value::Null);
    (status, body)
}

/// Asserts a 4xx with the documented error body, `code` as given and a bounded message.
fn assert_refused(what: &str, (status, body): &(u16, Value), code: &str) {
    assert!((400..500).contains(status), "{what}: {status} {body}");
    assert_eq!(body["error"]["code"], code, "{what}: {body}");
    let message = body["error"]["message"].as_str().expect("a message");
    assert!(
        message.len() <= MAX_MESSAGE_BYTES,
        "{what}: a {}-byte message",
        message.len()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn long_values_in_errors_are_quoted_short_and_break_no_one_elses_calls() {
    let platform = support::SamplePlatform::start().await;
    let api = platform.api.clone();
    let client = reqwest::Client::new();
    let long = "0".repeat(100_000);

    // Each long value a service names in its error: a 4xx, a short message quoting a prefix.
    let hash = send(
        client
            .post(format!("{api}/scripts:runDeckRule"))
            .json(&json!({"script": {"hash": long}, "deck": {}, "cardsById": {}})),
    )
    .await;
    assert_refused("an unknown script hash", &hash, "script_not_found");
    let message = hash.1["error"]["message"].as_str().unwrap_or_default();
    assert!(message.ends_with("send its source"), "{message}");

    let thrown = send(
        client
            .post(format!("{api}/scripts:runDeckRule"))
            .json(&json!({
        "script": {"source": "export default () => { throw 'x'.repeat(200000); }"},
        "deck": {}, "cardsById": {}})),
    )
    .await;
    assert_refused("a script throwing a long message", &thrown, "script_error");

    let format = send(
        client
            .post(format!("{api}/pokemon/decks:export"))
            .json(&json!({"format": long, "cards": [{"ref": "svp-106", "count": 1}]})),
    )
    .await;
    assert_refused("an unknown export format", &format, "unexportable_deck");

    let card = send(
        client
            .post(format!("{api}/pokemon/decks:export"))
            .json(&json!({"format": "ptcg-live", "cards": [{"ref": long, "count": 1}]})),
    )
    .await;
    assert_refused("an unknown card ref", &card, "unexportable_deck");

    let moment = send(client.post(format!("{api}/formats:check")).json(&json!({
        "format": {"code": "f", "name": "F", "min_size": 1, "max_size": 60, "copies": 3,
                   "banned": [], "restricted": {}, "taboo_lists": []},
        "deck": {"cards": []}, "at": long})))
    .await;
    assert_refused("a moment that does not read", &moment, "invalid_moment");

    // 12 KB: as long as a URI the gateway takes allows, far past what a message may quote.
    let identifier = "z".repeat(12_000);
    let query = send(
        client
            .get(format!("{api}/pokemon/cards:search"))
            .query(&[("q", format!("{identifier}:1"))]),
    )
    .await;
    assert_refused("an unknown search field", &query, "invalid_query");
    // 20 KB: the URI itself is refused, in the same error shape.
    let identifier = "z".repeat(20_000);
    let too_long = send(
        client
            .get(format!("{api}/pokemon/cards:search"))
            .query(&[("q", format!("{identifier}:1"))]),
    )
    .await;
    assert_eq!(too_long.0, 414, "{}", too_long.1);
    assert_eq!(too_long.1["error"]["code"], "uri_too_long");

    // Many callers at once through the same gateway → service connections, a few of them
    // sending megabyte values: every ordinary call still answers. (Scripts admit a share of
    // the sandbox per caller, so the flood goes through the decks and catalog services.)
    let huge = "0".repeat(1_000_000);
    let mut calls = tokio::task::JoinSet::new();
    for i in 0..48 {
        let (client, api, huge) = (client.clone(), api.clone(), huge.clone());
        calls.spawn(async move {
            if i % 6 == 0 {
                let body = json!({"format": huge, "cards": [{"ref": "svp-106", "count": 1}]});
                let answer = send(
                    client
                        .post(format!("{api}/pokemon/decks:export"))
                        .json(&body),
                );
                (true, answer.await)
            } else {
                (
                    false,
                    send(client.get(format!("{api}/pokemon/cards/svp-106"))).await,
                )
            }
        });
    }
    while let Some(call) = calls.join_next().await {
        let (hostile, answer) = call.expect("the call ran");
        if hostile {
            assert_refused("a megabyte export format", &answer, "unexportable_deck");
        } else {
            assert_eq!(answer.0, 200, "an ordinary call beside them: {}", answer.1);
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_limit_one_service_reports_reaches_the_caller_as_bad_input() {
    let platform = support::SamplePlatform::start().await;
    // 50,000 cards to export: the catalog reads at most 10,000 refs at once. The caller gets
    // the catalog's answer (bad input), not "the catalog did not answer".
    let cards: Vec<Value> = (0..50_000)
        .map(|i| json!({"ref": format!("svp-{i}"), "count": 1}))
        .collect();
    let answer = send(
        reqwest::Client::new()
            .post(format!("{}/pokemon/decks:export", platform.api))
            .json(&json!({"format": "ptcg-live", "cards": cards})),
    )
    .await;
    assert_eq!(answer.0, 400, "{}", answer.1);
    assert_eq!(answer.1["error"]["code"], "too_many");
    assert_eq!(
        answer.1["error"]["message"],
        "too many refs: 50000 given, at most 10000"
    );
    assert_eq!(answer.1["error"]["details"]["limit"], 10000);
}

/// Sends `request` with the bearer `token`.
async fn send_as(token: &str, request: reqwest::RequestBuilder) -> (u16, Value) {
    send(request.bearer_auth(token)).await
}

/// Asserts a 400 naming `field` (in `details.field`).
fn assert_names_field(what: &str, answer: &(u16, Value), field: &str) {
    assert_eq!(answer.0, 400, "{what}: {}", answer.1);
    assert_eq!(
        answer.1["error"]["details"]["field"], field,
        "{what}: {}",
        answer.1
    );
}

/// Asserts a 404 in the documented error shape.
fn assert_not_found(what: &str, answer: &(u16, Value)) {
    assert_eq!(answer.0, 404, "{what}: {}", answer.1);
    assert!(
        answer.1["error"]["code"].is_string(),
        "{what}: {}",
        answer.1
    );
}

/// Sends every reproducer of issue 35's text defect to `platform` and checks each answer: a
/// 400 naming the field for text the rule refuses, a 404 for an id or a user that cannot
/// exist, the usual 401 for a sign-in with a username that cannot exist. None is a 500, and
/// nothing the rule refuses is stored.
async fn text_the_rule_refuses_is_a_400_naming_the_field_and_an_impossible_id_a_404(
    platform: &support::SamplePlatform,
) {
    let api = platform.api.as_str();
    let client = reqwest::Client::new();
    let token = crate::ownership::session(&client, api, "texter").await;
    let swiss = json!([{"format": "swiss"}]);

    // Names and labels: one rule everywhere.
    for (what, name) in [
        ("a NUL", "a\u{0}b"),
        ("a bell", "a\u{7}b"),
        ("a line break", "a\nb"),
        ("a right-to-left override", "admin\u{202E}nimda"),
        ("a right-to-left isolate", "a\u{2067}b"),
    ] {
        let tournament = send_as(
            &token,
            client
                .post(format!("{api}/lor/tournaments"))
                .json(&json!({"name": name, "stages": swiss})),
        )
        .await;
        assert_names_field(
            &format!("a tournament name with {what}"),
            &tournament,
            "name",
        );
        let deck = send_as(
            &token,
            client
                .post(format!("{api}/lor/decks"))
                .json(&json!({"name": name, "piles": []})),
        )
        .await;
        assert_names_field(&format!("a deck name with {what}"), &deck, "name");
        let calculator = send_as(
            &token,
            client
                .post(format!("{api}/lor/calculators"))
                .json(&json!({"name": name, "source": "export default () => 1"})),
        )
        .await;
        assert_names_field(
            &format!("a calculator name with {what}"),
            &calculator,
            "name",
        );
        let api_token = send_as(
            &token,
            client
                .post(format!("{api}/me/tokens"))
                .json(&json!({"name": name, "scopes": ["read"]})),
        )
        .await;
        assert_names_field(&format!("a token name with {what}"), &api_token, "name");
    }
    let (status, listed) = send(client.get(format!("{api}/lor/tournaments"))).await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(
        listed["tournaments"],
        json!([]),
        "no refused name was stored"
    );

    // A guest's name on a tournament that exists.
    let (status, created) = send_as(
        &token,
        client
            .post(format!("{api}/lor/tournaments"))
            .json(&json!({"name": "Friday Swiss", "stages": swiss})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["tournament"]["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    for name in ["g\u{0}", "g\u{7}", "g\u{202E}"] {
        let guest = send_as(
            &token,
            client
                .post(format!("{api}/tournaments/{id}/registrations"))
                .json(&json!({"displayName": name})),
        )
        .await;
        assert_names_field(&format!("a guest named {name:?}"), &guest, "displayName");
    }

    // Free text: a ruleset's source keeps its line breaks, not a NUL.
    let source = send_as(
        &token,
        client.post(format!("{api}/lor/rulesets")).json(&json!({
            "name": "r", "scope": "deck",
            "source": "export default () => ({valid: true});\n// \u{0}"})),
    )
    .await;
    assert_names_field("a ruleset source with a NUL", &source, "source");

    // Ids and users that cannot exist: not found, without a query.
    for path in [
        "/lor/decks/dk_%00",
        "/lor/decksets/ds_%00",
        "/lor/templates/tp_%00",
        "/lor/rulesets/rs_%00",
        "/lor/calculators/calc_%00",
        "/tournaments/t_%00",
        &format!("/tournaments/{id}/registrations/r%00/lineup"),
        "/users/a%00b",
        "/lor/cards/a%00",
    ] {
        let answer = send_as(&token, client.get(format!("{api}{path}"))).await;
        assert_not_found(&format!("GET {path}"), &answer);
    }
    let revoked = send_as(&token, client.delete(format!("{api}/me/tokens/tok_%00"))).await;
    assert_not_found("DELETE a token id with a NUL", &revoked);
    for path in ["decks", "rulesets", "templates", "calculators"] {
        let (status, body) = send(client.get(format!("{api}/users/a%00b/{path}"))).await;
        assert!(
            status == 404 || status == 200,
            "a profile's {path} of a user that cannot exist: {status} {body}"
        );
    }

    // A sign-in with a username that cannot exist: the same answer as a wrong password.
    let (status, body) = send(client.post(format!("{api}/sessions")).json(&json!({
        "username": "a\u{0}bc", "password": "correct horse battery"})))
    .await;
    assert_eq!(status, 401, "{body}");
    assert_eq!(
        body["error"]["details"]["reason"], "wrong_credentials",
        "{body}"
    );

    // The gRPC edge: the same rule, InvalidArgument with a BadRequest naming the field.
    use proto::tournaments::v1::tournament_service_client::TournamentServiceClient;
    use proto::tournaments::v1::{CreateTournamentRequest, StageInput};
    let channel = tonic::transport::Endpoint::from_shared(platform.grpc.clone())
        .expect("a URL")
        .connect()
        .await
        .expect("connects");
    let mut request = tonic::Request::new(CreateTournamentRequest {
        game: proto::game::to_wire(proto::game::Game::Lor),
        name: "a\u{0}b".to_owned(),
        stages: vec![StageInput {
            format: "swiss".to_owned(),
            settings_json: None,
        }],
        ..Default::default()
    });
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("ASCII"),
    );
    let refused = TournamentServiceClient::new(channel)
        .create_tournament(request)
        .await
        .expect_err("a NUL in the name");
    assert_eq!(refused.code(), tonic::Code::InvalidArgument, "{refused:?}");
    let refused = kit::status::ServiceError::from(refused);
    assert_eq!(refused.violations()[0].field, "name", "{refused}");

    assert!(
        !platform.process.log().contains("internal error"),
        "no answer was an internal error; log:\n{}",
        platform.process.log()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn text_the_rule_refuses_is_a_400_naming_the_field_on_sqlite() {
    let platform = support::SamplePlatform::start().await;
    text_the_rule_refuses_is_a_400_naming_the_field_and_an_impossible_id_a_404(&platform).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn text_the_rule_refuses_is_a_400_naming_the_field_on_postgres() {
    let database = kit::testing::TestDatabase::postgres().await;
    let platform = support::SamplePlatform::start_with(&[("DATABASE_URL", database.url())]).await;
    text_the_rule_refuses_is_a_400_naming_the_field_and_an_impossible_id_a_404(&platform).await;
}
