//! The values that cross the queue API: job ids, deliveries and what the queue reports back.
//!
//! Both backends produce exactly these types, so callers never learn which one they talk to.

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::QueueError;

/// The longest job id accepted, in bytes. Ids end up in Redis key names and SQL keys.
pub const MAX_JOB_ID_LEN: usize = 200;

/// The id of a job, chosen by the producer; the queue's idempotency key.
///
/// Enqueueing an id that is waiting, running, done or dead again is a
/// [`Enqueued::Duplicate`], so a producer that retries its own enqueue cannot start the
/// same work twice. Use an id that names the work (`submission:42`), or [`JobId::random`]
/// when every enqueue is new work.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JobId(String);

impl JobId {
    /// Parses a job id: 1 to [`MAX_JOB_ID_LEN`] bytes of printable, non-space characters.
    pub fn parse(id: &str) -> Result<JobId, QueueError> {
        let valid = !id.is_empty()
            && id.len() <= MAX_JOB_ID_LEN
            && id.chars().all(|c| !c.is_whitespace() && !c.is_control());
        if valid {
            Ok(JobId(id.to_owned()))
        } else {
            Err(QueueError::InvalidJobId(id.chars().take(64).collect()))
        }
    }

    /// Returns a new random id (a UUID v4).
    pub fn random() -> JobId {
        JobId(uuid::Uuid::new_v4().to_string())
    }

    /// Returns the id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for JobId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What [`super::Queue::enqueue`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enqueued {
    /// The job was added and will be delivered.
    New,
    /// A job with this id is already known (waiting, running, done or dead); nothing changed.
    Duplicate,
}

/// One hand-out of a job to a consumer, valid until the visibility timeout runs out.
///
/// Pass it back to [`super::Queue::ack`] or [`super::Queue::fail`]. Dropping it without
/// either is what a crashed worker does: the job is delivered again once the visibility
/// timeout has passed.
#[derive(Debug)]
#[non_exhaustive]
pub struct Delivery {
    /// The queue the job came from.
    pub queue: String,
    /// The job's id.
    pub id: JobId,
    /// The bytes given to `enqueue`.
    pub payload: Vec<u8>,
    /// Which hand-out this is, from 1; reset to 1 by a replay.
    pub attempt: u32,
    /// The token of this hand-out; a later hand-out of the same job gets another one, and
    /// [`super::Queue::fail`] and [`super::Queue::extend`] only act while it is current.
    pub lease: String,
}

/// What [`super::Queue::fail`] did with a failed job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOutcome {
    /// The job will be delivered again at (or soon after) this time.
    RetryAt(SystemTime),
    /// The job used its last attempt and moved to the dead letters.
    DeadLettered,
    /// The delivery's lease was no longer current (it timed out and the job went to another
    /// consumer, or it was completed): nothing changed.
    LeaseLost,
}

/// A job that failed [`super::QueueSettings::max_attempts`] times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadLetter {
    /// The job's id.
    pub id: JobId,
    /// The bytes given to `enqueue`.
    pub payload: Vec<u8>,
    /// How many times it was handed out.
    pub attempts: u32,
    /// The error given to the last `fail`, or why the queue gave up on it.
    pub last_error: Option<String>,
    /// When it was dead-lettered.
    pub failed_at: SystemTime,
}

/// How many jobs of one queue are in each state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueueDepth {
    /// Waiting to be reserved now.
    pub ready: u64,
    /// Reserved and not yet acknowledged or failed (including leases that ran out and wait to
    /// be taken back).
    pub in_flight: u64,
    /// Failed and waiting for their backoff to pass.
    pub delayed: u64,
    /// Dead letters.
    pub dead: u64,
}

impl QueueDepth {
    /// Returns the states and counts, with the label values used by the depth gauge.
    pub fn by_state(&self) -> [(&'static str, u64); 4] {
        [
            ("ready", self.ready),
            ("in_flight", self.in_flight),
            ("delayed", self.delayed),
            ("dead", self.dead),
        ]
    }
}

/// Returns the current time in unix milliseconds, the unit every stored time uses.
pub(crate) fn now_millis() -> i64 {
    millis_since_epoch(SystemTime::now())
}

/// Returns `time` in unix milliseconds (0 for times before 1970).
pub(crate) fn millis_since_epoch(time: SystemTime) -> i64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Returns the time `millis` unix milliseconds stand for.
pub(crate) fn time_from_millis(millis: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(u64::try_from(millis).unwrap_or(0))
}

/// Returns a fresh lease token.
pub(crate) fn new_lease() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// Parses a queue name: 1 to 100 ASCII letters, digits, `-`, `_` or `.`.
///
/// The Redis backend builds key names from it, so a `:` or `*` must not get through.
pub(crate) fn check_queue_name(queue: &str) -> Result<(), QueueError> {
    let valid = !queue.is_empty()
        && queue.len() <= 100
        && queue
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if valid {
        Ok(())
    } else {
        Err(QueueError::InvalidQueueName(
            queue.chars().take(64).collect(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_id_may_name_the_work_it_stands_for() {
        let id = JobId::parse("submission:42").expect("a valid id");
        assert_eq!(id.as_str(), "submission:42");
    }

    #[test]
    fn an_empty_or_spaced_job_id_is_rejected() {
        assert!(JobId::parse("").is_err());
        assert!(JobId::parse("two words").is_err());
        assert!(JobId::parse(&"x".repeat(MAX_JOB_ID_LEN + 1)).is_err());
    }

    #[test]
    fn queue_names_cannot_carry_key_separators() {
        assert!(check_queue_name("deck-submissions").is_ok());
        assert!(check_queue_name("a:b").is_err());
        assert!(check_queue_name("*").is_err());
        assert!(check_queue_name("").is_err());
    }

    #[test]
    fn unix_millis_round_trip() {
        let time = time_from_millis(1_700_000_000_123);
        assert_eq!(millis_since_epoch(time), 1_700_000_000_123);
    }
}
