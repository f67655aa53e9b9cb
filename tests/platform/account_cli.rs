//! `turnier account create` and `turnier account token` on the command line, against the local
//! database of a temporary folder, and the tokens they make accepted by the platform served
//! over that same database.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

use crate::support;

use kit::auth::Bearer;
use kit::clients::AccountsClient;
use kit::services::Service;
use proto::accounts::v1 as pb;
use support::{Process, run, run_with_stdin, wait_until_serving};

const PASSWORD: &str = "correct horse battery staple";

fn create(dir: &Path, username: &str, stdin: &str) -> Output {
    run_with_stdin(
        dir,
        &["account", "create", "--username", username],
        &[],
        stdin,
    )
}

fn json(output: &Output) -> serde_json::Value {
    assert!(
        output.status.success(),
        "exit {}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("stdout is JSON")
}

fn refused(output: &Output) -> String {
    assert!(!output.status.success(), "expected a failure");
    assert!(output.stdout.is_empty(), "nothing on stdout");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn is_rfc3339_utc(text: &serde_json::Value) -> bool {
    text.as_str()
        .and_then(|text| {
            text.parse::<jiff::Timestamp>()
                .ok()
                .map(|_| text.ends_with('Z'))
        })
        .unwrap_or(false)
}

#[test]
fn account_create_reads_the_password_from_stdin_and_prints_the_account() {
    let dir = tempfile::tempdir().expect("temp dir");
    let made = json(&create(dir.path(), "Ana", &format!("{PASSWORD}\n")));
    let account = &made["account"];
    assert!(
        account["id"]
            .as_str()
            .is_some_and(|id| id.starts_with("acc_")),
        "{made}"
    );
    assert_eq!(account["username"], "Ana");
    assert!(is_rfc3339_utc(&account["createTime"]), "{made}");
    assert_eq!(made.as_object().map(|o| o.len()), Some(1), "{made}");

    let taken = refused(&create(dir.path(), "ana", &format!("{PASSWORD}\n")));
    assert!(taken.contains("the username `ana` is taken"), "{taken}");
    let short = refused(&create(dir.path(), "Bob", "short\n"));
    assert!(
        short.contains("invalid password: 10 to 1,024 characters"),
        "{short}"
    );
    let bad_name = refused(&create(dir.path(), "_bob", &format!("{PASSWORD}\n")));
    assert!(bad_name.contains("invalid username"), "{bad_name}");

    // The database holds a hash, never the password.
    let db = std::fs::read_dir(dir.path().join(".turnier"))
        .expect("the state folder")
        .flat_map(|entry| std::fs::read(entry.expect("an entry").path()).unwrap_or_default())
        .collect::<Vec<u8>>();
    assert!(!db.windows(PASSWORD.len()).any(|w| w == PASSWORD.as_bytes()));
}

#[test]
fn account_token_makes_a_named_scoped_api_token_and_refuses_bad_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    json(&create(dir.path(), "Ana", &format!("{PASSWORD}\n")));
    let token = |args: &[&str]| {
        let mut all = vec!["account", "token"];
        all.extend_from_slice(args);
        run(dir.path(), &all, &[])
    };
    let made = json(&token(&[
        "--username",
        "ANA",
        "--scopes",
        "read,write",
        "--name",
        "CI",
        "--expire-time",
        "2099-01-01T00:00:00Z",
    ]));
    assert!(
        made["token"]
            .as_str()
            .is_some_and(|t| t.starts_with("tnp_")),
        "{made}"
    );
    let api_token = &made["apiToken"];
    assert!(
        api_token["id"]
            .as_str()
            .is_some_and(|id| id.starts_with("tok_"))
    );
    assert_eq!(api_token["name"], "CI");
    assert_eq!(api_token["scopes"], serde_json::json!(["read", "write"]));
    assert!(is_rfc3339_utc(&api_token["createTime"]), "{made}");
    assert_eq!(api_token["expireTime"], "2099-01-01T00:00:00Z");

    let plain = json(&token(&["--username", "Ana", "--scopes", "read"]));
    assert_eq!(plain["apiToken"]["scopes"], serde_json::json!(["read"]));
    assert!(plain["apiToken"].get("expireTime").is_none(), "{plain}");
    assert!(plain["apiToken"]["name"].is_string());

    for (args, message) in [
        (
            &["--username", "bob", "--scopes", "read"][..],
            "no user `bob`",
        ),
        (
            &["--username", "Ana", "--scopes", "admin"][..],
            "invalid scopes",
        ),
        (&["--username", "Ana", "--scopes", ""][..], "invalid scopes"),
        (
            &[
                "--username",
                "Ana",
                "--scopes",
                "read",
                "--expire-time",
                "2001-01-01T00:00:00Z",
            ][..],
            "invalid expire_time",
        ),
        (
            &[
                "--username",
                "Ana",
                "--scopes",
                "read",
                "--expire-time",
                "tomorrow",
            ][..],
            "invalid expire_time",
        ),
        (
            &["--username", "Ana", "--scopes", "read", "--name", ""][..],
            "invalid name",
        ),
    ] {
        let stderr = refused(&token(args));
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

/// The accounts the command line makes are the platform's: served over the same database,
/// the password signs in and the API token verifies, through the one verifier of the
/// all-in-one process (the accounts client on its own port).
#[tokio::test(flavor = "multi_thread")]
async fn what_the_command_line_makes_the_platform_accepts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = tempfile::tempdir().expect("temp dir");
    // A line ending of either kind is not part of the password.
    json(&create(dir.path(), "Ana", &format!("{PASSWORD}\r\n")));
    let made = json(&run(
        dir.path(),
        &["account", "token", "--username", "Ana", "--scopes", "read"],
        &[],
    ));
    let api_token = made["token"].as_str().expect("a token").to_owned();

    let ports = support::free_ports(2);
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
    ]);
    let mut turnier = Process::start("all-in-one", dir.path(), &["serve"], &env);
    let grpc = format!("http://127.0.0.1:{}", ports[0]);
    wait_until_serving(&mut turnier, &grpc, Service::Accounts.proto_name()).await;

    let client = AccountsClient::connect_lazy(&grpc).expect("a valid URL");
    let session = client
        .sign_in(pb::SignInRequest {
            username: "ana".to_owned(),
            password: PASSWORD.to_owned(),
        })
        .await
        .expect("the password from stdin signs in");
    let me = client
        .with_bearer(Some(Bearer::new(api_token.clone())))
        .get_me()
        .await
        .expect("the API token is accepted");
    assert_eq!(me.account.expect("account").username, "Ana");
    let tokens = client
        .with_bearer(Some(Bearer::new(session.token)))
        .list_api_tokens()
        .await
        .expect("listed");
    assert_eq!(tokens.api_tokens.len(), 1);
    assert!(tokens.api_tokens[0].last_use_time.is_some());
    assert!(!turnier.log().contains(&api_token), "a token in the log");
    assert!(!turnier.log().contains(PASSWORD), "a password in the log");
}
