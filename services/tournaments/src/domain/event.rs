//! The event model: players, rounds and what happened in each round (matches with their game
//! scores, byes, late entrants' missed rounds, drops), in the JSON of the offline tool's event
//! file.
//!
//! An [`Event`] only holds results. Standings are computed in [`super::standings`]; what the
//! settings mean is described in [`super::settings`]. Reading the event file's text (and the
//! errors its JSON gets) is the crate's `offline` module; [`Event::validate`] is the check it
//! ends with.

use serde::{Deserialize, Serialize};

use super::settings::{ScoringSettings, SettingsError};

/// A player's id within an event (the event file's `id`, a name or a registration id).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub String);

impl PlayerId {
    /// Returns the id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for PlayerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for PlayerId {
    fn from(id: &str) -> Self {
        Self(id.to_owned())
    }
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    /// The player's id, unique in the event.
    pub id: PlayerId,
    /// The initial seed: the last tiebreaker, lower is better.
    pub seed: u32,
    /// The player's rating, for rating seeding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    /// Whether the player has dropped: never paired again, but keeps their standing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dropped: bool,
}

/// What one player or pair did in one round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "EntryJson", into = "EntryJson")]
pub enum Entry {
    /// A match, with the games each player won (a draw when they are equal).
    Match {
        /// The two players, in the order of `games`.
        players: [PlayerId; 2],
        /// Games won by each player.
        games: [u32; 2],
    },
    /// The player sat out the round.
    Bye(PlayerId),
    /// The player registered late and this round was complete when they joined: a loss with
    /// no opponent, not a bye.
    LateLoss(PlayerId),
}

impl Entry {
    /// Returns the players the entry is about.
    pub fn players(&self) -> &[PlayerId] {
        match self {
            Self::Match { players, .. } => players,
            Self::Bye(player) | Self::LateLoss(player) => std::slice::from_ref(player),
        }
    }
}

/// The JSON of an entry: `{"players": [a, b], "games": [x, y]}`, `{"players": [a], "bye":
/// true}` or `{"players": [a], "late_loss": true}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryJson {
    players: Vec<PlayerId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    games: Option<[u32; 2]>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    bye: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    late_loss: bool,
}

/// An entry whose members do not describe a match, a bye or a late loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// An entry with `games` does not name two players.
    #[error("a match has 2 players, not {0}")]
    MatchNotOfTwo(usize),
    /// A bye or a late loss does not name one player.
    #[error("a bye or a late loss has 1 player, not {0}")]
    ByeOrLateLossNotOfOne(usize),
    /// The entry has none of `games`, `bye` and `late_loss`, or more than one.
    #[error("an entry is a match with `games`, a `bye` or a `late_loss`")]
    NotOneKind,
}

impl TryFrom<EntryJson> for Entry {
    type Error = EntryError;

    fn try_from(json: EntryJson) -> Result<Self, EntryError> {
        let EntryJson {
            mut players,
            games,
            bye,
            late_loss,
        } = json;
        match (games, bye, late_loss, players.len()) {
            (Some(games), false, false, 2) => {
                let second = players.pop().expect("two players");
                let first = players.pop().expect("two players");
                Ok(Self::Match {
                    players: [first, second],
                    games,
                })
            }
            (Some(_), false, false, n) => Err(EntryError::MatchNotOfTwo(n)),
            (None, true, false, 1) => Ok(Self::Bye(players.pop().expect("one player"))),
            (None, false, true, 1) => Ok(Self::LateLoss(players.pop().expect("one player"))),
            (None, true, false, n) | (None, false, true, n) => {
                Err(EntryError::ByeOrLateLossNotOfOne(n))
            }
            _ => Err(EntryError::NotOneKind),
        }
    }
}

impl From<Entry> for EntryJson {
    fn from(entry: Entry) -> Self {
        match entry {
            Entry::Match { players, games } => Self {
                players: players.into(),
                games: Some(games),
                bye: false,
                late_loss: false,
            },
            Entry::Bye(player) => Self {
                players: vec![player],
                games: None,
                bye: true,
                late_loss: false,
            },
            Entry::LateLoss(player) => Self {
                players: vec![player],
                games: None,
                bye: false,
                late_loss: true,
            },
        }
    }
}

/// One round's entries.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Round(pub Vec<Entry>);

/// A stage's results so far: the event file of `turnier tournament standings`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    /// How results are scored and ranked.
    pub settings: ScoringSettings,
    /// Every registered player, late entrants and dropped players included.
    pub players: Vec<Player>,
    /// The completed rounds, in order.
    #[serde(default)]
    pub rounds: Vec<Round>,
}

/// An event whose players or rounds do not fit together, or whose settings are refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EventError {
    /// A setting is refused.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// Two players share an id.
    #[error("player `{0}` is registered twice")]
    DuplicatePlayer(PlayerId),
    /// A round names a player who is not registered.
    #[error("round {round} names `{player}`, who is not a registered player")]
    UnknownPlayer {
        /// The round, from 1.
        round: usize,
        /// The unknown id.
        player: PlayerId,
    },
    /// A late loss comes after the player already took part in a round: late entrants only
    /// lose the rounds completed before they joined.
    #[error("round {round} gives `{player}` a late loss after they already played")]
    LateLossAfterPlaying {
        /// The round, from 1.
        round: usize,
        /// The player.
        player: PlayerId,
    },
    /// A player has two entries in one round, or plays themself.
    #[error("round {round} has `{player}` more than once")]
    PlayerTwiceInRound {
        /// The round, from 1.
        round: usize,
        /// The player.
        player: PlayerId,
    },
}

impl Event {
    /// Checks the settings, that ids are unique, and that each round names registered players,
    /// each at most once.
    pub fn validate(&self) -> Result<(), EventError> {
        self.settings.validate()?;
        let mut ids = std::collections::HashSet::new();
        for player in &self.players {
            if !ids.insert(&player.id) {
                return Err(EventError::DuplicatePlayer(player.id.clone()));
            }
        }
        let mut has_played = std::collections::HashSet::new();
        for (at, round) in self.rounds.iter().enumerate() {
            let round_number = at + 1;
            for entry in &round.0 {
                if let Entry::LateLoss(player) = entry
                    && has_played.contains(player)
                {
                    return Err(EventError::LateLossAfterPlaying {
                        round: round_number,
                        player: player.clone(),
                    });
                }
            }
            let mut seen = std::collections::HashSet::new();
            for player in round.0.iter().flat_map(Entry::players) {
                if !ids.contains(player) {
                    return Err(EventError::UnknownPlayer {
                        round: round_number,
                        player: player.clone(),
                    });
                }
                if !seen.insert(player) {
                    return Err(EventError::PlayerTwiceInRound {
                        round: round_number,
                        player: player.clone(),
                    });
                }
            }
            has_played.extend(
                round
                    .0
                    .iter()
                    .filter_map(|entry| match entry {
                        Entry::Match { players, .. } => Some(players.as_slice()),
                        Entry::Bye(player) => Some(std::slice::from_ref(player)),
                        Entry::LateLoss(_) => None,
                    })
                    .flatten(),
            );
        }
        Ok(())
    }

    /// Returns the position of each player in [`Event::players`], by id.
    pub fn player_index(&self) -> std::collections::HashMap<&PlayerId, usize> {
        self.players
            .iter()
            .enumerate()
            .map(|(at, player)| (&player.id, at))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTINGS: &str = r#""settings": {"points": {"win": 3, "draw": 1, "loss": 0, "bye": 3},
        "bye_handling": "full_points", "tiebreakers": ["buchholz"],
        "match_win_formula": null, "opponent_match_win_floor": null, "game_win_floor": null}"#;

    fn json(players: &str, rounds: &str) -> String {
        format!("{{{SETTINGS}, \"players\": {players}, \"rounds\": {rounds}}}")
    }

    /// Reads an event of the event file's shape, and checks it.
    fn event(players: &str, rounds: &str) -> Result<Event, EventError> {
        let event: Event =
            serde_json::from_str(&json(players, rounds)).expect("the shape of an event");
        event.validate().map(|()| event)
    }

    const PLAYERS: &str = r#"[{"id": "Ana", "seed": 1}, {"id": "Ben", "seed": 2},
        {"id": "Eli", "seed": 3}, {"id": "Zed", "seed": 4, "dropped": true}]"#;

    #[test]
    fn reads_matches_byes_and_late_losses() {
        let event = event(
            PLAYERS,
            r#"[[{"players": ["Ana", "Ben"], "games": [2, 0]}, {"players": ["Eli"], "bye": true},
                 {"players": ["Zed"], "late_loss": true}]]"#,
        )
        .expect("a valid event");
        assert_eq!(
            event.rounds[0].0,
            vec![
                Entry::Match {
                    players: ["Ana".into(), "Ben".into()],
                    games: [2, 0]
                },
                Entry::Bye("Eli".into()),
                Entry::LateLoss("Zed".into()),
            ]
        );
        assert!(event.players[3].dropped);
    }

    #[test]
    fn writes_entries_back_in_the_same_shape() {
        let entry = Entry::Bye("Eli".into());
        let json = serde_json::to_string(&entry).expect("serializable");
        assert_eq!(json, r#"{"players":["Eli"],"bye":true}"#);
    }

    #[test]
    fn refuses_a_match_with_three_players() {
        let err = serde_json::from_str::<Event>(&json(
            PLAYERS,
            r#"[[{"players": ["Ana", "Ben", "Eli"], "games": [2, 0]}]]"#,
        ))
        .unwrap_err();
        assert!(err.to_string().contains("2 players"), "{err}");
    }

    #[test]
    fn refuses_an_unknown_player() {
        let err = event(
            PLAYERS,
            r#"[[{"players": ["Ana", "Max"], "games": [2, 0]}]]"#,
        );
        assert_eq!(
            err,
            Err(EventError::UnknownPlayer {
                round: 1,
                player: "Max".into()
            })
        );
    }

    #[test]
    fn refuses_a_player_twice_in_a_round() {
        let err = event(
            PLAYERS,
            r#"[[{"players": ["Ana", "Ben"], "games": [2, 0]}, {"players": ["Ana"], "bye": true}]]"#,
        );
        assert_eq!(
            err,
            Err(EventError::PlayerTwiceInRound {
                round: 1,
                player: "Ana".into()
            })
        );
    }

    #[test]
    fn refuses_a_late_loss_after_the_player_played() {
        let err = event(
            PLAYERS,
            r#"[[{"players": ["Ana", "Ben"], "games": [2, 0]}], [{"players": ["Ana"], "late_loss": true}]]"#,
        );
        assert_eq!(
            err,
            Err(EventError::LateLossAfterPlaying {
                round: 2,
                player: "Ana".into()
            })
        );
    }

    #[test]
    fn refuses_a_duplicate_registration() {
        let err = event(
            r#"[{"id": "Ana", "seed": 1}, {"id": "Ana", "seed": 2}]"#,
            "[]",
        );
        assert_eq!(err, Err(EventError::DuplicatePlayer("Ana".into())));
    }
}
