//! What the builder's calls cost: reading a 7-widget spec and generating its script (`build`),
//! and telling whether a source opens in the builder (`inspect`: read the marker, generate,
//! compare). The run of that calculator through the gateway is measured end to end (README).

use std::hint::black_box;

use calculators::domain::generate::{generate, inspect};
use calculators::domain::spec::Spec;
use criterion::{Criterion, criterion_group, criterion_main};
use proto::game::Game;

/// Seven widgets, one of each kind but gauge, over the Pokémon fields.
const SPEC: &str = r#"{"widgets": [
  {"kind": "stat", "label": "Average HP", "measure": "average", "field": "hp",
   "filter": {"conditions": [{"field": "cardType", "op": "is", "value": "Pokemon"}]}},
  {"kind": "histogram", "label": "Retreat cost", "field": "retreatCost", "max": 4,
   "filter": {"conditions": [{"field": "cardType", "op": "is", "value": "Pokemon"}]}},
  {"kind": "donut", "label": "Card types", "groupBy": "cardType"},
  {"kind": "bars", "label": "Energy types", "groupBy": "energyType"},
  {"kind": "table", "label": "Opening hand starters", "groupBy": "perCard", "draws": 7,
   "filter": {"conditions": [{"field": "stage", "op": "is", "value": "Basic"}]}},
  {"kind": "hypergeometric", "label": "A Basic in the opening hand", "draws": 7, "exactCounts": [1, 2],
   "filter": {"conditions": [{"field": "stage", "op": "is", "value": "Basic"}]}},
  {"kind": "ratio", "label": "Trainers per Pokémon", "format": "number",
   "numerator": {"filter": {"conditions": [{"field": "cardType", "op": "is", "value": "Trainer"}]}},
   "denominator": {"filter": {"conditions": [{"field": "cardType", "op": "is", "value": "Pokemon"}]}}}
]}"#;

fn builder(c: &mut Criterion) {
    c.bench_function("build a 7-widget spec (read + generate)", |b| {
        b.iter(|| {
            let spec = Spec::parse(Game::Pokemon, black_box(SPEC)).expect("a valid spec");
            black_box(generate(Game::Pokemon, &spec))
        });
    });
    let source = generate(
        Game::Pokemon,
        &Spec::parse(Game::Pokemon, SPEC).expect("a valid spec"),
    );
    c.bench_function("inspect its source", |b| {
        b.iter(|| black_box(inspect(Game::Pokemon, black_box(&source))));
    });
}

criterion_group!(benches, builder);
criterion_main!(benches);
