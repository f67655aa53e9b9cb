//! Each game's stage defaults, as data: the page's first table (formats offered, Swiss and
//! round-robin settings) and its free-for-all table, with validation of a stage's settings
//! that names the setting at fault.
//!
//! The match-win formula and the two floors belong to the game and cannot be overridden per
//! stage ([`WinPercentageRules`]); everything else is a starting point the organizer may change.

use serde::{Deserialize, Serialize};

use super::settings::{
    ByeHandling, MAX_ROUNDS, MatchWinFormula, Points, ScoringSettings, SettingsError, Tiebreaker,
    at_most, validate_points, validate_tiebreakers,
};

/// The most players in a free-for-all lobby: pods are 3 to 4 at a table, a battle royale a
/// handful more.
pub const MAX_PLAYERS_PER_LOBBY: u32 = 16;

/// The most matches a free-for-all lobby plays (`matches`, `maximum_matches`): a day of pods
/// is a few; this leaves room for a league.
pub const MAX_LOBBY_MATCHES: u32 = 64;

/// The most points a Threshold Win stage may ask a player to reach: every match's points
/// ([`super::settings::MAX_POINTS`] for a place) over [`MAX_LOBBY_MATCHES`] matches and more.
pub const MAX_POINTS_TO_WIN: f64 = 100_000.0;

pub use proto::game::Game;

/// A stage format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// One loss and you are out.
    SingleElimination,
    /// Out after the second loss, with a losers bracket.
    DoubleElimination,
    /// Everyone plays everyone, once per cycle.
    RoundRobin,
    /// A fixed number of rounds against players on the same record.
    Swiss,
    /// Free-for-all lobbies playing a fixed number of matches; total points decide.
    CumulativePoints,
    /// Free-for-all lobbies playing until someone reaches the points to win.
    ThresholdWin,
}

impl Format {
    /// Every format, in the order the rules page lists them.
    pub const ALL: [Self; 6] = [
        Self::SingleElimination,
        Self::DoubleElimination,
        Self::RoundRobin,
        Self::Swiss,
        Self::CumulativePoints,
        Self::ThresholdWin,
    ];

    /// Tells whether the format is free-for-all (three or more players per game).
    pub const fn is_free_for_all(self) -> bool {
        matches!(self, Self::CumulativePoints | Self::ThresholdWin)
    }

    /// Returns the value the event format and stage configs name it by.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::SingleElimination => "single_elimination",
            Self::DoubleElimination => "double_elimination",
            Self::RoundRobin => "round_robin",
            Self::Swiss => "swiss",
            Self::CumulativePoints => "cumulative_points",
            Self::ThresholdWin => "threshold_win",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who meets whom inside a Swiss score group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairingStyle {
    /// Random pairings within the group (the default).
    RandomWithinScoreGroups,
    /// The top half of the group plays the bottom half, in order.
    Fold,
    /// 1st plays 2nd, 3rd plays 4th, and so on.
    Adjacent,
}

/// How players are ordered before an elimination stage or a Swiss round 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeedingMethod {
    /// The organizer's order (the players' seeds).
    Manual,
    /// A random order drawn from the event's seed.
    Random,
    /// By rating, highest first.
    Rating,
    /// By the previous stage's final standings.
    PriorStage,
}

impl SeedingMethod {
    /// Returns the default for a stage: random for the first stage, prior stage results after.
    pub const fn default_for_stage(is_first_stage: bool) -> Self {
        if is_first_stage {
            Self::Random
        } else {
            Self::PriorStage
        }
    }
}

/// The match-win formula and floors a game imposes on every stage.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WinPercentageRules {
    /// The match-win formula; `None` is "Not set".
    pub match_win_formula: Option<MatchWinFormula>,
    /// The opponent match-win floor, as a fraction.
    pub opponent_match_win_floor: Option<f64>,
    /// The game-win floor, as a fraction.
    pub game_win_floor: Option<f64>,
}

/// A Swiss stage's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwissSettings {
    /// The number of rounds played; the engine never picks it.
    pub rounds: u32,
    /// Points per result.
    pub points: Points,
    /// Whether a match may end in a draw.
    pub allow_draws: bool,
    /// What a bye is worth.
    pub bye_handling: ByeHandling,
    /// Who meets whom inside a score group.
    pub pairing_style: PairingStyle,
    /// Whether a rematch is replaced by the closest rematch-free pairing.
    pub prevent_repeat_matchups: bool,
    /// The tiebreakers, in order.
    pub tiebreakers: Vec<Tiebreaker>,
    /// How round 1 is ordered before it is paired.
    pub first_round_seeding: SeedingMethod,
    /// With late entry on, the last round (from 1) a player may still join through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late_entry_through_round: Option<u32>,
}

/// A round-robin stage's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundRobinSettings {
    /// Points per result.
    pub points: Points,
    /// The tiebreakers, in order.
    pub tiebreakers: Vec<Tiebreaker>,
    /// How many times everyone plays everyone (1 or 2).
    pub cycles: u32,
}

/// What tied players in a free-for-all lobby earn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieScoring {
    /// Each tied player gets the points of the tied place.
    Competition,
    /// Tied players share the points of the places the tie covers.
    Split,
}

/// How free-for-all lobbies are seeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LobbySeeding {
    /// By initial seed.
    InitialSeed,
    /// By current standings.
    CurrentStandings,
    /// At random, from the event's seed.
    Random,
}

/// How seeded players are dealt into lobbies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LobbyDistribution {
    /// 1, 2, 3, 4 into lobbies A, B, C, D, then back: D, C, B, A.
    Snake,
}

/// What decides a threshold-win stage nobody won within the maximum matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IfNoOneWins {
    /// The player with the most points wins.
    HighestPointsWins,
}

/// A free-for-all stage's settings (the page's free-for-all table).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FreeForAllSettings {
    /// Players per lobby.
    pub players_per_lobby: u32,
    /// Points per finishing position: 1st, 2nd, …
    pub placement_points: Vec<f64>,
    /// What tied players earn.
    pub tie_scoring: TieScoring,
    /// Points per opponent eliminated, if set.
    #[serde(default)]
    pub elimination_points: Option<f64>,
    /// Cumulative points: the matches every lobby plays.
    pub matches: u32,
    /// Threshold win: the points a player must reach.
    pub points_to_win: f64,
    /// Threshold win: the finish (1 for 1st) a player needs in the match where they reach the
    /// points to win.
    pub required_finish: u32,
    /// Threshold win: the cap on matches, if any.
    #[serde(default)]
    pub maximum_matches: Option<u32>,
    /// Threshold win: who wins when nobody has within the maximum matches.
    pub if_no_one_wins: IfNoOneWins,
    /// How lobbies are seeded.
    pub lobby_seeding: LobbySeeding,
    /// How seeded players are dealt into lobbies.
    pub lobby_distribution: LobbyDistribution,
    /// Whether lobbies are redrawn between matches.
    pub reshuffle_lobbies: bool,
}

/// Everything a game starts a new stage from.
#[derive(Debug, Clone, PartialEq)]
pub struct GameDefaults {
    /// The formats the create form offers, in the page's order.
    pub formats: &'static [Format],
    /// A new Swiss stage.
    pub swiss: SwissSettings,
    /// A new round-robin stage.
    pub round_robin: RoundRobinSettings,
    /// A new free-for-all stage, for games that offer one.
    pub free_for_all: Option<FreeForAllSettings>,
    /// The formula and floors of every stage, not overridable.
    pub win_percentage: WinPercentageRules,
    /// Whether the create form suggests the Play! Pokémon round count.
    pub recommends_round_count: bool,
}

const ONE_ON_ONE: &[Format] = &[
    Format::SingleElimination,
    Format::DoubleElimination,
    Format::RoundRobin,
    Format::Swiss,
];

const WITH_FREE_FOR_ALL: &[Format] = &Format::ALL;

impl GameDefaults {
    /// Returns `game`'s defaults for new stages, as the page's tables give them.
    pub fn of(game: Game) -> GameDefaults {
        let three_one_zero = Points::three_one_zero();
        // Legends of Runeterra: 3 / 0 / 0, no draws, no byes, Buchholz, no formula, no floors.
        let three_zero_zero = Points {
            draw: 0.0,
            ..three_one_zero
        };
        let swiss = |points, allow_draws, bye_handling, tiebreakers| SwissSettings {
            rounds: 5,
            points,
            allow_draws,
            bye_handling,
            pairing_style: PairingStyle::RandomWithinScoreGroups,
            prevent_repeat_matchups: true,
            tiebreakers,
            first_round_seeding: SeedingMethod::Random,
            late_entry_through_round: None,
        };
        let round_robin = |points| RoundRobinSettings {
            points,
            tiebreakers: vec![Tiebreaker::HeadToHead, Tiebreaker::ScoreDifference],
            cycles: 1,
        };
        match game {
            Game::Lor => GameDefaults {
                formats: ONE_ON_ONE,
                swiss: swiss(
                    three_zero_zero,
                    false,
                    ByeHandling::NoByes,
                    vec![Tiebreaker::Buchholz],
                ),
                round_robin: round_robin(three_zero_zero),
                free_for_all: None,
                win_percentage: WinPercentageRules {
                    match_win_formula: None,
                    opponent_match_win_floor: None,
                    game_win_floor: None,
                },
                recommends_round_count: false,
            },
            Game::Pokemon => GameDefaults {
                formats: ONE_ON_ONE,
                swiss: swiss(
                    three_one_zero,
                    true,
                    ByeHandling::FullPoints,
                    vec![
                        Tiebreaker::OpponentMatchWinPercentage,
                        Tiebreaker::OpponentOpponentMatchWinPercentage,
                    ],
                ),
                round_robin: round_robin(three_one_zero),
                free_for_all: None,
                win_percentage: WinPercentageRules {
                    match_win_formula: Some(MatchWinFormula::WinsOverRounds),
                    opponent_match_win_floor: Some(0.25),
                    game_win_floor: None,
                },
                recommends_round_count: true,
            },
            Game::Riftbound => GameDefaults {
                formats: WITH_FREE_FOR_ALL,
                swiss: swiss(
                    three_one_zero,
                    true,
                    ByeHandling::FullPoints,
                    vec![
                        Tiebreaker::OpponentMatchWinPercentage,
                        Tiebreaker::GameWinPercentage,
                        Tiebreaker::OpponentGameWinPercentage,
                    ],
                ),
                round_robin: round_robin(three_one_zero),
                free_for_all: Some(FreeForAllSettings {
                    players_per_lobby: 4,
                    placement_points: vec![3.0, 2.0, 1.0, 0.0],
                    tie_scoring: TieScoring::Competition,
                    elimination_points: None,
                    matches: 3,
                    points_to_win: 6.0,
                    required_finish: 1,
                    maximum_matches: None,
                    if_no_one_wins: IfNoOneWins::HighestPointsWins,
                    lobby_seeding: LobbySeeding::InitialSeed,
                    lobby_distribution: LobbyDistribution::Snake,
                    reshuffle_lobbies: false,
                }),
                win_percentage: WinPercentageRules {
                    match_win_formula: Some(MatchWinFormula::MatchPoints),
                    opponent_match_win_floor: Some(0.33),
                    game_win_floor: Some(0.33),
                },
                recommends_round_count: false,
            },
        }
    }
}

impl SwissSettings {
    /// Refuses settings a Swiss stage cannot run with, naming the setting.
    pub fn validate(&self) -> Result<(), SettingsError> {
        if self.rounds == 0 {
            return Err(SettingsError::Zero("rounds"));
        }
        at_most("rounds", self.rounds, MAX_ROUNDS)?;
        self.points.validate()?;
        validate_tiebreakers(&self.tiebreakers)?;
        match self.late_entry_through_round {
            Some(0) => Err(SettingsError::Zero("late_entry_through_round")),
            Some(round) if round > self.rounds => Err(SettingsError::Conflict {
                setting: "late_entry_through_round",
                reason: "cannot be after the last round",
            }),
            _ => Ok(()),
        }
    }

    /// Returns the settings standings are computed with: this stage's points, byes and
    /// tiebreakers with the game's formula and floors.
    pub fn scoring(&self, rules: WinPercentageRules) -> ScoringSettings {
        ScoringSettings {
            points: self.points,
            bye_handling: self.bye_handling,
            tiebreakers: self.tiebreakers.clone(),
            match_win_formula: rules.match_win_formula,
            opponent_match_win_floor: rules.opponent_match_win_floor,
            game_win_floor: rules.game_win_floor,
        }
    }
}

impl RoundRobinSettings {
    /// Refuses settings a round-robin stage cannot run with, naming the setting.
    pub fn validate(&self) -> Result<(), SettingsError> {
        self.points.validate()?;
        validate_tiebreakers(&self.tiebreakers)?;
        if let Some(&tiebreaker) = self
            .tiebreakers
            .iter()
            .find(|tiebreaker| !tiebreaker.is_available_in_round_robin())
        {
            return Err(SettingsError::TiebreakerNotInRoundRobin(tiebreaker));
        }
        match self.cycles {
            0 => Err(SettingsError::Zero("cycles")),
            1 | 2 => Ok(()),
            _ => Err(SettingsError::Conflict {
                setting: "cycles",
                reason: "must be 1 or 2",
            }),
        }
    }
}

impl FreeForAllSettings {
    /// Refuses settings a free-for-all stage cannot run with, naming the setting.
    pub fn validate(&self) -> Result<(), SettingsError> {
        if self.players_per_lobby < 3 {
            return Err(SettingsError::Conflict {
                setting: "players_per_lobby",
                reason: "must be at least 3 for a free-for-all",
            });
        }
        at_most(
            "players_per_lobby",
            self.players_per_lobby,
            MAX_PLAYERS_PER_LOBBY,
        )?;
        if usize::try_from(self.players_per_lobby).ok() != Some(self.placement_points.len()) {
            return Err(SettingsError::Conflict {
                setting: "placement_points",
                reason: "must give points for every place in a lobby",
            });
        }
        for (setting, value) in self
            .placement_points
            .iter()
            .map(|&points| ("placement_points", points))
            .chain(self.elimination_points.map(|p| ("elimination_points", p)))
        {
            validate_points(setting, value)?;
        }
        if !self.points_to_win.is_finite() || self.points_to_win < 0.0 {
            return Err(SettingsError::NegativeOrNotANumber {
                setting: "points_to_win",
                value: self.points_to_win,
            });
        }
        at_most("points_to_win", self.points_to_win, MAX_POINTS_TO_WIN)?;
        if self.matches == 0 {
            return Err(SettingsError::Zero("matches"));
        }
        at_most("matches", self.matches, MAX_LOBBY_MATCHES)?;
        if self.maximum_matches == Some(0) {
            return Err(SettingsError::Zero("maximum_matches"));
        }
        if let Some(maximum) = self.maximum_matches {
            at_most("maximum_matches", maximum, MAX_LOBBY_MATCHES)?;
        }
        if self.required_finish == 0 || self.required_finish > self.players_per_lobby {
            return Err(SettingsError::Conflict {
                setting: "required_finish",
                reason: "must be a place in the lobby",
            });
        }
        Ok(())
    }
}

/// Returns the Swiss rounds after which at most one player is undefeated with no draws: the
/// smallest `n` with `2^n` at least the player count (the page's rule of thumb).
pub fn rounds_for_one_undefeated(players: u32) -> u32 {
    players.max(1).next_power_of_two().trailing_zeros()
}

/// Returns the Play! Pokémon handbook's Swiss round count for a number of participants, as the
/// page's table gives it (4 to 1,024 players), or `None` outside the table.
pub fn pokemon_recommended_rounds(players: u32) -> Option<u32> {
    const TABLE: [(u32, u32, u32); 12] = [
        (4, 4, 3),
        (5, 8, 3),
        (9, 12, 4),
        (13, 16, 5),
        (17, 32, 5),
        (33, 64, 6),
        (65, 128, 7),
        (129, 226, 8),
        (227, 256, 9),
        (257, 409, 9),
        (410, 512, 10),
        (513, 1024, 10),
    ];
    TABLE
        .iter()
        .find(|&&(from, to, _)| (from..=to).contains(&players))
        .map(|&(_, _, rounds)| rounds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_stage_is_valid() {
        for game in Game::ALL {
            let defaults = GameDefaults::of(game);
            assert_eq!(defaults.swiss.validate(), Ok(()), "{game:?} swiss");
            assert_eq!(
                defaults.round_robin.validate(),
                Ok(()),
                "{game:?} round robin"
            );
            if let Some(free_for_all) = &defaults.free_for_all {
                assert_eq!(free_for_all.validate(), Ok(()), "{game:?} free-for-all");
            }
            assert_eq!(
                defaults.swiss.scoring(defaults.win_percentage).validate(),
                Ok(())
            );
        }
    }

    #[test]
    fn names_every_format_by_its_json_value() {
        for format in Format::ALL {
            let json = serde_json::to_value(format).expect("serializable");
            assert_eq!(json, format.as_str(), "{format:?}");
        }
    }

    #[test]
    fn only_riftbound_offers_free_for_all() {
        for game in Game::ALL {
            let defaults = GameDefaults::of(game);
            let offers = defaults
                .formats
                .iter()
                .any(|format| format.is_free_for_all());
            assert_eq!(offers, game == Game::Riftbound, "{game:?}");
            assert_eq!(defaults.free_for_all.is_some(), offers, "{game:?}");
        }
    }

    #[test]
    fn legends_of_runeterra_plays_without_draws_or_byes_on_buchholz() {
        let defaults = GameDefaults::of(Game::Lor);
        assert_eq!(defaults.swiss.points.draw, 0.0);
        assert!(!defaults.swiss.allow_draws);
        assert_eq!(defaults.swiss.bye_handling, ByeHandling::NoByes);
        assert_eq!(defaults.swiss.tiebreakers, vec![Tiebreaker::Buchholz]);
        assert_eq!(defaults.win_percentage.match_win_formula, None);
    }

    #[test]
    fn pokemon_uses_wins_over_rounds_with_a_quarter_floor() {
        let defaults = GameDefaults::of(Game::Pokemon);
        assert_eq!(
            defaults.win_percentage,
            WinPercentageRules {
                match_win_formula: Some(MatchWinFormula::WinsOverRounds),
                opponent_match_win_floor: Some(0.25),
                game_win_floor: None,
            }
        );
        assert!(defaults.recommends_round_count);
    }

    #[test]
    fn riftbound_breaks_ties_on_three_percentages_with_33_percent_floors() {
        let defaults = GameDefaults::of(Game::Riftbound);
        assert_eq!(defaults.swiss.tiebreakers.len(), 3);
        assert_eq!(defaults.win_percentage.opponent_match_win_floor, Some(0.33));
        assert_eq!(defaults.win_percentage.game_win_floor, Some(0.33));
        let free_for_all = defaults.free_for_all.expect("Riftbound has free-for-all");
        assert_eq!(free_for_all.placement_points, vec![3.0, 2.0, 1.0, 0.0]);
        assert_eq!(free_for_all.points_to_win, 6.0);
    }

    #[test]
    fn refuses_a_swiss_tiebreaker_in_round_robin_naming_it() {
        let mut settings = GameDefaults::of(Game::Pokemon).round_robin;
        settings.tiebreakers.push(Tiebreaker::Buchholz);
        let err = settings.validate().unwrap_err();
        assert!(err.to_string().contains("`tiebreakers`"), "{err}");
        assert!(err.to_string().contains("buchholz"), "{err}");
    }

    #[test]
    fn refuses_zero_rounds_naming_the_setting() {
        let mut settings = GameDefaults::of(Game::Lor).swiss;
        settings.rounds = 0;
        assert_eq!(settings.validate(), Err(SettingsError::Zero("rounds")));
    }

    #[test]
    fn refuses_a_million_swiss_rounds_naming_the_setting_and_the_bound() {
        let mut settings = GameDefaults::of(Game::Lor).swiss;
        settings.rounds = 1_000_000;
        assert_eq!(
            settings.validate().map_err(|err| err.to_string()),
            Err("setting `rounds` must be at most 64, not 1000000".to_owned())
        );
        settings.rounds = MAX_ROUNDS;
        assert_eq!(settings.validate(), Ok(()));
    }

    #[test]
    fn refuses_every_number_of_a_free_for_all_stage_over_its_bound() {
        let base = GameDefaults::of(Game::Riftbound)
            .free_for_all
            .expect("Riftbound has free-for-all");
        let big_lobby = FreeForAllSettings {
            players_per_lobby: 17,
            placement_points: vec![0.0; 17],
            required_finish: 1,
            ..base.clone()
        };
        let cases: [(&str, FreeForAllSettings); 6] = [
            ("players_per_lobby", big_lobby),
            (
                "placement_points",
                FreeForAllSettings {
                    placement_points: vec![1e9, 2.0, 1.0, 0.0],
                    ..base.clone()
                },
            ),
            (
                "elimination_points",
                FreeForAllSettings {
                    elimination_points: Some(5_000.0),
                    ..base.clone()
                },
            ),
            (
                "points_to_win",
                FreeForAllSettings {
                    points_to_win: 1e7,
                    ..base.clone()
                },
            ),
            (
                "matches",
                FreeForAllSettings {
                    matches: 1_000_000,
                    ..base.clone()
                },
            ),
            (
                "maximum_matches",
                FreeForAllSettings {
                    maximum_matches: Some(65),
                    ..base.clone()
                },
            ),
        ];
        for (setting, settings) in cases {
            match settings.validate() {
                Err(SettingsError::TooLarge { setting: named, .. }) => {
                    assert_eq!(named, setting);
                }
                other => panic!("{setting}: {other:?}"),
            }
        }
        let at_the_bounds = FreeForAllSettings {
            players_per_lobby: MAX_PLAYERS_PER_LOBBY,
            placement_points: vec![super::super::settings::MAX_POINTS; 16],
            matches: MAX_LOBBY_MATCHES,
            maximum_matches: Some(MAX_LOBBY_MATCHES),
            points_to_win: MAX_POINTS_TO_WIN,
            ..base
        };
        assert_eq!(at_the_bounds.validate(), Ok(()));
    }

    #[test]
    fn refuses_late_entry_after_the_last_round() {
        let mut settings = GameDefaults::of(Game::Pokemon).swiss;
        settings.late_entry_through_round = Some(6);
        let err = settings.validate().unwrap_err();
        assert!(
            err.to_string().contains("`late_entry_through_round`"),
            "{err}"
        );
    }

    #[test]
    fn reads_a_swiss_stage_and_refuses_an_unknown_setting() {
        let json =
            serde_json::to_value(GameDefaults::of(Game::Riftbound).swiss).expect("serializable");
        let back: SwissSettings = serde_json::from_value(json.clone()).expect("readable");
        assert_eq!(back, GameDefaults::of(Game::Riftbound).swiss);
        let mut json = json;
        json["roudns"] = 3.into();
        let err = serde_json::from_value::<SwissSettings>(json).unwrap_err();
        assert!(err.to_string().contains("roudns"), "{err}");
    }

    #[test]
    fn the_rule_of_thumb_matches_the_table() {
        for (players, rounds) in [(4, 2), (5, 3), (8, 3), (9, 4), (16, 4), (17, 5), (129, 8)] {
            assert_eq!(rounds_for_one_undefeated(players), rounds, "{players}");
        }
        for (players, rounds) in [(256, 8), (257, 9), (512, 9), (513, 10), (1024, 10)] {
            assert_eq!(rounds_for_one_undefeated(players), rounds, "{players}");
        }
    }

    #[test]
    fn the_pokemon_recommendation_matches_the_table() {
        for (players, rounds) in [
            (4, 3),
            (8, 3),
            (12, 4),
            (13, 5),
            (32, 5),
            (226, 8),
            (227, 9),
            (409, 9),
            (410, 10),
            (1024, 10),
        ] {
            assert_eq!(
                pokemon_recommended_rounds(players),
                Some(rounds),
                "{players}"
            );
        }
        assert_eq!(pokemon_recommended_rounds(3), None);
        assert_eq!(pokemon_recommended_rounds(1025), None);
    }
}
