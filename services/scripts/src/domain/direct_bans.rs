//! Direct bans: the cards a card rule bans on top of whatever its script allows
//! (`shared/spec/turny/guide-rulesets.md`, "Just banning cards?"; the deck builder guide's
//! "This card is directly banned by the selected ruleset.").
//!
//! A ban names a card by any of its refs: a Legends of Runeterra card code, a Pokémon identity
//! id (every printing of the card) or one printing's id. A banned card fails its card rule with
//! the ban's issue first, and keeps the script's own issues after it.

use std::collections::HashSet;

use proto::scripts::v1::{RuleIssue, RuleResult};
use serde_json::Value;

/// The message of a directly banned card, as the deck builder guide gives it.
pub const MESSAGE: &str = "This card is directly banned by the selected ruleset.";

/// The code of a directly banned card's issue.
pub const CODE: &str = "directly_banned";

/// The direct bans of the card rule a run uses (none for every other rule).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DirectBans(HashSet<String>);

impl DirectBans {
    /// Bans the cards `refs` name.
    pub fn new(refs: impl IntoIterator<Item = String>) -> Self {
        Self(refs.into_iter().collect())
    }

    /// Returns whether nothing is banned (a run then skips every lookup).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Returns whether a card known by `refs` (its deck ref, its id, its printings' ids) is
    /// banned.
    pub fn bans<'a>(&self, mut refs: impl Iterator<Item = &'a str>) -> bool {
        !self.0.is_empty() && refs.any(|reference| self.0.contains(reference))
    }

    /// Returns whether the card object `card` is banned, by its `id` or a printing's `id`.
    pub fn bans_card(&self, card: &Value) -> bool {
        self.bans(card_refs(card).into_iter())
    }

    /// Returns `result` for a card: unchanged when `banned` is false, else failing with the
    /// ban's issue before the script's own.
    pub fn apply(result: RuleResult, banned: bool) -> RuleResult {
        if !banned {
            return result;
        }
        let mut issues = Vec::with_capacity(result.issues.len() + 1);
        issues.push(RuleIssue {
            code: Some(CODE.to_owned()),
            message: Some(MESSAGE.to_owned()),
            metadata: Default::default(),
        });
        issues.extend(
            result
                .issues
                .into_iter()
                // The script's fallback ("Saved card rule rejected this card.") says nothing
                // the ban does not.
                .filter(|issue| {
                    issue.message.as_deref()
                        != Some(super::rule_result::Scope::Card.fallback_message())
                }),
        );
        RuleResult {
            valid: Some(false),
            issues,
        }
    }
}

/// Returns the refs a card object is known by: its `id` and each printing's `id`.
pub fn card_refs(card: &Value) -> Vec<&str> {
    let own = card.get("id").and_then(Value::as_str);
    own.into_iter().chain(printing_ids(card)).collect()
}

/// Returns the `id` of each of a card object's `printings`, in order.
pub fn printing_ids(card: &Value) -> impl Iterator<Item = &str> {
    card.get("printings")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|printing| printing.get("id").and_then(Value::as_str))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pass() -> RuleResult {
        RuleResult {
            valid: Some(true),
            issues: Vec::new(),
        }
    }

    #[test]
    fn a_card_is_banned_by_its_id_or_any_printing() {
        let bans = DirectBans::new(["01IO049".to_owned(), "sv2-11".to_owned()]);
        assert!(bans.bans_card(&json!({"id": "01IO049", "name": "Deny"})));
        assert!(bans.bans_card(&json!({"id": "x", "printings": [{"id": "a"}, {"id": "sv2-11"}]})));
        assert!(!bans.bans_card(&json!({"id": "01IO009"})));
        assert!(!bans.bans_card(&json!({"name": "no id"})));
        assert!(!DirectBans::default().bans_card(&json!({"id": "01IO049"})));
    }

    #[test]
    fn a_banned_card_fails_with_the_ban_first_and_keeps_the_scripts_issues() {
        assert_eq!(DirectBans::apply(pass(), false), pass());
        let banned = DirectBans::apply(pass(), true);
        assert_eq!(banned.valid, Some(false));
        assert_eq!(banned.issues.len(), 1);
        assert_eq!(banned.issues[0].message.as_deref(), Some(MESSAGE));
        assert_eq!(banned.issues[0].code.as_deref(), Some(CODE));

        let failed = RuleResult {
            valid: Some(false),
            issues: vec![
                RuleIssue {
                    message: Some("Only Standard-legal cards can be submitted".to_owned()),
                    ..RuleIssue::default()
                },
                super::super::rule_result::fallback_issue(super::super::rule_result::Scope::Card),
            ],
        };
        let messages: Vec<_> = DirectBans::apply(failed, true)
            .issues
            .into_iter()
            .filter_map(|issue| issue.message)
            .collect();
        assert_eq!(
            messages,
            [MESSAGE, "Only Standard-legal cards can be submitted"]
        );
    }
}
