//! The one error type of the deck-code codecs.

/// What is wrong with a deck code, or with a deck that cannot be written as one.
///
/// Offsets count bytes after base32 decoding, from 0 (the format and version byte).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeckCodeError {
    /// The code is empty or only whitespace.
    #[error("deck code is empty")]
    Empty,
    /// A character outside the base32 alphabet (`A`–`Z`, `2`–`7`).
    #[error("deck code is not base32: `{character}` at character {position}")]
    InvalidBase32 {
        /// The offending character.
        character: char,
        /// Its position in the code, counting characters from 0.
        position: usize,
    },
    /// The code ends in the middle of a varint (its last byte has the continuation bit set).
    #[error("deck code ends inside a varint that starts at byte {offset}")]
    TruncatedVarint {
        /// Where the varint starts.
        offset: usize,
    },
    /// A varint with more significant bits than a 64-bit integer holds.
    #[error("varint at byte {offset} is longer than 64 bits")]
    VarintTooLong {
        /// Where the varint starts.
        offset: usize,
    },
    /// The code ends where another field was due.
    #[error("deck code ends at byte {offset}, where the {expected} was due")]
    UnexpectedEnd {
        /// The field that was due.
        expected: &'static str,
        /// The length of the decoded code.
        offset: usize,
    },
    /// The high four bits of the first byte are not 1, the only format either game defines.
    #[error("deck code format {0} is unknown: only format 1 exists")]
    UnknownFormat(u8),
    /// A version this library does not know: 0, or newer than the newest it reads.
    #[error("deck code version {version} is not supported: known versions are 1 to {newest}")]
    UnknownVersion {
        /// The version asked for or found in the code.
        version: u8,
        /// The newest version this library reads and writes.
        newest: u8,
    },
    /// An encoder was asked for a version too old to carry the deck exactly.
    #[error("version {requested} cannot carry this deck: {reason} needs version {required}")]
    VersionTooLow {
        /// The version asked for.
        requested: u8,
        /// The lowest version that carries the deck.
        required: u8,
        /// What in the deck needs the newer version.
        reason: &'static str,
    },
    /// A copy count of 0, or one that does not fit the `count` field.
    #[error("copy count {count} is out of range: a deck code carries 1 to 4294967295 copies")]
    CountOutOfRange {
        /// The count found.
        count: u64,
    },
    /// A deck given to an encoder lists a card with no copies.
    #[error("`{card}` has 0 copies: a deck code carries 1 or more")]
    ZeroCount {
        /// The card code.
        card: String,
    },
    /// A Legends of Runeterra faction id missing from the faction table.
    #[error("faction id {0} is not a known Legends of Runeterra region")]
    UnknownFaction(u64),
    /// A Legends of Runeterra card code whose two faction letters are not a known region.
    #[error("faction `{0}` is not a known Legends of Runeterra region")]
    UnknownFactionCode(String),
    /// A Riftbound set id missing from the set table.
    #[error("set id {0} is not a known Riftbound set")]
    UnknownSet(u64),
    /// A Riftbound card code whose set is not in the set table.
    #[error("set `{0}` is not a known Riftbound set")]
    UnknownSetCode(String),
    /// A Riftbound variant id missing from the variant table.
    #[error("variant id {0} is not a known Riftbound variant")]
    UnknownVariant(u8),
    /// A Riftbound card code whose variant letter is not in the variant table.
    #[error("variant `{0}` is not a known Riftbound variant")]
    UnknownVariantSuffix(char),
    /// A per-card number flag other than normal (0), rune (1) or, from version 5, special (2).
    #[error("card number flag {flag} at byte {offset} is not known in version {version}")]
    UnknownNumberPrefix {
        /// The flag byte.
        flag: u8,
        /// Where it is.
        offset: usize,
        /// The code's version, which decides the flags allowed.
        version: u8,
    },
    /// A Riftbound version 5+ deck-level prefix byte other than 0 or 1.
    #[error("deck prefix flag {0} is neither 0 (no prefixed numbers) nor 1 (flagged numbers)")]
    UnknownDeckPrefixFlag(u8),
    /// A Riftbound chosen-champion marker other than 0 (none) or 1 (a card follows).
    #[error("chosen-champion marker {0} is neither 0 (none) nor 1 (a card follows)")]
    UnknownChampionMarker(u8),
    /// A number too large for the card-code text it would become.
    #[error("{field} {value} is out of range")]
    FieldOutOfRange {
        /// The field, e.g. `card number`.
        field: &'static str,
        /// The value read.
        value: u64,
    },
    /// Bytes left over after the last field of the code.
    #[error("deck code has {count} unused trailing bytes from byte {offset}")]
    TrailingBytes {
        /// How many bytes are left.
        count: usize,
        /// Where they start.
        offset: usize,
    },
    /// Text that is not a card code of the game.
    #[error("`{0}` is not a card code")]
    InvalidCardCode(String),
}
