//! The accounts service's settings: how long a session lasts, and how many password hashes
//! run and wait at once.
//!
//! Declared here, parsed with the rest of the binary's command line by `kit::config::parse`.

use std::time::Duration;

use kit::config::whole_number;

/// The default session length, in days.
pub const DEFAULT_SESSION_DAYS: u32 = 30;

/// The accounts service's settings, as given on the command line or in the environment.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Accounts service settings")]
// Every crate names its struct `Settings`; the group clap derives from it needs its own id.
#[group(id = "accounts_settings")]
pub struct Settings {
    /// Days a session lasts after sign-in (or sign-up); sign-out ends it sooner.
    #[arg(
        long = "session-days",
        env = "TURNIER_SESSION_DAYS",
        value_name = "DAYS",
        default_value_t = DEFAULT_SESSION_DAYS,
        value_parser = whole_number(1..=3650_u32)
    )]
    pub session_days: u32,
    /// Password hashes (argon2id, 19 MiB each) that run at once; unset: one per core.
    #[arg(
        long = "password-hashers",
        env = "TURNIER_PASSWORD_HASHERS",
        value_name = "THREADS",
        value_parser = whole_number(1..=256_usize)
    )]
    pub password_hashers: Option<usize>,
    /// Sign-ups and sign-ins that may wait for a hashing thread; one more is refused 429 `busy`.
    #[arg(
        long = "password-queue",
        env = "TURNIER_PASSWORD_QUEUE",
        value_name = "REQUESTS",
        default_value_t = crate::hash_pool::DEFAULT_QUEUE,
        value_parser = whole_number(0..=1_000_000_usize)
    )]
    pub password_queue: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            session_days: DEFAULT_SESSION_DAYS,
            password_hashers: None,
            password_queue: crate::hash_pool::DEFAULT_QUEUE,
        }
    }
}

impl Settings {
    /// Returns the pool password hashes run on.
    pub fn hash_pool(&self) -> crate::hash_pool::HashPool {
        let threads = self
            .password_hashers
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
        crate::hash_pool::HashPool::new(threads, self.password_queue)
    }

    /// Returns how long a new session lasts.
    pub fn session_ttl(&self) -> Duration {
        Duration::from_secs(u64::from(self.session_days) * 86_400)
    }
}

#[cfg(test)]
mod tests {
    use kit::config::ParseError;

    use super::*;

    fn parse(vars: &[(&str, &str)]) -> Result<Settings, ParseError> {
        kit::config::parse_settings(&[], vars)
    }

    #[test]
    fn sessions_last_30_days_unless_set() {
        let settings = parse(&[]).expect("defaults are valid");
        assert_eq!(settings.session_ttl(), Duration::from_secs(30 * 86_400));
        let settings = parse(&[("TURNIER_SESSION_DAYS", "7")]).expect("valid");
        assert_eq!(settings.session_days, 7);
    }

    #[test]
    fn a_bad_session_length_names_the_variable() {
        for bad in ["0", "3651", "a week"] {
            let Err(ParseError::Setting(err)) = parse(&[("TURNIER_SESSION_DAYS", bad)]) else {
                panic!("{bad} is refused as a setting");
            };
            assert_eq!(err.variable, "TURNIER_SESSION_DAYS");
        }
    }
}
