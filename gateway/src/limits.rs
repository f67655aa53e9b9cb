//! The gateway's rate limits: the general limit per account or anonymous client address
//! ([`GeneralLimit`], GCRA through `governor`), and the stricter limit on failed sign-ins and
//! sign-ups per username and per address ([`SignInGuard`]); both answer 429
//! `resource_exhausted` with `Retry-After` ([`too_many`]).

use std::collections::VecDeque;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use http::StatusCode;
use serde_json::json;

use crate::ApiError;

/// What the general rate limit counts a request against.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RateKey {
    /// A signed-in account, whichever token or address it calls from.
    Account(String),
    /// An anonymous client address (requests without a connection share `None`).
    Address(Option<IpAddr>),
}

/// The gateway's rate limits, as configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    /// Requests per second one account or anonymous address may make on average; `0`: no
    /// general limit.
    pub per_second: u32,
    /// Requests it may make at once above the average.
    pub burst: u32,
    /// Failed sign-ins (or sign-ups) per username and per address within [`Self::window`].
    pub sign_in_failures: u32,
    /// The window failed sign-ins are counted in.
    pub window: Duration,
}

impl Default for RateLimits {
    fn default() -> Self {
        Self {
            per_second: 100,
            burst: 400,
            sign_in_failures: 10,
            window: Duration::from_secs(15 * 60),
        }
    }
}

/// The general limit: a token bucket per [`RateKey`] (GCRA, `governor`).
pub struct GeneralLimit {
    limiter: Option<DefaultKeyedRateLimiter<RateKey>>,
}

impl std::fmt::Debug for GeneralLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GeneralLimit")
            .field("enabled", &self.limiter.is_some())
            .finish()
    }
}

impl GeneralLimit {
    /// Returns the limit `limits` configure.
    pub fn new(limits: &RateLimits) -> Self {
        let limiter = NonZeroU32::new(limits.per_second).map(|per_second| {
            let burst = NonZeroU32::new(limits.burst.max(limits.per_second)).unwrap_or(per_second);
            governor::RateLimiter::keyed(Quota::per_second(per_second).allow_burst(burst))
        });
        Self { limiter }
    }

    /// Counts a request of `key`: `Err` with the wait before the next one may pass.
    pub fn check(&self, key: &RateKey) -> Result<(), Duration> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        limiter
            .check_key(key)
            .map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()))
    }

    /// Forgets the keys whose buckets are full again, so memory follows recent callers only.
    pub fn forget_idle(&self) {
        if let Some(limiter) = &self.limiter {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

/// Failed sign-ins (and sign-ups) per username and per client address, in a sliding window:
/// past [`RateLimits::sign_in_failures`] within [`RateLimits::window`] the next attempt is
/// 429 until the oldest failure leaves the window. Nothing is locked for longer than the
/// window, so an attacker cannot keep a real user out for good; a real user waits at most
/// that long. Bounded: at most [`SignInGuard::CAPACITY`] keys are remembered.
#[derive(Debug, Clone)]
pub struct SignInGuard {
    failures: moka::sync::Cache<String, Arc<Mutex<VecDeque<Instant>>>>,
    limit: usize,
    window: Duration,
}

impl SignInGuard {
    /// The most usernames and addresses remembered at once.
    pub const CAPACITY: u64 = 100_000;

    /// Returns the guard `limits` configure.
    pub fn new(limits: &RateLimits) -> Self {
        Self {
            failures: moka::sync::Cache::builder()
                .max_capacity(Self::CAPACITY)
                .time_to_idle(limits.window.max(Duration::from_secs(1)))
                .build(),
            limit: limits.sign_in_failures as usize,
            window: limits.window,
        }
    }

    fn keys(username: &str, address: Option<IpAddr>) -> [String; 2] {
        [
            format!("user:{}", username.to_lowercase()),
            format!(
                "addr:{}",
                address.map_or_else(|| "-".to_owned(), |a| a.to_string())
            ),
        ]
    }

    /// Returns whether an attempt for `username` from `address` may be made now: `Err` with
    /// the wait when either has failed too often lately.
    pub fn check(&self, username: &str, address: Option<IpAddr>) -> Result<(), Duration> {
        if self.limit == 0 {
            return Ok(());
        }
        let now = Instant::now();
        let mut wait = Duration::ZERO;
        for key in Self::keys(username, address) {
            if let Some(failures) = self.failures.get(&key) {
                let mut failures = failures.lock().unwrap_or_else(|e| e.into_inner());
                while failures
                    .front()
                    .is_some_and(|at| now.duration_since(*at) >= self.window)
                {
                    failures.pop_front();
                }
                if failures.len() >= self.limit
                    && let Some(oldest) = failures.front()
                {
                    wait = wait.max(self.window.saturating_sub(now.duration_since(*oldest)));
                }
            }
        }
        if wait.is_zero() { Ok(()) } else { Err(wait) }
    }

    /// Counts a failed attempt for `username` from `address`.
    pub fn failed(&self, username: &str, address: Option<IpAddr>) {
        if self.limit == 0 {
            return;
        }
        let now = Instant::now();
        for key in Self::keys(username, address) {
            let failures = self.failures.get_with(key, Default::default);
            let mut failures = failures.lock().unwrap_or_else(|e| e.into_inner());
            failures.push_back(now);
            while failures.len() > self.limit {
                failures.pop_front();
            }
        }
    }
}

/// The 429 of a limit: `resource_exhausted`, with `Retry-After` (from `retry_after_ms`).
pub fn too_many(what: &str, wait: Duration) -> ApiError {
    let ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX).max(1);
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "resource_exhausted",
        format!("{what}: try again in {} s", ms.div_ceil(1000)),
    )
    .with_details(json!({ "retry_after_ms": ms }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::response::IntoResponse as _;

    #[test]
    fn failed_sign_ins_are_limited_per_username_and_per_address_for_the_window_only() {
        let limits = RateLimits {
            sign_in_failures: 3,
            window: Duration::from_millis(200),
            ..RateLimits::default()
        };
        let guard = SignInGuard::new(&limits);
        let here: Option<IpAddr> = Some("198.51.100.1".parse().expect("an address"));
        let there: Option<IpAddr> = Some("198.51.100.2".parse().expect("an address"));
        for _ in 0..3 {
            assert!(guard.check("Ana", here).is_ok());
            guard.failed("Ana", here);
        }
        // The username is held from any address, in any case; the address for any username.
        assert!(guard.check("ana", there).is_err());
        assert!(guard.check("bob", here).is_err());
        assert!(guard.check("bob", there).is_ok());
        let wait = guard.check("ANA", there).unwrap_err();
        assert!(wait <= limits.window && !wait.is_zero());
        std::thread::sleep(limits.window);
        assert!(guard.check("ana", here).is_ok());
    }

    #[test]
    fn the_general_limit_lets_a_burst_through_then_says_how_long_to_wait() {
        let limit = GeneralLimit::new(&RateLimits {
            per_second: 1,
            burst: 3,
            ..RateLimits::default()
        });
        let key = RateKey::Address(None);
        for _ in 0..3 {
            assert!(limit.check(&key).is_ok());
        }
        let wait = limit.check(&key).unwrap_err();
        assert!(wait <= Duration::from_secs(1));
        // Another caller has its own bucket.
        assert!(limit.check(&RateKey::Account("acc_1".to_owned())).is_ok());
        let off = GeneralLimit::new(&RateLimits {
            per_second: 0,
            ..RateLimits::default()
        });
        assert!((0..10_000).all(|_| off.check(&key).is_ok()));
    }

    #[test]
    fn a_limit_answers_429_with_retry_after() {
        let response = too_many("too many sign-ins", Duration::from_millis(1500)).into_response();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(
            response.headers().get(http::header::RETRY_AFTER),
            Some(&http::HeaderValue::from(2))
        );
    }
}
