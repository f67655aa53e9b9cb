//! The scripts service's settings: how many sandboxed runs happen at once and how much memory
//! each may use, which together bound the memory the service's sandboxes can take
//! (concurrency × memory); and how those runs are shared between callers (a share per caller,
//! a short queue, a short wait).
//!
//! Declared here, parsed with the rest of the binary's command line by `kit::config::parse`;
//! [`crate::grpc::Api::new`] turns them into sandbox limits.

/// The scripts service's settings, as given on the command line or in the environment.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
#[command(next_help_heading = "Scripts service settings")]
// Every crate names its struct `Settings`; the group clap derives from it needs its own id.
#[group(id = "scripts_settings")]
pub struct Settings {
    /// Sandbox runs at the same time; further requests wait their turn in a short queue
    /// (default: 2 per CPU, at least 4).
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
    /// Sandbox runs one caller (client address) may hold at once, and requests it may have
    /// waiting (default: half of --script-concurrency, at least 1).
    #[arg(
        long = "script-caller-share",
        env = "TURNIER_SCRIPT_CALLER_SHARE",
        value_name = "RUNS",
        value_parser = kit::config::whole_number(1..=1024_u32)
    )]
    pub caller_share: Option<u32>,
    /// Requests that may wait for a sandbox run at once, over all callers; one more is answered
    /// `busy` at once (default: as many as --script-concurrency).
    // Its own id: `turnier queue` has an argument named `queue`, and clap ids are shared.
    #[arg(
        id = "script_queue",
        long = "script-queue",
        env = "TURNIER_SCRIPT_QUEUE",
        value_name = "REQUESTS",
        value_parser = kit::config::whole_number(0..=4096_u32)
    )]
    pub queue: Option<u32>,
    /// Longest a request waits in the queue before it is answered `busy`, in milliseconds (less
    /// when the caller's own deadline is nearer).
    #[arg(
        long = "script-queue-wait-ms",
        env = "TURNIER_SCRIPT_QUEUE_WAIT_MS",
        value_name = "MS",
        default_value_t = 2000,
        value_parser = kit::config::whole_number(0..=60_000_u64)
    )]
    pub queue_wait_ms: u64,
    /// Where the sandbox keeps the plugin's compiled machine code between processes, so a
    /// process (`turnier script run`, a restarted server) starts without compiling it again;
    /// `off` for never (default: $XDG_CACHE_HOME/turnier/wasmtime, else
    /// ~/.cache/turnier/wasmtime).
    #[arg(
        long = "script-compile-cache",
        env = "TURNIER_SCRIPT_COMPILE_CACHE",
        value_name = "DIR|off",
        value_parser = crate::sandbox::CompileCache::parse
    )]
    pub compile_cache: Option<crate::sandbox::CompileCache>,
}

impl Settings {
    /// Returns the compile cache given, or the user's default one.
    pub fn compile_cache(&self) -> crate::sandbox::CompileCache {
        self.compile_cache
            .clone()
            .unwrap_or_else(crate::sandbox::CompileCache::user_default)
    }

    /// Returns the admission limits these settings give: the concurrency as slots, the share
    /// and queue given or their defaults.
    pub fn admission(&self) -> crate::domain::admission::Limits {
        let slots = usize::try_from(self.concurrency.max(1)).unwrap_or(usize::MAX);
        let given = |value: Option<u32>| value.map(|v| usize::try_from(v).unwrap_or(usize::MAX));
        crate::domain::admission::Limits {
            slots,
            share: given(self.caller_share)
                .unwrap_or_else(|| crate::domain::admission::Limits::default_share(slots)),
            queue: given(self.queue).unwrap_or(slots),
        }
    }
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
    fn with_nothing_set_runs_two_per_cpu_with_64_mib_each_half_of_them_per_caller() {
        let settings = parse(&[]).expect("defaults are valid");
        assert_eq!(settings.concurrency, default_concurrency());
        assert!(settings.concurrency >= 4);
        assert_eq!(settings.memory_mib, 64);
        let slots = settings.concurrency as usize;
        assert_eq!(
            settings.admission(),
            crate::domain::admission::Limits {
                slots,
                share: slots / 2,
                queue: slots,
            }
        );
        assert_eq!(settings.queue_wait_ms, 2000);
    }

    #[test]
    fn reads_every_variable() {
        let settings = parse(&[
            ("TURNIER_SCRIPT_CONCURRENCY", "8"),
            ("TURNIER_SCRIPT_MEMORY_MIB", "128"),
            ("TURNIER_SCRIPT_CALLER_SHARE", "3"),
            ("TURNIER_SCRIPT_QUEUE", "0"),
            ("TURNIER_SCRIPT_QUEUE_WAIT_MS", "500"),
            ("TURNIER_SCRIPT_COMPILE_CACHE", "/var/cache/turnier"),
        ])
        .expect("valid");
        assert_eq!(
            settings,
            Settings {
                concurrency: 8,
                memory_mib: 128,
                caller_share: Some(3),
                queue: Some(0),
                queue_wait_ms: 500,
                compile_cache: Some(crate::sandbox::CompileCache::Dir(
                    "/var/cache/turnier".into()
                )),
            }
        );
        assert_eq!(
            settings.admission(),
            crate::domain::admission::Limits {
                slots: 8,
                share: 3,
                queue: 0,
            }
        );
    }

    #[test]
    fn the_compile_cache_is_off_or_a_directory_and_defaults_to_the_user_s() {
        let off = parse(&[("TURNIER_SCRIPT_COMPILE_CACHE", "off")]).expect("valid");
        assert_eq!(off.compile_cache(), crate::sandbox::CompileCache::Off);
        let unset = parse(&[]).expect("valid");
        assert_eq!(unset.compile_cache, None);
        assert_eq!(
            unset.compile_cache(),
            crate::sandbox::CompileCache::user_default()
        );
    }

    #[test]
    fn a_share_of_zero_names_the_variable() {
        let err = parse(&[("TURNIER_SCRIPT_CALLER_SHARE", "0")]).expect_err("below 1");
        assert_eq!(
            err.to_string(),
            "TURNIER_SCRIPT_CALLER_SHARE: expected a whole number from 1 to 1024, got `0`"
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
