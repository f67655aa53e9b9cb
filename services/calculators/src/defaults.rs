//! The default calculator of each game, **Deck breakdown**: an ordinary calculator script of
//! ours (`defaults/<game>.js`, embedded at compile time), on for everyone until they switch it
//! off, read by anyone and changed by no one, and duplicated like any other calculator.
//!
//! Each shows what the calculators guide's table lists for its game and draws, widget for
//! widget, what the reference page's default dashboard draws; a platform test runs both on
//! real decks (`tests/platform/script_pools/calculator_builder.rs`).

use proto::game::Game;

/// A default calculator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefaultCalculator {
    /// Its fixed id (`lor-deck-breakdown`).
    pub id: &'static str,
    /// Its game.
    pub game: Game,
    /// Its name.
    pub name: &'static str,
    /// Its JavaScript source.
    pub source: &'static str,
}

/// Every default calculator, one per game.
pub const ALL: [DefaultCalculator; 3] = [
    DefaultCalculator {
        id: "lor-deck-breakdown",
        game: Game::Lor,
        name: "Deck breakdown",
        source: include_str!("../defaults/lor.js"),
    },
    DefaultCalculator {
        id: "pokemon-deck-breakdown",
        game: Game::Pokemon,
        name: "Deck breakdown",
        source: include_str!("../defaults/pokemon.js"),
    },
    DefaultCalculator {
        id: "riftbound-deck-breakdown",
        game: Game::Riftbound,
        name: "Deck breakdown",
        source: include_str!("../defaults/riftbound.js"),
    },
];

/// Returns the default calculator `id`.
pub fn get(id: &str) -> Option<&'static DefaultCalculator> {
    ALL.iter().find(|calculator| calculator.id == id)
}

/// Returns the default calculator of `game`.
pub fn of_game(game: Game) -> &'static DefaultCalculator {
    ALL.iter()
        .find(|calculator| calculator.game == game)
        .expect("every game has a default calculator")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_one_deck_breakdown_with_a_compute_function() {
        for game in [Game::Lor, Game::Pokemon, Game::Riftbound] {
            let default = of_game(game);
            assert_eq!(default.name, "Deck breakdown");
            assert_eq!(get(default.id), Some(default));
            assert!(default.id.starts_with(game.name()));
            assert!(
                default
                    .source
                    .contains("export default function compute(pile, cardsById)")
            );
        }
    }
}
