//! The worker loop: reserve a job, run the handler, acknowledge or fail it, until shutdown.
//!
//! The loop never gives up on the backend: an error is logged, counted, and followed by a
//! growing pause (a Redis restart or a database failover looks like a run of errors, then
//! work resumes). What a job means is the handler's business; the loop only keeps the lease
//! alive while the handler runs and reports the outcome to the queue.

use std::fmt::Display;
use std::future::Future;
use std::pin::{Pin, pin};
use std::time::{Duration, Instant};

use tracing::Instrument;

use super::{Delivery, FailOutcome, JobId, Queue, QueueError};

/// The longest pause after a run of backend errors.
const MAX_ERROR_PAUSE: Duration = Duration::from_secs(5);

/// The first pause after a backend error; it doubles with each further error.
const FIRST_ERROR_PAUSE: Duration = Duration::from_millis(50);

/// How often the depth gauge is refreshed. Prometheus scrapes every 15 s or more.
const DEPTH_REFRESH: Duration = Duration::from_secs(5);

/// How often completed jobs past their retention are purged (database backends only).
const PURGE_EVERY: Duration = Duration::from_secs(60 * 60);

/// How many times an ack or fail is tried before the loop moves on; the job is then handed
/// out again after its visibility timeout, which an idempotent handler tolerates.
const SETTLE_TRIES: u32 = 8;

/// A job as the handler sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// The job's id: the key that makes the handler idempotent.
    pub id: JobId,
    /// The bytes given to `enqueue`.
    pub payload: Vec<u8>,
    /// Which hand-out this is, from 1. Above 1, an earlier run may have done part of the work.
    pub attempt: u32,
}

/// What one run of [`run_worker`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WorkerSummary {
    /// Jobs whose handler succeeded and whose completion was recorded.
    pub processed: u64,
    /// Handler failures that were scheduled for a retry.
    pub failed: u64,
    /// Handler failures on a job's last attempt.
    pub dead_lettered: u64,
}

/// Runs `handler` on the jobs of `queue_name`, one at a time, as `consumer`, until `shutdown`
/// resolves; then returns what it did.
///
/// A job the handler finishes with `Ok` is acknowledged; `Err` fails it (retry with backoff,
/// or a dead letter after the last attempt). While the handler runs, the lease is extended
/// every third of the visibility timeout, so a slow job is not handed to a second worker.
/// Completed job ids are never handed out again (the queue remembers them), so the handler
/// does not run twice for work that was recorded as done; it may still run twice for a job
/// whose worker died before recording it, which is why handlers must be idempotent.
///
/// When `shutdown` resolves, the loop stops before taking another job: a job in hand is
/// finished and acknowledged first. Backend errors never stop the loop.
///
/// Metrics: gauge `turnier_queue_depth{queue,state}` (ready, in_flight, delayed, dead),
/// counters `turnier_queue_jobs_processed_total`, `turnier_queue_jobs_failed_total`,
/// `turnier_queue_jobs_dead_lettered_total` and `turnier_queue_backend_errors_total`, and
/// the histogram `turnier_queue_job_duration_seconds`, all labelled by `queue`.
pub async fn run_worker<H, F, E>(
    queue: Queue,
    queue_name: &str,
    consumer: &str,
    mut handler: H,
    shutdown: impl Future<Output = ()>,
) -> WorkerSummary
where
    H: FnMut(Job) -> F,
    F: Future<Output = Result<(), E>>,
    E: Display,
{
    let mut shutdown = pin!(shutdown);
    let mut summary = WorkerSummary::default();
    let mut error_pause = FIRST_ERROR_PAUSE;
    let mut depth_refreshed: Option<Instant> = None;
    let mut purged: Option<Instant> = None;
    tracing::info!(
        queue = queue_name,
        consumer,
        backend = queue.backend_name(),
        "queue worker started"
    );

    loop {
        if has_fired(&mut shutdown).await {
            break;
        }
        if depth_refreshed.is_none_or(|at| at.elapsed() >= DEPTH_REFRESH) {
            depth_refreshed = Some(Instant::now());
            refresh_depth_gauge(&queue, queue_name).await;
        }
        if purged.is_none_or(|at| at.elapsed() >= PURGE_EVERY) {
            purged = Some(Instant::now());
            match queue.purge_completed(queue_name).await {
                Ok(0) => {}
                Ok(jobs) => tracing::debug!(queue = queue_name, jobs, "purged completed jobs"),
                Err(error) => backend_error(queue_name, "purge", &error),
            }
        }

        match queue.reserve(queue_name, consumer).await {
            Ok(Some(delivery)) => {
                error_pause = FIRST_ERROR_PAUSE;
                handle(&queue, &mut handler, delivery, &mut summary).await;
            }
            Ok(None) => {
                error_pause = FIRST_ERROR_PAUSE;
                if pause_unless_shutdown(&mut shutdown, queue.settings().poll_interval).await {
                    break;
                }
            }
            Err(error) => {
                backend_error(queue_name, "reserve", &error);
                if pause_unless_shutdown(&mut shutdown, error_pause).await {
                    break;
                }
                error_pause = (error_pause * 2).min(MAX_ERROR_PAUSE);
            }
        }
    }

    tracing::info!(
        queue = queue_name,
        consumer,
        processed = summary.processed,
        failed = summary.failed,
        dead_lettered = summary.dead_lettered,
        "queue worker stopped"
    );
    summary
}

/// Runs the handler on one delivery and records the outcome.
async fn handle<H, F, E>(
    queue: &Queue,
    handler: &mut H,
    mut delivery: Delivery,
    summary: &mut WorkerSummary,
) where
    H: FnMut(Job) -> F,
    F: Future<Output = Result<(), E>>,
    E: Display,
{
    let queue_name = delivery.queue.clone();
    let span = tracing::info_span!(
        "job",
        queue = %queue_name,
        job_id = %delivery.id,
        attempt = delivery.attempt
    );
    let job = Job {
        id: delivery.id.clone(),
        payload: std::mem::take(&mut delivery.payload),
        attempt: delivery.attempt,
    };
    let started = Instant::now();
    let result = run_with_heartbeat(queue, &delivery, handler(job).instrument(span.clone())).await;
    metrics::histogram!("turnier_queue_job_duration_seconds", "queue" => queue_name.clone())
        .record(started.elapsed().as_secs_f64());

    async {
        match result {
            Ok(()) => {
                if settle(&queue_name, "ack", || queue.ack(&delivery)).await.is_some() {
                    summary.processed += 1;
                    metrics::counter!("turnier_queue_jobs_processed_total", "queue" => queue_name.clone())
                        .increment(1);
                    tracing::debug!("job processed");
                }
            }
            Err(error) => {
                let error = error.to_string();
                match settle(&queue_name, "fail", || queue.fail(&delivery, &error)).await {
                    Some(FailOutcome::RetryAt(_)) => {
                        summary.failed += 1;
                        metrics::counter!("turnier_queue_jobs_failed_total", "queue" => queue_name.clone())
                            .increment(1);
                        tracing::warn!(error = %error, "job failed; it will be retried");
                    }
                    Some(FailOutcome::DeadLettered) => {
                        summary.dead_lettered += 1;
                        metrics::counter!("turnier_queue_jobs_failed_total", "queue" => queue_name.clone())
                            .increment(1);
                        metrics::counter!("turnier_queue_jobs_dead_lettered_total", "queue" => queue_name.clone())
                            .increment(1);
                        tracing::error!(error = %error, "job failed on its last attempt; dead-lettered");
                    }
                    Some(FailOutcome::LeaseLost) => {
                        tracing::warn!(
                            error = %error,
                            "job failed after its lease ran out; another consumer has it"
                        );
                    }
                    None => {}
                }
            }
        }
    }
    .instrument(span)
    .await;
}

/// Drives the handler's future, extending the delivery's lease every third of the
/// visibility timeout until it finishes.
async fn run_with_heartbeat<T>(
    queue: &Queue,
    delivery: &Delivery,
    work: impl Future<Output = T>,
) -> T {
    let period = (queue.settings().visibility_timeout / 3).max(Duration::from_millis(10));
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut work = pin!(work);
    loop {
        tokio::select! {
            output = &mut work => return output,
            _ = ticker.tick() => match queue.extend(delivery).await {
                Ok(true) => {}
                Ok(false) => tracing::warn!(
                    queue = %delivery.queue,
                    job_id = %delivery.id,
                    "lease lost while the handler runs; the job may run twice"
                ),
                Err(error) => backend_error(&delivery.queue, "extend", &error),
            },
        }
    }
}

/// Tries an ack or fail a few times across short backend outages. Returns `None` if every
/// try failed; the job then comes back after its visibility timeout.
async fn settle<T, Fut>(
    queue_name: &str,
    what: &'static str,
    mut call: impl FnMut() -> Fut,
) -> Option<T>
where
    Fut: Future<Output = Result<T, QueueError>>,
{
    let mut pause = FIRST_ERROR_PAUSE;
    for attempt in 1..=SETTLE_TRIES {
        match call().await {
            Ok(value) => return Some(value),
            Err(error) => {
                backend_error(queue_name, what, &error);
                if attempt < SETTLE_TRIES {
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(MAX_ERROR_PAUSE);
                }
            }
        }
    }
    tracing::error!(
        queue = queue_name,
        operation = what,
        "giving up; the job will be delivered again"
    );
    None
}

async fn refresh_depth_gauge(queue: &Queue, queue_name: &str) {
    match queue.depth(queue_name).await {
        Ok(depth) => {
            for (state, count) in depth.by_state() {
                metrics::gauge!("turnier_queue_depth", "queue" => queue_name.to_owned(), "state" => state)
                    .set(count as f64);
            }
        }
        Err(error) => backend_error(queue_name, "depth", &error),
    }
}

fn backend_error(queue_name: &str, operation: &'static str, error: &QueueError) {
    metrics::counter!("turnier_queue_backend_errors_total", "queue" => queue_name.to_owned())
        .increment(1);
    tracing::warn!(queue = queue_name, operation, error = %error, "queue backend error");
}

/// Returns whether `shutdown` has resolved, without waiting for it.
async fn has_fired<S: Future<Output = ()>>(shutdown: &mut Pin<&mut S>) -> bool {
    tokio::select! {
        biased;
        () = shutdown.as_mut() => true,
        () = std::future::ready(()) => false,
    }
}

/// Waits for `pause`; returns `true` instead if `shutdown` resolves first.
async fn pause_unless_shutdown<S: Future<Output = ()>>(
    shutdown: &mut Pin<&mut S>,
    pause: Duration,
) -> bool {
    tokio::select! {
        () = shutdown.as_mut() => true,
        () = tokio::time::sleep(pause) => false,
    }
}
