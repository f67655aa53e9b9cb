//! LoR sets: their codes, their release order, and the [`CardSet`] list.
//!
//! Data Dragon names a set `Set6cde` on cards and in globals and `set6cde` in file names; the
//! catalog's `setCode` is the lower-case form. Nothing upstream gives a set's release date or
//! position, so the order comes from the code itself (`set6` < `set6cde` < `set7`).

use std::cmp::Ordering;

use proto::catalog::v1::{Card, CardSet};

/// A LoR set code in the catalog's lower-case form (`set1`, `set7b`, `setevent`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct SetCode(String);

impl SetCode {
    /// Reads a set as Data Dragon writes it on a card or in globals (`Set6cde`) or in a file
    /// name (`set6cde`).
    pub(super) fn new(upstream: &str) -> Self {
        Self(upstream.to_lowercase())
    }

    /// Returns the set of a set bundle's file name (`set6cde-en_us.json` → `set6cde`), or
    /// `None` when the file is not a set bundle in the catalog locale.
    pub(super) fn of_set_file(file_name: &str) -> Option<Self> {
        let code = file_name.strip_suffix(super::LOCALE_SUFFIX)?;
        code.starts_with("set").then(|| Self::new(code))
    }

    /// Returns the code as the catalog writes it.
    pub(super) fn as_str(&self) -> &str {
        &self.0
    }

    /// Returns the release-order key: the set number, then the suffix of a mid-season set
    /// (`set6` → (6, ""), `set6cde` → (6, "cde")). Sets without a number (`setevent`) go last.
    fn release_key(&self) -> (u32, &str) {
        let rest = self.0.strip_prefix("set").unwrap_or(&self.0);
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let number = rest[..digits].parse().unwrap_or(u32::MAX);
        (number, &rest[digits..])
    }
}

impl Ord for SetCode {
    fn cmp(&self, other: &Self) -> Ordering {
        self.release_key()
            .cmp(&other.release_key())
            .then_with(|| self.0.cmp(&other.0))
    }
}

impl PartialOrd for SetCode {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Returns one [`CardSet`] per set, in release order: every set `labels` names (from the
/// globals bundle, `(code, label)`) and every set a card is in. A set the globals do not name is
/// labelled with its code. `total` counts the imported cards of the set, tokens included.
pub(super) fn card_sets(labels: &[(SetCode, String)], cards: &[Card]) -> Vec<CardSet> {
    let mut codes: Vec<SetCode> = labels.iter().map(|(code, _)| code.clone()).collect();
    codes.extend(cards.iter().map(|card| SetCode::new(&card.set_code)));
    codes.sort();
    codes.dedup();
    codes
        .into_iter()
        .map(|code| {
            let label = labels
                .iter()
                .find(|(known, _)| *known == code)
                .map_or_else(|| code.as_str().to_owned(), |(_, label)| label.clone());
            let total = cards
                .iter()
                .filter(|card| card.set_code == code.as_str())
                .count();
            CardSet {
                code: code.as_str().to_owned(),
                label,
                // Saturates rather than wraps; a set of two billion cards is not a real case.
                total: Some(i32::try_from(total).unwrap_or(i32::MAX)),
                // Data Dragon has no release dates, printed totals, series or online codes.
                ..CardSet::default()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(list: &[&str]) -> Vec<SetCode> {
        list.iter().map(|code| SetCode::new(code)).collect()
    }

    #[test]
    fn sets_sort_by_number_then_by_mid_season_suffix() {
        let mut sets = codes(&[
            "Set9", "set7b", "Set10", "set6cde", "set1", "set6", "setevent",
        ]);
        sets.sort();
        let sorted: Vec<&str> = sets.iter().map(SetCode::as_str).collect();
        assert_eq!(
            sorted,
            [
                "set1", "set6", "set6cde", "set7b", "set9", "set10", "setevent"
            ]
        );
    }

    #[test]
    fn only_set_bundles_in_the_catalog_locale_are_set_files() {
        assert_eq!(
            SetCode::of_set_file("set6cde-en_us.json"),
            Some(SetCode::new("Set6cde"))
        );
        assert_eq!(SetCode::of_set_file("set1-de_de.json"), None);
        assert_eq!(SetCode::of_set_file("globals-en_us.json"), None);
        assert_eq!(SetCode::of_set_file("SOURCE.md"), None);
    }

    #[test]
    fn card_sets_are_labelled_from_globals_and_count_their_cards() {
        let card = |set: &str| Card {
            set_code: set.to_owned(),
            ..Card::default()
        };
        let labels = vec![
            (SetCode::new("Set2"), "Rising Tides".to_owned()),
            (SetCode::new("Set1"), "Foundations".to_owned()),
        ];
        let sets = card_sets(&labels, &[card("set1"), card("set1"), card("set3")]);
        let summary: Vec<(&str, &str, Option<i32>)> = sets
            .iter()
            .map(|set| (set.code.as_str(), set.label.as_str(), set.total))
            .collect();
        assert_eq!(
            summary,
            [
                ("set1", "Foundations", Some(2)),
                ("set2", "Rising Tides", Some(0)),
                ("set3", "set3", Some(1)),
            ]
        );
        assert_eq!(sets[0].release_date, None);
    }
}
