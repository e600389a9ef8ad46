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
use logtime_core::human::date;
use logtime_core::scenario::narrate::Sentence;
use logtime_core::scenario::time::parse_time;
use logtime_core::scenario::TimeSpec;
use logtime_model::config::ConfigValue;
use logtime_model::lookup::OffsetSpec;
use logtime_model::partition::Partition;
use logtime_model::retention::Verdict;
use logtime_model::units::{Offset, Timestamp};
use logtime_model::validation::validate;
use serde_json::{Map, Value};

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
                "config" => {
                    let Value::Object(c) = x else {
                        return Err(at(
                            "expected an object of config names to values or bounds".into()
                        ));
                    };
                    for (name, want) in c {
                        let f = |r: String| (format!("config.{name}"), r);
                        all.push(match want {
                            Value::String(s) => Goal::ConfigIs(name.clone(), s.clone()),
                            other => {
                                Goal::ConfigWithin(name.clone(), Bound::parse(other).map_err(f)?)
                            }
                        });
                    }
                }
                "rejects" | "accepts" => {
                    let p = probe(x).map_err(|(f, r)| (format!("{k}{f}"), r))?;
                    all.push(if k == "rejects" {
                        Goal::Rejects(p)
                    } else {
                        Goal::Accepts(p)
                    });
                }
                "lookup" => {
                    let Value::Object(l) = x else {
                        return Err(at("expected {\"timestamp\": T, \"offset\": N}".into()));
                    };
                    let mut l = l.clone();
                    let offset = l
                        .remove("offset")
                        .ok_or(("lookup.offset".to_string(), "missing".to_string()))?;
                    let bound =
                        Bound::parse(&offset).map_err(|r| ("lookup.offset".to_string(), r))?;
                    let (t, s) = lookup_spec(&l).map_err(|(f, r)| (format!("lookup{f}"), r))?;
                    all.push(Goal::Lookup(t, s, bound));
                }
                "late_records" => {
                    let c = stream.ok_or_else(|| {
                        at("reads the stream processor: give the lesson a top-level \"stream\" section".into())
                    })?;
                    all.push(Goal::LateRecords(*c, Bound::parse(x).map_err(at)?));
                }
                "any" => {
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
                    all.push(Goal::Any(alts));
                }
                _ => unreachable!("every key of GOAL_KEYS is handled"),
            }
        }
        Ok(if all.len() == 1 {
            all.pop().expect("one")
        } else {
            Goal::All(all)
        })
    }

    /// The goal's state on `p`.
    pub fn evaluate(&self, p: &Partition) -> GoalStatus {
        let checks = match self {
            Goal::All(goals) => goals.iter().map(|g| g.check(p)).collect(),
            other => vec![other.check(p)],
        };
        GoalStatus {
            met: checks.iter().all(|c: &GoalCheck| c.met),
            checks,
        }
    }

    /// Whether the goal holds on `p`.
    pub fn holds(&self, p: &Partition) -> bool {
        self.evaluate(p).met
    }

    fn check(&self, p: &Partition) -> GoalCheck {
        let now = p.clock();
        let number = |name: &str, n: i64, b: &Bound| {
            let met = b.holds(n);
            let mut s = Sentence::plain(format!("{name} {n}"));
            if !(met && b.at_least == b.at_most) {
                s.text(format!(" (needs {b})"));
            }
            GoalCheck { met, sentence: s }
        };
        match self {
            Goal::All(goals) => {
                let checks: Vec<GoalCheck> = goals.iter().map(|g| g.check(p)).collect();
                GoalCheck {
                    met: checks.iter().all(|c| c.met),
                    sentence: Sentence::join(checks.into_iter().map(|c| c.sentence), "; "),
                }
            }
            Goal::Any(goals) => {
                let checks: Vec<GoalCheck> = goals.iter().map(|g| g.check(p)).collect();
                let mut s = Sentence::plain("one of: ");
                s.append(Sentence::join(
                    checks.iter().map(|c| c.sentence.clone()),
                    " or ",
                ));
                GoalCheck {
                    met: checks.iter().any(|c| c.met),
                    sentence: s,
                }
            }
            Goal::LogStartOffset(b) => number("log start offset", p.log_start_offset().0, b),
            Goal::LogEndOffset(b) => number("log end offset", p.log_end_offset().0, b),
            Goal::HighWatermark(b) => number("high watermark", p.high_watermark().0, b),
            Goal::Segments(b) => number("segment count", p.segments().len() as i64, b),
            // Readable offsets are [log start offset, log end offset): O(1) for any range.
            Goal::RecordsPresent(a, b) => {
                let (lo, end) = (p.log_start_offset(), p.log_end_offset());
                let missing = if *a < lo {
                    Some(*a)
                } else if *b >= end {
                    Some((*a).max(end))
                } else {
                    None
                };
                let mut s = Sentence::new();
                s.text("records ").offsets(format!("{a} to {b}"), *a, *b);
                match missing {
                    None => s.text(" are still present"),
                    Some(o) => s.text(" must stay, but ").offset(o).text(" is gone"),
                };
                GoalCheck {
                    met: missing.is_none(),
                    sentence: s,
                }
            }
            Goal::RecordsGone(a, b) => {
                let (lo, end) = (p.log_start_offset(), p.log_end_offset());
                let first = (*a).max(lo);
                let left = (first <= *b && first < end).then_some(first);
                let mut s = Sentence::new();
                s.text("records ").offsets(format!("{a} to {b}"), *a, *b);
                match left {
                    None => s.text(" are gone"),
                    Some(o) => s
                        .text(" must go, but ")
                        .offset(o)
                        .text(" is still readable"),
                };
                GoalCheck {
                    met: left.is_none(),
                    sentence: s,
                }
            }
            Goal::NoPinnedSegment => {
                let r = p.preview_retention(now);
                let pinned = r.verdicts.iter().find_map(|v| match v.verdict {
                    Verdict::KeptBehind {
                        blocker,
                        expired: true,
                    } => Some((v.base_offset, blocker)),
                    _ => None,
                });
                let mut s = Sentence::new();
                match pinned {
                    None => s.text("no segment is pinned"),
                    Some((seg, blocker)) => s
                        .text("segment ")
                        .segment(seg)
                        .text(" is still pinned behind segment ")
                        .segment(blocker),
                };
                GoalCheck {
                    met: pinned.is_none(),
                    sentence: s,
                }
            }
            Goal::NoFutureSegment => {
                let future = p
                    .segments()
                    .iter()
                    .find(|s| s.largest_timestamp_is_record_time() && s.largest_timestamp() > now);
                let mut s = Sentence::new();
                match future {
                    None => s.text("no segment is stamped in the future"),
                    Some(g) => s
                        .text("segment ")
                        .segment(g.base_offset())
                        .text(" is still stamped ")
                        .time(g.largest_timestamp()),
                };
                GoalCheck {
                    met: future.is_none(),
                    sentence: s,
                }
            }
            Goal::ConfigWithin(name, b) => {
                let mut s = Sentence::new();
                s.config(name);
                let met = match p.config().get(name) {
                    Some(ConfigValue::Number(n)) => {
                        s.text(format!(" is {n}"));
                        b.holds(n)
                    }
                    Some(ConfigValue::Text(t)) => {
                        s.text(format!(" is {t}"));
                        false
                    }
                    None => {
                        s.text(" does not exist in this version");
                        false
                    }
                };
                if !(met && b.at_least == b.at_most) {
                    s.text(format!(" (needs {b})"));
                }
                GoalCheck { met, sentence: s }
            }
            Goal::ConfigIs(name, want) => {
                let got = p.config().get(name).map(|v| v.to_string());
                let met = got.as_deref() == Some(want.as_str());
                let mut s = Sentence::new();
                s.config(name).text(format!(
                    " is {}",
                    got.as_deref().unwrap_or("not set in this version")
                ));
                if !met {
                    s.text(format!(" (needs {want})"));
                }
                GoalCheck { met, sentence: s }
            }
            Goal::Rejects(pr) | Goal::Accepts(pr) => {
                let want_reject = matches!(self, Goal::Rejects(_));
                let mut s = Sentence::new();
                match &pr.label {
                    Some(l) => s.text(l),
                    None => {
                        let first = pr
                            .batch
                            .records
                            .first()
                            .and_then(|r| r.timestamp.resolve(now.0));
                        match first {
                            Some(t) if t >= 0 => s.text("the batch stamped ").time(Timestamp(t)),
                            _ => s.text("the batch"),
                        }
                    }
                };
                let outcome = pr
                    .batch
                    .records(now)
                    .map(|records| validate(p.config(), p.topic_partition(), now, &records));
                let met = match outcome {
                    Err(reason) => {
                        s.text(format!(" cannot be sent: {reason}"));
                        false
                    }
                    Ok(Ok(_)) => {
                        s.text(" would be appended");
                        !want_reject
                    }
                    Ok(Err(e)) => {
                        s.text(format!(
                            " would be rejected with error {} {}",
                            e.error.code(),
                            e.error.name()
                        ));
                        want_reject
                    }
                };
                if !met {
                    s.text(if want_reject {
                        " (it must be rejected)"
                    } else {
                        " (it must be appended)"
                    });
                }
                GoalCheck { met, sentence: s }
            }
            Goal::Lookup(t, spec, b) => {
                let mut s = Sentence::plain("a lookup for ");
                let Some(spec) = resolve_spec(*t, *spec, now) else {
                    s.text("a time that overflows a 64-bit long");
                    return GoalCheck {
                        met: false,
                        sentence: s,
                    };
                };
                match spec {
                    OffsetSpec::Timestamp(ts) => s.text(date(ts.0)),
                    other => s.text(other.to_string()),
                };
                let met = match p.offset_for(spec) {
                    Ok((o, _)) => {
                        s.text(" returns offset ").offset(o);
                        b.holds(o.0)
                    }
                    Err(e) => {
                        s.text(format!(" is refused: {e}"));
                        false
                    }
                };
                if !(met && b.at_least == b.at_most) {
                    s.text(format!(" (needs {b})"));
                }
                GoalCheck { met, sentence: s }
            }
            Goal::LateRecords(c, b) => {
                let n = crate::stream::run(c, p).late().count() as i64;
                number("records dropped as late by the stream processor:", n, b)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_model::batch::Record;
    use logtime_model::config::{Config, KafkaVersion};
    use logtime_model::partition::Command;
    use serde_json::json;

    const START: i64 = 1_804_842_000_000;

    /// 32 one-record batches in segments of 4 (offsets 0 to 31), stamped one second apart.
    fn partition() -> Partition {
        let mut c = Config::defaults(KafkaVersion::V3_6);
        c.set("segment.bytes", &ConfigValue::Number(4 * 170))
            .unwrap();
        let mut p = Partition::new(c, "clicks-0", Timestamp(START), 0);
        for k in 0..32 {
            let t = Timestamp(START + k * 1000);
            p.apply(
                t,
                Command::Produce {
                    records: vec![Record::at(t)],
                },
            )
            .unwrap();
        }
        p
    }

    fn g(v: Value) -> Goal {
        Goal::parse(&v).unwrap()
    }

    #[test]
    fn offsets_and_records_present() {
        let mut p = partition();
        let goal = g(json!({"log_start_offset": {"at_least": 16}, "records_present": [24, 28]}));
        let s = goal.evaluate(&p);
        assert!(!s.met);
        assert_eq!(
            s.checks[0].sentence.to_string(),
            "log start offset 0 (needs at least 16)"
        );
        assert_eq!(
            s.checks[1].sentence.to_string(),
            "records 24 to 28 are still present"
        );
        p.apply(p.clock(), Command::DeleteRecords { offset: 16 })
            .unwrap();
        assert!(goal.holds(&p));
        p.apply(p.clock(), Command::DeleteRecords { offset: 26 })
            .unwrap();
        let s = goal.evaluate(&p);
        assert!(!s.met);
        assert_eq!(
            s.checks[1].sentence.to_string(),
            "records 24 to 28 must stay, but 24 is gone"
        );
        assert!(g(json!({"records_gone": [0, 25]})).holds(&p));
        assert!(!g(json!({"records_gone": [0, 26]})).holds(&p));
        assert!(g(json!({"any": [{"segments": 1}, {"log_end_offset": 32}]})).holds(&p));
        assert!(g(json!({"high_watermark": {"at_most": 32, "at_least": 32}})).holds(&p));
    }

    #[test]
    fn pinned_and_future_segments() {
        let t = Timestamp(START);
        let mut c = Config::defaults(KafkaVersion::V3_6);
        c.set("segment.bytes", &ConfigValue::Number(170)).unwrap();
        c.set("retention.ms", &ConfigValue::Number(86_400_000))
            .unwrap();
        let mut p = Partition::new(c, "clicks-0", t, 0);
        for ts in [
            START - 3 * 86_400_000,
            START + 365 * 86_400_000,
            START - 2 * 86_400_000,
            START,
        ] {
            p.apply(
                t,
                Command::Produce {
                    records: vec![Record::at(Timestamp(ts))],
                },
            )
            .unwrap();
        }
        let goal = g(json!({"no_pinned_segment": true, "no_future_segment": true}));
        let s = goal.evaluate(&p);
        assert!(!s.met);
        assert_eq!(
            s.checks[0].sentence.to_string(),
            "segment 2 is still pinned behind segment 1"
        );
        assert!(s.checks[1]
            .sentence
            .to_string()
            .starts_with("segment 1 is still stamped 11 Mar 2028"));
        p.apply(t, Command::DeleteRecords { offset: 2 }).unwrap();
        p.apply(t, Command::RunRetention).unwrap();
        assert!(goal.holds(&p), "{:?}", goal.evaluate(&p));
    }

    #[test]
    fn rejects_accepts_config_and_lookup() {
        let mut p = partition();
        let goal = g(json!({
            "rejects": {"label": "the 9-hour-fast producer's batch", "records": [{"timestamp": "now+9h"}]},
            "accepts": {"records": [{"timestamp": "now+30m"}]},
            "config": {"message.timestamp.after.max.ms": {"at_most": 3600000}, "message.timestamp.type": "CreateTime"}
        }));
        let s = goal.evaluate(&p);
        assert!(!s.met);
        assert_eq!(
            s.checks[0].sentence.to_string(),
            "message.timestamp.after.max.ms is 9223372036854775807 (needs at most 3600000)"
        );
        assert_eq!(
            s.checks[2].sentence.to_string(),
            "the 9-hour-fast producer's batch would be appended (it must be rejected)"
        );
        p.apply(
            p.clock(),
            Command::SetConfig {
                name: "message.timestamp.after.max.ms".into(),
                value: ConfigValue::Number(3_600_000),
            },
        )
        .unwrap();
        let s = goal.evaluate(&p);
        assert!(s.met, "{s:?}");
        assert_eq!(
            s.checks[2].sentence.to_string(),
            "the 9-hour-fast producer's batch would be rejected with error 32 INVALID_TIMESTAMP"
        );
        let l = g(json!({"lookup": {"timestamp": START + 4500, "offset": 5}}));
        assert!(l.holds(&p));
        assert_eq!(
            l.evaluate(&p).checks[0].sentence.to_string(),
            "a lookup for 12 Mar 2027 09:00:04 returns offset 5"
        );
    }

    #[test]
    fn malformed_goals_name_the_condition() {
        let e = |v: Value| Goal::parse(&v).unwrap_err();
        assert_eq!(e(json!({})).1, "a goal needs at least one condition");
        assert_eq!(e(json!({"log_start": 3})).0, "log_start");
        assert_eq!(
            e(json!({"log_start_offset": {"at_least": 5, "at_most": 4}})),
            (
                "log_start_offset".into(),
                "at_least 5 is above at_most 4: nothing can hold".into()
            )
        );
        assert_eq!(
            e(json!({"records_present": [5, 2]})).1,
            "[5, 2] is not a range of offsets"
        );
        assert_eq!(e(json!({"no_pinned_segment": 1})).1, "expected true");
        assert_eq!(
            e(json!({"rejects": {"records": [{"timestamp": "soon"}]}})).0,
            "rejects.records[0].timestamp"
        );
        assert_eq!(
            e(json!({"lookup": {"timestamp": "now"}})).0,
            "lookup.offset"
        );
        assert_eq!(e(json!({"any": [{"segments": "x"}]})).0, "any[0].segments");
    }
}
