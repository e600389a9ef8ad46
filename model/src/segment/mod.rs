//! One log segment (`LogSegment.java`): its batches, record timestamps, both indexes, and the
//! bookkeeping that rolling and retention read.
//!
//! Invariants (checked by [`Segment::check_invariants`]):
//! * batches are contiguous in offsets from `base_offset` to `next_offset - 1` and in positions
//!   from 0 to `size`;
//! * `max_timestamp_so_far` is the largest batch max timestamp (or `-1`), and
//!   `offset_of_max_timestamp` is the last offset of the *first* batch that reached it;
//! * every index entry points at an offset inside the segment.
//!
//! What Kafka fixes when it opens a segment (`LogSegment.open` passes them to the constructor,
//! which keeps them in final fields, and `LocalLog.updateConfig` only swaps the config object)
//! is fixed here too: `index.interval.bytes`, the index files' `segment.index.bytes` and the roll
//! jitter. `segment.bytes` and `segment.ms` are read from the config in force at each append
//! (`UnifiedLog.maybeRoll` builds its `RollParams` from the current config), so they are
//! parameters of [`Segment::should_roll`].

mod append;
mod roll;

pub use roll::RollReason;

use crate::fast::batches::Batches;
use crate::offset_index::OffsetIndex;
use crate::time_index::TimeIndex;
use crate::units::{Bytes, Offset, Timestamp};
use serde::{Deserialize, Serialize};

pub(crate) use crate::fast::stretch::TimeRoll;

/// One stored batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredBatch {
    /// First offset.
    pub base_offset: Offset,
    /// Last offset.
    pub last_offset: Offset,
    /// Byte position of the batch in the segment file.
    pub position: Bytes,
    /// Size in bytes.
    pub size: Bytes,
    /// The header's max timestamp.
    pub max_timestamp: Timestamp,
    /// The header says LogAppendTime: every record reads `max_timestamp`.
    pub log_append_time: bool,
}

/// Index entries one append added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct IndexUpdate {
    /// `(offset, position)` added to the offset index.
    pub offset_entry: Option<(Offset, Bytes)>,
    /// `(timestamp, offset)` added to the time index.
    pub time_entry: Option<(Timestamp, Offset)>,
}

/// What [`Segment::from_parts`] assembles a segment from.
pub(crate) struct SegmentParts {
    pub(crate) base_offset: Offset,
    pub(crate) batches: Vec<StoredBatch>,
    pub(crate) timestamps: Vec<i64>,
    pub(crate) offset_index: Vec<(Offset, Bytes)>,
    pub(crate) time_index: Vec<(Timestamp, Offset)>,
    pub(crate) index_bytes: i64,
    /// The segment's `index.interval.bytes` from now on (see [`Segment::from_parts`]).
    pub(crate) index_interval_bytes: i64,
    pub(crate) created: Timestamp,
    pub(crate) last_modified: Timestamp,
}

/// A log segment.
///
/// Its batches and record timestamps live in a compact store (`crate::fast::batches`): 8 bytes a
/// record and 4 a batch when every batch holds one record. A segment that stops being active
/// gives back the room it reserved for growth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    base_offset: Offset,
    pub(crate) batches: Batches,
    pub(crate) offset_index: OffsetIndex,
    /// For each offset-index entry, the index of the batch at its position (a shortcut the
    /// broker gets from the file position; here it saves a search over the batches).
    index_batches: Vec<u32>,
    pub(crate) time_index: TimeIndex,
    pub(crate) max_timestamp_so_far: Timestamp,
    pub(crate) offset_of_max_timestamp: Offset,
    pub(crate) rolling_based_timestamp: Option<Timestamp>,
    pub(crate) created: Timestamp,
    pub(crate) last_modified: Timestamp,
    pub(crate) bytes_since_last_index_entry: i64,
    pub(crate) index_interval_bytes: i64,
    pub(crate) roll_jitter_ms: i64,
    /// Why the segment stopped being active, once it has.
    rolled: Option<RollReason>,
}

impl Segment {
    /// A new empty segment created at broker time `now`, with the `segment.index.bytes`,
    /// `index.interval.bytes` and roll jitter in force at its creation (kept for its lifetime).
    pub fn new(
        base_offset: Offset,
        now: Timestamp,
        index_bytes: i64,
        index_interval_bytes: i64,
        roll_jitter_ms: i64,
    ) -> Segment {
        Segment {
            base_offset,
            batches: Batches::default(),
            offset_index: OffsetIndex::new(base_offset, index_bytes),
            index_batches: Vec::new(),
            time_index: TimeIndex::new(base_offset, index_bytes),
            max_timestamp_so_far: Timestamp::NONE,
            offset_of_max_timestamp: Offset(-1),
            rolling_based_timestamp: None,
            created: now,
            last_modified: now,
            bytes_since_last_index_entry: 0,
            index_interval_bytes,
            roll_jitter_ms,
            rolled: None,
        }
    }

    /// A segment assembled from parts read off disk or seeded by a scenario
    /// (`crate::seed`, which checks them first so that [`Segment::check_invariants`]
    /// holds). The max timestamp and its offset come from the batches, the roll basis from the
    /// first batch, and the index counter from the batches after the last offset-index entry.
    ///
    /// The files do not record the `index.interval.bytes` a segment was written with (the
    /// on-disk index only bounds it), so the caller passes the one in force when the log is
    /// assembled: what a broker does when it loads existing segments (`LogLoader` opens each
    /// with `LogSegment.open(dir, baseOffset, config, ...)`, the current topic config). It
    /// decides the index entries of later appends to the segment, not the entries it already has.
    pub(crate) fn from_parts(parts: SegmentParts) -> Segment {
        let SegmentParts {
            base_offset,
            batches,
            timestamps,
            offset_index,
            time_index,
            index_bytes,
            index_interval_bytes,
            created,
            last_modified,
        } = parts;
        let mut max = Timestamp::NONE;
        let mut max_off = Offset(-1);
        for b in &batches {
            if b.max_timestamp > max {
                max = b.max_timestamp;
                max_off = b.last_offset;
            }
        }
        let mut oi = OffsetIndex::new(base_offset, index_bytes.max(offset_index.len() as i64 * 8));
        let mut index_batches = Vec::with_capacity(offset_index.len());
        for &(o, p) in &offset_index {
            oi.append(o, p);
            index_batches.push(batches.partition_point(|b| b.position < p) as u32);
        }
        let mut ti = TimeIndex::new(base_offset, index_bytes.max(time_index.len() as i64 * 12));
        for &(t, o) in &time_index {
            ti.maybe_append(t, o, true);
        }
        let from = index_batches.last().map_or(0, |&i| i as usize);
        let bytes_since_last_index_entry = batches[from.min(batches.len())..]
            .iter()
            .map(|b| b.size.0)
            .sum();
        let rolling_based_timestamp = batches.first().map(|b| b.max_timestamp);
        // `seed` checked that sizes and record counts fit a segment (2 GiB, 2^31 offsets).
        let store = Batches::from_parts(
            timestamps,
            batches.iter().map(|b| {
                (
                    (b.last_offset.0 - b.base_offset.0 + 1) as usize,
                    b.size.0 as u32,
                    b.max_timestamp.0,
                    b.log_append_time,
                )
            }),
        );
        Segment {
            base_offset,
            batches: store,
            rolling_based_timestamp,
            offset_index: oi,
            index_batches,
            time_index: ti,
            max_timestamp_so_far: max,
            offset_of_max_timestamp: max_off,
            created,
            last_modified,
            bytes_since_last_index_entry,
            index_interval_bytes,
            roll_jitter_ms: 0,
            rolled: None,
        }
    }

    /// `baseOffset`.
    pub fn base_offset(&self) -> Offset {
        self.base_offset
    }
    /// One past the last offset (the segment's end offset).
    pub fn next_offset(&self) -> Offset {
        self.base_offset.plus(self.batches.records() as i64)
    }
    /// Size in bytes.
    pub fn size(&self) -> Bytes {
        Bytes(self.batches.size() as i64)
    }
    /// Number of records.
    pub fn record_count(&self) -> u64 {
        self.batches.records() as u64
    }
    /// Number of batches.
    pub fn batch_count(&self) -> usize {
        self.batches.len()
    }
    /// Batch `i` (panics when `i >= batch_count()`).
    pub fn batch(&self, i: usize) -> StoredBatch {
        let b = self.batches.get(i);
        StoredBatch {
            base_offset: self.base_offset.plus(b.first as i64),
            last_offset: self.base_offset.plus(b.end as i64 - 1),
            position: Bytes(b.position as i64),
            size: Bytes(b.size as i64),
            max_timestamp: Timestamp(b.max_timestamp),
            log_append_time: b.log_append_time,
        }
    }
    /// The stored batches, in file order.
    pub fn batches(&self) -> impl ExactSizeIterator<Item = StoredBatch> + '_ {
        self.batches_from(0)
    }
    /// The stored batches from batch `i` on.
    pub fn batches_from(&self, i: usize) -> impl ExactSizeIterator<Item = StoredBatch> + '_ {
        (i.min(self.batch_count())..self.batch_count()).map(|k| self.batch(k))
    }
    /// Record timestamps as readers see them, from `base_offset` on.
    pub fn record_timestamps(&self) -> &[i64] {
        self.batches.stamps()
    }
    /// The timestamp of the record at `offset`, if it is in this segment.
    pub fn timestamp_at(&self, offset: Offset) -> Option<Timestamp> {
        let i = usize::try_from(offset.0.checked_sub(self.base_offset.0)?).ok()?;
        self.record_timestamps().get(i).map(|&t| Timestamp(t))
    }
    /// Why the segment stopped being active (`None` for the active segment).
    pub fn roll_reason(&self) -> Option<RollReason> {
        self.rolled
    }
    /// Heap bytes the segment holds (its batches, timestamps and indexes, reserved room
    /// included), for memory figures.
    pub fn heap_bytes(&self) -> usize {
        self.batches.heap_bytes()
            + self.offset_index.heap_bytes()
            + self.time_index.heap_bytes()
            + self.index_batches.capacity() * 4
    }
    /// The offset index.
    pub fn offset_index(&self) -> &OffsetIndex {
        &self.offset_index
    }
    /// The time index.
    pub fn time_index(&self) -> &TimeIndex {
        &self.time_index
    }
    /// `maxTimestampSoFar`: the largest batch max timestamp, `-1` if none.
    pub fn max_timestamp_so_far(&self) -> Timestamp {
        self.max_timestamp_so_far
    }
    /// `shallowOffsetOfMaxTimestampSoFar`: last offset of the first batch that reached the max.
    pub fn offset_of_max_timestamp(&self) -> Offset {
        self.offset_of_max_timestamp
    }
    /// Broker time at which the segment object was created (wall-clock roll basis).
    pub fn created(&self) -> Timestamp {
        self.created
    }
    /// Broker time of the last append (the file's mtime), or of creation.
    pub fn last_modified(&self) -> Timestamp {
        self.last_modified
    }
    /// The `index.interval.bytes` in force when the segment was created.
    pub fn index_interval_bytes(&self) -> i64 {
        self.index_interval_bytes
    }
    /// The jitter drawn for this segment, subtracted from `segment.ms`.
    pub fn roll_jitter_ms(&self) -> i64 {
        self.roll_jitter_ms
    }
    /// The first batch's max timestamp, which time rolling measures from.
    pub fn rolling_based_timestamp(&self) -> Option<Timestamp> {
        self.rolling_based_timestamp
    }

    /// `largestTimestamp`: the max record timestamp if any is `>= 0`, else the last-modified time.
    pub fn largest_timestamp(&self) -> Timestamp {
        if self.max_timestamp_so_far.0 >= 0 {
            self.max_timestamp_so_far
        } else {
            self.last_modified
        }
    }

    /// Whether [`Segment::largest_timestamp`] comes from a record (`true`) or from the file's
    /// last-modified time (`false`).
    pub fn largest_timestamp_is_record_time(&self) -> bool {
        self.max_timestamp_so_far.0 >= 0
    }

    /// The record a timestamp lookup answers, scanning from batch `from`: in the first batch
    /// whose max timestamp is `>= target`, the first record with `ts >= target` at or above
    /// `starting_offset`, else the same in the next such batch (`LogSegment.findOffsetByTimestamp`
    /// after its index searches). The untraced form of the scan `lookup` animates.
    pub(crate) fn find_from(
        &self,
        from: usize,
        target: Timestamp,
        starting_offset: Offset,
    ) -> Option<(Offset, Timestamp)> {
        let min_record =
            usize::try_from(starting_offset.0.saturating_sub(self.base_offset.0)).unwrap_or(0);
        let k = self.batches.find_from(from, target.0, min_record)?;
        Some((
            self.base_offset.plus(k as i64),
            Timestamp(self.batches.stamps()[k]),
        ))
    }

    /// Searches the offset index for `target` and returns `(entry offset, position, index of the
    /// batch at that position)`: `(base_offset, 0, 0)` when no entry is `<= target`.
    pub fn seek(
        &self,
        target: Offset,
        probes: Option<&mut Vec<crate::index::Probe>>,
    ) -> (Offset, Bytes, usize) {
        match self.offset_index.lookup_slot(target, probes) {
            Some(slot) => {
                let (o, p) = self.offset_index.entry(slot);
                (o, p, self.index_batches[slot] as usize)
            }
            None => (self.base_offset, Bytes(0), 0),
        }
    }

    /// The index of the batch that starts at `position`, or the first one after it.
    pub fn batch_index_at(&self, position: Bytes) -> usize {
        match u32::try_from(position.0) {
            Ok(p) => self.batches.index_at(p),
            Err(_) if position.0 < 0 => 0,
            Err(_) => self.batch_count(),
        }
    }

    /// Panics if an invariant does not hold (tests only).
    pub fn check_invariants(&self) {
        self.batches.check_invariants();
        let mut next = self.base_offset;
        let mut pos = 0;
        let mut max = Timestamp::NONE;
        let mut max_off = Offset(-1);
        for b in self.batches() {
            assert_eq!(b.base_offset, next, "batches must be contiguous");
            assert!(b.last_offset >= b.base_offset);
            assert_eq!(b.position.0, pos, "positions must be contiguous");
            pos += b.size.0;
            next = b.last_offset.plus(1);
            if b.max_timestamp > max {
                max = b.max_timestamp;
                max_off = b.last_offset;
            }
        }
        assert_eq!(next, self.next_offset());
        assert_eq!(pos, self.size().0);
        assert_eq!(max, self.max_timestamp_so_far);
        assert_eq!(max_off, self.offset_of_max_timestamp);
        self.offset_index.check_invariants();
        self.time_index.check_invariants();
        assert_eq!(self.index_batches.len(), self.offset_index.len());
        for ((o, pos), &b) in self.offset_index.entries().zip(&self.index_batches) {
            assert!(o >= self.base_offset && o < self.next_offset());
            let b = self.batch(b as usize);
            assert_eq!(b.position, pos, "index entry points at its batch");
            assert_eq!(b.last_offset, o);
        }
        for (t, o) in self.time_index.entries() {
            assert!(
                o >= self.base_offset && o < self.next_offset() && t <= self.max_timestamp_so_far
            );
        }
        assert!(self.last_modified >= self.created);
    }
}
