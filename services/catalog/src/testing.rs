//! For tests of this service and of the services that read it: the catalog served over real
//! gRPC on a port of its own.

use crate::store::Store;

/// Serves the catalog over `store` on a free local port, as `kit::server` serves it, and
/// returns its URL; the port is bound before this returns, so a client can connect at once.
pub async fn serve(store: Store) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free local port");
    let url = format!("http://{}", listener.local_addr().expect("a bound address"));
    let mut routes = tonic::service::RoutesBuilder::default();
    routes.add_service(crate::grpc::server(crate::grpc::Api::new(store)));
    tokio::spawn(kit::server::serve(
        listener,
        &[kit::services::Service::Catalog],
        routes,
        kit::server::ShutdownTiming::default(),
        kit::server::Readiness::default(),
        kit::shutdown::Shutdown::new(),
        kit::auth::AuthLayer::without_accounts(),
    ));
    url
}
