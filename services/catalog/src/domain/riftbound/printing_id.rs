//! Riftbound printing ids: `ogn-030-298` (set, collector number, set size), with a treatment
//! suffix on the number (`ogn-030a-298`, `ogn-299*-298`) and the short forms riftcodex uses
//! for runes, tokens and special slots (`ven-r01`, `sfd-t03`, `ven-sp1-006`).
//!
//! Only the shape of the id is checked here; which set a printing belongs to and what its
//! treatment is are decided by the record that carries it.

use std::fmt;

/// A printing id, lower case, exactly as deck refs store it (`ogn-030-298`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PrintingId {
    /// The whole id, lower case.
    id: String,
    /// Length of the set prefix (`ogn`) in `id`.
    set_len: usize,
    /// Collector number, when the slot starts with digits (`030a` → 30).
    number: Option<u32>,
    /// Printed set size, the last segment (`298`), when there is one.
    set_size: Option<u32>,
}

/// Why a string is not a printing id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("printing id `{0}` is not `<set>-<number>[-<set size>]`")]
pub struct PrintingIdError(pub String);

impl PrintingId {
    /// Parses an id such as `ogn-030a-298` or `ven-r01`, ignoring surrounding whitespace and
    /// case.
    pub fn parse(raw: &str) -> Result<Self, PrintingIdError> {
        let id = raw.trim().to_ascii_lowercase();
        let invalid = || PrintingIdError(raw.to_owned());
        let parts: Vec<&str> = id.split('-').collect();
        let (set, slot, size) = match parts.as_slice() {
            [set, slot] => (*set, *slot, None),
            [set, slot, size] => (*set, *slot, Some(*size)),
            _ => return Err(invalid()),
        };
        if set.is_empty() || !set.bytes().all(|b| b.is_ascii_lowercase()) {
            return Err(invalid());
        }
        if slot.is_empty()
            || !slot
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'*')
        {
            return Err(invalid());
        }
        let set_size = match size {
            Some(size) if !size.is_empty() && size.bytes().all(|b| b.is_ascii_digit()) => {
                Some(size.parse().map_err(|_| invalid())?)
            }
            Some(_) => return Err(invalid()),
            None => None,
        };
        let digits = slot.bytes().take_while(u8::is_ascii_digit).count();
        let number = if digits > 0 {
            // The rest of the slot is the treatment suffix: letters or `*`, no more digits.
            if !slot[digits..]
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'*')
            {
                return Err(invalid());
            }
            Some(slot[..digits].parse().map_err(|_| invalid())?)
        } else {
            None
        };
        let set_len = set.len();
        Ok(Self {
            id,
            set_len,
            number,
            set_size,
        })
    }

    /// Returns the id as deck refs store it.
    pub fn as_str(&self) -> &str {
        &self.id
    }

    /// Returns the lower-case set prefix (`ogn`).
    pub fn set(&self) -> &str {
        &self.id[..self.set_len]
    }

    /// Returns the printed set size, when the id carries one.
    pub fn set_size(&self) -> Option<u32> {
        self.set_size
    }

    /// Returns the treatment suffix after the collector number (`a`, `b`, `*`), empty when
    /// there is none or the slot is not numeric.
    pub fn suffix(&self) -> &str {
        if self.number.is_none() {
            return "";
        }
        let slot = self.id[self.set_len + 1..]
            .split('-')
            .next()
            .unwrap_or_default();
        slot.trim_start_matches(|c: char| c.is_ascii_digit())
    }

    /// True when the collector number is above the printed set size (an overnumbered print).
    pub fn is_overnumbered(&self) -> bool {
        matches!((self.number, self.set_size), (Some(number), Some(size)) if number > size)
    }
}

impl fmt::Display for PrintingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_set_number_and_set_size_of_a_regular_printing() {
        let id = PrintingId::parse("ogn-030-298").expect("valid id");
        assert_eq!(id.as_str(), "ogn-030-298");
        assert_eq!(id.set(), "ogn");
        assert_eq!(id.number, Some(30));
        assert_eq!(id.set_size(), Some(298));
        assert_eq!(id.suffix(), "");
        assert!(!id.is_overnumbered());
    }

    #[test]
    fn keeps_treatment_suffixes_on_the_collector_number() {
        let alternate = PrintingId::parse("OGN-030a-298").expect("valid id");
        assert_eq!(alternate.as_str(), "ogn-030a-298");
        assert_eq!(alternate.suffix(), "a");
        assert_eq!(alternate.number, Some(30));
        let signature = PrintingId::parse("ogn-299*-298").expect("valid id");
        assert_eq!(signature.suffix(), "*");
        assert!(signature.is_overnumbered());
    }

    #[test]
    fn accepts_the_short_forms_of_runes_tokens_and_special_slots() {
        for raw in ["ven-r01", "sfd-t03", "ven-sp1-006"] {
            let id = PrintingId::parse(raw).expect("valid id");
            assert_eq!(id.number, None, "{raw}");
            assert_eq!(id.suffix(), "", "{raw}");
        }
        assert_eq!(
            PrintingId::parse("ven-sp1-006").expect("valid").set_size(),
            Some(6)
        );
    }

    #[test]
    fn rejects_ids_that_are_not_set_and_slot() {
        for raw in [
            "",
            "ogn",
            "ogn-",
            "ogn-030-298-1",
            "og1-030-298",
            "ogn-03 0-298",
            "ogn-030-29a",
            "ogn-3a0-298",
        ] {
            assert!(
                PrintingId::parse(raw).is_err(),
                "{raw:?} should be rejected"
            );
        }
    }
}
