//! What a tournament's deck settings may hold, and the rules it uses when the organizer picks
//! none: each game's built-in rule of each scope (`guide-rulesets.md`: "A tournament always
//! uses exactly one rule of each scope").

use crate::domain::defaults::Game;

/// The most decks a player brings.
pub const MAX_DECKS: u32 = 10;

/// The most banned cards.
pub const MAX_BANNED: usize = 500;

/// The longest card ref.
pub const MAX_REF_BYTES: usize = 64;

/// A rule's scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every card.
    Card,
    /// Every deck.
    Deck,
    /// The lineup.
    Deckset,
}

impl Scope {
    /// Every scope, in the order they run.
    pub const ALL: [Scope; 3] = [Scope::Card, Scope::Deck, Scope::Deckset];

    /// The scope's name (`card`, `deck`, `deckset`).
    pub fn name(self) -> &'static str {
        match self {
            Scope::Card => "card",
            Scope::Deck => "deck",
            Scope::Deckset => "deckset",
        }
    }
}

/// The built-in rule a tournament of `game` uses for `scope` when the organizer picks none.
pub fn default_rule(game: Game, scope: Scope) -> &'static str {
    match (game, scope) {
        (Game::Lor, Scope::Card) => "lor-standard",
        (Game::Lor, Scope::Deck) => "lor-riot-constructed",
        (Game::Lor, Scope::Deckset) => "lor-riot-lock",
        (Game::Pokemon, Scope::Card) => "pokemon-standard",
        (Game::Pokemon, Scope::Deck) => "pokemon-constructed",
        (Game::Pokemon, Scope::Deckset) => "pokemon-any-lineup",
        (Game::Riftbound, Scope::Card) => "riftbound-standard",
        (Game::Riftbound, Scope::Deck) => "riftbound-constructed",
        (Game::Riftbound, Scope::Deckset) => "riftbound-any-lineup",
    }
}
