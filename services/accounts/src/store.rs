//! Persistence of accounts, sessions and API tokens: sqlx over PostgreSQL or SQLite through
//! `kit::db`, the same SQL for both.
//!
//! Nothing secret is stored: passwords as argon2id PHC strings, tokens as their SHA-256
//! ([`crate::secrets::token_hash`]). Every time is an argument (`now`), so expiry is tested
//! without waiting. Revoking an API token or signing out deletes its row.

use std::time::{Duration, SystemTime};

use kit::auth::{Bearer, Scope, Scopes, TokenKind};
use kit::db::Database;
use kit::timestamp::{from_millis, to_millis};
use sqlx::Row as _;
use sqlx::any::AnyRow;

use crate::domain::{Account, AccountId, TokenId, TokenName, Username};
use crate::error::Error;
use crate::secrets::{new_id, token_hash};
use crate::tokens::{ApiToken, Verified, is_well_formed};

/// The accounts service's tables (versions 3xxxxxxx, see `kit::db`).
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// How stale an API token's `last_use_time` may get before a verification writes it again:
/// one write a minute per token at most, not one per request.
pub const LAST_USE_RESOLUTION: Duration = Duration::from_secs(60);

/// An account with the hash its password is checked against.
#[derive(Debug, Clone)]
pub struct Credentials {
    /// The account.
    pub account: Account,
    /// Its password's PHC string.
    pub password_hash: String,
}

/// The accounts store.
#[derive(Debug, Clone)]
pub struct Store {
    db: Database,
}

impl Store {
    /// Creates a store over a migrated database.
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    /// Returns the database the store keeps accounts in.
    pub fn database(&self) -> &Database {
        &self.db
    }

    /// Saves a new account; [`Error::UsernameTaken`] when another has the name without regard
    /// to case (the unique index decides, so two sign-ups at once cannot both win).
    #[tracing::instrument(skip_all)]
    pub async fn create_account(
        &self,
        username: &Username,
        password_hash: &str,
        now: SystemTime,
    ) -> Result<Account, Error> {
        let account = Account {
            id: AccountId(new_id("acc_")),
            username: username.clone(),
            create_time: from_millis(to_millis(now)),
        };
        let inserted = sqlx::query(
            "INSERT INTO accounts (id, username, username_key, password_hash, create_time) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&account.id.0)
        .bind(username.as_str())
        .bind(username.key())
        .bind(password_hash)
        .bind(to_millis(now))
        .execute(self.db.pool())
        .await;
        match inserted {
            Ok(_) => Ok(account),
            Err(sqlx::Error::Database(db)) if db.is_unique_violation() => {
                Err(Error::UsernameTaken(username.as_str().to_owned()))
            }
            Err(err) => Err(err.into()),
        }
    }

    /// Returns the account named `username` (without regard to case) with its password hash.
    #[tracing::instrument(skip_all)]
    pub async fn credentials(&self, username: &str) -> Result<Option<Credentials>, Error> {
        let row = sqlx::query(
            "SELECT id, username, create_time, password_hash FROM accounts WHERE username_key = $1",
        )
        .bind(crate::domain::username_key(username))
        .fetch_optional(self.db.pool())
        .await?;
        row.map(|row| {
            Ok(Credentials {
                account: account_of(&row, "id", "create_time")?,
                password_hash: row.try_get("password_hash")?,
            })
        })
        .transpose()
    }

    /// Returns the account named `username`, without regard to case.
    pub async fn account_by_username(&self, username: &str) -> Result<Option<Account>, Error> {
        Ok(self
            .credentials(username)
            .await?
            .map(|credentials| credentials.account))
    }

    /// Returns the account with this id.
    #[tracing::instrument(skip_all, fields(account_id = %id))]
    pub async fn account(&self, id: &AccountId) -> Result<Option<Account>, Error> {
        let row = sqlx::query("SELECT id, username, create_time FROM accounts WHERE id = $1")
            .bind(&id.0)
            .fetch_optional(self.db.pool())
            .await?;
        row.map(|row| account_of(&row, "id", "create_time"))
            .transpose()
    }

    /// Replaces an account's password hash (a rehash at new parameters).
    #[tracing::instrument(skip_all, fields(account_id = %id))]
    pub async fn set_password_hash(
        &self,
        id: &AccountId,
        password_hash: &str,
    ) -> Result<(), Error> {
        sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(&id.0)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Saves a session of `account` with the token `token`, made at `now`, ending at
    /// `expire_time`. Sessions of the account that have ended are deleted on the way.
    #[tracing::instrument(skip_all, fields(account_id = %account))]
    pub async fn create_session(
        &self,
        account: &AccountId,
        token: &Bearer,
        now: SystemTime,
        expire_time: SystemTime,
    ) -> Result<(), Error> {
        let mut tx = self.db.pool().begin().await?;
        sqlx::query("DELETE FROM accounts_sessions WHERE account_id = $1 AND expire_time <= $2")
            .bind(&account.0)
            .bind(to_millis(now))
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO accounts_sessions (token_hash, account_id, create_time, expire_time) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash(token.secret()))
        .bind(&account.0)
        .bind(to_millis(now))
        .bind(to_millis(expire_time))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Ends the session of `token`; returns whether there was one.
    #[tracing::instrument(skip_all)]
    pub async fn end_session(&self, token: &Bearer) -> Result<bool, Error> {
        let done = sqlx::query("DELETE FROM accounts_sessions WHERE token_hash = $1")
            .bind(token_hash(token.secret()))
            .execute(self.db.pool())
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Saves an API token of `account` with the secret `token`.
    #[tracing::instrument(skip_all, fields(account_id = %account))]
    pub async fn create_api_token(
        &self,
        account: &AccountId,
        token: &Bearer,
        name: &TokenName,
        scopes: Scopes,
        now: SystemTime,
        expire_time: Option<SystemTime>,
    ) -> Result<ApiToken, Error> {
        let api_token = ApiToken {
            id: TokenId(new_id(TokenId::PREFIX)),
            name: name.clone(),
            scopes,
            create_time: from_millis(to_millis(now)),
            expire_time: expire_time.map(|time| from_millis(to_millis(time))),
            last_use_time: None,
        };
        sqlx::query(
            "INSERT INTO accounts_api_tokens \
             (id, token_hash, account_id, name, scopes, create_time, expire_time, last_use_time) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)",
        )
        .bind(&api_token.id.0)
        .bind(token_hash(token.secret()))
        .bind(&account.0)
        .bind(name.as_str())
        .bind(scopes_text(scopes))
        .bind(to_millis(now))
        .bind(expire_time.map(to_millis))
        .execute(self.db.pool())
        .await?;
        Ok(api_token)
    }

    /// Returns the API tokens of `account`, newest first (revoked ones are gone; expired ones
    /// are listed with their expiry, so their owner sees why they stopped working).
    #[tracing::instrument(skip_all, fields(account_id = %account))]
    pub async fn api_tokens(&self, account: &AccountId) -> Result<Vec<ApiToken>, Error> {
        let rows = sqlx::query(
            "SELECT id, name, scopes, create_time, expire_time, last_use_time \
             FROM accounts_api_tokens WHERE account_id = $1 ORDER BY create_time DESC, id DESC",
        )
        .bind(&account.0)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(api_token_of).collect()
    }

    /// Revokes the API token `id` of `account`; returns whether it had one by that id.
    #[tracing::instrument(skip_all, fields(account_id = %account, token_id = %id))]
    pub async fn revoke_api_token(&self, account: &AccountId, id: &TokenId) -> Result<bool, Error> {
        let done = sqlx::query("DELETE FROM accounts_api_tokens WHERE id = $1 AND account_id = $2")
            .bind(&id.0)
            .bind(&account.0)
            .execute(self.db.pool())
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Returns what `token` says at `now`, or `None` when it is malformed, unknown, expired or
    /// revoked. A token is looked up only in the table of the kind its prefix names, by the
    /// hash of the whole token, so one kind can never pass for the other. An API token's last
    /// use is written on the way, at most once per [`LAST_USE_RESOLUTION`].
    #[tracing::instrument(skip_all)]
    pub async fn verify_token(
        &self,
        token: &str,
        now: SystemTime,
    ) -> Result<Option<Verified>, Error> {
        let Some(kind) = is_well_formed(token) else {
            return Ok(None);
        };
        let hash = token_hash(token);
        let now_millis = to_millis(now);
        match kind {
            TokenKind::Session => {
                let row = sqlx::query(
                    "SELECT a.id AS account_id, a.username, a.create_time AS account_create_time, \
                     s.expire_time FROM accounts_sessions s JOIN accounts a ON a.id = s.account_id \
                     WHERE s.token_hash = $1 AND s.expire_time > $2",
                )
                .bind(&hash)
                .bind(now_millis)
                .fetch_optional(self.db.pool())
                .await?;
                row.map(|row| {
                    Ok(Verified {
                        account: account_of(&row, "account_id", "account_create_time")?,
                        kind,
                        scopes: Scopes::ALL,
                        expire_time: Some(from_millis(row.try_get("expire_time")?)),
                    })
                })
                .transpose()
            }
            TokenKind::Api => {
                let row = sqlx::query(
                    "SELECT a.id AS account_id, a.username, a.create_time AS account_create_time, \
                     t.id, t.scopes, t.expire_time, t.last_use_time \
                     FROM accounts_api_tokens t JOIN accounts a ON a.id = t.account_id \
                     WHERE t.token_hash = $1 AND (t.expire_time IS NULL OR t.expire_time > $2)",
                )
                .bind(&hash)
                .bind(now_millis)
                .fetch_optional(self.db.pool())
                .await?;
                let Some(row) = row else {
                    return Ok(None);
                };
                let last_use: Option<i64> = row.try_get("last_use_time")?;
                let stale_before = now_millis - LAST_USE_RESOLUTION.as_millis() as i64;
                if last_use.is_none_or(|last| last <= stale_before) {
                    let id: String = row.try_get("id")?;
                    // The condition again in SQL: of many verifications at once, one writes.
                    sqlx::query(
                        "UPDATE accounts_api_tokens SET last_use_time = $1 \
                         WHERE id = $2 AND (last_use_time IS NULL OR last_use_time <= $3)",
                    )
                    .bind(now_millis)
                    .bind(id)
                    .bind(stale_before)
                    .execute(self.db.pool())
                    .await?;
                }
                let expire_time: Option<i64> = row.try_get("expire_time")?;
                Ok(Some(Verified {
                    account: account_of(&row, "account_id", "account_create_time")?,
                    kind,
                    scopes: parse_scopes(&row.try_get::<String, _>("scopes")?)?,
                    expire_time: expire_time.map(from_millis),
                }))
            }
        }
    }
}

fn account_of(row: &AnyRow, id: &str, create_time: &str) -> Result<Account, Error> {
    let username: String = row.try_get("username")?;
    Ok(Account {
        id: AccountId(row.try_get(id)?),
        username: Username::parse(&username).map_err(|_| Error::Corrupt { what: "username" })?,
        create_time: from_millis(row.try_get(create_time)?),
    })
}

fn api_token_of(row: &AnyRow) -> Result<ApiToken, Error> {
    let name: String = row.try_get("name")?;
    let expire_time: Option<i64> = row.try_get("expire_time")?;
    let last_use_time: Option<i64> = row.try_get("last_use_time")?;
    Ok(ApiToken {
        id: TokenId(row.try_get("id")?),
        name: TokenName::stored(name),
        scopes: parse_scopes(&row.try_get::<String, _>("scopes")?)?,
        create_time: from_millis(row.try_get("create_time")?),
        expire_time: expire_time.map(from_millis),
        last_use_time: last_use_time.map(from_millis),
    })
}

/// Returns scopes as stored: their names, comma-separated in order.
fn scopes_text(scopes: Scopes) -> String {
    scopes.iter().map(Scope::name).collect::<Vec<_>>().join(",")
}

fn parse_scopes(text: &str) -> Result<Scopes, Error> {
    let scopes = text
        .split(',')
        .map(|name| Scope::parse(name).ok_or(Error::Corrupt { what: "scopes" }))
        .collect::<Result<Scopes, Error>>()?;
    if scopes.is_empty() {
        return Err(Error::Corrupt { what: "scopes" });
    }
    Ok(scopes)
}
