//! `turnier deck decode` and `turnier deck encode` run as the real binary over the public
//! vectors of `shared/vectors/` (`kit::testing::shared`: `TURNIER_SHARED_DIR`, else `../shared` beside the
//! project). A missing vector file fails the test: the vectors are never skipped.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};
use support::{run, run_with_stdin};

fn vectors_dir() -> PathBuf {
    kit::testing::shared::vectors_dir()
}

fn read(path: &str) -> String {
    let path = vectors_dir().join(path);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read vector file {}: {e}", path.display()))
}

fn vector_json(path: &str) -> Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"))
}

fn workdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary folder")
}

/// Parses the one JSON line the command printed on stdout.
fn stdout_json(output: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON value ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn decode(dir: &Path, game: &str, code: &str) -> Output {
    run(dir, &["deck", "decode", "--game", game, code], &[])
}

fn encode(dir: &Path, game: &str, version: Option<&str>, deck: &Value) -> Output {
    let mut args = vec!["deck", "encode", "--game", game];
    if let Some(version) = version {
        args.extend(["--version", version]);
    }
    run_with_stdin(dir, &args, &[], &deck.to_string())
}

/// Returns a card list as sorted (code, count) pairs: decoders and the vectors list cards in
/// different orders.
fn pairs(cards: &Value) -> Vec<(String, u64)> {
    let mut pairs: Vec<_> = cards
        .as_array()
        .unwrap_or_else(|| panic!("a card list: {cards}"))
        .iter()
        .map(|card| {
            (
                card["cardCode"].as_str().expect("cardCode").to_owned(),
                card["count"].as_u64().expect("count"),
            )
        })
        .collect();
    pairs.sort();
    pairs
}

/// Asserts a failed run: exit code 1 and `{"error":"…"}` containing `expected`.
fn assert_error(output: &Output, expected: &str) {
    assert_eq!(
        output.status.code(),
        Some(1),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json = stdout_json(output);
    let message = json["error"].as_str().unwrap_or_else(|| panic!("{json}"));
    assert!(
        message.contains(expected),
        "`{expected}` not in `{message}`"
    );
    assert_eq!(json.as_object().map(|o| o.len()), Some(1), "{json}");
}

#[test]
fn decodes_and_encodes_the_readme_kaisa_code() {
    let dir = workdir();
    let examples = vector_json("riftbound/readme-examples.json");
    let example = &examples[0];
    let code = example["code"].as_str().expect("code");

    let output = decode(dir.path(), "riftbound", code);
    assert!(output.status.success());
    let deck = stdout_json(&output);
    assert_eq!(deck["version"], 2);
    assert_eq!(deck["chosenChampion"], Value::Null);
    assert_eq!(pairs(&deck["main"]), pairs(&example["main"]));
    assert_eq!(pairs(&deck["sideboard"]), pairs(&example["sideboard"]));

    let input = json!({"main": example["main"], "sideboard": example["sideboard"]});
    let output = encode(dir.path(), "riftbound", None, &input);
    assert!(output.status.success());
    assert_eq!(stdout_json(&output), json!({ "code": code }));

    // What `decode` prints goes straight back into `encode`.
    let output = encode(dir.path(), "riftbound", None, &deck);
    assert_eq!(stdout_json(&output), json!({ "code": code }));
}

#[test]
fn encodes_and_decodes_the_riftbound_version_5_vectors() {
    let dir = workdir();
    let vectors = vector_json("riftbound/head-test-vectors.json");
    let mut checked = 0;
    for group in ["v5_wire", "sp_prefix"] {
        for vector in vectors[group].as_array().expect("a vector list") {
            let name = vector["name"].as_str().unwrap_or_default();
            let code = vector["code"].as_str().expect("code");
            let input = json!({"main": vector["main"], "sideboard": vector["sideboard"]});
            let output = encode(dir.path(), "riftbound", None, &input);
            assert_eq!(stdout_json(&output), json!({ "code": code }), "{name}");

            let deck = stdout_json(&decode(dir.path(), "riftbound", code));
            assert_eq!(deck["version"], 5, "{name}");
            assert_eq!(pairs(&deck["main"]), pairs(&vector["main"]), "{name}");
            assert_eq!(
                pairs(&deck["sideboard"]),
                pairs(&vector["sideboard"]),
                "{name}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 8);
}

#[test]
fn writes_the_riftbound_version_asked_for_and_refuses_one_too_old() {
    let dir = workdir();
    let deck = json!({"main": [{"cardCode": "OGN-007", "count": 3}], "sideboard": []});
    let output = encode(dir.path(), "riftbound", Some("5"), &deck);
    let code = stdout_json(&output)["code"]
        .as_str()
        .expect("a code")
        .to_owned();
    assert_eq!(
        stdout_json(&decode(dir.path(), "riftbound", &code))["version"],
        5
    );

    let champion = json!({
        "main": [{"cardCode": "OGN-007", "count": 3}],
        "sideboard": [],
        "chosenChampion": "OGN-007",
    });
    let output = encode(dir.path(), "riftbound", Some("2"), &champion);
    assert_error(&output, "version 2 cannot carry this deck");
    let output = encode(dir.path(), "riftbound", None, &champion);
    let code = stdout_json(&output)["code"]
        .as_str()
        .expect("a code")
        .to_owned();
    let decoded = stdout_json(&decode(dir.path(), "riftbound", &code));
    assert_eq!(decoded["version"], 3);
    assert_eq!(decoded["chosenChampion"], "OGN-007");
}

#[test]
fn encodes_and_decodes_every_lor_test_data_deck() {
    let dir = workdir();
    let mut checked = 0;
    for line in read("lor/deckcodes-testdata.jsonl").lines() {
        if line.trim().is_empty() {
            continue;
        }
        let vector: Value = serde_json::from_str(line).expect("a JSON line");
        let code = vector["code"].as_str().expect("code");

        let deck = stdout_json(&decode(dir.path(), "lor", code));
        assert_eq!(pairs(&deck["main"]), pairs(&vector["main"]), "{code}");
        assert_eq!(deck["sideboard"], json!([]), "{code}");
        assert!(deck.get("chosenChampion").is_none(), "LoR has no champion");

        let output = encode(dir.path(), "lor", None, &json!({"main": vector["main"]}));
        assert_eq!(stdout_json(&output), json!({ "code": code }), "{code}");
        checked += 1;
    }
    assert_eq!(checked, 21);
}

#[test]
fn decodes_the_deck_builder_guide_lor_sample() {
    let dir = workdir();
    let output = decode(dir.path(), "lor", "CEAQ2AIAAEDASCYMCQKRUJZNFY2TOAABAEAQABY");
    let deck = stdout_json(&output);
    assert_eq!(deck["version"], 1);
    let total: u64 = pairs(&deck["main"]).iter().map(|(_, count)| count).sum();
    assert_eq!(total, 40);
}

#[test]
fn bad_codes_print_an_error_and_exit_1() {
    let dir = workdir();
    let vectors = vector_json("riftbound/head-test-vectors.json");
    for vector in vectors["errors"].as_array().expect("error vectors") {
        let Some(code) = vector["code"].as_str() else {
            continue;
        };
        // Version 6 is known now (golden-v6.json); the header byte alone is truncated.
        let output = decode(dir.path(), "riftbound", code);
        assert_error(&output, "");
    }
    assert_error(&decode(dir.path(), "riftbound", "D4"), "version 15");
    assert_error(&decode(dir.path(), "lor", "not a code!"), "not base32");
    assert_error(&decode(dir.path(), "lor", ""), "empty");
    assert_error(&decode(dir.path(), "pokemon", "PTCG1.sv8:76"), "pokemon");
    assert_error(&decode(dir.path(), "chess", "AAAA"), "chess");
}

#[test]
fn bad_decks_print_an_error_and_exit_1() {
    let dir = workdir();
    let lowercase_sp = json!({"main": [{"cardCode": "VEN-sp1", "count": 3}], "sideboard": []});
    assert_error(
        &encode(dir.path(), "riftbound", None, &lowercase_sp),
        "VEN-sp1",
    );
    let zero = json!({"main": [{"cardCode": "01DE001", "count": 0}]});
    assert_error(&encode(dir.path(), "lor", None, &zero), "0 copies");
    let shurima = json!({"main": [{"cardCode": "04SH001", "count": 3}]});
    assert_error(
        &encode(dir.path(), "lor", Some("2"), &shurima),
        "version 2 cannot carry this deck",
    );
    assert_error(
        &encode(dir.path(), "lor", Some("9"), &shurima),
        "version 9 is not supported",
    );
    let output = run_with_stdin(
        dir.path(),
        &["deck", "encode", "--game", "lor"],
        &[],
        "{not json",
    );
    assert_error(&output, "not a deck as JSON");
}
