//! The one grammar of times, above the quantity grammar of durations and byte sizes
//! (`logtime_model::quantity`): a scenario file's `start`, `at` and record timestamps, the
//! command line's `--now` and the explorer's time inputs (documented in `docs/scenarios.md`,
//! "Times and durations").
//!
//! A **time** is an integer (ms since the epoch; `-1` is NO_TIMESTAMP), an RFC 3339 string,
//! `now`, `now+D` or `now-D`, with `D` a duration. It is read into a [`TimeSpec`], which the
//! runner resolves against the broker clock of its step.

pub use logtime_model::quantity::{parse_bytes, parse_duration};

use crate::human::parse_rfc3339;
use logtime_model::scenario::TimeSpec;

/// Parses a time: RFC 3339, `now`, `now+D`, `now-D`, or an integer (ms since the epoch).
pub fn parse_time(s: &str) -> Result<TimeSpec, String> {
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
    let digits = t.strip_prefix('-').unwrap_or(t);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // Read as a date it would only be "expected '-' at position 5".
        return Err(format!(
            "time {s:?} is out of range: ms since the epoch are a 64-bit integer, from {} to {}",
            i64::MIN,
            i64::MAX
        ));
    }
    parse_rfc3339(t)
        .map(TimeSpec::Absolute)
        .map_err(|e| format!("malformed time {s:?}: {e} (expected ms since the epoch, RFC 3339 like 2027-03-12T09:00:00Z, now, now+D or now-D)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(parse_time("now"), Ok(TimeSpec::Now(0)));
        assert_eq!(parse_time("now+500ms"), Ok(TimeSpec::Now(500)));
        assert_eq!(parse_time("now-1h"), Ok(TimeSpec::Now(-3_600_000)));
        assert_eq!(
            parse_time("now+3y"),
            Ok(TimeSpec::Now(3 * 365 * 86_400_000))
        );
        assert_eq!(
            parse_time("2027-03-12T09:00:00Z"),
            Ok(TimeSpec::Absolute(1_804_842_000_000))
        );
        assert_eq!(parse_time("-1"), Ok(TimeSpec::Absolute(-1)));
        assert_eq!(
            parse_time("now+5x"),
            Err("malformed time \"now+5x\": malformed duration \"+5x\": unknown unit \"x\" (use ms, s, m, h, d, w or y)".into())
        );
        assert_eq!(
            parse_time("now5m"),
            Err("malformed time \"now5m\": expected now, now+D or now-D".into())
        );
        assert!(parse_time("yesterday")
            .unwrap_err()
            .starts_with("malformed time \"yesterday\": too short"));
        assert!(parse_time("2027-02-30T00:00:00Z")
            .unwrap_err()
            .contains("day 30 does not exist in month 2"));
    }
}
