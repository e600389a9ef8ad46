//! Retention (`UnifiedLog.deleteOldSegments`): the log-start-offset, size and time passes, in that
//! order, each walking segments front to back and stopping at the first survivor.
//!
//! Retention is planned on a light [`SegmentView`] list, then executed by the partition. The same
//! plan answers "what would a check do now" without changing anything (for previews), and yields
//! a [`Verdict`] for every segment: deleted (by which pass), not old enough (and from when it is
//! eligible), kept behind an earlier survivor (the "pinned" chain), beyond the high watermark, or
//! the empty active segment.

use crate::config::Config;
use crate::units::{Bytes, Offset, Timestamp};
use serde::{Deserialize, Serialize};

/// One pass of a retention check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetentionPass {
    /// Segments wholly below the log start offset (`next.base_offset <= log_start_offset`).
    LogStartOffset,
    /// `retention.bytes`.
    Size,
    /// `retention.ms`.
    Time,
}

/// Why a segment is, or is not, deleted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Verdict {
    /// Deleted by this check.
    Deleted {
        /// Which pass.
        pass: RetentionPass,
    },
    /// The walk stopped here: `now - largest_timestamp <= retention.ms`.
    NotOldEnough {
        /// `now - largest_timestamp` (negative for a future stamp).
        age_ms: i64,
        /// The first instant at which it is old enough: `largest_timestamp + retention.ms + 1`.
        eligible_at: Timestamp,
        /// Its largest timestamp is ahead of the broker clock.
        future: bool,
    },
    /// Not examined: an earlier segment survived and the walk stopped there.
    KeptBehind {
        /// The surviving segment the walk stopped at.
        blocker: Offset,
        /// Old enough on its own: only the blocker keeps it (a pinned segment).
        expired: bool,
    },
    /// The walk stopped here: the high watermark is below the segment's upper bound.
    BeyondHighWatermark {
        /// The next segment's base offset, or the log end offset.
        upper_bound: Offset,
        /// The high watermark.
        high_watermark: Offset,
    },
    /// The last segment is empty; Kafka never deletes it.
    EmptyActive,
    /// `retention.ms` is negative: no time limit.
    NoTimeLimit,
    /// `cleanup.policy` has no `delete`: only the log-start-offset pass runs.
    CompactOnly,
}

/// A segment's verdict in one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentVerdict {
    /// The segment.
    pub base_offset: Offset,
    /// `largestTimestamp` at the check.
    pub largest_timestamp: Timestamp,
    /// Whether that is a record timestamp (`false`: the last-modified fallback).
    pub record_time: bool,
    /// The verdict.
    pub verdict: Verdict,
}

/// A deleted segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeletedSegment {
    /// Base offset.
    pub base_offset: Offset,
    /// End offset.
    pub next_offset: Offset,
    /// Size in bytes.
    pub size: Bytes,
    /// Which pass.
    pub pass: RetentionPass,
}

/// Everything one retention check did and decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetentionReport {
    /// Broker time of the check.
    pub at: Timestamp,
    /// Run by the `log.retention.check.interval.ms` schedule (`false`: on request).
    pub scheduled: bool,
    /// Deleted segments, in deletion order.
    pub deleted: Vec<DeletedSegment>,
    /// Base of the empty segment rolled because every segment was about to go.
    pub rolled: Option<Offset>,
    /// The log start offset after the check.
    pub log_start_offset: Offset,
    /// Segments whose largest timestamp is ahead of the clock and were examined by the time pass.
    pub future_timestamp_segments: Vec<Offset>,
    /// Every segment's verdict, oldest first (including any segment rolled by the check).
    pub verdicts: Vec<SegmentVerdict>,
    /// Scheduled checks before this one that had nothing to delete and were skipped (they would
    /// have found the same verdicts).
    pub idle_checks_before: u64,
    /// `retention.ms` in force at the check.
    pub retention_ms: i64,
    /// `retention.bytes` in force at the check.
    pub retention_bytes: i64,
}

/// What retention needs to know of a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SegmentView {
    /// Base offset.
    pub base: Offset,
    /// Size in bytes.
    pub size: i64,
    /// `largestTimestamp` (record max, or last-modified).
    pub largest: Timestamp,
    /// Whether `largest` is a record timestamp.
    pub record_time: bool,
}

/// One step of a plan, executed in order by the partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Roll a new empty active segment at the log end offset first.
    Roll,
    /// Delete the `n` oldest segments by `pass`.
    Delete {
        /// How many.
        n: usize,
        /// Which pass.
        pass: RetentionPass,
    },
}

/// The inputs of a check.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Inputs {
    /// Broker time of the check (`startMs`).
    pub now: Timestamp,
    /// Log start offset.
    pub log_start_offset: Offset,
    /// High watermark.
    pub high_watermark: Offset,
    /// Log end offset.
    pub log_end_offset: Offset,
}

/// Walks front to back (`deletableSegments`): how many leading segments are deletable.
fn walk(
    view: &[SegmentView],
    i: &Inputs,
    mut pred: impl FnMut(&SegmentView, Option<&SegmentView>) -> bool,
) -> usize {
    let mut n = 0;
    for (k, seg) in view.iter().enumerate() {
        let next = view.get(k + 1);
        let last_and_empty = next.is_none() && seg.size == 0;
        let upper = next.map_or(i.log_end_offset, |s| s.base);
        if i.high_watermark >= upper && pred(seg, next) && !last_and_empty {
            n += 1;
        } else {
            break;
        }
    }
    n
}

struct Planner {
    /// The segments still present; `view[k]`'s verdict is `verdicts[first + k]`.
    view: Vec<SegmentView>,
    first: usize,
    next_offsets: Vec<Offset>,
    verdicts: Vec<SegmentVerdict>,
    lso: Offset,
    steps: Vec<Step>,
    deleted: Vec<DeletedSegment>,
    rolled: Option<Offset>,
    inputs: Inputs,
}

impl Planner {
    fn inputs(&self) -> Inputs {
        Inputs {
            log_start_offset: self.lso,
            ..self.inputs
        }
    }

    /// `deleteSegments`: roll first if every segment goes, drop the `n` oldest, raise the log
    /// start offset to the first survivor's base (never lowering it).
    fn delete(&mut self, n: usize, pass: RetentionPass) {
        if n == 0 {
            return;
        }
        if n == self.view.len() {
            let leo = self.inputs.log_end_offset;
            let now = self.inputs.now;
            self.steps.push(Step::Roll);
            self.view.push(SegmentView {
                base: leo,
                size: 0,
                largest: now,
                record_time: false,
            });
            self.next_offsets.push(leo);
            self.verdicts.push(SegmentVerdict {
                base_offset: leo,
                largest_timestamp: now,
                record_time: false,
                verdict: Verdict::EmptyActive,
            });
            self.rolled = Some(leo);
        }
        self.steps.push(Step::Delete { n, pass });
        for (s, next) in self.view.drain(..n).zip(self.next_offsets.drain(..n)) {
            self.deleted.push(DeletedSegment {
                base_offset: s.base,
                next_offset: next,
                size: Bytes(s.size),
                pass,
            });
            self.verdicts[self.first].verdict = Verdict::Deleted { pass };
            self.first += 1;
        }
        self.lso = self.lso.max(self.view[0].base);
    }

    fn finish(
        mut self,
        config: &Config,
        scheduled: bool,
        future: Vec<Offset>,
        rest: Option<Verdict>,
    ) -> (Vec<Step>, RetentionReport) {
        if let Some(rest) = rest {
            for (k, s) in self.view.iter().enumerate() {
                let v = if k + 1 == self.view.len() && s.size == 0 {
                    Verdict::EmptyActive
                } else {
                    rest
                };
                self.verdicts[self.first + k].verdict = v;
            }
        }
        let report = RetentionReport {
            at: self.inputs.now,
            scheduled,
            deleted: self.deleted,
            rolled: self.rolled,
            log_start_offset: self.lso,
            future_timestamp_segments: future,
            verdicts: self.verdicts,
            idle_checks_before: 0,
            retention_ms: config.topic.retention_ms,
            retention_bytes: config.topic.retention_bytes,
        };
        (self.steps, report)
    }
}

/// Plans one check: the steps to execute, and the report (whose `rolled` base and final log start
/// offset assume the steps are executed).
pub(crate) fn plan(
    config: &Config,
    view: Vec<SegmentView>,
    inputs: Inputs,
    scheduled: bool,
) -> (Vec<Step>, RetentionReport) {
    let t = &config.topic;
    let next_offsets = view
        .iter()
        .skip(1)
        .map(|s| s.base)
        .chain([inputs.log_end_offset])
        .collect();
    let verdicts = view
        .iter()
        .map(|s| SegmentVerdict {
            base_offset: s.base,
            largest_timestamp: s.largest,
            record_time: s.record_time,
            verdict: Verdict::CompactOnly,
        })
        .collect();
    let mut p = Planner {
        view,
        next_offsets,
        verdicts,
        first: 0,
        lso: inputs.log_start_offset,
        steps: Vec::new(),
        deleted: Vec::new(),
        rolled: None,
        inputs,
    };

    // Pass 1: log start offset breach (the only pass for compact-only topics). The active segment
    // has no next segment, so this pass never takes it.
    let lso = p.lso;
    let n = walk(&p.view, &p.inputs(), |_, next| {
        next.is_some_and(|n| n.base <= lso)
    });
    p.delete(n, RetentionPass::LogStartOffset);
    if !t.cleanup_policy.delete {
        return p.finish(config, scheduled, Vec::new(), Some(Verdict::CompactOnly));
    }

    // Pass 2: size. `size < retention.bytes` skips; each deletion needs `diff - size >= 0`.
    let total: i64 = p.view.iter().map(|s| s.size).sum();
    if t.retention_bytes >= 0 && total >= t.retention_bytes {
        let mut diff = total - t.retention_bytes;
        let n = walk(&p.view, &p.inputs(), |s, _| {
            if diff - s.size >= 0 {
                diff -= s.size;
                true
            } else {
                false
            }
        });
        p.delete(n, RetentionPass::Size);
    }

    // Pass 3: time. Strict `>` on the wrapping difference `now - largest`.
    if t.retention_ms < 0 {
        return p.finish(config, scheduled, Vec::new(), Some(Verdict::NoTimeLimit));
    }
    let retention = t.retention_ms;
    let now = inputs.now;
    let warn = config.version.warns_future_timestamps();
    let mut future = Vec::new();
    let n = walk(&p.view, &p.inputs(), |s, _| {
        if warn && now < s.largest {
            future.push(s.base);
        }
        now.wrapping_since(s.largest) > retention
    });
    p.delete(n, RetentionPass::Time);

    // Verdicts of the survivors: the walk stopped at the first one.
    let mut blocker: Option<Offset> = None;
    let hw = inputs.high_watermark;
    for k in 0..p.view.len() {
        let s = p.view[k];
        let expired = now.wrapping_since(s.largest) > retention;
        let v = if k + 1 == p.view.len() && s.size == 0 {
            Verdict::EmptyActive
        } else if let Some(b) = blocker {
            Verdict::KeptBehind {
                blocker: b,
                expired,
            }
        } else {
            blocker = Some(s.base);
            let upper = p.view.get(k + 1).map_or(inputs.log_end_offset, |n| n.base);
            if hw < upper {
                Verdict::BeyondHighWatermark {
                    upper_bound: upper,
                    high_watermark: hw,
                }
            } else {
                let eligible = s.largest.0 as i128 + retention as i128 + 1;
                Verdict::NotOldEnough {
                    age_ms: now.wrapping_since(s.largest),
                    eligible_at: Timestamp(
                        eligible.clamp(i64::MIN as i128, i64::MAX as i128) as i64
                    ),
                    future: s.largest > now,
                }
            }
        };
        p.verdicts[p.first + k].verdict = v;
    }
    p.finish(config, scheduled, future, None)
}

/// Kafka's INFO line for a deletion, approximately (`UnifiedLog.scala:2210-2231`).
pub(crate) fn deletion_reason(
    config: &Config,
    d: &DeletedSegment,
    largest: Timestamp,
    record_time: bool,
    lso: Offset,
    size_after: i64,
) -> String {
    let seg = format!("LogSegment(baseOffset={}, size={})", d.base_offset, d.size);
    match d.pass {
        RetentionPass::LogStartOffset => format!("Deleting segment {seg} due to log start offset {lso} breach"),
        RetentionPass::Size => format!(
            "Deleting segment {seg} due to log retention size {} breach. Log size after deletion will be {size_after}.",
            config.topic.retention_bytes
        ),
        RetentionPass::Time => format!(
            "Deleting segment {seg} due to log retention time {}ms breach based on the {} (largest timestamp {largest})",
            config.topic.retention_ms,
            if record_time { "largest record timestamp in the segment" } else { "last modified time of the segment" }
        ),
    }
}
