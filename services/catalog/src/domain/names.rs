//! Resolving what people write in deck lists — a card name, a set and collector number, a basic
//! energy — to a card ref, the way each game's lists write them.
//!
//! Names match case-insensitively, with either subtitle separator (`Yasuo, Unforgiven` =
//! `Yasuo - Unforgiven`). `SET NUMBER` (with or without a name before it) finds a printing:
//! Riftbound set codes (`OGN 43`), Pokémon set ids and Pokémon TCG Live abbreviations (`PAL 63`).
//! Basic energy resolves by name in every spelling lists use (`Basic {P} Energy`,
//! `Basic Psychic Energy`, `Psychic Energy`).

use std::collections::HashMap;

use super::{Card, CardSet, Game};

/// A resolved line: the ref a deck stores, and the identity it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The deck ref: a printing id (Pokémon, Riftbound) or a card code (LoR).
    pub reference: String,
    /// The identity id.
    pub card_id: String,
}

/// Why a line did not resolve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unresolved {
    /// The line was empty.
    #[error("empty line")]
    Empty,
    /// No card has this name, and the line is not a set and number the catalog knows.
    #[error("no card named `{0}`")]
    UnknownName(String),
    /// The set and number do not name a printing.
    #[error("no printing {set} {number}")]
    UnknownPrinting {
        /// The set as written.
        set: String,
        /// The number as written.
        number: String,
    },
}

/// The lookup tables of one game's catalog.
#[derive(Debug, Default)]
pub struct NameIndex {
    by_name: HashMap<String, Resolved>,
    /// `(set key, number without leading zeros)` → printing.
    by_printing: HashMap<(String, String), Resolved>,
    /// Set aliases (Live abbreviations, codes) → set key, lower case.
    set_keys: HashMap<String, String>,
}

/// The energy symbols Pokémon lists write in braces.
const ENERGY_SYMBOLS: [(&str, &str); 11] = [
    ("G", "Grass"),
    ("R", "Fire"),
    ("W", "Water"),
    ("L", "Lightning"),
    ("P", "Psychic"),
    ("F", "Fighting"),
    ("D", "Darkness"),
    ("M", "Metal"),
    ("Y", "Fairy"),
    ("N", "Dragon"),
    ("C", "Colorless"),
];

impl NameIndex {
    /// Builds the index from a game's cards (in catalog order) and sets.
    pub fn build(game: Game, cards: &[Card], sets: &[CardSet]) -> Self {
        let mut index = NameIndex::default();
        for set in sets {
            let key = set.code.to_lowercase();
            index.set_keys.insert(key.clone(), key.clone());
            if let Some(code) = &set.ptcgo_code {
                index.set_keys.insert(code.to_lowercase(), key.clone());
            }
        }
        for card in cards {
            let default = default_ref(game, card);
            let resolved = Resolved {
                reference: default,
                card_id: card.id.clone(),
            };
            let name = normalize_name(&card.name);
            // Later cards win, so a name finds the newest printing of it; collectible cards
            // always win over tokens.
            let collectible = card.collectible != Some(false);
            match index.by_name.get(&name) {
                Some(existing) if !collectible && existing.card_id != card.id => {}
                _ => {
                    index.by_name.insert(name, resolved.clone());
                }
            }
            for printing in &card.printings {
                // The printed number (`2`) and the one in the id (`r02` in `ven-r02`): codes
                // and lists write either.
                let numbers = printing
                    .number
                    .iter()
                    .cloned()
                    .chain(printing_number_from_id(&printing.id));
                let set_key = printing.set_code.to_lowercase();
                // A set every printing names is a set, even one the set list leaves out.
                index
                    .set_keys
                    .entry(set_key.clone())
                    .or_insert_with(|| set_key.clone());
                for number in numbers {
                    let key = (set_key.clone(), trim_number(&number));
                    index.by_printing.entry(key).or_insert_with(|| Resolved {
                        reference: printing.id.clone(),
                        card_id: card.id.clone(),
                    });
                }
            }
        }
        index
    }

    /// Resolves one line.
    pub fn resolve(&self, line: &str) -> Result<Resolved, Unresolved> {
        let line = line.trim();
        if line.is_empty() {
            return Err(Unresolved::Empty);
        }
        if let Some(found) = self.by_name.get(&normalize_name(line)) {
            return Ok(found.clone());
        }
        if let Some(energy) = basic_energy_name(line)
            && let Some(found) = self.by_name.get(&normalize_name(&energy))
        {
            return Ok(found.clone());
        }
        // `… SET NUMBER`: the last two words.
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() >= 2 {
            let (set, number) = (words[words.len() - 2], words[words.len() - 1]);
            if number
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric())
                && let Some(set_key) = self.set_keys.get(&set.to_lowercase())
            {
                return self
                    .by_printing
                    .get(&(set_key.clone(), trim_number(number)))
                    .cloned()
                    .ok_or_else(|| Unresolved::UnknownPrinting {
                        set: set.to_owned(),
                        number: number.to_owned(),
                    });
            }
        }
        Err(Unresolved::UnknownName(line.to_owned()))
    }
}

/// The ref a deck stores for a card resolved by name: its default printing, or its id.
fn default_ref(game: Game, card: &Card) -> String {
    match game {
        Game::Lor => card.id.clone(),
        Game::Pokemon | Game::Riftbound => card
            .printings
            .first()
            .map_or_else(|| card.id.clone(), |printing| printing.id.clone()),
    }
}

/// Lower case, one space between words, either subtitle separator as `, `.
pub fn normalize_name(name: &str) -> String {
    let lowered = name.to_lowercase().replace(['’', '‘'], "'");
    let words: Vec<&str> = lowered.split_whitespace().collect();
    words
        .join(" ")
        .replace(" - ", ", ")
        .replace(" – ", ", ")
        .replace(" — ", ", ")
}

/// `Basic {P} Energy`, `Basic Psychic Energy` and `{P} Energy` → `Psychic Energy`.
fn basic_energy_name(line: &str) -> Option<String> {
    let rest = line.trim();
    let rest = rest
        .strip_prefix("Basic ")
        .or_else(|| rest.strip_prefix("basic "))
        .unwrap_or(rest);
    let kind = rest
        .strip_suffix(" Energy")
        .or_else(|| rest.strip_suffix(" energy"))?
        .trim();
    let kind = match kind.strip_prefix('{').and_then(|k| k.strip_suffix('}')) {
        Some(symbol) => ENERGY_SYMBOLS
            .iter()
            .find(|(letter, _)| letter.eq_ignore_ascii_case(symbol))
            .map(|(_, name)| *name)?,
        None => kind,
    };
    Some(format!("{kind} Energy"))
}

fn trim_number(number: &str) -> String {
    let trimmed = number.trim_start_matches('0');
    if trimmed.is_empty() {
        "0".to_owned()
    } else {
        trimmed.to_lowercase()
    }
}

/// `ogn-030-298` → `030`; `sv2-11` → `11`.
fn printing_number_from_id(id: &str) -> Option<String> {
    id.split('-').nth(1).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proto::catalog::v1::CardPrinting;

    fn card(id: &str, name: &str, printings: &[(&str, &str, &str)]) -> Card {
        Card {
            id: id.to_owned(),
            name: name.to_owned(),
            printings: printings
                .iter()
                .map(|(id, set, number)| CardPrinting {
                    id: (*id).to_owned(),
                    set_code: (*set).to_owned(),
                    number: Some((*number).to_owned()),
                    ..CardPrinting::default()
                })
                .collect(),
            ..Card::default()
        }
    }

    fn set(code: &str, ptcgo: Option<&str>) -> CardSet {
        CardSet {
            code: code.to_owned(),
            ptcgo_code: ptcgo.map(str::to_owned),
            ..CardSet::default()
        }
    }

    #[test]
    fn names_match_case_insensitively_with_either_subtitle_separator() {
        let cards = [card(
            "rb-1",
            "Yasuo, Unforgiven",
            &[("ogn-043-298", "OGN", "043")],
        )];
        let index = NameIndex::build(Game::Riftbound, &cards, &[set("OGN", None)]);
        for line in [
            "Yasuo, Unforgiven",
            "yasuo - unforgiven",
            "  YASUO  -  Unforgiven ",
        ] {
            assert_eq!(
                index.resolve(line).map(|r| r.reference),
                Ok("ogn-043-298".to_owned()),
                "{line}"
            );
        }
    }

    #[test]
    fn a_set_and_number_find_the_printing() {
        let cards = [card(
            "rb-1",
            "Yasuo, Unforgiven",
            &[("ogn-043-298", "OGN", "043")],
        )];
        let index = NameIndex::build(Game::Riftbound, &cards, &[set("OGN", None)]);
        assert_eq!(
            index.resolve("OGN 43").map(|r| r.card_id),
            Ok("rb-1".to_owned())
        );
        assert_eq!(
            index.resolve("OGN 44"),
            Err(Unresolved::UnknownPrinting {
                set: "OGN".to_owned(),
                number: "44".to_owned()
            })
        );
    }

    #[test]
    fn a_number_as_the_printing_id_writes_it_finds_the_printing_too() {
        let mut rune = card("rb-2", "Calm Rune", &[("ven-r02", "VEN", "2")]);
        rune.printings[0].number = Some("2".to_owned());
        let index = NameIndex::build(Game::Riftbound, &[rune], &[set("VEN", None)]);
        assert_eq!(
            index.resolve("VEN R02").map(|r| r.reference),
            Ok("ven-r02".to_owned())
        );
        assert_eq!(
            index.resolve("VEN 2").map(|r| r.reference),
            Ok("ven-r02".to_owned())
        );
    }

    #[test]
    fn pokemon_live_abbreviations_name_sets() {
        let cards = [card(
            "pikachu-ex--1",
            "Pikachu ex",
            &[("sv2-63", "sv2", "63")],
        )];
        let index = NameIndex::build(Game::Pokemon, &cards, &[set("sv2", Some("PAL"))]);
        assert_eq!(
            index.resolve("Pikachu ex PAL 63").map(|r| r.reference),
            Ok("sv2-63".to_owned())
        );
        assert_eq!(
            index.resolve("PAL 063").map(|r| r.reference),
            Ok("sv2-63".to_owned())
        );
    }

    #[test]
    fn basic_energy_resolves_in_every_spelling() {
        let cards = [card(
            "psychic-energy--1",
            "Psychic Energy",
            &[("sve-5", "sve", "5")],
        )];
        let index = NameIndex::build(Game::Pokemon, &cards, &[]);
        for line in [
            "Basic {P} Energy",
            "Basic Psychic Energy",
            "Psychic Energy",
            "{P} Energy",
        ] {
            assert_eq!(
                index.resolve(line).map(|r| r.card_id),
                Ok("psychic-energy--1".to_owned()),
                "{line}"
            );
        }
    }

    #[test]
    fn an_unknown_name_says_so() {
        let index = NameIndex::build(Game::Lor, &[], &[]);
        assert_eq!(
            index.resolve("Nobody"),
            Err(Unresolved::UnknownName("Nobody".to_owned()))
        );
        assert_eq!(index.resolve("  "), Err(Unresolved::Empty));
    }
}
