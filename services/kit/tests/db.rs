//! `kit::db` against the real PostgreSQL server and a real SQLite file: connecting, migrating,
//! and the errors an operator sees for a bad `DATABASE_URL`.

use kit::db::{Backend, Database, DbError};
use kit::testing::TestDatabase;
use sqlx::Row;

/// Returns the names of kit's tables that exist, to check what a migration created.
async fn has_jobs_table(database: &Database) -> bool {
    let sql = match database.backend() {
        Backend::Postgres => {
            "SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_name = 'kit_jobs'"
        }
        Backend::Sqlite => "SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'kit_jobs'",
    };
    let row = sqlx::query(sql)
        .fetch_one(database.pool())
        .await
        .expect("the catalog query runs");
    row.try_get::<i64, _>("n").expect("a count") == 1
}

async fn applied_migrations(database: &Database) -> i64 {
    sqlx::query("SELECT COUNT(*) AS n FROM _sqlx_migrations")
        .fetch_one(database.pool())
        .await
        .expect("the migrations table exists")
        .try_get("n")
        .expect("a count")
}

async fn connects_migrates_and_pings(test_database: TestDatabase, backend: Backend) {
    let database = test_database.connect().await;
    assert_eq!(database.backend(), backend);
    database.ping().await.expect("a fresh database answers");

    database.migrate(&[]).await.expect("kit's migrations apply");
    assert!(has_jobs_table(&database).await);
    let after_first = applied_migrations(&database).await;
    assert!(after_first >= 1);

    database
        .migrate(&[])
        .await
        .expect("migrating again succeeds");
    assert_eq!(
        applied_migrations(&database).await,
        after_first,
        "nothing new was applied"
    );
}

#[tokio::test]
async fn sqlite_connects_migrates_and_migrating_twice_is_a_no_op() {
    connects_migrates_and_pings(TestDatabase::sqlite(), Backend::Sqlite).await;
}

#[tokio::test]
async fn postgres_connects_migrates_and_migrating_twice_is_a_no_op() {
    connects_migrates_and_pings(TestDatabase::postgres().await, Backend::Postgres).await;
}

#[tokio::test]
async fn sqlite_creates_the_file_and_its_folder_and_uses_wal() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder
        .path()
        .join("nested")
        .join("deeper")
        .join("turnier.db");
    let database = Database::connect(&format!("sqlite://{}", path.display()), 2)
        .await
        .expect("the file and its folders are created");
    assert!(path.exists());
    let mode: String = sqlx::query("PRAGMA journal_mode")
        .fetch_one(database.pool())
        .await
        .expect("the pragma answers")
        .try_get(0)
        .expect("a mode");
    assert_eq!(mode.to_lowercase(), "wal");
    let foreign_keys: i64 = sqlx::query("PRAGMA foreign_keys")
        .fetch_one(database.pool())
        .await
        .expect("the pragma answers")
        .try_get(0)
        .expect("a flag");
    assert_eq!(foreign_keys, 1);
}

#[tokio::test]
async fn sqlite_makes_its_folder_database_and_wal_files_for_their_owner_only() {
    use std::os::unix::fs::PermissionsExt as _;
    let mode = |path: &std::path::Path| {
        std::fs::metadata(path)
            .unwrap_or_else(|err| panic!("{}: {err}", path.display()))
            .permissions()
            .mode()
            & 0o777
    };
    let root = tempfile::tempdir().expect("a temporary folder");
    let state = root.path().join("state");
    let path = state.join("turnier.db");
    let database = Database::connect(&format!("sqlite://{}", path.display()), 2)
        .await
        .expect("opens");
    database.migrate(&[]).await.expect("writes something");
    assert_eq!(mode(&state), 0o700, "the folder");
    for file in ["turnier.db", "turnier.db-wal", "turnier.db-shm"] {
        assert_eq!(mode(&state.join(file)), 0o600, "{file}");
    }
}

#[tokio::test]
async fn sqlite_accepts_the_single_colon_form() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("short.db");
    let database = Database::connect(&format!("sqlite:{}", path.display()), 1)
        .await
        .expect("sqlite:path opens too");
    database.ping().await.expect("it answers");
    assert!(path.exists());
}

#[tokio::test]
async fn a_service_migrator_runs_after_kits_and_shares_the_migrations_table() {
    let test_database = TestDatabase::sqlite();
    let database = test_database.connect().await;
    let service = sqlx::migrate::Migrator::with_migrations(vec![sqlx::migrate::Migration::new(
        20_000_001,
        "widgets".into(),
        sqlx::migrate::MigrationType::Simple,
        sqlx::SqlSafeStr::into_sql_str("CREATE TABLE widgets (id TEXT PRIMARY KEY)"),
        false,
    )]);
    database
        .migrate(&[&service])
        .await
        .expect("both migrators apply");
    database
        .migrate(&[&service])
        .await
        .expect("again, each ignores the other's versions");
    // A later process that knows only kit's migrations must not trip over the service's.
    database
        .migrate(&[])
        .await
        .expect("kit alone ignores version 20000001");
    assert_eq!(applied_migrations(&database).await, 2);
}

#[tokio::test]
async fn an_unknown_scheme_is_an_error_naming_database_url_and_the_scheme() {
    let error = Database::connect("mysql://root:secret@127.0.0.1/turnier", 1)
        .await
        .expect_err("mysql is not supported");
    assert!(matches!(error, DbError::UnsupportedScheme { .. }));
    let message = error.to_string();
    assert!(message.contains("DATABASE_URL"), "{message}");
    assert!(message.contains("`mysql`"), "{message}");
    assert!(!message.contains("secret"), "{message}");
}

#[tokio::test]
async fn unreachable_postgres_is_a_clear_error_without_the_password() {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    let error = Database::connect("postgres://turnier:hunter2@127.0.0.1:1/turnier", 1)
        .await
        .expect_err("nothing listens on port 1");
    let message = error.to_string();
    assert!(
        message.starts_with("cannot connect to PostgreSQL at 127.0.0.1:1: "),
        "{message}"
    );
    assert!(!message.contains("hunter2"), "{message}");
}

#[tokio::test]
async fn a_nul_in_a_postgres_query_is_the_callers_bad_input_not_an_internal_error() {
    let test_database = TestDatabase::postgres().await;
    let database = test_database.connect().await;
    let err = sqlx::query("SELECT $1 AS echoed")
        .bind("a\0b")
        .execute(database.pool())
        .await
        .expect_err("PostgreSQL refuses a NUL in a text parameter");
    let status: tonic::Status = kit::db::refused_text(&err)
        .expect("the refusal reads as unstorable text")
        .into();
    assert_eq!(status.code(), tonic::Code::InvalidArgument);

    // Any other failure stays the caller's internal error.
    let other = sqlx::query("SELECT * FROM no_such_table")
        .execute(database.pool())
        .await
        .expect_err("no such table");
    assert!(kit::db::refused_text(&other).is_none());
}
