//! What a hostile neighbour could take from a running all-in-one process: its state files, and
//! its gRPC port's memory. The state folder, the SQLite database (with its `-wal` and `-shm`)
//! and the webhook key are readable by their owner only; a caller without a token may send
//! only small gRPC messages, whatever a service accepts from an account.

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;

use proto::scripts::v1::CheckScriptRequest;
use proto::scripts::v1::script_service_client::ScriptServiceClient;

use crate::support::SamplePlatform;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|err| panic!("{}: {err}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

#[tokio::test(flavor = "multi_thread")]
async fn the_state_folder_database_and_webhook_key_are_made_for_their_owner_only() {
    let platform = SamplePlatform::start().await;
    // The process runs in its own folder with the default state folder, `.turnier`.
    let state = platform.state_dir().join(".turnier");
    assert_eq!(mode(&state), 0o700, "the state folder");
    // The sample catalog was written before the platform answered: the WAL files exist.
    for file in [
        "turnier.db",
        "turnier.db-wal",
        "turnier.db-shm",
        "webhook.key",
    ] {
        assert_eq!(mode(&state.join(file)), 0o600, "{file}");
    }
}

/// A `CheckScript` request of `bytes` bytes of source, with `token` as its bearer if any.
fn check_script(bytes: usize, token: Option<&str>) -> tonic::Request<CheckScriptRequest> {
    let mut request = tonic::Request::new(CheckScriptRequest {
        source: format!("// {}", "x".repeat(bytes)),
    });
    if let Some(token) = token {
        request.metadata_mut().insert(
            "authorization",
            format!("Bearer {token}").parse().expect("ASCII"),
        );
    }
    request
}

#[tokio::test(flavor = "multi_thread")]
async fn an_anonymous_grpc_caller_may_not_send_what_an_account_may() {
    let platform = SamplePlatform::start().await;
    let signed_up: serde_json::Value = reqwest::Client::new()
        .post(format!("{}/accounts", platform.api))
        .json(&serde_json::json!({"username": "big-sender", "password": "correct horse battery"}))
        .send()
        .await
        .expect("an answer")
        .json()
        .await
        .expect("JSON");
    let token = signed_up["token"].as_str().expect("a session token");
    let channel = tonic::transport::Endpoint::from_shared(platform.grpc.clone())
        .expect("a URL")
        .connect()
        .await
        .expect("connects");
    let mut scripts = ScriptServiceClient::new(channel)
        .max_encoding_message_size(usize::MAX)
        .max_decoding_message_size(usize::MAX);
    let eight_mib = 8 << 20;

    let refused = scripts
        .check_script(check_script(eight_mib, None))
        .await
        .expect_err("8 MiB without a token");
    assert_eq!(refused.code(), tonic::Code::OutOfRange, "{refused:?}");
    let refused = kit::status::ServiceError::from(refused);
    assert_eq!(refused.reason, "message_too_large", "{refused}");
    assert_eq!(
        refused.metadata().get("limit").map(String::as_str),
        Some("4194304")
    );

    // With a token the scripts service's own limit applies: the message reaches the service,
    // whatever it then says of such a script.
    let answered = scripts
        .check_script(check_script(eight_mib, Some(token)))
        .await;
    if let Err(status) = answered {
        let error = kit::status::ServiceError::from(status);
        assert_ne!(error.reason, "message_too_large", "{error}");
    }
    // A small message needs no token.
    scripts
        .check_script(check_script(10, None))
        .await
        .expect("a small script is checked for anyone");
}
