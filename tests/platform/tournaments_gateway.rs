//! Tournaments through the gateway of the all-in-one process: a whole event for each game's
//! defaults (Swiss with a bye, a late entrant and a drop, then a top 8 by placement to a
//! winner), its standings and pairings reproduced by the offline tool from the exported stage;
//! the guide's worked example played through the service; results reported, confirmed and
//! disputed (an organizer who plays reports as a player); the live event stream across a round
//! and resumed, and its cap per account and address; a crash (SIGKILL) mid-round; the engine's
//! refusals and the bounds of settings; and the ownership matrix.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::ownership::{Callers, Who, send, session};
use crate::support;

/// The organizer's view of one tournament on a running platform.
struct Event<'a> {
    api: &'a str,
    client: reqwest::Client,
    organizer: String,
    id: String,
}

impl<'a> Event<'a> {
    /// The organizer's view of `tournament` (as created) on the platform at `api`.
    fn of(api: &'a str, client: &reqwest::Client, organizer: &str, tournament: &Value) -> Self {
        Event {
            api,
            client: client.clone(),
            organizer: organizer.to_owned(),
            id: tournament["id"].as_str().expect("an id").to_owned(),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}/tournaments/{}{path}", self.api, self.id)
    }

    async fn post(&self, path: &str, token: &str, body: Value) -> (u16, Value) {
        send(self.client.post(self.url(path)).json(&body), Some(token)).await
    }

    async fn get(&self, path: &str) -> Value {
        let (status, body) = send(self.client.get(self.url(path)), None).await;
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }

    /// Adds a guest by name; returns the registration id.
    async fn guest(&self, name: &str) -> String {
        let (status, body) = self
            .post(
                "/registrations",
                &self.organizer,
                json!({"displayName": name}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        body["registration"]["id"]
            .as_str()
            .expect("an id")
            .to_owned()
    }

    async fn pair(&self) -> Value {
        let (status, body) = self.post("/rounds", &self.organizer, json!({})).await;
        assert_eq!(status, 201, "pairing: {body}");
        body["round"].clone()
    }

    async fn report(&self, token: &str, match_id: &str, games: [u32; 2]) -> Value {
        let (status, body) = self
            .post(
                &format!("/matches/{match_id}:report"),
                token,
                json!({"games": games}),
            )
            .await;
        assert_eq!(status, 200, "reporting {match_id}: {body}");
        body["match"].clone()
    }

    /// The organizer enters every open match of `round`: the lower registration number wins.
    async fn enter_all(&self, round: &Value) {
        for played in round["matches"].as_array().expect("matches") {
            if played["bye"] == true || played["result"]["state"] == "final" {
                continue;
            }
            let players = played["players"].as_array().expect("players");
            let number = |at: usize| {
                players[at].as_str().expect("an id")[1..]
                    .parse::<u32>()
                    .expect("r<n>")
            };
            let games = if number(0) < number(1) {
                [2, 0]
            } else {
                [0, 2]
            };
            self.report(&self.organizer, played["id"].as_str().expect("id"), games)
                .await;
        }
    }
}

async fn create(
    client: &reqwest::Client,
    api: &str,
    game: &str,
    token: &str,
    body: Value,
) -> Value {
    let (status, body) = send(
        client.post(format!("{api}/{game}/tournaments")).json(&body),
        Some(token),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    body["tournament"].clone()
}

/// The offline tool's answer to `args` with `stdin`.
fn offline(args: &[&str], stdin: &str) -> Value {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = support::run_with_stdin(dir.path(), args, &[], stdin);
    assert!(
        output.status.success(),
        "turnier {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON on stdout")
}

/// The service's standings in the offline tool's shape (`player` the registration id).
pub(crate) fn as_offline(standings: &Value) -> Value {
    let rows: Vec<Value> = standings["standings"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            json!({
                "rank": row["rank"],
                "player": row["player"],
                "points": row["points"],
                "record": row["record"],
                "tiebreakers": row["tiebreakers"],
                "match_win_percentage": row["matchWinPercentage"],
            })
        })
        .collect();
    json!({"standings": rows})
}

/// Pairs as sets of players, for comparing the service's round with the offline tool's.
fn pairs(matches: &[Value]) -> Vec<(Vec<String>, bool)> {
    let mut pairs: Vec<(Vec<String>, bool)> = matches
        .iter()
        .map(|m| {
            let players = m["players"]
                .as_array()
                .expect("players")
                .iter()
                .map(|p| p.as_str().expect("id").to_owned())
                .collect();
            (players, m["bye"] == true)
        })
        .collect();
    pairs.sort();
    pairs
}

async fn a_whole_event(game: &str) {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let organizer = session(&client, api, &format!("org-{game}")).await;
    let player = session(&client, api, &format!("ana-{game}")).await;
    let tournament = create(
        &client,
        api,
        game,
        &organizer,
        json!({
            "name": "Store championship",
            "stages": [
                {"format": "swiss", "settings": {"rounds": 4, "late_entry_through_round": 2}},
                {"format": "single_elimination"}
            ],
            "advancement": [{"fromStage": 1, "placements": [1, 8], "action": "advance", "toStage": 2}],
            "seed": 2026
        }),
    )
    .await;
    // Every setting is filled in from the game's defaults.
    let swiss = &tournament["stages"][0]["settings"];
    assert_eq!(swiss["rounds"], 4);
    assert_eq!(swiss["late_entry_through_round"], 2);
    for setting in [
        "pairing_style",
        "prevent_repeat_matchups",
        "points",
        "bye_handling",
        "tiebreakers",
        "first_round_seeding",
        "round_minutes",
    ] {
        assert!(!swiss[setting].is_null(), "{setting} in {swiss}");
    }
    assert_eq!(tournament["stages"][1]["format"], "single_elimination");
    assert_eq!(
        tournament["stages"][1]["settings"]["seeding"],
        "prior_stage"
    );
    assert_eq!(tournament["state"], "registration");
    let event = Event::of(api, &client, &organizer, &tournament);
    // One account signs itself up; the rest are walk-ins the organizer adds by name.
    let (status, mine) = event.post("/registrations", &player, json!({})).await;
    assert_eq!(status, 201, "{mine}");
    assert_eq!(mine["registration"]["state"], "registered");
    assert_eq!(mine["registration"]["displayName"], format!("ana-{game}"));
    let (status, again) = event.post("/registrations", &player, json!({})).await;
    assert_eq!(status, 409, "{again}");
    for n in 2..=11 {
        event.guest(&format!("Guest {n}")).await;
    }
    let (status, started) = event.post(":start", &organizer, json!({})).await;
    assert_eq!(status, 200, "{started}");
    assert_eq!(started["tournament"]["state"], "running");

    for round_number in 1..=4 {
        if round_number > 1 {
            // The offline tool pairs the exported stage exactly as the service is about to.
            let export = event.get("/stages/1:export").await;
            let expected = offline(
                &[
                    "tournament",
                    "pair",
                    "--stage",
                    &export["stage"].to_string(),
                ],
                &export["event"].to_string(),
            );
            let round = event.pair().await;
            assert_eq!(round["number"], round_number);
            assert_eq!(
                pairs(round["matches"].as_array().expect("matches")),
                pairs(expected["pairings"].as_array().expect("pairings")),
                "round {round_number}"
            );
        } else {
            let round = event.pair().await;
            let matches = round["matches"].as_array().expect("matches");
            assert_eq!(matches.len(), 6, "11 players: 5 matches and a bye");
            assert_eq!(matches.iter().filter(|m| m["bye"] == true).count(), 1);
            let mut tables: Vec<u64> = matches.iter().filter_map(|m| m["table"].as_u64()).collect();
            tables.sort_unstable();
            assert_eq!(tables, [1, 2, 3, 4, 5]);
            // The next round waits for every result.
            let (status, body) = event.post("/rounds", &organizer, json!({})).await;
            assert_eq!(status, 409, "{body}");
            assert_eq!(body["error"]["code"], "round_not_complete");
            // The account reports its own match; the organizer makes it final.
            let own = matches
                .iter()
                .find(|m| {
                    m["players"]
                        .as_array()
                        .is_some_and(|p| p.contains(&json!("r1")))
                })
                .expect("r1 plays or sits out");
            if own["bye"] != true {
                let side = usize::from(own["players"][0] != "r1");
                let mut games = [0, 2];
                games[side] = 2;
                games[1 - side] = 1;
                let reported = event
                    .report(&player, own["id"].as_str().expect("id"), games)
                    .await;
                assert_eq!(reported["result"]["state"], "reported");
            }
        }
        let round = event.get(&format!("/rounds/{round_number}?stage=1")).await["round"].clone();
        event.enter_all(&round).await;
        if round_number == 1 {
            // Late entry after round 1: a loss for round 1, paired from round 2.
            let late = event.guest("Late Lou").await;
            let first = event.get("/rounds/1?stage=1").await;
            assert_eq!(first["round"]["lateLosses"], json!([late]));
        }
        if round_number == 2 {
            let (status, dropped) = event
                .post("/registrations/r5:drop", &organizer, json!({}))
                .await;
            assert_eq!(status, 200, "{dropped}");
            assert_eq!(dropped["registration"]["state"], "dropped");
        }
    }
    let round_four = event.get("/rounds/4?stage=1").await;
    assert!(
        !round_four.to_string().contains("\"r5\""),
        "a dropped player is not paired"
    );
    // The service's standings are the offline tool's on the exported file.
    let standings = event.get("/standings?stage=1").await;
    let export = event.get("/stages/1:export").await;
    let offline_standings = offline(&["tournament", "standings"], &export["event"].to_string());
    assert_eq!(as_offline(&standings), offline_standings);
    assert_eq!(standings["standings"].as_array().map(Vec::len), Some(12));
    let (status, done) = event.post("/rounds", &organizer, json!({})).await;
    assert_eq!(status, 409, "{done}");

    // The top 8 by placement: 1v8, 2v7, … of the Swiss standings without the dropped player.
    let (status, advanced) = event.post(":advance", &organizer, json!({})).await;
    assert_eq!(status, 200, "{advanced}");
    assert_eq!(advanced["tournament"]["currentStage"], 2);
    assert_eq!(advanced["tournament"]["stages"][0]["state"], "complete");
    let top8: Vec<String> = standings["standings"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|row| row["player"] != "r5")
        .take(8)
        .map(|row| row["player"].as_str().expect("id").to_owned())
        .collect();
    let quarterfinals = event.pair().await;
    let place: HashMap<&str, usize> = top8
        .iter()
        .enumerate()
        .map(|(at, p)| (p.as_str(), at + 1))
        .collect();
    for played in quarterfinals["matches"].as_array().expect("matches") {
        let sum: usize = played["players"]
            .as_array()
            .expect("players")
            .iter()
            .map(|p| place[p.as_str().expect("id")])
            .sum();
        assert_eq!(sum, 9, "{played}");
        assert!(played["label"].is_string(), "{played}");
    }
    // Better seed (players[0]) wins every bracket match, to a winner.
    let mut round = quarterfinals;
    loop {
        for played in round["matches"].as_array().expect("matches") {
            event
                .report(&organizer, played["id"].as_str().expect("id"), [2, 1])
                .await;
        }
        let (status, body) = event.post("/rounds", &organizer, json!({})).await;
        if status == 409 {
            assert_eq!(body["error"]["code"], "stage_complete", "{body}");
            break;
        }
        assert_eq!(status, 201, "{body}");
        round = body["round"].clone();
    }
    let (status, finished) = event.post(":advance", &organizer, json!({})).await;
    assert_eq!(status, 200, "{finished}");
    assert_eq!(finished["tournament"]["state"], "finished");
    let placements = finished["tournament"]["placements"]
        .as_array()
        .expect("placements");
    assert_eq!(placements.len(), 12);
    assert_eq!(placements[0], json!(top8[0]), "Swiss 1st wins every match");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_whole_lor_event_from_registration_to_a_winner() {
    a_whole_event("lor").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_whole_pokemon_event_from_registration_to_a_winner() {
    a_whole_event("pokemon").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_whole_riftbound_event_from_registration_to_a_winner() {
    a_whole_event("riftbound").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_guides_worked_example_played_through_the_service_gives_its_tables() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let organizer = session(&client, api, "worked-example").await;
    let vector: Value = serde_json::from_str(&kit::testing::shared::read(
        "vectors/tournaments/worked-example.event.json",
    ))
    .expect("the vector");
    let settings = &vector["settings"];
    let tournament = create(
        &client,
        api,
        "lor",
        &organizer,
        json!({
            "name": "Worked example",
            "stages": [{"format": "swiss", "settings": {
                "rounds": 3, "allow_draws": true,
                "points": settings["points"], "bye_handling": settings["bye_handling"],
                "tiebreakers": settings["tiebreakers"]
            }}]
        }),
    )
    .await;
    let event = Event::of(api, &client, &organizer, &tournament);
    let mut ids = HashMap::new();
    for name in ["Ana", "Ben", "Cam", "Dee", "Eli"] {
        ids.insert(name, event.guest(name).await);
    }
    let (status, _) = event.post(":start", &organizer, json!({})).await;
    assert_eq!(status, 200);
    // The page's rounds, entered as the organizer's pairings, and its scores.
    let rounds = [
        [
            (["Ana", "Ben"].as_slice(), [2, 0]),
            (["Cam", "Dee"].as_slice(), [2, 1]),
            (["Eli"].as_slice(), [0, 0]),
        ],
        [
            (["Ana", "Cam"].as_slice(), [2, 1]),
            (["Eli", "Ben"].as_slice(), [2, 0]),
            (["Dee"].as_slice(), [0, 0]),
        ],
        [
            (["Ana", "Dee"].as_slice(), [1, 1]),
            (["Cam", "Eli"].as_slice(), [2, 0]),
            (["Ben"].as_slice(), [0, 0]),
        ],
    ];
    for round in rounds {
        let pairings: Vec<Value> = round
            .iter()
            .map(|(names, _)| json!({"players": names.iter().map(|n| &ids[n]).collect::<Vec<_>>()}))
            .collect();
        let (status, paired) = event
            .post("/rounds", &organizer, json!({"pairings": pairings}))
            .await;
        assert_eq!(status, 201, "{paired}");
        let matches = paired["round"]["matches"]
            .as_array()
            .expect("matches")
            .clone();
        assert_eq!(matches[0]["table"], 1);
        assert_eq!(matches[1]["table"], 2);
        assert_eq!(matches[2]["bye"], true);
        for (played, (_, games)) in matches.iter().zip(round) {
            if played["bye"] != true {
                let answer = event
                    .report(&organizer, played["id"].as_str().expect("id"), games)
                    .await;
                assert_eq!(answer["result"]["state"], "final");
            }
        }
    }
    let names: HashMap<String, &str> = ids.iter().map(|(name, id)| (id.clone(), *name)).collect();
    let mut standings = as_offline(&event.get("/standings").await);
    for row in standings["standings"].as_array_mut().expect("rows") {
        let id = row["player"].as_str().expect("id").to_owned();
        row["player"] = json!(names[&id]);
    }
    let expected: Value = serde_json::from_str(&kit::testing::shared::read(
        "vectors/tournaments/worked-example.standings.json",
    ))
    .expect("the vector");
    assert_eq!(standings, expected);
}

#[tokio::test(flavor = "multi_thread")]
async fn players_report_and_confirm_and_a_contradiction_goes_to_the_organizer() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let organizer = session(&client, api, "confirm-org").await;
    let ana = session(&client, api, "confirm-ana").await;
    let ben = session(&client, api, "confirm-ben").await;
    let cy = session(&client, api, "confirm-cy").await;
    let tournament = create(
        &client,
        api,
        "riftbound",
        &organizer,
        json!({"name": "Confirm", "stages": [{"format": "swiss", "settings": {"rounds": 2}}]}),
    )
    .await;
    let event = Event::of(api, &client, &organizer, &tournament);
    let mut token_of = HashMap::new();
    for token in [&ana, &ben, &cy] {
        let (status, body) = event.post("/registrations", token, json!({})).await;
        assert_eq!(status, 201, "{body}");
        token_of.insert(
            body["registration"]["id"].as_str().expect("id").to_owned(),
            token.clone(),
        );
    }
    event.guest("Dee").await;
    event.post(":start", &organizer, json!({})).await;
    let round = event.pair().await;
    let matches = round["matches"].as_array().expect("matches");
    let both_accounts = matches
        .iter()
        .find(|m| {
            m["players"]
                .as_array()
                .expect("players")
                .iter()
                .all(|p| token_of.contains_key(p.as_str().expect("id")))
        })
        .expect("with 3 accounts of 4 players, one match is between two accounts");
    let other = matches
        .iter()
        .find(|m| m["id"] != both_accounts["id"])
        .expect("another match");
    let id = both_accounts["id"].as_str().expect("id");
    let first = &token_of[both_accounts["players"][0].as_str().expect("id")];
    let second = &token_of[both_accounts["players"][1].as_str().expect("id")];
    // Someone else's match: 403.
    let outsider = other["players"]
        .as_array()
        .expect("players")
        .iter()
        .find_map(|p| token_of.get(p.as_str().expect("id")))
        .expect("the third account plays the other match");
    let (status, body) = event
        .post(
            &format!("/matches/{id}:report"),
            outsider,
            json!({"games": [2, 0]}),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(
        event.report(first, id, [2, 1]).await["result"]["state"],
        "reported"
    );
    assert_eq!(
        event.report(second, id, [1, 2]).await["result"]["state"],
        "disputed"
    );
    assert_eq!(
        event.report(first, id, [1, 2]).await["result"]["state"],
        "confirmed"
    );
    let (status, body) = event
        .post(
            &format!("/matches/{id}:report"),
            second,
            json!({"games": [2, 0]}),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    let corrected = event.report(&organizer, id, [2, 0]).await;
    assert_eq!(corrected["result"]["state"], "final");
    assert_eq!(corrected["result"]["games"], json!([2, 0]));
    let (status, body) = event
        .post(
            &format!("/matches/{id}:report"),
            &organizer,
            json!({"games": [2]}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_organizer_who_plays_needs_the_opponents_confirmation_and_another_organizers_entry_is_final()
 {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let organizer = session(&client, api, "playing-org").await;
    let ana = session(&client, api, "playing-ana").await;
    let judge = session(&client, api, "playing-judge").await;
    let tournament = create(
        &client,
        api,
        "lor",
        &organizer,
        json!({"name": "Kitchen table", "stages": [{"format": "swiss", "settings": {"rounds": 2}}]}),
    )
    .await;
    let event = Event::of(api, &client, &organizer, &tournament);
    for token in [&organizer, &ana] {
        let (status, body) = event.post("/registrations", token, json!({})).await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = event.post(":start", &organizer, json!({})).await;
    assert_eq!(status, 200, "{body}");
    let round = event.pair().await;
    let played = &round["matches"][0];
    let id = played["id"].as_str().expect("one match");
    // Games as the organizer (registered first, `r1`) won and lost them, in `players` order.
    let organizer_first = played["players"][0] == "r1";
    let games = |won: u32, lost: u32| {
        if organizer_first {
            [won, lost]
        } else {
            [lost, won]
        }
    };
    // The organizer's report of their own match waits for the opponent (it was final).
    let reported = event.report(&organizer, id, games(2, 0)).await;
    assert_eq!(reported["result"]["state"], "reported", "{reported}");
    // The opponent disagrees: disputed, not overruled by the organizer who plays.
    let disputed = event.report(&ana, id, games(0, 2)).await;
    assert_eq!(disputed["result"]["state"], "disputed", "{disputed}");
    let agreed = event.report(&organizer, id, games(0, 2)).await;
    assert_eq!(agreed["result"]["state"], "confirmed", "{agreed}");
    // Decided: the organizer who plays may not change it any more, as any player.
    let (status, body) = event
        .post(
            &format!("/matches/{id}:report"),
            &organizer,
            json!({"games": games(2, 0)}),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["code"], "result_decided");
    // A co-organizer who does not play it enters a correction: final.
    let (status, body) = event
        .post(
            "/organizers",
            &organizer,
            json!({"username": "playing-judge"}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let corrected = event.report(&judge, id, [2, 1]).await;
    assert_eq!(corrected["result"]["state"], "final", "{corrected}");
    assert_eq!(corrected["result"]["games"], json!([2, 1]));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stage_number_below_1_and_a_setting_past_its_bound_are_400s_naming_them() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let organizer = session(&client, api, "bounds-org").await;
    for (game, stage, named) in [
        (
            "lor",
            json!({"format": "swiss", "settings": {"rounds": 1_000_000}}),
            "setting `rounds` must be at most 64, not 1000000",
        ),
        (
            "pokemon",
            json!({"format": "round_robin", "settings": {"grouping": {"groups": 100_000}}}),
            "setting `grouping.groups` must be at most 4096",
        ),
        (
            "riftbound",
            json!({"format": "cumulative_points", "settings": {"matches": 1_000_000}}),
            "setting `matches` must be at most 64",
        ),
    ] {
        let (status, body) = send(
            client
                .post(format!("{api}/{game}/tournaments"))
                .json(&json!({"name": "Endless", "stages": [stage]})),
            Some(&organizer),
        )
        .await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["error"]["code"], "invalid_argument", "{body}");
        assert_eq!(
            body["error"]["details"]["field"], "stages[0].settings",
            "{body}"
        );
        assert!(
            body["error"]["message"]
                .as_str()
                .is_some_and(|message| message.contains(named)),
            "{named}: {body}"
        );
    }
    let (status, body) = send(
        client.post(format!("{api}/lor/tournaments")).json(
            &json!({"name": "Huge", "stages": [{"format": "swiss"}], "maxParticipants": 1_000_000}),
        ),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body.to_string().contains("maxParticipants"), "{body}");
    // A stage's export names a stage from 1: 0 is not "the current stage" (it was).
    let tournament = create(
        &client,
        api,
        "lor",
        &organizer,
        json!({"name": "Export", "stages": [{"format": "swiss", "settings": {"rounds": 64}}]}),
    )
    .await;
    let event = Event::of(api, &client, &organizer, &tournament);
    for stage in ["0", "-1", "-99999999999"] {
        let (status, body) = send(
            client.get(event.url(&format!("/stages/{stage}:export"))),
            None,
        )
        .await;
        assert_eq!(status, 400, "stage {stage}: {body}");
        assert_eq!(body["error"]["code"], "invalid_argument", "{body}");
    }
    let (status, body) = send(client.get(event.url("/stages/2:export")), None).await;
    assert_eq!(status, 404, "{body}");
    event.get("/stages/1:export").await;
}

/// Opens the live event stream at `url` with `token` (`None`: anonymous) and returns the
/// response, whatever its status.
async fn open_stream(
    client: &reqwest::Client,
    url: &str,
    token: Option<&str>,
) -> reqwest::Response {
    let request = client.get(url);
    let request = match token {
        Some(token) => request.bearer_auth(token),
        None => request,
    };
    request.send().await.expect("the gateway answers")
}

/// Asserts that `response` is the refusal of a stream over the cap.
async fn assert_too_many_streams(response: reqwest::Response, whom: &str) {
    assert_eq!(response.status().as_u16(), 429, "{whom}");
    let body: Value = response.json().await.expect("the error shape");
    assert_eq!(body["error"]["code"], "resource_exhausted", "{body}");
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("too many live event streams") && message.contains(whom),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn event_streams_are_capped_per_account_and_per_address_over_http_and_grpc() {
    use proto::tournaments::v1::WatchTournamentRequest;
    use proto::tournaments::v1::tournament_service_client::TournamentServiceClient;

    let platform = support::SamplePlatform::start_with(&[
        ("TURNIER_EVENT_STREAMS_PER_ACCOUNT", "3"),
        ("TURNIER_EVENT_STREAMS_PER_ADDRESS", "2"),
    ])
    .await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let ana = session(&client, api, "streams-ana").await;
    let tournament = create(
        &client,
        api,
        "lor",
        &ana,
        json!({"name": "Watched", "stages": [{"format": "swiss"}]}),
    )
    .await;
    let url = format!(
        "{api}/tournaments/{}/events",
        tournament["id"].as_str().expect("id")
    );

    // An anonymous address: 2 streams, the third refused.
    let mut anonymous = Vec::new();
    for _ in 0..2 {
        let response = open_stream(&client, &url, None).await;
        assert_eq!(response.status().as_u16(), 200);
        anonymous.push(response);
    }
    assert_too_many_streams(open_stream(&client, &url, None).await, "address").await;
    // The service counts the gRPC stream the gateway reads: a third party calling it
    // directly from the same address is the same caller.
    let channel = tonic::transport::Endpoint::from_shared(platform.grpc.clone())
        .expect("a URL")
        .connect()
        .await
        .expect("connects");
    let mut grpc = TournamentServiceClient::new(channel);
    let watch = |token: Option<&str>| {
        let mut request = tonic::Request::new(WatchTournamentRequest {
            id: tournament["id"].as_str().expect("id").to_owned(),
            after_seq: 0,
        });
        if let Some(token) = token {
            request.metadata_mut().insert(
                "authorization",
                format!("Bearer {token}").parse().expect("ASCII"),
            );
        }
        request
    };
    let refused = grpc
        .watch_tournament(watch(None))
        .await
        .expect_err("the address holds its cap");
    assert_eq!(
        refused.code(),
        tonic::Code::ResourceExhausted,
        "{refused:?}"
    );

    // A signed-in account is counted on its own, whatever its address: 3 streams, over
    // HTTP and gRPC together, then refused on both.
    let mut held = Vec::new();
    for _ in 0..2 {
        let response = open_stream(&client, &url, Some(&ana)).await;
        assert_eq!(response.status().as_u16(), 200);
        held.push(response);
    }
    let over_grpc = grpc
        .watch_tournament(watch(Some(&ana)))
        .await
        .expect("the account's third stream")
        .into_inner();
    assert_too_many_streams(open_stream(&client, &url, Some(&ana)).await, "account").await;
    let refused = grpc
        .watch_tournament(watch(Some(&ana)))
        .await
        .expect_err("the account holds its cap");
    assert_eq!(
        refused.code(),
        tonic::Code::ResourceExhausted,
        "{refused:?}"
    );

    // A closed stream frees its slot: once the service sees it gone, the next one opens.
    drop(over_grpc);
    drop(anonymous.pop());
    for (token, whom) in [(Some(ana.as_str()), "account"), (None, "address")] {
        let deadline = std::time::Instant::now() + support::DEADLINE;
        loop {
            let response = open_stream(&client, &url, token).await;
            if response.status().as_u16() == 200 {
                held.push(response);
                break;
            }
            assert_too_many_streams(response, whom).await;
            assert!(
                std::time::Instant::now() < deadline,
                "the {whom}'s closed stream never freed its slot"
            );
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
    assert_too_many_streams(open_stream(&client, &url, Some(&ana)).await, "account").await;
}

/// Reads Server-Sent Events from `response` into `(id, event, data)` triples on a channel.
fn sse_events(
    response: reqwest::Response,
) -> tokio::sync::mpsc::UnboundedReceiver<(u64, String, Value)> {
    let (sink, events) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut response = response;
        let mut buffer = String::new();
        while let Ok(Some(chunk)) = response.chunk().await {
            buffer.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                let (mut id, mut kind, mut data) = (None, String::new(), String::new());
                for line in block.lines() {
                    if let Some(value) = line.strip_prefix("id:") {
                        id = value.trim().parse().ok();
                    } else if let Some(value) = line.strip_prefix("event:") {
                        kind = value.trim().to_owned();
                    } else if let Some(value) = line.strip_prefix("data:") {
                        data.push_str(value.trim_start());
                    }
                }
                if let Some(id) = id {
                    let data = serde_json::from_str(&data).unwrap_or(Value::Null);
                    if sink.send((id, kind, data)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    events
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stream_held_open_across_a_round_sees_every_event_once_in_order() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let organizer = session(&client, api, "stream-org").await;
    let tournament = create(
        &client,
        api,
        "pokemon",
        &organizer,
        json!({"name": "Live", "stages": [{"format": "swiss", "settings": {"rounds": 2}}]}),
    )
    .await;
    let event = Event::of(api, &client, &organizer, &tournament);
    for n in 1..=4 {
        event.guest(&format!("P{n}")).await;
    }
    let (_, started) = event.post(":start", &organizer, json!({})).await;
    let after = started["tournament"]["seq"].as_u64().expect("seq");
    let response = client
        .get(event.url("/events"))
        .header("Last-Event-ID", after.to_string())
        .send()
        .await
        .expect("the stream opens");
    assert_eq!(response.status().as_u16(), 200);
    assert!(
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"))
    );
    let mut events = sse_events(response);
    let round = event.pair().await;
    let (status, _) = event.post(":startTimer", &organizer, json!({})).await;
    assert_eq!(status, 200);
    event.enter_all(&round).await;
    let mut seen = Vec::new();
    while seen.len() < 6 {
        let next = tokio::time::timeout(std::time::Duration::from_secs(20), events.recv())
            .await
            .expect("an event in time")
            .expect("the stream stays open");
        seen.push(next);
    }
    let kinds: Vec<&str> = seen.iter().map(|(_, kind, _)| kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "pairings_published",
            "round_timer",
            "result_final",
            "standings_changed",
            "result_final",
            "standings_changed"
        ]
    );
    let ids: Vec<u64> = seen.iter().map(|(id, _, _)| *id).collect();
    assert_eq!(
        ids,
        [
            after + 1,
            after + 2,
            after + 3,
            after + 3,
            after + 4,
            after + 4
        ]
    );
    assert_eq!(seen[0].2["round"], 1);
    // Nothing more came: every event once.
    assert!(
        tokio::time::timeout(std::time::Duration::from_millis(300), events.recv())
            .await
            .is_err()
    );
    // Resuming with Last-Event-ID gives what came after it.
    let response = client
        .get(event.url("/events"))
        .header("Last-Event-ID", (after + 2).to_string())
        .send()
        .await
        .expect("the stream opens");
    let mut resumed = sse_events(response);
    let first = resumed.recv().await.expect("an event");
    assert_eq!((first.0, first.1.as_str()), (after + 3, "result_final"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_crash_mid_round_loses_nothing_reported_and_keeps_the_round() {
    let mut platform = support::SamplePlatform::start().await;
    let api = platform.api.clone();
    let client = reqwest::Client::new();
    let organizer = session(&client, &api, "crash-org").await;
    let tournament = create(
        &client,
        &api,
        "riftbound",
        &organizer,
        json!({"name": "Crash", "stages": [{"format": "swiss", "settings": {"rounds": 3}}]}),
    )
    .await;
    let round_before;
    {
        let event = Event::of(&api, &client, &organizer, &tournament);
        for n in 1..=8 {
            event.guest(&format!("P{n}")).await;
        }
        event.post(":start", &organizer, json!({})).await;
        let round = event.pair().await;
        // Half the round is reported, then the process is killed.
        for played in round["matches"].as_array().expect("matches").iter().take(2) {
            event
                .report(&organizer, played["id"].as_str().expect("id"), [2, 1])
                .await;
        }
        round_before = event.get("/rounds/1").await;
    }
    platform.crash_and_restart().await;
    let event = Event::of(&platform.api, &client, &organizer, &tournament);
    let round_after = event.get("/rounds/1").await;
    let strip_time = |round: &Value| {
        let mut round = round.clone();
        for played in round["round"]["matches"].as_array_mut().expect("matches") {
            played.as_object_mut().expect("match").remove("timeLeftMs");
        }
        round
    };
    assert_eq!(strip_time(&round_after), strip_time(&round_before));
    let reported = round_after["round"]["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .filter(|m| m["result"]["state"] == "final")
        .count();
    assert_eq!(reported, 2);
    event.enter_all(&round_after["round"]).await;
    let round_two = event.pair().await;
    assert_eq!(round_two["number"], 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_engines_refusals_and_bad_requests_have_their_codes() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let organizer = session(&client, api, "refusal-org").await;
    // A bracket of 3 without byes cannot be drawn: 409 cannot_pair with the engine's message.
    let tournament = create(
        &client,
        api,
        "pokemon",
        &organizer,
        json!({"name": "Odd bracket", "stages": [{"format": "single_elimination"}]}),
    )
    .await;
    let event = Event::of(api, &client, &organizer, &tournament);
    for n in 1..=3 {
        event.guest(&format!("P{n}")).await;
    }
    event.post(":start", &organizer, json!({})).await;
    let (status, body) = event.post("/rounds", &organizer, json!({})).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["code"], "cannot_pair");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
    // Settings a stage does not have, a format a game does not offer, an unknown tournament.
    for (game, stages, field) in [
        (
            "lor",
            json!([{"format": "swiss", "settings": {"roundz": 3}}]),
            "roundz",
        ),
        ("lor", json!([{"format": "threshold_win"}]), "format"),
        ("pokemon", json!([{"format": "knockout"}]), "knockout"),
    ] {
        let (status, body) = send(
            client
                .post(format!("{api}/{game}/tournaments"))
                .json(&json!({"name": "Bad", "stages": stages})),
            Some(&organizer),
        )
        .await;
        assert_eq!(status, 400, "{body}");
        assert!(body.to_string().contains(field), "{field}: {body}");
    }
    let (status, body) = send(client.get(format!("{api}/tournaments/t_missing")), None).await;
    assert_eq!(status, 404, "{body}");
    // A stage's defaults: the guide's table for the game, and a refusal naming a format the
    // game does not offer.
    let (status, body) = send(
        client.get(format!("{api}/pokemon/tournaments/defaults?format=swiss")),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["settings"]["points"],
        json!({"win": 3.0, "draw": 1.0, "loss": 0.0, "bye": 3.0})
    );
    assert_eq!(body["settings"]["bye_handling"], "full_points");
    assert_eq!(body["settings"]["rounds"], 5);
    assert_eq!(body["formats"].as_array().map(Vec::len), Some(4));
    let (status, body) = send(
        client.get(format!(
            "{api}/riftbound/tournaments/defaults?format=threshold_win&stage=1"
        )),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["settings"]["players_per_lobby"], 4);
    let (status, body) = send(
        client.get(format!(
            "{api}/lor/tournaments/defaults?format=threshold_win"
        )),
        None,
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body.to_string().contains("threshold_win"), "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ownership_matrix_of_a_tournament() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let callers = Callers::make(&client, api, "matrix-org").await;
    let body =
        json!({"name": "Matrix", "stages": [{"format": "swiss", "settings": {"rounds": 2}}]});
    callers
        .expect(
            "creating a tournament",
            &[
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
                (Who::Owner, 201),
            ],
            || {
                client
                    .post(format!("{api}/riftbound/tournaments"))
                    .json(&body)
            },
        )
        .await;
    let tournament = create(&client, api, "riftbound", &callers.owner, body.clone()).await;
    let id = tournament["id"].as_str().expect("id").to_owned();
    let url = format!("{api}/tournaments/{id}");
    callers
        .expect(
            "reading a tournament (public)",
            &[
                (Who::Owner, 200),
                (Who::Other, 200),
                (Who::Anonymous, 200),
                (Who::ReadOnly, 200),
                (Who::Revoked, 401),
                (Who::Expired, 401),
            ],
            || client.get(&url),
        )
        .await;
    callers
        .expect(
            "adding a guest",
            &[
                (Who::Other, 403),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
                (Who::Owner, 201),
            ],
            || {
                client
                    .post(format!("{url}/registrations"))
                    .json(&json!({"displayName": "Walk-in"}))
            },
        )
        .await;
    // Another account signs itself up (and only itself).
    let (status, other) = send(
        client.post(format!("{url}/registrations")).json(&json!({})),
        Some(&callers.other),
    )
    .await;
    assert_eq!(status, 201, "{other}");
    // Lineups: the other account submits its own; the organizers read every lineup, with the
    // reading rule, so also with the owner's read-only token (issue 35: it was refused).
    let (status, body) = send(
        client.patch(&url).json(&json!({"deckSettings": {}})),
        Some(&callers.owner),
    )
    .await;
    assert_eq!(status, 200, "saving deck settings: {body}");
    let lineup = format!(
        "{url}/registrations/{}/lineup",
        other["registration"]["id"].as_str().expect("id")
    );
    let (status, body) = send(
        client
            .put(&lineup)
            .json(&json!({"decks": ["one deck code"]})),
        Some(&callers.other),
    )
    .await;
    assert_eq!(status, 202, "{body}");
    callers
        .expect(
            "reading a player's lineup (organizers only)",
            &[
                (Who::Owner, 200),
                (Who::ReadOnly, 200),
                (Who::Other, 200),
                (Who::Anonymous, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
            ],
            || client.get(&lineup),
        )
        .await;
    callers
        .expect(
            "changing a player's lineup",
            &[
                (Who::ReadOnly, 403),
                (Who::Anonymous, 401),
                (Who::Revoked, 401),
                (Who::Expired, 401),
            ],
            || {
                client
                    .put(&lineup)
                    .json(&json!({"decks": ["another deck code"]}))
            },
        )
        .await;
    callers
        .expect(
            "listing lineups",
            &[
                (Who::Owner, 200),
                (Who::ReadOnly, 200),
                (Who::Other, 200),
                (Who::Anonymous, 200),
                (Who::Revoked, 401),
                (Who::Expired, 401),
            ],
            || client.get(format!("{url}/lineups")),
        )
        .await;
    for (who, token, seen) in [
        ("the owner", Some(&callers.owner), 1),
        ("the owner's read-only token", Some(&callers.read_only), 1),
        ("the player", Some(&callers.other), 1),
        ("anonymous", None, 0),
    ] {
        let (status, body) = send(
            client.get(format!("{url}/lineups")),
            token.map(String::as_str),
        )
        .await;
        assert_eq!(status, 200, "{who}: {body}");
        assert_eq!(
            body["lineups"].as_array().map(Vec::len),
            Some(seen),
            "{who}: {body}"
        );
    }
    callers
        .expect(
            "closing registration",
            &[
                (Who::Other, 403),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
                (Who::Owner, 200),
            ],
            || client.patch(&url).json(&json!({"registrationOpen": false})),
        )
        .await;
    callers
        .expect(
            "starting",
            &[
                (Who::Other, 403),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
                (Who::Owner, 200),
            ],
            || client.post(format!("{url}:start")),
        )
        .await;
    callers
        .expect(
            "pairing",
            &[
                (Who::Other, 403),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
                (Who::Owner, 201),
            ],
            || client.post(format!("{url}/rounds")).json(&json!({})),
        )
        .await;
    // The other account drops itself; it may not drop the walk-in.
    callers
        .expect(
            "dropping someone else",
            &[
                (Who::Other, 403),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
            ],
            || client.post(format!("{url}/registrations/r1:drop")),
        )
        .await;
    let (status, dropped) = send(
        client.post(format!("{url}/registrations/r2:drop")),
        Some(&callers.other),
    )
    .await;
    assert_eq!(status, 200, "{dropped}");
    assert_eq!(dropped["registration"]["state"], "dropped");
    // A co-organizer may run the event.
    let (status, added) = send(
        client
            .post(format!("{url}/organizers"))
            .json(&json!({"username": "matrix-org-other"})),
        Some(&callers.owner),
    )
    .await;
    assert_eq!(status, 201, "{added}");
    assert_eq!(
        added["tournament"]["organizers"][1]["username"],
        "matrix-org-other"
    );
    // Dropped by mistake after round 1 was paired: a co-organizer reinstates before round 2.
    let (status, body) = send(
        client.post(format!("{url}/registrations/r2:reinstate")),
        Some(&callers.other),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["registration"]["state"], "registered");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_guides_threshold_win_pod_played_through_the_service() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let organizer = session(&client, api, "pod-org").await;
    let tournament = create(
        &client,
        api,
        "riftbound",
        &organizer,
        json!({"name": "Pod", "stages": [{"format": "threshold_win"}]}),
    )
    .await;
    let settings = &tournament["stages"][0]["settings"];
    assert_eq!(settings["points_to_win"], 6.0);
    assert_eq!(settings["players_per_lobby"], 4);
    let event = Event::of(api, &client, &organizer, &tournament);
    let mut ids = HashMap::new();
    for name in ["Ana", "Ben", "Cam", "Dee"] {
        ids.insert(event.guest(name).await, name);
    }
    event.post(":start", &organizer, json!({})).await;
    // The page's table: each match's finish of Ana, Ben, Cam, Dee.
    let table = [
        [("Ana", 1), ("Ben", 2), ("Cam", 3), ("Dee", 4)],
        [("Ana", 2), ("Ben", 1), ("Cam", 3), ("Dee", 4)],
        [("Ana", 2), ("Ben", 3), ("Cam", 1), ("Dee", 4)],
        [("Ana", 2), ("Ben", 1), ("Cam", 3), ("Dee", 4)],
    ];
    for finishes in table {
        let round = event.pair().await;
        let lobby = &round["matches"][0];
        assert_eq!(lobby["label"], "lobby A");
        let finish: Vec<u32> = lobby["players"]
            .as_array()
            .expect("players")
            .iter()
            .map(|id| {
                let name = ids[id.as_str().expect("id")];
                finishes
                    .iter()
                    .find(|(n, _)| *n == name)
                    .expect("in the pod")
                    .1
            })
            .collect();
        let id = lobby["id"].as_str().expect("id");
        let (status, body) = event
            .post(
                &format!("/matches/{id}:report"),
                &organizer,
                json!({"games": [2, 0]}),
            )
            .await;
        assert_eq!(status, 400, "a lobby takes finishes: {body}");
        let reported = event
            .post(
                &format!("/matches/{id}:report"),
                &organizer,
                json!({"finish": finish}),
            )
            .await;
        assert_eq!(reported.0, 200, "{}", reported.1);
        assert_eq!(reported.1["match"]["result"]["finish"], json!(finish));
        assert_eq!(reported.1["match"]["result"]["state"], "final");
    }
    let (status, body) = event.post("/rounds", &organizer, json!({})).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["code"], "stage_complete");
    let standings = event.get("/standings").await;
    let winner = &standings["lobbies"][0]["winner"];
    assert_eq!(ids[winner["player"].as_str().expect("a winner")], "Ben");
    assert_eq!(winner["match"], 4);
    assert_eq!(winner["points"], 9.0);
    assert_eq!(standings["standings"][0]["matches"], 4);
    // The exported stage is the offline tool's free-for-all event: the same standings.
    let export = event.get("/stages/1:export").await;
    let offline_table = offline(&["tournament", "standings"], &export["event"].to_string());
    let offline_winner = offline_table.to_string();
    assert!(
        offline_winner.contains(winner["player"].as_str().expect("id")),
        "{offline_table}"
    );
    let (status, finished) = event.post(":advance", &organizer, json!({})).await;
    assert_eq!(status, 200, "{finished}");
    assert_eq!(finished["tournament"]["state"], "finished");
}

#[tokio::test(flavor = "multi_thread")]
async fn deck_settings_pin_each_rules_version_until_saved_again() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let organizer = session(&client, api, "pin-org").await;
    let stranger = session(&client, api, "pin-stranger").await;
    let source = crate::deck_validate::guide_script("### 1. Write a deck rule");
    let (status, made) = send(
        client
            .post(format!("{api}/lor/rulesets"))
            .json(&json!({"name": "Two-of Standard", "scope": "deck", "source": source})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let ruleset = made["ruleset"]["id"].as_str().expect("id").to_owned();
    let tournament = create(
        &client,
        api,
        "lor",
        &organizer,
        json!({"name": "Pinned", "stages": [{"format": "swiss"}]}),
    )
    .await;
    let event = Event::of(api, &client, &organizer, &tournament);
    let save = |rules: Value| {
        json!({"deckSettings": {"decksToBring": 3, "bannedCards": ["01IO012"], "rules": rules,
                                "decklistVisibility": "after_event"}})
    };
    let (status, saved) = send(
        client
            .patch(event.url(""))
            .json(&save(json!({"deck": ruleset, "card": "lor-eternal"}))),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    let settings = &saved["tournament"]["deckSettings"];
    assert_eq!(settings["decksToBring"], 3);
    assert_eq!(settings["bannedCards"], json!(["01IO012"]));
    assert_eq!(settings["decklistVisibility"], "after_event");
    let deck = &settings["rules"]["deck"];
    assert_eq!(deck["ruleset"], json!(ruleset));
    assert_eq!(deck["version"], 1);
    assert_eq!(deck["name"], "Two-of Standard");
    assert_eq!(deck["builtIn"], false);
    assert_eq!(deck["source"], json!(source));
    assert_eq!(settings["rules"]["card"]["ruleset"], "lor-eternal");
    assert_eq!(settings["rules"]["card"]["builtIn"], true);
    // A scope left out takes the game's default.
    assert_eq!(settings["rules"]["deckset"]["ruleset"], "lor-riot-lock");

    // Editing the ruleset changes nothing until the deck settings are saved again.
    let edited = format!("{source}\n// edited");
    let (status, _) = send(
        client
            .patch(format!("{api}/lor/rulesets/{ruleset}"))
            .json(&json!({"source": edited})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 200);
    let kept = event.get("").await;
    assert_eq!(
        kept["tournament"]["deckSettings"]["rules"]["deck"]["version"],
        1
    );
    assert_eq!(
        kept["tournament"]["deckSettings"]["rules"]["deck"]["source"],
        json!(source)
    );
    let (status, again) = send(
        client
            .patch(event.url(""))
            .json(&save(json!({"deck": ruleset, "card": "lor-eternal"}))),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 200, "{again}");
    let deck = &again["tournament"]["deckSettings"]["rules"]["deck"];
    assert_eq!(deck["version"], 2);
    assert_eq!(deck["source"], json!(edited));

    // A rule of the wrong scope, someone else's private ruleset, someone else's tournament.
    let (status, body) = send(
        client
            .patch(event.url(""))
            .json(&save(json!({"deck": "lor-eternal"}))),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    let (status, theirs) = send(
        client
            .post(format!("{api}/lor/rulesets"))
            .json(&json!({"name": "Mine", "scope": "deck", "source": source})),
        Some(&stranger),
    )
    .await;
    assert_eq!(status, 201, "{theirs}");
    let (status, body) = send(
        client
            .patch(event.url(""))
            .json(&save(json!({"deck": theirs["ruleset"]["id"]}))),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = send(
        client.patch(event.url("")).json(&save(json!({}))),
        Some(&stranger),
    )
    .await;
    assert_eq!(status, 403, "{body}");
}
