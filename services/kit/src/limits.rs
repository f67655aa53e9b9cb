//! The platform's abuse limits, one mechanism for both edges: the general rate limit per
//! account (else client address), failed sign-ins per username and per address, and sign-ups
//! per address. The gateway counts each HTTP request here, every gRPC server counts each call a
//! third party makes straight to it ([`LimitLayer`], inside the auth layer, which says who the
//! caller is), and the accounts service counts sign-ins
//! and sign-ups, whichever edge they came through — so a count made over HTTP holds over gRPC
//! and the reverse.
//!
//! The counts live in the process ([`Limiter::in_memory`]: the all-in-one, whose edges share
//! one limiter) or in Redis ([`Limiter::redis`], when the deployment has `REDIS_URL`), so the
//! processes of a split deployment share them. A call one of our own processes makes on a
//! client's behalf was counted at the edge it came in by and is not counted again
//! (`crate::internal::is_internal`). When Redis cannot be reached a limit lets the request
//! through and logs it: an outage of the limiter must not become an outage of the platform.

use std::collections::VecDeque;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use tonic::Code;

use crate::caller::CallerKey;
use crate::status::Failure;

/// The reason of every refusal of a limit.
pub const REASON_TOO_MANY: &str = "too_many_requests";

/// The limits, as configured (`TURNIER_RATE_LIMIT_*`, `TURNIER_SIGN_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
#[command(next_help_heading = "Abuse limits (both edges)")]
#[group(id = "limit_settings")]
pub struct LimitSettings {
    /// Requests per second one account (or one anonymous client address) may make on
    /// average, over HTTP and gRPC together; 0 turns the general limit off.
    #[arg(
        long = "rate-limit-per-second",
        env = "TURNIER_RATE_LIMIT_PER_SECOND",
        value_name = "N",
        default_value_t = 100
    )]
    pub per_second: u32,
    /// Requests one account or address may make at once above that average.
    #[arg(
        long = "rate-limit-burst",
        env = "TURNIER_RATE_LIMIT_BURST",
        value_name = "N",
        default_value_t = 400
    )]
    pub burst: u32,
    /// Failed sign-ins (or sign-ups) per username and per client address within the window
    /// before further attempts are refused; 0 turns the limit off.
    #[arg(
        long = "sign-in-failures",
        env = "TURNIER_SIGN_IN_FAILURES",
        value_name = "N",
        default_value_t = 10
    )]
    pub sign_in_failures: u32,
    /// Accounts one client address may create within the window; 0 turns the limit off.
    #[arg(
        long = "sign-ups-per-address",
        env = "TURNIER_SIGN_UPS_PER_ADDRESS",
        value_name = "N",
        default_value_t = 20
    )]
    pub sign_ups_per_address: u32,
    /// The window failed sign-ins and sign-ups are counted in, in seconds.
    #[arg(
        long = "sign-in-window-secs",
        env = "TURNIER_SIGN_IN_WINDOW_SECS",
        value_name = "SECS",
        default_value_t = 900,
        value_parser = clap::value_parser!(u64).range(1..=86_400)
    )]
    pub window_secs: u64,
}

impl Default for LimitSettings {
    fn default() -> Self {
        Self {
            per_second: 100,
            burst: 400,
            sign_in_failures: 10,
            sign_ups_per_address: 20,
            window_secs: 900,
        }
    }
}

impl LimitSettings {
    /// Returns the window failed sign-ins and sign-ups are counted in.
    pub fn window(&self) -> Duration {
        Duration::from_secs(self.window_secs)
    }
}

/// Why a request is refused: which limit, and how long until it may be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooMany {
    /// What was done too often, for the message ("too many requests").
    pub what: &'static str,
    /// How long until the next attempt may pass.
    pub wait: Duration,
}

impl TooMany {
    /// Returns the refusal as it goes on the wire: RESOURCE_EXHAUSTED with `retry_after_ms`
    /// (the gateway answers it 429 with `Retry-After`).
    pub fn to_failure(self) -> Failure {
        let ms = u64::try_from(self.wait.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        Failure::new(
            Code::ResourceExhausted,
            REASON_TOO_MANY,
            format!("{}: try again in {} s", self.what, ms.div_ceil(1000)),
        )
        .with_metadata("retry_after_ms", ms)
    }
}

impl From<TooMany> for tonic::Status {
    fn from(refused: TooMany) -> Self {
        refused.to_failure().into()
    }
}

/// The limits and where their counts are kept. Cheap to clone; clones share the counts.
#[derive(Clone)]
pub struct Limiter {
    settings: LimitSettings,
    backend: Arc<Backend>,
}

impl std::fmt::Debug for Limiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let backend = match *self.backend {
            Backend::Memory(_) => "memory",
            #[cfg(feature = "queue")]
            Backend::Redis { .. } => "redis",
        };
        f.debug_struct("Limiter")
            .field("settings", &self.settings)
            .field("backend", &backend)
            .finish()
    }
}

impl PartialEq for Limiter {
    /// Two limiters are the same when they share their counts.
    fn eq(&self, other: &Self) -> bool {
        self.settings == other.settings && Arc::ptr_eq(&self.backend, &other.backend)
    }
}

impl Eq for Limiter {}

enum Backend {
    Memory(Memory),
    #[cfg(feature = "queue")]
    Redis {
        connection: redis::aio::ConnectionManager,
        prefix: String,
    },
}

/// The counts of one process.
struct Memory {
    general: Option<DefaultKeyedRateLimiter<String>>,
    /// Recent events (failures, sign-ups) per key, oldest first, at most the limit kept.
    windows: moka::sync::Cache<String, Arc<Mutex<VecDeque<Instant>>>>,
}

/// The most keys a process remembers failures and sign-ups of.
const MEMORY_CAPACITY: u64 = 100_000;

impl Limiter {
    /// Returns a limiter that keeps its counts in this process.
    pub fn in_memory(settings: LimitSettings) -> Self {
        let general = NonZeroU32::new(settings.per_second).map(|per_second| {
            let burst =
                NonZeroU32::new(settings.burst.max(settings.per_second)).unwrap_or(per_second);
            governor::RateLimiter::keyed(Quota::per_second(per_second).allow_burst(burst))
        });
        let windows = moka::sync::Cache::builder()
            .max_capacity(MEMORY_CAPACITY)
            .time_to_idle(settings.window())
            .build();
        let limiter = Self {
            settings,
            backend: Arc::new(Backend::Memory(Memory { general, windows })),
        };
        limiter.forget_idle_every_minute();
        limiter
    }

    /// Returns a limiter that keeps its counts in Redis at `url`, under `prefix`: every process
    /// given the same server and prefix shares them.
    #[cfg(feature = "queue")]
    pub async fn redis(
        url: &str,
        prefix: &str,
        settings: LimitSettings,
    ) -> Result<Self, redis::RedisError> {
        let client = redis::Client::open(url)?;
        let connection = redis::aio::ConnectionManager::new(client).await?;
        Ok(Self {
            settings,
            backend: Arc::new(Backend::Redis {
                connection,
                prefix: format!("{prefix}:limits"),
            }),
        })
    }

    /// Returns the settings.
    pub fn settings(&self) -> &LimitSettings {
        &self.settings
    }

    /// Counts one request of `caller` against the general limit.
    pub async fn count_request(&self, caller: &CallerKey) -> Result<(), TooMany> {
        let refused = |wait| TooMany {
            what: "too many requests",
            wait,
        };
        match &*self.backend {
            Backend::Memory(memory) => match &memory.general {
                None => Ok(()),
                Some(limiter) => {
                    limiter
                        .check_key(&caller.as_str().to_owned())
                        .map_err(|not_until| {
                            refused(not_until.wait_time_from(DefaultClock::default().now()))
                        })
                }
            },
            #[cfg(feature = "queue")]
            Backend::Redis { connection, prefix } => {
                if self.settings.per_second == 0 {
                    return Ok(());
                }
                let key = format!("{prefix}:rate:{caller}");
                let wait = redis_gcra(connection.clone(), &key, &self.settings).await;
                wait.map_or(Ok(()), |wait| Err(refused(wait)))
            }
        }
    }

    /// Returns whether a sign-in (or sign-up) for `username` from `address` may be tried now:
    /// not when either has failed [`LimitSettings::sign_in_failures`] times within the window.
    pub async fn check_sign_in(
        &self,
        username: &str,
        address: Option<IpAddr>,
        what: &'static str,
    ) -> Result<(), TooMany> {
        let limit = self.settings.sign_in_failures;
        let mut wait = Duration::ZERO;
        for key in failure_keys(username, address) {
            if let Some(held) = self.held(&key, limit).await {
                wait = wait.max(held);
            }
        }
        if wait.is_zero() {
            Ok(())
        } else {
            Err(TooMany { what, wait })
        }
    }

    /// Counts a failed sign-in (or sign-up) for `username` from `address`.
    pub async fn sign_in_failed(&self, username: &str, address: Option<IpAddr>) {
        for key in failure_keys(username, address) {
            self.record(&key, self.settings.sign_in_failures).await;
        }
    }

    /// Returns whether `address` may create another account now: not after
    /// [`LimitSettings::sign_ups_per_address`] within the window.
    pub async fn check_sign_up(&self, address: Option<IpAddr>) -> Result<(), TooMany> {
        match self
            .held(&sign_up_key(address), self.settings.sign_ups_per_address)
            .await
        {
            None => Ok(()),
            Some(wait) => Err(TooMany {
                what: "too many sign-ups from this address",
                wait,
            }),
        }
    }

    /// Counts an account created from `address`.
    pub async fn signed_up(&self, address: Option<IpAddr>) {
        self.record(&sign_up_key(address), self.settings.sign_ups_per_address)
            .await;
    }

    /// Returns how long `key` is held, if it has `limit` events (not 0) within the window.
    async fn held(&self, key: &str, limit: u32) -> Option<Duration> {
        if limit == 0 {
            return None;
        }
        let window = self.settings.window();
        match &*self.backend {
            Backend::Memory(memory) => {
                let events = memory.windows.get(key)?;
                let mut events = events.lock().unwrap_or_else(|e| e.into_inner());
                let now = Instant::now();
                while events
                    .front()
                    .is_some_and(|at| now.duration_since(*at) >= window)
                {
                    events.pop_front();
                }
                let oldest = events.front()?;
                (events.len() >= limit as usize)
                    .then(|| window.saturating_sub(now.duration_since(*oldest)))
            }
            #[cfg(feature = "queue")]
            Backend::Redis { connection, prefix } => {
                redis_window(
                    connection.clone(),
                    &format!("{prefix}:{key}"),
                    window,
                    limit,
                    false,
                )
                .await
            }
        }
    }

    /// Records an event of `key`, keeping at most `limit` (not 0) within the window.
    async fn record(&self, key: &str, limit: u32) {
        if limit == 0 {
            return;
        }
        match &*self.backend {
            Backend::Memory(memory) => {
                let events = memory.windows.get_with(key.to_owned(), Default::default);
                let mut events = events.lock().unwrap_or_else(|e| e.into_inner());
                events.push_back(Instant::now());
                while events.len() > limit as usize {
                    events.pop_front();
                }
            }
            #[cfg(feature = "queue")]
            Backend::Redis { connection, prefix } => {
                let key = format!("{prefix}:{key}");
                redis_window(
                    connection.clone(),
                    &key,
                    self.settings.window(),
                    limit,
                    true,
                )
                .await;
            }
        }
    }

    /// Forgets, once a minute, the general limit's buckets that are full again, so the
    /// process's memory follows recent callers only; ends with the limiter.
    fn forget_idle_every_minute(&self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let weak = Arc::downgrade(&self.backend);
        runtime.spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(60));
            every.tick().await;
            loop {
                every.tick().await;
                let Some(backend) = weak.upgrade() else { break };
                if let Backend::Memory(Memory {
                    general: Some(limiter),
                    ..
                }) = &*backend
                {
                    limiter.retain_recent();
                    limiter.shrink_to_fit();
                }
            }
        });
    }
}

fn failure_keys(username: &str, address: Option<IpAddr>) -> [String; 2] {
    [
        format!("fail:user:{}", username.to_lowercase()),
        format!(
            "fail:addr:{}",
            address.map_or_else(|| "-".to_owned(), |a| a.to_string())
        ),
    ]
}

fn sign_up_key(address: Option<IpAddr>) -> String {
    format!(
        "signup:addr:{}",
        address.map_or_else(|| "-".to_owned(), |a| a.to_string())
    )
}

/// GCRA on the Redis server's clock: the key holds the theoretical arrival time (ms). Returns
/// the wait in ms, 0 when the request passes.
#[cfg(feature = "queue")]
const GCRA: &str = r"
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local allowed_at = tat - tolerance
if now < allowed_at then return allowed_at - now end
local next_tat = tat + interval
redis.call('SET', KEYS[1], next_tat, 'PX', math.max(1, math.ceil(next_tat - now)))
return 0
";

/// The sliding window of events: drops those older than the window, then counts (and, with
/// `record`, adds one, keeping at most the limit). Returns the wait in ms, 0 when not held.
#[cfg(feature = "queue")]
const WINDOW: &str = r"
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[1], now, now .. ':' .. now_parts[2] .. ':' .. math.random(1000000))
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(limit + 1))
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
if redis.call('ZCARD', KEYS[1]) < limit then return 0 end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)
";

#[cfg(feature = "queue")]
async fn redis_gcra(
    mut connection: redis::aio::ConnectionManager,
    key: &str,
    settings: &LimitSettings,
) -> Option<Duration> {
    let interval = 1000.0 / f64::from(settings.per_second.max(1));
    let tolerance = interval * f64::from(settings.burst.max(settings.per_second).saturating_sub(1));
    let answer: Result<u64, _> = redis::Script::new(GCRA)
        .key(key)
        .arg(interval)
        .arg(tolerance)
        .invoke_async(&mut connection)
        .await;
    match answer {
        Ok(0) => None,
        Ok(ms) => Some(Duration::from_millis(ms)),
        Err(err) => {
            tracing::warn!(error = %err, "rate limit unavailable (Redis): letting the request through");
            None
        }
    }
}

#[cfg(feature = "queue")]
async fn redis_window(
    mut connection: redis::aio::ConnectionManager,
    key: &str,
    window: Duration,
    limit: u32,
    record: bool,
) -> Option<Duration> {
    let answer: Result<u64, _> = redis::Script::new(WINDOW)
        .key(key)
        .arg(u64::try_from(window.as_millis()).unwrap_or(u64::MAX))
        .arg(limit)
        .arg(if record { "1" } else { "0" })
        .invoke_async(&mut connection)
        .await;
    match answer {
        Ok(0) => None,
        Ok(ms) => Some(Duration::from_millis(ms)),
        Err(err) => {
            tracing::warn!(error = %err, "sign-in limit unavailable (Redis): not counted");
            None
        }
    }
}

/// The gRPC side of the general limit: every call a client makes straight to a server counts
/// against its account (else its address) before any handler runs; health and reflection are
/// never counted, and neither is a call one of our processes makes on a client's behalf
/// (counted where it came in). Goes inside the auth layer, which says who the caller is.
#[derive(Debug, Clone)]
pub struct LimitLayer {
    limiter: Option<Limiter>,
}

impl LimitLayer {
    /// Returns the layer counting with `limiter`; `None` counts nothing.
    pub fn new(limiter: Option<Limiter>) -> Self {
        Self { limiter }
    }
}

impl<S> tower::Layer<S> for LimitLayer {
    type Service = LimitService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        LimitService {
            inner,
            limiter: self.limiter.clone(),
        }
    }
}

/// The service of [`LimitLayer`].
#[derive(Debug, Clone)]
pub struct LimitService<S> {
    inner: S,
    limiter: Option<Limiter>,
}

impl<S, B, R> tower::Service<http::Request<B>> for LimitService<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<R>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    B: Send + 'static,
    R: Default + Send + 'static,
{
    type Response = http::Response<R>;
    type Error = S::Error;
    type Future = futures::future::BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        // The clone takes the readiness of the one polled (tower's documented pattern).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let limiter = self.limiter.clone().filter(|_| {
            !is_infrastructure(request.uri().path())
                && !crate::internal::is_internal(request.headers())
        });
        Box::pin(async move {
            if let Some(limiter) = limiter
                && let Err(refused) = limiter
                    .count_request(&crate::caller::key_of_http(&request))
                    .await
            {
                return Ok(tonic::Status::from(refused).into_http());
            }
            inner.call(request).await
        })
    }
}

/// Returns whether `path` is a health or reflection call, never limited.
fn is_infrastructure(path: &str) -> bool {
    path.starts_with("/grpc.health.") || path.starts_with("/grpc.reflection.")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> LimitSettings {
        LimitSettings {
            per_second: 1,
            burst: 3,
            sign_in_failures: 3,
            sign_ups_per_address: 2,
            window_secs: 1,
        }
    }

    async fn limiters() -> Vec<Limiter> {
        let prefix = format!("kit-limits-test-{}", uuid::Uuid::new_v4());
        let redis = Limiter::redis("redis://127.0.0.1:6379", &prefix, settings())
            .await
            .expect("Redis at 127.0.0.1:6379 (the tests need it running)");
        vec![Limiter::in_memory(settings()), redis]
    }

    #[tokio::test]
    async fn the_general_limit_lets_a_burst_through_then_says_how_long_to_wait() {
        for limiter in limiters().await {
            let key = CallerKey::from("198.51.100.1".parse::<IpAddr>().expect("an address"));
            for _ in 0..3 {
                assert!(limiter.count_request(&key).await.is_ok(), "{limiter:?}");
            }
            let refused = limiter
                .count_request(&key)
                .await
                .expect_err("over the burst");
            assert!(
                refused.wait <= Duration::from_secs(1) && !refused.wait.is_zero(),
                "{refused:?}"
            );
            let other = CallerKey::from("198.51.100.2".parse::<IpAddr>().expect("an address"));
            assert!(
                limiter.count_request(&other).await.is_ok(),
                "another caller has its own"
            );
        }
    }

    #[tokio::test]
    async fn failed_sign_ins_hold_the_username_from_any_address_and_the_address_for_any_name() {
        for limiter in limiters().await {
            let here: Option<IpAddr> = Some("198.51.100.1".parse().expect("an address"));
            let there: Option<IpAddr> = Some("198.51.100.2".parse().expect("an address"));
            for _ in 0..3 {
                assert!(limiter.check_sign_in("Ana", here, "x").await.is_ok());
                limiter.sign_in_failed("Ana", here).await;
            }
            assert!(
                limiter.check_sign_in("ana", there, "x").await.is_err(),
                "{limiter:?}"
            );
            assert!(limiter.check_sign_in("bob", here, "x").await.is_err());
            assert!(limiter.check_sign_in("bob", there, "x").await.is_ok());
            let refused = limiter
                .check_sign_in("ANA", there, "x")
                .await
                .expect_err("held");
            assert!(refused.wait <= Duration::from_secs(1) && !refused.wait.is_zero());
            // Never longer than the window.
            let mut freed = false;
            for _ in 0..40 {
                if limiter.check_sign_in("ana", here, "x").await.is_ok() {
                    freed = true;
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            assert!(freed, "the window passes: {limiter:?}");
        }
    }

    #[tokio::test]
    async fn sign_ups_are_counted_per_address() {
        for limiter in limiters().await {
            let here: Option<IpAddr> = Some("198.51.100.7".parse().expect("an address"));
            for _ in 0..2 {
                assert!(limiter.check_sign_up(here).await.is_ok());
                limiter.signed_up(here).await;
            }
            assert!(limiter.check_sign_up(here).await.is_err(), "{limiter:?}");
            assert!(limiter.check_sign_up(None).await.is_ok());
        }
    }

    #[test]
    fn health_and_reflection_are_never_limited() {
        assert!(is_infrastructure("/grpc.health.v1.Health/Check"));
        assert!(is_infrastructure(
            "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"
        ));
        assert!(!is_infrastructure(
            "/turnier.accounts.v1.AccountService/SignIn"
        ));
    }

    #[test]
    fn a_refusal_is_resource_exhausted_with_its_retry_hint() {
        let status = tonic::Status::from(TooMany {
            what: "too many failed sign-ins",
            wait: Duration::from_millis(1500),
        });
        assert_eq!(status.code(), Code::ResourceExhausted);
        assert_eq!(
            status.message(),
            "too many failed sign-ins: try again in 2 s"
        );
        let error = crate::status::ServiceError::from(status);
        assert_eq!(error.reason, REASON_TOO_MANY);
    }
}
