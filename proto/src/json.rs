//! The documented JSON of script results, for the gateway, the CLI and anyone else who prints
//! them: written from the messages alone, so no printer needs the scripts service's crate; and
//! the rulesets the rulesets API answers with, with their times in RFC 3339.
//!
//! The canonical proto3 JSON mapping (pbjson) leaves out empty lists, so an empty `issues` or a
//! histogram with no buckets would lose a field the script references document as always
//! there. These functions write the mapping and add back, empty, every list the documents
//! require: `issues` of a rule result, `widgets` of a dashboard, and each widget kind's
//! required lists (`buckets` and `labels`, `segments`, `columns` and `rows`).

use crate::scripts::v1::{Dashboard, PoolFiltersPatch, RuleResult, RuleScope, Ruleset};
use serde_json::{Map, Value, json};

/// Writes a protobuf timestamp as RFC 3339 (`null` when absent or out of range): how every
/// time of the API is written.
pub fn rfc3339(timestamp: Option<&pbjson_types::Timestamp>) -> Value {
    timestamp
        .and_then(|t| jiff::Timestamp::new(t.seconds, t.nanos).ok())
        .map_or(Value::Null, |t| Value::String(t.to_string()))
}

/// A ruleset scope's name: `card`, `deck` or `deckset` (`unspecified` for anything else).
pub fn rule_scope_name(value: i32) -> &'static str {
    match RuleScope::try_from(value) {
        Ok(RuleScope::Card) => "card",
        Ok(RuleScope::Deck) => "deck",
        Ok(RuleScope::Deckset) => "deckset",
        _ => "unspecified",
    }
}

/// The ruleset scope a name (`card`, `deck`, `deckset`) names, if it is one.
pub fn rule_scope(name: &str) -> Option<RuleScope> {
    match name {
        "card" => Some(RuleScope::Card),
        "deck" => Some(RuleScope::Deck),
        "deckset" => Some(RuleScope::Deckset),
        _ => None,
    }
}

/// Rulesets grouped as a profile shows them: `{"card": [...], "deck": [...], "deckset": [...]}`,
/// each in the order given.
pub fn rulesets_by_scope(rulesets: &[Ruleset]) -> Value {
    let mut grouped = Map::new();
    for scope in ["card", "deck", "deckset"] {
        let of_scope: Vec<Value> = rulesets
            .iter()
            .filter(|shown| rule_scope_name(shown.scope) == scope)
            .map(ruleset)
            .collect();
        grouped.insert(scope.to_owned(), Value::Array(of_scope));
    }
    Value::Object(grouped)
}

/// A ruleset as the rulesets API documents it, keys in its order: `{"id", "game", "name",
/// "scope", "source", "version", "builtIn", "owner", "public", "enabled", "downloaded",
/// "origin"?, "updateAvailable", "directBans", "createTime", "updateTime"}`.
pub fn ruleset(ruleset: &Ruleset) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(ruleset.id));
    out.insert(
        "game".into(),
        json!(crate::game::from_wire(ruleset.game).map(|game| game.name())),
    );
    out.insert("name".into(), json!(ruleset.name));
    out.insert("scope".into(), json!(rule_scope_name(ruleset.scope)));
    out.insert("source".into(), json!(ruleset.source));
    out.insert("version".into(), json!(ruleset.version));
    out.insert("builtIn".into(), json!(ruleset.built_in));
    out.insert("owner".into(), json!(ruleset.owner));
    out.insert("public".into(), json!(ruleset.public));
    out.insert("enabled".into(), json!(ruleset.enabled));
    out.insert("downloaded".into(), json!(ruleset.downloaded));
    if let Some(origin) = &ruleset.origin {
        out.insert(
            "origin".into(),
            json!({"ruleset": origin.ruleset, "version": origin.version, "from": origin.from}),
        );
    }
    out.insert("updateAvailable".into(), json!(ruleset.update_available));
    out.insert("directBans".into(), json!(ruleset.direct_bans));
    out.insert("createTime".into(), rfc3339(ruleset.create_time.as_ref()));
    out.insert("updateTime".into(), rfc3339(ruleset.update_time.as_ref()));
    Value::Object(out)
}

/// `{"valid": bool, "issues": [{"code"?, "message"?, "metadata"?}]}`.
pub fn rule_result(result: &RuleResult) -> Value {
    let mut value = to_value(result);
    ensure(&mut value, "valid", || Value::Bool(false));
    ensure(&mut value, "issues", || json!([]));
    value
}

/// One card's verdict in a card pool: the rule's result, or `{"error": {"code": "script_error",
/// "message"}}` when the rule threw for this card; `cardId` first when the card has an id.
pub fn card_verdict(card_id: Option<&str>, outcome: Result<&RuleResult, &str>) -> Value {
    let mut value = match outcome {
        Ok(result) => rule_result(result),
        Err(message) => json!({"error": {"code": "script_error", "message": message}}),
    };
    if let (Some(id), Value::Object(fields)) = (card_id, &mut value) {
        fields.shift_insert(0, "cardId".to_owned(), Value::String(id.to_owned()));
    }
    value
}

/// `{"widgets": [...]}`, each widget with only its kind's fields and its required lists.
pub fn dashboard(dashboard: &Dashboard) -> Value {
    let widgets: Vec<Value> = dashboard
        .widgets
        .iter()
        .map(|widget| {
            let mut value = to_value(widget);
            let required: &[&str] = match widget.kind.as_str() {
                "histogram" => &["buckets", "labels"],
                "donut" | "gauge" | "bars" => &["segments"],
                "table" => &["columns", "rows"],
                _ => &[],
            };
            for field in required {
                ensure(&mut value, field, || json!([]));
            }
            value
        })
        .collect();
    json!({ "widgets": widgets })
}

/// The patch object, or `null` when the hook made no suggestion.
pub fn patch(patch: Option<&PoolFiltersPatch>) -> Value {
    patch.map_or(Value::Null, to_value)
}

fn to_value(message: &impl serde::Serialize) -> Value {
    // pbjson's serializers never fail on a message.
    serde_json::to_value(message).unwrap_or(Value::Null)
}

fn ensure(value: &mut Value, field: &str, empty: impl FnOnce() -> Value) {
    if let Value::Object(object) = value
        && !object.contains_key(field)
    {
        object.insert(field.to_owned(), empty());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scripts::v1::{RuleIssue, Widget};

    #[test]
    fn a_passing_rule_keeps_an_empty_issue_list() {
        let result = RuleResult {
            valid: Some(true),
            issues: Vec::new(),
        };
        assert_eq!(rule_result(&result), json!({"valid": true, "issues": []}));
        assert_eq!(
            rule_result(&RuleResult::default()),
            json!({"valid": false, "issues": []})
        );
    }

    #[test]
    fn a_failing_rule_carries_its_issues() {
        let result = RuleResult {
            valid: Some(false),
            issues: vec![RuleIssue {
                message: Some("Saved deck rule rejected this deck.".to_owned()),
                ..RuleIssue::default()
            }],
        };
        assert_eq!(
            rule_result(&result),
            json!({"valid": false, "issues": [{"message": "Saved deck rule rejected this deck."}]})
        );
    }

    #[test]
    fn a_verdict_names_its_card_first_or_carries_the_scripts_error() {
        let passing = RuleResult {
            valid: Some(true),
            issues: Vec::new(),
        };
        let verdict = card_verdict(Some("sv2-11"), Ok(&passing));
        assert_eq!(
            verdict,
            json!({"cardId": "sv2-11", "valid": true, "issues": []})
        );
        let keys: Vec<&String> = verdict.as_object().expect("an object").keys().collect();
        assert_eq!(keys, ["cardId", "valid", "issues"]);
        assert_eq!(
            card_verdict(None, Err("boom")),
            json!({"error": {"code": "script_error", "message": "boom"}})
        );
    }

    #[test]
    fn empty_required_lists_are_written_and_optional_ones_are_not() {
        let widget = |kind: &str| Widget {
            kind: kind.to_owned(),
            label: Some("W".to_owned()),
            ..Widget::default()
        };
        let value = dashboard(&Dashboard {
            widgets: vec![widget("histogram"), widget("table"), widget("stat")],
        });
        let widgets = value["widgets"].as_array().expect("widgets");
        assert_eq!(widgets[0]["buckets"], json!([]));
        assert_eq!(widgets[0]["labels"], json!([]));
        assert_eq!(widgets[1]["columns"], json!([]));
        assert_eq!(widgets[1]["rows"], json!([]));
        assert!(widgets[1].get("columnKeys").is_none());
        assert!(widgets[2].get("buckets").is_none());
        assert_eq!(dashboard(&Dashboard::default()), json!({"widgets": []}));
    }

    #[test]
    fn no_patch_is_null() {
        assert_eq!(patch(None), Value::Null);
    }
}
