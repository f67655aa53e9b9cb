//! `google.protobuf.Timestamp` to and from `SystemTime`, and RFC 3339 text: how every time
//! crosses a boundary.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use pbjson_types::Timestamp;

/// Returns `time` as a protobuf timestamp (whole nanoseconds since the epoch).
pub fn to_proto(time: SystemTime) -> Timestamp {
    let (seconds, nanos) = match time.duration_since(UNIX_EPOCH) {
        Ok(since) => (since.as_secs() as i64, since.subsec_nanos() as i32),
        Err(before) => {
            let before = before.duration();
            let mut seconds = -(before.as_secs() as i64);
            let mut nanos = before.subsec_nanos() as i32;
            if nanos > 0 {
                seconds -= 1;
                nanos = 1_000_000_000 - nanos;
            }
            (seconds, nanos)
        }
    };
    Timestamp { seconds, nanos }
}

/// Returns the time a protobuf timestamp names, or `None` for one out of range (negative
/// nanos, or too far from the epoch for this platform).
pub fn from_proto(timestamp: &Timestamp) -> Option<SystemTime> {
    let nanos = u32::try_from(timestamp.nanos)
        .ok()
        .filter(|n| *n < 1_000_000_000)?;
    if timestamp.seconds >= 0 {
        UNIX_EPOCH.checked_add(Duration::new(timestamp.seconds as u64, nanos))
    } else {
        UNIX_EPOCH
            .checked_sub(Duration::from_secs(timestamp.seconds.unsigned_abs()))?
            .checked_add(Duration::from_nanos(u64::from(nanos)))
    }
}

/// Returns `time` in milliseconds since the epoch, as the stores keep times (`BIGINT`).
pub fn to_millis(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(since) => i64::try_from(since.as_millis()).unwrap_or(i64::MAX),
        Err(before) => -i64::try_from(before.duration().as_millis()).unwrap_or(i64::MAX),
    }
}

/// Returns the time `millis` milliseconds after the epoch.
pub fn from_millis(millis: i64) -> SystemTime {
    if millis >= 0 {
        UNIX_EPOCH + Duration::from_millis(millis as u64)
    } else {
        UNIX_EPOCH - Duration::from_millis(millis.unsigned_abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_round_trip_through_protobuf_and_millis() {
        for millis in [0_i64, 1, 1_764_633_600_123, -1, -86_400_001] {
            let time = from_millis(millis);
            assert_eq!(to_millis(time), millis);
            assert_eq!(from_proto(&to_proto(time)), Some(time), "{millis}");
        }
        let stamp = to_proto(from_millis(-1));
        assert_eq!((stamp.seconds, stamp.nanos), (-1, 999_000_000));
        assert_eq!(
            from_proto(&Timestamp {
                seconds: 0,
                nanos: -1
            }),
            None
        );
    }
}
