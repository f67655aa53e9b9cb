//! The next round of any stage, from an event and a stage config: what `turnier tournament
//! pair` prints.
//!
//! A stage config is a JSON object naming the stage's `format` and, optionally, the event's
//! stored `seed` (0 when absent), the previous stage's final order (`prior_stage`, best
//! first) and any of the format's settings. Settings left out take the create form's
//! defaults; points, bye handling and tiebreakers are the event's own `settings` (standings are
//! computed from them), so the stage config does not repeat them:
//!
//! ```json
//! {"format": "swiss", "seed": 7, "rounds": 5, "pairing_style": "fold"}
//! {"format": "single_elimination", "prior_stage": ["Ana", "Cam"], "third_place_match": true}
//! {"format": "round_robin", "cycles": 2, "grouping": {"groups": 2}}
//! ```
//!
//! An elimination stage with **Allow early cutoff** takes `"early_cutoff": k`, the end of the
//! placement range its advancement rule reads ([`super::stages::TournamentPlan::early_cutoff`]):
//! once the top `k` are decided, the stage has no next round. A stage with no next round
//! (complete, or cut off) prints no pairings.
//!
//! Free-for-all stages have their own event file ([`FreeForAllEvent`]) carrying their format
//! and settings; their config only adds the `seed`.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::defaults::{Format, PairingStyle, RoundRobinSettings, SeedingMethod, SwissSettings};
use super::elimination::{self, EliminationError, EliminationSettings, PendingMatch};
use super::event::{Event, PlayerId};
use super::free_for_all::{self, FreeForAllError, FreeForAllEvent};
use super::round_robin::{self, Grouping, RoundRobinError};
use super::swiss::{self, PairingError};

/// A stage config or event that cannot give a next round.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NextRoundError {
    /// The stage config is not a JSON object with a known `format` and known settings.
    #[error("the stage config is refused: {0}")]
    Stage(String),
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

/// A stage config read from JSON: the format, the seed, the prior stage's order and the
/// format's own settings (still as JSON, merged over the defaults when used).
#[derive(Debug, Clone, PartialEq)]
pub struct StageConfig {
    /// The stage's format.
    pub format: Format,
    /// The event's stored seed.
    pub seed: u64,
    /// The previous stage's final order, best first.
    pub prior_stage: Option<Vec<PlayerId>>,
    /// The format's settings given, by name.
    settings: Map<String, Value>,
}

impl StageConfig {
    /// Reads a stage config from a JSON value.
    pub fn from_value(value: Value) -> Result<Self, NextRoundError> {
        let Value::Object(mut settings) = value else {
            return Err(NextRoundError::Stage(
                "a stage config is a JSON object".to_owned(),
            ));
        };
        let format = settings
            .remove("format")
            .ok_or_else(|| NextRoundError::Stage("setting `format` is missing".to_owned()))?;
        let format: Format = serde_json::from_value(format)
            .map_err(|err| NextRoundError::Stage(format!("setting `format`: {err}")))?;
        let seed = match settings.remove("seed") {
            None | Some(Value::Null) => 0,
            Some(seed) => serde_json::from_value(seed).map_err(|err| {
                NextRoundError::Stage(format!("setting `seed` must be a whole number: {err}"))
            })?,
        };
        let prior_stage = match settings.remove("prior_stage") {
            None | Some(Value::Null) => None,
            Some(order) => Some(serde_json::from_value(order).map_err(|err| {
                NextRoundError::Stage(format!("setting `prior_stage` must list player ids: {err}"))
            })?),
        };
        Ok(Self {
            format,
            seed,
            prior_stage,
            settings,
        })
    }

    /// Pairs the next round of a one-on-one stage from its event.
    pub fn next_round(&self, event: &Event) -> Result<NextRound, NextRoundError> {
        event.validate().map_err(PairingError::from)?;
        let prior = self.prior_stage.as_deref();
        match self.format {
            Format::Swiss => {
                let stage = self.swiss(event)?;
                let pairing = swiss::pair_next_round(event, &stage, self.seed, prior)?;
                let mut pairings = tables(pairing.matches.into_iter().map(|m| (m, None, None)));
                pairings.extend(pairing.bye.map(|player| Pairing {
                    table: None,
                    players: vec![player],
                    bye: true,
                    label: None,
                    group: None,
                }));
                Ok(NextRound {
                    format: self.format,
                    round: pairing.round,
                    pairings,
                    has_rematch: Some(pairing.has_rematch),
                    sitting_out: Vec::new(),
                })
            }
            Format::SingleElimination | Format::DoubleElimination => {
                let mut config = self.clone();
                let early_cutoff = match config.settings.remove("early_cutoff") {
                    None | Some(Value::Null) => None,
                    Some(places) => Some(serde_json::from_value::<u32>(places).map_err(|err| {
                        NextRoundError::Stage(format!(
                            "setting `early_cutoff` is the number of top placements to decide: {err}"
                        ))
                    })?),
                };
                let settings = config.elimination()?;
                let bracket = elimination::replay(event, self.format, &settings, self.seed, prior)?;
                let stopped = early_cutoff.is_some_and(|places| bracket.is_top_decided(places));
                let pending = if stopped {
                    Vec::new()
                } else {
                    bracket.next_round()
                };
                Ok(NextRound {
                    format: self.format,
                    round: event.rounds.len() + 1,
                    pairings: tables(pending.into_iter().map(|PendingMatch { label, players }| {
                        (players, Some(label.to_string()), None)
                    })),
                    has_rematch: None,
                    sitting_out: Vec::new(),
                })
            }
            Format::RoundRobin => {
                let (stage, grouping) = self.round_robin(event)?;
                let round = round_robin::pair_next_round(event, &stage, grouping)?;
                let grouped = grouping.is_some();
                Ok(NextRound {
                    format: self.format,
                    round: round.round,
                    pairings: tables(round.matches.into_iter().map(|scheduled| {
                        (scheduled.players, None, grouped.then_some(scheduled.group))
                    })),
                    has_rematch: None,
                    sitting_out: round.sitting_out,
                })
            }
            Format::CumulativePoints | Format::ThresholdWin => Err(NextRoundError::Stage(format!(
                "setting `format` is `{}`, a free-for-all format: its event lists `matches` of lobbies, not `rounds`",
                self.format
            ))),
        }
    }

    /// The Swiss settings: the event's points, byes and tiebreakers, the defaults, then the
    /// config's settings.
    fn swiss(&self, event: &Event) -> Result<SwissSettings, NextRoundError> {
        let scoring = &event.settings;
        let first_round_seeding = if self.prior_stage.is_some() {
            SeedingMethod::PriorStage
        } else {
            SeedingMethod::Random
        };
        let defaults = json!({
            "rounds": 5,
            "points": scoring.points,
            "allow_draws": true,
            "bye_handling": scoring.bye_handling,
            "pairing_style": PairingStyle::RandomWithinScoreGroups,
            "prevent_repeat_matchups": true,
            "tiebreakers": scoring.tiebreakers,
            "first_round_seeding": first_round_seeding,
        });
        self.merged(defaults, &["points", "bye_handling", "tiebreakers"])
    }

    /// The elimination settings: the create form's defaults (random seeding for a first stage,
    /// prior stage results when a prior order is given), then the config's settings.
    fn elimination(&self) -> Result<EliminationSettings, NextRoundError> {
        let defaults = EliminationSettings::default_for_stage(self.prior_stage.is_none());
        let defaults =
            serde_json::to_value(defaults).map_err(|err| NextRoundError::Stage(err.to_string()))?;
        let settings: EliminationSettings = self.merged(defaults, &[])?;
        settings
            .validate(self.format)
            .map_err(|err| NextRoundError::Stage(err.to_string()))?;
        Ok(settings)
    }

    /// The round-robin settings and grouping: the event's points and tiebreakers, one cycle,
    /// no grouping, then the config's settings.
    fn round_robin(
        &self,
        event: &Event,
    ) -> Result<(RoundRobinSettings, Option<Grouping>), NextRoundError> {
        let mut settings = self.settings.clone();
        let grouping = match settings.remove("grouping") {
            None | Some(Value::Null) => None,
            Some(grouping) => Some(serde_json::from_value(grouping).map_err(|err| {
                NextRoundError::Stage(format!(
                    "setting `grouping` is {{\"groups\": n}} or {{\"players_per_group\": n}}: {err}"
                ))
            })?),
        };
        let defaults = json!({
            "points": event.settings.points,
            "tiebreakers": event.settings.tiebreakers,
            "cycles": 1,
        });
        let stage = Self {
            settings,
            ..self.clone()
        }
        .merged(defaults, &["points", "tiebreakers"])?;
        Ok((stage, grouping))
    }

    /// Deserializes the config's settings merged over `defaults`, refusing unknown settings
    /// and the ones the event's own settings decide.
    fn merged<T: serde::de::DeserializeOwned>(
        &self,
        defaults: Value,
        from_event: &[&str],
    ) -> Result<T, NextRoundError> {
        let Value::Object(mut merged) = defaults else {
            return Err(NextRoundError::Stage("defaults are an object".to_owned()));
        };
        for (name, value) in &self.settings {
            if from_event.contains(&name.as_str()) {
                return Err(NextRoundError::Stage(format!(
                    "setting `{name}` comes from the event's `settings`, not from the stage config"
                )));
            }
            merged.insert(name.clone(), value.clone());
        }
        serde_json::from_value(Value::Object(merged))
            .map_err(|err| NextRoundError::Stage(format!("a `{}` stage: {err}", self.format)))
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

    fn config(value: Value) -> StageConfig {
        StageConfig::from_value(value).expect("a stage config")
    }

    fn ids(pairing: &Pairing) -> Vec<&str> {
        pairing.players.iter().map(PlayerId::as_str).collect()
    }

    #[test]
    fn a_swiss_round_one_by_manual_seeding_and_fold_pairs_top_half_against_bottom_half() {
        let next = config(json!({"format": "swiss", "first_round_seeding": "manual",
                                 "pairing_style": "fold"}))
        .next_round(&event(5))
        .expect("a round");
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
        let prior: Vec<String> = (1..=8).map(|at| format!("P{at}")).collect();
        let next = config(json!({"format": "single_elimination", "prior_stage": prior}))
            .next_round(&event(8))
            .expect("a round");
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
        let prior: Vec<String> = (1..=16).map(|at| format!("P{at}")).collect();
        let stage = json!({"format": "single_elimination", "prior_stage": prior,
                           "early_cutoff": 8});
        let mut event = event(16);
        let first = config(stage.clone()).next_round(&event).expect("round 1");
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
        let after = config(stage).next_round(&event).expect("no round");
        assert!(after.pairings.is_empty(), "{after:?}");
        let without_cutoff = config(json!({"format": "single_elimination", "prior_stage": prior}))
            .next_round(&event)
            .expect("quarterfinals");
        assert_eq!(without_cutoff.pairings.len(), 4);
    }

    #[test]
    fn a_grouped_round_robin_names_each_match_group() {
        let mut event = event(8);
        event.settings.tiebreakers = vec![Tiebreaker::HeadToHead, Tiebreaker::ScoreDifference];
        let next = config(json!({"format": "round_robin", "grouping": {"groups": 2}}))
            .next_round(&event)
            .expect("a round");
        assert_eq!(next.pairings.len(), 4);
        assert!(next.pairings.iter().all(|p| p.group.is_some()));
    }

    #[test]
    fn settings_are_refused_by_name() {
        let refused = |value: Value| {
            config(value)
                .next_round(&event(8))
                .expect_err("refused")
                .to_string()
        };
        assert!(
            refused(json!({"format": "swiss", "round": 3})).contains("unknown field `round`"),
            "a misspelt setting"
        );
        assert!(
            refused(json!({"format": "swiss", "tiebreakers": []}))
                .contains("setting `tiebreakers` comes from the event's `settings`")
        );
        assert!(
            refused(json!({"format": "double_elimination", "third_place_match": true}))
                .contains("third_place_match")
        );
        assert!(refused(json!({"format": "cumulative_points"})).contains("free-for-all"));
        assert!(
            StageConfig::from_value(json!({"rounds": 3}))
                .expect_err("no format")
                .to_string()
                .contains("setting `format` is missing")
        );
    }
}
