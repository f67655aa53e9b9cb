//! A stage's config: its format with that format's settings, the event's stored seed and the
//! previous stage's final order — everything pairing a stage's next round reads besides its
//! results.
//!
//! A config is built typed: the offline tool reads it from its `--stage` JSON in the crate's
//! `offline` module, which also checks the settings. Pairing a round from it is
//! [`super::next_round`].

use super::defaults::{Format, RoundRobinSettings, SwissSettings};
use super::elimination::EliminationSettings;
use super::event::PlayerId;
use super::round_robin::Grouping;

/// How a stage pairs its rounds, and from what.
#[derive(Debug, Clone, PartialEq)]
pub struct StageConfig {
    /// The stage's format and that format's settings.
    pub settings: StageSettings,
    /// The event's stored seed: every random draw of the stage comes from it, so the same seed
    /// replays the same pairings.
    pub seed: u64,
    /// The previous stage's final order, best first, for a stage seeded by prior stage results.
    pub prior_stage: Option<Vec<PlayerId>>,
}

/// A stage's format with that format's settings.
#[derive(Debug, Clone, PartialEq)]
pub enum StageSettings {
    /// A fixed number of rounds against players on the same record.
    Swiss(SwissSettings),
    /// One loss and you are out.
    SingleElimination(EliminationStage),
    /// Out after the second loss, with a losers bracket.
    DoubleElimination(EliminationStage),
    /// Everyone plays everyone, once per cycle, in one group or several.
    RoundRobin(RoundRobinStage),
    /// Free-for-all lobbies. Their settings are part of the stage's [`FreeForAllEvent`], which
    /// is paired by [`super::next_round::next_lobbies`].
    ///
    /// [`FreeForAllEvent`]: super::free_for_all::FreeForAllEvent
    FreeForAll(FreeForAllFormat),
}

/// A single or double elimination stage's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct EliminationStage {
    /// The bracket's settings.
    pub settings: EliminationSettings,
    /// **Allow early cutoff**: the number of top placements the stage decides before it stops
    /// (the end of the placement range its advancement rule reads, see
    /// [`super::stages::TournamentPlan::early_cutoff`]); `None` plays the bracket out.
    pub early_cutoff: Option<u32>,
}

/// A round-robin stage's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundRobinStage {
    /// Points, tiebreakers and cycles.
    pub settings: RoundRobinSettings,
    /// How the field is split into groups; `None` is one group.
    pub grouping: Option<Grouping>,
}

/// A free-for-all format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FreeForAllFormat {
    /// Lobbies play a fixed number of matches; total points decide.
    CumulativePoints,
    /// Lobbies play until someone reaches the points to win.
    ThresholdWin,
}

impl FreeForAllFormat {
    /// Returns the free-for-all format `format` is, or `None` for a one-on-one format.
    pub const fn of(format: Format) -> Option<Self> {
        match format {
            Format::CumulativePoints => Some(Self::CumulativePoints),
            Format::ThresholdWin => Some(Self::ThresholdWin),
            Format::SingleElimination
            | Format::DoubleElimination
            | Format::RoundRobin
            | Format::Swiss => None,
        }
    }

    /// Returns the format.
    pub const fn format(self) -> Format {
        match self {
            Self::CumulativePoints => Format::CumulativePoints,
            Self::ThresholdWin => Format::ThresholdWin,
        }
    }
}

impl StageSettings {
    /// Returns the stage's format.
    pub const fn format(&self) -> Format {
        match self {
            Self::Swiss(_) => Format::Swiss,
            Self::SingleElimination(_) => Format::SingleElimination,
            Self::DoubleElimination(_) => Format::DoubleElimination,
            Self::RoundRobin(_) => Format::RoundRobin,
            Self::FreeForAll(format) => format.format(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_for_all_format_is_exactly_a_format_that_is_free_for_all() {
        for format in Format::ALL {
            let free_for_all = FreeForAllFormat::of(format);
            assert_eq!(
                free_for_all.is_some(),
                format.is_free_for_all(),
                "{format:?}"
            );
            if let Some(free_for_all) = free_for_all {
                assert_eq!(free_for_all.format(), format);
                assert_eq!(StageSettings::FreeForAll(free_for_all).format(), format);
            }
        }
    }
}
