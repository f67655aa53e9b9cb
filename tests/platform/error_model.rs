//! The gRPC error model as a third party meets it: a plain tonic client that knows none of our
//! crates (its few request messages are written here by hand from the `.proto` files) calls
//! each service of the real binary with bad input, and reads the stable reason from the
//! standard `google.rpc.ErrorInfo` in the status details, with `tonic-types` as any gRPC
//! library would.
//!
//! The tournaments and calculators services have no RPCs yet; they join this table with them.
//! The accounts service's bad input and its refusal of an anonymous caller are here too.

use crate::support;

use std::collections::HashMap;

use tonic::Code;
use tonic::codegen::http::uri::PathAndQuery;
use tonic_prost::ProstCodec;
use tonic_types::StatusExt as _;

/// `turnier.catalog.v1.GetCardsRequest`.
#[derive(Clone, PartialEq, prost::Message)]
struct GetCardsRequest {
    #[prost(int32, tag = "1")]
    game: i32,
    #[prost(string, repeated, tag = "2")]
    refs: Vec<String>,
}

/// `turnier.search.v1.SearchRequest`.
#[derive(Clone, PartialEq, prost::Message)]
struct SearchRequest {
    #[prost(int32, tag = "1")]
    game: i32,
    #[prost(string, tag = "2")]
    query: String,
}

/// `turnier.decks.v1.CheckDeckAgainstFormatRequest` (its deck left out).
#[derive(Clone, PartialEq, prost::Message)]
struct CheckDeckAgainstFormatRequest {
    #[prost(string, tag = "1")]
    format_json: String,
    #[prost(string, tag = "3")]
    moment: String,
}

/// `turnier.scripts.v1.Script`, with its source.
#[derive(Clone, PartialEq, prost::Message)]
struct Script {
    #[prost(string, tag = "1")]
    source: String,
}

/// `turnier.scripts.v1.RunDeckRuleRequest`.
#[derive(Clone, PartialEq, prost::Message)]
struct RunDeckRuleRequest {
    #[prost(message, optional, tag = "1")]
    script: Option<Script>,
    #[prost(string, tag = "2")]
    deck_json: String,
    #[prost(string, tag = "3")]
    cards_by_id_json: String,
}

/// `turnier.accounts.v1.CreateAccountRequest`.
#[derive(Clone, PartialEq, prost::Message)]
struct CreateAccountRequest {
    #[prost(string, tag = "1")]
    username: String,
    #[prost(string, tag = "2")]
    password: String,
}

/// `turnier.accounts.v1.GetMeRequest`.
#[derive(Clone, PartialEq, prost::Message)]
struct GetMeRequest {}

/// Any answer: only the error matters here.
#[derive(Clone, PartialEq, prost::Message)]
struct Anything {}

/// Calls `path` with `request` and returns the error status.
async fn refused<M: prost::Message + 'static>(
    url: &str,
    path: &'static str,
    request: M,
) -> tonic::Status {
    let channel = tonic::transport::Endpoint::from_shared(url.to_owned())
        .expect("a valid URL")
        .connect()
        .await
        .expect("the platform answers");
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.expect("ready");
    grpc.unary::<M, Anything, _>(
        tonic::Request::new(request),
        PathAndQuery::from_static(path),
        ProstCodec::default(),
    )
    .await
    .expect_err("bad input is refused")
}

/// The reason, domain and metadata of the status's `ErrorInfo`, and its `BadRequest` fields.
fn error_info(status: &tonic::Status) -> (String, String, HashMap<String, String>, Vec<String>) {
    let details = status.get_error_details();
    let info = details
        .error_info()
        .unwrap_or_else(|| panic!("no ErrorInfo in {status:?}"));
    let fields = details
        .bad_request()
        .map(|bad| {
            bad.field_violations
                .iter()
                .map(|violation| violation.field.clone())
                .collect()
        })
        .unwrap_or_default();
    (
        info.reason.clone(),
        info.domain.clone(),
        info.metadata.clone(),
        fields,
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn every_service_says_what_was_wrong_in_the_standard_error_model() {
    let platform = support::SamplePlatform::start().await;
    let url = &platform.grpc;

    let status = refused(
        url,
        "/turnier.catalog.v1.CatalogService/GetCards",
        GetCardsRequest {
            game: 0,
            refs: vec!["sv2-11".to_owned()],
        },
    )
    .await;
    assert_eq!(status.code(), Code::InvalidArgument);
    let (reason, domain, _, fields) = error_info(&status);
    assert_eq!(
        (reason.as_str(), domain.as_str()),
        ("unknown_game", "turnier.gg")
    );
    assert_eq!(fields, ["game"]);

    let status = refused(
        url,
        "/turnier.search.v1.SearchService/Search",
        SearchRequest {
            game: 2, // pokemon
            query: ")".to_owned(),
        },
    )
    .await;
    assert_eq!(status.code(), Code::InvalidArgument);
    let (reason, _, metadata, fields) = error_info(&status);
    assert_eq!(reason, "invalid_query");
    assert_eq!(metadata.get("position").map(String::as_str), Some("0"));
    assert_eq!(fields, ["query"]);

    let status = refused(
        url,
        "/turnier.decks.v1.DeckService/CheckDeckAgainstFormat",
        CheckDeckAgainstFormatRequest {
            format_json: r#"{"code": "league", "name": "League", "copies": 0}"#.to_owned(),
            moment: "2026-10-02T09:00:00-04:00".to_owned(),
        },
    )
    .await;
    assert_eq!(status.code(), Code::InvalidArgument);
    let (reason, _, metadata, fields) = error_info(&status);
    assert_eq!(reason, "invalid_format");
    assert_eq!(metadata.get("field").map(String::as_str), Some("copies"));
    assert_eq!(fields, ["format_json"]);

    let status = refused(
        url,
        "/turnier.scripts.v1.ScriptService/RunDeckRule",
        RunDeckRuleRequest {
            script: Some(Script {
                source: "var x = 1;".to_owned(),
            }),
            deck_json: "{}".to_owned(),
            cards_by_id_json: "{}".to_owned(),
        },
    )
    .await;
    assert_eq!(status.code(), Code::InvalidArgument);
    let (reason, _, _, fields) = error_info(&status);
    assert_eq!(reason, "unsafe_script");
    assert!(
        !fields.is_empty() && fields.iter().all(|field| field == "script.source"),
        "{fields:?}"
    );
    let status = refused(
        url,
        "/turnier.accounts.v1.AccountService/CreateAccount",
        CreateAccountRequest {
            username: "-dash-first".to_owned(),
            password: "long enough, surely".to_owned(),
        },
    )
    .await;
    assert_eq!(status.code(), Code::InvalidArgument);
    let (reason, _, _, fields) = error_info(&status);
    assert_eq!(reason, "invalid_argument");
    assert_eq!(fields, ["username"]);

    // A method for the caller's own account, without a token.
    let status = refused(
        url,
        "/turnier.accounts.v1.AccountService/GetMe",
        GetMeRequest {},
    )
    .await;
    assert_eq!(status.code(), Code::Unauthenticated);
    assert_eq!(error_info(&status).0, "unauthenticated");

    // No ad-hoc header beside the standard details.
    assert!(status.metadata().get("x-turnier-error-code").is_none());
}
