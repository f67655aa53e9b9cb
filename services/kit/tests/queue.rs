//! `kit::queue` against its three real backends: Redis, SQL on SQLite and SQL on PostgreSQL.
//!
//! Every behaviour is one `async fn` taking the backend; the `suite!` macro at the bottom
//! runs each of them as `redis::…`, `sqlite::…` and `postgres::…`. Each test has its own
//! database or Redis key prefix, removed afterwards. Tests wait for events (a delivery, a
//! message from a handler, a worker ending) with an overall deadline; where the event is
//! "the visibility timeout has passed", the queue is polled until it hands the job out.
//!
//! The Redis-only tests at the end start a `redis-server` of their own, so that they can
//! kill and restart it without touching the machine's shared server.

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::time::{Duration, SystemTime};

use kit::db::Database;
use kit::queue::{
    CONSUMER_GROUP, DeadLetter, Enqueued, FailOutcome, Job, JobId, Queue, QueueDepth,
    QueueSettings, WorkerSummary, run_worker,
};
use kit::shutdown::Shutdown;
use kit::testing::{TestDatabase, TestRedisPrefix, TestRedisServer};
use tokio::sync::mpsc;

/// How long any awaited event may take before the test fails.
const DEADLINE: Duration = Duration::from_secs(20);

/// The queue name most tests use.
const JOBS: &str = "jobs";

#[derive(Debug, Clone, Copy)]
enum Kind {
    Redis,
    Sqlite,
    Postgres,
}

/// One backend, private to one test.
struct Fixture {
    redis: Option<TestRedisPrefix>,
    database: Option<Database>,
    _test_database: Option<TestDatabase>,
}

impl Fixture {
    async fn new(kind: Kind) -> Fixture {
        init_tracing();
        let test_database = match kind {
            Kind::Redis => None,
            Kind::Sqlite => Some(TestDatabase::sqlite()),
            Kind::Postgres => Some(TestDatabase::postgres().await),
        };
        let database = match &test_database {
            Some(test_database) => {
                let database = test_database.connect().await;
                database.migrate(&[]).await.expect("kit's migrations apply");
                Some(database)
            }
            None => None,
        };
        let redis = matches!(kind, Kind::Redis).then(|| TestRedisPrefix::new("queue"));
        Fixture {
            redis,
            database,
            _test_database: test_database,
        }
    }

    /// Opens a queue on this fixture's backend; several queues with different settings
    /// share the same jobs.
    async fn queue(&self, settings: QueueSettings) -> Queue {
        match (&self.redis, &self.database) {
            (Some(redis), _) => Queue::redis(redis.url(), redis.prefix(), settings)
                .await
                .unwrap_or_else(|err| panic!("the test Redis server (TEST_REDIS_URL): {err}")),
            (None, Some(database)) => Queue::sql(database.clone(), settings),
            (None, None) => unreachable!("a fixture has a backend"),
        }
    }
}

/// Settings that make timeouts and retries happen in milliseconds.
fn fast() -> QueueSettings {
    QueueSettings {
        visibility_timeout: Duration::from_millis(300),
        max_attempts: 3,
        backoff_base: Duration::from_millis(20),
        backoff_max: Duration::from_millis(80),
        poll_interval: Duration::from_millis(10),
        ..QueueSettings::default()
    }
}

/// Sends logs to the test's output, shown only when it fails (`RUST_LOG` to change the level).
fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_test_writer()
        .try_init();
}

fn id(text: &str) -> JobId {
    JobId::parse(text).expect("a valid job id")
}

/// Polls `check` until it yields a value, failing the test after [`DEADLINE`].
async fn eventually<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + DEADLINE;
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        // The pause between polls; correctness never depends on its length.
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Waits for the next job to be handed to `consumer`.
async fn next_delivery(queue: &Queue, consumer: &str) -> kit::queue::Delivery {
    eventually("a delivery", || async {
        queue.reserve(JOBS, consumer).await.expect("reserve works")
    })
    .await
}

/// Waits for a message from a handler.
async fn receive<T>(receiver: &mut mpsc::UnboundedReceiver<T>) -> T {
    tokio::time::timeout(DEADLINE, receiver.recv())
        .await
        .expect("a handler message within the deadline")
        .expect("the worker is still running")
}

/// Waits for a spawned worker to return.
async fn stopped(worker: tokio::task::JoinHandle<WorkerSummary>) -> WorkerSummary {
    tokio::time::timeout(DEADLINE, worker)
        .await
        .expect("the worker stops within the deadline")
        .expect("the worker did not panic")
}

fn depth(ready: u64, in_flight: u64, delayed: u64, dead: u64) -> QueueDepth {
    QueueDepth {
        ready,
        in_flight,
        delayed,
        dead,
    }
}

// ---------------------------------------------------------------------------------------
// The suite, run against every backend.
// ---------------------------------------------------------------------------------------

async fn an_enqueued_job_goes_to_one_consumer_and_is_gone_after_ack(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    // The default 30 s visibility timeout: nothing in this test waits for it.
    let queue = fixture.queue(QueueSettings::default()).await;

    let job = id("deck-submission:1");
    // Not UTF-8: payloads are bytes on every backend.
    let payload = b"hello \x00\xff\xfe";
    assert_eq!(
        queue.enqueue(JOBS, &job, payload).await.expect("enqueue"),
        Enqueued::New
    );
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(1, 0, 0, 0));

    let delivery = queue
        .reserve(JOBS, "first")
        .await
        .expect("reserve")
        .expect("a job");
    assert_eq!(delivery.id, job);
    assert_eq!(delivery.payload, payload);
    assert_eq!(delivery.attempt, 1);
    assert_eq!(delivery.queue, JOBS);
    assert!(!delivery.lease.is_empty());
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(0, 1, 0, 0));

    assert!(
        queue
            .reserve(JOBS, "second")
            .await
            .expect("reserve")
            .is_none(),
        "a leased job is not handed to another consumer"
    );

    queue.ack(&delivery).await.expect("ack");
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(0, 0, 0, 0));
    assert!(
        queue
            .reserve(JOBS, "second")
            .await
            .expect("reserve")
            .is_none()
    );
}

async fn enqueueing_a_known_id_is_a_duplicate_while_pending_and_after_completion(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    let queue = fixture.queue(QueueSettings::default()).await;
    let job = id("import:pokemon:sv1");

    assert_eq!(
        queue.enqueue(JOBS, &job, b"first").await.expect("enqueue"),
        Enqueued::New
    );
    assert_eq!(
        queue.enqueue(JOBS, &job, b"second").await.expect("enqueue"),
        Enqueued::Duplicate
    );
    assert_eq!(queue.depth(JOBS).await.expect("depth").ready, 1);

    let delivery = queue
        .reserve(JOBS, "worker")
        .await
        .expect("reserve")
        .expect("a job");
    assert_eq!(
        delivery.payload, b"first",
        "the duplicate did not replace the payload"
    );
    assert_eq!(
        queue.enqueue(JOBS, &job, b"third").await.expect("enqueue"),
        Enqueued::Duplicate,
        "running"
    );
    queue.ack(&delivery).await.expect("ack");
    assert_eq!(
        queue.enqueue(JOBS, &job, b"fourth").await.expect("enqueue"),
        Enqueued::Duplicate,
        "done"
    );
    assert!(
        queue
            .reserve(JOBS, "worker")
            .await
            .expect("reserve")
            .is_none()
    );

    // The same id in another queue is another job.
    assert_eq!(
        queue.enqueue("other", &job, b"x").await.expect("enqueue"),
        Enqueued::New
    );
}

async fn a_completed_id_is_forgotten_after_the_retention(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    let queue = fixture
        .queue(QueueSettings {
            completed_retention: Duration::from_millis(1),
            ..QueueSettings::default()
        })
        .await;
    let job = id("nightly-import");
    queue.enqueue(JOBS, &job, b"").await.expect("enqueue");
    let delivery = queue
        .reserve(JOBS, "worker")
        .await
        .expect("reserve")
        .expect("a job");
    queue.ack(&delivery).await.expect("ack");

    // Redis expires the record on its own; the database needs the purge the worker runs.
    eventually("the completed id to be forgotten", || async {
        queue.purge_completed(JOBS).await.expect("purge");
        let again = queue.enqueue(JOBS, &job, b"").await.expect("enqueue");
        (again == Enqueued::New).then_some(())
    })
    .await;
    let rerun = queue
        .reserve(JOBS, "worker")
        .await
        .expect("reserve")
        .expect("a job");
    assert_eq!((rerun.id, rerun.attempt), (job, 1));
}

async fn a_job_whose_worker_died_is_delivered_again_to_another_consumer(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    let queue = fixture.queue(fast()).await;
    let job = id("tournament:7:pairings");
    queue
        .enqueue(JOBS, &job, b"round 3")
        .await
        .expect("enqueue");

    let first = queue
        .reserve(JOBS, "doomed")
        .await
        .expect("reserve")
        .expect("a job");
    assert_eq!(first.attempt, 1);
    let first_lease = first.lease.clone();
    drop(first); // The worker dies: no ack, no fail.

    let second = next_delivery(&queue, "rescuer").await;
    assert_eq!(second.id, job);
    assert_eq!(second.payload, b"round 3");
    assert_eq!(second.attempt, 2);
    assert_ne!(second.lease, first_lease);

    queue.ack(&second).await.expect("ack");
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(0, 0, 0, 0));
}

async fn a_late_ack_completes_the_job_and_the_new_holder_can_no_longer_fail_it(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    let queue = fixture.queue(fast()).await;
    let job = id("slow");
    queue.enqueue(JOBS, &job, b"").await.expect("enqueue");

    let slow = queue
        .reserve(JOBS, "slow")
        .await
        .expect("reserve")
        .expect("a job");
    let second = next_delivery(&queue, "fast").await;
    assert_eq!(second.attempt, 2);
    assert!(
        !queue.extend(&slow).await.expect("extend"),
        "the first lease is gone"
    );
    assert!(
        queue.extend(&second).await.expect("extend"),
        "the second lease is current"
    );

    // The slow worker finishes after all: the work is done, whoever holds the lease.
    queue.ack(&slow).await.expect("a late ack");
    assert_eq!(
        queue.fail(&second, "too late").await.expect("fail"),
        FailOutcome::LeaseLost
    );
    assert!(!queue.extend(&second).await.expect("extend"));
    queue.ack(&second).await.expect("a second ack is harmless");
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(0, 0, 0, 0));
    assert_eq!(
        queue.enqueue(JOBS, &job, b"").await.expect("enqueue"),
        Enqueued::Duplicate
    );
    assert!(
        queue
            .dead_letters(JOBS)
            .await
            .expect("dead letters")
            .is_empty()
    );
}

async fn failed_jobs_back_off_then_dead_letter_and_a_replay_runs_them_again(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    let settings = fast();
    let queue = fixture.queue(settings.clone()).await;
    let job = id("calculator:run:9");
    queue
        .enqueue(JOBS, &job, b"{\"deck\":\"x\"}")
        .await
        .expect("enqueue");

    for attempt in 1..=2 {
        let delivery = next_delivery(&queue, "worker").await;
        assert_eq!(delivery.attempt, attempt);
        let before = SystemTime::now();
        let outcome = queue
            .fail(&delivery, &format!("boom {attempt}"))
            .await
            .expect("fail");
        let FailOutcome::RetryAt(at) = outcome else {
            panic!("attempt {attempt} of 3 is retried, got {outcome:?}");
        };
        let wait = at.duration_since(before).unwrap_or_default();
        // The clock of the backend may be a few milliseconds apart from ours.
        assert!(
            wait + Duration::from_millis(10) >= settings.backoff_after(attempt),
            "attempt {attempt}: retry after {wait:?}"
        );
        let now = queue.depth(JOBS).await.expect("depth");
        assert_eq!(
            (now.in_flight, now.ready + now.delayed, now.dead),
            (0, 1, 0)
        );
    }

    let last = next_delivery(&queue, "worker").await;
    assert_eq!(last.attempt, 3);
    let before = SystemTime::now() - Duration::from_secs(1);
    assert_eq!(
        queue.fail(&last, "boom 3").await.expect("fail"),
        FailOutcome::DeadLettered
    );
    assert!(
        queue
            .reserve(JOBS, "worker")
            .await
            .expect("reserve")
            .is_none()
    );
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(0, 0, 0, 1));

    let dead = queue.dead_letters(JOBS).await.expect("dead letters");
    let [
        DeadLetter {
            id: dead_id,
            payload,
            attempts,
            last_error,
            failed_at,
        },
    ] = dead.as_slice()
    else {
        panic!("one dead letter, got {dead:?}");
    };
    assert_eq!(dead_id, &job);
    assert_eq!(payload, b"{\"deck\":\"x\"}");
    assert_eq!(*attempts, 3);
    assert_eq!(last_error.as_deref(), Some("boom 3"));
    assert!(*failed_at >= before && *failed_at <= SystemTime::now() + Duration::from_secs(1));

    assert!(!queue.replay(JOBS, &id("unknown")).await.expect("replay"));
    assert!(queue.replay(JOBS, &job).await.expect("replay"));
    assert!(
        !queue.replay(JOBS, &job).await.expect("replay"),
        "no longer dead"
    );
    assert!(
        queue
            .dead_letters(JOBS)
            .await
            .expect("dead letters")
            .is_empty()
    );

    let replayed = next_delivery(&queue, "worker").await;
    assert_eq!(replayed.id, job);
    assert_eq!(replayed.attempt, 1, "a replay resets the attempts");
    assert_eq!(replayed.payload, b"{\"deck\":\"x\"}");
    queue.ack(&replayed).await.expect("ack");
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(0, 0, 0, 0));
}

async fn a_job_lost_on_its_last_attempt_becomes_a_dead_letter(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    let queue = fixture
        .queue(QueueSettings {
            max_attempts: 2,
            ..fast()
        })
        .await;
    let job = id("crashes-the-worker");
    queue.enqueue(JOBS, &job, b"").await.expect("enqueue");

    let first = queue
        .reserve(JOBS, "a")
        .await
        .expect("reserve")
        .expect("a job");
    drop(first);
    let second = next_delivery(&queue, "b").await;
    assert_eq!(second.attempt, 2);
    drop(second);

    let dead = eventually("the lost job to be dead-lettered", || async {
        assert!(queue.reserve(JOBS, "c").await.expect("reserve").is_none());
        let dead = queue.dead_letters(JOBS).await.expect("dead letters");
        (!dead.is_empty()).then_some(dead)
    })
    .await;
    assert_eq!(dead[0].id, job);
    assert_eq!(dead[0].attempts, 2);
    assert!(
        dead[0]
            .last_error
            .as_deref()
            .unwrap_or_default()
            .contains("lease")
    );
}

async fn depth_counts_ready_in_flight_delayed_and_dead_jobs(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    // Long timeouts: the delayed job stays delayed and the lease holds for the whole test.
    let patient = QueueSettings {
        max_attempts: 2,
        backoff_base: Duration::from_secs(600),
        backoff_max: Duration::from_secs(600),
        ..QueueSettings::default()
    };
    let queue = fixture.queue(patient.clone()).await;
    let one_shot = fixture
        .queue(QueueSettings {
            max_attempts: 1,
            ..patient
        })
        .await;
    for n in 1..=4 {
        queue
            .enqueue(JOBS, &id(&format!("job-{n}")), b"")
            .await
            .expect("enqueue");
    }
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(4, 0, 0, 0));

    let held = queue
        .reserve(JOBS, "a")
        .await
        .expect("reserve")
        .expect("a job");
    let delayed = queue
        .reserve(JOBS, "a")
        .await
        .expect("reserve")
        .expect("a job");
    assert!(matches!(
        queue.fail(&delayed, "later").await.expect("fail"),
        FailOutcome::RetryAt(_)
    ));
    let doomed = one_shot
        .reserve(JOBS, "a")
        .await
        .expect("reserve")
        .expect("a job");
    assert_eq!(
        one_shot.fail(&doomed, "fatal").await.expect("fail"),
        FailOutcome::DeadLettered
    );
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(1, 1, 1, 1));

    queue.ack(&held).await.expect("ack");
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(1, 0, 1, 1));
    assert_eq!(
        queue.depth("empty").await.expect("depth"),
        depth(0, 0, 0, 0)
    );
}

async fn concurrent_consumers_never_get_the_same_job(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    let queue = fixture.queue(QueueSettings::default()).await;
    let expected: BTreeSet<String> = (0..24).map(|n| format!("job-{n:02}")).collect();
    for job in &expected {
        queue
            .enqueue(JOBS, &id(job), job.as_bytes())
            .await
            .expect("enqueue");
    }

    let consumers: Vec<_> = (0..4)
        .map(|n| {
            let queue = queue.clone();
            tokio::spawn(async move {
                let consumer = format!("consumer-{n}");
                let mut taken = Vec::new();
                while let Some(delivery) = queue.reserve(JOBS, &consumer).await.expect("reserve") {
                    assert_eq!(delivery.payload, delivery.id.as_str().as_bytes());
                    queue.ack(&delivery).await.expect("ack");
                    taken.push(delivery.id.as_str().to_owned());
                }
                taken
            })
        })
        .collect();
    let mut all = Vec::new();
    for consumer in consumers {
        all.extend(consumer.await.expect("the consumer did not panic"));
    }
    assert_eq!(
        all.len(),
        expected.len(),
        "no job was handed out twice: {all:?}"
    );
    assert_eq!(all.into_iter().collect::<BTreeSet<_>>(), expected);
}

async fn invalid_queue_names_are_rejected(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    let queue = fixture.queue(QueueSettings::default()).await;
    let error = queue
        .enqueue("a:b", &id("x"), b"")
        .await
        .expect_err("a colon would break the key layout");
    assert!(
        error.to_string().contains("invalid queue name `a:b`"),
        "{error}"
    );
}

async fn the_worker_runs_each_job_once_and_not_again_for_a_completed_id(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    let queue = fixture.queue(fast()).await;
    let (sender, mut handled) = mpsc::unbounded_channel::<Job>();
    let shutdown = Shutdown::new();
    let worker = tokio::spawn(run_worker(
        queue.clone(),
        JOBS,
        "worker-1",
        move |job: Job| {
            let sender = sender.clone();
            async move {
                sender.send(job).expect("the test is listening");
                Ok::<(), String>(())
            }
        },
        shutdown.wait(),
    ));

    for name in ["a", "b", "c"] {
        queue
            .enqueue(JOBS, &id(name), name.as_bytes())
            .await
            .expect("enqueue");
    }
    let mut runs: BTreeMap<String, u32> = BTreeMap::new();
    for _ in 0..3 {
        let job = receive(&mut handled).await;
        assert_eq!(job.payload, job.id.as_str().as_bytes());
        assert_eq!(job.attempt, 1);
        *runs.entry(job.id.as_str().to_owned()).or_default() += 1;
    }

    assert_eq!(
        queue
            .enqueue(JOBS, &id("a"), b"again")
            .await
            .expect("enqueue"),
        Enqueued::Duplicate
    );
    queue
        .enqueue(JOBS, &id("sentinel"), b"sentinel")
        .await
        .expect("enqueue");
    // Jobs of one worker run in order of arrival: once the sentinel ran, "a" had its chance.
    loop {
        let job = receive(&mut handled).await;
        *runs.entry(job.id.as_str().to_owned()).or_default() += 1;
        if job.id.as_str() == "sentinel" {
            break;
        }
    }
    shutdown.trigger();
    let summary = stopped(worker).await;

    let expected: BTreeMap<String, u32> = ["a", "b", "c", "sentinel"]
        .into_iter()
        .map(|n| (n.to_owned(), 1))
        .collect();
    assert_eq!(runs, expected);
    assert_eq!(summary.processed, 4);
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(0, 0, 0, 0));
}

async fn the_worker_retries_failing_jobs_and_dead_letters_the_hopeless(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    let queue = fixture.queue(fast()).await;
    let (sender, mut handled) = mpsc::unbounded_channel::<(String, u32)>();
    let shutdown = Shutdown::new();
    let worker = tokio::spawn(run_worker(
        queue.clone(),
        JOBS,
        "worker-1",
        move |job: Job| {
            let sender = sender.clone();
            async move {
                let name = job.id.as_str().to_owned();
                sender
                    .send((name.clone(), job.attempt))
                    .expect("the test is listening");
                match (name.as_str(), job.attempt) {
                    ("flaky", 3) => Ok(()),
                    _ => Err(format!("{name} failed on attempt {}", job.attempt)),
                }
            }
        },
        shutdown.wait(),
    ));

    queue
        .enqueue(JOBS, &id("flaky"), b"")
        .await
        .expect("enqueue");
    queue
        .enqueue(JOBS, &id("hopeless"), b"")
        .await
        .expect("enqueue");
    let mut seen: BTreeSet<(String, u32)> = BTreeSet::new();
    while seen.len() < 6 {
        seen.insert(receive(&mut handled).await);
    }
    let expected: BTreeSet<(String, u32)> = ["flaky", "hopeless"]
        .into_iter()
        .flat_map(|name| (1..=3).map(move |attempt| (name.to_owned(), attempt)))
        .collect();
    assert_eq!(seen, expected);

    // The last outcome is recorded before the worker takes another job or stops.
    shutdown.trigger();
    let summary = stopped(worker).await;
    assert_eq!(
        summary,
        WorkerSummary {
            processed: 1,
            failed: 4,
            dead_lettered: 1
        }
    );
    let dead = queue.dead_letters(JOBS).await.expect("dead letters");
    assert_eq!(dead.len(), 1);
    assert_eq!(dead[0].id, id("hopeless"));
    assert_eq!(
        dead[0].last_error.as_deref(),
        Some("hopeless failed on attempt 3")
    );
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(0, 0, 0, 1));
}

async fn the_worker_finishes_the_job_in_hand_before_it_stops(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    let queue = fixture
        .queue(QueueSettings {
            visibility_timeout: Duration::from_secs(2),
            ..fast()
        })
        .await;
    let (started_sender, mut started) = mpsc::unbounded_channel::<JobId>();
    let release = std::sync::Arc::new(tokio::sync::Notify::new());
    let shutdown = Shutdown::new();
    let handler_release = release.clone();
    let worker = tokio::spawn(run_worker(
        queue.clone(),
        JOBS,
        "worker-1",
        move |job: Job| {
            let started_sender = started_sender.clone();
            let release = handler_release.clone();
            async move {
                started_sender.send(job.id).expect("the test is listening");
                release.notified().await;
                Ok::<(), String>(())
            }
        },
        shutdown.wait(),
    ));

    queue
        .enqueue(JOBS, &id("long"), b"")
        .await
        .expect("enqueue");
    assert_eq!(receive(&mut started).await, id("long"));
    shutdown.trigger();
    // The handler is parked on `release`; the worker's heartbeat keeps the lease, so nobody
    // else may take the job meanwhile.
    assert!(
        queue
            .reserve(JOBS, "intruder")
            .await
            .expect("reserve")
            .is_none()
    );
    assert!(!worker.is_finished(), "the worker waits for its job");
    release.notify_one();

    let summary = stopped(worker).await;
    assert_eq!(summary.processed, 1);
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(0, 0, 0, 0));
}

async fn an_idle_worker_stops_when_shutdown_fires(kind: Kind) {
    let fixture = Fixture::new(kind).await;
    let queue = fixture
        .queue(QueueSettings {
            // A long poll interval: the worker must stop without waiting for it.
            poll_interval: Duration::from_secs(600),
            ..fast()
        })
        .await;
    let shutdown = Shutdown::new();
    let worker = tokio::spawn(run_worker(
        queue,
        JOBS,
        "idle",
        |_job: Job| async { Ok::<(), String>(()) },
        shutdown.wait(),
    ));
    shutdown.trigger();
    assert_eq!(stopped(worker).await, WorkerSummary::default());
}

macro_rules! suite {
    ($($test:ident),* $(,)?) => {
        mod redis {
            $(#[tokio::test] async fn $test() { super::$test(super::Kind::Redis).await })*
        }
        mod sqlite {
            $(#[tokio::test] async fn $test() { super::$test(super::Kind::Sqlite).await })*
        }
        mod postgres {
            $(#[tokio::test] async fn $test() { super::$test(super::Kind::Postgres).await })*
        }
    };
}

suite!(
    an_enqueued_job_goes_to_one_consumer_and_is_gone_after_ack,
    enqueueing_a_known_id_is_a_duplicate_while_pending_and_after_completion,
    a_completed_id_is_forgotten_after_the_retention,
    a_job_whose_worker_died_is_delivered_again_to_another_consumer,
    a_late_ack_completes_the_job_and_the_new_holder_can_no_longer_fail_it,
    failed_jobs_back_off_then_dead_letter_and_a_replay_runs_them_again,
    a_job_lost_on_its_last_attempt_becomes_a_dead_letter,
    depth_counts_ready_in_flight_delayed_and_dead_jobs,
    concurrent_consumers_never_get_the_same_job,
    invalid_queue_names_are_rejected,
    the_worker_runs_each_job_once_and_not_again_for_a_completed_id,
    the_worker_retries_failing_jobs_and_dead_letters_the_hopeless,
    the_worker_finishes_the_job_in_hand_before_it_stops,
    an_idle_worker_stops_when_shutdown_fires,
);

// ---------------------------------------------------------------------------------------
// Redis only: a vanished consumer group, and a restart of the server.
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn redis_reserve_recreates_a_vanished_consumer_group() {
    let fixture = Fixture::new(Kind::Redis).await;
    let queue = fixture.queue(QueueSettings::default()).await;
    let redis = fixture.redis.as_ref().expect("a Redis fixture");
    queue
        .enqueue(JOBS, &id("survivor"), b"x")
        .await
        .expect("enqueue");
    let first = queue
        .reserve(JOBS, "a")
        .await
        .expect("reserve")
        .expect("a job");
    assert_eq!(first.attempt, 1);

    let client = ::redis::Client::open(redis.url()).expect("a valid URL");
    let mut connection = client
        .get_multiplexed_async_connection()
        .await
        .expect("the test Redis server answers");
    let destroyed: i64 = ::redis::cmd("XGROUP")
        .arg("DESTROY")
        .arg(format!("{}:{JOBS}:stream", redis.prefix()))
        .arg(CONSUMER_GROUP)
        .query_async(&mut connection)
        .await
        .expect("XGROUP DESTROY");
    assert_eq!(destroyed, 1);

    // The group comes back from the start of the stream: the job, still in it, is delivered.
    let again = queue
        .reserve(JOBS, "b")
        .await
        .expect("reserve")
        .expect("the job again");
    assert_eq!(again.id, id("survivor"));
    assert_eq!(again.attempt, 2);
    queue.ack(&again).await.expect("ack");
    assert_eq!(queue.depth(JOBS).await.expect("depth"), depth(0, 0, 0, 0));
}

/// Enqueues, retrying while the server is coming back.
async fn enqueue_through_outage(queue: &Queue, queue_name: &str, job: &JobId) {
    eventually("an enqueue after the restart", || async {
        queue
            .enqueue(queue_name, job, job.as_str().as_bytes())
            .await
            .ok()
    })
    .await;
}

#[tokio::test]
async fn redis_jobs_survive_a_restart_of_the_server_and_the_worker_rides_through_it() {
    init_tracing();
    let mut server = TestRedisServer::start().await;
    let settings = QueueSettings {
        visibility_timeout: Duration::from_secs(2),
        ..fast()
    };
    let queue = Queue::redis(&server.url(), "restart", settings)
        .await
        .expect("our own redis-server answers");

    // Before the restart: two jobs for the worker, one held by a consumer that will die with
    // the server, and one in a queue nobody reads until after the restart.
    queue
        .enqueue(JOBS, &id("held"), b"held")
        .await
        .expect("enqueue");
    let held = queue
        .reserve(JOBS, "ghost")
        .await
        .expect("reserve")
        .expect("a job");
    assert_eq!(held.id, id("held"));
    queue
        .enqueue("later", &id("waiting"), b"waiting")
        .await
        .expect("enqueue");

    let (sender, mut handled) = mpsc::unbounded_channel::<JobId>();
    let shutdown = Shutdown::new();
    let worker = tokio::spawn(run_worker(
        queue.clone(),
        JOBS,
        "worker-1",
        move |job: Job| {
            let sender = sender.clone();
            async move {
                sender.send(job.id).expect("the test is listening");
                Ok::<(), String>(())
            }
        },
        shutdown.wait(),
    ));
    for name in ["before-1", "before-2"] {
        queue
            .enqueue(JOBS, &id(name), name.as_bytes())
            .await
            .expect("enqueue");
    }
    let mut seen = BTreeSet::new();
    while !(seen.contains("before-1") && seen.contains("before-2")) {
        seen.insert(receive(&mut handled).await.as_str().to_owned());
    }

    assert!(
        !seen.contains("held"),
        "the ghost's lease still holds before the restart"
    );

    server.kill();
    // Twice: the first command notices the broken connection; the second waits for the
    // connection manager's own reconnection attempts to run out, so the outage outlasts them.
    for _ in 0..2 {
        let refused = queue.enqueue(JOBS, &id("during"), b"").await;
        assert!(
            refused.is_err(),
            "commands fail while the server is down: {refused:?}"
        );
    }
    server.start_again().await;

    for name in ["after-1", "after-2"] {
        enqueue_through_outage(&queue, JOBS, &id(name)).await;
    }
    // The worker never stopped: it gets the new jobs, and the job the ghost held before the
    // restart once its lease (kept in the append-only file) has run out.
    while !["held", "after-1", "after-2"]
        .iter()
        .all(|name| seen.contains(*name))
    {
        seen.insert(receive(&mut handled).await.as_str().to_owned());
    }
    assert!(!worker.is_finished());

    // A plain reserve after the restart gets the job nobody had read.
    let waiting = eventually("the job enqueued before the restart", || async {
        queue.reserve("later", "reader").await.ok().flatten()
    })
    .await;
    assert_eq!(waiting.id, id("waiting"));
    assert_eq!(waiting.payload, b"waiting");
    queue.ack(&waiting).await.expect("ack");

    shutdown.trigger();
    let summary = stopped(worker).await;
    assert!(summary.processed >= 5, "{summary:?}");
    let remaining = eventually("the last acks to land", || async {
        let now = queue.depth(JOBS).await.ok()?;
        (now == depth(0, 0, 0, 0)).then_some(now)
    })
    .await;
    assert_eq!(remaining, depth(0, 0, 0, 0));
    server.kill();
}
