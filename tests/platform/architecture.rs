//! The architecture's rules, checked against the code itself: the crate boundaries of
//! `DESIGN.md` ([`crate_edges`]) and no import loop between sibling modules
//! ([`module_loops`]). Nothing here starts a binary.

mod crate_edges;
mod module_loops;
