//! Swiss pairing (the page's Swiss section): round 1 by the stage's first-round seeding, later
//! rounds by standings and score groups, the pairing style inside each group, byes to the
//! lowest-ranked player without one, and rematch prevention as an optimal matching.
//!
//! With **Prevent repeat matchups** on, a plain pairing that repeats a match is replaced by the
//! rematch-free pairing that keeps players closest to their score groups: a minimum-cost
//! perfect matching ([`super::matching`]) where pairing players `d` score groups apart costs
//! `d²`, and, at equal cost, the plain pairing's own partners are preferred. When no
//! rematch-free pairing exists, the round is refused with an error for the organizer.
//! Randomness comes from the seed passed in, so a stored seed replays the same round.

use std::collections::HashSet;

use super::defaults::{PairingStyle, SeedingMethod, SwissSettings};
use super::event::{Entry, Event, EventError, PlayerId};
use super::matching::max_weight_matching;
use super::random::Rng;
use super::settings::SettingsError;
use super::standings::{Rounded, standings};

/// Players up to which a round with a rematch is re-paired by one exact search over every
/// pair of players. Beyond it, each rematch is repaired locally: the players around it in the
/// standings (a [`REPAIR_WINDOW`] either side, widened up to [`REPAIR_WINDOW_MAX`]) are
/// re-paired exactly while everyone else keeps the plain pairing. A rematch no window can
/// remove is kept: the page's "in a very large, late round the search can give up, and then
/// the engine uses the plain pairing even if it contains a rematch".
pub const FULL_SEARCH_LIMIT: usize = 1024;

/// Players on either side of a rematch that a local repair starts with.
pub const REPAIR_WINDOW: usize = 8;

/// The widest window a local repair tries, in players on either side.
pub const REPAIR_WINDOW_MAX: usize = 128;

/// Byes tried, at most, before a round is refused (or, beyond [`FULL_SEARCH_LIMIT`], paired
/// with a rematch): when the lowest-ranked player without a bye leaves the others no
/// rematch-free pairing, the next candidates up the standings sit out instead. Every candidate
/// costs a full pairing, so a field that defeats this many is treated as unpairable; in
/// practice only small late rounds ever need a second candidate.
pub const BYE_CANDIDATES: usize = 16;

/// The next round's pairings.
#[derive(Debug, Clone, PartialEq)]
pub struct SwissPairing {
    /// The round these pairings are for, from 1.
    pub round: usize,
    /// The matches, best-ranked pair first; each lists the better-ranked player first.
    pub matches: Vec<[PlayerId; 2]>,
    /// The player who sits out, when an odd number of players is active.
    pub bye: Option<PlayerId>,
    /// Whether a match repeats an earlier one (only when prevention is off or gave up).
    pub has_rematch: bool,
}

impl SwissPairing {
    /// Returns the pairings as a round's entries (a bye as `{"players": [p], "bye": true}`),
    /// each match with no games yet (`[0, 0]`).
    pub fn entries(&self) -> Vec<Entry> {
        self.matches
            .iter()
            .map(|players| Entry::Match {
                players: players.clone(),
                games: [0, 0],
            })
            .chain(self.bye.clone().map(Entry::Bye))
            .collect()
    }
}

/// A round that cannot be paired.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PairingError {
    /// The event is refused (see [`Event::validate`]).
    #[error(transparent)]
    Event(#[from] EventError),
    /// A stage setting is refused.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// Every round of the stage has been played.
    #[error("the stage is complete: all {0} rounds have been played")]
    StageComplete(u32),
    /// Fewer than two players are still in the event.
    #[error("fewer than two players are still in the event, so no round can be paired")]
    NotEnoughPlayers,
    /// Every possible pairing repeats an earlier match.
    #[error(
        "round {0} cannot be paired without a repeat matchup: turn off `prevent_repeat_matchups` for this stage or change its `pairing_style`"
    )]
    NoRematchFreePairing(usize),
    /// Round 1 is seeded by prior stage results, and none were given.
    #[error(
        "setting `first_round_seeding` is `prior_stage`, but no prior stage results were given"
    )]
    MissingPriorStageResults,
}

/// Pairs the next round of a Swiss stage from the event's results so far.
///
/// `seed` is the event's stored seed; `prior_stage_order` lists players by their final
/// placement in the previous stage, for round 1 seeded by prior stage results. Standings (and
/// so score groups) follow the event's own scoring settings; the stage gives the round count,
/// the first-round seeding, the pairing style and rematch prevention.
pub fn pair_next_round(
    event: &Event,
    stage: &SwissSettings,
    seed: u64,
    prior_stage_order: Option<&[PlayerId]>,
) -> Result<SwissPairing, PairingError> {
    pair_with_limit(event, stage, seed, prior_stage_order, FULL_SEARCH_LIMIT)
}

/// [`pair_next_round`] with the size up to which one exact search is used (tests lower it to
/// reach the local repair with small events).
fn pair_with_limit(
    event: &Event,
    stage: &SwissSettings,
    seed: u64,
    prior_stage_order: Option<&[PlayerId]>,
    full_search_limit: usize,
) -> Result<SwissPairing, PairingError> {
    event.validate()?;
    stage.validate()?;
    let round = event.rounds.len() + 1;
    if event.rounds.len() >= usize::try_from(stage.rounds).unwrap_or(usize::MAX) {
        return Err(PairingError::StageComplete(stage.rounds));
    }
    let mut rng = Rng::new(seed, u64::try_from(round).unwrap_or(u64::MAX));
    let (mut ranked, points) = if event.rounds.is_empty() {
        let order = first_round_order(
            event,
            stage.first_round_seeding,
            &mut rng,
            prior_stage_order,
        )?;
        let points = vec![Rounded::new(0.0); event.players.len()];
        (order, points)
    } else {
        ranked_by_standings(event)
    };
    ranked.retain(|&player| !event.players[player].dropped);
    if ranked.len() < 2 {
        return Err(PairingError::NotEnoughPlayers);
    }
    let played = previous_pairs(event);
    let is_rematch = |a: usize, b: usize| played.contains(&(a.min(b), a.max(b)));
    // With an odd count, the bye goes to the lowest-ranked player with the fewest byes. Should
    // the others then have no rematch-free pairing, the next candidate (moving up the
    // standings, still among the fewest byes) sits out instead: the round is refused only
    // when no allowed bye leaves a rematch-free pairing.
    let bye_candidates = if ranked.len() % 2 == 1 {
        bye_candidates(event, &ranked)
    } else {
        vec![None]
    };
    let mut chosen = None;
    let mut fallback = None;
    for candidate in bye_candidates.into_iter().take(BYE_CANDIDATES) {
        let mut rest = ranked.clone();
        let bye = candidate.map(|at| rest.remove(at));
        // Every candidate draws from the same stream, so the first one pairs as it always did.
        let mut rng = rng.clone();
        let groups = score_groups(&rest, &points);
        let plain = plain_pairing(&rest, &groups, stage.pairing_style, &mut rng);
        let plain_has_rematch = plain.iter().any(|&(a, b)| is_rematch(a, b));
        let pairing = if !plain_has_rematch || !stage.prevent_repeat_matchups {
            Some((plain, plain_has_rematch))
        } else if rest.len() <= full_search_limit {
            rematch_free_pairing(&rest, &groups, &plain, &is_rematch).map(|pairs| (pairs, false))
        } else {
            Some(repair_locally(&rest, &groups, plain, &is_rematch))
        };
        match pairing {
            // A local repair that kept a rematch: another bye may do better; if none does,
            // the first candidate's pairing is used.
            Some((pairs, true)) if stage.prevent_repeat_matchups => {
                fallback.get_or_insert((rest, bye, pairs, true));
            }
            Some((pairs, has_rematch)) => {
                chosen = Some((rest, bye, pairs, has_rematch));
                break;
            }
            None => {}
        }
    }
    let (ranked, bye, pairs, has_rematch) = chosen
        .or(fallback)
        .ok_or(PairingError::NoRematchFreePairing(round))?;
    let position: std::collections::HashMap<usize, usize> = ranked
        .iter()
        .enumerate()
        .map(|(at, &player)| (player, at))
        .collect();
    let mut pairs: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(a, b)| {
            if position[&a] <= position[&b] {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect();
    pairs.sort_by_key(|&(a, _)| position[&a]);
    let id = |player: usize| event.players[player].id.clone();
    Ok(SwissPairing {
        round,
        matches: pairs.into_iter().map(|(a, b)| [id(a), id(b)]).collect(),
        bye: bye.map(id),
        has_rematch,
    })
}

/// Orders every player for round 1 by the stage's first-round seeding.
pub(crate) fn first_round_order(
    event: &Event,
    seeding: SeedingMethod,
    rng: &mut Rng,
    prior_stage_order: Option<&[PlayerId]>,
) -> Result<Vec<usize>, PairingError> {
    let mut order: Vec<usize> = (0..event.players.len()).collect();
    order.sort_by_key(|&player| event.players[player].seed);
    match seeding {
        SeedingMethod::Manual => {}
        SeedingMethod::Random => rng.shuffle(&mut order),
        SeedingMethod::Rating => order.sort_by(|&a, &b| {
            let rating = |player: usize| event.players[player].rating.unwrap_or(f64::NEG_INFINITY);
            rating(b).total_cmp(&rating(a))
        }),
        SeedingMethod::PriorStage => {
            let prior = prior_stage_order.ok_or(PairingError::MissingPriorStageResults)?;
            let index = event.player_index();
            let placed: Vec<usize> = prior
                .iter()
                .filter_map(|id| index.get(id).copied())
                .collect();
            // Players the prior stage did not place follow, by seed.
            order.retain(|player| !placed.contains(player));
            order = placed.into_iter().chain(order).collect();
        }
    }
    Ok(order)
}

/// Returns every player in standings order, and each player's rounded points.
fn ranked_by_standings(event: &Event) -> (Vec<usize>, Vec<Rounded>) {
    let index = event.player_index();
    let mut points = vec![Rounded::new(0.0); event.players.len()];
    let ranked = standings(event)
        .standings
        .into_iter()
        .map(|standing| {
            let player = index[&standing.player];
            points[player] = standing.points;
            player
        })
        .collect();
    (ranked, points)
}

/// Returns the positions in `ranked` of the players who may sit out, in the order they are
/// tried: those with the fewest byes (so a second bye only comes once everyone has had one),
/// lowest-ranked first.
fn bye_candidates(event: &Event, ranked: &[usize]) -> Vec<Option<usize>> {
    let index = event.player_index();
    let mut byes = vec![0usize; event.players.len()];
    for entry in event.rounds.iter().flat_map(|round| &round.0) {
        if let Entry::Bye(player) = entry
            && let Some(&player) = index.get(player)
        {
            byes[player] += 1;
        }
    }
    let fewest = ranked.iter().map(|&player| byes[player]).min().unwrap_or(0);
    (0..ranked.len())
        .rev()
        .filter(|&at| byes[ranked[at]] == fewest)
        .map(Some)
        .collect()
}

/// Returns every pair of players (lower index first) who have already met.
fn previous_pairs(event: &Event) -> HashSet<(usize, usize)> {
    let index = event.player_index();
    event
        .rounds
        .iter()
        .flat_map(|round| &round.0)
        .filter_map(|entry| match entry {
            Entry::Match { players, .. } => {
                let a = *index.get(&players[0])?;
                let b = *index.get(&players[1])?;
                Some((a.min(b), a.max(b)))
            }
            Entry::Bye(_) | Entry::LateLoss(_) => None,
        })
        .collect()
}

/// Returns each ranked player's score group, 0 for the top group, by position in `ranked`.
fn score_groups(ranked: &[usize], points: &[Rounded]) -> Vec<usize> {
    let mut groups = Vec::with_capacity(ranked.len());
    for (at, &player) in ranked.iter().enumerate() {
        let group = match at {
            0 => 0,
            _ if points[ranked[at - 1]] == points[player] => groups[at - 1],
            _ => groups[at - 1] + 1,
        };
        groups.push(group);
    }
    groups
}

/// Pairs each score group from the top by the pairing style; an odd group's lowest-ranked
/// player drops down into the next group.
fn plain_pairing(
    ranked: &[usize],
    groups: &[usize],
    style: PairingStyle,
    rng: &mut Rng,
) -> Vec<(usize, usize)> {
    let mut pairs = Vec::with_capacity(ranked.len() / 2);
    let mut members: Vec<usize> = Vec::new();
    let mut at = 0;
    while at < ranked.len() {
        let group = groups[at];
        while at < ranked.len() && groups[at] == group {
            members.push(ranked[at]);
            at += 1;
        }
        let floater = (members.len() % 2 == 1).then(|| members.pop()).flatten();
        pair_group(&mut members, style, rng, &mut pairs);
        members.clear();
        members.extend(floater);
    }
    pairs
}

/// Pairs an even group of players, given best-ranked first, by the pairing style.
fn pair_group(
    members: &mut [usize],
    style: PairingStyle,
    rng: &mut Rng,
    pairs: &mut Vec<(usize, usize)>,
) {
    let half = members.len() / 2;
    match style {
        PairingStyle::RandomWithinScoreGroups => {
            rng.shuffle(members);
            pairs.extend(members.chunks_exact(2).map(|pair| (pair[0], pair[1])));
        }
        PairingStyle::Fold => pairs.extend((0..half).map(|at| (members[at], members[at + half]))),
        PairingStyle::Adjacent => {
            pairs.extend(members.chunks_exact(2).map(|pair| (pair[0], pair[1])));
        }
    }
}

/// Two players, by index into [`Event::players`].
type Pair = (usize, usize);

/// Removes the plain pairing's rematches one at a time by re-pairing exactly the players
/// around each (every pair with a player within the window in standings order), widening the
/// window when that finds nothing; returns the pairs and whether a rematch had to be kept.
fn repair_locally(
    ranked: &[usize],
    groups: &[usize],
    mut pairs: Vec<(usize, usize)>,
    is_rematch: &dyn Fn(usize, usize) -> bool,
) -> (Vec<(usize, usize)>, bool) {
    let position: std::collections::HashMap<usize, usize> = ranked
        .iter()
        .enumerate()
        .map(|(at, &player)| (player, at))
        .collect();
    let mut kept_rematches: HashSet<(usize, usize)> = HashSet::new();
    while let Some(&(a, b)) = pairs
        .iter()
        .find(|&&(a, b)| is_rematch(a, b) && !kept_rematches.contains(&(a, b)))
    {
        let (low, high) = {
            let (pa, pb) = (position[&a], position[&b]);
            (pa.min(pb), pa.max(pb))
        };
        let mut window = REPAIR_WINDOW;
        let repaired = loop {
            let from = low.saturating_sub(window);
            let to = (high + window).min(ranked.len() - 1);
            let (inside, outside): (Vec<Pair>, Vec<Pair>) = pairs.iter().partition(|&&(x, y)| {
                (from..=to).contains(&position[&x]) || (from..=to).contains(&position[&y])
            });
            let mut players: Vec<usize> = inside.iter().flat_map(|&(x, y)| [x, y]).collect();
            players.sort_by_key(|player| position[player]);
            let local_groups: Vec<usize> = players
                .iter()
                .map(|player| groups[position[player]])
                .collect();
            if let Some(local) = rematch_free_pairing(&players, &local_groups, &inside, is_rematch)
            {
                break Some(outside.into_iter().chain(local).collect::<Vec<_>>());
            }
            if window >= REPAIR_WINDOW_MAX || (from == 0 && to == ranked.len() - 1) {
                break None;
            }
            window *= 4;
        };
        match repaired {
            Some(repaired) => pairs = repaired,
            None => {
                kept_rematches.insert((a, b));
            }
        }
    }
    // A later, wider repair may have removed a rematch kept earlier.
    let has_rematch = pairs.iter().any(|&(a, b)| is_rematch(a, b));
    (pairs, has_rematch)
}

/// Returns the rematch-free pairing of minimum cost, or `None` when every pairing repeats a
/// match. Pairing players `d` score groups apart costs `d²·(n + 1)`, plus 1 unless the plain
/// pairing paired them: the group distance always dominates, and at equal distance the style's
/// own choices win.
fn rematch_free_pairing(
    ranked: &[usize],
    groups: &[usize],
    plain: &[(usize, usize)],
    is_rematch: &dyn Fn(usize, usize) -> bool,
) -> Option<Vec<(usize, usize)>> {
    let n = ranked.len();
    let plain: HashSet<(usize, usize)> = plain.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    let scale = i64::try_from(n + 1).ok()?;
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (ranked[i], ranked[j]);
            if is_rematch(a, b) {
                continue;
            }
            let gap = i64::try_from(groups[j] - groups[i]).ok()?;
            let off_style = i64::from(!plain.contains(&(a.min(b), a.max(b))));
            edges.push((i, j, gap * gap * scale + off_style));
        }
    }
    // Maximum weight over a perfect matching = minimum cost: weight = (most cost + 1) - cost.
    let ceiling = edges.iter().map(|&(_, _, cost)| cost).max().unwrap_or(0) + 1;
    for edge in &mut edges {
        edge.2 = ceiling - edge.2;
    }
    let mate = max_weight_matching(n, &edges, true);
    let mut pairs = Vec::with_capacity(n / 2);
    for (i, partner) in mate.iter().enumerate() {
        let j = (*partner)?;
        if i < j {
            pairs.push((ranked[i], ranked[j]));
        }
    }
    Some(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::defaults::{Game, GameDefaults};
    use crate::domain::event::{Player, Round};

    fn stage(style: PairingStyle, seeding: SeedingMethod) -> SwissSettings {
        let mut stage = GameDefaults::of(Game::Pokemon).swiss;
        stage.pairing_style = style;
        stage.first_round_seeding = seeding;
        stage
    }

    fn event(count: usize, rounds: Vec<Round>) -> Event {
        let defaults = GameDefaults::of(Game::Pokemon);
        Event {
            settings: defaults.swiss.scoring(defaults.win_percentage),
            players: (1..=count)
                .map(|seed| Player {
                    id: PlayerId(format!("P{seed}")),
                    seed: u32::try_from(seed).expect("small"),
                    rating: None,
                    dropped: false,
                })
                .collect(),
            rounds,
        }
    }

    fn won(a: &str, b: &str) -> Entry {
        Entry::Match {
            players: [a.into(), b.into()],
            games: [2, 0],
        }
    }

    fn names(pairing: &SwissPairing) -> Vec<(&str, &str)> {
        pairing
            .matches
            .iter()
            .map(|[a, b]| (a.as_str(), b.as_str()))
            .collect()
    }

    #[test]
    fn pairs_round_one_by_seed_with_each_style() {
        let event = event(8, vec![]);
        let adjacent = pair_next_round(
            &event,
            &stage(PairingStyle::Adjacent, SeedingMethod::Manual),
            1,
            None,
        )
        .expect("a pairing");
        assert_eq!(
            names(&adjacent),
            vec![("P1", "P2"), ("P3", "P4"), ("P5", "P6"), ("P7", "P8")]
        );
        let fold = pair_next_round(
            &event,
            &stage(PairingStyle::Fold, SeedingMethod::Manual),
            1,
            None,
        )
        .expect("a pairing");
        assert_eq!(
            names(&fold),
            vec![("P1", "P5"), ("P2", "P6"), ("P3", "P7"), ("P4", "P8")]
        );
        assert_eq!(adjacent.round, 1);
        assert_eq!(adjacent.bye, None);
    }

    #[test]
    fn seeds_round_one_by_rating_and_by_prior_stage() {
        let mut event = event(4, vec![]);
        for (player, rating) in event
            .players
            .iter_mut()
            .zip([1500.0, 1900.0, 1700.0, 1800.0])
        {
            player.rating = Some(rating);
        }
        let stage_by = |seeding| stage(PairingStyle::Adjacent, seeding);
        let by_rating =
            pair_next_round(&event, &stage_by(SeedingMethod::Rating), 1, None).expect("a pairing");
        assert_eq!(names(&by_rating), vec![("P2", "P4"), ("P3", "P1")]);
        let prior: Vec<PlayerId> = ["P4", "P3", "P2", "P1"].map(PlayerId::from).to_vec();
        let by_prior = pair_next_round(
            &event,
            &stage_by(SeedingMethod::PriorStage),
            1,
            Some(&prior),
        )
        .expect("a pairing");
        assert_eq!(names(&by_prior), vec![("P4", "P3"), ("P2", "P1")]);
        assert_eq!(
            pair_next_round(&event, &stage_by(SeedingMethod::PriorStage), 1, None),
            Err(PairingError::MissingPriorStageResults)
        );
    }

    #[test]
    fn random_seeding_replays_from_the_same_seed() {
        let event = event(16, vec![]);
        let stage = stage(PairingStyle::RandomWithinScoreGroups, SeedingMethod::Random);
        let first = pair_next_round(&event, &stage, 99, None).expect("a pairing");
        let again = pair_next_round(&event, &stage, 99, None).expect("a pairing");
        assert_eq!(first, again);
        let other = pair_next_round(&event, &stage, 100, None).expect("a pairing");
        assert_ne!(first, other);
    }

    #[test]
    fn gives_the_round_one_bye_to_the_lowest_seed() {
        let event = event(5, vec![]);
        let pairing = pair_next_round(
            &event,
            &stage(PairingStyle::Adjacent, SeedingMethod::Manual),
            1,
            None,
        )
        .expect("a pairing");
        assert_eq!(pairing.bye, Some("P5".into()));
        assert_eq!(names(&pairing), vec![("P1", "P2"), ("P3", "P4")]);
    }

    #[test]
    fn pairs_the_worked_example_round_four_with_the_bye_to_the_lowest_player_without_one() {
        // After the page's three rounds: Ana 7, Cam 6, Eli 6, Dee 4, Ben 3, and everyone but
        // Ana and Cam has had a bye, so Cam sits out; Ana drops down to Eli.
        let event = crate::domain::vector_tests::event("worked-example");
        let mut stage = stage(PairingStyle::Adjacent, SeedingMethod::Manual);
        stage.rounds = 5;
        let pairing = pair_next_round(&event, &stage, 1, None).expect("a pairing");
        assert_eq!(pairing.round, 4);
        assert_eq!(pairing.bye, Some("Cam".into()));
        assert_eq!(names(&pairing), vec![("Ana", "Eli"), ("Dee", "Ben")]);
        assert!(!pairing.has_rematch);
    }

    #[test]
    fn replaces_a_rematch_by_the_closest_rematch_free_pairing() {
        let rounds = vec![
            Round(vec![won("P1", "P2"), won("P3", "P4")]),
            Round(vec![won("P1", "P4"), won("P3", "P2")]),
        ];
        // P1 6, P3 6, P2 0, P4 0: adjacent gives P1–P3 (new) and P2–P4 (new).
        let event = event(4, rounds.clone());
        let stage = stage(PairingStyle::Adjacent, SeedingMethod::Manual);
        let pairing = pair_next_round(&event, &stage, 1, None).expect("a pairing");
        assert_eq!(names(&pairing), vec![("P1", "P3"), ("P2", "P4")]);
        // With round 2 drawn instead (P1 and P3 on 4, P2 and P4 on 1), adjacent pairing
        // would repeat both matches; the only rematch-free pairing crosses the groups.
        let rounds = vec![
            Round(vec![won("P1", "P2"), won("P3", "P4")]),
            Round(vec![
                Entry::Match {
                    players: ["P1".into(), "P3".into()],
                    games: [1, 1],
                },
                Entry::Match {
                    players: ["P2".into(), "P4".into()],
                    games: [1, 1],
                },
            ]),
        ];
        let event = self::event(4, rounds);
        let pairing = pair_next_round(&event, &stage, 1, None).expect("a pairing");
        assert!(!pairing.has_rematch);
        assert_eq!(names(&pairing), vec![("P1", "P4"), ("P3", "P2")]);
    }

    #[test]
    fn refuses_a_round_that_only_rematches_can_fill() {
        let event = event(2, vec![Round(vec![won("P1", "P2")])]);
        let stage = stage(PairingStyle::Adjacent, SeedingMethod::Manual);
        let err = pair_next_round(&event, &stage, 1, None).unwrap_err();
        assert_eq!(err, PairingError::NoRematchFreePairing(2));
        assert!(
            err.to_string().contains("`prevent_repeat_matchups`"),
            "{err}"
        );
        let mut allowing = stage;
        allowing.prevent_repeat_matchups = false;
        let pairing = pair_next_round(&event, &allowing, 1, None).expect("a pairing");
        assert!(pairing.has_rematch);
    }

    #[test]
    fn never_pairs_a_dropped_player() {
        let mut event = event(4, vec![Round(vec![won("P1", "P2"), won("P3", "P4")])]);
        event.players[0].dropped = true;
        let stage = stage(PairingStyle::Adjacent, SeedingMethod::Manual);
        let pairing = pair_next_round(&event, &stage, 1, None).expect("a pairing");
        assert!(
            pairing
                .matches
                .iter()
                .flatten()
                .all(|id| id.as_str() != "P1")
        );
        assert_eq!(pairing.matches.len(), 1);
        assert!(pairing.bye.is_some());
    }

    #[test]
    fn stops_after_the_last_round() {
        let mut stage = stage(PairingStyle::Adjacent, SeedingMethod::Manual);
        stage.rounds = 1;
        let event = event(2, vec![Round(vec![won("P1", "P2")])]);
        assert_eq!(
            pair_next_round(&event, &stage, 1, None),
            Err(PairingError::StageComplete(1))
        );
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        /// The least Σ(score-group distance)² over rematch-free perfect matchings of `ranked`,
        /// by exhaustive search, or `None` when there is none.
        fn least_group_cost(
            ranked: &[usize],
            groups: &[usize],
            played: &HashSet<(usize, usize)>,
        ) -> Option<usize> {
            fn go(
                free: &mut Vec<usize>,
                ranked: &[usize],
                groups: &[usize],
                played: &HashSet<(usize, usize)>,
            ) -> Option<usize> {
                let Some(first) = free.pop() else {
                    return Some(0);
                };
                let mut best = None;
                for at in 0..free.len() {
                    let other = free.remove(at);
                    let (a, b) = (ranked[first], ranked[other]);
                    if !played.contains(&(a.min(b), a.max(b))) {
                        let gap = groups[first].abs_diff(groups[other]);
                        if let Some(rest) = go(free, ranked, groups, played) {
                            let cost = gap * gap + rest;
                            best = Some(best.map_or(cost, |best: usize| best.min(cost)));
                        }
                    }
                    free.insert(at, other);
                }
                free.push(first);
                best
            }
            let mut free: Vec<usize> = (0..ranked.len()).collect();
            go(&mut free, ranked, groups, played)
        }

        /// Plays a pairing with the next results: 0 the first player wins 2-0, 1 the second
        /// does, anything else a 1-1 draw.
        fn play(event: &mut Event, pairing: SwissPairing, results: &mut impl Iterator<Item = u8>) {
            let mut entries: Vec<Entry> = pairing
                .matches
                .into_iter()
                .map(|players| {
                    let games = match results.next().expect("cycled") {
                        0 => [2, 0],
                        1 => [0, 2],
                        _ => [1, 1],
                    };
                    Entry::Match { players, games }
                })
                .collect();
            entries.extend(pairing.bye.map(Entry::Bye));
            event.rounds.push(Round(entries));
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]

            #[test]
            fn local_repair_removes_every_rematch_a_rematch_free_pairing_can_avoid(
                count in 4usize..13,
                seed: u64,
                style in style(),
                results in prop::collection::vec(0u8..3, 64),
            ) {
                let mut stage = self::stage(style, SeedingMethod::Random);
                stage.rounds = 8;
                stage.prevent_repeat_matchups = false;
                let mut event = event(count, vec![]);
                let mut results = results.into_iter().cycle();
                for _ in 1..=8 {
                    // Limit 0: every round goes through the local repair.
                    let mut repairing = stage.clone();
                    repairing.prevent_repeat_matchups = true;
                    let repaired = pair_with_limit(&event, &repairing, seed, None, 0)
                        .expect("a repaired pairing, rematches or not");
                    let index = event.player_index();
                    let mut seen: Vec<usize> = repaired
                        .matches
                        .iter()
                        .flatten()
                        .chain(&repaired.bye)
                        .map(|id| index[id])
                        .collect();
                    seen.sort_unstable();
                    prop_assert_eq!(seen, (0..count).collect::<Vec<_>>());
                    let exact = pair_next_round(&event, &repairing, seed, None);
                    prop_assert_eq!(repaired.has_rematch, exact.is_err());
                    // Play on with whatever pairing, rematches allowed, to reach late rounds.
                    let pairing = pair_next_round(&event, &stage, seed, None).expect("a pairing");
                    play(&mut event, pairing, &mut results);
                }
            }
        }

        fn style() -> impl Strategy<Value = PairingStyle> {
            prop_oneof![
                Just(PairingStyle::RandomWithinScoreGroups),
                Just(PairingStyle::Fold),
                Just(PairingStyle::Adjacent),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]

            #[test]
            fn every_round_pairs_each_active_player_once_without_avoidable_rematches(
                count in 2usize..12,
                seed: u64,
                style in style(),
                results in prop::collection::vec(0u8..3, 64),
                drops in prop::collection::vec(0usize..24, 0..3),
            ) {
                let mut stage = self::stage(style, SeedingMethod::Random);
                stage.rounds = 7;
                let mut event = event(count, vec![]);
                let mut results = results.into_iter().cycle();
                for round in 1..=7 {
                    if let Some(&drop) = drops.get(round - 1)
                        && let Some(player) = event.players.get_mut(drop)
                    {
                        player.dropped = true;
                    }
                    let active: Vec<usize> =
                        (0..count).filter(|&p| !event.players[p].dropped).collect();
                    let played = previous_pairs(&event);
                    let outcome = pair_next_round(&event, &stage, seed, None);
                    let pairing = match outcome {
                        Err(PairingError::NotEnoughPlayers) => {
                            prop_assert!(active.len() < 2);
                            break;
                        }
                        Err(PairingError::NoRematchFreePairing(_)) => {
                            // Refused only when no allowed bye leaves a rematch-free pairing.
                            let (mut ranked, points) = ranked_by_standings(&event);
                            ranked.retain(|&p| !event.players[p].dropped);
                            let candidates = if ranked.len() % 2 == 1 {
                                bye_candidates(&event, &ranked)
                            } else {
                                vec![None]
                            };
                            for candidate in candidates {
                                let mut rest = ranked.clone();
                                if let Some(at) = candidate {
                                    rest.remove(at);
                                }
                                let groups = score_groups(&rest, &points);
                                prop_assert_eq!(least_group_cost(&rest, &groups, &played), None);
                            }
                            break;
                        }
                        Err(other) => return Err(TestCaseError::fail(other.to_string())),
                        Ok(pairing) => pairing,
                    };
                    prop_assert_eq!(pairing.round, round);
                    prop_assert!(!pairing.has_rematch);
                    let index = event.player_index();
                    let mut seen: Vec<usize> = pairing
                        .matches
                        .iter()
                        .flatten()
                        .chain(&pairing.bye)
                        .map(|id| index[id])
                        .collect();
                    seen.sort_unstable();
                    prop_assert_eq!(&seen, &active, "each active player once");
                    for [a, b] in &pairing.matches {
                        let (a, b) = (index[a], index[b]);
                        prop_assert!(!played.contains(&(a.min(b), a.max(b))), "a rematch");
                    }
                    // The bye: the lowest-ranked among the players with the fewest byes.
                    let (mut ranked, points) = if event.rounds.is_empty() {
                        (Vec::new(), Vec::new())
                    } else {
                        ranked_by_standings(&event)
                    };
                    ranked.retain(|&p| !event.players[p].dropped);
                    if let (Some(bye), false) = (&pairing.bye, ranked.is_empty()) {
                        let at = ranked.iter().position(|&p| p == index[bye]).expect("active");
                        // The first candidate that leaves a rematch-free pairing.
                        let first_pairable = bye_candidates(&event, &ranked)
                            .into_iter()
                            .flatten()
                            .find(|&candidate| {
                                let mut rest = ranked.clone();
                                rest.remove(candidate);
                                let groups = score_groups(&rest, &points);
                                least_group_cost(&rest, &groups, &played).is_some()
                            });
                        prop_assert_eq!(Some(at), first_pairable);
                        let byes = |p: usize| event.rounds.iter().flat_map(|r| &r.0)
                            .filter(|e| matches!(e, Entry::Bye(id) if index[id] == p)).count();
                        let fewest = ranked.iter().map(|&p| byes(p)).min();
                        prop_assert_eq!(Some(byes(index[bye])), fewest);
                        // Everyone ranked below with as few byes was tried first and failed.
                        prop_assert!(ranked[at + 1..].iter().all(|&p| byes(p) >= byes(index[bye])));
                    }
                    // The pairing keeps players as close to their score groups as possible.
                    if !ranked.is_empty() {
                        if let Some(bye) = &pairing.bye {
                            ranked.retain(|&p| p != index[bye]);
                        }
                        let groups = score_groups(&ranked, &points);
                        let position: std::collections::HashMap<usize, usize> =
                            ranked.iter().enumerate().map(|(at, &p)| (p, at)).collect();
                        let cost: usize = pairing.matches.iter().map(|[a, b]| {
                            let gap = groups[position[&index[a]]].abs_diff(groups[position[&index[b]]]);
                            gap * gap
                        }).sum();
                        prop_assert_eq!(Some(cost), least_group_cost(&ranked, &groups, &played));
                    }
                    play(&mut event, pairing, &mut results);
                }
            }
        }
    }
}
