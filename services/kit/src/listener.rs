//! The listeners every `turnier` process serves on: one accept loop for the gRPC port and the
//! gateway's HTTP port, with the limits that keep idle connections from piling up.
//!
//! A connection that sends nothing, or half a request head, would otherwise stay open for
//! ever; enough of them use up the process's file descriptors and the health checks with
//! them. So, on both ports ([`ConnectionLimits`], from the `TURNIER_…` settings of
//! [`Settings`]):
//!
//! - a new connection has the *header-read timeout* to send its first request head (HTTP/1)
//!   or the HTTP/2 preface, and an HTTP/1 connection has it again for every later head;
//! - on the HTTP port, a connection with no request in flight is closed after the *idle
//!   timeout* (HTTP/1 keep-alive and HTTP/2 alike);
//! - HTTP/2 connections get keep-alive pings, and one that does not answer within the
//!   keep-alive timeout is closed (on the gRPC port this is how idle channels are told from
//!   dead ones: gRPC clients keep a channel open between calls on purpose);
//! - each listener holds at most [`ConnectionLimits::max_connections`] connections under
//!   those rules. Beyond the cap it still accepts, so that probes keep working, but a
//!   connection over the cap gets [`OVER_CAP_TIMEOUT`] to send its request and no keep-alive.
//!   The cap is also kept under the process's limit on open files, raised to its hard limit
//!   at start ([`raise_open_files_limit`]), so that those short-lived extra connections find
//!   a descriptor; when none is left, accepting backs off for [`ACCEPT_BACKOFF`] only.
//!
//! [`Listener::accept`] is the accept loop; [`Listener::incoming`] hands its connections to
//! tonic (gRPC) and [`serve_http`] serves an axum router on them (the gateway).

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::time::{Instant, Sleep};

/// The default time a new connection has to send its request head or HTTP/2 preface.
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// The default time an HTTP connection may stay open with no request in flight.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// The default number of connections one listener holds under the normal timeouts.
pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;
/// The default time between HTTP/2 keep-alive pings.
pub const DEFAULT_KEEPALIVE_INTERVAL: Duration = Duration::from_secs(30);
/// The default time an HTTP/2 peer has to answer a keep-alive ping.
pub const DEFAULT_KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(10);
/// What a connection over the cap gets to send its request (and, on HTTP/2, to stay idle):
/// enough for a probe on loopback or in a cluster, too little to hold a descriptor for long.
pub const OVER_CAP_TIMEOUT: Duration = Duration::from_secs(1);
/// How long accepting pauses when the process has no descriptor left (EMFILE, ENFILE): the
/// connection waits in the backlog meanwhile, and connections over the cap free theirs soon.
pub const ACCEPT_BACKOFF: Duration = Duration::from_millis(10);
/// Descriptors kept out of the listeners' caps: database pools, channels, files, logs.
const RESERVED_DESCRIPTORS: u64 = 256;
/// A process has at most two listeners (gRPC and HTTP); each may take half of what is left.
const LISTENERS_PER_PROCESS: u64 = 2;
/// The length of the HTTP/2 connection preface (`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`).
const HTTP2_PREFACE_LEN: usize = 24;

/// The connection settings of both listeners, as given on the command line or in the
/// environment; [`Settings::limits`] is what the listeners run with.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Connection settings")]
// Every crate names its struct `Settings`; the group clap derives from it needs its own id.
#[group(id = "connection_settings")]
pub struct Settings {
    /// Seconds a new connection has to send its request head (HTTP/1) or the HTTP/2 preface,
    /// and an HTTP/1 connection has for each later head; then it is closed.
    #[arg(
        long,
        env = "TURNIER_HEADER_READ_TIMEOUT_SECS",
        value_name = "SECS",
        default_value_t = DEFAULT_HEADER_READ_TIMEOUT.as_secs(),
        value_parser = clap::value_parser!(u64).range(1..=3600)
    )]
    pub header_read_timeout_secs: u64,
    /// Seconds an HTTP connection may stay open with no request in flight.
    #[arg(
        long,
        env = "TURNIER_IDLE_TIMEOUT_SECS",
        value_name = "SECS",
        default_value_t = DEFAULT_IDLE_TIMEOUT.as_secs(),
        value_parser = clap::value_parser!(u64).range(1..=86_400)
    )]
    pub idle_timeout_secs: u64,
    /// Connections each listener (gRPC, HTTP) holds under the normal timeouts; more are
    /// still accepted, with one second to send a request and no keep-alive.
    #[arg(
        long,
        env = "TURNIER_MAX_CONNECTIONS",
        value_name = "N",
        default_value_t = DEFAULT_MAX_CONNECTIONS,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000)
    )]
    pub max_connections: usize,
    /// Seconds between HTTP/2 keep-alive pings (gRPC and HTTP/2 on the gateway).
    #[arg(
        long,
        env = "TURNIER_KEEPALIVE_INTERVAL_SECS",
        value_name = "SECS",
        default_value_t = DEFAULT_KEEPALIVE_INTERVAL.as_secs(),
        value_parser = clap::value_parser!(u64).range(1..=86_400)
    )]
    pub keepalive_interval_secs: u64,
    /// Seconds an HTTP/2 peer has to answer a keep-alive ping before its connection is closed.
    #[arg(
        long,
        env = "TURNIER_KEEPALIVE_TIMEOUT_SECS",
        value_name = "SECS",
        default_value_t = DEFAULT_KEEPALIVE_TIMEOUT.as_secs(),
        value_parser = clap::value_parser!(u64).range(1..=3600)
    )]
    pub keepalive_timeout_secs: u64,
}

impl Settings {
    /// Returns the limits these settings give.
    pub fn limits(&self) -> ConnectionLimits {
        ConnectionLimits {
            header_read_timeout: Duration::from_secs(self.header_read_timeout_secs),
            idle_timeout: Duration::from_secs(self.idle_timeout_secs),
            max_connections: self.max_connections,
            keepalive_interval: Duration::from_secs(self.keepalive_interval_secs),
            keepalive_timeout: Duration::from_secs(self.keepalive_timeout_secs),
        }
    }
}

/// The limits a listener holds its connections to (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// The time a new connection has to send its request head or the HTTP/2 preface, and an
    /// HTTP/1 connection for each later head.
    pub header_read_timeout: Duration,
    /// The time an HTTP connection may stay open with no request in flight.
    pub idle_timeout: Duration,
    /// The connections the listener holds under the normal timeouts.
    pub max_connections: usize,
    /// The time between HTTP/2 keep-alive pings.
    pub keepalive_interval: Duration,
    /// The time an HTTP/2 peer has to answer a ping.
    pub keepalive_timeout: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        Self {
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            keepalive_interval: DEFAULT_KEEPALIVE_INTERVAL,
            keepalive_timeout: DEFAULT_KEEPALIVE_TIMEOUT,
        }
    }
}

/// Raises the process's soft limit on open files to its hard limit (a container often starts
/// with 1024 of a hard 1,048,576), and returns the soft limit now in force.
pub fn raise_open_files_limit() -> io::Result<u64> {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE).map_err(io::Error::from)?;
    if soft < hard {
        setrlimit(Resource::RLIMIT_NOFILE, hard, hard).map_err(io::Error::from)?;
        return Ok(hard);
    }
    Ok(soft)
}

/// Returns the process's soft limit on open files, if it can be read.
fn open_files_limit() -> Option<u64> {
    nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE)
        .ok()
        .map(|(soft, _)| soft)
}

/// Returns the cap a listener runs with: the configured one, kept under the share of the
/// limit on open files (`open_files`) a listener may take, so that connections over the cap
/// still find a descriptor.
pub fn effective_cap(configured: usize, open_files: Option<u64>) -> usize {
    let Some(open_files) = open_files else {
        return configured;
    };
    let share = open_files.saturating_sub(RESERVED_DESCRIPTORS) / LISTENERS_PER_PROCESS;
    let share = usize::try_from(share).unwrap_or(usize::MAX).max(1);
    configured.min(share)
}

/// A bound TCP listener and the limits its connections are held to.
#[derive(Debug)]
pub struct Listener {
    tcp: TcpListener,
    limits: ConnectionLimits,
    permits: Arc<Semaphore>,
}

impl Listener {
    /// Returns a listener on `tcp` holding its connections to `limits`; the cap is kept under
    /// the process's limit on open files as it is now ([`effective_cap`]).
    pub fn new(tcp: TcpListener, limits: ConnectionLimits) -> Self {
        let cap = effective_cap(limits.max_connections, open_files_limit());
        if cap < limits.max_connections {
            tracing::warn!(
                configured = limits.max_connections,
                cap,
                "TURNIER_MAX_CONNECTIONS is above what the limit on open files leaves a listener; using the lower cap"
            );
        }
        Self {
            tcp,
            limits: ConnectionLimits {
                max_connections: cap,
                ..limits
            },
            permits: Arc::new(Semaphore::new(cap)),
        }
    }

    /// Returns the address the listener is bound to.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.tcp.local_addr()
    }

    /// Returns the limits the listener holds its connections to (the cap as in force).
    pub fn limits(&self) -> ConnectionLimits {
        self.limits
    }

    /// Accepts the next connection, with `TCP_NODELAY` set (without it, Nagle's algorithm and
    /// the peer's delayed ACK hold the end of a response for ~40 ms). Never fails: a failed
    /// accept is the peer's problem (skipped) or a lack of descriptors (retried after
    /// [`ACCEPT_BACKOFF`]).
    pub async fn accept(&self) -> Accepted {
        loop {
            match self.tcp.accept().await {
                Ok((stream, peer)) => {
                    if let Err(err) = stream.set_nodelay(true) {
                        tracing::warn!(error = %err, "cannot set TCP_NODELAY on an accepted connection");
                    }
                    let permit = self.permits.clone().try_acquire_owned().ok();
                    let timeout = if permit.is_some() {
                        self.limits.header_read_timeout
                    } else {
                        OVER_CAP_TIMEOUT.min(self.limits.header_read_timeout)
                    };
                    return Accepted {
                        stream,
                        peer,
                        header_read_timeout: timeout,
                        permit,
                    };
                }
                Err(err) if is_out_of_descriptors(&err) => {
                    tracing::warn!(error = %err, "no descriptor left to accept a connection; retrying");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                }
                // The peer gave up before we accepted (ECONNABORTED, …): nothing to do.
                Err(err) => {
                    tracing::debug!(error = %err, "a connection failed before it was accepted")
                }
            }
        }
    }

    /// The connections for tonic: each must send the whole HTTP/2 preface within its
    /// header-read timeout, or its reads fail and tonic closes it.
    pub fn incoming(self) -> impl futures::Stream<Item = io::Result<Connection>> + Send {
        futures::stream::unfold(self, |listener| async move {
            let accepted = listener.accept().await;
            Some((Ok(accepted.into_connection(HTTP2_PREFACE_LEN)), listener))
        })
    }
}

impl From<TcpListener> for Listener {
    /// A listener with the default limits: what tests and tools that bind their own port get.
    fn from(tcp: TcpListener) -> Self {
        Self::new(tcp, ConnectionLimits::default())
    }
}

/// Whether an accept failed because the process or the system has no descriptor left.
fn is_out_of_descriptors(err: &io::Error) -> bool {
    use nix::errno::Errno;
    matches!(
        err.raw_os_error().map(Errno::from_raw),
        Some(Errno::EMFILE | Errno::ENFILE | Errno::ENOBUFS | Errno::ENOMEM)
    )
}

/// An accepted connection, with its place under the listener's cap (if it got one).
#[derive(Debug)]
pub struct Accepted {
    /// The connection.
    pub stream: TcpStream,
    /// The peer's address.
    pub peer: SocketAddr,
    /// The time it has to send its first request head or preface.
    header_read_timeout: Duration,
    /// Its place under the cap, released when the connection is dropped; `None` over the cap.
    permit: Option<OwnedSemaphorePermit>,
}

impl Accepted {
    /// Returns whether the connection came in over the listener's cap.
    pub fn is_over_cap(&self) -> bool {
        self.permit.is_none()
    }

    /// Returns the time the connection has to send its first request head or preface.
    pub fn header_read_timeout(&self) -> Duration {
        self.header_read_timeout
    }

    /// Returns the connection as I/O whose reads fail once `first` bytes have not all come
    /// within the header-read timeout (0: no such deadline).
    fn into_connection(self, first: usize) -> Connection {
        let deadline = (first > 0).then(|| FirstBytes {
            missing: first,
            deadline: Box::pin(tokio::time::sleep(self.header_read_timeout)),
        });
        Connection {
            stream: self.stream,
            first_bytes: deadline,
            _permit: self.permit,
        }
    }
}

/// An accepted connection as I/O, holding its place under the cap until dropped.
#[derive(Debug)]
pub struct Connection {
    stream: TcpStream,
    first_bytes: Option<FirstBytes>,
    _permit: Option<OwnedSemaphorePermit>,
}

/// The bytes a connection must send before its deadline.
#[derive(Debug)]
struct FirstBytes {
    missing: usize,
    deadline: Pin<Box<Sleep>>,
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        let before = buf.filled().len();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if let Some(first) = &mut this.first_bytes {
                    let read = buf.filled().len() - before;
                    first.missing = first.missing.saturating_sub(read);
                    // Done when all came, or at the end of the stream (the server sees it).
                    if first.missing == 0 || read == 0 {
                        this.first_bytes = None;
                    }
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(err)) => Poll::Ready(Err(err)),
            Poll::Pending => {
                let late = this
                    .first_bytes
                    .as_mut()
                    .is_some_and(|first| first.deadline.as_mut().poll(cx).is_ready());
                if !late {
                    return Poll::Pending;
                }
                this.first_bytes = None;
                Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the peer sent no complete HTTP/2 preface within the header-read timeout",
                )))
            }
        }
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

impl tonic::transport::server::Connected for Connection {
    type ConnectInfo = tonic::transport::server::TcpConnectInfo;

    /// The TCP addresses, as tonic's own listener gives them: `Request::remote_addr` and the
    /// auth and rate limits that read it keep working.
    fn connect_info(&self) -> Self::ConnectInfo {
        self.stream.connect_info()
    }
}

/// Serves `app` over HTTP/1 and HTTP/2 (cleartext) on `listener` until `shutdown` resolves,
/// then stops accepting, lets every connection finish the requests it has in flight (idle
/// ones close at once) and returns once all are closed.
///
/// Handlers find the peer's address as `axum::extract::ConnectInfo<SocketAddr>`.
pub async fn serve_http(
    listener: Listener,
    app: axum::Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let limits = listener.limits();
    // Told to every connection when shutdown begins; its receivers are the open connections.
    let (stopping, stop) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        tokio::spawn(serve_connection(
            accepted,
            app.clone(),
            limits,
            stop.clone(),
        ));
    }
    // No new connections from here on; those open finish what they have in flight.
    drop(listener);
    drop(stop);
    if stopping.send(true).is_ok() {
        stopping.closed().await;
    }
}

/// Serves one connection until it closes, idles out or finishes after shutdown.
async fn serve_connection(
    accepted: Accepted,
    app: axum::Router,
    limits: ConnectionLimits,
    mut stop: watch::Receiver<bool>,
) {
    use http_body_util::BodyExt as _;
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use tower::ServiceExt as _;

    let peer = accepted.peer;
    let over_cap = accepted.is_over_cap();
    let first_request = accepted.header_read_timeout();
    let idle = if over_cap {
        OVER_CAP_TIMEOUT.min(limits.idle_timeout)
    } else {
        limits.idle_timeout
    };
    let activity = Activity::new();

    let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(first_request)
        .keep_alive(!over_cap);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(limits.keepalive_interval)
        .keep_alive_timeout(limits.keepalive_timeout);

    let service = {
        let activity = activity.clone();
        hyper::service::service_fn(move |mut request: http::Request<hyper::body::Incoming>| {
            request
                .extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
            // In flight until the response body is dropped: written out, or the connection gone.
            let busy = activity.begin();
            let response = app.clone().oneshot(request);
            async move {
                let response = response.await?;
                Ok::<_, Infallible>(response.map(|body| {
                    axum::body::Body::new(body.map_frame(move |frame| {
                        let _in_flight = &busy;
                        frame
                    }))
                }))
            }
        })
    };
    let connection = builder.serve_connection_with_upgrades(TokioIo::new(accepted.stream), service);
    tokio::pin!(connection);
    let mut stopping = *stop.borrow();
    if stopping {
        connection.as_mut().graceful_shutdown();
    }
    loop {
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(err) = result {
                    tracing::debug!(%peer, error = %err, "connection closed with an error");
                }
                break;
            }
            changed = stop.changed(), if !stopping => {
                // A closed sender means shutdown too.
                let _ = changed;
                stopping = true;
                connection.as_mut().graceful_shutdown();
            }
            () = activity.expired(first_request, idle) => {
                tracing::debug!(%peer, over_cap, "closing a connection with no request in time");
                break;
            }
        }
    }
}

/// What one connection is doing, for its idle timer: requests in flight, whether it has had
/// one, and since when it has had none.
#[derive(Debug, Clone)]
struct Activity(Arc<watch::Sender<ActivityState>>);

#[derive(Debug, Clone, Copy)]
struct ActivityState {
    in_flight: usize,
    served: bool,
    since: Instant,
}

impl Activity {
    fn new() -> Self {
        Self(Arc::new(watch::Sender::new(ActivityState {
            in_flight: 0,
            served: false,
            since: Instant::now(),
        })))
    }

    /// Counts a request in flight until the returned guard is dropped.
    fn begin(&self) -> Busy {
        self.0.send_modify(|state| {
            state.in_flight += 1;
            state.served = true;
        });
        Busy(self.clone())
    }

    /// Resolves once the connection has had no request in flight for `idle`, or has had none
    /// at all for `first` since it was accepted.
    async fn expired(&self, first: Duration, idle: Duration) {
        let mut changes = self.0.subscribe();
        loop {
            let state = *changes.borrow_and_update();
            if state.in_flight == 0 {
                let deadline = state.since + if state.served { idle } else { first };
                tokio::select! {
                    () = tokio::time::sleep_until(deadline) => return,
                    _ = changes.changed() => {}
                }
            } else {
                // The sender lives in `self`: `changed` fails only once it is gone.
                let _ = changes.changed().await;
            }
        }
    }
}

/// A request in flight ([`Activity::begin`]).
#[derive(Debug)]
struct Busy(Activity);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.0.send_modify(|state| {
            state.in_flight = state.in_flight.saturating_sub(1);
            state.since = Instant::now();
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    async fn bound(limits: ConnectionLimits) -> (Listener, SocketAddr) {
        let tcp = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = tcp.local_addr().expect("address");
        (Listener::new(tcp, limits), addr)
    }

    /// Reads from `stream` until the server closes it (EOF or a reset), giving up after
    /// `limit` so that a server that never closes fails the test rather than hanging it.
    async fn closed_by_server(stream: &mut TcpStream, limit: Duration) -> bool {
        let read_to_end = async {
            let mut buf = [0_u8; 4096];
            loop {
                match stream.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
            }
        };
        tokio::time::timeout(limit, read_to_end).await.is_ok()
    }

    #[tokio::test]
    async fn every_accepted_connection_has_nodelay() {
        let (listener, addr) = bound(ConnectionLimits::default()).await;
        let _client = TcpStream::connect(addr).await.expect("connect");
        let accepted = listener.accept().await;
        assert!(accepted.stream.nodelay().expect("readable option"));
        assert!(!accepted.is_over_cap());
    }

    #[tokio::test]
    async fn connections_over_the_cap_are_accepted_with_the_short_timeout() {
        let limits = ConnectionLimits {
            max_connections: 2,
            ..ConnectionLimits::default()
        };
        let (listener, addr) = bound(limits).await;
        let mut clients = Vec::new();
        let mut accepted = Vec::new();
        for _ in 0..3 {
            clients.push(TcpStream::connect(addr).await.expect("connect"));
            accepted.push(listener.accept().await);
        }
        assert!(!accepted[0].is_over_cap());
        assert!(!accepted[1].is_over_cap());
        assert!(accepted[2].is_over_cap());
        assert_eq!(accepted[2].header_read_timeout(), OVER_CAP_TIMEOUT);

        // A closed connection gives its place back.
        drop(accepted.remove(0));
        clients.push(TcpStream::connect(addr).await.expect("connect"));
        assert!(!listener.accept().await.is_over_cap());
    }

    fn parse(vars: &[(&str, &str)]) -> Result<ConnectionLimits, crate::config::ConfigError> {
        use crate::config::ParseError;
        match crate::config::parse_settings::<Settings>(&[], vars) {
            Ok(settings) => Ok(settings.limits()),
            Err(ParseError::Setting(err)) => Err(err),
            Err(ParseError::Command(err)) => panic!("not a setting's error: {err}"),
        }
    }

    #[test]
    fn no_variables_give_the_default_limits() {
        assert_eq!(parse(&[]).expect("defaults"), ConnectionLimits::default());
        assert_eq!(
            ConnectionLimits::default(),
            ConnectionLimits {
                header_read_timeout: Duration::from_secs(10),
                idle_timeout: Duration::from_secs(60),
                max_connections: 10_000,
                keepalive_interval: Duration::from_secs(30),
                keepalive_timeout: Duration::from_secs(10),
            }
        );
    }

    #[test]
    fn reads_every_variable() {
        let limits = parse(&[
            ("TURNIER_HEADER_READ_TIMEOUT_SECS", "2"),
            ("TURNIER_IDLE_TIMEOUT_SECS", "3"),
            ("TURNIER_MAX_CONNECTIONS", "20"),
            ("TURNIER_KEEPALIVE_INTERVAL_SECS", "4"),
            ("TURNIER_KEEPALIVE_TIMEOUT_SECS", "5"),
        ])
        .expect("all values are valid");
        assert_eq!(
            limits,
            ConnectionLimits {
                header_read_timeout: Duration::from_secs(2),
                idle_timeout: Duration::from_secs(3),
                max_connections: 20,
                keepalive_interval: Duration::from_secs(4),
                keepalive_timeout: Duration::from_secs(5),
            }
        );
    }

    #[test]
    fn a_zero_timeout_or_cap_names_its_variable() {
        for variable in [
            "TURNIER_HEADER_READ_TIMEOUT_SECS",
            "TURNIER_IDLE_TIMEOUT_SECS",
            "TURNIER_MAX_CONNECTIONS",
            "TURNIER_KEEPALIVE_INTERVAL_SECS",
            "TURNIER_KEEPALIVE_TIMEOUT_SECS",
        ] {
            let err = parse(&[(variable, "0")]).expect_err(variable);
            assert_eq!(err.variable, variable);
        }
    }

    #[test]
    fn the_cap_stays_under_the_share_of_open_files_a_listener_may_take() {
        assert_eq!(effective_cap(10_000, None), 10_000);
        assert_eq!(effective_cap(10_000, Some(1_048_576)), 10_000);
        assert_eq!(effective_cap(10_000, Some(20_000)), (20_000 - 256) / 2);
        assert_eq!(effective_cap(10_000, Some(100)), 1);
    }

    #[test]
    fn the_limit_on_open_files_is_raised_to_the_hard_limit() {
        let raised = raise_open_files_limit().expect("the limit can be read and raised");
        let (soft, hard) =
            nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE)
                .expect("the limit can be read");
        assert_eq!((raised, soft), (hard, hard));
    }

    #[tokio::test]
    async fn a_grpc_connection_without_the_preface_fails_its_reads_after_the_timeout() {
        let limits = ConnectionLimits {
            header_read_timeout: Duration::from_millis(200),
            ..ConnectionLimits::default()
        };
        let (listener, addr) = bound(limits).await;
        let mut client = TcpStream::connect(addr).await.expect("connect");
        let mut connection = listener.accept().await.into_connection(HTTP2_PREFACE_LEN);
        client
            .write_all(b"PRI * HTTP/2.0\r\n")
            .await
            .expect("half a preface");
        let mut buf = [0_u8; 64];
        let read = connection.read(&mut buf).await.expect("the half preface");
        assert_eq!(read, 16);
        let err = tokio::time::timeout(Duration::from_secs(30), connection.read(&mut buf))
            .await
            .expect("the deadline fires")
            .expect_err("no complete preface in time");
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
    }

    #[tokio::test]
    async fn a_grpc_connection_that_sent_the_preface_reads_on_past_the_timeout() {
        let limits = ConnectionLimits {
            header_read_timeout: Duration::from_millis(100),
            ..ConnectionLimits::default()
        };
        let (listener, addr) = bound(limits).await;
        let mut client = TcpStream::connect(addr).await.expect("connect");
        let mut connection = listener.accept().await.into_connection(HTTP2_PREFACE_LEN);
        client
            .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
            .await
            .expect("the preface");
        let mut buf = [0_u8; 64];
        let mut read = 0;
        while read < HTTP2_PREFACE_LEN {
            read += connection.read(&mut buf).await.expect("the preface");
        }
        // Well past the deadline (the clock moved on, not waited for), the connection still
        // reads what comes.
        tokio::time::pause();
        tokio::time::advance(Duration::from_millis(300)).await;
        tokio::time::resume();
        client.write_all(b"more").await.expect("more bytes");
        let read = connection.read(&mut buf).await;
        assert_eq!(read.expect("no deadline any more"), 4);
    }

    /// Serves a router answering `/` (with the peer's address) and `/slow` (after half a
    /// second) on a listener with `limits`.
    async fn http_server(limits: ConnectionLimits) -> SocketAddr {
        let (listener, addr) = bound(limits).await;
        let app =
            axum::Router::new()
                .route(
                    "/",
                    axum::routing::get(
                        |axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<
                            SocketAddr,
                        >| async move { peer.ip().to_string() },
                    ),
                )
                .route(
                    "/slow",
                    axum::routing::get(|| async {
                        tokio::time::sleep(Duration::from_millis(500)).await;
                        "127.0.0.1"
                    }),
                );
        tokio::spawn(serve_http(listener, app, std::future::pending()));
        addr
    }

    #[tokio::test]
    async fn an_http_connection_that_sends_nothing_or_half_a_head_is_closed() {
        let addr = http_server(ConnectionLimits {
            header_read_timeout: Duration::from_millis(200),
            ..ConnectionLimits::default()
        })
        .await;
        let mut silent = TcpStream::connect(addr).await.expect("connect");
        let mut half = TcpStream::connect(addr).await.expect("connect");
        half.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
            .await
            .expect("half a head");
        assert!(closed_by_server(&mut silent, Duration::from_secs(30)).await);
        assert!(closed_by_server(&mut half, Duration::from_secs(30)).await);
    }

    #[tokio::test]
    async fn an_idle_keep_alive_connection_is_closed_after_its_response() {
        let addr = http_server(ConnectionLimits {
            idle_timeout: Duration::from_millis(200),
            ..ConnectionLimits::default()
        })
        .await;
        let mut client = TcpStream::connect(addr).await.expect("connect");
        // A request that takes longer than the idle timeout: in flight is not idle.
        client
            .write_all(b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("a request");
        let mut response = Vec::new();
        let mut buf = [0_u8; 4096];
        while !response.ends_with(b"127.0.0.1") {
            let read = client.read(&mut buf).await.expect("the response");
            assert!(read > 0, "closed before the response: {response:?}");
            response.extend_from_slice(&buf[..read]);
        }
        assert!(response.starts_with(b"HTTP/1.1 200 OK"));
        assert!(closed_by_server(&mut client, Duration::from_secs(30)).await);
    }
}
