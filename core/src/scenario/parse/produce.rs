//! The produce step: one batch or generated traffic, and its records.

use super::step::StepParser;
use super::value::{duration_value, kind_of, time_value};
use super::{err, R};
use crate::scenario::{apply_unit, overflow_reason};
use crate::scenario::{ProduceStep, RecordSpec, Step, TimeSpec, UnitMistake};
use serde_json::{Map, Value};

impl StepParser {
    /// The body of a `produce` step.
    pub(super) fn produce(&mut self, i: usize, b: &Map<String, Value>) -> R<Step> {
        let e = |field: &str, reason: String| err(Some(i), field, reason);
        let generated = b.contains_key("batches");
        if !generated {
            for k in ["every", "timestamp_step"] {
                if b.contains_key(k) {
                    return Err(e(
                        &format!("produce.{k}"),
                        "only valid with \"batches\" (generated traffic)".into(),
                    ));
                }
            }
        }
        let batches = match b.get("batches") {
            None => 1,
            Some(v) => match v.as_u64() {
                Some(n) if n >= 1 => n,
                _ => {
                    return Err(e(
                        "produce.batches",
                        format!("expected a positive integer, got {v}"),
                    ))
                }
            },
        };
        let every_ms = match b.get("every") {
            None => 0,
            Some(v) => duration_value(v).map_err(|r| e("produce.every", r))?,
        };
        if every_ms < 0 {
            return Err(e(
                "produce.every",
                format!("clock moved backwards: every {every_ms} ms is negative"),
            ));
        }
        let timestamp_step_ms = match b.get("timestamp_step") {
            None => 0,
            Some(v) => duration_value(v).map_err(|r| e("produce.timestamp_step", r))?,
        };
        let records = records(i, b)?;
        let t = &self.config.topic;
        let shapes: Vec<(Option<u32>, u32)> = records
            .iter()
            .map(|r| (r.key_bytes, r.value_bytes))
            .collect();
        self.tally
            .produce(
                batches,
                &shapes,
                t.segment_bytes,
                t.max_message_bytes,
                t.index_interval_bytes,
            )
            .map_err(|(field, reason)| e(field, reason))?;
        let span = (batches as i64 - 1)
            .checked_mul(every_ms)
            .and_then(|s| self.now.checked_add(s));
        self.now = span.ok_or_else(|| {
            e(
                "produce.every",
                "batches × every overflows the 64-bit clock".into(),
            )
        })?;
        Ok(Step::Produce(ProduceStep {
            records,
            batches,
            every_ms,
            timestamp_step_ms,
            generated,
        }))
    }
}

/// A produce step's `records`, each checked.
fn records(i: usize, b: &Map<String, Value>) -> R<Vec<RecordSpec>> {
    let e = |field: &str, reason: String| err(Some(i), field, reason);
    let records_v = match b.get("records") {
        None => return Err(e("produce.records", "missing: an array of records".into())),
        Some(Value::Array(a)) => a,
        Some(v) => {
            return Err(e(
                "produce.records",
                format!("expected an array, got {}", kind_of(v)),
            ))
        }
    };
    let mut records = Vec::with_capacity(records_v.len());
    for (j, r) in records_v.iter().enumerate() {
        records
            .push(record(r).map_err(|(f, reason)| e(&format!("produce.records[{j}]{f}"), reason))?);
    }
    Ok(records)
}

const RECORD_KEYS: &[&str] = &["timestamp", "key_bytes", "value_bytes", "unit"];

fn record(v: &Value) -> Result<RecordSpec, (String, String)> {
    let m = match v {
        Value::Object(m) => m,
        other => {
            return Err((
                String::new(),
                format!("a record is an object, got {}", kind_of(other)),
            ))
        }
    };
    for k in m.keys() {
        if !RECORD_KEYS.contains(&k.as_str()) {
            return Err((
                format!(".{k}"),
                format!(
                    "unknown key in a record (expected: {})",
                    RECORD_KEYS.join(", ")
                ),
            ));
        }
    }
    let unit = unit(m)?;
    let timestamp = match m.get("timestamp") {
        None => return Err((".timestamp".into(), "missing".into())),
        Some(t) => time_value(t).map_err(|r| (".timestamp".to_string(), r))?,
    };
    if let TimeSpec::Absolute(ms) = timestamp {
        if ms != -1 && apply_unit(ms, unit).is_none() {
            return Err((".timestamp".into(), overflow_reason(unit)));
        }
    }
    // `None`: the field is absent.
    let size = |name: &str| -> Result<Option<u32>, (String, String)> {
        match m.get(name) {
            None => Ok(None),
            Some(v) => super::value::int(v)
                .ok()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| *n <= i32::MAX as u32)
                .map(Some)
                .ok_or_else(|| {
                    (
                        format!(".{name}"),
                        format!("expected an integer from 0 to 2147483647, got {v}"),
                    )
                }),
        }
    };
    Ok(RecordSpec {
        timestamp,
        unit,
        // Absent or null: a null key; 0: an empty key (a compacted topic accepts it).
        key_bytes: match m.get("key_bytes") {
            Some(Value::Null) => None,
            _ => size("key_bytes")?,
        },
        value_bytes: size("value_bytes")?.unwrap_or(100),
    })
}

/// A record's `unit`: the unit mistake its timestamp was written in, if any (`ms` is no
/// mistake, so it is refused as one).
fn unit(m: &Map<String, Value>) -> Result<Option<UnitMistake>, (String, String)> {
    Ok(match m.get("unit") {
        None => None,
        Some(Value::String(s)) => Some(match s.as_str() {
            "s" => UnitMistake::S,
            "us" => UnitMistake::Us,
            "ns" => UnitMistake::Ns,
            "ms" => {
                return Err((
                    ".unit".into(),
                    "\"ms\" is the correct unit; omit \"unit\" or use s, us or ns".into(),
                ))
            }
            _ => {
                return Err((
                    ".unit".into(),
                    format!("unknown unit {s:?} (expected s, us or ns)"),
                ))
            }
        }),
        Some(v) => {
            return Err((
                ".unit".into(),
                format!("expected \"s\", \"us\" or \"ns\", got {}", kind_of(v)),
            ))
        }
    })
}
