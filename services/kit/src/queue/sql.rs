//! The embedded queue: jobs as rows of `kit_jobs` in the local database (SQLite or
//! PostgreSQL), used when no `REDIS_URL` is set.
//!
//! Every state change is one `UPDATE` guarded by the state (and the lease where it matters),
//! so two consumers can never both win: reserve picks one visible row and stamps it with a
//! fresh lease in the same statement — under PostgreSQL's `FOR UPDATE SKIP LOCKED`, under
//! SQLite's single writer. The table is created by `migrations/10000001_queue.sql`; the
//! schema and the meaning of each state are documented there.
//!
//! Times are unix milliseconds from this process's clock. Hosts that share one PostgreSQL
//! should run NTP; a skew only shifts when a timed-out job becomes visible again.

use std::time::Duration;

use sqlx::Row;

use super::job::{DeadLetter, Delivery, Enqueued, FailOutcome, JobId, QueueDepth};
use super::job::{new_lease, now_millis, time_from_millis};
use super::settings::duration_millis;
use super::{QueueError, QueueSettings};
use crate::db::{Backend, Database};

/// What a job that was lost by its worker on its last attempt is dead-lettered with.
const LOST_ON_LAST_ATTEMPT: &str =
    "the lease of the last attempt ran out without ack or fail (the worker was lost)";

const ENQUEUE: &str = "INSERT INTO kit_jobs \
     (queue, id, payload, state, attempts, visible_at, created_at, updated_at) \
     VALUES ($1, $2, $3, 'ready', 0, $4, $4, $4) \
     ON CONFLICT (queue, id) DO NOTHING";

/// Dead-letters running jobs whose lease ran out on their last attempt; reserve would
/// otherwise skip them forever.
const BURY_LOST: &str = "UPDATE kit_jobs \
     SET state = 'dead', lease = NULL, last_error = $3, updated_at = $2 \
     WHERE queue = $1 AND state = 'running' AND visible_at <= $2 AND attempts >= $4";

const RESERVE_POSTGRES: &str = "UPDATE kit_jobs \
     SET state = 'running', attempts = attempts + 1, lease = $3, consumer = $4, \
         visible_at = $5, updated_at = $2 \
     WHERE queue = $1 AND id = ( \
         SELECT id FROM kit_jobs \
         WHERE queue = $1 AND visible_at <= $2 \
           AND (state = 'ready' OR (state = 'running' AND attempts < $6)) \
         ORDER BY visible_at, created_at \
         LIMIT 1 \
         FOR UPDATE SKIP LOCKED) \
     RETURNING id, payload, attempts";

/// SQLite has one writer at a time, so the subquery and the update cannot interleave with
/// another reserve; it has no row locks to skip.
const RESERVE_SQLITE: &str = "UPDATE kit_jobs \
     SET state = 'running', attempts = attempts + 1, lease = $3, consumer = $4, \
         visible_at = $5, updated_at = $2 \
     WHERE queue = $1 AND id = ( \
         SELECT id FROM kit_jobs \
         WHERE queue = $1 AND visible_at <= $2 \
           AND (state = 'ready' OR (state = 'running' AND attempts < $6)) \
         ORDER BY visible_at, created_at \
         LIMIT 1) \
     RETURNING id, payload, attempts";

/// Completes the job whoever holds it: the work is done, even if this delivery's lease ran
/// out meanwhile. The payload is dropped; the row stays to make the id a duplicate.
const ACK: &str = "UPDATE kit_jobs \
     SET state = 'done', lease = NULL, payload = $3, updated_at = $4 \
     WHERE queue = $1 AND id = $2 AND state <> 'done'";

const FAIL_RETRY: &str = "UPDATE kit_jobs \
     SET state = 'ready', lease = NULL, visible_at = $4, last_error = $5, updated_at = $6 \
     WHERE queue = $1 AND id = $2 AND lease = $3 AND state = 'running'";

const FAIL_DEAD: &str = "UPDATE kit_jobs \
     SET state = 'dead', lease = NULL, last_error = $4, updated_at = $5 \
     WHERE queue = $1 AND id = $2 AND lease = $3 AND state = 'running'";

const EXTEND: &str = "UPDATE kit_jobs SET visible_at = $4, updated_at = $5 \
     WHERE queue = $1 AND id = $2 AND lease = $3 AND state = 'running'";

const DEAD_LETTERS: &str = "SELECT id, payload, attempts, last_error, updated_at \
     FROM kit_jobs WHERE queue = $1 AND state = 'dead' ORDER BY updated_at, id";

const REPLAY: &str = "UPDATE kit_jobs \
     SET state = 'ready', attempts = 0, lease = NULL, consumer = NULL, visible_at = $3, \
         updated_at = $3 \
     WHERE queue = $1 AND id = $2 AND state = 'dead'";

const DEPTH: &str = "SELECT \
     COALESCE(SUM(CASE WHEN state = 'ready' AND visible_at <= $2 THEN 1 ELSE 0 END), 0) AS ready, \
     COALESCE(SUM(CASE WHEN state = 'running' THEN 1 ELSE 0 END), 0) AS in_flight, \
     COALESCE(SUM(CASE WHEN state = 'ready' AND visible_at > $2 THEN 1 ELSE 0 END), 0) AS delayed, \
     COALESCE(SUM(CASE WHEN state = 'dead' THEN 1 ELSE 0 END), 0) AS dead \
     FROM kit_jobs WHERE queue = $1";

const PURGE_DONE: &str =
    "DELETE FROM kit_jobs WHERE queue = $1 AND state = 'done' AND updated_at < $2";

/// The queue backend on a [`Database`].
#[derive(Debug, Clone)]
pub(crate) struct SqlQueue {
    database: Database,
}

impl SqlQueue {
    /// Wraps a database that kit's migrations have been applied to.
    pub(crate) fn new(database: Database) -> Self {
        Self { database }
    }

    /// Returns which database the jobs live in.
    pub(crate) fn backend(&self) -> Backend {
        self.database.backend()
    }

    pub(crate) async fn enqueue(
        &self,
        queue: &str,
        id: &JobId,
        payload: &[u8],
    ) -> Result<Enqueued, QueueError> {
        let result = sqlx::query(ENQUEUE)
            .bind(queue)
            .bind(id.as_str())
            .bind(payload)
            .bind(now_millis())
            .execute(self.database.pool())
            .await?;
        Ok(if result.rows_affected() == 1 {
            Enqueued::New
        } else {
            Enqueued::Duplicate
        })
    }

    pub(crate) async fn reserve(
        &self,
        settings: &QueueSettings,
        queue: &str,
        consumer: &str,
    ) -> Result<Option<Delivery>, QueueError> {
        let now = now_millis();
        let max_attempts = i64::from(settings.max_attempts.max(1));
        let buried = sqlx::query(BURY_LOST)
            .bind(queue)
            .bind(now)
            .bind(LOST_ON_LAST_ATTEMPT)
            .bind(max_attempts)
            .execute(self.database.pool())
            .await?
            .rows_affected();
        if buried > 0 {
            tracing::warn!(
                queue,
                jobs = buried,
                "dead-lettered jobs lost on their last attempt"
            );
        }

        let lease = new_lease();
        let sql = match self.backend() {
            Backend::Postgres => RESERVE_POSTGRES,
            Backend::Sqlite => RESERVE_SQLITE,
        };
        let row = sqlx::query(sql)
            .bind(queue)
            .bind(now)
            .bind(lease.as_str())
            .bind(consumer)
            .bind(now.saturating_add(settings.visibility_millis()))
            .bind(max_attempts)
            .fetch_optional(self.database.pool())
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let id: String = row.try_get("id")?;
        let attempts: i64 = row.try_get("attempts")?;
        Ok(Some(Delivery {
            queue: queue.to_owned(),
            id: JobId::parse(&id)?,
            payload: row.try_get("payload")?,
            attempt: u32::try_from(attempts).unwrap_or(u32::MAX),
            lease,
        }))
    }

    pub(crate) async fn ack(&self, delivery: &Delivery) -> Result<(), QueueError> {
        sqlx::query(ACK)
            .bind(delivery.queue.as_str())
            .bind(delivery.id.as_str())
            .bind(&[][..])
            .bind(now_millis())
            .execute(self.database.pool())
            .await?;
        Ok(())
    }

    pub(crate) async fn fail(
        &self,
        settings: &QueueSettings,
        delivery: &Delivery,
        error: &str,
    ) -> Result<FailOutcome, QueueError> {
        let now = now_millis();
        if settings.is_last_attempt(delivery.attempt) {
            let result = sqlx::query(FAIL_DEAD)
                .bind(delivery.queue.as_str())
                .bind(delivery.id.as_str())
                .bind(delivery.lease.as_str())
                .bind(error)
                .bind(now)
                .execute(self.database.pool())
                .await?;
            return Ok(if result.rows_affected() == 1 {
                FailOutcome::DeadLettered
            } else {
                FailOutcome::LeaseLost
            });
        }
        let due = now.saturating_add(duration_millis(settings.backoff_after(delivery.attempt)));
        let result = sqlx::query(FAIL_RETRY)
            .bind(delivery.queue.as_str())
            .bind(delivery.id.as_str())
            .bind(delivery.lease.as_str())
            .bind(due)
            .bind(error)
            .bind(now)
            .execute(self.database.pool())
            .await?;
        Ok(if result.rows_affected() == 1 {
            FailOutcome::RetryAt(time_from_millis(due))
        } else {
            FailOutcome::LeaseLost
        })
    }

    pub(crate) async fn extend(
        &self,
        settings: &QueueSettings,
        delivery: &Delivery,
    ) -> Result<bool, QueueError> {
        let now = now_millis();
        let result = sqlx::query(EXTEND)
            .bind(delivery.queue.as_str())
            .bind(delivery.id.as_str())
            .bind(delivery.lease.as_str())
            .bind(now.saturating_add(settings.visibility_millis()))
            .bind(now)
            .execute(self.database.pool())
            .await?;
        Ok(result.rows_affected() == 1)
    }

    pub(crate) async fn dead_letters(&self, queue: &str) -> Result<Vec<DeadLetter>, QueueError> {
        let rows = sqlx::query(DEAD_LETTERS)
            .bind(queue)
            .fetch_all(self.database.pool())
            .await?;
        rows.iter()
            .map(|row| {
                let id: String = row.try_get("id")?;
                let attempts: i64 = row.try_get("attempts")?;
                Ok(DeadLetter {
                    id: JobId::parse(&id)?,
                    payload: row.try_get("payload")?,
                    attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
                    last_error: row.try_get("last_error")?,
                    failed_at: time_from_millis(row.try_get("updated_at")?),
                })
            })
            .collect()
    }

    pub(crate) async fn replay(&self, queue: &str, id: &JobId) -> Result<bool, QueueError> {
        let result = sqlx::query(REPLAY)
            .bind(queue)
            .bind(id.as_str())
            .bind(now_millis())
            .execute(self.database.pool())
            .await?;
        Ok(result.rows_affected() == 1)
    }

    pub(crate) async fn depth(&self, queue: &str) -> Result<QueueDepth, QueueError> {
        let row = sqlx::query(DEPTH)
            .bind(queue)
            .bind(now_millis())
            .fetch_one(self.database.pool())
            .await?;
        let count = |name: &str| -> Result<u64, QueueError> {
            let value: i64 = row.try_get(name)?;
            Ok(u64::try_from(value).unwrap_or(0))
        };
        Ok(QueueDepth {
            ready: count("ready")?,
            in_flight: count("in_flight")?,
            delayed: count("delayed")?,
            dead: count("dead")?,
        })
    }

    pub(crate) async fn purge_completed(
        &self,
        queue: &str,
        retention: Duration,
    ) -> Result<u64, QueueError> {
        let cutoff = now_millis().saturating_sub(duration_millis(retention));
        let result = sqlx::query(PURGE_DONE)
            .bind(queue)
            .bind(cutoff)
            .execute(self.database.pool())
            .await?;
        Ok(result.rows_affected())
    }
}
