//! The scoring settings of a stage: points, bye handling, tiebreakers, the match-win formula and
//! the floors, as the event file of the offline tool carries them.
//!
//! These settings decide standings. How a stage pairs its players and which defaults each game
//! starts from live in [`super::defaults`].

use serde::{Deserialize, Serialize};

/// The most points one result (a win, a draw, a loss, a bye, a place in a lobby, an
/// elimination) may be worth. Games score 3 / 1 / 0 or thereabouts; the bound keeps every
/// total (at most [`MAX_ROUNDS`] results) and tiebreaker built from them far from where
/// floating point loses whole points.
pub const MAX_POINTS: f64 = 1_000.0;

/// The most rounds a Swiss stage plays: 13 rounds leave one undefeated player of 8,192 (the
/// guide's table), the largest open events play about 18 over two days; beyond this no event
/// goes, and each round is a pairing of the whole field.
pub const MAX_ROUNDS: u32 = 64;

/// Points a match result is worth.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Points {
    /// Points for a match win.
    pub win: f64,
    /// Points for a drawn match.
    pub draw: f64,
    /// Points for a match loss (also for each round a late registrant missed).
    pub loss: f64,
    /// Points per bye, when byes award full points.
    pub bye: f64,
}

impl Points {
    /// Returns the usual 3 / 1 / 0 points with a bye worth a win.
    pub const fn three_one_zero() -> Self {
        Self {
            win: 3.0,
            draw: 1.0,
            loss: 0.0,
            bye: 3.0,
        }
    }
}

/// What sitting out a round is worth (the page's Byes section).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByeHandling {
    /// The bye counts as a match win worth the points per bye.
    FullPoints,
    /// The player sits out and gets nothing: no points, nothing added to the record.
    ZeroPoints,
    /// As [`ByeHandling::ZeroPoints`]: the player still sits out, for nothing.
    NoByes,
}

impl ByeHandling {
    /// Tells whether a bye counts as a won match worth the points per bye.
    pub const fn awards_points(self) -> bool {
        matches!(self, Self::FullPoints)
    }
}

/// How a match-win percentage is worked out from a record (the page's formula table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchWinFormula {
    /// Match points over the points for a win times the matches played (Magic Tournament
    /// Rules, Appendix C); a full-points bye is a won match.
    MatchPoints,
    /// Wins over rounds played (Play! Pokémon handbook 5.3.3.1); a draw is no win and a bye is
    /// neither a win nor a round played.
    WinsOverRounds,
}

/// A tiebreaker, by the value the page gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreaker {
    /// Points earned against the others tied on the same points.
    HeadToHead,
    /// Games won minus games lost over every match.
    ScoreDifference,
    /// Games won over games played, raised to the game-win floor.
    GameWinPercentage,
    /// Games won over every match.
    PointsScored,
    /// The sum of the opponents' current points.
    Buchholz,
    /// Buchholz without the best and the worst opponent (with more than two opponents).
    MedianBuchholz,
    /// Points of beaten opponents plus half the points of drawn opponents.
    SonnebornBerger,
    /// The average of the opponents' match-win percentages, each raised to the floor (OMW%).
    OpponentMatchWinPercentage,
    /// The opponents' OMW%, weighted by how many opponents each has played (OOMW%).
    OpponentOpponentMatchWinPercentage,
    /// The average of the opponents' game-win percentages, each raised to the floor (OGW%).
    OpponentGameWinPercentage,
}

impl Tiebreaker {
    /// Every tiebreaker, in the order of the page's table.
    pub const ALL: [Self; 10] = [
        Self::HeadToHead,
        Self::ScoreDifference,
        Self::GameWinPercentage,
        Self::PointsScored,
        Self::Buchholz,
        Self::MedianBuchholz,
        Self::SonnebornBerger,
        Self::OpponentMatchWinPercentage,
        Self::OpponentOpponentMatchWinPercentage,
        Self::OpponentGameWinPercentage,
    ];

    /// Returns the value the page and the event format name it by.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::HeadToHead => "head_to_head",
            Self::ScoreDifference => "score_difference",
            Self::GameWinPercentage => "game_win_percentage",
            Self::PointsScored => "points_scored",
            Self::Buchholz => "buchholz",
            Self::MedianBuchholz => "median_buchholz",
            Self::SonnebornBerger => "sonneborn_berger",
            Self::OpponentMatchWinPercentage => "opponent_match_win_percentage",
            Self::OpponentOpponentMatchWinPercentage => "opponent_opponent_match_win_percentage",
            Self::OpponentGameWinPercentage => "opponent_game_win_percentage",
        }
    }

    /// Tells whether a round-robin stage offers it (the page's "Available in" column); every
    /// tiebreaker is available in Swiss.
    pub const fn is_available_in_round_robin(self) -> bool {
        matches!(
            self,
            Self::HeadToHead | Self::ScoreDifference | Self::GameWinPercentage | Self::PointsScored
        )
    }
}

impl std::fmt::Display for Tiebreaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Everything standings depend on: the `settings` object of an event file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoringSettings {
    /// Points per result.
    pub points: Points,
    /// What a bye is worth.
    pub bye_handling: ByeHandling,
    /// The tiebreakers, applied in this order after points.
    pub tiebreakers: Vec<Tiebreaker>,
    /// The match-win formula; `None` is the page's "Not set": wins plus half of draws over
    /// matches played.
    #[serde(default)]
    pub match_win_formula: Option<MatchWinFormula>,
    /// The floor each opponent's match-win percentage is raised to, as a fraction.
    #[serde(default)]
    pub opponent_match_win_floor: Option<f64>,
    /// The floor game-win percentages are raised to, as a fraction.
    #[serde(default)]
    pub game_win_floor: Option<f64>,
}

/// A setting that cannot be used, naming the setting.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SettingsError {
    /// A number that must be finite and not negative is not.
    #[error("setting `{setting}` must be a number of 0 or more, not {value}")]
    NegativeOrNotANumber {
        /// The setting, as the event file names it (`points.win`).
        setting: &'static str,
        /// The value given.
        value: f64,
    },
    /// The points for a win are 0, so a win would be worth no more than nothing.
    #[error("setting `points.win` must be greater than 0")]
    WinWorthNothing,
    /// A floor is not a fraction.
    #[error("setting `{setting}` must be a fraction from 0 to 1, not {value}")]
    FloorNotAFraction {
        /// The floor's setting name.
        setting: &'static str,
        /// The value given.
        value: f64,
    },
    /// A tiebreaker appears twice in the order.
    #[error("setting `tiebreakers` lists `{0}` twice")]
    RepeatedTiebreaker(Tiebreaker),
    /// A tiebreaker the stage's format does not offer.
    #[error("setting `tiebreakers`: `{0}` is available in Swiss only, not in round robin")]
    TiebreakerNotInRoundRobin(Tiebreaker),
    /// A count that must be at least one is zero.
    #[error("setting `{0}` must be at least 1")]
    Zero(&'static str),
    /// A number over its upper bound (issue 35: a Swiss stage of a million rounds was taken).
    #[error("setting `{setting}` must be at most {max}, not {value}")]
    TooLarge {
        /// The setting, as the event file names it (`rounds`, `points.win`).
        setting: &'static str,
        /// The bound.
        max: f64,
        /// The value given.
        value: f64,
    },
    /// Two settings that cannot go together.
    #[error("setting `{setting}` {reason}")]
    Conflict {
        /// The setting that has to change.
        setting: &'static str,
        /// Why, as the end of a sentence.
        reason: &'static str,
    },
}

/// Refuses `value` of `setting` above `max`.
pub fn at_most(
    setting: &'static str,
    value: impl Into<f64>,
    max: impl Into<f64>,
) -> Result<(), SettingsError> {
    let (value, max) = (value.into(), max.into());
    if value > max {
        return Err(SettingsError::TooLarge {
            setting,
            max,
            value,
        });
    }
    Ok(())
}

/// Refuses points of `setting` that are negative, not numbers, or over [`MAX_POINTS`].
pub fn validate_points(setting: &'static str, value: f64) -> Result<(), SettingsError> {
    if !value.is_finite() || value < 0.0 {
        return Err(SettingsError::NegativeOrNotANumber { setting, value });
    }
    at_most(setting, value, MAX_POINTS)
}

impl Points {
    /// Refuses points that are negative, not numbers or over [`MAX_POINTS`], and a win worth 0.
    pub fn validate(&self) -> Result<(), SettingsError> {
        for (setting, value) in [
            ("points.win", self.win),
            ("points.draw", self.draw),
            ("points.loss", self.loss),
            ("points.bye", self.bye),
        ] {
            validate_points(setting, value)?;
        }
        if self.win == 0.0 {
            return Err(SettingsError::WinWorthNothing);
        }
        Ok(())
    }
}

/// Refuses a tiebreaker order that lists one tiebreaker twice.
pub fn validate_tiebreakers(tiebreakers: &[Tiebreaker]) -> Result<(), SettingsError> {
    for (at, tiebreaker) in tiebreakers.iter().enumerate() {
        if tiebreakers[..at].contains(tiebreaker) {
            return Err(SettingsError::RepeatedTiebreaker(*tiebreaker));
        }
    }
    Ok(())
}

/// Refuses a floor that is not a fraction from 0 to 1.
pub fn validate_floor(setting: &'static str, floor: Option<f64>) -> Result<(), SettingsError> {
    match floor {
        Some(value) if !(0.0..=1.0).contains(&value) => {
            Err(SettingsError::FloorNotAFraction { setting, value })
        }
        _ => Ok(()),
    }
}

impl ScoringSettings {
    /// Refuses settings standings cannot be computed with, naming the setting.
    pub fn validate(&self) -> Result<(), SettingsError> {
        self.points.validate()?;
        validate_tiebreakers(&self.tiebreakers)?;
        validate_floor("opponent_match_win_floor", self.opponent_match_win_floor)?;
        validate_floor("game_win_floor", self.game_win_floor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> ScoringSettings {
        ScoringSettings {
            points: Points::three_one_zero(),
            bye_handling: ByeHandling::FullPoints,
            tiebreakers: vec![Tiebreaker::Buchholz],
            match_win_formula: None,
            opponent_match_win_floor: None,
            game_win_floor: None,
        }
    }

    #[test]
    fn accepts_the_usual_settings() {
        assert_eq!(settings().validate(), Ok(()));
    }

    #[test]
    fn refuses_a_negative_draw_naming_the_setting() {
        let mut settings = settings();
        settings.points.draw = -1.0;
        let err = settings.validate().unwrap_err();
        assert!(err.to_string().contains("`points.draw`"), "{err}");
    }

    #[test]
    fn refuses_points_over_the_bound_naming_the_setting_and_the_bound() {
        let mut settings = settings();
        settings.points.bye = 1e12;
        let err = settings.validate().unwrap_err();
        assert_eq!(
            err.to_string(),
            "setting `points.bye` must be at most 1000, not 1000000000000"
        );
        settings.points.bye = MAX_POINTS;
        assert_eq!(settings.validate(), Ok(()));
    }

    #[test]
    fn refuses_a_win_worth_nothing() {
        let mut settings = settings();
        settings.points.win = 0.0;
        assert_eq!(settings.validate(), Err(SettingsError::WinWorthNothing));
    }

    #[test]
    fn refuses_a_floor_above_one_naming_the_setting() {
        let mut settings = settings();
        settings.game_win_floor = Some(33.0);
        let err = settings.validate().unwrap_err();
        assert!(err.to_string().contains("`game_win_floor`"), "{err}");
    }

    #[test]
    fn refuses_a_tiebreaker_listed_twice() {
        let mut settings = settings();
        settings.tiebreakers.push(Tiebreaker::Buchholz);
        assert_eq!(
            settings.validate(),
            Err(SettingsError::RepeatedTiebreaker(Tiebreaker::Buchholz))
        );
    }

    #[test]
    fn reads_every_tiebreaker_by_its_page_value() {
        for tiebreaker in Tiebreaker::ALL {
            let json = format!("\"{}\"", tiebreaker.as_str());
            let read: Tiebreaker = serde_json::from_str(&json).expect("a known value");
            assert_eq!(read, tiebreaker);
        }
    }

    #[test]
    fn reads_a_missing_formula_and_floors_as_not_set() {
        let json = r#"{"points": {"win": 3, "draw": 1, "loss": 0, "bye": 3},
            "bye_handling": "no_byes", "tiebreakers": []}"#;
        let read: ScoringSettings = serde_json::from_str(json).expect("valid settings");
        assert_eq!(read.match_win_formula, None);
        assert_eq!(read.opponent_match_win_floor, None);
    }
}
