//! Taboo lists: cards banned or restricted from a day on (`spec/formats-and-rules.md`, "Taboo
//! lists").
//!
//! This module only holds a list; which list applies on a day, and how it combines with the
//! format's own lists, is [`super::Ruling`]'s concern.

use std::collections::{BTreeMap, BTreeSet};

use super::card_lists::{collect_banned, collect_restricted};
use super::day::Day;
use super::error::InvalidDeck;
use super::values::{CardId, CopyLimit, TabooListCode};

/// Cards banned or restricted from a day on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TabooList {
    code: TabooListCode,
    effective_from: Day,
    /// Each card once, up to 10 000 (the bounds of the format's own list).
    banned: BTreeSet<CardId>,
    /// Each card once with 1 to 999 copies, up to 10 000.
    restricted: BTreeMap<CardId, CopyLimit>,
}

impl TabooList {
    /// Starts a taboo list that takes effect on `effective_from` and bans or restricts nothing.
    pub fn builder(code: TabooListCode, effective_from: Day) -> TabooListBuilder {
        TabooListBuilder {
            code,
            effective_from,
            banned: Vec::new(),
            restricted: Vec::new(),
        }
    }

    /// Returns the taboo list's code.
    pub fn code(&self) -> &TabooListCode {
        &self.code
    }

    /// Returns the day it takes effect.
    pub fn effective_from(&self) -> Day {
        self.effective_from
    }

    /// Returns the cards it bans, in identifier order.
    pub fn banned(&self) -> &BTreeSet<CardId> {
        &self.banned
    }

    /// Returns the cards it restricts, with the copies allowed of each.
    pub fn restricted(&self) -> &BTreeMap<CardId, CopyLimit> {
        &self.restricted
    }

    /// Returns whether it bans `card`.
    pub fn is_banned(&self, card: &CardId) -> bool {
        self.banned.contains(card)
    }

    /// Returns its restriction of `card`.
    pub fn restriction(&self, card: &CardId) -> Option<CopyLimit> {
        self.restricted.get(card).copied()
    }
}

/// Collects a taboo list's cards; [`TabooListBuilder::build`] checks them.
#[derive(Debug, Clone)]
#[must_use = "a builder makes no taboo list until `build` is called"]
pub struct TabooListBuilder {
    code: TabooListCode,
    effective_from: Day,
    banned: Vec<CardId>,
    restricted: Vec<(CardId, i128)>,
}

impl TabooListBuilder {
    /// Bans a card (each card once, up to 10 000).
    pub fn ban(mut self, card: CardId) -> Self {
        self.banned.push(card);
        self
    }

    /// Restricts a card to `copies` (1 to 999; each card once, up to 10 000).
    pub fn restrict(mut self, card: CardId, copies: impl Into<i128>) -> Self {
        self.restricted.push((card, copies.into()));
        self
    }

    /// Checks the cards and returns the taboo list, or the first rule broken with its field
    /// named (relative to the list: `banned[2]`, `restricted.ember-fox`).
    pub fn build(self) -> Result<TabooList, InvalidDeck> {
        Ok(TabooList {
            code: self.code,
            effective_from: self.effective_from,
            banned: collect_banned("banned", self.banned)?,
            restricted: collect_restricted("restricted", self.restricted)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::error::Problem;
    use super::*;

    fn autumn() -> TabooListBuilder {
        TabooList::builder(
            TabooListCode::parse("autumn").expect("a valid code"),
            Day::parse("2026-10-01").expect("a valid day"),
        )
    }

    fn card(id: &str) -> CardId {
        CardId::parse(id).expect("a valid card id")
    }

    #[test]
    fn a_taboo_list_bans_and_restricts_cards_from_its_day_on() {
        let list = autumn()
            .ban(card("night-owl"))
            .restrict(card("ember-fox"), 2)
            .build()
            .expect("a valid taboo list");
        assert_eq!(list.effective_from().to_string(), "2026-10-01");
        assert!(list.is_banned(&card("night-owl")));
        assert_eq!(
            list.restriction(&card("ember-fox")).map(CopyLimit::get),
            Some(2)
        );
    }

    #[test]
    fn a_taboo_list_names_each_banned_card_once() {
        let err = autumn()
            .ban(card("night-owl"))
            .ban(card("night-owl"))
            .build()
            .expect_err("refused");
        assert_eq!(err.field(), "banned[1]");
        assert_eq!(err.problem(), &Problem::Repeated);
    }

    #[test]
    fn a_taboo_list_restricts_to_1_to_999_copies() {
        assert!(autumn().restrict(card("a"), 1).build().is_ok());
        assert!(autumn().restrict(card("a"), 999).build().is_ok());
        for copies in [0, 1000] {
            let err = autumn()
                .restrict(card("ember-fox"), copies)
                .build()
                .expect_err("refused");
            assert_eq!(err.field(), "restricted.ember-fox");
        }
    }
}
