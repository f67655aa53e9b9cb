//! The search language through the real binary: the gateway's `cards:search` (gateway →
//! search service → catalog service's card stream) and `turnier search` on the command line.

use crate::support;

use support::run;

#[tokio::test(flavor = "multi_thread")]
async fn the_gateway_searches_and_explains_and_refuses_a_broken_query_with_its_position() {
    let platform = support::SamplePlatform::start().await;
    let base = &platform.api;

    let client = reqwest::Client::new();
    let found: serde_json::Value = client
        .get(format!("{base}/pokemon/cards:search"))
        .query(&[("q", "pkachu")])
        .send()
        .await
        .expect("search")
        .json()
        .await
        .expect("JSON");
    assert_eq!(found["totalSize"], 1, "{found}");
    assert_eq!(found["cards"][0]["name"], "Pikachu ex");
    assert_eq!(found["nextPageToken"], "");

    let warned: serde_json::Value = client
        .get(format!("{base}/lor/cards:search"))
        .query(&[("q", "nosuchfield:x")])
        .send()
        .await
        .expect("search")
        .json()
        .await
        .expect("JSON");
    assert_eq!(warned["totalSize"], 0);
    assert!(
        warned["warnings"].to_string().contains("nosuchfield"),
        "{warned}"
    );

    let broken = client
        .get(format!("{base}/riftbound/cards:search"))
        .query(&[("q", "(jinx")])
        .send()
        .await
        .expect("search");
    assert_eq!(broken.status(), 400);
    let error: serde_json::Value = broken.json().await.expect("JSON");
    assert_eq!(error["error"]["code"], "invalid_query", "{error}");
    assert_eq!(error["error"]["details"]["position"], 0, "{error}");

    let explained: serde_json::Value = client
        .get(format!("{base}/pokemon/cards:explain"))
        .query(&[("q", "t:water hp>=120")])
        .send()
        .await
        .expect("explain")
        .json()
        .await
        .expect("JSON");
    assert!(explained["tree"].is_object(), "{explained}");

    // The explanation keeps its documented key order and integer positions on every call (it
    // once went through a protobuf Struct: floats, and a map's order).
    let explain = || async {
        client
            .get(format!("{base}/pokemon/cards:explain"))
            .query(&[("q", "t:water (hp>=120 or is:ex) foo:bar order:name")])
            .send()
            .await
            .expect("explain")
            .text()
            .await
            .expect("a body")
    };
    let first = explain().await;
    for _ in 0..5 {
        assert_eq!(explain().await, first);
    }
    let explained: serde_json::Value = serde_json::from_str(&first).expect("JSON");
    let keys: Vec<&str> = explained
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "query",
            "tree",
            "warnings",
            "order",
            "descending",
            "uniquePrints",
            "rankedByName"
        ]
    );
    fn numbers(value: &serde_json::Value, found: &mut Vec<serde_json::Number>) {
        match value {
            serde_json::Value::Number(number) => found.push(number.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|v| numbers(v, found)),
            serde_json::Value::Object(map) => map.values().for_each(|v| numbers(v, found)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    numbers(&explained, &mut found);
    assert!(!found.is_empty(), "the tree has positions: {first}");
    assert!(found.iter().all(|n| n.is_u64() || n.is_i64()), "{first}");
}

#[test]
fn turnier_search_prints_refs_and_names_or_a_count() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = tempfile::tempdir().expect("temp dir");
    let env = [(
        "TURNIER_DATA_DIR",
        data.path().to_str().expect("UTF-8 path"),
    )];
    let lines = run(dir.path(), &["search", "--game", "riftbound", "jinx"], &env);
    assert!(
        lines.status.success(),
        "{}",
        String::from_utf8_lossy(&lines.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&lines.stdout),
        "ogn-030-298\tJinx - Demolitionist\n"
    );

    let count = run(
        dir.path(),
        &["search", "--game", "pokemon", "is:ex", "--count"],
        &env,
    );
    assert_eq!(String::from_utf8_lossy(&count.stdout).trim(), "1");

    let json = run(
        dir.path(),
        &["search", "--game", "lor", "garen", "--json"],
        &env,
    );
    let card: serde_json::Value = serde_json::from_slice(&json.stdout).expect("card JSON");
    assert_eq!(card["id"], "01DE012");

    let broken = run(dir.path(), &["search", "--game", "lor", "(garen"], &env);
    assert!(!broken.status.success());
    assert!(String::from_utf8_lossy(&broken.stderr).contains("position 0"));
}
