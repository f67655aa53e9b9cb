//! Reading Riftbound card text: print notes in names, `[Keyword]` markers with their reminder
//! text, and `:rb_…:` symbol tokens.
//!
//! Everything here works on the upstream strings as they are; what a card keeps of them is
//! decided in [`super::card`].

/// Splits the print note riftcodex appends to a name (`Jinx - Demolitionist (Alternate Art)`)
/// from the printed name.
///
/// Every trailing parenthesis is a note about the print (`Alternate Art`, `Signature`,
/// `Overnumbered`, `Metal`, `Starter`, `Ultimate`, `GG EZ`, …): no Riftbound card name
/// itself ends in one.
pub fn split_print_note(name: &str) -> (&str, Option<&str>) {
    let trimmed = name.trim();
    if let Some(open) = trimmed.strip_suffix(')').and_then(|rest| rest.rfind('(')) {
        let base = trimmed[..open].trim_end();
        if !base.is_empty() {
            let note = trimmed[open + 1..trimmed.len() - 1].trim();
            return (base, Some(note));
        }
    }
    (trimmed, None)
}

/// Returns the form of a printed name that every printing of one card shares: lower case,
/// either subtitle separator read as `, ` (`Jinx - Demolitionist` = `Jinx, Demolitionist`),
/// whitespace collapsed.
///
/// Upstream spells one card's name both ways across sets, and with casing quirks
/// (`Ride The Wind`), so the raw name cannot group printings.
pub fn identity_name(printed_name: &str) -> String {
    let words: Vec<&str> = printed_name.split_whitespace().collect();
    words.join(" ").replace(" - ", ", ").to_lowercase()
}

/// A `[Keyword]` marker in rules text, outside reminder text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeywordMarker {
    /// The `globals.keywords` key: lower case, number dropped, spaces as `-` (`assault`).
    pub key: String,
    /// The keyword as printed, without its number (`Assault`).
    pub label: String,
    /// True when the marker carried a number or `X` (`[Assault 2]`).
    pub has_number: bool,
    /// The parenthesised reminder text right after the marker, when there is one.
    pub reminder: Option<String>,
}

/// Returns the keyword markers of a rules text, in order, skipping markers nested inside
/// reminder text (Ambush's `(… as a [Reaction] …)` does not give the card Reaction) and
/// markers that are not words (`[&gt;]`, `[NO TEXT]`).
pub fn keyword_markers(text: &str) -> Vec<KeywordMarker> {
    let mut markers = Vec::new();
    let mut depth = 0usize;
    let mut rest = text;
    while let Some(at) = rest.find(['(', ')', '[']) {
        let from = &rest[at..];
        match from.as_bytes()[0] {
            b'(' => {
                depth += 1;
                rest = &from[1..];
            }
            b')' => {
                depth = depth.saturating_sub(1);
                rest = &from[1..];
            }
            _ => {
                let Some(close) = from.find(']') else { break };
                let inner = &from[1..close];
                let after = &from[close + 1..];
                if depth == 0
                    && let Some(mut marker) = parse_marker(inner)
                {
                    marker.reminder = reminder_after(after);
                    markers.push(marker);
                }
                rest = after;
            }
        }
    }
    markers
}

/// Reads `Assault 2` as the keyword `assault` with a number; `None` for markers that are not
/// keywords.
fn parse_marker(inner: &str) -> Option<KeywordMarker> {
    let inner = inner.trim();
    let is_word_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '\'');
    if !inner.chars().any(|c| c.is_ascii_alphabetic()) || !inner.chars().all(is_word_char) {
        return None;
    }
    if inner.eq_ignore_ascii_case("no text") {
        return None;
    }
    let (label, has_number) = match inner.rsplit_once(' ') {
        Some((label, last)) if last == "X" || last.bytes().all(|b| b.is_ascii_digit()) => {
            (label.trim(), true)
        }
        _ => (inner, false),
    };
    let key = label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-")
        .to_lowercase();
    Some(KeywordMarker {
        key,
        label: label.to_owned(),
        has_number,
        reminder: None,
    })
}

/// Returns the parenthesised text that directly follows a marker, without the parentheses.
fn reminder_after(after: &str) -> Option<String> {
    let body = after.trim_start().strip_prefix('(')?;
    let mut depth = 1usize;
    for (at, c) in body.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    let reminder = body[..at].trim();
                    return (!reminder.is_empty()).then(|| reminder.to_owned());
                }
            }
            _ => {}
        }
    }
    None
}

/// Returns every `:rb_…:` symbol token in a text, in order, with repeats.
pub fn symbol_tokens(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut from = 0;
    while let Some(start) = text[from..].find(":rb_").map(|at| from + at) {
        let name_len = text[start + 1..]
            .bytes()
            .take_while(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_')
            .count();
        let end = start + 1 + name_len;
        if text[end..].starts_with(':') {
            tokens.push(&text[start..=end]);
            from = end + 1;
        } else {
            from = start + 1;
        }
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn print_notes_are_split_from_the_printed_name() {
        assert_eq!(
            split_print_note("Jinx - Demolitionist (Alternate Art)"),
            ("Jinx - Demolitionist", Some("Alternate Art"))
        );
        assert_eq!(
            split_print_note("Baron Nashor (Ultimate)"),
            ("Baron Nashor", Some("Ultimate"))
        );
        assert_eq!(split_print_note(" Flash "), ("Flash", None));
        assert_eq!(split_print_note("(Metal)"), ("(Metal)", None));
    }

    #[test]
    fn both_subtitle_separators_and_any_casing_give_one_identity_name() {
        assert_eq!(
            identity_name("Jinx - Demolitionist"),
            identity_name("Jinx, Demolitionist")
        );
        assert_eq!(
            identity_name("Ride The Wind"),
            identity_name("Ride the  Wind")
        );
    }

    #[test]
    fn numbered_keywords_become_their_bare_key() {
        let text = "[Accelerate] (You may pay :rb_energy_1::rb_rune_fury: as an additional cost to have me enter ready.)[Assault 2] (+2 :rb_might: while I'm an attacker.)When you play me, discard 2.";
        let markers = keyword_markers(text);
        let keys: Vec<&str> = markers.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["accelerate", "assault"]);
        assert_eq!(markers[1].label, "Assault");
        assert!(markers[1].has_number);
        assert_eq!(
            markers[1].reminder.as_deref(),
            Some("+2 :rb_might: while I'm an attacker.")
        );
        assert_eq!(
            parse_marker("Quick-Draw").map(|m| m.key),
            Some("quick-draw".to_owned())
        );
        assert_eq!(
            parse_marker("Hunt X").map(|m| (m.key, m.has_number)),
            Some(("hunt".to_owned(), true))
        );
    }

    #[test]
    fn markers_inside_reminder_text_and_non_words_are_not_keywords() {
        let text = "[Ambush] (You may play me as a [Reaction] to a battlefield.)[Deathknell][&gt;] Draw 1.";
        let keys: Vec<String> = keyword_markers(text).into_iter().map(|m| m.key).collect();
        assert_eq!(keys, ["ambush", "deathknell"]);
        assert!(keyword_markers("[NO TEXT]").is_empty());
    }

    #[test]
    fn adjacent_symbol_tokens_are_read_one_by_one() {
        assert_eq!(
            symbol_tokens("pay :rb_energy_1::rb_rune_fury: now: +2 :rb_might:"),
            [":rb_energy_1:", ":rb_rune_fury:", ":rb_might:"]
        );
        assert!(symbol_tokens("a :rb_ b: c").is_empty());
    }
}
