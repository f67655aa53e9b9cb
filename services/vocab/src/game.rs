//! The games the platform serves: one type for every service, and its short name in URLs, on
//! the command line, in JSON and in storage. Its protobuf enum value is `proto`'s business.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A game the platform serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Game {
    /// Legends of Runeterra, `lor`.
    Lor,
    /// Pokémon TCG, `pokemon`.
    Pokemon,
    /// Riftbound, `riftbound`.
    Riftbound,
}

impl Game {
    /// Every game, in the order they are listed.
    pub const ALL: [Game; 3] = [Game::Lor, Game::Pokemon, Game::Riftbound];

    /// Returns the short name used in URLs, on the command line, in JSON and in storage.
    pub const fn name(self) -> &'static str {
        match self {
            Game::Lor => "lor",
            Game::Pokemon => "pokemon",
            Game::Riftbound => "riftbound",
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a game name that is not one of [`Game::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game `{0}` (expected lor, pokemon or riftbound)")]
pub struct UnknownGame(pub String);

impl FromStr for Game {
    type Err = UnknownGame;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Game::ALL
            .into_iter()
            .find(|game| game.name() == s)
            .ok_or_else(|| UnknownGame(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_round_trips_through_its_name_and_json() {
        for game in Game::ALL {
            assert_eq!(game.name().parse::<Game>(), Ok(game));
            assert_eq!(game.to_string(), game.name());
            let json = serde_json::to_value(game).unwrap();
            assert_eq!(json, serde_json::Value::String(game.name().to_owned()));
            assert_eq!(serde_json::from_value::<Game>(json).unwrap(), game);
        }
        assert_eq!(
            "chess".parse::<Game>(),
            Err(UnknownGame("chess".to_owned()))
        );
    }
}
