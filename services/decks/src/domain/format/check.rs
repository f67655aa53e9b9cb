//! Checking a deck against a format on a moment: every issue at once, each with a stable code
//! and a message naming the card, the numbers and what bans or restricts it (issue 6).
//!
//! Where the cards' names and own copy limits come from (the catalog) is the caller's concern.

use std::collections::HashMap;

use jiff::ZonedDateTime;

use super::card::Card;
use super::report::{CardReport, Issue, IssueCode, Report, TabooListRef};
use super::rules::Format;
use super::ruling::{CardRuling, Ruling};
use super::values::CardId;

/// A deck as a format sees it: cards, each with its number of copies, in the order given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deck {
    /// Each card once: adding a card already in the deck adds to its copies.
    entries: Vec<DeckEntry>,
    /// The position of each card in `entries`.
    positions: HashMap<CardId, usize>,
}

/// One card of a deck and its copies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckEntry {
    /// The card, with its name and own copy limit where known.
    pub card: Card,
    /// How many copies the deck holds.
    pub count: u32,
}

impl Deck {
    /// Returns an empty deck.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `count` copies of `card`.
    ///
    /// A card already in the deck keeps its place and name and takes the sum of the copies; of
    /// two different own copy limits the lower is kept, so merging never loosens a rule.
    pub fn add(&mut self, card: Card, count: u32) {
        if let Some(&position) = self.positions.get(card.id()) {
            let entry = &mut self.entries[position];
            entry.count = entry.count.saturating_add(count);
            entry.card.keep_lowest_copy_limit(card.copy_limit());
        } else {
            self.positions.insert(card.id().clone(), self.entries.len());
            self.entries.push(DeckEntry { card, count });
        }
    }

    /// Returns whether the deck lists `card`.
    pub fn contains(&self, card: &CardId) -> bool {
        self.positions.contains_key(card)
    }

    /// Returns the cards of the deck in the order they were first added.
    pub fn entries(&self) -> &[DeckEntry] {
        &self.entries
    }

    /// Returns the number of cards in the deck, counting every copy.
    pub fn size(&self) -> u64 {
        self.entries
            .iter()
            .map(|entry| u64::from(entry.count))
            .sum()
    }
}

impl FromIterator<(Card, u32)> for Deck {
    fn from_iter<I: IntoIterator<Item = (Card, u32)>>(cards: I) -> Self {
        let mut deck = Self::new();
        for (card, count) in cards {
            deck.add(card, count);
        }
        deck
    }
}

impl Format {
    /// Checks `deck` against the format on the day of `moment`, taken in the moment's own time
    /// zone, and returns every issue at once.
    pub fn check(&self, deck: &Deck, moment: &ZonedDateTime) -> Report {
        self.ruling_on(moment).check(deck)
    }
}

impl Ruling<'_> {
    /// Checks `deck` against the rules of this day and returns every issue at once: the deck's
    /// size first, then each card in the deck's order.
    pub fn check(&self, deck: &Deck) -> Report {
        let mut issues = Vec::new();
        self.check_size(deck.size(), &mut issues);
        let cards = deck
            .entries()
            .iter()
            .map(|entry| {
                let ruling = self.card(&entry.card);
                if let Some(issue) = self.check_copies(entry, &ruling) {
                    issues.push(issue);
                }
                CardReport {
                    card: entry.card.id().clone(),
                    ruling,
                }
            })
            .collect();
        let taboo_list = self.taboo_list().map(|list| TabooListRef {
            code: list.code().clone(),
            effective_from: list.effective_from(),
        });
        Report::new(taboo_list, cards, issues)
    }

    fn check_size(&self, size: u64, issues: &mut Vec<Issue>) {
        let format = self.format();
        let min_size = format.min_size();
        if size < u64::from(min_size) {
            issues.push(Issue {
                code: IssueCode::DeckTooSmall,
                card: None,
                message: format!(
                    "Deck: at least {min_size} {} under the format {} (found {size}).",
                    plural(u64::from(min_size), "card", "cards"),
                    format.code()
                ),
            });
        }
        if let Some(max_size) = format.max_size()
            && size > u64::from(max_size)
        {
            issues.push(Issue {
                code: IssueCode::DeckTooLarge,
                card: None,
                message: format!(
                    "Deck: at most {max_size} {} under the format {} (found {size}).",
                    plural(u64::from(max_size), "card", "cards"),
                    format.code()
                ),
            });
        }
    }

    fn check_copies(&self, entry: &DeckEntry, ruling: &CardRuling) -> Option<Issue> {
        let count = entry.count;
        let label = entry.card.label();
        let issue = |code, message| {
            Some(Issue {
                code,
                card: Some(entry.card.id().clone()),
                message,
            })
        };
        // A card listed with no copies is not in the deck, so nothing it breaks counts.
        if count == 0 {
            return None;
        }
        if let Some(banned_by) = &ruling.banned_by {
            return issue(
                IssueCode::BannedCard,
                format!("{label}: banned by {banned_by} (found {count})."),
            );
        }
        let limit = ruling.copy_limit?;
        if count <= u32::from(limit.get()) {
            return None;
        }
        let copies = plural(u64::from(limit.get()), "copy", "copies");
        let why = match (&ruling.restricted_by, entry.card.copy_limit()) {
            (Some(restricted_by), _) => format!("under {restricted_by}"),
            (None, Some(_)) => "by its own limit".to_owned(),
            (None, None) => format!("under the format {}", self.format().code()),
        };
        issue(
            IssueCode::TooManyCopies,
            format!("{label}: at most {limit} {copies} {why} (found {count})."),
        )
    }
}

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::day::parse_moment;
    use super::super::values::{CopyLimit, Name};
    use super::*;

    /// The spec's example format.
    fn league() -> Format {
        Format::from_json(
            r#"{
                "code": "league",
                "name": "League",
                "min_size": 40,
                "max_size": 60,
                "copies": 3,
                "banned": ["old-relic"],
                "restricted": {"storm-call": 1},
                "taboo_lists": [
                    {"code": "autumn", "effective_from": "2026-10-01", "banned": ["night-owl"], "restricted": {"ember-fox": 2}}
                ]
            }"#,
        )
        .expect("the spec's example reads")
    }

    fn card(id: &str) -> Card {
        Card::new(CardId::parse(id).expect("a valid card id"))
    }

    fn named(id: &str, name: &str) -> Card {
        card(id).named(Name::parse(name).expect("a valid name"))
    }

    fn limit(copies: u64) -> CopyLimit {
        CopyLimit::new(copies).expect("a valid limit")
    }

    fn after_autumn() -> ZonedDateTime {
        parse_moment("2026-10-02T09:00:00-04:00").expect("a moment")
    }

    fn codes(report: &Report) -> Vec<&'static str> {
        report.issues().iter().map(|i| i.code.as_str()).collect()
    }

    #[test]
    fn a_deck_within_every_rule_is_valid() {
        let deck: Deck = [
            (card("path").with_copy_limit(limit(20)), 20),
            (card("a"), 3),
        ]
        .into_iter()
        .chain((0..6).map(|i| (card(&format!("c{i}")), 3)))
        .collect();
        assert_eq!(deck.size(), 41);
        let report = league().check(&deck, &after_autumn());
        assert!(report.is_valid(), "{:?}", report.issues());
        assert_eq!(report.cards().len(), 8);
    }

    #[test]
    fn a_restricted_card_over_its_number_names_the_taboo_list_that_restricts_it() {
        // Storm Call is restricted to 1 by the format in the spec; here a taboo list does it.
        let format = Format::from_json(
            r#"{"code": "league", "name": "League", "min_size": 0, "copies": 3, "banned": [],
                "restricted": {}, "taboo_lists": [{"code": "autumn",
                "effective_from": "2026-10-01", "banned": [], "restricted": {"storm-call": 1}}]}"#,
        )
        .expect("a valid format");
        let deck: Deck = [(named("storm-call", "Storm Call"), 2)]
            .into_iter()
            .collect();
        let report = format.check(&deck, &after_autumn());
        assert_eq!(
            report.issues(),
            [Issue {
                code: IssueCode::TooManyCopies,
                card: Some(CardId::parse("storm-call").expect("an id")),
                message: "Storm Call: at most 1 copy under the taboo list autumn from 2026-10-01 (found 2).".into(),
            }]
        );
    }

    #[test]
    fn every_issue_is_reported_at_once() {
        let deck: Deck = [
            (named("old-relic", "Old Relic"), 1),
            (named("night-owl", "Night Owl"), 2),
            (named("storm-call", "Storm Call"), 2),
            (named("ember-fox", "Ember Fox"), 3),
            (named("sun-disc", "Sun Disc"), 4),
            (named("crown", "Crown").with_copy_limit(limit(1)), 2),
        ]
        .into_iter()
        .collect();
        let report = league().check(&deck, &after_autumn());
        assert!(!report.is_valid());
        let messages: Vec<_> = report.issues().iter().map(|i| i.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "Deck: at least 40 cards under the format league (found 14).",
                "Old Relic: banned by the format league (found 1).",
                "Night Owl: banned by the taboo list autumn from 2026-10-01 (found 2).",
                "Storm Call: at most 1 copy under the format league (found 2).",
                "Ember Fox: at most 2 copies under the taboo list autumn from 2026-10-01 (found 3).",
                "Sun Disc: at most 3 copies under the format league (found 4).",
                "Crown: at most 1 copy by its own limit (found 2).",
            ]
        );
        assert_eq!(
            codes(&report),
            [
                "deck_too_small",
                "banned_card",
                "banned_card",
                "too_many_copies",
                "too_many_copies",
                "too_many_copies",
                "too_many_copies",
            ]
        );
    }

    #[test]
    fn a_deck_one_card_below_min_size_is_too_small_and_at_min_size_is_not() {
        let deck = |n| -> Deck {
            [(card("path").with_copy_limit(limit(999)), n)]
                .into_iter()
                .collect()
        };
        assert_eq!(
            codes(&league().check(&deck(39), &after_autumn())),
            ["deck_too_small"]
        );
        assert!(league().check(&deck(40), &after_autumn()).is_valid());
    }

    #[test]
    fn a_deck_one_card_above_max_size_is_too_large_and_at_max_size_is_not() {
        let deck = |n| -> Deck {
            [(card("path").with_copy_limit(limit(999)), n)]
                .into_iter()
                .collect()
        };
        assert!(league().check(&deck(60), &after_autumn()).is_valid());
        let report = league().check(&deck(61), &after_autumn());
        assert_eq!(codes(&report), ["deck_too_large"]);
        assert_eq!(
            report.issues()[0].message,
            "Deck: at most 60 cards under the format league (found 61)."
        );
        assert_eq!(report.issues()[0].card, None);
    }

    #[test]
    fn a_card_at_its_limit_is_fine_and_one_over_is_too_many() {
        let deck = |n| -> Deck {
            [
                (card("path").with_copy_limit(limit(40)), 40),
                (card("a"), n),
            ]
            .into_iter()
            .collect()
        };
        assert!(league().check(&deck(3), &after_autumn()).is_valid());
        let report = league().check(&deck(4), &after_autumn());
        assert_eq!(codes(&report), ["too_many_copies"]);
        // A card with no name is called by its identifier.
        assert_eq!(
            report.issues()[0].message,
            "a: at most 3 copies under the format league (found 4)."
        );
    }

    #[test]
    fn a_card_listed_with_no_copies_breaks_nothing() {
        let deck: Deck = [
            (card("path").with_copy_limit(limit(40)), 40),
            (card("old-relic"), 0),
        ]
        .into_iter()
        .collect();
        let report = league().check(&deck, &after_autumn());
        assert!(report.is_valid());
        assert_eq!(report.cards().len(), 2);
    }

    #[test]
    fn adding_a_card_twice_adds_its_copies_and_keeps_the_lower_own_limit() {
        let mut deck = Deck::new();
        deck.add(card("path").with_copy_limit(limit(20)), 12);
        deck.add(card("a"), 1);
        deck.add(card("path").with_copy_limit(limit(10)), 3);
        assert_eq!(deck.entries().len(), 2);
        assert_eq!(deck.entries()[0].count, 15);
        assert_eq!(deck.entries()[0].card.copy_limit(), Some(limit(10)));
        assert_eq!(deck.size(), 16);
    }

    #[test]
    fn the_report_has_the_json_shape_of_the_cli() {
        let deck: Deck = [
            (named("storm-call", "Storm Call"), 2),
            (card("path").with_copy_limit(limit(20)), 20),
            (card("night-owl"), 1),
            (card("ember-fox"), 2),
        ]
        .into_iter()
        .collect();
        let report = league().check(&deck, &after_autumn());
        assert_eq!(
            report.to_json(),
            json!({
                "valid": false,
                "tabooList": {"code": "autumn", "effectiveFrom": "2026-10-01"},
                "cards": {
                    "storm-call": {
                        "bannedBy": null,
                        "copyLimit": 1,
                        "restrictedBy": {"kind": "format", "code": "league"}
                    },
                    "path": {"bannedBy": null, "copyLimit": 20, "restrictedBy": null},
                    "night-owl": {
                        "bannedBy": {"kind": "tabooList", "code": "autumn", "effectiveFrom": "2026-10-01"},
                        "copyLimit": null,
                        "restrictedBy": null
                    },
                    "ember-fox": {
                        "bannedBy": null,
                        "copyLimit": 2,
                        "restrictedBy": {"kind": "tabooList", "code": "autumn", "effectiveFrom": "2026-10-01"}
                    }
                },
                "issues": [
                    {"code": "deck_too_small", "card": null, "message": "Deck: at least 40 cards under the format league (found 25)."},
                    {"code": "too_many_copies", "card": "storm-call", "message": "Storm Call: at most 1 copy under the format league (found 2)."},
                    {"code": "banned_card", "card": "night-owl", "message": "night-owl: banned by the taboo list autumn from 2026-10-01 (found 1)."}
                ]
            })
        );
        // The cards keep the deck's order in the JSON object.
        let keys: Vec<_> = report.to_json()["cards"]
            .as_object()
            .expect("an object")
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["storm-call", "path", "night-owl", "ember-fox"]);
    }

    #[test]
    fn before_the_taboo_list_the_report_names_no_taboo_list() {
        let evening = parse_moment("2026-09-30T22:00:00-04:00").expect("a moment");
        let deck: Deck = [(card("night-owl"), 1)].into_iter().collect();
        let report = league().check(&deck, &evening);
        assert_eq!(report.to_json()["tabooList"], serde_json::Value::Null);
        assert_eq!(codes(&report), ["deck_too_small"]);
    }
}
