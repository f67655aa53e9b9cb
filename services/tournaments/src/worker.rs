//! The submission worker: consumes the `submissions` queue (Redis Streams, or the database
//! when `REDIS_URL` is unset), checks each lineup (`crate::lineup`) and writes its verdict.
//!
//! Delivery is at least once (a 30 s visibility timeout); a job is idempotent by its
//! submission id: a submission with a verdict, or superseded by a later one, is left alone,
//! and the verdict is written only over `pending`, so a job run twice writes one verdict. A
//! service that does not answer is retried with backoff; what keeps failing ends on the
//! dead-letter list (`turnier queue dead-letters submissions`).

use std::future::Future;
use std::time::SystemTime;

use kit::auth::Caller;
use kit::clients::{DecksClient, ScriptsClient};
use kit::queue::{Job, JobId, Queue, WorkerSummary, run_worker};
use serde::{Deserialize, Serialize};

use crate::lineup;
use crate::service::Tournaments;
use crate::store::Submission;

/// The queue of lineup checks.
pub const QUEUE: &str = "submissions";

/// A job's payload.
#[derive(Debug, Serialize, Deserialize)]
struct Payload {
    tournament: String,
    submission: String,
}

/// Queues the check of `submission` (its id is the job's). A queue that cannot be reached is
/// logged: the submission stays pending until it is queued again.
pub async fn enqueue(queue: &Queue, submission: &Submission) {
    let payload = Payload {
        tournament: submission.tournament.clone(),
        submission: submission.id.clone(),
    };
    let queued = match (JobId::parse(&submission.id), serde_json::to_vec(&payload)) {
        (Ok(id), Ok(bytes)) => queue.enqueue(QUEUE, &id, &bytes).await.map(|_| ()),
        (Err(err), _) => Err(err),
        (_, Err(err)) => {
            tracing::error!(error = %err, "a submission job does not serialize");
            return;
        }
    };
    if let Err(err) = queued {
        tracing::warn!(submission = %submission.id, error = %err, "a lineup check was not queued");
    }
}

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

/// Runs the worker as `consumer` until `shutdown`: `tournaments` reads the tournaments (its own
/// fold of the log in the shared database), `importer` reads decks, `scripts` runs the rules.
pub async fn run(
    tournaments: Tournaments,
    queue: Queue,
    importer: DecksClient,
    scripts: ScriptsClient,
    consumer: &str,
    shutdown: impl Future<Output = ()>,
) -> WorkerSummary {
    run_worker(
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
    )
    .await
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
