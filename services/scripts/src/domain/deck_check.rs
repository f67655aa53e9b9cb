//! Checking a whole deck as the deck builder does (`shared/spec/turny/guide-deck-builder.md`,
//! "Piles and deck sets" and "Zone rules and the whole-deck rule"): which cards each rule
//! sees, and the warning list that comes out.
//!
//! - A pile's **zone rule** sees that pile alone.
//! - The **card rule** judges every distinct card of the piles that count.
//! - The **whole-deck rule** sees every main pile merged into one flat map, with the sideboard
//!   piles nested under `sideboard` (the shape the ruleset reference allows); the **deck set
//!   rule** sees each main pile as one deck of the lineup.
//! - A **maybeboard** pile never counts: no rule sees it.
//!
//! The warning list repeats every pile's zone-rule issues prefixed with its name
//! (`Main Deck: The main deck must contain exactly 40 cards.`), then the card rule's issues per
//! card (`Card Zed: …`, as a submission names them), then the whole-deck or deck set rule's
//! issues as written. Running the rules is the caller's; this module only decides what each
//! sees and how the answers read.

use proto::scripts::v1::{
    CardCheck, DeckIssue, PileRole, PileVerdict, RuleIssue, RuleResult, ValidateDeckResponse,
};
use serde_json::{Map, Value};

use super::rule_result::{IssueOrigin, is_valid, issue_text, submission_message};

/// The most piles a deck may have (the builder's layouts have six).
pub const MAX_PILES: usize = 32;

/// The most card entries of all piles together (a deck has tens; a pasted collection
/// thousands).
pub const MAX_ENTRIES: usize = 2_000;

/// The most copies one entry may give.
pub const MAX_COPIES: u32 = 1_000;

/// The code of the issue of a card the catalog does not know.
pub const UNKNOWN_CARD: &str = "unknown_card";

/// One pile of the deck to check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pile {
    /// Its name, which prefixes its zone rule's issues.
    pub name: String,
    /// What it is.
    pub role: PileRole,
    /// Card ref → copies, in pile order, each ref once.
    pub cards: Vec<(String, u32)>,
}

impl Pile {
    /// Makes a pile, adding up the copies of a ref given twice (first place kept).
    pub fn new(
        name: String,
        role: PileRole,
        entries: impl IntoIterator<Item = (String, u32)>,
    ) -> Self {
        let mut cards: Vec<(String, u32)> = Vec::new();
        for (reference, copies) in entries {
            match cards.iter_mut().find(|(seen, _)| *seen == reference) {
                Some((_, total)) => *total = total.saturating_add(copies),
                None => cards.push((reference, copies)),
            }
        }
        Self { name, role, cards }
    }

    /// Returns whether any rule sees this pile.
    pub fn counts(&self) -> bool {
        self.role != PileRole::Maybeboard
    }

    /// The pile as a deck rule's `deck`: card ref → copies.
    pub fn deck(&self) -> Value {
        Value::Object(quantities(std::iter::once(self)))
    }
}

/// Why a deck cannot be checked at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeckCheckError {
    /// More piles than [`MAX_PILES`].
    #[error("a deck has at most {MAX_PILES} piles (got {0})")]
    TooManyPiles(usize),
    /// More card entries than [`MAX_ENTRIES`].
    #[error("a deck has at most {MAX_ENTRIES} card entries in all (got {0})")]
    TooManyEntries(usize),
    /// An entry with no ref, or with 0 or more than [`MAX_COPIES`] copies.
    #[error("pile {pile}, entry {entry}: {reason}")]
    BadEntry {
        /// The pile's position, from 1.
        pile: usize,
        /// The entry's position in it, from 1.
        entry: usize,
        /// What is wrong.
        reason: &'static str,
    },
    /// A pile with no name.
    #[error("pile {0} has no name")]
    UnnamedPile(usize),
}

/// Checks the shape of the deck: its size and every entry.
pub fn check_shape<'a>(
    piles: impl ExactSizeIterator<Item = (&'a str, &'a [(String, u32)])>,
) -> Result<(), DeckCheckError> {
    let count = piles.len();
    if count > MAX_PILES {
        return Err(DeckCheckError::TooManyPiles(count));
    }
    let mut entries = 0_usize;
    for (at, (name, cards)) in piles.enumerate() {
        if name.trim().is_empty() {
            return Err(DeckCheckError::UnnamedPile(at + 1));
        }
        entries += cards.len();
        for (entry, (reference, copies)) in cards.iter().enumerate() {
            let reason = if reference.trim().is_empty() {
                Some("the card ref is empty")
            } else if *copies == 0 {
                Some("0 copies")
            } else if *copies > MAX_COPIES {
                Some("more than 1000 copies")
            } else {
                None
            };
            if let Some(reason) = reason {
                return Err(DeckCheckError::BadEntry {
                    pile: at + 1,
                    entry: entry + 1,
                    reason,
                });
            }
        }
    }
    if entries > MAX_ENTRIES {
        return Err(DeckCheckError::TooManyEntries(entries));
    }
    Ok(())
}

/// Returns the distinct refs of the piles that count, in order of first appearance.
pub fn counted_refs(piles: &[Pile]) -> Vec<String> {
    let mut refs: Vec<String> = Vec::new();
    for pile in piles.iter().filter(|pile| pile.counts()) {
        for (reference, _) in &pile.cards {
            if !refs.contains(reference) {
                refs.push(reference.clone());
            }
        }
    }
    refs
}

/// The deck the whole-deck rule sees: every main pile merged into one flat map, and the
/// sideboard piles merged under `sideboard` when they hold any card.
pub fn whole_deck(piles: &[Pile]) -> Value {
    let mut deck = quantities(piles.iter().filter(|pile| pile.role == PileRole::Main));
    let sideboard = quantities(piles.iter().filter(|pile| pile.role == PileRole::Sideboard));
    if !sideboard.is_empty() {
        deck.insert("sideboard".to_owned(), Value::Object(sideboard));
    }
    Value::Object(deck)
}

/// The lineup the deck set rule sees: every main pile as one deck, in order.
pub fn lineup(piles: &[Pile]) -> Value {
    Value::Array(
        piles
            .iter()
            .filter(|pile| pile.role == PileRole::Main)
            .map(Pile::deck)
            .collect(),
    )
}

fn quantities<'a>(piles: impl Iterator<Item = &'a Pile>) -> Map<String, Value> {
    let mut out = Map::new();
    for pile in piles {
        for (reference, copies) in &pile.cards {
            let total = out
                .get(reference)
                .and_then(Value::as_u64)
                .unwrap_or(0)
                .saturating_add(u64::from(*copies));
            out.insert(reference.clone(), Value::from(total));
        }
    }
    out
}

/// What the rules answered, for [`report`].
#[derive(Debug, Clone, Default)]
pub struct Answers {
    /// Each pile's zone rule result, by the pile's position (`None`: no zone rule).
    pub zones: Vec<Option<RuleResult>>,
    /// The card rule's result per counted ref, in [`counted_refs`] order, with the card's
    /// name (`None`: no card rule, or the catalog does not know the card).
    pub cards: Vec<(String, String, Option<RuleResult>)>,
    /// The refs the catalog does not know.
    pub unknown: Vec<String>,
    /// The whole-deck rule's result.
    pub deck: Option<RuleResult>,
    /// The deck set rule's result.
    pub deckset: Option<RuleResult>,
}

/// Returns the issue of a card the catalog does not know; `quoted` is the ref as an error
/// message quotes user input (`kit::status::quote`).
pub fn unknown_card(quoted: &str, game: &str) -> RuleResult {
    RuleResult {
        valid: Some(false),
        issues: vec![RuleIssue {
            code: Some(UNKNOWN_CARD.to_owned()),
            message: Some(format!("{quoted} is not a card of {game}.")),
            metadata: Default::default(),
        }],
    }
}

/// Assembles the answer: every pile's verdict, every card's, the deck's, and the warning
/// list in the builder's order.
pub fn report(piles: &[Pile], answers: Answers) -> ValidateDeckResponse {
    let mut issues = Vec::new();
    let cards: Vec<CardCheck> = answers
        .cards
        .into_iter()
        .filter_map(|(reference, name, result)| {
            let result = result?;
            Some(CardCheck {
                piles: piles
                    .iter()
                    .filter(|pile| pile.counts() && pile.cards.iter().any(|(r, _)| *r == reference))
                    .map(|pile| pile.name.clone())
                    .collect(),
                r#ref: reference,
                name,
                result: Some(result),
            })
        })
        .collect();

    let mut verdicts = Vec::with_capacity(piles.len());
    for (at, pile) in piles.iter().enumerate() {
        let zone = answers
            .zones
            .get(at)
            .cloned()
            .flatten()
            .filter(|_| pile.counts());
        if let Some(zone) = &zone {
            for issue in &zone.issues {
                issues.push(DeckIssue {
                    rule: "zone".to_owned(),
                    pile: Some(pile.name.clone()),
                    r#ref: None,
                    code: issue.code.clone(),
                    message: format!("{}: {}", pile.name, issue_text(issue)),
                });
            }
        }
        let cards_pass = cards
            .iter()
            .filter(|card| card.piles.contains(&pile.name))
            .all(|card| card.result.as_ref().is_none_or(is_valid));
        let valid = !pile.counts() || (zone.as_ref().is_none_or(is_valid) && cards_pass);
        verdicts.push(PileVerdict {
            name: pile.name.clone(),
            role: pile.role.into(),
            valid: Some(valid),
            zone,
        });
    }

    for card in &cards {
        for issue in card.result.iter().flat_map(|result| &result.issues) {
            issues.push(DeckIssue {
                rule: "card".to_owned(),
                pile: None,
                r#ref: Some(card.r#ref.clone()),
                code: issue.code.clone(),
                message: submission_message(IssueOrigin::Card(&card.name), issue),
            });
        }
    }

    for (rule, result) in [("deck", &answers.deck), ("deckset", &answers.deckset)] {
        for issue in result.iter().flat_map(|result| &result.issues) {
            issues.push(DeckIssue {
                rule: rule.to_owned(),
                pile: None,
                r#ref: None,
                code: issue.code.clone(),
                message: issue_text(issue),
            });
        }
    }

    let valid = verdicts.iter().all(|pile| pile.valid == Some(true))
        && cards
            .iter()
            .all(|card| card.result.as_ref().is_none_or(is_valid))
        && answers.deck.as_ref().is_none_or(is_valid)
        && answers.deckset.as_ref().is_none_or(is_valid);
    ValidateDeckResponse {
        valid: Some(valid),
        issues,
        piles: verdicts,
        cards,
        deck: answers.deck,
        deckset: answers.deckset,
        unknown_refs: answers.unknown,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pile(name: &str, role: PileRole, cards: &[(&str, u32)]) -> Pile {
        Pile::new(
            name.to_owned(),
            role,
            cards.iter().map(|(r, n)| ((*r).to_owned(), *n)),
        )
    }

    fn result(valid: bool, messages: &[&str]) -> RuleResult {
        RuleResult {
            valid: Some(valid),
            issues: messages
                .iter()
                .map(|m| RuleIssue {
                    message: Some((*m).to_owned()),
                    ..RuleIssue::default()
                })
                .collect(),
        }
    }

    fn riftbound() -> Vec<Pile> {
        vec![
            pile("Legend", PileRole::Main, &[("ogn-259", 1)]),
            pile(
                "Main Deck",
                PileRole::Main,
                &[("ogn-043", 3), ("ogn-205", 1)],
            ),
            pile(
                "Sideboard",
                PileRole::Sideboard,
                &[("ogn-050", 2), ("ogn-043", 1)],
            ),
            pile("Maybeboard", PileRole::Maybeboard, &[("ogn-999", 4)]),
        ]
    }

    #[test]
    fn the_whole_deck_merges_the_main_piles_and_nests_the_sideboard_and_never_sees_the_maybeboard()
    {
        let piles = riftbound();
        assert_eq!(
            whole_deck(&piles),
            json!({"ogn-259": 1, "ogn-043": 3, "ogn-205": 1,
                   "sideboard": {"ogn-050": 2, "ogn-043": 1}})
        );
        // Key order is pile order: scripts iterate `Object.entries(deck)`.
        let keys: Vec<String> = whole_deck(&piles)
            .as_object()
            .map(|deck| deck.keys().cloned().collect())
            .unwrap_or_default();
        assert_eq!(keys, ["ogn-259", "ogn-043", "ogn-205", "sideboard"]);
        // No sideboard key without sideboard cards.
        assert_eq!(
            whole_deck(&piles[..2]),
            json!({"ogn-259": 1, "ogn-043": 3, "ogn-205": 1})
        );
        assert_eq!(
            counted_refs(&piles),
            ["ogn-259", "ogn-043", "ogn-205", "ogn-050"]
        );
        assert_eq!(
            lineup(&piles),
            json!([{"ogn-259": 1}, {"ogn-043": 3, "ogn-205": 1}])
        );
    }

    #[test]
    fn a_ref_given_twice_in_a_pile_counts_its_copies_together() {
        let twice = pile("Main", PileRole::Main, &[("a", 2), ("b", 1), ("a", 1)]);
        assert_eq!(twice.cards, [("a".to_owned(), 3), ("b".to_owned(), 1)]);
        assert_eq!(twice.deck(), json!({"a": 3, "b": 1}));
    }

    #[test]
    fn the_warning_list_is_zone_issues_prefixed_then_cards_then_the_whole_deck_unprefixed() {
        let piles = riftbound();
        let answers = Answers {
            zones: vec![
                Some(result(true, &[])),
                Some(result(
                    false,
                    &["The main deck must contain exactly 40 cards."],
                )),
                None,
                Some(result(false, &["never shown: a maybeboard never counts"])),
            ],
            cards: vec![
                (
                    "ogn-259".into(),
                    "Yasuo, Unforgiven".into(),
                    Some(result(true, &[])),
                ),
                (
                    "ogn-043".into(),
                    "Charm".into(),
                    Some(result(false, &["It is banned."])),
                ),
                (
                    "ogn-205".into(),
                    "Yasuo, Windrider".into(),
                    Some(result(true, &[])),
                ),
                (
                    "ogn-050".into(),
                    "Rune Prison".into(),
                    Some(result(true, &[])),
                ),
            ],
            unknown: Vec::new(),
            deck: Some(result(
                false,
                &["A deck needs exactly 3 battlefields (found 0)."],
            )),
            deckset: None,
        };
        let report = report(&piles, answers);
        let lines: Vec<(&str, &str)> = report
            .issues
            .iter()
            .map(|issue| (issue.rule.as_str(), issue.message.as_str()))
            .collect();
        assert_eq!(
            lines,
            [
                (
                    "zone",
                    "Main Deck: The main deck must contain exactly 40 cards."
                ),
                ("card", "Card Charm: It is banned."),
                ("deck", "A deck needs exactly 3 battlefields (found 0)."),
            ]
        );
        assert_eq!(report.valid, Some(false));
        let piles_valid: Vec<(&str, Option<bool>)> = report
            .piles
            .iter()
            .map(|pile| (pile.name.as_str(), pile.valid))
            .collect();
        // Charm is in the main deck and the sideboard: both piles show its issue.
        assert_eq!(
            piles_valid,
            [
                ("Legend", Some(true)),
                ("Main Deck", Some(false)),
                ("Sideboard", Some(false)),
                ("Maybeboard", Some(true)),
            ]
        );
        assert!(report.piles[3].zone.is_none());
        assert_eq!(report.cards[1].piles, ["Main Deck", "Sideboard"]);
    }

    #[test]
    fn a_deck_every_rule_passes_is_valid_and_has_no_warnings() {
        let piles = riftbound();
        let report = report(
            &piles,
            Answers {
                zones: vec![Some(result(true, &[])), None, None, None],
                deck: Some(result(true, &[])),
                ..Answers::default()
            },
        );
        assert_eq!(report.valid, Some(true));
        assert!(report.issues.is_empty());
        assert!(report.cards.is_empty());
    }

    #[test]
    fn the_shape_is_bounded_and_every_entry_checked() {
        let ok = [("Main".to_owned(), vec![("a".to_owned(), 3)])];
        let view = |piles: &[(String, Vec<(String, u32)>)]| {
            let piles: Vec<(&str, &[(String, u32)])> = piles
                .iter()
                .map(|(n, c)| (n.as_str(), c.as_slice()))
                .collect();
            check_shape(piles.into_iter())
        };
        assert_eq!(view(&ok), Ok(()));
        assert_eq!(
            view(&[("Main".to_owned(), vec![("a".to_owned(), 0)])]),
            Err(DeckCheckError::BadEntry {
                pile: 1,
                entry: 1,
                reason: "0 copies"
            })
        );
        assert_eq!(
            view(&[("Main".to_owned(), vec![(" ".to_owned(), 1)])]),
            Err(DeckCheckError::BadEntry {
                pile: 1,
                entry: 1,
                reason: "the card ref is empty"
            })
        );
        assert_eq!(
            view(&[(" ".to_owned(), vec![])]),
            Err(DeckCheckError::UnnamedPile(1))
        );
        let many: Vec<(String, Vec<(String, u32)>)> = (0..=MAX_PILES)
            .map(|at| (format!("P{at}"), Vec::new()))
            .collect();
        assert_eq!(
            view(&many),
            Err(DeckCheckError::TooManyPiles(MAX_PILES + 1))
        );
        let big = [(
            "Main".to_owned(),
            (0..=MAX_ENTRIES).map(|at| (format!("c{at}"), 1)).collect(),
        )];
        assert_eq!(
            view(&big),
            Err(DeckCheckError::TooManyEntries(MAX_ENTRIES + 1))
        );
    }
}
