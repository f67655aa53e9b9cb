//! Benchmarks of the JavaScript sandbox: creating it (once per process), compiling a typical
//! deck rule (once per script) and running it on a 40-card deck in a fresh instance (per
//! check; the target is a median under 2 ms).

use std::hint::black_box;
use std::time::{Duration, SystemTime};

use criterion::{Criterion, criterion_group, criterion_main};
use scripts::sandbox::{
    Cancel, DriverOutput, Limits, Outcome, RunOptions, Sandbox, ScriptKind, program, request,
};
use serde_json::{Map, Value, json};

/// A typical deck rule: copy limits, deck size, a banned card, one issue per problem.
const DECK_RULE: &str = r#"
const BANNED = new Set(["OGN-013"]);
const __turnier_default = function (deck, cardsById) {
  const issues = [];
  let total = 0;
  for (const [id, copies] of Object.entries(deck)) {
    total += copies;
    const card = cardsById[id];
    if (card === undefined) {
      issues.push({ code: "unknown_card", message: "Unknown card " + id });
      continue;
    }
    if (BANNED.has(id)) {
      issues.push({ code: "banned", message: card.name + " is banned" });
    }
    const limit = card.type === "Champion" ? 1 : 3;
    if (copies > limit) {
      issues.push({ code: "too_many_copies", message: card.name + ": at most " + limit });
    }
  }
  if (total !== 40) {
    issues.push({ code: "deck_size", message: "The deck has " + total + " cards, not 40" });
  }
  return { valid: issues.length === 0, issues };
};
"#;

/// A 40-card deck (20 cards, two copies each) and the cards it references.
fn deck_args() -> Vec<Value> {
    let mut deck = Map::new();
    let mut cards = Map::new();
    for n in 0..20 {
        let id = format!("OGN-{:03}", 100 + n * 7);
        deck.insert(id.clone(), json!(2));
        cards.insert(
            id.clone(),
            json!({
                "id": id,
                "name": format!("Card number {n}"),
                "type": if n % 5 == 0 { "Champion" } else { "Unit" },
                "cost": n % 8,
                "domains": ["Fury", "Calm"],
                "rarity": "Common",
                "text": "When you play this, draw a card and deal 2 to a unit.",
            }),
        );
    }
    vec![Value::Object(deck), Value::Object(cards)]
}

fn options() -> RunOptions {
    RunOptions {
        time: Duration::from_secs(15),
        now: SystemTime::UNIX_EPOCH + Duration::from_secs(1_772_366_400),
        seed: 1,
        cancel: Cancel::new(),
    }
}

fn sandbox(c: &mut Criterion) {
    let sandbox = Sandbox::new(Limits::default()).expect("the sandbox starts");

    let mut variant = 0u64;
    c.bench_function("compile a deck rule (compile-src, uncached)", |b| {
        b.iter(|| {
            // A new comment each time: the cache never answers.
            variant += 1;
            let source = program(&format!("{DECK_RULE}\n// {variant}"));
            black_box(sandbox.compile(&source).expect("the rule compiles"))
        })
    });

    let bytecode = sandbox
        .compile(&program(DECK_RULE))
        .expect("the rule compiles");
    let stdin = request(ScriptKind::Deck, &deck_args());
    let check = || {
        let output = sandbox
            .run(&bytecode, &stdin, options())
            .expect("the rule runs");
        DriverOutput::parse(&output.stdout).expect("one result line")
    };
    assert!(matches!(
        check(),
        DriverOutput::Single(Outcome::Returned(ref value)) if value["valid"] == json!(false)
    ));
    c.bench_function("run a deck rule on a 40-card deck (fresh instance)", |b| {
        b.iter(|| black_box(check()))
    });

    let mut group = c.benchmark_group("startup");
    group.sample_size(10);
    group.bench_function(
        "create a sandbox (pre-initialize and compile the plugin)",
        |b| b.iter(|| black_box(Sandbox::new(Limits::default()).expect("the sandbox starts"))),
    );
    group.finish();
}

criterion_group!(benches, sandbox);
criterion_main!(benches);
