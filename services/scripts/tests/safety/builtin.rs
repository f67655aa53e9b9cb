//! The built-in rules of each game pass the same safety check as anyone's script, have unique
//! fixed ids, name what they follow in their header and give the entry point of their scope.

use std::collections::HashSet;

use scripts::builtin;
use scripts::domain::rule_result::Scope;
use scripts::domain::safety::check;

#[test]
fn every_builtin_rule_passes_the_safety_check() {
    for rule in builtin::all() {
        let report = check(rule.source);
        assert!(report.safe, "{} is unsafe: {:?}", rule.id, report.issues);
    }
}

#[test]
fn builtin_rule_ids_are_unique_and_name_their_game() {
    let mut seen = HashSet::new();
    for rule in builtin::all() {
        assert!(seen.insert(rule.id), "{} is built in twice", rule.id);
        let prefix = format!("{}-", rule.game.name());
        assert!(
            rule.id.starts_with(&prefix),
            "{} starts with {prefix}",
            rule.id
        );
        assert_eq!(builtin::get(rule.id), Some(rule));
    }
}

#[test]
fn every_builtin_rule_header_names_what_it_follows() {
    for rule in builtin::all() {
        let header: Vec<&str> = rule
            .source
            .lines()
            .take_while(|line| line.starts_with("//"))
            .collect();
        assert!(
            header.iter().any(|line| line.starts_with("// Follows: ")),
            "{}'s header names the document it follows",
            rule.id
        );
        assert!(!rule.follows.is_empty(), "{} says what it follows", rule.id);
    }
}

#[test]
fn every_builtin_rule_exports_the_entry_point_of_its_scope() {
    for rule in builtin::all() {
        let entry = match rule.scope {
            Scope::Card => "export default function validateCard(",
            Scope::Deck => "export default function validateDeck(",
            Scope::Deckset => "export default function validateDeckset(",
        };
        assert!(rule.source.contains(entry), "{} has `{entry}`", rule.id);
    }
}

#[test]
fn the_riftbound_zone_rules_suggest_pool_filters() {
    for id in [
        "riftbound-legend",
        "riftbound-runes",
        "riftbound-battlefields",
        "riftbound-main-deck",
    ] {
        let rule = builtin::get(id).expect("a built-in zone rule");
        assert!(
            rule.source.contains("export function resolvePoolFilters("),
            "{id} suggests its zone's cards"
        );
    }
}
