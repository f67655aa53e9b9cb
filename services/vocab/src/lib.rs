//! The shared vocabulary of Turnier's domains: the few values every service's rules speak of,
//! as plain Rust with no plumbing (no protobuf, no I/O), so that any `domain` module may use
//! them.
//!
//! Only values that mean the same to every service belong here (today, the game). A value one
//! service owns stays in that service's crate; the protobuf form of these values and the
//! conversion to it live in `proto`, at the gRPC edge.

mod game;

pub use game::{Game, UnknownGame};
