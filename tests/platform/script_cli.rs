//! `turnier script check` and `turnier script run` as the real binary: the interface issue 7
//! documents (JSON on stdout, exit 1 for a rejected or failed script), the result shapes of
//! the script references, and the hostile scripts a sandbox must contain.

use crate::support;

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};
use support::{run, run_with_stdin};

struct Script {
    dir: tempfile::TempDir,
}

impl Script {
    fn new(source: &str) -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder");
        std::fs::write(dir.path().join("script.js"), source).expect("the script is written");
        Self { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn check(&self) -> Output {
        run(self.path(), &["script", "check", "script.js"], &[])
    }

    fn run(&self, kind: &str, input: &Value, extra: &[&str]) -> Output {
        let mut args = vec!["script", "run", "script.js", "--kind", kind];
        args.extend(extra);
        run_with_stdin(self.path(), &args, &[], &input.to_string())
    }

    /// Runs with a data folder of its own: the local catalog holds only the sample cards.
    fn run_on_sample_catalog(&self, kind: &str, input: &Value) -> Output {
        let data = tempfile::tempdir().expect("a temporary folder");
        let env = [("TURNIER_DATA_DIR", data.path().to_str().expect("UTF-8"))];
        let args = ["script", "run", "script.js", "--kind", kind];
        run_with_stdin(self.path(), &args, &env, &input.to_string())
    }
}

/// The one JSON line on stdout.
fn json_out(output: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON value ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn ok(output: &Output) -> Value {
    assert!(
        output.status.success(),
        "exit {:?}: {}\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    json_out(output)
}

/// The error code of a failed run (exit 1, `{"error": {"code", "message"}}`).
fn error_code(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let json = json_out(output);
    assert!(
        json["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{json}"
    );
    json["error"]["code"].as_str().expect("a code").to_owned()
}

#[test]
fn check_prints_the_issues_with_positions_and_exits_1_when_rejected() {
    let rejected = Script::new(
        "export default function validateDeck(deck) {\n  var total = 0;\n  fetch(\"https://example.com\");\n  return total === 0;\n}\n",
    );
    let output = rejected.check();
    assert_eq!(output.status.code(), Some(1));
    let report = json_out(&output);
    assert_eq!(report["safe"], false);
    let issues: Vec<(&str, u64, u64)> = report["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .map(|i| {
            (
                i["code"].as_str().expect("code"),
                i["line"].as_u64().expect("line"),
                i["column"].as_u64().expect("column"),
            )
        })
        .collect();
    assert_eq!(
        issues,
        [("variable_kind_unsupported", 2, 3), ("unsafe_global", 3, 3)]
    );

    let safe = Script::new("export default function validateDeck(deck) { return true; }\n");
    assert_eq!(ok(&safe.check()), json!({"safe": true, "issues": []}));
}

#[test]
fn a_deck_rule_sees_the_deck_in_the_given_order_and_its_result_is_normalized() {
    let script = Script::new(
        r#"export default function validateDeck(deck, cardsById) {
  const refs = Object.keys(deck);
  const total = Object.values(deck).reduce((sum, copies) => sum + copies, 0);
  if (total === 40) return true;
  return {
    valid: false,
    issues: [
      `  Decks need exactly 40 cards (found ${total}).  `,
      { code: "order", message: refs.join(","), metadata: { first: refs[0], total, nested: {} } },
      { code: "  " },
      42,
    ],
  };
}
"#,
    );
    let input = json!({"deck": {"zed": 3, "ahri": 2, "braum": 1}, "cardsById": {}});
    assert_eq!(
        ok(&script.run("deck", &input, &[])),
        json!({"valid": false, "issues": [
            {"message": "Decks need exactly 40 cards (found 6)."},
            {"code": "order", "message": "zed,ahri,braum",
             "metadata": {"first": "zed", "total": 6.0}}
        ]})
    );
    let forty = json!({"deck": {"zed": 40}, "cardsById": {}});
    assert_eq!(
        ok(&script.run("deck", &forty, &[])),
        json!({"valid": true, "issues": []})
    );
}

#[test]
fn rules_fall_back_to_the_scope_message_and_find_named_entry_points() {
    // No default export: the named fallback runs; `false` fails with the fallback message.
    let script = Script::new("function validateDeck(deck) { return false; }\n");
    assert_eq!(
        ok(&script.run("deck", &json!({"deck": {}, "cardsById": {}}), &[])),
        json!({"valid": false, "issues": [{"message": "Saved deck rule rejected this deck."}]})
    );
    // A card rule with the context argument.
    let card = Script::new(
        "export default (card, context) => card.cost <= context.globals.maxCost || `${card.name} costs too much`;\n",
    );
    let input = json!({"card": {"name": "Zed", "cost": 3}, "context": {"globals": {"maxCost": 2}}});
    let result = ok(&card.run("card", &input, &[]));
    assert_eq!(result["valid"], false);
    // A deck set rule over a lineup.
    let lineup = Script::new(
        "export default function (decks) { return decks.length === 3 || { valid: false, issues: [{ code: \"lineup_size\" }] }; }\n",
    );
    let input = json!({"decks": [{"a": 1}, {"b": 1}], "cardsById": {}});
    assert_eq!(
        ok(&lineup.run("deckset", &input, &[])),
        json!({"valid": false, "issues": [{"code": "lineup_size"}]})
    );
}

#[test]
fn failures_print_their_code_and_exit_1() {
    let empty = Script::new("   \n");
    assert_eq!(
        error_code(&empty.run("calculator", &json!({"pile": {}, "cardsById": {}}), &[])),
        "empty_source"
    );
    let no_compute = Script::new("function other() { return 1; }\n");
    let output = no_compute.run("calculator", &json!({"pile": {}, "cardsById": {}}), &[]);
    assert_eq!(
        json_out(&output)["error"]["message"],
        "Calculator script did not export a compute function."
    );
    assert_eq!(error_code(&output), "no_entry_point");
    let no_rule = Script::new("const helper = 1;\n");
    assert_eq!(
        error_code(&no_rule.run("deck", &json!({"deck": {}, "cardsById": {}}), &[])),
        "no_entry_point"
    );
    let unsafe_script = Script::new("export default function (deck) { return this.ok; }\n");
    assert_eq!(
        error_code(&unsafe_script.run("deck", &json!({"deck": {}, "cardsById": {}}), &[])),
        "unsafe_script"
    );
    let throws = Script::new("export default function (deck) { return deck.missing.field; }\n");
    let output = throws.run("deck", &json!({"deck": {}, "cardsById": {}}), &[]);
    assert!(
        json_out(&output)["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("TypeError")),
        "{output:?}"
    );
    assert_eq!(error_code(&output), "script_error");
    let frozen = Script::new("export default function (deck) { deck.extra = 1; return true; }\n");
    assert_eq!(
        error_code(&frozen.run("deck", &json!({"deck": {}, "cardsById": {}}), &[])),
        "script_error",
        "inputs are frozen: writing to them throws"
    );
    let missing = Script::new("export default () => true;\n");
    assert_eq!(
        error_code(&missing.run("deck", &json!({"deck": {}}), &[])),
        "invalid_input"
    );
}

#[test]
fn hostile_scripts_are_stopped_with_the_error_the_caller_sees() {
    let input = json!({"deck": {}, "cardsById": {}});
    let endless = Script::new("export default function () { for (;;) {} }\n");
    assert_eq!(
        error_code(&endless.run("deck", &input, &["--timeout-ms", "300"])),
        "timeout"
    );
    let memory = Script::new(
        "export default function () { const all = []; for (;;) { all.push(Array(100000).fill(1)); } }\n",
    );
    assert_eq!(
        error_code(&memory.run("deck", &input, &[])),
        "out_of_memory"
    );
    let recursion = Script::new(
        "function down(n) { return down(n + 1) + 1; }\nexport default function () { return down(0); }\n",
    );
    assert_eq!(
        error_code(&recursion.run("deck", &input, &[])),
        "script_error"
    );
    let escape = Script::new(
        "export default function () { const F = (function () {})[\"constr\" + \"uctor\"]; return F(\"return globalThis\")(); }\n",
    );
    assert_eq!(error_code(&escape.run("deck", &input, &[])), "script_error");
}

#[test]
fn a_calculator_prints_its_widgets_as_normalized() {
    let script = Script::new(
        r#"export default function compute(pile, cardsById) {
  const total = Object.values(pile).reduce((sum, copies) => sum + copies, 0);
  return {
    widgets: [
      { kind: "stat", label: "Cards", value: total, unit: "cards", extra: true },
      { kind: "histogram", label: 7, buckets: ["2", null, Infinity], labels: ["1", 2, true] },
      { kind: "sparkline", label: "dropped" },
      { kind: "ratio", label: "Ratio", numerator: 3, denominator: 0, format: "percent" },
    ],
  };
}
"#,
    );
    let input = json!({"pile": {"a": 3, "b": 2}, "cardsById": {}});
    assert_eq!(
        ok(&script.run("calculator", &input, &[])),
        json!({"widgets": [
            {"kind": "stat", "label": "Cards", "value": 5.0, "unit": "cards"},
            {"kind": "histogram", "label": "", "buckets": [2.0, 0.0, 0.0],
             "labels": ["1", "2", "true"]},
            {"kind": "ratio", "label": "Ratio", "numerator": 3.0, "denominator": 0.0,
             "format": "percent", "noData": true}
        ]})
    );
}

#[test]
fn a_card_rule_runs_over_a_pool_in_one_run_and_pool_filters_are_patched() {
    let script = Script::new(
        "export default function (card) { if (card.cost === undefined) throw new TypeError(\"no cost\"); return card.cost < 3; }\n\nexport function resolvePoolFilters(input) { return { cardTypes: [\"unit\"], typo: [\"x\"], domains: [] }; }\n",
    );
    // `new TypeError` is not allowed: the script is rejected as a whole.
    let input = json!({"cards": [{"cost": 1}]});
    assert_eq!(
        error_code(&script.run("card-pool", &input, &[])),
        "unsafe_script"
    );

    let script = Script::new(
        "export default function (card) { if (card.cost === undefined) { return card.missing.cost; } return card.cost < 3; }\n\nexport function resolvePoolFilters(input) { return { cardTypes: [\"unit\"], typo: [\"x\"], domains: [] }; }\n",
    );
    let input = json!({"cards": [{"cost": 1}, {"cost": 5}, {}]});
    let verdicts = ok(&script.run("card-pool", &input, &[]));
    assert_eq!(
        verdicts["verdicts"][0],
        json!({"valid": true, "issues": []})
    );
    assert_eq!(verdicts["verdicts"][1]["valid"], false);
    assert_eq!(verdicts["verdicts"][2]["error"]["code"], "script_error");

    let input = json!({"game": "riftbound", "input": {"lineup": [], "activePileId": "main",
                                                     "cardsById": {}, "filters": {}}});
    assert_eq!(
        ok(&script.run("pool-filters", &input, &[])),
        json!({"patch": {"cardTypes": ["unit"], "domains": []}})
    );
}

#[test]
fn a_card_rule_runs_over_a_whole_local_catalog() {
    let script = Script::new(
        "export default (card) => ({ valid: card.game.supertype === \"Pokemon\", issues: [card.name] });\n",
    );
    let verdicts = ok(&script.run_on_sample_catalog("card-pool", &json!({"game": "pokemon"})));
    let verdicts = verdicts["verdicts"].as_array().expect("verdicts");
    assert!(
        verdicts.iter().all(|verdict| verdict["cardId"].is_string()),
        "{verdicts:?}"
    );
    // The sample catalog holds Pikachu ex (svp-106).
    let pikachu = verdicts
        .iter()
        .find(|verdict| verdict["issues"][0]["message"] == "Pikachu ex")
        .expect("a verdict for every catalog card");
    assert_eq!(pikachu["valid"], true);
    assert_eq!(
        pikachu
            .as_object()
            .and_then(|fields| fields.keys().next())
            .map(String::as_str),
        Some("cardId"),
        "the card's id comes first"
    );

    let output = script.run_on_sample_catalog("card-pool", &json!({"game": "chess"}));
    assert_eq!(error_code(&output), "invalid_input");
    assert!(
        json_out(&output)["error"]["message"]
            .as_str()
            .is_some_and(|message| message.contains("chess"))
    );
}

/// `turnier script run` keeps the compiled plugin in the compile cache it is given, and runs
/// the same from it; `off` compiles it in process.
#[test]
fn the_compiled_plugin_is_kept_between_runs_in_the_compile_cache() {
    let script = Script::new("export default (deck) => Object.keys(deck).length === 1;");
    let cache = tempfile::tempdir().expect("a temporary folder");
    let dir = cache.path().join("wasmtime");
    let setting = dir.to_str().expect("UTF-8").to_owned();
    let files = |dir: &Path| -> usize {
        fn count(dir: &Path) -> usize {
            std::fs::read_dir(dir).map_or(0, |entries| {
                entries
                    .flatten()
                    .map(|entry| {
                        let path = entry.path();
                        if path.is_dir() {
                            count(&path)
                        } else {
                            // Wasmtime's worker keeps usage counters beside each entry.
                            usize::from(path.extension().is_none_or(|ext| ext != "stats"))
                        }
                    })
                    .sum()
            })
        }
        count(&dir.join("modules"))
    };
    let input = json!({"deck": {"a": 1}, "cardsById": {}});
    let run = |setting: &str| {
        let env = [("TURNIER_SCRIPT_COMPILE_CACHE", setting)];
        let args = ["script", "run", "script.js", "--kind", "deck"];
        ok(&run_with_stdin(
            script.path(),
            &args,
            &env,
            &input.to_string(),
        ))
    };
    assert_eq!(run(&setting), json!({"valid": true, "issues": []}));
    let kept = files(&dir);
    assert_eq!(kept, 2, "the instrumented plugin and its snapshot");
    assert_eq!(run(&setting), json!({"valid": true, "issues": []}));
    assert_eq!(files(&dir), kept, "the second run compiled nothing new");

    // Off, the plugin is compiled in process and nothing is kept.
    assert_eq!(run("off"), json!({"valid": true, "issues": []}));
    assert_eq!(files(&dir), kept);
}

/// A script the static check passes but the engine cannot compile (nesting deeper than its
/// parser takes) is not safe: the check says why instead of `safe: true`.
#[test]
fn check_refuses_a_script_nested_too_deeply_to_compile() {
    let depth = 5_000;
    let source = format!(
        "export default () => {}1{};\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let script = Script::new(&source);
    let output = script.check();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let report = json_out(&output);
    assert_eq!(report["safe"], false, "{report}");
    assert_eq!(report["issues"][0]["code"], "invalid_syntax");
    let message = report["issues"][0]["message"].as_str().expect("a message");
    assert!(message.contains("cannot be compiled"), "{message}");
    // Shallow nesting still passes.
    let shallow = Script::new("export default () => [[[[1]]]];\n");
    assert_eq!(ok(&shallow.check())["safe"], true);
}
