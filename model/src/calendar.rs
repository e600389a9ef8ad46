//! The proleptic Gregorian calendar: day numbers from and to dates, and an instant in RFC 3339.
//!
//! The "days from civil" algorithm, exact for every `i64` millisecond value whose year fits in an
//! `i64` (no clock is read here). A reading for people rather than a Kafka rule, but in this crate
//! because the runner names instants in its messages (a clock that would move backwards);
//! `logtime-core`'s `human` builds its dates and its RFC 3339 parser on it.

/// Days since 1970-01-01 for a proleptic Gregorian date.
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day number.
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Formats epoch milliseconds as RFC 3339 UTC, e.g. `2027-03-12T09:00:00Z` (milliseconds shown
/// only when non-zero).
pub fn rfc3339(ms: i64) -> String {
    let (days, rem) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (y, mo, d) = civil_from_days(days);
    let (h, mi, s, milli) = (
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000,
    );
    let year = if (0..=9999).contains(&y) {
        format!("{y:04}")
    } else {
        format!("{y:+}")
    };
    if milli == 0 {
        format!("{year}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
    } else {
        format!("{year}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}Z")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_in_rfc3339() {
        assert_eq!(rfc3339(1_804_842_000_000), "2027-03-12T09:00:00Z");
        assert_eq!(rfc3339(500), "1970-01-01T00:00:00.500Z");
        assert_eq!(rfc3339(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(days_from_civil(2027, 3, 12), 20_889);
        assert_eq!(civil_from_days(20_889), (2027, 3, 12));
        // Years beyond four digits carry a sign rather than panicking.
        let _ = rfc3339(i64::MAX);
        let _ = rfc3339(i64::MIN);
    }
}
