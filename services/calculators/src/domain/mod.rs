//! The rules of calculators as plain Rust: the card fields the builder offers per game
//! (`fields`), the builder's spec, version 1 (`spec`), and the script generated from it, with
//! the way back from a script to its spec (`generate`). No I/O, no async, no protobuf types.

pub mod calculator;
pub mod fields;
pub mod generate;
pub mod spec;
