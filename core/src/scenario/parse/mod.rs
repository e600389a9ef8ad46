//! Parsing scenario JSON into a [`Scenario`]: the top level here (its keys around the steps in
//! `top.rs`), the steps in `step.rs`, the produce step and its records in `produce.rs`, and the
//! JSON value forms (numbers, times, durations, config values) in `value.rs`.
//!
//! The parser tracks the broker clock through the steps (it depends only on `start`, `advance`,
//! `at` and generated traffic), so `now`-relative lookup and `at` times resolve here and a clock
//! that would move backwards is reported with its step index. Config changes are validated here
//! against the config in force at that step.

mod log_seed;
mod produce;
mod step;
pub mod strict;
mod top;
mod value;

pub use step::STEP_KINDS;

use super::{Scenario, ScenarioError};
use crate::scenario::budget::Tally;
use logtime_model::config::Config;
use logtime_model::units::Timestamp;
use serde_json::Value;
use step::StepParser;
use top::{kafka_version, set_sections, start_time, top_object};
pub use value::kind_of;

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
    "log",
    "$schema",
];

/// A result whose error names the step, the field and the reason.
type R<T> = Result<T, ScenarioError>;

pub(super) fn err(
    step: Option<usize>,
    field: impl Into<String>,
    reason: impl Into<String>,
) -> ScenarioError {
    ScenarioError {
        step,
        field: field.into(),
        reason: reason.into(),
        line_column: None,
    }
}

/// Parses a scenario file. Every error names the step index (if any), the field and the reason;
/// JSON syntax errors carry line and column.
///
/// A text longer than [`MAX_SCENARIO_BYTES`](super::MAX_SCENARIO_BYTES) is refused before it is
/// read as JSON: its syntax tree alone would take tens of times its size, and in the browser that
/// is the difference between a clear message and a dead page.
pub fn parse(json: &str) -> Result<Scenario, ScenarioError> {
    check_size(json)?;
    let root: Value = strict::from_str(json).map_err(|e| {
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
    parse_value(root)
}

/// Refuses a text longer than [`MAX_SCENARIO_BYTES`](super::MAX_SCENARIO_BYTES), naming its size
/// (file formats built on scenarios, such as lessons, check it before reading the JSON).
pub fn check_size(json: &str) -> Result<(), ScenarioError> {
    if json.len() as u64 > super::MAX_SCENARIO_BYTES {
        return Err(err(
            None,
            "",
            format!(
                "the scenario is {} bytes, larger than the {} MiB a scenario may be",
                json.len(),
                super::MAX_SCENARIO_BYTES >> 20
            ),
        ));
    }
    Ok(())
}

/// [`parse`] of a scenario already read as JSON (a lesson file, once its own keys are taken
/// out).
pub fn parse_value(root: Value) -> Result<Scenario, ScenarioError> {
    let obj = top_object(&root)?;
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
    let kafka = kafka_version(text("kafka")?)?;
    let topic_partition = text("topic_partition")?.unwrap_or_else(|| "clicks-0".to_string());
    let mut config = Config::defaults(kafka);
    set_sections(obj, &mut config)?;
    let start = start_time(obj)?;
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
        tally: Tally::default(),
    };
    let log = match obj.get("log") {
        None => None,
        Some(v) => {
            let (log, held) = log_seed::parse_log(v, start, &config, &topic_partition)?;
            p.tally
                .seeded(
                    held.records as u128,
                    held.segments as u128,
                    held.active_bytes,
                    held.index_entries as u128,
                )
                .map_err(|(field, reason)| err(None, field, reason))?;
            Some(log)
        }
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
        log,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{ProduceStep, RecordSpec, Step, TimeSpec, UnitMistake};
    use logtime_model::config::{ConfigValue, KafkaVersion};
    use logtime_model::lookup::OffsetSpec;
    use logtime_model::units::Offset;

    fn e(json: &str) -> String {
        parse(json).unwrap_err().to_string()
    }

    const HEAD: &str = r#""start": "2027-03-12T09:00:00Z""#;

    #[test]
    fn a_text_over_the_size_limit_is_refused_before_it_is_read() {
        // Padding with spaces keeps the JSON valid, so only the size can be the reason.
        let big = format!("{{{HEAD}, \"steps\": []}}{}", " ".repeat(16 << 20));
        let msg = e(&big);
        assert!(
            msg.contains("larger than the 16 MiB a scenario may be"),
            "{msg}"
        );
    }

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
                        key_bytes: None,
                        value_bytes: 100
                    },
                    RecordSpec {
                        timestamp: TimeSpec::Absolute(-1),
                        unit: None,
                        key_bytes: Some(3),
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
    fn null_and_empty_keys() {
        let s = parse(&with_steps(
            r#"{"produce": {"records": [{"timestamp": 0}, {"timestamp": 0, "key_bytes": null}, {"timestamp": 0, "key_bytes": 0}, {"timestamp": 0, "key_bytes": 5}]}}"#,
        ))
        .unwrap();
        let Step::Produce(p) = &s.steps[0] else {
            panic!("{:?}", s.steps[0])
        };
        let keys: Vec<Option<u32>> = p.records.iter().map(|r| r.key_bytes).collect();
        assert_eq!(keys, vec![None, None, Some(0), Some(5)]);
        assert_eq!(
            e(&with_steps(r#"{"produce": {"records": [{"timestamp": 0, "value_bytes": null}]}}"#)),
            "step 0: produce.records[0].value_bytes: expected an integer from 0 to 2147483647, got null"
        );
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
            "stpes: unknown top-level key (expected one of: title, description, kafka, topic, broker, start, seed, topic_partition, steps, log, $schema)"
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
            "kafka: unknown version \"2.8\" (expected \"3.6\", \"4.0\" or \"4.1\")"
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
        assert_eq!(e(&with_steps("{}")), "step 0: a step must have exactly one key (one of: produce, advance, at, retention, lookup, delete_records, config, snapshot, high_watermark, version), found 0 (none)");
        assert_eq!(
            e(&with_steps(r#"{"advance": "1s", "retention": {}}"#)),
            "step 0: a step must have exactly one key (one of: produce, advance, at, retention, lookup, delete_records, config, snapshot, high_watermark, version), found 2 (advance, retention)"
        );
        assert_eq!(
            e(&with_steps(r#"{"advance": "1s"}, {"sleep": "1s"}"#)),
            "step 1: sleep: unknown step kind (expected one of: produce, advance, at, retention, lookup, delete_records, config, snapshot, high_watermark, version)"
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
