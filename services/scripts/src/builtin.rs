//! The built-in rules of each game: ordinary JavaScript rule scripts, written by us, that pass
//! the safety check and run in the same sandbox as custom ones (so they can be viewed and
//! duplicated like any other ruleset).
//!
//! The scripts live in `builtin/<game>/<id>.js` beside this crate and are embedded at compile
//! time; each opens with a header naming the official document it follows. Storing rulesets,
//! listing them and running them by id are left to the rulesets store and the gRPC service.

use proto::game::Game;

use crate::domain::rule_result::Scope;

/// One built-in rule: a fixed id, its game and scope, and its script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuiltinRule {
    /// The fixed id acceptance checks and tournaments use (`"lor-standard"`).
    pub id: &'static str,
    /// The game whose cards the rule judges.
    pub game: Game,
    /// The name a player sees in a ruleset picker (`"Standard"`).
    pub name: &'static str,
    /// Which entry point the script provides: `validateCard`, `validateDeck` or `validateDeckset`.
    pub scope: Scope,
    /// The JavaScript module source.
    pub source: &'static str,
    /// The official document (and version) the rule follows, as the script's header names it.
    pub follows: &'static str,
}

/// A built-in rule whose script is `builtin/<folder>/<id>.js`.
macro_rules! rule {
    ($game:ident, $folder:literal, $id:literal, $name:literal, $scope:ident, $follows:expr) => {
        BuiltinRule {
            id: $id,
            game: Game::$game,
            name: $name,
            scope: Scope::$scope,
            source: include_str!(concat!("../builtin/", $folder, "/", $id, ".js")),
            follows: $follows,
        }
    };
}

const LOR_FORMATS: &str =
    "Riot Games, Legends of Runeterra formats, as the Data Dragon set bundles record them (5_12_0)";
const LOR_DECKS: &str =
    "Riot Games, Legends of Runeterra constructed deck building rules (client patch 5.x)";
const LOR_LOCK: &str =
    "Riot Games, Legends of Runeterra official tournament lineup rules, Riot lock (patch 5.x)";
const POKEMON_FORMATS: &str = "Play! Pokémon Tournament Rules Handbook, format legality, as the \
     Pokémon TCG data records it (pokemon-tcg-data 04cd5d99, 2026-01-30)";
const POKEMON_DECKS: &str = "Pokémon TCG Rulebook (Scarlet & Violet series) and the Play! \
     Pokémon Tournament Rules Handbook, deck rules";
const RIFTBOUND: &str = "Riftbound Core Rules v1.3 (Riot Games), 103 Deck Construction";
const ANY_LINEUP: &str = "no official lineup restriction";

/// Every built-in rule, grouped by game, card rules first, then deck and deck set rules.
static ALL: [BuiltinRule; 15] = [
    rule!(Lor, "lor", "lor-standard", "Standard", Card, LOR_FORMATS),
    rule!(Lor, "lor", "lor-eternal", "Eternal", Card, LOR_FORMATS),
    rule!(
        Lor,
        "lor",
        "lor-riot-constructed",
        "Riot constructed",
        Deck,
        LOR_DECKS
    ),
    rule!(Lor, "lor", "lor-riot-lock", "Riot lock", Deckset, LOR_LOCK),
    rule!(
        Pokemon,
        "pokemon",
        "pokemon-standard",
        "Standard",
        Card,
        POKEMON_FORMATS
    ),
    rule!(
        Pokemon,
        "pokemon",
        "pokemon-expanded",
        "Expanded",
        Card,
        POKEMON_FORMATS
    ),
    rule!(
        Pokemon,
        "pokemon",
        "pokemon-constructed",
        "Constructed",
        Deck,
        POKEMON_DECKS
    ),
    rule!(
        Pokemon,
        "pokemon",
        "pokemon-any-lineup",
        "Any lineup",
        Deckset,
        ANY_LINEUP
    ),
    rule!(
        Riftbound,
        "riftbound",
        "riftbound-standard",
        "Standard",
        Card,
        RIFTBOUND
    ),
    rule!(
        Riftbound,
        "riftbound",
        "riftbound-constructed",
        "Riftbound constructed",
        Deck,
        RIFTBOUND
    ),
    rule!(
        Riftbound,
        "riftbound",
        "riftbound-legend",
        "Legend",
        Deck,
        RIFTBOUND
    ),
    rule!(
        Riftbound,
        "riftbound",
        "riftbound-runes",
        "Rune Deck",
        Deck,
        RIFTBOUND
    ),
    rule!(
        Riftbound,
        "riftbound",
        "riftbound-battlefields",
        "Battlefields",
        Deck,
        RIFTBOUND
    ),
    rule!(
        Riftbound,
        "riftbound",
        "riftbound-main-deck",
        "Main Deck",
        Deck,
        RIFTBOUND
    ),
    rule!(
        Riftbound,
        "riftbound",
        "riftbound-any-lineup",
        "Any lineup",
        Deckset,
        ANY_LINEUP
    ),
];

/// Returns every built-in rule, in a stable order (by game, then card, deck and deck set).
pub fn all() -> &'static [BuiltinRule] {
    &ALL
}

/// Returns the built-in rule with this fixed id, if there is one.
pub fn get(id: &str) -> Option<&'static BuiltinRule> {
    ALL.iter().find(|rule| rule.id == id)
}

/// Returns the built-in rules of one game, in the order of [`all`].
pub fn of_game(game: Game) -> impl Iterator<Item = &'static BuiltinRule> {
    ALL.iter().filter(move |rule| rule.game == game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_rule_by_its_fixed_id() {
        let rule = get("lor-standard").expect("lor-standard is built in");
        assert_eq!(
            (rule.game, rule.scope, rule.name),
            (Game::Lor, Scope::Card, "Standard")
        );
        assert!(get("lor-unknown").is_none());
    }

    #[test]
    fn every_game_has_a_rule_of_each_scope() {
        for game in [Game::Lor, Game::Pokemon, Game::Riftbound] {
            for scope in [Scope::Card, Scope::Deck, Scope::Deckset] {
                assert!(
                    of_game(game).any(|rule| rule.scope == scope),
                    "{game:?} has a built-in {scope:?} rule"
                );
            }
        }
    }
}
