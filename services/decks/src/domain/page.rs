//! Pages of a listing (AIP-158): a page size brought into range, and an opaque token that
//! says where the next page starts.
//!
//! Listings are ordered by last change, newest first, then by id; a token holds the last
//! item's `(update time, id)`, so a page never repeats or skips an item that did not change
//! meanwhile, however many are added before it.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The page size when none is asked for.
pub const DEFAULT_PAGE_SIZE: usize = 50;
/// The largest page; a larger size is brought down to it (AIP-158).
pub const MAX_PAGE_SIZE: usize = 1_000;

/// Returns the page size for what was asked: 0 gives the default, more than the maximum gives
/// the maximum.
pub fn page_size(asked: u32) -> usize {
    match usize::try_from(asked) {
        Ok(0) => DEFAULT_PAGE_SIZE,
        Ok(size) => size.min(MAX_PAGE_SIZE),
        Err(_) => MAX_PAGE_SIZE,
    }
}

/// Where a page starts: after the item with this update time and id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    /// The last item's update time, unix milliseconds.
    pub update_millis: i64,
    /// The last item's id.
    pub id: String,
}

/// A page token that is not one this service wrote.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`pageToken` is not a token of this listing: give the `nextPageToken` of the last page")]
pub struct InvalidPageToken;

impl Cursor {
    /// Writes the token of the page after this item.
    pub fn to_token(&self) -> String {
        URL_SAFE_NO_PAD.encode(format!("1:{}:{}", self.update_millis, self.id))
    }

    /// Reads a token; an empty one is the first page (`None`).
    pub fn parse(token: &str) -> Result<Option<Cursor>, InvalidPageToken> {
        if token.is_empty() {
            return Ok(None);
        }
        let bytes = URL_SAFE_NO_PAD
            .decode(token)
            .map_err(|_| InvalidPageToken)?;
        let text = String::from_utf8(bytes).map_err(|_| InvalidPageToken)?;
        let mut parts = text.splitn(3, ':');
        let (Some("1"), Some(millis), Some(id)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(InvalidPageToken);
        };
        if id.is_empty() {
            return Err(InvalidPageToken);
        }
        Ok(Some(Cursor {
            update_millis: millis.parse().map_err(|_| InvalidPageToken)?,
            id: id.to_owned(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_size_of_zero_is_the_default_and_a_large_one_the_maximum() {
        assert_eq!(page_size(0), 50);
        assert_eq!(page_size(7), 7);
        assert_eq!(page_size(5_000), 1_000);
    }

    #[test]
    fn an_empty_token_is_the_first_page_and_a_foreign_one_is_refused() {
        assert_eq!(Cursor::parse(""), Ok(None));
        for token in [
            "x",
            "!!!",
            &URL_SAFE_NO_PAD.encode("2:1:a"),
            &URL_SAFE_NO_PAD.encode("1:x:a"),
            &URL_SAFE_NO_PAD.encode("1:5:"),
        ] {
            assert_eq!(Cursor::parse(token), Err(InvalidPageToken), "{token}");
        }
    }

    proptest! {
        #[test]
        fn a_token_reads_back_as_its_cursor(millis in any::<i64>(), id in "[a-z_0-9:]{1,40}") {
            let cursor = Cursor { update_millis: millis, id };
            prop_assert_eq!(Cursor::parse(&cursor.to_token()), Ok(Some(cursor)));
        }

        #[test]
        fn no_token_panics_the_reader(token in ".{0,80}") {
            let _ = Cursor::parse(&token);
        }
    }
}
