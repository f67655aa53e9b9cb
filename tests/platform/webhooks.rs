//! Webhooks of a tournament through the gateway, delivered by the all-in-one process's worker
//! to a receiver in the test: each delivery is signed (`X-Turnier-Signature`, checked here with
//! the secret the organizer got once), a receiver that fails twice then answers gets the
//! delivery once (three attempts in the hook's log), an organizer sends one again, a private
//! address is refused unless the operator allows it, an address that is not globally reachable
//! is refused whatever the operator allows, a name is checked again where it resolves at each
//! delivery, and the ownership matrix of the routes.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde_json::{Value, json};

use crate::ownership::{Callers, Who, send};
use crate::support;

/// One request the receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    /// The path's last segment: which hook.
    pub hook: String,
    /// `X-Turnier-Event`.
    pub event: String,
    /// `X-Turnier-Delivery`.
    pub delivery: String,
    /// `X-Turnier-Signature`.
    pub signature: String,
    /// The body, as sent.
    pub body: String,
    /// What the receiver answered.
    pub answered: u16,
}

/// A webhook receiver on 127.0.0.1: `/{hook}` answers 200, except `/flaky…`, which answers
/// 503 to the first two attempts at each delivery.
pub struct Receiver {
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    got: Arc<Mutex<Vec<Received>>>,
}

impl Receiver {
    /// Starts a receiver.
    pub async fn start() -> Self {
        let got: Arc<Mutex<Vec<Received>>> = Arc::default();
        let app = axum::Router::new()
            .route("/{hook}", axum::routing::post(receive))
            .with_state(got.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let url = format!("http://{}", listener.local_addr().expect("an address"));
        tokio::spawn(async move { axum::serve(listener, app).await });
        Receiver { url, got }
    }

    /// Everything received so far.
    pub fn received(&self) -> Vec<Received> {
        self.got.lock().expect("not poisoned").clone()
    }

    /// Waits (up to 30 s) until `done` holds of what was received, and returns it.
    pub async fn wait_for(&self, what: &str, done: impl Fn(&[Received]) -> bool) -> Vec<Received> {
        for _ in 0..300 {
            let received = self.received();
            if done(&received) {
                return received;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("{what}: not received in 30 s: {:#?}", self.received());
    }
}

async fn receive(
    State(got): State<Arc<Mutex<Vec<Received>>>>,
    Path(hook): Path<String>,
    headers: HeaderMap,
    body: String,
) -> StatusCode {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let mut got = got.lock().expect("not poisoned");
    let delivery = header("x-turnier-delivery");
    let earlier = got
        .iter()
        .filter(|r| r.hook == hook && r.delivery == delivery)
        .count();
    let answered = if hook.starts_with("flaky") && earlier < 2 {
        503
    } else {
        200
    };
    got.push(Received {
        hook,
        event: header("x-turnier-event"),
        delivery,
        signature: header("x-turnier-signature"),
        body,
        answered,
    });
    StatusCode::from_u16(answered).unwrap_or(StatusCode::OK)
}

/// Hook URLs whose host is not globally reachable (IANA special-purpose registries), nor
/// loopback, private or link-local: the probe's of issue 35, and a few more.
const NEVER_REACHED: [&str; 10] = [
    "http://192.0.0.170/",
    "http://192.0.0.1/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[2002:7f00:1::]/",
    "http://[fec0::1]/",
    "http://0.0.0.0:9/",
    "http://198.51.100.7/",
    "http://[2001:db8::1]/",
    "http://[ff02::1]/",
];

/// Asserts that adding a hook at each of [`NEVER_REACHED`] is a 400 on the URL that says why.
async fn assert_never_reached_is_refused(
    client: &reqwest::Client,
    api: &str,
    tournament: &str,
    token: &str,
) {
    for url in NEVER_REACHED {
        let (status, body) = add_hook(client, api, tournament, token, json!({"url": url})).await;
        assert_eq!(status, 400, "{url}: {body}");
        assert_eq!(body["error"]["details"]["field"], "url", "{body}");
        assert!(
            body["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("only sent to globally reachable addresses")),
            "{url}: {body}"
        );
    }
}

/// Asserts that every request `secret`'s hook got is signed with it, now, and says what its
/// headers say.
pub fn assert_signed(received: &[Received], hook: &str, secret: &str) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs() as i64;
    for request in received.iter().filter(|r| r.hook == hook) {
        assert!(
            tournaments::webhooks::verify(
                secret,
                &request.signature,
                request.body.as_bytes(),
                now,
                300
            ),
            "a good signature: {request:?}"
        );
        assert!(
            !tournaments::webhooks::verify(secret, &request.signature, b"{}", now, 300),
            "not of another body"
        );
        let body: Value = serde_json::from_str(&request.body).expect("JSON");
        assert_eq!(body["id"], request.delivery.as_str());
        assert_eq!(body["event"], request.event.as_str());
        assert!(
            body["createTime"].is_string() && body["data"].is_object(),
            "{body}"
        );
    }
}

async fn add_hook(
    client: &reqwest::Client,
    api: &str,
    tournament: &str,
    token: &str,
    body: Value,
) -> (u16, Value) {
    send(
        client
            .post(format!("{api}/tournaments/{tournament}/webhooks"))
            .json(&body),
        Some(token),
    )
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn deliveries_are_signed_retried_logged_and_sent_again() {
    let platform =
        support::SamplePlatform::start_with(&[("TURNIER_WEBHOOK_ALLOW_PRIVATE", "true")]).await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let receiver = Receiver::start().await;
    let callers = Callers::make(&client, api, "hook-org").await;
    let organizer = callers.owner.clone();
    let (status, created) = send(
        client.post(format!("{api}/riftbound/tournaments")).json(
            &json!({"name": "Hooked", "stages": [{"format": "swiss", "settings": {"rounds": 2}}]}),
        ),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["tournament"]["id"].as_str().expect("id").to_owned();
    let hooks_url = format!("{api}/tournaments/{id}/webhooks");

    // Who may add, list and remove webhooks: the organizers.
    let matrix_body = json!({"url": format!("{}/matrix", receiver.url)});
    callers
        .expect(
            "adding a webhook",
            &[
                (Who::Other, 403),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
                (Who::Owner, 201),
            ],
            || client.post(&hooks_url).json(&matrix_body),
        )
        .await;
    let reads = [
        (Who::Owner, 200),
        (Who::ReadOnly, 200),
        (Who::Other, 403),
        (Who::Anonymous, 401),
        (Who::Revoked, 401),
        (Who::Expired, 401),
    ];
    callers
        .expect("listing webhooks", &reads, || client.get(&hooks_url))
        .await;
    let (_, listed) = send(client.get(&hooks_url), Some(&organizer)).await;
    let matrix_hook = listed["webhooks"][0]["id"].as_str().expect("id").to_owned();
    assert_eq!(
        listed["webhooks"][0]["events"],
        json!(tournaments::webhooks::EVENTS),
        "no events: all of them"
    );
    let deliveries_url = format!("{hooks_url}/{matrix_hook}/deliveries");
    callers
        .expect("reading a delivery log", &reads, || {
            client.get(&deliveries_url)
        })
        .await;
    callers
        .expect(
            "removing a webhook",
            &[
                (Who::Other, 403),
                (Who::Anonymous, 401),
                (Who::ReadOnly, 403),
                (Who::Revoked, 401),
                (Who::Expired, 401),
                (Who::Owner, 204),
            ],
            || client.delete(format!("{hooks_url}/{matrix_hook}")),
        )
        .await;
    let (status, body) = send(client.get(&deliveries_url), Some(&organizer)).await;
    assert_eq!(status, 404, "a removed hook: {body}");

    // Bad hooks.
    for (body, field) in [
        (json!({"url": "ftp://example.com/"}), "url"),
        (json!({"url": "https://user:pw@example.com/"}), "url"),
        (
            json!({"url": format!("{}/x", receiver.url), "events": ["round.started"]}),
            "events",
        ),
    ] {
        let (status, answer) = add_hook(&client, api, &id, &organizer, body).await;
        assert_eq!(status, 400, "{answer}");
        assert_eq!(answer["error"]["details"]["field"], field, "{answer}");
    }
    // Allowing private addresses allows no more than loopback, private and link-local.
    assert_never_reached_is_refused(&client, api, &id, &organizer).await;

    // Two hooks: every event to one, pairings to one that fails twice before it answers.
    let (status, all) = add_hook(
        &client,
        api,
        &id,
        &organizer,
        json!({"url": format!("{}/all", receiver.url)}),
    )
    .await;
    assert_eq!(status, 201, "{all}");
    let keys: Vec<&str> = all["webhook"]
        .as_object()
        .expect("a webhook")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["id", "url", "events", "createTime"]);
    let all_secret = all["secret"].as_str().expect("the secret").to_owned();
    assert!(all_secret.starts_with("whsec_"), "{all}");
    let (status, flaky) = add_hook(
        &client,
        api,
        &id,
        &organizer,
        json!({"url": format!("{}/flaky", receiver.url), "events": ["round.paired"]}),
    )
    .await;
    assert_eq!(status, 201, "{flaky}");
    let flaky_secret = flaky["secret"].as_str().expect("the secret").to_owned();
    let flaky_id = flaky["webhook"]["id"].as_str().expect("id").to_owned();
    let (_, listed) = send(client.get(&hooks_url), Some(&organizer)).await;
    assert!(
        !listed.to_string().contains("whsec_"),
        "a secret is shown once: {listed}"
    );

    // The event: two guests, started, paired, one result.
    for name in ["Ann", "Bo"] {
        let (status, body) = send(
            client
                .post(format!("{api}/tournaments/{id}/registrations"))
                .json(&json!({"displayName": name})),
            Some(&organizer),
        )
        .await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = send(
        client
            .post(format!("{api}/tournaments/{id}:start"))
            .json(&json!({})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, round) = send(
        client
            .post(format!("{api}/tournaments/{id}/rounds"))
            .json(&json!({})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 201, "{round}");
    let match_id = round["round"]["matches"][0]["id"]
        .as_str()
        .expect("a match")
        .to_owned();
    let (status, body) = send(
        client
            .post(format!("{api}/tournaments/{id}/matches/{match_id}:report"))
            .json(&json!({"games": [2, 1]})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let received = receiver
        .wait_for("every event and the flaky hook's third attempt", |got| {
            let events: Vec<&str> = got
                .iter()
                .filter(|r| r.hook == "all")
                .map(|r| r.event.as_str())
                .collect();
            ["round.paired", "match.reported", "standings.updated"]
                .iter()
                .all(|event| events.contains(event))
                && got.iter().any(|r| r.hook == "flaky" && r.answered == 200)
        })
        .await;
    assert_signed(&received, "all", &all_secret);
    assert_signed(&received, "flaky", &flaky_secret);
    let flaky_got: Vec<&Received> = received.iter().filter(|r| r.hook == "flaky").collect();
    assert_eq!(
        flaky_got.iter().map(|r| r.answered).collect::<Vec<_>>(),
        [503, 503, 200],
        "one delivery, three attempts"
    );
    assert!(
        flaky_got
            .iter()
            .all(|r| r.delivery == flaky_got[0].delivery && r.event == "round.paired")
    );
    let paired: Value = serde_json::from_str(&flaky_got[2].body).expect("JSON");
    assert_eq!(paired["tournament"], id.as_str());
    assert_eq!(paired["data"]["round"], 1);
    let reported = received
        .iter()
        .find(|r| r.hook == "all" && r.event == "match.reported")
        .expect("reported");
    let reported: Value = serde_json::from_str(&reported.body).expect("JSON");
    assert_eq!(reported["data"]["matchId"], match_id.as_str());
    assert_eq!(reported["data"]["games"], json!([2, 1]));

    // The flaky hook's log: one delivery, delivered on the third attempt.
    let log_url = format!("{hooks_url}/{flaky_id}/deliveries");
    let (status, log) = send(client.get(&log_url), Some(&organizer)).await;
    assert_eq!(status, 200, "{log}");
    let deliveries = log["deliveries"].as_array().expect("deliveries");
    assert_eq!(deliveries.len(), 1, "{log}");
    assert_eq!(deliveries[0]["state"], "delivered", "{log}");
    assert_eq!(deliveries[0]["attempts"], 3, "{log}");
    assert_eq!(deliveries[0]["lastStatus"], 200, "{log}");
    assert_eq!(deliveries[0]["event"], "round.paired");
    assert_eq!(deliveries[0]["body"]["id"], deliveries[0]["id"]);

    // Sent again on request: the same delivery, once more.
    let delivery = deliveries[0]["id"].as_str().expect("id").to_owned();
    let redeliver = format!("{log_url}/{delivery}:redeliver");
    let (status, body) = send(client.post(&redeliver), Some(&callers.other)).await;
    assert_eq!(status, 403, "{body}");
    let (status, body) = send(client.post(&redeliver), Some(&organizer)).await;
    assert_eq!(status, 202, "{body}");
    assert_eq!(body["delivery"]["id"], delivery.as_str());
    receiver
        .wait_for("the delivery sent again", |got| {
            got.iter()
                .filter(|r| r.hook == "flaky" && r.delivery == delivery && r.answered == 200)
                .count()
                == 2
        })
        .await;
    let (status, body) = send(
        client.post(format!("{log_url}/nothing:redeliver")),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 404, "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_private_address_is_refused_unless_the_operator_allows_it() {
    let platform = support::SamplePlatform::start().await;
    let (api, client) = (platform.api.as_str(), reqwest::Client::new());
    let organizer = crate::ownership::session(&client, api, "private-org").await;
    let (status, created) = send(
        client
            .post(format!("{api}/lor/tournaments"))
            .json(&json!({"name": "Private", "stages": [{"format": "swiss"}]})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["tournament"]["id"].as_str().expect("id").to_owned();
    for url in [
        "http://127.0.0.1:9/hook",
        "http://localhost:8080/",
        "http://10.0.0.7/",
        "http://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/",
        "http://[fe80::1]/",
    ] {
        let (status, body) = add_hook(&client, api, &id, &organizer, json!({"url": url})).await;
        assert_eq!(status, 400, "{url}: {body}");
        assert_eq!(body["error"]["details"]["field"], "url", "{body}");
        assert!(
            body["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("TURNIER_WEBHOOK_ALLOW_PRIVATE")),
            "{body}"
        );
    }
    assert_never_reached_is_refused(&client, api, &id, &organizer).await;
    let (status, body) = add_hook(
        &client,
        api,
        &id,
        &organizer,
        json!({"url": "https://hooks.example.com/turnier"}),
    )
    .await;
    assert_eq!(status, 201, "a public host is taken: {body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_name_that_resolves_to_a_loopback_address_is_refused_at_delivery() {
    // The hook is added while private addresses are allowed, then the operator turns that off:
    // the name is resolved and checked again when the delivery is sent, as it would be if its
    // DNS answer changed after the hook was added.
    let mut platform =
        support::SamplePlatform::start_with(&[("TURNIER_WEBHOOK_ALLOW_PRIVATE", "true")]).await;
    let client = reqwest::Client::new();
    let api = platform.api.clone();
    let receiver = Receiver::start().await;
    let organizer = crate::ownership::session(&client, &api, "named-org").await;
    let (status, created) = send(
        client.post(format!("{api}/riftbound/tournaments")).json(
            &json!({"name": "Named", "stages": [{"format": "swiss", "settings": {"rounds": 2}}]}),
        ),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["tournament"]["id"].as_str().expect("id").to_owned();
    let port = receiver.url.rsplit(':').next().expect("a port").to_owned();
    let (status, hook) = add_hook(
        &client,
        &api,
        &id,
        &organizer,
        json!({"url": format!("http://localhost:{port}/named"), "events": ["round.paired"]}),
    )
    .await;
    assert_eq!(status, 201, "allowed when it is added: {hook}");
    let hook_id = hook["webhook"]["id"].as_str().expect("id").to_owned();

    platform
        .restart_with(&[("TURNIER_WEBHOOK_ALLOW_PRIVATE", "false")])
        .await;
    for name in ["Ann", "Bo"] {
        let (status, body) = send(
            client
                .post(format!("{api}/tournaments/{id}/registrations"))
                .json(&json!({"displayName": name})),
            Some(&organizer),
        )
        .await;
        assert_eq!(status, 201, "{body}");
    }
    for (path, expected) in [(format!("{id}:start"), 200), (format!("{id}/rounds"), 201)] {
        let (status, body) = send(
            client
                .post(format!("{api}/tournaments/{path}"))
                .json(&json!({})),
            Some(&organizer),
        )
        .await;
        assert_eq!(status, expected, "{path}: {body}");
    }

    let log_url = format!("{api}/tournaments/{id}/webhooks/{hook_id}/deliveries");
    let mut log = Value::Null;
    for _ in 0..300 {
        let (status, body) = send(client.get(&log_url), Some(&organizer)).await;
        assert_eq!(status, 200, "{body}");
        log = body;
        if log["deliveries"][0]["state"]
            .as_str()
            .is_some_and(|state| state != "pending")
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let delivery = &log["deliveries"][0];
    assert_eq!(delivery["state"], "failed", "refused at once: {log}");
    assert_eq!(delivery["event"], "round.paired", "{log}");
    assert!(delivery["lastStatus"].is_null(), "nothing was sent: {log}");
    assert!(
        delivery["lastError"]
            .as_str()
            .is_some_and(
                |error| (error.contains("127.0.0.1") || error.contains("::1"))
                    && error.contains("TURNIER_WEBHOOK_ALLOW_PRIVATE")
            ),
        "{log}"
    );
    assert!(
        receiver.received().is_empty(),
        "the receiver got nothing: {:?}",
        receiver.received()
    );
}
