//! Templates through the gateway of the all-in-one process: Riftbound's built-in Constructed
//! template exactly as the deck builder guide's table, read by anyone and changed by no one,
//! hidden and shown again; Save as Template only while every pile is empty and with a deck set
//! rule, the same name updating it, a pinned or recommended card ruleset; a pasted deck read
//! into the Constructed template's piles by card type (and a layout without a sideboard pile
//! leaving it out); profiles' public templates; and the ownership matrix.

use serde_json::{Value, json};

use crate::deck_import::RIFT1;
use crate::ownership::{self, Callers, Who, send};
use crate::support;

/// A LoR lineup layout of two empty piles, for a deck set rule.
fn lineup(name: &str) -> Value {
    json!({
        "name": name,
        "layout": "multi-deck",
        "piles": [{"name": "Deck 1"}, {"name": "Deck 2", "column": 1}],
        "openPile": 1,
        "decksetRule": "lor-riot-lock",
        "cardRuleset": {"ruleset": "lor-eternal", "mode": "pinned"},
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn the_constructed_template_is_the_guides_table_and_nobody_changes_it() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let (status, body) = send(client.get(format!("{api}/riftbound/templates")), None).await;
    assert_eq!(status, 200, "{body}");
    let template = &body["templates"][0];
    assert_eq!(template["id"], "riftbound-constructed");
    assert_eq!(template["name"], "Constructed");
    assert_eq!(template["builtIn"], true);
    assert_eq!(template["owner"], Value::Null);
    let piles: Vec<(&str, &str, Option<&str>)> = template["piles"]
        .as_array()
        .expect("piles")
        .iter()
        .map(|pile| {
            (
                pile["name"].as_str().expect("a name"),
                pile["role"].as_str().expect("a role"),
                pile["zoneRule"]["ruleset"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        piles,
        [
            ("Legend", "main", Some("riftbound-legend")),
            ("Rune Deck", "main", Some("riftbound-runes")),
            ("Battlefields", "main", Some("riftbound-battlefields")),
            ("Main Deck", "main", Some("riftbound-main-deck")),
            ("Sideboard", "sideboard", None),
            ("Maybeboard", "maybeboard", None),
        ]
    );
    assert_eq!(template["openPile"], 0, "it opens on the Legend");
    assert_eq!(
        template["cardRuleset"],
        json!({"ruleset": "riftbound-standard", "mode": "recommended"})
    );
    assert!(template["piles"][0].get("cards").is_none(), "never cards");
    let (status, none) = send(client.get(format!("{api}/lor/templates")), None).await;
    assert_eq!(status, 200);
    assert_eq!(
        none["templates"],
        json!([]),
        "LoR has no built-in template yet"
    );

    let url = format!("{api}/riftbound/templates/riftbound-constructed");
    let (status, read) = send(client.get(&url), None).await;
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["template"], *template);
    let ana = ownership::session(&client, api, "ana").await;
    for (token, status) in [(None, 401), (Some(ana.as_str()), 403)] {
        let (got, body) = send(client.patch(&url).json(&json!({"name": "Mine"})), token).await;
        assert_eq!(got, status, "{body}");
        let (got, body) = send(client.delete(&url), token).await;
        assert_eq!(got, status, "{body}");
    }

    // Hidden from the caller's pickers, shown when asked, and shown again.
    let (status, hidden) = send(client.post(format!("{url}:hide")), Some(&ana)).await;
    assert_eq!(status, 200, "{hidden}");
    assert_eq!(hidden["template"]["hidden"], true);
    let listed = |token: String, query: &'static str| {
        let client = client.clone();
        let url = format!("{api}/riftbound/templates{query}");
        async move {
            let (_, body) = send(client.get(url), Some(&token)).await;
            body["templates"]
                .as_array()
                .expect("templates")
                .iter()
                .map(|t| {
                    (
                        t["id"].as_str().unwrap_or_default().to_owned(),
                        t["hidden"] == true,
                    )
                })
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(listed(ana.clone(), "").await, []);
    assert_eq!(
        listed(ana.clone(), "?includeHidden=true").await,
        [("riftbound-constructed".to_owned(), true)]
    );
    let (status, _) = send(client.post(format!("{url}:show")), Some(&ana)).await;
    assert_eq!(status, 200);
    assert_eq!(
        listed(ana.clone(), "").await,
        [("riftbound-constructed".to_owned(), false)]
    );
    let (status, _) = send(client.post(format!("{url}:hide")), None).await;
    assert_eq!(status, 401, "hiding needs an account");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_template_is_saved_empty_for_a_deck_set_rule_and_the_same_name_updates_it() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let ana = ownership::session(&client, api, "ana").await;
    let save = |body: Value| client.post(format!("{api}/lor/templates")).json(&body);

    let mut with_cards = lineup("Best of three");
    with_cards["piles"][1]["cards"] = json!({"01DE012": 3});
    let (status, body) = send(save(with_cards), Some(&ana)).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["code"], "template_not_empty");
    let mut without_rule = lineup("Best of three");
    without_rule
        .as_object_mut()
        .expect("an object")
        .remove("decksetRule");
    let (status, body) = send(save(without_rule), Some(&ana)).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "deckset_rule_required");
    let mut bad_open = lineup("Best of three");
    bad_open["openPile"] = json!(2);
    let (status, body) = send(save(bad_open), Some(&ana)).await;
    assert_eq!(status, 400, "{body}");

    let (status, first) = send(save(lineup("Best of three")), Some(&ana)).await;
    assert_eq!(status, 201, "{first}");
    let template = &first["template"];
    assert!(template["id"].as_str().expect("an id").starts_with("tp_"));
    assert_eq!(template["owner"], "ana");
    assert_eq!(template["public"], false);
    assert_eq!(template["layout"], "multi-deck");
    assert_eq!(template["openPile"], 1);
    assert_eq!(template["decksetRule"], json!({"ruleset": "lor-riot-lock"}));
    assert_eq!(
        template["cardRuleset"],
        json!({"ruleset": "lor-eternal", "mode": "pinned"}),
        "Also save the card ruleset pins it"
    );
    assert_eq!(template["piles"][1]["column"], 1);

    let mut again = lineup("BEST OF THREE");
    again["cardRuleset"] = json!({"ruleset": "lor-standard"});
    let (status, second) = send(save(again), Some(&ana)).await;
    assert_eq!(status, 200, "{second}");
    assert_eq!(second["replaced"], true);
    assert_eq!(
        second["template"]["id"], template["id"],
        "the same template"
    );
    assert_eq!(
        second["template"]["cardRuleset"],
        json!({"ruleset": "lor-standard", "mode": "recommended"})
    );

    // Renamed, published: on the profile, and its link opens for anyone.
    let url = format!(
        "{api}/lor/templates/{}",
        template["id"].as_str().expect("id")
    );
    let (status, _) = send(
        client
            .patch(&url)
            .json(&json!({"name": "Bo3", "public": true})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 200);
    let (status, profile) = send(client.get(format!("{api}/users/Ana/templates")), None).await;
    assert_eq!(status, 200, "{profile}");
    assert_eq!(profile["templates"][0]["name"], "Bo3");
    let (status, opened) = send(client.get(&url), None).await;
    assert_eq!(status, 200, "{opened}");
    // One's own template is deleted, not hidden.
    let (status, body) = send(client.post(format!("{url}:hide")), Some(&ana)).await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = send(client.delete(&url), Some(&ana)).await;
    assert_eq!(status, 204);
    let (status, _) = send(client.get(&url), Some(&ana)).await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pasted_deck_lands_in_the_constructed_templates_piles_by_card_type() {
    let platform = support::SamplePlatform::with_card_data(&["riftbound"]).await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let (status, body) = send(
        client
            .post(format!(
                "{api}/riftbound/templates/riftbound-constructed:import"
            ))
            .json(&json!({"text": RIFT1})),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["format"], "rift1");
    let piles: Vec<(&str, u64)> = body["piles"]
        .as_array()
        .expect("piles")
        .iter()
        .map(|pile| {
            let copies = pile["cards"]
                .as_object()
                .expect("cards")
                .values()
                .filter_map(Value::as_u64)
                .sum();
            (pile["name"].as_str().expect("a name"), copies)
        })
        .collect();
    assert_eq!(
        piles,
        [
            ("Legend", 1),
            ("Rune Deck", 12),
            ("Battlefields", 3),
            ("Main Deck", 10),
            ("Sideboard", 2),
            ("Maybeboard", 0),
        ]
    );
    assert_eq!(body["piles"][0]["cards"], json!({"ogn-259-298": 1}));
    assert_eq!(body["warnings"], json!([]));

    // A layout without a sideboard pile leaves the sideboard out and says how many cards.
    let ana = ownership::session(&client, api, "ana").await;
    let (status, saved) = send(
        client
            .post(format!("{api}/riftbound/templates"))
            .json(&json!({
                "name": "One pile",
                "piles": [{"name": "Everything"}],
                "decksetRule": "riftbound-any-lineup",
            })),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 201, "{saved}");
    let id = saved["template"]["id"].as_str().expect("an id");
    let (status, body) = send(
        client
            .post(format!("{api}/riftbound/templates/{id}:import"))
            .json(&json!({"text": RIFT1})),
        Some(&ana),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let copies: u64 = body["piles"][0]["cards"]
        .as_object()
        .expect("cards")
        .values()
        .filter_map(Value::as_u64)
        .sum();
    assert_eq!(copies, 26, "every zone but the sideboard in the one pile");
    assert!(
        body["warnings"].to_string().contains("2 cards left out"),
        "{body}"
    );
    // Another account cannot import into a private template it cannot see.
    let bob = ownership::session(&client, api, "bob").await;
    let (status, _) = send(
        client
            .post(format!("{api}/riftbound/templates/{id}:import"))
            .json(&json!({"text": RIFT1})),
        Some(&bob),
    )
    .await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ownership_matrix_on_a_private_and_then_a_public_template() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let callers = Callers::make(&client, api, "owner").await;
    callers
        .expect(
            "saving a template",
            &[
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
            ],
            || {
                client
                    .post(format!("{api}/lor/templates"))
                    .json(&lineup("Nope"))
            },
        )
        .await;
    let (status, made) = send(
        client
            .post(format!("{api}/lor/templates"))
            .json(&lineup("Mine")),
        Some(&callers.owner),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let url = format!(
        "{api}/lor/templates/{}",
        made["template"]["id"].as_str().expect("an id")
    );
    callers
        .expect_private_then_public(&client, "template", &url, || {
            client.patch(&url).json(&json!({"name": "Renamed"}))
        })
        .await;
}
