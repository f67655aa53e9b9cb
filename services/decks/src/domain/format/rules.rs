//! A format: the deck sizes, copies, banned and restricted cards and taboo lists a deck is
//! built to (`spec/formats-and-rules.md`, "A format").
//!
//! This module builds a format and guarantees every bound; what applies on a day is
//! [`super::Ruling`]'s concern, and JSON is [`super::json`]'s.

use std::collections::{BTreeMap, BTreeSet};

use super::card_lists::{
    collect_banned, collect_restricted, copy_limit, copy_limit_out_of_range, too_many,
};
use super::error::{InvalidDeck, Problem, item};
use super::taboo::TabooList;
use super::values::{CardId, CopyLimit, FormatCode, Name};

/// The most cards a deck may hold under any format, and the largest `min_size` and `max_size`.
pub const MAX_DECK_SIZE: u32 = 100_000;
/// A format's `min_size` when it sets none.
pub const DEFAULT_MIN_SIZE: u32 = 1;
/// The most taboo lists a format may have.
pub const MAX_TABOO_LISTS: usize = 100;

/// The rules a deck is built to.
///
/// Every value is within its documented bounds: a `Format` can only be made by
/// [`FormatBuilder::build`] or by reading JSON, and both check them all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    code: FormatCode,
    name: Name,
    /// 0 to [`MAX_DECK_SIZE`].
    min_size: u32,
    /// At least `min_size` and 1, at most [`MAX_DECK_SIZE`]; `None` for no limit.
    max_size: Option<u32>,
    copies: CopyLimit,
    /// At most [`super::MAX_LISTED_CARDS`]; a set, so each card once.
    banned: BTreeSet<CardId>,
    /// At most [`super::MAX_LISTED_CARDS`]; a map, so each card once.
    restricted: BTreeMap<CardId, CopyLimit>,
    /// At most [`MAX_TABOO_LISTS`], sorted by day, oldest first, with no code or day twice;
    /// the order lets [`Format::taboo_list_on`] search by day.
    taboo_lists: Vec<TabooList>,
}

impl Format {
    /// Starts a format with its code and name; every other rule takes its default.
    pub fn builder(code: FormatCode, name: Name) -> FormatBuilder {
        FormatBuilder {
            code,
            name,
            min_size: i128::from(DEFAULT_MIN_SIZE),
            max_size: None,
            copies: i128::from(CopyLimit::MAX),
            banned: Vec::new(),
            restricted: Vec::new(),
            taboo_lists: Vec::new(),
        }
    }

    /// Returns the format's code.
    pub fn code(&self) -> &FormatCode {
        &self.code
    }

    /// Returns the name shown to people.
    pub fn name(&self) -> &Name {
        &self.name
    }

    /// Returns the fewest cards a deck may hold.
    pub fn min_size(&self) -> u32 {
        self.min_size
    }

    /// Returns the most cards a deck may hold, or `None` for no limit.
    pub fn max_size(&self) -> Option<u32> {
        self.max_size
    }

    /// Returns the copies allowed of each card that sets no limit of its own.
    pub fn copies(&self) -> CopyLimit {
        self.copies
    }

    /// Returns the cards the format itself bans, in identifier order.
    pub fn banned(&self) -> &BTreeSet<CardId> {
        &self.banned
    }

    /// Returns the cards the format itself restricts, with the copies allowed of each.
    pub fn restricted(&self) -> &BTreeMap<CardId, CopyLimit> {
        &self.restricted
    }

    /// Returns the taboo lists, oldest day first.
    pub fn taboo_lists(&self) -> &[TabooList] {
        &self.taboo_lists
    }

    /// Returns whether the format's own list bans `card`, whatever the day.
    pub fn is_banned(&self, card: &CardId) -> bool {
        self.banned.contains(card)
    }

    /// Returns the format's own restriction of `card`, whatever the day.
    pub fn restriction(&self, card: &CardId) -> Option<CopyLimit> {
        self.restricted.get(card).copied()
    }

    /// Returns the taboo list that applies on `day`: the latest whose day is `day` or before.
    pub fn taboo_list_on(&self, day: super::Day) -> Option<&TabooList> {
        let later = self
            .taboo_lists
            .partition_point(|list| list.effective_from() <= day);
        later.checked_sub(1).map(|latest| &self.taboo_lists[latest])
    }
}

/// Collects a format's rules; [`FormatBuilder::build`] checks them all at once.
///
/// Numbers are taken as given (any integer type, even a negative one) so that an out-of-range
/// one is refused by `build` with the field named and the number as written, exactly as when it
/// is read from JSON.
#[derive(Debug, Clone)]
#[must_use = "a builder makes no format until `build` is called"]
pub struct FormatBuilder {
    code: FormatCode,
    name: Name,
    min_size: i128,
    max_size: Option<i128>,
    copies: i128,
    banned: Vec<CardId>,
    restricted: Vec<(CardId, i128)>,
    taboo_lists: Vec<TabooList>,
}

impl FormatBuilder {
    /// Sets the fewest cards a deck may hold (0 to 100 000; 1 by default).
    pub fn min_size(mut self, min_size: impl Into<i128>) -> Self {
        self.min_size = min_size.into();
        self
    }

    /// Sets the most cards a deck may hold (from `min_size`, and at least 1, to 100 000).
    pub fn max_size(mut self, max_size: impl Into<i128>) -> Self {
        self.max_size = Some(max_size.into());
        self
    }

    /// Removes the most cards a deck may hold: no limit, the default.
    pub fn without_max_size(mut self) -> Self {
        self.max_size = None;
        self
    }

    /// Sets the copies allowed of each card that sets none itself (1 to 999; 999 by default).
    pub fn copies(mut self, copies: impl Into<i128>) -> Self {
        self.copies = copies.into();
        self
    }

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

    /// Adds a taboo list (each code and each day once, up to 100).
    pub fn taboo_list(mut self, list: TabooList) -> Self {
        self.taboo_lists.push(list);
        self
    }

    /// Checks every rule and returns the format, or the first rule broken with its field named.
    pub fn build(self) -> Result<Format, InvalidDeck> {
        let max = u64::from(MAX_DECK_SIZE);
        let min_size = in_range("min_size", self.min_size, 0, max)?;
        let max_size = self
            .max_size
            .map(|max_size| {
                // "From the smallest (at least 1)": an empty deck can be allowed, never required
                // to be the largest.
                in_range("max_size", max_size, u64::from(min_size.max(1)), max)
            })
            .transpose()?;
        let copies = copy_limit(self.copies)
            .ok_or_else(|| InvalidDeck::new("copies", copy_limit_out_of_range(self.copies)))?;
        let banned = collect_banned("banned", self.banned)?;
        let restricted = collect_restricted("restricted", self.restricted)?;
        let taboo_lists = collect_taboo_lists(self.taboo_lists)?;
        Ok(Format {
            code: self.code,
            name: self.name,
            min_size,
            max_size,
            copies,
            banned,
            restricted,
            taboo_lists,
        })
    }
}

fn in_range(field: &str, value: i128, min: u64, max: u64) -> Result<u32, InvalidDeck> {
    if (i128::from(min)..=i128::from(max)).contains(&value) {
        // `max` is at most MAX_DECK_SIZE, a u32.
        Ok(u32::try_from(value).expect("bounded by MAX_DECK_SIZE"))
    } else {
        Err(InvalidDeck::new(
            field,
            Problem::OutOfRange {
                min,
                max,
                found: value,
            },
        ))
    }
}

fn collect_taboo_lists(mut lists: Vec<TabooList>) -> Result<Vec<TabooList>, InvalidDeck> {
    too_many("taboo_lists", lists.len(), MAX_TABOO_LISTS)?;
    let mut codes = BTreeSet::new();
    let mut days = BTreeSet::new();
    for (index, list) in lists.iter().enumerate() {
        if !codes.insert(list.code()) {
            return Err(InvalidDeck::new(
                format!("{}.code", item("taboo_lists", index)),
                Problem::Repeated,
            ));
        }
        if !days.insert(list.effective_from()) {
            return Err(InvalidDeck::new(
                format!("{}.effective_from", item("taboo_lists", index)),
                Problem::Repeated,
            ));
        }
    }
    lists.sort_by_key(TabooList::effective_from);
    Ok(lists)
}

#[cfg(test)]
mod tests {
    use super::super::Day;
    use super::*;

    fn card(id: &str) -> CardId {
        CardId::parse(id).expect("a valid card id")
    }

    fn league() -> FormatBuilder {
        Format::builder(
            FormatCode::parse("league").expect("a valid code"),
            Name::parse("League").expect("a valid name"),
        )
    }

    fn taboo(code: &str, day: &str) -> TabooList {
        TabooList::builder(
            super::super::TabooListCode::parse(code).expect("a valid code"),
            Day::parse(day).expect("a valid day"),
        )
        .build()
        .expect("a valid taboo list")
    }

    fn refusal(builder: FormatBuilder) -> (String, Problem) {
        let err = builder.build().expect_err("the format is refused");
        (err.field().to_owned(), err.problem().clone())
    }

    #[test]
    fn a_format_with_only_a_code_and_a_name_takes_every_default() {
        let format = league().build().expect("a valid format");
        assert_eq!(format.min_size(), 1);
        assert_eq!(format.max_size(), None);
        assert_eq!(format.copies().get(), 999);
        assert!(format.banned().is_empty());
        assert!(format.restricted().is_empty());
        assert!(format.taboo_lists().is_empty());
    }

    #[test]
    fn min_size_is_0_to_100_000() {
        assert_eq!(league().min_size(0).build().map(|f| f.min_size()), Ok(0));
        assert_eq!(
            league().min_size(100_000).build().map(|f| f.min_size()),
            Ok(100_000)
        );
        assert_eq!(
            refusal(league().min_size(100_001)),
            (
                "min_size".into(),
                Problem::OutOfRange {
                    min: 0,
                    max: 100_000,
                    found: 100_001
                }
            )
        );
    }

    #[test]
    fn max_size_is_from_min_size_to_100_000() {
        let sized = |max| league().min_size(40).max_size(max).build();
        assert_eq!(sized(40).map(|f| f.max_size()), Ok(Some(40)));
        assert_eq!(sized(100_000).map(|f| f.max_size()), Ok(Some(100_000)));
        assert_eq!(
            refusal(league().min_size(40).max_size(39)),
            (
                "max_size".into(),
                Problem::OutOfRange {
                    min: 40,
                    max: 100_000,
                    found: 39
                }
            )
        );
        assert_eq!(
            refusal(league().min_size(40).max_size(100_001)).0,
            "max_size"
        );
    }

    #[test]
    fn max_size_is_at_least_1_even_when_min_size_is_0() {
        assert_eq!(
            league()
                .min_size(0)
                .max_size(1)
                .build()
                .map(|f| f.max_size()),
            Ok(Some(1))
        );
        assert_eq!(
            refusal(league().min_size(0).max_size(0)),
            (
                "max_size".into(),
                Problem::OutOfRange {
                    min: 1,
                    max: 100_000,
                    found: 0
                }
            )
        );
    }

    #[test]
    fn max_size_none_means_no_limit() {
        let format = league()
            .min_size(100_000)
            .without_max_size()
            .build()
            .expect("a valid format");
        assert_eq!(format.max_size(), None);
    }

    #[test]
    fn copies_is_1_to_999() {
        assert_eq!(league().copies(1).build().map(|f| f.copies().get()), Ok(1));
        assert_eq!(
            league().copies(999).build().map(|f| f.copies().get()),
            Ok(999)
        );
        assert_eq!(refusal(league().copies(0)).0, "copies");
        assert_eq!(
            refusal(league().copies(1000)),
            (
                "copies".into(),
                Problem::OutOfRange {
                    min: 1,
                    max: 999,
                    found: 1000
                }
            )
        );
    }

    #[test]
    fn banned_names_each_card_once() {
        assert_eq!(
            refusal(league().ban(card("a")).ban(card("b")).ban(card("a"))),
            ("banned[2]".into(), Problem::Repeated)
        );
    }

    #[test]
    fn banned_holds_up_to_10_000_cards() {
        let banned =
            |n: usize| (0..n).fold(league(), |format, i| format.ban(card(&format!("c{i}"))));
        assert_eq!(banned(10_000).build().map(|f| f.banned().len()), Ok(10_000));
        assert_eq!(
            refusal(banned(10_001)),
            (
                "banned".into(),
                Problem::TooMany {
                    max: 10_000,
                    found: 10_001
                }
            )
        );
    }

    #[test]
    fn restricted_allows_1_to_999_copies_of_each_card() {
        let format = league()
            .restrict(card("a"), 1)
            .restrict(card("b"), 999)
            .build()
            .expect("a valid format");
        assert_eq!(format.restriction(&card("a")).map(CopyLimit::get), Some(1));
        assert_eq!(
            format.restriction(&card("b")).map(CopyLimit::get),
            Some(999)
        );
        assert_eq!(
            refusal(league().restrict(card("storm-call"), 0)),
            (
                "restricted.storm-call".into(),
                Problem::OutOfRange {
                    min: 1,
                    max: 999,
                    found: 0
                }
            )
        );
        assert_eq!(
            refusal(league().restrict(card("storm-call"), 1000)).0,
            "restricted.storm-call"
        );
    }

    #[test]
    fn restricted_names_each_card_once_and_up_to_10_000() {
        assert_eq!(
            refusal(league().restrict(card("a"), 1).restrict(card("a"), 2)),
            ("restricted.a".into(), Problem::Repeated)
        );
        let restricted = |n: usize| {
            (0..n).fold(league(), |format, i| {
                format.restrict(card(&format!("c{i}")), 1)
            })
        };
        assert!(restricted(10_000).build().is_ok());
        assert_eq!(refusal(restricted(10_001)).0, "restricted");
    }

    #[test]
    fn taboo_lists_hold_each_code_once() {
        assert_eq!(
            refusal(
                league()
                    .taboo_list(taboo("autumn", "2026-10-01"))
                    .taboo_list(taboo("autumn", "2027-01-01"))
            ),
            ("taboo_lists[1].code".into(), Problem::Repeated)
        );
    }

    #[test]
    fn taboo_lists_hold_each_day_once() {
        assert_eq!(
            refusal(
                league()
                    .taboo_list(taboo("autumn", "2026-10-01"))
                    .taboo_list(taboo("winter", "2026-10-01"))
            ),
            ("taboo_lists[1].effective_from".into(), Problem::Repeated)
        );
    }

    #[test]
    fn a_format_holds_up_to_100_taboo_lists() {
        let lists = |n: usize| {
            (0..n).fold(league(), |format, i| {
                let day = Day::try_from(
                    jiff::civil::Date::new(2026, 1, 1)
                        .expect("a date")
                        .checked_add(jiff::Span::new().days(i64::try_from(i).expect("small")))
                        .expect("a date"),
                )
                .expect("a day");
                format.taboo_list(
                    TabooList::builder(
                        super::super::TabooListCode::parse(&format!("t{i}")).expect("a code"),
                        day,
                    )
                    .build()
                    .expect("a taboo list"),
                )
            })
        };
        assert_eq!(lists(100).build().map(|f| f.taboo_lists().len()), Ok(100));
        assert_eq!(
            refusal(lists(101)),
            (
                "taboo_lists".into(),
                Problem::TooMany {
                    max: 100,
                    found: 101
                }
            )
        );
    }

    #[test]
    fn taboo_lists_are_kept_oldest_first() {
        let format = league()
            .taboo_list(taboo("winter", "2027-01-01"))
            .taboo_list(taboo("autumn", "2026-10-01"))
            .build()
            .expect("a valid format");
        let codes: Vec<_> = format
            .taboo_lists()
            .iter()
            .map(|list| list.code().as_str())
            .collect();
        assert_eq!(codes, ["autumn", "winter"]);
    }
}
