//! Days: the dates taboo lists take effect on, and the day a deck is checked on.
//!
//! A day is a calendar date, kept at midnight UTC (`spec/formats-and-rules.md`, "Taboo lists").
//! The day of a moment is its date in the moment's own time zone, so 22:00 on 30 September in
//! Montréal is 30 September although it is already 1 October in UTC.

use std::fmt;

use jiff::ZonedDateTime;
use jiff::civil::Date;
use jiff::fmt::temporal::Pieces;
use jiff::tz::TimeZone;
use serde::{Serialize, Serializer};

/// A calendar date, written `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(Date);

/// Refuses a text that is not a moment with a UTC offset or a time zone.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid moment `{text}`: expected a date and time with a UTC offset, like 2026-10-02T09:00:00-04:00"
)]
pub struct InvalidMoment {
    text: String,
}

/// Refuses a calendar date outside the years 1 to 9999, which `YYYY-MM-DD` cannot write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("day {0} is outside the years 1 to 9999")]
pub struct DayOutOfRange(Date);

impl TryFrom<Date> for Day {
    type Error = DayOutOfRange;

    /// Returns the day of a calendar date of the years 1 to 9999.
    fn try_from(date: Date) -> Result<Self, DayOutOfRange> {
        // Only these years are written with four digits, so only they read back the same.
        if (1..=9999).contains(&date.year()) {
            Ok(Self(date))
        } else {
            Err(DayOutOfRange(date))
        }
    }
}

impl Day {
    /// Parses a day written exactly `YYYY-MM-DD`, refusing any other spelling of a date.
    pub fn parse(text: &str) -> Option<Self> {
        // Only the one spelling `to_string` writes is read, so writing then reading is the
        // identity and `2026-1-1` or `+002026-01-01` are not silently accepted.
        let bytes = text.as_bytes();
        let digits = |range: std::ops::Range<usize>| -> Option<i16> {
            let part = bytes.get(range)?;
            if !part.iter().all(u8::is_ascii_digit) {
                return None;
            }
            part.iter().try_fold(0_i16, |n, b| {
                n.checked_mul(10)?.checked_add(i16::from(b - b'0'))
            })
        };
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return None;
        }
        let year = digits(0..4).filter(|&y| y >= 1)?;
        let month = i8::try_from(digits(5..7)?).ok()?;
        let day = i8::try_from(digits(8..10)?).ok()?;
        Date::new(year, month, day).ok().map(Self)
    }

    /// Returns the day of `moment`, taken in the moment's own time zone.
    ///
    /// The day may fall outside the years 1 to 9999 that a taboo list's day can have; it is
    /// only compared with those, never written.
    pub fn of(moment: &ZonedDateTime) -> Self {
        Self(moment.date())
    }

    /// Returns the calendar date of this day.
    pub fn date(self) -> Date {
        self.0
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Days made by `parse` or `TryFrom` have years 1 to 9999, so four digits suffice; jiff's
        // own Display would write a sign and six digits for the others.
        write!(
            f,
            "{:04}-{:02}-{:02}",
            self.0.year(),
            self.0.month(),
            self.0.day()
        )
    }
}

impl Serialize for Day {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Parses a moment: an RFC 3339 date and time with a UTC offset
/// (`2026-10-02T09:00:00-04:00`), optionally followed by a time zone in brackets
/// (`2026-09-30T22:00:00-04:00[America/Montreal]`).
///
/// Without a bracketed zone the moment keeps its offset as a fixed time zone, so its day is the
/// date written in it.
pub fn parse_moment(text: &str) -> Result<ZonedDateTime, InvalidMoment> {
    let invalid = || InvalidMoment {
        text: text.to_owned(),
    };
    let pieces = Pieces::parse(text).map_err(|_| invalid())?;
    if pieces.time_zone_annotation().is_some() {
        return text.parse::<ZonedDateTime>().map_err(|_| invalid());
    }
    let offset = pieces.to_numeric_offset().ok_or_else(invalid)?;
    let timestamp: jiff::Timestamp = text.parse().map_err(|_| invalid())?;
    Ok(timestamp.to_zoned_datetime(TimeZone::fixed(offset)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> Day {
        Day::parse(text).expect("a valid day")
    }

    #[test]
    fn a_day_is_written_and_read_as_yyyy_mm_dd() {
        assert_eq!(day("2026-10-01").to_string(), "2026-10-01");
        assert_eq!(day("0001-01-01").to_string(), "0001-01-01");
        assert_eq!(day("2028-02-29").to_string(), "2028-02-29");
    }

    #[test]
    fn a_day_refuses_other_spellings_and_dates_that_do_not_exist() {
        for bad in [
            "2026-1-01",
            "2026-10-1",
            "26-10-01",
            "+002026-10-01",
            "2026-10-01T00:00:00Z",
            "2026/10/01",
            "2026-13-01",
            "2026-02-29",
            "2026-00-10",
            "2026-10-00",
            "0000-01-01",
            "",
            "２０２６-10-01",
        ] {
            assert_eq!(Day::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_day_is_made_only_of_a_date_of_the_years_1_to_9999() {
        let date = |year| jiff::civil::Date::new(year, 1, 1).expect("a date");
        assert!(Day::try_from(date(1)).is_ok());
        assert!(Day::try_from(date(9999)).is_ok());
        assert!(Day::try_from(date(0)).is_err());
        assert!(Day::try_from(date(-1)).is_err());
    }

    #[test]
    fn twenty_two_hours_on_30_september_in_montreal_is_still_30_september() {
        let moment = parse_moment("2026-09-30T22:00:00-04:00").expect("a moment");
        assert_eq!(moment.timestamp().to_string(), "2026-10-01T02:00:00Z");
        assert_eq!(Day::of(&moment), day("2026-09-30"));
    }

    #[test]
    fn a_moment_in_the_named_montreal_time_zone_is_taken_on_its_local_day() {
        // Reads America/Montreal from the time zone database jiff finds on the system.
        let moment = parse_moment("2026-09-30T22:00:00-04:00[America/Montreal]").expect("a moment");
        assert_eq!(Day::of(&moment), day("2026-09-30"));
    }

    #[test]
    fn the_same_instant_in_utc_is_already_1_october() {
        let moment = parse_moment("2026-10-01T02:00:00Z").expect("a moment");
        assert_eq!(Day::of(&moment), day("2026-10-01"));
    }

    #[test]
    fn a_moment_without_an_offset_is_refused() {
        assert!(parse_moment("2026-10-02T09:00:00").is_err());
        assert!(parse_moment("2026-10-02").is_err());
        assert!(parse_moment("tomorrow").is_err());
    }
}
