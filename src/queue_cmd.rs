//! `turnier queue …`: what an operator needs to look into the job queues — how deep each one
//! is, which jobs gave up (the dead-letter list), and replaying one after a fix.
//!
//! Output is JSON (one object per command, or one per line for lists) so scripts can use it.

use std::time::UNIX_EPOCH;

use clap::Subcommand;
use kit::config::Config;
use kit::queue::{JobId, Queue, QueueSettings};
use serde_json::json;

/// The queue commands.
#[derive(Debug, Subcommand)]
pub enum QueueCommand {
    /// Prints how many jobs of QUEUE are ready, in flight, delayed (waiting for a retry) and dead.
    Depth {
        /// The queue's name.
        queue: String,
    },
    /// Prints the dead-letter list of QUEUE, one JSON object per line.
    DeadLetters {
        /// The queue's name.
        queue: String,
    },
    /// Puts a dead job back in QUEUE with its attempts reset.
    Replay {
        /// The queue's name.
        queue: String,
        /// The job's id, as `dead-letters` prints it.
        job_id: String,
    },
}

/// Runs a queue command against the configured backend (REDIS_URL, else DATABASE_URL).
pub async fn run(config: &Config, command: QueueCommand) -> anyhow::Result<()> {
    let database = kit::db::Database::connect(&config.database_url, 2).await?;
    if config.redis_url.is_none() {
        database.migrate(&[]).await?;
    }
    let queue = Queue::open(
        config.redis_url.as_deref(),
        &database,
        &config.queue_prefix,
        QueueSettings::default(),
    )
    .await?;
    match command {
        QueueCommand::Depth { queue: name } => {
            let depth = queue.depth(&name).await?;
            outln!(
                "{}",
                json!({
                    "queue": name,
                    "backend": queue.backend_name(),
                    "ready": depth.ready,
                    "inFlight": depth.in_flight,
                    "delayed": depth.delayed,
                    "dead": depth.dead,
                })
            );
        }
        QueueCommand::DeadLetters { queue: name } => {
            for dead in queue.dead_letters(&name).await? {
                let failed_at = dead
                    .failed_at
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |since| since.as_millis() as u64);
                outln!(
                    "{}",
                    json!({
                        "id": dead.id.as_str(),
                        "attempts": dead.attempts,
                        "lastError": dead.last_error,
                        "failedAtMs": failed_at,
                        "payload": String::from_utf8_lossy(&dead.payload),
                    })
                );
            }
        }
        QueueCommand::Replay {
            queue: name,
            job_id,
        } => {
            let id = JobId::parse(&job_id)?;
            if !queue.replay(&name, &id).await? {
                anyhow::bail!("no dead job `{job_id}` in queue `{name}`");
            }
            outln!("{}", json!({"queue": name, "replayed": job_id}));
        }
    }
    Ok(())
}
