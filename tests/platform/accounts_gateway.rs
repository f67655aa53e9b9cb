//! Accounts through the gateway of the all-in-one process, against the real accounts service:
//! the HTTP interface of the issue exactly, the ownership matrix on the caller's API tokens,
//! malformed `Authorization` headers and tokens of the wrong kind, sign-in brute force and the
//! general limit (429 with `Retry-After`), the same answer for an unknown user and a wrong
//! password, tokens over gRPC straight to a service, and no secret in any log line or in the
//! database file.

use std::time::Duration;

use serde_json::{Value, json};

use crate::ownership::{Callers, Who, sign_up};
use crate::support;

const PASSWORD: &str = "correct horse battery";

async fn post(
    client: &reqwest::Client,
    url: String,
    token: Option<&str>,
    body: Value,
) -> (u16, Value) {
    let mut request = client.post(url).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("the gateway answers");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn get(client: &reqwest::Client, url: String, token: Option<&str>) -> (u16, Value) {
    let mut request = client.get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("the gateway answers");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn is_rfc3339(value: &Value) -> bool {
    value
        .as_str()
        .is_some_and(|text| text.parse::<jiff::Timestamp>().is_ok())
}

#[tokio::test(flavor = "multi_thread")]
async fn sign_up_sign_in_me_tokens_and_profiles_answer_exactly_as_documented() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());

    let signed_up = sign_up(&client, api, "Ana").await;
    let keys: Vec<&str> = signed_up
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["account", "token", "expireTime"], "{signed_up}");
    assert_eq!(signed_up["account"]["username"], "Ana");
    assert!(
        signed_up["account"]["id"]
            .as_str()
            .is_some_and(|id| id.starts_with("acc_"))
    );
    assert!(
        is_rfc3339(&signed_up["account"]["createTime"]),
        "{signed_up}"
    );
    assert!(is_rfc3339(&signed_up["expireTime"]), "{signed_up}");
    let session = signed_up["token"].as_str().expect("a token").to_owned();
    assert!(
        session.starts_with("tns_") && session.len() >= 4 + 43,
        "{session}"
    );

    // The name is unique without regard to case; bad input names the field.
    let (status, body) = post(
        &client,
        format!("{api}/accounts"),
        None,
        json!({"username": "ana", "password": PASSWORD}),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("already_exists")),
        "{body}"
    );
    let (status, body) = post(
        &client,
        format!("{api}/accounts"),
        None,
        json!({"username": "x", "password": PASSWORD}),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("invalid_argument")),
        "{body}"
    );
    assert!(body.to_string().contains("username"), "{body}");
    let (status, body) = post(
        &client,
        format!("{api}/accounts"),
        None,
        json!({"username": "bob", "password": "short"}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body.to_string().contains("password"), "{body}");

    // Sign-in, in any case of the name.
    let (status, signed_in) = post(
        &client,
        format!("{api}/sessions"),
        None,
        json!({"username": "ANA", "password": PASSWORD}),
    )
    .await;
    assert_eq!(status, 201, "{signed_in}");
    assert_eq!(signed_in["account"], signed_up["account"]);
    let second = signed_in["token"].as_str().expect("a token").to_owned();

    let (status, me) = get(&client, format!("{api}/me"), Some(&session)).await;
    assert_eq!(
        (status, &me),
        (200, &json!({"account": signed_up["account"]}))
    );
    let (status, body) = get(&client, format!("{api}/me"), None).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("unauthenticated")),
        "{body}"
    );

    // API tokens: the secret once, never in the list.
    let (status, made) = post(
        &client,
        format!("{api}/me/tokens"),
        Some(&session),
        json!({"name": "bot", "scopes": ["read"]}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let secret = made["token"].as_str().expect("a token").to_owned();
    assert!(secret.starts_with("tnp_"), "{secret}");
    let keys: Vec<&str> = made["apiToken"]
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "id",
            "name",
            "scopes",
            "createTime",
            "expireTime",
            "lastUseTime"
        ]
    );
    assert_eq!(made["apiToken"]["scopes"], json!(["read"]));
    let (status, body) = post(
        &client,
        format!("{api}/me/tokens"),
        Some(&session),
        json!({"name": "bot", "scopes": ["admin"]}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    let (status, me) = get(&client, format!("{api}/me"), Some(&secret)).await;
    assert_eq!(status, 200, "{me}");
    let (status, list) = get(&client, format!("{api}/me/tokens"), Some(&session)).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(
        list["apiTokens"].as_array().map(Vec::len),
        Some(1),
        "{list}"
    );
    assert_eq!(list["apiTokens"][0]["id"], made["apiToken"]["id"]);
    assert!(
        !list.to_string().contains(&secret[4..]),
        "a secret in the list: {list}"
    );
    // A read-only token makes no tokens.
    let (status, body) = post(
        &client,
        format!("{api}/me/tokens"),
        Some(&secret),
        json!({"name": "x", "scopes": ["read"]}),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("permission_denied")),
        "{body}"
    );

    // The public profile, for anyone.
    let (status, user) = get(&client, format!("{api}/users/ana"), None).await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["user"]["username"], "Ana");
    assert_eq!(
        user["user"]["createTime"],
        signed_up["account"]["createTime"]
    );
    let (status, body) = get(&client, format!("{api}/users/nobody"), None).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("not_found")),
        "{body}"
    );

    // Sign-out ends that session at once, and only that one.
    let response = client
        .delete(format!("{api}/sessions/current"))
        .bearer_auth(&second)
        .send()
        .await
        .expect("answers");
    assert_eq!(response.status().as_u16(), 204);
    let (status, body) = get(&client, format!("{api}/me"), Some(&second)).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("unauthenticated")),
        "{body}"
    );
    let (status, _) = get(&client, format!("{api}/me"), Some(&session)).await;
    assert_eq!(status, 200);

    // Every route is in the document, the token ones with the bearer scheme.
    let document: Value = client
        .get(format!("{}/api/openapi.json", platform.http))
        .send()
        .await
        .expect("answers")
        .json()
        .await
        .expect("JSON");
    assert_eq!(
        document["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    for (path, method) in [
        ("/api/v1/accounts", "post"),
        ("/api/v1/sessions", "post"),
        ("/api/v1/sessions/current", "delete"),
        ("/api/v1/me", "get"),
        ("/api/v1/me/tokens", "post"),
        ("/api/v1/me/tokens", "get"),
        ("/api/v1/me/tokens/{id}", "delete"),
        ("/api/v1/users/{username}", "get"),
    ] {
        assert!(
            document["paths"][path][method].is_object(),
            "{method} {path}"
        );
    }
    assert_eq!(
        document["paths"]["/api/v1/me"]["get"]["security"],
        json!([{"bearer": []}])
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ownership_matrix_on_the_callers_api_tokens() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let callers = Callers::make(&client, api, "owner").await;
    let made =
        crate::ownership::api_token(&client, api, &callers.owner, &["read", "write"], None).await;
    let id = made["apiToken"]["id"].as_str().expect("an id").to_owned();
    // The row every token route adds to the matrix: the owner's API token with every scope
    // manages no tokens (only a session does), so no token mints a stronger one.
    let full = crate::ownership::api_token(&client, api, &callers.owner, &["read", "write"], None)
        .await["token"]
        .as_str()
        .expect("a token")
        .to_owned();

    // Read: only the owner's session lists it; a bad token is refused whatever it asks.
    for who in Who::ALL {
        let (status, body) = get(&client, format!("{api}/me/tokens"), callers.token(who)).await;
        let lists_it = body.to_string().contains(&id);
        let want = match who {
            Who::Owner => (200, true),
            Who::Other => (200, false),
            Who::ReadOnly => (403, false),
            Who::Anonymous | Who::Revoked | Who::Expired => (401, false),
        };
        assert_eq!((status, lists_it), want, "list as {who:?}: {body}");
    }
    let (status, body) = get(&client, format!("{api}/me/tokens"), Some(&full)).await;
    assert_eq!(status, 403, "list with a read-write API token: {body}");
    assert_eq!(
        body["error"]["details"]["reason"], "session_required",
        "{body}"
    );
    // Create: a session only.
    for (who, token, want) in [
        (Who::ReadOnly, callers.token(Who::ReadOnly), 403),
        (Who::Owner, Some(full.as_str()), 403),
        (Who::Anonymous, None, 401),
        (Who::Revoked, callers.token(Who::Revoked), 401),
        (Who::Expired, callers.token(Who::Expired), 401),
        (Who::Other, callers.token(Who::Other), 201),
    ] {
        let body = json!({"name": "minted", "scopes": ["read", "write"]});
        let (status, answer) = post(&client, format!("{api}/me/tokens"), token, body).await;
        assert_eq!(status, want, "create as {who:?}: {answer}");
    }
    let status = client
        .delete(format!("{api}/me/tokens/{id}"))
        .bearer_auth(&full)
        .send()
        .await
        .expect("the gateway answers")
        .status();
    assert_eq!(status.as_u16(), 403, "revoke with a read-write API token");
    // The owner's profile is public.
    let (status, body) = get(&client, format!("{api}/users/{}", callers.owner_name), None).await;
    assert_eq!(status, 200, "{body}");
    // Change (revoke): the owner's delete last.
    callers
        .expect(
            "revoking the owner's token",
            &[
                (Who::Other, 404),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
                (Who::Owner, 204),
            ],
            || client.delete(format!("{api}/me/tokens/{id}")),
        )
        .await;
    // Gone for its owner too, and its secret stops working.
    callers
        .expect("revoking it again", &[(Who::Owner, 404)], || {
            client.delete(format!("{api}/me/tokens/{id}"))
        })
        .await;
    let secret = made["token"].as_str().expect("a token");
    let mut status = 0;
    for _ in 0..60 {
        status = get(&client, format!("{api}/me"), Some(secret)).await.0;
        if status == 401 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status, 401, "a revoked token stops working within 5 s");
}

#[tokio::test(flavor = "multi_thread")]
async fn malformed_authorization_and_tokens_of_the_wrong_kind_are_401_on_every_route() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let session = crate::ownership::session(&client, api, "Ana").await;
    let swapped = format!("tnp_{}", &session[4..]);
    let cases: [(&[u8], &str); 8] = [
        (b"Basic QW5hOnNlY3JldA==", "malformed_authorization"),
        (b"Bearer", "malformed_authorization"),
        (b"Bearer a b", "malformed_authorization"),
        (b"tns_abc", "malformed_authorization"),
        (b"Bearer \xc3\xa9t\xc3\xa9", "malformed_authorization"),
        (b"Bearer tns_not-a-real-token", "invalid_token"),
        (b"Bearer sk_live_other_scheme", "invalid_token"),
        (swapped.as_bytes(), "invalid_token"),
    ];
    for (value, reason) in cases {
        let value = if value.starts_with(b"tnp_") {
            format!("Bearer {swapped}").into_bytes()
        } else {
            value.to_vec()
        };
        for path in ["/me", "/pokemon/sets", "/users/ana"] {
            let header = reqwest::header::HeaderValue::from_bytes(&value).expect("a header value");
            let response = client
                .get(format!("{api}{path}"))
                .header(reqwest::header::AUTHORIZATION, header)
                .send()
                .await
                .expect("answers");
            let status = response.status().as_u16();
            let body: Value = response.json().await.expect("the error shape");
            assert_eq!(
                status,
                401,
                "{path} with {:?}: {body}",
                String::from_utf8_lossy(&value)
            );
            assert_eq!(body["error"]["code"], "unauthenticated", "{body}");
            assert_eq!(
                body["error"]["details"]["reason"],
                reason,
                "{:?}: {body}",
                String::from_utf8_lossy(&value)
            );
        }
    }
    // Probes stay open whatever is sent.
    let response = client
        .get(format!("{}/healthz", platform.http))
        .header("authorization", "Bearer junk")
        .send()
        .await
        .expect("answers");
    assert_eq!(response.status().as_u16(), 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_user_and_a_wrong_password_get_the_same_answer_and_brute_force_gets_429() {
    let platform = support::SamplePlatform::start_with(&[("TURNIER_SIGN_IN_FAILURES", "3")]).await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    sign_up(&client, api, "Ana").await;

    let (status, wrong) = post(
        &client,
        format!("{api}/sessions"),
        None,
        json!({"username": "Ana", "password": "not the password"}),
    )
    .await;
    assert_eq!(status, 401, "{wrong}");
    let (status, unknown) = post(
        &client,
        format!("{api}/sessions"),
        None,
        json!({"username": "nobody", "password": "not the password"}),
    )
    .await;
    assert_eq!(status, 401, "{unknown}");
    assert_eq!(wrong, unknown, "the same body for both");
    assert_eq!(wrong["error"]["code"], "unauthenticated");

    // A third failure from this address, then 429 with Retry-After, even with the right password.
    let (status, _) = post(
        &client,
        format!("{api}/sessions"),
        None,
        json!({"username": "Ana", "password": "still not it"}),
    )
    .await;
    assert_eq!(status, 401);
    let response = client
        .post(format!("{api}/sessions"))
        .json(&json!({"username": "Ana", "password": PASSWORD}))
        .send()
        .await
        .expect("answers");
    assert_eq!(response.status().as_u16(), 429);
    let retry_after: u64 = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse().ok())
        .expect("a Retry-After in seconds");
    assert!((1..=900).contains(&retry_after), "{retry_after}");
    let body: Value = response.json().await.expect("the error shape");
    assert_eq!(body["error"]["code"], "resource_exhausted", "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_general_limit_counts_accounts_and_anonymous_addresses_apart() {
    let platform = support::SamplePlatform::start_with(&[
        ("TURNIER_RATE_LIMIT_PER_SECOND", "1"),
        ("TURNIER_RATE_LIMIT_BURST", "3"),
    ])
    .await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let session = crate::ownership::session(&client, api, "Ana").await;
    let mut statuses = Vec::new();
    let mut retry_after = None;
    for _ in 0..6 {
        let response = client
            .get(format!("{api}/pokemon/sets"))
            .send()
            .await
            .expect("answers");
        statuses.push(response.status().as_u16());
        if response.status().as_u16() == 429 {
            retry_after = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .cloned();
        }
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    assert!(retry_after.is_some(), "429 says when to come back");
    // The account has its own bucket, the probes none.
    let (status, _) = get(&client, format!("{api}/pokemon/sets"), Some(&session)).await;
    assert_eq!(status, 200);
    let response = client
        .get(format!("{}/healthz", platform.http))
        .send()
        .await
        .expect("answers");
    assert_eq!(response.status().as_u16(), 200);
}

/// Returns `request` with `token` as its bearer.
fn with<T>(token: &str, mut request: tonic::Request<T>) -> tonic::Request<T> {
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("ASCII"),
    );
    request
}

/// Issue 35, defect 1: a write-only API token that expires in seconds minted a read-write
/// token with no expiry, which read what its parent could not and outlived its expiry and
/// revocation. Only a session makes API tokens now, over HTTP and gRPC alike.
#[tokio::test(flavor = "multi_thread")]
async fn an_api_token_cannot_mint_another_over_http_or_grpc() {
    use proto::accounts::v1::account_service_client::AccountServiceClient;
    use proto::accounts::v1::{CreateApiTokenRequest, ListApiTokensRequest, RevokeApiTokenRequest};

    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let session = crate::ownership::session(&client, api, "Ana").await;
    let soon = jiff::Timestamp::now() + jiff::SignedDuration::from_secs(4);
    let parent =
        crate::ownership::api_token(&client, api, &session, &["write"], Some(soon.to_string()))
            .await["token"]
            .as_str()
            .expect("a token")
            .to_owned();

    let body = json!({"name": "minted", "scopes": ["read", "write"]});
    let (status, answer) = post(&client, format!("{api}/me/tokens"), Some(&parent), body).await;
    assert_eq!(status, 403, "{answer}");
    assert_eq!(answer["error"]["code"], "permission_denied", "{answer}");
    assert_eq!(
        answer["error"]["details"]["reason"], "session_required",
        "{answer}"
    );

    let channel = tonic::transport::Endpoint::from_shared(platform.grpc.clone())
        .expect("a URL")
        .connect()
        .await
        .expect("connects");
    let mut accounts = AccountServiceClient::new(channel);
    let refused = accounts
        .create_api_token(with(
            &parent,
            tonic::Request::new(CreateApiTokenRequest {
                name: "minted".to_owned(),
                scopes: vec![1, 2],
                expire_time: None,
            }),
        ))
        .await
        .expect_err("an API token may not mint one");
    assert_eq!(refused.code(), tonic::Code::PermissionDenied);
    assert_eq!(
        kit::clients::ServiceError::from(refused).reason,
        "session_required"
    );
    let listed = accounts
        .list_api_tokens(with(&parent, tonic::Request::new(ListApiTokensRequest {})))
        .await
        .expect_err("an API token may not list them");
    assert_eq!(listed.code(), tonic::Code::PermissionDenied);
    let revoked = accounts
        .revoke_api_token(with(
            &parent,
            tonic::Request::new(RevokeApiTokenRequest {
                id: "tok_x".to_owned(),
            }),
        ))
        .await
        .expect_err("an API token may not revoke them");
    assert_eq!(revoked.code(), tonic::Code::PermissionDenied);
    // The session still makes tokens, over gRPC too.
    let made = accounts
        .create_api_token(with(
            &session,
            tonic::Request::new(CreateApiTokenRequest {
                name: "ci".to_owned(),
                scopes: vec![1],
                expire_time: None,
            }),
        ))
        .await
        .expect("a session makes a token")
        .into_inner();
    assert!(made.token.starts_with("tnp_"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_third_party_sends_the_same_token_over_grpc_and_a_bad_one_is_refused_but_health_answers()
{
    use proto::accounts::v1::GetMeRequest;
    use proto::accounts::v1::account_service_client::AccountServiceClient;
    use proto::catalog::v1::catalog_service_client::CatalogServiceClient;

    let platform = support::SamplePlatform::start().await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let session = crate::ownership::session(&client, api, "Ana").await;

    let channel = tonic::transport::Endpoint::from_shared(platform.grpc.clone())
        .expect("a URL")
        .connect()
        .await
        .expect("connects");
    let mut request = tonic::Request::new(GetMeRequest {});
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {session}").parse().expect("ASCII"),
    );
    let me = AccountServiceClient::new(channel.clone())
        .get_me(request)
        .await
        .expect("GetMe")
        .into_inner();
    assert_eq!(
        me.account.map(|account| account.username).as_deref(),
        Some("Ana")
    );

    let mut request = tonic::Request::new(proto::catalog::v1::ListSetsRequest::default());
    request
        .metadata_mut()
        .insert("authorization", "Bearer tns_forged".parse().expect("ASCII"));
    let refused = CatalogServiceClient::new(channel.clone())
        .list_sets(request)
        .await
        .expect_err("refused");
    assert_eq!(refused.code(), tonic::Code::Unauthenticated);
    assert_eq!(
        kit::clients::ServiceError::from(refused).reason,
        "invalid_token"
    );

    let status = support::health(&platform.grpc, "turnier.catalog.v1.CatalogService").await;
    assert_eq!(
        status,
        Ok(tonic_health::pb::health_check_response::ServingStatus::Serving)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn no_password_or_token_reaches_a_log_line_or_the_database_file() {
    let platform = support::SamplePlatform::start_with(&[("RUST_LOG", "debug")]).await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let password = "a very particular passphrase 8271";
    let (status, made) = post(
        &client,
        format!("{api}/accounts"),
        None,
        json!({"username": "Ana", "password": password}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let session = made["token"].as_str().expect("a token").to_owned();
    let (_, signed_in) = post(
        &client,
        format!("{api}/sessions"),
        None,
        json!({"username": "Ana", "password": password}),
    )
    .await;
    let second = signed_in["token"].as_str().expect("a token").to_owned();
    let (_, api_token) = post(
        &client,
        format!("{api}/me/tokens"),
        Some(&session),
        json!({"name": "bot", "scopes": ["read", "write"]}),
    )
    .await;
    let third = api_token["token"].as_str().expect("a token").to_owned();
    let _ = get(&client, format!("{api}/me"), Some(&third)).await;
    let _ = post(
        &client,
        format!("{api}/sessions"),
        None,
        json!({"username": "Ana", "password": "wrong but secret 991"}),
    )
    .await;

    let secrets = [
        password,
        "wrong but secret 991",
        &session[4..],
        &second[4..],
        &third[4..],
    ];
    let log = platform.process.log();
    assert!(
        log.contains("DEBUG") || log.contains("debug"),
        "debug logs were on"
    );
    // Every file of the state folder: the SQLite database, its WAL and shared memory.
    let mut files = Vec::new();
    let mut folders = vec![platform.state_dir().to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap_or_default();
                files.push((path.display().to_string(), bytes));
            }
        }
    }
    assert!(
        files.iter().any(|(name, _)| name.ends_with(".db")),
        "the SQLite file is there"
    );
    for secret in secrets {
        assert!(!log.contains(secret), "a secret in the log");
        for (name, bytes) in &files {
            assert!(
                !bytes
                    .windows(secret.len())
                    .any(|window| window == secret.as_bytes()),
                "a secret in {name}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_sign_in_allowance() {
    let platform = support::SamplePlatform::start_with(&[
        ("TURNIER_SIGN_IN_FAILURES", "2"),
        ("TURNIER_TRUSTED_PROXIES", "127.0.0.1"),
    ])
    .await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    let attempt = |forwarded: &'static str, username: &'static str| {
        client
            .post(format!("{api}/sessions"))
            .header("x-forwarded-for", forwarded)
            .json(&json!({"username": username, "password": "not the password"}))
            .send()
    };
    for username in ["nobody-1", "nobody-2"] {
        let response = attempt("203.0.113.1", username).await.expect("answers");
        assert_eq!(response.status().as_u16(), 401);
    }
    // That client is held back, for any username; another client behind the same proxy is not.
    let held = attempt("203.0.113.1", "nobody-3").await.expect("answers");
    assert_eq!(held.status().as_u16(), 429);
    let other = attempt("198.51.100.9, 203.0.113.2", "nobody-4")
        .await
        .expect("answers");
    assert_eq!(other.status().as_u16(), 401);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_untrusted_client_cannot_pose_as_another_address() {
    let platform = support::SamplePlatform::start_with(&[("TURNIER_SIGN_IN_FAILURES", "2")]).await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    for (forwarded, username) in [("203.0.113.1", "nobody-1"), ("203.0.113.2", "nobody-2")] {
        let response = client
            .post(format!("{api}/sessions"))
            .header("x-forwarded-for", forwarded)
            .json(&json!({"username": username, "password": "not the password"}))
            .send()
            .await
            .expect("answers");
        assert_eq!(response.status().as_u16(), 401);
    }
    // Both failures counted against the one real address, whatever the header said.
    let response = client
        .post(format!("{api}/sessions"))
        .header("x-forwarded-for", "203.0.113.3")
        .json(&json!({"username": "nobody-3", "password": "not the password"}))
        .send()
        .await
        .expect("answers");
    assert_eq!(response.status().as_u16(), 429);
}

/// Issue 35, defect 2: the gRPC port holds what HTTP holds, with one count for both edges.
/// Wrong passwords over gRPC hold the username over HTTP (and gRPC) even with the right one,
/// and wrong passwords over HTTP hold it over gRPC; sign-ups from one address are counted
/// whichever edge they use; anonymous gRPC calls meet the general limit, and the count they
/// make holds over HTTP.
#[tokio::test(flavor = "multi_thread")]
async fn the_grpc_port_shares_the_gateways_sign_in_sign_up_and_rate_limits() {
    use proto::accounts::v1::account_service_client::AccountServiceClient;
    use proto::accounts::v1::{CreateAccountRequest, SignInRequest};

    let sign_in = |username: &str, password: &str| SignInRequest {
        username: username.to_owned(),
        password: password.to_owned(),
    };
    // gRPC first, then HTTP.
    let platform = support::SamplePlatform::start_with(&[("TURNIER_SIGN_IN_FAILURES", "10")]).await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    sign_up(&client, api, "Ana").await;
    let mut accounts = AccountServiceClient::connect(platform.grpc.clone())
        .await
        .expect("connects");
    let mut codes = Vec::new();
    for _ in 0..15 {
        let refused = accounts
            .sign_in(sign_in("Ana", "not the password"))
            .await
            .expect_err("a wrong password");
        codes.push(refused.code());
    }
    assert_eq!(codes[..10], [tonic::Code::Unauthenticated; 10], "{codes:?}");
    assert_eq!(
        codes[10..],
        [tonic::Code::ResourceExhausted; 5],
        "{codes:?}"
    );
    let held = accounts
        .sign_in(sign_in("Ana", PASSWORD))
        .await
        .expect_err("held even with the right password");
    assert_eq!(held.code(), tonic::Code::ResourceExhausted);
    assert_eq!(
        kit::clients::ServiceError::from(held).reason,
        "too_many_requests"
    );
    let (status, body) = post(
        &client,
        format!("{api}/sessions"),
        None,
        json!({"username": "Ana", "password": PASSWORD}),
    )
    .await;
    assert_eq!(status, 429, "HTTP holds what gRPC counted: {body}");

    // HTTP first, then gRPC; and sign-ups per address on both edges.
    let platform = support::SamplePlatform::start_with(&[
        ("TURNIER_SIGN_IN_FAILURES", "3"),
        ("TURNIER_SIGN_UPS_PER_ADDRESS", "4"),
    ])
    .await;
    let (api, client) = (&platform.api, reqwest::Client::new());
    sign_up(&client, api, "Bea").await;
    let mut accounts = AccountServiceClient::connect(platform.grpc.clone())
        .await
        .expect("connects");
    let mut made = 1; // Bea
    let mut refused = None;
    for n in 0..12 {
        match accounts
            .create_account(CreateAccountRequest {
                username: format!("rush-{n}"),
                password: PASSWORD.to_owned(),
            })
            .await
        {
            Ok(_) => made += 1,
            Err(status) => {
                refused = Some(status);
                break;
            }
        }
    }
    assert_eq!(made, 4, "four accounts from this address, over either edge");
    assert_eq!(
        refused.map(|status| status.code()),
        Some(tonic::Code::ResourceExhausted)
    );
    let (status, body) = post(
        &client,
        format!("{api}/accounts"),
        None,
        json!({"username": "over-http", "password": PASSWORD}),
    )
    .await;
    assert_eq!(status, 429, "{body}");

    // A held username (and address) after failures over HTTP is held over gRPC.
    for _ in 0..3 {
        let (status, _) = post(
            &client,
            format!("{api}/sessions"),
            None,
            json!({"username": "Bea", "password": "not the password"}),
        )
        .await;
        assert_eq!(status, 401);
    }
    let held = accounts
        .sign_in(sign_in("Bea", PASSWORD))
        .await
        .expect_err("gRPC holds what HTTP counted");
    assert_eq!(held.code(), tonic::Code::ResourceExhausted);
    // The general limit on anonymous gRPC calls, shared with HTTP.
    let platform = support::SamplePlatform::start_with(&[
        ("TURNIER_RATE_LIMIT_PER_SECOND", "5"),
        ("TURNIER_RATE_LIMIT_BURST", "5"),
    ])
    .await;
    let channel = tonic::transport::Endpoint::from_shared(platform.grpc.clone())
        .expect("a URL")
        .connect()
        .await
        .expect("connects");
    let mut catalog =
        proto::catalog::v1::catalog_service_client::CatalogServiceClient::new(channel);
    let mut refused = 0;
    for _ in 0..200 {
        if let Err(status) = catalog
            .list_sets(proto::catalog::v1::ListSetsRequest {
                game: proto::common::v1::Game::Pokemon as i32,
            })
            .await
        {
            assert_eq!(status.code(), tonic::Code::ResourceExhausted, "{status:?}");
            refused += 1;
        }
    }
    assert!(refused >= 150, "{refused} of 200 anonymous calls refused");
    let (status, body) = get(&client, format!("{}/pokemon/sets", platform.api), None).await;
    assert_eq!(status, 429, "the address's count holds over HTTP: {body}");
    // Health is never counted.
    let health = support::health(&platform.grpc, "turnier.catalog.v1.CatalogService").await;
    assert!(health.is_ok(), "{health:?}");
}
