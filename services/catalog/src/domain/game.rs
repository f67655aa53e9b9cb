//! The games the platform serves: the one type every service shares, from `kit`.

pub use kit::game::{Game, UnknownGame};
