//! JavaScript's value conversions on JSON values: `Number(v)`, `String(v)` for numbers and
//! booleans, `String.prototype.trim` and `String.prototype.slice` lengths.
//!
//! The normalization of script output (`super::dashboard`, `super::rule_result`) repairs what a
//! script returned the way the in-browser checker does it in JavaScript, so these follow the
//! ECMAScript definitions (ToNumber, StringToNumber, Number::toString, WhiteSpace and
//! LineTerminator) rather than Rust's own parsing and formatting. The values are JSON as
//! `JSON.stringify` wrote it: `undefined` and functions never reach here.

use serde_json::Value;

/// Returns `Number(value)`: ECMAScript ToNumber of a JSON value.
///
/// `null` is 0, booleans are 1 and 0, strings are parsed as by [`string_to_number`], objects
/// are `NaN` (`"[object Object]"`), and an array goes through its string form (its elements
/// joined with commas): `[]` is 0, `[5]` and `["5"]` are 5, `[null]` is 0, and any array of
/// two or more elements is `NaN` (the comma is never part of a number). The result may be
/// `NaN`, an infinity or `-0`, exactly as in JavaScript.
pub fn to_number(value: &Value) -> f64 {
    let mut value = value;
    loop {
        return match value {
            Value::Null => 0.0,
            Value::Bool(true) => 1.0,
            Value::Bool(false) => 0.0,
            Value::Number(number) => number.as_f64().unwrap_or(f64::NAN),
            Value::String(text) => string_to_number(text),
            Value::Object(_) => f64::NAN,
            Value::Array(items) => match items.as_slice() {
                [] => 0.0,
                // String([x]) is String(x) for a lone element, with null as "" (so 0); a
                // boolean's "true"/"false" is not a number.
                [Value::Null] => 0.0,
                [Value::Bool(_)] => f64::NAN,
                [Value::Number(number)] => number.as_f64().map_or(f64::NAN, |n| n + 0.0),
                [inner] => {
                    value = inner;
                    continue;
                }
                _ => f64::NAN,
            },
        };
    }
}

/// Returns `Number(text)` for a string: ECMAScript StringToNumber.
///
/// Surrounding JavaScript white space is ignored and an empty (or all white space) string is
/// 0. Accepted are decimal literals with an optional sign, fraction and exponent (`"-1.5e3"`,
/// `".5"`, `"5."`), `"Infinity"` with an optional sign, and unsigned `0x`/`0o`/`0b` integers of
/// any length. Anything else (`"12px"`, `"1_000"`, `"inf"`, `"NaN"`, `"-0x1"`) is `NaN`.
pub fn string_to_number(text: &str) -> f64 {
    let literal = trim(text);
    if literal.is_empty() {
        return 0.0;
    }
    let bytes = literal.as_bytes();
    if bytes.len() > 2 && bytes[0] == b'0' {
        let radix = match bytes[1] {
            b'x' | b'X' => Some(16),
            b'o' | b'O' => Some(8),
            b'b' | b'B' => Some(2),
            _ => None,
        };
        if let Some(radix) = radix {
            return radix_integer(&literal[2..], radix);
        }
    }
    let (negative, unsigned) = match bytes[0] {
        b'-' => (true, &literal[1..]),
        b'+' => (false, &literal[1..]),
        _ => (false, literal),
    };
    let magnitude = if unsigned == "Infinity" {
        f64::INFINITY
    } else if is_unsigned_decimal_literal(unsigned) {
        // The grammar check above leaves only forms Rust's correctly rounded parser accepts
        // too (it would also take "inf" and "nan", which JavaScript does not).
        unsigned.parse::<f64>().unwrap_or(f64::NAN)
    } else {
        f64::NAN
    };
    if negative { -magnitude } else { magnitude }
}

/// Tells whether `text` is a StrUnsignedDecimalLiteral other than `Infinity`: digits with an
/// optional fraction and exponent, at least one digit before the exponent.
fn is_unsigned_decimal_literal(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = 0;
    let integer_digits = count_digits(&bytes[at..]);
    at += integer_digits;
    let mut fraction_digits = 0;
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        fraction_digits = count_digits(&bytes[at..]);
        at += fraction_digits;
    }
    if integer_digits + fraction_digits == 0 {
        return false;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let exponent_digits = count_digits(&bytes[at..]);
        if exponent_digits == 0 {
            return false;
        }
        at += exponent_digits;
    }
    at == bytes.len()
}

fn count_digits(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .take_while(|byte| byte.is_ascii_digit())
        .count()
}

/// Returns the value of a `0x`/`0o`/`0b` literal's digits, rounded to the nearest double as
/// JavaScript does for any length: the first 64 significant bits are rounded together with a
/// sticky bit for the rest, then scaled by the power of two the rest stands for (exact).
fn radix_integer(digits: &str, radix: u32) -> f64 {
    let bits_per_digit = radix.trailing_zeros();
    let mut mantissa: u64 = 0;
    let mut mantissa_bits: u32 = 0;
    let mut dropped_bits: u64 = 0;
    let mut sticky = false;
    for ch in digits.chars() {
        let Some(digit) = ch.to_digit(radix) else {
            return f64::NAN;
        };
        for shift in (0..bits_per_digit).rev() {
            let bit = u64::from((digit >> shift) & 1);
            if mantissa_bits == 0 && bit == 0 {
                continue; // leading zero
            }
            if mantissa_bits < 64 {
                mantissa = (mantissa << 1) | bit;
                mantissa_bits += 1;
            } else {
                dropped_bits += 1;
                sticky |= bit == 1;
            }
        }
    }
    // `as` rounds a u64 to the nearest double (ties to even); with 64 bits kept, bit 0 lies
    // below the rounding position, so it can stand for every dropped bit.
    let rounded = (mantissa | u64::from(sticky)) as f64;
    if dropped_bits == 0 {
        return rounded;
    }
    // 2^1100 is already past the largest double, so a longer tail cannot change the result.
    let exponent = i32::try_from(dropped_bits.min(1100)).unwrap_or(1100);
    rounded * 2f64.powi(exponent)
}

/// Returns `String(number)`: ECMAScript Number::toString (`0.1`, `1e+21`, `-0` is `"0"`,
/// integers without `.0`, `NaN`, `Infinity`).
pub fn number_to_string(number: f64) -> String {
    ryu_js::Buffer::new().format(number).to_owned()
}

/// Returns the text a text field gets from a JSON value: a string as it is, a number or a
/// boolean as `String()` writes it, and empty text for anything else (`null`, an object, an
/// array, or no value at all).
pub fn to_text(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Number(number)) => number.as_f64().map(number_to_string).unwrap_or_default(),
        Some(Value::Bool(flag)) => flag.to_string(),
        Some(Value::Null | Value::Array(_) | Value::Object(_)) | None => String::new(),
    }
}

/// Tells whether `ch` is JavaScript white space or a line terminator, the characters
/// `String.prototype.trim` and StringToNumber strip.
///
/// This differs from [`char::is_whitespace`]: U+FEFF (byte order mark) is white space in
/// JavaScript, U+0085 (next line) is not.
pub fn is_whitespace(ch: char) -> bool {
    matches!(
        ch,
        '\u{0009}'
            | '\u{000A}'
            | '\u{000B}'
            | '\u{000C}'
            | '\u{000D}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// Returns `text.trim()` as JavaScript does it (see [`is_whitespace`]).
pub fn trim(text: &str) -> &str {
    text.trim_matches(is_whitespace)
}

/// Returns the length of `text` in UTF-16 code units, JavaScript's `text.length`.
pub fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// Cuts `text` to at most `max_units` UTF-16 code units, like JavaScript's
/// `text.slice(0, max_units)`.
///
/// Where the cut would split a surrogate pair (a character outside the Basic Multilingual
/// Plane, such as an emoji), the whole character is dropped: JavaScript would keep a lone
/// surrogate, which is not valid text here. The result is never longer than `max_units`.
pub fn truncate_utf16(text: &mut String, max_units: usize) {
    let mut units = 0;
    for (index, ch) in text.char_indices() {
        units += ch.len_utf16();
        if units > max_units {
            text.truncate(index);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn number(value: Value) -> f64 {
        to_number(&value)
    }

    #[test]
    fn converts_scalars_like_number() {
        assert_eq!(number(json!(null)), 0.0);
        assert_eq!(number(json!(true)), 1.0);
        assert_eq!(number(json!(false)), 0.0);
        assert_eq!(number(json!(3.5)), 3.5);
        assert_eq!(number(json!(-7)), -7.0);
        assert_eq!(number(json!(u64::MAX)), 18_446_744_073_709_551_616.0);
        assert!(number(json!({})).is_nan());
        assert!(number(json!({"valueOf": 3})).is_nan());
    }

    #[test]
    fn converts_arrays_through_their_string_form() {
        assert_eq!(number(json!([])), 0.0);
        assert_eq!(number(json!([5])), 5.0);
        assert_eq!(number(json!(["5"])), 5.0);
        assert_eq!(number(json!([" 0x1F "])), 31.0);
        assert_eq!(number(json!([null])), 0.0);
        assert_eq!(number(json!([[]])), 0.0);
        assert_eq!(number(json!([[[7.25]]])), 7.25);
        assert!(number(json!([1, 2])).is_nan());
        assert!(number(json!([null, null])).is_nan());
        assert!(number(json!([true])).is_nan());
        assert!(number(json!([{}])).is_nan());
        assert!(number(json!([[1, 2]])).is_nan());
    }

    #[test]
    fn parses_decimal_strings_like_javascript() {
        let cases: &[(&str, f64)] = &[
            ("", 0.0),
            ("   ", 0.0),
            ("\u{FEFF}\t\n 42 \u{2028}", 42.0),
            ("1", 1.0),
            ("+1", 1.0),
            ("-1.5", -1.5),
            (".5", 0.5),
            ("5.", 5.0),
            ("-.5e1", -5.0),
            ("1e3", 1000.0),
            ("1E+3", 1000.0),
            ("25e-1", 2.5),
            ("00012", 12.0),
            ("0.1", 0.1),
            ("1e400", f64::INFINITY),
            ("-1e400", f64::NEG_INFINITY),
            ("Infinity", f64::INFINITY),
            ("+Infinity", f64::INFINITY),
            ("-Infinity", f64::NEG_INFINITY),
            ("123456789012345678901234567890", 1.2345678901234568e29),
        ];
        for (text, expected) in cases {
            assert_eq!(string_to_number(text), *expected, "Number({text:?})");
        }
        assert!(string_to_number("-0").is_sign_negative());
    }

    #[test]
    fn parses_radix_strings_like_javascript() {
        let cases: &[(&str, f64)] = &[
            ("0x1F", 31.0),
            ("0X1f", 31.0),
            ("0o17", 15.0),
            ("0O17", 15.0),
            ("0b101", 5.0),
            ("0B101", 5.0),
            ("0x0", 0.0),
            ("0x00000000000000000000000000001", 1.0),
            // 2^53 + 1 rounds to even, 2^53 + 3 up.
            ("0x20000000000001", 9_007_199_254_740_992.0),
            ("0x20000000000003", 9_007_199_254_740_996.0),
            ("0xFFFFFFFFFFFFFFFF", 18_446_744_073_709_551_616.0),
            // 2^64 + 2^11 + 1 (past 64 bits): the sticky bit breaks the tie upwards.
            ("0x10000000000000801", 18_446_744_073_709_555_712.0),
            ("0x10000000000000800", 18_446_744_073_709_551_616.0),
        ];
        for (text, expected) in cases {
            assert_eq!(string_to_number(text), *expected, "Number({text:?})");
        }
        let huge = format!("0x{}", "F".repeat(300));
        assert_eq!(string_to_number(&huge), f64::INFINITY);
    }

    #[test]
    fn rejects_what_javascript_does_not_parse() {
        for text in [
            "12px",
            "1_000",
            "1,5",
            "inf",
            "infinity",
            "Infinity1",
            "NaN",
            "nan",
            "-0x1",
            "+0x1",
            "0x",
            "0xG",
            "0b2",
            "0o8",
            ".",
            "-",
            "+",
            "e5",
            "1e",
            "1e+",
            "1.2.3",
            "--1",
            "0x1.5",
            " 1 2 ",
            "\u{0085}1",
            "١",
        ] {
            assert!(
                string_to_number(text).is_nan(),
                "Number({text:?}) should be NaN"
            );
        }
    }

    #[test]
    fn writes_numbers_like_javascript() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-42.0, "-42"),
            (0.1, "0.1"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1.5, "1.5"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (0.000001, "0.000001"),
            (123_456_789_012_345_680_000.0, "123456789012345680000"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
        ];
        for (value, expected) in cases {
            assert_eq!(number_to_string(*value), *expected);
        }
    }

    #[test]
    fn converts_to_text_like_string() {
        assert_eq!(to_text(Some(&json!("as is "))), "as is ");
        assert_eq!(to_text(Some(&json!(3))), "3");
        assert_eq!(to_text(Some(&json!(2.50))), "2.5");
        assert_eq!(to_text(Some(&json!(1e21))), "1e+21");
        assert_eq!(to_text(Some(&json!(true))), "true");
        assert_eq!(to_text(Some(&json!(false))), "false");
        assert_eq!(to_text(Some(&json!(null))), "");
        assert_eq!(to_text(Some(&json!([1]))), "");
        assert_eq!(to_text(Some(&json!({"a": 1}))), "");
        assert_eq!(to_text(None), "");
    }

    #[test]
    fn trims_javascript_white_space_only() {
        assert_eq!(trim("\u{FEFF}\u{00A0} text \u{3000}\r\n"), "text");
        assert_eq!(trim("\u{0085}text"), "\u{0085}text");
        assert_eq!(trim("\u{200B}text"), "\u{200B}text");
    }

    #[test]
    fn truncates_by_utf16_code_units() {
        let mut text = "abcdef".to_owned();
        truncate_utf16(&mut text, 3);
        assert_eq!(text, "abc");

        let mut exact = "abc".to_owned();
        truncate_utf16(&mut exact, 3);
        assert_eq!(exact, "abc");

        // "é" is one unit, "😀" two.
        let mut accents = "ééé".to_owned();
        truncate_utf16(&mut accents, 2);
        assert_eq!(accents, "éé");

        let mut emoji = "a😀b".to_owned();
        truncate_utf16(&mut emoji, 3);
        assert_eq!(emoji, "a😀");
        let mut split = "a😀b".to_owned();
        truncate_utf16(&mut split, 2);
        assert_eq!(split, "a");
        assert_eq!(utf16_len("a😀b"), 4);
    }
}
