//! `turnier tournament standings` run as the real binary over the worked-example vectors of
//! `shared/vectors/tournaments/` (`kit::testing::shared`: `TURNIER_SHARED_DIR`, else `../shared` beside the
//! project). A missing vector file fails the test: the vectors are never skipped.

use crate::support;

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;
use support::run_with_stdin;

fn vectors_dir() -> PathBuf {
    kit::testing::shared::vectors_dir()
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

fn pair(event: &str, stage: Option<&str>) -> Output {
    let dir = workdir();
    let mut args = vec!["tournament", "pair"];
    if let Some(stage) = stage {
        args.extend(["--stage", stage]);
    }
    run_with_stdin(dir.path(), &args, &[], event)
}

fn players_of(pairing: &Value) -> Vec<String> {
    pairing["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p.as_str().expect("an id").to_owned())
        .collect()
}

#[test]
fn pairs_the_next_swiss_round_of_the_worked_example() {
    let event = read("worked-example.event.json");
    let output = pair(&event, Some(r#"{"format": "swiss", "seed": 3}"#));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let next = stdout_json(&output);
    assert_eq!(next["format"], "swiss");
    assert_eq!(next["round"], 4);
    assert_eq!(next["has_rematch"], false);
    let pairings = next["pairings"].as_array().expect("pairings");
    let mut everyone: Vec<String> = pairings.iter().flat_map(players_of).collect();
    everyone.sort();
    assert_eq!(
        everyone,
        ["Ana", "Ben", "Cam", "Dee", "Eli"],
        "each player once"
    );
    // Eli, Dee and Ben have had byes: the lowest-ranked player without one (Cam, below Ana)
    // sits out.
    let bye: Vec<&Value> = pairings.iter().filter(|p| p["bye"] == true).collect();
    assert_eq!(bye.len(), 1);
    assert_eq!(players_of(bye[0]), ["Cam"]);

    // The same config as the input's "stage" member gives the same round.
    let mut with_stage: Value = serde_json::from_str(&event).expect("JSON");
    with_stage["stage"] = serde_json::json!({"format": "swiss", "seed": 3});
    let again = pair(&with_stage.to_string(), None);
    assert_eq!(stdout_json(&again), next);
}

#[test]
fn pairs_a_top_cut_seeded_by_the_prior_stage() {
    // The worked example's standings, cut to a top 4: 1st meets 4th, 2nd meets 3rd.
    let standings = stdout_json(&standings(&read("worked-example.event.json")));
    let order: Vec<Value> = standings["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .take(4)
        .map(|row| row["player"].clone())
        .collect();
    let players: Vec<Value> = order
        .iter()
        .enumerate()
        .map(|(at, id)| serde_json::json!({"id": id, "seed": at + 1}))
        .collect();
    let mut cut: Value = serde_json::from_str(&read("worked-example.event.json")).expect("JSON");
    cut["players"] = Value::Array(players);
    cut["rounds"] = Value::Array(Vec::new());
    let stage = serde_json::json!({"format": "single_elimination", "prior_stage": order});
    let output = pair(&cut.to_string(), Some(&stage.to_string()));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let next = stdout_json(&output);
    let pairs: Vec<Vec<String>> = next["pairings"]
        .as_array()
        .expect("pairings")
        .iter()
        .map(players_of)
        .collect();
    assert_eq!(pairs, [["Ana", "Dee"], ["Cam", "Eli"]]);
    assert_eq!(next["pairings"][0]["label"], "round 1 match 1");
}

#[test]
fn scores_the_free_for_all_threshold_example_and_forms_the_next_lobby() {
    let players = serde_json::json!([{"id": "Ana", "seed": 1}, {"id": "Ben", "seed": 2},
                                     {"id": "Cam", "seed": 3}, {"id": "Dee", "seed": 4}]);
    let lobby = serde_json::json!(["Ana", "Ben", "Cam", "Dee"]);
    let finishes = [[1, 2, 3, 4], [2, 1, 3, 4], [2, 3, 1, 4], [2, 1, 3, 4]];
    let event = |played: usize| {
        let matches: Vec<Value> = finishes[..played]
            .iter()
            .map(|finish| serde_json::json!([{"lobby": lobby, "finish": finish}]))
            .collect();
        // Settings left out take Riftbound's free-for-all defaults.
        serde_json::json!({"format": "threshold_win", "players": players, "matches": matches})
            .to_string()
    };
    let after_three = stdout_json(&standings(&event(3)));
    assert_eq!(
        after_three["lobbies"][0]["winner"],
        Value::Null,
        "no winner yet"
    );
    assert_eq!(after_three["standings"][0]["player"], "Ana");
    assert_eq!(after_three["standings"][0]["points"], 7.0);

    let next = stdout_json(&pair(&event(3), None));
    assert_eq!(next["match"], 4);
    assert_eq!(next["lobbies"][0]["players"], lobby);

    let after_four = stdout_json(&standings(&event(4)));
    let winner = &after_four["lobbies"][0]["winner"];
    assert_eq!(winner["player"], "Ben");
    assert_eq!(winner["match_number"], 4);
    assert_eq!(winner["points"], 9.0);
}

#[test]
fn refuses_a_missing_or_misspelt_stage_config() {
    let event = read("worked-example.event.json");
    for (stage, needle) in [
        (None, "no stage config"),
        (
            Some(r#"{"format": "swiss", "round": 2}"#),
            "unknown field `round`",
        ),
        (Some(r#"{"format": "knockout"}"#), "setting `format`"),
        (Some("/no/such/stage.json"), "cannot read the stage config"),
    ] {
        let output = pair(&event, stage);
        assert_eq!(output.status.code(), Some(1), "{stage:?}");
        let json = stdout_json(&output);
        assert_eq!(json["error"]["code"], "invalid_stage", "{stage:?}");
        let message = json["error"]["message"].as_str().expect("a message");
        assert!(message.contains(needle), "{stage:?}: {message}");
    }
    // A stage that has played all its rounds cannot be paired.
    let output = pair(&event, Some(r#"{"format": "swiss", "rounds": 3}"#));
    assert_eq!(stdout_json(&output)["error"]["code"], "cannot_pair");
}

#[test]
fn reads_the_stage_config_from_a_file_as_from_inline_json() {
    let event = read("worked-example.event.json");
    let dir = workdir();
    let path = dir.path().join("stage.json");
    let stage = r#"{"format": "swiss", "seed": 3, "pairing_style": "fold"}"#;
    std::fs::write(&path, stage).expect("a stage file");
    let from_file = pair(&event, Some(path.to_str().expect("a UTF-8 path")));
    assert!(
        from_file.status.success(),
        "{}",
        String::from_utf8_lossy(&from_file.stderr)
    );
    assert_eq!(
        stdout_json(&from_file),
        stdout_json(&pair(&event, Some(stage)))
    );
}

#[test]
fn refuses_bad_bracket_and_round_robin_settings_naming_them() {
    let event = read("worked-example.event.json");
    for (stage, code, needle) in [
        (
            r#"{"format": "double_elimination", "third_place_match": true}"#,
            "invalid_stage",
            "the stage config is refused: setting `third_place_match` only applies to single elimination",
        ),
        (
            r#"{"format": "single_elimination", "early_cutoff": "top 8"}"#,
            "invalid_stage",
            "setting `early_cutoff` is the number of top placements to decide",
        ),
        (
            r#"{"format": "round_robin", "grouping": {"teams": 2}}"#,
            "invalid_stage",
            "setting `grouping` is {\"groups\": n} or {\"players_per_group\": n}",
        ),
        (
            r#"{"format": "round_robin", "tiebreakers": []}"#,
            "invalid_stage",
            "setting `tiebreakers` comes from the event's `settings`",
        ),
        (
            r#"{"format": "cumulative_points"}"#,
            "invalid_stage",
            "a free-for-all format",
        ),
        // Five players do not fill a bracket without byes.
        (
            r#"{"format": "single_elimination"}"#,
            "cannot_pair",
            "setting `allow_byes` is off",
        ),
    ] {
        let output = pair(&event, Some(stage));
        assert_eq!(output.status.code(), Some(1), "{stage}");
        let json = stdout_json(&output);
        assert_eq!(json["error"]["code"], code, "{stage}");
        let message = json["error"]["message"].as_str().expect("a message");
        assert!(message.contains(needle), "{stage}: {message}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(needle), "{stage}: {stderr}");
    }
}

#[test]
fn a_free_for_all_stage_config_only_gives_the_seed() {
    let players: Vec<Value> = (1..=8)
        .map(|seed| serde_json::json!({"id": format!("p{seed}"), "seed": seed}))
        .collect();
    let event = serde_json::json!({"format": "cumulative_points", "players": players,
        "matches": [], "settings": {"lobby_seeding": "random", "reshuffle_lobbies": true}})
    .to_string();
    let seeded = stdout_json(&pair(&event, Some(r#"{"seed": 7}"#)));
    assert_eq!(seeded["match"], 1);
    // The format is the event's, and the config's other members are not read.
    let again = pair(
        &event,
        Some(r#"{"seed": 7, "format": "cumulative_points", "rounds": 9}"#),
    );
    assert_eq!(stdout_json(&again), seeded);
    let refused = pair(&event, Some(r#"{"seed": "seven"}"#));
    let json = stdout_json(&refused);
    assert_eq!(json["error"]["code"], "invalid_stage");
    let message = json["error"]["message"].as_str().expect("a message");
    assert!(
        message.contains("setting `seed` must be a whole number"),
        "{message}"
    );
}

#[test]
fn a_closed_stdout_ends_the_command_quietly_instead_of_panicking() {
    use std::io::Write as _;
    use std::process::Stdio;

    let dir = workdir();
    let mut child = support::turnier()
        .current_dir(dir.path())
        .args(["tournament", "standings"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("turnier starts");
    // The reader goes away before anything is written (`turnier … | head -c0`).
    drop(child.stdout.take());
    child
        .stdin
        .take()
        .expect("a stdin")
        .write_all(read("worked-example.event.json").as_bytes())
        .expect("the event is written");
    let output = child.wait_with_output().expect("turnier exits");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
}
