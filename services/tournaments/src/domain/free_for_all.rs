//! Free-for-all stages (the page's "Free-for-all scoring" section): lobbies, placement points
//! with tie scoring and elimination points, Cumulative Points standings and Threshold Win.
//!
//! - **Lobbies**: the active players are split into as few lobbies of at most
//!   **Players per lobby** as hold them, balanced so that sizes differ by at most one (10
//!   players in 4-player lobbies play as 4, 3 and 3; only a stage of 1 player would leave a
//!   lobby of 1, and it is refused). Players are ordered by **Lobby seeding**, then dealt by
//!   **Lobby distribution**: snake puts 1, 2, 3, 4 into lobbies A, B, C, D and 5, 6, 7, 8 into
//!   D, C, B, A, skipping lobbies that are full, so the first lobbies hold the extra players.
//!   With **Reshuffle lobbies** off, every match replays the previous match's lobbies.
//! - **Results**: a match is a list of lobby results ([`LobbyResult`]), finishes given in
//!   competition ranking (two players tied for 2nd are both 2nd and the next is 4th).
//! - **Points** are a player's total over the stage. Places beyond the placement points list
//!   are worth 0.
//! - **Threshold Win** judges each lobby on its own, so its lobbies stay fixed: a lobby that
//!   has a winner stops while the others play on, which leaves nothing to reshuffle (the stage
//!   is refused with Reshuffle lobbies on).
//!
//! Every random choice comes from the seed passed in, so a stored seed replays the same
//! lobbies. Storing results is left to the caller; reading a [`FreeForAllEvent`] from the
//! offline tool's JSON (with Riftbound's defaults for the settings it leaves out) is the crate's
//! `offline` module.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::defaults::{
    Format, FreeForAllSettings, IfNoOneWins, LobbyDistribution, LobbySeeding, TieScoring,
};
use super::event::{Player, PlayerId};
use super::random::Rng;
use super::settings::SettingsError;
use super::standings::Rounded;

/// One lobby's result in one match.
///
/// In JSON, three lists in the same order: `{"lobby": ["Ana", "Ben", "Cam", "Dee"],
/// "finish": [1, 2, 2, 4], "eliminations": [0, 1, 0, 0]}`. `finish` is each player's finishing
/// position from 1, in competition ranking (a tie shares the place, and the places it covers
/// are skipped). `eliminations`, the opponents each player eliminated, may be left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyResult {
    /// The lobby's players.
    pub lobby: Vec<PlayerId>,
    /// Each player's finishing position, from 1.
    pub finish: Vec<u32>,
    /// Opponents each player eliminated; empty when not recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub eliminations: Vec<u32>,
}

/// A lobby result whose lists do not describe one match.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LobbyResultError {
    /// The lobby lists nobody.
    #[error("a lobby result lists no players")]
    Empty,
    /// `finish` or `eliminations` is not one value per player.
    #[error("a lobby result lists {players} players but {values} values in `{field}`")]
    LengthMismatch {
        /// The list at fault.
        field: &'static str,
        /// Players in `lobby`.
        players: usize,
        /// Values in the list.
        values: usize,
    },
    /// A player appears twice in one lobby.
    #[error("`{0}` is listed twice in one lobby")]
    PlayerTwice(PlayerId),
    /// A finish that is not the player's place in competition ranking.
    #[error(
        "`{player}` cannot finish {finish}: {ahead} players finished ahead, so their place is {expected} (ties share a place and skip the places they cover)"
    )]
    ImpossibleFinish {
        /// The player.
        player: PlayerId,
        /// The finish given.
        finish: u32,
        /// Players with a better finish.
        ahead: usize,
        /// The place those players leave.
        expected: usize,
    },
}

/// A free-for-all stage's results so far: the event file of a free-for-all stage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FreeForAllEvent {
    /// Cumulative Points or Threshold Win.
    pub format: Format,
    /// The stage's settings.
    pub settings: FreeForAllSettings,
    /// Every registered player, dropped ones included.
    pub players: Vec<Player>,
    /// The completed matches, in order; each lists every lobby's result.
    #[serde(default)]
    pub matches: Vec<Vec<LobbyResult>>,
}

/// A free-for-all stage that cannot be scored or continued.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FreeForAllError {
    /// A stage setting is refused.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// The stage's format is one-on-one.
    #[error("setting `format` is `{0:?}`, which is not a free-for-all format")]
    NotFreeForAll(Format),
    /// The stage is Cumulative Points where Threshold Win is needed.
    #[error("setting `format` is not `threshold_win`, so lobbies have no threshold winner")]
    NotThresholdWin,
    /// Two players share an id.
    #[error("player `{0}` is registered twice")]
    DuplicatePlayer(PlayerId),
    /// A lobby result, outside any event, does not describe one match.
    #[error(transparent)]
    Lobby(#[from] LobbyResultError),
    /// A lobby result of the event does not describe one match.
    #[error("match {match_number}: {error}")]
    Result {
        /// The match, from 1.
        match_number: usize,
        /// What is wrong with the lobby's result.
        #[source]
        error: LobbyResultError,
    },
    /// A result names a player who is not registered.
    #[error("match {match_number} names `{player}`, who is not a registered player")]
    UnknownPlayer {
        /// The match, from 1.
        match_number: usize,
        /// The unknown id.
        player: PlayerId,
    },
    /// A player is in two lobbies of one match.
    #[error("match {match_number} has `{player}` in two lobbies")]
    PlayerInTwoLobbies {
        /// The match, from 1.
        match_number: usize,
        /// The player.
        player: PlayerId,
    },
    /// More matches are recorded than the stage plays.
    #[error("setting `{setting}` is {limit}, but {recorded} matches are recorded")]
    TooManyMatches {
        /// `matches` or `maximum_matches`.
        setting: &'static str,
        /// The setting's value.
        limit: u32,
        /// Matches in the event.
        recorded: usize,
    },
    /// A Threshold Win lobby mixes players of different lobbies.
    #[error(
        "match {match_number} puts `{player}` in a different lobby; threshold win keeps every lobby fixed"
    )]
    LobbyChanged {
        /// The match, from 1.
        match_number: usize,
        /// A player whose lobby changed.
        player: PlayerId,
    },
    /// A Threshold Win lobby plays on after it has a winner.
    #[error("match {match_number} has `{player}`, whose lobby was already won by `{winner}`")]
    LobbyAlreadyWon {
        /// The match, from 1.
        match_number: usize,
        /// A player of the finished lobby.
        player: PlayerId,
        /// The lobby's winner.
        winner: PlayerId,
    },
    /// Every match the stage plays has been played.
    #[error("the stage is complete: no lobby has a match left to play")]
    StageComplete,
    /// Fewer than two players are still in the stage.
    #[error("fewer than two players are still in the stage, so no lobby can play")]
    NotEnoughPlayers,
}

/// A player's place in a free-for-all stage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FreeForAllStanding {
    /// The placement, from 1; players on the same total share it (1, 2, 2, 4).
    pub rank: u32,
    /// The player.
    pub player: PlayerId,
    /// Total points over the stage, rounded to four decimals.
    pub points: Rounded,
    /// Matches played.
    pub matches: u32,
}

/// How a Threshold Win lobby was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WinDecidedBy {
    /// The winner reached the points to win with the required finish.
    Threshold,
    /// Nobody did within the maximum matches, and the most points won.
    HighestPoints,
}

/// A Threshold Win lobby's winner.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LobbyWinner {
    /// The winner.
    pub player: PlayerId,
    /// The match they won in, from 1 (for [`WinDecidedBy::HighestPoints`], the last match).
    pub match_number: usize,
    /// Their total points after that match.
    pub points: Rounded,
    /// How the lobby was decided.
    pub decided_by: WinDecidedBy,
}

/// A Threshold Win lobby and whether it has a winner yet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ThresholdLobby {
    /// The lobby, from 1 (lobby A is 1), in the order lobbies first appear in the results.
    pub lobby: usize,
    /// Its players, as first listed.
    pub players: Vec<PlayerId>,
    /// Matches the lobby has played.
    pub matches_played: usize,
    /// The winner, or `None`: "No winner yet".
    pub winner: Option<LobbyWinner>,
}

/// The next match's lobbies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NextMatch {
    /// The match, from 1.
    pub match_number: usize,
    /// The lobbies that play it (A first): a fresh draw lists each lobby's players in seeding
    /// order; replayed lobbies keep the order of their last result.
    pub lobbies: Vec<Vec<PlayerId>>,
}

impl LobbyResult {
    /// Checks that `finish` and `eliminations` give one value per player, that nobody is
    /// listed twice, and that every finish is the player's place in competition ranking.
    pub fn validate(&self) -> Result<(), LobbyResultError> {
        let players = self.lobby.len();
        if players == 0 {
            return Err(LobbyResultError::Empty);
        }
        for (field, values) in [
            ("finish", self.finish.len()),
            ("eliminations", self.eliminations.len()),
        ] {
            let optional_and_absent = field == "eliminations" && values == 0;
            if values != players && !optional_and_absent {
                return Err(LobbyResultError::LengthMismatch {
                    field,
                    players,
                    values,
                });
            }
        }
        let mut seen = HashSet::new();
        for player in &self.lobby {
            if !seen.insert(player) {
                return Err(LobbyResultError::PlayerTwice(player.clone()));
            }
        }
        for (player, &finish) in self.lobby.iter().zip(&self.finish) {
            let ahead = self.finish.iter().filter(|&&other| other < finish).count();
            if usize::try_from(finish).ok() != Some(ahead + 1) {
                return Err(LobbyResultError::ImpossibleFinish {
                    player: player.clone(),
                    finish,
                    ahead,
                    expected: ahead + 1,
                });
            }
        }
        Ok(())
    }
}

/// Returns the points each player of a lobby earns in one match, in the order of
/// `result.lobby`: placement points under the stage's tie scoring, plus elimination points
/// per opponent eliminated.
///
/// Competition gives each tied player the tied place's points; Split gives each the average
/// of the places the tie covers (two tied for 2nd share 2nd and 3rd). Places beyond the
/// placement points list are worth 0.
pub fn score_match(
    settings: &FreeForAllSettings,
    result: &LobbyResult,
) -> Result<Vec<f64>, FreeForAllError> {
    settings.validate()?;
    result.validate()?;
    Ok(points_of(settings, result))
}

/// [`score_match`] on a validated result and settings.
fn points_of(settings: &FreeForAllSettings, result: &LobbyResult) -> Vec<f64> {
    let place_points = |place: usize| {
        place
            .checked_sub(1)
            .and_then(|at| settings.placement_points.get(at))
            .copied()
            .unwrap_or(0.0)
    };
    let elimination_points = settings.elimination_points.unwrap_or(0.0);
    result
        .finish
        .iter()
        .enumerate()
        .map(|(at, &finish)| {
            let place = usize::try_from(finish).unwrap_or(usize::MAX);
            let placement = match settings.tie_scoring {
                TieScoring::Competition => place_points(place),
                TieScoring::Split => {
                    let tied = result
                        .finish
                        .iter()
                        .filter(|&&other| other == finish)
                        .count();
                    let covered: f64 = (place..place + tied).map(place_points).sum();
                    covered / count(tied)
                }
            };
            let eliminated = result.eliminations.get(at).copied().unwrap_or(0);
            placement + elimination_points * f64::from(eliminated)
        })
        .collect()
}

impl FreeForAllEvent {
    /// Checks the settings and format, that ids are unique, that every result is valid and
    /// names registered players at most once per match, that no more matches are recorded
    /// than the stage plays, and, for Threshold Win, that lobbies stay fixed and stop once won.
    pub fn validate(&self) -> Result<(), FreeForAllError> {
        self.settings.validate()?;
        match self.format {
            Format::CumulativePoints => {
                check_match_count("matches", self.settings.matches, self.matches.len())?;
            }
            Format::ThresholdWin => {
                if self.settings.reshuffle_lobbies {
                    return Err(SettingsError::Conflict {
                        setting: "reshuffle_lobbies",
                        reason: "must be off for threshold win: each lobby plays on until it has a winner, so lobbies stay fixed",
                    }
                    .into());
                }
                if let Some(maximum) = self.settings.maximum_matches {
                    check_match_count("maximum_matches", maximum, self.matches.len())?;
                }
            }
            other => return Err(FreeForAllError::NotFreeForAll(other)),
        }
        let mut ids = HashSet::new();
        for player in &self.players {
            if !ids.insert(&player.id) {
                return Err(FreeForAllError::DuplicatePlayer(player.id.clone()));
            }
        }
        for (at, lobbies) in self.matches.iter().enumerate() {
            let match_number = at + 1;
            let mut seen = HashSet::new();
            for result in lobbies {
                result.validate().map_err(|error| FreeForAllError::Result {
                    match_number,
                    error,
                })?;
                for player in &result.lobby {
                    if !ids.contains(player) {
                        return Err(FreeForAllError::UnknownPlayer {
                            match_number,
                            player: player.clone(),
                        });
                    }
                    if !seen.insert(player) {
                        return Err(FreeForAllError::PlayerInTwoLobbies {
                            match_number,
                            player: player.clone(),
                        });
                    }
                }
            }
        }
        if self.format == Format::ThresholdWin {
            self.threshold_lobbies()?;
        }
        Ok(())
    }

    /// Returns each player's total points and matches played, indexed like `players`.
    fn totals(&self) -> (Vec<f64>, Vec<u32>) {
        let index = self.index();
        let mut points = vec![0.0; self.players.len()];
        let mut played = vec![0u32; self.players.len()];
        for result in self.matches.iter().flatten() {
            for (player, earned) in result.lobby.iter().zip(points_of(&self.settings, result)) {
                if let Some(&player) = index.get(player) {
                    points[player] += earned;
                    played[player] += 1;
                }
            }
        }
        (points, played)
    }

    fn index(&self) -> HashMap<&PlayerId, usize> {
        self.players
            .iter()
            .enumerate()
            .map(|(at, player)| (&player.id, at))
            .collect()
    }

    /// Walks a Threshold Win stage's matches lobby by lobby (the event's other checks done).
    fn threshold_lobbies(&self) -> Result<Vec<ThresholdLobby>, FreeForAllError> {
        let index = self.index();
        let seed = |player: &PlayerId| {
            index
                .get(player)
                .map_or(u32::MAX, |&at| self.players[at].seed)
        };
        let threshold = Rounded::new(self.settings.points_to_win);
        let mut totals: HashMap<&PlayerId, f64> = HashMap::new();
        let mut lobby_of: HashMap<&PlayerId, usize> = HashMap::new();
        let mut lobbies: Vec<ThresholdLobby> = Vec::new();
        for (at, results) in self.matches.iter().enumerate() {
            let match_number = at + 1;
            for result in results {
                // A result belongs to the lobby its players were first seen in; new players
                // (none seen before) open a new lobby.
                let known = result.lobby.iter().find_map(|player| lobby_of.get(player));
                let lobby = match known {
                    Some(&lobby) => lobby,
                    None => {
                        lobbies.push(ThresholdLobby {
                            lobby: lobbies.len() + 1,
                            players: Vec::new(),
                            matches_played: 0,
                            winner: None,
                        });
                        lobbies.len() - 1
                    }
                };
                for player in &result.lobby {
                    match lobby_of.get(player) {
                        Some(&other) if other != lobby => {
                            return Err(FreeForAllError::LobbyChanged {
                                match_number,
                                player: player.clone(),
                            });
                        }
                        Some(_) => {}
                        None => {
                            lobby_of.insert(player, lobby);
                            lobbies[lobby].players.push(player.clone());
                        }
                    }
                }
                if let Some(winner) = &lobbies[lobby].winner {
                    return Err(FreeForAllError::LobbyAlreadyWon {
                        match_number,
                        player: result.lobby[0].clone(),
                        winner: winner.player.clone(),
                    });
                }
                for (player, earned) in result.lobby.iter().zip(points_of(&self.settings, result)) {
                    *totals.entry(player).or_insert(0.0) += earned;
                }
                lobbies[lobby].matches_played += 1;
                // Several qualifiers: the most points, then the better finish in this match,
                // then the better initial seed.
                let winner = result
                    .lobby
                    .iter()
                    .zip(&result.finish)
                    .filter(|&(player, &finish)| {
                        Rounded::new(totals[player]) >= threshold
                            && finish <= self.settings.required_finish
                    })
                    .min_by(|&(a, finish_a), &(b, finish_b)| {
                        Rounded::new(totals[b])
                            .cmp(&Rounded::new(totals[a]))
                            .then(finish_a.cmp(finish_b))
                            .then(seed(a).cmp(&seed(b)))
                    });
                if let Some((player, _)) = winner {
                    lobbies[lobby].winner = Some(LobbyWinner {
                        player: player.clone(),
                        match_number,
                        points: Rounded::new(totals[player]),
                        decided_by: WinDecidedBy::Threshold,
                    });
                }
            }
        }
        let capped = self
            .settings
            .maximum_matches
            .is_some_and(|maximum| self.matches.len() >= to_usize(maximum));
        if capped {
            for lobby in lobbies.iter_mut().filter(|lobby| lobby.winner.is_none()) {
                match self.settings.if_no_one_wins {
                    IfNoOneWins::HighestPointsWins => {
                        // The most points, then the better initial seed.
                        let best = lobby.players.iter().min_by(|a, b| {
                            let points =
                                |player| Rounded::new(totals.get(player).copied().unwrap_or(0.0));
                            points(b).cmp(&points(a)).then(seed(a).cmp(&seed(b)))
                        });
                        lobby.winner = best.map(|player| LobbyWinner {
                            player: player.clone(),
                            match_number: self.matches.len(),
                            points: Rounded::new(totals.get(player).copied().unwrap_or(0.0)),
                            decided_by: WinDecidedBy::HighestPoints,
                        });
                    }
                }
            }
        }
        Ok(lobbies)
    }
}

fn check_match_count(
    setting: &'static str,
    limit: u32,
    recorded: usize,
) -> Result<(), FreeForAllError> {
    if recorded > to_usize(limit) {
        return Err(FreeForAllError::TooManyMatches {
            setting,
            limit,
            recorded,
        });
    }
    Ok(())
}

/// Returns the stage's standings: total points, best first, players on the same total sharing
/// a placement (1, 2, 2, 4) and listed by initial seed. The final standings of Cumulative
/// Points; the current totals of Threshold Win.
pub fn standings(event: &FreeForAllEvent) -> Result<Vec<FreeForAllStanding>, FreeForAllError> {
    event.validate()?;
    let (points, played) = event.totals();
    let order = by_points(event, &points);
    let mut standings: Vec<FreeForAllStanding> = Vec::with_capacity(order.len());
    for (at, &player) in order.iter().enumerate() {
        let total = Rounded::new(points[player]);
        let rank = match standings.last() {
            Some(previous) if previous.points == total => previous.rank,
            _ => u32::try_from(at + 1).unwrap_or(u32::MAX),
        };
        standings.push(FreeForAllStanding {
            rank,
            player: event.players[player].id.clone(),
            points: total,
            matches: played[player],
        });
    }
    Ok(standings)
}

/// Returns every Threshold Win lobby with its winner and the match they won in, or "No winner
/// yet". With **Maximum matches** reached, a lobby nobody won goes to **If no one wins**: the
/// most points, then the better initial seed. When several players qualify in one match, the
/// most points wins, then the better finish in that match, then the better initial seed.
pub fn threshold_winners(event: &FreeForAllEvent) -> Result<Vec<ThresholdLobby>, FreeForAllError> {
    event.validate()?;
    if event.format != Format::ThresholdWin {
        return Err(FreeForAllError::NotThresholdWin);
    }
    event.threshold_lobbies()
}

/// Returns the next match's lobbies.
///
/// For match 1, and for every match with **Reshuffle lobbies** on, the active (not dropped)
/// players are ordered by **Lobby seeding** (current standings: points, then initial seed;
/// random: drawn from `seed` and the match number) and dealt by **Lobby distribution**. With
/// reshuffling off, the previous match's lobbies play again, less dropped players (and, in
/// Threshold Win, less the lobbies that already have a winner); a player who was in none of
/// them is not added.
pub fn next_lobbies(event: &FreeForAllEvent, seed: u64) -> Result<NextMatch, FreeForAllError> {
    event.validate()?;
    let match_number = event.matches.len() + 1;
    let dropped: HashSet<&PlayerId> = event
        .players
        .iter()
        .filter(|player| player.dropped)
        .map(|player| &player.id)
        .collect();
    let lobbies = match event.format {
        Format::CumulativePoints if event.matches.len() >= to_usize(event.settings.matches) => {
            return Err(FreeForAllError::StageComplete);
        }
        Format::ThresholdWin => {
            let lobbies = event.threshold_lobbies()?;
            let open: Vec<&ThresholdLobby> = lobbies
                .iter()
                .filter(|lobby| lobby.winner.is_none())
                .collect();
            if !event.matches.is_empty() && open.is_empty() {
                return Err(FreeForAllError::StageComplete);
            }
            if event.matches.is_empty() {
                draw_lobbies(event, seed, match_number)?
            } else {
                // The last match's results list the open lobbies' players in seeding order.
                let last_match = event.matches.last().map(Vec::as_slice).unwrap_or_default();
                open.iter()
                    .map(|lobby| {
                        last_match
                            .iter()
                            .find(|result| result.lobby.iter().any(|p| lobby.players.contains(p)))
                            .map_or_else(|| lobby.players.clone(), |result| result.lobby.clone())
                    })
                    .collect()
            }
        }
        _ if event.settings.reshuffle_lobbies || event.matches.is_empty() => {
            draw_lobbies(event, seed, match_number)?
        }
        _ => event
            .matches
            .last()
            .map(|results| results.iter().map(|result| result.lobby.clone()).collect())
            .unwrap_or_default(),
    };
    let lobbies: Vec<Vec<PlayerId>> = lobbies
        .into_iter()
        .map(|lobby| lobby.into_iter().filter(|p| !dropped.contains(p)).collect())
        .filter(|lobby: &Vec<PlayerId>| !lobby.is_empty())
        .collect();
    if lobbies.iter().map(Vec::len).sum::<usize>() < 2 {
        return Err(FreeForAllError::NotEnoughPlayers);
    }
    Ok(NextMatch {
        match_number,
        lobbies,
    })
}

/// Orders the active players by the stage's lobby seeding and deals them into lobbies.
fn draw_lobbies(
    event: &FreeForAllEvent,
    seed: u64,
    match_number: usize,
) -> Result<Vec<Vec<PlayerId>>, FreeForAllError> {
    let mut order: Vec<usize> = (0..event.players.len())
        .filter(|&at| !event.players[at].dropped)
        .collect();
    if order.len() < 2 {
        return Err(FreeForAllError::NotEnoughPlayers);
    }
    order.sort_by_key(|&at| (event.players[at].seed, at));
    match event.settings.lobby_seeding {
        LobbySeeding::InitialSeed => {}
        LobbySeeding::CurrentStandings => {
            let (points, _) = event.totals();
            let ranked = by_points(event, &points);
            order = ranked
                .into_iter()
                .filter(|&at| !event.players[at].dropped)
                .collect();
        }
        LobbySeeding::Random => {
            let stream = u64::try_from(match_number).unwrap_or(u64::MAX);
            Rng::new(seed, stream).shuffle(&mut order);
        }
    }
    let ids: Vec<PlayerId> = order
        .into_iter()
        .map(|at| event.players[at].id.clone())
        .collect();
    let sizes = lobby_sizes(ids.len(), event.settings.players_per_lobby);
    Ok(match event.settings.lobby_distribution {
        LobbyDistribution::Snake => deal_in_snake_order(&ids, &sizes),
    })
}

/// Returns every player's index ordered by points (best first), then initial seed.
fn by_points(event: &FreeForAllEvent, points: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..event.players.len()).collect();
    order.sort_by(|&a, &b| {
        Rounded::new(points[b])
            .cmp(&Rounded::new(points[a]))
            .then(event.players[a].seed.cmp(&event.players[b].seed))
            .then(a.cmp(&b))
    });
    order
}

/// Returns the sizes of the lobbies for `players` players and lobbies of at most
/// `players_per_lobby`: as few lobbies as hold them, sizes differing by at most one, the larger
/// ones first (10 players in 4-player lobbies: 4, 3, 3).
pub fn lobby_sizes(players: usize, players_per_lobby: u32) -> Vec<usize> {
    let capacity = to_usize(players_per_lobby).max(1);
    balanced_sizes(players, players.div_ceil(capacity))
}

/// Returns `parts` sizes adding up to `total`, differing by at most one, the larger first.
pub fn balanced_sizes(total: usize, parts: usize) -> Vec<usize> {
    if parts == 0 {
        return Vec::new();
    }
    let (base, extra) = (total / parts, total % parts);
    (0..parts)
        .map(|at| base + usize::from(at < extra))
        .collect()
}

/// Deals `ordered` (best seed first) into parts of the given `sizes` in snake order: one to
/// each part A, B, C, D, then back D, C, B, A, and so on, skipping parts that are full.
pub fn deal_in_snake_order<T: Clone>(ordered: &[T], sizes: &[usize]) -> Vec<Vec<T>> {
    let mut parts: Vec<Vec<T>> = sizes.iter().map(|&size| Vec::with_capacity(size)).collect();
    let mut next = ordered.iter();
    let passes = sizes.iter().copied().max().unwrap_or(0);
    for pass in 0..passes {
        let forward = pass.is_multiple_of(2);
        for step in 0..sizes.len() {
            let part = if forward {
                step
            } else {
                sizes.len() - 1 - step
            };
            if sizes[part] > pass
                && let Some(item) = next.next()
            {
                parts[part].push(item.clone());
            }
        }
    }
    parts
}

/// Returns a setting count as a `usize` (every `u32` fits on the platforms we build for).
fn to_usize(count: u32) -> usize {
    usize::try_from(count).unwrap_or(usize::MAX)
}

/// Returns a count as a float; exact below 2^53, far beyond any lobby.
fn count(count: usize) -> f64 {
    u32::try_from(count).map_or(f64::from(u32::MAX), f64::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::defaults::{Game, GameDefaults};

    fn riftbound() -> FreeForAllSettings {
        GameDefaults::of(Game::Riftbound)
            .free_for_all
            .expect("Riftbound has free-for-all")
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

    fn numbered(count: usize) -> Vec<Player> {
        (1..=count)
            .map(|seed| Player {
                id: PlayerId(format!("p{seed:02}")),
                seed: u32::try_from(seed).expect("small"),
                rating: None,
                dropped: false,
            })
            .collect()
    }

    fn result(lobby: &[&str], finish: &[u32]) -> LobbyResult {
        LobbyResult {
            lobby: lobby.iter().map(|&id| id.into()).collect(),
            finish: finish.to_vec(),
            eliminations: Vec::new(),
        }
    }

    fn event(
        format: Format,
        settings: FreeForAllSettings,
        players: Vec<Player>,
    ) -> FreeForAllEvent {
        FreeForAllEvent {
            format,
            settings,
            players,
            matches: Vec::new(),
        }
    }

    fn ids(lobby: &[PlayerId]) -> Vec<&str> {
        lobby.iter().map(PlayerId::as_str).collect()
    }

    /// The page's four-player pod, match by match (Ana, Ben, Cam, Dee).
    const POD: [[u32; 4]; 4] = [[1, 2, 3, 4], [2, 1, 3, 4], [2, 3, 1, 4], [2, 1, 3, 4]];

    #[test]
    fn reproduces_the_threshold_example_of_the_page() {
        let pod = ["Ana", "Ben", "Cam", "Dee"];
        let mut stage = event(Format::ThresholdWin, riftbound(), players(&pod));
        for (played, finish) in POD.iter().enumerate() {
            stage.matches.push(vec![result(&pod, finish)]);
            let lobbies = threshold_winners(&stage).expect("a valid stage");
            assert_eq!(lobbies.len(), 1);
            if played < 3 {
                assert_eq!(
                    lobbies[0].winner,
                    None,
                    "no winner yet after match {}",
                    played + 1
                );
            }
        }
        let standings = standings(&stage).expect("a valid stage");
        let points = |id: &str| {
            standings
                .iter()
                .find(|standing| standing.player.as_str() == id)
                .map(|standing| standing.points.value())
        };
        // Ana reaches 7 in match 3 but finished 2nd; Ben and Ana both end on 9.
        assert_eq!(points("Ana"), Some(9.0));
        assert_eq!(points("Ben"), Some(9.0));
        let lobbies = threshold_winners(&stage).expect("a valid stage");
        assert_eq!(
            lobbies[0].winner,
            Some(LobbyWinner {
                player: "Ben".into(),
                match_number: 4,
                points: Rounded::new(9.0),
                decided_by: WinDecidedBy::Threshold,
            })
        );
        assert_eq!(lobbies[0].matches_played, 4);
        stage.matches.push(vec![result(&pod, &[1, 2, 3, 4])]);
        assert!(matches!(
            stage.validate(),
            Err(FreeForAllError::LobbyAlreadyWon {
                match_number: 5,
                ..
            })
        ));
    }

    #[test]
    fn ana_reaches_seven_after_match_three_without_winning() {
        let pod = ["Ana", "Ben", "Cam", "Dee"];
        let mut stage = event(Format::ThresholdWin, riftbound(), players(&pod));
        stage.matches = POD[..3]
            .iter()
            .map(|finish| vec![result(&pod, finish)])
            .collect();
        let standings = standings(&stage).expect("a valid stage");
        assert_eq!(standings[0].player.as_str(), "Ana");
        assert_eq!(standings[0].points.value(), 7.0);
        assert_eq!(threshold_winners(&stage).expect("valid")[0].winner, None);
    }

    #[test]
    fn competition_gives_two_players_tied_for_second_the_second_place_points() {
        let tied = result(&["Ana", "Ben", "Cam", "Dee"], &[1, 2, 2, 4]);
        let points = score_match(&riftbound(), &tied).expect("a valid result");
        assert_eq!(points, [3.0, 2.0, 2.0, 0.0]);
    }

    #[test]
    fn split_gives_two_players_tied_for_second_the_average_of_second_and_third() {
        let settings = FreeForAllSettings {
            tie_scoring: TieScoring::Split,
            ..riftbound()
        };
        let tied = result(&["Ana", "Ben", "Cam", "Dee"], &[1, 2, 2, 4]);
        assert_eq!(
            score_match(&settings, &tied).expect("valid"),
            [3.0, 1.5, 1.5, 0.0]
        );
        let three_way = result(&["Ana", "Ben", "Cam", "Dee"], &[1, 1, 1, 4]);
        assert_eq!(
            score_match(&settings, &three_way).expect("valid"),
            [2.0, 2.0, 2.0, 0.0]
        );
    }

    #[test]
    fn places_beyond_the_placement_points_are_worth_nothing() {
        let settings = FreeForAllSettings {
            placement_points: vec![4.0, 3.0, 2.0, 1.0],
            ..riftbound()
        };
        let five = result(&["A", "B", "C", "D", "E"], &[1, 2, 3, 4, 4]);
        assert_eq!(
            score_match(&settings, &five).expect("valid"),
            [4.0, 3.0, 2.0, 1.0, 1.0]
        );
        let split = FreeForAllSettings {
            tie_scoring: TieScoring::Split,
            ..settings
        };
        assert_eq!(
            score_match(&split, &five).expect("valid"),
            [4.0, 3.0, 2.0, 0.5, 0.5]
        );
    }

    #[test]
    fn elimination_points_add_per_opponent_eliminated() {
        let settings = FreeForAllSettings {
            elimination_points: Some(0.5),
            ..riftbound()
        };
        let mut played = result(&["Ana", "Ben", "Cam", "Dee"], &[1, 2, 3, 4]);
        played.eliminations = vec![2, 1, 0, 0];
        assert_eq!(
            score_match(&settings, &played).expect("valid"),
            [4.0, 2.5, 1.0, 0.0]
        );
        // Without the setting, eliminations are worth nothing.
        assert_eq!(
            score_match(&riftbound(), &played).expect("valid"),
            [3.0, 2.0, 1.0, 0.0]
        );
    }

    #[test]
    fn reads_a_lobby_result_as_json() {
        let read: LobbyResult = serde_json::from_str(
            r#"{"lobby": ["Ana","Ben","Cam","Dee"], "finish": [1,2,3,4], "eliminations": [0,1,0,0]}"#,
        )
        .expect("a lobby result");
        assert_eq!(read.eliminations, [0, 1, 0, 0]);
        let without: LobbyResult =
            serde_json::from_str(r#"{"lobby": ["Ana","Ben"], "finish": [2,1]}"#).expect("valid");
        assert!(without.eliminations.is_empty());
        assert_eq!(without.validate(), Ok(()));
    }

    #[test]
    fn refuses_finishes_that_are_not_competition_ranking() {
        let dense = result(&["Ana", "Ben", "Cam", "Dee"], &[1, 2, 2, 3]);
        let err = dense.validate().unwrap_err();
        assert_eq!(
            err,
            LobbyResultError::ImpossibleFinish {
                player: "Dee".into(),
                finish: 3,
                ahead: 3,
                expected: 4
            }
        );
        assert!(result(&["Ana", "Ben"], &[0, 1]).validate().is_err());
        let short = result(&["Ana", "Ben", "Cam"], &[1, 2]);
        assert!(
            short
                .validate()
                .unwrap_err()
                .to_string()
                .contains("`finish`")
        );
        let twice = result(&["Ana", "Ana"], &[1, 2]);
        assert_eq!(
            twice.validate(),
            Err(LobbyResultError::PlayerTwice("Ana".into()))
        );
    }

    #[test]
    fn cumulative_standings_share_a_placement_on_the_same_total() {
        let pod = ["Ana", "Ben", "Cam", "Dee"];
        let mut stage = event(Format::CumulativePoints, riftbound(), players(&pod));
        stage.matches = vec![
            vec![result(&pod, &[1, 2, 3, 4])],
            vec![result(&pod, &[4, 1, 2, 3])],
            vec![result(&pod, &[1, 4, 2, 3])],
        ];
        // Ana 3+0+3 = 6, Ben 2+3+0 = 5, Cam 1+2+2 = 5, Dee 0+1+1 = 2.
        let table: Vec<(u32, String, f64)> = standings(&stage)
            .expect("valid")
            .into_iter()
            .map(|s| (s.rank, s.player.0, s.points.value()))
            .collect();
        assert_eq!(
            table,
            [
                (1, "Ana".to_owned(), 6.0),
                (2, "Ben".to_owned(), 5.0),
                (2, "Cam".to_owned(), 5.0),
                (4, "Dee".to_owned(), 2.0),
            ]
        );
        assert_eq!(next_lobbies(&stage, 1), Err(FreeForAllError::StageComplete));
        stage.matches.push(vec![result(&pod, &[1, 2, 3, 4])]);
        assert_eq!(
            stage.validate(),
            Err(FreeForAllError::TooManyMatches {
                setting: "matches",
                limit: 3,
                recorded: 4
            })
        );
    }

    #[test]
    fn snakes_eight_players_into_two_lobbies() {
        let stage = event(Format::CumulativePoints, riftbound(), numbered(8));
        let next = next_lobbies(&stage, 0).expect("lobbies");
        assert_eq!(next.match_number, 1);
        let lobbies: Vec<Vec<&str>> = next.lobbies.iter().map(|l| ids(l)).collect();
        assert_eq!(
            lobbies,
            [
                vec!["p01", "p04", "p05", "p08"],
                vec!["p02", "p03", "p06", "p07"]
            ]
        );
    }

    #[test]
    fn snakes_sixteen_players_into_four_lobbies() {
        let stage = event(Format::CumulativePoints, riftbound(), numbered(16));
        let next = next_lobbies(&stage, 0).expect("lobbies");
        let lobbies: Vec<Vec<&str>> = next.lobbies.iter().map(|l| ids(l)).collect();
        assert_eq!(
            lobbies,
            [
                vec!["p01", "p08", "p09", "p16"],
                vec!["p02", "p07", "p10", "p15"],
                vec!["p03", "p06", "p11", "p14"],
                vec!["p04", "p05", "p12", "p13"],
            ]
        );
    }

    #[test]
    fn ten_players_in_four_player_lobbies_play_as_four_three_and_three() {
        assert_eq!(lobby_sizes(10, 4), [4, 3, 3]);
        assert_eq!(lobby_sizes(5, 4), [3, 2]);
        assert_eq!(lobby_sizes(9, 4), [3, 3, 3]);
        let stage = event(Format::CumulativePoints, riftbound(), numbered(10));
        let next = next_lobbies(&stage, 0).expect("lobbies");
        let lobbies: Vec<Vec<&str>> = next.lobbies.iter().map(|l| ids(l)).collect();
        assert_eq!(
            lobbies,
            [
                vec!["p01", "p06", "p07", "p10"],
                vec!["p02", "p05", "p08"],
                vec!["p03", "p04", "p09"],
            ]
        );
    }

    /// Plays a match in every lobby of `next`, the first listed player winning.
    fn play(next: &NextMatch) -> Vec<LobbyResult> {
        next.lobbies
            .iter()
            .map(|lobby| LobbyResult {
                lobby: lobby.iter().rev().cloned().collect(),
                finish: (1..=u32::try_from(lobby.len()).expect("small")).collect(),
                eliminations: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn keeps_the_same_lobbies_without_reshuffling_and_reseeds_with_it() {
        let settings = FreeForAllSettings {
            lobby_seeding: LobbySeeding::CurrentStandings,
            ..riftbound()
        };
        let mut fixed = event(Format::CumulativePoints, settings.clone(), numbered(8));
        let first = next_lobbies(&fixed, 0).expect("lobbies");
        fixed.matches.push(play(&first));
        let second = next_lobbies(&fixed, 0).expect("lobbies");
        let as_sets = |next: &NextMatch| {
            next.lobbies
                .iter()
                .map(|lobby| {
                    lobby
                        .iter()
                        .cloned()
                        .collect::<std::collections::BTreeSet<_>>()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(as_sets(&second), as_sets(&first));

        let mut reshuffled = event(
            Format::CumulativePoints,
            FreeForAllSettings {
                reshuffle_lobbies: true,
                ..settings
            },
            numbered(8),
        );
        reshuffled.matches.push(play(&first));
        let second = next_lobbies(&reshuffled, 0).expect("lobbies");
        // Finishes ran against seed: p07 and p08 have 3 points, p05 and p06 2, p03 and p04 1,
        // p01 and p02 none, so the snake deals p07, p08, p05, p06, p03, p04, p01, p02.
        let lobbies: Vec<Vec<&str>> = second.lobbies.iter().map(|l| ids(l)).collect();
        assert_eq!(
            lobbies,
            [
                vec!["p07", "p06", "p03", "p02"],
                vec!["p08", "p05", "p04", "p01"]
            ]
        );
    }

    #[test]
    fn random_seeding_replays_from_the_seed() {
        let settings = FreeForAllSettings {
            lobby_seeding: LobbySeeding::Random,
            ..riftbound()
        };
        let stage = event(Format::CumulativePoints, settings, numbered(12));
        let draw = |seed| next_lobbies(&stage, seed).expect("lobbies");
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
    }

    #[test]
    fn threshold_lobbies_that_have_a_winner_stop_playing() {
        let mut stage = event(Format::ThresholdWin, riftbound(), numbered(8));
        let first = next_lobbies(&stage, 0).expect("lobbies");
        // Lobby A: p08 wins twice; lobby B: the win goes round.
        let a: Vec<&str> = ids(&first.lobbies[0]);
        let b: Vec<&str> = ids(&first.lobbies[1]);
        stage
            .matches
            .push(vec![result(&a, &[4, 3, 2, 1]), result(&b, &[4, 3, 2, 1])]);
        stage
            .matches
            .push(vec![result(&a, &[4, 3, 2, 1]), result(&b, &[1, 2, 3, 4])]);
        let lobbies = threshold_winners(&stage).expect("valid");
        assert_eq!(
            lobbies[0]
                .winner
                .as_ref()
                .map(|w| (w.player.as_str(), w.match_number)),
            Some(("p08", 2))
        );
        assert_eq!(lobbies[1].winner, None);
        let third = next_lobbies(&stage, 0).expect("lobbies");
        assert_eq!(third.lobbies, vec![first.lobbies[1].clone()]);
        let mut moved = stage.clone();
        moved
            .matches
            .push(vec![result(&["p01", "p02", "p03", "p07"], &[1, 2, 3, 4])]);
        assert!(matches!(
            moved.validate(),
            Err(FreeForAllError::LobbyAlreadyWon { .. } | FreeForAllError::LobbyChanged { .. })
        ));
    }

    #[test]
    fn refuses_a_lobby_that_changes_in_threshold_win() {
        let mut stage = event(Format::ThresholdWin, riftbound(), numbered(8));
        stage.matches.push(vec![
            result(&["p01", "p02", "p03", "p04"], &[4, 3, 2, 1]),
            result(&["p05", "p06", "p07", "p08"], &[4, 3, 2, 1]),
        ]);
        stage.matches.push(vec![
            result(&["p01", "p02", "p03", "p05"], &[4, 3, 2, 1]),
            result(&["p04", "p06", "p07", "p08"], &[4, 3, 2, 1]),
        ]);
        assert_eq!(
            stage.validate(),
            Err(FreeForAllError::LobbyChanged {
                match_number: 2,
                player: "p05".into()
            })
        );
    }

    #[test]
    fn refuses_reshuffling_in_threshold_win_naming_the_setting() {
        let settings = FreeForAllSettings {
            reshuffle_lobbies: true,
            ..riftbound()
        };
        let stage = event(Format::ThresholdWin, settings, numbered(4));
        let err = stage.validate().unwrap_err();
        assert!(err.to_string().contains("`reshuffle_lobbies`"), "{err}");
    }

    #[test]
    fn the_most_points_win_when_nobody_has_within_the_maximum_matches() {
        let settings = FreeForAllSettings {
            maximum_matches: Some(2),
            ..riftbound()
        };
        let pod = ["Ana", "Ben", "Cam", "Dee"];
        let mut stage = event(Format::ThresholdWin, settings, players(&pod));
        stage.matches.push(vec![result(&pod, &[2, 1, 3, 4])]);
        assert_eq!(threshold_winners(&stage).expect("valid")[0].winner, None);
        stage.matches.push(vec![result(&pod, &[1, 2, 3, 4])]);
        // Ana and Ben both have 5: the better initial seed, Ana, wins.
        assert_eq!(
            threshold_winners(&stage).expect("valid")[0].winner,
            Some(LobbyWinner {
                player: "Ana".into(),
                match_number: 2,
                points: Rounded::new(5.0),
                decided_by: WinDecidedBy::HighestPoints,
            })
        );
        assert_eq!(next_lobbies(&stage, 0), Err(FreeForAllError::StageComplete));
    }

    #[test]
    fn the_most_points_win_when_several_qualify_in_one_match() {
        let settings = FreeForAllSettings {
            required_finish: 2,
            points_to_win: 4.0,
            ..riftbound()
        };
        let pod = ["Ana", "Ben", "Cam", "Dee"];
        let mut stage = event(Format::ThresholdWin, settings, players(&pod));
        stage.matches.push(vec![result(&pod, &[3, 1, 2, 4])]);
        stage.matches.push(vec![result(&pod, &[1, 4, 2, 3])]);
        // Cam 2 + 2 = 4 finishing 2nd, Ana 1 + 3 = 4 finishing 1st: equal points, better finish.
        let winner = threshold_winners(&stage).expect("valid")[0].winner.clone();
        assert_eq!(winner.map(|w| w.player), Some("Ana".into()));
        let mut stage = event(Format::ThresholdWin, stage.settings, players(&pod));
        stage.matches.push(vec![result(&pod, &[1, 2, 3, 4])]);
        stage.matches.push(vec![result(&pod, &[2, 3, 1, 4])]);
        // Ana 3 + 2 = 5 finishing 2nd and Cam 1 + 3 = 4 finishing 1st both qualify: the most
        // points win, whatever the finish.
        let winner = threshold_winners(&stage).expect("valid")[0].winner.clone();
        assert_eq!(
            winner.map(|w| (w.player, w.points)),
            Some(("Ana".into(), Rounded::new(5.0)))
        );
    }

    #[test]
    fn refuses_a_one_on_one_format() {
        let stage = event(Format::Swiss, riftbound(), numbered(4));
        assert_eq!(
            stage.validate(),
            Err(FreeForAllError::NotFreeForAll(Format::Swiss))
        );
        let cumulative = event(Format::CumulativePoints, riftbound(), numbered(4));
        assert_eq!(
            threshold_winners(&cumulative),
            Err(FreeForAllError::NotThresholdWin)
        );
    }

    #[test]
    fn refuses_a_stage_of_one_player() {
        let stage = event(Format::CumulativePoints, riftbound(), numbered(1));
        assert_eq!(
            next_lobbies(&stage, 0),
            Err(FreeForAllError::NotEnoughPlayers)
        );
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        fn seeding() -> impl Strategy<Value = LobbySeeding> {
            prop_oneof![
                Just(LobbySeeding::InitialSeed),
                Just(LobbySeeding::CurrentStandings),
                Just(LobbySeeding::Random),
            ]
        }

        /// Valid settings with 3 to 8 players per lobby and points of 0 to 10.
        fn settings() -> impl Strategy<Value = FreeForAllSettings> {
            (3usize..=8).prop_flat_map(|size| {
                (
                    proptest::collection::vec(0u32..=10, size),
                    any::<bool>(),
                    proptest::option::of(0u32..=3),
                    seeding(),
                    any::<bool>(),
                )
                    .prop_map(
                        move |(points, split, elimination, seeding, reshuffle)| {
                            FreeForAllSettings {
                                players_per_lobby: u32::try_from(size).expect("small"),
                                placement_points: points.into_iter().map(f64::from).collect(),
                                tie_scoring: if split {
                                    TieScoring::Split
                                } else {
                                    TieScoring::Competition
                                },
                                elimination_points: elimination.map(f64::from),
                                lobby_seeding: seeding,
                                reshuffle_lobbies: reshuffle,
                                ..riftbound()
                            }
                        },
                    )
            })
        }

        /// A result for `lobby` from a score per player: finishes in competition ranking.
        fn ranked(lobby: &[PlayerId], scores: &[u8], eliminations: &[u32]) -> LobbyResult {
            let finish = scores
                .iter()
                .map(|&score| {
                    let ahead = scores.iter().filter(|&&other| other > score).count();
                    u32::try_from(ahead + 1).expect("small")
                })
                .collect();
            LobbyResult {
                lobby: lobby.to_vec(),
                finish,
                eliminations: eliminations.to_vec(),
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(128))]

            #[test]
            fn every_player_is_in_one_lobby_per_match_and_sizes_differ_by_at_most_one(
                count in 2usize..=60,
                settings in settings(),
                seed in any::<u64>(),
                scores in proptest::collection::vec(0u8..4, 60),
                dropped in proptest::collection::vec(proptest::bool::weighted(0.1), 60),
            ) {
                let mut stage = event(Format::CumulativePoints, settings.clone(), numbered(count));
                for (player, &drop) in stage.players.iter_mut().zip(&dropped) {
                    player.dropped = drop;
                }
                let active: std::collections::BTreeSet<PlayerId> =
                    stage.players.iter().filter(|p| !p.dropped).map(|p| p.id.clone()).collect();
                for _ in 0..settings.matches {
                    let next = match next_lobbies(&stage, seed) {
                        Ok(next) => next,
                        Err(FreeForAllError::NotEnoughPlayers) => {
                            prop_assert!(active.len() < 2);
                            return Ok(());
                        }
                        Err(err) => return Err(TestCaseError::fail(err.to_string())),
                    };
                    let mut seen = std::collections::BTreeSet::new();
                    for player in next.lobbies.iter().flatten() {
                        prop_assert!(seen.insert(player.clone()), "{player} twice");
                    }
                    prop_assert_eq!(&seen, &active);
                    let sizes: Vec<usize> = next.lobbies.iter().map(Vec::len).collect();
                    prop_assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
                    prop_assert!(sizes.iter().all(|&size| size <= to_usize(settings.players_per_lobby)));
                    prop_assert!(sizes.iter().all(|&size| size >= 2));
                    let results: Vec<LobbyResult> = next
                        .lobbies
                        .iter()
                        .map(|lobby| ranked(lobby, &scores[..lobby.len()], &[]))
                        .collect();
                    stage.matches.push(results);
                }
                prop_assert_eq!(next_lobbies(&stage, seed), Err(FreeForAllError::StageComplete));
            }

            #[test]
            fn placement_points_are_never_negative_and_split_shares_exactly(
                settings in settings(),
                size in 1usize..=10,
                scores in proptest::collection::vec(0u8..4, 10),
                eliminations in proptest::collection::vec(0u32..4, 10),
            ) {
                let lobby: Vec<PlayerId> = (0..size).map(|at| PlayerId(format!("p{at}"))).collect();
                let played = ranked(&lobby, &scores[..size], &eliminations[..size]);
                let points = score_match(&settings, &played).expect("a valid result");
                prop_assert_eq!(points.len(), size);
                prop_assert!(points.iter().all(|&p| p >= 0.0 && p.is_finite()));
                if settings.tie_scoring == TieScoring::Split {
                    // Split shares out exactly the points of the places the lobby covers.
                    let places: f64 = settings.placement_points.iter().take(size).sum();
                    let eliminated: f64 = eliminations[..size]
                        .iter()
                        .map(|&e| f64::from(e) * settings.elimination_points.unwrap_or(0.0))
                        .sum();
                    let total: f64 = points.iter().sum();
                    prop_assert!((total - places - eliminated).abs() < 1e-9);
                }
            }

            #[test]
            fn no_lobby_result_panics(
                lobby in proptest::collection::vec("[a-c]", 0..6),
                finish in proptest::collection::vec(any::<u32>(), 0..6),
                eliminations in proptest::collection::vec(any::<u32>(), 0..6),
                settings in settings(),
            ) {
                let result = LobbyResult {
                    lobby: lobby.into_iter().map(PlayerId).collect(),
                    finish,
                    eliminations,
                };
                if let Ok(points) = score_match(&settings, &result) {
                    prop_assert!(points.iter().all(|&p| p >= 0.0));
                }
            }

            #[test]
            fn no_event_panics(
                threshold in any::<bool>(),
                settings in settings(),
                maximum in proptest::option::of(0u32..4),
                count in 0usize..6,
                matches in proptest::collection::vec(
                    proptest::collection::vec(
                        (proptest::collection::vec("p0[0-7]", 0..5), proptest::collection::vec(0u32..6, 0..5)),
                        0..3,
                    ),
                    0..5,
                ),
                seed in any::<u64>(),
            ) {
                let stage = FreeForAllEvent {
                    format: if threshold { Format::ThresholdWin } else { Format::CumulativePoints },
                    settings: FreeForAllSettings { maximum_matches: maximum, ..settings },
                    players: numbered(count),
                    matches: matches
                        .into_iter()
                        .map(|lobbies| {
                            lobbies
                                .into_iter()
                                .map(|(lobby, finish)| LobbyResult {
                                    lobby: lobby.into_iter().map(PlayerId).collect(),
                                    finish,
                                    eliminations: Vec::new(),
                                })
                                .collect()
                        })
                        .collect(),
                };
                let valid = stage.validate().is_ok();
                prop_assert_eq!(standings(&stage).is_ok(), valid);
                let _ = threshold_winners(&stage);
                let _ = next_lobbies(&stage, seed);
            }
        }
    }
}
