//! Base32 (RFC 4648 alphabet) without padding, as both deck codes write it.
//!
//! Decoding is forgiving where it costs nothing: lower-case letters are read as upper case,
//! surrounding whitespace and trailing `=` padding are dropped, and the unused low bits of the
//! last character are ignored, as the reference libraries do.

use super::DeckCodeError;

const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// Encodes bytes as upper-case base32 without `=` padding.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity((bytes.len() * 8).div_ceil(5));
    let mut buffer: u16 = 0;
    let mut bits = 0u32;
    for &byte in bytes {
        buffer = (buffer << 8) | u16::from(byte);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(char::from(ALPHABET[usize::from((buffer >> bits) & 0x1f)]));
        }
        // Only the `bits` low bits are still unread; dropping the rest keeps the shift in range.
        buffer &= (1 << bits) - 1;
    }
    if bits > 0 {
        out.push(char::from(
            ALPHABET[usize::from((buffer << (5 - bits)) & 0x1f)],
        ));
    }
    out
}

/// Decodes base32 text into bytes.
///
/// Fails with [`DeckCodeError::Empty`] when nothing is left after trimming, and with
/// [`DeckCodeError::InvalidBase32`] at the first character outside the alphabet.
pub fn decode(text: &str) -> Result<Vec<u8>, DeckCodeError> {
    let text = text.trim().trim_end_matches('=');
    if text.is_empty() {
        return Err(DeckCodeError::Empty);
    }
    let mut out = Vec::with_capacity(text.len() * 5 / 8);
    let mut buffer: u16 = 0;
    let mut bits = 0u32;
    for (position, character) in text.chars().enumerate() {
        let value = match character.to_ascii_uppercase() {
            c @ 'A'..='Z' => c as u8 - b'A',
            c @ '2'..='7' => c as u8 - b'2' + 26,
            _ => {
                return Err(DeckCodeError::InvalidBase32 {
                    character,
                    position,
                });
            }
        };
        buffer = (buffer << 5) | u16::from(value);
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push(((buffer >> bits) & 0xff) as u8);
        }
        buffer &= (1 << bits) - 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn encodes_the_rfc_4648_test_vectors_without_padding() {
        let cases: [(&[u8], &str); 7] = [
            (b"", ""),
            (b"f", "MY"),
            (b"fo", "MZXQ"),
            (b"foo", "MZXW6"),
            (b"foob", "MZXW6YQ"),
            (b"fooba", "MZXW6YTB"),
            (b"foobar", "MZXW6YTBOI"),
        ];
        for (bytes, text) in cases {
            assert_eq!(encode(bytes), text);
            if !bytes.is_empty() {
                assert_eq!(decode(text).expect("valid base32"), bytes);
            }
        }
    }

    #[test]
    fn reads_lower_case_padding_and_surrounding_whitespace() {
        assert_eq!(decode("  mzxw6yq=\n").expect("valid base32"), b"foob");
    }

    #[test]
    fn rejects_empty_text() {
        assert_eq!(decode(""), Err(DeckCodeError::Empty));
        assert_eq!(decode("  \t"), Err(DeckCodeError::Empty));
    }

    #[test]
    fn rejects_a_character_outside_the_alphabet_and_says_where() {
        assert_eq!(
            decode("MZ1W"),
            Err(DeckCodeError::InvalidBase32 {
                character: '1',
                position: 2
            })
        );
        assert_eq!(
            decode("I'm no card code!"),
            Err(DeckCodeError::InvalidBase32 {
                character: '\'',
                position: 1
            })
        );
    }

    proptest! {
        #[test]
        fn decoding_what_was_encoded_gives_the_same_bytes(bytes in proptest::collection::vec(any::<u8>(), 1..200)) {
            prop_assert_eq!(decode(&encode(&bytes))?, bytes);
        }

        #[test]
        fn decoding_any_text_never_panics(text in ".*") {
            let _ = decode(&text);
        }
    }
}
