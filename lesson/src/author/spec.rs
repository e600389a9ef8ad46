//! What an author's commands carry, and the file's JSON they become. Every value is written in
//! the file's own grammar (`docs/scenarios.md`): times as RFC 3339 or `now±D`, durations as
//! text, batches as `{"records": [...]}`; the lesson parser then reads them like any file, so
//! the live check reports a bad value at its step and field with the parser's words.

use super::error::{invalid, AuthorError};
use super::record::relative;
use crate::{Affordance, LessonKind, Level, Target};
use logtime_core::scenario::narrate::count;
use logtime_core::scenario::parse_time;
use logtime_model::batch::Record;
use logtime_model::units::Timestamp;
use serde_json::{json, Map, Value};

/// One record of a batch a question or goal asks about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordSpec {
    /// Its timestamp: RFC 3339, `now`, `now±D`, or ms since the epoch.
    pub timestamp: String,
    /// Key size in bytes; `None`: a null key; `Some(0)`: an empty key.
    pub key_bytes: Option<u32>,
    /// Value size in bytes; `None`: 100.
    pub value_bytes: Option<u32>,
}

impl RecordSpec {
    /// A 100-byte record without a key, stamped `timestamp`.
    pub fn at(timestamp: &str) -> RecordSpec {
        RecordSpec {
            timestamp: timestamp.into(),
            key_bytes: None,
            value_bytes: None,
        }
    }
}

/// A batch a question or goal asks the broker about, with an optional label naming it in
/// feedback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchSpec {
    /// `the 2-hours-fast batch`.
    pub label: Option<String>,
    /// Its records (at least one).
    pub records: Vec<RecordSpec>,
}

impl BatchSpec {
    /// The batch the explorer's producer composed at broker time `now`, stamped relative to
    /// `now` as a recorded batch is (`now+1m`), so the question asks about it at its step's
    /// clock; `label` names it in feedback. A batch with headers cannot be written (the file's
    /// records have none).
    pub fn of_records(
        records: &[Record],
        now: Timestamp,
        label: Option<String>,
    ) -> Result<BatchSpec, AuthorError> {
        if records.is_empty() {
            return Err(invalid(
                "batch.records",
                "a batch needs at least one record",
            ));
        }
        if records.iter().any(|r| !r.headers.is_empty()) {
            return Err(invalid(
                "batch.records",
                "the file's records have no headers; compose the batch without headers",
            ));
        }
        let records = records
            .iter()
            .map(|r| RecordSpec {
                timestamp: match relative(r.timestamp, now) {
                    Value::String(t) => t,
                    other => other.to_string(),
                },
                key_bytes: (r.key_bytes > 0 || r.empty_key).then_some(r.key_bytes),
                value_bytes: Some(r.value_bytes),
            })
            .collect();
        Ok(BatchSpec {
            label: label.filter(|l| !l.trim().is_empty()),
            records,
        })
    }

    /// A few words naming the batch for the author: its label, or how many records and their
    /// stamps as the file writes them (`1 record stamped now+1m`).
    pub fn describe(&self) -> String {
        if let Some(l) = &self.label {
            return l.clone();
        }
        let n = count(self.records.len() as u64, "record", "records");
        let (first, last) = match (self.records.first(), self.records.last()) {
            (Some(f), Some(l)) => (f.timestamp.as_str(), l.timestamp.as_str()),
            _ => return n,
        };
        if first == last {
            format!("{n} stamped {first}")
        } else {
            format!("{n} stamped {first} to {last}")
        }
    }
}

/// The batch produce step `step` (1-based) of `doc` sends, read from its `records`.
pub(crate) fn batch_of_step(doc: &Value, step: usize) -> Result<BatchSpec, AuthorError> {
    let steps = doc.get("steps").and_then(Value::as_array);
    let count = steps.map_or(0, Vec::len);
    let s = step
        .checked_sub(1)
        .and_then(|k| steps?.get(k))
        .ok_or(AuthorError::NoSuchStep {
            field: "step",
            step,
            steps: count,
        })?;
    let wrong = |found: &str| AuthorError::WrongKind {
        step,
        expected: "a produce step that lists its records",
        found: found.into(),
    };
    let records = match s.pointer("/produce/records").and_then(Value::as_array) {
        Some(r) if !r.is_empty() => r,
        _ => return Err(wrong(super::view::kind_of(s).unwrap_or("unknown"))),
    };
    let mut out = Vec::with_capacity(records.len());
    for r in records {
        let size = |k: &str| {
            r.get(k)
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok())
        };
        let timestamp = match r.get("timestamp") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Number(n)) => n.to_string(),
            _ => {
                return Err(invalid(
                    format!("step {step}: produce.records"),
                    "every record needs a timestamp",
                ))
            }
        };
        out.push(RecordSpec {
            timestamp,
            key_bytes: size("key_bytes"),
            value_bytes: size("value_bytes"),
        });
    }
    Ok(BatchSpec {
        label: None,
        records: out,
    })
}

/// Every question kind of the lesson format (`docs/scenarios.md`, "Questions"). A kind that
/// needs an instant or an offset takes it from here or, when `None`, from what the author
/// pointed at ([`Target::Time`] for an instant, [`Target::Offset`] for an offset).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AskKind {
    /// Strike the segments the next retention check deletes.
    StrikeSegments,
    /// Strike the records the next retention check deletes.
    StrikeRecords,
    /// Click the offset a lookup returns: for an instant (`now-2d`, RFC 3339) or a spec
    /// (`earliest`, `latest`, `max-timestamp`); `None` takes the instant pointed at.
    Lookup(Option<String>),
    /// Pick the segment that pins retention.
    Pinning,
    /// Set a value of `config` that accepts one batch and rejects the other.
    Choose {
        /// `message.timestamp.after.max.ms`, `message.timestamp.before.max.ms`,
        /// `message.timestamp.difference.max.ms` or `max.message.bytes`.
        config: String,
        /// The batch that must be accepted.
        accept: BatchSpec,
        /// The batch that must be rejected.
        reject: BatchSpec,
    },
    /// Pick the error code the broker answers to a batch.
    ErrorProduce(BatchSpec),
    /// Pick the error code the broker answers to DeleteRecords to an offset (`None`: the
    /// offset pointed at).
    ErrorDeleteRecords(Option<i64>),
    /// Strike the records the lesson's stream processor drops as late.
    Late,
    /// Click the record whose read closes the window holding an instant (`None`: the instant
    /// pointed at).
    Closes(Option<String>),
}

impl AskKind {
    /// The question's kind key in the file.
    pub fn key(&self) -> &'static str {
        match self {
            AskKind::StrikeSegments | AskKind::StrikeRecords => "strike",
            AskKind::Lookup(_) => "lookup",
            AskKind::Pinning => "pinning",
            AskKind::Choose { .. } => "choose",
            AskKind::ErrorProduce(_) | AskKind::ErrorDeleteRecords(_) => "error",
            AskKind::Late => "late",
            AskKind::Closes(_) => "closes",
        }
    }
}

/// A number or a range of numbers a goal condition asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundSpec {
    /// Exactly this.
    Exactly(i64),
    /// At least `at_least` and at most `at_most` (either may be open).
    Within {
        /// The least, if any.
        at_least: Option<i64>,
        /// The greatest, if any.
        at_most: Option<i64>,
    },
}

/// One condition of a task's goal, from core's goal kinds ([`crate::GOAL_KEYS`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalSpec {
    /// `log_start_offset`.
    LogStartOffset(BoundSpec),
    /// `log_end_offset`.
    LogEndOffset(BoundSpec),
    /// `high_watermark`.
    HighWatermark(BoundSpec),
    /// `segments`: how many segments there are.
    Segments(BoundSpec),
    /// `records_present: [first, last]`.
    RecordsPresent(i64, i64),
    /// `records_gone: [first, last]`.
    RecordsGone(i64, i64),
    /// `no_pinned_segment: true`.
    NoPinnedSegment,
    /// `no_future_segment: true`.
    NoFutureSegment,
    /// `config: {name: value}`: a number, a bound, or a text for text configs.
    Config(String, Value),
    /// `rejects: batch`.
    Rejects(BatchSpec),
    /// `accepts: batch`.
    Accepts(BatchSpec),
    /// `lookup: {"timestamp" or "spec", "offset"}`.
    Lookup {
        /// An instant or a spec, as [`AskKind::Lookup`].
        at: String,
        /// The offset it must return.
        offset: BoundSpec,
    },
    /// `late_records`.
    LateRecords(BoundSpec),
    /// `any: [goal, ...]`: one of them holds (each goal is a list of conditions, all of which
    /// hold).
    Any(Vec<Vec<GoalSpec>>),
}

/// An edit to a question or task step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuestionEdit {
    /// What the learner is asked (markup).
    Ask(String),
    /// A short name for the score summary; `None`: the kind's default.
    Title(Option<String>),
    /// A hint, last.
    AddHint(String),
    /// Hint `index` (0-based) rewritten.
    EditHint {
        /// 0-based.
        index: usize,
        /// The new text (markup).
        text: String,
    },
    /// Hint `index` (0-based) removed.
    RemoveHint(usize),
    /// The explanation shown once the item is settled; `None` removes it.
    Reveal(Option<String>),
    /// What it is worth; `None`: `scoring.points`.
    Points(Option<u32>),
    /// The author's words for a class of wrong answer (`behind_pinning`); `None` gives the
    /// class back to core's words. Questions only.
    Wrong {
        /// The class key.
        class: String,
        /// Markup, or `None`.
        text: Option<String>,
    },
    /// What the learner does not see before answering; `None`: the kind's default.
    Hide(Option<Vec<Affordance>>),
    /// The answer the author states (in the `expect` form of the kind), checked against the
    /// model; `None` removes it. Questions only.
    Expect(Option<Value>),
}

/// An edit to the `lesson` object or the title.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MetaEdit {
    /// The file's title; `None` removes it.
    Title(Option<String>),
    /// Walkthrough or drill.
    Kind(LessonKind),
    /// One sentence, in markup; `None` removes it.
    Summary(Option<String>),
    /// How demanding; `None` removes it.
    Level(Option<Level>),
    /// How long, in minutes (1 to 600); `None` removes it.
    Minutes(Option<u32>),
}

/// A variable of the `variants` grammar.
#[derive(Clone, Debug, PartialEq)]
pub enum VariableSpec {
    /// Numbers, durations (`"1d"`) or RFC 3339 times, from `from` to `to` by `step`.
    Range {
        /// The first value.
        from: Value,
        /// The last value.
        to: Value,
        /// The step between values.
        step: Value,
        /// The value the lesson is written with (else `from`).
        default: Option<Value>,
    },
    /// A list of values or of objects of correlated values (the first is the default).
    Choices(Vec<Value>),
}

/// A time text, checked by the file's grammar.
pub(crate) fn time_text(field: &str, t: &str) -> Result<Value, AuthorError> {
    parse_time(t).map_err(|r| invalid(field, r))?;
    Ok(match t.trim().parse::<i64>() {
        Ok(ms) => json!(ms),
        Err(_) => Value::String(t.trim().to_string()),
    })
}

/// A batch as `{"label"?, "records": [...]}`.
pub(crate) fn batch_json(field: &str, b: &BatchSpec) -> Result<Value, AuthorError> {
    if b.records.is_empty() {
        return Err(invalid(
            format!("{field}.records"),
            "a batch needs at least one record",
        ));
    }
    let mut records = Vec::with_capacity(b.records.len());
    for (i, r) in b.records.iter().enumerate() {
        let mut m = Map::new();
        let f = format!("{field}.records[{i}].timestamp");
        m.insert("timestamp".into(), time_text(&f, &r.timestamp)?);
        if let Some(k) = r.key_bytes {
            m.insert("key_bytes".into(), json!(k));
        }
        if let Some(v) = r.value_bytes.filter(|v| *v != 100) {
            m.insert("value_bytes".into(), json!(v));
        }
        records.push(Value::Object(m));
    }
    let mut m = Map::new();
    if let Some(l) = b.label.as_ref().filter(|l| !l.trim().is_empty()) {
        m.insert("label".into(), json!(l));
    }
    m.insert("records".into(), Value::Array(records));
    Ok(Value::Object(m))
}

/// A lookup's instant or spec as the file's `{"timestamp": T}` or `{"spec": S}`.
fn lookup_json(field: &str, at: &str) -> Result<Map<String, Value>, AuthorError> {
    let mut m = Map::new();
    match at.trim() {
        s @ ("earliest" | "latest" | "max-timestamp") => {
            m.insert("spec".into(), json!(s));
        }
        t => {
            m.insert("timestamp".into(), time_text(field, t)?);
        }
    }
    Ok(m)
}

/// The instant a kind takes from what the author pointed at.
fn pointed_time(field: &str, pointing: Option<&Target>) -> Result<String, AuthorError> {
    match pointing {
        Some(Target::Time(t)) => Ok(t.0.to_string()),
        _ => Err(AuthorError::NeedsTarget {
            field: field.into(),
            what: "needs an instant: give one, or point at a time on the chart or clock".into(),
        }),
    }
}

/// The `(key, body)` of a question of kind `ask`.
pub(crate) fn ask_json(
    ask: &AskKind,
    pointing: Option<&Target>,
) -> Result<(&'static str, Value), AuthorError> {
    let body = match ask {
        AskKind::StrikeSegments => json!("segments"),
        AskKind::StrikeRecords => json!("records"),
        AskKind::Pinning | AskKind::Late => json!({}),
        AskKind::Lookup(at) => {
            let f = "question.lookup.timestamp";
            let at = match at {
                Some(a) => a.clone(),
                None => pointed_time(f, pointing)?,
            };
            Value::Object(lookup_json(f, &at)?)
        }
        AskKind::Choose {
            config,
            accept,
            reject,
        } => json!({"config": config,
                    "accept": batch_json("question.choose.accept", accept)?,
                    "reject": batch_json("question.choose.reject", reject)?}),
        AskKind::ErrorProduce(b) => {
            // The learner sends this one batch; the file names only the batches of a choice.
            if b.label.as_ref().is_some_and(|l| !l.trim().is_empty()) {
                return Err(invalid(
                    "question.error.produce.label",
                    "an error question's batch has no name in the file; say what it is in the question's words",
                ));
            }
            json!({"produce": batch_json("question.error.produce", b)?})
        }
        AskKind::ErrorDeleteRecords(o) => {
            let offset = match (o, pointing) {
                (Some(o), _) => *o,
                (None, Some(Target::Offset(o) | Target::Segment(o))) => o.0,
                _ => {
                    return Err(AuthorError::NeedsTarget {
                        field: "question.error.delete_records.offset".into(),
                        what: "needs an offset: give one, or point at a record or a segment".into(),
                    })
                }
            };
            json!({"delete_records": {"offset": offset}})
        }
        AskKind::Closes(at) => {
            let f = "question.closes.window";
            let at = match at {
                Some(a) => a.clone(),
                None => pointed_time(f, pointing)?,
            };
            json!({ "window": time_text(f, &at)? })
        }
    };
    Ok((ask.key(), body))
}

fn bound_json(b: BoundSpec) -> Value {
    match b {
        BoundSpec::Exactly(n) => json!(n),
        BoundSpec::Within { at_least, at_most } => {
            let mut m = Map::new();
            if let Some(n) = at_least {
                m.insert("at_least".into(), json!(n));
            }
            if let Some(n) = at_most {
                m.insert("at_most".into(), json!(n));
            }
            Value::Object(m)
        }
    }
}

/// A goal (conditions that must all hold) as the file's object. A condition given twice keeps
/// the last (the file's object has one key per condition).
pub(crate) fn goal_json(goal: &[GoalSpec]) -> Result<Value, AuthorError> {
    let mut m = Map::new();
    for g in goal {
        let (k, v) = match g {
            GoalSpec::LogStartOffset(b) => ("log_start_offset", bound_json(*b)),
            GoalSpec::LogEndOffset(b) => ("log_end_offset", bound_json(*b)),
            GoalSpec::HighWatermark(b) => ("high_watermark", bound_json(*b)),
            GoalSpec::Segments(b) => ("segments", bound_json(*b)),
            GoalSpec::RecordsPresent(a, b) => ("records_present", json!([a, b])),
            GoalSpec::RecordsGone(a, b) => ("records_gone", json!([a, b])),
            GoalSpec::NoPinnedSegment => ("no_pinned_segment", json!(true)),
            GoalSpec::NoFutureSegment => ("no_future_segment", json!(true)),
            GoalSpec::Config(name, v) => {
                // Conditions on several configs share the one `config` object.
                let entry = m.entry("config").or_insert_with(|| json!({}));
                if let Value::Object(c) = entry {
                    c.insert(name.clone(), v.clone());
                }
                continue;
            }
            GoalSpec::Rejects(b) => ("rejects", batch_json("task.goal.rejects", b)?),
            GoalSpec::Accepts(b) => ("accepts", batch_json("task.goal.accepts", b)?),
            GoalSpec::Lookup { at, offset } => {
                let mut l = lookup_json("task.goal.lookup.timestamp", at)?;
                l.insert("offset".into(), bound_json(*offset));
                ("lookup", Value::Object(l))
            }
            GoalSpec::LateRecords(b) => ("late_records", bound_json(*b)),
            GoalSpec::Any(goals) => {
                let all: Result<Vec<Value>, AuthorError> =
                    goals.iter().map(|g| goal_json(g)).collect();
                ("any", Value::Array(all?))
            }
        };
        m.insert(k.into(), v);
    }
    if m.is_empty() {
        return Err(invalid("task.goal", "a goal needs at least one condition"));
    }
    Ok(Value::Object(m))
}

/// A variable as the `variants` grammar writes it.
pub(crate) fn variable_json(v: &VariableSpec) -> Result<Value, AuthorError> {
    Ok(match v {
        VariableSpec::Range {
            from,
            to,
            step,
            default,
        } => {
            let mut m = Map::new();
            m.insert("from".into(), from.clone());
            m.insert("to".into(), to.clone());
            m.insert("step".into(), step.clone());
            if let Some(d) = default {
                m.insert("default".into(), d.clone());
            }
            Value::Object(m)
        }
        VariableSpec::Choices(c) if c.is_empty() => {
            return Err(invalid(
                "variants.choices",
                "a list of choices needs one at least",
            ))
        }
        VariableSpec::Choices(c) => json!({ "choices": c }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_model::units::Timestamp;

    #[test]
    fn a_lookup_without_an_instant_takes_the_one_pointed_at() {
        let (k, v) = ask_json(&AskKind::Lookup(None), Some(&Target::Time(Timestamp(5)))).unwrap();
        assert_eq!((k, v), ("lookup", json!({"timestamp": 5})));
        let e = ask_json(&AskKind::Lookup(None), None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "question.lookup.timestamp: needs an instant: give one, or point at a time on the chart or clock"
        );
    }

    #[test]
    fn a_malformed_time_names_the_record_field() {
        let b = BatchSpec {
            label: None,
            records: vec![RecordSpec::at("yesterday")],
        };
        let e = ask_json(&AskKind::ErrorProduce(b), None).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("question.error.produce.records[0].timestamp: malformed time"));
    }

    #[test]
    fn goals_write_one_config_object() {
        let g = goal_json(&[
            GoalSpec::Config("retention.ms".into(), json!(1000)),
            GoalSpec::Config("segment.ms".into(), json!({"at_most": 5})),
            GoalSpec::NoPinnedSegment,
        ])
        .unwrap();
        assert_eq!(
            g,
            json!({"config": {"retention.ms": 1000, "segment.ms": {"at_most": 5}}, "no_pinned_segment": true})
        );
        assert!(goal_json(&[]).is_err());
    }
}
