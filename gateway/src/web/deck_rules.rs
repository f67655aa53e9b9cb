//! The builder's rule pickers: the card ruleset, the whole-deck rule and each pile's zone rule,
//! picked among the game's built-in rules and the viewer's own enabled rulesets. The choice
//! rides in the builder's address next to the deck (`card=`, `rule=`, `zone-<pile>=`; `none`
//! for no rule), only where it differs from the game's defaults, so a share link carries it and
//! every change keeps it. The template the builder follows (`template=`) rides with them.

use std::collections::BTreeMap;

use maud::{Markup, html};
use proto::scripts::v1 as pb;

use crate::auth::Calls;

/// Written for "no rule" in a picker and an address.
const NONE: &str = "none";

/// The rules the builder checks a deck with, as the address gives them: empty means the
/// game's default.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    /// The template the builder follows (empty: the game's default layout).
    pub template: String,
    /// Pile View: `piles` (side by side), `list`, or empty for the layout's own.
    pub view: String,
    /// Multi deck: the deck set rule (`setrule=`; empty: the game's default).
    pub deckset: String,
    pub card: String,
    pub deck: String,
    /// Pile name → ruleset id (or `none`).
    pub zones: BTreeMap<String, String>,
}

/// One pile's picker: its name, as people read it, and its default zone rule.
pub struct Zone<'a> {
    pub name: &'a str,
    pub label: &'a str,
    pub default: Option<&'a str>,
}

impl Rules {
    /// Reads the rules out of a query's other parameters (`zone-<pile>`).
    pub fn read(card: &str, deck: &str, rest: &BTreeMap<String, String>) -> Self {
        let zones = rest
            .iter()
            .filter_map(|(key, value)| {
                key.strip_prefix("zone-")
                    .filter(|_| !value.is_empty())
                    .map(|pile| (pile.to_owned(), value.clone()))
            })
            .collect();
        Self {
            template: rest.get("template").cloned().unwrap_or_default(),
            view: rest.get("view").cloned().unwrap_or_default(),
            deckset: rest.get("setrule").cloned().unwrap_or_default(),
            card: card.to_owned(),
            deck: deck.to_owned(),
            zones,
        }
    }

    /// The address's parameters for these rules, the ones set.
    pub fn pairs(&self) -> Vec<(String, String)> {
        let mut pairs = Vec::new();
        if !self.template.is_empty() {
            pairs.push(("template".to_owned(), self.template.clone()));
        }
        if !self.view.is_empty() {
            pairs.push(("view".to_owned(), self.view.clone()));
        }
        if !self.deckset.is_empty() {
            pairs.push(("setrule".to_owned(), self.deckset.clone()));
        }
        if !self.card.is_empty() {
            pairs.push(("card".to_owned(), self.card.clone()));
        }
        if !self.deck.is_empty() {
            pairs.push(("rule".to_owned(), self.deck.clone()));
        }
        for (pile, id) in &self.zones {
            pairs.push((format!("zone-{pile}"), id.clone()));
        }
        pairs
    }

    /// The card rule: the chosen one, `None` for none, else `default`.
    pub fn card_rule<'a>(&'a self, default: &'a str) -> Option<&'a str> {
        pick(&self.card, Some(default))
    }

    /// The whole-deck rule: the chosen one, `None` for none, else `default`.
    pub fn deck_rule<'a>(&'a self, default: &'a str) -> Option<&'a str> {
        pick(&self.deck, Some(default))
    }

    /// Multi deck's deck set rule: the chosen one, `None` for none, else `default`.
    pub fn deckset_rule<'a>(&'a self, default: &'a str) -> Option<&'a str> {
        pick(&self.deckset, Some(default))
    }

    /// A pile's zone rule: the chosen one, `None` for none, else the pile's default.
    pub fn zone_rule<'a>(&'a self, zone: &Zone<'a>) -> Option<&'a str> {
        pick(
            self.zones.get(zone.name).map_or("", String::as_str),
            zone.default,
        )
    }
}

fn pick<'a>(chosen: &'a str, default: Option<&'a str>) -> Option<&'a str> {
    match chosen {
        "" => default,
        NONE => None,
        id => Some(id),
    }
}

/// The game's rulesets the pickers offer (built-in and the viewer's own, enabled), by scope.
pub async fn offered(calls: &Calls, game: proto::game::Game) -> Vec<pb::Ruleset> {
    let Ok(scripts) = calls.scripts() else {
        return Vec::new();
    };
    scripts
        .list_rulesets(pb::ListRulesetsRequest {
            game: proto::game::to_wire(game),
            scope: pb::RuleScope::Unspecified.into(),
        })
        .await
        .map(|answer| answer.rulesets)
        .unwrap_or_default()
}

/// The pickers' form: the card ruleset, the whole-deck rule and one zone rule per pile, with
/// the page's other parameters (`hidden`) kept.
pub fn pickers(
    action: &str,
    hidden: &[(String, String)],
    rulesets: &[pb::Ruleset],
    rules: &Rules,
    defaults: (&str, &str),
    zones: &[Zone<'_>],
) -> Markup {
    let of_scope = |scope: pb::RuleScope| -> Vec<&pb::Ruleset> {
        rulesets
            .iter()
            .filter(|ruleset| ruleset.scope == i32::from(scope) && ruleset.enabled)
            .collect()
    };
    let cards = of_scope(pb::RuleScope::Card);
    let decks = of_scope(pb::RuleScope::Deck);
    let name_of = |id: Option<&str>| -> String {
        match id {
            None => "No rule".to_owned(),
            Some(id) => rulesets
                .iter()
                .find(|ruleset| ruleset.id == id)
                .map_or_else(|| id.to_owned(), |ruleset| ruleset.name.clone()),
        }
    };
    let card_now = rules.card_rule(defaults.0);
    let deck_now = rules.deck_rule(defaults.1);
    html! {
        details class="rules" {
            summary { "Rules: " (name_of(card_now)) " · " (name_of(deck_now)) }
            form method="get" action=(action) class="stack rule-pickers" {
                @for (name, value) in hidden { input type="hidden" name=(name) value=(value); }
                (picker("card", "Card ruleset", &cards, card_now))
                (picker("rule", "Whole-deck rule", &decks, deck_now))
                @for zone in zones {
                    @let field = format!("zone-{}", zone.name);
                    (picker(&field, &format!("{} zone rule", zone.label), &decks, rules.zone_rule(zone)))
                }
                button type="submit" { "Apply rules" }
            }
        }
    }
}

pub fn picker(field: &str, label: &str, offered: &[&pb::Ruleset], now: Option<&str>) -> Markup {
    let (built_in, own): (Vec<&&pb::Ruleset>, Vec<&&pb::Ruleset>) =
        offered.iter().partition(|ruleset| ruleset.built_in);
    let id = format!("pick-{field}");
    html! {
        label for=(id) { (label) }
        select id=(id) name=(field) {
            option value=(NONE) selected[now.is_none()] { "No rule" }
            @for (group, members) in [("Built-in", &built_in), ("Your rulesets", &own)] {
                @if !members.is_empty() {
                    optgroup label=(group) {
                        @for ruleset in members.iter() {
                            option value=(ruleset.id) selected[now == Some(ruleset.id.as_str())] { (ruleset.name) }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_keeps_only_what_differs_and_none_means_no_rule() {
        let rest = BTreeMap::from([
            ("zone-main".to_owned(), "none".to_owned()),
            ("zone-legend".to_owned(), String::new()),
            ("q".to_owned(), "t:unit".to_owned()),
        ]);
        let rules = Rules::read("rs_1", "", &rest);
        assert_eq!(
            rules.pairs(),
            [
                ("card".to_owned(), "rs_1".to_owned()),
                ("zone-main".to_owned(), "none".to_owned())
            ]
        );
        assert_eq!(rules.card_rule("riftbound-standard"), Some("rs_1"));
        assert_eq!(
            rules.deck_rule("riftbound-constructed"),
            Some("riftbound-constructed")
        );
        let main = Zone {
            name: "main",
            label: "Main Deck",
            default: Some("riftbound-main-deck"),
        };
        let legend = Zone {
            name: "legend",
            label: "Legend",
            default: Some("riftbound-legend"),
        };
        assert_eq!(rules.zone_rule(&main), None);
        assert_eq!(rules.zone_rule(&legend), Some("riftbound-legend"));
    }
}
