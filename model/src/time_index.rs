//! A segment's time index (`TimeIndex.java`): `(timestamp, offset)` entries, 12 bytes each.
//!
//! Invariants (checked by [`TimeIndex::check_invariants`]):
//! * timestamps strictly increase (an append needs `ts > last.ts`, `TimeIndex.java:205`);
//! * offsets never decrease;
//! * at most `max_entries` entries, where `max_entries = segment.index.bytes / 12`.
//!
//! `is_full` is `entries >= max_entries - 1`: one slot is kept for the final entry written when the
//! segment stops being active.

use crate::index::{Index, Probe};
use crate::units::{Offset, Timestamp};

/// A time index: timestamp → offset, 12 bytes an entry.
pub type TimeIndex = Index<Timestamp, Offset, 12>;

impl TimeIndex {
    /// `entries >= maxEntries - 1` (`TimeIndex.java:123-125`).
    pub fn is_full(&self) -> bool {
        self.len() + 1 >= self.max_entries()
    }

    /// The last entry, or `(-1, base_offset)` when empty (`TimeIndex.java:261-272`).
    pub fn last_entry(&self) -> (Timestamp, Offset) {
        self.raw()
            .last()
            .map_or((Timestamp::NONE, self.base_offset()), |&(t, o)| {
                (Timestamp(t), Offset(o))
            })
    }

    /// `maybeAppend`: appends only when `ts` is strictly greater than the last entry's. Returns
    /// whether an entry was added. The caller guarantees `!is_full()` unless `skip_full_check`
    /// (the segment rolls before that can happen).
    pub fn maybe_append(&mut self, ts: Timestamp, offset: Offset, skip_full_check: bool) -> bool {
        debug_assert!(skip_full_check || !self.is_full(), "time index full");
        let (last_ts, last_off) = self.last_entry();
        debug_assert!(self.is_empty() || offset >= last_off);
        if ts > last_ts && (skip_full_check || !self.is_full()) {
            self.push((ts.0, offset.0));
            true
        } else {
            false
        }
    }

    /// `lookup`: the largest entry with timestamp `<= target`, or `(-1, base_offset)`.
    pub fn lookup(
        &self,
        target: Timestamp,
        probes: Option<&mut Vec<Probe>>,
    ) -> (Timestamp, Offset) {
        self.search(target.0, probes)
            .map_or((Timestamp::NONE, self.base_offset()), |s| self.entry(s))
    }

    /// Panics if an invariant does not hold (tests only).
    pub fn check_invariants(&self) {
        assert!(
            self.len() <= self.max_entries().max(1),
            "time index over capacity"
        );
        for w in self.raw().windows(2) {
            assert!(
                w[0].0 < w[1].0,
                "time index timestamps must strictly increase: {w:?}"
            );
            assert!(
                w[0].1 <= w[1].1,
                "time index offsets must not decrease: {w:?}"
            );
        }
        if let Some(&(t, o)) = self.raw().first() {
            assert!(t >= 0 && o >= self.base_offset().0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TimeIndexTest.testLookUp` (B1).
    #[test]
    fn b1_lookup() {
        let mut idx = TimeIndex::new(Offset(45), 30 * 12);
        assert_eq!(
            idx.lookup(Timestamp(100), None),
            (Timestamp(-1), Offset(45))
        );
        for i in 1..30 {
            idx.maybe_append(Timestamp(10 * i), Offset(45 + 10 * i), true);
        }
        assert_eq!(idx.lookup(Timestamp(9), None), (Timestamp(-1), Offset(45)));
        assert_eq!(idx.lookup(Timestamp(25), None), (Timestamp(20), Offset(65)));
        assert_eq!(
            idx.lookup(Timestamp(30), Some(&mut Vec::new())),
            (Timestamp(30), Offset(75))
        );
    }

    /// `TimeIndexTest.testAppend`/`testIsFull` (B2) and `testLastEntry` (B3).
    #[test]
    fn b2_b3_full_and_last_entry() {
        let mut idx = TimeIndex::new(Offset(45), 30 * 12);
        assert_eq!(idx.last_entry(), (Timestamp(-1), Offset(45)));
        idx.maybe_append(Timestamp(1), Offset(46), false);
        assert_eq!(idx.last_entry(), (Timestamp(1), Offset(46)));
        for i in 2..30 {
            idx.maybe_append(Timestamp(i * 10), Offset(45 + i * 10), false);
        }
        assert_eq!(idx.len(), 29);
        assert!(idx.is_full());
        assert!(idx.maybe_append(Timestamp(10000), Offset(1000), true));
        // Equal timestamps never append.
        assert!(!idx.maybe_append(Timestamp(10000), Offset(1001), true));
        idx.check_invariants();
    }
}
