//! `turnier ruleset list|show|run` against a running all-in-one platform over gRPC: the
//! built-ins for anyone, one's own rulesets with a token (sent, never printed), a user's
//! public ones grouped by scope, a ruleset's code, runs by reference, and refusals printed as
//! `{"error": {"code", "message"}}` with exit status 1.

use serde_json::{Value, json};

use crate::ownership;
use crate::support;

fn json_of(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "{err}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn rulesets_are_listed_shown_and_run_from_the_command_line() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let ana = ownership::session(&client, api, "Ana").await;
    let response = client
        .post(format!("{api}/lor/rulesets"))
        .bearer_auth(&ana)
        .json(&json!({"name": "Mine", "scope": "deck", "public": true,
                      "source": "export default function validateDeck(deck) { return { valid: false, issues: ['mine'] }; }"}))
        .send()
        .await
        .expect("created");
    assert_eq!(response.status().as_u16(), 201);
    let made: Value = response.json().await.expect("JSON");
    let id = made["ruleset"]["id"].as_str().expect("an id").to_owned();
    let private: Value = client
        .post(format!("{api}/lor/rulesets"))
        .bearer_auth(&ana)
        .json(&json!({"name": "Hidden", "scope": "card",
                      "source": "export default function validateCard() { return true; }"}))
        .send()
        .await
        .expect("created")
        .json()
        .await
        .expect("JSON");
    let hidden = private["ruleset"]["id"].as_str().expect("an id").to_owned();

    let dir = tempfile::tempdir().expect("temp dir");
    let server = platform.grpc.as_str();
    let with_token = [("TURNIER_SERVER", server), ("TURNIER_TOKEN", ana.as_str())];
    let anonymous = [("TURNIER_SERVER", server)];

    // Built-ins for anyone; with the token, one's own too (and the token is never printed).
    let listed = support::run(
        dir.path(),
        &["ruleset", "list", "--game", "lor"],
        &anonymous,
    );
    assert!(listed.status.success());
    let ids: Vec<String> = json_of(&listed)["rulesets"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|r| r["id"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(
        ids,
        [
            "lor-standard",
            "lor-eternal",
            "lor-riot-constructed",
            "lor-riot-lock"
        ]
    );
    let own = support::run(
        dir.path(),
        &["ruleset", "list", "--game", "lor", "--scope", "deck"],
        &with_token,
    );
    assert!(own.status.success());
    let own_json = json_of(&own);
    let ids: Vec<&str> = own_json["rulesets"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert_eq!(ids, ["lor-riot-constructed", id.as_str()]);
    assert_eq!(own_json["rulesets"][1]["owner"], "Ana");
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&own.stdout),
        String::from_utf8_lossy(&own.stderr)
    );
    assert!(!printed.contains(&ana), "the token is never printed");

    // A user's public rulesets, grouped, in any case of the name.
    let profile = support::run(
        dir.path(),
        &["ruleset", "list", "--user", "ANA"],
        &anonymous,
    );
    assert!(profile.status.success());
    let profile = json_of(&profile);
    assert_eq!(profile["deck"][0]["id"], id.as_str(), "{profile}");
    assert_eq!(profile["card"], json!([]));

    // The code of a ruleset, whole or alone.
    let shown = support::run(
        dir.path(),
        &[
            "ruleset",
            "show",
            "--game",
            "lor",
            "lor-standard",
            "--source",
        ],
        &anonymous,
    );
    assert!(shown.status.success());
    assert_eq!(
        String::from_utf8_lossy(&shown.stdout).trim_end(),
        scripts::builtin::get("lor-standard")
            .expect("built in")
            .source
            .trim_end()
    );
    let shown = support::run(
        dir.path(),
        &["ruleset", "show", "--game", "lor", &id],
        &anonymous,
    );
    assert_eq!(json_of(&shown)["ruleset"]["name"], "Mine");

    // Runs by reference, on stdin.
    let run = support::run_with_stdin(
        dir.path(),
        &[
            "ruleset",
            "run",
            "--game",
            "lor",
            "lor-standard",
            "--kind",
            "card",
        ],
        &anonymous,
        r#"{"card": {"name": "Old", "game": {"formatRefs": []}}}"#,
    );
    assert!(run.status.success());
    assert_eq!(
        json_of(&run),
        json!({"valid": false, "issues": [{"code": "not_standard_legal",
               "message": "Only Standard-legal cards can be submitted"}]})
    );
    let run = support::run_with_stdin(
        dir.path(),
        &[
            "ruleset",
            "run",
            "--game",
            "lor",
            &id,
            "--kind",
            "deck",
            "--version",
            "1",
        ],
        &anonymous,
        r#"{"deck": {"01DE012": 1}, "cardsById": {}}"#,
    );
    assert_eq!(json_of(&run)["issues"], json!([{"message": "mine"}]));

    // Refusals: a private ruleset without its owner's token, a missing argument, no server.
    let refused = support::run_with_stdin(
        dir.path(),
        &["ruleset", "run", "--game", "lor", &hidden, "--kind", "card"],
        &anonymous,
        r#"{"card": {}}"#,
    );
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(json_of(&refused)["error"]["code"], "ruleset_not_found");
    let allowed = support::run_with_stdin(
        dir.path(),
        &["ruleset", "run", "--game", "lor", &hidden, "--kind", "card"],
        &with_token,
        r#"{"card": {}}"#,
    );
    assert_eq!(json_of(&allowed)["valid"], true);
    let missing = support::run_with_stdin(
        dir.path(),
        &[
            "ruleset",
            "run",
            "--game",
            "lor",
            "lor-standard",
            "--kind",
            "deck",
        ],
        &anonymous,
        r#"{"deck": {}}"#,
    );
    assert_eq!(missing.status.code(), Some(1));
    assert_eq!(json_of(&missing)["error"]["code"], "invalid_argument");
    let nowhere = format!("http://127.0.0.1:{}", support::free_port());
    let down = support::run(
        dir.path(),
        &["ruleset", "list", "--game", "lor", "--server", &nowhere],
        &[],
    );
    assert_eq!(down.status.code(), Some(1));
    assert_eq!(json_of(&down)["error"]["code"], "unavailable");
}
