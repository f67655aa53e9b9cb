//! `turnier calculator build|run`: the builder's script from a spec on stdin or in a file, in
//! process (the same bytes as the HTTP `:build`), a bad spec refused naming its key, and a run
//! of a calculator of a running platform over gRPC on a deck or a deck set from stdin.

use serde_json::{Value, json};

use crate::support;

const SPEC: &str = r#"{"widgets": [{"kind": "stat", "label": "Deck size", "measure": "count"}]}"#;

fn json_of(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "{err}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
fn build_prints_the_builders_script_and_refuses_a_bad_spec() {
    let dir = tempfile::tempdir().expect("temp dir");
    let built = support::run_with_stdin(
        dir.path(),
        &["calculator", "build", "--game", "pokemon"],
        &[],
        SPEC,
    );
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let script = String::from_utf8(built.stdout).expect("UTF-8");
    assert!(
        script.starts_with("// @calculator-spec:v1 {\"widgets\":[{\"kind\":\"stat\""),
        "{script}"
    );
    assert!(script.contains("return { widgets: widgets };"));

    let file = dir.path().join("spec.json");
    std::fs::write(&file, SPEC).expect("written");
    let from_file = support::run(
        dir.path(),
        &[
            "calculator",
            "build",
            "--game",
            "pokemon",
            "--json",
            file.to_str().expect("UTF-8"),
        ],
        &[],
    );
    assert_eq!(
        json_of(&from_file)["source"].as_str().map(str::trim_end),
        Some(script.trim_end())
    );

    let bad = support::run_with_stdin(
        dir.path(),
        &["calculator", "build", "--game", "lor"],
        &[],
        r#"{"widgets": [{"kind": "histogram", "label": "x", "field": "retreatCost"}]}"#,
    );
    assert_eq!(bad.status.code(), Some(1));
    let error = json_of(&bad);
    assert_eq!(error["error"]["code"], "invalid_spec");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("widgets[0].field"),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn run_charts_a_deck_of_a_running_platform() {
    let platform = support::SamplePlatform::start().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let env = [("TURNIER_SERVER", platform.grpc.as_str())];
    let ran = support::run_with_stdin(
        dir.path(),
        &[
            "calculator",
            "run",
            "--game",
            "pokemon",
            "pokemon-deck-breakdown",
        ],
        &env,
        &json!({"decks": [{"svp-106": 2}, {"svp-106": 1}]}).to_string(),
    );
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let dashboard = json_of(&ran);
    assert_eq!(dashboard["widgets"][1]["label"], "Total cards");
    assert_eq!(dashboard["widgets"][1]["value"].as_f64(), Some(3.0));

    let missing = support::run_with_stdin(
        dir.path(),
        &["calculator", "run", "--game", "pokemon", "calc_nobody"],
        &env,
        r#"{"pile": {}}"#,
    );
    assert_eq!(missing.status.code(), Some(1));
    assert_eq!(json_of(&missing)["error"]["code"], "not_found");
}
