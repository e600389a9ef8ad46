//! Goals: predicates over a live partition that say when a task is done.
//!
//! A goal is a JSON object; every key is one condition and all must hold (`"any": [goal, ...]`
//! holds when one of its goals does):
//!
//! | key | holds when |
//! |---|---|
//! | `log_start_offset`, `log_end_offset`, `high_watermark`, `segments` | the number is `N`, or within `{"at_least": N, "at_most": M}` |
//! | `records_present: [first, last]` | every offset from `first` to `last` is still readable (at or above the log start offset, below the log end offset) |
//! | `records_gone: [first, last]` | none of them is readable any more |
//! | `no_pinned_segment: true` | a retention check now would keep no expired segment behind a survivor |
//! | `no_future_segment: true` | no segment's largest timestamp is ahead of the clock |
//! | `config: {"name": value or bound}` | the config has that value (or lies within the bound) |
//! | `rejects: {"records": [...], "label": "..."}` | the broker would refuse that batch now |
//! | `accepts: {...}` | the broker would append that batch now |
//! | `lookup: {"timestamp": T or "spec": S, "offset": N or bound}` | a lookup now returns such an offset (`-1`: none) |
//! | `late_records: N or bound` | the lesson's stream processor, reading the partition now, drops that many records as late |
//!
//! Evaluation reads the partition and never changes it; each condition comes back with a
//! sentence saying what the model found, for a live checklist.

use super::action::{Batch, FieldError};
use crate::stream::StreamConfig;
use logtime_core::scenario::narrate::Sentence;
use logtime_core::scenario::time::parse_time;
use logtime_core::scenario::TimeSpec;
use logtime_model::lookup::OffsetSpec;
use logtime_model::units::{Offset, Timestamp};
use serde_json::{Map, Value};

mod evaluate;
#[cfg(test)]
mod tests;

/// A closed range of integers: `N` is `{"at_least": N, "at_most": N}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The least value allowed.
    pub at_least: Option<i64>,
    /// The greatest value allowed.
    pub at_most: Option<i64>,
}

impl Bound {
    /// Whether `n` lies within.
    pub fn holds(&self, n: i64) -> bool {
        self.at_least.is_none_or(|a| n >= a) && self.at_most.is_none_or(|m| n <= m)
    }

    fn parse(v: &Value) -> Result<Bound, String> {
        match v {
            Value::Number(n) => {
                let n = n.as_i64().ok_or(format!("{n} is not a 64-bit integer"))?;
                Ok(Bound {
                    at_least: Some(n),
                    at_most: Some(n),
                })
            }
            Value::Object(m) if !m.is_empty() => {
                let mut b = Bound {
                    at_least: None,
                    at_most: None,
                };
                for (k, x) in m {
                    let n = x
                        .as_i64()
                        .ok_or_else(|| format!("{k}: expected an integer"))?;
                    match k.as_str() {
                        "at_least" => b.at_least = Some(n),
                        "at_most" => b.at_most = Some(n),
                        _ => return Err(format!("unknown key {k:?} (expected at_least, at_most)")),
                    }
                }
                if let (Some(a), Some(m)) = (b.at_least, b.at_most) {
                    if a > m {
                        return Err(format!(
                            "at_least {a} is above at_most {m}: nothing can hold"
                        ));
                    }
                }
                Ok(b)
            }
            _ => Err("expected an integer or {\"at_least\": N, \"at_most\": M}".into()),
        }
    }
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.at_least, self.at_most) {
            (Some(a), Some(m)) if a == m => write!(f, "{a}"),
            (Some(a), Some(m)) => write!(f, "from {a} to {m}"),
            (Some(a), None) => write!(f, "at least {a}"),
            (None, Some(m)) => write!(f, "at most {m}"),
            (None, None) => f.write_str("any value"),
        }
    }
}

/// A batch a goal asks the broker about, with the words that name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The batch.
    pub batch: Batch,
    /// How to name it (`the 9-hour-fast producer's batch`); default: its first stamp.
    pub label: Option<String>,
}

/// One condition of a goal, or a combination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Every goal holds.
    All(Vec<Goal>),
    /// At least one goal holds.
    Any(Vec<Goal>),
    /// The log start offset lies within.
    LogStartOffset(Bound),
    /// The log end offset lies within.
    LogEndOffset(Bound),
    /// The high watermark lies within.
    HighWatermark(Bound),
    /// The number of segments lies within.
    Segments(Bound),
    /// Every offset from `first` to `last` is readable.
    RecordsPresent(Offset, Offset),
    /// No offset from `first` to `last` is readable.
    RecordsGone(Offset, Offset),
    /// A retention check now keeps no expired segment behind a survivor.
    NoPinnedSegment,
    /// No segment's largest timestamp is ahead of the clock.
    NoFutureSegment,
    /// A numeric config lies within a bound.
    ConfigWithin(String, Bound),
    /// A config has this text value.
    ConfigIs(String, String),
    /// The broker would refuse this batch now.
    Rejects(Probe),
    /// The broker would append this batch now.
    Accepts(Probe),
    /// A lookup now returns an offset within the bound.
    Lookup(TimeSpec, Option<OffsetSpec>, Bound),
    /// The stream processor, reading the partition now, drops a number of records within the
    /// bound as late.
    LateRecords(StreamConfig, Bound),
}

/// Every condition key, in the order conditions are evaluated and listed.
pub const GOAL_KEYS: &[&str] = &[
    "log_start_offset",
    "log_end_offset",
    "high_watermark",
    "segments",
    "records_present",
    "records_gone",
    "no_pinned_segment",
    "no_future_segment",
    "config",
    "rejects",
    "accepts",
    "lookup",
    "late_records",
    "any",
];

/// One condition's state on the live partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalCheck {
    /// Whether it holds.
    pub met: bool,
    /// What the model found, e.g. `log start offset 20000 (needs at least 30000)`.
    pub sentence: Sentence,
}

/// A goal's state on the live partition: met when every check is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalStatus {
    /// Whether the goal holds.
    pub met: bool,
    /// One entry per condition, in [`GOAL_KEYS`] order.
    pub checks: Vec<GoalCheck>,
}

fn range(v: &Value) -> Result<(Offset, Offset), String> {
    let pair = match v {
        Value::Number(_) => v.as_i64().map(|n| (n, n)),
        Value::Array(a) if a.len() == 2 => a[0].as_i64().zip(a[1].as_i64()),
        _ => None,
    }
    .ok_or("expected an offset or [first, last]")?;
    if pair.0 < 0 || pair.1 < pair.0 {
        return Err(format!(
            "[{}, {}] is not a range of offsets",
            pair.0, pair.1
        ));
    }
    Ok((Offset(pair.0), Offset(pair.1)))
}

fn probe(v: &Value) -> Result<Probe, FieldError> {
    let mut v = v.clone();
    let label = match &mut v {
        Value::Object(m) => match m.remove("label") {
            None => None,
            Some(Value::String(s)) => Some(s),
            Some(_) => return Err((".label".into(), "expected a string".into())),
        },
        _ => None,
    };
    Ok(Probe {
        batch: Batch::parse(&v)?,
        label,
    })
}

fn flag(k: &str, v: &Value) -> Result<(), FieldError> {
    if *v == Value::Bool(true) {
        Ok(())
    } else {
        Err((k.into(), "expected true".into()))
    }
}

/// A lookup target: `{"timestamp": T}` or `{"spec": "earliest" | "latest" | "max-timestamp"}`.
pub(crate) fn lookup_spec(
    m: &Map<String, Value>,
) -> Result<(TimeSpec, Option<OffsetSpec>), FieldError> {
    match (m.get("timestamp"), m.get("spec")) {
        (Some(t), None) => {
            let spec = match t {
                Value::Number(n) => TimeSpec::Absolute(n.as_i64().ok_or((
                    ".timestamp".to_string(),
                    format!("{n} is not a 64-bit integer"),
                ))?),
                Value::String(s) => parse_time(s).map_err(|r| (".timestamp".to_string(), r))?,
                _ => return Err((".timestamp".into(), "expected a time".into())),
            };
            Ok((spec, None))
        }
        (None, Some(Value::String(s))) => match s.as_str() {
            "earliest" => Ok((TimeSpec::Absolute(0), Some(OffsetSpec::Earliest))),
            "latest" => Ok((TimeSpec::Absolute(0), Some(OffsetSpec::Latest))),
            "max-timestamp" => Ok((TimeSpec::Absolute(0), Some(OffsetSpec::MaxTimestamp))),
            _ => Err((
                ".spec".into(),
                format!("unknown spec {s:?} (expected earliest, latest or max-timestamp)"),
            )),
        },
        _ => Err((
            String::new(),
            "expected exactly one of \"timestamp\" or \"spec\"".into(),
        )),
    }
}

/// The spec a lookup target names when the clock reads `now`.
pub(crate) fn resolve_spec(
    t: TimeSpec,
    s: Option<OffsetSpec>,
    now: Timestamp,
) -> Option<OffsetSpec> {
    match s {
        Some(s) => Some(s),
        None => t.resolve(now.0).map(OffsetSpec::from_wire),
    }
}

impl Goal {
    /// Parses a goal object; the error's field is relative to the goal (`records_present`).
    pub fn parse(v: &Value) -> Result<Goal, FieldError> {
        Goal::parse_with(v, None)
    }

    /// Parses a goal object in a lesson whose `stream` section is `stream` (which
    /// `late_records` needs).
    pub fn parse_with(v: &Value, stream: Option<&StreamConfig>) -> Result<Goal, FieldError> {
        let Value::Object(m) = v else {
            return Err((String::new(), "expected an object of conditions".into()));
        };
        if m.is_empty() {
            return Err((String::new(), "a goal needs at least one condition".into()));
        }
        if let Some(k) = m.keys().find(|k| !GOAL_KEYS.contains(&k.as_str())) {
            return Err((
                k.clone(),
                format!(
                    "unknown condition (expected one of: {})",
                    GOAL_KEYS.join(", ")
                ),
            ));
        }
        let mut all = Vec::new();
        for &k in GOAL_KEYS {
            let Some(x) = m.get(k) else { continue };
            let at = |r: String| (k.to_string(), r);
            match k {
                "log_start_offset" => all.push(Goal::LogStartOffset(Bound::parse(x).map_err(at)?)),
                "log_end_offset" => all.push(Goal::LogEndOffset(Bound::parse(x).map_err(at)?)),
                "high_watermark" => all.push(Goal::HighWatermark(Bound::parse(x).map_err(at)?)),
                "segments" => all.push(Goal::Segments(Bound::parse(x).map_err(at)?)),
                "records_present" => {
                    let (a, b) = range(x).map_err(at)?;
                    all.push(Goal::RecordsPresent(a, b));
                }
                "records_gone" => {
                    let (a, b) = range(x).map_err(at)?;
                    all.push(Goal::RecordsGone(a, b));
                }
                "no_pinned_segment" => {
                    flag(k, x)?;
                    all.push(Goal::NoPinnedSegment);
                }
                "no_future_segment" => {
                    flag(k, x)?;
                    all.push(Goal::NoFutureSegment);
                }
                "config" => config_goals(x, &mut all)?,
                "rejects" | "accepts" => {
                    let p = probe(x).map_err(|(f, r)| (format!("{k}{f}"), r))?;
                    all.push(if k == "rejects" {
                        Goal::Rejects(p)
                    } else {
                        Goal::Accepts(p)
                    });
                }
                "lookup" => all.push(lookup_goal(x)?),
                "late_records" => {
                    let c = stream.ok_or_else(|| {
                        at("reads the stream processor: give the lesson a top-level \"stream\" section".into())
                    })?;
                    all.push(Goal::LateRecords(*c, Bound::parse(x).map_err(at)?));
                }
                "any" => all.push(any_goal(x, stream)?),
                _ => unreachable!("every key of GOAL_KEYS is handled"),
            }
        }
        Ok(if all.len() == 1 {
            all.pop().expect("one")
        } else {
            Goal::All(all)
        })
    }
}

/// The `config` condition: each config equal to a string or within a bound, one goal each.
fn config_goals(x: &Value, all: &mut Vec<Goal>) -> Result<(), FieldError> {
    let at = |r: String| ("config".to_string(), r);
    let Value::Object(c) = x else {
        return Err(at(
            "expected an object of config names to values or bounds".into()
        ));
    };
    for (name, want) in c {
        let f = |r: String| (format!("config.{name}"), r);
        all.push(match want {
            Value::String(s) => Goal::ConfigIs(name.clone(), s.clone()),
            other => Goal::ConfigWithin(name.clone(), Bound::parse(other).map_err(f)?),
        });
    }
    Ok(())
}

/// The `lookup` condition: a lookup's spec and a bound on the offset it returns.
fn lookup_goal(x: &Value) -> Result<Goal, FieldError> {
    let at = |r: String| ("lookup".to_string(), r);
    let Value::Object(l) = x else {
        return Err(at("expected {\"timestamp\": T, \"offset\": N}".into()));
    };
    let mut l = l.clone();
    let offset = l
        .remove("offset")
        .ok_or(("lookup.offset".to_string(), "missing".to_string()))?;
    let bound = Bound::parse(&offset).map_err(|r| ("lookup.offset".to_string(), r))?;
    let (t, s) = lookup_spec(&l).map_err(|(f, r)| (format!("lookup{f}"), r))?;
    Ok(Goal::Lookup(t, s, bound))
}

/// The `any` condition: at least one of its goals, each parsed in the same lesson.
fn any_goal(x: &Value, stream: Option<&StreamConfig>) -> Result<Goal, FieldError> {
    let at = |r: String| ("any".to_string(), r);
    let Value::Array(a) = x else {
        return Err(at("expected an array of goals".into()));
    };
    if a.is_empty() {
        return Err(at("expected at least one goal".into()));
    }
    let mut alts = Vec::with_capacity(a.len());
    for (i, g) in a.iter().enumerate() {
        alts.push(Goal::parse_with(g, stream).map_err(|(f, r)| {
            (
                format!("any[{i}]{}{f}", if f.is_empty() { "" } else { "." }),
                r,
            )
        })?);
    }
    Ok(Goal::Any(alts))
}
