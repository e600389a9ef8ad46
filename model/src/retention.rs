//! Retention (`UnifiedLog.deleteOldSegments`): the log-start-offset, size and time passes, in that
//! order, each walking segments front to back and stopping at the first survivor.
//!
//! Retention is planned ([`plan`]) over the partition's segments, read one at a time as the passes
//! walk (a [`SegmentView`] each), then executed by the partition. The same plan answers "what
//! would a check do now" without changing anything (for previews), and, when its report is made
//! ([`Plan::finish`]), yields a [`Verdict`] for every segment: deleted (by which pass), not old
//! enough (and from when it is eligible), kept behind an earlier survivor (the "pinned" chain),
//! beyond the high watermark, or the empty active segment. Until then a plan has read only the
//! segments its passes examined: an idle check over a million segments reads one.

use crate::config::Config;
use crate::segment::Segment;
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
    /// Kafka's WARN line for each of them ([`future_timestamp_warning`]), for the presets that
    /// quote it (4.1); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub future_timestamp_warnings: Vec<String>,
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

impl SegmentView {
    fn of(s: &Segment) -> SegmentView {
        SegmentView {
            base: s.base_offset(),
            size: s.size().0,
            largest: s.largest_timestamp(),
            record_time: s.largest_timestamp_is_record_time(),
        }
    }
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
    /// The sum of the segments' sizes.
    pub size: i64,
}

/// The segments a check looks at, oldest first, then the empty segment it rolls when it is about
/// to delete them all. They are read one at a time: the passes stop at their first survivor, so
/// a plan reads the segments it examines, and the rest only when its report is asked for.
struct Log<'a> {
    segments: &'a [Box<Segment>],
    rolled: Option<SegmentView>,
}

impl Log<'_> {
    fn len(&self) -> usize {
        self.segments.len() + usize::from(self.rolled.is_some())
    }

    fn get(&self, k: usize) -> Option<SegmentView> {
        match self.segments.get(k) {
            Some(s) => Some(SegmentView::of(s)),
            None if k == self.segments.len() => self.rolled,
            None => None,
        }
    }
}

/// Walks front to back from segment `from` (`deletableSegments`): how many segments from there
/// are deletable.
fn walk(
    log: &Log<'_>,
    from: usize,
    i: &Inputs,
    mut pred: impl FnMut(&SegmentView, Option<&SegmentView>) -> bool,
) -> usize {
    let mut n = 0;
    let mut seg = log.get(from);
    while let Some(s) = seg {
        let next = log.get(from + n + 1);
        let last_and_empty = next.is_none() && s.size == 0;
        let upper = next.map_or(i.log_end_offset, |s| s.base);
        if i.high_watermark >= upper && pred(&s, next.as_ref()) && !last_and_empty {
            n += 1;
        } else {
            break;
        }
        seg = next;
    }
    n
}

/// How the segments a check keeps get their verdicts.
#[derive(Clone, Copy, Debug)]
enum Rest {
    /// All alike (but an empty active segment): `retention.ms` is -1, or the topic is compacted
    /// only.
    Alike(Verdict),
    /// The time pass stopped at the first of them; the others are kept behind it.
    Time {
        /// `retention.ms`.
        retention: i64,
    },
}

/// One check planned: the steps to execute, what they delete, and, when asked, every segment's
/// verdict ([`Plan::finish`]). The plan reads the partition's segments as they are before the
/// steps run.
pub(crate) struct Plan<'a> {
    log: Log<'a>,
    /// The segments deleted so far: the first `first` of `log`.
    first: usize,
    lso: Offset,
    steps: Vec<Step>,
    deleted: Vec<DeletedSegment>,
    future: Vec<Offset>,
    warnings: Vec<String>,
    rest: Rest,
    inputs: Inputs,
    retention_ms: i64,
    retention_bytes: i64,
}

impl Plan<'_> {
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
        if self.first + n == self.log.len() {
            self.steps.push(Step::Roll);
            self.log.rolled = Some(SegmentView {
                base: self.inputs.log_end_offset,
                size: 0,
                largest: self.inputs.now,
                record_time: false,
            });
        }
        self.steps.push(Step::Delete { n, pass });
        for k in self.first..self.first + n {
            let s = self.log.get(k).expect("a deleted segment is in the log");
            let next = self.log.get(k + 1);
            self.deleted.push(DeletedSegment {
                base_offset: s.base,
                next_offset: next.map_or(self.inputs.log_end_offset, |n| n.base),
                size: Bytes(s.size),
                pass,
            });
        }
        self.first += n;
        let survivor = self.log.get(self.first).expect("a check keeps a segment");
        self.lso = self.lso.max(survivor.base);
    }

    /// Whether the check deletes nothing (nor rolls): it changes nothing.
    pub(crate) fn deletes_nothing(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether the check deletes nothing and found no segment stamped in the future: as a
    /// scheduled check, one not worth showing.
    pub(crate) fn is_quiet(&self) -> bool {
        self.deleted.is_empty() && self.future.is_empty()
    }

    /// When the first segment the check keeps becomes old enough to delete, if time is what
    /// keeps it (and not the high watermark, the empty active segment or a disabled limit).
    pub(crate) fn wake(&self) -> Option<Timestamp> {
        let s = self.log.get(self.first)?;
        match self.verdict(self.first, s) {
            Verdict::NotOldEnough { eligible_at, .. } => Some(eligible_at),
            _ => None,
        }
    }

    /// The verdict of `s`, segment `k` of the log.
    fn verdict(&self, k: usize, s: SegmentView) -> Verdict {
        if k < self.first {
            return Verdict::Deleted {
                pass: self.deleted[k].pass,
            };
        }
        if k + 1 == self.log.len() && s.size == 0 {
            return Verdict::EmptyActive;
        }
        let retention = match self.rest {
            Rest::Alike(v) => return v,
            Rest::Time { retention } => retention,
        };
        let now = self.inputs.now;
        if k > self.first {
            let blocker = self.log.get(self.first).map_or(s.base, |b| b.base);
            return Verdict::KeptBehind {
                blocker,
                expired: now.wrapping_since(s.largest) > retention,
            };
        }
        let hw = self.inputs.high_watermark;
        let upper = self
            .log
            .get(k + 1)
            .map_or(self.inputs.log_end_offset, |n| n.base);
        if hw < upper {
            Verdict::BeyondHighWatermark {
                upper_bound: upper,
                high_watermark: hw,
            }
        } else {
            let eligible = s.largest.0 as i128 + retention as i128 + 1;
            Verdict::NotOldEnough {
                age_ms: now.wrapping_since(s.largest),
                eligible_at: Timestamp(eligible.clamp(i64::MIN as i128, i64::MAX as i128) as i64),
                future: s.largest > now,
            }
        }
    }

    /// The steps, and the report with every segment's verdict (including any segment the check
    /// rolls), whose `rolled` base and final log start offset assume the steps are executed.
    pub(crate) fn finish(self, scheduled: bool) -> (Vec<Step>, RetentionReport) {
        // One allocation: the range's exact length carries through the map.
        let verdicts = (0..self.log.len())
            .map(|k| {
                let s = self.log.get(k).expect("every index below the log's length");
                SegmentVerdict {
                    base_offset: s.base,
                    largest_timestamp: s.largest,
                    record_time: s.record_time,
                    verdict: self.verdict(k, s),
                }
            })
            .collect();
        let report = RetentionReport {
            at: self.inputs.now,
            scheduled,
            rolled: self.log.rolled.map(|s| s.base),
            log_start_offset: self.lso,
            future_timestamp_segments: self.future,
            future_timestamp_warnings: self.warnings,
            verdicts,
            idle_checks_before: 0,
            retention_ms: self.retention_ms,
            retention_bytes: self.retention_bytes,
            deleted: self.deleted,
        };
        (self.steps, report)
    }
}

/// Plans one check of `segments` (oldest first, the last active).
pub(crate) fn plan<'a>(config: &Config, segments: &'a [Box<Segment>], inputs: Inputs) -> Plan<'a> {
    let t = &config.topic;
    let mut p = Plan {
        log: Log {
            segments,
            rolled: None,
        },
        first: 0,
        lso: inputs.log_start_offset,
        steps: Vec::new(),
        deleted: Vec::new(),
        future: Vec::new(),
        warnings: Vec::new(),
        rest: Rest::Alike(Verdict::CompactOnly),
        inputs,
        retention_ms: t.retention_ms,
        retention_bytes: t.retention_bytes,
    };

    // Pass 1: log start offset breach (the only pass for compact-only topics). The active segment
    // has no next segment, so this pass never takes it.
    let lso = p.lso;
    let n = walk(&p.log, p.first, &p.inputs(), |_, next| {
        next.is_some_and(|n| n.base <= lso)
    });
    p.delete(n, RetentionPass::LogStartOffset);
    if !t.cleanup_policy.delete {
        return p;
    }

    // Pass 2: size. `size < retention.bytes` skips; each deletion needs `diff - size >= 0`. The
    // size of what is left is the log's less what pass 1 deleted.
    let total: i64 = inputs.size - p.deleted.iter().map(|d| d.size.0).sum::<i64>();
    if t.retention_bytes >= 0 && total >= t.retention_bytes {
        let mut diff = total - t.retention_bytes;
        let n = walk(&p.log, p.first, &p.inputs(), |s, _| {
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
        p.rest = Rest::Alike(Verdict::NoTimeLimit);
        return p;
    }
    let retention = t.retention_ms;
    let now = inputs.now;
    let warn = config.version.warns_future_timestamps();
    let mut future = Vec::new();
    let n = walk(&p.log, p.first, &p.inputs(), |s, _| {
        if warn && now < s.largest {
            future.push(s.base);
        }
        now.wrapping_since(s.largest) > retention
    });
    p.delete(n, RetentionPass::Time);
    if config.version.quotes_future_timestamp_warning() {
        p.warnings = segments
            .iter()
            .filter(|s| future.contains(&s.base_offset()))
            .map(|s| future_timestamp_warning_for(s))
            .collect();
    }
    p.future = future;
    p.rest = Rest::Time { retention };
    p
}

/// Kafka 4.1's WARN line (logger `LogFutureTimestampLogger`, KAFKA-18929) for a segment whose
/// largest timestamp is ahead of the broker clock when the time-retention walk reaches it: the
/// predicate of `UnifiedLog.deleteRetentionMsBreachedSegments` logs it before testing the
/// segment, which then stops the walk. `{}` is `LogSegment.toString()`; `last_modified` and
/// `largest_record` are the file's modification time and the largest record stamp (-1: none).
pub fn future_timestamp_warning(
    base_offset: Offset,
    size: i64,
    last_modified: Timestamp,
    largest_record: Timestamp,
) -> String {
    format!(
        "LogSegment(baseOffset={base_offset}, size={size}, lastModifiedTime={last_modified}, largestRecordTimestamp={largest_record}) contains future timestamp(s), making it ineligible to be deleted"
    )
}

/// [`future_timestamp_warning`] for segment `s` as it is on disk: its largest timestamp only
/// when a record carries it (otherwise Kafka's `largestRecordTimestamp` is empty, -1).
pub fn future_timestamp_warning_for(s: &Segment) -> String {
    let largest = if s.largest_timestamp_is_record_time() {
        s.largest_timestamp()
    } else {
        Timestamp::NONE
    };
    future_timestamp_warning(s.base_offset(), s.size().0, s.last_modified(), largest)
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
