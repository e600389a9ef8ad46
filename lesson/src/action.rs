//! What a learner can do in the explorer, written in the scenario step syntax: a task's revealed
//! solution, a question's probe ("what does the broker answer to this batch?") and a goal's
//! hypothetical batch are [`Action`]s and [`Batch`]es.
//!
//! Times relative to `now` resolve when the action is applied, against the clock of the
//! partition it is applied to, so a solution works on the learner's own partition too.

use logtime_core::scenario::time::{parse_duration, parse_time};
use logtime_core::scenario::{self, kind_of, RecordSpec, Step, TimeSpec};
use logtime_core::scenario::{apply_unit, overflow_reason};
use logtime_model::batch::Record;
use logtime_model::config::{ConfigValue, KafkaVersion};
use logtime_model::partition::Command;
use logtime_model::units::Timestamp;
use serde_json::{json, Value};
use std::fmt;

/// One batch a producer sends, its stamps possibly relative to `now`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The records.
    pub records: Vec<RecordSpec>,
}

/// An error inside a lesson item: the field under the item and the reason.
pub(crate) type FieldError = (String, String);

impl Batch {
    /// Parses `{"records": [R, ...]}` exactly as a scenario's `produce` step parses one batch.
    pub fn parse(v: &Value) -> Result<Batch, FieldError> {
        if let Value::Object(m) = v {
            if let Some(k) = m.keys().find(|k| k.as_str() != "records") {
                return Err((
                    format!(".{k}"),
                    "unknown key (expected: records; a learner sends one batch at a time)".into(),
                ));
            }
        }
        // The scenario parser owns the record syntax; a one-step scenario borrows it.
        let doc = json!({"start": 0, "steps": [{"produce": v}]});
        match scenario::parse(&doc.to_string()) {
            Ok(s) => match s.steps.into_iter().next() {
                Some(Step::Produce(p)) => Ok(Batch { records: p.records }),
                _ => Err((String::new(), "expected a batch".into())),
            },
            Err(e) => {
                let f = e.field.strip_prefix("produce").unwrap_or(&e.field);
                Err((f.to_string(), e.reason))
            }
        }
    }

    /// The records as the producer sends them when the broker clock reads `now`.
    pub fn records(&self, now: Timestamp) -> Result<Vec<Record>, String> {
        self.records
            .iter()
            .map(|r| {
                // As a scenario's produce step reads it: only the literal -1 is NO_TIMESTAMP; a
                // relative time that lands on -1 is a clock reading the unit mistake applies to.
                if r.timestamp == TimeSpec::Absolute(-1) {
                    return Ok(Record::with_key(
                        Timestamp::NONE,
                        r.key_bytes,
                        r.value_bytes,
                    ));
                }
                let ts = r
                    .timestamp
                    .resolve(now.0)
                    .and_then(|t| apply_unit(t, r.unit))
                    .ok_or_else(|| overflow_reason(r.unit))?;
                Ok(Record::with_key(Timestamp(ts), r.key_bytes, r.value_bytes))
            })
            .collect()
    }
}

/// Something a learner does in the explorer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Send one batch (`{"produce": {"records": [...]}}`).
    Produce(Batch),
    /// Move the clock forward (`{"advance": "5m"}`).
    Advance(i64),
    /// Move the clock to an instant (`{"at": T}`).
    At(TimeSpec),
    /// Run a retention check now (`{"retention": {}}`).
    Retention,
    /// DeleteRecords (`{"delete_records": {"offset": N}}`, `-1` = the high watermark).
    DeleteRecords(i64),
    /// Change configs (`{"config": {"name": value}}`).
    Config(Vec<(String, ConfigValue)>),
    /// Switch the version preset (`{"version": "4.0"}`).
    Version(KafkaVersion),
}

/// The action kinds, for error messages.
pub const ACTION_KINDS: &str = "produce, advance, at, retention, delete_records, config, version";

impl Action {
    /// Parses one action: an object with exactly one key.
    pub fn parse(v: &Value) -> Result<Action, FieldError> {
        let m = match v {
            Value::Object(m) if m.len() == 1 => m,
            _ => {
                return Err((
                    String::new(),
                    format!("an action is an object with exactly one key (one of: {ACTION_KINDS})"),
                ))
            }
        };
        let (k, body) = m.iter().next().expect("one key");
        let at = |r: String| (k.to_string(), r);
        let empty = |b: &Value| match b {
            Value::Object(o) if o.is_empty() => Ok(()),
            _ => Err(at("expected {}".into())),
        };
        Ok(match k.as_str() {
            "produce" => {
                Action::Produce(Batch::parse(body).map_err(|(f, r)| (format!("produce{f}"), r))?)
            }
            "advance" => Action::Advance(advance_ms(body)?),
            "at" => Action::At(match body {
                Value::Number(n) => TimeSpec::Absolute(
                    n.as_i64()
                        .ok_or_else(|| at(format!("{n} is not a 64-bit integer")))?,
                ),
                Value::String(s) => parse_time(s).map_err(at)?,
                other => return Err(at(format!("expected a time, got {}", kind_of(other)))),
            }),
            "retention" => {
                empty(body)?;
                Action::Retention
            }
            "delete_records" => delete_records(body)?,
            "config" => Action::Config(configs(body)?),
            "version" => match body {
                Value::String(s) => Action::Version(KafkaVersion::parse(s).ok_or_else(|| {
                    at(format!(
                        "unknown version {s:?} (expected {})",
                        KafkaVersion::keys_for_people()
                    ))
                })?),
                other => {
                    return Err(at(format!(
                        "expected a version string, got {}",
                        kind_of(other)
                    )))
                }
            },
            other => {
                return Err((
                    other.to_string(),
                    format!("unknown action (expected one of: {ACTION_KINDS})"),
                ))
            }
        })
    }

    /// The action's key: `produce`, `advance`, ...
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Produce(_) => "produce",
            Action::Advance(_) => "advance",
            Action::At(_) => "at",
            Action::Retention => "retention",
            Action::DeleteRecords(_) => "delete_records",
            Action::Config(_) => "config",
            Action::Version(_) => "version",
        }
    }

    /// The partition commands that carry the action out when the clock reads `now`, each with
    /// the instant to apply it at.
    pub fn commands(&self, now: Timestamp) -> Result<Vec<(Timestamp, Command)>, String> {
        Ok(match self {
            Action::Produce(b) => vec![(
                now,
                Command::Produce {
                    records: b.records(now)?,
                },
            )],
            Action::Advance(d) => {
                let to = now
                    .0
                    .checked_add(*d)
                    .ok_or("the clock overflows a 64-bit long")?;
                vec![(Timestamp(to), Command::Tick)]
            }
            Action::At(t) => {
                let to = t.resolve(now.0).ok_or("the time overflows a 64-bit long")?;
                vec![(Timestamp(to), Command::Tick)]
            }
            Action::Retention => vec![(now, Command::RunRetention)],
            Action::DeleteRecords(o) => vec![(now, Command::DeleteRecords { offset: *o })],
            Action::Config(changes) => changes
                .iter()
                .map(|(name, value)| {
                    (
                        now,
                        Command::SetConfig {
                            name: name.clone(),
                            value: value.clone(),
                        },
                    )
                })
                .collect(),
            Action::Version(v) => vec![(now, Command::SetVersion { version: *v })],
        })
    }
}

/// An `advance` action's duration in milliseconds: a number or a duration like `"5m"`, never
/// negative.
fn advance_ms(body: &Value) -> Result<i64, FieldError> {
    let at = |r: String| ("advance".to_string(), r);
    let d = match body {
        Value::Number(n) => n
            .as_i64()
            .ok_or_else(|| at(format!("{n} is not a 64-bit integer")))?,
        Value::String(s) => parse_duration(s).map_err(at)?,
        other => return Err(at(format!("expected a duration, got {}", kind_of(other)))),
    };
    if d < 0 {
        return Err(at(format!(
            "clock moved backwards: advance by {d} ms is negative"
        )));
    }
    Ok(d)
}

/// A `delete_records` action: `{"offset": N}`.
fn delete_records(body: &Value) -> Result<Action, FieldError> {
    let field = "delete_records.offset".to_string();
    match body {
        Value::Object(o) if o.len() == 1 && o.contains_key("offset") => {
            match o["offset"].as_i64() {
                Some(n) => Ok(Action::DeleteRecords(n)),
                None => Err((
                    field,
                    format!("expected an integer, got {}", kind_of(&o["offset"])),
                )),
            }
        }
        _ => Err((field, "expected {\"offset\": N}".into())),
    }
}

/// A `config` action's changes: config names to numbers or strings.
fn configs(body: &Value) -> Result<Vec<(String, ConfigValue)>, FieldError> {
    match body {
        Value::Object(o) if !o.is_empty() => {
            let mut out = Vec::with_capacity(o.len());
            for (name, v) in o {
                let value = match v {
                    Value::String(s) => ConfigValue::Text(s.clone()),
                    Value::Number(n) => ConfigValue::Number(n.as_i64().ok_or_else(|| {
                        (
                            format!("config.{name}"),
                            format!("{n} is not a 64-bit integer"),
                        )
                    })?),
                    other => {
                        return Err((
                            format!("config.{name}"),
                            format!("expected a number or a string, got {}", kind_of(other)),
                        ))
                    }
                };
                out.push((name.clone(), value));
            }
            Ok(out)
        }
        _ => Err((
            "config".to_string(),
            "expected an object of config names to values".to_string(),
        )),
    }
}

/// For answer sheets: `delete_records 30000`, `config message.timestamp.after.max.ms =
/// 3600000`, `produce a batch of 2 records`.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Produce(b) => write!(
                f,
                "produce a batch of {}",
                scenario::narrate::count(b.records.len() as u64, "record", "records")
            ),
            Action::Advance(d) => {
                write!(f, "advance the clock {}", logtime_core::human::duration(*d))
            }
            Action::At(TimeSpec::Absolute(t)) => {
                write!(f, "move the clock to {}", logtime_core::human::date(*t))
            }
            Action::At(TimeSpec::Now(d)) => write!(f, "move the clock to now{:+} ms", d),
            Action::Retention => f.write_str("run a retention check"),
            Action::DeleteRecords(-1) => f.write_str("DeleteRecords to the high watermark"),
            Action::DeleteRecords(o) => write!(f, "DeleteRecords to offset {o}"),
            Action::Config(c) => {
                let parts: Vec<String> = c.iter().map(|(n, v)| format!("{n} = {v}")).collect();
                write!(f, "set {}", parts.join(", "))
            }
            Action::Version(v) => write!(f, "switch to {}", v.label()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_parse_in_the_step_syntax() {
        let a = Action::parse(&json!({"produce": {"records": [{"timestamp": "now+9h", "unit": "ns"}, {"timestamp": 5}]}})).unwrap();
        let Action::Produce(b) = &a else { panic!() };
        let now = Timestamp(1_000_000);
        let r = b.records(now).unwrap();
        assert_eq!(
            r[0].timestamp,
            Timestamp((1_000_000 + 9 * 3_600_000) * 1_000_000)
        );
        assert_eq!(r[1].timestamp, Timestamp(5));
        assert_eq!(a.to_string(), "produce a batch of 2 records");
        assert_eq!(
            Action::parse(&json!({"advance": "5m"})),
            Ok(Action::Advance(300_000))
        );
        assert_eq!(
            Action::parse(&json!({"retention": {}})),
            Ok(Action::Retention)
        );
        assert_eq!(
            Action::parse(&json!({"delete_records": {"offset": 30000}})),
            Ok(Action::DeleteRecords(30000))
        );
        assert_eq!(
            Action::parse(&json!({"version": "3.9"})),
            Ok(Action::Version(KafkaVersion::V3_6))
        );
        let c =
            Action::parse(&json!({"config": {"message.timestamp.after.max.ms": 3600000}})).unwrap();
        assert_eq!(
            c.to_string(),
            "set message.timestamp.after.max.ms = 3600000"
        );
        assert_eq!(c.commands(now).unwrap().len(), 1);
        assert_eq!(
            Action::At(TimeSpec::Now(60_000)).commands(now).unwrap(),
            vec![(Timestamp(1_060_000), Command::Tick)]
        );
    }

    /// A learner's batch reads its records as a scenario's produce step does: an absent or null
    /// key is a null key, `0` an empty one; only the literal -1 is NO_TIMESTAMP (no unit mistake
    /// applies to it).
    #[test]
    fn records_keep_null_and_empty_keys_apart() {
        let b = Batch::parse(&json!({"records": [
            {"timestamp": -1, "unit": "us"}, {"timestamp": "now", "key_bytes": 0},
            {"timestamp": "now", "key_bytes": null}, {"timestamp": "now", "key_bytes": 4}]}))
        .unwrap();
        let r = b.records(Timestamp(1_000)).unwrap();
        assert_eq!(r[0].timestamp, Timestamp::NONE);
        assert_eq!(r[1].timestamp, Timestamp(1_000));
        let keys: Vec<Option<u32>> = r.iter().map(Record::key_len).collect();
        assert_eq!(keys, vec![None, Some(0), None, Some(4)]);
    }

    #[test]
    fn bad_actions_name_the_field() {
        let e = |v: Value| Action::parse(&v).unwrap_err();
        assert_eq!(
            e(json!({"produce": {"records": [{"timestamp": "now+5x"}]}})),
            ("produce.records[0].timestamp".to_string(), "malformed time \"now+5x\": malformed duration \"+5x\": unknown unit \"x\" (use ms, s, m, h, d, w or y)".to_string())
        );
        assert_eq!(
            e(json!({"produce": {"batches": 3, "records": []}})),
            (
                "produce.batches".to_string(),
                "unknown key (expected: records; a learner sends one batch at a time)".to_string()
            )
        );
        assert_eq!(e(json!({"snapshot": {}})).1, "unknown action (expected one of: produce, advance, at, retention, delete_records, config, version)");
        assert_eq!(
            e(json!({"delete_records": {"offset": "x"}})).0,
            "delete_records.offset"
        );
        assert_eq!(
            e(json!({"advance": "-1s"})).1,
            "clock moved backwards: advance by -1000 ms is negative"
        );
        assert_eq!(
            e(json!({"version": "2.8"})).1,
            "unknown version \"2.8\" (expected \"3.6\", \"4.0\" or \"4.1\")"
        );
    }
}
