//! Job queues: at-least-once delivery with a visibility timeout, retries with exponential
//! backoff, dead letters and replay, on Redis Streams in production or on the local database
//! when no `REDIS_URL` is set.
//!
//! One [`Queue`] value serves any number of named queues (`"deck-submissions"`, …). A
//! producer calls [`Queue::enqueue`] with a [`JobId`] that names the work; enqueueing the same
//! id again is a [`Enqueued::Duplicate`], which makes producer retries safe. A consumer either
//! runs [`run_worker`] with an async handler, or drives [`Queue::reserve`], [`Queue::ack`] and
//! [`Queue::fail`] itself.
//!
//! Delivery is at least once: a job whose delivery is neither acknowledged nor failed within
//! [`QueueSettings::visibility_timeout`] (its worker died) is handed out again, to any
//! consumer, with the next attempt number. Handlers must therefore be idempotent, keyed by
//! the job id; the queue helps by remembering completed ids (a completed job is never handed
//! out again, and its id stays a duplicate for [`QueueSettings::completed_retention`]).
//!
//! The two backends (`redis` and `sql` below) are two real implementations behind one enum;
//! both are tested by the same suite (`tests/queue.rs`). Their storage layouts are documented
//! in their own modules and in `migrations/10000001_queue.sql`.

mod job;
mod redis;
mod settings;
mod sql;
mod worker;

pub use job::{DeadLetter, Delivery, Enqueued, FailOutcome, JobId, MAX_JOB_ID_LEN, QueueDepth};
pub use redis::CONSUMER_GROUP;
pub use settings::QueueSettings;
pub use worker::{Job, WorkerSummary, run_worker};

use crate::db::{Backend, Database};
use job::check_queue_name;

/// Errors from the queue's backend or from invalid names.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    /// The Redis server could not be reached when the queue was opened.
    #[error("cannot connect to Redis at {address}: {source}")]
    RedisConnect {
        /// `host:port`, never a password.
        address: String,
        /// The cause.
        source: ::redis::RedisError,
    },
    /// `REDIS_URL` could not be parsed.
    #[error("REDIS_URL is not a valid Redis URL: {0}")]
    InvalidRedisUrl(String),
    /// A Redis command failed (the server is down, restarting, or refused it).
    #[error("job queue command on Redis failed: {0}")]
    Redis(#[from] ::redis::RedisError),
    /// A query on the queue's database failed.
    #[error("job queue query on the database failed: {0}")]
    Database(#[from] sqlx::Error),
    /// A job id was empty, too long, or held spaces or control characters.
    #[error("invalid job id `{0}`: use 1 to 200 characters without spaces")]
    InvalidJobId(String),
    /// A queue name held characters other than ASCII letters, digits, `-`, `_` and `.`.
    #[error("invalid queue name `{0}`: use 1 to 100 ASCII letters, digits, `-`, `_` or `.`")]
    InvalidQueueName(String),
    /// A Redis key prefix was empty or held spaces or `*`.
    #[error("invalid Redis key prefix `{0}`: use a non-empty name without spaces or `*`")]
    InvalidPrefix(String),
}

/// Where the jobs live.
#[derive(Debug, Clone)]
enum Store {
    Redis(redis::RedisQueue),
    Sql(sql::SqlQueue),
}

/// A handle on the job queues of one backend. Cloning is cheap and shares the connections.
#[derive(Debug, Clone)]
pub struct Queue {
    store: Store,
    settings: QueueSettings,
}

impl Queue {
    /// Connects to the Redis server at `url` and keeps every key under `prefix`
    /// (`{prefix}:{queue}:…`), so several deployments or tests can share one server.
    ///
    /// Fails if the server cannot be reached now; once connected, the queue reconnects on its
    /// own after the server restarts.
    pub async fn redis(
        url: &str,
        prefix: &str,
        settings: QueueSettings,
    ) -> Result<Queue, QueueError> {
        Ok(Queue {
            store: Store::Redis(redis::RedisQueue::connect(url, prefix).await?),
            settings,
        })
    }

    /// Keeps the jobs in `database`, which must have kit's migrations applied
    /// ([`Database::migrate`] does that).
    pub fn sql(database: Database, settings: QueueSettings) -> Queue {
        Queue {
            store: Store::Sql(sql::SqlQueue::new(database)),
            settings,
        }
    }

    /// Opens the queue the platform is configured for: Redis when `redis_url` is given
    /// (`REDIS_URL`), otherwise the database.
    pub async fn open(
        redis_url: Option<&str>,
        database: &Database,
        prefix: &str,
        settings: QueueSettings,
    ) -> Result<Queue, QueueError> {
        match redis_url {
            Some(url) => Queue::redis(url, prefix, settings).await,
            None => Ok(Queue::sql(database.clone(), settings)),
        }
    }

    /// Returns the settings the queue was opened with.
    pub fn settings(&self) -> &QueueSettings {
        &self.settings
    }

    /// Returns the backend's name for logs and metrics: `redis`, `postgres` or `sqlite`.
    pub fn backend_name(&self) -> &'static str {
        match &self.store {
            Store::Redis(_) => "redis",
            Store::Sql(sql) => match sql.backend() {
                Backend::Postgres => "postgres",
                Backend::Sqlite => "sqlite",
            },
        }
    }

    /// Adds a job to `queue`, unless a job with this id is already waiting, running, done
    /// (within the retention) or dead.
    pub async fn enqueue(
        &self,
        queue: &str,
        id: &JobId,
        payload: &[u8],
    ) -> Result<Enqueued, QueueError> {
        check_queue_name(queue)?;
        match &self.store {
            Store::Redis(redis) => redis.enqueue(queue, id, payload).await,
            Store::Sql(sql) => sql.enqueue(queue, id, payload).await,
        }
    }

    /// Hands the next job of `queue` to `consumer`, if there is one: first a job whose
    /// previous delivery's lease ran out, then the oldest waiting job.
    ///
    /// The job stays invisible to other consumers for the visibility timeout. A job whose
    /// lease runs out on its last attempt is dead-lettered here instead of handed out.
    pub async fn reserve(
        &self,
        queue: &str,
        consumer: &str,
    ) -> Result<Option<Delivery>, QueueError> {
        check_queue_name(queue)?;
        match &self.store {
            Store::Redis(redis) => redis.reserve(&self.settings, queue, consumer).await,
            Store::Sql(sql) => sql.reserve(&self.settings, queue, consumer).await,
        }
    }

    /// Records the delivery's job as completed; it is never handed out again.
    ///
    /// This holds even when the delivery's lease has run out and another consumer holds the
    /// job meanwhile: the work is done, and completion is what the id is keyed on.
    pub async fn ack(&self, delivery: &Delivery) -> Result<(), QueueError> {
        match &self.store {
            Store::Redis(redis) => redis.ack(&self.settings, delivery).await,
            Store::Sql(sql) => sql.ack(delivery).await,
        }
    }

    /// Records that the delivery failed with `error`: the job is retried after
    /// [`QueueSettings::backoff_after`] its attempt, or dead-lettered if that was its last.
    ///
    /// Does nothing and returns [`FailOutcome::LeaseLost`] if the delivery's lease is no
    /// longer current.
    pub async fn fail(&self, delivery: &Delivery, error: &str) -> Result<FailOutcome, QueueError> {
        match &self.store {
            Store::Redis(redis) => redis.fail(&self.settings, delivery, error).await,
            Store::Sql(sql) => sql.fail(&self.settings, delivery, error).await,
        }
    }

    /// Restarts the visibility timeout of a delivery that is still being worked on.
    ///
    /// Returns `false` if the lease is no longer current (the job went to another consumer).
    pub async fn extend(&self, delivery: &Delivery) -> Result<bool, QueueError> {
        match &self.store {
            Store::Redis(redis) => redis.extend(delivery).await,
            Store::Sql(sql) => sql.extend(&self.settings, delivery).await,
        }
    }

    /// Lists the dead letters of `queue`, oldest first.
    pub async fn dead_letters(&self, queue: &str) -> Result<Vec<DeadLetter>, QueueError> {
        check_queue_name(queue)?;
        match &self.store {
            Store::Redis(redis) => redis.dead_letters(queue).await,
            Store::Sql(sql) => sql.dead_letters(queue).await,
        }
    }

    /// Puts a dead letter back in line with its attempts reset. Returns `false` if `id` is
    /// not a dead letter of `queue`.
    pub async fn replay(&self, queue: &str, id: &JobId) -> Result<bool, QueueError> {
        check_queue_name(queue)?;
        match &self.store {
            Store::Redis(redis) => redis.replay(queue, id).await,
            Store::Sql(sql) => sql.replay(queue, id).await,
        }
    }

    /// Counts the jobs of `queue` by state.
    pub async fn depth(&self, queue: &str) -> Result<QueueDepth, QueueError> {
        check_queue_name(queue)?;
        match &self.store {
            Store::Redis(redis) => redis.depth(queue).await,
            Store::Sql(sql) => sql.depth(queue).await,
        }
    }

    /// Forgets completed jobs older than [`QueueSettings::completed_retention`] and returns
    /// how many. Redis expires them on its own (this returns 0); the worker calls it
    /// now and then for the database.
    pub async fn purge_completed(&self, queue: &str) -> Result<u64, QueueError> {
        check_queue_name(queue)?;
        match &self.store {
            Store::Redis(_) => Ok(0),
            Store::Sql(sql) => {
                sql.purge_completed(queue, self.settings.completed_retention)
                    .await
            }
        }
    }
}
