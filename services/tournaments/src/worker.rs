//! The submission worker: consumes the `submissions` queue (Redis Streams, or the database
//! when `REDIS_URL` is unset), checks each lineup (`crate::lineup`) and writes its verdict.
//!
//! Delivery is at least once (a 30 s visibility timeout); a job is idempotent by its
//! submission id: a submission with a verdict, or superseded by a later one, is left alone,
//! and the verdict is written only over `pending`, so a job run twice writes one verdict. A
//! service that does not answer is retried with backoff; what keeps failing ends on the
//! dead-letter list (`turnier queue dead-letters submissions`).

use std::future::Future;
use std::time::{Duration, SystemTime};

use kit::auth::Caller;
use kit::clients::{DecksClient, ScriptsClient};
use kit::queue::{Job, Queue, WorkerSummary, run_worker};

use crate::jobs::{Payload, QUEUE, enqueue};
use crate::lineup;
use crate::service::Tournaments;

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

/// How often the sweep looks for submissions without a live job.
pub const SWEEP_EVERY: Duration = Duration::from_secs(30);

/// How old a pending submission is before the sweep queues it again.
pub const SWEEP_AFTER: Duration = Duration::from_secs(60);

/// Runs the worker as `consumer` until `shutdown`: `tournaments` reads the tournaments (its own
/// fold of the log in the shared database), `importer` reads decks, `scripts` runs the rules.
/// Beside it, every [`SWEEP_EVERY`] a sweep queues again any submission still pending after
/// [`SWEEP_AFTER`] (one whose job was never queued, say, because the queue was down): queueing
/// is idempotent by the submission id, so a live job is not doubled.
pub async fn run(
    tournaments: Tournaments,
    queue: Queue,
    importer: DecksClient,
    scripts: ScriptsClient,
    consumer: &str,
    shutdown: impl Future<Output = ()>,
) -> WorkerSummary {
    let sweeping = sweep_forever(tournaments.clone(), queue.clone());
    let working = run_worker(
        queue,
        QUEUE,
        consumer,
        |job: Job| {
            let tournaments = tournaments.clone();
            let importer = importer.clone();
            let scripts = scripts.clone();
            async move { handle(&tournaments, &importer, &scripts, job).await }
        },
        shutdown,
    );
    tokio::select! {
        summary = working => summary,
        never = sweeping => match never {},
    }
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
    if !stale.is_empty() {
        tracing::info!(
            submissions = stale.len(),
            "pending submissions queued again"
        );
    }
    Ok(stale.len())
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
    if submission.state != "pending" || submission.superseded {
        tracing::debug!(submission = %submission.id, "already checked or superseded");
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
    Ok(())
}
