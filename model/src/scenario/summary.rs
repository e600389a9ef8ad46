//! A step's events added up, for callers that show a step at a glance.
//!
//! Playing ten million records at 64× the explorer cannot take ten thousand events a step one by
//! one (each cloned, each aggregated in the UI). [`crate::scenario::Runner::step_summary`] runs a
//! step and hands back a [`StepSummary`] instead: counts, and the offset, segment and time
//! ranges the step covered, built as the events happen, with no event kept or handed out.
//!
//! Invariants: every count is the number of events of its kind the step emitted (the same step
//! replayed with [`crate::scenario::Runner::step`] emits exactly those); each range is `None`
//! when no event of its kind happened, and otherwise spans the first event's value to the last
//! one's (for timestamps, the smallest and the largest).

use crate::event::Event;
use crate::retention::RetentionReport;
use crate::units::{Bytes, Offset, Timestamp};

/// What the events of one step add up to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepSummary {
    /// Batches appended.
    pub batches_appended: u64,
    /// Records appended.
    pub records_appended: u64,
    /// Bytes appended (batch sizes as the broker writes them).
    pub bytes_appended: Bytes,
    /// From the first offset of the first batch appended to the last offset of the last one.
    pub offsets: Option<(Offset, Offset)>,
    /// The offsets of the last batch appended.
    pub landed: Option<(Offset, Offset)>,
    /// The base offsets of the first and the last segment a batch went into.
    pub segments: Option<(Offset, Offset)>,
    /// The smallest and the largest max timestamp of the batches appended (each batch's header
    /// value: its largest record stamp, or the broker clock under LogAppendTime).
    pub max_timestamps: Option<(Timestamp, Timestamp)>,
    /// Batches accepted with a diagnosis (a suspicious stamp the broker let through).
    pub diagnosed_batches: u64,
    /// Segments rolled (a replaced empty segment included).
    pub rolls: u64,
    /// Offset-index entries written.
    pub offset_index_entries: u64,
    /// Time-index entries written (those written at a roll included).
    pub time_index_entries: u64,
    /// The high watermark before the step's first move and after its last.
    pub high_watermark: Option<(Offset, Offset)>,
    /// The log start offset before the step's first increment and after its last.
    pub log_start_offset: Option<(Offset, Offset)>,
    /// Retention checks that ran.
    pub retention_checks: u64,
    /// Segments retention deleted.
    pub segments_deleted: u64,
    /// Warnings that a segment's future timestamp keeps it from deletion.
    pub future_timestamp_warnings: u64,
    /// The last retention check worth showing: run on request, or one that deleted something
    /// or found segments stamped in the future.
    pub retention: Option<RetentionReport>,
}

/// `range` widened to `(from, to)`: the first `from` stays, `to` is the latest.
fn span<T: Copy>(range: &mut Option<(T, T)>, from: T, to: T) {
    *range = Some(match *range {
        None => (from, to),
        Some((first, _)) => (first, to),
    });
}

impl StepSummary {
    /// Counts `event` (a retention check is kept by the caller, which owns it).
    ///
    /// Inlined into each place an event is made, where the kind is known: the two events every
    /// appended batch makes are then counted with no call and no match; the rest are counted
    /// out of line, which keeps the many places that make events small.
    #[inline(always)]
    pub fn see(&mut self, event: &Event) {
        match event {
            Event::BatchAppended(a) => {
                self.batches_appended += 1;
                self.records_appended += (a.last_offset.0 - a.base_offset.0 + 1) as u64;
                self.bytes_appended = Bytes(self.bytes_appended.0 + a.size.0);
                span(&mut self.offsets, a.base_offset, a.last_offset);
                self.landed = Some((a.base_offset, a.last_offset));
                span(&mut self.segments, a.segment, a.segment);
                let t = a.max_timestamp;
                self.max_timestamps = Some(match self.max_timestamps {
                    None => (t, t),
                    Some((lo, hi)) => (lo.min(t), hi.max(t)),
                });
                self.diagnosed_batches += u64::from(!a.diagnoses.is_empty());
            }
            Event::HighWatermarkMoved { from, to } => span(&mut self.high_watermark, *from, *to),
            _ => self.see_other(event),
        }
    }

    /// [`StepSummary::see`] of the events that are not made once per batch.
    #[inline(never)]
    fn see_other(&mut self, event: &Event) {
        match event {
            Event::SegmentRolled(_) => self.rolls += 1,
            Event::OffsetIndexEntry { .. } => self.offset_index_entries += 1,
            Event::TimeIndexEntry { .. } => self.time_index_entries += 1,
            Event::LogStartOffsetIncremented { from, to, .. } => {
                span(&mut self.log_start_offset, *from, *to)
            }
            Event::SegmentDeleted { .. } => self.segments_deleted += 1,
            Event::FutureTimestampWarning { .. } => self.future_timestamp_warnings += 1,
            Event::RetentionChecked(_) => self.retention_checks += 1,
            Event::BatchAppended(_)
            | Event::HighWatermarkMoved { .. }
            | Event::RecordsDeleted { .. }
            | Event::ConfigChanged { .. }
            | Event::VersionChanged { .. }
            | Event::EmptyBatchIgnored => {}
        }
    }

    /// Whether a retention check is worth showing (quiet scheduled checks are not).
    pub fn worth_showing(r: &RetentionReport) -> bool {
        !r.scheduled || !r.deleted.is_empty() || !r.future_timestamp_segments.is_empty()
    }
}

/// What some events changed that a view of the partition marks: the batch that landed last and
/// the last retention check worth showing. (Why a segment rolled it keeps itself:
/// [`crate::Segment::roll_reason`].)
///
/// [`crate::scenario::Runner::step_marks`] and [`crate::scenario::Runner::step_slice_marks`]
/// fill one as the events happen, with no event handed out (a callback costs an indirect call
/// per event, two a batch); a caller that has the events in hand adds each with
/// [`ViewMarks::see`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ViewMarks {
    /// The offsets of the last batch appended.
    pub landed: Option<(Offset, Offset)>,
    /// The last retention check worth showing ([`StepSummary::worth_showing`]).
    pub retention: Option<RetentionReport>,
}

impl ViewMarks {
    /// Adds `event`. Inlined where the event is made, like [`StepSummary::see`].
    #[inline(always)]
    pub fn see(&mut self, event: &Event) {
        match event {
            Event::BatchAppended(a) => self.landed = Some((a.base_offset, a.last_offset)),
            Event::RetentionChecked(r) if StepSummary::worth_showing(r) => {
                self.retention = Some(r.clone())
            }
            _ => {}
        }
    }
}
