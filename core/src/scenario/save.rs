//! Writing scenario and lesson files for people: pretty-printed, with RFC 3339 instants and
//! human durations and byte sizes (the grammar [`super::time`] and `logtime_model::quantity`
//! read) where the text has epoch milliseconds and plain byte counts.
//!
//! The saver works on the file's JSON, not on the parsed [`super::Scenario`]: the parsed form has
//! resolved the topic config against the preset and `now` against the clock, and a lesson's
//! own keys (questions, variants with `${…}` placeholders) have no scenario form at all. So it
//! rewrites only the numbers whose meaning it knows (a time, a duration, a byte size) and only
//! when the new text reads back as the same number; everything else is kept as written. Saving
//! is a fixed point: saving a saved file gives the same bytes.

use super::parse::{check_size, STEP_KINDS};
use super::time::{parse_bytes, parse_duration, parse_time};
use super::{ScenarioError, TimeSpec, MAX_SCENARIO_BYTES};
use crate::human::rfc3339;
use serde_json::{Map, Value};

/// The order of a file's top-level keys: what it is, then the broker, then the steps (which are
/// long) last. Keys not listed keep their order after these.
const TOP_ORDER: &[&str] = &[
    "$schema",
    "title",
    "description",
    "lesson",
    "kafka",
    "topic",
    "broker",
    "start",
    "seed",
    "topic_partition",
    "variants",
    "stream",
    "log",
    "steps",
];

/// A value is written on one line when its compact form fits in this many characters.
const LINE: usize = 100;

/// Reads `json` (a scenario or a lesson file) and writes it for people. The text must be a JSON
/// object; nothing else of the format is checked here (the caller parses the result, or did
/// before).
pub fn save(json: &str) -> Result<String, ScenarioError> {
    check_size(json)?;
    let root: Value = serde_json::from_str(json).map_err(|e| ScenarioError {
        step: None,
        field: String::new(),
        reason: format!("json syntax error: {e}"),
        line_column: Some((e.line(), e.column())),
    })?;
    save_value(root)
}

/// [`save`] of a file already read as JSON (an imported partition's scenario).
pub fn save_value(root: Value) -> Result<String, ScenarioError> {
    let Value::Object(mut m) = root else {
        return Err(ScenarioError {
            step: None,
            field: String::new(),
            reason: "a scenario is a JSON object".into(),
            line_column: None,
        });
    };
    humanise_top(&mut m);
    let root = Value::Object(m);
    let mut out = String::new();
    write_value(&mut out, &root, 0);
    out.push('\n');
    // A pretty seeded log can outgrow the size a file may have; the same values on one line
    // still open.
    if out.len() as u64 > MAX_SCENARIO_BYTES {
        out = compact(&root, 0);
        out.push('\n');
    }
    Ok(out)
}

fn humanise_top(m: &mut Map<String, Value>) {
    if let Some(v) = m.get_mut("start") {
        time(v);
    }
    for section in ["topic", "broker"] {
        if let Some(Value::Object(c)) = m.get_mut(section) {
            configs(c);
        }
    }
    if let Some(Value::Object(log)) = m.get_mut("log") {
        seeded_log(log);
    }
    if let Some(Value::Array(steps)) = m.get_mut("steps") {
        for s in steps {
            if let Value::Object(step) = s {
                humanise_step(step);
            }
        }
    }
}

/// The numbers of one scenario step (a lesson step's scenario part too).
fn humanise_step(step: &mut Map<String, Value>) {
    let Some(kind) = STEP_KINDS.iter().find(|k| step.contains_key(**k)) else {
        return;
    };
    let Some(body) = step.get_mut(*kind) else {
        return;
    };
    match (*kind, body) {
        ("produce", Value::Object(p)) => {
            for k in ["every", "timestamp_step"] {
                if let Some(v) = p.get_mut(k) {
                    duration(v);
                }
            }
            if let Some(Value::Array(records)) = p.get_mut("records") {
                for r in records.iter_mut().filter_map(Value::as_object_mut) {
                    if let Some(t) = r.get_mut("timestamp") {
                        time(t);
                    }
                }
            }
        }
        ("advance", v) => duration(v),
        ("at", v) => time(v),
        ("lookup", Value::Object(l)) => {
            if let Some(t) = l.get_mut("timestamp") {
                time(t);
            }
        }
        ("config", Value::Object(c)) => configs(c),
        _ => {}
    }
}

fn seeded_log(log: &mut Map<String, Value>) {
    let Some(Value::Array(segments)) = log.get_mut("segments") else {
        return;
    };
    for seg in segments.iter_mut().filter_map(Value::as_object_mut) {
        if let Some(t) = seg.get_mut("last_modified") {
            time(t);
        }
        if let Some(Value::Array(entries)) = seg.get_mut("time_index") {
            for e in entries {
                if let Some(t) = e.as_array_mut().and_then(|p| p.first_mut()) {
                    time(t);
                }
            }
        }
        let Some(Value::Array(batches)) = seg.get_mut("batches") else {
            continue;
        };
        for b in batches.iter_mut().filter_map(Value::as_object_mut) {
            for k in ["max_timestamp", "log_append_time"] {
                if let Some(t) = b.get_mut(k) {
                    time(t);
                }
            }
            if let Some(Value::Array(ts)) = b.get_mut("timestamps") {
                ts.iter_mut().for_each(time);
            }
        }
    }
}

/// Config values: a `*.ms` number as a duration, a `*.bytes` number as a byte size. `-1` (no
/// limit) and Long.MAX stay numbers: they are limits switched off, not amounts.
fn configs(c: &mut Map<String, Value>) {
    for (name, v) in c.iter_mut() {
        let Some(n) = v.as_i64() else { continue };
        if n < 0 || n == i64::MAX {
            continue;
        }
        if name.ends_with(".ms") {
            duration(v);
        } else if name.ends_with(".bytes") {
            if let Some(text) = byte_text(n) {
                *v = Value::String(text);
            }
        }
    }
}

/// A time in ms as RFC 3339, when that reads back as the same instant. Negative values stay
/// numbers: `-1` is NO_TIMESTAMP and `-2` an earliest lookup, not instants in 1969.
fn time(v: &mut Value) {
    let Some(ms) = v.as_i64().filter(|ms| *ms >= 0) else {
        return;
    };
    let text = rfc3339(ms);
    if parse_time(&text) == Ok(TimeSpec::Absolute(ms)) {
        *v = Value::String(text);
    }
}

/// A duration in ms as text (`1d`, `1h30m`, `250ms`), when that reads back as the same number.
fn duration(v: &mut Value) {
    let Some(ms) = v.as_i64() else { return };
    let text = duration_text(ms);
    if parse_duration(&text) == Ok(ms) {
        *v = Value::String(text);
    }
}

/// Exact compact duration text: the largest units first, every part whole (`1d2h`, `-90s` is
/// `-1m30s`); weeks and years only when they divide exactly, so `10d` is not `1w3d`.
pub fn duration_text(ms: i64) -> String {
    if ms == 0 {
        return "0ms".into();
    }
    let sign = if ms < 0 { "-" } else { "" };
    let mut rest = ms.unsigned_abs();
    const D: u64 = 86_400_000;
    for (unit, name) in [(365 * D, "y"), (7 * D, "w")] {
        if rest.is_multiple_of(unit) {
            return format!("{sign}{}{name}", rest / unit);
        }
    }
    let mut out = String::from(sign);
    for (unit, name) in [
        (D, "d"),
        (3_600_000, "h"),
        (60_000, "m"),
        (1000, "s"),
        (1, "ms"),
    ] {
        if rest >= unit {
            out.push_str(&format!("{}{name}", rest / unit));
            rest %= unit;
        }
    }
    out
}

/// A byte count in the largest binary unit that divides it (`1MiB`, `512KiB`); `None` when no
/// unit does, so the number stays as written.
pub fn byte_text(n: i64) -> Option<String> {
    let text = [(1i64 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        .into_iter()
        .find(|(u, _)| n >= *u && n % u == 0)
        .map(|(u, name)| format!("{}{name}", n / u))?;
    (parse_bytes(&text) == Ok(n)).then_some(text)
}

/// The keys a step is known by (a scenario step's kind, a lesson's `note`, `question`, `task`):
/// written first in their object, before its narration.
const FIRST_KEYS: &[&str] = &["note", "question", "task"];

/// `m`'s entries in the order they are written: the top level in [`TOP_ORDER`], elsewhere a
/// step's kind first; the rest in the map's own order (the sort is stable).
fn ordered(m: &Map<String, Value>, depth: usize) -> Vec<(&String, &Value)> {
    let rank = |k: &str| -> usize {
        if depth == 0 {
            TOP_ORDER
                .iter()
                .position(|t| *t == k)
                .unwrap_or(TOP_ORDER.len())
        } else {
            usize::from(!(STEP_KINDS.contains(&k) || FIRST_KEYS.contains(&k)))
        }
    };
    let mut entries: Vec<(&String, &Value)> = m.iter().collect();
    entries.sort_by_key(|(k, _)| rank(k));
    entries
}

/// `v` on one line, keys in [`ordered`] order.
fn compact(v: &Value, depth: usize) -> String {
    match v {
        Value::Object(m) => {
            let parts: Vec<String> = ordered(m, depth)
                .into_iter()
                .map(|(k, x)| format!("{}: {}", Value::String(k.clone()), compact(x, depth + 1)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(|x| compact(x, depth + 1)).collect();
            format!("[{}]", parts.join(", "))
        }
        other => other.to_string(),
    }
}

fn indent(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// Writes `v` on one line if it fits in [`LINE`] characters, else one member per line; the top
/// level is always opened.
fn write_value(out: &mut String, v: &Value, depth: usize) {
    let one_line = compact(v, depth);
    let (open, close) = match v {
        Value::Object(m) if !m.is_empty() => ('{', '}'),
        Value::Array(a) if !a.is_empty() => ('[', ']'),
        _ => {
            out.push_str(&one_line);
            return;
        }
    };
    if depth > 0 && one_line.len() + depth * 2 <= LINE {
        out.push_str(&one_line);
        return;
    }
    out.push(open);
    let mut first = true;
    let mut member = |out: &mut String, key: Option<&String>, x: &Value| {
        if !first {
            out.push(',');
        }
        first = false;
        indent(out, depth + 1);
        if let Some(k) = key {
            out.push_str(&Value::String(k.clone()).to_string());
            out.push_str(": ");
        }
        write_value(out, x, depth + 1);
    };
    match v {
        Value::Object(m) => ordered(m, depth)
            .into_iter()
            .for_each(|(k, x)| member(out, Some(k), x)),
        Value::Array(a) => a.iter().for_each(|x| member(out, None, x)),
        _ => {}
    }
    indent(out, depth);
    out.push(close);
}

#[cfg(test)]
mod tests;
