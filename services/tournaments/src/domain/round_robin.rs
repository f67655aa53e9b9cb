//! Round robin (the page's "Round robin" format): everyone plays everyone once per cycle, by
//! the circle method in the order of the FIDE Berger tables, optionally split into groups.
//!
//! The schedule is fixed when the stage starts, from the registered players in seed order
//! (lower seed first, then listing order):
//!
//! - **Grouping** deals the field into groups by seed in snake order (1, 2, 3 into groups A, B,
//!   C, then 4 into C, 5 into B, 6 into A, …), so each group gets a fair share of top seeds.
//!   Group sizes differ by at most one, the first groups holding the extra players (the same
//!   dealing as free-for-all lobbies, [`super::free_for_all::deal_in_snake_order`]). Each
//!   group is its own round robin.
//! - Inside a group of `n` players, player `k` (by seed) takes Berger number `k`. A cycle is
//!   `n − 1` rounds, or `n` when `n` is odd: then a phantom player completes the table and
//!   whoever meets it sits out. Sitting out is not a bye: the player simply has no entry in
//!   that round, so it is worth nothing and adds nothing to the record, whatever the event's
//!   bye handling.
//! - A second cycle repeats the first cycle's rounds with each match's order (colours, or who
//!   is listed first) swapped.
//! - Stage round `r` holds round `r` of every group; a group with fewer rounds than another
//!   sits out the rounds after its last one.
//! - A dropped player is never paired again: their remaining matches are skipped, and their
//!   scheduled opponent sits out that round. Nobody else's opponents change, so the schedule
//!   announced at the start stays valid.
//!
//! Standings per group reuse [`super::standings::standings`] on the group's players and
//! matches. Storing results and the stage's settings is left to the caller.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::defaults::RoundRobinSettings;
use super::event::{Entry, Event, EventError, Player, PlayerId, Round};
use super::free_for_all::{balanced_sizes, deal_in_snake_order};
use super::settings::{ByeHandling, ScoringSettings, SettingsError, at_most};
use super::standings::{Standings, standings};

/// How a round-robin stage splits its field (the stage's **Grouping** setting); without it
/// the whole field is one group.
///
/// In JSON: `{"groups": 4}` or `{"players_per_group": 6}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grouping {
    /// This many groups.
    Groups(u32),
    /// Groups of at most this many players: as few groups as that allows, balanced.
    PlayersPerGroup(u32),
}

/// A round-robin stage that cannot be scheduled, paired or ranked.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RoundRobinError {
    /// The event is refused (see [`Event::validate`]).
    #[error(transparent)]
    Event(#[from] EventError),
    /// A stage setting is refused.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// Grouping asks for no groups.
    #[error("setting `grouping.groups` must be at least 1")]
    NoGroups,
    /// Grouping asks for groups of fewer than two players.
    #[error("setting `grouping.players_per_group` must be at least 2, not {0}")]
    GroupTooSmall(u32),
    /// Grouping asks for more groups than there are players.
    #[error(
        "setting `grouping.groups` asks for {groups} groups, but the stage has {players} players"
    )]
    MoreGroupsThanPlayers {
        /// The groups asked for.
        groups: u32,
        /// The players in the stage.
        players: usize,
    },
    /// Grouping would leave a player alone in a group, with no one to play.
    #[error(
        "setting `{setting}` would leave a group of 1 player among {players} players; every group needs at least 2"
    )]
    GroupOfOne {
        /// The grouping setting at fault (`grouping.groups` or `grouping.players_per_group`).
        setting: &'static str,
        /// The players in the stage.
        players: usize,
    },
    /// Fewer than two players are registered, so there is nobody to play.
    #[error("a round robin needs at least 2 players")]
    NotEnoughPlayers,
    /// Every round of the schedule has been played.
    #[error("the stage is complete: all {0} rounds have been played")]
    StageComplete(usize),
}

/// One group of a round-robin stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Group {
    /// The group's number, from 1 (group A is 1).
    pub number: usize,
    /// Its players in seed order; a player's position plus one is their Berger number.
    pub players: Vec<PlayerId>,
}

/// One scheduled match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundRobinMatch {
    /// The group it belongs to, from 1.
    pub group: usize,
    /// The cycle it belongs to, from 1.
    pub cycle: u32,
    /// The two players; the first has white (or plays first) in the Berger table.
    pub players: [PlayerId; 2],
}

/// One round of a round-robin stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundRobinRound {
    /// The round, from 1.
    pub round: usize,
    /// The matches, group by group, in Berger board order.
    pub matches: Vec<RoundRobinMatch>,
    /// Players still in the stage who have no match this round: the odd one out of an odd
    /// group, a group whose schedule is already over, or the opponent of a dropped player.
    pub sitting_out: Vec<PlayerId>,
}

impl RoundRobinRound {
    /// Returns the round's matches as entries, each with no games yet (`[0, 0]`). Players
    /// sitting out get no entry: sitting out in a round robin is not a bye.
    pub fn entries(&self) -> Round {
        Round(
            self.matches
                .iter()
                .map(|scheduled| Entry::Match {
                    players: scheduled.players.clone(),
                    games: [0, 0],
                })
                .collect(),
        )
    }
}

/// The standings of one group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupStandings {
    /// The group, from 1.
    pub group: usize,
    /// Its players, best first, ranked on the group's matches only.
    #[serde(flatten)]
    pub standings: Standings,
}

/// The most groups a round-robin stage may ask for: 8,000 players in groups of two.
pub const MAX_GROUPS: u32 = 4_096;

/// The most players per group a round-robin stage may ask for: a group of that many plays
/// 1,023 rounds per cycle, more than any event.
pub const MAX_PLAYERS_PER_GROUP: u32 = 1_024;

impl Grouping {
    /// Refuses a grouping over its upper bound, naming the setting. The lower bounds depend
    /// on the field and are checked when the stage starts ([`Grouping::group_count`]).
    pub fn validate(self) -> Result<(), SettingsError> {
        match self {
            Self::Groups(groups) => at_most("grouping.groups", groups, MAX_GROUPS),
            Self::PlayersPerGroup(size) => {
                at_most("grouping.players_per_group", size, MAX_PLAYERS_PER_GROUP)
            }
        }
    }

    /// Returns the number of groups for `players` players, refusing a grouping that asks for
    /// no groups, more groups than players, or would leave a group of 1.
    pub fn group_count(self, players: usize) -> Result<usize, RoundRobinError> {
        let (groups, setting) = match self {
            Self::Groups(0) => return Err(RoundRobinError::NoGroups),
            Self::Groups(asked) => {
                let groups = to_usize(asked);
                if groups > players {
                    return Err(RoundRobinError::MoreGroupsThanPlayers {
                        groups: asked,
                        players,
                    });
                }
                (groups, "grouping.groups")
            }
            Self::PlayersPerGroup(size @ (0 | 1)) => {
                return Err(RoundRobinError::GroupTooSmall(size));
            }
            Self::PlayersPerGroup(size) => (
                players.div_ceil(to_usize(size)),
                "grouping.players_per_group",
            ),
        };
        // Balanced groups hold `players / groups` players or one more, so the smallest holds
        // `players / groups` (rounded down).
        if groups > 0 && players / groups < 2 {
            return Err(RoundRobinError::GroupOfOne { setting, players });
        }
        Ok(groups)
    }
}

/// Returns the [`ScoringSettings`] a round-robin stage's standings use: its points and
/// tiebreakers, with sitting out worth nothing and no match-win formula or floors (round-robin
/// tiebreakers use neither).
pub fn scoring(stage: &RoundRobinSettings) -> ScoringSettings {
    ScoringSettings {
        points: stage.points,
        bye_handling: ByeHandling::ZeroPoints,
        tiebreakers: stage.tiebreakers.clone(),
        match_win_formula: None,
        opponent_match_win_floor: None,
        game_win_floor: None,
    }
}

/// Returns the rounds one cycle takes for a group of `players`: `players − 1`, or `players`
/// when it is odd (each round one player sits out).
pub const fn rounds_per_cycle(players: usize) -> usize {
    if players < 2 {
        0
    } else if players.is_multiple_of(2) {
        players - 1
    } else {
        players
    }
}

/// Splits every registered player (dropped ones included, so the groups never change) into
/// the stage's groups: by seed, dealt in snake order.
pub fn groups(
    players: &[Player],
    grouping: Option<Grouping>,
) -> Result<Vec<Group>, RoundRobinError> {
    if players.len() < 2 {
        return Err(RoundRobinError::NotEnoughPlayers);
    }
    let count = grouping.map_or(Ok(1), |grouping| grouping.group_count(players.len()))?;
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by_key(|&at| (players[at].seed, at));
    let ids: Vec<PlayerId> = order.iter().map(|&at| players[at].id.clone()).collect();
    let groups = deal_in_snake_order(&ids, &balanced_sizes(ids.len(), count))
        .into_iter()
        .zip(1..)
        .map(|(players, number)| Group { number, players })
        .collect();
    Ok(groups)
}

/// Returns the whole schedule of a stage, every cycle of every group, with the matches of
/// players already dropped skipped.
pub fn schedule(
    players: &[Player],
    stage: &RoundRobinSettings,
    grouping: Option<Grouping>,
) -> Result<Vec<RoundRobinRound>, RoundRobinError> {
    stage.validate()?;
    let groups = groups(players, grouping)?;
    let total = total_rounds(&groups, stage.cycles);
    Ok((1..=total)
        .map(|round| scheduled_round(players, &groups, stage.cycles, round))
        .collect())
}

/// Pairs the next round of a round-robin stage: the schedule's round after the event's rounds
/// so far, with dropped players' matches skipped. Results already entered do not change it:
/// the schedule depends only on the registered players and their seeds.
pub fn pair_next_round(
    event: &Event,
    stage: &RoundRobinSettings,
    grouping: Option<Grouping>,
) -> Result<RoundRobinRound, RoundRobinError> {
    event.validate()?;
    stage.validate()?;
    let groups = groups(&event.players, grouping)?;
    let total = total_rounds(&groups, stage.cycles);
    let round = event.rounds.len() + 1;
    if round > total {
        return Err(RoundRobinError::StageComplete(total));
    }
    Ok(scheduled_round(
        &event.players,
        &groups,
        stage.cycles,
        round,
    ))
}

/// Ranks each group on its own matches with [`standings`] and the event's settings
/// (head-to-head, then score difference, by the defaults). Entries between players of two
/// different groups are left out.
pub fn group_standings(
    event: &Event,
    grouping: Option<Grouping>,
) -> Result<Vec<GroupStandings>, RoundRobinError> {
    event.validate()?;
    if let Some(&tiebreaker) = event
        .settings
        .tiebreakers
        .iter()
        .find(|tiebreaker| !tiebreaker.is_available_in_round_robin())
    {
        return Err(SettingsError::TiebreakerNotInRoundRobin(tiebreaker).into());
    }
    let groups = groups(&event.players, grouping)?;
    Ok(groups
        .into_iter()
        .map(|group| {
            let members: HashSet<&PlayerId> = group.players.iter().collect();
            let group_event = Event {
                settings: event.settings.clone(),
                players: event
                    .players
                    .iter()
                    .filter(|player| members.contains(&player.id))
                    .cloned()
                    .collect(),
                rounds: event
                    .rounds
                    .iter()
                    .map(|round| {
                        Round(
                            round
                                .0
                                .iter()
                                .filter(|entry| {
                                    entry
                                        .players()
                                        .iter()
                                        .all(|player| members.contains(player))
                                })
                                .cloned()
                                .collect(),
                        )
                    })
                    .collect(),
            };
            GroupStandings {
                group: group.number,
                standings: standings(&group_event),
            }
        })
        .collect())
}

/// Returns the stage's round count: its longest group's rounds over every cycle.
fn total_rounds(groups: &[Group], cycles: u32) -> usize {
    groups
        .iter()
        .map(|group| rounds_per_cycle(group.players.len()) * to_usize(cycles))
        .max()
        .unwrap_or(0)
}

/// Builds stage round `round` (from 1): each group's match of that round, skipping dropped
/// players, and everyone still in the stage without a match as sitting out.
fn scheduled_round(
    players: &[Player],
    groups: &[Group],
    cycles: u32,
    round: usize,
) -> RoundRobinRound {
    let dropped: HashSet<&PlayerId> = players
        .iter()
        .filter(|player| player.dropped)
        .map(|player| &player.id)
        .collect();
    let mut matches = Vec::new();
    for group in groups {
        let per_cycle = rounds_per_cycle(group.players.len());
        if per_cycle == 0 || round > per_cycle * to_usize(cycles) {
            continue;
        }
        let cycle = (round - 1) / per_cycle;
        let in_cycle = (round - 1) % per_cycle + 1;
        for [first, second] in berger_round(group.players.len(), in_cycle) {
            let (first, second) = (&group.players[first], &group.players[second]);
            if dropped.contains(first) || dropped.contains(second) {
                continue;
            }
            // The second cycle swaps who is listed first (colours).
            let pair = if cycle.is_multiple_of(2) {
                [first.clone(), second.clone()]
            } else {
                [second.clone(), first.clone()]
            };
            matches.push(RoundRobinMatch {
                group: group.number,
                cycle: u32::try_from(cycle + 1).unwrap_or(u32::MAX),
                players: pair,
            });
        }
    }
    let playing: HashSet<&PlayerId> = matches
        .iter()
        .flat_map(|scheduled| &scheduled.players)
        .collect();
    let sitting_out = groups
        .iter()
        .flat_map(|group| &group.players)
        .filter(|player| !dropped.contains(player) && !playing.contains(player))
        .cloned()
        .collect();
    RoundRobinRound {
        round,
        matches,
        sitting_out,
    }
}

/// Returns round `round` (from 1) of the Berger table for `players` players, as pairs of
/// positions (from 0) with white first, board by board; with an odd count, the pairing with
/// the phantom player is left out.
///
/// With `m` table places (players rounded up to even) and numbers from 1: in round `r`, the
/// player `p` with `2p ≡ r + 1 (mod m − 1)` meets `m` (`m` has black in odd rounds, white in
/// even ones); board `k` pairs `p + (k − 1)` with `p − (k − 1)` (mod `m − 1`, in `1..m`), and
/// the lower number has white when the two numbers add up to an odd sum, the higher when even.
fn berger_round(players: usize, round: usize) -> Vec<[usize; 2]> {
    let places = players + players % 2;
    let modulus = places - 1;
    let wrap = |number: usize| (number + modulus - 1) % modulus + 1;
    let Some(fixed_opponent) = (1..places).find(|&p| (2 * p) % modulus == (round + 1) % modulus)
    else {
        return Vec::new();
    };
    let mut boards = Vec::with_capacity(places / 2);
    boards.push(if round % 2 == 1 {
        [fixed_opponent, places]
    } else {
        [places, fixed_opponent]
    });
    for step in 1..places / 2 {
        let (up, down) = (
            wrap(fixed_opponent + step),
            wrap(fixed_opponent + modulus - step),
        );
        let (low, high) = (up.min(down), up.max(down));
        boards.push(if (low + high) % 2 == 1 {
            [low, high]
        } else {
            [high, low]
        });
    }
    boards
        .into_iter()
        // The phantom player's number is `players + 1`; whoever meets it sits out.
        .filter(|board| board.iter().all(|&number| number <= players))
        .map(|[white, black]| [white - 1, black - 1])
        .collect()
}

/// Returns a setting count as a `usize` (every `u32` fits on the platforms we build for).
fn to_usize(count: u32) -> usize {
    usize::try_from(count).unwrap_or(usize::MAX)
}

/// Returns how many times each unordered pair of players meets in `rounds`, per cycle.
#[cfg(test)]
fn meetings(
    rounds: &[RoundRobinRound],
) -> std::collections::HashMap<(u32, PlayerId, PlayerId), usize> {
    let mut met = std::collections::HashMap::new();
    for round in rounds {
        for scheduled in &round.matches {
            let [a, b] = scheduled.players.clone();
            let key = if a <= b { (a, b) } else { (b, a) };
            *met.entry((scheduled.cycle, key.0, key.1)).or_insert(0) += 1;
        }
    }
    met
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::defaults::{Game, GameDefaults};
    use crate::domain::settings::Tiebreaker;

    fn players(count: usize) -> Vec<Player> {
        (1..=count)
            .map(|seed| Player {
                id: PlayerId(format!("p{seed:02}")),
                seed: u32::try_from(seed).expect("small"),
                rating: None,
                dropped: false,
            })
            .collect()
    }

    fn stage(cycles: u32) -> RoundRobinSettings {
        RoundRobinSettings {
            cycles,
            ..GameDefaults::of(Game::Pokemon).round_robin
        }
    }

    fn numbers(pairs: &[[usize; 2]]) -> Vec<[usize; 2]> {
        pairs.iter().map(|[a, b]| [a + 1, b + 1]).collect()
    }

    #[test]
    fn reproduces_the_berger_table_for_six_players() {
        let expected = [
            vec![[1, 6], [2, 5], [3, 4]],
            vec![[6, 4], [5, 3], [1, 2]],
            vec![[2, 6], [3, 1], [4, 5]],
            vec![[6, 5], [1, 4], [2, 3]],
            vec![[3, 6], [4, 2], [5, 1]],
        ];
        for (round, boards) in expected.iter().enumerate() {
            assert_eq!(
                &numbers(&berger_round(6, round + 1)),
                boards,
                "round {}",
                round + 1
            );
        }
    }

    #[test]
    fn reproduces_the_berger_table_for_four_players() {
        let expected = [
            vec![[1, 4], [2, 3]],
            vec![[4, 3], [1, 2]],
            vec![[2, 4], [3, 1]],
        ];
        for (round, boards) in expected.iter().enumerate() {
            assert_eq!(
                &numbers(&berger_round(4, round + 1)),
                boards,
                "round {}",
                round + 1
            );
        }
    }

    #[test]
    fn five_players_take_five_rounds_with_one_sitting_out_each() {
        let rounds = schedule(&players(5), &stage(1), None).expect("a schedule");
        assert_eq!(rounds.len(), 5);
        let mut sat_out: Vec<PlayerId> = Vec::new();
        for round in &rounds {
            assert_eq!(round.matches.len(), 2, "round {}", round.round);
            assert_eq!(round.sitting_out.len(), 1, "round {}", round.round);
            sat_out.extend(round.sitting_out.iter().cloned());
            assert!(round.entries().0.len() == 2, "sitting out adds no entry");
        }
        sat_out.sort();
        assert_eq!(
            sat_out,
            players(5).into_iter().map(|p| p.id).collect::<Vec<_>>()
        );
    }

    #[test]
    fn the_second_cycle_repeats_the_pairs_in_swapped_order() {
        let rounds = schedule(&players(4), &stage(2), None).expect("a schedule");
        assert_eq!(rounds.len(), 6);
        for at in 0..3 {
            let first: Vec<_> = rounds[at]
                .matches
                .iter()
                .map(|m| m.players.clone())
                .collect();
            let second: Vec<_> = rounds[at + 3]
                .matches
                .iter()
                .map(|m| {
                    let [a, b] = m.players.clone();
                    [b, a]
                })
                .collect();
            assert_eq!(first, second, "round {}", at + 1);
            assert!(rounds[at + 3].matches.iter().all(|m| m.cycle == 2));
        }
    }

    #[test]
    fn deals_groups_by_seed_in_snake_order() {
        let groups = groups(&players(8), Some(Grouping::Groups(3))).expect("groups");
        let ids = |group: &Group| {
            group
                .players
                .iter()
                .map(|id| id.as_str().to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(&groups[0]), ["p01", "p06", "p07"]);
        assert_eq!(ids(&groups[1]), ["p02", "p05", "p08"]);
        assert_eq!(ids(&groups[2]), ["p03", "p04"]);
    }

    #[test]
    fn players_per_group_makes_as_few_balanced_groups_as_fit() {
        let groups = groups(&players(10), Some(Grouping::PlayersPerGroup(4))).expect("groups");
        let sizes: Vec<usize> = groups.iter().map(|group| group.players.len()).collect();
        assert_eq!(sizes, [4, 3, 3]);
    }

    #[test]
    fn refuses_groupings_naming_the_setting() {
        let field = players(5);
        let refused = |grouping| groups(&field, Some(grouping)).unwrap_err().to_string();
        assert!(refused(Grouping::Groups(0)).contains("`grouping.groups`"));
        assert!(refused(Grouping::Groups(6)).contains("6 groups"));
        assert!(refused(Grouping::Groups(3)).contains("group of 1"));
        assert!(refused(Grouping::PlayersPerGroup(1)).contains("`grouping.players_per_group`"));
        assert!(
            groups(&players(3), Some(Grouping::PlayersPerGroup(2)))
                .unwrap_err()
                .to_string()
                .contains("`grouping.players_per_group` would leave a group of 1")
        );
        assert_eq!(
            groups(&field, Some(Grouping::Groups(2))).map(|g| g.len()),
            Ok(2)
        );
    }

    #[test]
    fn refuses_a_grouping_over_its_bound_naming_the_setting() {
        assert_eq!(Grouping::Groups(MAX_GROUPS).validate(), Ok(()));
        assert_eq!(
            Grouping::Groups(MAX_GROUPS + 1)
                .validate()
                .map_err(|err| err.to_string()),
            Err("setting `grouping.groups` must be at most 4096, not 4097".to_owned())
        );
        assert_eq!(
            Grouping::PlayersPerGroup(MAX_PLAYERS_PER_GROUP).validate(),
            Ok(())
        );
        assert!(matches!(
            Grouping::PlayersPerGroup(u32::MAX).validate(),
            Err(SettingsError::TooLarge {
                setting: "grouping.players_per_group",
                ..
            })
        ));
    }

    #[test]
    fn reads_a_grouping_as_json() {
        let read: Grouping = serde_json::from_str(r#"{"players_per_group": 6}"#).expect("valid");
        assert_eq!(read, Grouping::PlayersPerGroup(6));
        let written = serde_json::to_string(&Grouping::Groups(4)).expect("serializable");
        assert_eq!(written, r#"{"groups":4}"#);
    }

    #[test]
    fn smaller_groups_sit_out_once_their_schedule_is_over() {
        let field = players(9);
        let rounds = schedule(&field, &stage(1), Some(Grouping::Groups(2))).expect("a schedule");
        // Groups of 5 (5 rounds) and 4 (3 rounds).
        assert_eq!(rounds.len(), 5);
        assert!(rounds[3].matches.iter().all(|m| m.group == 1));
        assert_eq!(rounds[3].sitting_out.len(), 5);
        let met = meetings(&rounds);
        assert_eq!(met.len(), 10 + 6);
    }

    #[test]
    fn dropped_players_are_not_paired_again() {
        let mut event = Event {
            settings: scoring(&stage(1)),
            players: players(4),
            rounds: Vec::new(),
        };
        let first = pair_next_round(&event, &stage(1), None).expect("round 1");
        event.rounds.push(first.entries());
        event.players[0].dropped = true;
        let second = pair_next_round(&event, &stage(1), None).expect("round 2");
        assert_eq!(second.round, 2);
        assert_eq!(second.matches.len(), 1);
        assert!(
            second
                .matches
                .iter()
                .all(|m| !m.players.contains(&"p01".into()))
        );
        assert_eq!(second.sitting_out.len(), 1);
        assert!(!second.sitting_out.contains(&"p01".into()));
    }

    #[test]
    fn refuses_a_round_after_the_last_one() {
        let mut event = Event {
            settings: scoring(&stage(1)),
            players: players(3),
            rounds: Vec::new(),
        };
        for _ in 0..3 {
            let round = pair_next_round(&event, &stage(1), None).expect("a round");
            event.rounds.push(round.entries());
        }
        assert_eq!(
            pair_next_round(&event, &stage(1), None),
            Err(RoundRobinError::StageComplete(3))
        );
    }

    #[test]
    fn ranks_each_group_on_its_own_matches() {
        let stage = stage(1);
        let mut event = Event {
            settings: scoring(&stage),
            players: players(6),
            rounds: Vec::new(),
        };
        // Groups p01 p04 p05 and p02 p03 p06. Group 1 goes round in a circle, so everyone
        // has 3 points and 3 head-to-head points, and score difference decides.
        let results = [
            ("p01", "p04", [2, 0]),
            ("p04", "p05", [2, 1]),
            ("p05", "p01", [2, 1]),
            ("p02", "p03", [2, 0]),
            ("p02", "p06", [2, 0]),
            ("p03", "p06", [2, 0]),
        ];
        let rounds = schedule(&event.players, &stage, Some(Grouping::Groups(2))).expect("ok");
        for round in &rounds {
            let entries = round
                .matches
                .iter()
                .map(|scheduled| {
                    let [a, b] = &scheduled.players;
                    let games = results
                        .iter()
                        .find_map(|&(winner, loser, games)| {
                            if (a.as_str(), b.as_str()) == (winner, loser) {
                                Some(games)
                            } else if (a.as_str(), b.as_str()) == (loser, winner) {
                                Some([games[1], games[0]])
                            } else {
                                None
                            }
                        })
                        .expect("every scheduled match has a result");
                    Entry::Match {
                        players: scheduled.players.clone(),
                        games,
                    }
                })
                .collect();
            event.rounds.push(Round(entries));
        }
        let ranked = group_standings(&event, Some(Grouping::Groups(2))).expect("standings");
        let table = |group: &GroupStandings| {
            group
                .standings
                .standings
                .iter()
                .map(|standing| {
                    (
                        standing.rank,
                        standing.player.as_str().to_owned(),
                        standing.points.value(),
                        standing
                            .tiebreakers
                            .iter()
                            .map(|(_, value)| value.value())
                            .collect::<Vec<_>>(),
                    )
                })
                .collect::<Vec<_>>()
        };
        let row = |rank, player: &str, points, values: [f64; 2]| {
            (rank, player.to_owned(), points, values.to_vec())
        };
        assert_eq!(
            table(&ranked[0]),
            [
                row(1, "p01", 3.0, [3.0, 1.0]),
                row(2, "p05", 3.0, [3.0, 0.0]),
                row(3, "p04", 3.0, [3.0, -1.0]),
            ]
        );
        assert_eq!(
            table(&ranked[1]),
            [
                row(1, "p02", 6.0, [0.0, 4.0]),
                row(2, "p03", 3.0, [0.0, 0.0]),
                row(3, "p06", 0.0, [0.0, -4.0]),
            ]
        );
    }

    #[test]
    fn refuses_standings_with_a_swiss_only_tiebreaker() {
        let mut settings = scoring(&stage(1));
        settings.tiebreakers.push(Tiebreaker::Buchholz);
        let event = Event {
            settings,
            players: players(4),
            rounds: Vec::new(),
        };
        assert_eq!(
            group_standings(&event, None),
            Err(RoundRobinError::Settings(
                SettingsError::TiebreakerNotInRoundRobin(Tiebreaker::Buchholz)
            ))
        );
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;
        use std::collections::HashMap;

        fn grouping() -> impl Strategy<Value = Option<Grouping>> {
            prop_oneof![
                Just(None),
                (1u32..=8).prop_map(|n| Some(Grouping::Groups(n))),
                (2u32..=12).prop_map(|n| Some(Grouping::PlayersPerGroup(n))),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn every_pair_in_a_group_meets_once_per_cycle_and_nobody_twice_a_round(
                count in 2usize..=40,
                cycles in 1u32..=2,
                grouping in grouping(),
                dropped in proptest::collection::vec(any::<bool>(), 40),
            ) {
                let field = players(count);
                let Ok(groups) = groups(&field, grouping) else {
                    // Only a grouping the field cannot hold is refused.
                    prop_assert!(grouping.is_some());
                    return Ok(());
                };
                let rounds = schedule(&field, &stage(cycles), grouping).expect("a schedule");
                let group_of: HashMap<&PlayerId, usize> = groups
                    .iter()
                    .flat_map(|group| group.players.iter().map(move |p| (p, group.number)))
                    .collect();
                let sizes: Vec<usize> = groups.iter().map(|g| g.players.len()).collect();
                prop_assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
                prop_assert!(sizes.iter().all(|&size| size >= 2));
                for round in &rounds {
                    let mut seen = HashSet::new();
                    for player in round.matches.iter().flat_map(|m| &m.players).chain(&round.sitting_out) {
                        prop_assert!(seen.insert(player.clone()), "{player} twice in round {}", round.round);
                    }
                    prop_assert_eq!(seen.len(), count);
                    for scheduled in &round.matches {
                        prop_assert_eq!(group_of[&scheduled.players[0]], scheduled.group);
                        prop_assert_eq!(group_of[&scheduled.players[1]], scheduled.group);
                    }
                }
                let met = meetings(&rounds);
                for group in &groups {
                    for (at, a) in group.players.iter().enumerate() {
                        for b in &group.players[at + 1..] {
                            let key = if a <= b { (a.clone(), b.clone()) } else { (b.clone(), a.clone()) };
                            for cycle in 1..=cycles {
                                prop_assert_eq!(met.get(&(cycle, key.0.clone(), key.1.clone())), Some(&1));
                            }
                        }
                    }
                }
                let pairs_per_cycle: usize = sizes.iter().map(|n| n * (n - 1) / 2).sum();
                prop_assert_eq!(met.len(), pairs_per_cycle * usize::try_from(cycles).unwrap());

                // With drops, the dropped are never paired and nobody else's opponents change.
                let mut with_drops = field.clone();
                for (player, &drop) in with_drops.iter_mut().zip(&dropped) {
                    player.dropped = drop;
                }
                let thinned = schedule(&with_drops, &stage(cycles), grouping).expect("a schedule");
                prop_assert_eq!(thinned.len(), rounds.len());
                for (full, thin) in rounds.iter().zip(&thinned) {
                    let kept: Vec<_> = full
                        .matches
                        .iter()
                        .filter(|m| m.players.iter().all(|p| !with_drops.iter().any(|d| d.dropped && &d.id == p)))
                        .cloned()
                        .collect();
                    prop_assert_eq!(&thin.matches, &kept);
                }
            }

            #[test]
            fn no_grouping_or_field_size_panics(count in 0usize..=60, groups_asked in 0u32..=70, per_group in 0u32..=70) {
                let field = players(count);
                for grouping in [None, Some(Grouping::Groups(groups_asked)), Some(Grouping::PlayersPerGroup(per_group))] {
                    let _ = schedule(&field, &stage(2), grouping);
                }
            }
        }
    }
}
