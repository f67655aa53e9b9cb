//! Benchmarks of whole script runs through [`Runner`] on the real card data:
//!
//! - a Standard card rule over every Pokémon card in one `card_pool` call (the deck builder's
//!   pool filter; the target is a median under 1 s), with the default limits;
//! - the Riftbound default calculator of `reference-scripting-calculators.md` on a 56-card
//!   deck built from the Riftbound catalog, in a fresh instance per run (target: under 10 ms);
//! - a whole-deck check (`ValidateDeck`'s work, `scripts::deck_check::Plan::run`) of that deck
//!   in the Constructed template: four zone rules, the Standard card rule on every card and the
//!   constructed whole-deck rule (the gateway's target for all of it: under 20 ms).
//!
//! Card data comes from `shared/data` beside the repository (`kit::testing::shared`); the
//! calculator's source is read from the spec (`shared/spec`) at
//! bench time, never copied here.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use proto::game::Game;
use proto::scripts::v1::PileRole;
use scripts::deck_check::{CardRule, Plan};
use scripts::domain::deck_check::Pile;
use scripts::domain::direct_bans::DirectBans;
use scripts::runner::{Runner, ScriptRef, TimeLimits, Verdict};
use scripts::sandbox::Limits;
use serde_json::Value;

#[path = "../tests/platform/script_pools/support.rs"]
mod support;

/// A Standard card rule as a format organizer writes one: regulation marks G to J, basic
/// Energy always allowed, and a ban list by name.
const STANDARD_CARD_RULE: &str = r#"
// Card rule: Standard by regulation mark, plus a ban list.
const STANDARD_MARKS = ["G", "H", "I", "J"];
const BANNED = ["Forest Seal Stone", "Path to the Peak", "Lost Vacuum", "Radiant Charizard"];

export default function validateCard(card) {
  const game = card.game ?? {};
  const subtypes = Array.isArray(game.subtypes) ? game.subtypes : [];

  if (game.supertype === "Energy" && subtypes.includes("Basic")) {
    return true;
  }

  const issues = [];
  const mark = typeof game.regulationMark === "string" ? game.regulationMark : "";

  if (!STANDARD_MARKS.includes(mark)) {
    issues.push({
      code: "not_standard",
      message: `${card.name} has no Standard regulation mark (found ${mark || "none"}).`,
    });
  }

  if (BANNED.includes(card.name)) {
    issues.push({ code: "banned_card", message: `${card.name} is banned.` });
  }

  return { valid: issues.length === 0, issues };
}
"#;

/// What [`STANDARD_CARD_RULE`] allows, for checking its verdicts before timing them.
fn is_standard(card: &Value) -> bool {
    let game = &card["game"];
    let has_subtype = |subtype: &str| {
        game["subtypes"]
            .as_array()
            .is_some_and(|subtypes| subtypes.iter().any(|s| s == subtype))
    };
    if game["supertype"] == "Energy" && has_subtype("Basic") {
        return true;
    }
    let mark = game["regulationMark"].as_str().unwrap_or("");
    let name = card["name"].as_str().unwrap_or("");
    ["G", "H", "I", "J"].contains(&mark)
        && ![
            "Forest Seal Stone",
            "Path to the Peak",
            "Lost Vacuum",
            "Radiant Charizard",
        ]
        .contains(&name)
}

fn rules(c: &mut Criterion) {
    let runner = Runner::new(Limits::default(), TimeLimits::default()).expect("the runner starts");

    let pokemon = support::cards(Game::Pokemon);
    let card_rule = ScriptRef::Source(STANDARD_CARD_RULE.to_owned());
    // The whole Pokémon catalog is ~25 MB of card JSON: the runner cuts it into chunks that each
    // fit the default 64 MiB instance and runs them on every core.
    let pool_runner = runner.clone();
    let verdicts = pool_runner
        .card_pool(&card_rule, &pokemon, None)
        .expect("the card rule runs over the pool");
    let allowed = verdicts
        .iter()
        .filter(|verdict| matches!(verdict, Verdict::Result(result) if result.valid == Some(true)))
        .count();
    let expected = pokemon.iter().filter(|card| is_standard(card)).count();
    assert_eq!(allowed, expected, "the rule allows the Standard cards");
    assert!(0 < allowed && allowed < pokemon.len());

    let mut group = c.benchmark_group("card pool");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function(
        format!(
            "Standard card rule over all {} Pokémon cards",
            pokemon.len()
        ),
        |b| {
            b.iter(|| {
                black_box(
                    pool_runner
                        .card_pool(&card_rule, &pokemon, None)
                        .expect("the card rule runs over the pool"),
                )
            })
        },
    );
    group.finish();

    let deck = support::riftbound_deck(&support::cards(Game::Riftbound));
    let (pile, cards_by_id) = (deck.pile(), deck.cards_by_id());
    let calculator = ScriptRef::Source(support::default_calculator("Riftbound"));
    let dashboard = runner
        .calculator(&calculator, pile.clone(), cards_by_id.clone(), None)
        .expect("the Riftbound calculator runs");
    assert_eq!(dashboard.widgets.len(), 7, "every widget has data");
    c.bench_function(
        "Riftbound default calculator on a 56-card deck (fresh instance)",
        |b| {
            b.iter_batched(
                || (pile.clone(), cards_by_id.clone()),
                |(pile, cards_by_id)| {
                    black_box(
                        runner
                            .calculator(&calculator, pile, cards_by_id, None)
                            .expect("the Riftbound calculator runs"),
                    )
                },
                BatchSize::SmallInput,
            )
        },
    );
}

/// The Constructed template's check of `deck`: a pile per zone with its built-in zone rule,
/// the Standard card rule and the constructed whole-deck rule.
fn constructed_check(deck: &support::Deck) -> Plan {
    let builtin = |id: &str| {
        ScriptRef::Source(
            scripts::builtin::get(id)
                .unwrap_or_else(|| panic!("{id} is built in"))
                .source
                .to_owned(),
        )
    };
    let zones: [(&str, &[&str], &str); 4] = [
        ("Legend", &["legend"], "riftbound-legend"),
        ("Rune Deck", &["rune"], "riftbound-runes"),
        ("Battlefields", &["battlefield"], "riftbound-battlefields"),
        (
            "Main Deck",
            &["unit", "spell", "gear"],
            "riftbound-main-deck",
        ),
    ];
    let piles: Vec<Pile> = zones
        .iter()
        .map(|(name, kinds, _)| {
            let cards = deck
                .lines
                .iter()
                .filter(|(_, _, card)| {
                    kinds.contains(&card["game"]["type"].as_str().unwrap_or_default())
                })
                .map(|(reference, copies, _)| (reference.clone(), *copies));
            Pile::new((*name).to_owned(), PileRole::Main, cards)
        })
        .collect();
    Plan {
        game: "riftbound",
        zone_rules: zones
            .iter()
            .map(|(_, _, rule)| Some(builtin(rule)))
            .collect(),
        card_rule: Some(CardRule {
            script: builtin("riftbound-standard"),
            direct_bans: DirectBans::default(),
        }),
        deck_rule: Some(builtin("riftbound-constructed")),
        deckset_rule: None,
        cards: deck
            .lines
            .iter()
            .map(|(reference, _, card)| (reference.clone(), Some(card.clone())))
            .collect(),
        piles,
        context: None,
    }
}

fn deck_check(c: &mut Criterion) {
    let runner = Runner::new(Limits::default(), TimeLimits::default()).expect("the runner starts");
    let deck = support::riftbound_deck(&support::cards(Game::Riftbound));
    let plan = constructed_check(&deck);
    let report = plan.clone().run(&runner).expect("the check runs");
    assert_eq!(
        report.valid,
        Some(true),
        "a legal deck: {:?}",
        report.issues
    );
    assert_eq!(report.cards.len(), deck.lines.len());
    c.bench_function(
        "whole-deck check of a 56-card Riftbound deck (4 zone rules, card rule, whole-deck rule)",
        |b| {
            b.iter_batched(
                || plan.clone(),
                |plan| black_box(plan.run(&runner).expect("the check runs")),
                BatchSize::SmallInput,
            )
        },
    );
}

criterion_group!(benches, rules, deck_check);
criterion_main!(benches);
