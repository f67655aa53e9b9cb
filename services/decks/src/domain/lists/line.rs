//! The pieces every text list shares: copy counts, `<SET> <number>` endings, section headers.

use super::SkipReason;

/// Most copies a list line may name; more is a typo, not a deck.
const MAX_COUNT: u32 = 9_999;

/// Returns whether the text has no whitespace in it.
pub(super) fn is_one_word(text: &str) -> bool {
    !text.is_empty() && !text.contains(char::is_whitespace)
}

/// Reads a copy-count token, `4` or `4x` (either case); `None` when the token is no count.
pub(super) fn count_token(token: &str) -> Option<Result<u32, SkipReason>> {
    let digits = token.strip_suffix(['x', 'X']).unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match digits.parse::<u32>() {
        Ok(0) => Err(SkipReason::ZeroCount),
        Ok(count) if count <= MAX_COUNT => Ok(count),
        _ => Err(SkipReason::CountOutOfRange(digits.to_owned())),
    })
}

/// Splits `<count> <rest>` into the count and the rest, trimmed.
pub(super) fn split_count(line: &str) -> Result<(u32, &str), SkipReason> {
    let line = line.trim();
    let (first, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let count = count_token(first).ok_or(SkipReason::NoCount)??;
    let rest = rest.trim();
    if rest.is_empty() {
        return Err(SkipReason::NoCard);
    }
    Ok((count, rest))
}

/// Returns whether `token` can be a set code in a list: 2 to 6 letters, digits or `-`, with a
/// letter (`SSP`, `30C`, `PR-SV`, `ogn`).
pub(super) fn is_set_token(token: &str) -> bool {
    (2..=6).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && token.bytes().any(|b| b.is_ascii_alphabetic())
}

/// Returns whether `token` can be a collector number: up to 8 letters, digits or `*`, with a
/// digit (`76`, `TG05`, `007a`, `299*`).
pub(super) fn is_number_token(token: &str) -> bool {
    (1..=8).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'*')
        && token.bytes().any(|b| b.is_ascii_digit())
}

/// Splits `<name> <SET> <number>` into its parts, when the line ends with a set and a number
/// and has a name before them.
pub(super) fn split_set_number(rest: &str) -> Option<(&str, &str, &str)> {
    let rest = rest.trim_end();
    let (before, number) = rest.rsplit_once(char::is_whitespace)?;
    let before = before.trim_end();
    let (name, set) = before.rsplit_once(char::is_whitespace)?;
    let name = name.trim();
    (!name.is_empty() && is_set_token(set) && is_number_token(number))
        .then_some((name, set, number))
}

/// Reads a header line, `Label:` or `Label: 12` or `Label (12)`, returning the label; `None`
/// for a line that starts with a digit or is no header.
pub(super) fn header(line: &str) -> Option<&str> {
    let line = line.trim();
    if line.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let without_total = |text: &str| {
        text.trim_end()
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .trim_end()
            .to_owned()
    };
    let label = if let Some(open) = line.rfind('(')
        && line.ends_with(')')
        && line[open + 1..line.len() - 1]
            .bytes()
            .all(|b| b.is_ascii_digit())
    {
        &line[..open]
    } else {
        let stripped = without_total(line);
        let end = stripped.strip_suffix(':')?.len();
        &line[..end]
    };
    let label = label.trim();
    (!label.is_empty()).then_some(label)
}

/// Lower case without spaces, for comparing section labels: `Main Deck` → `maindeck`.
pub(super) fn label_key(label: &str) -> String {
    label
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Drops the leading zeros of a number that starts with digits: `042` → `42`, `007a` → `7a`.
pub(super) fn trim_number(number: &str) -> String {
    if !number.starts_with(|c: char| c.is_ascii_digit()) {
        return number.to_owned();
    }
    let trimmed = number.trim_start_matches('0');
    if trimmed.starts_with(|c: char| c.is_ascii_digit()) {
        trimmed.to_owned()
    } else {
        format!("0{trimmed}")
    }
}

/// The order to write collector numbers in: by the value of their leading digits, then as text
/// (`4` < `5` < `66` < `128` < `TG05`).
pub(super) fn number_order(number: &str) -> (u8, u64, &str) {
    let digits = number.bytes().take_while(u8::is_ascii_digit).count();
    match number[..digits].parse::<u64>() {
        Ok(value) => (0, value, number),
        Err(_) => (1, 0, number),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_counts_with_or_without_an_x() {
        assert_eq!(count_token("4"), Some(Ok(4)));
        assert_eq!(count_token("4x"), Some(Ok(4)));
        assert_eq!(count_token("4X"), Some(Ok(4)));
        assert_eq!(count_token("0"), Some(Err(SkipReason::ZeroCount)));
        assert_eq!(
            count_token("99999999999"),
            Some(Err(SkipReason::CountOutOfRange("99999999999".to_owned())))
        );
        assert_eq!(count_token("x"), None);
        assert_eq!(count_token("Mew"), None);
    }

    #[test]
    fn finds_a_set_and_number_at_the_end_of_a_line() {
        assert_eq!(
            split_set_number("Mew ex 30C 66"),
            Some(("Mew ex", "30C", "66"))
        );
        assert_eq!(
            split_set_number("Basic {P} Energy sve 5"),
            Some(("Basic {P} Energy", "sve", "5"))
        );
        assert_eq!(split_set_number("Basic {P} Energy"), None);
        assert_eq!(split_set_number("SSP 76"), None);
    }

    #[test]
    fn reads_headers_in_every_shape() {
        assert_eq!(header("Pokémon: 6"), Some("Pokémon"));
        assert_eq!(header("Total Cards: 60"), Some("Total Cards"));
        assert_eq!(header("MainDeck:"), Some("MainDeck"));
        assert_eq!(header("Main Deck (10)"), Some("Main Deck"));
        assert_eq!(header("4 Mew ex 30C 66"), None);
        assert_eq!(header("Charm"), None);
        assert_eq!(header(":"), None);
    }

    #[test]
    fn trims_and_orders_numbers() {
        assert_eq!(trim_number("042"), "42");
        assert_eq!(trim_number("007a"), "7a");
        assert_eq!(trim_number("000"), "0");
        assert_eq!(trim_number("TG05"), "TG05");
        let mut numbers = vec!["128", "TG05", "66", "5", "4"];
        numbers.sort_by_key(|n| number_order(n));
        assert_eq!(numbers, ["4", "5", "66", "128", "TG05"]);
    }
}
