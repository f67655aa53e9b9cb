//! The static safety check and the source preparation against the spec: every JavaScript example
//! of the scripting pages (`spec/turny/reference-scripting-{sandbox,rulesets,calculators}.md`) and
//! of the two guides (`guide-rulesets.md`, `guide-calculators.md`), one test per rejected
//! construct, and properties over arbitrary and mutated scripts.
//!
//! The spec folder is `shared/spec` beside the repository (`kit::testing::shared`). The pages
//! are read at test time, never copied into the repository; a missing folder fails the test.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use proptest::prelude::*;
use scripts::domain::prepare::{PrepareError, prepare};
use scripts::domain::safety::{IssueCode, MAX_ISSUES, MAX_SOURCE_BYTES, SafetyReport, check};

// The built-in rules go through the same check (`tests/safety/` is not a test binary of its own).
#[path = "safety/builtin.rs"]
mod builtin;

/// The pages whose examples are tests, with how many ```js blocks each holds.
const PAGES: [(&str, usize); 5] = [
    ("reference-scripting-sandbox.md", 5),
    ("reference-scripting-rulesets.md", 6),
    ("reference-scripting-calculators.md", 12),
    ("guide-rulesets.md", 5),
    ("guide-calculators.md", 10),
];

/// One ```js block of a spec page.
#[derive(Debug, Clone)]
struct Example {
    page: &'static str,
    /// 1-based line of the opening fence on the page.
    line: usize,
    code: String,
    /// The codes its `// Rejected: a, b.` comment names; `None` for a passing example.
    rejected: Option<Vec<String>>,
}

impl Example {
    fn name(&self) -> String {
        format!("{}:{}", self.page, self.line)
    }
}

/// Every ```js block of the five pages (```ts signatures and ```text blocks are not scripts).
fn examples() -> &'static [Example] {
    static EXAMPLES: OnceLock<Vec<Example>> = OnceLock::new();
    EXAMPLES.get_or_init(|| {
        let dir = kit::testing::shared::spec_dir().join("turny");
        let mut all = Vec::new();
        for (page, expected) in PAGES {
            let path = dir.join(page);
            let text = std::fs::read_to_string(&path).unwrap_or_else(|error| {
                panic!(
                    "cannot read {} ({error}); set TURNIER_SHARED_DIR",
                    path.display()
                )
            });
            let found = js_blocks(page, &text);
            assert_eq!(found.len(), expected, "```js blocks on {page}");
            all.extend(found);
        }
        all
    })
}

fn js_blocks(page: &'static str, text: &str) -> Vec<Example> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, Vec<&str>)> = None;
    for (index, line) in text.lines().enumerate() {
        match &mut open {
            None if line == "```js" || line.starts_with("```js ") => {
                open = Some((index + 1, vec![]))
            }
            None => {}
            Some(_) if line == "```" => {
                let Some((start, lines)) = open.take() else {
                    unreachable!()
                };
                let code = lines.join("\n") + "\n";
                let rejected = rejected_codes(&code);
                blocks.push(Example {
                    page,
                    line: start,
                    code,
                    rejected,
                });
            }
            Some((_, lines)) => lines.push(line),
        }
    }
    assert!(open.is_none(), "unclosed ```js block on {page}");
    blocks
}

/// The codes of a `// Rejected: code_a, code_b.` (or `… code (why).`) comment.
fn rejected_codes(code: &str) -> Option<Vec<String>> {
    let line = code
        .lines()
        .find_map(|line| line.trim().strip_prefix("// Rejected:"))?;
    let list = line.split(['(', '.']).next().unwrap_or_default();
    Some(list.split(',').map(|code| code.trim().to_owned()).collect())
}

fn codes(report: &SafetyReport) -> Vec<&'static str> {
    report
        .issues
        .iter()
        .map(|issue| issue.code.as_str())
        .collect()
}

/// The "Mulligan chance" block of the calculators guide is pasted into the builder's generated
/// script, whose helpers (`rows`, `filterRows`, `totalWeight`, …) it uses. This host declares
/// them as the guide's outline of that script does; `FRAGMENT` is where the block goes.
const BUILDER_HOST: &str = r"export default function compute(pile, cardsById) {
  const rows = Object.keys(pile).map((ref) => ({ quantity: pile[ref], card: cardsById[ref] }));
  const filterRows = (test) => rows.filter(test);
  const totalWeight = (selection, weightOf) =>
    selection.reduce((sum, row) => sum + weightOf(row), 0);
  const containsValue = (haystack, needle) =>
    Array.isArray(haystack) && haystack.indexOf(needle) !== -1;
  const roundTo = (value, places) => Math.round(value * 10 ** places) / 10 ** places;
  const widgets = [];

FRAGMENT
  return { widgets: widgets };
}
";

/// The guide's pasted fragments: the first line that identifies each.
const FRAGMENTS: [&str; 1] = ["// Mulligan chance (hand-written)"];

fn is_fragment(example: &Example) -> bool {
    FRAGMENTS
        .iter()
        .any(|first| example.code.starts_with(first))
}

/// Asserts what `prepare` makes of a safe script: a module body that is still safe and keeps every
/// line of the user's code on its line.
fn assert_prepares_line_for_line(name: &str, source: &str) {
    let prepared = prepare(source).unwrap_or_else(|error| panic!("{name}: {error}"));
    let report = check(&prepared.source);
    assert!(
        report.safe,
        "{name}: the prepared source fails the check: {report:?}"
    );
    let original: Vec<&str> = source.lines().collect();
    let rewritten: Vec<&str> = prepared.source.lines().collect();
    assert!(rewritten.len() >= original.len(), "{name}: lines were lost");
    for (number, (before, after)) in original.iter().zip(&rewritten).enumerate() {
        // A rewritten line keeps its code; only the export syntax around it changes.
        let kept = before.replace("export default ", "").replace("export ", "");
        let kept = kept.trim().trim_end_matches(';');
        assert!(
            after.contains(kept),
            "{name}: line {} moved: {before:?} became {after:?}",
            number + 1
        );
    }
}

#[test]
fn every_passing_example_passes_and_every_rejected_one_names_its_codes() {
    let mut rejected = 0;
    for example in examples().iter().filter(|example| !is_fragment(example)) {
        let report = check(&example.code);
        match &example.rejected {
            Some(expected) => {
                rejected += 1;
                assert_eq!(codes(&report), *expected, "{}: {report:?}", example.name());
                assert!(!report.safe);
            }
            None => {
                assert!(report.safe, "{} is rejected: {report:?}", example.name());
                assert!(report.issues.is_empty());
                assert_prepares_line_for_line(&example.name(), &example.code);
            }
        }
    }
    // Four on the sandbox page, one in the rulesets guide's troubleshooting.
    assert_eq!(rejected, 5);
}

#[test]
fn the_pasted_guide_fragment_passes_inside_the_builder_script() {
    let fragments: Vec<&Example> = examples().iter().filter(|e| is_fragment(e)).collect();
    assert_eq!(fragments.len(), FRAGMENTS.len());
    for fragment in fragments {
        // On its own the fragment reads the builder's helpers as globals.
        let alone = check(&fragment.code);
        let mut free: Vec<&str> = alone
            .issues
            .iter()
            .map(|issue| {
                assert_eq!(issue.code, IssueCode::UnsafeGlobal, "{issue:?}");
                issue.message.split('`').nth(1).unwrap_or_default()
            })
            .collect();
        free.sort_unstable();
        free.dedup();
        assert_eq!(
            free,
            [
                "containsValue",
                "filterRows",
                "roundTo",
                "rows",
                "totalWeight",
                "widgets"
            ]
        );

        let hosted = BUILDER_HOST.replace("FRAGMENT", &fragment.code);
        let report = check(&hosted);
        assert!(report.safe, "{}: {report:?}", fragment.name());
        assert_prepares_line_for_line(&fragment.name(), &hosted);
    }
}

/// `(source, code, line, column)`: the only issue `source` gives.
const SINGLE_ISSUES: &[(&str, IssueCode, u32, u32)] = &[
    // invalid_syntax: empty, parse errors, strict mode.
    ("", IssueCode::InvalidSyntax, 1, 1),
    ("  \n\t\n", IssueCode::InvalidSyntax, 1, 1),
    ("const total = ;", IssueCode::InvalidSyntax, 1, 15),
    ("const a = 1;\nwith (a) {}", IssueCode::InvalidSyntax, 2, 1),
    ("const n = 010;", IssueCode::InvalidSyntax, 1, 11),
    ("const r = /(/;", IssueCode::InvalidSyntax, 1, 12),
    ("let x = 1;\nlet x = 2;", IssueCode::InvalidSyntax, 2, 5),
    (
        "function f(o) { delete o; }",
        IssueCode::InvalidSyntax,
        1,
        24,
    ),
    // syntax_unsupported.
    (
        "import helper from \"./helper.js\";",
        IssueCode::SyntaxUnsupported,
        1,
        1,
    ),
    (
        "const m = import(\"./m.js\");",
        IssueCode::SyntaxUnsupported,
        1,
        11,
    ),
    (
        "const u = import.meta.url;",
        IssueCode::SyntaxUnsupported,
        1,
        11,
    ),
    (
        "export * from \"./m.js\";",
        IssueCode::SyntaxUnsupported,
        1,
        1,
    ),
    (
        "export * as m from \"./m.js\";",
        IssueCode::SyntaxUnsupported,
        1,
        1,
    ),
    (
        "const a = 1;\nexport { a };",
        IssueCode::SyntaxUnsupported,
        2,
        1,
    ),
    (
        "export { a } from \"./m.js\";",
        IssueCode::SyntaxUnsupported,
        1,
        1,
    ),
    (
        "export const LIMIT = 3;",
        IssueCode::SyntaxUnsupported,
        1,
        1,
    ),
    (
        "export function validateDeck(deck) { return true; }",
        IssueCode::SyntaxUnsupported,
        1,
        1,
    ),
    (
        "function f() {\n  return this;\n}",
        IssueCode::SyntaxUnsupported,
        2,
        10,
    ),
    (
        "const o = { m() { return super.m(); } };",
        IssueCode::SyntaxUnsupported,
        1,
        26,
    ),
    (
        "const o = { a: 1 };\ndelete o.a;",
        IssueCode::SyntaxUnsupported,
        2,
        1,
    ),
    (
        "outer: for (;;) { break outer; }",
        IssueCode::SyntaxUnsupported,
        1,
        1,
    ),
    ("debugger;", IssueCode::SyntaxUnsupported, 1, 1),
    (
        "const o = { get total() { return 1; } };",
        IssueCode::SyntaxUnsupported,
        1,
        13,
    ),
    (
        "const o = { set total(v) {} };",
        IssueCode::SyntaxUnsupported,
        1,
        13,
    ),
    (
        "const s = String.raw`a${1}`;",
        IssueCode::SyntaxUnsupported,
        1,
        11,
    ),
    (
        "function f() { return new.target; }",
        IssueCode::SyntaxUnsupported,
        1,
        23,
    ),
    // variable_kind_unsupported.
    (
        "function f() {\n  var total = 0;\n  return total;\n}",
        IssueCode::VariableKindUnsupported,
        2,
        3,
    ),
    // async_unsupported.
    (
        "const f = async (deck) => true;",
        IssueCode::AsyncUnsupported,
        1,
        11,
    ),
    (
        "const o = { async check() {} };",
        IssueCode::AsyncUnsupported,
        1,
        13,
    ),
    ("const value = await 1;", IssueCode::AsyncUnsupported, 1, 15),
    // generator_unsupported.
    (
        "function* cards() {}",
        IssueCode::GeneratorUnsupported,
        1,
        1,
    ),
    (
        "const o = { *cards() {} };",
        IssueCode::GeneratorUnsupported,
        1,
        13,
    ),
    (
        "const g = function* () {};",
        IssueCode::GeneratorUnsupported,
        1,
        11,
    ),
    // unsafe_assignment.
    ("total = 1;", IssueCode::UnsafeAssignment, 1, 1),
    (
        "function f() { total += 1; }",
        IssueCode::UnsafeAssignment,
        1,
        16,
    ),
    (
        "function f() { total++; }",
        IssueCode::UnsafeAssignment,
        1,
        16,
    ),
    (
        "let first;\n[first, ...rest] = [1, 2];",
        IssueCode::UnsafeAssignment,
        2,
        12,
    ),
    ("for (card of []) {}", IssueCode::UnsafeAssignment, 1, 6),
    ("for (key in {}) {}", IssueCode::UnsafeAssignment, 1, 6),
    ("Math = {};", IssueCode::UnsafeAssignment, 1, 1),
    ("undefined = 1;", IssueCode::UnsafeAssignment, 1, 1),
    // new_expression_unsupported.
    (
        "throw new Error(\"no\");",
        IssueCode::NewExpressionUnsupported,
        1,
        7,
    ),
    (
        "const Map = Object;\nconst m = new Map();",
        IssueCode::NewExpressionUnsupported,
        2,
        11,
    ),
    (
        "function f(Date) {\n  return new Date();\n}",
        IssueCode::NewExpressionUnsupported,
        2,
        10,
    ),
    (
        "const d = new (() => 1)();",
        IssueCode::NewExpressionUnsupported,
        1,
        11,
    ),
    (
        "const d = new Math.max();",
        IssueCode::NewExpressionUnsupported,
        1,
        11,
    ),
    // unsafe_global.
    (
        "fetch(\"https://example.com\");",
        IssueCode::UnsafeGlobal,
        1,
        1,
    ),
    (
        "const n = parseInt(\"3\", 10);",
        IssueCode::UnsafeGlobal,
        1,
        11,
    ),
    (
        "const n = parseFloat(\"3\");",
        IssueCode::UnsafeGlobal,
        1,
        11,
    ),
    ("console.log(1);", IssueCode::UnsafeGlobal, 1, 1),
    ("const g = globalThis;", IssueCode::UnsafeGlobal, 1, 11),
    ("const e = eval;", IssueCode::UnsafeGlobal, 1, 11),
    ("const F = Function;", IssueCode::UnsafeGlobal, 1, 11),
    ("const p = Promise;", IssueCode::UnsafeGlobal, 1, 11),
    ("const s = Symbol;", IssueCode::UnsafeGlobal, 1, 11),
    ("const w = WeakMap;", IssueCode::UnsafeGlobal, 1, 11),
    ("const t = typeof window;", IssueCode::UnsafeGlobal, 1, 18),
    (
        "function f() { return arguments; }",
        IssueCode::UnsafeGlobal,
        1,
        23,
    ),
    // property_access_blocked.
    (
        "function f(card) { return card.constructor; }",
        IssueCode::PropertyAccessBlocked,
        1,
        32,
    ),
    (
        "function f(card) { return card[\"prototype\"]; }",
        IssueCode::PropertyAccessBlocked,
        1,
        32,
    ),
    (
        "function f(card) { return card[`__proto__`]; }",
        IssueCode::PropertyAccessBlocked,
        1,
        32,
    ),
    (
        "function f(card) { return card?.caller; }",
        IssueCode::PropertyAccessBlocked,
        1,
        33,
    ),
    (
        "function f(card) { return card.arguments; }",
        IssueCode::PropertyAccessBlocked,
        1,
        32,
    ),
    (
        "function f(card) { card.__proto__ = null; }",
        IssueCode::PropertyAccessBlocked,
        1,
        25,
    ),
    (
        "function f(o) { return o.__lookupGetter__; }",
        IssueCode::PropertyAccessBlocked,
        1,
        26,
    ),
    (
        "function f(o) { return o.callee; }",
        IssueCode::PropertyAccessBlocked,
        1,
        26,
    ),
    (
        "function f(card) { const { constructor } = card; }",
        IssueCode::PropertyAccessBlocked,
        1,
        28,
    ),
    (
        "function f(card) { const { prototype: p } = card; }",
        IssueCode::PropertyAccessBlocked,
        1,
        28,
    ),
    (
        "function f({ constructor: c }) {}",
        IssueCode::PropertyAccessBlocked,
        1,
        14,
    ),
    (
        "let c;\n({ constructor: c } = {});",
        IssueCode::PropertyAccessBlocked,
        2,
        4,
    ),
    (
        "const o = { __proto__: null };",
        IssueCode::PropertyAccessBlocked,
        1,
        13,
    ),
    (
        "const o = { \"prototype\": 1 };",
        IssueCode::PropertyAccessBlocked,
        1,
        13,
    ),
    (
        "const o = { [\"__defineSetter__\"]: 1 };",
        IssueCode::PropertyAccessBlocked,
        1,
        14,
    ),
    // Escapes name the same identifier or property.
    ("\\u0066etch();", IssueCode::UnsafeGlobal, 1, 1),
    (
        "const o = {};\no.\\u0063onstructor;",
        IssueCode::PropertyAccessBlocked,
        2,
        3,
    ),
    (
        "const o = {};\no[\"\\x63onstructor\"];",
        IssueCode::PropertyAccessBlocked,
        2,
        3,
    ),
    (
        "const o = {};\no[`\\u{70}rototype`];",
        IssueCode::PropertyAccessBlocked,
        2,
        3,
    ),
];

#[test]
fn each_rejected_construct_gives_its_code_at_its_position() {
    let mut wrong = Vec::new();
    for &(source, code, line, column) in SINGLE_ISSUES {
        let report = check(source);
        let found: Vec<_> = report
            .issues
            .iter()
            .map(|issue| (issue.code, issue.line, issue.column))
            .collect();
        if report.safe || found != [(code, line, column)] || report.issues[0].message.is_empty() {
            wrong.push(format!(
                "{source:?}: expected {:?}, got {report:?}",
                (code, line, column)
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn messages_name_the_construct() {
    let message = |source: &str| check(source).issues[0].message.clone();
    assert_eq!(message("fetch();"), "`fetch` is not an allowed global");
    assert_eq!(
        message("var total = 0;"),
        "`var` is not allowed: use `let` or `const`"
    );
    assert!(message("throw new Error(\"x\");").contains("`new Error`"));
    assert!(message("const card = {};\ncard.constructor;").contains("`constructor`"));
    assert!(message("total = 1;").contains("`total`"));
    assert!(message("export function helper() {}").contains("`resolvePoolFilters`"));
    assert_eq!(message(""), "the script is empty");
}

#[test]
fn constructs_with_several_issues_report_each() {
    let cases: &[(&str, &[&str])] = &[
        ("class Rule {}", &["syntax_unsupported"]),
        ("const Rule = class {};", &["syntax_unsupported"]),
        ("export default class {}", &["syntax_unsupported"]),
        (
            "export class Rule {}",
            &["syntax_unsupported", "syntax_unsupported"],
        ),
        (
            "async function f() { await 1; }",
            &["async_unsupported", "async_unsupported"],
        ),
        (
            "function* g() { yield 1; }",
            &["generator_unsupported", "generator_unsupported"],
        ),
        (
            "async function* g() {}",
            &["async_unsupported", "generator_unsupported"],
        ),
        (
            "export async function resolvePoolFilters(input) {}",
            &["async_unsupported"],
        ),
        (
            "const x = new Intl.NumberFormat();",
            &["new_expression_unsupported", "unsafe_global"],
        ),
        ("total += fetch();", &["unsafe_assignment", "unsafe_global"]),
        (
            "const o = { arguments };",
            &["property_access_blocked", "unsafe_global"],
        ),
        (
            "({ constructor } = {});",
            &["property_access_blocked", "unsafe_assignment"],
        ),
    ];
    for (source, expected) in cases {
        assert_eq!(codes(&check(source)), *expected, "{source:?}");
    }
}

#[test]
fn allows_what_the_sandbox_allows() {
    let sources = [
        "const d = new Date();",
        "const m = new Map([[1, 2]]);",
        "const r = new RegExp(\"a+\", \"g\");",
        "const s = new Set();",
        "const d = new Date;",
        "const n = Number.parseInt(\"3\", 10) + Number.parseFloat(\"1.5\");",
        "const t = `total ${1 + 1} cards`;",
        "const x = [Array, Boolean, Date, Infinity, JSON, Map, Math, NaN, Number, Object, RegExp, Set, String, undefined];",
        "let total = 0;\ntotal += 1;\ntotal++;\nlet a, b;\n[a, b] = [1, 2];\n({ a, b } = { a: 1, b: 2 });",
        "function f(deck, i) { deck = {}; i = 1; return [deck, i]; }",
        "let key;\nfor (key in {}) {}\nfor (key of []) {}",
        "function f(card, key) { return card[key]; }",
        "const o = { constructorName: 1, protoType: 2 };\nconst c = o.constructorName;",
        "const word = \"constructor\";",
        "const Map = 1;\nconst n = Map + 1;",
        "function f(o) { return \"__proto__\" in o; }",
        "function f(o) { return o?.a?.[\"b\"] ?? null; }",
        "const o = { m() { return 1; }, ...{ a: 1 } };",
        "const big = 10n;",
        "const re = /^\\d+$/u;",
        "try { JSON.parse(\"x\"); } catch (error) { const m = error.message; } finally { }",
        "switch (1) { case 1: break; default: }",
        "\"use strict\";\nexport default (deck) => true;",
        "#!/usr/bin/env node\nexport default function validateCard(card) { return true; }",
        "// only a comment",
        "export default function validateDeck(deck) { return true; }\nexport function resolvePoolFilters(input, context) { return null; }",
    ];
    for source in sources {
        let report = check(source);
        assert!(report.safe, "{source:?}: {report:?}");
        assert!(report.issues.is_empty());
    }
}

#[test]
fn reports_at_most_twelve_issues_the_first_in_source_order() {
    let source: String = (1..=20).map(|n| format!("fetch({n});\n")).collect();
    let report = check(&source);
    assert_eq!(report.issues.len(), MAX_ISSUES);
    let lines: Vec<u32> = report.issues.iter().map(|issue| issue.line).collect();
    assert_eq!(lines, (1..=12).collect::<Vec<u32>>());
}

#[test]
fn reports_issues_in_source_order_whatever_the_walk_order() {
    // The object method's `async` is reported where the property starts, before its key;
    // the walk meets constructs nested in each other in other orders.
    let source = "export const a = 1;\n\
                  var b = { async [fetch()]() {}, get c() { return this; } };\n\
                  outer: while (true) { delete b.c; new Error(parseInt(\"1\")); }\n\
                  x = b.constructor;";
    let report = check(source);
    let positions: Vec<(u32, u32)> = report
        .issues
        .iter()
        .map(|issue| (issue.line, issue.column))
        .collect();
    let mut sorted = positions.clone();
    sorted.sort_unstable();
    assert_eq!(positions, sorted);
    assert_eq!(
        codes(&report),
        [
            "syntax_unsupported",
            "variable_kind_unsupported",
            "async_unsupported",
            "unsafe_global",
            "syntax_unsupported",
            "syntax_unsupported",
            "syntax_unsupported",
            "syntax_unsupported",
            "new_expression_unsupported",
            "unsafe_global",
            "unsafe_assignment",
            "property_access_blocked",
        ]
    );
}

#[test]
fn reports_every_parse_error_only_as_invalid_syntax() {
    let report = check("var x = fetch(;");
    assert!(!report.safe);
    assert!(
        report
            .issues
            .iter()
            .all(|issue| issue.code == IssueCode::InvalidSyntax)
    );
}

#[test]
fn prepare_rewrites_each_export_form() {
    let cases: &[(&str, &str)] = &[
        (
            "export default function validateDeck(deck) {\n  return true;\n}\n",
            "function validateDeck(deck) {\n  return true;\n}\n\nconst __turnier_default = validateDeck;",
        ),
        (
            "export default function (deck) {\n  return true;\n}\n",
            "const __turnier_default = function (deck) {\n  return true;\n};\n",
        ),
        (
            "export default (deck) => true;\n",
            "const __turnier_default = ((deck) => true);\n",
        ),
        (
            "export default (deck) => true\n",
            "const __turnier_default = ((deck) => true);\n",
        ),
        (
            "function compute(pile) { return { widgets: [] }; }\nexport default compute;",
            "function compute(pile) { return { widgets: [] }; }\nconst __turnier_default = (compute);",
        ),
        (
            "export default function validateDeck(deck) {\n  return true;\n}\n\nexport function resolvePoolFilters(input, context) {\n  return null;\n}\n",
            "function validateDeck(deck) {\n  return true;\n}\n\nfunction resolvePoolFilters(input, context) {\n  return null;\n}\n\nconst __turnier_default = validateDeck;",
        ),
    ];
    for (source, expected) in cases {
        let prepared = prepare(source).unwrap();
        assert_eq!(prepared.source, *expected, "{source:?}");
        assert!(prepared.has_default_export);
        assert_prepares_line_for_line(source, source);
    }
    let fallback = prepare("function validateDeck(deck) {\n  return true;\n}\n").unwrap();
    assert!(!fallback.has_default_export);
}

#[test]
fn prepare_refuses_unsafe_scripts_and_reserved_names() {
    let unsafe_example = examples().iter().find(|e| e.rejected.is_some()).unwrap();
    match prepare(&unsafe_example.code) {
        Err(PrepareError::Unsafe(report)) => assert_eq!(report, check(&unsafe_example.code)),
        other => panic!("{other:?}"),
    }
    let reserved = prepare(
        "export default function validateDeck(deck) {\n  const __turnier_copy = deck;\n  return true;\n}",
    );
    assert!(
        matches!(&reserved, Err(PrepareError::ReservedName { name, line: 2, column: 9 }) if name == "__turnier_copy"),
        "{reserved:?}"
    );
}

#[test]
fn refuses_a_source_longer_than_the_limit() {
    let padding = " ".repeat(MAX_SOURCE_BYTES);
    let report = check(&format!("{padding}1;"));
    let found: Vec<_> = report
        .issues
        .iter()
        .map(|issue| (issue.code, issue.line, issue.column))
        .collect();
    assert_eq!(found, [(IssueCode::InvalidSyntax, 1, 1)]);
    assert!(check(&format!("{}1;", &padding[2..])).safe);
}

/// Nesting as deep as the length limit allows never overflows the stack, whatever the stack of
/// the calling thread: the check runs on a stack sized from the source.
#[test]
fn survives_the_deepest_nesting_the_length_limit_allows() {
    let constructs: [(&str, &str, &str, &str); 17] = [
        ("", "(", "1", ""),
        ("", "[", "1", "]"),
        ("", "{a:", "1", "}"),
        ("`", "${`", "", "`}"),
        ("{", "{", "", "}"),
        ("", "x=>", "1", ""),
        ("let a; a", "=a", "", ""),
        ("", "a?a:", "a", ""),
        ("", "!", "a", ""),
        ("", "- ", "a", ""),
        ("", "typeof ", "a", ""),
        ("", "new ", "Date", ""),
        ("", "if (a) ", ";", ""),
        ("", "function(){return ", "1", "}"),
        ("", "1+", "1", ""),
        ("a", ".a", "", ""),
        ("if (a) {}", " else if (a) {}", "", ""),
    ];
    for (head, open, middle, close) in constructs {
        let levels =
            (MAX_SOURCE_BYTES - head.len() - middle.len() - 8) / (open.len() + close.len());
        let source = format!(
            "{head}{}{middle}{};",
            open.repeat(levels),
            close.repeat(levels)
        );
        assert!(source.len() <= MAX_SOURCE_BYTES);
        let checked = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || check(&source).issues.len() <= MAX_ISSUES)
            .unwrap()
            .join()
            .unwrap();
        assert!(checked, "{open:?}");
    }
}

/// Mutations of an example: delete, duplicate or replace a slice, or insert a snippet of JS.
fn mutated_example() -> impl Strategy<Value = String> {
    let snippets = prop::sample::select(vec![
        "var ",
        "async ",
        "await ",
        "function* ",
        "yield ",
        "this",
        "new ",
        "class ",
        ".constructor",
        "[\"__proto__\"]",
        "import ",
        "export ",
        "delete ",
        "`",
        "${",
        "\"",
        "'",
        "(",
        ")",
        "{",
        "}",
        "/",
        "\\u{1F600}",
        "é",
        "\u{2028}",
        "\r\n",
        "__turnier_x",
        "=",
        "=>",
        ";",
        "debugger",
        "x:",
    ]);
    (
        0..examples().len(),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        0..4u8,
        snippets,
    )
        .prop_map(|(which, at, len, op, snippet)| {
            let code = &examples()[which].code;
            let chars: Vec<char> = code.chars().collect();
            let start = at.index(chars.len() + 1);
            let end = (start + len.index(40)).min(chars.len());
            let (head, middle, tail) = (&chars[..start], &chars[start..end], &chars[end..]);
            let middle: String = match op {
                0 => String::new(),
                1 => middle.iter().chain(middle).collect(),
                2 => snippet.to_owned(),
                _ => snippet.chars().chain(middle.iter().copied()).collect(),
            };
            head.iter()
                .copied()
                .chain(middle.chars())
                .chain(tail.iter().copied())
                .collect()
        })
}

/// What must hold for any source: no panic, a bounded report in source order, and a safe script
/// prepares into a safe module body with every line kept.
fn assert_check_and_prepare_hold(source: &str) {
    let report = check(source);
    assert_eq!(report.safe, report.issues.is_empty());
    assert!(report.issues.len() <= MAX_ISSUES);
    let positions: Vec<(u32, u32)> = report
        .issues
        .iter()
        .map(|issue| (issue.line, issue.column))
        .collect();
    assert!(
        positions.windows(2).all(|pair| pair[0] <= pair[1]),
        "{report:?}"
    );
    assert!(
        positions
            .iter()
            .all(|&(line, column)| line >= 1 && column >= 1)
    );
    match prepare(source) {
        Ok(prepared) => {
            assert!(report.safe);
            assert!(
                check(&prepared.source).safe,
                "{source:?} → {:?}",
                prepared.source
            );
            assert!(prepared.source.lines().count() >= source.lines().count());
        }
        Err(PrepareError::Unsafe(unsafe_report)) => assert_eq!(unsafe_report, report),
        Err(PrepareError::ReservedName { name, .. }) => {
            assert!(report.safe);
            assert!(name.starts_with("__turnier"));
        }
    }
}

proptest! {
    #[test]
    fn never_panics_on_arbitrary_text(source in any::<String>()) {
        assert_check_and_prepare_hold(&source);
    }

    #[test]
    fn never_panics_on_js_like_text(source in "[a-z(){}\\[\\];=+*/`$\"'.,:?!<>\n \\\\]{0,80}") {
        assert_check_and_prepare_hold(&source);
    }

    #[test]
    fn never_panics_on_mutated_examples(source in mutated_example()) {
        assert_check_and_prepare_hold(&source);
    }
}

/// The codes of every example, so a change to the spec pages shows up in one place.
#[test]
fn the_examples_cover_both_sides() {
    let mut by_verdict: BTreeMap<bool, usize> = BTreeMap::new();
    for example in examples() {
        *by_verdict.entry(example.rejected.is_none()).or_default() += 1;
    }
    assert_eq!(by_verdict.get(&false), Some(&5));
    assert_eq!(by_verdict.get(&true), Some(&33));
}
