//! Floods of endless loops through the real binary: one account cannot take every sandbox slot
//! (another caller still runs at once, the flood is told `busy` with the documented error
//! body), an anonymous address gets half an account's share,
//! a loop whose client went away stops, and SIGTERM under a flood exits within the grace with
//! `/healthz` saying `shutting_down` meanwhile.
//!
//! The time bounds are the property itself (a loop's own limit is 15 s; the exit must come
//! before delay + grace + 2 s), never a latency target.

use crate::support;

use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{SamplePlatform, wait_for_metric};

/// An endless loop: it only ever ends by being stopped.
const ENDLESS: &str = "export default function () { while (true) {} }";

/// Far below a rule's time limit (15 s): what is still running after this was not stopped.
const PROMPTLY: Duration = Duration::from_secs(10);

const SLOTS_HELD: &str = "turnier_script_slots_held";

fn card_rule(source: &str) -> Value {
    json!({"script": {"source": source}, "card": {"ok": true}})
}

/// Posts endless loops from `client`, each in its own task; aborting a task is its client
/// going away.
fn flood(
    client: &reqwest::Client,
    api: &str,
    token: Option<&str>,
    loops: usize,
) -> Vec<tokio::task::JoinHandle<reqwest::Result<reqwest::Response>>> {
    (0..loops)
        .map(|_| {
            let mut request = client
                .post(format!("{api}/scripts:runCardRule"))
                .json(&card_rule(ENDLESS));
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            tokio::spawn(request.send())
        })
        .collect()
}

/// A client whose connections come from another loopback address: another caller.
fn client_from(address: Ipv4Addr) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(address))
        .build()
        .expect("a client")
}

#[tokio::test(flavor = "multi_thread")]
async fn one_client_flooding_endless_loops_leaves_room_for_another_and_is_told_busy() {
    // Four slots, two per signed-in caller (one per anonymous address), as on a 2-core machine
    // by default. The flood is an account's.
    let mut platform = SamplePlatform::start_with(&[
        ("TURNIER_SCRIPT_CONCURRENCY", "4"),
        ("TURNIER_SCRIPT_QUEUE_WAIT_MS", "1000"),
    ])
    .await;
    let metrics = format!("{}/metrics", platform.http);
    let flooder = client_from(Ipv4Addr::LOCALHOST);
    // The sandbox is created by a first run, so that no wait below includes its creation.
    let first = flooder
        .post(format!("{}/scripts:runCardRule", platform.api))
        .json(&card_rule("export default () => true;"))
        .send()
        .await
        .expect("the gateway answers");
    assert_eq!(first.status(), 200);

    let token = crate::ownership::session(&reqwest::Client::new(), &platform.api, "flooder").await;
    let loops = flood(&flooder, &platform.api, Some(&token), 10);
    wait_for_metric(&mut platform.process, &metrics, SLOTS_HELD, 2.0).await;

    // Another client's trivial rule runs at once, beside the flood's two loops.
    let asked = Instant::now();
    let other = client_from(Ipv4Addr::new(127, 0, 0, 2))
        .post(format!("{}/scripts:runCardRule", platform.api))
        .json(&card_rule("export default (card) => card.ok === true;"))
        .send()
        .await
        .expect("the gateway answers");
    assert_eq!(other.status(), 200);
    assert_eq!(
        other.json::<Value>().await.expect("JSON"),
        json!({"valid": true, "issues": []})
    );
    assert!(
        asked.elapsed() < PROMPTLY,
        "waited {:?}: for a loop's slot?",
        asked.elapsed()
    );

    // Two loops run; two wait their second and six are refused at once: eight answered
    // 429 `busy` with a retry hint, none after a 30 s wait.
    let started = Instant::now();
    while loops.iter().filter(|task| task.is_finished()).count() < 8 {
        assert!(started.elapsed() < PROMPTLY, "the flood is kept waiting");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut running = Vec::new();
    for task in loops {
        if !task.is_finished() {
            running.push(task);
            continue;
        }
        let response = task.await.expect("no panic").expect("an answer");
        assert_eq!(response.status(), 429);
        assert_eq!(
            response
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok()),
            Some("1")
        );
        let body: Value = response.json().await.expect("the error body");
        assert_eq!(body["error"]["code"], "busy", "{body}");
        assert_eq!(body["error"]["details"]["retry_after_ms"], 1000, "{body}");
        assert!(
            body["error"]["message"]
                .as_str()
                .is_some_and(|message| message.starts_with("the sandbox is busy")),
            "{body}"
        );
    }
    assert_eq!(running.len(), 2);

    // The flooder goes away: its loops stop, long before their 15 s limit.
    let gone = Instant::now();
    for task in &running {
        task.abort();
    }
    wait_for_metric(&mut platform.process, &metrics, SLOTS_HELD, 0.0).await;
    assert!(
        gone.elapsed() < PROMPTLY,
        "the loops ran on for {:?} after their client went away",
        gone.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_anonymous_address_gets_half_an_accounts_share() {
    let mut platform = SamplePlatform::start_with(&[
        ("TURNIER_SCRIPT_CONCURRENCY", "4"),
        ("TURNIER_SCRIPT_QUEUE_WAIT_MS", "200"),
    ])
    .await;
    let metrics = format!("{}/metrics", platform.http);
    let anonymous = flood(&reqwest::Client::new(), &platform.api, None, 4);
    // One runs, one waits its 200 ms, two are refused: three answered 429 `busy`.
    let started = Instant::now();
    while anonymous.iter().filter(|task| task.is_finished()).count() < 3 {
        assert!(started.elapsed() < PROMPTLY, "the flood is kept waiting");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    wait_for_metric(&mut platform.process, &metrics, SLOTS_HELD, 1.0).await;
    for task in anonymous {
        if task.is_finished() {
            let response = task.await.expect("no panic").expect("an answer");
            assert_eq!(response.status(), 429);
        } else {
            task.abort();
        }
    }
    wait_for_metric(&mut platform.process, &metrics, SLOTS_HELD, 0.0).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_during_a_flood_of_endless_loops_exits_within_the_grace() {
    let delay = Duration::from_secs(2);
    let grace = Duration::from_secs(2);
    // Twenty loops in flight at once, all of them running.
    let mut platform = SamplePlatform::start_with(&[
        ("TURNIER_SCRIPT_CONCURRENCY", "20"),
        ("TURNIER_SCRIPT_CALLER_SHARE", "20"),
        ("TURNIER_SHUTDOWN_DELAY_SECS", "2"),
        ("TURNIER_SHUTDOWN_GRACE_SECS", "2"),
    ])
    .await;
    let metrics = format!("{}/metrics", platform.http);
    let client = reqwest::Client::new();
    let token = crate::ownership::session(&reqwest::Client::new(), &platform.api, "flooder").await;
    let loops = flood(&client, &platform.api, Some(&token), 20);
    wait_for_metric(&mut platform.process, &metrics, SLOTS_HELD, 20.0).await;

    platform.process.terminate();
    let terminated = Instant::now();

    // While it drains (the listener stays open for the delay), /healthz says so.
    let healthz = format!("{}/healthz", platform.http);
    let body = loop {
        let response = client
            .get(&healthz)
            .send()
            .await
            .expect("the gateway still accepts during the delay");
        if response.status() == 503 {
            break response.json::<Value>().await.expect("JSON");
        }
        assert!(
            terminated.elapsed() < delay,
            "/healthz never said shutting_down"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(body, json!({"status": "shutting_down"}));

    let status = platform.process.wait_for_exit();
    let took = terminated.elapsed();
    let log = platform.process.log();
    assert!(
        took < delay + grace + Duration::from_secs(2),
        "exited {took:?} after SIGTERM (delay {delay:?}, grace {grace:?}); log:\n{log}"
    );
    assert!(status.success(), "{status}; log:\n{log}");
    assert!(log.contains("halting the sandbox runs"), "{log}");
    // Every client got an answer or a closed connection: none is left hanging.
    for task in loops {
        let _ = task.await.expect("no panic");
    }
}
