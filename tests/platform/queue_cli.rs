//! `turnier queue …`: an operator finds a dead job, replays it, and sees it ready again — on
//! the embedded database and on Redis.

use crate::support;

use kit::queue::{FailOutcome, JobId, Queue, QueueSettings};
use support::run;

const QUEUE: &str = "deck-submissions";

/// Enqueues a job and fails it once with `max_attempts = 1`, so it is dead.
async fn kill_one_job(queue: &Queue) -> JobId {
    let id = JobId::parse("job-42").expect("a valid id");
    queue
        .enqueue(
            QUEUE,
            &id,
            br#"{"deck":"CEAAECABAQJRWHBIFU2DOOYIAEBAMCIMCINCILJZAICACBANE4VCYBABAILR2HRL"}"#,
        )
        .await
        .expect("enqueue");
    let delivery = queue
        .reserve(QUEUE, "test")
        .await
        .expect("reserve")
        .expect("a job");
    let outcome = queue
        .fail(&delivery, "ruleset crashed")
        .await
        .expect("fail");
    assert!(matches!(outcome, FailOutcome::DeadLettered), "{outcome:?}");
    id
}

fn settings() -> QueueSettings {
    QueueSettings {
        max_attempts: 1,
        ..QueueSettings::default()
    }
}

fn assert_dead_then_replayed(dir: &std::path::Path, env: &[(&str, &str)]) {
    let dead = run(dir, &["queue", "dead-letters", QUEUE], env);
    let stdout = String::from_utf8_lossy(&dead.stdout);
    assert!(
        dead.status.success(),
        "{}",
        String::from_utf8_lossy(&dead.stderr)
    );
    let line: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    assert_eq!(line["id"], "job-42");
    assert_eq!(line["attempts"], 1);
    assert_eq!(line["lastError"], "ruleset crashed");

    let depth = run(dir, &["queue", "depth", QUEUE], env);
    let depth: serde_json::Value = serde_json::from_slice(&depth.stdout).expect("JSON");
    assert_eq!(
        (depth["dead"].as_u64(), depth["ready"].as_u64()),
        (Some(1), Some(0)),
        "{depth}"
    );

    let replay = run(dir, &["queue", "replay", QUEUE, "job-42"], env);
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    let depth = run(dir, &["queue", "depth", QUEUE], env);
    let depth: serde_json::Value = serde_json::from_slice(&depth.stdout).expect("JSON");
    assert_eq!(
        (depth["dead"].as_u64(), depth["ready"].as_u64()),
        (Some(0), Some(1)),
        "{depth}"
    );

    let again = run(dir, &["queue", "replay", QUEUE, "job-42"], env);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("no dead job `job-42`"));
}

#[tokio::test]
async fn an_operator_replays_a_dead_job_from_the_embedded_database() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("turnier.db").display());
    let database = kit::db::Database::connect(&url, 2).await.expect("sqlite");
    database.migrate(&[]).await.expect("migrate");
    kill_one_job(&Queue::sql(database, settings())).await;

    assert_dead_then_replayed(dir.path(), &[("DATABASE_URL", url.as_str())]);
}

#[tokio::test]
async fn an_operator_replays_a_dead_job_from_redis() {
    let dir = tempfile::tempdir().expect("temp dir");
    let redis = kit::testing::TestRedisPrefix::new("queue-cli");
    let (redis_url, prefix) = (redis.url().to_owned(), redis.prefix().to_owned());
    let queue = Queue::redis(&redis_url, &prefix, settings())
        .await
        .expect("redis");
    kill_one_job(&queue).await;
    let url = format!("sqlite://{}", dir.path().join("turnier.db").display());
    assert_dead_then_replayed(
        dir.path(),
        &[
            ("DATABASE_URL", url.as_str()),
            ("REDIS_URL", redis_url.as_str()),
            ("TURNIER_QUEUE_PREFIX", prefix.as_str()),
        ],
    );
}
