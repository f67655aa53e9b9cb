//! The tournament engine's rules as plain Rust (`shared/spec/turny/guide-tournaments.md`):
//! the event model, each game's stage defaults, standings with every tiebreaker, and Swiss
//! pairing.
//!
//! Nothing here does I/O, reads a clock or draws randomness of its own: an event's results (and
//! the seed stored with it) go in, standings and pairings come out. Elimination brackets,
//! round robin, free-for-all and multi-stage advancement are still to come (issue 8). Storage
//! and the gRPC surface are the crate's other modules.

pub mod defaults;
pub mod event;
pub mod matching;
pub mod random;
pub mod settings;
pub mod standings;
pub mod swiss;

pub use event::{Entry, Event, EventError, Player, PlayerId, Round};
pub use settings::{
    ByeHandling, MatchWinFormula, Points, ScoringSettings, SettingsError, Tiebreaker,
};
pub use standings::{Record, Rounded, Standing, Standings, standings};

#[cfg(test)]
mod vector_tests;
