//! Persistence of tournaments: a row per tournament (for listings) and its append-only log of
//! facts (`run::fact::Fact`), numbered from 1. sqlx over PostgreSQL or SQLite through
//! `kit::db`, the same SQL for both.
//!
//! The log's primary key (tournament, seq) is the concurrency rule: two writers that decided
//! the same next fact from the same state both try to insert its number, and exactly one
//! does; the other reads what was appended and decides again ([`Appended::Conflict`]).

use std::time::SystemTime;

use kit::db::Database;
use kit::timestamp::to_millis;
use proto::game::Game;
use sqlx::Row as _;

use crate::error::Error;
use crate::run::fact::Fact;

/// The tournaments service's tables (versions 7xxxxxxx, see `kit::db`).
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// A tournament's row: what a listing shows without folding its log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The id.
    pub id: String,
    /// The game.
    pub game: Game,
    /// The name.
    pub name: String,
    /// The creator's account id.
    pub owner: String,
    /// `registration`, `running`, `finished`.
    pub state: String,
    /// When it was created, unix milliseconds.
    pub create_time_ms: i64,
}

/// What an append did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Appended {
    /// The fact is in the log with the number asked for.
    Done,
    /// Another fact already has that number: read the log again and decide again.
    Conflict,
}

/// The tournaments store.
#[derive(Debug, Clone)]
pub struct TournamentStore {
    db: Database,
}

impl TournamentStore {
    /// Creates a store over a migrated database.
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    /// Saves a new tournament `id` with its first fact (its creation), in one transaction.
    #[tracing::instrument(skip_all, fields(tournament = %id))]
    pub async fn create(
        &self,
        id: &str,
        created: &Fact,
        owner: (&str, &str),
        now: SystemTime,
    ) -> Result<(), Error> {
        let Fact::Created { game, name, .. } = created else {
            return Err(Error::Corrupt {
                what: "creation fact",
            });
        };
        let mut tx = self.db.pool().begin().await?;
        sqlx::query(
            "INSERT INTO tournaments_tournaments (id, game, name, owner, owner_name, state, \
             create_time, update_time) VALUES ($1, $2, $3, $4, $5, 'registration', $6, $6)",
        )
        .bind(id)
        .bind(game.name())
        .bind(name)
        .bind(owner.0)
        .bind(owner.1)
        .bind(to_millis(now))
        .execute(&mut *tx)
        .await?;
        insert_fact(&mut tx, id, 1, created, Some(owner.0), now).await?;
        tx.commit().await?;
        tracing::info!(tournament = %id, "tournament created");
        Ok(())
    }

    /// Appends `fact` as number `seq` of tournament `id`, and sets the row's state when
    /// `state` is given, in one transaction.
    #[tracing::instrument(skip_all, fields(tournament = %id, seq))]
    pub async fn append(
        &self,
        id: &str,
        seq: u64,
        fact: &Fact,
        actor: Option<&str>,
        state: Option<&str>,
        now: SystemTime,
    ) -> Result<Appended, Error> {
        let mut tx = self.db.pool().begin().await?;
        match insert_fact(&mut tx, id, seq, fact, actor, now).await {
            Ok(()) => {}
            Err(Error::Db(sqlx::Error::Database(db))) if db.is_unique_violation() => {
                return Ok(Appended::Conflict);
            }
            Err(err) => return Err(err),
        }
        sqlx::query(
            "UPDATE tournaments_tournaments SET update_time = $2, state = COALESCE($3, state) \
             WHERE id = $1",
        )
        .bind(id)
        .bind(to_millis(now))
        .bind(state)
        .execute(&mut *tx)
        .await?;
        match tx.commit().await {
            Ok(()) => Ok(Appended::Done),
            Err(sqlx::Error::Database(db)) if db.is_unique_violation() => Ok(Appended::Conflict),
            Err(err) => Err(err.into()),
        }
    }

    /// The facts of tournament `id` after number `after`, in order, with their numbers and
    /// the times they were appended (unix milliseconds).
    #[tracing::instrument(skip_all, fields(tournament = %id, after))]
    pub async fn facts_after(&self, id: &str, after: u64) -> Result<Vec<(u64, i64, Fact)>, Error> {
        let rows = sqlx::query(
            "SELECT seq, time, fact FROM tournaments_log WHERE tournament = $1 AND seq > $2 \
             ORDER BY seq",
        )
        .bind(id)
        .bind(i64::try_from(after).unwrap_or(i64::MAX))
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|row| {
                let seq: i64 = row.try_get("seq")?;
                let text: String = row.try_get("fact")?;
                let fact = serde_json::from_str(&text).map_err(|err| {
                    tracing::error!(tournament = %id, seq, error = %err, "a stored fact does not read");
                    Error::Corrupt { what: "fact" }
                })?;
                let time: i64 = row.try_get("time")?;
                Ok((u64::try_from(seq).unwrap_or(0), time, fact))
            })
            .collect()
    }

    /// The tournaments of `game`, the newest first (at most `limit`).
    #[tracing::instrument(skip_all, fields(game = %game))]
    pub async fn list(&self, game: Game, limit: u32) -> Result<Vec<Header>, Error> {
        let rows = sqlx::query(
            "SELECT id, game, name, owner, state, create_time FROM tournaments_tournaments \
             WHERE game = $1 ORDER BY create_time DESC, id DESC LIMIT $2",
        )
        .bind(game.name())
        .bind(i64::from(limit))
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|row| {
                let game: String = row.try_get("game")?;
                Ok(Header {
                    id: row.try_get("id")?,
                    game: game.parse().map_err(|_| Error::Corrupt { what: "game" })?,
                    name: row.try_get("name")?,
                    owner: row.try_get("owner")?,
                    state: row.try_get("state")?,
                    create_time_ms: row.try_get("create_time")?,
                })
            })
            .collect()
    }
}

async fn insert_fact(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    seq: u64,
    fact: &Fact,
    actor: Option<&str>,
    now: SystemTime,
) -> Result<(), Error> {
    let text = serde_json::to_string(fact).map_err(|_| Error::Corrupt { what: "fact" })?;
    sqlx::query(
        "INSERT INTO tournaments_log (tournament, seq, fact, actor, time) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(i64::try_from(seq).unwrap_or(i64::MAX))
    .bind(text)
    .bind(actor)
    .bind(to_millis(now))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A lineup as submitted, and its verdict once checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    /// Its id (`sub_…`), also its queue job's.
    pub id: String,
    /// The tournament.
    pub tournament: String,
    /// The registration it is for.
    pub registration: String,
    /// The deck codes or lists as submitted.
    pub decks: Vec<String>,
    /// `pending`, `accepted`, `rejected` or `failed`.
    pub state: String,
    /// The check's issues, once checked.
    pub issues: Vec<String>,
    /// Why the check failed.
    pub failure: Option<String>,
    /// Whether a later submission replaced it.
    pub superseded: bool,
    /// When it was submitted, unix milliseconds.
    pub submit_time_ms: i64,
    /// When it was checked.
    pub check_time_ms: Option<i64>,
}

/// The columns [`submission_of`] reads.
macro_rules! submission_columns {
    () => {
        "id, tournament, registration, decks, state, issues, failure, superseded, \
         submit_time, check_time"
    };
}

fn submission_of(row: &sqlx::any::AnyRow) -> Result<Submission, Error> {
    let corrupt = |_| Error::Corrupt { what: "submission" };
    let decks: String = row.try_get("decks")?;
    let issues: Option<String> = row.try_get("issues")?;
    let superseded: i64 = row.try_get("superseded")?;
    Ok(Submission {
        id: row.try_get("id")?,
        tournament: row.try_get("tournament")?,
        registration: row.try_get("registration")?,
        decks: serde_json::from_str(&decks).map_err(corrupt)?,
        state: row.try_get("state")?,
        issues: issues
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(corrupt)?
            .unwrap_or_default(),
        failure: row.try_get("failure")?,
        superseded: superseded != 0,
        submit_time_ms: row.try_get("submit_time")?,
        check_time_ms: row.try_get("check_time")?,
    })
}

impl TournamentStore {
    /// Saves a pending submission and marks the registration's earlier ones superseded, in one
    /// transaction.
    #[tracing::instrument(skip_all, fields(submission = %submission.id))]
    pub async fn insert_submission(&self, submission: &Submission) -> Result<(), Error> {
        let decks = serde_json::to_string(&submission.decks)
            .map_err(|_| Error::Corrupt { what: "submission" })?;
        let mut tx = self.db.pool().begin().await?;
        sqlx::query(
            "UPDATE tournaments_submissions SET superseded = 1 \
             WHERE tournament = $1 AND registration = $2 AND superseded = 0",
        )
        .bind(&submission.tournament)
        .bind(&submission.registration)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO tournaments_submissions (id, tournament, registration, decks, state, \
             superseded, submit_time) VALUES ($1, $2, $3, $4, 'pending', 0, $5)",
        )
        .bind(&submission.id)
        .bind(&submission.tournament)
        .bind(&submission.registration)
        .bind(decks)
        .bind(submission.submit_time_ms)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The submission `id`.
    pub async fn submission(&self, id: &str) -> Result<Option<Submission>, Error> {
        let row = sqlx::query(concat!(
            "SELECT ",
            submission_columns!(),
            " FROM tournaments_submissions WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(submission_of).transpose()
    }

    /// The latest submission of every registration of a tournament (or of one registration).
    pub async fn latest_submissions(
        &self,
        tournament: &str,
        registration: Option<&str>,
    ) -> Result<Vec<Submission>, Error> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            submission_columns!(),
            " FROM tournaments_submissions \
             WHERE tournament = $1 AND superseded = 0 AND ($2 IS NULL OR registration = $2) \
             ORDER BY submit_time, id"
        ))
        .bind(tournament)
        .bind(registration)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(submission_of).collect()
    }

    /// Pending submissions (not superseded) submitted before `before_ms`, the oldest first, at
    /// most `limit`: what the sweep queues again.
    pub async fn stale_pending(
        &self,
        before_ms: i64,
        limit: u32,
    ) -> Result<Vec<Submission>, Error> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            submission_columns!(),
            " FROM tournaments_submissions \
             WHERE state = 'pending' AND superseded = 0 AND submit_time < $1 \
             ORDER BY submit_time, id LIMIT $2"
        ))
        .bind(before_ms)
        .bind(i64::from(limit))
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(submission_of).collect()
    }

    /// Writes a pending submission's verdict; `false` when it had one already (a job run
    /// twice writes one verdict).
    pub async fn set_verdict(
        &self,
        id: &str,
        state: &str,
        issues: &[String],
        failure: Option<&str>,
        now: SystemTime,
    ) -> Result<bool, Error> {
        let issues =
            serde_json::to_string(issues).map_err(|_| Error::Corrupt { what: "issues" })?;
        let done = sqlx::query(
            "UPDATE tournaments_submissions SET state = $2, issues = $3, failure = $4, \
             check_time = $5 WHERE id = $1 AND state = 'pending'",
        )
        .bind(id)
        .bind(state)
        .bind(issues)
        .bind(failure)
        .bind(to_millis(now))
        .execute(self.db.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }
}

/// One delivery of a webhook: an event for a hook, and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    /// `<hook>.<fact number>.<event>` or `<hook>.<submission>`.
    pub id: String,
    /// The tournament.
    pub tournament: String,
    /// The hook.
    pub hook: String,
    /// The event (`crate::webhooks::EVENTS`).
    pub event: String,
    /// The JSON body as sent.
    pub body: String,
    /// `pending`, `delivered` or `failed`.
    pub state: String,
    /// Attempts made.
    pub attempts: u32,
    /// The last attempt's HTTP status.
    pub last_status: Option<u16>,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    /// When the event was made, unix milliseconds.
    pub create_time_ms: i64,
    /// When the delivery last changed.
    pub update_time_ms: i64,
}

/// The columns [`delivery_of`] reads.
macro_rules! delivery_columns {
    () => {
        "id, tournament, hook, event, body, state, attempts, last_status, last_error, \
         create_time, update_time"
    };
}

fn delivery_of(row: &sqlx::any::AnyRow) -> Result<Delivery, Error> {
    let attempts: i64 = row.try_get("attempts")?;
    let last_status: Option<i64> = row.try_get("last_status")?;
    Ok(Delivery {
        id: row.try_get("id")?,
        tournament: row.try_get("tournament")?,
        hook: row.try_get("hook")?,
        event: row.try_get("event")?,
        body: row.try_get("body")?,
        state: row.try_get("state")?,
        attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
        last_status: last_status.and_then(|status| u16::try_from(status).ok()),
        last_error: row.try_get("last_error")?,
        create_time_ms: row.try_get("create_time")?,
        update_time_ms: row.try_get("update_time")?,
    })
}

/// What one attempt at a delivery came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// The receiver answered 2xx.
    Delivered(u16),
    /// It did not: its status if it answered, and why; `last` ends the delivery `failed`.
    Failed {
        /// The HTTP status, if the receiver answered.
        status: Option<u16>,
        /// Why.
        error: String,
        /// No attempt follows.
        last: bool,
    },
}

impl TournamentStore {
    /// Records a pending delivery; `false` when one of that id exists already (the same event
    /// made again for the same hook).
    pub async fn insert_delivery(&self, delivery: &Delivery) -> Result<bool, Error> {
        let done = sqlx::query(
            "INSERT INTO tournaments_webhook_deliveries (id, tournament, hook, event, body, \
             state, attempts, create_time, update_time) \
             VALUES ($1, $2, $3, $4, $5, 'pending', 0, $6, $6) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&delivery.id)
        .bind(&delivery.tournament)
        .bind(&delivery.hook)
        .bind(&delivery.event)
        .bind(&delivery.body)
        .bind(delivery.create_time_ms)
        .execute(self.db.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The delivery `id`.
    pub async fn delivery(&self, id: &str) -> Result<Option<Delivery>, Error> {
        let row = sqlx::query(concat!(
            "SELECT ",
            delivery_columns!(),
            " FROM tournaments_webhook_deliveries WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(delivery_of).transpose()
    }

    /// A hook's deliveries, the newest first, at most `limit`.
    pub async fn deliveries(
        &self,
        tournament: &str,
        hook: &str,
        limit: u32,
    ) -> Result<Vec<Delivery>, Error> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            delivery_columns!(),
            " FROM tournaments_webhook_deliveries WHERE tournament = $1 AND hook = $2 \
             ORDER BY create_time DESC, id DESC LIMIT $3"
        ))
        .bind(tournament)
        .bind(hook)
        .bind(i64::from(limit))
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(delivery_of).collect()
    }

    /// Pending deliveries not touched since before `before_ms`, the oldest first, at most
    /// `limit`: what the sweep queues again.
    pub async fn stale_deliveries(
        &self,
        before_ms: i64,
        limit: u32,
    ) -> Result<Vec<Delivery>, Error> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            delivery_columns!(),
            " FROM tournaments_webhook_deliveries WHERE state = 'pending' AND update_time < $1 \
             ORDER BY update_time, id LIMIT $2"
        ))
        .bind(before_ms)
        .bind(i64::from(limit))
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(delivery_of).collect()
    }

    /// Records an attempt at a pending delivery: `delivered`, or still `pending` (a retry
    /// follows) or `failed` (the last). `false` when it was not pending.
    pub async fn record_attempt(
        &self,
        id: &str,
        attempt: &Attempt,
        now: SystemTime,
    ) -> Result<bool, Error> {
        let (state, status, error) = match attempt {
            Attempt::Delivered(status) => ("delivered", Some(*status), None),
            Attempt::Failed {
                status,
                error,
                last,
            } => (
                if *last { "failed" } else { "pending" },
                *status,
                Some(error.as_str()),
            ),
        };
        let done = sqlx::query(
            "UPDATE tournaments_webhook_deliveries SET state = $2, attempts = attempts + 1, \
             last_status = $3, last_error = $4, update_time = $5 \
             WHERE id = $1 AND state = 'pending'",
        )
        .bind(id)
        .bind(state)
        .bind(status.map(i64::from))
        .bind(error)
        .bind(to_millis(now))
        .execute(self.db.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Makes a delivery pending again (an organizer's redelivery); `false` when it is pending.
    pub async fn reopen_delivery(&self, id: &str, now: SystemTime) -> Result<bool, Error> {
        let done = sqlx::query(
            "UPDATE tournaments_webhook_deliveries SET state = 'pending', update_time = $2 \
             WHERE id = $1 AND state <> 'pending'",
        )
        .bind(id)
        .bind(to_millis(now))
        .execute(self.db.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
