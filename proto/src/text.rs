//! The one text rule's pure part: what a name or label may hold, what free text may hold, and
//! what an id can look like. Plain Rust, shared by every service's domain like the game
//! (`proto::game`): the rule is part of every contract. `kit::text` adds the errors that name a
//! request field and go on the wire; its module docs say the rule in full.

use std::fmt;

/// The longest id the platform makes, in bytes, with room to spare: a prefix of a few
/// letters and 22 characters of base64url (128 random bits).
pub const MAX_ID_BYTES: usize = 64;

/// The longest username, in bytes (the accounts service's rule: 3 to 32 ASCII characters). A
/// service that looks a username up without knowing the rule refuses a longer one unasked.
pub const MAX_USERNAME_BYTES: usize = 32;

/// What is wrong with a piece of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// A name that is empty or only white space.
    Blank,
    /// A name longer than its bound.
    TooLong {
        /// The most characters the field takes.
        max: usize,
    },
    /// A control character (C0, DEL or C1) in a name.
    Control(char),
    /// A bidirectional embedding, override or isolate in a name.
    Bidi(char),
    /// A NUL (U+0000) in free text.
    Nul,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Blank => f.write_str("give a name"),
            Problem::TooLong { max } => write!(f, "at most {max} characters"),
            Problem::Control(c) => write!(f, "no control characters (found U+{:04X})", *c as u32),
            Problem::Bidi(c) => write!(
                f,
                "no bidirectional formatting characters (found U+{:04X})",
                *c as u32
            ),
            Problem::Nul => f.write_str("no NUL characters (U+0000)"),
        }
    }
}

/// Returns whether `c` is a bidirectional embedding, override or isolate: the characters that
/// reorder the text after them until their terminator.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Checks a name or label against the rule: not blank, at most `max_chars` characters, no
/// control and no bidirectional formatting characters. The text is checked as given; a
/// caller that trims names trims first.
pub fn check_name(text: &str, max_chars: usize) -> Result<(), Problem> {
    if text.trim().is_empty() {
        return Err(Problem::Blank);
    }
    check_label(text, max_chars)
}

/// Checks an optional label (a pile's name, which may be left empty) against the rule for
/// names, without the "not blank" part.
pub fn check_label(text: &str, max_chars: usize) -> Result<(), Problem> {
    // Counting stops past the bound, so a megabyte name costs no more than a long one.
    if text.chars().take(max_chars + 1).count() > max_chars {
        return Err(Problem::TooLong { max: max_chars });
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(Problem::Control(c));
    }
    if let Some(c) = text.chars().find(|&c| is_bidi_control(c)) {
        return Err(Problem::Bidi(c));
    }
    Ok(())
}

/// Checks free text (a deck list, a source, a note): anything but NUL. Its length bound is the
/// caller's.
pub fn check_free_text(text: &str) -> Result<(), Problem> {
    if text.contains('\0') {
        return Err(Problem::Nul);
    }
    Ok(())
}

/// Returns whether `id` has the shape of an id the platform makes with `prefix`: the prefix,
/// then 1 or more URL-safe base64 characters (`A–Z a–z 0–9 - _`), at most [`MAX_ID_BYTES`] in
/// all. An id without that shape cannot exist: a lookup answers not found without a query.
pub fn is_possible_id(id: &str, prefix: &str) -> bool {
    id.len() <= MAX_ID_BYTES
        && id.strip_prefix(prefix).is_some_and(|rest| {
            !rest.is_empty()
                && rest
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

/// Returns whether `key` (a card ref, a username, a share code: anything looked up as given)
/// may be looked up at all: at most `max_bytes` long and without NUL, which no stored key
/// holds and PostgreSQL refuses in a query.
pub fn is_possible_key(key: &str, max_bytes: usize) -> bool {
    key.len() <= max_bytes && !key.contains('\0')
}
