//! Hostile input through the gateway of the all-in-one process, where every call crosses gRPC
//! to a service: long values a service quotes in its error, and limits one service reports to
//! another. Each answers in the documented error shape with a bounded message, and no answer
//! takes down the connection other callers share.

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
