//! The platform starts, reports its health, lists its services and stops cleanly: all-in-one
//! with no environment, and one process per service against PostgreSQL and Redis.

use crate::support;

use std::collections::BTreeMap;

use kit::services::Service;
use support::{Process, health, reflected_services, wait_for_http_status, wait_until_serving};
use tonic_health::pb::health_check_response::ServingStatus;

const INFRASTRUCTURE: [&str; 3] = [
    "grpc.health.v1.Health",
    "grpc.reflection.v1.ServerReflection",
    "grpc.reflection.v1alpha.ServerReflection",
];

fn expected_services(services: &[Service]) -> Vec<String> {
    let mut names: Vec<String> = services
        .iter()
        .map(|service| service.proto_name().to_owned())
        .chain(INFRASTRUCTURE.iter().map(|name| (*name).to_owned()))
        .collect();
    names.sort();
    names
}

/// The one test that uses the default ports (50051 and 8080): `turnier serve` exactly as a
/// developer runs it, with no environment at all.
#[tokio::test(flavor = "multi_thread")]
async fn all_in_one_serves_everything_with_no_environment_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().expect("temp dir");
    // No command at all: what `cargo run --release` runs.
    let mut turnier = Process::start("all-in-one", dir.path(), &[], &BTreeMap::new());
    let grpc = "http://127.0.0.1:50051";

    for service in Service::ALL {
        wait_until_serving(&mut turnier, grpc, service.proto_name()).await;
    }
    // Search says SERVING only once every game's index is built: the first search after a
    // start does not pay for it.
    assert!(
        turnier.log().contains("search indexes warm"),
        "{}",
        turnier.log()
    );
    assert_eq!(health(grpc, "").await, Ok(ServingStatus::Serving));
    assert_eq!(
        reflected_services(grpc).await,
        expected_services(&Service::ALL)
    );

    let ready = wait_for_http_status(&mut turnier, "http://127.0.0.1:8080/readyz", 200).await;
    let ready: serde_json::Value = serde_json::from_str(&ready).expect("readyz is JSON");
    for service in Service::ALL {
        assert_eq!(ready["services"][service.name()], "SERVING", "{ready}");
    }
    wait_for_http_status(&mut turnier, "http://127.0.0.1:8080/healthz", 200).await;
    let metrics = wait_for_http_status(&mut turnier, "http://127.0.0.1:8080/metrics", 200).await;
    assert!(
        metrics.contains("turnier_grpc_requests_total"),
        "the health checks above are counted: {metrics}"
    );

    // The embedded database lives in the working folder's state directory.
    assert!(dir.path().join(".turnier/turnier.db").exists());

    turnier.terminate();
    let status = turnier.wait_for_exit();
    assert!(
        status.success(),
        "exit on SIGTERM: {status}; log:\n{}",
        turnier.log()
    );
    assert!(
        turnier.log().contains("shut down cleanly"),
        "{}",
        turnier.log()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn health_turns_not_serving_before_the_process_exits_on_sigterm() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ports = support::free_ports(2);
    let grpc_port = ports[0];
    let env = BTreeMap::from([
        (
            "TURNIER_GRPC_ADDR".to_owned(),
            format!("127.0.0.1:{grpc_port}"),
        ),
        (
            "TURNIER_HTTP_ADDR".to_owned(),
            format!("127.0.0.1:{}", ports[1]),
        ),
        // Long enough to observe NOT_SERVING; the process still exits on its own after it.
        ("TURNIER_SHUTDOWN_DELAY_SECS".to_owned(), "3".to_owned()),
    ]);
    let mut turnier = Process::start("all-in-one", dir.path(), &["serve"], &env);
    let grpc = format!("http://127.0.0.1:{grpc_port}");
    wait_until_serving(&mut turnier, &grpc, Service::Decks.proto_name()).await;

    turnier.terminate();
    let started = std::time::Instant::now();
    loop {
        match health(&grpc, Service::Decks.proto_name()).await {
            Ok(ServingStatus::NotServing) => break,
            Ok(ServingStatus::Serving) => {}
            other => panic!(
                "expected NOT_SERVING while draining, got {other:?}; log:\n{}",
                turnier.log()
            ),
        }
        assert!(started.elapsed() < support::DEADLINE, "never NOT_SERVING");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let status = turnier.wait_for_exit();
    assert!(
        status.success(),
        "exit on SIGTERM: {status}; log:\n{}",
        turnier.log()
    );
}

/// What each Kubernetes Deployment runs: one process per service and the gateway, on the real
/// PostgreSQL and Redis of the machine.
#[tokio::test(flavor = "multi_thread")]
async fn one_process_per_service_against_postgres_and_redis_and_readiness_follows_them() {
    let database = kit::testing::TestDatabase::postgres().await;
    let dir = tempfile::tempdir().expect("temp dir");
    // Every port this test needs, chosen at once so none is handed out twice.
    let mut spare = support::free_ports(2 * Service::ALL.len() + 2);
    // The queue's keys, under a prefix of this test's, deleted when it ends.
    let redis = kit::testing::TestRedisPrefix::new("serve-split");
    let ports: BTreeMap<Service, u16> = Service::ALL
        .iter()
        .map(|s| (*s, spare.pop().expect("enough ports")))
        .collect();

    let mut env = BTreeMap::from([
        ("DATABASE_URL".to_owned(), database.url().to_owned()),
        ("REDIS_URL".to_owned(), redis.url().to_owned()),
        ("TURNIER_QUEUE_PREFIX".to_owned(), redis.prefix().to_owned()),
        // What the manifests give every process from the Secret.
        (
            "TURNIER_INTERNAL_KEY".to_owned(),
            "split-test-0123456789abcdef0123456789abcdef".to_owned(),
        ),
        ("TURNIER_SIGN_IN_FAILURES".to_owned(), "3".to_owned()),
        (
            "TURNIER_HTTP_ADDR".to_owned(),
            format!("127.0.0.1:{}", spare.pop().expect("enough ports")),
        ),
    ]);
    for (service, port) in &ports {
        env.insert(
            service.url_env().to_owned(),
            format!("http://127.0.0.1:{port}"),
        );
    }

    // Migrate once, as the Helm hook does, then start every role.
    let migrate = support::run(
        dir.path(),
        &["migrate"],
        &env.iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect::<Vec<_>>(),
    );
    assert!(
        migrate.status.success(),
        "migrate: {}",
        String::from_utf8_lossy(&migrate.stderr)
    );

    let mut processes = BTreeMap::new();
    for (service, port) in &ports {
        let mut env = env.clone();
        env.insert("TURNIER_GRPC_ADDR".to_owned(), format!("127.0.0.1:{port}"));
        env.insert(
            "TURNIER_METRICS_ADDR".to_owned(),
            format!("127.0.0.1:{}", spare.pop().expect("enough ports")),
        );
        env.insert("TURNIER_MIGRATE_ON_START".to_owned(), "false".to_owned());
        let process = Process::start(
            service.name(),
            dir.path(),
            &["serve", "--only", service.name()],
            &env,
        );
        processes.insert(*service, process);
    }
    let http = format!("http://{}", env["TURNIER_HTTP_ADDR"]);
    let mut gateway = Process::start("gateway", dir.path(), &["serve", "--only", "gateway"], &env);
    // The submission worker as its own process: no gRPC, its metrics on a port of its own.
    let worker_metrics = format!("127.0.0.1:{}", spare.pop().expect("enough ports"));
    let mut worker = {
        let mut env = env.clone();
        env.insert("TURNIER_METRICS_ADDR".to_owned(), worker_metrics.clone());
        env.insert("TURNIER_MIGRATE_ON_START".to_owned(), "false".to_owned());
        Process::start("worker", dir.path(), &["serve", "--only", "worker"], &env)
    };

    for (service, port) in &ports {
        let url = format!("http://127.0.0.1:{port}");
        let process = processes.get_mut(service).expect("started above");
        wait_until_serving(process, &url, service.proto_name()).await;
        assert_eq!(
            reflected_services(&url).await,
            expected_services(&[*service]),
            "{service}"
        );
    }
    let ready = wait_for_http_status(&mut gateway, &format!("{http}/readyz"), 200).await;
    assert!(ready.contains("\"ready\""), "{ready}");
    wait_for_http_status(
        &mut worker,
        &format!("http://{worker_metrics}/metrics"),
        200,
    )
    .await;
    lineup_checked_by_the_worker(&format!("{http}/api/v1")).await;
    worker.assert_running();
    let accounts = format!("http://127.0.0.1:{}", ports[&Service::Accounts]);
    sign_in_failures_over_http_hold_over_grpc(&format!("{http}/api/v1"), &accounts).await;

    // A service dies: readiness turns 503 and names it.
    processes
        .get_mut(&Service::Catalog)
        .expect("started above")
        .kill();
    let not_ready = wait_for_http_status(&mut gateway, &format!("{http}/readyz"), 503).await;
    let body: serde_json::Value = serde_json::from_str(&not_ready).expect("readyz is JSON");
    assert_eq!(body["services"]["catalog"], "UNREACHABLE", "{body}");
    assert_eq!(body["services"]["search"], "SERVING", "{body}");
    assert!(not_ready.contains("catalog"), "{not_ready}");

    // The rest shut down cleanly.
    for (service, process) in &mut processes {
        if *service == Service::Catalog {
            continue;
        }
        process.terminate();
        let status = process.wait_for_exit();
        assert!(status.success(), "{service}: {status}\n{}", process.log());
    }
    gateway.terminate();
    assert!(gateway.wait_for_exit().success(), "{}", gateway.log());
    worker.terminate();
    assert!(worker.wait_for_exit().success(), "{}", worker.log());
    assert!(
        worker.log().contains("lineup checked"),
        "the worker process checked the lineup: {}",
        worker.log()
    );
}

/// Issue 35, defect 2, across processes: failed sign-ins made through the gateway process
/// hold the username at the accounts process's own gRPC port (the counts are in Redis), even
/// with the right password.
async fn sign_in_failures_over_http_hold_over_grpc(api: &str, accounts: &str) {
    use proto::accounts::v1::SignInRequest;
    use proto::accounts::v1::account_service_client::AccountServiceClient;
    use serde_json::json;
    let client = reqwest::Client::new();
    crate::ownership::sign_up(&client, api, "split-ana").await;
    for _ in 0..3 {
        let status = client
            .post(format!("{api}/sessions"))
            .json(&json!({"username": "split-ana", "password": "not the password"}))
            .send()
            .await
            .expect("answers")
            .status();
        assert_eq!(status.as_u16(), 401);
    }
    let mut grpc = AccountServiceClient::connect(accounts.to_owned())
        .await
        .expect("connects");
    let refused = grpc
        .sign_in(SignInRequest {
            username: "split-ana".to_owned(),
            password: "correct horse battery".to_owned(),
        })
        .await
        .expect_err("held over gRPC too");
    assert_eq!(
        refused.code(),
        tonic::Code::ResourceExhausted,
        "{refused:?}"
    );
}

/// A lineup submitted through the gateway gets a verdict from the worker process (through
/// the job queue in Redis): a deck that does not read is rejected, naming the deck.
async fn lineup_checked_by_the_worker(api: &str) {
    use crate::ownership::{send, session};
    use serde_json::json;
    let client = reqwest::Client::new();
    let organizer = session(&client, api, "split-org").await;
    let (status, created) = send(
        client
            .post(format!("{api}/lor/tournaments"))
            .json(&json!({"name": "Split", "stages": [{"format": "swiss"}]})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["tournament"]["id"].as_str().expect("id").to_owned();
    let (status, body) = send(
        client
            .patch(format!("{api}/tournaments/{id}"))
            .json(&json!({"deckSettings": {}})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, registered) = send(
        client
            .post(format!("{api}/tournaments/{id}/registrations"))
            .json(&json!({"displayName": "Walk-in"})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 201, "{registered}");
    let url = format!("{api}/tournaments/{id}/registrations/r1/lineup");
    let (status, submitted) = send(
        client
            .put(&url)
            .json(&json!({"decks": ["not a deck code"]})),
        Some(&organizer),
    )
    .await;
    assert_eq!(status, 202, "{submitted}");
    for _ in 0..300 {
        let (status, body) = send(client.get(&url), Some(&organizer)).await;
        assert_eq!(status, 200, "{body}");
        if body["submission"]["state"] != "pending" {
            assert_eq!(body["submission"]["state"], "rejected", "{body}");
            let first = body["submission"]["issues"][0].as_str().unwrap_or_default();
            assert!(first.starts_with("Deck 1: "), "{body}");
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no verdict from the worker in 30 s");
}
