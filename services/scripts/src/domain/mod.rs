//! The scripts service's rules as plain Rust: the static safety check
//! (`shared/spec/turny/reference-scripting-sandbox.md`), the source preparation that turns a
//! checked module into the program the sandbox runs, and the normalization of what a script
//! returned (ruleset results, pool-filter patches, calculator dashboards); and the fair
//! admission policy that shares the sandbox's slots between callers; and rulesets people own,
//! with their immutable versions (`ruleset`) and the direct bans of card rules (`direct_bans`).
//!
//! Nothing here does I/O or runs JavaScript: the sandbox (`crate::sandbox`) runs the prepared
//! program and hands back the raw JSON the script produced.
//!
//! The normalized results are the `proto::scripts::v1` messages (`RuleResult`, `Dashboard`,
//! `PoolFiltersPatch`), deliberately: the script result objects are the contract (their
//! canonical JSON is what the scripting references document, and `proto::json` prints it), so
//! normalization produces them directly instead of a parallel set of types that would drift.

pub mod admission;
pub mod dashboard;
pub mod deck_check;
pub mod direct_bans;
pub mod js;
pub mod pool_filters;
pub mod prepare;
pub mod rule_result;
pub mod ruleset;
pub mod safety;
