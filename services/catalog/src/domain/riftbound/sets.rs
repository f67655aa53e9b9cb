//! Riftbound sets in release order, and which of them are promotional series.
//!
//! riftcodex gives no release dates, so the order is written down here: the main sets as Riot
//! released them (TCGplayer product ids rise in the same order), then the promo series, which
//! run alongside the main sets and never hold a card's default printing when a main set has it.

/// Known set codes in release order, each with whether it is a promo series.
const KNOWN_SETS: [(&str, bool); 8] = [
    ("OGN", false), // Origins
    ("OGS", false), // Proving Grounds, the starter product released with Origins
    ("SFD", false), // Spiritforged
    ("UNL", false), // Unleashed
    ("VEN", false), // Vendetta
    ("PR", true),   // Riftbound Promotional Cards
    ("OPP", true),  // Riftbound Organized Play Promotional Cards
    ("JDG", true),  // Riftbound Judge Promotional Cards
];

/// Sort key for a set code (upper case): known sets by release, unknown sets after them by
/// code.
pub fn release_rank(code: &str) -> (usize, &str) {
    match KNOWN_SETS.iter().position(|(known, _)| *known == code) {
        Some(position) => (position, ""),
        None => (KNOWN_SETS.len(), code),
    }
}

/// True for promo series (`PR`, `OPP`, `JDG`). An unknown code counts as a main set: new
/// main sets appear in the data more often than new promo series.
pub fn is_promo(code: &str) -> bool {
    KNOWN_SETS
        .iter()
        .any(|(known, promo)| *known == code && *promo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_sets_come_in_release_order_before_promos_and_unknown_sets() {
        let mut codes = ["JDG", "ZZZ", "VEN", "OGN", "ARC", "SFD", "OPP"];
        codes.sort_by_key(|code| release_rank(code));
        assert_eq!(codes, ["OGN", "SFD", "VEN", "OPP", "JDG", "ARC", "ZZZ"]);
    }

    #[test]
    fn only_the_promo_series_are_promos() {
        assert!(is_promo("OPP") && is_promo("PR") && is_promo("JDG"));
        assert!(!is_promo("OGN") && !is_promo("ARC"));
    }
}
