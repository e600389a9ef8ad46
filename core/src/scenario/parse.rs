//! Parsing scenario JSON into a [`Scenario`].
//!
//! The parser tracks the broker clock through the steps (it depends only on `start`, `advance`,
//! `at` and generated traffic), so `now`-relative lookup and `at` times resolve here and a clock
//! that would move backwards is reported with its step index. Config changes are validated here
//! against the config in force at that step.

use super::time::{apply_unit, overflow_reason, parse_duration, parse_time};
use super::{ProduceStep, RecordSpec, Scenario, ScenarioError, Step, TimeSpec, UnitMistake};
use crate::config::{Config, ConfigKey, ConfigValue, KafkaVersion};
use crate::lookup::OffsetSpec;
use crate::units::{Offset, Timestamp};
use serde_json::{Map, Value};

/// Every key a scenario's top-level object may hold.
pub const TOP_LEVEL_KEYS: &[&str] = &[
    "title",
    "description",
    "kafka",
    "topic",
    "broker",
    "start",
    "seed",
    "topic_partition",
    "steps",
];

/// Every step kind.
pub const STEP_KINDS: &[&str] = &[
    "produce",
    "advance",
    "at",
    "retention",
    "lookup",
    "delete_records",
    "config",
    "snapshot",
    "high_watermark",
];

type R<T> = Result<T, ScenarioError>;

fn err(step: Option<usize>, field: impl Into<String>, reason: impl Into<String>) -> ScenarioError {
    ScenarioError {
        step,
        field: field.into(),
        reason: reason.into(),
        line_column: None,
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Parses a scenario file. Every error names the step index (if any), the field and the reason;
/// JSON syntax errors carry line and column.
pub fn parse(json: &str) -> Result<Scenario, ScenarioError> {
    let root: Value = serde_json::from_str(json).map_err(|e| {
        let text = e.to_string();
        let reason = match text.rfind(" at line ") {
            Some(i) => text[..i].to_string(),
            None => text,
        };
        ScenarioError {
            step: None,
            field: String::new(),
            reason: format!("json syntax error: {reason}"),
            line_column: Some((e.line(), e.column())),
        }
    })?;
    let obj = match &root {
        Value::Object(m) => m,
        other => {
            return Err(err(
                None,
                "",
                format!("a scenario is a JSON object, not {}", kind_of(other)),
            ))
        }
    };
    for k in obj.keys() {
        if !TOP_LEVEL_KEYS.contains(&k.as_str()) {
            return Err(err(
                None,
                k.clone(),
                format!(
                    "unknown top-level key (expected one of: {})",
                    TOP_LEVEL_KEYS.join(", ")
                ),
            ));
        }
    }
    let text = |name: &str| -> R<Option<String>> {
        match obj.get(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(err(
                None,
                name,
                format!("expected a string, got {}", kind_of(v)),
            )),
        }
    };
    let title = text("title")?;
    let description = text("description")?;
    let kafka = match text("kafka")? {
        None => KafkaVersion::default(),
        Some(s) => KafkaVersion::parse(&s).ok_or_else(|| {
            err(
                None,
                "kafka",
                format!(
                    "unknown version {s:?} (expected {})",
                    KafkaVersion::keys_for_people()
                ),
            )
        })?,
    };
    let topic_partition = text("topic_partition")?.unwrap_or_else(|| "clicks-0".to_string());
    let mut config = Config::defaults(kafka);
    for (section, broker) in [("topic", false), ("broker", true)] {
        match obj.get(section) {
            None => {}
            Some(Value::Object(m)) => {
                for (name, v) in m {
                    let field = format!("{section}.{name}");
                    if let Some(key) = ConfigKey::find(name) {
                        if key.broker != broker {
                            let other = if key.broker { "broker" } else { "topic" };
                            return Err(err(
                                None,
                                field,
                                format!("{name} is a {other} config; put it under \"{other}\""),
                            ));
                        }
                    }
                    let value = config_value(v).map_err(|r| err(None, field.clone(), r))?;
                    config
                        .set(name, &value)
                        .map_err(|e| err(None, field, e.to_string()))?;
                }
            }
            Some(v) => {
                return Err(err(
                    None,
                    section,
                    format!(
                        "expected an object of config names to values, got {}",
                        kind_of(v)
                    ),
                ))
            }
        }
    }
    let start = match obj.get("start") {
        None => {
            return Err(err(
                None,
                "start",
                "missing: the broker clock at the start (ms or RFC 3339)",
            ))
        }
        Some(v) => match time_value(v).map_err(|r| err(None, "start", r))? {
            TimeSpec::Absolute(ms) => ms,
            TimeSpec::Now(_) => {
                return Err(err(
                    None,
                    "start",
                    "must be absolute (ms or RFC 3339), not relative to now",
                ))
            }
        },
    };
    let seed = match obj.get("seed") {
        None => 0,
        Some(v) => v.as_u64().ok_or_else(|| {
            err(
                None,
                "seed",
                format!("expected a non-negative integer, got {v}"),
            )
        })?,
    };
    let raw_steps = match obj.get("steps") {
        None => return Err(err(None, "steps", "missing: an array of steps")),
        Some(Value::Array(a)) => a,
        Some(v) => {
            return Err(err(
                None,
                "steps",
                format!("expected an array, got {}", kind_of(v)),
            ))
        }
    };
    let mut p = StepParser {
        config: config.clone(),
        now: start,
        records_written: 0,
    };
    let mut steps = Vec::with_capacity(raw_steps.len());
    for (i, s) in raw_steps.iter().enumerate() {
        steps.push(p.step(i, s)?);
    }
    Ok(Scenario {
        title,
        description,
        kafka,
        config,
        topic_partition,
        start: Timestamp(start),
        seed,
        steps,
    })
}

fn config_value(v: &Value) -> Result<ConfigValue, String> {
    match v {
        Value::String(s) => Ok(ConfigValue::Text(s.clone())),
        Value::Number(n) => n
            .as_i64()
            .map(ConfigValue::Number)
            .ok_or_else(|| format!("{n} is not a 64-bit integer")),
        other => Err(format!(
            "expected a number or a string, got {}",
            kind_of(other)
        )),
    }
}

fn int(v: &Value) -> Result<i64, String> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .ok_or_else(|| format!("{n} is not a 64-bit integer")),
        other => Err(format!("expected an integer, got {}", kind_of(other))),
    }
}

/// A time: integer ms, RFC 3339, `now`, `now+D`, `now-D`.
fn time_value(v: &Value) -> Result<TimeSpec, String> {
    match v {
        Value::String(s) => parse_time(s),
        Value::Number(_) => int(v).map(TimeSpec::Absolute),
        other => Err(format!(
            "expected a time (ms, RFC 3339, now, now+D or now-D), got {}",
            kind_of(other)
        )),
    }
}

/// A duration: integer ms or a string like `90s`.
fn duration_value(v: &Value) -> Result<i64, String> {
    match v {
        Value::String(s) => parse_duration(s),
        Value::Number(_) => int(v),
        other => Err(format!(
            "expected a duration (ms or a string like 90s, 5m, 1h, 7d), got {}",
            kind_of(other)
        )),
    }
}

struct StepParser {
    config: Config,
    now: i64,
    records_written: u128,
}

impl StepParser {
    fn step(&mut self, i: usize, v: &Value) -> R<Step> {
        let e = |field: &str, reason: String| err(Some(i), field, reason);
        let m = match v {
            Value::Object(m) => m,
            other => {
                return Err(e(
                    "",
                    format!(
                        "a step is an object with exactly one key, got {}",
                        kind_of(other)
                    ),
                ))
            }
        };
        if m.len() != 1 {
            let keys: Vec<&str> = m.keys().map(String::as_str).collect();
            return Err(e(
                "",
                format!(
                    "a step must have exactly one key (one of: {}), found {} ({})",
                    STEP_KINDS.join(", "),
                    m.len(),
                    if keys.is_empty() {
                        "none".to_string()
                    } else {
                        keys.join(", ")
                    }
                ),
            ));
        }
        let (kind, body) = m.iter().next().expect("one key");
        let k = kind.as_str();
        let obj = |allowed: &[&str]| -> R<&Map<String, Value>> {
            let b = match body {
                Value::Object(b) => b,
                other => return Err(e(k, format!("expected an object, got {}", kind_of(other)))),
            };
            for key in b.keys() {
                if !allowed.contains(&key.as_str()) {
                    let expected = if allowed.is_empty() {
                        "none".to_string()
                    } else {
                        allowed.join(", ")
                    };
                    return Err(e(
                        &format!("{k}.{key}"),
                        format!("unknown key (expected: {expected})"),
                    ));
                }
            }
            Ok(b)
        };
        let step = match k {
            "produce" => {
                let b = obj(&["records", "batches", "every", "timestamp_step"])?;
                self.produce(i, b)?
            }
            "advance" => {
                let d = duration_value(body).map_err(|r| e("advance", r))?;
                if d < 0 {
                    return Err(e(
                        "advance",
                        format!("clock moved backwards: advance by {d} ms is negative"),
                    ));
                }
                self.now = self
                    .now
                    .checked_add(d)
                    .ok_or_else(|| e("advance", "the clock overflows a 64-bit long".into()))?;
                Step::Advance(d)
            }
            "at" => {
                let t = time_value(body).map_err(|r| e("at", r))?;
                let t = t
                    .resolve(self.now)
                    .ok_or_else(|| e("at", "the time overflows a 64-bit long".into()))?;
                if t < self.now {
                    return Err(e(
                        "at",
                        format!(
                            "clock moved backwards: {} is before now ({})",
                            crate::human::rfc3339(t),
                            crate::human::rfc3339(self.now)
                        ),
                    ));
                }
                self.now = t;
                Step::At(Timestamp(t))
            }
            "retention" => {
                obj(&[])?;
                Step::Retention
            }
            "snapshot" => {
                obj(&[])?;
                Step::Snapshot
            }
            "lookup" => {
                let b = obj(&["timestamp", "spec"])?;
                match (b.get("timestamp"), b.get("spec")) {
                    (Some(t), None) => {
                        let spec = time_value(t).map_err(|r| e("lookup.timestamp", r))?;
                        let t = spec.resolve(self.now).ok_or_else(|| {
                            e(
                                "lookup.timestamp",
                                "the time overflows a 64-bit long".into(),
                            )
                        })?;
                        Step::Lookup(OffsetSpec::from_wire(t))
                    }
                    (None, Some(Value::String(s))) => match s.as_str() {
                        "earliest" => Step::Lookup(OffsetSpec::Earliest),
                        "latest" => Step::Lookup(OffsetSpec::Latest),
                        "max-timestamp" => Step::Lookup(OffsetSpec::MaxTimestamp),
                        _ => {
                            return Err(e(
                                "lookup.spec",
                                format!(
                                "unknown spec {s:?} (expected earliest, latest or max-timestamp)"
                            ),
                            ))
                        }
                    },
                    (None, Some(v)) => {
                        return Err(e(
                            "lookup.spec",
                            format!("expected a string, got {}", kind_of(v)),
                        ))
                    }
                    _ => {
                        return Err(e(
                            "lookup",
                            "expected exactly one of \"timestamp\" or \"spec\"".into(),
                        ))
                    }
                }
            }
            "delete_records" => {
                let b = obj(&["offset"])?;
                let o = b
                    .get("offset")
                    .ok_or_else(|| e("delete_records.offset", "missing".into()))?;
                Step::DeleteRecords(int(o).map_err(|r| e("delete_records.offset", r))?)
            }
            "high_watermark" => {
                let b = obj(&["offset"])?;
                let o = b
                    .get("offset")
                    .ok_or_else(|| e("high_watermark.offset", "missing".into()))?;
                let n = int(o).map_err(|r| e("high_watermark.offset", r))?;
                if n < 0 {
                    return Err(e("high_watermark.offset", format!("{n} is negative")));
                }
                Step::HighWatermark(Offset(n))
            }
            "config" => {
                let b = match body {
                    Value::Object(b) => b,
                    other => {
                        return Err(e(
                            "config",
                            format!(
                                "expected an object of config names to values, got {}",
                                kind_of(other)
                            ),
                        ))
                    }
                };
                let mut changes = Vec::with_capacity(b.len());
                for (name, v) in b {
                    let field = format!("config.{name}");
                    let value = config_value(v).map_err(|r| e(&field, r))?;
                    self.config
                        .set(name, &value)
                        .map_err(|ce| e(&field, ce.to_string()))?;
                    changes.push((name.clone(), value));
                }
                Step::Config(changes)
            }
            other => {
                return Err(e(
                    other,
                    format!(
                        "unknown step kind (expected one of: {})",
                        STEP_KINDS.join(", ")
                    ),
                ));
            }
        };
        Ok(step)
    }

    fn produce(&mut self, i: usize, b: &Map<String, Value>) -> R<Step> {
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
            records.push(
                record(r).map_err(|(f, reason)| e(&format!("produce.records[{j}]{f}"), reason))?,
            );
        }
        let written = (batches as u128) * (records.len().max(1) as u128);
        self.records_written += written;
        if self.records_written > MAX_RECORDS as u128 {
            return Err(e(
                "produce.batches",
                format!(
                    "the scenario writes {} records by this step; a scenario may write at most {MAX_RECORDS}",
                    self.records_written
                ),
            ));
        }
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

/// The most records one scenario may write, so that a file cannot hang or exhaust a browser tab
/// (ten times the one-million-record partition the explorer is measured on).
pub const MAX_RECORDS: u64 = 10_000_000;

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
    let unit = match m.get("unit") {
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
    };
    let timestamp = match m.get("timestamp") {
        None => return Err((".timestamp".into(), "missing".into())),
        Some(t) => time_value(t).map_err(|r| (".timestamp".to_string(), r))?,
    };
    if let TimeSpec::Absolute(ms) = timestamp {
        if apply_unit(ms, unit).is_none() {
            return Err((".timestamp".into(), overflow_reason(unit)));
        }
    }
    let size = |name: &str, default: u32| -> Result<u32, (String, String)> {
        match m.get(name) {
            None => Ok(default),
            Some(v) => v
                .as_u64()
                .filter(|n| *n <= i32::MAX as u64)
                .map(|n| n as u32)
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
        key_bytes: size("key_bytes", 0)?,
        value_bytes: size("value_bytes", 100)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(json: &str) -> String {
        parse(json).unwrap_err().to_string()
    }

    const HEAD: &str = r#""start": "2027-03-12T09:00:00Z""#;

    fn with_steps(steps: &str) -> String {
        format!("{{{HEAD}, \"steps\": [{steps}]}}")
    }

    #[test]
    fn too_many_records_is_an_error() {
        assert_eq!(
            e(&with_steps(r#"{"produce": {"batches": 100000000, "records": [{"timestamp": "now"}]}}"#)),
            "step 0: produce.batches: the scenario writes 100000000 records by this step; a scenario may write at most 10000000"
        );
    }

    #[test]
    fn minimal_and_defaults() {
        let s = parse(&with_steps("")).unwrap();
        assert_eq!(s.kafka, KafkaVersion::V4_0);
        assert_eq!(s.topic_partition, "clicks-0");
        assert_eq!(s.start, Timestamp(1_804_842_000_000));
        assert_eq!(s.seed, 0);
        assert!(s.steps.is_empty());
    }

    #[test]
    fn every_step_kind() {
        let s = parse(&with_steps(
            r#"{"produce": {"records": [{"timestamp": "now", "unit": "ns"}, {"timestamp": -1, "key_bytes": 3, "value_bytes": 7}]}},
               {"produce": {"batches": 3, "every": "1s", "timestamp_step": "-1s", "records": [{"timestamp": "now-1h"}]}},
               {"advance": "5m"}, {"advance": 1000}, {"at": "now+1h"}, {"retention": {}},
               {"lookup": {"timestamp": "now-1h"}}, {"lookup": {"spec": "max-timestamp"}}, {"lookup": {"timestamp": -2}},
               {"delete_records": {"offset": -1}}, {"config": {"retention.ms": "1000"}}, {"snapshot": {}},
               {"high_watermark": {"offset": 0}}"#,
        ))
        .unwrap();
        let start = 1_804_842_000_000;
        assert_eq!(
            s.steps[0],
            Step::Produce(ProduceStep {
                records: vec![
                    RecordSpec {
                        timestamp: TimeSpec::Now(0),
                        unit: Some(UnitMistake::Ns),
                        key_bytes: 0,
                        value_bytes: 100
                    },
                    RecordSpec {
                        timestamp: TimeSpec::Absolute(-1),
                        unit: None,
                        key_bytes: 3,
                        value_bytes: 7
                    },
                ],
                batches: 1,
                every_ms: 0,
                timestamp_step_ms: 0,
                generated: false,
            })
        );
        match &s.steps[1] {
            Step::Produce(p) => {
                assert!(p.generated);
                assert_eq!(
                    (p.batches, p.every_ms, p.timestamp_step_ms),
                    (3, 1000, -1000)
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(s.steps[2], Step::Advance(300_000));
        assert_eq!(s.steps[3], Step::Advance(1000));
        // 2 s of traffic, 5 min and 1 s of advances, then +1 h.
        let at = start + 2000 + 301_000 + 3_600_000;
        assert_eq!(s.steps[4], Step::At(Timestamp(at)));
        assert_eq!(s.steps[5], Step::Retention);
        assert_eq!(
            s.steps[6],
            Step::Lookup(OffsetSpec::Timestamp(Timestamp(at - 3_600_000)))
        );
        assert_eq!(s.steps[7], Step::Lookup(OffsetSpec::MaxTimestamp));
        assert_eq!(s.steps[8], Step::Lookup(OffsetSpec::Earliest));
        assert_eq!(s.steps[9], Step::DeleteRecords(-1));
        assert_eq!(
            s.steps[10],
            Step::Config(vec![(
                "retention.ms".into(),
                ConfigValue::Text("1000".into())
            )])
        );
        assert_eq!(s.steps[11], Step::Snapshot);
        assert_eq!(s.steps[12], Step::HighWatermark(Offset(0)));
    }

    #[test]
    fn config_sections() {
        let s = parse(&format!(
            r#"{{"kafka": "3.6", "topic": {{"retention.ms": 604800000, "message.timestamp.type": "LogAppendTime", "segment.bytes": 1000}},
                "broker": {{"log.retention.check.interval.ms": 1000}}, "seed": 7, "title": "t", "topic_partition": "orders-3", {HEAD}, "steps": []}}"#
        ))
        .unwrap();
        assert_eq!(s.kafka, KafkaVersion::V3_6);
        assert_eq!(s.config.topic.segment_bytes, 1000);
        assert_eq!(s.config.broker.log_retention_check_interval_ms, 1000);
        assert_eq!(s.seed, 7);
        assert_eq!(s.topic_partition, "orders-3");
    }

    #[test]
    fn error_messages() {
        assert_eq!(
            e("{\n  \"start\": 0,\n  \"steps\": [}\n"),
            "line 3, column 13: json syntax error: expected value"
        );
        assert_eq!(e("[]"), "a scenario is a JSON object, not an array");
        assert_eq!(
            e(&format!("{{{HEAD}, \"stpes\": []}}")),
            "stpes: unknown top-level key (expected one of: title, description, kafka, topic, broker, start, seed, topic_partition, steps)"
        );
        assert_eq!(
            e(r#"{"steps": []}"#),
            "start: missing: the broker clock at the start (ms or RFC 3339)"
        );
        assert_eq!(
            e(&format!("{{{HEAD}}}")),
            "steps: missing: an array of steps"
        );
        assert_eq!(
            e(&format!("{{\"kafka\": \"2.8\", {HEAD}, \"steps\": []}}")),
            "kafka: unknown version \"2.8\" (expected \"3.6\" or \"4.0\")"
        );
        assert_eq!(
            e(&format!(
                "{{\"topic\": {{\"retention.msx\": 1}}, {HEAD}, \"steps\": []}}"
            )),
            "topic.retention.msx: unknown config retention.msx for Kafka 4.x"
        );
        assert_eq!(
            e(&format!("{{\"topic\": {{\"segment.bytes\": 1000}}, {HEAD}, \"steps\": []}}")),
            "topic.segment.bytes: invalid value 1000 for configuration segment.bytes: value must be at least 1048576 (valid range [1048576, 2147483647] in Kafka 4.x)"
        );
        assert_eq!(
            e(&format!("{{\"topic\": {{\"log.retention.check.interval.ms\": 1}}, {HEAD}, \"steps\": []}}")),
            "topic.log.retention.check.interval.ms: log.retention.check.interval.ms is a broker config; put it under \"broker\""
        );
        assert_eq!(
            e(&format!(
                "{{\"topic\": {{\"retention.ms\": 1.5}}, {HEAD}, \"steps\": []}}"
            )),
            "topic.retention.ms: 1.5 is not a 64-bit integer"
        );
        assert_eq!(
            e(r#"{"start": "yesterday", "steps": []}"#)
                .split(':')
                .take(2)
                .collect::<Vec<_>>(),
            vec!["start", " malformed time \"yesterday\""]
        );
        assert_eq!(
            e(r#"{"start": "now", "steps": []}"#),
            "start: must be absolute (ms or RFC 3339), not relative to now"
        );
        assert_eq!(e(&with_steps("{}")), "step 0: a step must have exactly one key (one of: produce, advance, at, retention, lookup, delete_records, config, snapshot, high_watermark), found 0 (none)");
        assert_eq!(
            e(&with_steps(r#"{"advance": "1s", "retention": {}}"#)),
            "step 0: a step must have exactly one key (one of: produce, advance, at, retention, lookup, delete_records, config, snapshot, high_watermark), found 2 (advance, retention)"
        );
        assert_eq!(
            e(&with_steps(r#"{"advance": "1s"}, {"sleep": "1s"}"#)),
            "step 1: sleep: unknown step kind (expected one of: produce, advance, at, retention, lookup, delete_records, config, snapshot, high_watermark)"
        );
        assert_eq!(
            e(&with_steps(r#"[]"#)),
            "step 0: a step is an object with exactly one key, got an array"
        );
        assert_eq!(
            e(&with_steps(r#"{"advance": "1s"}, {"at": "2027-03-12T08:00:00Z"}"#)),
            "step 1: at: clock moved backwards: 2027-03-12T08:00:00Z is before now (2027-03-12T09:00:01Z)"
        );
        assert_eq!(
            e(&with_steps(r#"{"advance": "-1s"}"#)),
            "step 0: advance: clock moved backwards: advance by -1000 ms is negative"
        );
        assert_eq!(
            e(&with_steps(r#"{"advance": "5x"}"#)),
            "step 0: advance: malformed duration \"5x\": unknown unit \"x\" (use ms, s, m, h, d, w or y)"
        );
        assert_eq!(
            e(&with_steps(r#"{"produce": {"records": [{"timestamp": "now+5x"}]}}"#)),
            "step 0: produce.records[0].timestamp: malformed time \"now+5x\": malformed duration \"+5x\": unknown unit \"x\" (use ms, s, m, h, d, w or y)"
        );
        assert_eq!(
            e(&with_steps(r#"{"produce": {"records": [{"timestamp": 0, "value_byte": 1}]}}"#)),
            "step 0: produce.records[0].value_byte: unknown key in a record (expected: timestamp, key_bytes, value_bytes, unit)"
        );
        assert_eq!(
            e(&with_steps(r#"{"produce": {"records": [{}]}}"#)),
            "step 0: produce.records[0].timestamp: missing"
        );
        assert_eq!(
            e(&with_steps(r#"{"produce": {"records": [{"timestamp": 9223372036854775, "unit": "ns"}]}}"#)),
            "step 0: produce.records[0].timestamp: timestamp overflows a 64-bit long when written in ns"
        );
        assert_eq!(
            e(&with_steps(
                r#"{"produce": {"records": [{"timestamp": 0, "unit": "minutes"}]}}"#
            )),
            "step 0: produce.records[0].unit: unknown unit \"minutes\" (expected s, us or ns)"
        );
        assert_eq!(
            e(&with_steps(r#"{"produce": {"records": [{"timestamp": 0, "value_bytes": -1}]}}"#)),
            "step 0: produce.records[0].value_bytes: expected an integer from 0 to 2147483647, got -1"
        );
        assert_eq!(
            e(&with_steps(
                r#"{"produce": {"records": [], "every": "1s"}}"#
            )),
            "step 0: produce.every: only valid with \"batches\" (generated traffic)"
        );
        assert_eq!(
            e(&with_steps(r#"{"produce": {"records": [], "batches": 0}}"#)),
            "step 0: produce.batches: expected a positive integer, got 0"
        );
        assert_eq!(
            e(&with_steps(r#"{"produce": {"recs": []}}"#)),
            "step 0: produce.recs: unknown key (expected: records, batches, every, timestamp_step)"
        );
        assert_eq!(
            e(&with_steps(r#"{"config": {"retention.ms": -2}}"#)),
            "step 0: config.retention.ms: invalid value -2 for configuration retention.ms: value must be at least -1 (valid range [-1, ...] in Kafka 4.x)"
        );
        assert_eq!(
            e(&with_steps(r#"{"config": {"nope": 1}}"#)),
            "step 0: config.nope: unknown config nope for Kafka 4.x"
        );
        assert_eq!(
            e(&with_steps(r#"{"config": {"message.timestamp.difference.max.ms": 1}}"#)),
            "step 0: config.message.timestamp.difference.max.ms: unknown config message.timestamp.difference.max.ms: it was removed in kafka 4.0 (KAFKA-17997); use message.timestamp.before.max.ms and message.timestamp.after.max.ms"
        );
        assert_eq!(
            e(&with_steps(r#"{"retention": {"now": true}}"#)),
            "step 0: retention.now: unknown key (expected: none)"
        );
        assert_eq!(
            e(&with_steps(r#"{"snapshot": 1}"#)),
            "step 0: snapshot: expected an object, got a number"
        );
        assert_eq!(
            e(&with_steps(r#"{"lookup": {}}"#)),
            "step 0: lookup: expected exactly one of \"timestamp\" or \"spec\""
        );
        assert_eq!(e(&with_steps(r#"{"lookup": {"spec": "first"}}"#)), "step 0: lookup.spec: unknown spec \"first\" (expected earliest, latest or max-timestamp)");
        assert_eq!(
            e(&with_steps(r#"{"delete_records": {}}"#)),
            "step 0: delete_records.offset: missing"
        );
        assert_eq!(
            e(&with_steps(r#"{"delete_records": {"offset": "x"}}"#)),
            "step 0: delete_records.offset: expected an integer, got a string"
        );
        assert_eq!(
            e(&with_steps(r#"{"high_watermark": {"offset": -1}}"#)),
            "step 0: high_watermark.offset: -1 is negative"
        );
        assert_eq!(
            e(&with_steps(
                r#"{"produce": {"batches": 3, "every": "200000000y", "records": []}}"#
            )),
            "step 0: produce.every: batches × every overflows the 64-bit clock"
        );
    }
}
