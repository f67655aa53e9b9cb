//! The knobs of a queue: visibility timeout, attempts, backoff and polling.
//!
//! Production uses the defaults; tests shrink them so that a timeout or a retry happens in
//! milliseconds instead of minutes.

use std::time::Duration;

/// How a [`super::Queue`] hands out, retries and keeps jobs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueSettings {
    /// How long a delivery may go without `ack`, `fail` or `extend` before the job is handed
    /// to another consumer. The worker extends the lease while its handler runs, so this only
    /// needs to cover a lost worker, not a slow job.
    pub visibility_timeout: Duration,
    /// How many hand-outs a job gets before it becomes a dead letter (at least 1).
    pub max_attempts: u32,
    /// The wait after the first failure; it doubles with each further failure.
    pub backoff_base: Duration,
    /// The longest wait between attempts.
    pub backoff_max: Duration,
    /// How long an idle worker waits before asking for a job again.
    pub poll_interval: Duration,
    /// How long a completed job id is remembered, so that enqueueing it again is a duplicate.
    pub completed_retention: Duration,
}

impl Default for QueueSettings {
    fn default() -> Self {
        Self {
            visibility_timeout: Duration::from_secs(30),
            max_attempts: 5,
            backoff_base: Duration::from_secs(1),
            backoff_max: Duration::from_secs(5 * 60),
            poll_interval: Duration::from_millis(500),
            completed_retention: Duration::from_secs(7 * 24 * 60 * 60),
        }
    }
}

impl QueueSettings {
    /// Returns how long to wait before handing out a job again after its `attempt`-th
    /// hand-out failed: `backoff_base × 2^(attempt − 1)`, at most `backoff_max`.
    pub fn backoff_after(&self, attempt: u32) -> Duration {
        let doublings = attempt.saturating_sub(1).min(31);
        self.backoff_base
            .checked_mul(1u32 << doublings)
            .unwrap_or(self.backoff_max)
            .min(self.backoff_max)
    }

    /// Returns whether a job whose `attempt`-th hand-out failed has no attempts left.
    pub fn is_last_attempt(&self, attempt: u32) -> bool {
        attempt >= self.max_attempts.max(1)
    }

    /// Returns the visibility timeout in whole milliseconds (at least 1).
    pub(crate) fn visibility_millis(&self) -> i64 {
        duration_millis(self.visibility_timeout).max(1)
    }
}

/// Returns `duration` in whole milliseconds, saturating.
pub(crate) fn duration_millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_the_base_and_stops_at_the_maximum() {
        let settings = QueueSettings {
            backoff_base: Duration::from_secs(1),
            backoff_max: Duration::from_secs(10),
            ..QueueSettings::default()
        };
        let waits: Vec<u64> = (1..=6)
            .map(|a| settings.backoff_after(a).as_secs())
            .collect();
        assert_eq!(waits, [1, 2, 4, 8, 10, 10]);
    }

    #[test]
    fn backoff_does_not_overflow_after_many_attempts() {
        let settings = QueueSettings::default();
        assert_eq!(settings.backoff_after(u32::MAX), settings.backoff_max);
    }

    #[test]
    fn the_fifth_attempt_is_the_last_by_default() {
        let settings = QueueSettings::default();
        assert!(!settings.is_last_attempt(4));
        assert!(settings.is_last_attempt(5));
    }
}
