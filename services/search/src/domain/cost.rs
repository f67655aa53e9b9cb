//! Pokémon attack costs written as energy symbols (`RCC`, `1R2C`, `{Fire}{Colorless}`, `RR*`),
//! and how the comparison operators compare one mix with another (the "Attack cost" section
//! of `reference-search-pokemon.md`).

use super::query::Op;

/// Energy types in symbol order: R W L G P F D M Y N C.
const ENERGIES: [(char, &str); 11] = [
    ('R', "Fire"),
    ('W', "Water"),
    ('L', "Lightning"),
    ('G', "Grass"),
    ('P', "Psychic"),
    ('F', "Fighting"),
    ('D', "Darkness"),
    ('M', "Metal"),
    ('Y', "Fairy"),
    ('N', "Dragon"),
    ('C', "Colorless"),
];

/// Slot for an energy name the symbols do not cover: such an attack never equals a typed mix.
const OTHER: usize = 11;

/// A multiset of energy: a count per type, plus `*` (any type) for typed patterns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EnergyMix {
    counts: [u16; 12],
    any: u16,
}

impl EnergyMix {
    /// Builds the mix of an attack from its cost list (`["Fire", "Colorless"]`); `Free` costs
    /// nothing.
    pub fn of_attack<S: AsRef<str>>(cost: &[S]) -> Self {
        let mut mix = Self::default();
        for energy in cost {
            let energy = energy.as_ref();
            if energy.eq_ignore_ascii_case("free") {
                continue;
            }
            let slot = ENERGIES
                .iter()
                .position(|(_, name)| name.eq_ignore_ascii_case(energy))
                .unwrap_or(OTHER);
            mix.counts[slot] += 1;
        }
        mix
    }

    /// Parses typed symbols: capital letters, `*`, `{Name}`, each optionally preceded by a
    /// count. `None` when anything else appears (so `cost:rcc` finds nothing).
    pub fn parse(typed: &str) -> Option<Self> {
        let mut mix = Self::default();
        let chars: Vec<char> = typed.chars().collect();
        let mut i = 0;
        let mut empty = true;
        while i < chars.len() {
            let mut count: Option<u16> = None;
            while let Some(digit) = chars.get(i).and_then(|ch| ch.to_digit(10)) {
                count = Some(
                    count
                        .unwrap_or(0)
                        .checked_mul(10)?
                        .checked_add(digit as u16)?,
                );
                i += 1;
            }
            let count = count.unwrap_or(1);
            let slot = match chars.get(i)? {
                '*' => None,
                '{' => {
                    let close = chars[i..].iter().position(|ch| *ch == '}')? + i;
                    let name: String = chars[i + 1..close].iter().collect();
                    i = close;
                    Some(
                        ENERGIES
                            .iter()
                            .position(|(_, full)| full.eq_ignore_ascii_case(name.trim()))?,
                    )
                }
                symbol => Some(ENERGIES.iter().position(|(s, _)| s == symbol)?),
            };
            match slot {
                Some(slot) => mix.counts[slot] = mix.counts[slot].checked_add(count)?,
                None => mix.any = mix.any.checked_add(count)?,
            }
            empty = false;
            i += 1;
        }
        (!empty).then_some(mix)
    }

    /// Total energy.
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| u32::from(c)).sum::<u32>() + u32::from(self.any)
    }

    /// True when `self` (an attack) holds at least `pattern`'s typed energy and enough energy
    /// in total for its `*`.
    fn covers(&self, pattern: &EnergyMix) -> bool {
        self.counts
            .iter()
            .zip(&pattern.counts)
            .all(|(have, need)| have >= need)
            && self.total() >= pattern.total()
    }

    /// True when `self` (an attack) is made only of `pattern`'s energy, its `*` standing for
    /// any type.
    fn within(&self, pattern: &EnergyMix) -> bool {
        let excess: u32 = self
            .counts
            .iter()
            .zip(&pattern.counts)
            .map(|(&have, &allowed)| u32::from(have.saturating_sub(allowed)))
            .sum();
        excess <= u32::from(pattern.any)
    }

    /// Compares one attack's cost (`self`) with a typed mix, as the page's table says:
    /// `:`/`=` exactly the mix, `>=` at least it, `>` at least it plus one more energy, `<=`
    /// only energy from it (and some energy), `<` that and less than all of it. `!=` is
    /// handled per card by [`card_matches`].
    pub fn compare(&self, op: Op, pattern: &EnergyMix) -> bool {
        match op {
            Op::Has | Op::Eq => self.total() == pattern.total() && self.covers(pattern),
            Op::Ge => self.covers(pattern),
            Op::Gt => self.covers(pattern) && self.total() > pattern.total(),
            Op::Le => self.total() > 0 && self.within(pattern),
            Op::Lt => self.total() > 0 && self.within(pattern) && self.total() < pattern.total(),
            Op::Ne => !self.covers(pattern),
        }
    }
}

/// Whether a card with these attack costs matches `op pattern`: any one attack for every
/// operator but `!=`, which (as the page says of `cost!=R`) leaves out every card with an
/// attack that needs the mix, keeping only cards that have attacks.
pub fn card_matches(attacks: &[EnergyMix], op: Op, pattern: &EnergyMix) -> bool {
    match op {
        Op::Ne => !attacks.is_empty() && attacks.iter().all(|a| a.compare(Op::Ne, pattern)),
        _ => attacks.iter().any(|a| a.compare(op, pattern)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attack(cost: &[&str]) -> EnergyMix {
        EnergyMix::of_attack(cost)
    }

    fn mix(typed: &str) -> EnergyMix {
        EnergyMix::parse(typed).unwrap_or_else(|| panic!("{typed} parses"))
    }

    #[test]
    fn symbols_counts_and_braces_mean_the_same_mix() {
        assert_eq!(mix("RCC"), mix("1R2C"));
        assert_eq!(mix("RCC"), mix("{Fire}{Colorless}{Colorless}"));
        assert_eq!(mix("RCC"), attack(&["Fire", "Colorless", "Colorless"]));
    }

    #[test]
    fn symbols_are_capital_letters() {
        assert_eq!(EnergyMix::parse("rcc"), None);
        assert_eq!(EnergyMix::parse("RX"), None);
        assert_eq!(EnergyMix::parse("{Fire"), None);
        assert_eq!(EnergyMix::parse(""), None);
    }

    #[test]
    fn operators_compare_mixes_as_the_table_says() {
        let rcc = mix("RCC");
        let fire_cc = attack(&["Fire", "Colorless", "Colorless"]);
        assert!(fire_cc.compare(Op::Has, &rcc));
        assert!(fire_cc.compare(Op::Eq, &rcc));
        assert!(!attack(&["Fire", "Fire", "Colorless"]).compare(Op::Eq, &rcc));
        assert!(attack(&["Fire", "Fire", "Colorless", "Colorless"]).compare(Op::Ge, &rcc));
        assert!(!attack(&["Fire", "Fire", "Colorless"]).compare(Op::Ge, &rcc));
        assert!(fire_cc.compare(Op::Ge, &rcc));
        assert!(!fire_cc.compare(Op::Gt, &rcc));
        assert!(attack(&["Fire", "Colorless", "Colorless", "Water"]).compare(Op::Gt, &rcc));
        for within in [
            &["Fire"][..],
            &["Colorless"],
            &["Fire", "Colorless"],
            &["Fire", "Colorless", "Colorless"],
        ] {
            assert!(attack(within).compare(Op::Le, &rcc), "{within:?}");
        }
        assert!(!attack(&["Fire", "Fire"]).compare(Op::Le, &rcc));
        assert!(!fire_cc.compare(Op::Lt, &rcc));
        assert!(attack(&["Fire"]).compare(Op::Lt, &rcc));
    }

    #[test]
    fn a_star_is_one_energy_of_any_type() {
        let rr_any = mix("RR*");
        assert!(attack(&["Fire", "Fire", "Water"]).compare(Op::Has, &rr_any));
        assert!(attack(&["Fire", "Fire", "Fire"]).compare(Op::Has, &rr_any));
        assert!(!attack(&["Fire", "Fire"]).compare(Op::Has, &rr_any));
        assert!(!attack(&["Fire", "Water", "Water"]).compare(Op::Has, &rr_any));
    }

    #[test]
    fn not_equal_leaves_out_cards_with_an_attack_needing_the_mix() {
        let r = mix("R");
        assert!(!card_matches(
            &[attack(&["Water"]), attack(&["Fire", "Colorless"])],
            Op::Ne,
            &r
        ));
        assert!(card_matches(&[attack(&["Water"])], Op::Ne, &r));
        assert!(!card_matches(&[], Op::Ne, &r));
    }
}
