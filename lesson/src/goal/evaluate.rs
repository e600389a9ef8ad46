//! A goal evaluated on the live partition: each condition's check, met or not, in the model's
//! words (what the pane lists under a task, checked after every action).

use super::{resolve_spec, Bound, Goal, GoalCheck, GoalStatus, Probe};
use logtime_core::human::date;
use logtime_core::scenario::narrate::Sentence;
use logtime_core::scenario::TimeSpec;
use logtime_model::config::ConfigValue;
use logtime_model::lookup::OffsetSpec;
use logtime_model::partition::Partition;
use logtime_model::retention::Verdict;
use logtime_model::units::{Offset, Timestamp};
use logtime_model::validation::validate;

impl Goal {
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
            Goal::RecordsPresent(a, b) => records_present(p, *a, *b),
            Goal::RecordsGone(a, b) => records_gone(p, *a, *b),
            Goal::NoPinnedSegment => no_pinned_segment(p, now),
            Goal::NoFutureSegment => no_future_segment(p, now),
            Goal::ConfigWithin(name, b) => config_within(p, name, b),
            Goal::ConfigIs(name, want) => config_is(p, name, want),
            Goal::Rejects(pr) | Goal::Accepts(pr) => {
                batch(p, now, pr, matches!(self, Goal::Rejects(_)))
            }
            Goal::Lookup(t, spec, b) => lookup(p, now, (*t, *spec), b),
            Goal::LateRecords(c, b) => {
                let n = crate::stream::run(c, p).late().count() as i64;
                number("records dropped as late by the stream processor:", n, b)
            }
        }
    }
}

/// `records_present`: no offset of `a..=b` is below the log start offset or past the log end.
fn records_present(p: &Partition, a: Offset, b: Offset) -> GoalCheck {
    // Readable offsets are [log start offset, log end offset): O(1) for any range.
    let (lo, end) = (p.log_start_offset(), p.log_end_offset());
    let missing = if a < lo {
        Some(a)
    } else if b >= end {
        Some((a).max(end))
    } else {
        None
    };
    let mut s = Sentence::new();
    s.text("records ").offsets(format!("{a} to {b}"), a, b);
    match missing {
        None => s.text(" are still present"),
        Some(o) => s.text(" must stay, but ").offset(o).text(" is gone"),
    };
    GoalCheck {
        met: missing.is_none(),
        sentence: s,
    }
}

/// `records_gone`: no offset of `a..=b` is readable.
fn records_gone(p: &Partition, a: Offset, b: Offset) -> GoalCheck {
    // Readable offsets are [log start offset, log end offset): O(1) for any range.
    let (lo, end) = (p.log_start_offset(), p.log_end_offset());
    let first = (a).max(lo);
    let left = (first <= b && first < end).then_some(first);
    let mut s = Sentence::new();
    s.text("records ").offsets(format!("{a} to {b}"), a, b);
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

/// `no_pinned_segment`: a retention check now keeps no expired segment behind another.
fn no_pinned_segment(p: &Partition, now: Timestamp) -> GoalCheck {
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

/// `no_future_segment`: no segment's largest record timestamp is ahead of the clock.
fn no_future_segment(p: &Partition, now: Timestamp) -> GoalCheck {
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

/// A config's number within a bound.
fn config_within(p: &Partition, name: &str, b: &Bound) -> GoalCheck {
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

/// A config's value, as text, equal to `want`.
fn config_is(p: &Partition, name: &str, want: &str) -> GoalCheck {
    let got = p.config().get(name).map(|v| v.to_string());
    let met = got.as_deref() == Some(want);
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

/// `rejects` or `accepts` (`want_reject`): what the broker would answer the batch with now.
fn batch(p: &Partition, now: Timestamp, pr: &Probe, want_reject: bool) -> GoalCheck {
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

/// A lookup's answer now within a bound.
fn lookup(
    p: &Partition,
    now: Timestamp,
    (t, spec): (TimeSpec, Option<OffsetSpec>),
    b: &Bound,
) -> GoalCheck {
    let mut s = Sentence::plain("a lookup for ");
    let Some(spec) = resolve_spec(t, spec, now) else {
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
