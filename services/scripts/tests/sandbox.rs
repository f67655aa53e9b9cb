//! The JavaScript sandbox end to end: prepared programs compiled by the real plugin and run in
//! Wasmtime, including the hostile suite (endless loops, memory bombs, escapes).
//!
//! The programs here are written by hand in the shape `domain::prepare` produces (no
//! import/export syntax, the default export bound to `const __turnier_default`), and some do
//! what the static safety check would reject: the runtime must contain them on its own.

use std::sync::LazyLock;
use std::time::{Duration, SystemTime};

use scripts::sandbox::{
    Cancel, CompileCache, DriverOutput, DriverOutputError, Limits, Outcome, RunError, RunOptions,
    Sandbox, ScriptKind, program, request,
};
use serde_json::{Value, json};

/// The output cap of the shared test sandbox: small, so the giant-output test stays cheap.
const TEST_OUTPUT_BYTES: usize = 1 << 20;

/// One sandbox for the whole test binary: creating one compiles the plugin.
static SANDBOX: LazyLock<Sandbox> = LazyLock::new(|| {
    Sandbox::new(Limits {
        output_bytes: TEST_OUTPUT_BYTES,
        ..Limits::default()
    })
    .expect("the sandbox starts")
});

/// 2026-03-01T12:00:00Z.
fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_772_366_400)
}

fn options() -> RunOptions {
    RunOptions {
        time: Duration::from_secs(5),
        now: now(),
        seed: 7,
        cancel: Cancel::new(),
    }
}

/// Compiles and runs a prepared source; returns the driver's parsed answer.
fn run_with(
    source: &str,
    kind: ScriptKind,
    args: &[Value],
    options: RunOptions,
) -> Result<DriverOutput, RunError> {
    let bytecode = SANDBOX.compile(&program(source))?;
    let output = SANDBOX.run(&bytecode, &request(kind, args), options)?;
    Ok(DriverOutput::parse(&output.stdout).expect("the driver writes one valid line"))
}

fn run(source: &str, kind: ScriptKind, args: &[Value]) -> Result<DriverOutput, RunError> {
    run_with(source, kind, args, options())
}

fn returned(value: Value) -> Result<DriverOutput, RunError> {
    Ok(DriverOutput::Single(Outcome::Returned(value)))
}

/// The message of a thrown outcome, or a panic naming what came instead.
fn thrown(output: Result<DriverOutput, RunError>) -> String {
    match output {
        Ok(DriverOutput::Single(Outcome::Threw(message))) => message,
        other => panic!("expected a thrown outcome, got {other:?}"),
    }
}

fn deck() -> Value {
    json!({ "OGN-001": 3, "OGN-002": 2 })
}

/// A plain deck rule: the sandbox still works after whatever ran before.
fn assert_still_works() {
    let rule = "const __turnier_default = function (deck) {\n\
                  return Object.values(deck).reduce((sum, copies) => sum + copies, 0);\n\
                };";
    assert_eq!(run(rule, ScriptKind::Deck, &[deck()]), returned(json!(5)));
}

#[test]
fn a_deck_rule_returns_its_value() {
    let rule = "const __turnier_default = function (deck, cardsById) {\n\
                  const issues = Object.entries(deck)\n\
                    .filter(([id, copies]) => copies > 2)\n\
                    .map(([id]) => ({ code: \"too_many\", card: cardsById[id].name }));\n\
                  return { valid: issues.length === 0, issues };\n\
                };";
    let cards_by_id = json!({ "OGN-001": { "name": "Jinx" }, "OGN-002": { "name": "Vi" } });
    assert_eq!(
        run(rule, ScriptKind::Deck, &[deck(), cards_by_id]),
        returned(json!({ "valid": false, "issues": [{ "code": "too_many", "card": "Jinx" }] }))
    );
}

#[test]
fn a_calculators_numbers_that_are_not_finite_come_back_as_zero() {
    let calculator = "const __turnier_default = function () {\n\
                        return { widgets: [\n\
                          { kind: \"stat\", label: \"nan\", value: 0 / 0 },\n\
                          { kind: \"stat\", label: \"inf\", value: 1 / 0, unit: \"x\" },\n\
                          { kind: \"histogram\", label: \"h\", buckets: [1, -1 / 0, 2], labels: [] },\n\
                        ] };\n\
                      };";
    assert_eq!(
        run(calculator, ScriptKind::Calculator, &[deck(), json!({})]),
        returned(json!({"widgets": [
            {"kind": "stat", "label": "nan", "value": 0},
            {"kind": "stat", "label": "inf", "value": 0, "unit": "x"},
            {"kind": "histogram", "label": "h", "buckets": [1, 0, 2], "labels": []},
        ]}))
    );
    // A rule's result is written as JSON.stringify writes it.
    let rule = "const __turnier_default = () => ({ valid: true, score: 0 / 0 });";
    assert_eq!(
        run(rule, ScriptKind::Deck, &[deck()]),
        returned(json!({"valid": true, "score": null}))
    );
}

#[test]
fn objects_keep_the_key_order_they_were_given() {
    let rule = "const __turnier_default = (deck, cardsById) =>\n\
                  ({ deck: Object.keys(deck), cards: Object.keys(cardsById) });";
    let deck: Value = serde_json::from_str(r#"{"z-9": 1, "a-1": 2, "m-5": 3}"#).unwrap();
    let cards: Value =
        serde_json::from_str(r#"{"OGN-300": {}, "OGN-001": {}, "ARC-150": {}}"#).unwrap();
    let output = run(rule, ScriptKind::Deck, &[deck, cards]);
    assert_eq!(
        output,
        returned(
            json!({ "deck": ["z-9", "a-1", "m-5"], "cards": ["OGN-300", "OGN-001", "ARC-150"] })
        )
    );
    // The returned object keeps the script's key order too.
    let Ok(DriverOutput::Single(Outcome::Returned(Value::Object(fields)))) = output else {
        unreachable!()
    };
    assert_eq!(fields.keys().collect::<Vec<_>>(), ["deck", "cards"]);
}

#[test]
fn inputs_are_deeply_frozen() {
    let top = "const __turnier_default = (deck) => { deck.extra = 1; return true; };";
    assert!(thrown(run(top, ScriptKind::Deck, &[deck()])).starts_with("TypeError"));
    let nested = "const __turnier_default = (deck) => { deck.cards[0].copies = 9; return true; };";
    let input = json!({ "cards": [{ "id": "OGN-001", "copies": 1 }] });
    assert!(thrown(run(nested, ScriptKind::Deck, &[input])).starts_with("TypeError"));
    let frozen = "const __turnier_default = (deck) =>\n\
                    Object.isFrozen(deck) && Object.isFrozen(deck.cards) && Object.isFrozen(deck.cards[0]);";
    let input = json!({ "cards": [{ "id": "OGN-001" }] });
    assert_eq!(
        run(frozen, ScriptKind::Deck, &[input]),
        returned(json!(true))
    );
}

/// A JavaScript check run over every argument: every object and array frozen, with the
/// standard prototype, enumerable read-only properties, and writes that throw.
const CHECK_FROZEN: &str = "const __turnier_default = (...args) => {\n\
      const problems = [];\n\
      const visit = (value, path) => {\n\
        if (typeof value !== 'object' || value === null) return;\n\
        if (!Object.isFrozen(value)) problems.push(path + ' is not frozen');\n\
        const proto = Array.isArray(value) ? Array.prototype : Object.prototype;\n\
        if (Object.getPrototypeOf(value) !== proto) problems.push(path + ' has another prototype');\n\
        for (const key of Object.keys(value)) {\n\
          const d = Object.getOwnPropertyDescriptor(value, key);\n\
          if (!d.enumerable || d.writable || d.configurable) problems.push(path + '.' + key + ' flags');\n\
          try { value[key] = 0; problems.push(path + '.' + key + ' was written'); } catch (e) {}\n\
          visit(value[key], path + '.' + key);\n\
        }\n\
        if (Array.isArray(value)) {\n\
          try { value.push(1); problems.push(path + ' grew'); } catch (e) {}\n\
          try { value.length = 0; problems.push(path + ' shrank'); } catch (e) {}\n\
        } else {\n\
          try { value.added = 1; problems.push(path + ' took a key'); } catch (e) {}\n\
        }\n\
      };\n\
      args.forEach((arg, at) => visit(arg, 'args[' + at + ']'));\n\
      return problems;\n\
    };";

#[test]
fn every_object_and_array_of_the_inputs_is_frozen_with_standard_prototypes() {
    let deck = json!({
        "cards": [{ "id": "OGN-001", "tags": ["a", "b"], "stats": { "might": 3 } }, []],
        "empty": {},
        "nested": [[[1, 2], []], { "deep": [{ "x": null }] }]
    });
    let cards = json!({ "OGN-001": { "name": "Jinx", "keywords": [] } });
    assert_eq!(
        run(CHECK_FROZEN, ScriptKind::Deck, &[deck, cards]),
        returned(json!([]))
    );
}

#[test]
fn inputs_read_exactly_as_json_parse_reads_them() {
    // Echoed back through JSON.stringify: strings with escapes and astral characters, numbers
    // of every kind, integer-like keys (JavaScript lists them first, ascending), "__proto__" as
    // an ordinary key, empty containers.
    let text = r#"{"b": 1, "10": "ten", "2": "two", "__proto__": {"x": 1},
                   "text": "tab\t quote\" é 😀 \u00e9 \ud83d\ude00",
                   "numbers": [0, -1, 2147483647, 2147483648, -2147483649, 9007199254740993,
                               1.5, -0.25, 1e300, 5e-324, 0.1, 123456789012345678901234567890],
                   "empty": [{}, []], "flags": [true, false, null]}"#;
    let input: Value = serde_json::from_str(text).unwrap();
    let echo = "const __turnier_default = (deck) => ({\n\
                  keys: Object.keys(deck),\n\
                  proto: Object.getPrototypeOf(deck) === Object.prototype,\n\
                  own: Object.keys(deck.__proto__),\n\
                  text: deck.text, length: deck.text.length,\n\
                  numbers: deck.numbers.map(String),\n\
                  empty: deck.empty, flags: deck.flags });";
    assert_eq!(
        run(echo, ScriptKind::Deck, &[input]),
        returned(json!({
            "keys": ["2", "10", "b", "__proto__", "text", "numbers", "empty", "flags"],
            "proto": true,
            "own": ["x"],
            "text": "tab\t quote\" é 😀 é 😀",
            "length": 21,
            "numbers": ["0", "-1", "2147483647", "2147483648", "-2147483649", "9007199254740992",
                        "1.5", "-0.25", "1e+300", "5e-324", "0.1", "1.2345678901234568e+29"],
            "empty": [{}, []],
            "flags": [true, false, null]
        }))
    );
}

#[test]
fn a_repeated_key_keeps_its_first_place_and_its_last_value() {
    // The host's own JSON never repeats a key; the reader still follows JSON.parse if it does.
    let rule = "const __turnier_default = (deck) => ({ keys: Object.keys(deck), a: deck.a, \n\
                  frozen: Object.isFrozen(deck) });";
    let bytecode = SANDBOX.compile(&program(rule)).unwrap();
    let many: String = (0..40).map(|i| format!(r#""k{i}":{i},"#)).collect();
    for (object, keys) in [
        (r#"{"a":1,"b":2,"a":3}"#.to_owned(), json!(["a", "b"])),
        (r#"{"a":1,"a":2,"b":2,"a":3}"#.to_owned(), json!(["a", "b"])),
        (format!(r#"{{"a":0,{many}"a":3}}"#), {
            let mut keys = vec![json!("a")];
            keys.extend((0..40).map(|i| json!(format!("k{i}"))));
            Value::Array(keys)
        }),
    ] {
        let request = format!(r#"{{"kind":"deck","args":[{object}]}}"#);
        let output = SANDBOX
            .run(&bytecode, request.as_bytes(), options())
            .unwrap();
        assert_eq!(
            DriverOutput::parse(&output.stdout).unwrap(),
            DriverOutput::Single(Outcome::Returned(
                json!({ "keys": keys, "a": 3, "frozen": true })
            )),
            "{object}"
        );
    }
}

#[test]
fn a_request_that_is_not_json_fails_the_run_and_the_sandbox_keeps_serving() {
    let bytecode = SANDBOX
        .compile(&program("const __turnier_default = () => true;"))
        .unwrap();
    let deep = format!(
        r#"{{"kind":"deck","args":[{}1{}]}}"#,
        "[".repeat(600),
        "]".repeat(600)
    );
    for (request, why) in [
        (
            &b"{\"kind\": \"deck\", \"args\": [}"[..],
            "expected value at line 1 column 27",
        ),
        (b"", "EOF while parsing a value"),
        (
            deep.as_bytes(),
            "the arguments nest more than 512 levels deep",
        ),
    ] {
        let error = SANDBOX.run(&bytecode, request, options()).unwrap_err();
        let RunError::Trap(message) = &error else {
            panic!("expected a failed run, got {error:?}");
        };
        assert!(message.contains(why), "{message}");
    }
    assert_still_works();
}

#[test]
fn built_ins_are_frozen() {
    for change in [
        "Array.prototype.x = 1;",
        "Object.prototype.valid = true;",
        "Math.max = () => 0;",
        "JSON.parse = () => ({});",
        "Map.prototype.get = () => 1;",
        "Date.now = () => 0;",
        "String.prototype.trim = () => '';",
        "Object.getPrototypeOf(function* () {}).x = 1;",
        "[][Symbol.iterator]().__proto__.next = () => ({ done: true });",
    ] {
        let rule = format!("const __turnier_default = () => {{ {change} return true; }};");
        let message = thrown(run(&rule, ScriptKind::Deck, &[deck()]));
        assert!(message.starts_with("TypeError"), "{change}: {message}");
    }
    assert_still_works();
}

#[test]
fn every_run_starts_from_a_fresh_instance() {
    let rule = "let runs = 0;\n\
                const __turnier_default = () => { runs += 1; return runs; };";
    assert_eq!(run(rule, ScriptKind::Deck, &[deck()]), returned(json!(1)));
    assert_eq!(run(rule, ScriptKind::Deck, &[deck()]), returned(json!(1)));
}

#[test]
fn finds_the_entry_point_for_each_kind() {
    let named = "function validateCard(card) { return 'card ' + card.id; }\n\
                 function validateDeck(deck) { return 'deck'; }\n\
                 function validateDeckset(decks) { return 'deckset ' + decks.length; }\n\
                 function resolvePoolFilters(input) { return { filters: [input] }; }\n\
                 function compute(input) { return 'compute'; }";
    assert_eq!(
        run(named, ScriptKind::Card, &[json!({ "id": "OGN-001" })]),
        returned(json!("card OGN-001"))
    );
    assert_eq!(
        run(named, ScriptKind::Deck, &[deck()]),
        returned(json!("deck"))
    );
    assert_eq!(
        run(named, ScriptKind::Deckset, &[json!([{}, {}])]),
        returned(json!("deckset 2"))
    );
    assert_eq!(
        run(named, ScriptKind::PoolFilters, &[json!("x")]),
        returned(json!({ "filters": ["x"] }))
    );
    assert_eq!(
        run(named, ScriptKind::Calculator, &[json!({})]),
        returned(json!("compute"))
    );

    // The default export wins when it is a function, except for the pool-filter hook.
    let both = format!("{named}\nconst __turnier_default = () => 'default';");
    for kind in [
        ScriptKind::Card,
        ScriptKind::Deck,
        ScriptKind::Deckset,
        ScriptKind::Calculator,
    ] {
        assert_eq!(
            run(&both, kind, &[json!({})]),
            returned(json!("default")),
            "{kind:?}"
        );
    }
    assert_eq!(
        run(&both, ScriptKind::PoolFilters, &[json!(1)]),
        returned(json!({ "filters": [1] }))
    );

    // A default export that is no function does not count.
    let not_a_function =
        "const __turnier_default = 42;\nfunction validateDeck() { return 'named'; }";
    assert_eq!(
        run(not_a_function, ScriptKind::Deck, &[deck()]),
        returned(json!("named"))
    );
}

#[test]
fn reports_a_missing_entry_point() {
    let only_default = "const __turnier_default = () => true;";
    assert_eq!(
        run(only_default, ScriptKind::PoolFilters, &[json!({})]),
        Ok(DriverOutput::NoEntry)
    );
    let wrong_name = "function validateCard(card) { return true; }";
    assert_eq!(
        run(wrong_name, ScriptKind::Deck, &[deck()]),
        Ok(DriverOutput::NoEntry)
    );
    assert_eq!(
        run("", ScriptKind::Calculator, &[json!({})]),
        Ok(DriverOutput::NoEntry)
    );
}

#[test]
fn passes_the_arguments_exactly_as_given() {
    let rule = "const __turnier_default = (...args) => args;";
    assert_eq!(
        run(rule, ScriptKind::Deck, &[deck()]),
        returned(json!([deck()]))
    );
    let context = json!({ "format": "standard" });
    assert_eq!(
        run(
            rule,
            ScriptKind::Deck,
            &[deck(), json!({}), context.clone()]
        ),
        returned(json!([deck(), {}, context]))
    );
}

#[test]
fn a_card_pool_calls_the_card_rule_once_per_card() {
    let rule = "function validateCard(card, ...rest) {\n\
                  if (card.id === 'bad') { throw new TypeError('no ' + card.id); }\n\
                  if (card.id === 'none') { return undefined; }\n\
                  return [card.id, rest.length, rest.length > 0 ? rest[0].format : null];\n\
                }";
    let cards = json!([{ "id": "a" }, { "id": "bad" }, { "id": "none" }, { "id": "b" }]);
    assert_eq!(
        run(rule, ScriptKind::CardPool, std::slice::from_ref(&cards)),
        Ok(DriverOutput::PerCard(vec![
            Outcome::Returned(json!(["a", 0, null])),
            Outcome::Threw("TypeError: no bad".into()),
            Outcome::ReturnedUndefined,
            Outcome::Returned(json!(["b", 0, null])),
        ]))
    );
    let with_context = run(
        rule,
        ScriptKind::CardPool,
        &[cards, json!({ "format": "std" })],
    );
    let Ok(DriverOutput::PerCard(outcomes)) = with_context else {
        panic!("expected per-card outcomes, got {with_context:?}");
    };
    assert_eq!(outcomes[0], Outcome::Returned(json!(["a", 1, "std"])));
}

#[test]
fn reports_undefined_throws_and_unserializable_results() {
    let undefined = "const __turnier_default = () => undefined;";
    assert_eq!(
        run(undefined, ScriptKind::Deck, &[deck()]),
        Ok(DriverOutput::Single(Outcome::ReturnedUndefined))
    );
    let throws = "const __turnier_default = () => { throw new RangeError('too big'); };";
    assert_eq!(
        thrown(run(throws, ScriptKind::Deck, &[deck()])),
        "RangeError: too big"
    );
    let throws_a_value = "const __turnier_default = () => { throw 'plain'; };";
    assert_eq!(
        thrown(run(throws_a_value, ScriptKind::Deck, &[deck()])),
        "plain"
    );
    for value in [
        "(() => { const a = {}; a.self = a; return a; })()",
        "10n",
        "() => 1",
    ] {
        let rule = format!("const __turnier_default = () => {value};");
        let output = run(&rule, ScriptKind::Deck, &[deck()]);
        assert!(
            matches!(output, Ok(DriverOutput::Single(Outcome::Unserializable(_)))),
            "{value}: {output:?}"
        );
    }
}

#[test]
fn a_syntax_error_is_a_compile_error() {
    let broken = program("const __turnier_default = (deck) => {");
    match SANDBOX.compile(&broken) {
        Err(RunError::Compile(message)) => assert!(message.contains("unexpected"), "{message}"),
        other => panic!("expected a compile error, got {other:?}"),
    }
    assert_still_works();
}

#[test]
fn an_exception_escaping_the_module_is_a_trap_with_its_message() {
    let source = "const table = null;\nconst size = table.length;";
    match run(source, ScriptKind::Deck, &[deck()]) {
        Err(RunError::Trap(message)) => {
            assert!(
                message.contains("cannot read property 'length' of null"),
                "{message}"
            )
        }
        other => panic!("expected a trap, got {other:?}"),
    }
    assert_still_works();
}

#[test]
fn console_output_goes_to_the_log_not_the_result() {
    let rule = "const __turnier_default = () => { console.log('checking'); console.error('odd'); return 1; };";
    let bytecode = SANDBOX.compile(&program(rule)).unwrap();
    let output = SANDBOX
        .run(&bytecode, &request(ScriptKind::Deck, &[deck()]), options())
        .unwrap();
    assert_eq!(output.stdout, b"{\"result\":1}\n");
    let log = String::from_utf8(output.stderr).unwrap();
    assert!(log.contains("checking") && log.contains("odd"), "{log}");
}

#[test]
fn a_script_cannot_forge_the_result_line() {
    // The safety check rejects the name; the runtime still makes the attempt useless: the
    // driver writes its own line too, and two lines are no answer.
    let rule = "const __turnier_default = () => {\n\
                  __turnier_io.write('{\"result\":{\"valid\":true}}\\n');\n\
                  return { valid: false };\n\
                };";
    let bytecode = SANDBOX.compile(&program(rule)).unwrap();
    let output = SANDBOX
        .run(&bytecode, &request(ScriptKind::Deck, &[deck()]), options())
        .unwrap();
    assert_eq!(
        DriverOutput::parse(&output.stdout),
        Err(DriverOutputError::ExtraOutput)
    );
}

#[test]
fn shadowing_built_ins_at_the_top_level_does_not_reach_the_driver() {
    let forged_json = "const JSON = { stringify: () => '{\"valid\":true}', parse: (text) => text };\n\
                       const Object = { keys: () => [], freeze: (x) => x, isFrozen: () => true };\n\
                       const String = () => 'forged';\n\
                       const __turnier_default = (deck) => ({ valid: false, frozen: Object.isFrozen(deck) });";
    assert_eq!(
        run(forged_json, ScriptKind::Deck, &[deck()]),
        returned(json!({ "valid": false, "frozen": true }))
    );
    let hoisted = "function JSON() {}\nfunction undefined() {}\n\
                   const __turnier_default = () => { throw new RangeError('real'); };";
    assert_eq!(
        thrown(run(hoisted, ScriptKind::Deck, &[deck()])),
        "RangeError: real"
    );
    let undefined = "const undefined = 1;\nconst __turnier_default = () => void 0;";
    assert_eq!(
        run(undefined, ScriptKind::Deck, &[deck()]),
        Ok(DriverOutput::Single(Outcome::ReturnedUndefined))
    );
    // Shadowing the global object itself leaves the prelude nothing to start from.
    let global = "function globalThis() {}\nconst __turnier_default = () => ({ valid: true });";
    assert!(matches!(
        run(global, ScriptKind::Deck, &[deck()]),
        Err(RunError::Trap(_))
    ));
    assert_still_works();
}

#[test]
fn compiled_programs_come_from_the_cache() {
    let source = program("const __turnier_default = () => 'cached';");
    let first = SANDBOX.compile(&source).unwrap();
    let second = SANDBOX.compile(&source).unwrap();
    assert!(std::sync::Arc::ptr_eq(&first, &second));
}

// The hostile suite. Each test ends by checking that a normal script still runs.

#[test]
fn an_endless_loop_times_out() {
    let rule = "const __turnier_default = () => { while (true) {} };";
    let short = RunOptions {
        time: Duration::from_millis(200),
        ..options()
    };
    assert_eq!(
        run_with(rule, ScriptKind::Deck, &[deck()], short),
        Err(RunError::Timeout)
    );
    assert_still_works();
}

#[test]
fn a_cancelled_run_stops_as_cancelled_long_before_its_limit() {
    let rule = "const __turnier_default = () => { while (true) {} };";
    let cancel = Cancel::new();
    let long = RunOptions {
        time: Duration::from_secs(600),
        cancel: cancel.clone(),
        ..options()
    };
    // Set from another thread while the run loops (or before it starts: either way it stops).
    let canceller = std::thread::spawn(move || cancel.cancel());
    assert_eq!(
        run_with(rule, ScriptKind::Deck, &[deck()], long),
        Err(RunError::Cancelled)
    );
    canceller.join().expect("no panic");

    let cancelled = Cancel::new();
    cancelled.cancel();
    let never = RunOptions {
        cancel: cancelled,
        ..options()
    };
    assert_eq!(
        run_with(
            "const __turnier_default = () => 1;",
            ScriptKind::Deck,
            &[],
            never
        ),
        Err(RunError::Cancelled),
        "a cancelled run does not start"
    );
    assert_still_works();
}

#[test]
fn a_halted_sandbox_stops_its_runs_and_starts_no_more() {
    // Its own sandbox: halting is for good.
    let sandbox = Sandbox::new(Limits::default()).expect("the sandbox starts");
    let bytecode = sandbox
        .compile(&program(
            "const __turnier_default = () => { while (true) {} };",
        ))
        .expect("compiles");
    let long = RunOptions {
        time: Duration::from_secs(600),
        ..options()
    };
    let running = {
        let sandbox = sandbox.clone();
        std::thread::spawn(move || {
            sandbox
                .run(&bytecode, &request(ScriptKind::Deck, &[]), long)
                .map(|_| ())
        })
    };
    sandbox.halt();
    assert_eq!(running.join().expect("no panic"), Err(RunError::Halted));
    assert!(sandbox.is_halted());
    assert_eq!(
        sandbox
            .compile(&program("const __turnier_default = () => 2;"))
            .map(|_| ()),
        Err(RunError::Halted)
    );
}

#[test]
fn a_memory_bomb_runs_out_of_memory() {
    // Only memory may end these runs: a debug build on a loaded machine takes seconds to fill
    // 64 MiB, and the time limit is wall-clock time.
    let run = |source: &str, kind: ScriptKind, args: &[Value]| {
        let long = RunOptions {
            time: Duration::from_secs(120),
            ..options()
        };
        run_with(source, kind, args, long)
    };
    let rule = "const __turnier_default = () => {\n\
                  const hoard = [];\n\
                  while (true) { hoard.push(new Array(100000).fill(hoard.length)); }\n\
                };";
    assert_eq!(
        run(rule, ScriptKind::Deck, &[deck()]),
        Err(RunError::OutOfMemory)
    );
    let string_bomb = "const __turnier_default = () => {\n\
                         const chunks = [];\n\
                         while (true) { chunks.push('x'.repeat(1 << 20) + chunks.length); }\n\
                       };";
    assert_eq!(
        run(string_bomb, ScriptKind::Deck, &[deck()]),
        Err(RunError::OutOfMemory)
    );
    let buffer = "const __turnier_default = () => new Uint8Array(1 << 30).length;";
    assert_eq!(
        run(buffer, ScriptKind::Deck, &[deck()]),
        Err(RunError::OutOfMemory)
    );
    assert_still_works();
}

#[test]
fn deep_recursion_is_contained() {
    let rule = "const down = (n) => down(n + 1) + 1;\n\
                const __turnier_default = () => down(0);";
    // QuickJS checks no stack depth in WebAssembly; Wasmtime's stack limit ends the run.
    assert_eq!(
        run(rule, ScriptKind::Deck, &[deck()]),
        Err(RunError::Trap(
            "the call stack is exhausted (recursion too deep)".into()
        ))
    );
    let moderate = "const down = (n) => n === 0 ? 0 : down(n - 1) + 1;\n\
                    const __turnier_default = () => down(500);";
    assert_eq!(
        run(moderate, ScriptKind::Deck, &[deck()]),
        returned(json!(500))
    );
    assert_still_works();
}

#[test]
fn giant_output_is_too_large() {
    let rule = format!(
        "const __turnier_default = () => 'x'.repeat({});",
        TEST_OUTPUT_BYTES + 1
    );
    assert_eq!(
        run(&rule, ScriptKind::Deck, &[deck()]),
        Err(RunError::OutputTooLarge)
    );
    assert_still_works();
}

#[test]
fn strings_cannot_be_compiled_to_code() {
    for kind in [
        "function () {}",
        "async function () {}",
        "function* () {}",
        "async function* () {}",
    ] {
        let rule = format!(
            "const __turnier_default = () => ({kind})['constr' + 'uctor']('return this')();"
        );
        let message = thrown(run(&rule, ScriptKind::Deck, &[deck()]));
        assert!(message.contains("code generation"), "{kind}: {message}");
    }
    let via_prototype = "const __turnier_default = () => {\n\
                           const proto = Object.getPrototypeOf(() => 1);\n\
                           return proto['constr' + 'uctor']('return 1')();\n\
                         };";
    assert!(thrown(run(via_prototype, ScriptKind::Deck, &[deck()])).contains("code generation"));
    let names = "const __turnier_default = () => [typeof eval, typeof Function];";
    assert_eq!(
        run(names, ScriptKind::Deck, &[deck()]),
        returned(json!(["undefined", "undefined"]))
    );
    assert_still_works();
}

#[test]
fn the_global_object_offers_nothing_to_reach_out_with() {
    let probe = "const __turnier_default = () => [\n\
                   typeof Javy, typeof __turnier_read_stdin, typeof __turnier_write_stdout,\n\
                   typeof require, typeof process, typeof std, typeof os, typeof fetch,\n\
                   typeof XMLHttpRequest, typeof WebAssembly, typeof setTimeout,\n\
                   Object.isFrozen(globalThis),\n\
                 ];";
    let mut expected = vec![json!("undefined"); 11];
    expected.push(json!(true));
    assert_eq!(
        run(probe, ScriptKind::Deck, &[deck()]),
        returned(Value::Array(expected))
    );
    let add_global = "const __turnier_default = () => { globalThis.leak = 1; return true; };";
    assert!(thrown(run(add_global, ScriptKind::Deck, &[deck()])).starts_with("TypeError"));
    assert_still_works();
}

#[test]
fn prototypes_reached_through_computed_keys_stay_unchanged() {
    let pollute = "const __turnier_default = (deck) => {\n\
                     const proto = deck['__pro' + 'to__'];\n\
                     proto.valid = true;\n\
                     return true;\n\
                   };";
    assert!(thrown(run(pollute, ScriptKind::Deck, &[deck()])).starts_with("TypeError"));
    let through_constructor = "const __turnier_default = (deck) => {\n\
                                 const ctor = deck['constr' + 'uctor'];\n\
                                 ctor['protot' + 'ype'].issues = [];\n\
                                 return true;\n\
                               };";
    assert!(thrown(run(through_constructor, ScriptKind::Deck, &[deck()])).starts_with("TypeError"));
    let define = "const __turnier_default = () => {\n\
                    Object.defineProperty(Array.prototype, 'x', { value: 1 });\n\
                    return true;\n\
                  };";
    assert!(thrown(run(define, ScriptKind::Deck, &[deck()])).starts_with("TypeError"));
    // Nothing of the above leaked into a later run.
    let check = "const __turnier_default = () => [({}).valid, [].x, 'issues' in {}];";
    assert_eq!(
        run(check, ScriptKind::Deck, &[deck()]),
        returned(json!([null, null, false]))
    );
}

#[test]
fn there_is_no_filesystem_and_no_module_loading() {
    // No file API exists in the runtime, and the instance has no preopened directory; a dynamic
    // import has no loader to read anything with.
    let import = "const __turnier_default = () => import('/etc/passwd');";
    let output = run(import, ScriptKind::Deck, &[deck()]);
    // Javy runs no event loop: the pending import ends the run.
    assert!(matches!(output, Err(RunError::Trap(message)) if message.contains("Pending jobs")));
    let top_level = "import('/etc/passwd');\nconst __turnier_default = () => 1;";
    assert!(matches!(
        run(top_level, ScriptKind::Deck, &[deck()]),
        Err(RunError::Trap(message)) if message.contains("Pending jobs")
    ));
    assert_still_works();
}

#[test]
fn the_clock_and_random_numbers_are_deterministic() {
    let rule = "const __turnier_default = () =>\n\
                  [Date.now(), new Date().toISOString(), Math.random(), Math.random()];";
    let first = run(rule, ScriptKind::Deck, &[deck()]).unwrap();
    let second = run(rule, ScriptKind::Deck, &[deck()]).unwrap();
    assert_eq!(first, second);
    let DriverOutput::Single(Outcome::Returned(Value::Array(values))) = &first else {
        panic!("expected an array, got {first:?}");
    };
    assert_eq!(values[0], json!(1_772_366_400_000_u64));
    assert_eq!(values[1], json!("2026-03-01T12:00:00.000Z"));
    assert_ne!(values[2], values[3]);
    let random = values[2].as_f64().unwrap();
    assert!((0.0..1.0).contains(&random));

    let other_seed = RunOptions {
        seed: 8,
        ..options()
    };
    let third = run_with(rule, ScriptKind::Deck, &[deck()], other_seed).unwrap();
    let DriverOutput::Single(Outcome::Returned(Value::Array(other))) = third else {
        panic!("expected an array");
    };
    assert_eq!(other[0], values[0]);
    assert_ne!(other[2], values[2]);
}

#[test]
fn the_clock_stands_still_during_a_run() {
    let rule = "const __turnier_default = () => {\n\
                  const start = Date.now();\n\
                  let spins = 0;\n\
                  while (spins < 200000) { spins += 1; }\n\
                  return Date.now() - start;\n\
                };";
    assert_eq!(run(rule, ScriptKind::Deck, &[deck()]), returned(json!(0)));
}

/// Any JSON value: strings of any characters, integers JavaScript holds exactly, fractions,
/// nested arrays and objects with any keys.
fn any_json() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-(1i64 << 53)..(1i64 << 53)).prop_map(Value::from),
        // Fractions whose shortest decimal form reads back as the same double.
        (-1_000_000i32..1_000_000, 1u8..8).prop_map(|(whole, eighths)| {
            Value::from(f64::from(whole) + f64::from(eighths) / 8.0)
        }),
        any::<String>().prop_map(Value::from),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::vec((any::<String>(), inner), 0..8)
                .prop_map(|fields| Value::Object(fields.into_iter().collect())),
        ]
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// The reader in the plugin gives the script exactly the JSON it was sent, frozen.
    #[test]
    fn any_json_reaches_the_script_unchanged_and_frozen(value in any_json()) {
        let echo = "const __turnier_default = (value) => [value, \n\
                      ((v) => { const all = (x) => typeof x !== 'object' || x === null ||\n\
                        (Object.isFrozen(x) && Object.values(x).every(all)); return all(v); })(value)];";
        proptest::prop_assert_eq!(
            run(echo, ScriptKind::Deck, std::slice::from_ref(&value)),
            returned(json!([value, true]))
        );
    }
}

/// A second sandbox with the same compile cache compiles nothing: both modules (the instrumented
/// plugin and its snapshot) come back from the cache, and it runs scripts as the first one does.
#[test]
fn a_second_sandbox_reads_the_plugin_from_the_compile_cache() {
    let dir = tempfile::tempdir().expect("temp dir");
    let limits = Limits {
        instances: 2,
        compile_cache: CompileCache::Dir(dir.path().join("wasmtime")),
        ..Limits::default()
    };
    let first = Sandbox::new(limits.clone()).expect("the sandbox starts");
    assert_eq!(
        first.compile_cache_counts(),
        Some((0, 2)),
        "both compiled once"
    );
    let second = Sandbox::new(limits).expect("the sandbox starts again");
    assert_eq!(
        second.compile_cache_counts(),
        Some((2, 0)),
        "both read back"
    );

    let source = "const __turnier_default = (card) => card.hp > 100;";
    for sandbox in [&first, &second] {
        let bytecode = sandbox.compile(&program(source)).expect("compiles");
        let output = sandbox
            .run(
                &bytecode,
                &request(ScriptKind::Card, &[json!({"hp": 120})]),
                options(),
            )
            .expect("runs");
        assert_eq!(
            DriverOutput::parse(&output.stdout).expect("one line"),
            DriverOutput::Single(Outcome::Returned(json!(true)))
        );
    }
    // A sandbox without a cache says so.
    assert_eq!(SANDBOX.compile_cache_counts(), None);
}

/// A cache directory that cannot be created is a slower start, not a failure.
#[test]
fn an_unusable_compile_cache_only_costs_the_compile() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a directory").expect("written");
    let sandbox = Sandbox::new(Limits {
        instances: 1,
        compile_cache: CompileCache::Dir(file.join("wasmtime")),
        ..Limits::default()
    })
    .expect("the sandbox starts without its cache");
    assert_eq!(sandbox.compile_cache_counts(), None);
}

#[test]
fn a_compile_cache_setting_is_off_or_an_absolute_directory() {
    assert_eq!(CompileCache::parse("off"), Ok(CompileCache::Off));
    assert_eq!(CompileCache::parse(" OFF "), Ok(CompileCache::Off));
    assert!(CompileCache::parse("").is_err());
    let Ok(CompileCache::Dir(dir)) = CompileCache::parse("cache/here") else {
        panic!("a directory")
    };
    assert!(
        dir.is_absolute() && dir.ends_with("cache/here"),
        "{}",
        dir.display()
    );
}
