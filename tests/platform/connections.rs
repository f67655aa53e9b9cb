//! The real binary closes connections that hold a descriptor for nothing, on both its ports:
//! one that sends nothing, half a request head or half the HTTP/2 preface (after the
//! header-read timeout), one left idle after a response (after the idle timeout), and an
//! HTTP/2 peer that stops answering keep-alive pings. Beyond the connection cap, health checks
//! still answer. Each test lowers the setting it is about, and waits for the server to close
//! the socket (bounded by a generous outer timeout), never for a fixed time.

use crate::support::{SamplePlatform, health};

use std::time::Duration;

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use tonic_health::pb::health_check_response::ServingStatus;

/// The longest a test waits for the server to close a connection: far above every lowered
/// timeout, so that only a server that never closes it fails.
const OUTER: Duration = Duration::from_secs(60);

/// The HTTP/2 connection preface a client sends first.
const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Opens a TCP connection to `url` (`http://host:port`).
async fn connect(url: &str) -> TcpStream {
    TcpStream::connect(url.trim_start_matches("http://"))
        .await
        .expect("the port accepts connections")
}

/// Reads from `stream` until the server closes it (EOF, or a reset), returning what it sent;
/// panics, naming `what`, if it is still open after [`OUTER`].
async fn wait_until_closed(stream: &mut TcpStream, what: &str) -> Vec<u8> {
    let mut received = Vec::new();
    let read_to_end = async {
        let mut buf = [0_u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(read) => received.extend_from_slice(&buf[..read]),
            }
        }
    };
    if tokio::time::timeout(OUTER, read_to_end).await.is_err() {
        panic!("the server never closed {what}");
    }
    received
}

/// Sends `GET /healthz` on `stream` and reads the whole response (its body has a length).
async fn get_healthz(stream: &mut TcpStream) -> String {
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: turnier\r\n\r\n")
        .await
        .expect("the request is sent");
    let mut received = Vec::new();
    let mut buf = [0_u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&received).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|line| {
                    let (name, value) = line.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse::<usize>().ok())?
                })
                .expect("the response has a length");
            if body.len() >= length {
                return text;
            }
        }
        let read = tokio::time::timeout(OUTER, stream.read(&mut buf))
            .await
            .expect("the response comes")
            .expect("the response is read");
        assert!(read > 0, "closed before the whole response: {text}");
        received.extend_from_slice(&buf[..read]);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn connections_that_send_nothing_or_half_a_head_are_closed_after_the_header_read_timeout() {
    let platform = SamplePlatform::start_with(&[("TURNIER_HEADER_READ_TIMEOUT_SECS", "1")]).await;

    let mut http_silent = connect(&platform.http).await;
    let mut http_half = connect(&platform.http).await;
    http_half
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: turnier\r\nAccept: ")
        .await
        .expect("half a request head is sent");
    let mut grpc_silent = connect(&platform.grpc).await;
    let mut grpc_half = connect(&platform.grpc).await;
    grpc_half
        .write_all(&PREFACE[..16])
        .await
        .expect("half the preface is sent");

    wait_until_closed(&mut http_silent, "a silent HTTP connection").await;
    let answer = wait_until_closed(&mut http_half, "an HTTP connection with half a head").await;
    // Closed, not answered: the request never came.
    assert!(
        !String::from_utf8_lossy(&answer).contains("200 OK"),
        "{answer:?}"
    );
    wait_until_closed(&mut grpc_silent, "a silent gRPC connection").await;
    wait_until_closed(&mut grpc_half, "a gRPC connection with half the preface").await;

    // The ports still serve whoever speaks.
    let mut fresh = connect(&platform.http).await;
    assert!(get_healthz(&mut fresh).await.starts_with("HTTP/1.1 200 OK"));
    assert_eq!(health(&platform.grpc, "").await, Ok(ServingStatus::Serving));
}

#[tokio::test(flavor = "multi_thread")]
async fn an_idle_keep_alive_connection_and_a_grpc_peer_that_never_answers_pings_are_closed() {
    let platform = SamplePlatform::start_with(&[
        ("TURNIER_IDLE_TIMEOUT_SECS", "1"),
        ("TURNIER_KEEPALIVE_INTERVAL_SECS", "1"),
        ("TURNIER_KEEPALIVE_TIMEOUT_SECS", "1"),
    ])
    .await;

    // HTTP/1: answered, kept alive, then closed once idle.
    let mut keep_alive = connect(&platform.http).await;
    let response = get_healthz(&mut keep_alive).await;
    assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
    assert!(
        !response.to_ascii_lowercase().contains("connection: close"),
        "kept alive at first: {response}"
    );
    wait_until_closed(&mut keep_alive, "an idle keep-alive connection").await;

    // gRPC: a peer that completes the handshake, then neither calls nor answers the server's
    // keep-alive ping.
    let mut grpc = connect(&platform.grpc).await;
    grpc.write_all(PREFACE).await.expect("the preface is sent");
    // An empty SETTINGS frame: length 0, type 4, no flags, stream 0.
    grpc.write_all(&[0, 0, 0, 4, 0, 0, 0, 0, 0])
        .await
        .expect("the client's settings are sent");
    let frames = wait_until_closed(&mut grpc, "an HTTP/2 peer that never answers pings").await;
    let frame_types = frame_types(&frames);
    assert!(
        frame_types.contains(&(6, 0)),
        "the server pinged (type 6, no ACK) before closing: {frame_types:?}"
    );
    assert!(
        frame_types.contains(&(7, 0)),
        "the server said GOAWAY (type 7) before closing: {frame_types:?}"
    );
}

/// The `(type, flags)` of each whole HTTP/2 frame in `bytes`.
fn frame_types(mut bytes: &[u8]) -> Vec<(u8, u8)> {
    let mut frames = Vec::new();
    while bytes.len() >= 9 {
        let length =
            usize::from(bytes[0]) << 16 | usize::from(bytes[1]) << 8 | usize::from(bytes[2]);
        frames.push((bytes[3], bytes[4]));
        bytes = &bytes[(9 + length).min(bytes.len())..];
    }
    frames
}

#[tokio::test(flavor = "multi_thread")]
async fn beyond_the_connection_cap_health_checks_still_answer_on_both_ports() {
    const CAP: usize = 20;
    let cap = CAP.to_string();
    let platform = SamplePlatform::start_with(&[
        ("TURNIER_MAX_CONNECTIONS", &cap),
        // Idle connections under the cap stay open for the whole test.
        ("TURNIER_HEADER_READ_TIMEOUT_SECS", "600"),
    ])
    .await;

    // Three times the cap of idle connections on each port, the first ones under the cap.
    let mut http_idle = Vec::new();
    let mut grpc_idle = Vec::new();
    for _ in 0..3 * CAP {
        http_idle.push(connect(&platform.http).await);
        grpc_idle.push(connect(&platform.grpc).await);
    }

    // A probe on a fresh connection is answered on each port.
    let healthz = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .expect("an HTTP client")
        .get(format!("{}/healthz", platform.http))
        .timeout(OUTER)
        .send()
        .await
        .expect("the gateway answers beyond the cap");
    assert_eq!(healthz.status(), reqwest::StatusCode::OK);
    assert_eq!(health(&platform.grpc, "").await, Ok(ServingStatus::Serving));

    // The connections over the cap (at least the last two thirds: the platform's own
    // connections hold some places on the gRPC port) are closed long before the header-read
    // timeout, so idle connections cannot pile up beyond it.
    for (i, stream) in http_idle.iter_mut().enumerate().skip(CAP) {
        wait_until_closed(stream, &format!("idle HTTP connection {i}, over the cap")).await;
    }
    for (i, stream) in grpc_idle.iter_mut().enumerate().skip(CAP) {
        wait_until_closed(stream, &format!("idle gRPC connection {i}, over the cap")).await;
    }
}
