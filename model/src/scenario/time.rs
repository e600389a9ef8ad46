//! The one grammar of times and durations, shared by scenario files, the command line and every
//! input of the web explorer (documented in `docs/scenarios.md`, "Times and durations").
//!
//! * A **duration** is an optional sign, then either an integer (milliseconds, as a JSON number
//!   is) or one or more parts `<number><unit>`: `500ms`, `90s`, `5m` (or `5min`), `1h`, `7d`,
//!   `2w`, `3y` (y = 365 d), combined as in `1h30m`; a part may have a decimal fraction (`1.5h`)
//!   as long as the whole is a whole number of milliseconds.
//! * A **byte size** is the same grammar with the units `B`, `KB`/`kB`, `MB`, `GB`, `TB` (powers
//!   of 1000) and `KiB`, `MiB`, `GiB`, `TiB` (powers of 1024): `512KiB`, `1GiB`, `1.5GB`. Every
//!   `*.ms` config takes a duration and every `*.bytes` config a byte size (`crate::Config::set`).
//! * A **time** is an integer (ms since the epoch; `-1` is NO_TIMESTAMP), an RFC 3339 string,
//!   `now`, `now+D` or `now-D`.
//!
//! Only integer arithmetic is used: parsing floats would add their tables to the wasm.

use super::UnitMistake;
use crate::human::parse_rfc3339;
use serde::{Deserialize, Serialize};

/// A time as written: absolute, or relative to the broker clock where it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "ms", rename_all = "snake_case")]
pub enum TimeSpec {
    /// An absolute value in ms (including `-1`, NO_TIMESTAMP).
    Absolute(i64),
    /// `now`, `now+D`, `now-D`: the broker clock plus this many ms.
    Now(i64),
}

impl TimeSpec {
    /// The instant this names when the broker clock reads `now`; `None` on overflow.
    pub fn resolve(self, now: i64) -> Option<i64> {
        match self {
            TimeSpec::Absolute(ms) => Some(ms),
            TimeSpec::Now(d) => now.checked_add(d),
        }
    }
}

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

/// Byte-size units: SI (powers of 1000) and IEC (powers of 1024), as Kafka's docs write them.
const BYTE_UNITS: &[(&str, i64)] = &[
    ("B", 1),
    ("KB", 1000),
    ("kB", 1000),
    ("MB", 1_000_000),
    ("GB", 1_000_000_000),
    ("TB", 1_000_000_000_000),
    ("KiB", 1 << 10),
    ("MiB", 1 << 20),
    ("GiB", 1 << 30),
    ("TiB", 1 << 40),
];

/// One quantity grammar, two unit tables: durations (ms) and byte sizes (bytes).
struct Grammar {
    /// `duration`, `byte size`.
    what: &'static str,
    /// The base unit, for overflow messages: `milliseconds`, `bytes`.
    base: &'static str,
    units: &'static [(&'static str, i64)],
    /// The units as a hint in messages.
    hint: &'static str,
    /// Examples for an empty value.
    examples: &'static str,
}

const DURATION: Grammar = Grammar {
    what: "duration",
    base: "milliseconds",
    units: UNITS,
    hint: "use ms, s, m, h, d, w or y",
    examples: "500ms, 90s, 5m, 1h, 7d or 3y",
};

const BYTE_SIZE: Grammar = Grammar {
    what: "byte size",
    base: "bytes",
    units: BYTE_UNITS,
    hint: "use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB",
    examples: "1048576, 512KiB, 1MiB, 1.5GB",
};

/// The end of the run of ASCII digits that starts at `i`.
fn digits_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i
}

/// Parses a duration such as `90s`, `1h30m`, `1.5h`, `-2d` or `250` (ms) into milliseconds.
/// Returns a lowercase reason on failure.
pub fn parse_duration(s: &str) -> Result<i64, String> {
    parse_quantity(s, &DURATION)
}

/// Parses a byte size such as `1048576`, `512KiB`, `1MiB`, `1.5GB` or `-1` into bytes: the same
/// grammar as durations with the units `B`, `KB`/`kB`, `MB`, `GB`, `TB` (powers of 1000) and
/// `KiB`, `MiB`, `GiB`, `TiB` (powers of 1024). Returns a lowercase reason on failure.
pub fn parse_bytes(s: &str) -> Result<i64, String> {
    parse_quantity(s, &BYTE_SIZE)
}

fn parse_quantity(s: &str, g: &Grammar) -> Result<i64, String> {
    let what = g.what;
    let t = s.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if body.is_empty() {
        return Err(format!(
            "malformed {what} {s:?}: expected a number and a unit, like {}",
            g.examples
        ));
    }
    let overflow = || format!("{what} {s:?} overflows 64-bit {}", g.base);
    let b = body.as_bytes();
    let total = if b.iter().all(u8::is_ascii_digit) {
        body.parse::<i64>().map_err(|_| overflow())?
    } else {
        let mut i = 0;
        let mut total: i128 = 0;
        while i < b.len() {
            let start = i;
            i = digits_end(b, i);
            if start == i {
                return Err(format!(
                    "malformed {what} {s:?}: expected digits at {:?}",
                    &body[start..]
                ));
            }
            let whole = &body[start..i];
            let mut fraction = "";
            if i < b.len() && b[i] == b'.' {
                let f = i + 1;
                i = digits_end(b, f);
                if f == i {
                    return Err(format!(
                        "malformed {what} {s:?}: expected digits after the '.' in {:?}",
                        &body[start..]
                    ));
                }
                fraction = &body[f..i];
            }
            let number = &body[start..i];
            let ustart = i;
            while i < b.len() && b[i].is_ascii_alphabetic() {
                i += 1;
            }
            let unit = &body[ustart..i];
            if unit.is_empty() {
                return Err(format!(
                    "malformed {what} {s:?}: missing unit after {number} ({})",
                    g.hint
                ));
            }
            let mult = g
                .units
                .iter()
                .find(|(name, _)| *name == unit)
                .map(|(_, m)| *m as i128)
                .ok_or_else(|| {
                    format!("malformed {what} {s:?}: unknown unit {unit:?} ({})", g.hint)
                })?;
            // Digits beyond what an i64 holds overflow anyway; 19 keeps the i128 maths exact.
            if whole.len() > 19 || fraction.len() > 19 {
                return Err(overflow());
            }
            let whole: i128 = whole.parse().map_err(|_| overflow())?;
            let scale = 10i128.pow(fraction.len() as u32);
            let fraction: i128 = if fraction.is_empty() {
                0
            } else {
                fraction.parse().map_err(|_| overflow())?
            };
            if fraction * mult % scale != 0 {
                return Err(format!(
                    "malformed {what} {s:?}: {number}{unit} is not a whole number of {}",
                    g.base
                ));
            }
            total += whole * mult + fraction * mult / scale;
            if total > i64::MAX as i128 {
                return Err(overflow());
            }
        }
        total as i64
    };
    Ok(if neg { -total } else { total })
}

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

/// Applies a producer's unit mistake to the intended time in ms, a clock reading, even one that
/// happens to be `-1` (`now-1s` at 00:00:01 UTC 1 Jan 1970). Only a record written with the
/// literal `-1` has no timestamp (NO_TIMESTAMP), and its callers leave it alone. `None` on
/// overflow.
pub fn apply_unit(ms: i64, unit: Option<UnitMistake>) -> Option<i64> {
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
        assert_eq!(parse_duration("+4s"), Ok(4000));
        // One grammar for files and the explorer's fields: plain integers are milliseconds, and
        // a part may have a fraction when the whole is a whole number of milliseconds.
        assert_eq!(parse_duration("250"), Ok(250));
        assert_eq!(parse_duration("0"), Ok(0));
        assert_eq!(parse_duration("-10"), Ok(-10));
        assert_eq!(parse_duration("1.5h"), Ok(5_400_000));
        assert_eq!(parse_duration("1.5s"), Ok(1500));
        assert_eq!(parse_duration("0.25s1ms"), Ok(251));
        assert_eq!(
            parse_duration("1.0005s"),
            Err(
                "malformed duration \"1.0005s\": 1.0005s is not a whole number of milliseconds"
                    .into()
            )
        );
        assert_eq!(
            parse_duration("1.h"),
            Err("malformed duration \"1.h\": expected digits after the '.' in \"1.h\"".into())
        );
        assert_eq!(
            parse_duration("1.5"),
            Err(
                "malformed duration \"1.5\": missing unit after 1.5 (use ms, s, m, h, d, w or y)"
                    .into()
            )
        );
        assert_eq!(
            parse_duration("9223372036854775808"),
            Err("duration \"9223372036854775808\" overflows 64-bit milliseconds".into())
        );
        assert_eq!(parse_duration("9223372036854775807ms"), Ok(i64::MAX));
        assert_eq!(
            parse_duration("5x"),
            Err(
                "malformed duration \"5x\": unknown unit \"x\" (use ms, s, m, h, d, w or y)".into()
            )
        );
        assert_eq!(
            parse_duration("1h30"),
            Err(
                "malformed duration \"1h30\": missing unit after 30 (use ms, s, m, h, d, w or y)"
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
    fn byte_sizes() {
        assert_eq!(parse_bytes("1048576"), Ok(1_048_576));
        assert_eq!(parse_bytes("1MiB"), Ok(1_048_576));
        assert_eq!(parse_bytes(" 512KiB "), Ok(524_288));
        assert_eq!(parse_bytes("1GiB"), Ok(1_073_741_824));
        assert_eq!(parse_bytes("1.5GB"), Ok(1_500_000_000));
        assert_eq!(parse_bytes("1kB"), Ok(1000));
        assert_eq!(parse_bytes("-1"), Ok(-1));
        assert_eq!(parse_bytes("1GiB512MiB"), Ok(1_610_612_736));
        assert_eq!(
            parse_bytes("1.5B"),
            Err("malformed byte size \"1.5B\": 1.5B is not a whole number of bytes".into())
        );
        assert_eq!(
            parse_bytes("1mb"),
            Err("malformed byte size \"1mb\": unknown unit \"mb\" (use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB)".into())
        );
        assert_eq!(
            parse_bytes("10000000TiB"),
            Err("byte size \"10000000TiB\" overflows 64-bit bytes".into())
        );
    }

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

    #[test]
    fn units() {
        let ms = 1_700_000_000_123;
        assert_eq!(apply_unit(ms, None), Some(ms));
        assert_eq!(apply_unit(ms, Some(UnitMistake::S)), Some(1_700_000_000));
        assert_eq!(apply_unit(ms, Some(UnitMistake::Us)), Some(ms * 1000));
        assert_eq!(apply_unit(ms, Some(UnitMistake::Ns)), Some(ms * 1_000_000));
        // A clock reading of -1 ms is not NO_TIMESTAMP (the literal -1 never gets here).
        assert_eq!(apply_unit(-1, Some(UnitMistake::Ns)), Some(-1_000_000));
        assert_eq!(apply_unit(i64::MAX / 1000, Some(UnitMistake::Ns)), None);
        assert_eq!(
            apply_unit(-1999, Some(UnitMistake::S)),
            Some(-1),
            "Java truncates toward zero"
        );
        assert_eq!(TimeSpec::Now(1).resolve(i64::MAX), None);
        assert_eq!(TimeSpec::Now(-5).resolve(10), Some(5));
        assert_eq!(
            overflow_reason(Some(UnitMistake::Ns)),
            "timestamp overflows a 64-bit long when written in ns"
        );
    }
}
