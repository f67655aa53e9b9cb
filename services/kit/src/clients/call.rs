//! How every call of every client is made: its deadline, its retries, and the client it is
//! made on behalf of.
//!
//! A call is retried only when it is idempotent (making it twice does what making it once
//! does: every read, and the pure computations of the decks, search and scripts services) and
//! its error says another try can succeed ([`ServiceError::is_retryable`]: the service was
//! unreachable or lost a race). A call that changes something is made once; its caller decides.

use std::future::Future;
use std::time::Duration;

use crate::status::ServiceError;
use tonic::{Request, Response, Status};

/// The most attempts an idempotent call gets.
pub const MAX_ATTEMPTS: u32 = 3;

/// The wait before the first retry; it doubles before each further one.
pub const FIRST_BACKOFF: Duration = Duration::from_millis(50);

/// Whether a call may be made again after a retryable failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Idempotency {
    /// Making the call twice does what making it once does.
    Idempotent,
    /// The call changes something: it is made once.
    Once,
}

/// What every call of a client gets: a deadline and a decode limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallOptions {
    /// The longest a call may take, sent to the service as `grpc-timeout`.
    pub deadline: Duration,
    /// The largest answer the client decodes, in bytes.
    pub max_decoding_bytes: usize,
}

impl CallOptions {
    /// Returns the options with `deadline`.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }
}

/// Makes a call: each attempt gets a fresh copy of `message` and the deadline; an idempotent
/// call is made again, after a backoff, while its error is retryable and attempts remain.
pub async fn call<M, T, F, Fut>(
    options: CallOptions,
    idempotency: Idempotency,
    message: M,
    mut attempt: F,
) -> Result<T, ServiceError>
where
    M: Clone,
    F: FnMut(Request<M>) -> Fut,
    Fut: Future<Output = Result<Response<T>, Status>>,
{
    let attempts = match idempotency {
        Idempotency::Idempotent => MAX_ATTEMPTS,
        Idempotency::Once => 1,
    };
    let mut backoff = FIRST_BACKOFF;
    let mut message = Some(message);
    for made in 1..=attempts {
        let last = made == attempts;
        // The last attempt takes the message itself: a large request is copied only while a
        // retry may still need it.
        let this = if last {
            message.take()
        } else {
            message.clone()
        }
        .expect("the message is kept until the last attempt");
        let mut request = Request::new(this);
        request.set_timeout(options.deadline);
        match attempt(request).await {
            Ok(response) => return Ok(response.into_inner()),
            Err(status) => {
                let error = ServiceError::from(status);
                if last || !error.is_retryable() {
                    return Err(error);
                }
                tracing::debug!(error = %error, attempt = made, "retrying an idempotent call");
                tokio::time::sleep(backoff).await;
                backoff *= 2;
            }
        }
    }
    unreachable!("the loop returns on its last attempt")
}

/// Declares a client: a struct `$name` over the generated `$generated` client on a traced
/// channel, with `new`, `with_options`, `connect_lazy` and `on_behalf_of`.
macro_rules! client {
    ($(#[$doc:meta])* $name:ident, $generated:ty, $defaults:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        pub struct $name {
            inner: $generated,
            options: $crate::clients::call::CallOptions,
            /// The client every call is made for, named in its metadata (`crate::caller`).
            caller: Option<std::net::IpAddr>,
            /// The token every call is made with, sent as its `authorization` (`crate::auth`).
            bearer: Option<$crate::auth::Bearer>,
        }

        impl $name {
            /// Returns a client over `channel` whose calls get the service's default options.
            pub fn new(channel: tonic::transport::Channel) -> Self {
                Self::with_options(channel, $defaults)
            }

            /// Returns a client over `channel` whose calls get `options`.
            pub fn with_options(
                channel: tonic::transport::Channel,
                options: $crate::clients::call::CallOptions,
            ) -> Self {
                Self {
                    inner: <$generated>::new($crate::client::traced(channel))
                        .max_decoding_message_size(options.max_decoding_bytes),
                    options,
                    caller: None,
                    bearer: None,
                }
            }

            /// Returns this client with every call made on behalf of the client at `caller`
            /// (the gateway's HTTP client, when it knows its address): a service that shares
            /// something between its callers counts the calls against that client.
            #[must_use]
            pub fn on_behalf_of(&self, caller: Option<std::net::IpAddr>) -> Self {
                Self {
                    caller,
                    ..self.clone()
                }
            }

            /// Returns this client with every call made with `bearer` (the token the gateway's
            /// HTTP client sent, or a tool's own): the service verifies it and acts for its
            /// account. `None`: anonymous calls.
            #[must_use]
            pub fn with_bearer(&self, bearer: Option<$crate::auth::Bearer>) -> Self {
                Self {
                    bearer,
                    ..self.clone()
                }
            }

            /// Returns a client of the service at `url`, connected on first use.
            pub fn connect_lazy(url: &str) -> Result<Self, $crate::client::ClientError> {
                Ok(Self::new($crate::client::channel(url)?))
            }
        }
    };
}
pub(crate) use client;

/// Makes the RPC `$method` of a client (a struct with `inner`, the generated client, and
/// `options`) through [`call`]: `rpc!(self, Idempotent, message, get_cards)`.
macro_rules! rpc {
    ($client:expr, $idempotency:ident, $message:expr, $method:ident) => {{
        let inner = $client.inner.clone();
        let caller = $client.caller;
        let bearer = $client.bearer.clone();
        $crate::clients::call::call(
            $client.options,
            $crate::clients::call::Idempotency::$idempotency,
            $message,
            move |mut request| {
                if let Some(caller) = caller {
                    $crate::caller::name(&mut request, caller);
                }
                if let Some(bearer) = &bearer {
                    bearer.insert_into(request.metadata_mut());
                }
                let mut inner = inner.clone();
                async move { inner.$method(request).await }
            },
        )
        .await
    }};
}
pub(crate) use rpc;

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    const OPTIONS: CallOptions = CallOptions {
        deadline: Duration::from_secs(1),
        max_decoding_bytes: 1 << 20,
    };

    async fn failing_with(
        status: fn() -> Status,
        idempotency: Idempotency,
    ) -> (Result<(), ServiceError>, u32) {
        let attempts = AtomicU32::new(0);
        let result = call(OPTIONS, idempotency, (), |_| {
            attempts.fetch_add(1, Ordering::SeqCst);
            async move { Err::<Response<()>, _>(status()) }
        })
        .await;
        (result, attempts.load(Ordering::SeqCst))
    }

    #[tokio::test(start_paused = true)]
    async fn an_idempotent_call_is_retried_while_the_service_is_unavailable() {
        let (result, attempts) =
            failing_with(|| Status::unavailable("down"), Idempotency::Idempotent).await;
        assert_eq!(attempts, MAX_ATTEMPTS);
        assert_eq!(result.expect_err("always down").reason, "unavailable");
    }

    #[tokio::test(start_paused = true)]
    async fn a_call_that_changes_something_is_made_once() {
        let (_, attempts) = failing_with(|| Status::unavailable("down"), Idempotency::Once).await;
        assert_eq!(attempts, 1);
    }

    #[tokio::test(start_paused = true)]
    async fn an_error_a_retry_cannot_help_is_not_retried() {
        let (_, attempts) =
            failing_with(|| Status::invalid_argument("bad"), Idempotency::Idempotent).await;
        assert_eq!(attempts, 1);
    }

    #[tokio::test(start_paused = true)]
    async fn a_retry_that_succeeds_returns_the_answer_and_every_attempt_has_the_deadline() {
        let attempts = AtomicU32::new(0);
        let answer = call(
            OPTIONS,
            Idempotency::Idempotent,
            7,
            |request: Request<i32>| {
                let made = attempts.fetch_add(1, Ordering::SeqCst);
                let timeout = request.metadata().get("grpc-timeout").cloned();
                async move {
                    assert!(timeout.is_some(), "every attempt carries the deadline");
                    if made == 0 {
                        Err(Status::unavailable("once"))
                    } else {
                        Ok(Response::new(*request.get_ref() * 6))
                    }
                }
            },
        )
        .await;
        assert_eq!(answer, Ok(42));
    }
}
