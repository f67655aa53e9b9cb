//! Our default calculators (`calculators::defaults`, Deck breakdown per game) against the
//! reference page's default calculators: both run in the real sandbox on the same decks of the
//! real card data — the decks the reference tests chart, and random ones (unknown cards, zone
//! cards, odd copies included) — and must draw the same widgets with the same numbers.

use calculators::defaults;
use catalog::domain::Game;
use proptest::prelude::*;
use scripts::runner::ScriptRef;
use serde_json::{Value, json};

use super::default_calculators::{
    LOR, POKEMON, RIFTBOUND, dashboard, guide_codes, lor_deck, pokemon_deck,
};
use super::support::{self, Deck, spec_page};

fn reference(game: Game) -> ScriptRef {
    ScriptRef::Source(support::default_calculator(match game {
        Game::Lor => "Legends of Runeterra",
        Game::Pokemon => "Pokémon TCG",
        Game::Riftbound => "Riftbound",
    }))
}

fn ours(game: Game) -> ScriptRef {
    ScriptRef::Source(defaults::of_game(game).source.to_owned())
}

fn assert_same(game: Game, deck: &Deck) {
    let expected = dashboard(&reference(game), deck);
    assert!(!expected.is_empty());
    assert_eq!(dashboard(&ours(game), deck), expected, "{game}");
}

#[test]
fn our_deck_breakdowns_pass_the_safety_check() {
    for default in defaults::ALL {
        let report = scripts::domain::safety::check(default.source);
        assert!(report.safe, "{}: {:?}", default.id, report.issues);
    }
}

#[test]
fn our_deck_breakdowns_draw_what_the_reference_draws_on_its_decks() {
    let page = spec_page("guide-rulesets.md");
    for code in guide_codes(&page, "### 3. Add a deck set rule") {
        assert_same(Game::Lor, &lor_deck(code));
    }
    assert_same(Game::Pokemon, &pokemon_deck());
    assert_same(Game::Riftbound, &support::riftbound_deck(&RIFTBOUND));
    // An empty deck, and a deck of cards the catalog does not know.
    for game in [Game::Lor, Game::Pokemon, Game::Riftbound] {
        assert_same(game, &Deck { lines: Vec::new() });
        assert_same(
            game,
            &Deck {
                lines: vec![("nowhere-1".to_owned(), 3, json!({"id": "nowhere-1"}))],
            },
        );
    }
}

fn random_deck(game: Game, picks: &[(usize, u32)]) -> Deck {
    let cards = match game {
        Game::Lor => &*LOR,
        Game::Pokemon => &*POKEMON,
        Game::Riftbound => &*RIFTBOUND,
    };
    let mut lines: Vec<(String, u32, Value)> = Vec::new();
    for (pick, copies) in picks {
        let card = &cards[pick % cards.len()];
        let reference = card["id"].as_str().expect("an id").to_owned();
        if !lines.iter().any(|(seen, _, _)| *seen == reference) {
            lines.push((reference, *copies, card.clone()));
        }
    }
    Deck { lines }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 36, ..ProptestConfig::default() })]

    #[test]
    fn our_deck_breakdowns_draw_what_the_reference_draws_on_random_decks(
        game in 0..3_usize,
        picks in prop::collection::vec((0..100_000_usize, 1..5_u32), 0..40),
    ) {
        let game = [Game::Lor, Game::Pokemon, Game::Riftbound][game];
        let deck = random_deck(game, &picks);
        prop_assert_eq!(dashboard(&ours(game), &deck), dashboard(&reference(game), &deck));
    }
}
