//! A match's result as players and organizers record it (issue 19): a player reports the games
//! each side won, the opponent confirms the same result and it is decided; a different claim
//! marks it disputed for the organizer; an organizer's entry is final, and an organizer may
//! correct any result at any time. The next round is paired only once every match of the
//! round is decided ([`MatchResult::is_decided`]).
//!
//! Both players reporting at once reach here one after the other (the store serializes the
//! writes of a match), so the second report meets the first: the same games confirm it.

/// The most games one side may win in a match.
pub const MAX_GAMES: u32 = 99;

/// Who records a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reporter {
    /// A player of the match: 0 for `players[0]`, 1 for `players[1]`.
    Player(usize),
    /// An organizer of the tournament.
    Organizer,
}

/// Where a match's result stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultState {
    /// One player reported; the opponent has not confirmed yet.
    Reported,
    /// Both players reported the same games.
    Confirmed,
    /// The players' claims differ: the organizer decides.
    Disputed,
    /// Entered or corrected by an organizer.
    Final,
}

impl ResultState {
    /// Returns the state as the API writes it.
    pub fn name(self) -> &'static str {
        match self {
            ResultState::Reported => "reported",
            ResultState::Confirmed => "confirmed",
            ResultState::Disputed => "disputed",
            ResultState::Final => "final",
        }
    }
}

/// A match's result: the games each side won, as it stands, and each player's claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchResult {
    /// Games won by `players[0]` and `players[1]`: the last claim, or the organizer's entry.
    pub games: [u32; 2],
    /// Where it stands.
    pub state: ResultState,
    /// What each player reported, if they did.
    pub claims: [Option<[u32; 2]>; 2],
}

/// Why a report is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResultError {
    /// A game count over the limit.
    #[error("`games`: each side wins 0 to {MAX_GAMES} games")]
    TooManyGames,
    /// A player reporting a result that is already decided.
    #[error("this match's result is {0}: only an organizer can change it now")]
    AlreadyDecided(&'static str),
    /// A reporter that is not a player of the match.
    #[error("a match has two players (0 and 1)")]
    NotAPlayer,
}

impl MatchResult {
    /// Returns whether the result counts: confirmed by both players, or final.
    pub fn is_decided(&self) -> bool {
        matches!(self.state, ResultState::Confirmed | ResultState::Final)
    }
}

/// Records `by`'s report of `games` on a match whose result is `current`.
pub fn report(
    current: Option<&MatchResult>,
    by: Reporter,
    games: [u32; 2],
) -> Result<MatchResult, ResultError> {
    if games.iter().any(|won| *won > MAX_GAMES) {
        return Err(ResultError::TooManyGames);
    }
    let side = match by {
        Reporter::Organizer => {
            return Ok(MatchResult {
                games,
                state: ResultState::Final,
                claims: current.map_or([None, None], |result| result.claims),
            });
        }
        Reporter::Player(side) if side < 2 => side,
        Reporter::Player(_) => return Err(ResultError::NotAPlayer),
    };
    let mut claims = current.map_or([None, None], |result| result.claims);
    if let Some(result) = current
        && result.is_decided()
    {
        return Err(ResultError::AlreadyDecided(result.state.name()));
    }
    claims[side] = Some(games);
    let state = match claims[1 - side] {
        None => ResultState::Reported,
        Some(other) if other == games => ResultState::Confirmed,
        Some(_) => ResultState::Disputed,
    };
    Ok(MatchResult {
        games,
        state,
        claims,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opponent_confirms_the_same_games_and_a_different_claim_is_disputed() {
        let reported = report(None, Reporter::Player(0), [2, 1]).expect("reported");
        assert_eq!(reported.state, ResultState::Reported);
        assert!(!reported.is_decided());
        let confirmed = report(Some(&reported), Reporter::Player(1), [2, 1]).expect("confirmed");
        assert_eq!(confirmed.state, ResultState::Confirmed);
        assert!(confirmed.is_decided());
        let disputed = report(Some(&reported), Reporter::Player(1), [1, 2]).expect("disputed");
        assert_eq!(disputed.state, ResultState::Disputed);
        assert_eq!(disputed.claims, [Some([2, 1]), Some([1, 2])]);
        // A player settles the dispute by agreeing.
        let settled = report(Some(&disputed), Reporter::Player(0), [1, 2]).expect("settled");
        assert_eq!(settled.state, ResultState::Confirmed);
        assert_eq!(settled.games, [1, 2]);
    }

    #[test]
    fn a_player_may_change_their_own_report_until_it_is_decided() {
        let first = report(None, Reporter::Player(1), [0, 2]).expect("reported");
        let again = report(Some(&first), Reporter::Player(1), [1, 2]).expect("changed");
        assert_eq!(again.state, ResultState::Reported);
        assert_eq!(again.claims, [None, Some([1, 2])]);
        let confirmed = report(Some(&again), Reporter::Player(0), [1, 2]).expect("confirmed");
        assert_eq!(
            report(Some(&confirmed), Reporter::Player(0), [2, 0]),
            Err(ResultError::AlreadyDecided("confirmed"))
        );
    }

    #[test]
    fn an_organizer_enters_or_corrects_any_result_as_final() {
        let entered = report(None, Reporter::Organizer, [2, 0]).expect("final");
        assert_eq!(entered.state, ResultState::Final);
        let confirmed = report(
            Some(&report(None, Reporter::Player(0), [2, 1]).expect("reported")),
            Reporter::Player(1),
            [2, 1],
        )
        .expect("confirmed");
        let corrected = report(Some(&confirmed), Reporter::Organizer, [1, 2]).expect("corrected");
        assert_eq!(corrected.state, ResultState::Final);
        assert_eq!(corrected.games, [1, 2]);
        assert_eq!(
            corrected.claims, confirmed.claims,
            "the players' claims stay on record"
        );
        assert_eq!(
            report(Some(&corrected), Reporter::Player(1), [0, 2]),
            Err(ResultError::AlreadyDecided("final"))
        );
    }

    #[test]
    fn refuses_impossible_reports() {
        assert_eq!(
            report(None, Reporter::Player(0), [100, 0]),
            Err(ResultError::TooManyGames)
        );
        assert_eq!(
            report(None, Reporter::Player(2), [1, 0]),
            Err(ResultError::NotAPlayer)
        );
        // A draw with no games played is a result like any other.
        assert!(report(None, Reporter::Player(0), [0, 0]).is_ok());
    }
}
