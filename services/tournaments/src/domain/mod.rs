//! The tournament engine's rules as plain Rust (`shared/spec/turny/guide-tournaments.md`):
//! the event model, each game's stage defaults, standings with every tiebreaker, Swiss
//! pairing, single and double elimination brackets, round robin, free-for-all lobbies and
//! scoring, the advancement rules of multi-stage events, and the rules of a run event's roster
//! (registration, waitlist, check-in, drops) and of its match results (report, confirm,
//! dispute, an organizer's final word).
//!
//! Nothing here does I/O, reads a clock or draws randomness of its own: an event's results (and
//! the seed stored with it, in its [`StageConfig`]) go in, standings and pairings come out, all
//! typed. Reading JSON (the offline tool's `crate::offline`), storage and the gRPC surface are
//! the crate's other modules.

pub mod defaults;
pub mod elimination;
pub mod event;
pub mod free_for_all;
pub mod matching;
pub mod next_round;
pub mod random;
pub mod registration;
pub mod result;
pub mod round_robin;
pub mod settings;
pub mod stage_config;
pub mod stages;
pub mod standings;
pub mod swiss;

pub use event::{Entry, Event, EventError, Player, PlayerId, Round};
pub use settings::{
    ByeHandling, MatchWinFormula, Points, ScoringSettings, SettingsError, Tiebreaker,
};
pub use stage_config::{
    EliminationStage, FreeForAllFormat, RoundRobinStage, StageConfig, StageSettings,
};
pub use standings::{Record, Rounded, Standing, Standings, standings};

#[cfg(test)]
mod vector_tests;
