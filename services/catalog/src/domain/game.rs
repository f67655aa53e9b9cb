//! The games the platform serves: the one type every service shares, from `vocab`.

pub use proto::game::{Game, UnknownGame};
