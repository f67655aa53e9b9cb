//! A smaller request-message limit for callers without a token.
//!
//! A service accepts messages up to its own limit (tonic's 4 MiB by default; the scripts
//! service 64 MiB, for card pools and sources). Anyone who can reach a gRPC port can call it,
//! so a caller that sent no token (`crate::auth::Caller::Anonymous`) may send messages of at
//! most [`DEFAULT_ANONYMOUS_MESSAGE_BYTES`] (`TURNIER_GRPC_ANONYMOUS_MESSAGE_BYTES`): with a
//! valid token, the service's own limit applies. Calls our own processes make
//! (`crate::internal::is_internal`) are not bounded here: the gateway's body limit bounded what
//! its client sent, and the worker's calls carry what the platform itself stored.
//!
//! [`AnonymousLimitLayer`] sits inside [`crate::auth::AuthLayer`], which has told who the
//! caller is by then. It reads the 5-byte prefix gRPC puts before each message (a flag and the
//! message's length on the wire) as the request streams in, so a message over the limit is
//! refused with OUT_OF_RANGE (`message_too_large`, 400 through the gateway, as tonic's own
//! limit) as soon as its length is known, before it is buffered.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Buf as _, Bytes};
use http_body::Frame;
use tonic::Code;

use crate::auth::Caller;
use crate::status::Failure;

/// The default largest request message of a caller without a token: 4 MiB, tonic's default
/// for every service.
pub const DEFAULT_ANONYMOUS_MESSAGE_BYTES: usize = 4 << 20;

/// The reason of the refusal of a message over the limit.
pub const REASON_MESSAGE_TOO_LARGE: &str = "message_too_large";

/// Bytes gRPC puts before each message: a compression flag and a big-endian `u32` length.
const PREFIX_BYTES: usize = 5;

/// The tower layer that bounds the request messages of callers without a token.
#[derive(Debug, Clone, Copy)]
pub struct AnonymousLimitLayer {
    max_bytes: usize,
}

impl AnonymousLimitLayer {
    /// Returns the layer that refuses an anonymous caller's message over `max_bytes`.
    pub fn new(max_bytes: usize) -> Self {
        Self { max_bytes }
    }
}

impl Default for AnonymousLimitLayer {
    fn default() -> Self {
        Self::new(DEFAULT_ANONYMOUS_MESSAGE_BYTES)
    }
}

impl<S> tower::Layer<S> for AnonymousLimitLayer {
    type Service = AnonymousLimit<S>;

    fn layer(&self, inner: S) -> Self::Service {
        AnonymousLimit {
            inner,
            max_bytes: self.max_bytes,
        }
    }
}

/// The service [`AnonymousLimitLayer`] wraps around a server's routes.
#[derive(Debug, Clone)]
pub struct AnonymousLimit<S> {
    inner: S,
    max_bytes: usize,
}

impl<S> tower::Service<http::Request<tonic::body::Body>> for AnonymousLimit<S>
where
    S: tower::Service<http::Request<tonic::body::Body>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<tonic::body::Body>) -> Self::Future {
        // The auth layer puts the caller in; none (health, reflection) is anonymous too.
        let anonymous = request
            .extensions()
            .get::<Caller>()
            .is_none_or(|caller| caller.account().is_none());
        if !anonymous || crate::internal::is_internal(request.headers()) {
            return self.inner.call(request);
        }
        let max_bytes = self.max_bytes;
        self.inner.call(request.map(|body| {
            tonic::body::Body::new(BoundedMessages {
                inner: body,
                max_bytes,
                prefix: [0; PREFIX_BYTES],
                prefix_len: 0,
                left_in_message: 0,
            })
        }))
    }
}

/// A request body whose messages may be at most `max_bytes` long each.
struct BoundedMessages {
    inner: tonic::body::Body,
    max_bytes: usize,
    /// The prefix of the next message, as far as it has arrived.
    prefix: [u8; PREFIX_BYTES],
    prefix_len: usize,
    /// Bytes of the current message still to pass before the next prefix.
    left_in_message: usize,
}

impl BoundedMessages {
    /// Follows the message boundaries through `data`; fails at the first message over the
    /// limit.
    fn check(&mut self, mut data: &[u8]) -> Result<(), tonic::Status> {
        while !data.is_empty() {
            if self.left_in_message > 0 {
                let skipped = self.left_in_message.min(data.len());
                self.left_in_message -= skipped;
                data.advance(skipped);
                continue;
            }
            let taken = (PREFIX_BYTES - self.prefix_len).min(data.len());
            self.prefix[self.prefix_len..self.prefix_len + taken].copy_from_slice(&data[..taken]);
            self.prefix_len += taken;
            data.advance(taken);
            if self.prefix_len == PREFIX_BYTES {
                self.prefix_len = 0;
                let [_, length @ ..] = self.prefix;
                let length = u32::from_be_bytes(length) as usize;
                if length > self.max_bytes {
                    return Err(too_large(length, self.max_bytes));
                }
                self.left_in_message = length;
            }
        }
        Ok(())
    }
}

/// The refusal of a message of `length` bytes over `max_bytes`.
fn too_large(length: usize, max_bytes: usize) -> tonic::Status {
    Failure::new(
        Code::OutOfRange,
        REASON_MESSAGE_TOO_LARGE,
        format!(
            "a request message of {length} bytes is over the {max_bytes} bytes a caller without \
             a token may send: send `authorization: Bearer <token>` to send more"
        ),
    )
    .with_metadata("limit", max_bytes)
    .into()
}

impl http_body::Body for BoundedMessages {
    type Data = Bytes;
    type Error = tonic::Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = &mut *self;
        let frame = match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => frame,
            other => return other,
        };
        if let Some(data) = frame.data_ref()
            && let Err(refused) = this.check(data)
        {
            return Poll::Ready(Some(Err(refused)));
        }
        Poll::Ready(Some(Ok(frame)))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounded(max_bytes: usize) -> BoundedMessages {
        BoundedMessages {
            inner: tonic::body::Body::empty(),
            max_bytes,
            prefix: [0; PREFIX_BYTES],
            prefix_len: 0,
            left_in_message: 0,
        }
    }

    /// A gRPC message on the wire: its prefix and `length` bytes.
    fn message(length: u32) -> Vec<u8> {
        let mut wire = vec![0];
        wire.extend(length.to_be_bytes());
        wire.extend(std::iter::repeat_n(7, length as usize));
        wire
    }

    #[test]
    fn messages_within_the_limit_pass_however_they_are_split() {
        let wire: Vec<u8> = [message(10), message(0), message(16)].concat();
        for chunk in 1..wire.len() {
            let mut body = bounded(16);
            for piece in wire.chunks(chunk) {
                body.check(piece).expect("within the limit");
            }
            assert_eq!((body.prefix_len, body.left_in_message), (0, 0), "{chunk}");
        }
    }

    #[test]
    fn a_message_over_the_limit_is_refused_once_its_length_arrives() {
        let mut body = bounded(16);
        body.check(&message(3)).expect("small");
        let big = message(17);
        body.check(&big[..3]).expect("the length is not known yet");
        let refused = body.check(&big[3..5]).expect_err("over the limit");
        assert_eq!(refused.code(), Code::OutOfRange);
        assert!(
            refused.message().contains("17 bytes"),
            "{}",
            refused.message()
        );
        let error = crate::status::ServiceError::from(refused);
        assert_eq!(error.reason, REASON_MESSAGE_TOO_LARGE);
        assert_eq!(
            error.metadata().get("limit").map(String::as_str),
            Some("16")
        );
    }
}
