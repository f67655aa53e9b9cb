//! The accounts store on PostgreSQL and SQLite (each test its own fresh database): accounts
//! unique without regard to case, sign-in and rehashing, sessions, API tokens.

use std::time::{Duration, SystemTime};

use accounts::Error;
use accounts::domain::{AccountId, TokenId, TokenName, Username};
use accounts::grpc::Api;
use accounts::secrets::{Passwords, mint_token};
use accounts::store::Store;
use kit::auth::{Scope, Scopes, TokenKind};
use kit::testing::TestDatabase;
use proto::accounts::v1 as pb;
use proto::accounts::v1::account_service_server::AccountService;

use crate::support::{SESSION_TTL, cheap_passwords, store};

const MINUTE: Duration = Duration::from_secs(60);
const HOUR: Duration = Duration::from_secs(3600);

macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod postgres {
            $(#[tokio::test] async fn $name() { super::$name(kit::testing::TestDatabase::postgres().await).await; })*
        }
        mod sqlite {
            $(#[tokio::test] async fn $name() { super::$name(kit::testing::TestDatabase::sqlite()).await; })*
        }
    };
}

on_both_databases!(
    usernames_are_unique_without_regard_to_case_and_kept_as_typed,
    signs_in_with_the_right_password_only_and_rehashes_at_new_parameters,
    sessions_expire_and_end_on_sign_out,
    api_tokens_list_newest_first_without_secrets_and_revoke_one_by_one,
    an_expired_api_token_no_longer_verifies_but_is_listed,
    last_use_is_written_at_most_once_a_minute,
);

async fn account(store: &Store, name: &str) -> AccountId {
    let username = Username::parse(name).expect("a valid username");
    store
        .create_account(&username, "$argon2id$not-a-real-hash", SystemTime::now())
        .await
        .expect("created")
        .id
}

async fn usernames_are_unique_without_regard_to_case_and_kept_as_typed(database: TestDatabase) {
    let store = store(&database).await;
    let id = account(&store, "Ana").await;
    assert!(id.0.starts_with("acc_"), "{}", id.0);
    for lookup in ["Ana", "ana", "ANA"] {
        let found = store
            .account_by_username(lookup)
            .await
            .expect("query")
            .expect("found");
        assert_eq!(found.id, id);
        assert_eq!(found.username.as_str(), "Ana");
    }
    let again = store
        .create_account(
            &Username::parse("aNA").expect("valid"),
            "$argon2id$x",
            SystemTime::now(),
        )
        .await;
    assert!(
        matches!(again, Err(Error::UsernameTaken(ref name)) if name == "aNA"),
        "{again:?}"
    );
    assert!(
        store
            .account_by_username("bob")
            .await
            .expect("query")
            .is_none()
    );
    let by_id = store.account(&id).await.expect("query").expect("found");
    assert_eq!(by_id.username.as_str(), "Ana");
}

async fn signs_in_with_the_right_password_only_and_rehashes_at_new_parameters(
    database: TestDatabase,
) {
    let store = store(&database).await;
    let password = "correct horse battery staple";
    let weak = Api::new(store.clone(), cheap_passwords(), SESSION_TTL);
    let account = weak
        .register("Ana", password.to_owned())
        .await
        .expect("registered");
    let before = store
        .credentials("ana")
        .await
        .expect("query")
        .expect("found")
        .password_hash;
    assert!(
        before.starts_with("$argon2id$v=19$m=64,t=1,p=1$"),
        "{before}"
    );

    // The parameters were raised since: the next sign-in stores a hash at the new ones.
    let stronger = Api::new(
        store.clone(),
        Passwords::with_costs(256, 2, 1).expect("valid costs"),
        SESSION_TTL,
    );
    let sign_in = |username: &str, password: &str| {
        tonic::Request::new(pb::SignInRequest {
            username: username.to_owned(),
            password: password.to_owned(),
        })
    };
    let session = AccountService::sign_in(&stronger, sign_in("ANA", password))
        .await
        .expect("signed in")
        .into_inner();
    assert_eq!(session.account.expect("account").id, account.id.0);
    assert!(session.token.starts_with("tns_"));
    let after = store
        .credentials("ana")
        .await
        .expect("query")
        .expect("found")
        .password_hash;
    assert!(
        after.starts_with("$argon2id$v=19$m=256,t=2,p=1$"),
        "{after}"
    );
    // And the new hash still signs in, now without a rehash.
    AccountService::sign_in(&stronger, sign_in("Ana", password))
        .await
        .expect("signed in");
    let unchanged = store
        .credentials("ana")
        .await
        .expect("query")
        .expect("found")
        .password_hash;
    assert_eq!(unchanged, after);

    for (username, password) in [("Ana", "wrong horse battery"), ("nobody", password)] {
        let status = AccountService::sign_in(&stronger, sign_in(username, password))
            .await
            .expect_err("refused");
        assert_eq!(status.code(), tonic::Code::Unauthenticated, "{username}");
        assert_eq!(status.message(), "wrong username or password");
    }
}

async fn sessions_expire_and_end_on_sign_out(database: TestDatabase) {
    let store = store(&database).await;
    let id = account(&store, "Ana").await;
    let now = SystemTime::now();

    let old = mint_token(TokenKind::Session);
    store
        .create_session(&id, &old, now - SESSION_TTL - HOUR, now - HOUR)
        .await
        .expect("saved");
    assert_eq!(
        store.verify_token(old.secret(), now).await.expect("query"),
        None
    );

    let live = mint_token(TokenKind::Session);
    store
        .create_session(&id, &live, now, now + HOUR)
        .await
        .expect("saved");
    let verified = store
        .verify_token(live.secret(), now)
        .await
        .expect("query")
        .expect("valid");
    assert_eq!(verified.account.id, id);
    assert_eq!(verified.kind, TokenKind::Session);
    assert_eq!(verified.scopes, Scopes::ALL);
    // Its own expiry, to the millisecond.
    let expires = verified.expire_time.expect("sessions expire");
    assert!(expires <= now + HOUR && expires > now + HOUR - Duration::from_millis(2));
    // An hour later it has ended by itself.
    assert_eq!(
        store
            .verify_token(live.secret(), now + HOUR)
            .await
            .expect("query"),
        None
    );

    // The same token with the other kind's prefix is nobody's.
    let swapped = live.secret().replacen("tns_", "tnp_", 1);
    assert_eq!(
        store.verify_token(&swapped, now).await.expect("query"),
        None
    );

    assert!(store.end_session(&live).await.expect("query"));
    assert_eq!(
        store.verify_token(live.secret(), now).await.expect("query"),
        None
    );
    assert!(!store.end_session(&live).await.expect("query"));
}

async fn api_tokens_list_newest_first_without_secrets_and_revoke_one_by_one(
    database: TestDatabase,
) {
    let store = store(&database).await;
    let ana = account(&store, "Ana").await;
    let bob = account(&store, "Bob").await;
    let now = SystemTime::now();
    let name = |text: &str| TokenName::parse(text).expect("valid name");
    let read = Scopes::NONE.with(Scope::Read);

    let first = mint_token(TokenKind::Api);
    let older = store
        .create_api_token(&ana, &first, &name("first"), read, now, None)
        .await
        .expect("saved");
    let second = mint_token(TokenKind::Api);
    let newer = store
        .create_api_token(
            &ana,
            &second,
            &name("second"),
            Scopes::ALL,
            now + MINUTE,
            None,
        )
        .await
        .expect("saved");
    assert!(older.id.0.starts_with("tok_"));

    let listed = store.api_tokens(&ana).await.expect("query");
    assert_eq!(listed, [newer.clone(), older.clone()], "newest first");
    assert!(
        !format!("{listed:?}").contains(first.secret()),
        "a listing never holds a secret"
    );
    assert!(store.api_tokens(&bob).await.expect("query").is_empty());

    let verified = store
        .verify_token(first.secret(), now)
        .await
        .expect("query")
        .expect("valid");
    assert_eq!((verified.kind, verified.scopes), (TokenKind::Api, read));
    assert_eq!(verified.expire_time, None);
    let swapped = first.secret().replacen("tnp_", "tns_", 1);
    assert_eq!(
        store.verify_token(&swapped, now).await.expect("query"),
        None
    );

    // Another account cannot revoke it; its owner can, once.
    assert!(
        !store
            .revoke_api_token(&bob, &older.id)
            .await
            .expect("query")
    );
    assert!(
        store
            .revoke_api_token(&ana, &older.id)
            .await
            .expect("query")
    );
    assert!(
        !store
            .revoke_api_token(&ana, &older.id)
            .await
            .expect("query")
    );
    assert!(
        !store
            .revoke_api_token(&ana, &TokenId("tok_nope".to_owned()))
            .await
            .expect("query")
    );
    assert_eq!(
        store
            .verify_token(first.secret(), now)
            .await
            .expect("query"),
        None
    );
    assert_eq!(store.api_tokens(&ana).await.expect("query"), [newer]);
    assert!(
        store
            .verify_token(second.secret(), now)
            .await
            .expect("query")
            .is_some()
    );
}

async fn an_expired_api_token_no_longer_verifies_but_is_listed(database: TestDatabase) {
    let store = store(&database).await;
    let ana = account(&store, "Ana").await;
    let now = SystemTime::now();
    let token = mint_token(TokenKind::Api);
    let name = TokenName::parse("short-lived").expect("valid");
    let saved = store
        .create_api_token(&ana, &token, &name, Scopes::ALL, now, Some(now + MINUTE))
        .await
        .expect("saved");
    let verified = store
        .verify_token(token.secret(), now)
        .await
        .expect("query")
        .expect("valid until it expires");
    assert_eq!(verified.expire_time, saved.expire_time);
    assert_eq!(
        store
            .verify_token(token.secret(), now + MINUTE)
            .await
            .expect("query"),
        None
    );
    let listed = store.api_tokens(&ana).await.expect("query");
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].expire_time, saved.expire_time);
}

async fn last_use_is_written_at_most_once_a_minute(database: TestDatabase) {
    let store = store(&database).await;
    let ana = account(&store, "Ana").await;
    let start = SystemTime::now();
    let token = mint_token(TokenKind::Api);
    let name = TokenName::parse("bot").expect("valid");
    store
        .create_api_token(&ana, &token, &name, Scopes::ALL, start, None)
        .await
        .expect("saved");
    let last_use = || async { store.api_tokens(&ana).await.expect("query")[0].last_use_time };
    assert_eq!(last_use().await, None, "never used");
    let millis = |time: SystemTime| kit::timestamp::from_millis(kit::timestamp::to_millis(time));

    for (at, expected) in [
        (start, start),
        (start + Duration::from_secs(30), start),
        (
            start + Duration::from_secs(61),
            start + Duration::from_secs(61),
        ),
    ] {
        store
            .verify_token(token.secret(), at)
            .await
            .expect("query")
            .expect("valid");
        assert_eq!(last_use().await, Some(millis(expected)));
    }
}
