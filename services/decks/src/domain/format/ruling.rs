//! The rules of a day: what bans a card, how many copies are allowed and what restricts it
//! (`spec/formats-and-rules.md`, "The rules of a day").
//!
//! Checking a whole deck with these answers is [`super::check`]'s concern.

use std::fmt;

use jiff::ZonedDateTime;
use serde::Serialize;

use super::card::Card;
use super::day::Day;
use super::rules::Format;
use super::taboo::TabooList;
use super::values::{CardId, CopyLimit, FormatCode, TabooListCode};

/// What bans or restricts a card: the format's own lists, or a taboo list from its day.
///
/// Serializes as `{"kind": "format", "code": "league"}` or
/// `{"kind": "tabooList", "code": "autumn", "effectiveFrom": "2026-10-01"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Authority {
    /// The format's own `banned` or `restricted`.
    Format {
        /// The format's code.
        code: FormatCode,
    },
    /// The taboo list that applies on the day.
    TabooList {
        /// The taboo list's code.
        code: TabooListCode,
        /// The day it took effect.
        effective_from: Day,
    },
}

impl fmt::Display for Authority {
    /// Writes `the format league` or `the taboo list autumn from 2026-10-01`, as messages say.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Format { code } => write!(f, "the format {code}"),
            Self::TabooList {
                code,
                effective_from,
            } => write!(f, "the taboo list {code} from {effective_from}"),
        }
    }
}

/// What a format allows of one card on a day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardRuling {
    /// What bans the card, or `None`.
    pub banned_by: Option<Authority>,
    /// The copies allowed; `None` when the card is banned.
    pub copy_limit: Option<CopyLimit>,
    /// What restricts the card below its own number or the format's, or `None`; also `None`
    /// when the card is banned, since no copy is allowed whatever restricts it.
    pub restricted_by: Option<Authority>,
}

/// The rules of a format on one day: the format and the taboo list that applies, if any.
#[derive(Debug, Clone, Copy)]
pub struct Ruling<'f> {
    format: &'f Format,
    day: Day,
    taboo_list: Option<&'f TabooList>,
}

impl Format {
    /// Returns the rules on the day of `moment`, taken in the moment's own time zone: 22:00 on
    /// 30 September in Montréal is still 30 September.
    pub fn ruling_on(&self, moment: &ZonedDateTime) -> Ruling<'_> {
        self.ruling_on_day(Day::of(moment))
    }

    /// Returns the rules on `day`.
    pub fn ruling_on_day(&self, day: Day) -> Ruling<'_> {
        Ruling {
            format: self,
            day,
            taboo_list: self.taboo_list_on(day),
        }
    }
}

impl<'f> Ruling<'f> {
    /// Returns the format ruled on.
    pub fn format(&self) -> &'f Format {
        self.format
    }

    /// Returns the day ruled on.
    pub fn day(&self) -> Day {
        self.day
    }

    /// Returns the taboo list that applies: the latest whose day is the ruling's day or before.
    pub fn taboo_list(&self) -> Option<&'f TabooList> {
        self.taboo_list
    }

    /// Returns what bans `card`: the format's own list first, then the taboo list that applies,
    /// which adds to the format's list and never lifts a ban of it.
    pub fn banned_by(&self, card: &CardId) -> Option<Authority> {
        if self.format.is_banned(card) {
            return Some(self.format_authority());
        }
        self.taboo_list
            .filter(|list| list.is_banned(card))
            .map(taboo_authority)
    }

    /// Returns the copies of `card` allowed: `None` when it is banned, otherwise its own number
    /// or the format's, lowered by a restriction.
    pub fn copy_limit(&self, card: &Card) -> Option<CopyLimit> {
        self.card(card).copy_limit
    }

    /// Returns what restricts `card` below its own number or the format's, or `None`.
    pub fn restricted_by(&self, card: &Card) -> Option<Authority> {
        self.card(card).restricted_by
    }

    /// Returns all the ruling says about `card` at once.
    pub fn card(&self, card: &Card) -> CardRuling {
        if let Some(banned_by) = self.banned_by(card.id()) {
            return CardRuling {
                banned_by: Some(banned_by),
                copy_limit: None,
                restricted_by: None,
            };
        }
        // A card's own number replaces the format's.
        let unrestricted = card.copy_limit().unwrap_or(self.format.copies());
        match self.restriction(card.id()) {
            // A restriction only ever lowers a limit: one at or above it changes nothing and
            // restricts nothing.
            Some((copies, by)) if copies < unrestricted => CardRuling {
                banned_by: None,
                copy_limit: Some(copies),
                restricted_by: Some(by),
            },
            _ => CardRuling {
                banned_by: None,
                copy_limit: Some(unrestricted),
                restricted_by: None,
            },
        }
    }

    /// Returns the restriction of `card` in force: the taboo list's, which takes the place of
    /// the format's restriction of the same card, or else the format's.
    fn restriction(&self, card: &CardId) -> Option<(CopyLimit, Authority)> {
        let by_taboo_list = self.taboo_list.and_then(|list| {
            list.restriction(card)
                .map(|copies| (copies, taboo_authority(list)))
        });
        by_taboo_list.or_else(|| {
            self.format
                .restriction(card)
                .map(|copies| (copies, self.format_authority()))
        })
    }

    fn format_authority(&self) -> Authority {
        Authority::Format {
            code: self.format.code().clone(),
        }
    }
}

fn taboo_authority(list: &TabooList) -> Authority {
    Authority::TabooList {
        code: list.code().clone(),
        effective_from: list.effective_from(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::day::parse_moment;
    use super::super::values::Name;
    use super::*;

    fn card_id(id: &str) -> CardId {
        CardId::parse(id).expect("a valid card id")
    }

    fn card(id: &str) -> Card {
        Card::new(card_id(id))
    }

    fn limit(copies: u64) -> CopyLimit {
        CopyLimit::new(copies).expect("a valid limit")
    }

    fn day(text: &str) -> Day {
        Day::parse(text).expect("a valid day")
    }

    fn taboo(code: &str, from: &str) -> super::super::taboo::TabooListBuilder {
        TabooList::builder(TabooListCode::parse(code).expect("a code"), day(from))
    }

    /// The format of the spec's JSON example, plus a later "winter" list.
    fn league() -> Format {
        Format::builder(
            FormatCode::parse("league").expect("a code"),
            Name::parse("League").expect("a name"),
        )
        .min_size(40)
        .max_size(60)
        .copies(3)
        .ban(card_id("old-relic"))
        .restrict(card_id("storm-call"), 1)
        .restrict(card_id("ember-fox"), 1)
        .taboo_list(
            taboo("autumn", "2026-10-01")
                .ban(card_id("night-owl"))
                .restrict(card_id("ember-fox"), 2)
                .restrict(card_id("sun-disc"), 2)
                .build()
                .expect("a taboo list"),
        )
        .taboo_list(
            taboo("winter", "2027-01-01")
                .restrict(card_id("storm-call"), 1)
                .build()
                .expect("a taboo list"),
        )
        .build()
        .expect("a valid format")
    }

    fn format_authority() -> Authority {
        Authority::Format {
            code: FormatCode::parse("league").expect("a code"),
        }
    }

    fn autumn_authority() -> Authority {
        Authority::TabooList {
            code: TabooListCode::parse("autumn").expect("a code"),
            effective_from: day("2026-10-01"),
        }
    }

    #[test]
    fn no_taboo_list_applies_before_the_first_day() {
        let format = league();
        let ruling = format.ruling_on_day(day("2026-09-30"));
        assert!(ruling.taboo_list().is_none());
        assert_eq!(ruling.banned_by(&card_id("night-owl")), None);
    }

    #[test]
    fn a_taboo_list_applies_from_its_own_day() {
        let format = league();
        let ruling = format.ruling_on_day(day("2026-10-01"));
        assert_eq!(
            ruling.taboo_list().map(|list| list.code().as_str()),
            Some("autumn")
        );
        assert_eq!(
            ruling.banned_by(&card_id("night-owl")),
            Some(autumn_authority())
        );
    }

    #[test]
    fn the_latest_taboo_list_on_or_before_the_day_applies() {
        let format = league();
        let on = |d| {
            format
                .ruling_on_day(day(d))
                .taboo_list()
                .map(|list| list.code().as_str())
        };
        assert_eq!(on("2026-12-31"), Some("autumn"));
        assert_eq!(on("2027-01-01"), Some("winter"));
        assert_eq!(on("2099-01-01"), Some("winter"));
    }

    #[test]
    fn a_later_taboo_list_replaces_the_earlier_ones() {
        let format = league();
        let ruling = format.ruling_on_day(day("2027-01-01"));
        // Autumn banned night-owl and restricted ember-fox to 2; winter does neither.
        assert_eq!(ruling.banned_by(&card_id("night-owl")), None);
        assert_eq!(ruling.copy_limit(&card("night-owl")), Some(limit(3)));
        // With autumn replaced, the format's own restriction of ember-fox is back.
        assert_eq!(ruling.copy_limit(&card("ember-fox")), Some(limit(1)));
        assert_eq!(
            ruling.restricted_by(&card("ember-fox")),
            Some(format_authority())
        );
    }

    #[test]
    fn a_taboo_list_adds_to_the_formats_own_bans() {
        let format = league();
        let ruling = format.ruling_on_day(day("2026-10-02"));
        assert_eq!(
            ruling.banned_by(&card_id("old-relic")),
            Some(format_authority())
        );
        assert_eq!(
            ruling.banned_by(&card_id("night-owl")),
            Some(autumn_authority())
        );
        assert_eq!(ruling.banned_by(&card_id("path")), None);
    }

    #[test]
    fn a_taboo_list_restriction_takes_the_place_of_the_formats_restriction_of_the_same_card() {
        let format = league();
        let ruling = format.ruling_on_day(day("2026-10-02"));
        // The format says 1, autumn says 2: autumn's number is the one in force.
        assert_eq!(ruling.copy_limit(&card("ember-fox")), Some(limit(2)));
        assert_eq!(
            ruling.restricted_by(&card("ember-fox")),
            Some(autumn_authority())
        );
        // The format's restriction of a card autumn does not name still applies.
        assert_eq!(ruling.copy_limit(&card("storm-call")), Some(limit(1)));
        assert_eq!(
            ruling.restricted_by(&card("storm-call")),
            Some(format_authority())
        );
    }

    #[test]
    fn a_banned_card_has_no_copy_limit_and_no_restriction() {
        let format = league();
        let ruling = format.ruling_on_day(day("2026-10-02"));
        let owl = ruling.card(&card("night-owl"));
        assert_eq!(owl.banned_by, Some(autumn_authority()));
        assert_eq!(owl.copy_limit, None);
        assert_eq!(owl.restricted_by, None);
        assert_eq!(ruling.copy_limit(&card("old-relic")), None);
    }

    #[test]
    fn a_card_banned_by_both_the_format_and_the_taboo_list_is_banned_by_the_format() {
        let format = Format::builder(
            FormatCode::parse("league").expect("a code"),
            Name::parse("League").expect("a name"),
        )
        .ban(card_id("old-relic"))
        .restrict(card_id("night-owl"), 1)
        .taboo_list(
            taboo("autumn", "2026-10-01")
                .ban(card_id("old-relic"))
                .ban(card_id("night-owl"))
                .build()
                .expect("a taboo list"),
        )
        .build()
        .expect("a valid format");
        let ruling = format.ruling_on_day(day("2026-10-01"));
        assert_eq!(
            ruling.banned_by(&card_id("old-relic")),
            Some(format_authority())
        );
        // Restricted by the format, then banned by the taboo list: the ban is what applies.
        let owl = ruling.card(&card("night-owl"));
        assert_eq!(owl.banned_by, Some(autumn_authority()));
        assert_eq!((owl.copy_limit, owl.restricted_by), (None, None));
    }

    #[test]
    fn an_unrestricted_card_takes_the_formats_copies() {
        let format = league();
        let ruling = format.ruling_on_day(day("2026-10-02"));
        assert_eq!(ruling.copy_limit(&card("path")), Some(limit(3)));
        assert_eq!(ruling.restricted_by(&card("path")), None);
    }

    #[test]
    fn a_cards_own_limit_replaces_the_formats_copies_both_up_and_down() {
        let format = league();
        let ruling = format.ruling_on_day(day("2026-10-02"));
        let basic = card("path").with_copy_limit(limit(20));
        let unique = card("crown").with_copy_limit(limit(1));
        assert_eq!(ruling.copy_limit(&basic), Some(limit(20)));
        assert_eq!(ruling.copy_limit(&unique), Some(limit(1)));
        assert_eq!(ruling.restricted_by(&basic), None);
        assert_eq!(ruling.restricted_by(&unique), None);
    }

    #[test]
    fn a_restriction_lowers_a_cards_own_limit() {
        let format = league();
        let ruling = format.ruling_on_day(day("2026-10-02"));
        let storm = card("storm-call").with_copy_limit(limit(20));
        assert_eq!(ruling.copy_limit(&storm), Some(limit(1)));
        assert_eq!(ruling.restricted_by(&storm), Some(format_authority()));
    }

    #[test]
    fn a_restriction_never_raises_a_limit() {
        let format = league();
        let ruling = format.ruling_on_day(day("2026-10-02"));
        // Autumn allows 2 sun-discs, but the card itself allows only 1.
        let unique = card("sun-disc").with_copy_limit(limit(1));
        assert_eq!(ruling.copy_limit(&unique), Some(limit(1)));
        assert_eq!(ruling.restricted_by(&unique), None);
        // A restriction above the format's copies does not raise them either.
        let loose = Format::builder(
            FormatCode::parse("loose").expect("a code"),
            Name::parse("Loose").expect("a name"),
        )
        .copies(3)
        .restrict(card_id("storm-call"), 5)
        .build()
        .expect("a valid format");
        let ruling = loose.ruling_on_day(day("2026-10-02"));
        assert_eq!(ruling.copy_limit(&card("storm-call")), Some(limit(3)));
        assert_eq!(ruling.restricted_by(&card("storm-call")), None);
    }

    #[test]
    fn a_restriction_equal_to_the_limit_restricts_nothing() {
        let format = league();
        let ruling = format.ruling_on_day(day("2026-10-02"));
        let two = card("ember-fox").with_copy_limit(limit(2));
        assert_eq!(ruling.copy_limit(&two), Some(limit(2)));
        assert_eq!(ruling.restricted_by(&two), None);
    }

    #[test]
    fn the_day_of_a_moment_is_taken_in_its_own_time_zone() {
        let format = league();
        // 22:00 on 30 September in Montréal is 02:00 on 1 October in UTC: autumn does not
        // apply yet.
        let evening = parse_moment("2026-09-30T22:00:00-04:00").expect("a moment");
        let ruling = format.ruling_on(&evening);
        assert_eq!(ruling.day(), day("2026-09-30"));
        assert!(ruling.taboo_list().is_none());
        // The same instant in UTC is 1 October, when it does.
        let utc = parse_moment("2026-10-01T02:00:00Z").expect("a moment");
        assert_eq!(
            format
                .ruling_on(&utc)
                .taboo_list()
                .map(|l| l.code().as_str()),
            Some("autumn")
        );
    }

    #[test]
    fn authorities_read_as_the_spec_writes_them() {
        assert_eq!(format_authority().to_string(), "the format league");
        assert_eq!(
            autumn_authority().to_string(),
            "the taboo list autumn from 2026-10-01"
        );
    }
}
