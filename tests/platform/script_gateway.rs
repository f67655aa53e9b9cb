//! Scripts through the gateway: gateway → scripts service → sandbox, over real HTTP and gRPC in
//! the all-in-one process. The routes answer with the documented JSON of each result, and a
//! script that fails answers with the gateway's error body and the script's error code.

use crate::support;

use serde_json::{Value, json};

async fn post(base: &str, route: &str, body: &Value) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{base}/scripts:{route}"))
        .json(body)
        .send()
        .await
        .expect("the gateway answers");
    let status = response.status().as_u16();
    (status, response.json().await.expect("a JSON body"))
}

#[tokio::test(flavor = "multi_thread")]
async fn rules_and_calculators_run_by_source_or_by_hash() {
    let platform = support::SamplePlatform::start().await;
    let base = &platform.api;
    let source = "export default function (deck) {\n  const refs = Object.keys(deck);\n  return refs.length === 2 || { valid: false, issues: [refs.join(\",\")] };\n}\n";

    let (status, checked) = post(base, "check", &json!({"source": source})).await;
    assert_eq!(status, 200, "{checked}");
    assert_eq!(checked["safe"], true);
    assert_eq!(checked["issues"], json!([]));
    let hash = checked["hash"].as_str().expect("a hash").to_owned();

    // The deck's key order reaches the script.
    let deck = json!({"script": {"hash": hash}, "deck": {"zed": 3, "ahri": 2, "braum": 1},
                      "cardsById": {}});
    let (status, result) = post(base, "runDeckRule", &deck).await;
    assert_eq!(status, 200, "{result}");
    assert_eq!(
        result,
        json!({"valid": false, "issues": [{"message": "zed,ahri,braum"}]})
    );
    let two = json!({"script": {"source": source}, "deck": {"a": 1, "b": 1}, "cardsById": {}});
    assert_eq!(
        post(base, "runDeckRule", &two).await,
        (200, json!({"valid": true, "issues": []}))
    );

    let calculator = json!({
        "script": {"source": "export default function compute(pile) { return { widgets: [{ kind: \"stat\", label: \"Cards\", value: Object.keys(pile).length }] }; }"},
        "pile": {"a": 1}, "cardsById": {}});
    assert_eq!(
        post(base, "runCalculator", &calculator).await,
        (
            200,
            json!({"widgets": [{"kind": "stat", "label": "Cards", "value": 1.0}]})
        )
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn failing_scripts_answer_with_their_error_code() {
    let platform = support::SamplePlatform::start().await;
    let base = &platform.api;
    let run = |source: &str| json!({"script": {"source": source}, "deck": {}, "cardsById": {}});

    let (status, body) = post(base, "runDeckRule", &run("var x = 1;")).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["code"], "unsafe_script");
    assert_eq!(
        body["error"]["details"]["issues"][0]["code"],
        "variable_kind_unsupported"
    );

    let (status, body) = post(
        base,
        "runDeckRule",
        &run("export default (deck) => deck.a.b;"),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (400, json!("script_error"))
    );

    let (status, body) = post(base, "runDeckRule", &run("const x = 1;")).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (400, json!("no_entry_point"))
    );

    let calculator = json!({"script": {"source": "export default function compute() { for (;;) {} }"},
                            "pile": {}, "cardsById": {}});
    let (status, body) = post(base, "runCalculator", &calculator).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (504, json!("timeout"))
    );

    let unknown = json!({"script": {"hash": "00"}, "deck": {}, "cardsById": {}});
    let (status, body) = post(base, "runDeckRule", &unknown).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (404, json!("script_not_found"))
    );

    // The service keeps serving after all of that.
    let (status, _) = post(base, "runDeckRule", &run("export default () => true;")).await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_card_rule_runs_over_a_whole_catalog() {
    let platform = support::SamplePlatform::start().await;
    let base = &platform.api;
    let pikachu: Value = reqwest::get(format!("{base}/pokemon/cards/svp-106"))
        .await
        .expect("the gateway answers")
        .json()
        .await
        .expect("a card");
    let rule =
        "export default (card) => ({ valid: card.name.includes(\"ex\"), issues: [card.name] });";

    let (status, body) = post(
        base,
        "filterCardPool",
        &json!({"script": {"source": rule}, "game": "pokemon"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let verdicts = body["verdicts"].as_array().expect("verdicts");
    assert!(!verdicts.is_empty());
    assert!(
        verdicts.iter().all(|verdict| verdict["cardId"].is_string()),
        "{body}"
    );
    let verdict = verdicts
        .iter()
        .find(|verdict| verdict["cardId"] == pikachu["id"])
        .expect("a verdict for every catalog card");
    assert_eq!(
        verdict,
        &json!({"cardId": pikachu["id"], "valid": true, "issues": [{"message": pikachu["name"]}]})
    );

    for (body, message) in [
        (
            json!({"script": {"source": rule}, "game": "pokemon", "cards": []}),
            "give either `cards`",
        ),
        (json!({"script": {"source": rule}}), "give either `cards`"),
        (
            json!({"script": {"source": rule}, "game": "chess"}),
            "unknown game `chess`",
        ),
    ] {
        let (status, answer) = post(base, "filterCardPool", &body).await;
        assert_eq!(status, 400, "{answer}");
        assert_eq!(answer["error"]["code"], "invalid_argument");
        let text = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(text.contains(message), "{answer}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn arguments_that_must_be_objects_are_refused_before_a_run() {
    let platform = support::SamplePlatform::start().await;
    let base = &platform.api;
    let script = json!({"source": "export default () => true;"});
    let cases = [
        (
            "runCardRule",
            json!({"script": script, "card": 7}),
            "`card` must be a JSON object, found a number",
        ),
        (
            "runCardRule",
            json!({"script": script, "card": {}, "context": "x"}),
            "`context` must be a JSON object, found a string",
        ),
        (
            "runDeckRule",
            json!({"script": script, "deck": null, "cardsById": {}}),
            "`deck` must be a JSON object, found null",
        ),
        (
            "runDeckRule",
            json!({"script": script, "deck": {}, "cardsById": [1]}),
            "`cardsById` must be a JSON object, found an array",
        ),
        (
            "runDecksetRule",
            json!({"script": script, "decks": [{}, 3], "cardsById": {}}),
            "`decks` must be an array of deck objects",
        ),
        (
            "runCalculator",
            json!({"script": script, "pile": true, "cardsById": {}}),
            "`pile` must be a JSON object, found a boolean",
        ),
        (
            "resolvePoolFilters",
            json!({"script": script, "game": "riftbound", "input": "lineup"}),
            "`input` must be a JSON object, found a string",
        ),
        (
            "filterCardPool",
            json!({"script": script, "cards": [{}, "card"]}),
            "must be a JSON array of card objects",
        ),
    ];
    for (route, body, message) in cases {
        let (status, answer) = post(base, route, &body).await;
        assert_eq!(status, 400, "{route} {body}: {answer}");
        assert_eq!(
            answer["error"]["code"], "invalid_argument",
            "{route}: {answer}"
        );
        let said = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(
            said.contains(message),
            "{route}: {said:?} should say {message:?}"
        );
    }
    // The objects themselves still run.
    let (status, answer) = post(base, "runCardRule", &json!({"script": script, "card": {}})).await;
    assert_eq!(
        (status, answer),
        (200, json!({"valid": true, "issues": []}))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_script_too_deeply_nested_to_compile_is_not_safe_and_gets_no_hash() {
    let platform = support::SamplePlatform::start().await;
    let depth = 5_000;
    let source = format!(
        "export default () => {}1{};\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let (status, checked) = post(&platform.api, "check", &json!({ "source": source })).await;
    assert_eq!(status, 200, "{checked}");
    assert_eq!(checked["safe"], false, "{checked}");
    assert!(checked.get("hash").is_none(), "{checked}");
    assert_eq!(checked["issues"][0]["code"], "invalid_syntax");
    assert_eq!(checked["issues"][0]["line"], 1);
    let message = checked["issues"][0]["message"].as_str().expect("a message");
    assert!(message.contains("cannot be compiled"), "{message}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_built_in_rule_runs_by_its_id_and_an_unknown_id_is_not_found() {
    let platform = support::SamplePlatform::start().await;
    let api = &platform.api;
    let standard = json!({"name": "Lux", "game": {"formatRefs": ["client_Formats_Standard_name"]}});
    let eternal =
        json!({"name": "Old Card", "game": {"formatRefs": ["client_Formats_Eternal_name"]}});
    let run = |card: &Value, script: Value| json!({"script": script, "card": card});

    let (status, body) = post(
        api,
        "runCardRule",
        &run(&standard, json!({"ruleset": "lor-standard"})),
    )
    .await;
    assert_eq!(
        (status, &body),
        (200, &json!({"valid": true, "issues": []}))
    );
    let (status, body) = post(
        api,
        "runCardRule",
        &run(&eternal, json!({"ruleset": "lor-standard", "version": 1})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["valid"], false);
    assert_eq!(
        body["issues"][0]["message"],
        "Only Standard-legal cards can be submitted"
    );

    for script in [
        json!({"ruleset": "lor-nope"}),
        json!({"ruleset": "lor-standard", "version": 2}),
    ] {
        let (status, body) = post(api, "runCardRule", &run(&standard, script.clone())).await;
        assert_eq!(status, 404, "{script}: {body}");
        assert_eq!(body["error"]["code"], "ruleset_not_found", "{body}");
    }
    let (status, body) = post(
        api,
        "runCardRule",
        &run(&standard, json!({"ruleset": "lor-standard", "source": "x"})),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("invalid_argument")),
        "{body}"
    );
}
