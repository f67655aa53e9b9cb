//! The service over real gRPC under a flood of endless loops: one caller cannot take every
//! sandbox slot, a request that finds none is told `busy` instead of waiting long, and a run
//! stops when its caller goes away, when its deadline passes, or when the service halts.
//!
//! Each test serves its own `Api` on `127.0.0.1:0` and waits for events (slots held, an
//! answer), polling with a deadline. The bounds on time are the script's own limit (15 s): a
//! run that outlives its caller would hold its slot that long.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use kit::caller::CALLER_METADATA;
use kit::services::Service;
use proto::scripts::v1 as pb;
use proto::scripts::v1::script_service_client::ScriptServiceClient;
use scripts::grpc::Api;
use tonic::transport::Channel;
use tonic::{Code, Request, Status};
use tonic_types::StatusExt as _;

/// An endless loop: it only ever ends by being stopped.
const ENDLESS: &str = "export default function () { while (true) {} }";

/// A rule that answers at once.
const TRIVIAL: &str = "export default function (card) { return card.ok === true; }";

/// Far below a rule's time limit (15 s): a run still going after this was not stopped.
const PROMPTLY: Duration = Duration::from_secs(10);

fn settings(concurrency: u32, queue_wait_ms: u64) -> scripts::Settings {
    scripts::Settings {
        concurrency,
        memory_mib: 64,
        caller_share: None,
        queue: None,
        queue_wait_ms,
        compile_cache: None,
    }
}

/// Serves `api` on a free port; returns a client connected to it.
async fn serve(api: &Api) -> ScriptServiceClient<Channel> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port");
    let addr: SocketAddr = listener.local_addr().expect("bound");
    let mut routes = tonic::service::RoutesBuilder::default();
    routes.add_service(scripts::grpc::server(api.clone()));
    tokio::spawn(kit::server::serve(
        listener,
        &[Service::Scripts],
        routes,
        kit::server::ShutdownTiming::default(),
        kit::server::Readiness::default(),
        kit::shutdown::Shutdown::new(),
        kit::auth::AuthLayer::without_accounts(),
    ));
    // The sandbox is created before the first request, so that no wait below includes it.
    api.warm_up().await.expect("the sandbox starts");
    ScriptServiceClient::connect(format!("http://{addr}"))
        .await
        .expect("the server is listening")
}

/// A card rule request for `caller` (the address the gateway would name).
fn rule(source: &str, caller: &str) -> Request<pb::RunCardRuleRequest> {
    let mut request = Request::new(pb::RunCardRuleRequest {
        script: Some(pb::Script {
            script: Some(pb::script::Script::Source(source.to_owned())),
        }),
        card_json: r#"{"ok": true}"#.to_owned(),
        context_json: None,
    });
    request
        .metadata_mut()
        .insert(CALLER_METADATA, caller.parse().expect("ASCII"));
    // As the gateway's calls do: a named address is believed on an internal call only.
    kit::internal::mark_internal(request.metadata_mut());
    request
}

/// Starts an endless loop for `caller` in the background; dropping (aborting) the task is the
/// caller going away.
fn endless(
    client: &ScriptServiceClient<Channel>,
    caller: &str,
) -> tokio::task::JoinHandle<Result<pb::RuleRunResponse, Status>> {
    let mut client = client.clone();
    let request = rule(ENDLESS, caller);
    tokio::spawn(async move {
        client
            .run_card_rule(request)
            .await
            .map(tonic::Response::into_inner)
    })
}

/// Waits until `held` slots are taken.
async fn wait_for_held(api: &Api, held: usize) {
    let started = Instant::now();
    while api.slots_held() != held {
        assert!(
            started.elapsed() < PROMPTLY,
            "{} slots held, expected {held}",
            api.slots_held()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn reason(status: &Status) -> String {
    status
        .get_error_details()
        .error_info()
        .map(|info| info.reason.clone())
        .unwrap_or_default()
}

fn assert_busy(status: &Status) {
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert_eq!(reason(status), "busy", "{status:?}");
    let details = status.get_error_details();
    let info = details.error_info().expect("an ErrorInfo");
    assert_eq!(
        info.metadata.get("retry_after_ms").map(String::as_str),
        Some("1000")
    );
    assert!(
        status.message().starts_with("the sandbox is busy"),
        "{status:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_flooding_caller_gets_its_share_and_a_clear_busy_while_others_still_run() {
    // Four slots, two per signed-in caller and one per anonymous address, four waiting: the
    // defaults on a 2-core machine. The flood comes from an address, with no account.
    let api = Api::new(settings(4, 500));
    let client = serve(&api).await;

    let flood: Vec<_> = (0..10).map(|_| endless(&client, "10.0.0.1")).collect();
    wait_for_held(&api, 1).await;

    // Another caller runs at once, in a slot the flood cannot take.
    let mut other = client.clone();
    let answer = other
        .run_card_rule(rule(TRIVIAL, "10.0.0.2"))
        .await
        .expect("another caller is not kept waiting");
    assert_eq!(
        answer.into_inner().result.and_then(|result| result.valid),
        Some(true)
    );

    // One of the flood runs, one waits 500 ms for a slot of its caller's, eight are refused at
    // once: nine are answered `busy`, long before any loop's limit.
    let started = Instant::now();
    while flood.iter().filter(|task| task.is_finished()).count() < 9 {
        assert!(started.elapsed() < PROMPTLY, "the flood is kept waiting");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut running = Vec::new();
    for task in flood {
        if task.is_finished() {
            let status = task.await.expect("no panic").expect_err("refused");
            assert_busy(&status);
        } else {
            running.push(task);
        }
    }
    assert_eq!(running.len(), 1);
    assert_eq!(api.slots_held(), 1);
    for task in &running {
        task.abort();
    }
    wait_for_held(&api, 0).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_caller_that_goes_away_stops_its_run() {
    let api = Api::new(settings(2, 500));
    let client = serve(&api).await;

    let gone = endless(&client, "10.0.0.1");
    wait_for_held(&api, 1).await;
    gone.abort();
    // Without cancellation the loop would hold its slot for its whole 15 s limit.
    wait_for_held(&api, 0).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_stops_when_its_deadline_passes() {
    let api = Api::new(settings(2, 500));
    let mut client = serve(&api).await;

    let mut request = rule(ENDLESS, "10.0.0.1");
    request.set_timeout(Duration::from_millis(500));
    let status = client
        .run_card_rule(request)
        .await
        .expect_err("the deadline passes first");
    // tonic answers for the server when the deadline passes; the run must stop with it.
    assert!(
        matches!(status.code(), Code::Cancelled | Code::DeadlineExceeded),
        "{status:?}"
    );
    wait_for_held(&api, 0).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wait_that_would_outlast_the_deadline_is_answered_busy_before_it() {
    // One slot, and a long queue wait: only the deadline can end the wait.
    let api = Api::new(settings(1, 60_000));
    let mut client = serve(&api).await;
    let holder = endless(&client, "10.0.0.1");
    wait_for_held(&api, 1).await;

    let mut request = rule(TRIVIAL, "10.0.0.2");
    request.set_timeout(Duration::from_secs(2));
    let status = client
        .run_card_rule(request)
        .await
        .expect_err("the only slot stays taken");
    assert_busy(&status);

    holder.abort();
    wait_for_held(&api, 0).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn halting_stops_the_runs_in_flight_and_refuses_new_ones() {
    let api = Api::new(settings(2, 500));
    let mut client = serve(&api).await;
    let running = endless(&client, "10.0.0.1");
    wait_for_held(&api, 1).await;

    let halted = Instant::now();
    api.halt();
    let status = running
        .await
        .expect("no panic")
        .expect_err("the run is stopped");
    assert!(halted.elapsed() < PROMPTLY, "{:?}", halted.elapsed());
    assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    assert_eq!(reason(&status), "shutting_down");
    assert_eq!(api.slots_held(), 0);

    let status = client
        .run_card_rule(rule(TRIVIAL, "10.0.0.2"))
        .await
        .expect_err("nothing runs after a halt");
    assert_eq!(reason(&status), "shutting_down");
}
