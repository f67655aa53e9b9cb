//! The accounts service's settings: how long a session lasts.
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
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            session_days: DEFAULT_SESSION_DAYS,
        }
    }
}

impl Settings {
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
