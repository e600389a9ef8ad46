//! Stretches of one-record batches ([`Partition::produce_run`](crate::Partition::produce_run)):
//! how many a segment lets a run append without the one-batch checks, and the append itself.
//!
//! A stretch is a run of CreateTime one-record batches of one size that cannot roll the segment
//! by size or by an offset overflow ([`Segment::stretch_room`]), none of which rolls it by time
//! ([`TimeRoll`], checked by the caller). Inside it only the index entries and the max timestamp
//! depend on the batches, and both are kept exactly as [`Segment::append_one`] keeps them.

use crate::segment::Segment;
use crate::units::{Bytes, Offset, Timestamp};

/// What decides a segment's roll by time for a batch that is not its first
/// ([`Segment::time_roll`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TimeRoll {
    /// The first batch's max timestamp, when it is one (`>= 0`): the wait is measured on it.
    basis: Option<Timestamp>,
    /// Otherwise the wait is measured on the broker clock from the segment's creation.
    created: Timestamp,
    /// `segment.ms - jitter`.
    limit_ms: i64,
}

impl TimeRoll {
    /// Whether a batch with max timestamp `incoming_max` at `now` rolls the segment.
    #[inline]
    pub(crate) fn rolls(&self, now: Timestamp, incoming_max: Timestamp) -> bool {
        let waited = match self.basis {
            Some(b) => incoming_max.wrapping_since(b),
            None => now.wrapping_since(self.created),
        };
        waited > self.limit_ms
    }

    /// When the wait is measured on record time: the largest max timestamp a batch can have
    /// without rolling the segment. The basis is at least 0 and a max at least -1, so their
    /// difference never wraps, and `max - basis > limit` is `max > basis + limit` (a sum past
    /// `i64::MAX` bounds nothing, as its saturation to `i64::MAX` does not).
    pub(crate) fn record_time_limit(&self) -> Option<i64> {
        let basis = self.basis?;
        debug_assert!(basis.0 >= 0);
        Some(basis.0.saturating_add(self.limit_ms))
    }
}

/// How many `j >= 0` have `j × step <= slack` (`step > 0`).
fn fits(slack: i64, step: i64) -> usize {
    if slack < 0 {
        0
    } else {
        usize::try_from(slack / step + 1).unwrap_or(usize::MAX)
    }
}

impl Segment {
    /// How many CreateTime one-record batches of `size` bytes can follow as one stretch
    /// ([`Segment::append_stretch`]): none of them can roll the segment by size or by an offset
    /// overflow, and no index is full yet, so only the roll by time (checked by the caller with
    /// [`Segment::time_roll`]) and a full index after an entry of the stretch are left.
    /// Zero when the next batch is the segment's first (it sets the roll basis) or when the
    /// store keeps more than narrow batches.
    pub(crate) fn stretch_room(&self, size: Bytes, segment_bytes: i64) -> usize {
        let at = self.size().0;
        if at == 0
            || u32::try_from(size.0).map_or(true, |s| s == 0)
            || !self.batches.is_plain()
            || self.offset_index.is_full()
            || self.time_index.is_full()
        {
            return 0;
        }
        // `should_roll` rolls batch `j` (at `at + j × size`) past `segment.bytes - size`, and
        // when its offset is more than an int past the base.
        let by_size = fits(
            segment_bytes.saturating_sub(size.0).saturating_sub(at),
            size.0,
        );
        let by_offset =
            usize::try_from(i64::from(i32::MAX) + 1 - self.batches.records() as i64).unwrap_or(0);
        by_size.min(by_offset)
    }

    /// [`Segment::should_roll`]'s roll by time for the batches after the first, with
    /// `segment.ms` in force: what it reads of the segment, read once for a stretch.
    pub(crate) fn time_roll(&self, segment_ms: i64) -> TimeRoll {
        TimeRoll {
            basis: self.rolling_based_timestamp.filter(|t| t.0 >= 0),
            created: self.created,
            limit_ms: segment_ms.wrapping_sub(self.roll_jitter_ms),
        }
    }

    /// Appends the CreateTime one-record batches of `size` bytes stamped `stamps` at `nows`
    /// (as many as [`Segment::stretch_room`] allows, none rolling by time), exactly as
    /// [`Segment::append_one`] would one by one, until an index entry fills an index (the next
    /// batch rolls). Returns how many.
    ///
    /// Between two index entries nothing depends on a batch but the max timestamp, so the
    /// stamps up to the next entry are stored as one slice and their max found in one pass.
    pub(crate) fn append_stretch(
        &mut self,
        size: Bytes,
        nows: &[Timestamp],
        stamps: &[i64],
    ) -> usize {
        debug_assert_eq!(nows.len(), stamps.len());
        let step = u32::try_from(size.0).expect("stretch_room checked the size");
        let (next, at, batches) = (self.next_offset(), self.size().0, self.batches.len());
        // Batches after an entry add none while their counters (from `size` on) stay at or
        // below the interval.
        let interval = self.index_interval_bytes;
        let mut quiet = fits(
            interval.saturating_sub(self.bytes_since_last_index_entry),
            size.0,
        );
        let quiet_after_entry = fits(interval.saturating_sub(size.0), size.0);
        let mut k = 0;
        while k < stamps.len() {
            // Batches `k..entry` add no entry, batch `entry` adds one.
            let entry = k.saturating_add(quiet);
            let to = stamps.len().min(entry.saturating_add(1));
            self.store_narrow(step, next.plus(k as i64), &stamps[k..to]);
            if to <= entry {
                self.bytes_since_last_index_entry += (to - k) as i64 * size.0;
                k = to;
                break;
            }
            // For the max so far, the entry batch's own stamp included.
            let max = (self.max_timestamp_so_far, self.offset_of_max_timestamp);
            let position = Bytes(at + entry as i64 * size.0);
            self.index_entry(next.plus(entry as i64), position, batches + entry, max);
            self.bytes_since_last_index_entry = size.0;
            quiet = quiet_after_entry;
            k = to;
            if self.offset_index.is_full() || self.time_index.is_full() {
                // The next batch rolls the segment: `should_roll` says how.
                break;
            }
        }
        if let Some(&now) = nows[..k].last() {
            self.last_modified = now;
        }
        k
    }

    /// Stores one-record CreateTime batches of `size` bytes stamped `stamps`, the first at
    /// offset `first`, keeping the max timestamp (the first batch to reach a new max keeps it:
    /// `>`, as `appended` does).
    fn store_narrow(&mut self, size: u32, first: Offset, stamps: &[i64]) {
        self.batches.extend_narrow(size, stamps);
        // A batch's max is its stamp, or -1 (NO_TIMESTAMP) for a negative one, so a stamp
        // can only be a new max if it is above the max so far (never below -1).
        if let Some(i) = first_above(stamps, self.max_timestamp_so_far.0) {
            self.max_timestamp_so_far = Timestamp(stamps[i]);
            self.offset_of_max_timestamp = first.plus(i as i64);
        }
    }
}

/// How many independent maxima [`first_above`] keeps (a chain of compare-and-moves each, so that
/// they run side by side).
const LANES: usize = 4;

/// The first of `stamps` to reach their max, if that max is above `top`. Lane `l` keeps the max
/// of the stamps at `l`, `l + LANES`, ... and the first of them to reach it (`>`); the answer
/// is the largest of the lanes' maxima, at the first place any lane reached it.
fn first_above(stamps: &[i64], top: i64) -> Option<usize> {
    let mut lanes = [(top, usize::MAX); LANES];
    let chunks = stamps.chunks_exact(LANES);
    let tail = chunks.remainder();
    for (c, chunk) in chunks.enumerate() {
        for (l, (&t, lane)) in chunk.iter().zip(&mut lanes).enumerate() {
            if t > lane.0 {
                *lane = (t, c * LANES + l);
            }
        }
    }
    let done = stamps.len() - tail.len();
    for (l, (&t, lane)) in tail.iter().zip(&mut lanes).enumerate() {
        if t > lane.0 {
            *lane = (t, done + l);
        }
    }
    let (max, at) = lanes.into_iter().fold((top, usize::MAX), |(m, a), (t, i)| {
        if t > m || (t == m && i < a) {
            (t, i)
        } else {
            (m, a)
        }
    });
    (max > top).then_some(at)
}
