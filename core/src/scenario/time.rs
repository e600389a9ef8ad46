//! Time and duration forms of scenario files.
//!
//! * Durations: `500ms`, `90s`, `5m` (or `5min`), `1h`, `7d`, `2w`, `3y` (y = 365 d), and
//!   concatenations such as `1h30m`; a JSON integer is a number of milliseconds.
//! * Times: an integer (ms since the epoch; `-1` is NO_TIMESTAMP), an RFC 3339 string, `now`,
//!   `now+D` or `now-D`.

use super::{TimeSpec, UnitMistake};
use crate::human::parse_rfc3339;

const UNITS: &[(&str, i64)] = &[
    ("ms", 1),
    ("min", 60_000),
    ("s", 1000),
    ("m", 60_000),
    ("h", 3_600_000),
    ("d", 86_400_000),
    ("w", 7 * 86_400_000),
    ("y", 365 * 86_400_000),
];

/// Parses a duration string such as `90s`, `1h30m` or `-2d` into milliseconds. Returns a lowercase
/// reason on failure.
pub fn parse_duration(s: &str) -> Result<i64, String> {
    let t = s.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if body.is_empty() {
        return Err(format!("malformed duration {s:?}: expected a number and a unit, like 500ms, 90s, 5m, 1h, 7d or 3y"));
    }
    let b = body.as_bytes();
    let mut i = 0;
    let mut total: i64 = 0;
    while i < b.len() {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if start == i {
            return Err(format!(
                "malformed duration {s:?}: expected digits at {:?}",
                &body[start..]
            ));
        }
        let n: i64 = body[start..i]
            .parse()
            .map_err(|_| format!("duration {s:?} overflows 64-bit milliseconds"))?;
        let ustart = i;
        while i < b.len() && b[i].is_ascii_alphabetic() {
            i += 1;
        }
        let unit = &body[ustart..i];
        if unit.is_empty() {
            return Err(format!(
                "malformed duration {s:?}: missing unit after {n} (use ms, s, m, h, d, w or y)"
            ));
        }
        let mult = UNITS
            .iter()
            .find(|(name, _)| *name == unit)
            .map(|(_, m)| *m)
            .ok_or_else(|| {
                format!(
                    "malformed duration {s:?}: unknown unit {unit:?} (use ms, s, m, h, d, w or y)"
                )
            })?;
        total = n
            .checked_mul(mult)
            .and_then(|v| total.checked_add(v))
            .ok_or_else(|| format!("duration {s:?} overflows 64-bit milliseconds"))?;
    }
    Ok(if neg { -total } else { total })
}

/// Parses a time string: RFC 3339, `now`, `now+D`, `now-D`, or an integer in a string.
pub fn parse_time_str(s: &str) -> Result<TimeSpec, String> {
    let t = s.trim();
    if let Some(rest) = t.strip_prefix("now") {
        let rest = rest.trim();
        if rest.is_empty() {
            return Ok(TimeSpec::Now(0));
        }
        if !rest.starts_with('+') && !rest.starts_with('-') {
            return Err(format!(
                "malformed time {s:?}: expected now, now+D or now-D"
            ));
        }
        let d = parse_duration(rest).map_err(|e| format!("malformed time {s:?}: {e}"))?;
        return Ok(TimeSpec::Now(d));
    }
    if let Ok(n) = t.parse::<i64>() {
        return Ok(TimeSpec::Absolute(n));
    }
    parse_rfc3339(t)
        .map(TimeSpec::Absolute)
        .map_err(|e| format!("malformed time {s:?}: {e} (expected ms since the epoch, RFC 3339 like 2027-03-12T09:00:00Z, now, now+D or now-D)"))
}

/// Resolves a time against the clock; `None` on overflow.
pub fn resolve(spec: TimeSpec, now: i64) -> Option<i64> {
    match spec {
        TimeSpec::Absolute(ms) => Some(ms),
        TimeSpec::Now(d) => now.checked_add(d),
    }
}

/// Applies a producer's unit mistake to the intended time in ms; `-1` stays `-1`. `None` on
/// overflow.
pub fn apply_unit(ms: i64, unit: Option<UnitMistake>) -> Option<i64> {
    if ms == -1 {
        return Some(-1);
    }
    match unit {
        None => Some(ms),
        Some(UnitMistake::S) => Some(ms / 1000),
        Some(UnitMistake::Us) => ms.checked_mul(1000),
        Some(UnitMistake::Ns) => ms.checked_mul(1_000_000),
    }
}

/// The overflow reason for a record timestamp.
pub fn overflow_reason(unit: Option<UnitMistake>) -> String {
    match unit {
        Some(u) => {
            let name = match u {
                UnitMistake::S => "s",
                UnitMistake::Us => "us",
                UnitMistake::Ns => "ns",
            };
            format!("timestamp overflows a 64-bit long when written in {name}")
        }
        None => "timestamp overflows a 64-bit long".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("500ms"), Ok(500));
        assert_eq!(parse_duration("90s"), Ok(90_000));
        assert_eq!(parse_duration("5m"), Ok(300_000));
        assert_eq!(parse_duration("5min"), Ok(300_000));
        assert_eq!(parse_duration("1h"), Ok(3_600_000));
        assert_eq!(parse_duration("7d"), Ok(604_800_000));
        assert_eq!(parse_duration("2w"), Ok(14 * 86_400_000));
        assert_eq!(parse_duration("3y"), Ok(3 * 365 * 86_400_000));
        assert_eq!(parse_duration("1h30m"), Ok(5_400_000));
        assert_eq!(parse_duration("-2d"), Ok(-2 * 86_400_000));
        assert_eq!(
            parse_duration("5x"),
            Err(
                "malformed duration \"5x\": unknown unit \"x\" (use ms, s, m, h, d, w or y)".into()
            )
        );
        assert_eq!(
            parse_duration("5"),
            Err(
                "malformed duration \"5\": missing unit after 5 (use ms, s, m, h, d, w or y)"
                    .into()
            )
        );
        assert_eq!(
            parse_duration("h"),
            Err("malformed duration \"h\": expected digits at \"h\"".into())
        );
        assert_eq!(parse_duration(""), Err("malformed duration \"\": expected a number and a unit, like 500ms, 90s, 5m, 1h, 7d or 3y".into()));
        assert_eq!(
            parse_duration("999999999999y"),
            Err("duration \"999999999999y\" overflows 64-bit milliseconds".into())
        );
    }

    #[test]
    fn times() {
        assert_eq!(parse_time_str("now"), Ok(TimeSpec::Now(0)));
        assert_eq!(parse_time_str("now+500ms"), Ok(TimeSpec::Now(500)));
        assert_eq!(parse_time_str("now-1h"), Ok(TimeSpec::Now(-3_600_000)));
        assert_eq!(
            parse_time_str("now+3y"),
            Ok(TimeSpec::Now(3 * 365 * 86_400_000))
        );
        assert_eq!(
            parse_time_str("2027-03-12T09:00:00Z"),
            Ok(TimeSpec::Absolute(1_804_842_000_000))
        );
        assert_eq!(parse_time_str("-1"), Ok(TimeSpec::Absolute(-1)));
        assert_eq!(
            parse_time_str("now+5x"),
            Err("malformed time \"now+5x\": malformed duration \"+5x\": unknown unit \"x\" (use ms, s, m, h, d, w or y)".into())
        );
        assert_eq!(
            parse_time_str("now5m"),
            Err("malformed time \"now5m\": expected now, now+D or now-D".into())
        );
        assert!(parse_time_str("yesterday")
            .unwrap_err()
            .starts_with("malformed time \"yesterday\": too short"));
        assert!(parse_time_str("2027-02-30T00:00:00Z")
            .unwrap_err()
            .contains("day 30 does not exist in month 2"));
    }

    #[test]
    fn units() {
        let ms = 1_700_000_000_123;
        assert_eq!(apply_unit(ms, None), Some(ms));
        assert_eq!(apply_unit(ms, Some(UnitMistake::S)), Some(1_700_000_000));
        assert_eq!(apply_unit(ms, Some(UnitMistake::Us)), Some(ms * 1000));
        assert_eq!(apply_unit(ms, Some(UnitMistake::Ns)), Some(ms * 1_000_000));
        assert_eq!(apply_unit(-1, Some(UnitMistake::Ns)), Some(-1));
        assert_eq!(apply_unit(i64::MAX / 1000, Some(UnitMistake::Ns)), None);
        assert_eq!(
            apply_unit(-1999, Some(UnitMistake::S)),
            Some(-1),
            "Java truncates toward zero"
        );
        assert_eq!(resolve(TimeSpec::Now(1), i64::MAX), None);
        assert_eq!(
            overflow_reason(Some(UnitMistake::Ns)),
            "timestamp overflows a 64-bit long when written in ns"
        );
    }
}
