//! The scripts service's rules as plain Rust: the static safety check
//! (`shared/spec/turny/reference-scripting-sandbox.md`), the source preparation that turns a
//! checked module into the program the sandbox runs, and the normalization of what a script
//! returned (ruleset results, pool-filter patches, calculator dashboards).
//!
//! Nothing here does I/O or runs JavaScript: the sandbox (`crate::sandbox`) runs the prepared
//! program and hands back the raw JSON the script produced.

pub mod dashboard;
pub mod js;
pub mod pool_filters;
pub mod prepare;
pub mod rule_result;
pub mod safety;
