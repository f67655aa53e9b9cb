//! Lineups submitted to a tournament and checked by the submission worker of the all-in-one
//! process (through the job queue in its database), on the real Legends of Runeterra data: the
//! rulesets guide's tutorial as a tournament — its deck rule "Two-of Standard", its deck-set
//! rule "No shared champions" and the Eternal card rule — gives exactly its messages,
//! prefixed; a banned card is rejected before any rule runs (a rule that would loop forever is
//! never started); a lineup with too few decks; a rule that runs out of time fails; lineups
//! lock after the deadline; who may see a lineup; each verdict told once to a webhook that
//! asked for `submission.checked`.

use std::time::Duration;

use serde_json::{Value, json};

use crate::deck_validate::{LINEUP_CODES, TWO_OF_CODE, guide_script, import};
use crate::ownership::{send, session};
use crate::support;

struct Setup<'a> {
    api: &'a str,
    client: reqwest::Client,
    organizer: String,
    player: String,
    tournament: String,
    registration: String,
}

impl Setup<'_> {
    async fn ruleset(&self, name: &str, scope: &str, source: &str) -> String {
        let (status, made) = send(
            self.client
                .post(format!("{}/lor/rulesets", self.api))
                .json(&json!({"name": name, "scope": scope, "source": source})),
            Some(&self.organizer),
        )
        .await;
        assert_eq!(status, 201, "{made}");
        made["ruleset"]["id"].as_str().expect("an id").to_owned()
    }

    async fn settings(&self, settings: Value) {
        let (status, body) = send(
            self.client
                .patch(format!("{}/tournaments/{}", self.api, self.tournament))
                .json(&json!({"deckSettings": settings})),
            Some(&self.organizer),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }

    fn lineup_url(&self) -> String {
        format!(
            "{}/tournaments/{}/registrations/{}/lineup",
            self.api, self.tournament, self.registration
        )
    }

    /// Submits `decks` as the player and waits for the verdict.
    async fn verdict(&self, decks: &[&str]) -> Value {
        let (status, submitted) = send(
            self.client
                .put(self.lineup_url())
                .json(&json!({"decks": decks})),
            Some(&self.player),
        )
        .await;
        assert_eq!(status, 202, "{submitted}");
        let keys: Vec<&str> = submitted["submission"]
            .as_object()
            .expect("a submission")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["id", "state", "submitTime"]);
        assert_eq!(submitted["submission"]["state"], "pending");
        let id = submitted["submission"]["id"].clone();
        for _ in 0..300 {
            let (status, body) = send(self.client.get(self.lineup_url()), Some(&self.player)).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(body["submission"]["id"], id, "the latest counts");
            if body["submission"]["state"] != "pending" {
                return body["submission"].clone();
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no verdict in 30 s");
    }
}

fn issues(submission: &Value) -> Vec<String> {
    let mut lines: Vec<String> = submission["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .filter_map(|line| line.as_str().map(str::to_owned))
        .collect();
    lines.sort();
    lines
}

#[tokio::test(flavor = "multi_thread")]
async fn the_rulesets_guide_tutorial_as_a_tournament_checks_lineups_in_the_worker() {
    let platform = support::SamplePlatform::with_card_data_and(
        &["lor"],
        &[("TURNIER_WEBHOOK_ALLOW_PRIVATE", "true")],
    )
    .await;
    let receiver = crate::webhooks::Receiver::start().await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let organizer = session(&client, api, "lineup-org").await;
    let player = session(&client, api, "lineup-player").await;
    let stranger = session(&client, api, "lineup-stranger").await;
    let (status, created) = send(
        client
            .post(format!("{api}/lor/tournaments"))
            .json(&json!({"name": "Tutorial cup", "stages": [{"format": "swiss"}]})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let tournament = created["tournament"]["id"].as_str().expect("id").to_owned();
    let (status, registered) = send(
        client
            .post(format!("{api}/tournaments/{tournament}/registrations"))
            .json(&json!({})),
        Some(&player),
    )
    .await;
    assert_eq!(status, 201, "{registered}");
    let setup = Setup {
        api,
        client: client.clone(),
        organizer,
        player,
        tournament,
        registration: registered["registration"]["id"]
            .as_str()
            .expect("id")
            .to_owned(),
    };
    let (status, hook) = send(
        client
            .post(format!("{api}/tournaments/{}/webhooks", setup.tournament))
            .json(&json!({"url": format!("{}/checked", receiver.url),
                          "events": ["submission.checked"]})),
        Some(&setup.organizer),
    )
    .await;
    assert_eq!(status, 201, "{hook}");
    let secret = hook["secret"].as_str().expect("a secret").to_owned();
    // No deck settings yet: no lineups.
    let (status, body) = send(
        client
            .put(setup.lineup_url())
            .json(&json!({"decks": [TWO_OF_CODE]})),
        Some(&setup.player),
    )
    .await;
    assert_eq!(status, 409, "{body}");

    let two_of = setup
        .ruleset(
            "Two-of Standard",
            "deck",
            &guide_script("### 1. Write a deck rule"),
        )
        .await;
    let shared = setup
        .ruleset(
            "No shared champions",
            "deckset",
            &guide_script("### 3. Add a deck set rule"),
        )
        .await;
    let rules = json!({"card": "lor-eternal", "deck": two_of, "deckset": shared});

    // 1. One deck: the deck rule's two messages, prefixed with the deck.
    setup
        .settings(json!({"decksToBring": 1, "rules": rules}))
        .await;
    let verdict = setup.verdict(&[TWO_OF_CODE]).await;
    assert_eq!(verdict["state"], "rejected", "{verdict}");
    assert_eq!(
        issues(&verdict),
        [
            "Deck 1: Deny is banned.",
            "Deck 1: Zed: at most 2 copies (found 3)."
        ]
    );
    assert!(verdict["checkTime"].is_string());

    // 2. Two decks sharing a champion: the deck set rule's message, prefixed with the lineup.
    setup
        .settings(json!({"decksToBring": 2, "rules": rules}))
        .await;
    let verdict = setup.verdict(&LINEUP_CODES).await;
    assert_eq!(verdict["state"], "rejected", "{verdict}");
    assert!(
        issues(&verdict).contains(&"Lineup: Zed is in deck 1 and deck 2.".to_owned()),
        "{verdict}"
    );

    // 3. Too few decks is an issue of the lineup, not an error.
    let verdict = setup.verdict(&[LINEUP_CODES[0]]).await;
    assert_eq!(verdict["state"], "rejected", "{verdict}");
    assert!(
        issues(&verdict).contains(&"Lineup: this tournament asks for 2 decks, not 1.".to_owned()),
        "{verdict}"
    );

    // 4. A banned card is rejected before any rule runs: a deck rule that never ends is
    // never started.
    let endless = setup
        .ruleset(
            "Endless",
            "deck",
            "export default function validateDeck(deck, cardsById) { while (true) {} }",
        )
        .await;
    let deck = import(&client, api, "lor", TWO_OF_CODE).await;
    let mut deny = None;
    for reference in deck["main"].as_object().expect("a pile").keys() {
        let (_, card) = send(client.get(format!("{api}/lor/cards/{reference}")), None).await;
        if card["name"] == "Deny" {
            deny = Some(reference.clone());
        }
    }
    let deny = deny.expect("the tutorial's deck holds Deny");
    setup
        .settings(json!({"decksToBring": 1, "bannedCards": [deny],
                         "rules": {"card": "lor-eternal", "deck": endless}}))
        .await;
    let verdict = setup.verdict(&[TWO_OF_CODE]).await;
    assert_eq!(verdict["state"], "rejected", "{verdict}");
    assert_eq!(
        issues(&verdict),
        ["Deck 1: Deny is banned in this tournament."]
    );

    // 5. Without the banned card in the way, the endless rule runs out of time: failed, naming it.
    setup
        .settings(json!({"decksToBring": 1, "rules": {"card": "lor-eternal", "deck": endless}}))
        .await;
    let verdict = setup.verdict(&[TWO_OF_CODE]).await;
    assert_eq!(verdict["state"], "failed", "{verdict}");
    assert!(
        verdict["failure"]
            .as_str()
            .is_some_and(|reason| reason.contains("Endless")),
        "{verdict}"
    );

    // Who sees a lineup: its player and the organizers, not another account (by default).
    let (status, body) = send(client.get(setup.lineup_url()), Some(&stranger)).await;
    assert_eq!(status, 403, "{body}");
    let (status, body) = send(client.get(setup.lineup_url()), Some(&setup.organizer)).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = send(
        client.get(format!("{api}/tournaments/{}/lineups", setup.tournament)),
        Some(&stranger),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["lineups"], json!([]));
    let (status, body) = send(
        client
            .put(setup.lineup_url())
            .json(&json!({"decks": [TWO_OF_CODE]})),
        Some(&stranger),
    )
    .await;
    assert_eq!(status, 403, "{body}");

    // After the deadline, lineups lock.
    setup
        .settings(json!({"deadline": "2020-01-01T00:00:00Z", "rules": rules}))
        .await;
    let (status, body) = send(
        client
            .put(setup.lineup_url())
            .json(&json!({"decks": [TWO_OF_CODE]})),
        Some(&setup.player),
    )
    .await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["code"], "failed_precondition");

    // The organizer unlocks this one player's lineup: it may submit again.
    let unlock = format!("{}:unlock", setup.lineup_url());
    let (status, body) = send(client.post(&unlock), Some(&setup.player)).await;
    assert_eq!(status, 403, "only organizers unlock: {body}");
    let (status, body) = send(client.post(&unlock), Some(&setup.organizer)).await;
    assert_eq!(status, 200, "{body}");
    let verdict = setup.verdict(&[TWO_OF_CODE]).await;
    assert_eq!(verdict["state"], "rejected", "{verdict}");

    // The organizer checks the latest lineup again: a new submission of the same decks.
    let (status, again) = send(
        client.post(format!("{}:recheck", setup.lineup_url())),
        Some(&setup.organizer),
    )
    .await;
    assert_eq!(status, 202, "{again}");
    assert_ne!(again["submission"]["id"], verdict["id"]);
    for _ in 0..300 {
        let (_, body) = send(client.get(setup.lineup_url()), Some(&setup.player)).await;
        if body["submission"]["id"] == again["submission"]["id"]
            && body["submission"]["state"] != "pending"
        {
            assert_eq!(body["submission"]["issues"], verdict["issues"], "{body}");
            assert_eq!(body["submission"]["decks"], json!([TWO_OF_CODE]));
            // Seven verdicts, each told once to the hook, signed, with its state and issues.
            let told = receiver
                .wait_for("seven verdicts", |got| got.len() >= 7)
                .await;
            crate::webhooks::assert_signed(&told, "checked", &secret);
            let mut ids: Vec<String> = told.iter().map(|r| r.delivery.clone()).collect();
            ids.sort();
            ids.dedup();
            assert_eq!((told.len(), ids.len()), (7, 7), "{told:#?}");
            let last: Value = serde_json::from_str(&told.last().expect("one").body).expect("JSON");
            assert_eq!(last["event"], "submission.checked");
            assert_eq!(last["data"]["submission"]["id"], body["submission"]["id"]);
            assert_eq!(last["data"]["submission"]["state"], "rejected");
            assert_eq!(last["data"]["submission"]["issues"], verdict["issues"]);
            assert_eq!(last["data"]["registration"], setup.registration.as_str());
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no verdict for the recheck");
}

#[tokio::test(flavor = "multi_thread")]
async fn at_the_start_players_without_an_accepted_lineup_are_dropped_when_asked() {
    let platform = support::SamplePlatform::with_card_data(&["lor"]).await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let organizer = session(&client, api, "drop-org").await;
    let (status, created) = send(
        client
            .post(format!("{api}/lor/tournaments"))
            .json(&json!({"name": "Lineups or out", "stages": [{"format": "swiss"}]})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["tournament"]["id"].as_str().expect("id").to_owned();
    let mut guests = Vec::new();
    for name in ["Ana", "Ben", "Cam"] {
        let (status, body) = send(
            client
                .post(format!("{api}/tournaments/{id}/registrations"))
                .json(&json!({"displayName": name})),
            Some(&organizer),
        )
        .await;
        assert_eq!(status, 201, "{body}");
        guests.push(body["registration"]["id"].as_str().expect("id").to_owned());
    }
    let (status, made) = send(
        client.post(format!("{api}/lor/rulesets")).json(&json!({
            "name": "Anything goes", "scope": "deck",
            "source": "export default function validateDeck(deck, cardsById) { return { valid: true, issues: [] }; }"
        })),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let (status, body) = send(
        client
            .patch(format!("{api}/tournaments/{id}"))
            .json(&json!({"deckSettings": {
                "dropWithoutLineup": true,
                "rules": {"card": "lor-eternal", "deck": made["ruleset"]["id"]},
            }})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    // Ana and Ben submit (the organizer for its guests); Cam does not.
    for guest in &guests[..2] {
        let url = format!("{api}/tournaments/{id}/registrations/{guest}/lineup");
        let (status, body) = send(
            client.put(&url).json(&json!({"decks": [TWO_OF_CODE]})),
            Some(&organizer),
        )
        .await;
        assert_eq!(status, 202, "{body}");
        let mut state = Value::Null;
        for _ in 0..300 {
            let (_, body) = send(client.get(&url), Some(&organizer)).await;
            state = body["submission"]["state"].clone();
            if state != "pending" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(state, "accepted");
    }
    let (status, started) = send(
        client.post(format!("{api}/tournaments/{id}:start")),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 200, "{started}");
    let (_, registrations) = send(
        client.get(format!("{api}/tournaments/{id}/registrations")),
        None,
    )
    .await;
    let states: Vec<&str> = registrations["registrations"]
        .as_array()
        .expect("registrations")
        .iter()
        .map(|r| r["state"].as_str().expect("a state"))
        .collect();
    assert_eq!(states, ["registered", "registered", "dropped"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_rules_tab_shows_the_pinned_code_and_a_player_saves_the_exact_version() {
    let platform = support::SamplePlatform::with_card_data(&["lor"]).await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let organizer = session(&client, api, "rules-org").await;
    let player = session(&client, api, "rules-player").await;
    let create = |name: &str| {
        client
            .post(format!("{api}/lor/tournaments"))
            .json(&json!({"name": name, "stages": [{"format": "swiss"}]}))
    };
    let (status, created) = send(create("Rules cup"), Some(&organizer)).await;
    assert_eq!(status, 201, "{created}");
    let tournament = created["tournament"]["id"].as_str().expect("id").to_owned();
    let (status, other) = send(create("Another cup"), Some(&organizer)).await;
    assert_eq!(status, 201, "{other}");
    let other = other["tournament"]["id"].as_str().expect("id").to_owned();

    // The organizer's private deck rule, pinned at version 1.
    let first = guide_script("### 1. Write a deck rule");
    let (status, made) = send(
        client
            .post(format!("{api}/lor/rulesets"))
            .json(&json!({"name": "Two-of Standard", "scope": "deck", "source": first})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let two_of = made["ruleset"]["id"].as_str().expect("id").to_owned();
    let settings = |tournament: &str| {
        client
            .patch(format!("{api}/tournaments/{tournament}"))
            .json(&json!({"deckSettings": {"rules": {"deck": two_of}}}))
    };
    let (status, body) = send(settings(&tournament), Some(&organizer)).await;
    assert_eq!(status, 200, "{body}");

    // The author edits it: the tournament keeps version 1.
    let second = format!("{first}\n// edited\n");
    let (status, body) = send(
        client
            .patch(format!("{api}/lor/rulesets/{two_of}"))
            .json(&json!({"source": second})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["ruleset"]["version"], 2, "{body}");

    // Anyone reads the Rules tab: every rule with its code, the custom one unverified.
    let (status, shown) = send(client.get(format!("{api}/tournaments/{tournament}")), None).await;
    assert_eq!(status, 200, "{shown}");
    let rules = &shown["tournament"]["deckSettings"]["rules"];
    assert_eq!(rules["deck"]["ruleset"], two_of.as_str());
    assert_eq!(rules["deck"]["version"], 1);
    assert_eq!(rules["deck"]["name"], "Two-of Standard");
    assert_eq!(rules["deck"]["source"], first.as_str());
    assert_eq!(
        (&rules["deck"]["builtIn"], &rules["deck"]["unverified"]),
        (&json!(false), &json!(true))
    );
    assert_eq!(rules["card"]["ruleset"], "lor-standard", "{rules}");
    assert_eq!(
        (&rules["card"]["builtIn"], &rules["card"]["unverified"]),
        (&json!(true), &json!(false))
    );
    assert!(
        rules["card"]["source"]
            .as_str()
            .is_some_and(|s| !s.is_empty())
    );

    // "Add to saved rulesets": the exact version the tournament uses, though private.
    let save = |body: Value| {
        client
            .post(format!("{api}/lor/rulesets/{two_of}:save"))
            .json(&body)
    };
    let (status, body) = send(save(json!({})), Some(&player)).await;
    assert_eq!(
        status, 404,
        "a private ruleset outside a tournament: {body}"
    );
    let (status, body) = send(save(json!({"tournament": other})), Some(&player)).await;
    assert_eq!(status, 404, "a tournament that does not use it: {body}");
    let (status, body) = send(save(json!({"tournament": "t_nothing"})), Some(&player)).await;
    assert_eq!(status, 404, "no such tournament: {body}");
    let (status, body) = send(
        save(json!({"tournament": tournament, "version": 2})),
        Some(&player),
    )
    .await;
    assert_eq!(status, 400, "not the pinned version: {body}");
    let (status, body) = send(save(json!({"tournament": tournament})), None).await;
    assert_eq!(status, 401, "{body}");
    let (status, saved) = send(save(json!({"tournament": tournament})), Some(&player)).await;
    assert_eq!(status, 201, "{saved}");
    let copy = &saved["ruleset"];
    assert_eq!(copy["downloaded"], true);
    assert_eq!(
        copy["origin"],
        json!({"ruleset": two_of, "version": 1, "from": "tournament"})
    );
    assert_eq!(copy["source"], first.as_str());
    assert_eq!(copy["updateAvailable"], true, "the author is at version 2");

    // Saving the deck settings again pins the current version.
    let (status, body) = send(settings(&tournament), Some(&organizer)).await;
    assert_eq!(status, 200, "{body}");
    let rules = &body["tournament"]["deckSettings"]["rules"];
    assert_eq!(rules["deck"]["version"], 2, "{rules}");
    assert_eq!(rules["deck"]["source"], second.as_str());
}
