//! Solving a question: the right answer computed from the partition at the question's step
//! (probes and version switches on a copy), and the model's checks the kinds share (the segment
//! that pins retention, whether a config value accepts a batch).

use super::{Answer, Ask, Evidence, Question, Solved};
use crate::action::Action;
use crate::goal::{resolve_spec, Probe};
use crate::stream;
use logtime_core::scenario::narrate::Sentence;
use logtime_core::scenario::{ProduceOutcome, Runner, StepOutcome};
use logtime_model::config::{ConfigKey, ConfigValue};
use logtime_model::partition::{Command, Partition};
use logtime_model::retention::{RetentionReport, Verdict};
use logtime_model::units::{Offset, Timestamp};
use logtime_model::validation::validate;

/// The first segment a retention check keeps, when it pins: stamped in the future, or keeping
/// expired segments behind it.
pub(crate) fn pinning_segment(
    r: &RetentionReport,
) -> Option<&logtime_model::retention::SegmentVerdict> {
    let v = r
        .verdicts
        .iter()
        .find(|v| !matches!(v.verdict, Verdict::Deleted { .. }))?;
    let Verdict::NotOldEnough { future, .. } = v.verdict else {
        return None;
    };
    let keeps_expired = r.verdicts.iter().any(|w| {
        matches!(w.verdict, Verdict::KeptBehind { blocker, expired: true } if blocker == v.base_offset)
    });
    (future || keeps_expired).then_some(v)
}

/// Whether the broker accepts `batch` with `config` set to `value`.
pub(crate) fn accepts(
    p: &Partition,
    config: &str,
    value: i64,
    probe: &Probe,
) -> Option<Result<(), logtime_model::validation::ProduceError>> {
    let mut c = p.config().clone();
    c.set(config, &ConfigValue::Number(value)).ok()?;
    let records = probe.batch.records(p.clock()).ok()?;
    Some(validate(&c, p.topic_partition(), p.clock(), &records).map(|_| ()))
}

/// The least valid value of `config` at which the broker accepts `probe`, by bisection (larger
/// values accept more), or `None` when no valid value does.
pub(crate) fn least_accepting(
    p: &Partition,
    config: &str,
    lo: i64,
    hi: i64,
    probe: &Probe,
) -> Option<i64> {
    if accepts(p, config, hi, probe)?.is_err() {
        return None;
    }
    let (mut lo, mut hi) = (lo, hi);
    while lo < hi {
        let mid = ((lo as i128 + hi as i128) / 2) as i64;
        if accepts(p, config, mid, probe).is_some_and(|r| r.is_ok()) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

pub(crate) fn label(p: &Probe, now: Timestamp) -> Sentence {
    match &p.label {
        Some(l) => Sentence::plain(l),
        None => {
            let mut s = Sentence::plain("the batch stamped ");
            match p
                .batch
                .records
                .first()
                .and_then(|r| r.timestamp.resolve(now.0))
            {
                Some(t) if t >= 0 => s.time(Timestamp(t)),
                _ => s.text("-1"),
            };
            s
        }
    }
}

impl Question {
    /// The answer, computed from the partition the runner has reached (nothing is changed: the
    /// probes run on copies). An error says why the question cannot be answered there.
    pub fn solve(&self, runner: &Runner) -> Result<Solved, String> {
        // Probes and a version switch act on a copy; the other kinds only read.
        let mut owned =
            (self.kafka.is_some() || matches!(self.kind, Ask::Error(_))).then(|| runner.clone());
        if let (Some(v), Some(r)) = (self.kafka, owned.as_mut()) {
            r.apply(r.now(), Command::SetVersion { version: v }, &mut |_| {})
                .map_err(|e| e.to_string())?;
        }
        if let (Ask::Error(a), Some(r)) = (&self.kind, owned.as_mut()) {
            return solve_error(a, r);
        }
        let p = owned.as_ref().unwrap_or(runner).partition();
        let now = p.clock();
        match &self.kind {
            Ask::StrikeSegments | Ask::StrikeRecords => {
                Ok(solve_strike(p, now, self.kind == Ask::StrikeSegments))
            }
            Ask::Pinning => {
                let rep = p.preview_retention(now);
                let base = pinning_segment(&rep).map(|v| v.base_offset).ok_or_else(|| {
                    "no segment pins retention at this step: the first segment a check keeps is neither stamped in the future nor keeping expired segments behind it".to_string()
                })?;
                Ok(Solved {
                    answer: Answer::Segment(base),
                    evidence: Evidence::Retention(rep),
                })
            }
            Ask::Lookup(t, s) => {
                let spec =
                    resolve_spec(*t, *s, now).ok_or("the lookup time overflows a 64-bit long")?;
                let l = p.lookup(spec).map_err(|e| {
                    format!("the broker refuses this lookup ({e}); ask an error question instead")
                })?;
                Ok(Solved {
                    answer: Answer::Offset(l.offset),
                    evidence: Evidence::Lookup(l),
                })
            }
            Ask::Choose {
                config,
                accept,
                reject,
            } => solve_choose(p, now, config, (accept, reject)),
            Ask::Late(c) => {
                let report = stream::run(c, p);
                let answer = Answer::records(report.late().map(|r| (r.offset, r.offset)).collect());
                Ok(Solved {
                    answer,
                    evidence: Evidence::Stream {
                        report: Box::new(report),
                        window: None,
                    },
                })
            }
            Ask::Closes(c, t) => {
                let at = t
                    .resolve(now.0)
                    .ok_or("the instant overflows a 64-bit long")?;
                let w = c.window_of(Timestamp(at)).ok_or_else(|| {
                    format!(
                        "{} is in no window of the processor (a negative stamp under Kafka Streams, or a window ending past Long.MAX)",
                        logtime_core::human::rfc3339(at)
                    )
                })?;
                let report = stream::run(c, p);
                let by = report.closing_of(w).map_or(Offset(-1), |cl| cl.by);
                Ok(Solved {
                    answer: Answer::Offset(by),
                    evidence: Evidence::Stream {
                        report: Box::new(report),
                        window: Some(w),
                    },
                })
            }
            Ask::Error(_) => unreachable!("answered above"),
        }
    }
}

/// An error question: the code the broker answers the action with on a copy (0 when it
/// succeeds).
fn solve_error(a: &Action, r: &mut Runner) -> Result<Solved, String> {
    let mut last = None;
    for (t, c) in a.commands(r.now())? {
        last = Some(r.apply(t, c, &mut |_| {}).map_err(|e| e.to_string())?);
    }
    let rep = last.ok_or("the action does nothing")?;
    let code = match &rep.outcome {
        StepOutcome::Produce(ProduceOutcome::Rejected(e)) => e.error.code(),
        StepOutcome::DeleteRecords { result: Err(e), .. } => e.error.code(),
        _ => 0,
    };
    Ok(Solved {
        answer: Answer::ErrorCode(code),
        evidence: Evidence::Outcome {
            report: rep,
            config: r.partition().config().clone(),
        },
    })
}

/// What the next scheduled retention check deletes: its segments, or its records' offset
/// ranges when not `segments`.
fn solve_strike(p: &Partition, now: Timestamp, segments: bool) -> Solved {
    // The next check is the scheduled one (Kafka has no other trigger): the retention
    // task's, or on a compacted topic the log cleaner's, every log.cleaner.backoff.ms.
    let rep = p.preview_retention(p.next_retention_check().max(now));
    let answer = if segments {
        Answer::segments(rep.deleted.iter().map(|d| d.base_offset).collect())
    } else {
        Answer::records(
            rep.deleted
                .iter()
                .map(|d| (d.base_offset, Offset(d.next_offset.0 - 1)))
                .collect(),
        )
    };
    Solved {
        answer,
        evidence: Evidence::Retention(rep),
    }
}

/// A choose question: the values of `config` that accept the batch `accept` and reject
/// `reject`, with what the values around them do.
fn solve_choose(
    p: &Partition,
    now: Timestamp,
    config: &str,
    (accept, reject): (&Probe, &Probe),
) -> Result<Solved, String> {
    let key = ConfigKey::find(config)
        .filter(|k| k.exists_in(p.config().version))
        .ok_or_else(|| format!("{config} does not exist in {}", p.config().version.label()))?;
    let (lo, hi) = key.range(p.config().version);
    let what = |pr: &Probe| label(pr, now).to_string();
    let min = least_accepting(p, config, lo, hi, accept)
        .ok_or_else(|| format!("no value of {config} accepts {}", what(accept)))?;
    let max = match least_accepting(p, config, lo, hi, reject) {
        None => hi,
        Some(b) if b > min => b - 1,
        Some(_) => {
            return Err(format!(
                "every value of {config} that accepts {} also accepts {}",
                what(accept),
                what(reject)
            ))
        }
    };
    let at = |v: i64, pr: &Probe| {
        (lo..=hi)
            .contains(&v)
            .then(|| accepts(p, config, v, pr))
            .flatten()
    };
    Ok(Solved {
        answer: Answer::Values { min, max },
        evidence: Evidence::Choose {
            config: config.to_string(),
            accept_below: min.checked_sub(1).and_then(|v| at(v, accept)),
            reject_at_max: at(max, reject).ok_or("the range's upper value is not valid")?,
            reject_above: max.checked_add(1).and_then(|v| at(v, reject)),
        },
    })
}
