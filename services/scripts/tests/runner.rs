//! `Runner` end to end: a card pool larger than one chunk comes back in order, one verdict
//! per card, with per-card throws kept apart and the pool's one time limit enforced.

use std::time::Duration;

use scripts::runner::{POOL_CHUNK, RunFailure, Runner, ScriptRef, TimeLimits, Verdict};
use scripts::sandbox::Limits;
use serde_json::{Value, json};

fn runner(times: TimeLimits) -> Runner {
    Runner::new(Limits::default(), times).expect("the sandbox starts")
}

#[test]
fn a_pool_of_several_chunks_answers_in_order_card_by_card() {
    let runner = runner(TimeLimits::default());
    let count = POOL_CHUNK * 2 + 37;
    let cards: Vec<Value> = (0..count).map(|at| json!({"n": at})).collect();
    let rule = ScriptRef::Source(
        "export default function (card) {\n  if (card.n % 401 === 400) { return card.missing.field; }\n  return card.n % 2 === 0 || { valid: false, issues: [`odd ${card.n}`] };\n}\n"
            .to_owned(),
    );
    let verdicts = runner
        .card_pool(&rule, &cards, None)
        .expect("the pool runs");
    assert_eq!(verdicts.len(), count);
    for (at, verdict) in verdicts.iter().enumerate() {
        match verdict {
            Verdict::Threw(message) => {
                assert_eq!(at % 401, 400, "card {at} threw: {message}");
                assert!(message.contains("TypeError"), "{message}");
            }
            Verdict::Result(result) if at % 2 == 0 => {
                assert_eq!(result.valid, Some(true), "card {at}");
                assert_ne!(at % 401, 400, "card {at} should have thrown");
            }
            Verdict::Result(result) => {
                assert_eq!(result.valid, Some(false), "card {at}");
                let message = result.issues[0].message.as_deref();
                assert_eq!(message, Some(format!("odd {at}").as_str()));
            }
        }
    }
}

#[test]
fn a_pool_shares_one_time_limit_and_a_context() {
    let runner = runner(TimeLimits {
        card_pool: Duration::from_millis(300),
        ..TimeLimits::default()
    });
    let cards: Vec<Value> = (0..POOL_CHUNK * 3).map(|at| json!({"n": at})).collect();
    let endless = ScriptRef::Source(
        "export default function (card) { if (card.n === 1200) { for (;;) {} } return true; }\n"
            .to_owned(),
    );
    assert_eq!(
        runner.card_pool(&endless, &cards, None),
        Err(RunFailure::Timeout(Duration::from_millis(300)))
    );
    let context = ScriptRef::Source(
        "export default (card, context) => card.n < context.globals.limit;\n".to_owned(),
    );
    let verdicts = runner
        .card_pool(&context, &cards, Some(json!({"globals": {"limit": 10}})))
        .expect("the pool runs");
    let allowed = verdicts
        .iter()
        .filter(|v| matches!(v, Verdict::Result(r) if r.valid == Some(true)))
        .count();
    assert_eq!(allowed, 10);
}

/// Statements a generated script is made of: ordinary rule code, code that fails in every way
/// a script can (throws, loops, allocates, recurses, writes to its inputs, returns what JSON
/// cannot hold), and code the safety check refuses.
const STATEMENTS: &[&str] = &[
    "const keys = Object.keys(input);",
    "let total = 0; for (const key in input) { total += 1; }",
    "const copy = JSON.parse(JSON.stringify(input));",
    "const seen = new Map(); seen.set('a', [1, 2, 3]);",
    "const when = new Date(Date.now()).toISOString();",
    "const text = String(Math.random()).repeat(3);",
    "const list = [3, 1, 2].sort((a, b) => a - b).map((n) => n * 2);",
    "if (input.x) { throw new Error('no x allowed'); }",
    "throw 'plain text';",
    "throw { toString() { throw new Error('inner'); } };",
    "input.extra = 1;",
    "for (;;) {}",
    "let grow = 'x'; while (true) { grow += grow; }",
    "const loop = (n) => loop(n + 1); loop(0);",
    "const cycle = {}; cycle.self = cycle; return cycle;",
    "return 10n;",
    "return () => 1;",
    "return undefined;",
    "return null;",
    "return true;",
    "return { valid: false, issues: ['a', { code: 'c', message: 'm', metadata: { n: 1 } }] };",
    "return { widgets: [{ kind: 'stat', label: 'Cards', value: 3 }] };",
    "return { filters: { types: ['Fire'] } };",
    "return 'x'.repeat(1 << 24);",
    "console.log('to the log');",
    "this.x = 1;",
    "eval('1');",
    "var old = 1;",
    "globalThis.x = 1;",
    "({}).constructor.constructor('return 1')();",
    "return Object.getPrototypeOf(input);",
];

/// How a generated script exports its code, by kind of run.
const ENTRY_POINTS: &[&str] = &[
    "export default function (input, other, context) {\n{body}\n}\n",
    "function validateDeck(input, other) {\n{body}\n}\n",
    "function compute(input, other) {\n{body}\n}\n",
    "export function resolvePoolFilters(input) {\n{body}\n}\n",
    "{body}\n",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

    /// Whatever a script is made of, each kind of run ends in a result or in one of the
    /// documented failures: never an internal error, never a crash, and the runner goes on.
    #[test]
    fn any_script_ends_in_a_result_or_a_documented_failure(
        entry in proptest::sample::select(ENTRY_POINTS),
        statements in proptest::collection::vec(proptest::sample::select(STATEMENTS), 0..4),
        noise in "[ -~]{0,12}",
        with_noise in proptest::prelude::any::<bool>(),
    ) {
        static RUNNER: std::sync::LazyLock<Runner> = std::sync::LazyLock::new(|| {
            runner(TimeLimits {
                rule: Duration::from_millis(200),
                card_pool: Duration::from_millis(200),
                calculator: Duration::from_millis(200),
            })
        });
        let mut body = statements.join("\n");
        if with_noise {
            body.push_str(&noise);
        }
        let script = ScriptRef::Source(entry.replace("{body}", &body));
        let input = json!({ "OGN-001": 2, "x": 0 });
        let cards = json!({ "OGN-001": { "name": "Jinx" } });
        let failures = [
            RUNNER.card_rule(&script, input.clone(), None).err(),
            RUNNER.card_pool(&script, &vec![input.clone(); 3], None).err(),
            RUNNER.deck_rule(&script, input.clone(), cards.clone(), None).err(),
            RUNNER.deckset_rule(&script, json!([input.clone()]), cards.clone(), None).err(),
            RUNNER.pool_filters(&script, scripts::domain::pool_filters::Game::Riftbound, input.clone(), None).err(),
            RUNNER.calculator(&script, input.clone(), cards.clone(), None).err(),
        ];
        for failure in failures.into_iter().flatten() {
            proptest::prop_assert!(
                !matches!(failure, RunFailure::Internal(_) | RunFailure::Unavailable(_)),
                "{:?}: {failure:?}",
                script
            );
        }
    }
}
