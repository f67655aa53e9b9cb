//! The outcome of checking a deck against a format: the ruling of every card and every issue.
//!
//! Its JSON is the output of `turnier format check --json` (issue 6), so the CLI, gRPC and the
//! gateway only convert it. How the issues are found is [`super::check`]'s concern.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::day::Day;
use super::ruling::{Authority, CardRuling};
use super::values::{CardId, CopyLimit, TabooListCode};

/// The stable code of an issue, which callers may match on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IssueCode {
    /// The deck holds fewer cards than the format's `min_size`.
    DeckTooSmall,
    /// The deck holds more cards than the format's `max_size`.
    DeckTooLarge,
    /// The deck holds a card that the format or the taboo list bans.
    BannedCard,
    /// The deck holds more copies of a card than its copy limit.
    TooManyCopies,
}

impl IssueCode {
    /// Returns the code as written in JSON (`too_many_copies`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::DeckTooSmall => "deck_too_small",
            Self::DeckTooLarge => "deck_too_large",
            Self::BannedCard => "banned_card",
            Self::TooManyCopies => "too_many_copies",
        }
    }
}

/// One way a deck breaks a format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Issue {
    /// What is wrong, as a stable code.
    pub code: IssueCode,
    /// The card at fault; `None` for the deck as a whole.
    pub card: Option<CardId>,
    /// A sentence for people naming the card, the numbers and what bans or restricts it.
    pub message: String,
}

/// The taboo list a report was made under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TabooListRef {
    /// The taboo list's code.
    pub code: TabooListCode,
    /// The day it took effect.
    pub effective_from: Day,
}

/// What a format allows of one card of the deck.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardReport {
    /// The card.
    pub card: CardId,
    /// What the ruling says about it.
    pub ruling: CardRuling,
}

/// The outcome of checking a deck against a format on a day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// True exactly when `issues` is empty.
    valid: bool,
    taboo_list: Option<TabooListRef>,
    /// One per card of the deck, in the deck's order; serialized as an object keyed by card.
    #[serde(serialize_with = "cards_by_id")]
    cards: Vec<CardReport>,
    issues: Vec<Issue>,
}

impl Report {
    /// Returns the report of a deck whose cards were ruled on under `taboo_list`.
    pub fn new(
        taboo_list: Option<TabooListRef>,
        cards: Vec<CardReport>,
        issues: Vec<Issue>,
    ) -> Self {
        Self {
            valid: issues.is_empty(),
            taboo_list,
            cards,
            issues,
        }
    }

    /// Returns whether the deck breaks no rule.
    pub fn is_valid(&self) -> bool {
        self.valid
    }

    /// Returns the taboo list that applied, if any.
    pub fn taboo_list(&self) -> Option<&TabooListRef> {
        self.taboo_list.as_ref()
    }

    /// Returns the ruling of each card of the deck, in the deck's order.
    pub fn cards(&self) -> &[CardReport] {
        &self.cards
    }

    /// Returns every issue: the deck's size first, then the cards in the deck's order.
    pub fn issues(&self) -> &[Issue] {
        &self.issues
    }

    /// Returns the report as the JSON `turnier format check --json` prints:
    /// `{"valid", "tabooList", "cards": {id: {"bannedBy", "copyLimit", "restrictedBy"}},
    /// "issues": [{"code", "card", "message"}]}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("a report serializes to JSON: every key is a string")
    }
}

/// The JSON of one card's ruling, with the camelCase keys of the CLI output.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CardRulingJson<'a> {
    banned_by: &'a Option<Authority>,
    copy_limit: Option<CopyLimit>,
    restricted_by: &'a Option<Authority>,
}

fn cards_by_id<S: Serializer>(cards: &[CardReport], serializer: S) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(cards.len()))?;
    for report in cards {
        map.serialize_entry(
            &report.card,
            &CardRulingJson {
                banned_by: &report.ruling.banned_by,
                copy_limit: report.ruling.copy_limit,
                restricted_by: &report.ruling.restricted_by,
            },
        )?;
    }
    map.end()
}
