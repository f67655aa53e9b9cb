//! The wire form of [`vocab::Game`]: the `turnier.common.v1.Game` enum, whose unspecified value
//! (0) and unknown values name no game.

use vocab::Game;

use crate::common::v1::Game as WireGame;

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
    fn every_game_round_trips_through_its_wire_value() {
        for game in Game::ALL {
            assert_eq!(from_wire(to_wire(game)), Some(game));
        }
        assert_eq!(from_wire(0), None);
        assert_eq!(from_wire(99), None);
    }
}
