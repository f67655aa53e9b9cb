//! The production queue: Redis Streams with one consumer group per queue, used when
//! `REDIS_URL` is set.
//!
//! # Key layout
//!
//! Every key starts with the prefix given to [`RedisQueue::connect`], then the queue name:
//!
//! | key                          | type   | holds                                                    |
//! | ---------------------------- | ------ | -------------------------------------------------------- |
//! | `{prefix}:{queue}:stream`    | stream | one entry `id=<job id>` per job waiting or in flight; consumer group `turnier` |
//! | `{prefix}:{queue}:job:{id}`  | hash   | `payload`, `state`, `attempts`, `entry`, `lease`, `consumer`, `last_error`, times (unix ms) |
//! | `{prefix}:{queue}:delayed`   | zset   | failed job ids, scored by when they may run again         |
//! | `{prefix}:{queue}:dead`      | zset   | dead-letter job ids, scored by when they died             |
//!
//! A job's `state` is `ready` (in the stream, not yet read), `reserved` (read, in the group's
//! pending list), `delayed`, `dead` or `done`. A done job keeps its hash (without payload) for
//! [`QueueSettings::completed_retention`], so enqueueing its id again is a duplicate and a
//! stray stream entry for it is acknowledged without being handed out.
//!
//! Every operation is one Lua script (`lua/*.lua`), so each state change is atomic even with
//! many workers: `XADD` on enqueue (deduplicated on the job hash), `XAUTOCLAIM` with a minimum
//! idle time of the visibility timeout to take back jobs of a lost consumer and then
//! `XREADGROUP` for new ones on reserve, due retries moved from the delayed set back into the
//! stream at the start of reserve. Acknowledged and failed entries are `XDEL`eted, so the
//! stream only ever holds live jobs and needs no trimming. Scripts read the server's clock
//! (`TIME`), so workers with skewed clocks agree.
//!
//! A missing consumer group (`NOGROUP`: a flushed or restarted server without persistence) is
//! recreated from the start of the stream by reserve. Scripts build job keys at run time, so
//! this backend needs a single Redis server (or a primary with replicas), not Redis Cluster.
//! Durability across restarts is the server's: run Redis with `appendonly yes`.

use std::sync::LazyLock;
use std::time::Duration;

use redis::Script;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::job::{DeadLetter, Delivery, Enqueued, FailOutcome, JobId, QueueDepth};
use super::job::{new_lease, time_from_millis};
use super::settings::duration_millis;
use super::{QueueError, QueueSettings};

/// The consumer group every worker of a queue joins.
pub const CONSUMER_GROUP: &str = "turnier";

/// What a job that was lost by its worker on its last attempt is dead-lettered with.
const LOST_ON_LAST_ATTEMPT: &str =
    "the lease of the last attempt ran out without ack or fail (the worker was lost)";

static ENQUEUE: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/enqueue.lua")));
static RESERVE: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/reserve.lua")));
static ACK: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/ack.lua")));
static FAIL: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/fail.lua")));
static EXTEND: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/extend.lua")));
static REPLAY: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/replay.lua")));
static DEPTH: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/depth.lua")));
static DEAD_LETTERS: LazyLock<Script> =
    LazyLock::new(|| Script::new(include_str!("lua/dead_letters.lua")));

/// The names of one queue's keys.
struct Keys {
    stream: String,
    delayed: String,
    dead: String,
    job_prefix: String,
}

impl Keys {
    fn job(&self, id: &JobId) -> String {
        format!("{}{}", self.job_prefix, id.as_str())
    }
}

/// The queue backend on a Redis server.
#[derive(Clone)]
pub(crate) struct RedisQueue {
    /// Reconnects on its own after the server went away; commands fail while it is down.
    connection: ConnectionManager,
    prefix: String,
}

impl std::fmt::Debug for RedisQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisQueue")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisQueue {
    /// Connects to the server at `url`, keeping every key under `prefix`.
    pub(crate) async fn connect(url: &str, prefix: &str) -> Result<Self, QueueError> {
        if prefix.is_empty() || prefix.chars().any(|c| c.is_whitespace() || c == '*') {
            return Err(QueueError::InvalidPrefix(prefix.to_owned()));
        }
        let address = redis_address(url);
        let client =
            redis::Client::open(url).map_err(|err| QueueError::InvalidRedisUrl(err.to_string()))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(5)))
            .set_response_timeout(Some(Duration::from_secs(10)))
            // Reconnection attempts per outage before commands fail fast; the next command
            // starts another round, so a long outage is ridden through, not given up on.
            .set_number_of_retries(4)
            .set_max_delay(Duration::from_secs(2));
        let connection = ConnectionManager::new_with_config(client, config)
            .await
            .map_err(|source| QueueError::RedisConnect { address, source })?;
        Ok(Self {
            connection,
            prefix: prefix.to_owned(),
        })
    }

    fn keys(&self, queue: &str) -> Keys {
        let base = format!("{}:{queue}", self.prefix);
        Keys {
            stream: format!("{base}:stream"),
            delayed: format!("{base}:delayed"),
            dead: format!("{base}:dead"),
            job_prefix: format!("{base}:job:"),
        }
    }

    pub(crate) async fn enqueue(
        &self,
        queue: &str,
        id: &JobId,
        payload: &[u8],
    ) -> Result<Enqueued, QueueError> {
        let keys = self.keys(queue);
        let added: i64 = ENQUEUE
            .key(&keys.stream)
            .key(keys.job(id))
            .arg(id.as_str())
            .arg(payload)
            .invoke_async(&mut self.connection.clone())
            .await?;
        Ok(if added == 1 {
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
        let keys = self.keys(queue);
        let lease = new_lease();
        let (found, id, payload, attempt, _entry, buried): (
            i64,
            String,
            Vec<u8>,
            u32,
            String,
            i64,
        ) = RESERVE
            .key(&keys.stream)
            .key(&keys.delayed)
            .key(&keys.dead)
            .arg(CONSUMER_GROUP)
            .arg(consumer)
            .arg(&lease)
            .arg(settings.visibility_millis())
            .arg(settings.max_attempts.max(1))
            .arg(&keys.job_prefix)
            .arg(LOST_ON_LAST_ATTEMPT)
            .invoke_async(&mut self.connection.clone())
            .await?;
        if buried > 0 {
            tracing::warn!(
                queue,
                jobs = buried,
                "dead-lettered jobs lost on their last attempt"
            );
        }
        if found != 1 {
            return Ok(None);
        }
        Ok(Some(Delivery {
            queue: queue.to_owned(),
            id: JobId::parse(&id)?,
            payload,
            attempt,
            lease,
        }))
    }

    pub(crate) async fn ack(
        &self,
        settings: &QueueSettings,
        delivery: &Delivery,
    ) -> Result<(), QueueError> {
        let keys = self.keys(&delivery.queue);
        let _completed_now: i64 = ACK
            .key(&keys.stream)
            .key(&keys.delayed)
            .key(&keys.dead)
            .key(keys.job(&delivery.id))
            .arg(CONSUMER_GROUP)
            .arg(delivery.id.as_str())
            .arg(duration_millis(settings.completed_retention).max(1))
            .invoke_async(&mut self.connection.clone())
            .await?;
        Ok(())
    }

    pub(crate) async fn fail(
        &self,
        settings: &QueueSettings,
        delivery: &Delivery,
        error: &str,
    ) -> Result<FailOutcome, QueueError> {
        let keys = self.keys(&delivery.queue);
        let last = settings.is_last_attempt(delivery.attempt);
        let (outcome, at): (i64, i64) = FAIL
            .key(&keys.stream)
            .key(&keys.delayed)
            .key(&keys.dead)
            .key(keys.job(&delivery.id))
            .arg(CONSUMER_GROUP)
            .arg(delivery.id.as_str())
            .arg(&delivery.lease)
            .arg(error)
            .arg(if last { "1" } else { "0" })
            .arg(duration_millis(settings.backoff_after(delivery.attempt)))
            .invoke_async(&mut self.connection.clone())
            .await?;
        Ok(match outcome {
            1 => FailOutcome::RetryAt(time_from_millis(at)),
            2 => FailOutcome::DeadLettered,
            _ => FailOutcome::LeaseLost,
        })
    }

    pub(crate) async fn extend(&self, delivery: &Delivery) -> Result<bool, QueueError> {
        let keys = self.keys(&delivery.queue);
        let extended: i64 = EXTEND
            .key(&keys.stream)
            .key(keys.job(&delivery.id))
            .arg(CONSUMER_GROUP)
            .arg(&delivery.lease)
            .invoke_async(&mut self.connection.clone())
            .await?;
        Ok(extended == 1)
    }

    pub(crate) async fn dead_letters(&self, queue: &str) -> Result<Vec<DeadLetter>, QueueError> {
        let keys = self.keys(queue);
        let rows: Vec<(String, Vec<u8>, u32, String, i64)> = DEAD_LETTERS
            .key(&keys.dead)
            .arg(&keys.job_prefix)
            .invoke_async(&mut self.connection.clone())
            .await?;
        rows.into_iter()
            .map(|(id, payload, attempts, last_error, failed_at)| {
                Ok(DeadLetter {
                    id: JobId::parse(&id)?,
                    payload,
                    attempts,
                    last_error: (!last_error.is_empty()).then_some(last_error),
                    failed_at: time_from_millis(failed_at),
                })
            })
            .collect()
    }

    pub(crate) async fn replay(&self, queue: &str, id: &JobId) -> Result<bool, QueueError> {
        let keys = self.keys(queue);
        let replayed: i64 = REPLAY
            .key(&keys.stream)
            .key(&keys.dead)
            .key(keys.job(id))
            .arg(id.as_str())
            .invoke_async(&mut self.connection.clone())
            .await?;
        Ok(replayed == 1)
    }

    pub(crate) async fn depth(&self, queue: &str) -> Result<QueueDepth, QueueError> {
        let keys = self.keys(queue);
        let (ready, in_flight, delayed, dead): (i64, i64, i64, i64) = DEPTH
            .key(&keys.stream)
            .key(&keys.delayed)
            .key(&keys.dead)
            .arg(CONSUMER_GROUP)
            .invoke_async(&mut self.connection.clone())
            .await?;
        let count = |n: i64| u64::try_from(n).unwrap_or(0);
        Ok(QueueDepth {
            ready: count(ready),
            in_flight: count(in_flight),
            delayed: count(delayed),
            dead: count(dead),
        })
    }
}

/// Returns `host:port` of a Redis URL, without user or password.
fn redis_address(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(parsed) => format!(
            "{}:{}",
            parsed.host_str().unwrap_or("localhost"),
            parsed.port().unwrap_or(6379)
        ),
        Err(_) => "(unparsable REDIS_URL)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redis_address_leaves_out_the_password() {
        assert_eq!(redis_address("redis://:hunter2@cache:6380/0"), "cache:6380");
        assert_eq!(redis_address("redis://127.0.0.1"), "127.0.0.1:6379");
    }
}
