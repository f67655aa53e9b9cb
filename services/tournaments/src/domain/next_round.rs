//! The next round of any stage, from its event and its [`StageConfig`]: what `turnier
//! tournament pair` prints.
//!
//! Swiss and round-robin standings (and so score groups) follow the event's own `settings`;
//! the config gives the round count, the seeding, the pairing style, the bracket options and
//! the grouping. An elimination stage with **Allow early cutoff**
//! ([`EliminationStage::early_cutoff`]) has no next round once its top placements are decided.
//! A stage with no next round (complete, or cut off) has no pairings.
//!
//! Free-for-all stages have their own event ([`FreeForAllEvent`]) carrying their format and
//! settings; their next match needs only the seed ([`next_lobbies`]).

use serde::Serialize;

use super::defaults::Format;
use super::elimination::{self, EliminationError, PendingMatch};
use super::event::{Event, PlayerId};
use super::free_for_all::{self, FreeForAllError, FreeForAllEvent};
use super::round_robin::{self, RoundRobinError};
use super::stage_config::{
    EliminationStage, FreeForAllFormat, RoundRobinStage, StageConfig, StageSettings,
};
use super::swiss::{self, PairingError};

/// A stage config or event that cannot give a next round.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NextRoundError {
    /// The stage is free-for-all, and its event lists rounds of one-on-one matches.
    #[error(
        "the stage config is refused: setting `format` is `{}`, a free-for-all format: its event lists `matches` of lobbies, not `rounds`",
        .0.format()
    )]
    FreeForAllStageOfRounds(FreeForAllFormat),
    /// A Swiss round cannot be paired.
    #[error(transparent)]
    Swiss(#[from] PairingError),
    /// A bracket cannot be drawn or replayed.
    #[error(transparent)]
    Elimination(#[from] EliminationError),
    /// A round-robin round cannot be scheduled.
    #[error(transparent)]
    RoundRobin(#[from] RoundRobinError),
    /// Free-for-all lobbies cannot be formed.
    #[error(transparent)]
    FreeForAll(#[from] FreeForAllError),
}

/// One pairing of the next round, in the event file's entry shape (without results).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pairing {
    /// The table, from 1; absent for a bye.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<usize>,
    /// The players: two for a match (better ranked or seeded first), one for a bye.
    pub players: Vec<PlayerId>,
    /// Set on the player who sits out with a bye.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bye: bool,
    /// The bracket match (`"winners round 2 match 1"`), in an elimination stage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The group, from 1, in a grouped round robin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<usize>,
}

/// The next round of a one-on-one stage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NextRound {
    /// The stage's format.
    pub format: Format,
    /// The round these pairings are for, from 1.
    pub round: usize,
    /// The matches, then the bye if any.
    pub pairings: Vec<Pairing>,
    /// Swiss: whether a match repeats an earlier one (prevention off, or given up).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_rematch: Option<bool>,
    /// Round robin: players with no match this round (not a bye: it is worth nothing).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sitting_out: Vec<PlayerId>,
}

/// The next match of a free-for-all stage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NextLobbies {
    /// The stage's format.
    pub format: Format,
    /// The match these lobbies are for, from 1.
    #[serde(rename = "match")]
    pub match_number: usize,
    /// The lobbies, first lobby first.
    pub lobbies: Vec<Lobby>,
}

/// One lobby of a free-for-all match.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lobby {
    /// The lobby, from 1.
    pub lobby: usize,
    /// Its players, in seeding order.
    pub players: Vec<PlayerId>,
}

/// Pairs the next round of a one-on-one stage from its event.
pub fn next_round(event: &Event, config: &StageConfig) -> Result<NextRound, NextRoundError> {
    event.validate().map_err(PairingError::from)?;
    let format = config.settings.format();
    let prior = config.prior_stage.as_deref();
    match &config.settings {
        StageSettings::Swiss(stage) => {
            let pairing = swiss::pair_next_round(event, stage, config.seed, prior)?;
            let mut pairings = tables(pairing.matches.into_iter().map(|m| (m, None, None)));
            pairings.extend(pairing.bye.map(|player| Pairing {
                table: None,
                players: vec![player],
                bye: true,
                label: None,
                group: None,
            }));
            Ok(NextRound {
                format,
                round: pairing.round,
                pairings,
                has_rematch: Some(pairing.has_rematch),
                sitting_out: Vec::new(),
            })
        }
        StageSettings::SingleElimination(EliminationStage {
            settings,
            early_cutoff,
        })
        | StageSettings::DoubleElimination(EliminationStage {
            settings,
            early_cutoff,
        }) => {
            let bracket = elimination::replay(event, format, settings, config.seed, prior)?;
            let stopped = early_cutoff.is_some_and(|places| bracket.is_top_decided(places));
            let pending = if stopped {
                Vec::new()
            } else {
                bracket.next_round()
            };
            Ok(NextRound {
                format,
                round: event.rounds.len() + 1,
                pairings: tables(pending.into_iter().map(|PendingMatch { label, players }| {
                    (players, Some(label.to_string()), None)
                })),
                has_rematch: None,
                sitting_out: Vec::new(),
            })
        }
        StageSettings::RoundRobin(RoundRobinStage { settings, grouping }) => {
            let round = round_robin::pair_next_round(event, settings, *grouping)?;
            let grouped = grouping.is_some();
            Ok(NextRound {
                format,
                round: round.round,
                pairings: tables(round.matches.into_iter().map(|scheduled| {
                    (scheduled.players, None, grouped.then_some(scheduled.group))
                })),
                has_rematch: None,
                sitting_out: round.sitting_out,
            })
        }
        StageSettings::FreeForAll(format) => Err(NextRoundError::FreeForAllStageOfRounds(*format)),
    }
}

/// Pairs the next match of a free-for-all stage: its lobbies.
pub fn next_lobbies(event: &FreeForAllEvent, seed: u64) -> Result<NextLobbies, NextRoundError> {
    let next = free_for_all::next_lobbies(event, seed)?;
    Ok(NextLobbies {
        format: event.format,
        match_number: next.match_number,
        lobbies: next
            .lobbies
            .into_iter()
            .enumerate()
            .map(|(at, players)| Lobby {
                lobby: at + 1,
                players,
            })
            .collect(),
    })
}

/// Numbers matches as tables from 1.
fn tables(
    matches: impl Iterator<Item = ([PlayerId; 2], Option<String>, Option<usize>)>,
) -> Vec<Pairing> {
    matches
        .enumerate()
        .map(|(at, (players, label, group))| Pairing {
            table: Some(at + 1),
            players: players.into(),
            bye: false,
            label,
            group,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::defaults::{PairingStyle, RoundRobinSettings, SeedingMethod, SwissSettings};
    use crate::domain::elimination::EliminationSettings;
    use crate::domain::round_robin::Grouping;
    use crate::domain::{ByeHandling, Player, Points, ScoringSettings, Tiebreaker};

    fn event(players: u32) -> Event {
        Event {
            settings: ScoringSettings {
                points: Points::three_one_zero(),
                bye_handling: ByeHandling::FullPoints,
                tiebreakers: vec![Tiebreaker::OpponentMatchWinPercentage],
                match_win_formula: None,
                opponent_match_win_floor: None,
                game_win_floor: None,
            },
            players: (1..=players)
                .map(|seed| Player {
                    id: PlayerId(format!("P{seed}")),
                    seed,
                    rating: None,
                    dropped: false,
                })
                .collect(),
            rounds: Vec::new(),
        }
    }

    /// The offline tool's defaults for a stage of `event`: Swiss with the event's scoring.
    fn swiss(event: &Event, pairing_style: PairingStyle, seeding: SeedingMethod) -> StageConfig {
        StageConfig {
            settings: StageSettings::Swiss(SwissSettings {
                rounds: 5,
                points: event.settings.points,
                allow_draws: true,
                bye_handling: event.settings.bye_handling,
                pairing_style,
                prevent_repeat_matchups: true,
                tiebreakers: event.settings.tiebreakers.clone(),
                first_round_seeding: seeding,
                late_entry_through_round: None,
            }),
            seed: 0,
            prior_stage: None,
        }
    }

    /// A single elimination stage seeded by `prior`, as the prior stage's order.
    fn top_cut(prior: &[PlayerId], early_cutoff: Option<u32>) -> StageConfig {
        StageConfig {
            settings: StageSettings::SingleElimination(EliminationStage {
                settings: EliminationSettings::default_for_stage(false),
                early_cutoff,
            }),
            seed: 0,
            prior_stage: Some(prior.to_vec()),
        }
    }

    fn seeds(count: u32) -> Vec<PlayerId> {
        (1..=count).map(|at| PlayerId(format!("P{at}"))).collect()
    }

    fn ids(pairing: &Pairing) -> Vec<&str> {
        pairing.players.iter().map(PlayerId::as_str).collect()
    }

    #[test]
    fn a_swiss_round_one_by_manual_seeding_and_fold_pairs_top_half_against_bottom_half() {
        let event = event(5);
        let config = swiss(&event, PairingStyle::Fold, SeedingMethod::Manual);
        let next = next_round(&event, &config).expect("a round");
        assert_eq!(next.round, 1);
        assert_eq!(next.has_rematch, Some(false));
        let pairs: Vec<Vec<&str>> = next.pairings.iter().map(ids).collect();
        assert_eq!(pairs, [vec!["P1", "P3"], vec!["P2", "P4"], vec!["P5"]]);
        assert!(next.pairings[2].bye);
        assert_eq!(next.pairings[0].table, Some(1));
        assert_eq!(next.pairings[2].table, None);
    }

    #[test]
    fn a_top_cut_bracket_seeded_by_the_prior_stage_pairs_first_with_eighth() {
        let next = next_round(&event(8), &top_cut(&seeds(8), None)).expect("a round");
        let pairs: Vec<Vec<&str>> = next.pairings.iter().map(ids).collect();
        assert_eq!(
            pairs,
            [
                vec!["P1", "P8"],
                vec!["P4", "P5"],
                vec!["P2", "P7"],
                vec!["P3", "P6"]
            ]
        );
        assert_eq!(next.pairings[0].label.as_deref(), Some("round 1 match 1"));
    }

    #[test]
    fn an_early_cutoff_stops_a_bracket_once_the_top_placements_are_decided() {
        let prior = seeds(16);
        let stage = top_cut(&prior, Some(8));
        let mut event = event(16);
        let first = next_round(&event, &stage).expect("round 1");
        assert_eq!(first.pairings.len(), 8);
        // The better seed wins the round of 16: the top 8 are decided.
        event.rounds.push(crate::domain::Round(
            first
                .pairings
                .iter()
                .map(|p| crate::domain::Entry::Match {
                    players: [p.players[0].clone(), p.players[1].clone()],
                    games: [2, 0],
                })
                .collect(),
        ));
        let after = next_round(&event, &stage).expect("no round");
        assert!(after.pairings.is_empty(), "{after:?}");
        let without_cutoff = next_round(&event, &top_cut(&prior, None)).expect("quarterfinals");
        assert_eq!(without_cutoff.pairings.len(), 4);
    }

    #[test]
    fn a_grouped_round_robin_names_each_match_group() {
        let mut event = event(8);
        event.settings.tiebreakers = vec![Tiebreaker::HeadToHead, Tiebreaker::ScoreDifference];
        let config = StageConfig {
            settings: StageSettings::RoundRobin(RoundRobinStage {
                settings: RoundRobinSettings {
                    points: event.settings.points,
                    tiebreakers: event.settings.tiebreakers.clone(),
                    cycles: 1,
                },
                grouping: Some(Grouping::Groups(2)),
            }),
            seed: 0,
            prior_stage: None,
        };
        let next = next_round(&event, &config).expect("a round");
        assert_eq!(next.pairings.len(), 4);
        assert!(next.pairings.iter().all(|p| p.group.is_some()));
    }

    #[test]
    fn a_free_for_all_stage_refuses_an_event_of_rounds() {
        let config = StageConfig {
            settings: StageSettings::FreeForAll(FreeForAllFormat::CumulativePoints),
            seed: 0,
            prior_stage: None,
        };
        let err = next_round(&event(8), &config).expect_err("refused");
        assert_eq!(
            err,
            NextRoundError::FreeForAllStageOfRounds(FreeForAllFormat::CumulativePoints)
        );
        assert!(err.to_string().contains("free-for-all"), "{err}");
    }

    #[test]
    fn a_bracket_setting_of_the_wrong_format_is_refused_by_the_bracket() {
        let mut config = top_cut(&seeds(8), None);
        let StageSettings::SingleElimination(stage) = config.settings else {
            unreachable!("a single elimination stage")
        };
        let mut stage = stage;
        stage.settings.third_place_match = true;
        config.settings = StageSettings::DoubleElimination(stage);
        let err = next_round(&event(8), &config).expect_err("refused");
        assert!(err.to_string().contains("third_place_match"), "{err}");
    }
}
