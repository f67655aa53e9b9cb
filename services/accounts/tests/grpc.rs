//! The accounts service over real gRPC, behind the auth layer every server runs, verifying
//! through its own `VerifyToken`: the answers a client reads, and the holes they must not open.

use accounts::secrets::Passwords;
use kit::auth::{REASON_INVALID_TOKEN, REASON_UNAUTHENTICATED};
use kit::clients::ServiceError;
use kit::testing::TestDatabase;
use proto::accounts::v1 as pb;
use tonic::Code;

use crate::support::{Served, cheap_passwords, serve, store};

const PASSWORD: &str = "correct horse battery staple";

async fn served(database: &TestDatabase, passwords: Passwords) -> Served {
    serve(store(database).await, passwords).await
}

async fn sign_up(served: &Served, username: &str) -> pb::SessionResponse {
    served
        .client
        .create_account(pb::CreateAccountRequest {
            username: username.to_owned(),
            password: PASSWORD.to_owned(),
        })
        .await
        .expect("signed up")
}

async fn api_token(
    served: &Served,
    session: &str,
    scopes: &[pb::Scope],
) -> pb::CreateApiTokenResponse {
    served
        .with_token(session)
        .create_api_token(pb::CreateApiTokenRequest {
            name: "bot".to_owned(),
            scopes: scopes.iter().map(|scope| (*scope).into()).collect(),
            expire_time: None,
        })
        .await
        .expect("made")
}

fn assert_refused(err: &ServiceError, code: Code, reason: &str) {
    assert_eq!((err.code, err.reason.as_str()), (code, reason), "{err:?}");
}

#[tokio::test]
async fn an_unknown_user_and_a_wrong_password_get_the_same_answer() {
    let database = TestDatabase::sqlite();
    // The real parameters: the dummy hash an unknown user is checked against is made with them.
    let served = served(&database, Passwords::owasp()).await;
    sign_up(&served, "Ana").await;
    let sign_in = |username: &str, password: &str| {
        served.client.sign_in(pb::SignInRequest {
            username: username.to_owned(),
            password: password.to_owned(),
        })
    };
    let wrong_password = sign_in("Ana", "not the password at all")
        .await
        .expect_err("refused");
    let unknown_user = sign_in("Nobody", PASSWORD).await.expect_err("refused");
    let too_long_to_be_a_name = sign_in(&"x".repeat(100), PASSWORD)
        .await
        .expect_err("refused");
    for err in [&wrong_password, &unknown_user, &too_long_to_be_a_name] {
        assert_refused(
            err,
            Code::Unauthenticated,
            accounts::REASON_WRONG_CREDENTIALS,
        );
        assert_eq!(err.message, wrong_password.message);
        assert_eq!(err.metadata(), wrong_password.metadata());
    }
    assert_eq!(wrong_password.message, "wrong username or password");

    let session = sign_in("ana", PASSWORD).await.expect("signed in");
    assert_eq!(session.account.expect("account").username, "Ana");
}

#[tokio::test]
async fn a_session_token_with_the_api_prefix_is_not_a_token() {
    let database = TestDatabase::sqlite();
    let served = served(&database, cheap_passwords()).await;
    let session = sign_up(&served, "Ana").await;
    let verified = served
        .client
        .verify_token(&session.token)
        .await
        .expect("valid");
    assert_eq!(verified.kind(), pb::TokenKind::Session);
    assert_eq!(
        verified.scopes().collect::<Vec<_>>(),
        [pb::Scope::Read, pb::Scope::Write]
    );
    assert_eq!(verified.expire_time, session.expire_time);

    let swapped = session.token.replacen("tns_", "tnp_", 1);
    let err = served
        .client
        .verify_token(&swapped)
        .await
        .expect_err("refused");
    assert_refused(&err, Code::Unauthenticated, REASON_INVALID_TOKEN);
    // Nor does it pass as a bearer.
    let err = served
        .with_token(&swapped)
        .get_me()
        .await
        .expect_err("refused");
    assert_refused(&err, Code::Unauthenticated, REASON_INVALID_TOKEN);
    for junk in ["", "tns_", "tns_short", "Bearer x", &"tns_".repeat(200)] {
        let err = served.client.verify_token(junk).await.expect_err("refused");
        assert_refused(&err, Code::Unauthenticated, REASON_INVALID_TOKEN);
    }
}

#[tokio::test]
async fn a_revoked_api_token_stops_working_and_others_cannot_revoke_it() {
    let database = TestDatabase::sqlite();
    let served = served(&database, cheap_passwords()).await;
    let ana = sign_up(&served, "Ana").await;
    let bob = sign_up(&served, "Bob").await;
    let made = api_token(&served, &ana.token, &[pb::Scope::Read]).await;
    assert!(made.token.starts_with("tnp_"));
    let listed = made.api_token.expect("token");
    assert!(listed.id.starts_with("tok_"));

    let verified = served
        .client
        .verify_token(&made.token)
        .await
        .expect("valid");
    assert_eq!(verified.kind(), pb::TokenKind::Api);
    assert_eq!(verified.scopes().collect::<Vec<_>>(), [pb::Scope::Read]);
    let me = served
        .with_token(&made.token)
        .get_me()
        .await
        .expect("valid");
    assert_eq!(me.account.expect("account").username, "Ana");

    let list = served
        .with_token(&ana.token)
        .list_api_tokens()
        .await
        .expect("listed");
    assert_eq!(list.api_tokens.len(), 1);
    assert_eq!(list.api_tokens[0].id, listed.id);
    assert!(list.api_tokens[0].last_use_time.is_some(), "verified above");

    let err = served
        .with_token(&bob.token)
        .revoke_api_token(&listed.id)
        .await
        .expect_err("not Bob's");
    assert_refused(&err, Code::NotFound, "not_found");
    served
        .with_token(&ana.token)
        .revoke_api_token(&listed.id)
        .await
        .expect("revoked");
    let err = served
        .client
        .verify_token(&made.token)
        .await
        .expect_err("revoked");
    assert_refused(&err, Code::Unauthenticated, REASON_INVALID_TOKEN);
    // The server's cache was told at once.
    let err = served
        .with_token(&made.token)
        .get_me()
        .await
        .expect_err("revoked");
    assert_refused(&err, Code::Unauthenticated, REASON_INVALID_TOKEN);
    let list = served
        .with_token(&ana.token)
        .list_api_tokens()
        .await
        .expect("listed");
    assert!(list.api_tokens.is_empty());
    let err = served
        .with_token(&ana.token)
        .revoke_api_token(&listed.id)
        .await
        .expect_err("gone");
    assert_refused(&err, Code::NotFound, "not_found");
}

#[tokio::test]
async fn sign_out_ends_the_session_and_refuses_an_api_token() {
    let database = TestDatabase::sqlite();
    let served = served(&database, cheap_passwords()).await;
    let ana = sign_up(&served, "Ana").await;
    let made = api_token(&served, &ana.token, &[pb::Scope::Read, pb::Scope::Write]).await;
    let err = served
        .with_token(&made.token)
        .sign_out()
        .await
        .expect_err("an API token");
    assert_refused(
        &err,
        Code::FailedPrecondition,
        accounts::REASON_NOT_A_SESSION,
    );
    assert!(err.message.contains("revoke"), "{}", err.message);

    served
        .with_token(&ana.token)
        .sign_out()
        .await
        .expect("signed out");
    let err = served
        .with_token(&ana.token)
        .get_me()
        .await
        .expect_err("ended");
    assert_refused(&err, Code::Unauthenticated, REASON_INVALID_TOKEN);
    let err = served
        .client
        .verify_token(&ana.token)
        .await
        .expect_err("ended");
    assert_refused(&err, Code::Unauthenticated, REASON_INVALID_TOKEN);
    // The API token lives on.
    served
        .with_token(&made.token)
        .get_me()
        .await
        .expect("still valid");
    let err = served.client.sign_out().await.expect_err("anonymous");
    assert_refused(&err, Code::Unauthenticated, REASON_UNAUTHENTICATED);
}

#[tokio::test]
async fn methods_for_the_caller_need_an_account_and_token_management_a_session() {
    let database = TestDatabase::sqlite();
    let served = served(&database, cheap_passwords()).await;
    let ana = sign_up(&served, "Ana").await;
    let read_only = api_token(&served, &ana.token, &[pb::Scope::Read])
        .await
        .token;
    let write_only = api_token(&served, &ana.token, &[pb::Scope::Write])
        .await
        .token;

    for err in [
        served.client.get_me().await.expect_err("anonymous"),
        served
            .client
            .list_api_tokens()
            .await
            .expect_err("anonymous"),
        served
            .client
            .revoke_api_token("tok_x")
            .await
            .expect_err("anonymous"),
        served
            .client
            .create_api_token(pb::CreateApiTokenRequest::default())
            .await
            .expect_err("anonymous"),
    ] {
        assert_refused(&err, Code::Unauthenticated, REASON_UNAUTHENTICATED);
    }
    let request = pb::CreateApiTokenRequest {
        name: "more".to_owned(),
        scopes: vec![pb::Scope::Read.into()],
        expire_time: None,
    };
    // API tokens are managed from a session only: no token, whatever its scopes, mints,
    // lists or revokes one (issue 35).
    for token in [&read_only, &write_only] {
        let err = served
            .with_token(token)
            .create_api_token(request.clone())
            .await
            .expect_err("an API token");
        assert_refused(&err, Code::PermissionDenied, "session_required");
        let err = served
            .with_token(token)
            .revoke_api_token("tok_x")
            .await
            .expect_err("an API token");
        assert_refused(&err, Code::PermissionDenied, "session_required");
        let err = served
            .with_token(token)
            .list_api_tokens()
            .await
            .expect_err("an API token");
        assert_refused(&err, Code::PermissionDenied, "session_required");
    }
    served
        .with_token(&ana.token)
        .create_api_token(request)
        .await
        .expect("a session may");
    served
        .with_token(&read_only)
        .get_me()
        .await
        .expect("any valid token");
}

#[tokio::test]
async fn bad_input_names_the_field_and_the_rule() {
    let database = TestDatabase::sqlite();
    let served = served(&database, cheap_passwords()).await;
    let ana = sign_up(&served, "Ana").await;
    let create = |username: &str, password: &str| {
        served.client.create_account(pb::CreateAccountRequest {
            username: username.to_owned(),
            password: password.to_owned(),
        })
    };
    let past =
        kit::timestamp::to_proto(std::time::SystemTime::now() - std::time::Duration::from_secs(1));
    let as_ana = served.with_token(&ana.token);
    let token = |name: &str, scopes: Vec<i32>, expire_time| {
        as_ana.create_api_token(pb::CreateApiTokenRequest {
            name: name.to_owned(),
            scopes,
            expire_time,
        })
    };
    let read = vec![pb::Scope::Read.into()];
    let cases = [
        (create("_ana", PASSWORD).await.err(), "username"),
        (create("Bob", "short").await.err(), "password"),
        (token("", read.clone(), None).await.err(), "name"),
        (token("bot", vec![], None).await.err(), "scopes"),
        (token("bot", vec![0], None).await.err(), "scopes"),
        (token("bot", vec![9], None).await.err(), "scopes"),
        (
            token("bot", read.clone(), Some(past)).await.err(),
            "expire_time",
        ),
    ];
    for (result, field) in cases {
        let err = result.expect(field);
        assert_refused(
            &err,
            Code::InvalidArgument,
            accounts::REASON_INVALID_ARGUMENT,
        );
        assert_eq!(err.violations().len(), 1, "{err:?}");
        assert_eq!(err.violations()[0].field, field);
        assert!(!err.violations()[0].description.is_empty());
        assert!(err.message.contains(field), "{}", err.message);
    }

    let err = create("ANA", PASSWORD).await.expect_err("taken");
    assert_refused(&err, Code::AlreadyExists, accounts::REASON_USERNAME_TAKEN);
}

#[tokio::test]
async fn a_profile_is_public_and_an_unknown_one_is_not_found() {
    let database = TestDatabase::sqlite();
    let served = served(&database, cheap_passwords()).await;
    let ana = sign_up(&served, "Ana").await;
    let user = served
        .client
        .get_user("aNa")
        .await
        .expect("found")
        .user
        .expect("user");
    assert_eq!(user.username, "Ana");
    assert_eq!(user.create_time, ana.account.expect("account").create_time);
    let err = served.client.get_user("nobody").await.expect_err("unknown");
    assert_refused(&err, Code::NotFound, "not_found");
    let err = served
        .client
        .get_user(&"x".repeat(5000))
        .await
        .expect_err("unknown");
    assert_refused(&err, Code::NotFound, "not_found");
}

#[tokio::test]
async fn no_password_or_token_is_in_the_sqlite_file() {
    let database = TestDatabase::sqlite();
    let served = served(&database, cheap_passwords()).await;
    let signed_up = sign_up(&served, "Ana").await;
    let signed_in = served
        .client
        .sign_in(pb::SignInRequest {
            username: "Ana".to_owned(),
            password: PASSWORD.to_owned(),
        })
        .await
        .expect("signed in");
    let made = api_token(&served, &signed_in.token, &[pb::Scope::Read]).await;
    served
        .client
        .verify_token(&made.token)
        .await
        .expect("valid");

    let path = database
        .url()
        .strip_prefix("sqlite://")
        .expect("an SQLite URL");
    // The write-ahead log holds what is not yet in the main file: read every file of it.
    let mut bytes = Vec::new();
    for suffix in ["", "-wal", "-shm"] {
        if let Ok(file) = std::fs::read(format!("{path}{suffix}")) {
            bytes.extend(file);
        }
    }
    assert!(bytes.len() > 1000, "the database was read");
    assert!(contains(&bytes, b"Ana"), "the search finds what is there");
    for secret in [
        PASSWORD,
        &signed_up.token,
        &signed_in.token,
        &made.token,
        // Not even the random part without its prefix.
        &made.token[4..],
        &signed_in.token[4..],
    ] {
        assert!(
            !contains(&bytes, secret.as_bytes()),
            "a secret is in the database"
        );
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}
