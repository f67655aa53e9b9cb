//! Single and double elimination brackets (the page's "When to use each", its seeding methods,
//! and the multi-stage options "Allow early cutoff" and "Advance mode: Continue brackets"):
//! drawing a bracket from a seed order, replaying the rounds played so far, the matches ready
//! to play, and the stage's placements.
//!
//! What the engine does, where the page leaves it open:
//!
//! - **Bracket placement** is the standard one: seed 1 and seed 2 sit in opposite halves (and
//!   the top four in different quarters, and so on), so round 1 of eight is 1v8, 4v5, 2v7, 3v6,
//!   in bracket order, and seeds 1 and 2 can only meet in the final.
//! - **Byes** (Allow byes): the bracket grows to the next power of two and the missing seeds at
//!   the bottom are byes, so the top seeds go straight to round 2. In a double elimination
//!   losers bracket, a slot whose drop-in never comes (its winners-bracket match was a bye) is
//!   empty, and the player with nobody to face advances without a match.
//! - **Losers bracket**: losers of winners round 1 meet each other in losers round 1 (in
//!   bracket order); then each winners round `r ≥ 2` drops its losers into a "major" losers
//!   round against the survivors, followed by a "minor" round among survivors. The drop-ins
//!   are crossed so a drop-in does not meet the players they beat in the winners bracket: with
//!   `d` winners rounds left after `r`, the drop-in order is reversed when `d % 3 == 0`,
//!   shifted by half when `d % 3 == 1`, and reversed then shifted by half when `d % 3 == 2`.
//!   With this cycle no drop-in can meet a player they beat in the winners bracket before the
//!   losers final up to 16 players, nor before the last two drop-in rounds up to 64 players;
//!   an exhaustive check of every mix of these orders (and the plain order) found none that
//!   does better at any size up to 256. These are the orders common bracket tools use.
//! - **Grand finals**: the winners-bracket champion meets the losers-bracket champion; with a
//!   **Bracket reset**, a second set is played when the losers-bracket player wins the first.
//!   The default is the reset, since the page defines double elimination as "out after their
//!   second loss" and a single set can end the winners-bracket champion's day on one loss.
//! - **Scheduling**: a round holds the matches whose two players are known and that are not
//!   played yet, whichever bracket they are in. So winners- and losers-bracket matches share
//!   rounds, the third-place match is played alongside the final, and a round-2 match between
//!   two players who both had byes is ready in round 1.
//! - **Dropped players**: a match a dropped player has pending is a walkover for the opponent
//!   (both dropped: the better seed advances), counted as a loss for the dropped player, who
//!   is never paired again. Replaying an event, a dropped player is taken to have dropped
//!   right after the last round they played in, since
//!   [`Player::dropped`](super::event::Player::dropped) does not say when.
//! - **Placements**: players who leave the bracket at the same point share a placement, the
//!   number of players finishing above them plus one. Single elimination: the losers of one
//!   round share it (the semifinal losers share 3rd unless the third-place match is held);
//!   double elimination: the losers of one losers-bracket round share it.
//! - **Allow early cutoff** is [`Bracket::is_top_decided`]; **Continue brackets** is
//!   [`Bracket::remaining_players`] (each player's side) and [`Bracket::continued`] (the next
//!   stage's starting state: the same bracket, carried on).
//!
//! Everything here is pure: the seed order, the settings and the recorded rounds go in, the
//! state comes out. Ordering players by the seeding method reuses Swiss round 1's
//! (`super::swiss`); advancement between stages is the caller's.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::defaults::{Format, SeedingMethod};
use super::event::{Entry, Event, EventError, PlayerId};
use super::random::Rng;
use super::settings::SettingsError;
use super::swiss::first_round_order;

/// The most players one bracket takes: far beyond any event, it bounds the memory a bracket
/// (about two matches per player) can ask for.
pub const MAX_PLAYERS: usize = 1 << 16;

/// The stream of the event seed that a random seeding draws from: the one Swiss round 1 uses,
/// so a stored seed draws the same order for either format.
pub const SEEDING_STREAM: u64 = 1;

/// How a double elimination stage's grand finals are played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrandFinals {
    /// One set: its winner takes the title.
    SingleSet,
    /// If the losers-bracket player wins the first set, a second set decides the title (the
    /// default: every player is then out after two losses).
    #[default]
    BracketReset,
}

/// A single or double elimination stage's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EliminationSettings {
    /// Whether a player count that does not fill the bracket is allowed, the top seeds then
    /// getting byes into round 2 (off by default).
    #[serde(default)]
    pub allow_byes: bool,
    /// Whether the two semifinal losers play for 3rd place (single elimination only; off by
    /// default).
    #[serde(default)]
    pub third_place_match: bool,
    /// How grand finals are played (double elimination only; single elimination ignores it).
    #[serde(default)]
    pub grand_finals: GrandFinals,
    /// How players are ordered before the bracket is drawn. It has no default here: the page
    /// makes it random for a tournament's first stage and prior stage results after
    /// ([`EliminationSettings::default_for_stage`]).
    pub seeding: SeedingMethod,
}

impl EliminationSettings {
    /// Returns the create form's defaults: no byes, no third-place match, a bracket reset, and
    /// the seeding the page gives a first or a later stage.
    pub const fn default_for_stage(is_first_stage: bool) -> Self {
        Self {
            allow_byes: false,
            third_place_match: false,
            grand_finals: GrandFinals::BracketReset,
            seeding: SeedingMethod::default_for_stage(is_first_stage),
        }
    }

    /// Refuses settings a stage of `format` cannot run a bracket with, naming the setting.
    pub fn validate(&self, format: Format) -> Result<(), SettingsError> {
        match format {
            Format::SingleElimination => Ok(()),
            Format::DoubleElimination if self.third_place_match => Err(SettingsError::Conflict {
                setting: "third_place_match",
                reason: "only applies to single elimination",
            }),
            Format::DoubleElimination => Ok(()),
            Format::RoundRobin
            | Format::Swiss
            | Format::CumulativePoints
            | Format::ThresholdWin => Err(SettingsError::Conflict {
                setting: "format",
                reason: "must be `single_elimination` or `double_elimination` for a bracket",
            }),
        }
    }
}

/// A bracket that cannot be drawn, or a round that does not fit it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EliminationError {
    /// The stage's event is refused (see [`Event::validate`]).
    #[error(transparent)]
    Event(#[from] EventError),
    /// A stage setting is refused.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// Fewer than two players.
    #[error("an elimination bracket needs at least 2 players, not {0}")]
    NotEnoughPlayers(usize),
    /// More players than [`MAX_PLAYERS`].
    #[error("an elimination bracket takes at most {MAX_PLAYERS} players, not {0}")]
    TooManyPlayers(usize),
    /// Byes are off and the player count is not a power of two.
    #[error(
        "setting `allow_byes` is off, so the player count must fill the bracket exactly (2, 4, 8, 16 and so on), not {0}: turn on `allow_byes` to give the top seeds byes"
    )]
    BracketNotFilled(usize),
    /// A player is in the seed order twice.
    #[error("player `{0}` is seeded twice")]
    DuplicatePlayer(PlayerId),
    /// A player named outside a round is not in the bracket.
    #[error("`{0}` is not a player in this bracket")]
    UnknownPlayer(PlayerId),
    /// The bracket is seeded by prior stage results, and none were given.
    #[error("setting `seeding` is `prior_stage`, but no prior stage results were given")]
    MissingPriorStageResults,
    /// A round holds no match.
    #[error("round {0} has no match")]
    EmptyRound(u32),
    /// A round holds a bye or a late loss: elimination byes come from the bracket itself.
    #[error(
        "round {round} gives `{player}` a bye or a late loss, but an elimination round only holds matches"
    )]
    NotAMatch {
        /// The round of the stage, from 1.
        round: u32,
        /// The player of the entry.
        player: PlayerId,
    },
    /// A round names someone who is not in the bracket.
    #[error("round {round} names `{player}`, who is not in the bracket")]
    UnknownPlayerInRound {
        /// The round of the stage, from 1.
        round: u32,
        /// The unknown id.
        player: PlayerId,
    },
    /// A player has two matches in one round, or plays themself.
    #[error("round {round} has `{player}` more than once")]
    PlayerTwiceInRound {
        /// The round of the stage, from 1.
        round: u32,
        /// The player.
        player: PlayerId,
    },
    /// A match ended with equal games.
    #[error(
        "round {round}: `{}` vs `{}` ended {}-{}, but an elimination match needs a winner",
        players[0], players[1], games[0], games[1]
    )]
    NoWinner {
        /// The round of the stage, from 1.
        round: u32,
        /// The two players, as recorded.
        players: [PlayerId; 2],
        /// The games each won.
        games: [u32; 2],
    },
    /// A match is not one the bracket has ready to play.
    #[error(
        "round {round}: `{}` vs `{}` is not a match the bracket has ready to play",
        players[0], players[1]
    )]
    NotPending {
        /// The round of the stage, from 1.
        round: u32,
        /// The two players, as recorded.
        players: [PlayerId; 2],
    },
    /// Continue brackets was asked of a single elimination bracket.
    #[error("continue brackets only carries on a double elimination bracket")]
    ContinueNeedsDoubleElimination,
    /// A player advancing into a continued bracket is already out of it.
    #[error("`{0}` advances, but is no longer in the bracket that continues")]
    NotInContinuedBracket(PlayerId),
    /// A player still in the bracket does not advance into the stage that continues it.
    #[error("`{0}` is still in the bracket, but does not advance into the stage that continues it")]
    LeftOutOfContinuedBracket(PlayerId),
}

/// Which match of the bracket a match is, for organizers to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MatchLabel {
    /// A single elimination match before the final.
    Round {
        /// The bracket round, from 1.
        round: u32,
        /// The match in the round, from 1, in bracket order.
        number: u32,
    },
    /// The single elimination final.
    Final,
    /// The single elimination match between the semifinal losers.
    ThirdPlace,
    /// A double elimination winners-bracket match.
    Winners {
        /// The winners-bracket round, from 1.
        round: u32,
        /// The match in the round, from 1, in bracket order.
        number: u32,
    },
    /// A double elimination losers-bracket match.
    Losers {
        /// The losers-bracket round, from 1.
        round: u32,
        /// The match in the round, from 1.
        number: u32,
    },
    /// The first (or only) set of the grand finals.
    GrandFinal,
    /// The second grand-finals set, played when the losers-bracket player won the first.
    GrandFinalReset,
}

impl std::fmt::Display for MatchLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Round { round, number } => write!(f, "round {round} match {number}"),
            Self::Final => f.write_str("final"),
            Self::ThirdPlace => f.write_str("third place"),
            Self::Winners { round, number } => {
                write!(f, "winners round {round} match {number}")
            }
            Self::Losers { round, number } => write!(f, "losers round {round} match {number}"),
            Self::GrandFinal => f.write_str("grand final"),
            Self::GrandFinalReset => f.write_str("grand final reset"),
        }
    }
}

/// A match ready to be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingMatch {
    /// Which match of the bracket it is.
    pub label: MatchLabel,
    /// The two players, better seed first.
    pub players: [PlayerId; 2],
}

/// A player's place in the stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The player.
    pub player: PlayerId,
    /// One more than the number of players sure to finish above them: the final placement
    /// once [`Placement::is_decided`], and for a player still in the bracket the place they
    /// have secured so far (so a stage stopped by an early cutoff still ranks its players).
    pub place: u32,
    /// Whether no result still to come can change the placement.
    pub is_decided: bool,
}

/// Which bracket a player still in a double elimination bracket is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The player has not lost yet.
    Winners,
    /// The player has lost once (this includes both players of a grand final reset).
    Losers,
}

/// A player still in the bracket, for Continue brackets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemainingPlayer {
    /// The player.
    pub player: PlayerId,
    /// Their side of the bracket.
    pub side: Side,
}

/// Where a player in one of a match's two seats comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Feed {
    /// A seed, by its position in the seed order.
    Seed(usize),
    /// Nobody: a bye.
    Nobody,
    /// The winner of a match (by index in the bracket).
    Winner(usize),
    /// The loser of a match.
    Loser(usize),
}

/// Where a match's winner or loser goes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    /// Into another match, by index.
    Match(usize),
    /// Out of the bracket at this tier: players leaving at a higher tier place higher.
    Exit(u32),
}

/// One match slot of the bracket.
#[derive(Debug, Clone, PartialEq)]
struct Slot {
    label: MatchLabel,
    feeds: [Feed; 2],
    winner_next: Next,
    loser_next: Next,
    /// For the grand final reset: the first set's slot.
    reset_of: Option<usize>,
}

/// How a slot was settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum How {
    /// The match was played.
    Played,
    /// A dropped player lost without playing.
    Walkover,
    /// One seat or both were empty, so nobody played (no loss).
    Unopposed,
    /// The grand final reset, when the first set already decided the title.
    NotNeeded,
}

/// A settled slot: who goes on as its winner and loser (either may be nobody).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Outcome {
    winner: Option<usize>,
    loser: Option<usize>,
    how: How,
}

/// A single or double elimination bracket with the results recorded so far.
///
/// Players are identified inside by their position in the seed order (0 is the top seed), so
/// "better seed first" is "lower position first". Slots are stored so that every slot comes
/// after the slots feeding it, which lets one pass in order settle everything that can be.
#[derive(Debug, Clone, PartialEq)]
pub struct Bracket {
    format: Format,
    players: Vec<PlayerId>,
    index: HashMap<PlayerId, usize>,
    dropped: Vec<bool>,
    slots: Vec<Slot>,
    outcomes: Vec<Option<Outcome>>,
    rounds_played: u32,
}

impl Bracket {
    /// Draws a bracket for `format` from players ordered best seed first, with no results.
    ///
    /// Refuses fewer than 2 players, duplicate players, settings the format cannot take, and,
    /// with `allow_byes` off, a count that is not a power of two.
    pub fn from_seeds(
        format: Format,
        settings: &EliminationSettings,
        seeds: Vec<PlayerId>,
    ) -> Result<Self, EliminationError> {
        settings.validate(format)?;
        let count = seeds.len();
        if count < 2 {
            return Err(EliminationError::NotEnoughPlayers(count));
        }
        if count > MAX_PLAYERS {
            return Err(EliminationError::TooManyPlayers(count));
        }
        if !settings.allow_byes && !count.is_power_of_two() {
            return Err(EliminationError::BracketNotFilled(count));
        }
        let mut index = HashMap::with_capacity(count);
        for (at, player) in seeds.iter().enumerate() {
            if index.insert(player.clone(), at).is_some() {
                return Err(EliminationError::DuplicatePlayer(player.clone()));
            }
        }
        let slots = match format {
            Format::DoubleElimination => double_elimination(count, settings.grand_finals),
            _ => single_elimination(count, settings.third_place_match),
        };
        let mut bracket = Self {
            format,
            players: seeds,
            index,
            dropped: vec![false; count],
            outcomes: vec![None; slots.len()],
            slots,
            rounds_played: 0,
        };
        bracket.settle();
        Ok(bracket)
    }

    /// Returns the bracket's format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Returns the players in seed order, best first.
    pub fn players(&self) -> &[PlayerId] {
        &self.players
    }

    /// Returns how many rounds have been recorded in this stage.
    pub fn rounds_played(&self) -> u32 {
        self.rounds_played
    }

    /// Marks players as dropped, all at once: from now on each match they have pending is a
    /// walkover for their opponent, and they are never paired again. Two of them due to meet
    /// leave it to the better seed, who then loses their next match the same way.
    ///
    /// Refuses an unknown player before marking anyone.
    pub fn drop_players(&mut self, players: &[PlayerId]) -> Result<(), EliminationError> {
        let positions = players
            .iter()
            .map(|player| {
                self.index
                    .get(player)
                    .copied()
                    .ok_or_else(|| EliminationError::UnknownPlayer(player.clone()))
            })
            .collect::<Result<Vec<usize>, _>>()?;
        for at in positions {
            if let Some(dropped) = self.dropped.get_mut(at) {
                *dropped = true;
            }
        }
        self.settle();
        Ok(())
    }

    /// Records the next round of the stage: every entry must be a match the bracket has ready
    /// ([`Bracket::next_round`]), with a winner. Matches left out of the round stay ready.
    ///
    /// The round is checked whole before anything is recorded, so on an error the bracket is
    /// left as it was.
    pub fn record_round(&mut self, entries: &[Entry]) -> Result<(), EliminationError> {
        let round = self.rounds_played.saturating_add(1);
        let results = self.read_round(round, entries)?;
        let pending: HashMap<[usize; 2], usize> = self
            .pending_slots()
            .map(|(slot, seats)| (sorted(seats), slot))
            .collect();
        let mut slots = Vec::with_capacity(results.len());
        for result in &results {
            let slot = pending.get(&sorted(result.seats)).copied().ok_or_else(|| {
                EliminationError::NotPending {
                    round,
                    players: result.players.clone(),
                }
            })?;
            slots.push(slot);
        }
        for (result, slot) in results.iter().zip(slots) {
            if let Some(outcome) = self.outcomes.get_mut(slot) {
                *outcome = Some(Outcome {
                    winner: Some(result.winner),
                    loser: Some(result.loser),
                    how: How::Played,
                });
            }
        }
        self.rounds_played = round;
        self.settle();
        Ok(())
    }

    /// Returns the matches ready to play now, in bracket order: for double elimination this
    /// mixes winners- and losers-bracket matches; the third-place match comes with the final.
    /// Empty once the stage is complete.
    pub fn next_round(&self) -> Vec<PendingMatch> {
        self.pending_slots()
            .filter_map(|(slot, seats)| {
                let [better, worse] = sorted(seats);
                Some(PendingMatch {
                    label: self.slots.get(slot)?.label,
                    players: [
                        self.players.get(better)?.clone(),
                        self.players.get(worse)?.clone(),
                    ],
                })
            })
            .collect()
    }

    /// Tells whether every match of the bracket is settled, so the champion is known.
    pub fn is_complete(&self) -> bool {
        self.outcomes.iter().all(Option::is_some)
    }

    /// Returns every player's placement, best first (ties in seed order).
    ///
    /// Once the stage is complete these are its final standings: champion 1st, runner-up 2nd,
    /// then by where each player left the bracket (see the module documentation).
    pub fn placements(&self) -> Vec<Placement> {
        let mut placements: Vec<(usize, Placement)> = self
            .place_ranges()
            .into_iter()
            .zip(&self.players)
            .enumerate()
            .map(|(at, (range, player))| {
                let placement = Placement {
                    player: player.clone(),
                    place: range.place,
                    is_decided: range.best == range.worst,
                };
                (at, placement)
            })
            .collect();
        placements.sort_by_key(|(at, placement)| (placement.place, *at));
        placements
            .into_iter()
            .map(|(_, placement)| placement)
            .collect()
    }

    /// Tells whether the players finishing in places 1 to `places` are known, though maybe
    /// not in order: the page's **Allow early cutoff**. In single elimination the top 8 is
    /// known once the round of 16 is over.
    ///
    /// Each player must be sure to finish inside the range or sure to finish outside it, so
    /// players who will share the range's last place all count as inside. The bounds are
    /// worked out slot by slot, so in an unusual state (rounds recorded partly, with byes) the
    /// answer can stay "no" a little longer than strictly needed, never "yes" too early.
    pub fn is_top_decided(&self, places: u32) -> bool {
        self.place_ranges()
            .iter()
            .all(|range| range.worst <= places || range.best > places)
    }

    /// Returns the players still in the bracket, in seed order, with their side (by losses).
    /// Empty once the stage is complete.
    pub fn remaining_players(&self) -> Vec<RemainingPlayer> {
        let losses = self.losses();
        let mut remaining: Vec<usize> = self.waiting_players().map(|(_, player)| player).collect();
        remaining.sort_unstable();
        remaining.dedup();
        remaining
            .into_iter()
            .filter_map(|at| {
                Some(RemainingPlayer {
                    player: self.players.get(at)?.clone(),
                    side: if losses.get(at).copied().unwrap_or(0) == 0 {
                        Side::Winners
                    } else {
                        Side::Losers
                    },
                })
            })
            .collect()
    }

    /// Returns the starting state of a double elimination stage that continues this one
    /// (**Advance mode: Continue brackets**): the same bracket, where this stage stopped, so
    /// every player keeps their winners- or losers-bracket position. Its rounds count again
    /// from 1.
    ///
    /// `advancing` must be exactly the players still in the bracket (as an early cutoff
    /// leaves them).
    pub fn continued(&self, advancing: &[PlayerId]) -> Result<Self, EliminationError> {
        if self.format != Format::DoubleElimination {
            return Err(EliminationError::ContinueNeedsDoubleElimination);
        }
        let remaining: HashSet<PlayerId> = self
            .remaining_players()
            .into_iter()
            .map(|remaining| remaining.player)
            .collect();
        if let Some(player) = advancing.iter().find(|p| !remaining.contains(*p)) {
            return Err(EliminationError::NotInContinuedBracket(player.clone()));
        }
        let advancing: HashSet<&PlayerId> = advancing.iter().collect();
        if let Some(player) = self
            .players
            .iter()
            .find(|p| remaining.contains(*p) && !advancing.contains(p))
        {
            return Err(EliminationError::LeftOutOfContinuedBracket(player.clone()));
        }
        let mut next = self.clone();
        next.rounds_played = 0;
        Ok(next)
    }

    /// Reads a round's entries into results, refusing anything but matches with a winner
    /// between players of the bracket, each at most once.
    fn read_round(&self, round: u32, entries: &[Entry]) -> Result<Vec<Played>, EliminationError> {
        if entries.is_empty() {
            return Err(EliminationError::EmptyRound(round));
        }
        let mut seen = HashSet::new();
        let mut results = Vec::with_capacity(entries.len());
        for entry in entries {
            let (players, games) = match entry {
                Entry::Match { players, games } => (players, games),
                Entry::Bye(player) | Entry::LateLoss(player) => {
                    return Err(EliminationError::NotAMatch {
                        round,
                        player: player.clone(),
                    });
                }
            };
            let mut seats = [0; 2];
            for (seat, player) in seats.iter_mut().zip(players) {
                *seat = self.index.get(player).copied().ok_or_else(|| {
                    EliminationError::UnknownPlayerInRound {
                        round,
                        player: player.clone(),
                    }
                })?;
                if !seen.insert(*seat) {
                    return Err(EliminationError::PlayerTwiceInRound {
                        round,
                        player: player.clone(),
                    });
                }
            }
            let [first, second] = seats;
            let (winner, loser) = match games[0].cmp(&games[1]) {
                std::cmp::Ordering::Greater => (first, second),
                std::cmp::Ordering::Less => (second, first),
                std::cmp::Ordering::Equal => {
                    return Err(EliminationError::NoWinner {
                        round,
                        players: players.clone(),
                        games: *games,
                    });
                }
            };
            results.push(Played {
                players: players.clone(),
                seats,
                winner,
                loser,
            });
        }
        Ok(results)
    }

    /// Settles, in one pass in bracket order, every slot that can be without a match being
    /// played: empty seats, a grand final reset that is not needed, and walkovers of dropped
    /// players. Every change of state ends with it, so the bracket is always settled.
    fn settle(&mut self) {
        for at in 0..self.slots.len() {
            if self.outcomes.get(at).is_none_or(Option::is_some) {
                continue;
            }
            let Some(seats) = self.seats(at) else {
                continue;
            };
            let outcome = if let Some(first_set) = self.reset_not_needed(at) {
                Some(first_set)
            } else {
                match seats {
                    [Some(a), Some(b)] => self.walkover(a, b),
                    [Some(only), None] | [None, Some(only)] => Some(Outcome {
                        winner: Some(only),
                        loser: None,
                        how: How::Unopposed,
                    }),
                    [None, None] => Some(Outcome {
                        winner: None,
                        loser: None,
                        how: How::Unopposed,
                    }),
                }
            };
            if let Some(outcome) = outcome
                && let Some(stored) = self.outcomes.get_mut(at)
            {
                *stored = Some(outcome);
            }
        }
    }

    /// Returns the walkover between `a` and `b` if one of them dropped.
    fn walkover(&self, a: usize, b: usize) -> Option<Outcome> {
        let is_dropped = |p: usize| self.dropped.get(p).copied().unwrap_or(false);
        if !(is_dropped(a) || is_dropped(b)) {
            return None;
        }
        // Both dropped: the better seed "advances", and loses their next match the same way.
        let (winner, loser) = if is_dropped(a) == is_dropped(b) {
            (a.min(b), a.max(b))
        } else if is_dropped(a) {
            (b, a)
        } else {
            (a, b)
        };
        Some(Outcome {
            winner: Some(winner),
            loser: Some(loser),
            how: How::Walkover,
        })
    }

    /// For the grand final reset, once the first set is settled: the reset's outcome when it
    /// is not played (the winners-bracket champion won the first set, or it had one player).
    fn reset_not_needed(&self, at: usize) -> Option<Outcome> {
        let first_set = self.slots.get(at)?.reset_of?;
        let first = (*self.outcomes.get(first_set)?)?;
        let losers_champion = self.value(self.slots.get(first_set)?.feeds[1])?;
        let lost_by_winners_champion = matches!(first.how, How::Played | How::Walkover)
            && losers_champion.is_some()
            && first.winner == losers_champion;
        (!lost_by_winners_champion).then_some(Outcome {
            how: How::NotNeeded,
            ..first
        })
    }

    /// Returns who a feed gives, once known (`Some(None)`: nobody).
    fn value(&self, feed: Feed) -> Option<Option<usize>> {
        match feed {
            Feed::Seed(player) => Some(Some(player)),
            Feed::Nobody => Some(None),
            Feed::Winner(slot) => self.outcomes.get(slot).copied().flatten().map(|o| o.winner),
            Feed::Loser(slot) => self.outcomes.get(slot).copied().flatten().map(|o| o.loser),
        }
    }

    /// Returns a slot's two seats once both are known.
    fn seats(&self, at: usize) -> Option<[Option<usize>; 2]> {
        let [first, second] = self.slots.get(at)?.feeds;
        Some([self.value(first)?, self.value(second)?])
    }

    /// Returns the unsettled slots with both players known, in bracket order.
    fn pending_slots(&self) -> impl Iterator<Item = (usize, [usize; 2])> + '_ {
        (0..self.slots.len()).filter_map(|at| {
            if self.outcomes.get(at)?.is_some() {
                return None;
            }
            match self.seats(at)? {
                [Some(a), Some(b)] => Some((at, [a, b])),
                _ => None,
            }
        })
    }

    /// Returns each player still in the bracket with the unsettled slot they wait at.
    fn waiting_players(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.slots.len())
            .filter(|&at| self.outcomes.get(at).is_some_and(Option::is_none))
            .flat_map(move |at| {
                self.slots
                    .get(at)
                    .map(|slot| slot.feeds)
                    .into_iter()
                    .flatten()
                    .filter_map(move |feed| self.value(feed).flatten().map(|player| (at, player)))
            })
    }

    /// Returns each player's losses: matches lost, walkovers included.
    fn losses(&self) -> Vec<u32> {
        let mut losses = vec![0; self.players.len()];
        for outcome in self.outcomes.iter().flatten() {
            if matches!(outcome.how, How::Played | How::Walkover)
                && let Some(count) = outcome.loser.and_then(|p| losses.get_mut(p))
            {
                *count += 1;
            }
        }
        losses
    }

    /// Returns, for each player, the lowest and highest tier they can still leave the bracket
    /// at (equal once they are out).
    fn tier_ranges(&self) -> Vec<(u32, u32)> {
        let mut ranges = vec![(0, 0); self.players.len()];
        for (slot, outcome) in self.slots.iter().zip(&self.outcomes) {
            let Some(outcome) = outcome else { continue };
            for (player, next) in [
                (outcome.winner, slot.winner_next),
                (outcome.loser, slot.loser_next),
            ] {
                if let (Some(player), Next::Exit(tier)) = (player, next)
                    && let Some(range) = ranges.get_mut(player)
                {
                    *range = (tier, tier);
                }
            }
        }
        let slot_ranges = self.slot_tier_ranges();
        for (at, player) in self.waiting_players() {
            if let (Some(range), Some(&slot_range)) = (ranges.get_mut(player), slot_ranges.get(at))
            {
                *range = slot_range;
            }
        }
        ranges
    }

    /// Returns, for each slot, the lowest and highest tier a player waiting there can still
    /// leave the bracket at, given which seats can still be filled.
    fn slot_tier_ranges(&self) -> Vec<(u32, u32)> {
        // Whether each slot can still produce a winner / a loser.
        let mut may_win = vec![false; self.slots.len()];
        let mut may_lose = vec![false; self.slots.len()];
        for (at, slot) in self.slots.iter().enumerate() {
            let (win, lose) = match self.outcomes.get(at).copied().flatten() {
                Some(outcome) => (outcome.winner.is_some(), outcome.loser.is_some()),
                None => {
                    let possible = |feed: Feed| match feed {
                        Feed::Seed(_) => true,
                        Feed::Nobody => false,
                        Feed::Winner(from) => may_win.get(from).copied().unwrap_or(false),
                        Feed::Loser(from) => may_lose.get(from).copied().unwrap_or(false),
                    };
                    let [first, second] = slot.feeds.map(possible);
                    (first || second, first && second)
                }
            };
            may_win[at] = win;
            may_lose[at] = lose;
        }
        let mut ranges = vec![(0, 0); self.slots.len()];
        for (at, slot) in self.slots.iter().enumerate().rev() {
            let through = |next: Next| match next {
                Next::Exit(tier) => (tier, tier),
                Next::Match(to) => ranges.get(to).copied().unwrap_or((0, 0)),
            };
            let (mut low, mut high) = through(slot.winner_next);
            if may_lose[at] {
                let (lose_low, lose_high) = through(slot.loser_next);
                low = low.min(lose_low);
                high = high.max(lose_high);
            }
            ranges[at] = (low, high);
        }
        ranges
    }

    /// Returns each player's placement so far and their best and worst possible placement,
    /// in seed order.
    fn place_ranges(&self) -> Vec<PlaceRange> {
        let tiers = self.tier_ranges();
        let mut lowest: Vec<u32> = tiers.iter().map(|&(low, _)| low).collect();
        let mut highest: Vec<u32> = tiers.iter().map(|&(_, high)| high).collect();
        lowest.sort_unstable();
        highest.sort_unstable();
        // How many players of a sorted list of tiers are above `tier`.
        let above =
            |sorted: &[u32], tier: u32| sorted.len() - sorted.partition_point(|&t| t <= tier);
        tiers
            .iter()
            .map(|&(low, high)| PlaceRange {
                place: place_after(above(&lowest, low)),
                best: place_after(above(&lowest, high)),
                // Players who may still finish above `low`, not counting the player themself.
                worst: place_after(above(&highest, low) - usize::from(high > low)),
            })
            .collect()
    }
}

/// A player's placement so far, and the best and worst they can still finish.
struct PlaceRange {
    place: u32,
    best: u32,
    worst: u32,
}

/// A recorded match, read.
struct Played {
    players: [PlayerId; 2],
    seats: [usize; 2],
    winner: usize,
    loser: usize,
}

/// Draws the bracket of an elimination stage from its event: players ordered by the stage's
/// seeding method (`seed` is the event's stored seed; `prior_stage_order` lists players by
/// their final placement in the previous stage), with no results.
///
/// Every registered player is drawn, dropped ones included: a player dropping mid-stage must
/// not redraw the bracket on replay, so a dropped player's matches become walkovers instead.
pub fn draw(
    event: &Event,
    format: Format,
    settings: &EliminationSettings,
    seed: u64,
    prior_stage_order: Option<&[PlayerId]>,
) -> Result<Bracket, EliminationError> {
    event.validate()?;
    settings.validate(format)?;
    let mut rng = Rng::new(seed, SEEDING_STREAM);
    // The only error the Swiss ordering returns is the missing prior stage results.
    let order = first_round_order(event, settings.seeding, &mut rng, prior_stage_order)
        .map_err(|_| EliminationError::MissingPriorStageResults)?;
    let seeds = order
        .into_iter()
        .filter_map(|at| event.players.get(at).map(|player| player.id.clone()))
        .collect();
    Bracket::from_seeds(format, settings, seeds)
}

/// Replays an elimination stage's event: draws the bracket ([`draw`]), marks dropped players
/// and records every round.
pub fn replay(
    event: &Event,
    format: Format,
    settings: &EliminationSettings,
    seed: u64,
    prior_stage_order: Option<&[PlayerId]>,
) -> Result<Bracket, EliminationError> {
    let bracket = draw(event, format, settings, seed, prior_stage_order)?;
    play_event(bracket, event)
}

/// Replays a double elimination stage that continues `prior` (**Continue brackets**): its
/// event's players are the ones advancing, and its rounds carry on the prior bracket.
pub fn replay_continued(prior: &Bracket, event: &Event) -> Result<Bracket, EliminationError> {
    event.validate()?;
    let advancing: Vec<PlayerId> = event.players.iter().map(|p| p.id.clone()).collect();
    let bracket = prior.continued(&advancing)?;
    play_event(bracket, event)
}

/// Records the event's rounds in `bracket`, and marks its dropped players.
///
/// [`Player::dropped`](super::event::Player::dropped) does not say when a player dropped, so
/// each is taken to have dropped right after the last round they played in (before the stage,
/// if none), together with everyone else who last played then: their recorded matches stand,
/// and every match of theirs after that is a walkover.
fn play_event(mut bracket: Bracket, event: &Event) -> Result<Bracket, EliminationError> {
    let last_round_played = |id: &PlayerId| {
        event
            .rounds
            .iter()
            .rposition(|round| round.0.iter().any(|entry| entry.players().contains(id)))
            .map_or(0, |at| at + 1)
    };
    let drops: Vec<(usize, PlayerId)> = event
        .players
        .iter()
        .filter(|player| player.dropped)
        .map(|player| (last_round_played(&player.id), player.id.clone()))
        .collect();
    let dropping_after = |done: usize| -> Vec<PlayerId> {
        drops
            .iter()
            .filter(|(after, _)| *after == done)
            .map(|(_, player)| player.clone())
            .collect()
    };
    bracket.drop_players(&dropping_after(0))?;
    for (at, round) in event.rounds.iter().enumerate() {
        bracket.record_round(&round.0)?;
        bracket.drop_players(&dropping_after(at + 1))?;
    }
    Ok(bracket)
}

/// Returns the placement after `above` players.
fn place_after(above: usize) -> u32 {
    u32::try_from(above).map_or(u32::MAX, |above| above.saturating_add(1))
}

/// Returns two seats in seed order, better seed first.
fn sorted([a, b]: [usize; 2]) -> [usize; 2] {
    [a.min(b), a.max(b)]
}

/// Returns the seeds (from 0) in bracket order for a bracket of `size` (a power of two): each
/// doubling puts seed `s` against seed `2n - 1 - s`, so 8 gives 0, 7, 3, 4, 1, 6, 2, 5
/// (1v8, 4v5, 2v7, 3v6).
fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![0];
    while order.len() < size {
        let doubled = order.len() * 2;
        order = order
            .iter()
            .flat_map(|&seed| [seed, doubled - 1 - seed])
            .collect();
    }
    order
}

/// Builds the winners bracket (the whole bracket in single elimination) for `count` players:
/// the slots of each round, round 1 first.
fn winners_bracket(
    count: usize,
    slots: &mut Vec<Slot>,
    label: impl Fn(u32, u32, bool) -> MatchLabel,
    exit: impl Fn(u32) -> (Next, Next),
) -> Vec<Vec<usize>> {
    let size = count.next_power_of_two();
    let order = bracket_order(size);
    let seat = |seed: usize| {
        if seed < count {
            Feed::Seed(seed)
        } else {
            Feed::Nobody
        }
    };
    let mut rounds: Vec<Vec<usize>> = Vec::new();
    let mut round = 1;
    while size >> round >= 1 {
        let is_last = size >> round == 1;
        let previous = rounds.last();
        let ids = (0..size >> round)
            .map(|at| {
                let feeds = match previous {
                    None => [seat(order[2 * at]), seat(order[2 * at + 1])],
                    Some(previous) => [
                        Feed::Winner(previous[2 * at]),
                        Feed::Winner(previous[2 * at + 1]),
                    ],
                };
                let (winner_next, loser_next) = exit(round);
                slots.push(Slot {
                    label: label(round, number(at), is_last),
                    feeds,
                    winner_next,
                    loser_next,
                    reset_of: None,
                });
                slots.len() - 1
            })
            .collect();
        rounds.push(ids);
        round += 1;
    }
    rounds
}

/// Returns a match number from its position in the round (from 0).
fn number(at: usize) -> u32 {
    u32::try_from(at).map_or(u32::MAX, |at| at.saturating_add(1))
}

/// Builds a single elimination bracket. Tiers: the losers of round `r` leave at `2r`, the
/// third-place match's loser and winner at `2(k−1)` and `2(k−1)+1`, the runner-up at `2k` and
/// the champion at `2k+1`, for `k` rounds.
fn single_elimination(count: usize, third_place_match: bool) -> Vec<Slot> {
    let mut slots = Vec::new();
    let rounds = winners_bracket(
        count,
        &mut slots,
        |round, number, is_last| {
            if is_last {
                MatchLabel::Final
            } else {
                MatchLabel::Round { round, number }
            }
        },
        // Only the final's winner leaves the bracket as a winner (the champion); `link` points
        // every other winner, and the semifinal losers with a third-place match, onwards.
        |round| (Next::Exit(2 * round + 1), Next::Exit(2 * round)),
    );
    if third_place_match
        && rounds.len() >= 2
        && let Some(semifinals) = rounds.get(rounds.len() - 2)
        && let [first, second] = semifinals[..]
    {
        let k = u32::try_from(rounds.len()).unwrap_or(u32::MAX);
        slots.push(Slot {
            label: MatchLabel::ThirdPlace,
            feeds: [Feed::Loser(first), Feed::Loser(second)],
            winner_next: Next::Exit(2 * k - 1),
            loser_next: Next::Exit(2 * k - 2),
            reset_of: None,
        });
    }
    link(&mut slots);
    slots
}

/// Builds a double elimination bracket: the winners bracket, the losers bracket (module
/// documentation), the grand final and, with a reset, the reset. Tiers: the losers of losers
/// round `j` leave at `j`, the runner-up at `2k−1` and the champion at `2k`, for `k` winners
/// rounds.
fn double_elimination(count: usize, grand_finals: GrandFinals) -> Vec<Slot> {
    let mut slots = Vec::new();
    // Every winners-bracket result goes on to another match; `link` sets where.
    let winners = winners_bracket(
        count,
        &mut slots,
        |round, number, _| MatchLabel::Winners { round, number },
        |_| (Next::Exit(0), Next::Exit(0)),
    );
    let k = winners.len();
    let mut losers_round = 0u32;
    let mut add_losers_round = |slots: &mut Vec<Slot>, feeds: Vec<[Feed; 2]>| -> Vec<usize> {
        losers_round += 1;
        feeds
            .into_iter()
            .enumerate()
            .map(|(at, feeds)| {
                slots.push(Slot {
                    label: MatchLabel::Losers {
                        round: losers_round,
                        number: number(at),
                    },
                    feeds,
                    winner_next: Next::Exit(losers_round),
                    loser_next: Next::Exit(losers_round),
                    reset_of: None,
                });
                slots.len() - 1
            })
            .collect()
    };
    let winners_final = winners.last().and_then(|round| round.first().copied());
    let mut survivors: Vec<usize> = Vec::new();
    if let Some(first_round) = winners.first()
        && k >= 2
    {
        let feeds = first_round
            .chunks(2)
            .map(|pair| [Feed::Loser(pair[0]), Feed::Loser(pair[pair.len() - 1])])
            .collect();
        survivors = add_losers_round(&mut slots, feeds);
        for (at, dropping) in winners.iter().enumerate().skip(1) {
            let left = k - 1 - at;
            let order = drop_in_order(dropping.len(), left);
            let feeds = survivors
                .iter()
                .zip(order)
                .filter_map(|(&survivor, from)| {
                    Some([Feed::Winner(survivor), Feed::Loser(*dropping.get(from)?)])
                })
                .collect();
            survivors = add_losers_round(&mut slots, feeds);
            if left > 0 {
                let feeds = survivors
                    .chunks(2)
                    .map(|pair| [Feed::Winner(pair[0]), Feed::Winner(pair[pair.len() - 1])])
                    .collect();
                survivors = add_losers_round(&mut slots, feeds);
            }
        }
    }
    let k = u32::try_from(k).unwrap_or(u32::MAX);
    if let Some(winners_final) = winners_final {
        let losers_champion = survivors
            .first()
            .map_or(Feed::Loser(winners_final), |&last| Feed::Winner(last));
        let (champion, runner_up) = (Next::Exit(2 * k), Next::Exit(2 * k - 1));
        slots.push(Slot {
            label: MatchLabel::GrandFinal,
            feeds: [Feed::Winner(winners_final), losers_champion],
            winner_next: champion,
            loser_next: runner_up,
            reset_of: None,
        });
        if grand_finals == GrandFinals::BracketReset {
            let first_set = slots.len() - 1;
            slots.push(Slot {
                label: MatchLabel::GrandFinalReset,
                feeds: [Feed::Loser(first_set), Feed::Winner(first_set)],
                winner_next: champion,
                loser_next: runner_up,
                reset_of: Some(first_set),
            });
        }
    }
    link(&mut slots);
    slots
}

/// Returns, for each slot of a drop-in losers round with `count` slots, which match of the
/// winners round drops its loser there, `left` winners rounds before the final (the module
/// documentation's crossing).
fn drop_in_order(count: usize, left: usize) -> Vec<usize> {
    let half = count / 2;
    (0..count)
        .map(|at| match left % 3 {
            0 => count - 1 - at,
            1 => (at + half) % count,
            _ => (count - 1 - at + half) % count,
        })
        .collect()
}

/// Points each slot's winner and loser at the slot they feed, where there is one.
fn link(slots: &mut [Slot]) {
    for at in 0..slots.len() {
        for feed in slots[at].feeds {
            match feed {
                Feed::Winner(from) => slots[from].winner_next = Next::Match(at),
                Feed::Loser(from) => slots[from].loser_next = Next::Match(at),
                Feed::Seed(_) | Feed::Nobody => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_seeds_so_the_top_two_meet_only_in_the_final() {
        assert_eq!(bracket_order(2), vec![0, 1]);
        assert_eq!(bracket_order(4), vec![0, 3, 1, 2]);
        assert_eq!(bracket_order(8), vec![0, 7, 3, 4, 1, 6, 2, 5]);
        for size in [16, 32, 64] {
            let order = bracket_order(size);
            let (top, bottom) = order.split_at(size / 2);
            assert!(top.contains(&0) && bottom.contains(&1), "{size}");
            for pair in order.chunks(2) {
                assert_eq!(pair[0] + pair[1], size - 1, "{size}");
            }
        }
    }

    #[test]
    fn crosses_drop_ins_by_rounds_left() {
        assert_eq!(drop_in_order(4, 0), vec![3, 2, 1, 0]);
        assert_eq!(drop_in_order(4, 1), vec![2, 3, 0, 1]);
        assert_eq!(drop_in_order(4, 2), vec![1, 0, 3, 2]);
        assert_eq!(drop_in_order(4, 3), drop_in_order(4, 0));
        assert_eq!(drop_in_order(1, 2), vec![0]);
    }

    #[test]
    fn builds_one_slot_per_possible_match() {
        let single = single_elimination(8, true);
        assert_eq!(single.len(), 7 + 1);
        let double = double_elimination(8, GrandFinals::BracketReset);
        // 7 winners-bracket, 6 losers-bracket, the grand final and its reset.
        assert_eq!(double.len(), 7 + 6 + 2);
        for (at, slot) in double.iter().enumerate() {
            for feed in slot.feeds {
                if let Feed::Winner(from) | Feed::Loser(from) = feed {
                    assert!(from < at, "slot {at} is fed by a later slot");
                }
            }
        }
        let losers_rounds: Vec<u32> = double
            .iter()
            .filter_map(|slot| match slot.label {
                MatchLabel::Losers { round, .. } => Some(round),
                _ => None,
            })
            .collect();
        assert_eq!(losers_rounds, vec![1, 1, 2, 2, 3, 4]);
    }
}
