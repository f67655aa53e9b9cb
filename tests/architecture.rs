//! The architecture's rules, checked against the code itself.

#[path = "architecture/crate_edges.rs"]
mod crate_edges;
