//! When a segment rolls: `LogSegment.shouldRoll` (size, time with jitter, full indexes, offset
//! overflow, in Kafka's order), `timeWaitedForRoll`, and `onBecomeInactiveSegment`, the final
//! time-index entry of a segment that stops being active.

use super::Segment;
use crate::units::{Bytes, Offset, Timestamp};
use serde::{Deserialize, Serialize};

/// Why a segment rolled (`LogSegment.shouldRoll`, checked in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RollReason {
    /// `size > segment.bytes - incoming`.
    Size {
        /// Segment size before the append.
        size: Bytes,
        /// The incoming batch's size.
        incoming: Bytes,
        /// `segment.bytes`.
        segment_bytes: Bytes,
    },
    /// `waited > segment.ms - jitter`, measured on record time or on the wall clock.
    Time {
        /// How long the segment has waited, in ms.
        waited_ms: i64,
        /// `segment.ms - jitter`.
        limit_ms: i64,
        /// `true`: incoming max timestamp minus the first batch's max; `false`: broker clock
        /// minus the segment's creation (the first batch had no timestamp).
        by_record_time: bool,
    },
    /// The offset index is full.
    OffsetIndexFull {
        /// Its capacity.
        max_entries: u64,
    },
    /// The time index is full (one slot is kept for the final entry).
    TimeIndexFull {
        /// Its capacity.
        max_entries: u64,
    },
    /// The incoming last offset is too far from the base to fit a relative offset.
    OffsetOverflow {
        /// The incoming last offset.
        last_offset: Offset,
    },
    /// Retention is about to delete every segment, so a new empty one is rolled first.
    RetentionDeletesAll,
}

impl Segment {
    /// `timeWaitedForRoll`: record time when the first batch had a timestamp, else wall clock.
    pub fn time_waited_for_roll(&self, now: Timestamp, incoming_max: Timestamp) -> (i64, bool) {
        match self.rolling_based_timestamp {
            Some(ts) if ts.0 >= 0 => (incoming_max.wrapping_since(ts), true),
            _ => (now.wrapping_since(self.created), false),
        }
    }

    /// `shouldRoll`: the first reason that holds, in Kafka's order, or `None`.
    #[inline]
    pub fn should_roll(
        &self,
        now: Timestamp,
        incoming_max: Timestamp,
        incoming_size: Bytes,
        incoming_last_offset: Offset,
        segment_bytes: i64,
        segment_ms: i64,
    ) -> Option<RollReason> {
        let size = self.size();
        if size.0 > segment_bytes - incoming_size.0 {
            return Some(RollReason::Size {
                size,
                incoming: incoming_size,
                segment_bytes: Bytes(segment_bytes),
            });
        }
        let (waited_ms, by_record_time) = self.time_waited_for_roll(now, incoming_max);
        let limit_ms = segment_ms.wrapping_sub(self.roll_jitter_ms);
        if size.0 > 0 && waited_ms > limit_ms {
            return Some(RollReason::Time {
                waited_ms,
                limit_ms,
                by_record_time,
            });
        }
        if self.offset_index.is_full() {
            return Some(RollReason::OffsetIndexFull {
                max_entries: self.offset_index.max_entries() as u64,
            });
        }
        if self.time_index.is_full() {
            return Some(RollReason::TimeIndexFull {
                max_entries: self.time_index.max_entries() as u64,
            });
        }
        let rel = incoming_last_offset.0.wrapping_sub(self.base_offset.0);
        if !(0..=i32::MAX as i64).contains(&rel) {
            return Some(RollReason::OffsetOverflow {
                last_offset: incoming_last_offset,
            });
        }
        None
    }

    /// `onBecomeInactiveSegment`: the final time-index entry for the segment's max, if it is new.
    /// The segment will not grow again, so it gives back its reserved room and remembers why
    /// it rolled.
    pub(crate) fn on_become_inactive(&mut self, reason: RollReason) -> Option<(Timestamp, Offset)> {
        let (t, o) = (self.max_timestamp_so_far, self.offset_of_max_timestamp);
        let added = self.time_index.maybe_append(t, o, true);
        self.rolled = Some(reason);
        self.batches.shrink();
        self.offset_index.shrink();
        self.time_index.shrink();
        self.index_batches.shrink_to_fit();
        added.then_some((t, o))
    }
}
