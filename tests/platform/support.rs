//! Starting the real `turnier` binary for end-to-end tests, and talking to it.
//!
//! Each process gets its own free ports and state folder and is killed when dropped. Tests
//! wait for events (a health status, an HTTP status, an exit), polling with a deadline, never
//! for a fixed time.

#![allow(dead_code)] // Each test file uses a different part of this module.

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// How long a process gets to become ready or to exit. Generous: CI has 2 cores.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// The shared card data folder (`kit::testing::shared`: `TURNIER_SHARED_DIR`, or `../shared`
/// beside the project).
pub fn data_dir() -> std::path::PathBuf {
    kit::testing::shared::data_dir()
}

/// Returns a port nobody listens on right now.
pub fn free_port() -> u16 {
    free_ports(1)[0]
}

/// Returns `n` distinct ports nobody listens on right now. All are held open until every one
/// is chosen, so the OS cannot hand the same port out twice.
pub fn free_ports(n: usize) -> Vec<u16> {
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").expect("the OS hands out a free port"))
        .collect();
    listeners
        .iter()
        .map(|listener| listener.local_addr().expect("a bound address").port())
        .collect()
}

/// The `turnier` binary Cargo built for these tests.
pub fn turnier() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_turnier"));
    // No setting leaks in from the developer's shell: each test says what it sets.
    command.env_clear();
    if let Ok(path) = std::env::var("PATH") {
        command.env("PATH", path);
    }
    command.env("RUST_LOG", "info");
    // Every process these tests start creates a sandbox; one compile cache for the whole test
    // run (in Cargo's scratch folder for tests) spares each of them compiling the plugin.
    command.env(
        "TURNIER_SCRIPT_COMPILE_CACHE",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/wasmtime-cache"),
    );
    command
}

/// Runs `turnier` with `args` and `env` in `dir` to completion.
pub fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = turnier();
    command
        .current_dir(dir)
        .args(args)
        .envs(env.iter().copied());
    command.output().expect("turnier runs")
}

/// Runs `turnier` with `args` and `env` in `dir` to completion, writing `stdin` to its input.
pub fn run_with_stdin(dir: &Path, args: &[&str], env: &[(&str, &str)], stdin: &str) -> Output {
    use std::io::Write as _;
    let mut child = turnier()
        .current_dir(dir)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("turnier starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let text = stdin.to_owned();
    // Written from a thread so a child that answers before reading everything cannot block us.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let output = child.wait_with_output().expect("turnier runs");
    writer.join().expect("the stdin writer does not panic");
    output
}

/// A running `turnier` process, killed when dropped.
pub struct Process {
    pub child: Child,
    pub name: String,
    log: std::path::PathBuf,
}

impl Process {
    /// Starts `turnier <args>` in `dir` with `env`, logging to a file in `dir`.
    pub fn start(name: &str, dir: &Path, args: &[&str], env: &BTreeMap<String, String>) -> Self {
        let log = dir.join(format!("{name}.log"));
        let file = std::fs::File::create(&log).expect("log file");
        let child = turnier()
            .current_dir(dir)
            .args(args)
            .envs(env)
            .stdin(Stdio::null())
            .stdout(file.try_clone().expect("log file"))
            .stderr(file)
            .spawn()
            .expect("turnier starts");
        Self {
            child,
            name: name.to_owned(),
            log,
        }
    }

    /// Returns what the process has logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Sends SIGTERM, as Kubernetes does.
    pub fn terminate(&self) {
        use nix::sys::signal::{Signal, kill};
        use nix::unistd::Pid;
        let pid = i32::try_from(self.child.id()).expect("pids fit in i32");
        kill(Pid::from_raw(pid), Signal::SIGTERM).expect("SIGTERM is delivered");
    }

    /// Kills the process at once (SIGKILL): a crash.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits for the process to exit on its own.
    pub fn wait_for_exit(&mut self) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("process status") {
                return status;
            }
            assert!(
                started.elapsed() < DEADLINE,
                "{} did not exit; log:\n{}",
                self.name,
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Panics with the log if the process has exited.
    pub fn assert_running(&mut self) {
        if let Some(status) = self.child.try_wait().expect("process status") {
            panic!("{} exited with {status}; log:\n{}", self.name, self.log());
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Asks a gRPC server for the health of `service` ("" for the server as a whole).
pub async fn health(url: &str, service: &str) -> Result<ServingStatus, String> {
    let channel = tonic::transport::Endpoint::from_shared(url.to_owned())
        .map_err(|err| err.to_string())?
        .connect_timeout(Duration::from_secs(1))
        .timeout(Duration::from_secs(2))
        .connect()
        .await
        .map_err(|err| format!("connect: {err}"))?;
    let response = HealthClient::new(channel)
        .check(HealthCheckRequest {
            service: service.to_owned(),
        })
        .await
        .map_err(|status| format!("{status}"))?;
    Ok(response.into_inner().status())
}

/// Waits until `service` at `url` reports SERVING, while `process` keeps running.
pub async fn wait_until_serving(process: &mut Process, url: &str, service: &str) {
    let started = Instant::now();
    loop {
        process.assert_running();
        if health(url, service).await == Ok(ServingStatus::Serving) {
            return;
        }
        assert!(
            started.elapsed() < DEADLINE,
            "{service} at {url} never became SERVING; log:\n{}",
            process.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Lists the services a server advertises through reflection (v1).
pub async fn reflected_services(url: &str) -> Vec<String> {
    use tonic_reflection::pb::v1::ServerReflectionRequest;
    use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
    use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
    use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

    let channel = tonic::transport::Endpoint::from_shared(url.to_owned())
        .expect("a valid URL")
        .connect()
        .await
        .expect("reflection connects");
    let mut client = ServerReflectionClient::new(channel);
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut responses = client
        .server_reflection_info(tokio_stream::iter([request]))
        .await
        .expect("reflection answers")
        .into_inner();
    let response = responses
        .message()
        .await
        .expect("a reflection response")
        .expect("one message");
    match response.message_response {
        Some(MessageResponse::ListServicesResponse(list)) => {
            let mut names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
            names.sort();
            names
        }
        other => panic!("unexpected reflection response: {other:?}"),
    }
}

/// Polls `url` until it answers `status`, returning the body.
pub async fn wait_for_http_status(process: &mut Process, url: &str, status: u16) -> String {
    let client = reqwest::Client::new();
    let started = Instant::now();
    let mut last;
    loop {
        process.assert_running();
        match client.get(url).timeout(Duration::from_secs(5)).send().await {
            Ok(response) if response.status().as_u16() == status => {
                return response.text().await.unwrap_or_default();
            }
            Ok(response) => {
                last = format!(
                    "{}: {}",
                    response.status(),
                    response.text().await.unwrap_or_default()
                );
            }
            Err(err) => last = err.to_string(),
        }
        assert!(
            started.elapsed() < DEADLINE,
            "{url} never answered {status} (last: {last}); log:\n{}",
            process.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Returns the value of the metric `name` (a line `name value`, with no labels) in the
/// Prometheus text at `url`, or `None` when it is not there (yet).
pub async fn metric(url: &str, name: &str) -> Option<f64> {
    let text = reqwest::get(url).await.ok()?.text().await.ok()?;
    text.lines().find_map(|line| {
        line.strip_prefix(name)?
            .strip_prefix(' ')?
            .trim()
            .parse()
            .ok()
    })
}

/// Waits until the metric `name` at `url` reads `value`, while `process` keeps running.
pub async fn wait_for_metric(process: &mut Process, url: &str, name: &str, value: f64) {
    let started = Instant::now();
    loop {
        process.assert_running();
        let last = metric(url, name).await;
        if last == Some(value) {
            return;
        }
        assert!(
            started.elapsed() < DEADLINE,
            "{name} never read {value} (last: {last:?}); log:\n{}",
            process.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The all-in-one platform on free ports, with an empty data folder so it holds exactly the
/// sample catalog, whatever lies beside the checkout. Killed (and its folders removed) when
/// dropped.
pub struct SamplePlatform {
    /// The running process.
    pub process: Process,
    /// `http://127.0.0.1:<port>`: the gateway (`/healthz`, `/metrics`).
    pub http: String,
    /// `http://127.0.0.1:<port>/api/v1`.
    pub api: String,
    /// `http://127.0.0.1:<port>`: every service over gRPC.
    pub grpc: String,
    /// The settings it was started with (a restart uses them again).
    env: BTreeMap<String, String>,
    _state: tempfile::TempDir,
    _data: tempfile::TempDir,
}

impl SamplePlatform {
    /// Returns the folder of the platform's embedded database.
    pub fn state_dir(&self) -> &Path {
        self._state.path()
    }

    /// Starts the platform and waits until the sample catalog answers.
    pub async fn start() -> Self {
        Self::start_with(&[]).await
    }

    /// Starts the platform with the real card data of `games` (`lor`, `riftbound`: the small
    /// ones; Pokémon takes most of a minute in a debug build) imported at startup, and waits
    /// until a card of each that the sample lacks answers.
    pub async fn with_card_data(games: &[&str]) -> Self {
        Self::with_card_data_and(games, &[]).await
    }

    /// [`Self::with_card_data`] with the settings `env` adds.
    pub async fn with_card_data_and(games: &[&str], env: &[(&str, &str)]) -> Self {
        let data = tempfile::tempdir().expect("temp dir");
        for game in games {
            std::os::unix::fs::symlink(data_dir().join(game), data.path().join(game))
                .expect("a link to the game's card data");
        }
        let mut platform = Self::start_in(data, env).await;
        for game in games {
            let card = match *game {
                "lor" => "01SI001",
                "riftbound" => "ogn-259-298",
                "pokemon" => "sv8-76",
                other => panic!("no card to wait for in {other}"),
            };
            let url = format!("{}/{game}/cards/{card}", platform.api);
            wait_for_http_status(&mut platform.process, &url, 200).await;
        }
        platform
    }

    /// Starts the platform with the settings `env` adds, and waits until the sample catalog
    /// answers.
    pub async fn start_with(env: &[(&str, &str)]) -> Self {
        Self::start_in(tempfile::tempdir().expect("temp dir"), env).await
    }

    async fn start_in(data: tempfile::TempDir, env: &[(&str, &str)]) -> Self {
        let state = tempfile::tempdir().expect("temp dir");
        let ports = free_ports(2);
        let env = BTreeMap::from([
            (
                "TURNIER_GRPC_ADDR".to_owned(),
                format!("127.0.0.1:{}", ports[0]),
            ),
            (
                "TURNIER_HTTP_ADDR".to_owned(),
                format!("127.0.0.1:{}", ports[1]),
            ),
            (
                "TURNIER_DATA_DIR".to_owned(),
                data.path().display().to_string(),
            ),
        ])
        .into_iter()
        .chain(
            env.iter()
                .map(|(key, value)| ((*key).to_owned(), (*value).to_owned())),
        )
        .collect::<BTreeMap<_, _>>();
        let mut process = Process::start("all-in-one", state.path(), &["serve"], &env);
        let api = format!("http://127.0.0.1:{}/api/v1", ports[1]);
        // The sample loads right after start; it is there once one of its cards answers.
        wait_for_http_status(&mut process, &format!("{api}/pokemon/cards/svp-106"), 200).await;
        Self {
            process,
            http: format!("http://127.0.0.1:{}", ports[1]),
            api,
            grpc: format!("http://127.0.0.1:{}", ports[0]),
            env,
            _state: state,
            _data: data,
        }
    }

    /// Kills the process at once (SIGKILL, a crash) and starts it again on the same ports,
    /// database and data, waiting until the sample catalog answers.
    pub async fn crash_and_restart(&mut self) {
        self.process.kill();
        self.process = Process::start(
            "all-in-one-restarted",
            self._state.path(),
            &["serve"],
            &self.env,
        );
        let url = format!("{}/pokemon/cards/svp-106", self.api);
        wait_for_http_status(&mut self.process, &url, 200).await;
    }

    /// Stops the process (SIGTERM, waiting until it exits) and starts it again on the same
    /// ports, database and data with the settings `env` changes, waiting until the sample
    /// catalog answers: an operator changing a setting.
    pub async fn restart_with(&mut self, env: &[(&str, &str)]) {
        self.process.terminate();
        self.process.wait_for_exit();
        for (key, value) in env {
            self.env.insert((*key).to_owned(), (*value).to_owned());
        }
        self.process = Process::start(
            "all-in-one-reconfigured",
            self._state.path(),
            &["serve"],
            &self.env,
        );
        let url = format!("{}/pokemon/cards/svp-106", self.api);
        wait_for_http_status(&mut self.process, &url, 200).await;
    }
}
