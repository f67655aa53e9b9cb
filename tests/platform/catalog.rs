//! The catalog through the real binary: the gateway's card routes over the all-in-one
//! platform (sample catalog), and `turnier card show` / `turnier catalog import` on the
//! command line.

use crate::support;

use support::{run, wait_for_http_status};

#[tokio::test(flavor = "multi_thread")]
async fn the_gateway_serves_cards_sets_and_globals_from_the_sample_catalog() {
    let mut platform = support::SamplePlatform::start().await;
    let base = platform.api.clone();
    let body = wait_for_http_status(
        &mut platform.process,
        &format!("{base}/pokemon/cards/svp-106"),
        200,
    )
    .await;
    let card: serde_json::Value = serde_json::from_str(&body).expect("card JSON");
    assert_eq!(card["name"], "Pikachu ex");
    assert_eq!(card["game"]["supertype"], "Pokemon");
    assert!(card["game"]["hp"].is_string(), "{card}");

    let client = reqwest::Client::new();
    let batch: serde_json::Value = client
        .post(format!("{base}/pokemon/cards:batchGet"))
        .json(&serde_json::json!({"refs": ["svp-106", "nope-9", "me2pt5-276"]}))
        .send()
        .await
        .expect("batchGet")
        .json()
        .await
        .expect("JSON");
    let keys: Vec<&String> = batch["cardsById"]
        .as_object()
        .expect("object")
        .keys()
        .collect();
    assert_eq!(keys, ["svp-106", "me2pt5-276"], "refs keep the order given");
    assert_eq!(
        batch["cardsById"]["svp-106"]["id"],
        batch["cardsById"]["me2pt5-276"]["id"]
    );
    assert_eq!(batch["unknownRefs"], serde_json::json!(["nope-9"]));

    let missing = client
        .get(format!("{base}/lor/cards/99XX999"))
        .send()
        .await
        .expect("get");
    assert_eq!(missing.status(), 404);
    let error: serde_json::Value = missing.json().await.expect("JSON");
    assert_eq!(error["error"]["code"], "card_not_found");

    let unknown_game = client
        .get(format!("{base}/mtg/sets"))
        .send()
        .await
        .expect("get");
    assert_eq!(unknown_game.status(), 404);

    let sets: serde_json::Value = client
        .get(format!("{base}/riftbound/sets"))
        .send()
        .await
        .expect("sets")
        .json()
        .await
        .expect("JSON");
    assert_eq!(sets["sets"][0]["code"], "OGN");
    let globals: serde_json::Value = client
        .get(format!("{base}/lor/globals"))
        .send()
        .await
        .expect("globals")
        .json()
        .await
        .expect("JSON");
    assert!(globals["regions"]["Demacia"].is_object(), "{globals}");
}

#[test]
fn card_show_prints_a_card_from_the_local_catalog() {
    let dir = tempfile::tempdir().expect("temp dir");
    // An empty data folder: the sample catalog only, whatever lies beside the checkout.
    let data = tempfile::tempdir().expect("temp dir");
    let no_data = [(
        "TURNIER_DATA_DIR",
        data.path().to_str().expect("UTF-8 path"),
    )];
    let output = run(
        dir.path(),
        &["card", "show", "--game", "riftbound", "ogn-030a-298"],
        &no_data,
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let card: serde_json::Value = serde_json::from_slice(&output.stdout).expect("card JSON");
    assert!(
        card["id"].as_str().is_some_and(|id| id.starts_with("rb-")),
        "{card}"
    );

    let missing = run(
        dir.path(),
        &["card", "show", "--game", "lor", "nope"],
        &no_data,
    );
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no card `nope` in the lor catalog"));
}

#[test]
fn catalog_import_reads_a_data_folder_and_a_second_import_changes_nothing() {
    let data = support::data_dir();
    let dir = tempfile::tempdir().expect("temp dir");
    let lor = data.join("lor");
    let from = lor.to_str().expect("UTF-8 path");
    let first = run(
        dir.path(),
        &["catalog", "import", "--game", "lor", "--from", from],
        &[],
    );
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&first.stdout).expect("summary JSON");
    assert!(
        summary["cards"].as_u64().is_some_and(|n| n > 2000),
        "{summary}"
    );
    assert_eq!(summary["changed"], true);
    assert!(
        String::from_utf8_lossy(&first.stderr).contains("lor: reading"),
        "progress is shown"
    );

    let second = run(
        dir.path(),
        &["catalog", "import", "--game", "lor", "--from", from],
        &[],
    );
    let summary: serde_json::Value = serde_json::from_slice(&second.stdout).expect("summary JSON");
    assert_eq!(summary["changed"], false);

    // The folder above the game's folder works too; a folder with no cards is refused rather
    // than emptying the catalog.
    let root = data.to_str().expect("UTF-8 path");
    let third = run(
        dir.path(),
        &["catalog", "import", "--game", "lor", "--from", root],
        &[],
    );
    let summary: serde_json::Value = serde_json::from_slice(&third.stdout).expect("summary JSON");
    assert_eq!(summary["changed"], false, "{summary}");
    let empty = tempfile::tempdir().expect("temp dir");
    let refused = run(
        dir.path(),
        &[
            "catalog",
            "import",
            "--game",
            "lor",
            "--from",
            empty.path().to_str().expect("UTF-8"),
        ],
        &[],
    );
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no lor cards found"));

    let garen = run(
        dir.path(),
        &["card", "show", "--game", "lor", "01DE012"],
        &[],
    );
    let card: serde_json::Value = serde_json::from_slice(&garen.stdout).expect("card JSON");
    assert_eq!(card["game"]["supertypeRef"], "Champion");
}
