//! The scripts service's settings: how many sandboxed runs happen at once and how much memory
//! each may use. Together they bound the memory the service's sandboxes can take
//! (concurrency × memory).
//!
//! Declared here, parsed with the rest of the binary's command line by `kit::config::parse`;
//! [`crate::grpc::Api::new`] turns them into sandbox limits.

/// The scripts service's settings, as given on the command line or in the environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
#[command(next_help_heading = "Scripts service settings")]
// Every crate names its struct `Settings`; the group clap derives from it needs its own id.
#[group(id = "scripts_settings")]
pub struct Settings {
    /// Sandbox runs at the same time; further requests wait their turn (default: 2 per CPU, at
    /// least 4).
    #[arg(
        long = "script-concurrency",
        env = "TURNIER_SCRIPT_CONCURRENCY",
        value_name = "RUNS",
        default_value_t = default_concurrency(),
        value_parser = kit::config::whole_number(1..=1024_u32)
    )]
    pub concurrency: u32,
    /// Memory of one sandbox run, in MiB.
    #[arg(
        long = "script-memory-mib",
        env = "TURNIER_SCRIPT_MEMORY_MIB",
        value_name = "MIB",
        default_value_t = 64,
        value_parser = kit::config::whole_number(16..=4096_u32)
    )]
    pub memory_mib: u32,
}

/// Two runs per CPU, at least 4 and at most 256.
fn default_concurrency() -> u32 {
    let cpus = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    u32::try_from(cpus * 2).unwrap_or(u32::MAX).clamp(4, 256)
}

#[cfg(test)]
mod tests {
    use kit::config::{ConfigError, ParseError};

    use super::*;

    fn parse(vars: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        match kit::config::parse_settings(&[], vars) {
            Ok(settings) => Ok(settings),
            Err(ParseError::Setting(err)) => Err(err),
            Err(ParseError::Command(err)) => panic!("not a setting's error: {err}"),
        }
    }

    #[test]
    fn with_nothing_set_runs_two_per_cpu_with_64_mib_each() {
        let settings = parse(&[]).expect("defaults are valid");
        assert_eq!(settings.concurrency, default_concurrency());
        assert!(settings.concurrency >= 4);
        assert_eq!(settings.memory_mib, 64);
    }

    #[test]
    fn reads_both_variables() {
        let settings = parse(&[
            ("TURNIER_SCRIPT_CONCURRENCY", "8"),
            ("TURNIER_SCRIPT_MEMORY_MIB", "128"),
        ])
        .expect("valid");
        assert_eq!(
            settings,
            Settings {
                concurrency: 8,
                memory_mib: 128
            }
        );
    }

    #[test]
    fn memory_outside_its_range_names_the_variable() {
        let err = parse(&[("TURNIER_SCRIPT_MEMORY_MIB", "8")]).expect_err("below 16");
        assert_eq!(
            err.to_string(),
            "TURNIER_SCRIPT_MEMORY_MIB: expected a whole number from 16 to 4096, got `8`"
        );
    }
}
