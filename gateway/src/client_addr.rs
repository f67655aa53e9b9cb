//! The address of the HTTP client a request came from, as the connection gives it: what the
//! gateway names to a service that shares something between its callers (`kit::caller`).

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use http::request::Parts;

/// The client's IP address; `None` when the request came without a connection (a test calling
/// the router in memory).
///
/// TODO(gateway): behind a proxy this is the proxy's address; trusting `Forwarded` from a
/// configured list of proxies comes with the ingress set-up, and accounts replace the address
/// as the caller's key for signed-in users.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip());
        Ok(Self(peer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn extract(request: http::Request<()>) -> ClientAddr {
        let (mut parts, ()) = request.into_parts();
        let Ok(addr) = ClientAddr::from_request_parts(&mut parts, &()).await;
        addr
    }

    #[tokio::test]
    async fn reads_the_connections_peer_and_nothing_without_one() {
        let mut request = http::Request::new(());
        let peer: SocketAddr = "198.51.100.4:51234".parse().expect("an address");
        request.extensions_mut().insert(ConnectInfo(peer));
        assert_eq!(extract(request).await, ClientAddr(Some(peer.ip())));
        assert_eq!(extract(http::Request::new(())).await, ClientAddr(None));
    }
}
