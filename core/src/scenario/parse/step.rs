//! One step of a scenario file: its kind, its body, and the clock it moves.

use super::value::{config_value, duration_value, int, kind_of, time_value};
use super::{err, R};
use crate::scenario::budget::Tally;
use crate::scenario::Step;
use logtime_model::config::{Config, KafkaVersion};
use logtime_model::lookup::OffsetSpec;
use logtime_model::units::{Offset, Timestamp};
use serde_json::{Map, Value};

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
    "version",
];

/// Parses steps in order, tracking what they depend on: the config in force, the broker clock
/// and how many records the scenario has written.
pub(super) struct StepParser {
    /// The config in force at the step.
    pub(super) config: Config,
    /// The broker clock at the step.
    pub(super) now: i64,
    /// What the steps before ask of a replay.
    pub(super) tally: Tally,
}

impl StepParser {
    /// Parses step `i`.
    pub(super) fn step(&mut self, i: usize, v: &Value) -> R<Step> {
        let e = |field: &str, reason: String| err(Some(i), field, reason);
        let (k, body) = only_key(i, v)?;
        let obj = |allowed: &[&str]| body_object(i, k, body, allowed);
        let step = match k {
            "produce" => {
                let b = obj(&["records", "batches", "every", "timestamp_step"])?;
                self.produce(i, b)?
            }
            "advance" => self.advance(i, body)?,
            "at" => self.at(i, body)?,
            "retention" => {
                obj(&[])?;
                self.tally
                    .retention()
                    .map_err(|(field, reason)| e(field, reason))?;
                Step::Retention
            }
            "snapshot" => {
                obj(&[])?;
                self.tally
                    .snapshot()
                    .map_err(|(field, reason)| e(field, reason))?;
                Step::Snapshot
            }
            "lookup" => {
                let b = obj(&["timestamp", "spec"])?;
                self.tally
                    .lookup()
                    .map_err(|(field, reason)| e(field, reason))?;
                self.lookup(i, b)?
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
            "version" => self.version(i, body)?,
            "config" => self.config_step(i, body)?,
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

    /// An `advance` step: a duration, never negative; the clock moves by it.
    fn advance(&mut self, i: usize, body: &Value) -> R<Step> {
        let e = |field: &str, reason: String| err(Some(i), field, reason);
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
        Ok(Step::Advance(d))
    }

    /// An `at` step: a time, never before the clock, which moves to it.
    fn at(&mut self, i: usize, body: &Value) -> R<Step> {
        let e = |field: &str, reason: String| err(Some(i), field, reason);
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
        Ok(Step::At(Timestamp(t)))
    }

    /// A `lookup` step's body `b`: a `timestamp` or a `spec` by name, exactly one.
    fn lookup(&self, i: usize, b: &Map<String, Value>) -> R<Step> {
        let e = |field: &str, reason: String| err(Some(i), field, reason);
        Ok(match (b.get("timestamp"), b.get("spec")) {
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
                        format!("unknown spec {s:?} (expected earliest, latest or max-timestamp)"),
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
        })
    }

    /// A `version` step: a preset by name; later config steps are checked against it.
    fn version(&mut self, i: usize, body: &Value) -> R<Step> {
        let e = |field: &str, reason: String| err(Some(i), field, reason);
        let v = match body {
            Value::String(v) => KafkaVersion::parse(v).ok_or_else(|| {
                e(
                    "version",
                    format!(
                        "unknown version {v:?} (expected {})",
                        KafkaVersion::keys_for_people()
                    ),
                )
            })?,
            other => {
                return Err(e(
                    "version",
                    format!("expected a version string, got {}", kind_of(other)),
                ))
            }
        };
        // Later config steps are validated by the new version's ranges.
        self.config = self.config.with_version(v).0;
        Ok(Step::Version(v))
    }

    /// A `config` step: config names to values, each checked against the config in force.
    fn config_step(&mut self, i: usize, body: &Value) -> R<Step> {
        let e = |field: &str, reason: String| err(Some(i), field, reason);
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
        Ok(Step::Config(changes))
    }
}

/// The one key of step `i`'s object, and its body.
fn only_key(i: usize, v: &Value) -> R<(&str, &Value)> {
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
    Ok((kind.as_str(), body))
}

/// The body of step `i` of kind `k` as an object whose keys are all in `allowed`.
fn body_object<'a>(
    i: usize,
    k: &str,
    body: &'a Value,
    allowed: &[&str],
) -> R<&'a Map<String, Value>> {
    let e = |field: &str, reason: String| err(Some(i), field, reason);
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
}
