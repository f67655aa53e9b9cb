//! Calculators through the gateway of the all-in-one process: the default Deck breakdown
//! listed, run and switched off per account; a calculator made from a builder spec (its source
//! generated, opening in the builder) and then hand-edited (a code calculator); duplicates that
//! start private; runs on a deck and on a deck set counted as one deck; the guide's errors; the
//! builder's calls; profiles; and the ownership matrix.

use serde_json::{Value, json};

use crate::ownership::{self, Callers, Who, send};
use crate::support;

const SPEC: &str = r#"{"widgets": [
  {"kind": "stat", "label": "Deck size", "measure": "count", "unit": "cards"},
  {"kind": "hypergeometric", "label": "Basic in opening hand", "draws": 7,
   "filter": {"match": "all", "conditions": [{"field": "stage", "op": "is", "value": "Basic"}]}}
]}"#;

fn spec() -> Value {
    serde_json::from_str(SPEC).expect("JSON")
}

fn widgets(body: &Value) -> Vec<(String, Value)> {
    body["widgets"]
        .as_array()
        .expect("widgets")
        .iter()
        .map(|widget| {
            (
                widget["label"].as_str().unwrap_or_default().to_owned(),
                widget.clone(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_default_is_listed_run_and_switched_off_per_account() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let (status, body) = send(client.get(format!("{api}/pokemon/calculators")), None).await;
    assert_eq!(status, 200, "{body}");
    let default = &body["calculators"][0];
    assert_eq!(default["id"], "pokemon-deck-breakdown");
    assert_eq!(default["name"], "Deck breakdown");
    assert_eq!(default["builtIn"], true);
    assert_eq!(default["enabled"], true);
    assert_eq!(default["editableInBuilder"], false, "a hand-written script");
    let keys: Vec<&str> = default
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "id",
            "game",
            "name",
            "source",
            "editableInBuilder",
            "builtIn",
            "owner",
            "public",
            "enabled",
            "createTime",
            "updateTime"
        ]
    );

    let (status, run) = send(
        client
            .post(format!(
                "{api}/pokemon/calculators/pokemon-deck-breakdown:run"
            ))
            .json(&json!({"pile": {"svp-106": 4}})),
        None,
    )
    .await;
    assert_eq!(status, 200, "{run}");
    let shown = widgets(&run);
    assert_eq!(
        shown[1].1["value"].as_f64(),
        Some(4.0),
        "Total cards: {run}"
    );
    assert_eq!(shown[0].1["segments"][0]["key"], "pokemon");

    let ana = ownership::session(&client, api, "ana").await;
    let url = format!("{api}/pokemon/calculators/pokemon-deck-breakdown");
    let (status, body) = send(
        client.patch(&url).json(&json!({"enabled": false})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["calculator"]["enabled"], false);
    let (_, listed) = send(client.get(format!("{api}/pokemon/calculators")), Some(&ana)).await;
    assert_eq!(listed["calculators"][0]["enabled"], false, "off for ana");
    let (_, listed) = send(client.get(format!("{api}/pokemon/calculators")), None).await;
    assert_eq!(
        listed["calculators"][0]["enabled"], true,
        "on for everyone else"
    );
    for (body, status) in [
        (json!({"name": "Mine"}), 403),
        (
            json!({"source": "export default function compute() {}"}),
            403,
        ),
    ] {
        let (got, answer) = send(client.patch(&url).json(&body), Some(&ana)).await;
        assert_eq!(got, status, "{answer}");
    }
    let (status, _) = send(client.delete(&url), Some(&ana)).await;
    assert_eq!(status, 404, "a default is not one of yours to delete");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_builder_calculator_opens_in_the_builder_until_edited_by_hand() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let ana = ownership::session(&client, api, "ana").await;

    let (status, built) = send(
        client
            .post(format!("{api}/pokemon/calculators:build"))
            .json(&json!({"spec": spec()})),
        None,
    )
    .await;
    assert_eq!(status, 200, "{built}");
    let source = built["source"].as_str().expect("a source").to_owned();
    assert!(
        source.starts_with("// @calculator-spec:v1 {\"widgets\":["),
        "{source}"
    );
    let (_, again) = send(
        client
            .post(format!("{api}/pokemon/calculators:build"))
            .json(&json!({"spec": spec()})),
        None,
    )
    .await;
    assert_eq!(again["source"], source.as_str(), "byte for byte the same");

    let (status, made) = send(
        client
            .post(format!("{api}/pokemon/calculators"))
            .json(&json!({"name": "Starter check", "spec": spec()})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let calculator = &made["calculator"];
    assert_eq!(calculator["source"], source.as_str());
    assert_eq!(calculator["editableInBuilder"], true);
    assert_eq!(calculator["spec"]["widgets"][0]["kind"], "stat");
    assert_eq!(calculator["public"], false);
    assert_eq!(calculator["owner"], "ana");
    let url = format!(
        "{api}/pokemon/calculators/{}",
        calculator["id"].as_str().expect("id")
    );

    let (status, run) = send(
        client
            .post(format!("{url}:run"))
            .json(&json!({"decks": [{"svp-106": 3}, {"svp-106": 1, "nowhere-1": 2}]})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 200, "{run}");
    let shown = widgets(&run);
    assert_eq!(
        shown[0].1["value"].as_f64(),
        Some(6.0),
        "a deck set counts as one deck: {run}"
    );
    assert_eq!(shown[1].1["population"].as_f64(), Some(6.0));
    assert_eq!(
        shown[1].1["successCount"].as_f64(),
        Some(4.0),
        "Pikachu ex is a Basic: {run}"
    );

    // Edited by hand: a code calculator; inspect says the same.
    let edited = source.replace(
        "return { widgets: widgets };",
        "return { widgets: widgets.slice(0, 1) };",
    );
    let (status, body) = send(
        client.patch(&url).json(&json!({"source": edited})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["calculator"]["editableInBuilder"], false);
    assert!(body["calculator"].get("spec").is_none(), "{body}");
    let (_, inspected) = send(
        client
            .post(format!("{api}/pokemon/calculators:inspect"))
            .json(&json!({"source": edited})),
        None,
    )
    .await;
    assert_eq!(inspected, json!({"editableInBuilder": false}));
    let (_, inspected) = send(
        client
            .post(format!("{api}/pokemon/calculators:inspect"))
            .json(&json!({"source": source})),
        None,
    )
    .await;
    assert_eq!(inspected["editableInBuilder"], true);
    // Saving a spec regenerates the source.
    let (_, body) = send(
        client.patch(&url).json(&json!({"spec": spec()})),
        Some(&ana),
    )
    .await;
    assert_eq!(body["calculator"]["source"], source.as_str());

    // A spec with an unknown key is refused, naming it.
    let (status, body) = send(
        client
            .post(format!("{api}/pokemon/calculators"))
            .json(&json!({"name": "Bad", "spec": {"widgets": [], "colour": "red"}})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "invalid_spec");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("`colour`"),
        "{body}"
    );

    let (status, body) = send(
        client.get(format!("{api}/pokemon/calculators:fields")),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let stage = body["fields"]
        .as_array()
        .expect("fields")
        .iter()
        .find(|field| field["id"] == "stage")
        .expect("a stage field");
    assert_eq!(
        *stage,
        json!({"id": "stage", "label": "Stage", "kind": "category", "values": ["Basic", "Stage 1", "Stage 2"]})
    );
    // The categories the catalog decides offer what its cards carry (the sample: Pikachu ex).
    let values = |id: &str| -> Value {
        body["fields"]
            .as_array()
            .expect("fields")
            .iter()
            .find(|field| field["id"] == id)
            .map_or(Value::Null, |field| field["values"].clone())
    };
    assert_eq!(values("subtype"), json!(["Basic", "ex"]));
    assert_eq!(values("set"), json!(["me2pt5"]));
    assert_eq!(values("regulationMark"), json!(["H"]));
    assert_eq!(values("hp"), Value::Null, "a number field has no values");
}

#[tokio::test(flavor = "multi_thread")]
async fn runs_report_the_guides_errors_and_duplicates_start_private() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let ana = ownership::session(&client, api, "ana").await;
    let make = |source: &'static str| {
        let client = client.clone();
        let (url, token) = (format!("{api}/lor/calculators"), ana.clone());
        async move {
            let (status, body) = send(
                client
                    .post(url)
                    .json(&json!({"name": "Broken", "source": source, "public": true})),
                Some(&token),
            )
            .await;
            assert_eq!(status, 201, "{body}");
            body["calculator"]["id"].as_str().expect("an id").to_owned()
        }
    };
    for (source, expected, message) in [
        ("   ", 400, "Calculator script source is empty."),
        (
            "const helper = 1;",
            400,
            "Calculator script did not export a compute function.",
        ),
        (
            "export default function compute() { throw \"no cards\"; }",
            400,
            "no cards",
        ),
        // Stopped at the 5-second limit.
        (
            "export default function compute() { while (true) {} }",
            504,
            "past its time limit of 5000 ms",
        ),
    ] {
        let id = make(source).await;
        let (status, body) = send(
            client
                .post(format!("{api}/lor/calculators/{id}:run"))
                .json(&json!({"pile": {"01DE012": 3}})),
            None,
        )
        .await;
        assert_eq!(status, expected, "{body}");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap_or_default()
                .contains(message),
            "{message}: {body}"
        );
    }

    // Duplicates of the default and of someone's public calculator start private and editable.
    let bob = ownership::session(&client, api, "bob").await;
    let (status, copy) = send(
        client.post(format!(
            "{api}/lor/calculators/lor-deck-breakdown:duplicate"
        )),
        Some(&bob),
    )
    .await;
    assert_eq!(status, 201, "{copy}");
    assert_eq!(copy["calculator"]["public"], false);
    assert_eq!(copy["calculator"]["builtIn"], false);
    assert_eq!(copy["calculator"]["owner"], "bob");
    assert_eq!(copy["calculator"]["name"], "Copy of Deck breakdown");
    let (_, profile) = send(client.get(format!("{api}/users/ANA/calculators")), None).await;
    assert_eq!(
        profile["calculators"].as_array().map(Vec::len),
        Some(4),
        "{profile}"
    );
    let public_id = profile["calculators"][0]["id"].as_str().expect("an id");
    let (status, copy) = send(
        client.post(format!("{api}/lor/calculators/{public_id}:duplicate")),
        Some(&bob),
    )
    .await;
    assert_eq!(status, 201, "{copy}");
    assert_eq!(copy["calculator"]["public"], false);
    let (_, own) = send(client.get(format!("{api}/lor/calculators")), Some(&bob)).await;
    assert_eq!(
        own["calculators"].as_array().map(Vec::len),
        Some(3),
        "default + 2 copies"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ownership_matrix_on_a_private_and_then_a_public_calculator() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let callers = Callers::make(&client, api, "owner").await;
    let body = json!({"name": "Mine", "spec": {"widgets": [{"kind": "stat", "label": "n", "measure": "count"}]}});
    callers
        .expect(
            "creating a calculator",
            &[
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
            ],
            || client.post(format!("{api}/lor/calculators")).json(&body),
        )
        .await;
    let (status, made) = send(
        client.post(format!("{api}/lor/calculators")).json(&body),
        Some(&callers.owner),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let url = format!(
        "{api}/lor/calculators/{}",
        made["calculator"]["id"].as_str().expect("an id")
    );
    let run = format!("{url}:run");
    callers
        .expect(
            "running a private calculator",
            &[
                (Who::Owner, 200),
                (Who::Other, 404),
                (Who::Anonymous, 404),
                (Who::ReadOnly, 200),
                (Who::Revoked, 401),
                (Who::Expired, 401),
            ],
            || client.post(&run).json(&json!({"pile": {"01DE012": 1}})),
        )
        .await;
    callers
        .expect_private_then_public(&client, "calculator", &url, || {
            client.patch(&url).json(&json!({"name": "Renamed"}))
        })
        .await;
}
