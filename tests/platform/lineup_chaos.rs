//! Deck submission under faults, against a Redis server of the test's own (append-only file
//! on) and PostgreSQL, with the submission worker as its own process: 500 lineups in flight
//! while the worker is killed (SIGKILL) twice, Redis is restarted once and the process serving
//! the tournaments service crashes and comes back. Every submission ends with exactly one
//! verdict: none stuck pending, none written twice.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::deck_validate::{LINEUP_CODES, TWO_OF_CODE};
use crate::ownership::{send, session};
use crate::support::{self, Process};

const LINEUPS: usize = 500;

/// The worker process, pointed at the platform's services, database and Redis.
fn worker(name: &str, dir: &std::path::Path, grpc: &str, db: &str, redis: &str) -> Process {
    let mut env = BTreeMap::from([
        ("DATABASE_URL".to_owned(), db.to_owned()),
        ("REDIS_URL".to_owned(), redis.to_owned()),
        ("TURNIER_MIGRATE_ON_START".to_owned(), "false".to_owned()),
        (
            "TURNIER_METRICS_ADDR".to_owned(),
            format!("127.0.0.1:{}", support::free_port()),
        ),
        ("TURNIER_STATE_DIR".to_owned(), dir.display().to_string()),
    ]);
    for service in kit::services::Service::ALL {
        env.insert(service.url_env().to_owned(), grpc.to_owned());
    }
    Process::start(name, dir, &["serve", "--only", "worker"], &env)
}

#[tokio::test(flavor = "multi_thread")]
async fn every_lineup_gets_exactly_one_verdict_through_worker_redis_and_service_crashes() {
    let mut redis = kit::testing::TestRedisServer::start().await;
    let db = kit::testing::TestDatabase::postgres().await;
    let mut platform = support::SamplePlatform::with_card_data_and(
        &["lor"],
        &[
            ("DATABASE_URL", db.url()),
            ("REDIS_URL", &redis.url()),
            // No worker in the platform's process: only the worker processes below check.
            ("TURNIER_WORKER_CONCURRENCY", "0"),
            // One organizer submits for all 500 guests here, where 500 players would each
            // submit their own: the per-account request limit is not what is tested.
            ("TURNIER_RATE_LIMIT_PER_SECOND", "0"),
        ],
    )
    .await;
    let api = platform.api.clone();
    let client = reqwest::Client::new();
    let logs = tempfile::tempdir().expect("a folder for the workers' logs");
    let mut workers = vec![worker(
        "worker-1",
        logs.path(),
        &platform.grpc,
        db.url(),
        &redis.url(),
    )];

    let organizer = session(&client, &api, "chaos-org").await;
    let (status, created) = send(
        client
            .post(format!("{api}/lor/tournaments"))
            .json(&json!({"name": "Chaos", "stages": [{"format": "swiss"}]})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["tournament"]["id"].as_str().expect("id").to_owned();
    let (status, body) = send(
        client
            .patch(format!("{api}/tournaments/{id}"))
            .json(&json!({"deckSettings": {"decksToBring": 1}})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    // 500 guests, then their lineups all at once (the organizer submits for guests): a mix
    // of decks the rules accept, reject, and that do not read.
    let mut registrations = Vec::with_capacity(LINEUPS);
    for n in 0..LINEUPS {
        let (status, body) = send(
            client
                .post(format!("{api}/tournaments/{id}/registrations"))
                .json(&json!({"displayName": format!("Guest {n}")})),
            Some(&organizer),
        )
        .await;
        assert_eq!(status, 201, "{body}");
        registrations.push(body["registration"]["id"].as_str().expect("id").to_owned());
    }
    let mut submitting = tokio::task::JoinSet::new();
    for (n, registration) in registrations.iter().enumerate() {
        let deck = match n % 3 {
            0 => LINEUP_CODES[0].to_owned(),
            1 => TWO_OF_CODE.to_owned(),
            _ => format!("not a deck code {n}"),
        };
        let url = format!("{api}/tournaments/{id}/registrations/{registration}/lineup");
        let (client, organizer) = (client.clone(), organizer.clone());
        submitting.spawn(async move {
            let (status, body) = send(
                client.put(url).json(&json!({"decks": [deck]})),
                Some(&organizer),
            )
            .await;
            assert_eq!(status, 202, "{body}");
        });
    }
    submitting.join_all().await;

    // The faults, while the checks run.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    workers[0].kill();
    workers.push(worker(
        "worker-2",
        logs.path(),
        &platform.grpc,
        db.url(),
        &redis.url(),
    ));
    tokio::time::sleep(Duration::from_secs(2)).await;
    redis.restart().await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    workers[1].kill();
    workers.push(worker(
        "worker-3",
        logs.path(),
        &platform.grpc,
        db.url(),
        &redis.url(),
    ));
    tokio::time::sleep(Duration::from_secs(1)).await;
    platform.crash_and_restart().await;

    // Every lineup ends checked (jobs of a killed worker come back after the 30 s visibility
    // timeout), well within three minutes.
    let started = Instant::now();
    let lineups = loop {
        let (status, body) = send(
            client.get(format!("{api}/tournaments/{id}/lineups")),
            Some(&organizer),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let lineups = body["lineups"].as_array().expect("lineups").clone();
        let pending = lineups.iter().filter(|l| l["state"] == "pending").count();
        if pending == 0 {
            break lineups;
        }
        assert!(
            started.elapsed() < Duration::from_secs(180),
            "{pending} of {LINEUPS} still pending after 3 minutes; worker-3 log:\n{}",
            workers[2].log()
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    workers[2].assert_running();
    assert_eq!(lineups.len(), LINEUPS);

    // One verdict each, as its deck deserves: the same deck, the same verdict.
    let mut by_deck: HashMap<String, (String, Value)> = HashMap::new();
    for lineup in &lineups {
        assert!(lineup["checkTime"].is_string(), "{lineup}");
        let state = lineup["state"].as_str().expect("a state").to_owned();
        assert_ne!(state, "failed", "no check failed: {lineup}");
        let deck = lineup["decks"][0].as_str().expect("a deck");
        if deck.starts_with("not a deck code") {
            assert_eq!(state, "rejected", "{lineup}");
            assert!(
                lineup["issues"][0]
                    .as_str()
                    .is_some_and(|issue| issue.starts_with("Deck 1: ")),
                "{lineup}"
            );
            continue;
        }
        let verdict = (state, lineup["issues"].clone());
        let seen = by_deck
            .entry(deck.to_owned())
            .or_insert_with(|| verdict.clone());
        assert_eq!(*seen, verdict, "{lineup}");
    }
    assert_eq!(by_deck.len(), 2);

    // No verdict written twice: every worker's log names each submission it wrote at most once
    // over all of them (a job run again finds the verdict and writes nothing).
    let mut written: HashMap<String, usize> = HashMap::new();
    for worker in &workers {
        for line in worker.log().lines() {
            if line.contains("lineup checked")
                && line.contains("written=true")
                && let Some(id) = line
                    .split_whitespace()
                    .find_map(|word| word.strip_prefix("submission="))
            {
                *written.entry(id.to_owned()).or_default() += 1;
            }
        }
    }
    let twice: Vec<_> = written.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "written twice: {twice:?}");
    assert!(
        written.len() > LINEUPS / 2,
        "the worker processes wrote the verdicts ({} logged)",
        written.len()
    );
}
