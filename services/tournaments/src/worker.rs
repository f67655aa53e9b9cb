//! The submission worker: consumes the `submissions` queue (Redis Streams, or the database
//! when `REDIS_URL` is unset), checks each lineup (`crate::lineup`) and writes its verdict.
//!
//! Delivery is at least once (a 30 s visibility timeout); a job is idempotent by its
//! submission id: a submission with a verdict, or superseded by a later one, is left alone,
//! and the verdict is written only over `pending`, so a job run twice writes one verdict. A
//! service that does not answer is retried with backoff; what keeps failing ends on the
//! dead-letter list (`turnier queue dead-letters submissions`).
//!
//! Beside it the worker sends webhook deliveries (the `webhooks` queue, `crate::delivery`),
//! and the sweep queues again any delivery left pending.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use kit::auth::Caller;
use kit::clients::{DecksClient, ScriptsClient};
use kit::queue::{Job, Queue, WorkerSummary, run_worker};
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::delivery;
use crate::jobs::{Payload, QUEUE, WEBHOOK_QUEUE, enqueue, enqueue_delivery};
use crate::lineup;
use crate::service::Tournaments;
use crate::webhooks::WebhookSettings;

/// Why a job did not finish: retried with backoff, then dead-lettered.
#[derive(Debug, thiserror::Error)]
enum JobError {
    #[error("unreadable job: {0}")]
    Payload(String),
    #[error(transparent)]
    Service(#[from] crate::Error),
    #[error("a service did not answer: {0}")]
    Transient(#[from] lineup::Transient),
}

/// Jobs a worker process runs at once by default: a check mostly waits on the decks and
/// scripts services, so a few at once keep them busy.
pub const DEFAULT_CONCURRENCY: usize = 4;

/// How often the sweep looks for submissions without a live job.
pub const SWEEP_EVERY: Duration = Duration::from_secs(30);

/// How old a pending submission is before the sweep queues it again.
pub const SWEEP_AFTER: Duration = Duration::from_secs(60);

/// What a worker works with besides the tournaments.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The job queues.
    pub queue: Queue,
    /// Reads decks (the decks service).
    pub importer: DecksClient,
    /// Runs the rules (the scripts service).
    pub scripts: ScriptsClient,
    /// Signs and allows webhook deliveries.
    pub webhooks: WebhookSettings,
    /// Jobs of each queue run at once.
    pub concurrency: usize,
}

/// Runs the worker as `consumer` until `shutdown`: `tournaments` reads the tournaments (its own
/// fold of the log in the shared database); the [`Setup`] gives the rest. Beside it, every
/// [`SWEEP_EVERY`] a sweep queues again any submission or delivery still pending after
/// [`SWEEP_AFTER`] (one whose job was never queued, say, because the queue was down):
/// queueing is idempotent by the id, so a live job is not doubled. `concurrency` jobs of each queue run at once. Returns what the
/// lineup checks did.
pub async fn run(
    tournaments: Tournaments,
    setup: Setup,
    consumer: &str,
    shutdown: impl Future<Output = ()>,
) -> WorkerSummary {
    let tournaments = tournaments
        .with_queue(setup.queue.clone())
        .with_webhooks(setup.webhooks.clone());
    let (stop, stopped) = watch::channel(false);
    let sweeping = sweep_forever(tournaments.clone(), setup.queue.clone());
    let concurrency = setup.concurrency.max(1);
    let context = Arc::new(Context { tournaments, setup });
    // `concurrency` loops of each queue, each its own consumer holding its own deliveries.
    let mut checking = JoinSet::new();
    let mut delivering = JoinSet::new();
    for slot in 0..concurrency {
        let check = |context: Arc<Context>, job| async move {
            let Setup {
                importer, scripts, ..
            } = &context.setup;
            handle(&context.tournaments, importer, scripts, job).await
        };
        let send = |context: Arc<Context>, job| async move {
            let Setup {
                queue, webhooks, ..
            } = &context.setup;
            delivery::deliver(&context.tournaments, webhooks, queue.settings(), job).await
        };
        let name = format!("{consumer}-{slot}");
        spawn_loop(&mut checking, &context, QUEUE, name, &stopped, check);
        let name = format!("{consumer}-hooks-{slot}");
        spawn_loop(
            &mut delivering,
            &context,
            WEBHOOK_QUEUE,
            name,
            &stopped,
            send,
        );
    }
    let working = async move {
        shutdown.await;
        let _ = stop.send(true);
        let mut total = WorkerSummary::default();
        while let Some(done) = checking.join_next().await {
            if let Ok(summary) = done {
                total.processed += summary.processed;
                total.failed += summary.failed;
                total.dead_lettered += summary.dead_lettered;
            }
        }
        while delivering.join_next().await.is_some() {}
        total
    };
    tokio::select! {
        summary = working => summary,
        never = sweeping => match never {},
    }
}

/// What every job of a worker works with.
struct Context {
    tournaments: Tournaments,
    setup: Setup,
}

/// Spawns one loop of `queue_name` into `set` as consumer `name`, running `handler` on each
/// job until `stopped` says stop.
fn spawn_loop<H, F, E>(
    set: &mut JoinSet<WorkerSummary>,
    context: &Arc<Context>,
    queue_name: &'static str,
    name: String,
    stopped: &watch::Receiver<bool>,
    handler: H,
) where
    H: Fn(Arc<Context>, Job) -> F + Send + 'static,
    F: Future<Output = Result<(), E>> + Send,
    E: std::fmt::Display + Send,
{
    let (context, mut stopped) = (context.clone(), stopped.clone());
    set.spawn(async move {
        let queue = context.setup.queue.clone();
        let until = async move {
            let _ = stopped.wait_for(|stop| *stop).await;
        };
        run_worker(
            queue,
            queue_name,
            &name,
            move |job| handler(context.clone(), job),
            until,
        )
        .await
    });
}

/// Queues again, every [`SWEEP_EVERY`], the submissions pending for longer than
/// [`SWEEP_AFTER`].
async fn sweep_forever(tournaments: Tournaments, queue: Queue) -> std::convert::Infallible {
    loop {
        tokio::time::sleep(SWEEP_EVERY).await;
        if let Err(err) = sweep(&tournaments, &queue, SWEEP_AFTER).await {
            tracing::warn!(error = %err, "the submission sweep failed");
        }
    }
}

/// Queues again every submission pending for longer than `after`; returns how many.
pub async fn sweep(
    tournaments: &Tournaments,
    queue: &Queue,
    after: Duration,
) -> Result<usize, crate::Error> {
    let before = SystemTime::now()
        .checked_sub(after)
        .unwrap_or(SystemTime::UNIX_EPOCH);
    let stale = tournaments
        .store()
        .stale_pending(kit::timestamp::to_millis(before), 500)
        .await?;
    for submission in &stale {
        enqueue(queue, submission).await;
    }
    let deliveries = tournaments
        .store()
        .stale_deliveries(kit::timestamp::to_millis(before), 500)
        .await?;
    for delivery in &deliveries {
        enqueue_delivery(queue, &delivery.id, &delivery.id).await;
    }
    if !stale.is_empty() || !deliveries.is_empty() {
        tracing::info!(
            submissions = stale.len(),
            deliveries = deliveries.len(),
            "pending submissions and deliveries queued again"
        );
    }
    Ok(stale.len() + deliveries.len())
}

async fn handle(
    tournaments: &Tournaments,
    importer: &DecksClient,
    scripts: &ScriptsClient,
    job: Job,
) -> Result<(), JobError> {
    let payload: Payload =
        serde_json::from_slice(&job.payload).map_err(|err| JobError::Payload(err.to_string()))?;
    let Some(submission) = tournaments.store().submission(&payload.submission).await? else {
        return Ok(());
    };
    if submission.superseded {
        tracing::debug!(submission = %submission.id, "superseded");
        return Ok(());
    }
    if submission.state != "pending" {
        // Checked by an earlier run of this job, which may have stopped before telling the
        // hooks: telling them again records nothing new.
        tracing::debug!(submission = %submission.id, "already checked");
        let run = tournaments
            .get(&Caller::Anonymous, &submission.tournament)
            .await?;
        tournaments.submission_checked(&run, &submission).await;
        return Ok(());
    }
    let run = tournaments
        .get(&Caller::Anonymous, &submission.tournament)
        .await?;
    let verdict = match &run.deck_settings {
        Some(settings) => {
            lineup::check(run.game, settings, &submission.decks, importer, scripts).await?
        }
        None => lineup::Verdict {
            state: "failed",
            issues: Vec::new(),
            failure: Some("the tournament has no deck settings".into()),
        },
    };
    let written = tournaments
        .store()
        .set_verdict(
            &submission.id,
            verdict.state,
            &verdict.issues,
            verdict.failure.as_deref(),
            SystemTime::now(),
        )
        .await?;
    tracing::info!(submission = %submission.id, state = verdict.state, written, "lineup checked");
    if !run.webhooks.is_empty()
        && let Some(checked) = tournaments.store().submission(&submission.id).await?
    {
        tournaments.submission_checked(&run, &checked).await;
    }
    Ok(())
}
