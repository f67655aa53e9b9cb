//! Importing a pasted deck through the gateway: gateway → decks service → catalog service, all
//! over real HTTP and gRPC in the all-in-one process (sample catalog).

use crate::support;

#[tokio::test(flavor = "multi_thread")]
async fn a_pasted_list_comes_back_in_piles_with_its_format_and_skipped_lines() {
    let platform = support::SamplePlatform::start().await;
    let base = &platform.api;

    let client = reqwest::Client::new();
    let list = "Pokémon: 1\n4 Pikachu ex SVP 106\nnot a card line\n2 Nobody PAL 999\n";
    let response = client
        .post(format!("{base}/pokemon/decks:import"))
        .json(&serde_json::json!({ "text": list }))
        .send()
        .await
        .expect("import");
    assert_eq!(response.status(), 200);
    let deck: serde_json::Value = response.json().await.expect("JSON");
    assert_eq!(deck["format"], "ptcg-live");
    assert_eq!(deck["piles"]["main"][0]["ref"], "svp-106");
    assert_eq!(deck["piles"]["main"][0]["count"], 4);
    assert_eq!(deck["piles"]["main"][0]["name"], "Pikachu ex");
    let lines: Vec<u64> = deck["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter_map(|w| w["line"].as_u64())
        .collect();
    assert_eq!(lines, [3, 4], "{deck}");

    // Exported as a Pokémon TCG Live list and pasted back: the same deck.
    let export: serde_json::Value = client
        .post(format!("{base}/pokemon/decks:export"))
        .json(&serde_json::json!({
            "format": "ptcg-live",
            "cards": [{"ref": "svp-106", "count": 4}],
        }))
        .send()
        .await
        .expect("export")
        .json()
        .await
        .expect("JSON");
    let text = export["text"].as_str().expect("text");
    assert!(text.contains("4 Pikachu ex"), "{text}");
    let again: serde_json::Value = client
        .post(format!("{base}/pokemon/decks:import"))
        .json(&serde_json::json!({ "text": text }))
        .send()
        .await
        .expect("import")
        .json()
        .await
        .expect("JSON");
    assert_eq!(
        again["piles"]["main"][0]["cardId"],
        deck["piles"]["main"][0]["cardId"]
    );
    assert_eq!(again["warnings"], serde_json::json!([]), "{again}");

    let wrong_format = client
        .post(format!("{base}/pokemon/decks:export"))
        .json(&serde_json::json!({ "format": "rift1", "cards": [] }))
        .send()
        .await
        .expect("export");
    assert_eq!(wrong_format.status(), 400);
    let error: serde_json::Value = wrong_format.json().await.expect("JSON");
    assert_eq!(error["error"]["code"], "unexportable_deck", "{error}");

    let bad_layout = client
        .post(format!("{base}/pokemon/decks:import"))
        .json(&serde_json::json!({ "text": list, "layout": "sideways" }))
        .send()
        .await
        .expect("import");
    assert_eq!(bad_layout.status(), 400);
    let single = client
        .post(format!("{base}/pokemon/decks:import"))
        .json(&serde_json::json!({ "text": list, "layout": "single-deck" }))
        .send()
        .await
        .expect("import");
    assert_eq!(single.status(), 200);

    let unreadable = client
        .post(format!("{base}/lor/decks:import"))
        .json(&serde_json::json!({ "text": "definitely not a deck" }))
        .send()
        .await
        .expect("import");
    assert_eq!(unreadable.status(), 400);
    let error: serde_json::Value = unreadable.json().await.expect("JSON");
    assert_eq!(error["error"]["code"], "unreadable_deck", "{error}");

    let formats: serde_json::Value = client
        .get(format!("{base}/riftbound/decks:formats"))
        .send()
        .await
        .expect("formats")
        .json()
        .await
        .expect("JSON");
    let ids: Vec<&str> = formats["formats"]
        .as_array()
        .expect("formats")
        .iter()
        .filter_map(|f| f["id"].as_str())
        .collect();
    assert_eq!(
        ids,
        ["rift1", "piltover-code", "piltover-list", "turny-list"]
    );
}
