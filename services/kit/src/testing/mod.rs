//! Helpers for the integration tests of every crate: a fresh database per test on the real
//! PostgreSQL server or in an SQLite file, unique Redis key prefixes, a throwaway
//! `redis-server` that a test may restart, and the shared spec, data and vectors folder
//! ([`shared`]). Compiled only with the `testing` feature, which only dev-dependencies enable.
//!
//! The servers come from `TEST_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`)
//! and `TEST_REDIS_URL` (default `redis://127.0.0.1:6379`). An unreachable server fails the
//! test with a message saying which server and which variable; nothing is skipped.
//! Everything a helper creates is removed when its guard is dropped.

pub mod shared;

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sqlx::{Connection, Executor, PgConnection};

use crate::db::Database;

/// The PostgreSQL server tests create their databases on, unless `TEST_POSTGRES_URL` says
/// otherwise. The user needs `CREATEDB`.
pub const DEFAULT_TEST_POSTGRES_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// The Redis server tests use, unless `TEST_REDIS_URL` says otherwise.
pub const DEFAULT_TEST_REDIS_URL: &str = "redis://127.0.0.1:6379";

/// How long a throwaway `redis-server` may take to accept connections.
const REDIS_START_TIMEOUT: Duration = Duration::from_secs(10);

/// Returns the URL of the PostgreSQL server for tests.
pub fn test_postgres_url() -> String {
    std::env::var("TEST_POSTGRES_URL").unwrap_or_else(|_| DEFAULT_TEST_POSTGRES_URL.to_owned())
}

/// Returns the URL of the Redis server for tests.
pub fn test_redis_url() -> String {
    std::env::var("TEST_REDIS_URL").unwrap_or_else(|_| DEFAULT_TEST_REDIS_URL.to_owned())
}

/// Returns a name no other test run uses: `test:{name}:{random}`. Use it as a Redis key
/// prefix so that tests never touch each other's keys, and never need to clear the server.
pub fn unique_prefix(name: &str) -> String {
    format!("test:{name}:{}", uuid::Uuid::new_v4().simple())
}

/// A database of its own for one test, removed when dropped.
#[derive(Debug)]
pub struct TestDatabase {
    url: String,
    kind: TestDatabaseKind,
}

#[derive(Debug)]
enum TestDatabaseKind {
    /// A database on the test server; dropped with `DROP DATABASE … WITH (FORCE)`.
    Postgres { admin_url: String, name: String },
    /// A file in a temporary folder, deleted with the folder.
    Sqlite { _folder: tempfile::TempDir },
}

impl TestDatabase {
    /// Creates a fresh, empty, uniquely named database on the test PostgreSQL server.
    ///
    /// # Panics
    ///
    /// If the server cannot be reached or refuses `CREATE DATABASE`, with a message naming
    /// the server and `TEST_POSTGRES_URL`.
    pub async fn postgres() -> TestDatabase {
        let admin_url = test_postgres_url();
        let name = format!("turnier_test_{}", uuid::Uuid::new_v4().simple());
        let mut admin = PgConnection::connect(&admin_url).await.unwrap_or_else(|err| {
            panic!(
                "cannot connect to the test PostgreSQL server at {} (set TEST_POSTGRES_URL): {err}",
                describe_server(&admin_url)
            )
        });
        admin
            .execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE \"{name}\"")))
            .await
            .unwrap_or_else(|err| panic!("cannot create the test database {name}: {err}"));
        admin.close().await.ok();

        let mut url = url::Url::parse(&admin_url)
            .unwrap_or_else(|err| panic!("TEST_POSTGRES_URL is not a valid URL: {err}"));
        url.set_path(&name);
        TestDatabase {
            url: url.into(),
            kind: TestDatabaseKind::Postgres { admin_url, name },
        }
    }

    /// Creates a fresh SQLite database file in a temporary folder.
    pub fn sqlite() -> TestDatabase {
        let folder = tempfile::tempdir().expect("a temporary folder for the SQLite test database");
        let path: PathBuf = folder.path().join("test.db");
        TestDatabase {
            url: format!("sqlite://{}", path.display()),
            kind: TestDatabaseKind::Sqlite { _folder: folder },
        }
    }

    /// Returns the database's URL, as `DATABASE_URL` would give it.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Connects to the database (not yet migrated) with a small pool.
    ///
    /// # Panics
    ///
    /// If the connection fails.
    pub async fn connect(&self) -> Database {
        Database::connect(&self.url, 5)
            .await
            .unwrap_or_else(|err| panic!("cannot connect to the test database: {err}"))
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let TestDatabaseKind::Postgres { admin_url, name } = &self.kind else {
            return;
        };
        let (admin_url, name) = (admin_url.clone(), name.clone());
        // Drop cannot await, and may run inside a runtime that must not block: a thread of
        // its own with a small runtime does the dropping. Joining it keeps the test process
        // from exiting before the database is gone.
        let dropper = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime to drop the test database");
            runtime.block_on(async move {
                let result = async {
                    let mut admin = PgConnection::connect(&admin_url).await?;
                    admin
                        .execute(sqlx::AssertSqlSafe(format!(
                            "DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"
                        )))
                        .await?;
                    admin.close().await
                }
                .await;
                if let Err(err) = result {
                    eprintln!("warning: cannot drop the test database {name}: {err}");
                }
            });
        });
        let _ = dropper.join();
    }
}

/// Keeps Redis keys under a unique prefix for one test and deletes them when dropped.
#[derive(Debug)]
pub struct TestRedisPrefix {
    url: String,
    prefix: String,
}

impl TestRedisPrefix {
    /// Picks a unique prefix (see [`unique_prefix`]) on the test Redis server.
    pub fn new(name: &str) -> TestRedisPrefix {
        TestRedisPrefix {
            url: test_redis_url(),
            prefix: unique_prefix(name),
        }
    }

    /// Returns the Redis server's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Returns the key prefix.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }
}

impl Drop for TestRedisPrefix {
    fn drop(&mut self) {
        let result = (|| -> redis::RedisResult<()> {
            let client = redis::Client::open(self.url.as_str())?;
            let mut connection = client.get_connection_with_timeout(Duration::from_secs(2))?;
            let keys: Vec<String> = redis::Commands::scan_match::<_, String>(
                &mut connection,
                format!("{}:*", self.prefix),
            )?
            .collect::<Result<_, _>>()?;
            if !keys.is_empty() {
                redis::cmd("DEL").arg(keys).exec(&mut connection)?;
            }
            Ok(())
        })();
        if let Err(err) = result {
            eprintln!(
                "warning: cannot delete the test keys under {}: {err}",
                self.prefix
            );
        }
    }
}

/// A `redis-server` of the test's own, on a free port, with append-only persistence that
/// fsyncs every write, so that a test can kill and restart it without losing data.
///
/// The machine's shared Redis must never be restarted by a test; this one is the test's to
/// break. The process is killed when the value is dropped.
#[derive(Debug)]
pub struct TestRedisServer {
    folder: tempfile::TempDir,
    port: u16,
    process: Option<Child>,
}

impl TestRedisServer {
    /// Starts `redis-server` (from `PATH`) on a free port in a temporary folder and waits
    /// until it answers `PING`.
    ///
    /// # Panics
    ///
    /// If the binary is missing or the server does not answer within 10 s.
    pub async fn start() -> TestRedisServer {
        let folder = tempfile::tempdir().expect("a temporary folder for redis-server");
        let port = free_port();
        let mut server = TestRedisServer {
            folder,
            port,
            process: None,
        };
        server.launch().await;
        server
    }

    /// Returns the server's URL.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills the server without warning (SIGKILL, as a crash or an evicted pod) and waits for
    /// the process to end.
    pub fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            let _ = process.kill();
            let _ = process.wait();
        }
    }

    /// Kills the server and starts it again on the same port and folder; it reloads its
    /// append-only file. Waits until it answers `PING`.
    pub async fn restart(&mut self) {
        self.kill();
        self.start_again().await;
    }

    /// Starts the server again after [`TestRedisServer::kill`], on the same port and folder,
    /// and waits until it answers `PING`. Does nothing if it is running.
    pub async fn start_again(&mut self) {
        if self.process.is_none() {
            self.launch().await;
        }
    }

    async fn launch(&mut self) {
        let folder = self.folder.path();
        let process = Command::new("redis-server")
            .args(["--port", &self.port.to_string()])
            .args(["--bind", "127.0.0.1"])
            .arg("--dir")
            .arg(folder)
            .args([
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--save",
                "",
            ])
            .arg("--logfile")
            .arg(folder.join("redis.log"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|err| panic!("cannot start redis-server (is it on PATH?): {err}"));
        self.process = Some(process);

        let client = redis::Client::open(self.url()).expect("a valid Redis URL");
        let deadline = Instant::now() + REDIS_START_TIMEOUT;
        loop {
            let answered = async {
                let mut connection = client.get_multiplexed_async_connection().await?;
                redis::cmd("PING")
                    .query_async::<String>(&mut connection)
                    .await
            }
            .await;
            match answered {
                Ok(_) => return,
                Err(err) if Instant::now() >= deadline => {
                    let log = std::fs::read_to_string(folder.join("redis.log")).unwrap_or_default();
                    panic!(
                        "redis-server on port {} did not answer within {:?}: {err}\n{log}",
                        self.port, REDIS_START_TIMEOUT
                    );
                }
                // Polling for the "accepting connections" event; the server needs a moment.
                Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    }
}

impl Drop for TestRedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Returns a port that was free a moment ago.
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free local port");
    listener.local_addr().expect("a bound address").port()
}

/// Returns `host:port` of a server URL, without credentials.
fn describe_server(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(parsed) => format!(
            "{}:{}",
            parsed.host_str().unwrap_or("localhost"),
            parsed.port().unwrap_or(5432)
        ),
        Err(_) => "(unparsable URL)".to_owned(),
    }
}
