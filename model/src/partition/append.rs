//! Appending to a partition: `UnifiedLog.append` (validate, maybe roll, store the batch, move the
//! high watermark) and `LocalLog.roll`, with the one-record fast path of generated runs.

use super::{Partition, RunShape};
use crate::batch::Record;
use crate::error::Error;
use crate::event::{Appended, Event, Roll};
use crate::fast::sink::{Discard, Sink};
use crate::segment::{RollReason, Segment};
use crate::units::{Bytes, Offset, Timestamp};
use crate::validation::{ProduceError, Validated};

impl Partition {
    /// [`Command::Produce`] of a borrowed batch, handing each event to `events`.
    pub(crate) fn produce_with(
        &mut self,
        now: Timestamp,
        records: &[Record],
        events: &mut impl Sink,
    ) -> Result<(), Error> {
        self.check_clock(now)?;
        // A one-record batch inside the windows takes validation's quick path there.
        let v = self.validate(now, records).map_err(Error::Produce)?;
        self.run_due_checks(now, events);
        self.append_validated(now, records, v, events);
        self.clock = now;
        Ok(())
    }

    /// Appends a batch validated by the caller: the hot path behind [`Command::Produce`]. Returns
    /// the base offset. Exposed for benchmarks; `now` must not be before the clock, and due
    /// retention checks are the caller's business.
    pub fn produce_unchecked(
        &mut self,
        now: Timestamp,
        records: &[Record],
    ) -> Result<Offset, Box<ProduceError>> {
        let v = self.validate(now, records).map_err(Box::new)?;
        let base = self.log_end_offset();
        self.append_validated(now, records, v, &mut Discard);
        self.clock = self.clock.max(now);
        Ok(base)
    }
    pub(super) fn move_high_watermark(&mut self, to: Offset, events: &mut impl Sink) {
        let from = self.high_watermark;
        if from != to {
            self.high_watermark = to;
            events.emit(|| Event::HighWatermarkMoved { from, to });
        }
    }

    fn append_validated(
        &mut self,
        now: Timestamp,
        records: &[Record],
        v: Validated,
        events: &mut impl Sink,
    ) {
        if records.is_empty() {
            events.emit(|| Event::EmptyBatchIgnored);
            return;
        }
        let base = self.log_end_offset();
        let last = base.plus(records.len() as i64 - 1);
        let t = &self.config.topic;
        let (segment_bytes, segment_ms) = (t.segment_bytes, t.segment_ms);
        if let Some(reason) = self.active_segment().should_roll(
            now,
            v.max_timestamp,
            v.size,
            last,
            segment_bytes,
            segment_ms,
        ) {
            self.roll(now, base, reason, events);
        }
        let seg = self
            .segments
            .last_mut()
            .expect("a partition always has a segment");
        let position = seg.size();
        let update = seg.append(now, base, records, &v);
        self.appended(base, last, position, update, v, events);
    }

    /// The common one-record batch of a run ([`Partition::produce_run`]): when nothing is due,
    /// the clock does not go backwards, the stamp `ts` is accepted at `now` without a
    /// diagnosis and the active segment does not roll, appends it (what
    /// [`Partition::produce_with`] would do, with the same events) and returns `true`;
    /// otherwise changes nothing and returns `false`, and the caller sends the batch through
    /// [`Partition::produce_with`], which says what happens to it.
    #[inline]
    pub(crate) fn append_common(
        &mut self,
        run: RunShape,
        now: Timestamp,
        ts: Timestamp,
        events: &mut impl Sink,
    ) -> bool {
        #[cfg(debug_assertions)]
        assert_eq!(self.limits, run.limits, "the config changed during a run");
        if !run.common
            || now < self.clock
            || now >= self.next_retention_check()
            || !self.limits.stamp_common(now, ts)
        {
            return false;
        }
        let v = Validated {
            size: run.size,
            max_timestamp: ts.max(Timestamp::NONE),
            log_append_time: None,
            diagnoses: Vec::new(),
        };
        let t = &self.config.topic;
        let (segment_bytes, segment_ms) = (t.segment_bytes, t.segment_ms);
        let seg = self
            .segments
            .last_mut()
            .expect("a partition always has a segment");
        let base = seg.next_offset();
        if seg
            .should_roll(
                now,
                v.max_timestamp,
                v.size,
                base,
                segment_bytes,
                segment_ms,
            )
            .is_some()
        {
            return false;
        }
        let position = seg.size();
        let update = seg.append_one(now, base, ts, &v);
        self.appended(base, base, position, update, v, events);
        self.clock = now;
        true
    }

    /// What one run of one-record batches shaped like `shape` (its timestamp aside) works out
    /// once: the batch's size, and whether the config in force lets such a batch take the common
    /// path at all. Valid while the config does not change.
    pub(crate) fn run_shape(&self, shape: &Record) -> RunShape {
        let size = crate::batch::single_record_batch_size(shape);
        RunShape {
            size,
            common: self.limits.takes_common(size, shape.has_key()),
            #[cfg(debug_assertions)]
            limits: self.limits,
        }
    }

    /// What follows a batch's store in the active segment (at `base..=last`, `position`): the
    /// expected batches, the events, the high watermark.
    // Always inlined (into both append paths), as `Segment::append_one` is.
    #[inline(always)]
    fn appended(
        &mut self,
        base: Offset,
        last: Offset,
        position: Bytes,
        update: crate::segment::IndexUpdate,
        v: Validated,
        events: &mut impl Sink,
    ) {
        let segment = self.active_segment().base_offset();
        self.size += v.size.0;
        self.records += (last.0 - base.0 + 1) as u64;
        if let Some(e) = &mut self.expected {
            e.batches -= 1;
            if e.batches == 0 {
                self.expected = None;
            }
        }
        events.emit(|| {
            Event::BatchAppended(Appended {
                segment,
                base_offset: base,
                last_offset: last,
                position,
                size: v.size,
                max_timestamp: v.max_timestamp,
                log_append_time: v.log_append_time,
                diagnoses: v.diagnoses,
            })
        });
        if let Some((offset, position)) = update.offset_entry {
            events.emit(|| Event::OffsetIndexEntry {
                segment,
                offset,
                position,
            });
        }
        if let Some((timestamp, offset)) = update.time_entry {
            events.emit(|| Event::TimeIndexEntry {
                segment,
                timestamp,
                offset,
                at_roll: false,
            });
        }
        self.move_high_watermark(last.plus(1), events);
    }

    /// `LocalLog.roll`: the old active segment gets its final time-index entry, and a new segment
    /// opens at `max(expected, log end offset)`, replacing the old one if it is empty at that base.
    pub(super) fn roll(
        &mut self,
        now: Timestamp,
        expected: Offset,
        reason: RollReason,
        events: &mut impl Sink,
    ) -> Offset {
        let new_base = expected.max(self.log_end_offset());
        let jitter = Self::draw_jitter(&self.config, &mut self.rng);
        let old = self
            .segments
            .last_mut()
            .expect("a partition always has a segment");
        let old_base = old.base_offset();
        let replaced_empty = old_base == new_base && old.size().0 == 0;
        self.closed_max_timestamp = self.closed_max_timestamp.max(old.max_timestamp_so_far());
        if let Some((timestamp, offset)) = old.on_become_inactive(reason) {
            events.emit(|| Event::TimeIndexEntry {
                segment: old_base,
                timestamp,
                offset,
                at_roll: true,
            });
        }
        let t = &self.config.topic;
        let seg = Box::new(Segment::new(
            new_base,
            now,
            t.segment_index_bytes,
            t.index_interval_bytes,
            jitter,
        ));
        if replaced_empty {
            *self.segments.last_mut().expect("checked above") = seg;
        } else {
            self.segments.push(seg);
            self.rolled += 1;
        }
        self.reserve_expected();
        events.emit(|| {
            Event::SegmentRolled(Roll {
                old_base,
                new_base,
                reason,
                replaced_empty,
                roll_jitter_ms: jitter,
            })
        });
        new_base
    }
}
