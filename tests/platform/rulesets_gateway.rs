//! Rulesets through the gateway of the all-in-one process: the built-in rules of a game listed
//! and read by anyone and changed by no one, a ruleset's life (create, read, a new version for
//! a new source and none for a new name, delete), unsafe sources refused, and the ownership
//! matrix of the accounts issue on a private and then a public ruleset.

use serde_json::{Value, json};

use crate::ownership::{Callers, Who, send};
use crate::support;

const RULE: &str = "export default function validateCard(card) { return true; }";

#[tokio::test(flavor = "multi_thread")]
async fn built_in_rules_are_listed_and_read_by_anyone_and_changed_by_no_one() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let (status, body) = send(client.get(format!("{api}/lor/rulesets")), None).await;
    assert_eq!(status, 200, "{body}");
    let ids: Vec<&str> = body["rulesets"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|ruleset| ruleset["id"].as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "lor-standard",
            "lor-eternal",
            "lor-riot-constructed",
            "lor-riot-lock"
        ]
    );
    let (status, body) = send(client.get(format!("{api}/lor/rulesets?scope=deck")), None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["rulesets"].as_array().map(Vec::len), Some(1), "{body}");
    assert_eq!(body["rulesets"][0]["id"], "lor-riot-constructed");
    let (status, body) = send(client.get(format!("{api}/lor/rulesets?scope=pile")), None).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("invalid_argument")),
        "{body}"
    );

    let (status, body) = send(client.get(format!("{api}/lor/rulesets/lor-standard")), None).await;
    assert_eq!(status, 200, "{body}");
    let keys: Vec<&str> = body["ruleset"]
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "id",
            "game",
            "name",
            "scope",
            "source",
            "version",
            "builtIn",
            "owner",
            "public",
            "enabled",
            "downloaded",
            "updateAvailable",
            "directBans",
            "createTime",
            "updateTime"
        ]
    );
    assert_eq!(body["ruleset"]["builtIn"], true);
    assert_eq!(body["ruleset"]["scope"], "card");
    assert!(
        body["ruleset"]["source"]
            .as_str()
            .is_some_and(|s| s.contains("Only Standard-legal"))
    );
    // Another game's id is not found under this game.
    let (status, _) = send(
        client.get(format!("{api}/pokemon/rulesets/lor-standard")),
        None,
    )
    .await;
    assert_eq!(status, 404);

    let session = crate::ownership::session(&client, api, "Ana").await;
    let (status, body) = send(
        client
            .patch(format!("{api}/lor/rulesets/lor-standard"))
            .json(&json!({"name": "Mine"})),
        Some(&session),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("permission_denied")),
        "{body}"
    );
    let (status, _) = send(
        client
            .patch(format!("{api}/lor/rulesets/lor-standard"))
            .json(&json!({"name": "Mine"})),
        None,
    )
    .await;
    assert_eq!(status, 401);
    let (status, _) = send(
        client.delete(format!("{api}/lor/rulesets/lor-standard")),
        Some(&session),
    )
    .await;
    assert_eq!(status, 403);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_ruleset_is_created_versioned_on_new_source_and_deleted_and_an_unsafe_one_is_refused() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let session = crate::ownership::session(&client, api, "Ana").await;
    let create = |body: Value| client.post(format!("{api}/pokemon/rulesets")).json(&body);

    let (status, body) = send(
        create(
            json!({"name": "Two-of", "scope": "card", "source": "fetch(\"https://example.com\")"}),
        ),
        Some(&session),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("unsafe_script")),
        "{body}"
    );
    assert!(
        body["error"]["details"]["issues"]
            .as_array()
            .is_some_and(|issues| !issues.is_empty()),
        "{body}"
    );
    let (status, body) = send(
        create(json!({"name": "Two-of", "scope": "card", "source": RULE})),
        None,
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("unauthenticated")),
        "{body}"
    );
    let (status, body) = send(
        create(json!({"name": "Decks", "scope": "deck", "source": RULE, "directBans": ["sv2-11"]})),
        Some(&session),
    )
    .await;
    assert_eq!(status, 400, "direct bans are for card rules: {body}");

    let (status, made) = send(
        create(
            json!({"name": "Two-of", "scope": "card", "source": RULE, "directBans": ["sv2-11"]}),
        ),
        Some(&session),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let ruleset = &made["ruleset"];
    assert_eq!(
        (
            ruleset["version"].as_u64(),
            ruleset["public"].as_bool(),
            ruleset["builtIn"].as_bool()
        ),
        (Some(1), Some(false), Some(false))
    );
    assert_eq!(ruleset["directBans"], json!(["sv2-11"]));
    assert!(
        ruleset["createTime"]
            .as_str()
            .is_some_and(|t| t.parse::<jiff::Timestamp>().is_ok())
    );
    let id = ruleset["id"].as_str().expect("an id").to_owned();
    let url = format!("{api}/pokemon/rulesets/{id}");

    let (status, renamed) = send(
        client.patch(&url).json(&json!({"name": "Two-of Standard"})),
        Some(&session),
    )
    .await;
    assert_eq!(
        (status, renamed["ruleset"]["version"].as_u64()),
        (200, Some(1)),
        "{renamed}"
    );
    let changed = "export default function validateCard(card) { return card.name !== 'Iono'; }";
    let (status, body) = send(
        client.patch(&url).json(&json!({"source": changed})),
        Some(&session),
    )
    .await;
    assert_eq!(
        (status, body["ruleset"]["version"].as_u64()),
        (200, Some(2)),
        "{body}"
    );
    assert_eq!(body["ruleset"]["source"], changed);
    assert_eq!(body["ruleset"]["name"], "Two-of Standard");
    let (status, body) = send(
        client.patch(&url).json(&json!({"source": "eval('1')"})),
        Some(&session),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("unsafe_script")),
        "{body}"
    );

    let (_, listed) = send(
        client.get(format!("{api}/pokemon/rulesets?scope=card")),
        Some(&session),
    )
    .await;
    assert!(
        listed["rulesets"]
            .as_array()
            .is_some_and(|all| all.iter().any(|r| r["id"] == id.as_str())),
        "{listed}"
    );
    let (_, anonymous) = send(client.get(format!("{api}/pokemon/rulesets")), None).await;
    assert!(!anonymous.to_string().contains(&id), "{anonymous}");

    let (status, _) = send(client.delete(&url), Some(&session)).await;
    assert_eq!(status, 204);
    let (status, _) = send(client.get(&url), Some(&session)).await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ownership_matrix_on_a_private_and_then_a_public_ruleset() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let callers = Callers::make(&client, api, "owner").await;
    let (status, made) = send(
        client
            .post(format!("{api}/lor/rulesets"))
            .json(&json!({"name": "Mine", "scope": "card", "source": RULE})),
        Some(&callers.owner),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let url = format!(
        "{api}/lor/rulesets/{}",
        made["ruleset"]["id"].as_str().expect("an id")
    );
    let rename = || client.patch(&url).json(&json!({"name": "Renamed"}));

    callers
        .expect(
            "reading a private ruleset",
            &[
                (Who::Owner, 200),
                (Who::Other, 404),
                (Who::Anonymous, 404),
                (Who::ReadOnly, 200),
                (Who::Revoked, 401),
                (Who::Expired, 401),
            ],
            || client.get(&url),
        )
        .await;
    callers
        .expect(
            "changing a private ruleset",
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
        client.get(format!("{api}/lor/rulesets/rs_missing")),
        Some(&callers.other),
    )
    .await;
    assert_eq!(hidden["error"]["code"], missing["error"]["code"]);

    let (status, _) = send(
        client.patch(&url).json(&json!({"public": true})),
        Some(&callers.owner),
    )
    .await;
    assert_eq!(status, 200);
    callers
        .expect(
            "reading a public ruleset",
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
            "changing a public ruleset",
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
            "deleting a public ruleset",
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
    callers
        .expect(
            "reading it once deleted",
            &[(Who::Owner, 404), (Who::Other, 404)],
            || client.get(&url),
        )
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stored_ruleset_runs_by_reference_at_any_of_its_versions_for_those_who_may_see_it() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let owner = crate::ownership::session(&client, api, "Ana").await;
    let other = crate::ownership::session(&client, api, "Bob").await;
    let first = "export default function validateCard(card) { return { valid: false, issues: ['first'] }; }";
    let second = "export default function validateCard(card) { return { valid: false, issues: ['second'] }; }";
    let (status, made) = send(
        client
            .post(format!("{api}/lor/rulesets"))
            .json(&json!({"name": "Mine", "scope": "card", "source": first})),
        Some(&owner),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let id = made["ruleset"]["id"].as_str().expect("an id").to_owned();
    let (status, _) = send(
        client
            .patch(format!("{api}/lor/rulesets/{id}"))
            .json(&json!({"source": second})),
        Some(&owner),
    )
    .await;
    assert_eq!(status, 200);

    let run = |script: Value| {
        client
            .post(format!("{api}/scripts:runCardRule"))
            .json(&json!({"script": script, "card": {}}))
    };
    let message = |body: &Value| body["issues"][0]["message"].as_str().map(str::to_owned);
    let (status, body) = send(run(json!({"ruleset": id})), Some(&owner)).await;
    assert_eq!(
        (status, message(&body).as_deref()),
        (200, Some("second")),
        "{body}"
    );
    let (status, body) = send(run(json!({"ruleset": id, "version": 1})), Some(&owner)).await;
    assert_eq!(
        (status, message(&body).as_deref()),
        (200, Some("first")),
        "{body}"
    );
    for (token, version) in [
        (Some(other.as_str()), None),
        (None, None),
        (Some(owner.as_str()), Some(3)),
    ] {
        let mut script = json!({"ruleset": id});
        if let Some(version) = version {
            script["version"] = json!(version);
        }
        let (status, body) = send(run(script), token).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (404, Some("ruleset_not_found")),
            "{body}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_saved_copy_keeps_its_version_through_the_authors_edit_and_delete_and_duplicates_are_editable()
 {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let author = crate::ownership::session(&client, api, "Ana").await;
    let reader = crate::ownership::session(&client, api, "Bob").await;
    let first = "export default function validateCard(card) { return { valid: false, issues: ['first'] }; }";
    let second = "export default function validateCard(card) { return { valid: false, issues: ['second'] }; }";
    let (_, made) = send(
        client
            .post(format!("{api}/lor/rulesets"))
            .json(&json!({"name": "Shared", "scope": "card", "source": first})),
        Some(&author),
    )
    .await;
    let original = made["ruleset"]["id"].as_str().expect("an id").to_owned();
    let at = |id: &str, action: &str| client.post(format!("{api}/lor/rulesets/{id}:{action}"));

    // Private: nothing to save.
    let (status, _) = send(at(&original, "save"), Some(&reader)).await;
    assert_eq!(status, 404);
    let (status, _) = send(
        client
            .patch(format!("{api}/lor/rulesets/{original}"))
            .json(&json!({"public": true})),
        Some(&author),
    )
    .await;
    assert_eq!(status, 200);

    let (status, saved) = send(at(&original, "save"), Some(&reader)).await;
    assert_eq!(status, 201, "{saved}");
    let copy = &saved["ruleset"];
    assert_eq!(
        (copy["downloaded"].as_bool(), copy["version"].as_u64()),
        (Some(true), Some(1)),
        "{saved}"
    );
    assert_eq!(
        copy["origin"],
        json!({"ruleset": original, "version": 1, "from": "profile"})
    );
    assert_eq!(copy["name"], "Shared");
    let copy_id = copy["id"].as_str().expect("an id").to_owned();
    let copy_url = format!("{api}/lor/rulesets/{copy_id}");
    let (status, _) = send(
        client.patch(&copy_url).json(&json!({"name": "Mine now"})),
        Some(&reader),
    )
    .await;
    assert_eq!(status, 403, "a downloaded copy is read-only");
    let (status, body) = send(
        client.patch(&copy_url).json(&json!({"enabled": false})),
        Some(&reader),
    )
    .await;
    assert_eq!(
        (status, body["ruleset"]["enabled"].as_bool()),
        (200, Some(false)),
        "{body}"
    );

    // The author edits, then deletes: the copy keeps running version 1.
    let (status, _) = send(
        client
            .patch(format!("{api}/lor/rulesets/{original}"))
            .json(&json!({"source": second})),
        Some(&author),
    )
    .await;
    assert_eq!(status, 200);
    let (_, seen) = send(client.get(&copy_url), Some(&reader)).await;
    assert_eq!(
        (
            seen["ruleset"]["source"].as_str(),
            seen["ruleset"]["updateAvailable"].as_bool()
        ),
        (Some(first), Some(false)),
        "{seen}"
    );
    let (status, _) = send(
        client.delete(format!("{api}/lor/rulesets/{original}")),
        Some(&author),
    )
    .await;
    assert_eq!(status, 204);
    let (status, body) = send(
        client
            .post(format!("{api}/scripts:runCardRule"))
            .json(&json!({"script": {"ruleset": copy_id}, "card": {}})),
        Some(&reader),
    )
    .await;
    assert_eq!(
        (status, body["issues"][0]["message"].as_str()),
        (200, Some("first")),
        "{body}"
    );
    let (status, _) = send(at(&copy_id, "update"), Some(&reader)).await;
    assert_eq!(status, 404, "the original is gone");

    // Duplicates of a built-in and of the copy are private and editable.
    for id in ["lor-standard", copy_id.as_str()] {
        let (status, body) = send(at(id, "duplicate"), Some(&reader)).await;
        assert_eq!(status, 201, "{body}");
        let duplicate = &body["ruleset"];
        assert_eq!(
            (
                duplicate["builtIn"].as_bool(),
                duplicate["downloaded"].as_bool(),
                duplicate["public"].as_bool()
            ),
            (Some(false), Some(false), Some(false)),
            "{body}"
        );
        let url = format!(
            "{api}/lor/rulesets/{}",
            duplicate["id"].as_str().expect("an id")
        );
        let (status, _) = send(
            client.patch(&url).json(&json!({"name": "Edited"})),
            Some(&reader),
        )
        .await;
        assert_eq!(status, 200);
    }
    let (status, _) = send(at("lor-standard", "duplicate"), None).await;
    assert_eq!(status, 401);
    let (status, _) = send(at(&copy_id, "explode"), Some(&reader)).await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn update_moves_a_copy_to_the_originals_latest_version_and_name() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let author = crate::ownership::session(&client, api, "Ana").await;
    let reader = crate::ownership::session(&client, api, "Bob").await;
    let (_, made) = send(
        client
            .post(format!("{api}/lor/rulesets"))
            .json(&json!({"name": "Old name", "scope": "card", "source": RULE, "public": true})),
        Some(&author),
    )
    .await;
    let original = made["ruleset"]["id"].as_str().expect("an id").to_owned();
    let (status, saved) = send(
        client
            .post(format!("{api}/lor/rulesets/{original}:save"))
            .json(&json!({"version": 1})),
        Some(&reader),
    )
    .await;
    assert_eq!(status, 201, "{saved}");
    let copy = saved["ruleset"]["id"].as_str().expect("an id").to_owned();
    let newer = "export default function validateCard(card) { return card.name !== 'Zed'; }";
    let (status, _) = send(
        client
            .patch(format!("{api}/lor/rulesets/{original}"))
            .json(&json!({"source": newer, "name": "New name"})),
        Some(&author),
    )
    .await;
    assert_eq!(status, 200);
    let (status, body) = send(
        client.post(format!("{api}/lor/rulesets/{copy}:update")),
        Some(&reader),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (
            body["ruleset"]["version"].as_u64(),
            body["ruleset"]["name"].as_str(),
            body["ruleset"]["source"].as_str()
        ),
        (Some(2), Some("New name"), Some(newer)),
        "{body}"
    );
    // Only the copy's owner updates it; a version that does not exist cannot be saved.
    let (status, _) = send(
        client.post(format!("{api}/lor/rulesets/{copy}:update")),
        Some(&author),
    )
    .await;
    assert_eq!(status, 404);
    let (status, body) = send(
        client
            .post(format!("{api}/lor/rulesets/{original}:save"))
            .json(&json!({"version": 9})),
        Some(&reader),
    )
    .await;
    assert_eq!(status, 404, "{body}");
}
