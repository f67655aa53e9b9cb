//! Channels from one service (or the gateway) to another.
//!
//! Channels connect lazily, so a caller starts before its callees. A URL whose host is a DNS
//! name is resolved again every few seconds and calls are spread over every address it
//! returns: in Kubernetes the services are headless, one address per pod, and a plain HTTP/2
//! connection would pin every call to one pod.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::time::Duration;

use tonic::service::interceptor::InterceptedService;
use tonic::transport::channel::Change;
use tonic::transport::{Channel, Endpoint};

/// How long dialling a service may take before the call fails with `Unavailable`.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);

/// How often a DNS name is resolved again to follow pods coming and going.
pub const RESOLVE_INTERVAL: Duration = Duration::from_secs(5);

/// A service URL that cannot be dialled.
#[derive(Debug, thiserror::Error)]
#[error("cannot use `{url}` as a gRPC address: {problem}")]
pub struct ClientError {
    /// The URL as given.
    pub url: String,
    /// What is wrong with it.
    pub problem: String,
}

/// The interceptor that writes the current span's W3C trace context into outgoing metadata.
pub type TraceInterceptor = fn(tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status>;

/// A channel whose every call carries the caller's trace context.
pub type TracedChannel = InterceptedService<Channel, TraceInterceptor>;

/// Wraps `channel` so that every call carries the caller's trace context.
pub fn traced(channel: Channel) -> TracedChannel {
    InterceptedService::new(
        channel,
        crate::telemetry::trace_interceptor as TraceInterceptor,
    )
}

/// Returns a lazily connected [`channel`] to `url` whose calls carry the trace context: what
/// the typed clients of [`crate::clients`] build on.
pub fn traced_channel(url: &str) -> Result<TracedChannel, ClientError> {
    channel(url).map(traced)
}

/// Returns a lazily connected channel to `url` (`http://host:port`). Call inside a Tokio
/// runtime: a DNS host gets a background task that keeps its address list current.
pub fn channel(url: &str) -> Result<Channel, ClientError> {
    let error = |problem: String| ClientError {
        url: url.to_owned(),
        problem,
    };
    let endpoint = endpoint(url).map_err(|err| error(err.to_string()))?;
    let uri = endpoint.uri().clone();
    let host = uri
        .host()
        .ok_or_else(|| error("no host".to_owned()))?
        .to_owned();
    let port = uri
        .port_u16()
        .unwrap_or(if uri.scheme_str() == Some("https") {
            443
        } else {
            80
        });

    let is_literal = host
        .trim_matches(['[', ']'])
        .parse::<std::net::IpAddr>()
        .is_ok();
    if is_literal || host == "localhost" {
        return Ok(endpoint.connect_lazy());
    }

    Ok(balanced_channel(
        uri.scheme_str().unwrap_or("http").to_owned(),
        host,
        port,
    ))
}

/// Returns a channel over every address `host` resolves to, kept current in the background.
/// A call waits (up to its own deadline) while the name resolves to nothing.
fn balanced_channel(scheme: String, host: String, port: u16) -> Channel {
    let (channel, changes) = Channel::balance_channel::<SocketAddr>(64);
    tokio::spawn(async move {
        let mut known = BTreeSet::new();
        let mut tick = tokio::time::interval(RESOLVE_INTERVAL);
        loop {
            tick.tick().await;
            let resolved: BTreeSet<SocketAddr> =
                match tokio::net::lookup_host((host.as_str(), port)).await {
                    Ok(addrs) => addrs.collect(),
                    Err(err) => {
                        // Keep the addresses we have: a DNS hiccup must not empty the pool.
                        tracing::warn!(%host, error = %err, "cannot resolve service address");
                        continue;
                    }
                };
            if resolved.is_empty() {
                continue;
            }
            for gone in known.difference(&resolved) {
                if changes.send(Change::Remove(*gone)).await.is_err() {
                    return; // The channel was dropped: nobody calls this service any more.
                }
            }
            for new in resolved.difference(&known) {
                let Ok(endpoint) = self::endpoint(&format!("{scheme}://{new}")) else {
                    continue;
                };
                if changes.send(Change::Insert(*new, endpoint)).await.is_err() {
                    return;
                }
            }
            known = resolved;
        }
    });
    channel
}

fn endpoint(url: &str) -> Result<Endpoint, tonic::transport::Error> {
    Ok(Endpoint::from_shared(url.to_owned())?
        .connect_timeout(CONNECT_TIMEOUT)
        .tcp_nodelay(true)
        .http2_keep_alive_interval(Duration::from_secs(30))
        .keep_alive_while_idle(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonic_health::pb::HealthCheckRequest;
    use tonic_health::pb::health_client::HealthClient;

    async fn health_server() -> SocketAddr {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("address");
        let (_reporter, service) = tonic_health::server::health_reporter();
        tokio::spawn(
            tonic::transport::Server::builder()
                .add_service(service)
                .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
        );
        addr
    }

    async fn check(channel: Channel) -> Result<(), tonic::Status> {
        HealthClient::new(channel)
            .check(HealthCheckRequest {
                service: String::new(),
            })
            .await
            .map(|_| ())
    }

    #[tokio::test]
    async fn a_literal_address_is_dialled_directly() {
        let addr = health_server().await;
        let channel = channel(&format!("http://{addr}")).expect("valid URL");
        check(channel).await.expect("the server answers");
    }

    #[tokio::test]
    async fn a_resolved_name_is_balanced_over_its_addresses() {
        // The resolver turns an address literal into itself: the balanced path without DNS.
        let addr = health_server().await;
        let channel = balanced_channel("http".to_owned(), "127.0.0.1".to_owned(), addr.port());
        check(channel)
            .await
            .expect("the server answers through the balanced channel");
    }

    #[test]
    fn a_malformed_url_is_refused_with_the_url_named() {
        let err = channel("not a url").unwrap_err();
        assert!(err.to_string().contains("`not a url`"), "{err}");
    }
}
