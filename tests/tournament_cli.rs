//! `turnier tournament standings` run as the real binary over the worked-example vectors of
//! `shared/vectors/tournaments/` (`TURNIER_VECTORS_DIR`, else `../shared/vectors` beside the
//! project). A missing vector file fails the test: the vectors are never skipped.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;
use support::run_with_stdin;

fn vectors_dir() -> PathBuf {
    std::env::var_os("TURNIER_VECTORS_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/vectors"),
        PathBuf::from,
    )
}

fn read(name: &str) -> String {
    let path = vectors_dir().join("tournaments").join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read vector file {}: {e}", path.display()))
}

fn workdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary folder")
}

/// Parses the one JSON line the command printed on stdout.
fn stdout_json(output: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.trim().lines().count(),
        1,
        "one line on stdout: {stdout}"
    );
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON value ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn standings(event: &str) -> Output {
    let dir = workdir();
    run_with_stdin(dir.path(), &["tournament", "standings"], &[], event)
}

#[test]
fn prints_the_standings_of_every_worked_example() {
    for example in [
        "worked-example",
        "worked-example-pokemon-defaults",
        "worked-example-riftbound-defaults",
    ] {
        let output = standings(&read(&format!("{example}.event.json")));
        assert!(
            output.status.success(),
            "{example}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let expected: Value = serde_json::from_str(&read(&format!("{example}.standings.json")))
            .expect("the vector is JSON");
        assert_eq!(stdout_json(&output), expected, "{example}");
    }
}

#[test]
fn refuses_an_event_naming_the_setting_at_fault() {
    let mut event: Value =
        serde_json::from_str(&read("worked-example.event.json")).expect("the vector is JSON");
    event["settings"]["opponent_match_win_floor"] = 25.into();
    let output = standings(&event.to_string());
    assert_eq!(output.status.code(), Some(1));
    let json = stdout_json(&output);
    assert_eq!(json["error"]["code"], "invalid_event");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("`opponent_match_win_floor`"), "{stderr}");
}

#[test]
fn refuses_input_that_is_not_an_event() {
    let output = standings("{\"players\": []}");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout_json(&output)["error"]["code"], "invalid_event");
}
