//! Persistence of calculators and their versions, and of the defaults an account switched
//! off: sqlx over PostgreSQL or SQLite through `kit::db`, the same SQL for both.
//!
//! Every time is an argument (`now`). Who may read or change a calculator is the caller's to
//! ask (`kit::access`).

use std::collections::HashSet;
use std::time::SystemTime;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use kit::db::Database;
use kit::timestamp::{from_millis, to_millis};
use proto::game::Game;
use rand::RngCore as _;
use sqlx::Row as _;
use sqlx::any::AnyRow;

use crate::domain::calculator::{Calculator, CalculatorName, ID_PREFIX};
use crate::error::Error;

/// The calculators service's tables (versions 6xxxxxxx, see `kit::db`).
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The columns [`calculator_of`] reads: the calculator and its latest version's source.
macro_rules! calculator_columns {
    () => {
        "c.id, c.game, c.owner, c.owner_name, c.name, c.public, c.enabled, c.latest_version, \
         c.create_time, c.update_time, v.source \
         FROM calculators_calculators c JOIN calculators_versions v \
         ON v.calculator = c.id AND v.version = c.latest_version"
    };
}

/// What a change of a calculator changes; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct CalculatorPatch {
    /// A new name.
    pub name: Option<CalculatorName>,
    /// A new source: a new version when it differs from the latest.
    pub source: Option<String>,
    /// A new visibility.
    pub public: Option<bool>,
    /// Shown in deck views, or not.
    pub enabled: Option<bool>,
}

/// The calculators store.
#[derive(Debug, Clone)]
pub struct CalculatorStore {
    db: Database,
}

impl CalculatorStore {
    /// Creates a store over a migrated database.
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    /// Saves a new calculator of `owner_id` (`owner_name` as typed at sign-up) with its
    /// version 1, in one transaction.
    #[allow(clippy::too_many_arguments)] // Every field of a new calculator; a struct would only rename them.
    #[tracing::instrument(skip_all, fields(game = %game, bytes = source.len()))]
    pub async fn create(
        &self,
        owner_id: &str,
        owner_name: &str,
        game: Game,
        name: &CalculatorName,
        source: &str,
        public: bool,
        now: SystemTime,
    ) -> Result<Calculator, Error> {
        let mut bytes = [0_u8; 16];
        rand::rng().fill_bytes(&mut bytes);
        let time = from_millis(to_millis(now));
        let calculator = Calculator {
            id: format!("{ID_PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes)),
            game,
            owner: owner_id.to_owned(),
            owner_name: owner_name.to_owned(),
            name: name.clone(),
            public,
            enabled: true,
            version: 1,
            source: source.to_owned(),
            create_time: time,
            update_time: time,
        };
        let mut tx = self.db.pool().begin().await?;
        sqlx::query(
            "INSERT INTO calculators_calculators (id, game, owner, owner_name, name, public, \
             enabled, latest_version, create_time, update_time) \
             VALUES ($1, $2, $3, $4, $5, $6, 1, 1, $7, $7)",
        )
        .bind(&calculator.id)
        .bind(game.name())
        .bind(owner_id)
        .bind(owner_name)
        .bind(name.as_str())
        .bind(i64::from(public))
        .bind(to_millis(now))
        .execute(&mut *tx)
        .await?;
        insert_version(&mut tx, &calculator.id, 1, source, now).await?;
        tx.commit().await?;
        tracing::info!(calculator = %calculator.id, "calculator created");
        Ok(calculator)
    }

    /// Returns the calculator `id`; `None` when there is none.
    #[tracing::instrument(skip_all, fields(calculator = %id))]
    pub async fn get(&self, id: &str) -> Result<Option<Calculator>, Error> {
        let row = sqlx::query(concat!(
            "SELECT ",
            calculator_columns!(),
            " WHERE c.id = $1"
        ))
        .bind(id)
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(calculator_of).transpose()
    }

    /// Returns `owner`'s calculators of `game`, the last changed first.
    #[tracing::instrument(skip_all, fields(game = %game))]
    pub async fn list_own(&self, owner: &str, game: Game) -> Result<Vec<Calculator>, Error> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            calculator_columns!(),
            " WHERE c.owner = $1 AND c.game = $2 ORDER BY c.update_time DESC, c.id DESC"
        ))
        .bind(owner)
        .bind(game.name())
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(calculator_of).collect()
    }

    /// Returns the public calculators of `username` (as typed at sign-up), of `game` when
    /// given, the last changed first: what their profile lists.
    #[tracing::instrument(skip_all)]
    pub async fn list_public(
        &self,
        username: &str,
        game: Option<Game>,
    ) -> Result<Vec<Calculator>, Error> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            calculator_columns!(),
            " WHERE c.owner_name = $1 AND c.public = 1 AND ($2 IS NULL OR c.game = $2) \
             ORDER BY c.update_time DESC, c.id DESC"
        ))
        .bind(username)
        .bind(game.map(Game::name))
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(calculator_of).collect()
    }

    /// Applies `patch` to `current` (the calculator as just read) at `now`; `None` when it
    /// is gone. A source that differs from the latest makes the next version, in the same
    /// transaction (the row's update takes the number, so two edits at once take two).
    #[tracing::instrument(skip_all, fields(calculator = %current.id))]
    pub async fn update(
        &self,
        mut current: Calculator,
        patch: CalculatorPatch,
        now: SystemTime,
    ) -> Result<Option<Calculator>, Error> {
        let new_source = patch.source.filter(|source| *source != current.source);
        if let Some(name) = patch.name {
            current.name = name;
        }
        current.public = patch.public.unwrap_or(current.public);
        current.enabled = patch.enabled.unwrap_or(current.enabled);
        current.update_time = from_millis(to_millis(now));
        let mut tx = self.db.pool().begin().await?;
        let row = sqlx::query(
            "UPDATE calculators_calculators SET name = $2, public = $3, enabled = $4, \
             latest_version = latest_version + $5, update_time = $6 WHERE id = $1 \
             RETURNING latest_version",
        )
        .bind(&current.id)
        .bind(current.name.as_str())
        .bind(i64::from(current.public))
        .bind(i64::from(current.enabled))
        .bind(i64::from(new_source.is_some()))
        .bind(to_millis(now))
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        current.version = version_number(row.try_get("latest_version")?)?;
        if let Some(source) = new_source {
            insert_version(&mut tx, &current.id, current.version, &source, now).await?;
            current.source = source;
        }
        tx.commit().await?;
        Ok(Some(current))
    }

    /// Deletes the calculator `id` and its versions; whether there was one.
    #[tracing::instrument(skip_all, fields(calculator = %id))]
    pub async fn delete(&self, id: &str) -> Result<bool, Error> {
        let mut tx = self.db.pool().begin().await?;
        sqlx::query("DELETE FROM calculators_versions WHERE calculator = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let result = sqlx::query("DELETE FROM calculators_calculators WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(result.rows_affected() > 0)
    }

    /// Switches the default `calculator` off for `owner`, or on again.
    pub async fn set_default_off(
        &self,
        owner: &str,
        calculator: &str,
        off: bool,
    ) -> Result<(), Error> {
        let query = if off {
            "INSERT INTO calculators_defaults_off (owner, calculator) VALUES ($1, $2) \
             ON CONFLICT (owner, calculator) DO NOTHING"
        } else {
            "DELETE FROM calculators_defaults_off WHERE owner = $1 AND calculator = $2"
        };
        sqlx::query(query)
            .bind(owner)
            .bind(calculator)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Returns the defaults `owner` switched off.
    pub async fn defaults_off(&self, owner: &str) -> Result<HashSet<String>, Error> {
        let rows = sqlx::query("SELECT calculator FROM calculators_defaults_off WHERE owner = $1")
            .bind(owner)
            .fetch_all(self.db.pool())
            .await?;
        rows.iter()
            .map(|row| row.try_get::<String, _>("calculator").map_err(Error::from))
            .collect()
    }
}

async fn insert_version(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    calculator: &str,
    version: u32,
    source: &str,
    now: SystemTime,
) -> Result<(), Error> {
    sqlx::query(
        "INSERT INTO calculators_versions (calculator, version, source, create_time) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(calculator)
    .bind(i64::from(version))
    .bind(source)
    .bind(to_millis(now))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn version_number(stored: i64) -> Result<u32, Error> {
    u32::try_from(stored).map_err(|_| Error::Corrupt { what: "version" })
}

fn calculator_of(row: &AnyRow) -> Result<Calculator, Error> {
    let game: String = row.try_get("game")?;
    let name: String = row.try_get("name")?;
    Ok(Calculator {
        id: row.try_get("id")?,
        game: game.parse().map_err(|_| Error::Corrupt { what: "game" })?,
        owner: row.try_get("owner")?,
        owner_name: row.try_get("owner_name")?,
        name: CalculatorName::stored(name),
        public: row.try_get::<i64, _>("public")? != 0,
        enabled: row.try_get::<i64, _>("enabled")? != 0,
        version: version_number(row.try_get("latest_version")?)?,
        source: row.try_get("source")?,
        create_time: from_millis(row.try_get("create_time")?),
        update_time: from_millis(row.try_get("update_time")?),
    })
}
