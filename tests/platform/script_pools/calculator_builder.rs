//! The no-code builder's scripts (`calculators::domain`) in the real sandbox, on decks of the
//! real card data: the calculators guide's two tutorials end to end ("Starter check" built from
//! its spec on a real Pokémon deck, every odd checked against a hypergeometric worked out here
//! with exact binomial coefficients; "Drop to code" with the guide's Mulligan chance block,
//! detached, and without its marker a code calculator), and a property test: every spec the
//! schema allows generates a script that passes the safety check and runs without error on
//! random decks of each game.

use calculators::domain::fields::{self, FieldKind};
use calculators::domain::generate::{Inspected, generate, inspect};
use calculators::domain::spec::Spec;
use catalog::domain::Game;
use proptest::prelude::*;
use scripts::runner::ScriptRef;
use serde_json::{Value, json};

use super::default_calculators::{LOR, POKEMON, RIFTBOUND, RUNNER, dashboard, pokemon_deck};
use super::support::{Deck, fenced_block, spec_page, strings};

/// The guide's Starter check, as its tutorial sets it up in the builder.
const STARTER_CHECK: &str = r#"{"widgets": [
  {"kind": "histogram", "label": "Retreat cost", "field": "retreatCost",
   "bucketSize": 1, "min": 0, "max": null, "count": "copies",
   "filter": {"match": "all", "conditions": [{"field": "cardType", "op": "is", "value": "Pokemon"}]}},
  {"kind": "table", "label": "Opening hand starters", "groupBy": "perCard", "draws": 7,
   "filter": {"match": "all", "conditions": [{"field": "stage", "op": "is", "value": "Basic"}]}}
]}"#;

/// C(n, k), exactly.
fn choose(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1_u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
}

/// P(none of `bad` of `deck` cards among `draws`), from binomial coefficients.
fn miss_all(deck: u32, bad: u32, draws: u32) -> f64 {
    // The coefficients stay far below 2^53 for decks of 60 and hands of 7.
    choose(deck - bad, draws) as f64 / choose(deck, draws) as f64
}

fn one_decimal(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

fn is_basic_pokemon(card: &Value) -> bool {
    card["game"]["supertype"] == "Pokemon" && strings(&card["game"]["subtypes"]).contains(&"Basic")
}

#[test]
fn starter_check_is_built_from_its_spec_and_its_odds_are_the_hypergeometric_ones() {
    let spec = Spec::parse(Game::Pokemon, STARTER_CHECK).expect("the tutorial's spec reads");
    let source = generate(Game::Pokemon, &spec);
    let report = scripts::domain::safety::check(&source);
    assert!(report.safe, "{:?}\n{source}", report.issues);
    assert_eq!(inspect(Game::Pokemon, &source), Inspected::Builder(spec));

    let deck = pokemon_deck();
    let widgets = dashboard(&ScriptRef::Source(source), &deck);
    assert_eq!(widgets.len(), 2, "{widgets:?}");

    // The curve: one bar per retreat cost from 0 to the highest, Pokémon only.
    let curve = &widgets[0];
    assert_eq!(curve["kind"], "histogram");
    assert_eq!(curve["label"], "Retreat cost");
    let highest = deck
        .lines
        .iter()
        .filter(|(_, _, card)| card["game"]["supertype"] == "Pokemon")
        .map(|(_, _, card)| card["game"]["convertedRetreatCost"].as_u64().unwrap_or(0))
        .max()
        .expect("the deck has Pokémon");
    let mut expected = vec![0.0; usize::try_from(highest).expect("small") + 1];
    for (_, copies, card) in &deck.lines {
        if card["game"]["supertype"] == "Pokemon" {
            let cost = card["game"]["convertedRetreatCost"].as_u64().unwrap_or(0);
            expected[usize::try_from(cost).expect("small")] += f64::from(*copies);
        }
    }
    let buckets: Vec<f64> = curve["buckets"]
        .as_array()
        .expect("buckets")
        .iter()
        .map(|value| value.as_f64().expect("a number"))
        .collect();
    assert_eq!(buckets, expected);
    let labels: Vec<String> = (0..=highest).map(|cost| cost.to_string()).collect();
    assert_eq!(curve["labels"], json!(labels));

    // The starter table: one row per Basic Pokémon, in deck order, with its two odds.
    let table = &widgets[1];
    assert_eq!(table["kind"], "table");
    assert_eq!(
        table["columns"],
        json!(["Card", "Possible starter", "Forced starter"])
    );
    let size = deck.total();
    let basics = deck.copies_where(is_basic_pokemon);
    let expected: Vec<Value> = deck
        .lines
        .iter()
        .filter(|(_, _, card)| is_basic_pokemon(card))
        .map(|(_, copies, card)| {
            let possible = 1.0 - miss_all(size, *copies, 7);
            let forced = miss_all(size, basics - copies, 7) - miss_all(size, basics, 7);
            json!([
                card["name"],
                one_decimal(possible * 100.0),
                one_decimal(forced * 100.0)
            ])
        })
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(table["rows"], json!(expected));
}

#[test]
fn dropping_to_code_and_adding_the_mulligan_chance_detaches_the_calculator() {
    let spec = Spec::parse(Game::Pokemon, STARTER_CHECK).expect("the tutorial's spec reads");
    let generated = generate(Game::Pokemon, &spec);
    let page = spec_page("guide-calculators.md");
    let from = page
        .find("### 2. Add the widget")
        .expect("the guide's second tutorial adds a widget");
    let block = fenced_block(&page, "```js", from).expect("the Mulligan chance block");
    let anchor = "  return { widgets: widgets };";
    assert!(generated.contains(anchor));
    let edited = generated.replace(anchor, &format!("{block}\n\n{anchor}"));
    assert_eq!(
        inspect(Game::Pokemon, &edited),
        Inspected::Code,
        "a hand edit detaches it from the builder"
    );
    let report = scripts::domain::safety::check(&edited);
    assert!(report.safe, "{:?}", report.issues);

    let deck = pokemon_deck();
    let widgets = dashboard(&ScriptRef::Source(edited.clone()), &deck);
    assert_eq!(widgets.len(), 3, "{widgets:?}");
    assert_eq!(widgets[2]["label"], "Mulligan chance");
    assert_eq!(widgets[2]["unit"], "%");
    let chance = miss_all(deck.total(), deck.copies_where(is_basic_pokemon), 7);
    assert_eq!(widgets[2]["value"], json!(one_decimal(chance * 100.0)));

    // The marker deleted: a code calculator that runs the same.
    let unmarked: String = edited.split_once('\n').expect("lines").1.to_owned();
    assert_eq!(inspect(Game::Pokemon, &unmarked), Inspected::Code);
    assert_eq!(dashboard(&ScriptRef::Source(unmarked), &deck), widgets);
}

// ---------------------------------------------------------------------------------------------
// Every spec the schema allows
// ---------------------------------------------------------------------------------------------

fn game_of(index: usize) -> Game {
    [Game::Lor, Game::Pokemon, Game::Riftbound][index % 3]
}

/// A value a condition on `kind` may compare with, under `op`.
fn condition(game: Game) -> impl Strategy<Value = Value> {
    let fields = fields::of_game(game);
    (
        0..fields.len(),
        0..8_usize,
        -3..12_i64,
        "[A-Za-z é\"\\\\`$'{}]{0,12}",
    )
        .prop_map(move |(index, op, number, text)| {
            let field = &fields[index];
            let text_value = field
                .values
                .get(usize::try_from(number.rem_euclid(8)).unwrap_or(0))
                .map_or(json!(text), |value| json!(value));
            let (op, value) = match (field.kind, op) {
                (FieldKind::Number, 0) => ("lt", json!(number)),
                (FieldKind::Number, 1) => ("lte", json!(number)),
                (FieldKind::Number, 2) => ("gt", json!(number)),
                (FieldKind::Number, 3) => ("gte", json!(number)),
                (FieldKind::Number, 4) => ("is_not", json!(number)),
                (FieldKind::Number, 5) => ("is_one_of", json!([number, number + 1])),
                (FieldKind::Number, _) => ("is", json!(number)),
                (_, 0 | 1) => ("is_not", text_value),
                (_, 2) => ("contains", json!(text)),
                (_, 3) => ("is_one_of", json!([text_value, text])),
                _ => ("is", text_value),
            };
            json!({"field": field.id, "op": op, "value": value})
        })
}

fn filter(game: Game) -> impl Strategy<Value = Option<Value>> {
    proptest::option::of(
        (prop::collection::vec(condition(game), 0..4), any::<bool>()).prop_map(
            |(conditions, any)| json!({"match": if any { "any" } else { "all" }, "conditions": conditions}),
        ),
    )
}

fn widget(game: Game) -> impl Strategy<Value = Value> {
    let fields = fields::of_game(game);
    let numbers: Vec<&'static str> = fields
        .iter()
        .filter(|field| field.kind == FieldKind::Number)
        .map(|field| field.id)
        .collect();
    let all: Vec<&'static str> = fields.iter().map(|field| field.id).collect();
    (
        0..10_usize,
        0..numbers.len(),
        0..all.len(),
        1..4_i64,
        -2..3_i64,
        proptest::option::of(1..12_i64),
        "[A-Za-z0-9 ✓\u{2028}\"]{0,16}",
        any::<bool>(),
        filter(game),
        filter(game),
    )
        .prop_map(
            move |(kind, number, field, size, min, max, label, distinct, own, other)| {
                let mut widget = match kind {
                    0 => json!({"kind": "stat", "measure": "count"}),
                    1 => json!({"kind": "stat", "measure": (["sum", "average", "min", "max"][number % 4]),
                                "field": numbers[number], "unit": "cards"}),
                    2 => json!({"kind": "histogram", "field": numbers[number], "bucketSize": size,
                                "min": min, "max": max.map(|max| max + min)}),
                    3 => json!({"kind": "donut", "groupBy": all[field]}),
                    4 => json!({"kind": "gauge", "groupBy": all[field]}),
                    5 => json!({"kind": "bars", "groupBy": all[field]}),
                    6 => json!({"kind": "table", "groupBy": all[field]}),
                    7 => json!({"kind": "table", "groupBy": "perCard", "draws": size + 5}),
                    8 => json!({"kind": "hypergeometric", "draws": size + 5, "exactCounts": [0, 1, 2]}),
                    _ => json!({"kind": "ratio", "numerator": {"filter": own.clone()},
                                "denominator": {"filter": other},
                                "format": (["number", "percent", "multiplier", "ratio"][number % 4])}),
                };
                widget["label"] = json!(label);
                widget["count"] = json!(if distinct { "distinct" } else { "copies" });
                if let Some(own) = own {
                    widget["filter"] = own;
                }
                widget
            },
        )
}

fn spec_and_deck() -> impl Strategy<Value = (usize, Value, Vec<(usize, u32)>)> {
    (0..3_usize).prop_flat_map(|game| {
        (
            Just(game),
            prop::collection::vec(widget(game_of(game)), 0..8)
                .prop_map(|widgets| json!({"widgets": widgets})),
            prop::collection::vec((0..100_000_usize, 1..5_u32), 0..30),
        )
    })
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
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_spec_generates_a_safe_script_that_runs_on_random_decks(
        (game, value, picks) in spec_and_deck(),
    ) {
        let game = game_of(game);
        let spec = Spec::from_value(game, &value)
            .unwrap_or_else(|err| panic!("the strategy makes valid specs: {err}\n{value}"));
        let source = generate(game, &spec);
        prop_assert_eq!(&generate(game, &spec), &source, "generation is stable");
        prop_assert_eq!(inspect(game, &source), Inspected::Builder(spec.clone()));
        let report = scripts::domain::safety::check(&source);
        prop_assert!(report.safe, "{:?}\n{}", report.issues, source);
        let deck = random_deck(game, &picks);
        let widgets = RUNNER
            .calculator(&ScriptRef::Source(source.clone()), deck.pile(), deck.cards_by_id(), None)
            .map_err(|err| TestCaseError::fail(format!("{err}\n{source}")))?;
        prop_assert_eq!(widgets.widgets.len(), spec.widgets.len());
    }
}
