//! `LogSegment.append`: a batch's store, the max timestamp and its offset, an index entry once
//! more than `index.interval.bytes` went by; and the room a segment reserves for batches a
//! caller says are coming.

use super::{IndexUpdate, Segment};
use crate::batch::Record;
use crate::units::{Bytes, Offset, Timestamp};
use crate::validation::Validated;

impl Segment {
    /// Appends one validated batch at `base` (`LogSegment.append`).
    pub(crate) fn append(
        &mut self,
        now: Timestamp,
        base: Offset,
        records: &[Record],
        v: &Validated,
    ) -> IndexUpdate {
        debug_assert_eq!(base, self.next_offset());
        let position = self.size();
        let size = self.batch_bytes(v);
        match (v.log_append_time, records) {
            (Some(t), [_]) => self.batches.push_one(size, t.0, v.max_timestamp.0, true),
            (None, [r]) => self
                .batches
                .push_one(size, r.timestamp.0, v.max_timestamp.0, false),
            (Some(t), _) => self.batches.push(
                size,
                std::iter::repeat_n(t.0, records.len()),
                v.max_timestamp.0,
                true,
            ),
            (None, _) => self.batches.push(
                size,
                records.iter().map(|r| r.timestamp.0),
                v.max_timestamp.0,
                false,
            ),
        }
        self.appended(now, base.plus(records.len() as i64 - 1), position, v)
    }

    /// [`Segment::append`] of a CreateTime batch of one record stamped `stamp` at `base`.
    // Always inlined: its one caller, the common path, is too large for the inliner's
    // threshold, and the call passes `v` and returns the index update through memory.
    #[inline(always)]
    pub(crate) fn append_one(
        &mut self,
        now: Timestamp,
        base: Offset,
        stamp: Timestamp,
        v: &Validated,
    ) -> IndexUpdate {
        debug_assert_eq!(base, self.next_offset());
        debug_assert!(v.log_append_time.is_none());
        let position = self.size();
        let size = self.batch_bytes(v);
        self.batches
            .push_one(size, stamp.0, v.max_timestamp.0, false);
        self.appended(now, base, position, v)
    }

    /// The index entries `appended` adds for the batch `batch` (its last offset `last`, at
    /// `position`), the segment's max so far being `max`: an offset-index entry, and a
    /// time-index entry for the max when it is new.
    pub(crate) fn index_entry(
        &mut self,
        last: Offset,
        position: Bytes,
        batch: usize,
        max: (Timestamp, Offset),
    ) -> IndexUpdate {
        self.offset_index.append(last, position);
        self.index_batches.push(batch as u32);
        let added = self.time_index.maybe_append(max.0, max.1, false);
        IndexUpdate {
            offset_entry: Some((last, position)),
            time_entry: added.then_some(max),
        }
    }

    /// The size of the batch `v` about to be appended, which becomes the roll basis when it is
    /// the segment's first.
    #[inline]
    fn batch_bytes(&mut self, v: &Validated) -> u32 {
        if self.batches.size() == 0 {
            self.rolling_based_timestamp = Some(v.max_timestamp);
        }
        // Segment sizes stay below 2^31 (`should_roll` rolls before `segment.bytes`, an int,
        // and a lone batch is at most `max.message.bytes`, an int).
        u32::try_from(v.size.0).expect("a batch is smaller than 2 GiB")
    }

    /// What follows the store of a batch whose last offset is `last`, at `position`: the max
    /// timestamp, the index entries, the modification time.
    #[inline]
    fn appended(
        &mut self,
        now: Timestamp,
        last: Offset,
        position: Bytes,
        v: &Validated,
    ) -> IndexUpdate {
        if v.max_timestamp > self.max_timestamp_so_far {
            self.max_timestamp_so_far = v.max_timestamp;
            self.offset_of_max_timestamp = last;
        }
        let mut update = IndexUpdate::default();
        if self.bytes_since_last_index_entry > self.index_interval_bytes {
            let max = (self.max_timestamp_so_far, self.offset_of_max_timestamp);
            update = self.index_entry(last, position, self.batches.len() - 1, max);
            self.bytes_since_last_index_entry = 0;
        }
        self.bytes_since_last_index_entry += v.size.0;
        self.last_modified = now;
        update
    }

    /// Reserves room for `batches` more batches of `batch_bytes` bytes and `records_per_batch`
    /// records each, and for the index entries they add (a caller that knows what is coming
    /// saves the copies of doubling growth, and the page faults of memory it then drops).
    pub(crate) fn reserve(&mut self, batches: usize, records_per_batch: usize, batch_bytes: i64) {
        self.batches.reserve(batches, records_per_batch);
        // `appended` adds an entry once more than `index.interval.bytes` went by: every
        // `interval / batch_bytes + 1` batches of that size (none for a segment of fewer, such
        // as a one-batch segment, which then allocates no index at all).
        let every = self.index_interval_bytes.max(0) / batch_bytes.max(1) + 1;
        let entries = usize::try_from(batches as i64 / every).unwrap_or(usize::MAX);
        let offsets = entries.min(
            self.offset_index
                .max_entries()
                .saturating_sub(self.offset_index.len()),
        );
        self.offset_index.reserve(offsets);
        self.index_batches.reserve(offsets);
        let times = entries.min(
            self.time_index
                .max_entries()
                .saturating_sub(self.time_index.len()),
        );
        self.time_index.reserve(times);
    }
}
