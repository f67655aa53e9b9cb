//! Source preparation: turns a script that passed the [safety check](super::safety) into the
//! module body the sandbox runs.
//!
//! The sandbox runs `<one-line prelude>\n<prepared source>\n<driver>` as one module, so the
//! prepared text carries no `import`/`export` syntax of its own: the default export becomes a
//! top-level `const __turnier_default`, and `export function resolvePoolFilters` a plain function
//! declaration. Every rewrite keeps the line terminators of the text it replaces, so a line of the
//! user's code keeps its number (one more, for the prelude, in the whole program). Names starting
//! with `__turnier` belong to the runner; a script that declares one is refused.
//!
//! Which function the driver then calls (the default export, or a scope's named fallback) is the
//! sandbox's business.

use oxc::allocator::Allocator;
use oxc::ast::ast::{Declaration, ExportDefaultDeclarationKind, ModuleDeclaration};
use oxc::span::{GetSpan, Span};

use super::safety::{self, PositionCursor, SafetyReport};

/// Prefix of every name the runner's own code uses; a script may not declare one.
pub const RESERVED_PREFIX: &str = "__turnier";

/// The top-level constant the default export is bound to.
pub const DEFAULT_EXPORT_BINDING: &str = "__turnier_default";

/// A checked module rewritten for the sandbox: no import/export syntax left, the default export
/// bound to a top-level `const __turnier_default`.
///
/// The text ends where the user's code ends (plus the `__turnier_default` line for a named default
/// function), possibly in the middle of an unterminated last statement that ASI would close: the
/// code appended after it should start with a keyword, never with `(`, `[` or a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    /// The module body, line for line the user's source.
    pub source: String,
    /// Whether the script had a default export (and so defines `__turnier_default`).
    pub has_default_export: bool,
}

/// Why a script cannot be prepared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrepareError {
    /// The script did not pass the safety check; the report says why.
    #[error("the script is not safe: {} issue(s), the first: {}", .0.issues.len(), first_issue(.0))]
    Unsafe(SafetyReport),
    /// The script declares a name the runner reserves for its own code.
    #[error("`{name}` at line {line}, column {column} uses the reserved prefix `__turnier`")]
    ReservedName {
        /// The declared name.
        name: String,
        /// 1-based line of the declaration.
        line: u32,
        /// 1-based column of the declaration, in UTF-16 code units.
        column: u32,
    },
}

fn first_issue(report: &SafetyReport) -> &str {
    report
        .issues
        .first()
        .map_or("", |issue| issue.message.as_str())
}

/// Checks `source` and rewrites it for the sandbox.
pub fn prepare(source: &str) -> Result<Prepared, PrepareError> {
    let allocator = Allocator::default();
    let analysis = safety::analyze(&allocator, source);
    let Some((program, scoping)) = analysis.tree.filter(|_| analysis.report.safe) else {
        return Err(PrepareError::Unsafe(analysis.report));
    };

    let reserved = scoping
        .symbol_ids()
        .filter(|&symbol| scoping.symbol_name(symbol).starts_with(RESERVED_PREFIX))
        .min_by_key(|&symbol| scoping.symbol_span(symbol).start);
    if let Some(symbol) = reserved {
        let (line, column) =
            PositionCursor::new(source).advance_to(scoping.symbol_span(symbol).start);
        return Err(PrepareError::ReservedName {
            name: scoping.symbol_name(symbol).to_owned(),
            line,
            column,
        });
    }

    let mut rewrite = Rewrite::new(source);
    if let Some(hashbang) = &program.hashbang {
        // A hashbang is only valid as a module's first characters, and the prelude comes first.
        let start = hashbang.span.start;
        rewrite.replace(Span::new(start, start + 2), "//".to_owned());
    }
    let mut has_default_export = false;
    for statement in &program.body {
        let Some(declaration) = statement.as_module_declaration() else {
            continue;
        };
        match declaration {
            ModuleDeclaration::ExportDefaultDeclaration(export) => {
                has_default_export = true;
                rewrite_default_export(&mut rewrite, export.span, &export.declaration);
            }
            ModuleDeclaration::ExportDeclaration(export) => {
                // The check lets only `export function resolvePoolFilters` through.
                if let Declaration::FunctionDeclaration(function) = &export.declaration {
                    rewrite.drop_between(export.span.start, function.span.start, "");
                }
            }
            _ => {}
        }
    }
    Ok(Prepared {
        source: rewrite.finish(),
        has_default_export,
    })
}

/// Rewrites `export default …` (spanning `export`) into a binding of `__turnier_default`.
fn rewrite_default_export(
    rewrite: &mut Rewrite<'_>,
    export: Span,
    declaration: &ExportDefaultDeclarationKind<'_>,
) {
    let binding = format!("const {DEFAULT_EXPORT_BINDING} = ");
    match declaration {
        ExportDefaultDeclarationKind::FunctionDeclaration(function) => {
            let body = function.span;
            if let Some(id) = &function.id {
                // Keep the declaration (and its hoisting), bind the name after the user's code.
                rewrite.drop_between(export.start, body.start, "");
                rewrite.append(format!("\nconst {DEFAULT_EXPORT_BINDING} = {};", id.name));
            } else {
                rewrite.drop_between(export.start, body.start, &binding);
                rewrite.drop_between(body.end, export.end.max(body.end), ";");
            }
        }
        _ => {
            // An expression (the check rejects `export default class`); the parentheses keep a
            // leading `{` or `function` an expression, and the comma operator out.
            let expression = declaration.span();
            rewrite.drop_between(export.start, expression.start, &format!("{binding}("));
            rewrite.drop_between(expression.end, export.end.max(expression.end), ");");
        }
    }
}

/// Edits to a source, applied in one pass.
struct Rewrite<'s> {
    source: &'s str,
    /// Replaced byte ranges (ascending, disjoint) and their new text.
    edits: Vec<(Span, String)>,
    /// Text added after the end of the source.
    appended: String,
}

impl<'s> Rewrite<'s> {
    fn new(source: &'s str) -> Self {
        Self {
            source,
            edits: Vec::new(),
            appended: String::new(),
        }
    }

    fn replace(&mut self, span: Span, text: String) {
        self.edits.push((span, text));
    }

    /// Replaces the text between `start` and `end` with `text`, keeping that text's line
    /// terminators (before `text`, so the code after `end` stays on its line).
    fn drop_between(&mut self, start: u32, end: u32, text: &str) {
        let span = Span::new(start, end);
        let mut replacement = line_terminators(
            self.source
                .get(span.start as usize..span.end as usize)
                .unwrap_or_default(),
        );
        replacement.push_str(text);
        self.replace(span, replacement);
    }

    fn append(&mut self, text: String) {
        self.appended.push_str(&text);
    }

    fn finish(mut self) -> String {
        self.edits.sort_by_key(|(span, _)| span.start);
        let mut out = String::with_capacity(self.source.len() + 64);
        let mut copied = 0;
        for (span, text) in &self.edits {
            let (start, end) = (span.start as usize, span.end as usize);
            out.push_str(self.source.get(copied..start).unwrap_or_default());
            out.push_str(text);
            copied = end.max(copied);
        }
        out.push_str(self.source.get(copied..).unwrap_or_default());
        out.push_str(&self.appended);
        out
    }
}

/// The line terminators in `text`, in order (`\r\n` kept as one).
fn line_terminators(text: &str) -> String {
    let mut kept = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {
                chars.next();
                kept.push_str("\r\n");
            }
            '\n' | '\r' | '\u{2028}' | '\u{2029}' => kept.push(c),
            _ => {}
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prepared(source: &str) -> String {
        prepare(source).unwrap().source
    }

    #[test]
    fn keeps_a_named_default_function_and_binds_it_at_the_end() {
        let source = "export default function validateDeck(deck) {\n  return true;\n}\n";
        let out = prepare(source).unwrap();
        assert_eq!(
            out.source,
            "function validateDeck(deck) {\n  return true;\n}\n\nconst __turnier_default = validateDeck;"
        );
        assert!(out.has_default_export);
    }

    #[test]
    fn binds_an_anonymous_default_function() {
        assert_eq!(
            prepared("export default function (pile) {\n  return 1;\n}\n"),
            "const __turnier_default = function (pile) {\n  return 1;\n};\n"
        );
    }

    #[test]
    fn parenthesizes_a_default_expression() {
        assert_eq!(
            prepared("export default (deck) => true;\n"),
            "const __turnier_default = ((deck) => true);\n"
        );
        assert_eq!(
            prepared("export default { widgets: [] }"),
            "const __turnier_default = ({ widgets: [] });"
        );
    }

    #[test]
    fn drops_export_from_resolve_pool_filters() {
        let source = "export default (deck) => true;\nexport function resolvePoolFilters(input) {\n  return null;\n}\n";
        assert_eq!(
            prepared(source),
            "const __turnier_default = ((deck) => true);\nfunction resolvePoolFilters(input) {\n  return null;\n}\n"
        );
    }

    #[test]
    fn leaves_a_script_without_exports_as_it_is() {
        let source = "function validateCard(card) {\n  return true;\n}\n";
        let out = prepare(source).unwrap();
        assert_eq!(out.source, source);
        assert!(!out.has_default_export);
    }

    #[test]
    fn keeps_line_breaks_inside_the_dropped_text() {
        let source = "export default // the rule\n  (deck) =>\n  fetchless(deck);\nfunction fetchless(d) { return true; }\n";
        let out = prepared(source);
        assert_eq!(
            out,
            "\nconst __turnier_default = ((deck) =>\n  fetchless(deck));\nfunction fetchless(d) { return true; }\n"
        );
        assert_eq!(out.lines().count(), source.lines().count());
    }

    #[test]
    fn turns_a_hashbang_into_a_comment() {
        assert_eq!(
            prepared("#!/usr/bin/env node\nexport default () => true;"),
            "///usr/bin/env node\nconst __turnier_default = (() => true);"
        );
    }

    #[test]
    fn refuses_an_unsafe_script_with_its_report() {
        let Err(PrepareError::Unsafe(report)) = prepare("fetch();") else {
            panic!("an unsafe script was prepared");
        };
        assert_eq!(report, safety::check("fetch();"));
    }

    #[test]
    fn refuses_a_reserved_name() {
        let source = "const ok = 1;\nfunction f(__turnier_x) { return __turnier_x; }";
        assert_eq!(
            prepare(source),
            Err(PrepareError::ReservedName {
                name: "__turnier_x".to_owned(),
                line: 2,
                column: 12
            })
        );
        assert!(matches!(
            prepare("export default function __turnier_default() {}"),
            Err(PrepareError::ReservedName { .. })
        ));
    }
}
