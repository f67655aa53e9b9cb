//! What makes two printings "the same playable card", and which printing represents it.
//!
//! **Identity.** Two printings are one identity when everything a game reads off the card is
//! the same: name, supertype, subtypes, HP, types, "evolves from", abilities (type, name,
//! text), attacks (name, cost, damage, text), weaknesses, resistances, retreat cost, rule-box
//! lines and Ancient Trait. Set, number, rarity, artist, flavor text, images, level,
//! regulation mark, legalities, Pokédex numbers and "evolves to" are per printing (or editorial
//! and missing on some printings upstream) and do not split an identity. Because the card
//! object shows one printing's game fields for every printing it groups, those fields must
//! agree across the group: this is why HP and weaknesses are part of the key even though the
//! official reprint rule looks only at name and attacks/abilities.
//!
//! Text is compared after [`canonical_text`] (case, whitespace, typographic quotes, `é`, a
//! trailing period), and rule-box lines as a set with the `Tera:` label dropped, because
//! upstream transcribes the same printed text differently between sets (`sv8-57` and
//! `me2pt5-57` are one Pikachu ex).
//!
//! **Id.** `<slug of the name>--<first 12 hex digits of the stable hash of the key>`. The key
//! (not the chosen default printing) decides the id, so adding a printing never changes it.
//! Changing the key's recipe changes ids: pinned by a test below.
//!
//! **Default printing.** The earliest-released printing from a regular set (not a
//! "Black Star Promos" set), lowest collector number first within a set; promo printings only
//! when nothing else exists. Other printings follow in release order.

use std::cmp::Ordering;

use super::upstream::{Supertype, UpstreamCard};
use crate::domain::ids::{slug, stable_hash};

/// Hex digits of the identity hash in an identity id.
const HASH_HEX_LEN: usize = 12;

/// The canonical description of a playable card; equal keys are one identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentityKey {
    /// The canonical name, first so the slug can be read off the key.
    name: String,
    /// Labelled canonical parts, in a fixed order.
    parts: Vec<String>,
}

impl IdentityKey {
    /// Returns the key of one printing.
    pub fn of(card: &UpstreamCard, supertype: Supertype) -> Self {
        let name = canonical_text(&card.name);
        let mut parts = vec![
            format!("name {name}"),
            format!("supertype {}", supertype.as_str()),
            format!("subtypes {}", sorted_list(&card.subtypes)),
            format!("hp {}", canonical_text(card.hp.as_deref().unwrap_or(""))),
            format!("types {}", sorted_list(&card.types)),
            format!(
                "evolvesFrom {}",
                canonical_text(card.evolves_from.as_deref().unwrap_or(""))
            ),
        ];
        for ability in &card.abilities {
            parts.push(format!(
                "ability {}|{}|{}",
                canonical_text(&ability.kind),
                canonical_text(&ability.name),
                canonical_text(&ability.text)
            ));
        }
        for attack in &card.attacks {
            parts.push(format!(
                "attack {}|{}|{}|{}",
                canonical_text(&attack.name),
                attack.cost.join(","),
                canonical_text(attack.damage.as_deref().unwrap_or("")),
                canonical_text(attack.text.as_deref().unwrap_or(""))
            ));
        }
        for weakness in &card.weaknesses {
            parts.push(format!(
                "weakness {}|{}",
                weakness.kind,
                canonical_text(&weakness.value)
            ));
        }
        for resistance in &card.resistances {
            parts.push(format!(
                "resistance {}|{}",
                resistance.kind,
                canonical_text(&resistance.value)
            ));
        }
        parts.push(format!("retreat {}", card.retreat_cost.join(",")));
        let mut rules: Vec<String> = card.rules.iter().map(|rule| canonical_rule(rule)).collect();
        rules.sort();
        parts.push(format!("rules {}", rules.join("|")));
        if let Some(trait_) = &card.ancient_trait {
            parts.push(format!(
                "ancientTrait {}|{}",
                canonical_text(&trait_.name),
                canonical_text(&trait_.text)
            ));
        }
        Self { name, parts }
    }

    /// Returns the identity id, `pikachu-ex--1f29b66b68bc`.
    pub fn id(&self) -> String {
        let parts: Vec<&str> = self.parts.iter().map(String::as_str).collect();
        let name_slug = match slug(&self.name) {
            empty if empty.is_empty() => "card".to_owned(),
            name_slug => name_slug,
        };
        format!("{name_slug}--{}", stable_hash(&parts, HASH_HEX_LEN))
    }
}

/// Returns text in the form used for comparing printings: lower case, whitespace collapsed,
/// typographic quotes and dashes as ASCII, `é` as `e`, `×` as `x`, no trailing period.
pub fn canonical_text(text: &str) -> String {
    let folded: String = text
        .chars()
        .map(|c| match c {
            '’' | '‘' | '`' => '\'',
            '“' | '”' => '"',
            '–' | '—' | '−' => '-',
            '×' => 'x',
            'é' | 'É' => 'e',
            other => other,
        })
        .collect();
    let collapsed = folded
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    collapsed.trim_end_matches('.').to_owned()
}

/// A rule-box line in canonical form; newer sets prefix the Tera rule with `Tera:`.
fn canonical_rule(rule: &str) -> String {
    let text = canonical_text(rule);
    match text.strip_prefix("tera:") {
        Some(rest) => rest.trim_start().to_owned(),
        None => text,
    }
}

fn sorted_list(items: &[String]) -> String {
    let mut items: Vec<String> = items.iter().map(|item| canonical_text(item)).collect();
    items.sort();
    items.join(",")
}

/// A collector number ordered the way a set lists its cards: plain numbers first, numerically
/// (`9` before `10`), then prefixed series (`SV001`, `TG01`, `XY39`), each numerically.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct NumberKey {
    prefix: String,
    value: Option<u64>,
    suffix: String,
}

impl NumberKey {
    /// Splits a collector number into its letter prefix, numeric part and suffix.
    pub fn new(number: &str) -> Self {
        let number = number.trim();
        let digits_at = number
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(number.len());
        let (prefix, rest) = number.split_at(digits_at);
        let digits_end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (digits, suffix) = rest.split_at(digits_end);
        Self {
            prefix: prefix.to_owned(),
            // A number too long for u64 still sorts after every shorter one.
            value: (!digits.is_empty()).then(|| digits.parse().unwrap_or(u64::MAX)),
            suffix: suffix.to_owned(),
        }
    }
}

/// Where a printing sits in release order: what orders printings and the catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseOrder {
    /// `YYYY/MM/DD`, which sorts as text; `None` (set unknown) sorts last.
    pub release_date: Option<String>,
    pub set_code: String,
    pub number: NumberKey,
    pub printing_id: String,
}

impl Ord for ReleaseOrder {
    fn cmp(&self, other: &Self) -> Ordering {
        let date = |order: &Self| (order.release_date.is_none(), order.release_date.clone());
        date(self)
            .cmp(&date(other))
            .then_with(|| self.set_code.cmp(&other.set_code))
            .then_with(|| self.number.cmp(&other.number))
            .then_with(|| self.printing_id.cmp(&other.printing_id))
    }
}

impl PartialOrd for ReleaseOrder {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Returns whether a set is a promo set (`Scarlet & Violet Black Star Promos`), whose
/// printings are the default only when the card has no other printing.
pub fn is_promo_set(set_name: &str) -> bool {
    set_name.trim_end().ends_with("Promos")
}

/// Orders printings default first (see the module docs), the rest in release order.
/// Takes `(is from a promo set, release order)` per printing and returns indices into it.
pub fn printing_order(printings: &[(bool, ReleaseOrder)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..printings.len()).collect();
    order.sort_by(|&a, &b| printings[a].1.cmp(&printings[b].1));
    if let Some(default) = (0..printings.len()).min_by(|&a, &b| printings[a].cmp(&printings[b])) {
        order.retain(|&index| index != default);
        order.insert(0, default);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::pokemon::upstream::{Attack, UpstreamCard};

    fn pikachu_ex(attack_damage: &str) -> UpstreamCard {
        UpstreamCard {
            name: "Pikachu ex".into(),
            supertype: "Pokémon".into(),
            subtypes: vec!["Basic".into(), "ex".into()],
            hp: Some("200".into()),
            types: vec!["Lightning".into()],
            attacks: vec![Attack {
                name: "Thunderbolt".into(),
                cost: vec!["Lightning".into(), "Lightning".into(), "Colorless".into()],
                converted_energy_cost: Some(3),
                damage: Some(attack_damage.into()),
                text: Some(String::new()),
            }],
            rules: vec!["Pokémon ex rule: When your Pokémon ex is Knocked Out.".into()],
            number: "276".into(),
            ..UpstreamCard::default()
        }
    }

    #[test]
    fn identity_ids_are_a_name_slug_and_twelve_hex_digits() {
        let id = IdentityKey::of(&pikachu_ex("120"), Supertype::Pokemon).id();
        let (name, hash) = id.split_once("--").unwrap();
        assert_eq!(name, "pikachu-ex");
        assert_eq!(hash.len(), 12);
        assert!(hash.chars().all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn the_identity_id_is_pinned_so_saved_refs_keep_resolving() {
        // Changing the key recipe changes every Pokémon identity id, and decks store printing
        // ids that resolve through them: keep old ids resolving (identity aliases) first.
        let id = IdentityKey::of(&pikachu_ex("120"), Supertype::Pokemon).id();
        assert_eq!(id, "pikachu-ex--f075afa7e2ce");
    }

    #[test]
    fn transcription_differences_do_not_split_an_identity() {
        let mut a = pikachu_ex("120");
        a.rules = vec![
            "Pokémon ex rule: When your Pokémon ex is Knocked Out".into(),
            "Tera: As long as this Pokémon is on your Bench, prevent all damage (both yours and your opponent's).".into(),
        ];
        let mut b = pikachu_ex("120");
        b.rules = vec![
            "As long as this Pokémon is on your Bench, prevent all damage (both yours and your opponent’s).".into(),
            "Pokémon ex rule:  When your Pokémon ex is Knocked Out.".into(),
        ];
        b.number = "57".into();
        b.rarity = Some("Hyper Rare".into());
        b.evolves_to = vec!["Raichu".into()];
        assert_eq!(
            IdentityKey::of(&a, Supertype::Pokemon),
            IdentityKey::of(&b, Supertype::Pokemon)
        );
    }

    #[test]
    fn different_attack_damage_makes_a_different_identity() {
        assert_ne!(
            IdentityKey::of(&pikachu_ex("120"), Supertype::Pokemon).id(),
            IdentityKey::of(&pikachu_ex("220"), Supertype::Pokemon).id()
        );
    }

    #[test]
    fn collector_numbers_sort_numerically_with_prefixed_series_after() {
        let mut numbers = vec!["TG01", "10", "SV002", "9", "2a", "2", "TG10", "TG2"];
        numbers.sort_by_key(|number| NumberKey::new(number));
        assert_eq!(
            numbers,
            ["2", "2a", "9", "10", "SV002", "TG01", "TG2", "TG10"]
        );
    }

    fn order(date: &str, set: &str, number: &str) -> ReleaseOrder {
        ReleaseOrder {
            release_date: Some(date.into()),
            set_code: set.into(),
            number: NumberKey::new(number),
            printing_id: format!("{set}-{number}"),
        }
    }

    #[test]
    fn the_default_printing_is_the_earliest_regular_print_not_a_promo() {
        let printings = [
            (true, order("2023/01/01", "svp", "106")),
            (false, order("2026/01/30", "me2pt5", "276")),
            (false, order("2026/01/30", "me2pt5", "57")),
            (false, order("2027/01/01", "me3", "1")),
        ];
        assert_eq!(printing_order(&printings), [2, 0, 1, 3]);
    }

    #[test]
    fn a_promo_is_the_default_when_the_card_has_no_other_printing() {
        let printings = [
            (true, order("2024/01/01", "svp", "2")),
            (true, order("2023/01/01", "svp", "1")),
        ];
        assert_eq!(printing_order(&printings), [1, 0]);
    }
}
