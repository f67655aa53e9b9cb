//! Database pools: one store code path for PostgreSQL (production) and SQLite (the embedded
//! default), picked by the scheme of `DATABASE_URL`.
//!
//! Stores talk to a [`Database`] through `sqlx::AnyPool`, so the same queries serve both
//! backends. That only works when the SQL stays portable: `TEXT`, `BIGINT`, times as `BIGINT`
//! unix milliseconds, `$1`-style parameters (SQLite accepts them too), `INSERT … ON CONFLICT`
//! and `UPDATE … RETURNING`. Where a backend needs its own clause (PostgreSQL's
//! `FOR UPDATE SKIP LOCKED`), branch on [`Database::backend`] and keep both strings side by side.
//!
//! # Migrations
//!
//! Every crate that owns tables embeds its own `sqlx::migrate!("./migrations")` and hands it to
//! [`Database::migrate`], which applies kit's own [`MIGRATOR`] first and then each given one.
//! All of them share the one `_sqlx_migrations` table, so each owner keeps to its own range of
//! version numbers and every migrator ignores versions it does not know:
//!
//! | owner         | versions                | first file              |
//! | ------------- | ----------------------- | ----------------------- |
//! | kit           | `10000001` … `19999999` | `10000001_queue.sql`    |
//! | catalog       | `20000001` … `29999999` | `20000001_catalog.sql`  |
//! | accounts      | `30000001` … `39999999` | `30000001_accounts.sql` |
//! | scripts       | `40000001` … `49999999` | `40000001_rulesets.sql` |
//! | decks         | `50000001` … `59999999` | `50000001_saved_decks.sql` |
//! | calculators   | `60000001` … `69999999` | `60000001_calculators.sql` |
//! | tournaments   | `70000001` … `79999999` | `70000001_tournaments.sql` |
//! | next service  | `80000001` …            | `80000001_<name>.sql`   |
//!
//! Within a range, numbers only grow; an applied file is never edited (sqlx checks its
//! checksum). Schema details such as connection pools, WAL and busy timeouts are settled
//! here; what the tables hold is each owner's business.

use std::path::Path;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{MigrateError, Migrator};
use sqlx::{AnyConnection, AnyPool, Connection, Executor};

/// Kit's own tables: the jobs table of the embedded queue ([`crate::queue`]).
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

/// How long a first connection may take before [`Database::connect`] gives up.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long an SQLite connection waits for another writer before failing with "database is
/// locked". Writers hold the lock for milliseconds; five seconds only trips on a real stall.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Which database server a [`Database`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// PostgreSQL, the production store.
    Postgres,
    /// SQLite in a local file, the embedded default.
    Sqlite,
}

impl Backend {
    /// Returns the backend's product name, as used in messages.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Postgres => "PostgreSQL",
            Backend::Sqlite => "SQLite",
        }
    }
}

/// Errors from connecting to, migrating or pinging the database.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// `DATABASE_URL` names a scheme other than `postgres`, `postgresql` or `sqlite`.
    #[error(
        "DATABASE_URL has the unsupported scheme `{scheme}`: use postgres://user@host/db or sqlite://path"
    )]
    UnsupportedScheme {
        /// The scheme as given (never the rest of the URL, which may hold a password).
        scheme: String,
    },
    /// `DATABASE_URL` could not be parsed.
    #[error("DATABASE_URL is not a valid URL: {0}")]
    InvalidUrl(String),
    /// The folder for an SQLite file could not be created.
    #[error("cannot create the folder {path} for the SQLite database: {source}")]
    CreateFolder {
        /// The folder.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The SQLite file could not be made (owner-only) before opening it.
    #[error("cannot create the SQLite database {path}: {source}")]
    CreateFile {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The server could not be reached or refused the connection.
    #[error("cannot connect to {backend} at {address}: {source}")]
    Connect {
        /// `PostgreSQL` or `SQLite`.
        backend: &'static str,
        /// `host:port` for PostgreSQL, the file path for SQLite; never a password.
        address: String,
        /// The cause.
        source: sqlx::Error,
    },
    /// The first connection took longer than [`CONNECT_TIMEOUT`].
    #[error("cannot connect to {backend} at {address}: no answer within {seconds} s")]
    ConnectTimeout {
        /// `PostgreSQL` or `SQLite`.
        backend: &'static str,
        /// `host:port` or the file path.
        address: String,
        /// The timeout.
        seconds: u64,
    },
    /// A migration failed or an applied migration no longer matches its file.
    #[error("database migration failed: {0}")]
    Migrate(#[from] MigrateError),
    /// A query failed.
    #[error("database query failed: {0}")]
    Query(#[from] sqlx::Error),
}

/// A pool of connections to the platform's database, PostgreSQL or SQLite.
///
/// Cloning is cheap and shares the pool.
#[derive(Clone, Debug)]
pub struct Database {
    pool: AnyPool,
    backend: Backend,
}

impl Database {
    /// Connects to the database named by `url` with up to `max_connections` pooled connections.
    ///
    /// `postgres://…` (or `postgresql://…`) connects to PostgreSQL. `sqlite://path` or
    /// `sqlite:path` opens an SQLite file, creating it and its parent folder, in WAL mode with
    /// a busy timeout and foreign keys on. Anything else is a [`DbError::UnsupportedScheme`].
    /// One connection is made before returning, so an unreachable server fails here with a
    /// message naming the server, never later inside a request.
    pub async fn connect(url: &str, max_connections: u32) -> Result<Database, DbError> {
        sqlx::any::install_default_drivers();
        let scheme = url.split_once(':').map_or("", |(scheme, _)| scheme);
        match scheme {
            "postgres" | "postgresql" => connect_postgres(url, max_connections).await,
            "sqlite" => connect_sqlite(url, max_connections).await,
            _ => Err(DbError::UnsupportedScheme {
                scheme: if scheme.is_empty() || scheme.contains('/') || scheme.contains('@') {
                    "(none)".to_owned()
                } else {
                    scheme.to_owned()
                },
            }),
        }
    }

    /// Returns which server this pool talks to.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Returns the connection pool, for stores to run their queries on.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Applies kit's own migrations and then each given service migrator, in order.
    ///
    /// Each migrator is run with "ignore missing" set, because the shared `_sqlx_migrations`
    /// table also lists the other owners' versions (see the module docs). Running it again
    /// applies nothing.
    pub async fn migrate(&self, migrators: &[&Migrator]) -> Result<(), DbError> {
        for migrator in std::iter::once(&MIGRATOR).chain(migrators.iter().copied()) {
            tolerant(migrator).run(&self.pool).await?;
        }
        Ok(())
    }

    /// Checks that the database answers a trivial query.
    pub async fn ping(&self) -> Result<(), DbError> {
        self.pool.execute("SELECT 1").await?;
        Ok(())
    }
}

/// Returns a copy of `migrator` that ignores applied versions it does not contain.
///
/// `Migrator` is not `Clone`, but its fields are public (the `migrate!` macro builds it).
fn tolerant(migrator: &Migrator) -> Migrator {
    Migrator {
        migrations: migrator.migrations.clone(),
        ignore_missing: true,
        locking: migrator.locking,
        no_tx: migrator.no_tx,
        table_name: migrator.table_name.clone(),
        create_schemas: migrator.create_schemas.clone(),
    }
}

async fn connect_postgres(url: &str, max_connections: u32) -> Result<Database, DbError> {
    let address = postgres_address(url)?;
    let options: AnyConnectOptions = url
        .parse()
        .map_err(|err: sqlx::Error| DbError::InvalidUrl(err.to_string()))?;
    // One plain connection first: the pool retries "connection refused" until its acquire
    // timeout and then reports only "pool timed out", which hides the cause.
    probe(&options, Backend::Postgres, &address).await?;
    let pool = AnyPoolOptions::new()
        .max_connections(max_connections.max(1))
        .acquire_timeout(Duration::from_secs(30))
        .connect_with(options)
        .await
        .map_err(|source| DbError::Connect {
            backend: Backend::Postgres.name(),
            address,
            source,
        })?;
    Ok(Database {
        pool,
        backend: Backend::Postgres,
    })
}

async fn connect_sqlite(url: &str, max_connections: u32) -> Result<Database, DbError> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or_default();
    let (path, params) = rest.split_once('?').unwrap_or((rest, ""));
    if path.is_empty() {
        return Err(DbError::InvalidUrl(
            "an sqlite:// URL needs a file path, such as sqlite://data/turnier.db".to_owned(),
        ));
    }
    let in_memory = path == ":memory:" || params.contains("mode=memory");
    if !in_memory
        && let Some(folder) = Path::new(path)
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
    {
        crate::owner_only::create_dir(folder).map_err(|source| DbError::CreateFolder {
            path: folder.display().to_string(),
            source,
        })?;
    }
    // The database holds password hashes: made owner-only before SQLite opens it, which
    // gives its `-wal` and `-shm` files the same mode. A read-only URL makes nothing.
    let creates = !params.contains("mode=") || params.contains("mode=rwc");
    if !in_memory && creates {
        crate::owner_only::create_file(Path::new(path)).map_err(|source| DbError::CreateFile {
            path: path.to_owned(),
            source,
        })?;
    }
    // `mode=rwc` creates the file when it is missing; keep a mode the caller chose.
    let url = match (params.contains("mode="), params.is_empty()) {
        (true, _) => url.to_owned(),
        (false, true) => format!("{url}?mode=rwc"),
        (false, false) => format!("{url}&mode=rwc"),
    };
    let options: AnyConnectOptions = url
        .parse()
        .map_err(|err: sqlx::Error| DbError::InvalidUrl(err.to_string()))?;
    let address = path.to_owned();

    // WAL lets readers go on while one connection writes; the mode is stored in the file, so
    // switching once, before the pool opens several connections, is enough.
    let mut first = probe(&options, Backend::Sqlite, &address).await?;
    if !in_memory {
        first
            .execute("PRAGMA journal_mode = WAL")
            .await
            .map_err(|source| DbError::Connect {
                backend: Backend::Sqlite.name(),
                address: address.clone(),
                source,
            })?;
    }
    first.close().await.ok();

    let pool = AnyPoolOptions::new()
        .max_connections(max_connections.max(1))
        .acquire_timeout(Duration::from_secs(30))
        .after_connect(|conn, _meta| {
            Box::pin(async move {
                // sqlx sets both by default today; stating them keeps them if defaults change.
                conn.execute("PRAGMA foreign_keys = ON").await?;
                conn.execute(sqlx::AssertSqlSafe(format!(
                    "PRAGMA busy_timeout = {}",
                    SQLITE_BUSY_TIMEOUT.as_millis()
                )))
                .await?;
                Ok(())
            })
        })
        .connect_with(options)
        .await
        .map_err(|source| DbError::Connect {
            backend: Backend::Sqlite.name(),
            address,
            source,
        })?;
    Ok(Database {
        pool,
        backend: Backend::Sqlite,
    })
}

/// Opens one connection, turning failures into a message that names the server.
async fn probe(
    options: &AnyConnectOptions,
    backend: Backend,
    address: &str,
) -> Result<AnyConnection, DbError> {
    match tokio::time::timeout(CONNECT_TIMEOUT, AnyConnection::connect_with(options)).await {
        Ok(Ok(conn)) => Ok(conn),
        Ok(Err(source)) => Err(DbError::Connect {
            backend: backend.name(),
            address: address.to_owned(),
            source,
        }),
        Err(_) => Err(DbError::ConnectTimeout {
            backend: backend.name(),
            address: address.to_owned(),
            seconds: CONNECT_TIMEOUT.as_secs(),
        }),
    }
}

/// The SQLSTATEs of text PostgreSQL cannot take: `22021` (a byte sequence that is not valid in
/// the encoding: a NUL in a `TEXT` parameter) and `22P05` (a character the encoding lacks, or
/// `\u0000` in `jsonb`).
const UNSTORABLE_TEXT: [&str; 2] = ["22021", "22P05"];

/// Returns what a service answers for a query that failed because its input held text the
/// database cannot store, or `None` for any other failure (the caller's internal error).
///
/// Every service checks text at its edge (`crate::text`) so this never fires; it is the
/// backstop for a field a check missed, which is the caller's bad input, not an outage. Each
/// crate's one mapping to `tonic::Status` asks it in its database arm.
pub fn refused_text(err: &sqlx::Error) -> Option<crate::status::Failure> {
    let sqlx::Error::Database(db) = err else {
        return None;
    };
    let code = db.code()?;
    if !UNSTORABLE_TEXT.contains(&code.as_ref()) {
        return None;
    }
    tracing::warn!(sqlstate = %code, "a query held text the database cannot store");
    Some(crate::status::Failure::invalid_argument(
        crate::text::REASON_INVALID_ARGUMENT,
        "the request holds text that cannot be stored (a NUL character?)",
    ))
}

/// Returns `host:port` of a PostgreSQL URL, without user or password.
fn postgres_address(url: &str) -> Result<String, DbError> {
    let parsed = url::Url::parse(url).map_err(|err| DbError::InvalidUrl(err.to_string()))?;
    let host = match parsed.host_str() {
        Some(host) if !host.is_empty() => host.to_owned(),
        // No host: libpq-style `?host=/run/postgresql` or the default local socket.
        _ => parsed
            .query_pairs()
            .find(|(key, _)| key == "host")
            .map_or_else(|| "localhost".to_owned(), |(_, value)| value.into_owned()),
    };
    Ok(format!("{host}:{}", parsed.port().unwrap_or(5432)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_address_leaves_out_the_user_and_password() {
        let address = postgres_address("postgres://alice:s3cret@db.example:6543/turnier")
            .expect("a valid URL");
        assert_eq!(address, "db.example:6543");
    }

    #[test]
    fn postgres_address_defaults_to_port_5432() {
        let address = postgres_address("postgres://postgres@127.0.0.1/postgres").expect("valid");
        assert_eq!(address, "127.0.0.1:5432");
    }

    #[test]
    fn kit_migrations_stay_in_kit_version_range() {
        for migration in MIGRATOR.iter() {
            assert!(
                (10_000_001..20_000_000).contains(&migration.version),
                "kit migration {} is outside 10000001..19999999",
                migration.version
            );
        }
    }
}
