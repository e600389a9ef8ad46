//! The quantity grammar: durations and byte sizes as people write them (documented in
//! `docs/scenarios.md`, "Times and durations"), shared by scenario files, the command line and
//! every input of the web explorer.
//!
//! * A **duration** is an optional sign, then either an integer (milliseconds, as a JSON number
//!   is) or one or more parts `<number><unit>`: `500ms`, `90s`, `5m` (or `5min`), `1h`, `7d`,
//!   `2w`, `3y` (y = 365 d), combined as in `1h30m`; a part may have a decimal fraction (`1.5h`)
//!   as long as the whole is a whole number of milliseconds.
//! * A **byte size** is the same grammar with the units `B`, `KB`/`kB`, `MB`, `GB`, `TB` (powers
//!   of 1000) and `KiB`, `MiB`, `GiB`, `TiB` (powers of 1024): `512KiB`, `1GiB`, `1.5GB`.
//!
//! A grammar above the rules, but in this crate because a rule reads it at run time: every
//! `*.ms` config takes a duration and every `*.bytes` config a byte size
//! ([`crate::ConfigKey::parse_number`]), and [`crate::Config::set`] reads a value written as text
//! (`"7d"` in a scenario's `config` step, or typed into the explorer's config panel) when the
//! step runs. It imports nothing, so the config rules can use it without reaching the scenario
//! types. Times (`now+5m`, RFC 3339) are read before a replay, by `logtime-core`'s
//! `scenario::time`.
//!
//! Only integer arithmetic is used: parsing floats would add their tables to the wasm.

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
            let (value, end) = term(s, body, i, g)?;
            i = end;
            total += value;
            if total > i64::MAX as i128 {
                return Err(overflow());
            }
        }
        total as i64
    };
    Ok(if neg { -total } else { total })
}

/// One `number unit` term of `body` (the sign-less text of `s`) from byte `start`: its value in
/// the grammar's base unit and the byte after it.
fn term(s: &str, body: &str, start: usize, g: &Grammar) -> Result<(i128, usize), String> {
    let what = g.what;
    let b = body.as_bytes();
    let overflow = || format!("{what} {s:?} overflows 64-bit {}", g.base);
    let mut i = digits_end(b, start);
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
        .ok_or_else(|| format!("malformed {what} {s:?}: unknown unit {unit:?} ({})", g.hint))?;
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
    Ok((whole * mult + fraction * mult / scale, i))
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
}
