//! The games the platform serves: one plain Rust type for every service (its domain included),
//! its short name in URLs, on the command line, in JSON and in storage, and its wire form, the
//! `turnier.common.v1.Game` enum, whose unspecified value (0) and unknown values name no game.
//!
//! It lives in `proto` because services meet only in `proto` and `kit`: the game is part of
//! every contract. Domain modules may use this module (and only this one of `proto`) freely.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::common::v1::Game as WireGame;

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

impl From<Game> for WireGame {
    fn from(game: Game) -> Self {
        match game {
            Game::Lor => WireGame::Lor,
            Game::Pokemon => WireGame::Pokemon,
            Game::Riftbound => WireGame::Riftbound,
        }
    }
}

/// Returns the enum value a message field carries for `game`.
pub fn to_wire(game: Game) -> i32 {
    WireGame::from(game) as i32
}

/// Reads a message field's enum value; `None` for unspecified or unknown values.
pub fn from_wire(value: i32) -> Option<Game> {
    match WireGame::try_from(value).ok()? {
        WireGame::Lor => Some(Game::Lor),
        WireGame::Pokemon => Some(Game::Pokemon),
        WireGame::Riftbound => Some(Game::Riftbound),
        WireGame::Unspecified => None,
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

    #[test]
    fn every_game_round_trips_through_its_wire_value() {
        for game in Game::ALL {
            assert_eq!(from_wire(to_wire(game)), Some(game));
        }
        assert_eq!(from_wire(0), None);
        assert_eq!(from_wire(99), None);
    }
}
