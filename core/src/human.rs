//! Readings for people: durations, byte counts and UTC dates, plus RFC 3339 parsing.
//!
//! The calendar maths is `logtime_model::calendar` (the runner's messages name instants in
//! RFC 3339 too); no clock is read here.

use logtime_model::calendar::{civil_from_days, days_from_civil};

/// An instant in RFC 3339, `2027-03-12T09:00:00Z`: the model's calendar
/// ([`logtime_model::calendar::rfc3339`]), the one reading of this module the runner needs too.
pub use logtime_model::calendar::rfc3339;

/// Formats a millisecond duration compactly: `500 ms`, `90 s`, `5 min`, `1 h`, `7 d`, `3 y 12 d`.
/// Years are 365 days, as in scenario durations.
pub fn duration(ms: i64) -> String {
    if ms == i64::MAX {
        return "Long.MAX (no limit)".into();
    }
    let sign = if ms < 0 { "-" } else { "" };
    let a = ms.unsigned_abs();
    const S: u64 = 1000;
    const M: u64 = 60 * S;
    const H: u64 = 60 * M;
    const D: u64 = 24 * H;
    const Y: u64 = 365 * D;
    let parts: [(u64, &str); 6] = [
        (Y, "y"),
        (D, "d"),
        (H, "h"),
        (M, "min"),
        (S, "s"),
        (1, "ms"),
    ];
    let mut out = Vec::new();
    let mut rest = a;
    for (unit, name) in parts {
        if rest >= unit {
            out.push(format!("{} {name}", rest / unit));
            rest %= unit;
        }
        if out.len() == 2 {
            break;
        }
    }
    if out.is_empty() {
        return "0 ms".into();
    }
    format!("{sign}{}", out.join(" "))
}

/// One decimal of `a / u`, rounded half up, without a trailing `.0`: `3`, `1.5`, `12`.
/// Integer arithmetic only: float formatting would add its tables to the wasm.
fn tenths(a: u64, u: u64) -> String {
    let t = (a as u128 * 10 + u as u128 / 2) / u as u128;
    if t.is_multiple_of(10) {
        format!("{}", t / 10)
    } else {
        format!("{}.{}", t / 10, t % 10)
    }
}

/// Formats a duration as one rounded figure: `3 y`, `1.5 h`, `10 min` (callers add "about").
pub fn approx_duration(ms: i64) -> String {
    let a = ms.unsigned_abs();
    const UNITS: [(u64, &str); 5] = [
        (365 * 86_400_000, "y"),
        (86_400_000, "d"),
        (3_600_000, "h"),
        (60_000, "min"),
        (1000, "s"),
    ];
    for (u, name) in UNITS {
        if a >= u {
            let whole = if a / u >= 10 {
                ((a as u128 + u as u128 / 2) / u as u128).to_string()
            } else {
                tenths(a, u)
            };
            return format!("{whole} {name}");
        }
    }
    format!("{a} ms")
}

/// Formats a byte count: `1 GiB`, `1.5 MiB`, `4096 B` stays exact below 10 KiB.
pub fn bytes(n: i64) -> String {
    if n < 0 {
        return format!("{n} (no limit)");
    }
    let units = [
        (1u64 << 40, "TiB"),
        (1 << 30, "GiB"),
        (1 << 20, "MiB"),
        (1 << 10, "KiB"),
    ];
    let a = n as u64;
    for (u, name) in units {
        if a >= u && (a >= 10 * 1024 || a.is_multiple_of(u)) {
            return format!("{} {name}", tenths(a, u));
        }
    }
    format!("{n} B")
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Formats epoch milliseconds for people, in UTC: `12 Mar 2027 09:00` (seconds when non-zero).
pub fn date(ms: i64) -> String {
    let (days, rem) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (y, mo, d) = civil_from_days(days);
    let (h, mi, s) = (rem / 3_600_000, rem / 60_000 % 60, rem / 1000 % 60);
    if s == 0 && rem % 1000 == 0 {
        format!("{d} {} {y} {h:02}:{mi:02}", MONTHS[mo as usize - 1])
    } else {
        format!("{d} {} {y} {h:02}:{mi:02}:{s:02}", MONTHS[mo as usize - 1])
    }
}

/// Formats epoch milliseconds to the minute (seconds and milliseconds dropped), in UTC:
/// `21 Mar 2030 11:20`.
pub fn date_minute(ms: i64) -> String {
    date(ms - ms.rem_euclid(60_000))
}

/// `10:00:09`: the time of day, UTC.
pub fn time_of_day(ms: i64) -> String {
    let rem = ms.rem_euclid(86_400_000);
    format!(
        "{:02}:{:02}:{:02}",
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60
    )
}

/// An age against the broker clock: `11 d 9 h old`, `3 y in the future`.
pub fn age(age_ms: i64) -> String {
    if age_ms < 0 {
        format!("{} in the future", duration(age_ms.wrapping_neg()))
    } else {
        format!("{} old", duration(age_ms))
    }
}

/// Parses an RFC 3339 date-time (`2027-03-12T09:00:00Z`, `2027-03-12T09:00:00.250+01:00`, a space
/// instead of `T` also accepted) into epoch milliseconds. Fractions beyond milliseconds are
/// truncated. Returns a lowercase reason on failure.
pub fn parse_rfc3339(s: &str) -> Result<i64, String> {
    let b = s.trim().as_bytes();
    let num = |r: std::ops::Range<usize>| digits(b, r);
    if b.len() < 20 {
        return Err("too short for yyyy-mm-ddThh:mm:ssZ".into());
    }
    let sep = |i: usize, c: &[u8]| -> Result<(), String> {
        if c.contains(&b[i]) {
            Ok(())
        } else {
            Err(format!("expected '{}' at position {}", c[0] as char, i + 1))
        }
    };
    sep(4, b"-")?;
    sep(7, b"-")?;
    sep(10, b"Tt ")?;
    sep(13, b":")?;
    sep(16, b":")?;
    let (y, mo, d, h, mi, sec) = (
        num(0..4)?,
        num(5..7)?,
        num(8..10)?,
        num(11..13)?,
        num(14..16)?,
        num(17..19)?,
    );
    check_date_time(y, mo, d, (h, mi, sec))?;
    let (milli, i) = fraction(b, 19)?;
    let offset_min = utc_offset(b, i)?;
    let days = days_from_civil(y, mo as u32, d as u32);
    Ok(
        days * 86_400_000 + h * 3_600_000 + mi * 60_000 + sec.min(59) * 1000 + milli
            - offset_min * 60_000,
    )
}

/// The number written in `b[r]`, all digits; the error names the field's first position.
fn digits(b: &[u8], r: std::ops::Range<usize>) -> Result<i64, String> {
    let part = b
        .get(r.clone())
        .ok_or("too short for yyyy-mm-ddThh:mm:ssZ")?;
    if part.iter().all(u8::is_ascii_digit) {
        Ok(part.iter().fold(0i64, |a, d| a * 10 + (d - b'0') as i64))
    } else {
        Err(format!("expected digits at position {}", r.start + 1))
    }
}

/// Whether the month, the day (in that month of that year) and the time of day exist; a leap
/// second (`:60`) is let through.
fn check_date_time(y: i64, mo: i64, d: i64, (h, mi, sec): (i64, i64, i64)) -> Result<(), String> {
    if !(1..=12).contains(&mo) {
        return Err(format!("month {mo} is not 1 to 12"));
    }
    let dim = [
        31,
        if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 {
            29
        } else {
            28
        },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if d < 1 || d > dim[mo as usize - 1] {
        return Err(format!("day {d} does not exist in month {mo}"));
    }
    if h > 23 || mi > 59 || sec > 60 {
        return Err("time of day out of range".into());
    }
    Ok(())
}

/// The optional fraction of a second at `b[i]` (`.250`), as milliseconds (digits beyond the
/// third truncated), and where the text after it starts.
fn fraction(b: &[u8], mut i: usize) -> Result<(i64, usize), String> {
    let mut milli = 0i64;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            if i - start < 3 {
                milli = milli * 10 + (b[i] - b'0') as i64;
            }
            i += 1;
        }
        if i == start {
            return Err("expected digits after '.'".into());
        }
        for _ in (i - start).min(3)..3 {
            milli *= 10;
        }
    }
    Ok((milli, i))
}

/// The UTC offset that ends the text at `b[i]` (`Z` or `±hh:mm`), in minutes east of UTC.
fn utc_offset(b: &[u8], i: usize) -> Result<i64, String> {
    Ok(match b.get(i) {
        Some(b'Z') | Some(b'z') if i + 1 == b.len() => 0,
        Some(c @ (b'+' | b'-')) if i + 6 == b.len() && b[i + 3] == b':' => {
            let (oh, om) = (digits(b, i + 1..i + 3)?, digits(b, i + 4..i + 6)?);
            // RFC 3339's time-offset: hours 00-23, minutes 00-59.
            if oh > 23 || om > 59 {
                return Err(format!(
                    "UTC offset {} is out of range (hours 00 to 23, minutes 00 to 59)",
                    std::str::from_utf8(&b[i..i + 6]).unwrap_or("?")
                ));
            }
            let m = oh * 60 + om;
            if *c == b'+' {
                m
            } else {
                -m
            }
        }
        _ => return Err("expected 'Z' or an offset like +01:00 after the time".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip() {
        let t = parse_rfc3339("2027-03-12T09:00:00Z").unwrap();
        assert_eq!(rfc3339(t), "2027-03-12T09:00:00Z");
        assert_eq!(date(t), "12 Mar 2027 09:00");
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00.5Z"), Ok(500));
        assert_eq!(parse_rfc3339("1970-01-01T01:00:00+01:00"), Ok(0));
        assert_eq!(
            parse_rfc3339("2027-03-12T09:00:00+25:00"),
            Err("UTC offset +25:00 is out of range (hours 00 to 23, minutes 00 to 59)".into())
        );
        assert!(parse_rfc3339("2027-03-12T09:00:00-01:60").is_err());
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00-23:59"), Ok(86_340_000));
        assert_eq!(rfc3339(-1), "1969-12-31T23:59:59.999Z");
        assert!(parse_rfc3339("2027-02-29T00:00:00Z").is_err());
        assert!(parse_rfc3339("yesterday").is_err());
        // Extremes do not panic.
        let _ = rfc3339(i64::MAX);
        let _ = rfc3339(i64::MIN);
        let _ = date(i64::MIN);
    }

    #[test]
    fn readings() {
        assert_eq!(duration(3_600_000), "1 h");
        assert_eq!(duration(604_800_000), "7 d");
        assert_eq!(duration(90_000), "1 min 30 s");
        assert_eq!(duration(i64::MIN), "-292471208 y 247 d");
        assert_eq!(approx_duration(3 * 365 * 86_400_000 + 5), "3 y");
        assert_eq!(bytes(1_073_741_824), "1 GiB");
        assert_eq!(bytes(4096), "4 KiB");
        assert_eq!(bytes(4000), "4000 B");
        assert_eq!(bytes(-1), "-1 (no limit)");
        assert_eq!(age(-3 * 365 * 86_400_000), "3 y in the future");
        assert_eq!(age((11 * 24 + 9) * 3_600_000), "11 d 9 h old");
        let t = parse_rfc3339("2030-03-21T11:20:00.001Z").unwrap();
        assert_eq!(date_minute(t), "21 Mar 2030 11:20");
        assert_eq!(
            time_of_day(parse_rfc3339("2025-11-04T10:00:09Z").unwrap()),
            "10:00:09"
        );
    }
}
