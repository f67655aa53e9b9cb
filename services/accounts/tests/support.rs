//! What every test module needs: a migrated store, fast password hashing, a session, and the
//! service on a port of its own.

use std::time::Duration;

use accounts::grpc::Api;
use accounts::secrets::Passwords;
use accounts::store::Store;
use kit::auth::{AuthLayer, Verifier};
use kit::clients::AccountsClient;
use kit::testing::TestDatabase;

/// How long test sessions last.
pub const SESSION_TTL: Duration = Duration::from_secs(30 * 86_400);

/// Returns a store over `database`, migrated.
pub async fn store(database: &TestDatabase) -> Store {
    let db = database.connect().await;
    db.migrate(&[&accounts::store::MIGRATOR])
        .await
        .expect("migrations apply");
    Store::new(db)
}

/// Returns a hasher far cheaper than the OWASP one, for tests that are not about its cost.
pub fn cheap_passwords() -> Passwords {
    Passwords::with_costs(64, 1, 1).expect("valid costs")
}

/// The service on a free local port, verifying the tokens of its own requests through its own
/// `VerifyToken` over gRPC, as the all-in-one process does.
pub struct Served {
    /// An anonymous client.
    pub client: AccountsClient,
}

impl Served {
    /// Returns a client that sends `token`.
    pub fn with_token(&self, token: &str) -> AccountsClient {
        self.client
            .with_bearer(Some(kit::auth::Bearer::new(token.to_owned())))
    }
}

/// Serves the service over `store` with `passwords`; the port is bound before this returns.
pub async fn serve(store: Store, passwords: Passwords) -> Served {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free local port");
    let url = format!("http://{}", listener.local_addr().expect("a bound address"));
    let client = AccountsClient::connect_lazy(&url).expect("a valid URL");
    let verifier = Verifier::new(client.clone());
    let api = Api::new(store, passwords, SESSION_TTL).with_verifier(Some(verifier.clone()));
    let mut routes = tonic::service::RoutesBuilder::default();
    routes.add_service(accounts::grpc::server(api));
    tokio::spawn(kit::server::serve(
        listener,
        &[kit::services::Service::Accounts],
        routes,
        kit::server::ShutdownTiming::default(),
        kit::server::Readiness::default(),
        kit::shutdown::Shutdown::new(),
        AuthLayer::new(verifier.clone()),
    ));
    Served { client }
}
