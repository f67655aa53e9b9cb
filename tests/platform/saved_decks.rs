//! Saved decks and shared deck links through the gateway of the all-in-one process: a save by
//! name that replaces a deck of the same name whatever its case, renames that never take
//! another deck's name, the rule warnings a deck still has when saved, a saved deck's round
//! trip (save, read, export, import), listings a page at a time and a profile's public decks,
//! shared links of each game's code opened anonymously (the guide's four Riftbound samples
//! giving one deck), and the ownership matrix on a private and then a public deck.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::deck_import::{PILTOVER_CODE, PILTOVER_LIST, RIFT1, TURNY_LIST};
use crate::deck_validate::import;
use crate::ownership::{self, Callers, Who, send};
use crate::support;

/// A LoR deck of the sample catalog's one card.
fn garen(copies: u32) -> Value {
    json!({"name": "Main", "cards": {"01DE012": copies}})
}

/// `{api}/{game}/decks/shared/{code}`, the code as one path segment with every byte but the
/// unreserved ones percent-encoded (a deck list's line breaks, spaces and commas).
fn shared_url(api: &str, game: &str, code: &str) -> String {
    let encoded: String = code
        .bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(byte).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect();
    format!("{api}/{game}/decks/shared/{encoded}")
}

/// A shared deck's cards as (pile, identity, copies).
fn cards_by_pile(shared: &Value) -> BTreeSet<(String, String, u64)> {
    let mut cards = BTreeSet::new();
    for (pile, entries) in shared["piles"].as_object().expect("piles") {
        for entry in entries.as_array().expect("a pile is a list") {
            cards.insert((
                pile.clone(),
                entry["cardId"].as_str().expect("cardId").to_owned(),
                entry["count"].as_u64().expect("count"),
            ));
        }
    }
    cards
}

#[tokio::test(flavor = "multi_thread")]
async fn a_save_by_a_name_in_use_replaces_that_deck_whatever_the_case() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let ana = ownership::session(&client, api, "ana").await;
    let save = |body: Value| client.post(format!("{api}/lor/decks")).json(&body);

    let (status, first) = send(
        save(json!({"name": "Garen Control", "piles": [garen(3)]})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 201, "{first}");
    assert_eq!(first["replaced"], false);
    assert_eq!(first["warnings"], json!([]), "no rules, no warnings");
    let deck = &first["deck"];
    let keys: Vec<&str> = deck
        .as_object()
        .expect("a deck")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "id",
            "game",
            "name",
            "owner",
            "public",
            "layout",
            "piles",
            "rules",
            "mainCount",
            "sideboardCount",
            "createTime",
            "updateTime"
        ]
    );
    assert_eq!(deck["owner"], "ana");
    assert_eq!(deck["public"], false, "private by default");
    assert_eq!(deck["layout"], "piles");
    assert_eq!(
        deck["piles"][0],
        json!({"name": "Main", "role": "main", "cards": {"01DE012": 3}, "column": 0,
               "order": 0, "view": {"summary": true, "curve": true, "footer": true}})
    );

    let (status, second) = send(
        save(json!({"name": "GAREN control", "piles": [garen(2),
            {"name": "Maybe", "role": "maybeboard", "cards": {"01DE012": 1}}]})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 200, "a replacement is not a creation: {second}");
    assert_eq!(second["replaced"], true);
    assert_eq!(second["deck"]["id"], deck["id"], "the id is kept");
    assert_eq!(second["deck"]["name"], "GAREN control");
    assert_eq!(
        second["deck"]["mainCount"], 2,
        "the maybeboard never counts"
    );
    let (status, list) = send(client.get(format!("{api}/lor/decks")), Some(&ana)).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["decks"].as_array().map(Vec::len), Some(1), "{list}");

    // A rename to another deck's name is refused and changes nothing.
    let (status, other) = send(save(json!({"name": "Other", "piles": []})), Some(&ana)).await;
    assert_eq!(status, 201, "{other}");
    let other_url = format!(
        "{api}/lor/decks/{}",
        other["deck"]["id"].as_str().expect("id")
    );
    let (status, refused) = send(
        client
            .patch(&other_url)
            .json(&json!({"name": "garen CONTROL"})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 409, "{refused}");
    assert_eq!(refused["error"]["code"], "already_exists");
    let (_, read) = send(client.get(&other_url), Some(&ana)).await;
    assert_eq!(read["deck"]["name"], "Other");

    // Bad input names its field.
    for (body, field) in [
        (json!({"name": "", "piles": []}), "name"),
        (json!({"name": "x", "layout": "stacked"}), "layout"),
        (
            json!({"name": "x", "piles": [{"role": "command-zone"}]}),
            "piles[0].role",
        ),
        (
            json!({"name": "x", "piles": [{"cards": {"01DE012": 1000}}]}),
            "piles[0].cards",
        ),
        (
            json!({"name": "x", "piles": [{"cards": {"01DE012": -1}}]}),
            "piles[0].cards",
        ),
        (
            json!({"name": "x", "rules": {"decksetRule": "lor-riot-lock"}}),
            "rules.decksetRule",
        ),
    ] {
        let (status, body) = send(save(body.clone()), Some(&ana)).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["error"]["details"]["field"], field, "{body}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_saved_deck_keeps_its_rule_warnings_and_round_trips_through_its_export() {
    let platform = support::SamplePlatform::with_card_data(&["riftbound"]).await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let ana = ownership::session(&client, api, "ana").await;

    // The guide's sample, in the Constructed template's piles, with its rules: a deck with
    // warnings is saved, and the warnings come back.
    let deck = import(&client, api, "riftbound", RIFT1).await;
    let body = json!({
        "name": "Yasuo sample",
        "piles": [
            {"name": "Legend", "cards": deck["legend"], "zoneRule": "riftbound-legend"},
            {"name": "Rune Deck", "cards": deck["runes"], "zoneRule": "riftbound-runes"},
            {"name": "Battlefields", "cards": deck["battlefields"], "column": 1,
             "zoneRule": "riftbound-battlefields"},
            {"name": "Main Deck", "cards": deck["main"], "column": 1,
             "zoneRule": {"ruleset": "riftbound-main-deck", "version": 1}},
            {"name": "Sideboard", "role": "sideboard", "cards": deck["sideboard"], "column": 2},
            {"name": "Maybeboard", "role": "maybeboard", "cards": {"ogn-259-298": 1},
             "column": 2, "view": {"curve": false}},
        ],
        "rules": {"cardRule": "riftbound-standard", "deckRule": "riftbound-constructed"},
    });
    let (status, saved) = send(
        client.post(format!("{api}/riftbound/decks")).json(&body),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 201, "{saved}");
    let warnings: Vec<&str> = saved["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter_map(|warning| warning["message"].as_str())
        .collect();
    assert_eq!(
        warnings.first().copied(),
        Some("Main Deck: The main deck must contain exactly 40 cards."),
        "{saved}"
    );
    assert_eq!(saved["warnings"][0]["rule"], "zone");
    assert_eq!(saved["warnings"][0]["pile"], "Main Deck");
    assert_eq!(saved["deck"]["mainCount"], 26);
    assert_eq!(saved["deck"]["sideboardCount"], 2);
    assert_eq!(
        saved["deck"]["rules"],
        json!({"cardRule": {"ruleset": "riftbound-standard"},
               "deckRule": {"ruleset": "riftbound-constructed"}})
    );
    assert_eq!(
        saved["deck"]["piles"][3]["zoneRule"],
        json!({"ruleset": "riftbound-main-deck", "version": 1})
    );
    assert_eq!(
        saved["deck"]["piles"][5]["view"],
        json!({"summary": true, "curve": false, "footer": true})
    );

    // Read, export, import: the same cards per pile; the maybeboard is never exported.
    let url = format!(
        "{api}/riftbound/decks/{}",
        saved["deck"]["id"].as_str().expect("an id")
    );
    let (status, read) = send(client.get(&url), Some(&ana)).await;
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["deck"], saved["deck"]);
    let (status, exported) = send(client.get(format!("{url}:export")), Some(&ana)).await;
    assert_eq!(status, 200, "{exported}");
    assert_eq!(exported["format"], "saved");
    assert!(exported["piles"].get("Maybeboard").is_none(), "{exported}");
    let share = exported["exports"]["shareCode"].as_str().expect("a code");
    assert!(share.starts_with("RIFT1."), "{share}");
    assert_eq!(exported["exports"]["deckList"]["format"], "piltover-list");
    assert_eq!(exported["exports"]["deckCode"]["format"], "piltover-code");
    assert_eq!(
        exported["exports"]["notes"],
        json!([
            "Copy deck code puts the 2 sideboard cards in the main deck for now (the Piltover Archive code): use Share or Copy deck list to keep the sideboard."
        ])
    );
    assert_eq!(
        import(&client, api, "riftbound", share).await,
        deck,
        "the share code imports as the deck saved"
    );
    let list = exported["exports"]["deckList"]["text"]
        .as_str()
        .expect("a list");
    assert_eq!(import(&client, api, "riftbound", list).await, deck);

    // A rule the caller cannot see refuses the save: nothing is saved.
    let (status, refused) = send(
        client.post(format!("{api}/riftbound/decks")).json(&json!({
            "name": "Hidden rule", "rules": {"cardRule": "rs_nobody"}
        })),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 404, "{refused}");
    assert_eq!(refused["error"]["code"], "ruleset_not_found");
    let (_, list) = send(client.get(format!("{api}/riftbound/decks")), Some(&ana)).await;
    assert_eq!(list["decks"].as_array().map(Vec::len), Some(1), "{list}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_guides_four_riftbound_samples_open_as_one_shared_deck_without_an_account() {
    let platform = support::SamplePlatform::with_card_data(&["riftbound"]).await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let open = |code: &str| send(client.get(shared_url(api, "riftbound", code)), None);

    let (status, rift1) = open(RIFT1).await;
    assert_eq!(status, 200, "{rift1}");
    assert_eq!(rift1["format"], "rift1");
    assert_eq!(rift1["unknownCards"], json!([]));
    assert_eq!(
        rift1["exports"]["shareCode"], RIFT1,
        "the share code is the code itself"
    );
    let deck = cards_by_pile(&rift1);
    assert_eq!(deck.iter().map(|(_, _, n)| n).sum::<u64>(), 28);
    for (code, format) in [
        (PILTOVER_CODE, "piltover-code"),
        (PILTOVER_LIST, "piltover-list"),
    ] {
        let (status, body) = open(code).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["format"], format);
        assert_eq!(cards_by_pile(&body), deck, "{format} is the same deck");
        // Any printing of a card loads it, so the share code may name other printings (the
        // runes' VEN ones): opened again, it is the same deck.
        let share = body["exports"]["shareCode"].as_str().expect("a share code");
        assert!(share.starts_with("RIFT1."), "{share}");
        let (status, again) = open(share).await;
        assert_eq!(status, 200, "{again}");
        assert_eq!(
            cards_by_pile(&again),
            deck,
            "{format}'s share code is the same deck"
        );
    }
    // The old Turny list has no place for a sideboard.
    let (status, turny) = open(TURNY_LIST).await;
    assert_eq!(status, 200, "{turny}");
    let without_sideboard: BTreeSet<_> = deck
        .iter()
        .filter(|(pile, _, _)| pile != "sideboard")
        .cloned()
        .collect();
    assert_eq!(cards_by_pile(&turny), without_sideboard);

    let (status, body) = open("not a deck").await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "unreadable_deck");
}

#[tokio::test(flavor = "multi_thread")]
async fn pokemon_and_lor_codes_open_as_shared_decks_with_unknown_cards_listed() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());

    let (status, pokemon) = send(
        client.get(shared_url(api, "pokemon", "PTCG1.svp:4x106,2x999")),
        None,
    )
    .await;
    assert_eq!(status, 200, "{pokemon}");
    assert_eq!(pokemon["format"], "ptcg1");
    assert_eq!(pokemon["piles"]["main"][0]["name"], "Pikachu ex");
    assert_eq!(pokemon["piles"]["main"][0]["count"], 4);
    assert_eq!(
        pokemon["unknownCards"].as_array().map(Vec::len),
        Some(1),
        "the unknown card is listed, not fatal: {pokemon}"
    );
    assert_eq!(pokemon["exports"]["shareCode"], "PTCG1.svp:4x106");
    assert_eq!(pokemon["exports"]["deckList"]["format"], "ptcg-live");
    assert!(pokemon["exports"].get("deckCode").is_none(), "{pokemon}");

    let (status, code) = send(
        client
            .post(format!("{api}/lor/decks:export"))
            .json(&json!({"format": "lor-code", "cards": [{"ref": "01DE012", "count": 3}]})),
        None,
    )
    .await;
    assert_eq!(status, 200, "{code}");
    let code = code["text"].as_str().expect("a code");
    let (status, lor) = send(client.get(shared_url(api, "lor", code)), None).await;
    assert_eq!(status, 200, "{lor}");
    assert_eq!(lor["format"], "lor-code");
    assert_eq!(lor["piles"]["main"][0]["name"], "Garen");
    assert_eq!(lor["exports"]["shareCode"], code);
    assert_eq!(
        lor["exports"]["deckList"]["text"], code,
        "Copy deck list copies the code"
    );

    // A saved LoR deck with a sideboard pile: LoR has none, so the code holds it in the deck.
    let ana = ownership::session(&client, api, "ana").await;
    let (status, saved) = send(
        client.post(format!("{api}/lor/decks")).json(&json!({
            "name": "Sided",
            "piles": [garen(2), {"name": "Side", "role": "sideboard", "cards": {"01DE012": 1}}],
        })),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 201, "{saved}");
    let url = format!(
        "{api}/lor/decks/{}:export",
        saved["deck"]["id"].as_str().expect("id")
    );
    let (status, exported) = send(client.get(url), Some(&ana)).await;
    assert_eq!(status, 200, "{exported}");
    assert_eq!(
        exported["exports"]["shareCode"], code,
        "three Garen, one code"
    );
    assert_eq!(
        exported["exports"]["notes"],
        json!([
            "Legends of Runeterra has no sideboard: the 1 sideboard cards are added to the main deck in the shared code and the deck list."
        ])
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn listings_come_a_page_at_a_time_and_a_profile_shows_only_public_decks() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let ana = ownership::session(&client, api, "Ana").await;
    for index in 0..7 {
        let (status, body) = send(
            client.post(format!("{api}/lor/decks")).json(&json!({
                "name": format!("Deck {index}"), "public": index % 2 == 0, "piles": [garen(1)]
            })),
            Some(&ana),
        )
        .await;
        assert_eq!(status, 201, "{body}");
    }
    let mut names = Vec::new();
    let mut token = String::new();
    loop {
        let (status, page) = send(
            client.get(format!("{api}/lor/decks?pageSize=3&pageToken={token}")),
            Some(&ana),
        )
        .await;
        assert_eq!(status, 200, "{page}");
        let decks = page["decks"].as_array().expect("decks");
        assert!(decks.len() <= 3);
        names.extend(
            decks
                .iter()
                .filter_map(|deck| deck["name"].as_str().map(str::to_owned)),
        );
        token = page["nextPageToken"].as_str().expect("a token").to_owned();
        if token.is_empty() {
            break;
        }
    }
    let expected: Vec<String> = (0..7).rev().map(|index| format!("Deck {index}")).collect();
    assert_eq!(names, expected, "every deck once, the last saved first");

    let (status, body) = send(
        client.get(format!("{api}/lor/decks?pageToken=nonsense")),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["details"]["field"], "pageToken");

    // The profile, in any case of the username, anonymously: public decks only.
    let (status, profile) = send(client.get(format!("{api}/users/ANA/decks")), None).await;
    assert_eq!(status, 200, "{profile}");
    let public: Vec<&str> = profile["decks"]
        .as_array()
        .expect("decks")
        .iter()
        .filter_map(|deck| deck["name"].as_str())
        .collect();
    assert_eq!(public, ["Deck 6", "Deck 4", "Deck 2", "Deck 0"]);
    let (status, _) = send(client.get(format!("{api}/users/nobody-here/decks")), None).await;
    assert_eq!(status, 404);
    let (status, body) = send(client.get(format!("{api}/lor/decks")), None).await;
    assert_eq!(
        status, 401,
        "an anonymous caller has no decks to list: {body}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ownership_matrix_on_a_private_and_then_a_public_deck() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let callers = Callers::make(&client, api, "owner").await;
    callers
        .expect(
            "saving a deck",
            &[
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
            ],
            || {
                client
                    .post(format!("{api}/lor/decks"))
                    .json(&json!({"name": "Nope", "piles": [garen(1)]}))
            },
        )
        .await;
    let (status, made) = send(
        client
            .post(format!("{api}/lor/decks"))
            .json(&json!({"name": "Mine", "piles": [garen(3)]})),
        Some(&callers.owner),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let url = format!(
        "{api}/lor/decks/{}",
        made["deck"]["id"].as_str().expect("an id")
    );
    let export = format!("{url}:export");
    let rename = || client.patch(&url).json(&json!({"name": "Renamed"}));

    for (what, target) in [
        ("reading a private deck", &url),
        ("exporting a private deck", &export),
    ] {
        callers
            .expect(
                what,
                &[
                    (Who::Owner, 200),
                    (Who::Other, 404),
                    (Who::Anonymous, 404),
                    (Who::ReadOnly, 200),
                    (Who::Revoked, 401),
                    (Who::Expired, 401),
                ],
                || client.get(target),
            )
            .await;
    }
    callers
        .expect(
            "changing a private deck",
            &[
                (Who::Other, 404),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
                (Who::Owner, 200),
            ],
            rename,
        )
        .await;
    // The missing one answers exactly as the hidden one.
    let (_, hidden) = send(client.get(&url), Some(&callers.other)).await;
    let (_, missing) = send(
        client.get(format!("{api}/lor/decks/dk_missing")),
        Some(&callers.other),
    )
    .await;
    let id = url.rsplit('/').next().unwrap_or_default();
    assert_eq!(hidden["error"]["code"], missing["error"]["code"]);
    assert_eq!(
        hidden["error"]["message"]
            .as_str()
            .map(|m| m.replace(id, "dk_missing")),
        missing["error"]["message"].as_str().map(str::to_owned),
        "the same words for the hidden deck and the missing one"
    );
    // Another account's listing never holds it.
    let (_, others) = send(client.get(format!("{api}/lor/decks")), Some(&callers.other)).await;
    assert_eq!(others["decks"], json!([]), "{others}");

    let (status, _) = send(
        client.patch(&url).json(&json!({"public": true})),
        Some(&callers.owner),
    )
    .await;
    assert_eq!(status, 200);
    callers
        .expect(
            "reading a public deck",
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
            "changing a public deck",
            &[
                (Who::Other, 403),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
            ],
            rename,
        )
        .await;
    callers
        .expect(
            "deleting a public deck",
            &[
                (Who::Other, 403),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
                (Who::Owner, 204),
            ],
            || client.delete(&url),
        )
        .await;
    let (status, _) = send(client.get(&url), Some(&callers.owner)).await;
    assert_eq!(status, 404, "deleted");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_deck_sets_synced_piles_read_and_write_their_saved_decks() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let ana = ownership::session(&client, api, "ana").await;
    let bo = ownership::session(&client, api, "bob").await;
    let save_deck = |token: String, name: &'static str, copies: u32| {
        let client = client.clone();
        let url = format!("{api}/lor/decks");
        async move {
            let (status, body) = send(
                client
                    .post(url)
                    .json(&json!({"name": name, "piles": [garen(copies)]})),
                Some(&token),
            )
            .await;
            assert_eq!(status, 201, "{body}");
            body["deck"]["id"].as_str().expect("an id").to_owned()
        }
    };
    let first = save_deck(ana.clone(), "First", 3).await;
    let second = save_deck(ana.clone(), "Second", 2).await;
    let bos = save_deck(bo.clone(), "Bo's", 1).await;

    // Saving the set writes the synced piles back to their decks.
    let (status, saved) = send(
        client.post(format!("{api}/lor/decksets")).json(&json!({
            "name": "Worlds lineup",
            "piles": [
                {"name": "Deck 1", "cards": {"01DE012": 1}, "syncedDeck": first},
                {"name": "Deck 2", "cards": {"01DE012": 2}, "syncedDeck": second},
                {"name": "Deck 3", "cards": {"01DE012": 3}},
            ],
            "rules": {"decksetRule": "lor-riot-lock"},
        })),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 201, "{saved}");
    let set = &saved["deckSet"];
    assert!(set["id"].as_str().expect("an id").starts_with("ds_"));
    assert_eq!(set["layout"], "multi-deck");
    assert_eq!(set["piles"][0]["syncedDeck"], first.as_str());
    let warnings: Vec<&str> = saved["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter_map(|warning| warning["message"].as_str())
        .collect();
    assert_eq!(
        warnings,
        [
            "Garen is in deck 1 and deck 2.",
            "Deck 1 and deck 2 both use Demacia.",
            "Garen is in deck 1 and deck 3.",
            "Deck 1 and deck 3 both use Demacia.",
        ],
        "the Riot lock deck set rule on the lineup"
    );
    let (_, deck) = send(client.get(format!("{api}/lor/decks/{first}")), Some(&ana)).await;
    assert_eq!(
        deck["deck"]["piles"][0]["cards"],
        json!({"01DE012": 1}),
        "written back"
    );

    // Changing the saved deck shows in the set.
    let (status, _) = send(
        client
            .patch(format!("{api}/lor/decks/{second}"))
            .json(&json!({"piles": [garen(3)]})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 200);
    let url = format!("{api}/lor/decksets/{}", set["id"].as_str().expect("an id"));
    let (status, read) = send(client.get(&url), Some(&ana)).await;
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["deckSet"]["piles"][1]["cards"], json!({"01DE012": 3}));
    assert_eq!(read["deckSet"]["piles"][2]["cards"], json!({"01DE012": 3}));

    // A public set shows others the cards it was saved with, never a private deck's current ones.
    let (status, _) = send(
        client.patch(&url).json(&json!({"public": true})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 200);
    let (status, seen) = send(client.get(&url), Some(&bo)).await;
    assert_eq!(status, 200, "{seen}");
    assert_eq!(seen["deckSet"]["piles"][1]["cards"], json!({"01DE012": 2}));

    // A pile synced to someone else's deck is refused, and nothing is written.
    let (status, refused) = send(
        client.post(format!("{api}/lor/decksets")).json(&json!({
            "name": "Borrowed",
            "piles": [{"cards": {"01DE012": 3}, "syncedDeck": bos},
                      {"cards": {"01DE012": 3}, "syncedDeck": first}],
        })),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 404, "{refused}");
    let (_, deck) = send(client.get(format!("{api}/lor/decks/{first}")), Some(&ana)).await;
    assert_eq!(
        deck["deck"]["piles"][0]["cards"],
        json!({"01DE012": 1}),
        "unchanged"
    );
    // A deck's own piles do not sync.
    let (status, body) = send(
        client.post(format!("{api}/lor/decks")).json(&json!({
            "name": "Not a set", "piles": [{"cards": {}, "syncedDeck": first}]
        })),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["details"]["field"], "piles[0].syncedDeck");

    // Deleting the set leaves its decks.
    let (status, _) = send(client.delete(&url), Some(&ana)).await;
    assert_eq!(status, 204);
    let (status, _) = send(client.get(format!("{api}/lor/decks/{first}")), Some(&ana)).await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ownership_matrix_on_a_private_and_then_a_public_deck_set() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let callers = Callers::make(&client, api, "owner").await;
    let (status, made) = send(
        client
            .post(format!("{api}/lor/decksets"))
            .json(&json!({"name": "Lineup", "piles": [garen(3), garen(2)]})),
        Some(&callers.owner),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let url = format!(
        "{api}/lor/decksets/{}",
        made["deckSet"]["id"].as_str().expect("an id")
    );
    callers
        .expect_private_then_public(&client, "deck set", &url, || {
            client.patch(&url).json(&json!({"name": "Renamed"}))
        })
        .await;
}
