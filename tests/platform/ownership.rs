//! The ownership matrix every owned resource is tested with, over the real gateway: the same
//! six callers (owner, another account, anonymous, the owner's read-only API token, a revoked
//! token, an expired token) for every resource a later issue adds. A resource's test makes
//! the callers once ([`Callers::make`]), then asks [`Callers::expect`] for each action with
//! the statuses the one rule (`kit::access`) gives.

use std::time::Duration;

use serde_json::{Value, json};

/// Who makes a request of the matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// The account that owns the resource (a session token).
    Owner,
    /// Another signed-in account.
    Other,
    /// No token.
    Anonymous,
    /// The owner's API token with only `read`.
    ReadOnly,
    /// The owner's API token, revoked.
    Revoked,
    /// The owner's API token, past its expiry.
    Expired,
}

impl Who {
    /// Every caller, in the order the matrices list them.
    pub const ALL: [Who; 6] = [
        Who::Owner,
        Who::Other,
        Who::Anonymous,
        Who::ReadOnly,
        Who::Revoked,
        Who::Expired,
    ];
}

/// The tokens of the matrix's callers.
#[derive(Debug, Clone)]
pub struct Callers {
    /// The owner's username.
    pub owner_name: String,
    /// The owner's session token.
    pub owner: String,
    /// Another account's session token.
    pub other: String,
    /// The owner's read-only API token.
    pub read_only: String,
    /// A revoked API token of the owner's.
    pub revoked: String,
    /// An expired API token of the owner's.
    pub expired: String,
}

/// Sends `request` with `token` as its bearer (`None`: anonymous) and returns the status and
/// the JSON body (`null` when there is none).
pub async fn send(request: reqwest::RequestBuilder, token: Option<&str>) -> (u16, Value) {
    let request = match token {
        Some(token) => request.bearer_auth(token),
        None => request,
    };
    let response = request.send().await.expect("the gateway answers");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Signs up `username` (password `correct horse battery`) and returns the answer's body.
pub async fn sign_up(client: &reqwest::Client, api: &str, username: &str) -> Value {
    let response = client
        .post(format!("{api}/accounts"))
        .json(&json!({"username": username, "password": "correct horse battery"}))
        .send()
        .await
        .expect("sign-up answers");
    assert_eq!(response.status().as_u16(), 201, "sign-up of {username}");
    response.json().await.expect("a JSON body")
}

/// Signs up `username` and returns the session token it is signed in with.
pub async fn session(client: &reqwest::Client, api: &str, username: &str) -> String {
    text(&sign_up(client, api, username).await, "/token")
}

/// Makes an API token for the account of `session` and returns the answer's body.
pub async fn api_token(
    client: &reqwest::Client,
    api: &str,
    session: &str,
    scopes: &[&str],
    expire_time: Option<String>,
) -> Value {
    let mut body = json!({"name": "matrix", "scopes": scopes});
    if let Some(expire_time) = expire_time {
        body["expireTime"] = Value::String(expire_time);
    }
    let response = client
        .post(format!("{api}/me/tokens"))
        .bearer_auth(session)
        .json(&body)
        .send()
        .await
        .expect("token creation answers");
    assert_eq!(response.status().as_u16(), 201, "an API token");
    response.json().await.expect("a JSON body")
}

fn text(value: &Value, pointer: &str) -> String {
    value
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{pointer} in {value}"))
        .to_owned()
}

impl Callers {
    /// Signs up an owner (`owner_name`) and another account on the platform at `api`, and makes
    /// the owner's read-only, revoked and expired API tokens.
    pub async fn make(client: &reqwest::Client, api: &str, owner_name: &str) -> Callers {
        let owner = text(&sign_up(client, api, owner_name).await, "/token");
        let other = text(
            &sign_up(client, api, &format!("{owner_name}-other")).await,
            "/token",
        );
        let read_only = text(
            &api_token(client, api, &owner, &["read"], None).await,
            "/token",
        );
        let revoked_answer = api_token(client, api, &owner, &["read", "write"], None).await;
        let revoked_id = text(&revoked_answer, "/apiToken/id");
        let status = client
            .delete(format!("{api}/me/tokens/{revoked_id}"))
            .bearer_auth(&owner)
            .send()
            .await
            .expect("revocation answers")
            .status();
        assert_eq!(status.as_u16(), 204, "revoking a token");
        let soon = jiff::Timestamp::now() + jiff::SignedDuration::from_secs(1);
        let expired = text(
            &api_token(
                client,
                api,
                &owner,
                &["read", "write"],
                Some(soon.to_string()),
            )
            .await,
            "/token",
        );
        let callers = Callers {
            owner_name: owner_name.to_owned(),
            owner,
            other,
            read_only,
            revoked: text(&revoked_answer, "/token"),
            expired,
        };
        // Past the expiry, and past the 5 s within which a revoked token stops working.
        tokio::time::sleep(Duration::from_millis(5_200)).await;
        callers
    }

    /// Returns the token `who` sends (`None`: anonymous).
    pub fn token(&self, who: Who) -> Option<&str> {
        match who {
            Who::Owner => Some(&self.owner),
            Who::Other => Some(&self.other),
            Who::Anonymous => None,
            Who::ReadOnly => Some(&self.read_only),
            Who::Revoked => Some(&self.revoked),
            Who::Expired => Some(&self.expired),
        }
    }

    /// Makes `request` as each caller of `expected` and asserts the status it gets (in the
    /// order given, so an owner's delete goes last). `what` names the action in failures.
    pub async fn expect(
        &self,
        what: &str,
        expected: &[(Who, u16)],
        request: impl Fn() -> reqwest::RequestBuilder,
    ) {
        for (who, status) in expected {
            let mut builder = request();
            if let Some(token) = self.token(*who) {
                builder = builder.bearer_auth(token);
            }
            let response = builder.send().await.expect("the gateway answers");
            let got = response.status().as_u16();
            let body = response.text().await.unwrap_or_default();
            assert_eq!(got, *status, "{what} as {who:?}: {body}");
            if got >= 400 {
                let body: Value = serde_json::from_str(&body).expect("the error shape");
                let code = body["error"]["code"].as_str().unwrap_or_default();
                let want = match got {
                    401 => "unauthenticated",
                    403 => "permission_denied",
                    404 => "not_found",
                    _ => code,
                };
                assert_eq!(code, want, "{what} as {who:?}: {body}");
            }
        }
    }

    /// Runs the whole matrix on a resource the owner just made private at `url` (`kind` names
    /// it in failures): read, change (`rename`), then made public by the owner
    /// (`{"public": true}` patched), read and change again, and deleted (the owner last).
    pub async fn expect_private_then_public(
        &self,
        client: &reqwest::Client,
        kind: &str,
        url: &str,
        rename: impl Fn() -> reqwest::RequestBuilder,
    ) {
        self.expect(
            &format!("reading a private {kind}"),
            &[
                (Who::Owner, 200),
                (Who::Other, 404),
                (Who::Anonymous, 404),
                (Who::ReadOnly, 200),
                (Who::Revoked, 401),
                (Who::Expired, 401),
            ],
            || client.get(url),
        )
        .await;
        self.expect(
            &format!("changing a private {kind}"),
            &[
                (Who::Other, 404),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
                (Who::Owner, 200),
            ],
            &rename,
        )
        .await;
        let (status, body) = send(
            client.patch(url).json(&json!({"public": true})),
            Some(&self.owner),
        )
        .await;
        assert_eq!(status, 200, "publishing the {kind}: {body}");
        self.expect(
            &format!("reading a public {kind}"),
            &[
                (Who::Owner, 200),
                (Who::Other, 200),
                (Who::Anonymous, 200),
                (Who::ReadOnly, 200),
                (Who::Revoked, 401),
                (Who::Expired, 401),
            ],
            || client.get(url),
        )
        .await;
        self.expect(
            &format!("changing a public {kind}"),
            &[
                (Who::Other, 403),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
            ],
            &rename,
        )
        .await;
        self.expect(
            &format!("deleting a public {kind}"),
            &[
                (Who::Other, 403),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
                (Who::Owner, 204),
            ],
            || client.delete(url),
        )
        .await;
        let (status, _) = send(client.get(url), Some(&self.owner)).await;
        assert_eq!(status, 404, "the {kind} is deleted");
    }
}
