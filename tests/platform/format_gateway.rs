//! `POST /api/v1/formats:check` through the gateway of the all-in-one process, against the real
//! decks service over gRPC: the report JSON of the issue, a deck before its taboo list, and the
//! 400s of a format, a deck and a moment that fail to read.

use serde_json::{Value, json};

use crate::support;

async fn post_check(client: &reqwest::Client, api: &str, body: &Value) -> (u16, Value) {
    let response = client
        .post(format!("{api}/formats:check"))
        .json(body)
        .send()
        .await
        .expect("formats:check answers");
    let status = response.status().as_u16();
    (status, response.json().await.expect("a JSON body"))
}

fn league() -> Value {
    json!({
        "code": "league",
        "name": "League",
        "min_size": 40,
        "max_size": 60,
        "copies": 3,
        "banned": ["old-relic"],
        "restricted": {},
        "taboo_lists": [
            {"code": "autumn", "effective_from": "2026-10-01", "banned": ["night-owl"],
             "restricted": {"storm-call": 1}}
        ]
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn a_deck_is_checked_against_a_format_and_bad_input_is_a_400_with_its_own_code() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());

    // The issue's example: Storm Call restricted by the taboo list in force, a banned card and
    // a small deck; the report keeps the deck's order.
    let (status, body) = post_check(
        &client,
        api,
        &json!({
            "format": league(),
            "deck": {"cards": [
                {"id": "storm-call", "name": "Storm Call", "count": 2},
                {"id": "path", "count": 20, "copyLimit": 20},
                {"id": "old-relic", "count": 1},
            ]},
            "at": "2026-10-02T09:00:00-04:00",
        }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({
            "valid": false,
            "tabooList": {"code": "autumn", "effectiveFrom": "2026-10-01"},
            "cards": {
                "storm-call": {
                    "bannedBy": null,
                    "copyLimit": 1,
                    "restrictedBy": {"kind": "tabooList", "code": "autumn", "effectiveFrom": "2026-10-01"}
                },
                "path": {"bannedBy": null, "copyLimit": 20, "restrictedBy": null},
                "old-relic": {
                    "bannedBy": {"kind": "format", "code": "league"},
                    "copyLimit": null,
                    "restrictedBy": null
                }
            },
            "issues": [
                {"code": "deck_too_small", "card": null,
                 "message": "Deck: at least 40 cards under the format league (found 23)."},
                {"code": "too_many_copies", "card": "storm-call",
                 "message": "Storm Call: at most 1 copy under the taboo list autumn from 2026-10-01 (found 2)."},
                {"code": "banned_card", "card": "old-relic",
                 "message": "old-relic: banned by the format league (found 1)."}
            ]
        })
    );
    let keys: Vec<&String> = body["cards"]
        .as_object()
        .expect("an object")
        .keys()
        .collect();
    assert_eq!(
        keys,
        ["storm-call", "path", "old-relic"],
        "the deck's order"
    );

    // The evening before the taboo list: a valid deck names none.
    let (status, body) = post_check(
        &client,
        api,
        &json!({
            "format": league(),
            "deck": {"cards": [{"id": "path", "count": 40, "copyLimit": 40}]},
            "at": "2026-09-30T22:00:00-04:00",
        }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["valid"], true);
    assert_eq!(body["tabooList"], Value::Null);
    assert_eq!(body["issues"], json!([]));

    // A format that fails to read: 400 invalid_format, naming the field.
    let mut format = league();
    format["min_size"] = json!("forty");
    let (status, body) = post_check(
        &client,
        api,
        &json!({"format": format, "deck": {"cards": []}, "at": "2026-10-02T09:00:00-04:00"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        json!({"error": {
            "code": "invalid_format",
            "message": "invalid format: `min_size` must be an integer, found a string",
            "details": {"field": "min_size"},
        }})
    );

    // A bad deck or moment: 400 with its own code.
    let (status, body) = post_check(
        &client,
        api,
        &json!({"format": league(), "deck": {"cards": [], "sideboard": []},
                "at": "2026-10-02T09:00:00-04:00"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["code"], "invalid_deck");
    let (status, body) = post_check(
        &client,
        api,
        &json!({"format": league(), "deck": {"cards": [{"id": "path", "count": 100001}]},
                "at": "2026-10-02T09:00:00-04:00"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["message"],
        "invalid deck: `cards[0].count` must be from 1 to 100000, found 100001"
    );
    let (status, body) = post_check(
        &client,
        api,
        &json!({"format": league(), "deck": {"cards": []}, "at": "next tuesday"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["code"], "invalid_moment");
}

/// The gateway passes a format on as written, so it reads exactly what `turnier format check`
/// reads from a file: the spec's defaults for a format of only `code` and `name`, and the same
/// refusals (a repeated key, an unknown key, a missing required key) with the same messages.
#[tokio::test(flavor = "multi_thread")]
async fn the_gateway_reads_a_format_exactly_as_the_cli_does() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let dir = tempfile::tempdir().expect("temp dir");
    let deck = r#"{"cards": [{"id": "storm-call", "count": 2}]}"#;
    let at = "2026-10-02T09:00:00-04:00";
    let formats = [
        r#"{"code": "open", "name": "Open"}"#,
        r#"{"code": "open", "name": "Open", "copies": 1}"#,
        r#"{"code": "open", "name": "Open", "copies": 3, "copies": 1}"#,
        r#"{"code": "open", "name": "Open", "minSize": 3}"#,
        r#"{"code": "open", "min_size": 3}"#,
        r#"{"code": "open", "name": "Open", "taboo_lists": [{"code": "t", "effective_from": "2026-01-01", "banned": [], "banned": ["storm-call"]}]}"#,
    ];
    let mut read = Vec::new();
    for format in formats {
        std::fs::write(dir.path().join("format.json"), format).expect("format written");
        let cli = crate::support::run_with_stdin(
            dir.path(),
            &[
                "format",
                "check",
                "--format",
                "format.json",
                "--at",
                at,
                "--json",
            ],
            &[],
            deck,
        );
        let cli: Value = serde_json::from_slice(&cli.stdout).expect("the CLI prints JSON");
        let body = format!(r#"{{"format": {format}, "deck": {deck}, "at": "{at}"}}"#);
        let response = client
            .post(format!("{api}/formats:check"))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("formats:check answers");
        let status = response.status().as_u16();
        let http: Value = response.json().await.expect("a JSON body");
        read.push(cli.get("error").is_none());
        match cli.get("error") {
            None => assert_eq!((status, &http), (200, &cli), "{format}"),
            Some(error) => {
                assert_eq!(status, 400, "{format}: {http}");
                assert_eq!(http["error"]["code"], error["code"], "{format}");
                assert_eq!(http["error"]["message"], error["message"], "{format}");
            }
        }
    }
    // Only code and name are required; every refusal above is one the CLI makes too.
    assert_eq!(read, [true, true, false, false, false, false]);
}
