//! Readings for people that the core does not already give.

use logtime_core::human;

const SEC: i64 = 1000;
const MIN: i64 = 60 * SEC;
const HOUR: i64 = 60 * MIN;
const DAY: i64 = 24 * HOUR;
const YEAR: i64 = 365 * DAY;

/// A CSS percentage with two decimals, `12.35%`, by integer arithmetic (float formatting would
/// add its tables to the wasm). Non-finite values read as 0%.
pub fn css_pct(v: f64) -> String {
    let h = if v.is_finite() {
        (v * 100.0).round() as i64
    } else {
        0
    };
    let sign = if h < 0 { "-" } else { "" };
    let h = h.unsigned_abs();
    format!("{sign}{}.{:02}%", h / 100, h % 100)
}

/// `v` with three decimals, exactly as `format!("{v:.3}")` writes it (the exact binary value
/// rounded, ties to even), by integer arithmetic: float formatting would add core's float
/// printing (about 15 KB) to the wasm. For `v` in `[0, 2^64)`; anything else (NaN, negative)
/// reads as `0.000`, and so does `-0.0`.
pub fn three_decimals(v: f64) -> String {
    if !(0.0..18_446_744_073_709_551_616.0).contains(&v) {
        return "0.000".into();
    }
    // v = m * 2^e exactly
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), exp - 1075)
    };
    let n = u128::from(m) * 1000;
    let t = if e >= 0 {
        n << e
    } else if -e >= 127 {
        0 // n < 2^63: below half a thousandth
    } else {
        let s = -e as u32;
        let (q, r, half) = (n >> s, n & ((1u128 << s) - 1), 1u128 << (s - 1));
        if r > half || (r == half && q & 1 == 1) {
            q + 1
        } else {
            q
        }
    };
    format!("{}.{:03}", t / 1000, t % 1000)
}

/// A stamp's distance from the broker clock in one truncated unit: `+3 y`, `−11 d`, `now`.
pub fn relative(delta_ms: i64) -> String {
    if delta_ms == 0 {
        return "now".into();
    }
    let sign = if delta_ms < 0 { '−' } else { '+' };
    let a = delta_ms.unsigned_abs();
    let units: [(u64, &str); 6] = [
        (YEAR as u64, "y"),
        (DAY as u64, "d"),
        (HOUR as u64, "h"),
        (MIN as u64, "min"),
        (SEC as u64, "s"),
        (1, "ms"),
    ];
    for (u, name) in units {
        if a >= u {
            return format!("{sign}{} {name}", a / u);
        }
    }
    "now".into()
}

/// An axis label for a time on an axis spanning `span_ms` with ticks `step_ms` apart:
/// milliseconds when the ticks are less than a second apart (so that no two labels read the
/// same), seconds when the span is short, the date when it is long.
pub fn axis_time(ms: i64, span_ms: i64, step_ms: i64) -> String {
    if step_ms < SEC {
        time_of_day_ms(ms)
    } else if span_ms < 2 * HOUR {
        human::time_of_day(ms)
    } else if span_ms < 2 * DAY {
        let rem = ms.rem_euclid(DAY);
        let (_, mo, d) = logtime_model::calendar::civil_from_days(ms.div_euclid(DAY));
        format!(
            "{d} {} {:02}:{:02}",
            MONTHS[mo as usize - 1],
            rem / HOUR,
            rem / MIN % 60
        )
    } else {
        human::date_minute(ms)
    }
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// A stamp for a tile: `-1` (no timestamp), else time of day, with the date when it is not
/// the broker's day.
pub fn stamp(ts: i64, now: i64) -> String {
    if ts == -1 {
        return "no timestamp".into();
    }
    if ts.div_euclid(DAY) == now.div_euclid(DAY) {
        human::time_of_day(ts)
    } else {
        human::date(ts)
    }
}

/// A tile's time: the full time of day, with milliseconds when there are any (`09:00:00`,
/// `09:00:00.123`) and, when it is not the broker's day, the day too (`14 Mar 2030`), on its
/// own line; `-1` has none.
pub fn tile_time(ts: i64, now: i64) -> (Option<String>, String) {
    if ts == -1 {
        return (None, "no timestamp".into());
    }
    let tod = match ts.rem_euclid(SEC) {
        0 => human::time_of_day(ts),
        _ => time_of_day_ms(ts),
    };
    if ts.div_euclid(DAY) == now.div_euclid(DAY) {
        return (None, tod);
    }
    let date = human::date(ts);
    let day: Vec<&str> = date.split(' ').take(3).collect();
    (Some(day.join(" ")), tod)
}

/// `09:00:00.123`: the time of day, UTC, to the millisecond.
fn time_of_day_ms(ms: i64) -> String {
    format!("{}.{:03}", human::time_of_day(ms), ms.rem_euclid(SEC))
}

/// A file name for a scenario or lesson titled `title`: its words, lowercase, joined by `-`
/// (`Replay into a 24 h topic` → `replay-into-a-24-h-topic.json`); `scenario.json` untitled.
pub fn file_name(title: &str, lesson: bool) -> String {
    let mut out = String::new();
    for word in title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if out.len() > 60 {
            break;
        }
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&word.to_lowercase());
    }
    if out.is_empty() {
        out.push_str(if lesson { "lesson" } else { "scenario" });
    }
    out.push_str(".json");
    out
}

/// [`count`] and its noun, singular for exactly one: `1 record`, `1,000,000 records`.
pub fn count_of(n: i64, one: &str, many: &str) -> String {
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

/// Thousands separators: `1000000` → `1,000,000`.
pub fn count(n: i64) -> String {
    let s = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// How a record's stamp compares with the broker clock and `retention.ms`; drives the tile
/// colour *and* its icon and text (colour is never the only carrier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgeClass {
    /// Stamped after the broker clock.
    Future,
    /// Younger than half of retention.ms.
    Fresh,
    /// Between half and all of retention.ms.
    Ageing,
    /// Older than retention.ms.
    Expired,
    /// NO_TIMESTAMP (-1).
    NoStamp,
}

impl AgeClass {
    /// Classifies `ts` at `now` against `retention_ms` (negative = no limit).
    pub fn of(ts: i64, now: i64, retention_ms: i64) -> AgeClass {
        if ts == -1 {
            return AgeClass::NoStamp;
        }
        let age = now.saturating_sub(ts);
        if age < 0 {
            AgeClass::Future
        } else if retention_ms < 0 || age <= retention_ms / 2 {
            AgeClass::Fresh
        } else if age <= retention_ms {
            AgeClass::Ageing
        } else {
            AgeClass::Expired
        }
    }

    /// CSS class suffix.
    pub fn css(self) -> &'static str {
        match self {
            AgeClass::Future => "future",
            AgeClass::Fresh => "fresh",
            AgeClass::Ageing => "ageing",
            AgeClass::Expired => "expired",
            AgeClass::NoStamp => "nostamp",
        }
    }

    /// Words for screen readers and tooltips.
    pub fn words(self) -> &'static str {
        match self {
            AgeClass::Future => "stamped in the future",
            AgeClass::Fresh => "within half of retention",
            AgeClass::Ageing => "nearing retention",
            AgeClass::Expired => "older than retention",
            AgeClass::NoStamp => "no timestamp",
        }
    }

    /// A glyph shown on the tile.
    pub fn icon(self) -> &'static str {
        match self {
            AgeClass::Future => "▲",
            AgeClass::Fresh => "",
            AgeClass::Ageing => "◔",
            AgeClass::Expired => "◌",
            AgeClass::NoStamp => "∅",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_from_titles() {
        assert_eq!(
            file_name("Replay into a 24 h topic", false),
            "replay-into-a-24-h-topic.json"
        );
        assert_eq!(file_name("KIP-937: windows", true), "kip-937-windows.json");
        assert_eq!(file_name("  ", true), "lesson.json");
        assert_eq!(file_name("", false), "scenario.json");
    }

    #[test]
    fn three_decimals_writes_what_format_writes() {
        let mut values = vec![
            0.0,
            0.0005,
            0.0015,
            0.0625,
            0.3125,
            1.0005,
            2.0625,
            0.9995,
            0.9999,
            999.9995,
            5e-324,
            1e-5,
            12.25,
            1e15,
            123_456.789_5,
        ];
        // a deterministic spread of fractions, as the rebuild bar makes them (done + sent / of)
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let of = x % 100_000 + 1;
            values.push((x >> 40) as f64 % 1000.0 + (x % of) as f64 / of as f64);
            values.push(f64::from_bits(x >> 2) % 4096.0);
        }
        for v in values {
            assert_eq!(three_decimals(v), format!("{v:.3}"), "{v:?}");
        }
        assert_eq!(three_decimals(f64::NAN), "0.000");
        assert_eq!(three_decimals(-1.0), "0.000");
    }

    #[test]
    fn tile_times_are_full_times_of_day() {
        let now = 1_804_842_000_000; // 2027-03-12T09:00:00Z
        assert_eq!(tile_time(now + 123, now), (None, "09:00:00.123".into()));
        assert_eq!(
            tile_time(1_899_717_600_000, now),
            (Some("14 Mar 2030".into()), "11:20:00".into())
        );
        assert_eq!(tile_time(-1, now), (None, "no timestamp".into()));
    }

    #[test]
    fn css_percentages() {
        assert_eq!(css_pct(12.345), "12.35%");
        assert_eq!(css_pct(0.5), "0.50%");
        assert_eq!(css_pct(-0.004), "0.00%");
        assert_eq!(css_pct(f64::NAN), "0.00%");
        assert_eq!(css_pct(100.0), "100.00%");
    }

    #[test]
    fn relative_readings() {
        assert_eq!(relative(0), "now");
        assert_eq!(relative(3 * YEAR + 5 * DAY), "+3 y");
        assert_eq!(relative(-11 * DAY - 9 * HOUR), "−11 d");
        assert_eq!(relative(59 * MIN), "+59 min");
        assert_eq!(relative(-250), "−250 ms");
    }

    #[test]
    fn axis_labels_adapt_to_the_span() {
        let t = human::parse_rfc3339("2025-11-04T10:00:05Z").unwrap();
        assert_eq!(axis_time(t, 9000, SEC), "10:00:05");
        assert_eq!(axis_time(t + 500, 2 * SEC, 500), "10:00:05.500");
        assert_eq!(axis_time(t, 10 * HOUR, 2 * HOUR), "4 Nov 10:00");
        assert_eq!(axis_time(t, 30 * DAY, 7 * DAY), "4 Nov 2025 10:00");
    }

    #[test]
    fn stamp_shows_date_on_other_days() {
        let now = human::parse_rfc3339("2027-03-12T09:00:00Z").unwrap();
        assert_eq!(stamp(now - 5000, now), "08:59:55");
        assert_eq!(
            stamp(human::parse_rfc3339("2030-03-14T11:20:00Z").unwrap(), now),
            "14 Mar 2030 11:20"
        );
        assert_eq!(stamp(-1, now), "no timestamp");
    }

    #[test]
    fn counts() {
        assert_eq!(count(1_000_000), "1,000,000");
        assert_eq!(count(999), "999");
        assert_eq!(count(-1234), "-1,234");
        assert_eq!(count_of(1, "record", "records"), "1 record");
        assert_eq!(count_of(0, "record", "records"), "0 records");
        assert_eq!(
            count_of(1_000_000, "record", "records"),
            "1,000,000 records"
        );
    }

    #[test]
    fn age_classes() {
        let r = 7 * DAY;
        assert_eq!(AgeClass::of(10, 0, r), AgeClass::Future);
        assert_eq!(AgeClass::of(0, DAY, r), AgeClass::Fresh);
        assert_eq!(AgeClass::of(0, 5 * DAY, r), AgeClass::Ageing);
        assert_eq!(AgeClass::of(0, 8 * DAY, r), AgeClass::Expired);
        assert_eq!(AgeClass::of(0, 80 * DAY, -1), AgeClass::Fresh);
        assert_eq!(AgeClass::of(-1, 0, r), AgeClass::NoStamp);
    }
}
