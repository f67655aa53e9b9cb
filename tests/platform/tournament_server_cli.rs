//! `turnier tournament … --server URL --token T` as an organizer scripts an event on a running
//! platform over gRPC: created from a file, four guests registered, started, paired, every
//! match reported, the standings and the stage's export, each answer the HTTP API's JSON for
//! the same thing; the exported `event.json` gives the offline `turnier tournament standings`
//! the server's standings; and refusals (a create file the shared reader refuses, `advance`
//! before the stage is complete) printed as `{"error"}` with exit 1.

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};

use crate::ownership::{send, session};
use crate::support;
use crate::tournaments_gateway::as_offline;

/// The organizer's command line against one platform.
struct Organizer<'a> {
    dir: &'a Path,
    server: &'a str,
    token: &'a str,
}

impl Organizer<'_> {
    /// Runs `turnier tournament <args> --server … --token …` to completion.
    fn run(&self, args: &[&str]) -> Output {
        let mut full = vec!["tournament"];
        full.extend_from_slice(args);
        full.extend(["--server", self.server, "--token", self.token]);
        support::run(self.dir, &full, &[])
    }

    /// Runs a command that must succeed and returns the one JSON line it printed.
    fn answer(&self, args: &[&str]) -> Value {
        let output = self.run(args);
        assert!(
            output.status.success(),
            "turnier tournament {args:?}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        one_json_line(&output)
    }
}

/// Parses the one JSON line a command printed on stdout.
fn one_json_line(output: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.trim().lines().count(), 1, "one line: {stdout}");
    serde_json::from_str(stdout.trim()).unwrap_or_else(|err| panic!("{err}: {stdout}"))
}

/// The gateway's answer to `GET {api}{path}`, anonymous.
async fn gateway(client: &reqwest::Client, api: &str, path: &str) -> Value {
    let (status, body) = send(client.get(format!("{api}{path}")), None).await;
    assert_eq!(status, 200, "GET {path}: {body}");
    body
}

/// `advance` while round 1 is open: the service's refusal printed as `{"error"}`, its message
/// on stderr too, and exit 1.
fn assert_refused_to_advance_an_incomplete_stage(organizer: &Organizer<'_>, id: &str) {
    let refused = organizer.run(&["advance", id]);
    assert_eq!(refused.status.code(), Some(1));
    let error = one_json_line(&refused);
    assert_eq!(error["error"]["code"], "stage_not_complete", "{error}");
    let message = error["error"]["message"].as_str().expect("a message");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains(message),
        "the message on stderr too"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_organizer_scripts_an_event_to_standings_the_offline_tool_reproduces() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let token = session(&client, api, "org-cli").await;
    let dir = tempfile::tempdir().expect("temp dir");
    let organizer = Organizer {
        dir: dir.path(),
        server: &platform.grpc,
        token: &token,
    };

    // Created from a file holding the HTTP API's body, a seed as text.
    let file = dir.path().join("cup.json");
    let body = json!({
        "name": "CLI Cup",
        "stages": [{"format": "swiss", "settings": {"rounds": 2}}],
        "seed": "18446744073709551615"
    });
    std::fs::write(&file, body.to_string()).expect("the create file");
    let created = organizer.answer(&[
        "create",
        "--game",
        "riftbound",
        "--file",
        file.to_str().expect("a UTF-8 path"),
    ])["tournament"]
        .clone();
    // The API's JSON, not proto3's: the game's name, the seed as text, defaults written out.
    assert_eq!(created["game"], "riftbound");
    assert_eq!(created["seed"], "18446744073709551615");
    assert_eq!(created["state"], "registration");
    assert_eq!(created["currentRound"], 0);
    assert_eq!(created["checkIn"], false);
    assert_eq!(created["stages"][0]["settings"]["rounds"], 2);
    assert!(created.get("createTime").is_some_and(Value::is_string));
    let id = created["id"].as_str().expect("an id").to_owned();
    // A file the shared reader refuses names the file and the member, and creates nothing.
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        json!({"name": "Bad", "stages": [], "seed": "soon"}).to_string(),
    )
    .expect("the bad file");
    let refused = organizer.run(&[
        "create",
        "--game",
        "riftbound",
        "--file",
        bad.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(
        one_json_line(&refused),
        json!({"error": {"code": "invalid_argument", "message": format!(
            "--file: `seed` is a whole number from 0 to {}, not `soon`",
            u64::MAX
        )}})
    );
    let listed = gateway(&client, api, "/riftbound/tournaments").await;
    assert_eq!(
        listed["tournaments"],
        json!([created]),
        "only the good file made one"
    );
    let path = |rest: &str| format!("/tournaments/{id}{rest}");
    let shown = organizer.answer(&["show", &id]);
    assert_eq!(shown, gateway(&client, api, &path("")).await);
    assert_eq!(shown["tournament"], created);

    for n in 1..=4 {
        let name = format!("Guest {n}");
        let registration =
            organizer.answer(&["register", &id, "--guest", &name])["registration"].clone();
        assert_eq!(registration["displayName"], name);
        assert_eq!(registration["state"], "registered");
        assert!(registration.get("account").is_none(), "a guest has none");
    }
    let started = organizer.answer(&["start", &id]);
    assert_eq!(started["tournament"]["state"], "running");
    assert_eq!(started["tournament"]["registered"], 4);

    for number in 1..=2 {
        let round = organizer.answer(&["pair", &id])["round"].clone();
        assert_eq!(round["number"], number);
        assert_eq!(
            json!({"round": round}),
            gateway(&client, api, &path(&format!("/rounds/{number}?stage=1"))).await
        );
        if number == 1 {
            assert_refused_to_advance_an_incomplete_stage(&organizer, &id);
        }
        let matches = round["matches"].as_array().expect("matches");
        assert_eq!(matches.len(), 2, "four players: two matches, no bye");
        for played in matches {
            let match_id = played["id"].as_str().expect("a match id");
            let reported = organizer.answer(&["report", &id, match_id, "2", "1"])["match"].clone();
            assert_eq!(reported["id"], played["id"]);
            // An organizer's report is final.
            assert_eq!(
                reported["result"],
                json!({"games": [2, 1], "state": "final", "corrections": 0})
            );
        }
    }

    let standings = organizer.answer(&["standings", &id]);
    assert_eq!(standings, gateway(&client, api, &path("/standings")).await);
    assert_eq!(standings["stage"], 1);
    let rows = standings["standings"].as_array().expect("rows");
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["record"], json!([2, 0, 0]));
    assert_eq!(
        rows[0]["displayName"]
            .as_str()
            .map(|n| n.starts_with("Guest")),
        Some(true)
    );

    let out_dir = dir.path().join("export");
    let exported = organizer.answer(&[
        "export",
        &id,
        "--stage",
        "1",
        "--out-dir",
        out_dir.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(
        exported,
        gateway(&client, api, &path("/stages/1:export")).await
    );
    let event = std::fs::read_to_string(out_dir.join("event.json")).expect("event.json");
    let stage = std::fs::read_to_string(out_dir.join("stage.json")).expect("stage.json");
    assert_eq!(
        serde_json::from_str::<Value>(&event).ok(),
        Some(exported["event"].clone())
    );
    assert_eq!(
        serde_json::from_str::<Value>(&stage).ok(),
        Some(exported["stage"].clone())
    );

    // `turnier tournament standings < event.json`, offline.
    let offline = support::run_with_stdin(dir.path(), &["tournament", "standings"], &[], &event);
    assert!(
        offline.status.success(),
        "{}",
        String::from_utf8_lossy(&offline.stderr)
    );
    assert_eq!(one_json_line(&offline), as_offline(&standings));
}
