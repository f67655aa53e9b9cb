//! Rulesets at work through the gateway of the all-in-one process, on the real Legends of
//! Runeterra and Riftbound card data: the tutorial of `guide-rulesets.md` end to end (the
//! "Two-of Standard" deck rule, "No shared champions", the pool-filter example), whole-deck
//! checks (`decks:validate`) with zone rules, the card rule and the whole-deck rule, direct
//! bans, profiles' rulesets, and copies saved from a tournament's rules that show "update
//! available".

use kit::auth::Bearer;
use kit::clients::ScriptsClient;
use proto::scripts::v1 as pb;
use serde_json::{Value, json};

use crate::ownership::{self, Callers, Who, send};
use crate::script_pools::support::{cards, fenced_block, riftbound_deck, spec_page};
use crate::support;

/// The tutorial's first deck code: 40 Ionia cards, three Zed and two Deny.
pub(crate) const TWO_OF_CODE: &str = "CEAQCAICBEAREAICAUDAQDAQCEJBKFY2DMOCIJRKFQYTEAIBAEBDI";
/// The tutorial's two lineup codes, both with two copies of Zed.
pub(crate) const LINEUP_CODES: [&str; 2] = [
    "CEAACFABAICQMCAJBQIBCEQVC4NBWHBEEYVCYMRUGUAA",
    "CEAAEAIBAIERGAIEAEBAGBAFAYDQUDANBYHRAEISCMKBKFYA",
];
/// The deck builder guide's Riftbound sample (a 10-card main deck) as a Turny.gg code.
const RIFT_SAMPLE: &str = "RIFT1.OGN:6x042-298,3x043-298,3x045-298,3x064-298,6x166-298,205-298,259-298,282-298,289-298,293-298.SB.OGN:2x050-298";

/// The `index`-th ```js block of the rulesets guide after `heading`.
pub(crate) fn guide_script(heading: &str) -> String {
    let page = spec_page("guide-rulesets.md");
    let from = page
        .find(heading)
        .unwrap_or_else(|| panic!("the guide has {heading}"));
    fenced_block(&page, "```js", from)
        .unwrap_or_else(|| panic!("a js block after {heading}"))
        .to_owned()
}

/// Creates a ruleset of `game` and returns its id.
async fn create(
    client: &reqwest::Client,
    api: &str,
    token: &str,
    game: &str,
    body: Value,
) -> String {
    let (status, made) = send(
        client.post(format!("{api}/{game}/rulesets")).json(&body),
        Some(token),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    made["ruleset"]["id"].as_str().expect("an id").to_owned()
}

/// Imports a deck code and returns its piles: `{pile name: {ref: copies}}`.
pub(crate) async fn import(client: &reqwest::Client, api: &str, game: &str, code: &str) -> Value {
    let (status, body) = send(
        client
            .post(format!("{api}/{game}/decks:import"))
            .json(&json!({"text": code})),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let mut piles = serde_json::Map::new();
    for (name, entries) in body["piles"].as_object().expect("piles") {
        let mut cards = serde_json::Map::new();
        for entry in entries.as_array().expect("a pile's cards") {
            let reference = entry["ref"].as_str().expect("a ref").to_owned();
            cards.insert(reference, entry["count"].clone());
        }
        piles.insert(name.clone(), Value::Object(cards));
    }
    Value::Object(piles)
}

async fn validate(
    client: &reqwest::Client,
    api: &str,
    game: &str,
    token: Option<&str>,
    body: Value,
) -> (u16, Value) {
    send(
        client
            .post(format!("{api}/{game}/decks:validate"))
            .json(&body),
        token,
    )
    .await
}

fn messages(body: &Value) -> Vec<String> {
    body["issues"]
        .as_array()
        .map(|issues| {
            issues
                .iter()
                .filter_map(|issue| issue["message"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn sorted(mut lines: Vec<String>) -> Vec<String> {
    lines.sort();
    lines
}

#[tokio::test(flavor = "multi_thread")]
async fn the_rulesets_guide_tutorial_end_to_end() {
    let platform = support::SamplePlatform::with_card_data(&["lor"]).await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let ana = ownership::session(&client, api, "Ana").await;

    // 1. The deck rule, on the tutorial's deck code: exactly its two messages.
    let two_of_source = guide_script("### 1. Write a deck rule");
    let two_of = create(
        &client,
        api,
        &ana,
        "lor",
        json!({"name": "Two-of Standard", "scope": "deck", "source": two_of_source}),
    )
    .await;
    let deck = import(&client, api, "lor", TWO_OF_CODE).await;
    let main = deck["main"].clone();
    let (status, body) = validate(
        &client,
        api,
        "lor",
        Some(&ana),
        json!({"piles": [{"name": "Deck", "cards": main}], "deckRule": two_of,
               "cardRule": "lor-eternal"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["valid"], false, "{body}");
    assert_eq!(
        sorted(messages(&body)),
        ["Deny is banned.", "Zed: at most 2 copies (found 3)."],
        "{body}"
    );
    // The default Standard card rule adds its lines for the cards out of Standard.
    let (status, standard) = validate(
        &client,
        api,
        "lor",
        Some(&ana),
        json!({"piles": [{"name": "Deck", "cards": deck["main"]}], "deckRule": two_of,
               "cardRule": "lor-standard"}),
    )
    .await;
    assert_eq!(status, 200, "{standard}");
    let standard_lines = messages(&standard);
    assert!(
        standard_lines
            .iter()
            .any(|line| line.ends_with(": Only Standard-legal cards can be submitted")),
        "{standard}"
    );
    assert!(standard_lines.contains(&"Deny is banned.".to_owned()));

    // 2. The deck set rule on the two lineup codes.
    let shared = create(
        &client,
        api,
        &ana,
        "lor",
        json!({"name": "No shared champions", "scope": "deckset",
               "source": guide_script("### 3. Add a deck set rule")}),
    )
    .await;
    let first = import(&client, api, "lor", LINEUP_CODES[0]).await;
    let second = import(&client, api, "lor", LINEUP_CODES[1]).await;
    let (status, body) = validate(
        &client,
        api,
        "lor",
        Some(&ana),
        json!({"piles": [{"name": "Deck 1", "cards": first["main"]},
                         {"name": "Deck 2", "cards": second["main"]}],
               "decksetRule": shared}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(messages(&body), ["Zed is in deck 1 and deck 2."], "{body}");
    assert_eq!(body["deckset"]["valid"], false);

    // 3. The pool filter, added below the deck rule: Ionia and Piltover & Zaun.
    let with_filter = format!("{two_of_source}\n{}", guide_script("## Pool filters"));
    let (status, _) = send(
        client
            .patch(format!("{api}/lor/rulesets/{two_of}"))
            .json(&json!({"source": with_filter})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 200);
    let cards_by_id = cards_by_id(&client, api, &second["main"]).await;
    let (status, body) = send(
        client
            .post(format!("{api}/scripts:resolvePoolFilters"))
            .json(&json!({
                "script": {"ruleset": two_of},
                "game": "lor",
                "input": {"lineup": [{"pileId": "p1", "cards": second["main"]}],
                          "activePileId": "p1", "cardsById": cards_by_id, "filters": {}},
            })),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let mut regions: Vec<&str> = body["patch"]["regionRefs"]
        .as_array()
        .expect("the regions")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    regions.sort_unstable();
    assert_eq!(regions, ["Ionia", "PiltoverZaun"], "{body}");
}

/// The cards of `pile` (`{ref: copies}`), by ref, as the catalog answers them.
async fn cards_by_id(client: &reqwest::Client, api: &str, pile: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for reference in pile.as_object().expect("a pile").keys() {
        let (status, card) = send(client.get(format!("{api}/lor/cards/{reference}")), None).await;
        assert_eq!(status, 200, "{reference}: {card}");
        out.insert(reference.clone(), card);
    }
    Value::Object(out)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_riftbound_deck_is_checked_pile_by_pile_then_as_a_whole() {
    let platform = support::SamplePlatform::with_card_data(&["riftbound"]).await;
    let (api, client) = (&platform.api, reqwest::Client::new());

    // The guide's sample: a 10-card main deck and a sideboard, in the Constructed template.
    let deck = import(&client, api, "riftbound", RIFT_SAMPLE).await;
    let template = |deck: &Value, maybeboard: Value| {
        json!({
            "piles": [
                {"name": "Legend", "cards": deck["legend"], "zoneRule": "riftbound-legend"},
                {"name": "Rune Deck", "cards": deck["runes"], "zoneRule": "riftbound-runes"},
                {"name": "Battlefields", "cards": deck["battlefields"],
                 "zoneRule": "riftbound-battlefields"},
                {"name": "Main Deck", "cards": deck["main"], "zoneRule": "riftbound-main-deck"},
                {"name": "Sideboard", "role": "sideboard", "cards": deck["sideboard"]},
                {"name": "Maybeboard", "role": "maybeboard", "cards": maybeboard,
                 "zoneRule": "riftbound-legend"},
            ],
            "cardRule": "riftbound-standard",
            "deckRule": "riftbound-constructed",
        })
    };
    let (status, body) = validate(
        &client,
        api,
        "riftbound",
        None,
        template(&deck, json!({"ogn-259-298": 5})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["valid"], false);
    let lines = messages(&body);
    assert_eq!(
        lines.first().map(String::as_str),
        Some("Main Deck: The main deck must contain exactly 40 cards."),
        "{body}"
    );
    // The whole-deck rule's issues follow, unprefixed; the maybeboard's five Legends count
    // nowhere (the whole deck still has exactly one).
    assert_eq!(
        lines.last().map(String::as_str),
        Some("The main deck must contain exactly 40 cards (found 10)."),
        "{body}"
    );
    assert!(!lines.iter().any(|line| line.contains("Legend")), "{body}");
    let rules: Vec<&str> = body["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .filter_map(|issue| issue["rule"].as_str())
        .collect();
    assert_eq!(rules, ["zone", "deck"], "{body}");
    assert_eq!(body["piles"][3]["valid"], false);
    assert_eq!(body["piles"][5]["zone"], Value::Null, "{body}");
    assert_eq!(body["deck"]["valid"], false);
    // The sideboard was checked as the sideboard: its card counts toward copies, not the main.
    assert!(
        body["cards"]
            .as_array()
            .expect("cards")
            .iter()
            .any(|card| card["ref"] == "ogn-050-298" && card["piles"] == json!(["Sideboard"])),
        "{body}"
    );

    // A legal 56-card deck of the real data passes every rule, with 11 sideboard cards the
    // only issue when the sideboard is over its 10.
    let legal = riftbound_deck(&cards(catalog::domain::Game::Riftbound));
    let zone = |kind: &[&str]| -> Value {
        let mut out = serde_json::Map::new();
        for (reference, copies, card) in &legal.lines {
            if kind.contains(&card["game"]["type"].as_str().unwrap_or_default()) {
                out.insert(reference.clone(), json!(copies));
            }
        }
        Value::Object(out)
    };
    let legal_deck = json!({
        "legend": zone(&["legend"]),
        "runes": zone(&["rune"]),
        "battlefields": zone(&["battlefield"]),
        "main": zone(&["unit", "spell", "gear"]),
        "sideboard": {},
    });
    let (status, body) = validate(
        &client,
        api,
        "riftbound",
        None,
        template(&legal_deck, json!({})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["valid"].as_bool(), messages(&body)),
        (Some(true), Vec::<String>::new()),
        "{body}"
    );

    // A rule that cannot run fails the check, naming it; a bad shape is a 400.
    let mut broken = template(&legal_deck, json!({}));
    broken["piles"][0]["zoneRule"] =
        json!({"source": "export default function () { return undefinedThing.x; }"});
    let (status, body) = validate(&client, api, "riftbound", None, broken).await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|message| message.starts_with("Legend's zone rule: ")),
        "{body}"
    );
    let (status, body) = validate(
        &client,
        api,
        "riftbound",
        None,
        json!({"piles": [{"name": "Main", "cards": {"ogn-043-298": 0}}]}),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("invalid_argument")),
        "{body}"
    );
    let (status, body) = validate(
        &client,
        api,
        "riftbound",
        None,
        json!({"piles": [], "deckRule": "riftbound-constructed",
               "decksetRule": "riftbound-any-lineup"}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    // An unknown card is an issue of the deck, not an error.
    let (status, body) = validate(
        &client,
        api,
        "riftbound",
        None,
        json!({"piles": [{"name": "Main Deck", "cards": {"zzz-999": 1}}]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["unknownRefs"], json!(["zzz-999"]));
    assert_eq!(
        messages(&body),
        ["Card zzz-999: zzz-999 is not a card of riftbound."]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn direct_bans_apply_when_a_card_rule_runs_by_reference() {
    let platform = support::SamplePlatform::with_card_data(&["lor"]).await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let ana = ownership::session(&client, api, "Ana").await;
    let rule = create(
        &client,
        api,
        &ana,
        "lor",
        json!({"name": "Eternal minus Deny", "scope": "card",
               "source": "export default function validateCard(card) { return true; }",
               "directBans": ["01IO049"]}),
    )
    .await;
    let deny = cards_by_id(&client, api, &json!({"01IO049": 1, "01IO009": 1})).await;
    let (status, body) = send(
        client
            .post(format!("{api}/scripts:runCardRule"))
            .json(&json!({
            "script": {"ruleset": rule}, "card": deny["01IO049"]})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({"valid": false, "issues": [{"code": "directly_banned",
               "message": "This card is directly banned by the selected ruleset."}]})
    );
    let (_, zed) = send(
        client
            .post(format!("{api}/scripts:runCardRule"))
            .json(&json!({
            "script": {"ruleset": rule}, "card": deny["01IO009"]})),
        Some(&ana),
    )
    .await;
    assert_eq!(zed["valid"], true, "{zed}");
    // Over a pool, and in a whole-deck check, with the card named.
    let (_, pool) = send(
        client
            .post(format!("{api}/scripts:filterCardPool"))
            .json(&json!({
            "script": {"ruleset": rule}, "game": "lor"})),
        Some(&ana),
    )
    .await;
    let banned: Vec<&str> = pool["verdicts"]
        .as_array()
        .expect("verdicts")
        .iter()
        .filter(|verdict| verdict["valid"] == false)
        .filter_map(|verdict| verdict["cardId"].as_str())
        .collect();
    assert_eq!(banned, ["01IO049"]);
    let (status, body) = validate(
        &client,
        api,
        "lor",
        Some(&ana),
        json!({"piles": [{"name": "Deck", "cards": {"01IO049": 2, "01IO009": 3}}],
               "cardRule": rule}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        messages(&body),
        ["Card Deny: This card is directly banned by the selected ruleset."]
    );
    // The same source given as a source has no bans: they belong to the ruleset.
    let (_, unbanned) = send(
        client
            .post(format!("{api}/scripts:runCardRule"))
            .json(&json!({
            "script": {"source": "export default function validateCard(card) { return true; }"},
            "card": deny["01IO049"]})),
        None,
    )
    .await;
    assert_eq!(unbanned["valid"], true);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_private_ruleset_checks_decks_only_for_those_who_may_see_it() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let callers = Callers::make(&client, api, "owner").await;
    let rule = create(
        &client,
        api,
        &callers.owner,
        "lor",
        json!({"name": "Mine", "scope": "deck",
               "source": "export default function validateDeck(deck) { return { valid: false, issues: ['mine'] }; }"}),
    )
    .await;
    let body = json!({"piles": [{"name": "Deck", "cards": {"01DE012": 1}}], "deckRule": rule});
    for (who, status, code) in [
        (Who::Owner, 200, None),
        (Who::Other, 404, Some("ruleset_not_found")),
        (Who::Anonymous, 404, Some("ruleset_not_found")),
        (Who::ReadOnly, 200, None),
        (Who::Revoked, 401, Some("unauthenticated")),
        (Who::Expired, 401, Some("unauthenticated")),
    ] {
        let (got, answer) = validate(&client, api, "lor", callers.token(who), body.clone()).await;
        assert_eq!(
            (got, answer["error"]["code"].as_str()),
            (status, code),
            "{who:?}: {answer}"
        );
        if got == 200 {
            assert_eq!(messages(&answer), ["mine"], "{who:?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_profile_lists_its_public_rulesets_by_scope_under_the_owners_username() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let ana = ownership::session(&client, api, "Ana").await;
    let bob = ownership::session(&client, api, "Bob").await;
    let source = |scope: &str| match scope {
        "card" => "export default function validateCard() { return true; }",
        "deck" => "export default function validateDeck() { return true; }",
        _ => "export default function validateDeckset() { return true; }",
    };
    let mut public = Vec::new();
    for (game, scope, name) in [
        ("lor", "card", "Public card"),
        ("lor", "deck", "Public deck"),
        ("riftbound", "deckset", "Public lineup"),
    ] {
        public.push(
            create(
                &client,
                api,
                &ana,
                game,
                json!({"name": name, "scope": scope, "source": source(scope), "public": true}),
            )
            .await,
        );
    }
    let private = create(
        &client,
        api,
        &ana,
        "lor",
        json!({"name": "Private", "scope": "deck", "source": source("deck")}),
    )
    .await;
    // A downloaded copy is not the saver's to show.
    let (status, _) = send(
        client.post(format!("{api}/lor/rulesets/{}:save", public[0])),
        Some(&bob),
    )
    .await;
    assert_eq!(status, 201);

    let names = |body: &Value, scope: &str| -> Vec<String> {
        body[scope]
            .as_array()
            .unwrap_or_else(|| panic!("{scope} in {body}"))
            .iter()
            .filter_map(|ruleset| ruleset["name"].as_str().map(str::to_owned))
            .collect()
    };
    // Anyone, in any case of the username.
    let (status, body) = send(client.get(format!("{api}/users/ANA/rulesets")), None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(names(&body, "card"), ["Public card"]);
    assert_eq!(names(&body, "deck"), ["Public deck"]);
    assert_eq!(names(&body, "deckset"), ["Public lineup"]);
    assert_eq!(body["deck"][0]["owner"], "Ana", "{body}");
    assert!(body["deck"][0]["source"].is_string());
    assert!(!body.to_string().contains(&private));
    let (_, lor_only) = send(
        client.get(format!("{api}/users/ana/rulesets?game=lor")),
        Some(&bob),
    )
    .await;
    assert_eq!(names(&lor_only, "deckset"), Vec::<String>::new());
    let (_, bobs) = send(client.get(format!("{api}/users/bob/rulesets")), None).await;
    assert_eq!(bobs, json!({"card": [], "deck": [], "deckset": []}));
    let (status, body) = send(client.get(format!("{api}/users/nobody/rulesets")), None).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("not_found"))
    );
    let (status, _) = send(
        client.get(format!("{api}/users/ana/rulesets?game=chess")),
        None,
    )
    .await;
    assert_eq!(status, 400);

    // Unpublished, it leaves the profile; the copy saved from it keeps working.
    let (status, _) = send(
        client
            .patch(format!("{api}/lor/rulesets/{}", public[0]))
            .json(&json!({"public": false})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 200);
    let (_, body) = send(client.get(format!("{api}/users/ana/rulesets")), None).await;
    assert_eq!(names(&body, "card"), Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_copy_saved_from_a_tournaments_rules_shows_update_available_until_updated() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let author = ownership::session(&client, api, "Ana").await;
    let reader = ownership::session(&client, api, "Bob").await;
    let original = create(
        &client,
        api,
        &author,
        "lor",
        json!({"name": "Event rule", "scope": "card", "public": true,
               "source": "export default function validateCard() { return true; }"}),
    )
    .await;
    // A tournament's Rules tab saves the exact version the tournament uses, over gRPC.
    let scripts = ScriptsClient::connect_lazy(&platform.grpc)
        .expect("a valid URL")
        .with_bearer(Some(Bearer::new(reader.clone())));
    let saved = scripts
        .save_ruleset(pb::SaveRulesetRequest {
            game: proto::game::to_wire(proto::game::Game::Lor),
            id: original.clone(),
            version: Some(1),
            from: "tournament".to_owned(),
            tournament: String::new(),
        })
        .await
        .expect("saved")
        .ruleset
        .expect("the copy");
    assert_eq!(
        (
            saved.update_available,
            saved.origin.as_ref().map(|o| o.from.as_str())
        ),
        (false, Some("tournament"))
    );
    // From a profile, a copy never shows updates.
    let (_, from_profile) = send(
        client.post(format!("{api}/lor/rulesets/{original}:save")),
        Some(&reader),
    )
    .await;
    let (status, _) = send(
        client
            .patch(format!("{api}/lor/rulesets/{original}"))
            .json(&json!({"name": "Event rule v2",
                          "source": "export default function validateCard(card) { return card.name !== 'Zed'; }"})),
        Some(&author),
    )
    .await;
    assert_eq!(status, 200);
    let (_, copy) = send(
        client.get(format!("{api}/lor/rulesets/{}", saved.id)),
        Some(&reader),
    )
    .await;
    assert_eq!(
        (
            copy["ruleset"]["updateAvailable"].as_bool(),
            copy["ruleset"]["version"].as_u64()
        ),
        (Some(true), Some(1)),
        "{copy}"
    );
    let profile_copy = from_profile["ruleset"]["id"].as_str().expect("an id");
    let (_, other) = send(
        client.get(format!("{api}/lor/rulesets/{profile_copy}")),
        Some(&reader),
    )
    .await;
    assert_eq!(other["ruleset"]["updateAvailable"], false, "{other}");
    // The listing says so too; "update" moves it and takes the author's name.
    let (_, listed) = send(
        client.get(format!("{api}/lor/rulesets?scope=card")),
        Some(&reader),
    )
    .await;
    assert!(
        listed["rulesets"]
            .as_array()
            .expect("a list")
            .iter()
            .any(|r| r["id"] == saved.id.as_str() && r["updateAvailable"] == true),
        "{listed}"
    );
    let (status, updated) = send(
        client.post(format!("{api}/lor/rulesets/{}:update", saved.id)),
        Some(&reader),
    )
    .await;
    assert_eq!(status, 200, "{updated}");
    assert_eq!(
        (
            updated["ruleset"]["updateAvailable"].as_bool(),
            updated["ruleset"]["version"].as_u64(),
            updated["ruleset"]["name"].as_str()
        ),
        (Some(false), Some(2), Some("Event rule v2"))
    );
}
