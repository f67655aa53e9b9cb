//! The static safety check and the source preparation on a ~10 KB script, the size of a large
//! default calculator (target: under 2 ms per check). Run with
//! `cargo bench -p scripts --bench safety`.
//!
//! The script repeats realistic deck, card and lineup rules under distinct names, so scoping and
//! the walk see as many functions, closures and references as a real script of that size.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use scripts::domain::{prepare::prepare, safety::check};

/// Rules in the style of the spec's examples; `N` is replaced per copy to keep names distinct.
const RULES: &str = r#"
const BANNED_N = ["01IO049", "01SI001"];
const MAX_COPIES_N = 2;

function validateDeckN(deck, cardsById) {
  const issues = [];
  let total = 0;

  for (const [ref, copies] of Object.entries(deck)) {
    const name = cardsById[ref]?.name ?? ref;
    total += copies;

    if (BANNED_N.includes(ref)) {
      issues.push({ code: "banned_card", message: `${name} is banned.` });
    }

    if (copies > MAX_COPIES_N) {
      issues.push({
        code: "copy_limit",
        message: `${name}: at most ${MAX_COPIES_N} copies (found ${copies}).`,
      });
    }
  }

  if (total !== 40) {
    issues.push({ code: "deck_size", message: `Decks need exactly 40 cards (found ${total}).` });
  }

  return { valid: issues.length === 0, issues };
}

function validateDecksetN(decks, cardsById) {
  const firstDeckByChampion = new Map();
  const issues = [];

  decks.forEach((deck, index) => {
    for (const ref of Object.keys(deck)) {
      const card = cardsById[ref];
      if (card?.game?.supertypeRef !== "Champion") {
        continue;
      }
      const firstDeck = firstDeckByChampion.get(ref);
      if (firstDeck === undefined) {
        firstDeckByChampion.set(ref, index + 1);
      } else {
        issues.push({ code: "shared_champion", message: `${card.name} is in deck ${firstDeck}.` });
      }
    }
  });

  return { valid: issues.length === 0, issues };
}

function regionsN(pile, cardsById) {
  const regions = new Set();
  for (const ref of Object.keys(pile)) {
    for (const region of cardsById[ref]?.game?.regionRefs ?? []) {
      if (!/^\d/.test(region)) {
        regions.add(region);
      }
    }
  }
  return regions.size === 2 ? { regionRefs: [...regions] } : null;
}
"#;

/// A script of about 10 KB: copies of [`RULES`] and one default export.
fn ten_kilobyte_script() -> String {
    let mut script = String::new();
    let mut copy = 0;
    while script.len() < 10_000 {
        script.push_str(&RULES.replace('N', &format!("_{copy}")));
        copy += 1;
    }
    script.push_str("\nexport default validateDeck_0;\n");
    script
}

fn safety(c: &mut Criterion) {
    let script = ten_kilobyte_script();
    assert!(
        check(&script).safe,
        "the benchmark script must pass the check"
    );
    let mut group = c.benchmark_group("safety");
    group.bench_function(format!("check {} bytes", script.len()), |b| {
        b.iter(|| black_box(check(black_box(&script))));
    });
    group.bench_function(format!("prepare {} bytes", script.len()), |b| {
        b.iter(|| black_box(prepare(black_box(&script))));
    });
    group.finish();
}

criterion_group!(benches, safety);
criterion_main!(benches);
