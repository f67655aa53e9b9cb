//! Persistence of rulesets and their immutable versions: sqlx over PostgreSQL or SQLite
//! through `kit::db`, the same SQL for both.
//!
//! Versions are never updated nor deleted, and deleting a ruleset only marks it, so a copy or
//! a tournament pinned to `(ruleset, version)` keeps reading its code whatever the author does.
//! Every time is an argument (`now`). Who may read or change a ruleset is the caller's to ask
//! (`kit::access`); the store checks only the rulesets' own rules
//! (`crate::domain::ruleset`).

use std::time::SystemTime;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use kit::db::Database;
use kit::timestamp::{from_millis, to_millis};
use proto::game::Game;
use rand::RngCore as _;
use sqlx::Row as _;
use sqlx::any::AnyRow;

use crate::domain::rule_result::Scope;
use crate::domain::ruleset::{
    Origin, OriginKind, Owner, Patch, Ruleset, RulesetId, RulesetName, Version, check_direct_bans,
};
use crate::error::Error;

/// The scripts service's tables (versions 4xxxxxxx, see `kit::db`).
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// How many times an edit is tried again when a concurrent one took its version number.
/// Each try locks the ruleset's row first, so a retry is rare; this only bounds it.
const EDIT_ATTEMPTS: usize = 5;

/// Random bytes in a ruleset id: 128 bits, unguessable.
const ID_BYTES: usize = 16;

/// The columns [`ruleset_of`] reads, as a literal so that queries stay `&'static str` (sqlx
/// takes no SQL built at run time without an audit).
macro_rules! ruleset_columns {
    () => {
        "id, game, owner, owner_name, name, scope, public, enabled, latest_version, \
         origin_ruleset, origin_version, origin_from, create_time, update_time"
    };
}

/// The rulesets store.
#[derive(Debug, Clone)]
pub struct RulesetStore {
    db: Database,
}

impl RulesetStore {
    /// Creates a store over a migrated database.
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    /// Saves a new ruleset with its version 1, in one transaction.
    #[allow(clippy::too_many_arguments)] // Every field of a new ruleset; a struct would only rename them.
    #[tracing::instrument(skip_all, fields(game = %game, bytes = source.len()))]
    pub async fn create(
        &self,
        owner: Owner<'_>,
        game: Game,
        name: &RulesetName,
        scope: Scope,
        source: &str,
        public: bool,
        direct_bans: &[String],
        now: SystemTime,
    ) -> Result<Ruleset, Error> {
        check_direct_bans(game, scope, direct_bans)?;
        let time = from_millis(to_millis(now));
        let ruleset = Ruleset {
            id: new_id(),
            game,
            owner: owner.id.to_owned(),
            owner_name: owner.username.to_owned(),
            name: name.clone(),
            scope,
            public,
            enabled: true,
            latest_version: 1,
            origin: None,
            create_time: time,
            update_time: time,
        };
        let mut tx = self.db.pool().begin().await?;
        insert_ruleset(&mut tx, &ruleset).await?;
        insert_version(&mut tx, &ruleset.id, 1, source, direct_bans, now).await?;
        tx.commit().await?;
        tracing::info!(ruleset = %ruleset.id, "ruleset created");
        Ok(ruleset)
    }

    /// Returns the ruleset `id`; `None` when there is none or it was deleted.
    #[tracing::instrument(skip_all, fields(ruleset = %id))]
    pub async fn get(&self, id: &RulesetId) -> Result<Option<Ruleset>, Error> {
        // An id not of the shape ruleset ids have cannot exist: not looked up (a NUL in it
        // would fail the query on PostgreSQL).
        if !kit::text::is_possible_id(&id.0, RulesetId::PREFIX) {
            return Ok(None);
        }
        let row = sqlx::query(concat!(
            "SELECT ",
            ruleset_columns!(),
            " FROM scripts_rulesets WHERE id = $1 AND delete_time IS NULL"
        ))
        .bind(&id.0)
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(ruleset_of).transpose()
    }

    /// Returns version `version` of the ruleset `id`, also when the ruleset was deleted (what
    /// copies and tournaments pinned stays readable).
    #[tracing::instrument(skip_all, fields(ruleset = %id, version))]
    pub async fn version(&self, id: &RulesetId, version: u32) -> Result<Option<Version>, Error> {
        let row = sqlx::query(
            "SELECT ruleset, version, source, direct_bans, create_time \
             FROM scripts_ruleset_versions WHERE ruleset = $1 AND version = $2",
        )
        .bind(&id.0)
        .bind(i64::from(version))
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(version_of).transpose()
    }

    /// Returns the ruleset `id` with the version it runs: its latest, or for a downloaded
    /// copy the origin's pinned version. `None` when it is deleted (or, for a copy, when the
    /// pinned version is missing, which versions never being deleted rules out).
    #[tracing::instrument(skip_all, fields(ruleset = %id))]
    pub async fn latest(&self, id: &RulesetId) -> Result<Option<(Ruleset, Version)>, Error> {
        let Some(ruleset) = self.get(id).await? else {
            return Ok(None);
        };
        let version = self.code(&ruleset).await?;
        Ok(version.map(|version| (ruleset, version)))
    }

    /// Returns the version `ruleset` runs: its latest, or the one a copy is pinned to (of its
    /// origin). For a ruleset already read, without reading it again.
    pub async fn code(&self, ruleset: &Ruleset) -> Result<Option<Version>, Error> {
        let (code_of, version) = match &ruleset.origin {
            Some(origin) => (&origin.ruleset, origin.version),
            None => (&ruleset.id, ruleset.latest_version),
        };
        self.version(code_of, version).await
    }

    /// Returns `owner`'s rulesets of `game` (authored and downloaded, not deleted), of `scope`
    /// when given, the last changed first.
    #[tracing::instrument(skip_all, fields(game = %game))]
    pub async fn list_own(
        &self,
        owner: &str,
        game: Game,
        scope: Option<Scope>,
    ) -> Result<Vec<Ruleset>, Error> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            ruleset_columns!(),
            " FROM scripts_rulesets \
             WHERE owner = $1 AND game = $2 AND delete_time IS NULL \
             AND ($3 IS NULL OR scope = $3) \
             ORDER BY update_time DESC, id DESC"
        ))
        .bind(owner)
        .bind(game.name())
        .bind(scope.map(scope_name))
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(ruleset_of).collect()
    }

    /// Returns what the profile of `username` (as typed at sign-up) lists: their public
    /// rulesets, of `game` when given, not downloaded copies and not deleted ones, the last
    /// changed first.
    #[tracing::instrument(skip_all)]
    pub async fn list_public(
        &self,
        username: &str,
        game: Option<Game>,
    ) -> Result<Vec<Ruleset>, Error> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            ruleset_columns!(),
            " FROM scripts_rulesets \
             WHERE owner_name = $1 AND public = 1 AND origin_ruleset IS NULL \
             AND delete_time IS NULL AND ($2 IS NULL OR game = $2) \
             ORDER BY update_time DESC, id DESC"
        ))
        .bind(username)
        .bind(game.map(Game::name))
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(ruleset_of).collect()
    }

    /// Applies `patch` to the ruleset `id` at `now`; `None` when there is none or it was
    /// deleted. A different source or different direct bans make version `latest + 1`;
    /// `update_time` is always `now`. A copy takes only `enabled`
    /// ([`crate::domain::ruleset::RulesetError::CopyIsReadOnly`]).
    ///
    /// Each try first writes the ruleset's row, which makes concurrent edits of one ruleset
    /// take turns on both backends (PostgreSQL's row lock, SQLite's one writer); the primary
    /// key `(ruleset, version)` still refuses a number taken twice, and such an edit is tried
    /// again, [`EDIT_ATTEMPTS`] times at most before [`Error::EditConflict`].
    #[tracing::instrument(skip_all, fields(ruleset = %id))]
    pub async fn update(
        &self,
        id: &RulesetId,
        patch: &Patch,
        now: SystemTime,
    ) -> Result<Option<Ruleset>, Error> {
        for _ in 0..EDIT_ATTEMPTS {
            match self.try_update(id, patch, now).await {
                Err(Error::Db(sqlx::Error::Database(db))) if db.is_unique_violation() => {
                    tracing::debug!(ruleset = %id, "version taken concurrently: trying again");
                }
                done => return done,
            }
        }
        Err(Error::EditConflict(id.clone()))
    }

    async fn try_update(
        &self,
        id: &RulesetId,
        patch: &Patch,
        now: SystemTime,
    ) -> Result<Option<Ruleset>, Error> {
        let mut tx = self.db.pool().begin().await?;
        // A write first, so the transaction holds the row (and SQLite's write lock) before it
        // reads the latest version.
        let row = sqlx::query(concat!(
            "UPDATE scripts_rulesets SET update_time = $1 \
             WHERE id = $2 AND delete_time IS NULL RETURNING ",
            ruleset_columns!(),
            ""
        ))
        .bind(to_millis(now))
        .bind(&id.0)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let mut ruleset = ruleset_of(&row)?;
        ruleset.check_patch(patch)?;
        if !ruleset.is_copy() {
            let latest = sqlx::query(
                "SELECT ruleset, version, source, direct_bans, create_time \
                 FROM scripts_ruleset_versions WHERE ruleset = $1 AND version = $2",
            )
            .bind(&id.0)
            .bind(i64::from(ruleset.latest_version))
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(Error::Corrupt {
                what: "latest version",
            })?;
            let latest = version_of(&latest)?;
            if latest.is_changed_by(patch) {
                let next = latest.version + 1;
                let source = patch.source.as_deref().unwrap_or(&latest.source);
                let bans = patch.direct_bans.as_deref().unwrap_or(&latest.direct_bans);
                insert_version(&mut tx, id, next, source, bans, now).await?;
                ruleset.latest_version = next;
            }
        }
        if let Some(name) = &patch.name {
            ruleset.name = name.clone();
        }
        ruleset.public = patch.public.unwrap_or(ruleset.public);
        ruleset.enabled = patch.enabled.unwrap_or(ruleset.enabled);
        sqlx::query(
            "UPDATE scripts_rulesets SET name = $1, public = $2, enabled = $3, latest_version = $4 \
             WHERE id = $5",
        )
        .bind(ruleset.name.as_str())
        .bind(flag(ruleset.public))
        .bind(flag(ruleset.enabled))
        .bind(i64::from(ruleset.latest_version))
        .bind(&id.0)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(ruleset))
    }

    /// Deletes the ruleset `id` at `now`: it is gone from every read and listing, its versions
    /// stay readable. Returns whether there was one to delete.
    #[tracing::instrument(skip_all, fields(ruleset = %id))]
    pub async fn delete(&self, id: &RulesetId, now: SystemTime) -> Result<bool, Error> {
        let done = sqlx::query(
            "UPDATE scripts_rulesets SET delete_time = $1, update_time = $1 \
             WHERE id = $2 AND delete_time IS NULL",
        )
        .bind(to_millis(now))
        .bind(&id.0)
        .execute(self.db.pool())
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Saves a downloaded copy for `owner`, pinned to `origin`'s version: no versions of its
    /// own, `latest_version` the pinned one, private and enabled. [`Error::UnknownVersion`]
    /// when the origin has no such version. The origin may be deleted or private by now:
    /// whether the caller may still save it is the caller's question.
    #[tracing::instrument(skip_all, fields(origin = %origin.ruleset, version = origin.version))]
    pub async fn save_copy(
        &self,
        owner: Owner<'_>,
        origin: &Origin,
        name: &RulesetName,
        game: Game,
        scope: Scope,
        now: SystemTime,
    ) -> Result<Ruleset, Error> {
        if self
            .version(&origin.ruleset, origin.version)
            .await?
            .is_none()
        {
            return Err(Error::UnknownVersion {
                ruleset: origin.ruleset.clone(),
                version: origin.version,
            });
        }
        let time = from_millis(to_millis(now));
        let copy = Ruleset {
            id: new_id(),
            game,
            owner: owner.id.to_owned(),
            owner_name: owner.username.to_owned(),
            name: name.clone(),
            scope,
            public: false,
            enabled: true,
            latest_version: origin.version,
            origin: Some(origin.clone()),
            create_time: time,
            update_time: time,
        };
        let mut tx = self.db.pool().begin().await?;
        insert_ruleset(&mut tx, &copy).await?;
        tx.commit().await?;
        Ok(copy)
    }

    /// Moves the copy `id` to its origin's `version` with the author's current `name` (the
    /// "Update" of a copy). `None` when there is no such copy (not a copy, or deleted);
    /// [`Error::UnknownVersion`] when the origin has no such version.
    #[tracing::instrument(skip_all, fields(ruleset = %id, version))]
    pub async fn move_copy(
        &self,
        id: &RulesetId,
        version: u32,
        name: &RulesetName,
        now: SystemTime,
    ) -> Result<Option<Ruleset>, Error> {
        let Some(mut copy) = self.get(id).await? else {
            return Ok(None);
        };
        let Some(origin) = copy.origin.as_mut() else {
            return Ok(None);
        };
        if self.version(&origin.ruleset, version).await?.is_none() {
            return Err(Error::UnknownVersion {
                ruleset: origin.ruleset.clone(),
                version,
            });
        }
        let done = sqlx::query(
            "UPDATE scripts_rulesets SET origin_version = $1, latest_version = $1, name = $2, \
             update_time = $3 WHERE id = $4 AND delete_time IS NULL AND origin_ruleset IS NOT NULL",
        )
        .bind(i64::from(version))
        .bind(name.as_str())
        .bind(to_millis(now))
        .bind(&id.0)
        .execute(self.db.pool())
        .await?;
        if done.rows_affected() == 0 {
            return Ok(None); // deleted in between
        }
        origin.version = version;
        copy.latest_version = version;
        copy.name = name.clone();
        copy.update_time = from_millis(to_millis(now));
        Ok(Some(copy))
    }
}

/// Returns a new ruleset id: [`RulesetId::PREFIX`] and 128 random bits in base64url.
fn new_id() -> RulesetId {
    let mut bytes = [0_u8; ID_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    RulesetId(format!(
        "{}{}",
        RulesetId::PREFIX,
        URL_SAFE_NO_PAD.encode(bytes)
    ))
}

async fn insert_ruleset(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    ruleset: &Ruleset,
) -> Result<(), Error> {
    let origin = ruleset.origin.as_ref();
    sqlx::query(concat!(
        "INSERT INTO scripts_rulesets (",
        ruleset_columns!(),
        ", delete_time) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, NULL)"
    ))
    .bind(&ruleset.id.0)
    .bind(ruleset.game.name())
    .bind(&ruleset.owner)
    .bind(&ruleset.owner_name)
    .bind(ruleset.name.as_str())
    .bind(scope_name(ruleset.scope))
    .bind(flag(ruleset.public))
    .bind(flag(ruleset.enabled))
    .bind(i64::from(ruleset.latest_version))
    .bind(origin.map(|origin| origin.ruleset.0.clone()))
    .bind(origin.map(|origin| i64::from(origin.version)))
    .bind(origin.map(|origin| origin_name(origin.from)))
    .bind(to_millis(ruleset.create_time))
    .bind(to_millis(ruleset.update_time))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn insert_version(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    ruleset: &RulesetId,
    version: u32,
    source: &str,
    direct_bans: &[String],
    now: SystemTime,
) -> Result<(), Error> {
    let bans = serde_json::to_string(direct_bans).expect("a list of strings always serializes");
    sqlx::query(
        "INSERT INTO scripts_ruleset_versions (ruleset, version, source, direct_bans, create_time) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&ruleset.0)
    .bind(i64::from(version))
    .bind(source)
    .bind(bans)
    .bind(to_millis(now))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn ruleset_of(row: &AnyRow) -> Result<Ruleset, Error> {
    let game: String = row.try_get("game")?;
    let name: String = row.try_get("name")?;
    let scope: String = row.try_get("scope")?;
    let origin_ruleset: Option<String> = row.try_get("origin_ruleset")?;
    let origin = match origin_ruleset {
        None => None,
        Some(ruleset) => {
            let version: Option<i64> = row.try_get("origin_version")?;
            let from: Option<String> = row.try_get("origin_from")?;
            Some(Origin {
                ruleset: RulesetId(ruleset),
                version: version_number(version.ok_or(Error::Corrupt {
                    what: "origin version",
                })?)?,
                from: from
                    .as_deref()
                    .and_then(parse_origin)
                    .ok_or(Error::Corrupt { what: "origin" })?,
            })
        }
    };
    let owner: String = row.try_get("owner")?;
    let owner_name: Option<String> = row.try_get("owner_name")?;
    Ok(Ruleset {
        id: RulesetId(row.try_get("id")?),
        game: game.parse().map_err(|_| Error::Corrupt { what: "game" })?,
        owner_name: owner_name.unwrap_or_else(|| owner.clone()),
        owner,
        name: RulesetName::stored(name),
        scope: parse_scope(&scope).ok_or(Error::Corrupt { what: "scope" })?,
        public: row.try_get::<i64, _>("public")? != 0,
        enabled: row.try_get::<i64, _>("enabled")? != 0,
        latest_version: version_number(row.try_get("latest_version")?)?,
        origin,
        create_time: from_millis(row.try_get("create_time")?),
        update_time: from_millis(row.try_get("update_time")?),
    })
}

fn version_of(row: &AnyRow) -> Result<Version, Error> {
    let bans: String = row.try_get("direct_bans")?;
    Ok(Version {
        ruleset: RulesetId(row.try_get("ruleset")?),
        version: version_number(row.try_get("version")?)?,
        source: row.try_get("source")?,
        direct_bans: serde_json::from_str(&bans).map_err(|_| Error::Corrupt {
            what: "direct bans",
        })?,
        create_time: from_millis(row.try_get("create_time")?),
    })
}

fn version_number(stored: i64) -> Result<u32, Error> {
    u32::try_from(stored).map_err(|_| Error::Corrupt { what: "version" })
}

/// Returns a flag as stored: 1 or 0.
fn flag(value: bool) -> i64 {
    i64::from(value)
}

/// Returns a scope as stored.
fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::Card => "card",
        Scope::Deck => "deck",
        Scope::Deckset => "deckset",
    }
}

fn parse_scope(name: &str) -> Option<Scope> {
    [Scope::Card, Scope::Deck, Scope::Deckset]
        .into_iter()
        .find(|scope| scope_name(*scope) == name)
}

/// Returns where a copy came from, as stored.
fn origin_name(from: OriginKind) -> &'static str {
    match from {
        OriginKind::Profile => "profile",
        OriginKind::Tournament => "tournament",
    }
}

fn parse_origin(name: &str) -> Option<OriginKind> {
    [OriginKind::Profile, OriginKind::Tournament]
        .into_iter()
        .find(|from| origin_name(*from) == name)
}
