//! Questions answered inside the explorer. The author never types the answer: [`Question::solve`]
//! computes it from the partition at the question's step, [`Question::grade`] compares a
//! learner's answer with it and explains the difference with sentences drawn from the model's
//! reports, and an optional `expect` is checked against it by `logtime check`.
//!
//! | kind | file | the learner | the answer |
//! |---|---|---|---|
//! | strike segments | `"strike": "segments"` | strikes segments | the segments the next scheduled retention pass deletes (the retention task's, or the log cleaner's on a compacted topic) |
//! | strike records | `"strike": "records"` | strikes records | their offsets, as ranges |
//! | lookup | `"lookup": {"timestamp": T}` | clicks an offset | what ListOffsets returns (`-1`: nothing) |
//! | pinning | `"pinning": {}` | picks a segment | the first segment retention keeps, when it keeps a future stamp or expired segments behind it |
//! | choose | `"choose": {"config": name, "accept": batch, "reject": batch}` | sets a value | every value that accepts the first batch and rejects the second |
//! | error | `"error": {"produce": batch}` or `{"delete_records": {...}}` | picks an error code | the broker's code, `0` when it accepts |
//! | late | `"late": {}` | strikes records | the records the lesson's stream processor drops as late ([`crate::stream`]) |
//! | closes | `"closes": {"window": T}` | clicks a record | the record whose read closes the window holding `T` (`-1`: still open) |

use super::action::{Action, Batch, FieldError};
use super::goal::{lookup_spec, Probe};
use super::markup::Markup;
use super::target::{Affordance, Affordances};
use crate::misconception::Misconception;
use crate::stream::{self, StreamConfig, StreamReport, Window};
use logtime_core::scenario::narrate::Sentence;
use logtime_core::scenario::{StepReport, TimeSpec};
use logtime_model::config::{Config, KafkaVersion};
use logtime_model::lookup::{Lookup, OffsetSpec};
use logtime_model::retention::RetentionReport;
use logtime_model::units::Offset;
use serde_json::Value;
use std::fmt;

mod solve;
mod subject;
pub(crate) use solve::{accepts, label, pinning_segment};

/// What a question asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// The segments the next retention check deletes.
    StrikeSegments,
    /// The records the next retention check deletes.
    StrikeRecords,
    /// The offset a lookup returns.
    Lookup(TimeSpec, Option<OffsetSpec>),
    /// The segment that pins retention.
    Pinning,
    /// A value of a config that accepts one batch and rejects another.
    Choose {
        /// The config, by its Kafka name.
        config: String,
        /// The batch that must be accepted.
        accept: Probe,
        /// The batch that must be rejected.
        reject: Probe,
    },
    /// The error code the broker answers to an action.
    Error(Action),
    /// The records the stream processor drops as late.
    Late(StreamConfig),
    /// The record whose read closes the window holding an instant.
    Closes(StreamConfig, TimeSpec),
}

/// An answer: a learner's, an author's `expect`, or the model's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Segments, by base offset, ascending.
    Segments(Vec<Offset>),
    /// Records, as ascending, disjoint, non-adjacent ranges `(first, last)`.
    Records(Vec<(Offset, Offset)>),
    /// One offset (`-1`: the lookup finds nothing).
    Offset(Offset),
    /// One segment.
    Segment(Offset),
    /// One config value.
    Value(i64),
    /// Every config value from `min` to `max` (the model's answer to a choose question, or an
    /// author's exact range).
    Values {
        /// The least.
        min: i64,
        /// The greatest.
        max: i64,
    },
    /// A Kafka error code (`0`: no error).
    ErrorCode(i16),
}

impl Answer {
    /// Segments, sorted and deduplicated.
    pub fn segments(mut v: Vec<Offset>) -> Answer {
        v.sort();
        v.dedup();
        Answer::Segments(v)
    }

    /// Records from offsets and ranges, merged into sorted, disjoint ranges.
    pub fn records(mut v: Vec<(Offset, Offset)>) -> Answer {
        v.sort();
        let mut out: Vec<(Offset, Offset)> = Vec::with_capacity(v.len());
        for (a, b) in v {
            match out.last_mut() {
                Some(last) if a.0 <= last.1 .0.saturating_add(1) => last.1 = last.1.max(b),
                _ => out.push((a, b)),
            }
        }
        Answer::Records(out)
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Segments(v) if v.is_empty() => f.write_str("no segment"),
            Answer::Segments(v) => {
                // Plural even for one, as `records 5` is: `segment 5` is the answer to a
                // question that asks for one segment, and an answer key must tell them apart.
                let b: Vec<String> = v.iter().map(|o| o.to_string()).collect();
                write!(f, "segments {}", b.join(", "))
            }
            Answer::Records(v) if v.is_empty() => f.write_str("no record"),
            Answer::Records(v) => {
                let r: Vec<String> = v
                    .iter()
                    .map(|(a, b)| {
                        if a == b {
                            a.to_string()
                        } else {
                            format!("{a} to {b}")
                        }
                    })
                    .collect();
                write!(f, "records {}", r.join(", "))
            }
            Answer::Offset(o) if o.0 < 0 => f.write_str("no offset (-1)"),
            Answer::Offset(o) => write!(f, "offset {o}"),
            Answer::Segment(o) => write!(f, "segment {o}"),
            Answer::Value(v) => write!(f, "{v}"),
            Answer::Values { min, max } if min == max => write!(f, "exactly {min}"),
            Answer::Values { min, max } => write!(f, "any value from {min} to {max}"),
            Answer::ErrorCode(c) => write!(
                f,
                "error {c} {}",
                crate::errors::error_name(*c).unwrap_or("UNKNOWN")
            ),
        }
    }
}

/// What the model found: the right answer and the report it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    /// The right answer ([`Answer::Values`] for a choose question).
    pub answer: Answer,
    /// Where it comes from.
    pub evidence: Evidence,
}

/// The report behind an answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Evidence {
    /// What a retention check now would do (strike and pinning questions).
    Retention(RetentionReport),
    /// The lookup with its trace.
    Lookup(Lookup),
    /// The broker's answer to each batch at the bounds of the right range.
    Choose {
        /// The config.
        config: String,
        /// The batch that must be accepted, and the broker's answer to it at `min - 1` (when
        /// that value is valid): the reason a lower value is wrong.
        accept_below: Option<Result<(), logtime_model::validation::ProduceError>>,
        /// The broker's answer to the batch that must be rejected, at `max`.
        reject_at_max: Result<(), logtime_model::validation::ProduceError>,
        /// The broker's answer to it at `max + 1` (when valid): why a higher value is wrong.
        reject_above: Option<Result<(), logtime_model::validation::ProduceError>>,
    },
    /// The stream processor's run over the partition, and the window asked about.
    Stream {
        /// The run.
        report: Box<StreamReport>,
        /// The window a `closes` question asks about.
        window: Option<Window>,
    },
    /// What the action did, and the config in force after it (on the copy the action ran on,
    /// which a question's `kafka` preset may have switched): the narrator words the report by
    /// it.
    Outcome {
        /// The action's report.
        report: StepReport,
        /// The config after the action.
        config: Config,
    },
}

/// A graded answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grade {
    /// Whether it is right.
    pub correct: bool,
    /// Why, from the model's reports: for a wrong answer, about the learner's own choice only
    /// (never naming the right one), then the rule it misses.
    pub feedback: Vec<Sentence>,
    /// The rule a wrong answer misses.
    pub misconception: Option<Misconception>,
    /// The author's explanation (`reveal`), once a right answer settles the question.
    pub explanation: Vec<Sentence>,
}

/// One question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// A short name for score summaries.
    pub title: String,
    /// What the learner is asked (markup).
    pub ask: Markup,
    /// The kind of question.
    pub kind: Ask,
    /// Evaluate under this version preset instead of the one in force.
    pub kafka: Option<KafkaVersion>,
    /// Ordered hints.
    pub hints: Vec<Markup>,
    /// The author's explanation: shown once the question is settled (answered right, at once or
    /// after tries, or revealed).
    pub reveal: Option<Markup>,
    /// The author's words for classes of wrong answer, replacing core's teaching text.
    pub wrong: Vec<(Misconception, Markup)>,
    /// The answer the author states, verified by `logtime check`.
    pub expect: Option<Answer>,
    /// Points for a right answer.
    pub points: u32,
    /// Affordances hidden until the question is answered.
    pub hide: Affordances,
}

/// The question kinds, for error messages.
pub const QUESTION_KINDS: &str = "strike, lookup, pinning, choose, error, late, closes";

/// Every key of a question.
pub const QUESTION_KEYS: &[&str] = &[
    "title", "ask", "strike", "lookup", "pinning", "choose", "error", "late", "closes", "stream",
    "kafka", "hints", "reveal", "wrong", "expect", "points", "hide",
];

/// Configs whose larger values accept more batches, so that "accept one, reject the other" is a
/// range of values: the configs a `choose` question may ask for.
pub const CHOOSE_CONFIGS: &[&str] = &[
    "message.timestamp.after.max.ms",
    "message.timestamp.before.max.ms",
    "message.timestamp.difference.max.ms",
    "max.message.bytes",
];

fn offsets(v: &Value) -> Option<Vec<Offset>> {
    match v {
        Value::Array(a) => a
            .iter()
            .map(|x| x.as_i64().filter(|n| *n >= 0).map(Offset))
            .collect(),
        _ => None,
    }
}

/// The one kind key a question body has.
fn ask_kind(m: &serde_json::Map<String, Value>) -> Result<&'static str, FieldError> {
    let kinds: Vec<&str> = [
        "strike", "lookup", "pinning", "choose", "error", "late", "closes",
    ]
    .into_iter()
    .filter(|k| m.contains_key(*k))
    .collect();
    let [k] = kinds[..] else {
        return Err((
            String::new(),
            format!(
                "a question has exactly one of: {QUESTION_KINDS} (found {})",
                if kinds.is_empty() {
                    "none".to_string()
                } else {
                    kinds.join(", ")
                }
            ),
        ));
    };
    Ok(k)
}

/// The stream processor a question of kind `k` reads: the lesson's `stream`, overridden by
/// the question's own `stream` object; `None` for a question that does not read it.
fn ask_stream(
    k: &str,
    m: &serde_json::Map<String, Value>,
    stream: Option<&StreamConfig>,
) -> Result<Option<StreamConfig>, FieldError> {
    let at = |r: &str| (k.to_string(), r.to_string());
    let reads_stream = matches!(k, "late" | "closes");
    if m.contains_key("stream") && !reads_stream {
        return Err((
            "stream".into(),
            "only late and closes questions read the stream processor".into(),
        ));
    }
    Ok(if reads_stream {
        Some(match (m.get("stream"), stream) {
            (Some(o), base) => stream::section::parse(o, base).map_err(|(f, r)| {
                (
                    if f.is_empty() {
                        "stream".to_string()
                    } else {
                        format!("stream.{f}")
                    },
                    r,
                )
            })?,
            (None, Some(base)) => *base,
            (None, None) => {
                return Err(at(
                    "this question reads the stream processor: give the lesson a top-level \"stream\" section (or the question a \"stream\" object with a window)",
                ))
            }
        })
    } else {
        None
    })
}

/// A `choose` question: the config to choose and the batches it must accept and reject.
fn choose(v: &Value) -> Result<Ask, FieldError> {
    let at = |r: &str| ("choose".to_string(), r.to_string());
    let Value::Object(c) = v else {
        return Err(at(
            "expected {\"config\": name, \"accept\": batch, \"reject\": batch}",
        ));
    };
    if let Some(x) = c
        .keys()
        .find(|x| !["config", "accept", "reject"].contains(&x.as_str()))
    {
        return Err((
            format!("choose.{x}"),
            "unknown key (expected: config, accept, reject)".into(),
        ));
    }
    let config = match c.get("config") {
        Some(Value::String(s)) if CHOOSE_CONFIGS.contains(&s.as_str()) => s.clone(),
        Some(Value::String(s)) => {
            return Err((
                "choose.config".into(),
                format!(
                    "{s} cannot be chosen: use one of {} (larger values accept more batches)",
                    CHOOSE_CONFIGS.join(", ")
                ),
            ))
        }
        _ => return Err(("choose.config".into(), "missing: a config name".into())),
    };
    let batch = |name: &str| -> Result<Probe, FieldError> {
        let mut b = c.get(name).cloned().ok_or((
            format!("choose.{name}"),
            "missing: a batch {\"records\": [...]}".to_string(),
        ))?;
        let label = match &mut b {
            Value::Object(o) => match o.remove("label") {
                Some(Value::String(s)) => Some(s),
                None => None,
                Some(_) => {
                    return Err((format!("choose.{name}.label"), "expected a string".into()))
                }
            },
            _ => None,
        };
        Ok(Probe {
            batch: Batch::parse(&b).map_err(|(f, r)| (format!("choose.{name}{f}"), r))?,
            label,
        })
    };
    Ok(Ask::Choose {
        config,
        accept: batch("accept")?,
        reject: batch("reject")?,
    })
}

/// A `closes` question: the read that closes the window holding an instant.
fn closes(v: &Value, stream: StreamConfig) -> Result<Ask, FieldError> {
    let at = |r: &str| ("closes".to_string(), r.to_string());
    let Value::Object(c) = v else {
        return Err(at(
            "expected {\"window\": T}, T an instant inside the window",
        ));
    };
    if let Some(x) = c.keys().find(|x| x.as_str() != "window") {
        return Err((
            format!("closes.{x}"),
            "unknown key (expected: window)".into(),
        ));
    }
    let t = match c.get("window") {
        Some(Value::Number(n)) => TimeSpec::Absolute(n.as_i64().ok_or((
            "closes.window".to_string(),
            format!("{n} is not a 64-bit integer"),
        ))?),
        Some(Value::String(s)) => {
            logtime_core::scenario::parse_time(s).map_err(|r| ("closes.window".to_string(), r))?
        }
        _ => {
            return Err((
                "closes.window".into(),
                "missing: an instant inside the window, like \"2027-03-12T10:00:00Z\"".into(),
            ))
        }
    };
    Ok(Ask::Closes(stream, t))
}

impl Ask {
    /// Parses the kind key of a question body; `stream` is the lesson's `stream` section, which a
    /// question's own `stream` object overrides.
    pub(crate) fn parse(
        m: &serde_json::Map<String, Value>,
        stream: Option<&StreamConfig>,
    ) -> Result<Ask, FieldError> {
        let k = ask_kind(m)?;
        let v = &m[k];
        let at = |r: &str| (k.to_string(), r.to_string());
        let stream = ask_stream(k, m, stream)?;
        Ok(match k {
            "strike" => match v.as_str() {
                Some("segments") => Ask::StrikeSegments,
                Some("records") => Ask::StrikeRecords,
                _ => return Err(at("expected \"segments\" or \"records\"")),
            },
            "lookup" => {
                let Value::Object(l) = v else {
                    return Err(at("expected {\"timestamp\": T} or {\"spec\": S}"));
                };
                let (t, s) = lookup_spec(l).map_err(|(f, r)| (format!("lookup{f}"), r))?;
                Ask::Lookup(t, s)
            }
            "pinning" => match v {
                Value::Object(o) if o.is_empty() => Ask::Pinning,
                _ => return Err(at("expected {}")),
            },
            "choose" => choose(v)?,
            "error" => {
                let a = Action::parse(v).map_err(|(f, r)| {
                    (format!("error.{f}").trim_end_matches('.').to_string(), r)
                })?;
                if !matches!(a, Action::Produce(_) | Action::DeleteRecords(_)) {
                    return Err(at("an error question probes produce or delete_records"));
                }
                Ask::Error(a)
            }
            "late" => match v {
                Value::Object(o) if o.is_empty() => {
                    Ask::Late(stream.expect("read above for stream questions"))
                }
                _ => return Err(at("expected {}")),
            },
            "closes" => closes(v, stream.expect("read above for stream questions"))?,
            _ => unreachable!("filtered above"),
        })
    }

    /// The default short name.
    pub(crate) fn default_title(&self) -> String {
        match self {
            Ask::StrikeSegments => "Strike the segments the next retention check deletes".into(),
            Ask::StrikeRecords => "Strike the records the next retention check deletes".into(),
            Ask::Lookup(..) => "Click the offset the lookup returns".into(),
            Ask::Pinning => "Pick the segment that pins retention".into(),
            Ask::Choose { config, .. } => {
                format!("Choose {config} to accept one batch and reject the other")
            }
            Ask::Error(_) => "Predict the broker's error code".into(),
            Ask::Late(_) => "Strike the records the stream processor drops as late".into(),
            Ask::Closes(..) => "Click the record that closes the window".into(),
        }
    }

    /// The affordances hidden by default until the question is answered.
    pub(crate) fn default_hide(&self) -> Affordances {
        use Affordance::*;
        Affordances::of(match self {
            // Age colours and future marks point at the pinning segment and at what expired.
            Ask::StrikeSegments | Ask::StrikeRecords | Ask::Pinning => {
                &[Verdicts, PinnedBadges, Remedies, AnswerPanel, AgeMarks][..]
            }
            Ask::Lookup(..) => &[LookupTrace, AnswerPanel],
            Ask::Choose { .. } => &[Remedies, AnswerPanel],
            Ask::Error(_) => &[AnswerPanel],
            Ask::Late(_) | Ask::Closes(..) => &[StreamVerdicts, AnswerPanel],
        })
    }

    /// Parses an answer in the form this kind takes (an `expect` field).
    pub(crate) fn parse_answer(&self, v: &Value) -> Result<Answer, String> {
        match self {
            Ask::StrikeSegments => offsets(v)
                .map(Answer::segments)
                .ok_or_else(|| "expected an array of segment base offsets, like [0, 10000]".into()),
            Ask::StrikeRecords | Ask::Late(_) => {
                let Value::Array(a) = v else {
                    return Err("expected an array of offsets and [first, last] ranges".into());
                };
                let mut out = Vec::with_capacity(a.len());
                for x in a {
                    let r = match x {
                        Value::Number(_) => x.as_i64().map(|n| (n, n)),
                        Value::Array(p) if p.len() == 2 => p[0].as_i64().zip(p[1].as_i64()),
                        _ => None,
                    };
                    match r {
                        Some((f, l)) if 0 <= f && f <= l => out.push((Offset(f), Offset(l))),
                        _ => return Err(format!("{x} is not an offset or a [first, last] range")),
                    }
                }
                Ok(Answer::records(out))
            }
            Ask::Lookup(..) => v
                .as_i64()
                .filter(|n| *n >= -1)
                .map(|n| Answer::Offset(Offset(n)))
                .ok_or_else(|| "expected an offset (-1: the lookup finds nothing)".into()),
            Ask::Closes(..) => v
                .as_i64()
                .filter(|n| *n >= -1)
                .map(|n| Answer::Offset(Offset(n)))
                .ok_or_else(|| "expected an offset (-1: no record read closes it)".into()),
            Ask::Pinning => v
                .as_i64()
                .filter(|n| *n >= 0)
                .map(|n| Answer::Segment(Offset(n)))
                .ok_or_else(|| "expected a segment base offset".into()),
            Ask::Choose { .. } => match v {
                Value::Number(n) => n.as_i64().map(Answer::Value).ok_or_else(|| format!("{n} is not a 64-bit integer")),
                Value::Object(o) => match (o.get("at_least").and_then(Value::as_i64), o.get("at_most").and_then(Value::as_i64), o.len()) {
                    (Some(min), Some(max), 2) if min <= max => Ok(Answer::Values { min, max }),
                    _ => Err("expected a value, or {\"at_least\": N, \"at_most\": M} for the exact range".into()),
                },
                _ => Err("expected a value, or {\"at_least\": N, \"at_most\": M} for the exact range".into()),
            },
            Ask::Error(_) => match v {
                Value::Number(n) => n
                    .as_i64()
                    .and_then(|c| i16::try_from(c).ok())
                    .map(Answer::ErrorCode)
                    .ok_or_else(|| format!("{n} is not an error code")),
                Value::String(s) => crate::errors::parse_error_code(s).map(Answer::ErrorCode),
                _ => Err("expected an error code (32) or name (\"INVALID_TIMESTAMP\"; 0 or \"NONE\": accepted)".into()),
            },
        }
    }
}
