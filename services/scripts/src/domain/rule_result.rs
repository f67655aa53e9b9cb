//! Ruleset results: what a card, deck or deck set rule returned, normalized to
//! `{ valid, issues }`, and the text each issue is shown as
//! (`shared/spec/turny/reference-scripting-rulesets.md`, "Return values", "Issues" and "How
//! issues are shown").
//!
//! The raw value comes from the sandbox as JSON (`None` when the script returned `undefined`)
//! and is never trusted: whatever its shape, [`normalize`] answers with a result, never an
//! error. Running the script and deciding what a failure blocks are left to the caller.

use proto::scripts::v1::{RuleIssue, RuleResult};
use serde_json::{Map, Value};

use super::js;

/// The scope of a ruleset script: what it looks at, and so which fallback message it fails
/// with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// A card rule (`validateCard`), run once per card.
    Card,
    /// A deck rule (`validateDeck`), run once per deck or builder pile.
    Deck,
    /// A deck set rule (`validateDeckset`), run once per lineup.
    Deckset,
}

impl Scope {
    /// Returns the message a failing result carries when the script gave no usable issue.
    ///
    /// The spec quotes the deck rule's ("Saved deck rule rejected this deck."); the card and
    /// deck set messages follow the same pattern, with the names the guide uses for the scope
    /// ("card rule", "deck set rule") and for what a deck set rule judges (the lineup).
    pub fn fallback_message(self) -> &'static str {
        match self {
            Scope::Card => "Saved card rule rejected this card.",
            Scope::Deck => "Saved deck rule rejected this deck.",
            Scope::Deckset => "Saved deck set rule rejected this lineup.",
        }
    }
}

/// Normalizes what a ruleset entry point returned.
///
/// - `true` passes with no issues.
/// - `false`, `null` and `undefined` (`None`) fail with the scope's fallback message.
/// - An object passes when its `valid` or its `allowed` is exactly `true`, keeping its usable
///   `issues` (see [`normalize_issue`]); otherwise it fails with those issues, or with the
///   fallback message when none is usable. A non-array `issues` counts as none.
/// - Anything else (a number, a string, an array) fails with the fallback message.
///
/// `valid` is always set in the result, and a failing result always has an issue.
pub fn normalize(scope: Scope, raw: Option<&Value>) -> RuleResult {
    let (valid, issues) = match raw {
        Some(Value::Bool(true)) => (true, Vec::new()),
        Some(Value::Object(object)) => {
            let valid = [object.get("valid"), object.get("allowed")]
                .into_iter()
                .any(|flag| flag == Some(&Value::Bool(true)));
            let issues = match object.get("issues") {
                Some(Value::Array(entries)) => entries.iter().filter_map(normalize_issue).collect(),
                _ => Vec::new(),
            };
            (valid, issues)
        }
        _ => (false, Vec::new()),
    };
    let issues = if !valid && issues.is_empty() {
        vec![fallback_issue(scope)]
    } else {
        issues
    };
    RuleResult {
        valid: Some(valid),
        issues,
    }
}

/// Returns the issue of a failure that named none: the scope's fallback message.
pub fn fallback_issue(scope: Scope) -> RuleIssue {
    RuleIssue {
        code: None,
        message: Some(scope.fallback_message().to_owned()),
        metadata: Default::default(),
    }
}

/// Normalizes one entry of a result's `issues`, or returns `None` when it is unusable.
///
/// A string is a message. An object keeps its `code` and `message` when they are strings,
/// trimmed (JavaScript white space), and not empty after trimming; it is dropped when neither
/// remains. Its `metadata`, when an object, keeps only its scalar entries: strings, numbers and
/// booleans (`null`, arrays and objects are dropped). Anything else is dropped, and so is a
/// string that is empty after trimming: it would show nothing, like an object with no `code`
/// or `message`.
pub fn normalize_issue(entry: &Value) -> Option<RuleIssue> {
    match entry {
        Value::String(_) => non_empty_trimmed(Some(entry)).map(|message| RuleIssue {
            code: None,
            message: Some(message.to_owned()),
            metadata: Default::default(),
        }),
        Value::Object(object) => {
            let code = non_empty_trimmed(object.get("code")).map(str::to_owned);
            let message = non_empty_trimmed(object.get("message")).map(str::to_owned);
            if code.is_none() && message.is_none() {
                return None;
            }
            let metadata = match object.get("metadata") {
                Some(Value::Object(entries)) => scalar_metadata(entries),
                _ => Default::default(),
            };
            Some(RuleIssue {
                code,
                message,
                metadata,
            })
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::Array(_) => None,
    }
}

fn non_empty_trimmed(value: Option<&Value>) -> Option<&str> {
    match value {
        Some(Value::String(text)) => Some(js::trim(text)).filter(|text| !text.is_empty()),
        _ => None,
    }
}

fn scalar_metadata(
    entries: &Map<String, Value>,
) -> std::collections::BTreeMap<String, pbjson_types::Value> {
    entries
        .iter()
        .filter_map(|(key, value)| {
            let scalar = match value {
                Value::String(text) => pbjson_types::Value::from(text.clone()),
                Value::Bool(flag) => pbjson_types::Value::from(*flag),
                // JSON numbers are finite (JSON.stringify writes NaN and Infinity as null).
                Value::Number(number) => pbjson_types::Value::from(number.as_f64()? + 0.0),
                Value::Null | Value::Array(_) | Value::Object(_) => return None,
            };
            Some((key.clone(), scalar))
        })
        .collect()
}

/// Returns the text an issue is shown as: its `message`, or else its `code` with underscores
/// as spaces (`missing_champion` → "missing champion").
pub fn issue_text(issue: &RuleIssue) -> String {
    match (&issue.message, &issue.code) {
        (Some(message), _) => message.clone(),
        (None, Some(code)) => code.replace('_', " "),
        (None, None) => String::new(),
    }
}

/// Where a submitted issue came from, which the server names in front of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IssueOrigin<'a> {
    /// The card rule, on the named card (its catalog name, or its ref when the catalog has
    /// none).
    Card(&'a str),
    /// The deck rule, on the deck with this number; decks are numbered from 1.
    Deck(usize),
    /// The deck set rule, on the whole lineup.
    Lineup,
}

/// Returns an issue as the server reports it on submission, prefixed with where it came from:
/// `Card Zed: …`, `Deck 2: …` or `Lineup: …`.
pub fn submission_message(origin: IssueOrigin<'_>, issue: &RuleIssue) -> String {
    let text = issue_text(issue);
    match origin {
        IssueOrigin::Card(card) => format!("Card {card}: {text}"),
        IssueOrigin::Deck(number) => format!("Deck {number}: {text}"),
        IssueOrigin::Lineup => format!("Lineup: {text}"),
    }
}

/// Returns every issue of a result as the server reports it on submission (see
/// [`submission_message`]), in the script's order.
pub fn submission_messages(origin: IssueOrigin<'_>, result: &RuleResult) -> Vec<String> {
    result
        .issues
        .iter()
        .map(|issue| submission_message(origin, issue))
        .collect()
}

/// Tells whether a normalized result passes.
pub fn is_valid(result: &RuleResult) -> bool {
    result.valid == Some(true)
}
