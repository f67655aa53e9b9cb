//! Multi-stage events (the page's "Multi-stage events and top cut"): the stages of a
//! tournament, the advancement rules that move players from one stage to a later one, the cut
//! tiebreaker for ties that straddle a cut line, and the two options that only apply to
//! elimination stages ("Allow early cutoff", "Advance mode").
//!
//! Advancement reads the earlier stage's final standings ([`Standings`], best first, tied
//! players sharing a rank) and returns, per rule, who matches it in standings order — the order
//! a stage seeded by "Prior stage results" uses, so Swiss 1st then meets 8th in a top 8.
//!
//! Two readings the page leaves open, decided here:
//! - Dropped players never advance, and are not counted against a placement range: a top 8
//!   with a dropped 5th takes the 9th player instead (the cut "stays at exactly the size you
//!   set").
//! - A tie straddling a range's lower edge (8th and 9th equal, for a rule on places 9 to 16)
//!   follows the same cut tiebreaker as the upper edge of the rule above it, so no player
//!   matches two placement rules and none falls between them: with "Advance the whole tie"
//!   the whole tie goes to the higher range.

use serde::{Deserialize, Serialize};

use super::defaults::Format;
use super::event::PlayerId;
use super::random::Rng;
use super::standings::Standings;

/// The last placement a rule may name: far past the largest field a tournament takes
/// (`crate::run::create::MAX_PARTICIPANTS`), and as many players as one bracket holds.
pub const MAX_PLACEMENT: u32 = 65_536;

/// The most advancement rules of a tournament: each is applied to the whole field of its
/// stage, and a cut, a second chance bracket and the eliminations take a handful.
pub const MAX_RULES: usize = 32;

/// Which players a rule applies to.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type", deny_unknown_fields)]
pub enum Condition {
    /// Final placements `from` to `to`, both included, counted from 1.
    PlacementRange {
        /// The first placement in the range.
        from: u32,
        /// The last placement in the range.
        to: u32,
    },
    /// Final points from `min` to `max`, both included; an open end when absent.
    PointsRange {
        /// The lowest points total in the range.
        #[serde(default)]
        min: Option<f64>,
        /// The highest points total in the range.
        #[serde(default)]
        max: Option<f64>,
    },
}

/// What happens to the players a rule applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type", deny_unknown_fields)]
pub enum Action {
    /// They play in a later stage (an index into the tournament's stages, from 0).
    Advance {
        /// The stage they advance to.
        to_stage: usize,
    },
    /// They are out of the tournament.
    Eliminate,
}

/// One advancement rule: from a stage, a condition, an action.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdvancementRule {
    /// The stage whose final standings the rule reads (an index, from 0).
    pub from_stage: usize,
    /// Which players the rule applies to.
    pub condition: Condition,
    /// What happens to them.
    pub action: Action,
}

/// What happens when players equal on points and every tiebreaker straddle a cut line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CutTiebreaker {
    /// The better initial seed advances; the cut keeps its size (the default).
    #[default]
    BetterSeed,
    /// A random draw (from the event's seed) picks who advances; the cut keeps its size.
    DrawLots,
    /// Everyone in the tie advances; the next stage may get more players than planned.
    AdvanceWholeTie,
}

/// How a double-elimination stage following another one starts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdvanceMode {
    /// A fresh bracket (the default).
    #[default]
    ResetBracket,
    /// The same bracket carries on: every player keeps their winners or losers bracket place.
    ContinueBrackets,
}

/// One stage of a tournament, as far as multi-stage rules care.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StagePlan {
    /// The stage's format.
    pub format: Format,
    /// Stop as soon as the players in the placement range are decided (elimination stages
    /// whose outgoing placement range starts at 1).
    #[serde(default)]
    pub allow_early_cutoff: bool,
    /// How the stage starts when it follows a double-elimination stage.
    #[serde(default)]
    pub advance_mode: AdvanceMode,
}

/// A tournament's stages and the rules between them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentPlan {
    /// The stages, played in order.
    pub stages: Vec<StagePlan>,
    /// The advancement rules.
    #[serde(default)]
    pub rules: Vec<AdvancementRule>,
    /// What decides a tie on a cut line.
    #[serde(default)]
    pub cut_tiebreaker: CutTiebreaker,
}

/// A tournament plan that cannot run, naming the stage, rule or setting at fault.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// The tournament has no stage.
    #[error("a tournament needs at least one stage")]
    NoStages,
    /// One-on-one and free-for-all stages in one tournament.
    #[error(
        "stage {free_for_all} is free-for-all and stage {one_on_one} is one-on-one: a tournament is either all one-on-one stages or all free-for-all stages"
    )]
    MixedStages {
        /// A free-for-all stage (from 1).
        free_for_all: usize,
        /// A one-on-one stage (from 1).
        one_on_one: usize,
    },
    /// A rule names a stage that does not exist.
    #[error("advancement rule {rule}: there is no stage {stage}")]
    UnknownStage {
        /// The rule (from 1).
        rule: usize,
        /// The stage named (from 1).
        stage: usize,
    },
    /// A rule advances players to the same or an earlier stage.
    #[error("advancement rule {rule}: players can only advance to a later stage")]
    NotALaterStage {
        /// The rule (from 1).
        rule: usize,
    },
    /// A placement range that is empty or starts at 0.
    #[error(
        "advancement rule {rule}: the placement range must start at 1 or later and end at or after its start, not {from} to {to}"
    )]
    BadPlacementRange {
        /// The rule (from 1).
        rule: usize,
        /// The range's start.
        from: u32,
        /// The range's end.
        to: u32,
    },
    /// A placement range past [`MAX_PLACEMENT`].
    #[error(
        "advancement rule {rule}: the placement range must end at placement {max} at most, not {to}"
    )]
    PlacementTooLarge {
        /// The rule (from 1).
        rule: usize,
        /// The range's end.
        to: u32,
        /// The bound.
        max: u32,
    },
    /// More rules than [`MAX_RULES`].
    #[error("a tournament has at most {max} advancement rules, not {rules}")]
    TooManyRules {
        /// The rules given.
        rules: usize,
        /// The bound.
        max: usize,
    },
    /// A points range that is empty or not a number.
    #[error(
        "advancement rule {rule}: the points range must run from a number to a number at least as large"
    )]
    BadPointsRange {
        /// The rule (from 1).
        rule: usize,
    },
    /// Early cutoff on a stage it does not apply to.
    #[error(
        "stage {stage}: setting `allow_early_cutoff` applies only to a single or double elimination stage with a placement range starting at 1"
    )]
    EarlyCutoffNotApplicable {
        /// The stage (from 1).
        stage: usize,
    },
    /// Continue brackets on a stage it does not apply to.
    #[error(
        "stage {stage}: setting `advance_mode` `continue_brackets` applies only to a double elimination stage following a double elimination stage"
    )]
    ContinueBracketsNotApplicable {
        /// The stage (from 1).
        stage: usize,
    },
}

impl TournamentPlan {
    /// Refuses a plan that cannot run, naming what is at fault.
    pub fn validate(&self) -> Result<(), PlanError> {
        if self.stages.is_empty() {
            return Err(PlanError::NoStages);
        }
        let free_for_all = self.stages.iter().position(|s| s.format.is_free_for_all());
        let one_on_one = self.stages.iter().position(|s| !s.format.is_free_for_all());
        if let (Some(free_for_all), Some(one_on_one)) = (free_for_all, one_on_one) {
            return Err(PlanError::MixedStages {
                free_for_all: free_for_all + 1,
                one_on_one: one_on_one + 1,
            });
        }
        if self.rules.len() > MAX_RULES {
            return Err(PlanError::TooManyRules {
                rules: self.rules.len(),
                max: MAX_RULES,
            });
        }
        for (at, rule) in self.rules.iter().enumerate() {
            let number = at + 1;
            if rule.from_stage >= self.stages.len() {
                return Err(PlanError::UnknownStage {
                    rule: number,
                    stage: rule.from_stage + 1,
                });
            }
            if let Action::Advance { to_stage } = rule.action {
                if to_stage >= self.stages.len() {
                    return Err(PlanError::UnknownStage {
                        rule: number,
                        stage: to_stage + 1,
                    });
                }
                if to_stage <= rule.from_stage {
                    return Err(PlanError::NotALaterStage { rule: number });
                }
            }
            match rule.condition {
                Condition::PlacementRange { from, to } if from == 0 || to < from => {
                    return Err(PlanError::BadPlacementRange {
                        rule: number,
                        from,
                        to,
                    });
                }
                Condition::PointsRange { min, max } => {
                    let finite = min.is_none_or(f64::is_finite) && max.is_none_or(f64::is_finite);
                    let ordered = match (min, max) {
                        (Some(min), Some(max)) => min <= max,
                        _ => true,
                    };
                    if !finite || !ordered {
                        return Err(PlanError::BadPointsRange { rule: number });
                    }
                }
                Condition::PlacementRange { to, .. } if to > MAX_PLACEMENT => {
                    return Err(PlanError::PlacementTooLarge {
                        rule: number,
                        to,
                        max: MAX_PLACEMENT,
                    });
                }
                Condition::PlacementRange { .. } => {}
            }
        }
        for (at, stage) in self.stages.iter().enumerate() {
            if stage.allow_early_cutoff && self.early_cutoff(at).is_none() {
                return Err(PlanError::EarlyCutoffNotApplicable { stage: at + 1 });
            }
            let continues = stage.advance_mode == AdvanceMode::ContinueBrackets;
            let after_double = at > 0
                && self.stages[at - 1].format == Format::DoubleElimination
                && stage.format == Format::DoubleElimination;
            if continues && !after_double {
                return Err(PlanError::ContinueBracketsNotApplicable { stage: at + 1 });
            }
        }
        Ok(())
    }

    /// Returns the number of top placements a stage must decide before it may stop early:
    /// the end of the widest placement range starting at 1 that a rule reads from it. `None`
    /// when the stage is not an elimination stage or no such rule reads it (whether or not
    /// early cutoff is turned on; see [`StagePlan::allow_early_cutoff`]).
    pub fn early_cutoff(&self, stage: usize) -> Option<u32> {
        let format = self.stages.get(stage)?.format;
        if !matches!(
            format,
            Format::SingleElimination | Format::DoubleElimination
        ) {
            return None;
        }
        self.rules
            .iter()
            .filter(|rule| rule.from_stage == stage)
            .filter_map(|rule| match rule.condition {
                Condition::PlacementRange { from: 1, to } => Some(to),
                _ => None,
            })
            .max()
    }
}

/// Who a rule applies to, in the earlier stage's standings order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleOutcome {
    /// The rule's action.
    pub action: Action,
    /// The players it applies to, best first.
    pub players: Vec<PlayerId>,
}

/// Applies a stage's advancement rules to its final standings.
///
/// `dropped` tells whether a player has dropped (they never advance and take no place in a
/// range); `seed` is the event's stored seed, for "Draw lots". The outcomes come in rule
/// order, one per rule whose `from_stage` is `stage`.
pub fn advance(
    plan: &TournamentPlan,
    stage: usize,
    standings: &Standings,
    dropped: impl Fn(&PlayerId) -> bool,
    seed: u64,
) -> Vec<RuleOutcome> {
    let order = cut_order(standings, &dropped, plan.cut_tiebreaker, seed, stage);
    plan.rules
        .iter()
        .filter(|rule| rule.from_stage == stage)
        .map(|rule| RuleOutcome {
            action: rule.action,
            players: matching(
                &order,
                standings,
                &dropped,
                rule.condition,
                plan.cut_tiebreaker,
            ),
        })
        .collect()
}

/// The players still in, in standings order, with each one's tie group (players sharing a
/// rank) numbered from 0 in that order. With "Draw lots" each tie group is shuffled by a draw
/// from the event's seed, the same draw for every rule of the stage.
fn cut_order(
    standings: &Standings,
    dropped: &impl Fn(&PlayerId) -> bool,
    cut_tiebreaker: CutTiebreaker,
    seed: u64,
    stage: usize,
) -> Vec<(PlayerId, usize)> {
    let mut order: Vec<(PlayerId, usize)> = Vec::with_capacity(standings.standings.len());
    let mut group = 0;
    let mut previous_rank = None;
    for standing in &standings.standings {
        if dropped(&standing.player) {
            continue;
        }
        if previous_rank.is_some_and(|rank| rank != standing.rank) {
            group += 1;
        }
        previous_rank = Some(standing.rank);
        order.push((standing.player.clone(), group));
    }
    if cut_tiebreaker == CutTiebreaker::DrawLots {
        // A stream per stage, so each cut draws its own lots.
        let mut rng = Rng::new(seed, u64::MAX - u64::try_from(stage).unwrap_or(0));
        let mut start = 0;
        while start < order.len() {
            let group = order[start].1;
            let end = order[start..]
                .iter()
                .position(|(_, g)| *g != group)
                .map_or(order.len(), |len| start + len);
            rng.shuffle(&mut order[start..end]);
            start = end;
        }
    }
    order
}

/// The players a condition selects, best first.
fn matching(
    order: &[(PlayerId, usize)],
    standings: &Standings,
    dropped: &impl Fn(&PlayerId) -> bool,
    condition: Condition,
    cut_tiebreaker: CutTiebreaker,
) -> Vec<PlayerId> {
    match condition {
        Condition::PlacementRange { from, to } => {
            let from = usize::try_from(from).unwrap_or(usize::MAX);
            let to = usize::try_from(to).unwrap_or(usize::MAX);
            // Positions from..=to, counted from 1 in `order`.
            let position_in = |at: usize| (from..=to).contains(&(at + 1));
            if cut_tiebreaker != CutTiebreaker::AdvanceWholeTie {
                return order
                    .iter()
                    .enumerate()
                    .filter(|(at, _)| position_in(*at))
                    .map(|(_, (player, _))| player.clone())
                    .collect();
            }
            // Whole ties: a tie group belongs to the range its best position falls in.
            let mut first_position = std::collections::HashMap::new();
            for (at, (_, group)) in order.iter().enumerate() {
                first_position.entry(*group).or_insert(at);
            }
            order
                .iter()
                .filter(|(_, group)| position_in(first_position[group]))
                .map(|(player, _)| player.clone())
                .collect()
        }
        Condition::PointsRange { min, max } => standings
            .standings
            .iter()
            .filter(|standing| !dropped(&standing.player))
            .filter(|standing| {
                let points = standing.points.value();
                min.is_none_or(|min| points >= min) && max.is_none_or(|max| points <= max)
            })
            .map(|standing| standing.player.clone())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::standings::{Record, Rounded, Standing};

    fn standings(rows: &[(&str, u32, f64)]) -> Standings {
        Standings {
            standings: rows
                .iter()
                .map(|&(player, rank, points)| Standing {
                    rank,
                    player: PlayerId::from(player),
                    points: Rounded::new(points),
                    record: Record::default(),
                    tiebreakers: Vec::new(),
                    match_win_percentage: Rounded::new(0.0),
                })
                .collect(),
        }
    }

    fn top(to: u32, cut_tiebreaker: CutTiebreaker) -> TournamentPlan {
        TournamentPlan {
            stages: vec![
                StagePlan {
                    format: Format::Swiss,
                    allow_early_cutoff: false,
                    advance_mode: AdvanceMode::ResetBracket,
                },
                StagePlan {
                    format: Format::SingleElimination,
                    allow_early_cutoff: false,
                    advance_mode: AdvanceMode::ResetBracket,
                },
            ],
            rules: vec![
                AdvancementRule {
                    from_stage: 0,
                    condition: Condition::PlacementRange { from: 1, to },
                    action: Action::Advance { to_stage: 1 },
                },
                AdvancementRule {
                    from_stage: 0,
                    condition: Condition::PlacementRange {
                        from: to + 1,
                        to: 1000,
                    },
                    action: Action::Eliminate,
                },
            ],
            cut_tiebreaker,
        }
    }

    fn names(players: &[PlayerId]) -> Vec<&str> {
        players.iter().map(PlayerId::as_str).collect()
    }

    /// Ten players; 3rd and 4th (Cy, Di) are exactly equal and straddle a top-3 cut.
    fn tied_at_the_cut() -> Standings {
        standings(&[
            ("Al", 1, 12.0),
            ("Bo", 2, 9.0),
            ("Cy", 3, 6.0),
            ("Di", 3, 6.0),
            ("Ed", 5, 3.0),
        ])
    }

    #[test]
    fn a_top_cut_advances_the_placements_in_standings_order() {
        let rows: Vec<(String, u32, f64)> = (1..=10)
            .map(|at| (format!("P{at}"), at, f64::from(30 - at)))
            .collect();
        let rows: Vec<(&str, u32, f64)> =
            rows.iter().map(|(p, r, s)| (p.as_str(), *r, *s)).collect();
        let outcome = advance(
            &top(8, CutTiebreaker::BetterSeed),
            0,
            &standings(&rows),
            |_| false,
            1,
        );
        assert_eq!(outcome.len(), 2);
        assert_eq!(outcome[0].action, Action::Advance { to_stage: 1 });
        assert_eq!(
            names(&outcome[0].players),
            ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]
        );
        assert_eq!(outcome[1].action, Action::Eliminate);
        assert_eq!(names(&outcome[1].players), ["P9", "P10"]);
    }

    #[test]
    fn better_seed_keeps_the_cut_at_its_size() {
        // Standings already order a tie by initial seed: Cy is the better seed.
        let outcome = advance(
            &top(3, CutTiebreaker::BetterSeed),
            0,
            &tied_at_the_cut(),
            |_| false,
            1,
        );
        assert_eq!(names(&outcome[0].players), ["Al", "Bo", "Cy"]);
        assert_eq!(names(&outcome[1].players), ["Di", "Ed"]);
    }

    #[test]
    fn advancing_the_whole_tie_grows_the_cut_and_no_one_is_in_two_ranges() {
        let outcome = advance(
            &top(3, CutTiebreaker::AdvanceWholeTie),
            0,
            &tied_at_the_cut(),
            |_| false,
            1,
        );
        assert_eq!(names(&outcome[0].players), ["Al", "Bo", "Cy", "Di"]);
        assert_eq!(names(&outcome[1].players), ["Ed"]);
    }

    #[test]
    fn drawing_lots_keeps_the_size_and_replays_from_the_seed() {
        let plan = top(3, CutTiebreaker::DrawLots);
        let mut winners = std::collections::HashSet::new();
        for seed in 0..64 {
            let outcome = advance(&plan, 0, &tied_at_the_cut(), |_| false, seed);
            assert_eq!(outcome[0].players.len(), 3);
            assert_eq!(names(&outcome[0].players)[..2], ["Al", "Bo"]);
            let third = outcome[0].players[2].clone();
            assert!(["Cy", "Di"].contains(&third.as_str()));
            // The loser of the draw is the one eliminated: nobody is in both or neither.
            assert_eq!(outcome[1].players.len(), 2);
            assert!(!outcome[1].players.contains(&third));
            let again = advance(&plan, 0, &tied_at_the_cut(), |_| false, seed);
            assert_eq!(again, outcome, "the same seed draws the same lots");
            winners.insert(third);
        }
        assert_eq!(winners.len(), 2, "both tied players win some draws");
    }

    #[test]
    fn dropped_players_never_advance_and_the_next_player_takes_the_place() {
        let outcome = advance(
            &top(3, CutTiebreaker::BetterSeed),
            0,
            &tied_at_the_cut(),
            |player| player.as_str() == "Bo",
            1,
        );
        assert_eq!(names(&outcome[0].players), ["Al", "Cy", "Di"]);
        assert_eq!(names(&outcome[1].players), ["Ed"]);
    }

    #[test]
    fn a_points_range_selects_by_points() {
        let mut plan = top(3, CutTiebreaker::BetterSeed);
        plan.rules = vec![AdvancementRule {
            from_stage: 0,
            condition: Condition::PointsRange {
                min: Some(9.0),
                max: None,
            },
            action: Action::Advance { to_stage: 1 },
        }];
        let outcome = advance(&plan, 0, &tied_at_the_cut(), |_| false, 1);
        assert_eq!(names(&outcome[0].players), ["Al", "Bo"]);
    }

    #[test]
    fn plans_that_cannot_run_are_refused_naming_the_fault() {
        let mut plan = top(8, CutTiebreaker::BetterSeed);
        plan.validate().expect("a classic top cut");
        plan.stages[1].format = Format::CumulativePoints;
        assert_eq!(
            plan.validate(),
            Err(PlanError::MixedStages {
                free_for_all: 2,
                one_on_one: 1
            })
        );

        let mut plan = top(8, CutTiebreaker::BetterSeed);
        plan.rules[0].action = Action::Advance { to_stage: 0 };
        assert_eq!(plan.validate(), Err(PlanError::NotALaterStage { rule: 1 }));
        plan.rules[0].action = Action::Advance { to_stage: 5 };
        assert_eq!(
            plan.validate(),
            Err(PlanError::UnknownStage { rule: 1, stage: 6 })
        );

        let mut plan = top(8, CutTiebreaker::BetterSeed);
        plan.rules[0].condition = Condition::PlacementRange { from: 0, to: 8 };
        assert!(matches!(
            plan.validate(),
            Err(PlanError::BadPlacementRange { rule: 1, .. })
        ));
        plan.rules[0].condition = Condition::PlacementRange {
            from: 1,
            to: u32::MAX,
        };
        assert_eq!(
            plan.validate(),
            Err(PlanError::PlacementTooLarge {
                rule: 1,
                to: u32::MAX,
                max: MAX_PLACEMENT
            })
        );
        plan.rules[0].condition = Condition::PointsRange {
            min: Some(9.0),
            max: Some(3.0),
        };
        assert_eq!(plan.validate(), Err(PlanError::BadPointsRange { rule: 1 }));
        let mut plan = top(8, CutTiebreaker::BetterSeed);
        plan.rules = vec![plan.rules[0]; MAX_RULES + 1];
        assert_eq!(
            plan.validate(),
            Err(PlanError::TooManyRules {
                rules: MAX_RULES + 1,
                max: MAX_RULES
            })
        );

        // Early cutoff: only an elimination stage with a range starting at 1.
        let mut plan = top(8, CutTiebreaker::BetterSeed);
        plan.stages[0].allow_early_cutoff = true;
        assert_eq!(
            plan.validate(),
            Err(PlanError::EarlyCutoffNotApplicable { stage: 1 })
        );
        // Continue brackets: only double elimination after double elimination.
        let mut plan = top(8, CutTiebreaker::BetterSeed);
        plan.stages[1].advance_mode = AdvanceMode::ContinueBrackets;
        assert_eq!(
            plan.validate(),
            Err(PlanError::ContinueBracketsNotApplicable { stage: 2 })
        );
        plan.stages[0].format = Format::DoubleElimination;
        plan.stages[1].format = Format::DoubleElimination;
        plan.validate().expect("double into double may continue");
        assert_eq!(
            PlanError::MixedStages {
                free_for_all: 2,
                one_on_one: 1
            }
            .to_string(),
            "stage 2 is free-for-all and stage 1 is one-on-one: a tournament is either all one-on-one stages or all free-for-all stages"
        );
    }

    #[test]
    fn early_cutoff_needs_the_top_placements_of_an_elimination_stage() {
        let mut plan = top(8, CutTiebreaker::BetterSeed);
        plan.stages[0].format = Format::SingleElimination;
        plan.stages[0].allow_early_cutoff = true;
        plan.validate().expect("a day-one bracket finding a top 8");
        assert_eq!(plan.early_cutoff(0), Some(8));
        assert_eq!(plan.early_cutoff(1), None, "no rule reads the last stage");
    }

    #[test]
    fn plans_read_from_json() {
        let plan: TournamentPlan = serde_json::from_str(
            r#"{"stages": [{"format": "swiss"}, {"format": "single_elimination"}],
                "rules": [{"from_stage": 0,
                           "condition": {"type": "placement_range", "from": 1, "to": 8},
                           "action": {"type": "advance", "to_stage": 1}}],
                "cut_tiebreaker": "advance_whole_tie"}"#,
        )
        .expect("a plan");
        assert_eq!(plan.cut_tiebreaker, CutTiebreaker::AdvanceWholeTie);
        assert_eq!(plan.rules.len(), 1);
        plan.validate().expect("valid");
    }
}
