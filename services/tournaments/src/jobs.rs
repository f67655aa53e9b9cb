//! The jobs of lineup checks: their queue, their payload, and queueing one. What the service
//! does when a lineup is submitted and the sweep does for one left pending; the worker
//! (`crate::worker`) consumes them.

use kit::queue::{JobId, Queue};
use serde::{Deserialize, Serialize};

use crate::store::Submission;

/// The queue of lineup checks.
pub const QUEUE: &str = "submissions";

/// A job's payload.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Payload {
    /// The tournament.
    pub(crate) tournament: String,
    /// The submission (also the job's id).
    pub(crate) submission: String,
}

/// Queues the check of `submission` (its id is the job's). A queue that cannot be reached is
/// logged: the submission stays pending until it is queued again.
pub async fn enqueue(queue: &Queue, submission: &Submission) {
    let payload = Payload {
        tournament: submission.tournament.clone(),
        submission: submission.id.clone(),
    };
    put(queue, QUEUE, &submission.id, &payload).await;
}

/// Queues `payload` on `name` as job `job`; a job that cannot be queued is logged, since
/// what it stands for stays pending and the sweep queues it again.
async fn put(queue: &Queue, name: &str, job: &str, payload: &impl Serialize) {
    let queued = match (JobId::parse(job), serde_json::to_vec(payload)) {
        (Ok(id), Ok(bytes)) => queue.enqueue(name, &id, &bytes).await.map(|_| ()),
        (Err(err), _) => Err(err),
        (_, Err(err)) => {
            tracing::error!(queue = name, job, error = %err, "a job does not serialize");
            return;
        }
    };
    if let Err(err) = queued {
        tracing::warn!(queue = name, job, error = %err, "a job was not queued");
    }
}

/// The queue of webhook deliveries (beside lineup checks, on the same backend).
pub const WEBHOOK_QUEUE: &str = "webhooks";

/// A delivery job's payload.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct DeliveryPayload {
    /// The delivery.
    pub(crate) delivery: String,
}

/// Queues delivery `delivery` as job `job` (the delivery's id the first time; a new one for
/// an organizer's redelivery). A queue that cannot be reached is logged: the delivery stays
/// pending until the sweep queues it again.
pub async fn enqueue_delivery(queue: &Queue, delivery: &str, job: &str) {
    let payload = DeliveryPayload {
        delivery: delivery.to_owned(),
    };
    put(queue, WEBHOOK_QUEUE, job, &payload).await;
}
