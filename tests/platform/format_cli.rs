//! `turnier format check` through the real binary: the issue's example (Storm Call under the
//! taboo list autumn from 2026-10-01, Montréal time), the evening before it, and a format that
//! fails to read.

use crate::support;

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};
use support::run_with_stdin;

/// The deck of the issue's example, with the name its example message calls Storm Call by.
const DECK: &str = r#"{"cards": [{"id": "storm-call", "name": "Storm Call", "count": 2}, {"id": "path", "count": 20, "copyLimit": 20}]}"#;

/// Writes the spec's league format, with Storm Call restricted by the taboo list autumn, to
/// `league.json` in `dir`.
fn write_league(dir: &Path) {
    let league = json!({
        "code": "league",
        "name": "League",
        "min_size": 20,
        "max_size": 60,
        "copies": 3,
        "banned": ["old-relic"],
        "restricted": {},
        "taboo_lists": [
            {"code": "autumn", "effective_from": "2026-10-01", "banned": ["night-owl"],
             "restricted": {"storm-call": 1}}
        ]
    });
    std::fs::write(dir.join("league.json"), league.to_string()).expect("format file written");
}

fn check(dir: &Path, at: &str, deck: &str) -> Output {
    run_with_stdin(
        dir,
        &[
            "format",
            "check",
            "--format",
            "league.json",
            "--at",
            at,
            "--json",
        ],
        &[],
        deck,
    )
}

fn stdout_json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "stdout is not JSON ({err}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
fn the_issues_example_prints_the_documented_report_and_exits_0() {
    let dir = tempfile::tempdir().expect("temp dir");
    write_league(dir.path());

    let output = check(dir.path(), "2026-10-02T09:00:00-04:00", DECK);

    assert_eq!(
        stdout_json(&output),
        json!({
            "valid": false,
            "tabooList": {"code": "autumn", "effectiveFrom": "2026-10-01"},
            "cards": {
                "storm-call": {
                    "bannedBy": null,
                    "copyLimit": 1,
                    "restrictedBy": {"kind": "tabooList", "code": "autumn", "effectiveFrom": "2026-10-01"}
                },
                "path": {"bannedBy": null, "copyLimit": 20, "restrictedBy": null}
            },
            "issues": [{
                "code": "too_many_copies",
                "card": "storm-call",
                "message": "Storm Call: at most 1 copy under the taboo list autumn from 2026-10-01 (found 2)."
            }]
        })
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "the check ran; the report says the deck breaks the format"
    );
}

#[test]
fn ten_in_the_evening_in_montreal_on_30_september_is_before_the_taboo_list() {
    let dir = tempfile::tempdir().expect("temp dir");
    write_league(dir.path());

    // 02:00 UTC on 1 October, but still 30 September in Montréal.
    let output = check(dir.path(), "2026-09-30T22:00:00-04:00", DECK);

    let report = stdout_json(&output);
    assert_eq!(report["valid"], true, "{report}");
    assert_eq!(report["tabooList"], Value::Null);
    assert_eq!(report["cards"]["storm-call"]["copyLimit"], 3);
    assert_eq!(report["issues"], json!([]));
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn a_format_that_fails_to_read_prints_invalid_format_and_exits_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("league.json"),
        r#"{"code": "league", "name": "League", "copies": 3, "sideboard": 15}"#,
    )
    .expect("format file written");

    let output = check(dir.path(), "2026-10-02T09:00:00-04:00", DECK);

    assert_eq!(
        stdout_json(&output),
        json!({"error": {
            "code": "invalid_format",
            "message": "invalid format: `sideboard` is not a known key"
        }})
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("`sideboard` is not a known key"),
        "the message goes to stderr too"
    );
}

#[test]
fn a_missing_format_file_a_bad_deck_and_a_bad_moment_exit_2_with_their_codes() {
    let dir = tempfile::tempdir().expect("temp dir");

    let missing = check(dir.path(), "2026-10-02T09:00:00-04:00", DECK);
    assert_eq!(stdout_json(&missing)["error"]["code"], "invalid_format");
    assert_eq!(missing.status.code(), Some(2));

    write_league(dir.path());
    let bad_deck = check(
        dir.path(),
        "2026-10-02T09:00:00-04:00",
        r#"{"cards": [{"id": "path", "count": 0}]}"#,
    );
    assert_eq!(
        stdout_json(&bad_deck),
        json!({"error": {
            "code": "invalid_deck",
            "message": "invalid deck: `cards[0].count` must be from 1 to 100000, found 0"
        }})
    );
    assert_eq!(bad_deck.status.code(), Some(2));

    let bad_moment = check(dir.path(), "2026-10-02", DECK);
    assert_eq!(stdout_json(&bad_moment)["error"]["code"], "invalid_moment");
    assert_eq!(bad_moment.status.code(), Some(2));
}

#[test]
fn without_json_the_report_is_for_people() {
    let dir = tempfile::tempdir().expect("temp dir");
    write_league(dir.path());

    let output = run_with_stdin(
        dir.path(),
        &[
            "format",
            "check",
            "--format",
            "league.json",
            "--at",
            "2026-10-02T09:00:00-04:00",
        ],
        &[],
        DECK,
    );

    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "not valid (taboo list autumn from 2026-10-01): 1 issue\n  too_many_copies: Storm Call: at most 1 copy under the taboo list autumn from 2026-10-01 (found 2).\n"
    );
    assert_eq!(output.status.code(), Some(0));
}
