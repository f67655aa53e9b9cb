//! What every request with a token pays, and what a sign-in costs: token verification in a
//! service, cached (the `kit::auth::Verifier` hit every service takes within 5 s of a token's
//! last check) and uncached (`VerifyToken` over gRPC on loopback: SHA-256 of the token and one
//! indexed read of SQLite), and a whole sign-in over gRPC with the OWASP argon2id parameters.

use std::hint::black_box;
use std::time::Duration;

use accounts::grpc::Api;
use accounts::secrets::Passwords;
use accounts::store::Store;
use criterion::{Criterion, criterion_group, criterion_main};
use kit::auth::{AuthLayer, Bearer, Verifier};
use kit::clients::AccountsClient;
use kit::testing::TestDatabase;
use proto::accounts::v1 as pb;

const PASSWORD: &str = "correct horse battery";

/// The service over a fresh SQLite store on a free port, and a client of it.
async fn serve(database: &TestDatabase) -> AccountsClient {
    let db = database.connect().await;
    db.migrate(&[&accounts::store::MIGRATOR])
        .await
        .expect("migrations apply");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    let client = AccountsClient::connect_lazy(&url).expect("a URL");
    let api = Api::new(
        Store::new(db),
        Passwords::owasp(),
        Duration::from_secs(30 * 86_400),
    );
    let mut routes = tonic::service::RoutesBuilder::default();
    routes.add_service(accounts::grpc::server(api));
    tokio::spawn(kit::server::serve(
        listener,
        &[kit::services::Service::Accounts],
        routes,
        kit::server::ShutdownTiming::default(),
        kit::server::Readiness::default(),
        kit::shutdown::Shutdown::new(),
        AuthLayer::new(Verifier::new(client.clone())),
    ));
    client
}

fn verification(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let database = TestDatabase::sqlite();
    let (client, token) = runtime.block_on(async {
        let client = serve(&database).await;
        let session = client
            .create_account(pb::CreateAccountRequest {
                username: "bench".to_owned(),
                password: PASSWORD.to_owned(),
            })
            .await
            .expect("an account");
        (client, session.token)
    });
    let verifier = Verifier::new(client.clone());
    let bearer = Bearer::new(token.clone());

    let mut group = c.benchmark_group("verify");
    group.bench_function("uncached (VerifyToken over gRPC, SQLite)", |b| {
        b.to_async(&runtime).iter(|| async {
            black_box(client.verify_token(black_box(&token)).await.expect("valid"))
        })
    });
    group.bench_function("cached (Verifier hit)", |b| {
        b.to_async(&runtime)
            .iter(|| async { black_box(verifier.verify(black_box(&bearer)).await.expect("valid")) })
    });
    group.finish();

    let mut group = c.benchmark_group("sign_in");
    group.sample_size(10);
    group.bench_function("argon2id m=19456 t=2 p=1, over gRPC", |b| {
        b.to_async(&runtime).iter(|| async {
            black_box(
                client
                    .sign_in(pb::SignInRequest {
                        username: "bench".to_owned(),
                        password: PASSWORD.to_owned(),
                    })
                    .await
                    .expect("signed in"),
            )
        })
    });
    group.bench_function("unknown username (the dummy hash)", |b| {
        b.to_async(&runtime).iter(|| async {
            black_box(
                client
                    .sign_in(pb::SignInRequest {
                        username: "nobody".to_owned(),
                        password: PASSWORD.to_owned(),
                    })
                    .await
                    .expect_err("unknown"),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, verification);
criterion_main!(benches);
