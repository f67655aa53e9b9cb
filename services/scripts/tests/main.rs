//! The scripts service's tests, in one binary (one link, one start): fair admission to the
//! sandbox over a real server, the normalization of results, the runner and the sandbox
//! against the spec's limits, the static safety check (and the built-in rules through it), and
//! the rulesets store on PostgreSQL and SQLite.

mod admission;
mod normalize;
mod rulesets_store;
mod runner;
mod safety;
mod sandbox;
