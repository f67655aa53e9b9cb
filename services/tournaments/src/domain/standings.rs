//! Standings: points, then the stage's tiebreakers in order, then the initial seed, with every
//! tiebreaker and match-win formula of the page's Tiebreakers section.
//!
//! Percentages are fractions, rounded to four decimals (0.01%) before they are compared, and
//! players equal on points and every tiebreaker share a placement. Byes are never opponents,
//! and a late entrant's missed rounds are losses with no opponent. Pairing reads these
//! standings; it lives elsewhere.

use serde::ser::{SerializeMap as _, SerializeStruct as _};
use serde::{Serialize, Serializer};

use super::event::{Entry, Event, PlayerId};
use super::settings::{MatchWinFormula, ScoringSettings, Tiebreaker};

/// A value rounded to four decimals, held as ten-thousandths so that comparing is exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rounded(i64);

/// How far from a half (in ten-thousandths) a value may lie and still round as that half.
///
/// The percentages are sums and quotients of small fractions, computed in floating point: an
/// average of opponents' percentages that is exactly 0.65625 can come out as
/// 0.6562499999999999, and plain rounding would then give 0.6562 where the exact value rounds
/// to 0.6563. The error of such a computation stays below 1e-10 ten-thousandths (a few dozen
/// terms of at most 1e4 each, at 2.2e-16 relative error). A value that is truly not a half
/// lies at least 1 / (2q) from one, where q is its denominator; an event's denominators
/// (products of rounds and opponents) stay below 10^8, so that distance is at least 5e-9.
/// A tolerance of 1e-9 sits between the two: it undoes the floating-point error and cannot
/// flip a rounding.
const HALF_TOLERANCE: f64 = 1e-9;

impl Rounded {
    /// Rounds `value` to four decimals, halves away from zero, as the exact value would round
    /// (see [`HALF_TOLERANCE`]).
    pub fn new(value: f64) -> Self {
        let scaled = value * 10_000.0;
        let nudged = scaled + HALF_TOLERANCE.copysign(scaled);
        // Ten-thousandths of points or of a fraction stay far inside i64 for any real event.
        #[allow(clippy::cast_possible_truncation)]
        Self(nudged.round() as i64)
    }

    /// Returns the rounded value.
    pub fn value(self) -> f64 {
        // Exact for any count of ten-thousandths an event can reach (below 2^53).
        #[allow(clippy::cast_precision_loss)]
        let ten_thousandths = self.0 as f64;
        ten_thousandths / 10_000.0
    }
}

impl Serialize for Rounded {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.value())
    }
}

/// Wins, losses and draws; written as `[wins, losses, draws]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Record {
    /// Matches won, full-points byes included.
    pub wins: u32,
    /// Matches lost, a late entrant's missed rounds included.
    pub losses: u32,
    /// Matches drawn.
    pub draws: u32,
}

impl Record {
    /// Returns the matches the record counts.
    pub const fn matches(self) -> u32 {
        self.wins + self.losses + self.draws
    }
}

impl Serialize for Record {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        [self.wins, self.losses, self.draws].serialize(serializer)
    }
}

/// One player's place in the standings.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// The placement, from 1; players equal on points and every tiebreaker share it.
    pub rank: u32,
    /// The player.
    pub player: PlayerId,
    /// Points, rounded to four decimals.
    pub points: Rounded,
    /// Wins, losses, draws.
    pub record: Record,
    /// The stage's tiebreakers, in order, each rounded to four decimals.
    pub tiebreakers: Vec<(Tiebreaker, Rounded)>,
    /// The player's own match-win percentage under the stage's formula (no floor).
    pub match_win_percentage: Rounded,
}

impl Serialize for Standing {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Tiebreakers<'a>(&'a [(Tiebreaker, Rounded)]);
        impl Serialize for Tiebreakers<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for (tiebreaker, value) in self.0 {
                    map.serialize_entry(tiebreaker.as_str(), value)?;
                }
                map.end()
            }
        }
        let mut standing = serializer.serialize_struct("Standing", 6)?;
        standing.serialize_field("rank", &self.rank)?;
        standing.serialize_field("player", &self.player)?;
        standing.serialize_field("points", &self.points)?;
        standing.serialize_field("record", &self.record)?;
        standing.serialize_field("tiebreakers", &Tiebreakers(&self.tiebreakers))?;
        standing.serialize_field("match_win_percentage", &self.match_win_percentage)?;
        standing.end()
    }
}

/// The standings of a stage, best first; written as `{"standings": [...]}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standings {
    /// Every registered player, dropped ones included, best first.
    pub standings: Vec<Standing>,
}

/// How one match ended for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Win,
    Loss,
    Draw,
}

/// What one player did, before any tiebreaker is worked out.
#[derive(Debug, Clone, Default)]
struct Tally {
    points: f64,
    record: Record,
    /// Full-points byes (counted in `record.wins`).
    byes: u32,
    games_won: u32,
    games_lost: u32,
    /// Every opponent played, once per match, with how the match ended for this player.
    opponents: Vec<(usize, Outcome)>,
}

/// Every value the standings need, per player (indexed like `Event::players`).
struct Metrics {
    tallies: Vec<Tally>,
    match_win: Vec<f64>,
    game_win: Vec<f64>,
    opponent_match_win: Vec<f64>,
    opponent_game_win: Vec<f64>,
    game_win_floor: f64,
    points: super::settings::Points,
}

/// Computes the standings of an event's rounds so far. The event is taken as validated
/// ([`Event::validate`]); an entry naming an unknown player is skipped.
pub fn standings(event: &Event) -> Standings {
    let metrics = Metrics::new(event);
    let settings = &event.settings;
    let head_to_head = if settings.tiebreakers.contains(&Tiebreaker::HeadToHead) {
        metrics.head_to_head()
    } else {
        Vec::new()
    };
    let rows: Vec<(Rounded, Vec<(Tiebreaker, Rounded)>)> = (0..event.players.len())
        .map(|player| {
            let values = settings
                .tiebreakers
                .iter()
                .map(|&tiebreaker| {
                    let value = match tiebreaker {
                        Tiebreaker::HeadToHead => head_to_head[player],
                        other => metrics.tiebreaker(player, other),
                    };
                    (tiebreaker, Rounded::new(value))
                })
                .collect();
            (Rounded::new(metrics.tallies[player].points), values)
        })
        .collect();
    let key = |player: usize| {
        let (points, values) = &rows[player];
        (*points, values.iter().map(|(_, value)| *value))
    };
    let mut order: Vec<usize> = (0..event.players.len()).collect();
    // Higher points and tiebreakers first, then the better (lower) seed, then listing order.
    order.sort_by(|&a, &b| {
        let (points_a, values_a) = key(a);
        let (points_b, values_b) = key(b);
        points_b
            .cmp(&points_a)
            .then_with(|| values_b.cmp(values_a))
            .then_with(|| event.players[a].seed.cmp(&event.players[b].seed))
            .then_with(|| a.cmp(&b))
    });
    let mut standings: Vec<Standing> = Vec::with_capacity(order.len());
    for (at, &player) in order.iter().enumerate() {
        let (points, values) = &rows[player];
        let shares_with_previous = at > 0 && {
            let previous = order[at - 1];
            rows[previous].0 == *points
                && rows[previous]
                    .1
                    .iter()
                    .map(|(_, value)| value)
                    .eq(values.iter().map(|(_, value)| value))
        };
        let rank = if shares_with_previous {
            standings[at - 1].rank
        } else {
            u32::try_from(at + 1).unwrap_or(u32::MAX)
        };
        standings.push(Standing {
            rank,
            player: event.players[player].id.clone(),
            points: *points,
            record: metrics.tallies[player].record,
            tiebreakers: values.clone(),
            match_win_percentage: Rounded::new(metrics.match_win[player]),
        });
    }
    Standings { standings }
}

impl Metrics {
    fn new(event: &Event) -> Self {
        let settings = &event.settings;
        let tallies = tallies(event);
        let match_win: Vec<f64> = tallies
            .iter()
            .map(|tally| match_win_percentage(tally, settings))
            .collect();
        let game_win: Vec<f64> = tallies
            .iter()
            .map(|tally| ratio(tally.games_won, tally.games_won + tally.games_lost))
            .collect();
        let opponent_match_win_floor = settings.opponent_match_win_floor.unwrap_or(0.0);
        let game_win_floor = settings.game_win_floor.unwrap_or(0.0);
        let opponent_average = |values: &[f64], floor: f64| -> Vec<f64> {
            tallies
                .iter()
                .map(|tally| {
                    let sum: f64 = tally
                        .opponents
                        .iter()
                        .map(|&(opponent, _)| values[opponent].max(floor))
                        .sum();
                    divide(sum, count(tally.opponents.len()))
                })
                .collect()
        };
        let opponent_match_win = opponent_average(&match_win, opponent_match_win_floor);
        let opponent_game_win = opponent_average(&game_win, game_win_floor);
        Self {
            tallies,
            match_win,
            game_win,
            opponent_match_win,
            opponent_game_win,
            game_win_floor,
            points: settings.points,
        }
    }

    /// Returns one tiebreaker's unrounded value; head-to-head needs the whole field and is
    /// computed by [`Metrics::head_to_head`].
    fn tiebreaker(&self, player: usize, tiebreaker: Tiebreaker) -> f64 {
        let tally = &self.tallies[player];
        let opponent_points = || {
            tally
                .opponents
                .iter()
                .map(|&(opponent, _)| self.tallies[opponent].points)
        };
        match tiebreaker {
            Tiebreaker::HeadToHead => 0.0,
            Tiebreaker::ScoreDifference => f64::from(tally.games_won) - f64::from(tally.games_lost),
            Tiebreaker::GameWinPercentage => self.game_win[player].max(self.game_win_floor),
            Tiebreaker::PointsScored => f64::from(tally.games_won),
            Tiebreaker::Buchholz => opponent_points().sum(),
            Tiebreaker::MedianBuchholz => {
                let mut points: Vec<f64> = opponent_points().collect();
                if points.len() > 2 {
                    points.sort_by(f64::total_cmp);
                    points[1..points.len() - 1].iter().sum()
                } else {
                    points.iter().sum()
                }
            }
            Tiebreaker::SonnebornBerger => tally
                .opponents
                .iter()
                .map(|&(opponent, outcome)| match outcome {
                    Outcome::Win => self.tallies[opponent].points,
                    Outcome::Draw => self.tallies[opponent].points / 2.0,
                    Outcome::Loss => 0.0,
                })
                .sum(),
            Tiebreaker::OpponentMatchWinPercentage => self.opponent_match_win[player],
            Tiebreaker::OpponentOpponentMatchWinPercentage => {
                // Each opponent's OMW% weighs as many times as they have opponents, which makes
                // this the average over the opponents' opponents.
                let (weighted, weights) =
                    tally
                        .opponents
                        .iter()
                        .fold((0.0, 0), |(weighted, weights), &(opponent, _)| {
                            let played = self.tallies[opponent].opponents.len();
                            (
                                weighted + self.opponent_match_win[opponent] * count(played),
                                weights + played,
                            )
                        });
                divide(weighted, count(weights))
            }
            Tiebreaker::OpponentGameWinPercentage => self.opponent_game_win[player],
        }
    }

    /// Returns, for every player, the points earned against the others on the same points.
    fn head_to_head(&self) -> Vec<f64> {
        self.tallies
            .iter()
            .map(|tally| {
                let points = Rounded::new(tally.points);
                tally
                    .opponents
                    .iter()
                    .filter(|&&(opponent, _)| Rounded::new(self.tallies[opponent].points) == points)
                    .map(|&(_, outcome)| match outcome {
                        Outcome::Win => self.points.win,
                        Outcome::Draw => self.points.draw,
                        Outcome::Loss => self.points.loss,
                    })
                    .sum()
            })
            .collect()
    }
}

/// Adds up every round's entries per player.
fn tallies(event: &Event) -> Vec<Tally> {
    let settings = &event.settings;
    let index = event.player_index();
    let mut tallies = vec![Tally::default(); event.players.len()];
    for entry in event.rounds.iter().flat_map(|round| &round.0) {
        match entry {
            Entry::Match { players, games } => {
                let (Some(&first), Some(&second)) =
                    (index.get(&players[0]), index.get(&players[1]))
                else {
                    continue;
                };
                let outcome = match games[0].cmp(&games[1]) {
                    std::cmp::Ordering::Greater => Outcome::Win,
                    std::cmp::Ordering::Less => Outcome::Loss,
                    std::cmp::Ordering::Equal => Outcome::Draw,
                };
                let mirrored = match outcome {
                    Outcome::Win => Outcome::Loss,
                    Outcome::Loss => Outcome::Win,
                    Outcome::Draw => Outcome::Draw,
                };
                for (player, opponent, outcome, won, lost) in [
                    (first, second, outcome, games[0], games[1]),
                    (second, first, mirrored, games[1], games[0]),
                ] {
                    let tally = &mut tallies[player];
                    tally.games_won += won;
                    tally.games_lost += lost;
                    tally.opponents.push((opponent, outcome));
                    record_result(tally, outcome, settings);
                }
            }
            Entry::Bye(player) => {
                // Zero-points byes and "no byes" leave no trace: no points, no record.
                if let (Some(&player), true) =
                    (index.get(player), settings.bye_handling.awards_points())
                {
                    let tally = &mut tallies[player];
                    tally.points += settings.points.bye;
                    tally.record.wins += 1;
                    tally.byes += 1;
                }
            }
            Entry::LateLoss(player) => {
                if let Some(&player) = index.get(player) {
                    record_result(&mut tallies[player], Outcome::Loss, settings);
                }
            }
        }
    }
    tallies
}

fn record_result(tally: &mut Tally, outcome: Outcome, settings: &ScoringSettings) {
    match outcome {
        Outcome::Win => {
            tally.points += settings.points.win;
            tally.record.wins += 1;
        }
        Outcome::Loss => {
            tally.points += settings.points.loss;
            tally.record.losses += 1;
        }
        Outcome::Draw => {
            tally.points += settings.points.draw;
            tally.record.draws += 1;
        }
    }
}

/// Returns a player's own match-win percentage under the stage's formula, with no floor.
fn match_win_percentage(tally: &Tally, settings: &ScoringSettings) -> f64 {
    let record = tally.record;
    match settings.match_win_formula {
        None => divide(
            f64::from(record.wins) + f64::from(record.draws) / 2.0,
            f64::from(record.matches()),
        ),
        Some(MatchWinFormula::MatchPoints) => divide(
            tally.points,
            f64::from(record.matches()) * settings.points.win,
        ),
        Some(MatchWinFormula::WinsOverRounds) => {
            // A bye is neither a win nor a round played; a late entrant's loss is a round.
            ratio(record.wins - tally.byes, record.matches() - tally.byes)
        }
    }
}

/// Returns `part / whole`, or 0 when there is nothing to divide by.
fn ratio(part: u32, whole: u32) -> f64 {
    divide(f64::from(part), f64::from(whole))
}

/// Returns `sum / by`, or 0 when `by` is zero.
fn divide(sum: f64, by: f64) -> f64 {
    if by == 0.0 { 0.0 } else { sum / by }
}

/// Returns a count as a float; exact below 2^53, far beyond any event.
fn count(count: usize) -> f64 {
    u32::try_from(count).map_or(f64::from(u32::MAX), f64::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::event::{Player, Round};
    use crate::domain::settings::{ByeHandling, Points};

    fn settings(tiebreakers: Vec<Tiebreaker>) -> ScoringSettings {
        ScoringSettings {
            points: Points::three_one_zero(),
            bye_handling: ByeHandling::FullPoints,
            tiebreakers,
            match_win_formula: None,
            opponent_match_win_floor: None,
            game_win_floor: None,
        }
    }

    fn players(ids: &[&str]) -> Vec<Player> {
        ids.iter()
            .zip(1..)
            .map(|(id, seed)| Player {
                id: (*id).into(),
                seed,
                rating: None,
                dropped: false,
            })
            .collect()
    }

    fn game(a: &str, b: &str, games: [u32; 2]) -> Entry {
        Entry::Match {
            players: [a.into(), b.into()],
            games,
        }
    }

    fn by_player<'a>(standings: &'a Standings, id: &str) -> &'a Standing {
        standings
            .standings
            .iter()
            .find(|standing| standing.player.as_str() == id)
            .expect("a listed player")
    }

    fn value(standing: &Standing, tiebreaker: Tiebreaker) -> f64 {
        standing
            .tiebreakers
            .iter()
            .find(|(which, _)| *which == tiebreaker)
            .expect("a computed tiebreaker")
            .1
            .value()
    }

    #[test]
    fn players_equal_on_everything_share_a_placement_in_seed_order() {
        let event = Event {
            settings: settings(vec![Tiebreaker::Buchholz]),
            players: players(&["Ana", "Ben", "Cam", "Dee"]),
            rounds: vec![Round(vec![
                game("Dee", "Ben", [2, 0]),
                game("Cam", "Ana", [2, 0]),
            ])],
        };
        let standings = standings(&event);
        let order: Vec<(&str, u32)> = standings
            .standings
            .iter()
            .map(|standing| (standing.player.as_str(), standing.rank))
            .collect();
        assert_eq!(order, vec![("Cam", 1), ("Dee", 1), ("Ana", 3), ("Ben", 3)]);
    }

    #[test]
    fn a_late_loss_counts_in_the_record_but_is_no_opponent() {
        let event = Event {
            settings: settings(vec![
                Tiebreaker::Buchholz,
                Tiebreaker::OpponentMatchWinPercentage,
            ]),
            players: players(&["Ana", "Ben", "Zed"]),
            rounds: vec![
                Round(vec![
                    game("Ana", "Ben", [2, 1]),
                    Entry::LateLoss("Zed".into()),
                ]),
                Round(vec![game("Zed", "Ben", [2, 0]), Entry::Bye("Ana".into())]),
            ],
        };
        let standings = standings(&event);
        let zed = by_player(&standings, "Zed");
        assert_eq!(
            zed.record,
            Record {
                wins: 1,
                losses: 1,
                draws: 0
            }
        );
        assert_eq!(zed.points.value(), 3.0);
        assert_eq!(value(zed, Tiebreaker::Buchholz), 0.0);
        // Ana beat Ben and had a bye: her only opponent is Ben.
        let ana = by_player(&standings, "Ana");
        assert_eq!(value(ana, Tiebreaker::Buchholz), 0.0);
        assert_eq!(value(ana, Tiebreaker::OpponentMatchWinPercentage), 0.0);
        assert_eq!(zed.match_win_percentage.value(), 0.5);
    }

    #[test]
    fn a_zero_points_bye_leaves_no_trace() {
        for handling in [ByeHandling::ZeroPoints, ByeHandling::NoByes] {
            let mut settings = settings(vec![]);
            settings.bye_handling = handling;
            let event = Event {
                settings,
                players: players(&["Ana"]),
                rounds: vec![Round(vec![Entry::Bye("Ana".into())])],
            };
            let standings = standings(&event);
            let ana = &standings.standings[0];
            assert_eq!(ana.points.value(), 0.0);
            assert_eq!(ana.record, Record::default());
            assert_eq!(ana.match_win_percentage.value(), 0.0);
        }
    }

    #[test]
    fn the_game_win_floor_raises_a_players_own_game_win_percentage() {
        let mut settings = settings(vec![Tiebreaker::GameWinPercentage]);
        settings.game_win_floor = Some(0.33);
        let event = Event {
            settings,
            players: players(&["Ana", "Ben", "Cam"]),
            rounds: vec![Round(vec![game("Ana", "Ben", [2, 0])])],
        };
        let standings = standings(&event);
        assert_eq!(
            value(by_player(&standings, "Ben"), Tiebreaker::GameWinPercentage),
            0.33
        );
        // No games played scores the floor too.
        assert_eq!(
            value(by_player(&standings, "Cam"), Tiebreaker::GameWinPercentage),
            0.33
        );
    }

    #[test]
    fn head_to_head_counts_only_opponents_on_the_same_points() {
        let event = Event {
            settings: settings(vec![Tiebreaker::HeadToHead]),
            players: players(&["Ana", "Ben", "Cam", "Dee"]),
            rounds: vec![
                Round(vec![game("Ana", "Ben", [2, 0]), game("Cam", "Dee", [2, 0])]),
                Round(vec![game("Ben", "Cam", [2, 0]), game("Dee", "Ana", [2, 0])]),
            ],
        };
        // Everyone is on 3 points, so every match counts: each won one of them.
        let standings = standings(&event);
        for standing in &standings.standings {
            assert_eq!(value(standing, Tiebreaker::HeadToHead), 3.0);
            assert_eq!(standing.rank, 1);
        }
    }

    #[test]
    fn a_percentage_rounds_as_its_exact_value_would() {
        // Opponents whose game-win percentages average exactly 21/32 = 0.65625, which adding
        // them up in floating point makes 0.6562499999999999.
        let fractions = [
            (4, 7),
            (1, 1),
            (1, 1),
            (11, 13),
            (2, 13),
            (5, 21),
            (6, 7),
            (7, 12),
        ];
        let sum: f64 = fractions
            .iter()
            .map(|&(a, b)| f64::from(a) / f64::from(b))
            .sum();
        let average = sum / 8.0;
        assert!(average < 0.65625, "the float sum falls short: {average}");
        assert_eq!(Rounded::new(average).value(), 0.6563);
        assert_eq!(Rounded::new(0.65625).value(), 0.6563);
        assert_eq!(Rounded::new(-0.65625).value(), -0.6563);
        // Values truly near a half still round their own way.
        assert_eq!(Rounded::new(0.656_249_9).value(), 0.6562);
        assert_eq!(Rounded::new(2.0 / 3.0).value(), 0.6667);
        assert_eq!(Rounded::new(1.0 / 3.0).value(), 0.3333);
    }

    #[test]
    fn percentages_are_compared_after_rounding_to_four_decimals() {
        assert_eq!(Rounded::new(2.0 / 3.0), Rounded::new(0.66667));
        assert_eq!(Rounded::new(2.0 / 3.0).value(), 0.6667);
        assert_eq!(Rounded::new(-0.0).value().to_string(), "0");
    }

    #[test]
    fn writes_the_documented_json() {
        let event = Event {
            settings: settings(vec![Tiebreaker::Buchholz]),
            players: players(&["Ana", "Ben"]),
            rounds: vec![Round(vec![game("Ana", "Ben", [2, 0])])],
        };
        let json = serde_json::to_string(&standings(&event)).expect("serializable");
        assert_eq!(
            json,
            r#"{"standings":[{"rank":1,"player":"Ana","points":3.0,"record":[1,0,0],"tiebreakers":{"buchholz":0.0},"match_win_percentage":1.0},{"rank":2,"player":"Ben","points":0.0,"record":[0,1,0],"tiebreakers":{"buchholz":3.0},"match_win_percentage":0.0}]}"#
        );
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        /// A random event: 2–12 players, up to 6 rounds, each round pairing a random order.
        fn events() -> impl Strategy<Value = Event> {
            (
                2usize..12,
                prop::collection::vec((any::<u64>(), prop::collection::vec(0u32..3, 12..24)), 0..6),
            )
                .prop_map(|(count, rounds)| {
                    let ids: Vec<String> = (0..count).map(|n| format!("P{n}")).collect();
                    let names: Vec<&str> = ids.iter().map(String::as_str).collect();
                    let rounds = rounds
                        .into_iter()
                        .map(|(shuffle, games)| {
                            let mut order: Vec<usize> = (0..count).collect();
                            order.sort_by_key(|&n| (shuffle.rotate_left(n as u32 * 7)) ^ n as u64);
                            let mut entries: Vec<Entry> = order
                                .chunks(2)
                                .zip(games.chunks(2))
                                .map(|(pair, games)| match pair {
                                    [a, b] => game(names[*a], names[*b], [games[0], games[1]]),
                                    [a] => Entry::Bye(names[*a].into()),
                                    _ => unreachable!("chunks of one or two"),
                                })
                                .collect();
                            entries.reverse();
                            Round(entries)
                        })
                        .collect();
                    Event {
                        settings: settings(Tiebreaker::ALL.to_vec()),
                        players: players(&names),
                        rounds,
                    }
                })
        }

        proptest! {
            #[test]
            fn standings_are_a_total_order_consistent_with_the_tiebreakers(event in events()) {
                prop_assert_eq!(event.validate(), Ok(()));
                let standings = standings(&event);
                prop_assert_eq!(standings.standings.len(), event.players.len());
                prop_assert_eq!(standings.standings[0].rank, 1);
                for (at, pair) in standings.standings.windows(2).enumerate() {
                    let (better, worse) = (&pair[0], &pair[1]);
                    let key = |standing: &Standing| {
                        (standing.points, standing.tiebreakers.iter().map(|(_, v)| *v).collect::<Vec<_>>())
                    };
                    prop_assert!(key(better) >= key(worse));
                    if key(better) == key(worse) {
                        prop_assert_eq!(better.rank, worse.rank);
                    } else {
                        prop_assert_eq!(worse.rank as usize, at + 2);
                    }
                }
                for standing in &standings.standings {
                    for (_, value) in &standing.tiebreakers {
                        prop_assert!(value.value().is_finite());
                    }
                    let percentage = standing.match_win_percentage.value();
                    prop_assert!((0.0..=1.0).contains(&percentage));
                }
            }
        }
    }
}
