//! The static safety check every ruleset and calculator script passes before it may be saved or
//! run (`shared/spec/turny/reference-scripting-sandbox.md`).
//!
//! The source is parsed as an ES module (so always strict) with `oxc`, scoped with its semantic
//! analysis, and walked once: every construct outside the sandbox's allowlists becomes a
//! [`SafetyIssue`] carrying one of the nine [`IssueCode`]s. The check is static: what it cannot
//! see (a computed key such as `card[key]`, a write to a frozen argument) is left to the frozen
//! runtime of the sandbox. Turning a checked module into the program the sandbox runs is
//! [`super::prepare`]'s job.
//!
//! Choices the spec leaves open, made here:
//!
//! - A blocked property name counts wherever it is written literally as a property name: member
//!   access (`obj.constructor`, `obj["constructor"]`, ``obj[`constructor`]``), object literal keys
//!   (`{ __proto__: x }` sets a prototype) and destructuring keys (`const { constructor } = obj`
//!   reads `obj.constructor` just as `obj.constructor` does).
//! - A bare `arguments` is a free identifier outside the allowed globals, so it is an
//!   `unsafe_global` (the property name `arguments`, as in `fn.arguments`, is a
//!   `property_access_blocked`).
//! - `new` on an identifier that is not allowed reports only `new_expression_unsupported`, not
//!   also `unsafe_global` for the callee: the spec's `throw new Error(…)` example names one code.
//! - Constructs the spec's list does not name but the reference checker's allowlist would not
//!   know either are rejected as `syntax_unsupported` (`new.target`) or
//!   `variable_kind_unsupported` (`using` declarations).
//! - A syntax error of any kind (the parser's or a strict-mode early error found by the semantic
//!   pass) reports only `invalid_syntax` issues: the rest of the check needs a valid tree.
//! - A source longer than [`MAX_SOURCE_BYTES`] is refused as `invalid_syntax` before parsing: the
//!   parse recurses once per nesting level, and the length bounds the stack it may need.
//! - Lines are counted with ECMAScript's line terminators (`\n`, `\r\n`, `\r`, U+2028, U+2029),
//!   columns in UTF-16 code units, both from 1.

use std::fmt;

use oxc::allocator::Allocator;
use oxc::ast::ast::{
    ArrowFunctionExpression, AssignmentTargetPropertyIdentifier, AssignmentTargetPropertyProperty,
    AwaitExpression, BindingProperty, Class, ComputedMemberExpression, DebuggerStatement,
    Declaration, ExportAllDeclaration, ExportDeclaration, ExportFromDeclaration,
    ExportNamedDeclaration, Expression, ForOfStatement, Function, IdentifierReference,
    ImportDeclaration, ImportExpression, ImportMeta, LabeledStatement, NewExpression, NewTarget,
    ObjectProperty, Program, PropertyKey, PropertyKind, StaticMemberExpression, Super,
    TaggedTemplateExpression, ThisExpression, UnaryExpression, UnaryOperator, VariableDeclaration,
    VariableDeclarationKind, YieldExpression,
};
use oxc::ast_visit::{Visit, walk};
use oxc::diagnostics::OxcDiagnostic;
use oxc::parser::{ParseOptions, Parser};
use oxc::semantic::{Scoping, SemanticBuilder};
use oxc::span::{GetSpan, SourceType, Span};
use oxc::syntax::scope::ScopeFlags;
use serde::{Deserialize, Serialize};

/// Issues reported per script at most; the check stops there ("At most 12 issues are reported
/// per script").
pub const MAX_ISSUES: usize = 12;

/// Longest source the check accepts, in bytes: it bounds the stack a check may need (see
/// [`stack_needed`]). The default calculators, the largest scripts the spec shows, are ~15 KB.
pub const MAX_SOURCE_BYTES: usize = 128 * 1024;

/// Free identifiers a script may read (the spec's "Allowed globals" table).
pub const ALLOWED_GLOBALS: [&str; 14] = [
    "Array",
    "Boolean",
    "Date",
    "Infinity",
    "JSON",
    "Map",
    "Math",
    "NaN",
    "Number",
    "Object",
    "RegExp",
    "Set",
    "String",
    "undefined",
];

/// The globals `new` may call, and only while no local shadows them.
pub const CONSTRUCTIBLE_GLOBALS: [&str; 4] = ["Date", "Map", "RegExp", "Set"];

/// Property names a script may not read or write when written literally.
pub const BLOCKED_PROPERTIES: [&str; 10] = [
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "__proto__",
    "arguments",
    "callee",
    "caller",
    "constructor",
    "prototype",
];

/// The only named export a script may carry beside its default export.
pub const ALLOWED_NAMED_EXPORT: &str = "resolvePoolFilters";

/// Why the check rejected a construct: the nine codes of the spec's "Safety issue codes" table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IssueCode {
    /// An `async` function or an `await` expression.
    AsyncUnsupported,
    /// A generator function (`function*`) or a `yield` expression.
    GeneratorUnsupported,
    /// The source is empty or does not parse as an ES module.
    InvalidSyntax,
    /// `new` on anything other than an allowed constructor, or on a local that shadows one.
    NewExpressionUnsupported,
    /// Reading or writing a blocked property name such as `constructor`.
    PropertyAccessBlocked,
    /// Disallowed syntax: imports, extra exports, classes, `this`, `delete`, labels, …
    SyntaxUnsupported,
    /// Assigning to a name the script did not declare.
    UnsafeAssignment,
    /// Referencing a free identifier that is not on the allowed globals list.
    UnsafeGlobal,
    /// A `var` declaration.
    VariableKindUnsupported,
}

impl IssueCode {
    /// Returns the code as the spec writes it (`"unsafe_global"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::AsyncUnsupported => "async_unsupported",
            Self::GeneratorUnsupported => "generator_unsupported",
            Self::InvalidSyntax => "invalid_syntax",
            Self::NewExpressionUnsupported => "new_expression_unsupported",
            Self::PropertyAccessBlocked => "property_access_blocked",
            Self::SyntaxUnsupported => "syntax_unsupported",
            Self::UnsafeAssignment => "unsafe_assignment",
            Self::UnsafeGlobal => "unsafe_global",
            Self::VariableKindUnsupported => "variable_kind_unsupported",
        }
    }
}

impl fmt::Display for IssueCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One rejected construct and where it starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SafetyIssue {
    /// Which rule the construct breaks.
    pub code: IssueCode,
    /// A sentence for the script's author that names the construct.
    pub message: String,
    /// 1-based line of the construct's first character.
    pub line: u32,
    /// 1-based column of the construct's first character, in UTF-16 code units (as the
    /// browser's editor counts).
    pub column: u32,
}

/// The verdict of [`check`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SafetyReport {
    /// True when there are no issues: the script may be saved and run.
    pub safe: bool,
    /// At most [`MAX_ISSUES`] issues, in source order.
    pub issues: Vec<SafetyIssue>,
}

impl SafetyReport {
    /// Returns the report of a script with the given issues (already in source order).
    fn from_issues(issues: Vec<SafetyIssue>) -> Self {
        Self {
            safe: issues.is_empty(),
            issues,
        }
    }

    /// Returns the report of a script that passes the check but that the engine cannot
    /// compile, `reason` saying why (its first [`MAX_REASON_BYTES`] bytes): one
    /// `invalid_syntax` issue at the script's start, as the engine gives no position.
    pub fn cannot_compile(reason: &str) -> Self {
        let mut end = reason.len().min(MAX_REASON_BYTES);
        while !reason.is_char_boundary(end) {
            end -= 1;
        }
        let cut = if end < reason.len() { "…" } else { "" };
        Self::from_issues(vec![SafetyIssue {
            code: IssueCode::InvalidSyntax,
            message: format!(
                "the script passes the safety check but cannot be compiled to run: {}{cut}",
                &reason[..end]
            ),
            line: 1,
            column: 1,
        }])
    }
}

/// The most of an engine's reason quoted in [`SafetyReport::cannot_compile`].
pub const MAX_REASON_BYTES: usize = 400;

/// Checks a script's source against the sandbox's allowlists.
pub fn check(source: &str) -> SafetyReport {
    let allocator = Allocator::default();
    analyze(&allocator, source).report
}

/// A parsed and checked module, for [`super::prepare`], which needs the tree the check saw.
pub(crate) struct Analysis<'a> {
    /// The verdict, as [`check`] returns it.
    pub(crate) report: SafetyReport,
    /// The syntax tree and its scopes; `None` when the source is empty or does not parse.
    pub(crate) tree: Option<(&'a Program<'a>, Scoping)>,
}

/// Parses, scopes and checks `source`, keeping the tree in `allocator`.
pub(crate) fn analyze<'a>(allocator: &'a Allocator, source: &'a str) -> Analysis<'a> {
    if is_blank(source) {
        let empty = PendingIssue {
            offset: 0,
            code: IssueCode::InvalidSyntax,
            message: "the script is empty".to_owned(),
        };
        return Analysis {
            report: locate(source, vec![empty]),
            tree: None,
        };
    }

    if source.len() > MAX_SOURCE_BYTES {
        let too_long = PendingIssue {
            offset: 0,
            code: IssueCode::InvalidSyntax,
            message: format!("the script is longer than {MAX_SOURCE_BYTES} bytes"),
        };
        return Analysis {
            report: locate(source, vec![too_long]),
            tree: None,
        };
    }
    // The parser, the semantic pass and the walk recurse once per nesting level, so a script of
    // nested brackets or chained arrows would overflow an ordinary thread stack (an abort, not a
    // panic). The stack they run on is sized from the source, which bounds the nesting.
    let needed = stack_needed(source);
    stacker::maybe_grow(needed, needed, || {
        analyze_on_a_large_enough_stack(allocator, source)
    })
}

/// Stack a check of `source` may need: a base, plus per byte what the deepest-recursing construct
/// costs per byte of source. Measured (oxc 0.146, release and debug builds): an opening bracket
/// (`(`, `[`, `{`, `${`) costs at most ~2.4 KiB of stack per nesting level, every other nesting
/// construct (`x =>`, `a =`, `a ? b :`, `!`, `if (a)`, left-nested `a + b` chains) at most ~330
/// bytes per byte of source; the factors below have a margin over both. The stack is reserved, not
/// touched: only what the recursion uses becomes resident.
fn stack_needed(source: &str) -> usize {
    const BASE: usize = 1024 * 1024;
    const PER_OPENING_BRACKET: usize = 4 * 1024;
    const PER_BYTE: usize = 768;
    let brackets = source
        .bytes()
        .filter(|byte| matches!(byte, b'(' | b'[' | b'{'))
        .count();
    BASE + brackets * PER_OPENING_BRACKET + source.len() * PER_BYTE
}

/// The body of [`analyze`] once the stack is large enough for `source`.
fn analyze_on_a_large_enough_stack<'a>(allocator: &'a Allocator, source: &'a str) -> Analysis<'a> {
    // Regular expression literals are parsed too: an invalid pattern is an early error in JS.
    let options = ParseOptions {
        parse_regular_expression: true,
        ..ParseOptions::default()
    };
    let parsed = Parser::new(allocator, source, SourceType::mjs())
        .with_options(options)
        .parse();
    let parse_errors: Vec<PendingIssue> = parsed.diagnostics.errors().map(syntax_issue).collect();
    if parsed.panicked || !parse_errors.is_empty() {
        let mut issues = parse_errors;
        if issues.is_empty() {
            issues.push(PendingIssue {
                offset: 0,
                code: IssueCode::InvalidSyntax,
                message: "the script does not parse as a module".to_owned(),
            });
        }
        return Analysis {
            report: locate(source, issues),
            tree: None,
        };
    }

    let program = allocator.alloc(parsed.program);
    let built = SemanticBuilder::new_compiler().build(program);
    let early_errors: Vec<PendingIssue> = built.diagnostics.errors().map(syntax_issue).collect();
    let scoping = built.semantic.into_scoping();
    if !early_errors.is_empty() {
        return Analysis {
            report: locate(source, early_errors),
            tree: None,
        };
    }

    let mut checker = Checker {
        scoping: &scoping,
        issues: Vec::new(),
    };
    checker.visit_program(program);
    let issues = checker.issues;
    Analysis {
        report: locate(source, issues),
        tree: Some((program, scoping)),
    }
}

/// True for a source with nothing but white space (JS counts U+FEFF as white space too).
fn is_blank(source: &str) -> bool {
    source.chars().all(|c| c.is_whitespace() || c == '\u{feff}')
}

/// An issue before its offset is turned into a line and column.
struct PendingIssue {
    /// Byte offset of the construct in the source.
    offset: u32,
    code: IssueCode,
    message: String,
}

/// Turns a parser or semantic diagnostic into an `invalid_syntax` issue at its primary label, or
/// else at its last one: a diagnostic with several labels (`x` declared here, redeclared there)
/// points last at where the parser gave up.
fn syntax_issue(diagnostic: &OxcDiagnostic) -> PendingIssue {
    let labels = &diagnostic.labels;
    let offset = labels
        .iter()
        .find(|label| label.primary())
        .or_else(|| labels.iter().max_by_key(|label| label.offset()))
        .map_or(0, |label| label.offset());
    PendingIssue {
        offset,
        code: IssueCode::InvalidSyntax,
        message: diagnostic.message.to_string(),
    }
}

/// Orders issues by source position, keeps the first [`MAX_ISSUES`] and gives each its line and
/// column.
fn locate(source: &str, mut pending: Vec<PendingIssue>) -> SafetyReport {
    // Stable: two issues at one offset keep the order the walk found them in.
    pending.sort_by_key(|issue| issue.offset);
    pending.truncate(MAX_ISSUES);
    let mut cursor = PositionCursor::new(source);
    let issues = pending
        .into_iter()
        .map(|issue| {
            let (line, column) = cursor.advance_to(issue.offset);
            SafetyIssue {
                code: issue.code,
                message: issue.message,
                line,
                column,
            }
        })
        .collect();
    SafetyReport::from_issues(issues)
}

/// Walks a source forwards turning byte offsets into 1-based lines and UTF-16 columns.
///
/// Offsets must be asked for in ascending order, so locating every issue is one pass.
pub(crate) struct PositionCursor<'s> {
    source: &'s str,
    /// Byte offset reached so far.
    offset: usize,
    line: u32,
    /// UTF-16 code units between the start of the line and `offset`.
    column: u32,
    /// The previous character was a `\r`, so a `\n` right now ends no new line.
    after_cr: bool,
}

impl<'s> PositionCursor<'s> {
    /// Starts at the beginning of `source`.
    pub(crate) fn new(source: &'s str) -> Self {
        Self {
            source,
            offset: 0,
            line: 1,
            column: 0,
            after_cr: false,
        }
    }

    /// Returns the (line, column) of byte `target`, both from 1. An offset past the end (or inside
    /// a character) stops at the character boundary before it.
    pub(crate) fn advance_to(&mut self, target: u32) -> (u32, u32) {
        let target = usize::try_from(target)
            .unwrap_or(usize::MAX)
            .min(self.source.len());
        let rest = self.source.get(self.offset..).unwrap_or_default();
        for c in rest.chars() {
            if self.offset + c.len_utf8() > target {
                break;
            }
            self.offset += c.len_utf8();
            match c {
                '\n' if self.after_cr => {}
                '\n' | '\r' | '\u{2028}' | '\u{2029}' => {
                    self.line += 1;
                    self.column = 0;
                }
                _ => self.column += u32::try_from(c.len_utf16()).unwrap_or(2),
            }
            self.after_cr = c == '\r';
        }
        (self.line, self.column + 1)
    }
}

/// The walk over a parsed, scoped module that collects issues.
struct Checker<'s> {
    scoping: &'s Scoping,
    issues: Vec<PendingIssue>,
}

impl Checker<'_> {
    fn report(&mut self, span: Span, code: IssueCode, message: impl Into<String>) {
        self.issues.push(PendingIssue {
            offset: span.start,
            code,
            message: message.into(),
        });
    }

    fn syntax(&mut self, span: Span, message: impl Into<String>) {
        self.report(span, IssueCode::SyntaxUnsupported, message);
    }

    /// Reports a blocked property name written literally at `span`.
    fn check_property_name(&mut self, name: &str, span: Span) {
        if BLOCKED_PROPERTIES.contains(&name) {
            self.report(
                span,
                IssueCode::PropertyAccessBlocked,
                format!("`{name}` is a blocked property name"),
            );
        }
    }

    /// Checks the key of an object literal property or of a destructuring pattern.
    fn check_property_key(&mut self, key: &PropertyKey<'_>) {
        match key {
            PropertyKey::StaticIdentifier(name) => self.check_property_name(&name.name, name.span),
            PropertyKey::PrivateIdentifier(_) => {}
            _ => {
                if let Some(expression) = key.as_expression()
                    && let Some(name) = literal_name(expression)
                {
                    self.check_property_name(name, expression.span());
                }
            }
        }
    }

    /// Reports `async` and generator functions; `span` is where the function starts.
    fn check_function_kind(&mut self, is_async: bool, is_generator: bool, span: Span) {
        if is_async {
            self.report(
                span,
                IssueCode::AsyncUnsupported,
                "`async` functions are not allowed",
            );
        }
        if is_generator {
            self.report(
                span,
                IssueCode::GeneratorUnsupported,
                "generator functions (`function*`) are not allowed",
            );
        }
    }
}

/// The string a computed key or member names literally: a string literal or a template literal
/// without substitutions, looked at through parentheses.
fn literal_name<'e>(expression: &'e Expression<'_>) -> Option<&'e str> {
    match expression.without_parentheses() {
        Expression::StringLiteral(literal) => Some(literal.value.as_str()),
        Expression::TemplateLiteral(template) if template.expressions.is_empty() => template
            .quasis
            .first()
            .and_then(|quasi| quasi.value.cooked.as_ref())
            .map(|s| s.as_str()),
        _ => None,
    }
}

impl<'a> Visit<'a> for Checker<'_> {
    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        let Some(reference_id) = it.reference_id.get() else {
            return;
        };
        let reference = self.scoping.get_reference(reference_id);
        if reference.symbol_id().is_some() {
            return; // declared by the script
        }
        let name = it.name.as_str();
        if reference.is_write() {
            self.report(
                it.span,
                IssueCode::UnsafeAssignment,
                format!("cannot assign to `{name}`: the script does not declare it"),
            );
        } else if !ALLOWED_GLOBALS.contains(&name) {
            self.report(
                it.span,
                IssueCode::UnsafeGlobal,
                format!("`{name}` is not an allowed global"),
            );
        }
    }

    fn visit_new_expression(&mut self, it: &NewExpression<'a>) {
        let callee = it.callee.without_parentheses();
        if let Expression::Identifier(ident) = callee {
            let name = ident.name.as_str();
            let is_local = ident
                .reference_id
                .get()
                .is_some_and(|id| self.scoping.get_reference(id).symbol_id().is_some());
            if !CONSTRUCTIBLE_GLOBALS.contains(&name) {
                self.report(
                    it.span,
                    IssueCode::NewExpressionUnsupported,
                    format!(
                        "`new {name}` is not allowed: only `Date`, `Map`, `RegExp` and `Set` may \
                         be constructed"
                    ),
                );
            } else if is_local {
                self.report(
                    it.span,
                    IssueCode::NewExpressionUnsupported,
                    format!(
                        "`new {name}` calls a local `{name}` that shadows the global: only the \
                         global `Date`, `Map`, `RegExp` and `Set` may be constructed"
                    ),
                );
            }
            // The callee is judged above: a disallowed name is not also an `unsafe_global`.
            self.visit_arguments(&it.arguments);
            return;
        }
        self.report(
            it.span,
            IssueCode::NewExpressionUnsupported,
            "`new` is only allowed on `Date`, `Map`, `RegExp` and `Set`",
        );
        walk::walk_new_expression(self, it);
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        self.check_property_name(&it.property.name, it.property.span);
        walk::walk_static_member_expression(self, it);
    }

    fn visit_computed_member_expression(&mut self, it: &ComputedMemberExpression<'a>) {
        if let Some(name) = literal_name(&it.expression) {
            self.check_property_name(name, it.expression.span());
        }
        walk::walk_computed_member_expression(self, it);
    }

    fn visit_object_property(&mut self, it: &ObjectProperty<'a>) {
        if matches!(it.kind, PropertyKind::Get | PropertyKind::Set) {
            self.syntax(
                it.span,
                "getters and setters are not allowed in object literals",
            );
        }
        self.check_property_key(&it.key);
        // A method's `async` / `*` comes before its key: report it where the property starts.
        if it.method
            && let Expression::FunctionExpression(function) = &it.value
        {
            self.check_function_kind(function.r#async, function.generator, it.span);
            walk::walk_property_key(self, &it.key);
            walk::walk_function(self, function, ScopeFlags::Function);
            return;
        }
        walk::walk_object_property(self, it);
    }

    fn visit_binding_property(&mut self, it: &BindingProperty<'a>) {
        self.check_property_key(&it.key);
        walk::walk_binding_property(self, it);
    }

    fn visit_assignment_target_property_property(
        &mut self,
        it: &AssignmentTargetPropertyProperty<'a>,
    ) {
        self.check_property_key(&it.name);
        walk::walk_assignment_target_property_property(self, it);
    }

    fn visit_assignment_target_property_identifier(
        &mut self,
        it: &AssignmentTargetPropertyIdentifier<'a>,
    ) {
        self.check_property_name(&it.binding.name, it.binding.span);
        walk::walk_assignment_target_property_identifier(self, it);
    }

    fn visit_function(&mut self, it: &Function<'a>, flags: ScopeFlags) {
        self.check_function_kind(it.r#async, it.generator, it.span);
        walk::walk_function(self, it, flags);
    }

    fn visit_arrow_function_expression(&mut self, it: &ArrowFunctionExpression<'a>) {
        self.check_function_kind(it.r#async, false, it.span);
        walk::walk_arrow_function_expression(self, it);
    }

    fn visit_await_expression(&mut self, it: &AwaitExpression<'a>) {
        self.report(
            it.span,
            IssueCode::AsyncUnsupported,
            "`await` is not allowed",
        );
        walk::walk_await_expression(self, it);
    }

    fn visit_for_of_statement(&mut self, it: &ForOfStatement<'a>) {
        if it.r#await {
            self.report(
                it.span,
                IssueCode::AsyncUnsupported,
                "`for await` loops are not allowed",
            );
        }
        walk::walk_for_of_statement(self, it);
    }

    fn visit_yield_expression(&mut self, it: &YieldExpression<'a>) {
        self.report(
            it.span,
            IssueCode::GeneratorUnsupported,
            "`yield` is not allowed",
        );
        walk::walk_yield_expression(self, it);
    }

    fn visit_variable_declaration(&mut self, it: &VariableDeclaration<'a>) {
        match it.kind {
            VariableDeclarationKind::Var => self.report(
                it.span,
                IssueCode::VariableKindUnsupported,
                "`var` is not allowed: use `let` or `const`",
            ),
            VariableDeclarationKind::Using | VariableDeclarationKind::AwaitUsing => self.report(
                it.span,
                IssueCode::VariableKindUnsupported,
                "`using` declarations are not allowed: use `let` or `const`",
            ),
            VariableDeclarationKind::Let | VariableDeclarationKind::Const => {}
        }
        walk::walk_variable_declaration(self, it);
    }

    fn visit_import_declaration(&mut self, it: &ImportDeclaration<'a>) {
        self.syntax(it.span, "`import` declarations are not allowed");
        walk::walk_import_declaration(self, it);
    }

    fn visit_import_expression(&mut self, it: &ImportExpression<'a>) {
        self.syntax(it.span, "dynamic `import()` is not allowed");
        walk::walk_import_expression(self, it);
    }

    fn visit_import_meta(&mut self, it: &ImportMeta) {
        self.syntax(it.span, "`import.meta` is not allowed");
    }

    fn visit_new_target(&mut self, it: &NewTarget) {
        self.syntax(it.span, "`new.target` is not allowed");
    }

    fn visit_export_all_declaration(&mut self, it: &ExportAllDeclaration<'a>) {
        self.syntax(it.span, "`export * from` is not allowed");
        walk::walk_export_all_declaration(self, it);
    }

    fn visit_export_named_declaration(&mut self, it: &ExportNamedDeclaration<'a>) {
        self.syntax(it.span, "`export { … }` lists are not allowed");
        walk::walk_export_named_declaration(self, it);
    }

    fn visit_export_from_declaration(&mut self, it: &ExportFromDeclaration<'a>) {
        self.syntax(it.span, "re-exports (`export { … } from`) are not allowed");
        walk::walk_export_from_declaration(self, it);
    }

    fn visit_export_declaration(&mut self, it: &ExportDeclaration<'a>) {
        match &it.declaration {
            Declaration::FunctionDeclaration(function)
                if function
                    .id
                    .as_ref()
                    .is_some_and(|id| id.name.as_str() == ALLOWED_NAMED_EXPORT) => {}
            Declaration::FunctionDeclaration(function) => {
                let name = function.id.as_ref().map_or("", |id| id.name.as_str());
                self.syntax(
                    it.span,
                    format!(
                        "`export function {name}` is not allowed: the only named export is \
                         `{ALLOWED_NAMED_EXPORT}`"
                    ),
                );
            }
            Declaration::VariableDeclaration(_) => {
                self.syntax(it.span, "exported variables are not allowed");
            }
            _ => self.syntax(
                it.span,
                format!("named exports are not allowed, except `{ALLOWED_NAMED_EXPORT}`"),
            ),
        }
        walk::walk_export_declaration(self, it);
    }

    fn visit_class(&mut self, it: &Class<'a>) {
        self.syntax(it.span, "classes are not allowed");
        walk::walk_class(self, it);
    }

    fn visit_this_expression(&mut self, it: &ThisExpression) {
        self.syntax(it.span, "`this` is not allowed");
    }

    fn visit_super(&mut self, it: &Super) {
        self.syntax(it.span, "`super` is not allowed");
    }

    fn visit_unary_expression(&mut self, it: &UnaryExpression<'a>) {
        if it.operator == UnaryOperator::Delete {
            self.syntax(
                it.span,
                "`delete` is not allowed: build a new object without the key",
            );
        }
        walk::walk_unary_expression(self, it);
    }

    fn visit_labeled_statement(&mut self, it: &LabeledStatement<'a>) {
        self.syntax(
            it.span,
            format!("labeled statements (`{}:`) are not allowed", it.label.name),
        );
        walk::walk_labeled_statement(self, it);
    }

    fn visit_debugger_statement(&mut self, it: &DebuggerStatement) {
        self.syntax(it.span, "`debugger` is not allowed");
    }

    fn visit_tagged_template_expression(&mut self, it: &TaggedTemplateExpression<'a>) {
        self.syntax(it.span, "tagged templates are not allowed");
        walk::walk_tagged_template_expression(self, it);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(source: &str) -> Vec<&'static str> {
        check(source)
            .issues
            .iter()
            .map(|issue| issue.code.as_str())
            .collect()
    }

    #[test]
    fn serializes_a_report_as_the_spec_names_it() {
        let report = check("fetch();");
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "safe": false,
                "issues": [{
                    "code": "unsafe_global",
                    "message": "`fetch` is not an allowed global",
                    "line": 1,
                    "column": 1
                }]
            })
        );
    }

    #[test]
    fn every_code_serializes_as_its_as_str() {
        let all = [
            IssueCode::AsyncUnsupported,
            IssueCode::GeneratorUnsupported,
            IssueCode::InvalidSyntax,
            IssueCode::NewExpressionUnsupported,
            IssueCode::PropertyAccessBlocked,
            IssueCode::SyntaxUnsupported,
            IssueCode::UnsafeAssignment,
            IssueCode::UnsafeGlobal,
            IssueCode::VariableKindUnsupported,
        ];
        for code in all {
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
            assert_eq!(code.to_string(), code.as_str());
        }
    }

    #[test]
    fn counts_columns_in_utf16_code_units() {
        // "é" is one UTF-16 unit (two UTF-8 bytes), "😀" two units (four bytes).
        let source = "const a = \"é😀\"; fetch();";
        let issue = &check(source).issues[0];
        assert_eq!((issue.line, issue.column), (1, 18));
    }

    #[test]
    fn counts_every_line_terminator_once() {
        let source = "const a = 1;\r\nconst b = 2;\rconst c = 3;\u{2028}fetch();";
        let issue = &check(source).issues[0];
        assert_eq!((issue.line, issue.column), (4, 1));
    }

    #[test]
    fn positions_clamp_past_the_end() {
        let mut cursor = PositionCursor::new("ab\nc");
        assert_eq!(cursor.advance_to(1), (1, 2));
        assert_eq!(cursor.advance_to(99), (2, 2));
    }

    #[test]
    fn an_await_in_a_for_of_head_is_an_async_issue() {
        assert_eq!(
            codes("export default async function f(xs) { for await (const x of xs) {} }"),
            ["async_unsupported", "async_unsupported"]
        );
    }

    #[test]
    fn using_declarations_are_a_variable_kind_issue() {
        assert_eq!(codes("{ using x = null; }"), ["variable_kind_unsupported"]);
    }
}
