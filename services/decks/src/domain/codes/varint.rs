//! LEB128 varints (low seven bits first, high bit set while more bytes follow) and a reader
//! over a decoded code that turns every short read into a [`DeckCodeError`].
//!
//! Both deck codes use this varint, although the Piltover Archive prose calls it "big endian".

use super::DeckCodeError;

/// Appends `value` as an LEB128 varint.
pub fn write(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let low = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

/// A cursor over the bytes of a decoded deck code.
///
/// Every read names the field it expects, so a short code says which field is missing.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl<'a> Reader<'a> {
    /// Starts reading at the first byte.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, offset: 0 }
    }

    /// Returns the offset of the next unread byte.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Returns whether every byte has been read.
    pub fn is_at_end(&self) -> bool {
        self.offset >= self.bytes.len()
    }

    /// Reads one raw byte.
    pub fn byte(&mut self, expected: &'static str) -> Result<u8, DeckCodeError> {
        let byte = *self
            .bytes
            .get(self.offset)
            .ok_or(DeckCodeError::UnexpectedEnd {
                expected,
                offset: self.offset,
            })?;
        self.offset += 1;
        Ok(byte)
    }

    /// Reads one varint.
    ///
    /// Fails with [`DeckCodeError::UnexpectedEnd`] when no byte is left,
    /// [`DeckCodeError::TruncatedVarint`] when the code ends inside the varint and
    /// [`DeckCodeError::VarintTooLong`] when it does not fit in 64 bits.
    pub fn varint(&mut self, expected: &'static str) -> Result<u64, DeckCodeError> {
        let start = self.offset;
        if self.is_at_end() {
            return Err(DeckCodeError::UnexpectedEnd {
                expected,
                offset: start,
            });
        }
        let mut value: u64 = 0;
        let mut shift = 0u32;
        loop {
            let byte = *self
                .bytes
                .get(self.offset)
                .ok_or(DeckCodeError::TruncatedVarint { offset: start })?;
            self.offset += 1;
            let low = u64::from(byte & 0x7f);
            // The tenth byte may only carry the single top bit of a u64.
            if (shift == 63 && low > 1) || shift > 63 {
                return Err(DeckCodeError::VarintTooLong { offset: start });
            }
            value |= low << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
        }
    }

    /// Fails with [`DeckCodeError::TrailingBytes`] unless every byte has been read.
    pub fn finish(&self) -> Result<(), DeckCodeError> {
        if self.is_at_end() {
            Ok(())
        } else {
            Err(DeckCodeError::TrailingBytes {
                count: self.bytes.len() - self.offset,
                offset: self.offset,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn encoded(value: u64) -> Vec<u8> {
        let mut out = Vec::new();
        write(&mut out, value);
        out
    }

    #[test]
    fn writes_the_low_seven_bits_first() {
        assert_eq!(encoded(0), [0]);
        assert_eq!(encoded(127), [0x7f]);
        assert_eq!(encoded(128), [0x80, 0x01]);
        assert_eq!(encoded(280), [0x98, 0x02]);
        assert_eq!(encoded(u64::MAX).len(), 10);
    }

    #[test]
    fn reports_a_varint_cut_off_by_the_end_of_the_code() {
        let mut reader = Reader::new(&[0x05, 0x80, 0x80]);
        assert_eq!(reader.varint("count"), Ok(5));
        assert_eq!(
            reader.varint("count"),
            Err(DeckCodeError::TruncatedVarint { offset: 1 })
        );
    }

    #[test]
    fn reports_the_missing_field_when_the_code_ends_between_fields() {
        let mut reader = Reader::new(&[]);
        assert_eq!(
            reader.varint("card number"),
            Err(DeckCodeError::UnexpectedEnd {
                expected: "card number",
                offset: 0
            })
        );
        assert_eq!(
            reader.byte("set"),
            Err(DeckCodeError::UnexpectedEnd {
                expected: "set",
                offset: 0
            })
        );
    }

    #[test]
    fn rejects_a_varint_longer_than_64_bits() {
        let mut too_long = vec![0xff; 10];
        too_long.push(0x01);
        assert_eq!(
            Reader::new(&too_long).varint("count"),
            Err(DeckCodeError::VarintTooLong { offset: 0 })
        );
        let mut top_bit_too_many = vec![0xff; 9];
        top_bit_too_many.push(0x02);
        assert_eq!(
            Reader::new(&top_bit_too_many).varint("count"),
            Err(DeckCodeError::VarintTooLong { offset: 0 })
        );
    }

    #[test]
    fn reports_unread_bytes_as_trailing() {
        let mut reader = Reader::new(&[1, 2, 3]);
        assert_eq!(reader.byte("header"), Ok(1));
        assert_eq!(
            reader.finish(),
            Err(DeckCodeError::TrailingBytes {
                count: 2,
                offset: 1
            })
        );
    }

    proptest! {
        #[test]
        fn reading_what_was_written_gives_the_same_value(value in any::<u64>()) {
            let bytes = encoded(value);
            let mut reader = Reader::new(&bytes);
            prop_assert_eq!(reader.varint("value")?, value);
            prop_assert!(reader.is_at_end());
        }
    }
}
