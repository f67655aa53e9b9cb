//! Treatments: how one printing of a card is finished (alternate art, signature, …), which
//! decides its variant id (`ogn-030a-298:alternate_art`) and whether it can be the default
//! printing.

use super::printing_id::PrintingId;

/// The treatment of a printing, as its variant `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Treatment {
    /// The regular print.
    Normal,
    /// Alternate art (`ogn-030a-298`).
    AlternateArt,
    /// An overnumbered print: collector number above the set size (`ven-168-166`).
    Showcase,
    /// A signature print (`ogn-299*-298`).
    Signature,
    /// The ultimate print (`Baron Nashor (Ultimate)`).
    Ultimate,
    /// A metal promo print, which riftcodex files under the same id as the regular promo.
    Metal,
}

/// What a record says about its treatment, before it is classified.
#[derive(Debug, Clone, Copy, Default)]
pub struct TreatmentHints<'a> {
    /// The print note removed from the name (`Alternate Art`).
    pub note: Option<&'a str>,
    /// `metadata.alternate_art`.
    pub alternate_art: bool,
    /// `metadata.overnumbered`.
    pub overnumbered: bool,
    /// `metadata.signature`.
    pub signature: bool,
}

impl Treatment {
    /// Classifies a record's treatment from its id, its set and its hints.
    ///
    /// riftcodex's flags are missing on older harvests of the same printing, so the id
    /// counts as much as the flags: a `*` suffix is a signature, an `a` suffix in a main set
    /// is alternate art, a number above the set size in a main set is overnumbered. In
    /// promo series the `a`/`b` suffixes only tell promo prints apart.
    pub fn classify(id: &PrintingId, in_promo_set: bool, hints: TreatmentHints<'_>) -> Self {
        let note = hints.note.map(str::to_ascii_lowercase);
        let note = note.as_deref();
        if note == Some("metal") {
            Treatment::Metal
        } else if hints.signature || id.suffix() == "*" || note == Some("signature") {
            Treatment::Signature
        } else if note == Some("ultimate") {
            Treatment::Ultimate
        } else if hints.alternate_art
            || note == Some("alternate art")
            || (!in_promo_set && id.suffix() == "a")
        {
            Treatment::AlternateArt
        } else if hints.overnumbered
            || note == Some("overnumbered")
            || (!in_promo_set && id.is_overnumbered())
        {
            Treatment::Showcase
        } else {
            Treatment::Normal
        }
    }

    /// Returns the variant kind (`normal`, `alternate_art`, …), also `game.variant`.
    pub fn kind(self) -> &'static str {
        match self {
            Treatment::Normal => "normal",
            Treatment::AlternateArt => "alternate_art",
            Treatment::Showcase => "showcase",
            Treatment::Signature => "signature",
            Treatment::Ultimate => "ultimate",
            Treatment::Metal => "metal",
        }
    }

    /// Returns a display label when the kind alone does not say what the print is.
    pub fn label(self) -> Option<&'static str> {
        match self {
            Treatment::Showcase => Some("Overnumbered"),
            Treatment::Metal => Some("Metal"),
            Treatment::Normal
            | Treatment::AlternateArt
            | Treatment::Signature
            | Treatment::Ultimate => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(id: &str, promo: bool, hints: TreatmentHints<'_>) -> Treatment {
        Treatment::classify(&PrintingId::parse(id).expect("valid id"), promo, hints)
    }

    #[test]
    fn the_id_suffix_decides_when_the_flags_are_missing() {
        let none = TreatmentHints::default();
        assert_eq!(classify("ogn-030-298", false, none), Treatment::Normal);
        assert_eq!(
            classify("ogn-030a-298", false, none),
            Treatment::AlternateArt
        );
        assert_eq!(classify("ogn-299*-298", false, none), Treatment::Signature);
        assert_eq!(classify("ven-168-166", false, none), Treatment::Showcase);
    }

    #[test]
    fn promo_suffixes_are_promo_prints_not_alternate_art() {
        let none = TreatmentHints::default();
        assert_eq!(classify("pr-036a-298", true, none), Treatment::Normal);
        assert_eq!(classify("opp-007b-298", true, none), Treatment::Normal);
        let flagged = TreatmentHints {
            alternate_art: true,
            ..none
        };
        assert_eq!(
            classify("pr-263a-298", true, flagged),
            Treatment::AlternateArt
        );
    }

    #[test]
    fn print_notes_name_metal_and_ultimate_prints() {
        let metal = TreatmentHints {
            note: Some("Metal"),
            ..TreatmentHints::default()
        };
        assert_eq!(classify("opp-017-024", true, metal), Treatment::Metal);
        let ultimate = TreatmentHints {
            note: Some("Ultimate"),
            ..TreatmentHints::default()
        };
        assert_eq!(
            classify("unl-238-219", false, ultimate),
            Treatment::Ultimate
        );
    }
}
