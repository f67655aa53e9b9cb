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
    let verdicts = runner.card_pool(&rule, cards, None).expect("the pool runs");
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
        runner.card_pool(&endless, cards.clone(), None),
        Err(RunFailure::Timeout(Duration::from_millis(300)))
    );
    let context = ScriptRef::Source(
        "export default (card, context) => card.n < context.globals.limit;\n".to_owned(),
    );
    let verdicts = runner
        .card_pool(&context, cards, Some(json!({"globals": {"limit": 10}})))
        .expect("the pool runs");
    let allowed = verdicts
        .iter()
        .filter(|v| matches!(v, Verdict::Result(r) if r.valid == Some(true)))
        .count();
    assert_eq!(allowed, 10);
}
