//! Reading record stamps at rising offsets. The density view and the timestamp chart sample a
//! few thousand records from the log start to its end; a search of every segment for each
//! (twenty steps into a million one-record segments, each step a segment in its own place in
//! memory) was most of a drawing. A [`StampCursor`] starts each search where the last one
//! ended: a gallop forward, then a binary search of what it stepped over.

use std::cell::Cell;

use logtime_model::{Offset, Partition, Segment, Timestamp};

/// [`Partition::timestamp_at`] for offsets read mostly in rising order.
///
/// Invariant: every segment before `at` ends at or before the offset last read, so a rising
/// read only looks from `at` on. A read below that offset searches from the first segment.
pub struct StampCursor<'a> {
    segments: &'a [Box<Segment>],
    at: Cell<usize>,
}

impl<'a> StampCursor<'a> {
    /// A cursor at the partition's first segment.
    pub fn new(partition: &'a Partition) -> StampCursor<'a> {
        StampCursor {
            segments: partition.segments(),
            at: Cell::new(0),
        }
    }

    /// The stamp of the record at `o`, if one is stored there: what
    /// [`Partition::timestamp_at`] answers.
    pub fn timestamp_at(&self, o: Offset) -> Option<Timestamp> {
        let segs = self.segments;
        let ends_by = |i: usize| segs[i].next_offset() <= o;
        let mut lo = self.at.get().min(segs.len());
        if lo > 0 && !ends_by(lo - 1) {
            lo = 0;
        }
        // Every segment before `lo` ends by `o`; gallop to one that does not (or the end).
        let (mut hi, mut step) = (lo, 1);
        while hi < segs.len() && ends_by(hi) {
            lo = hi + 1;
            hi = lo.saturating_add(step).min(segs.len());
            step *= 2;
        }
        let i = lo + segs[lo..hi].partition_point(|s| s.next_offset() <= o);
        self.at.set(i);
        let s = segs.get(i)?;
        (s.base_offset() <= o).then(|| s.timestamp_at(o))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_core::scenario::{parse, Runner};

    /// Rising, falling, repeated and out-of-range reads answer what the partition's own search
    /// does, over one-record segments, a log start offset inside the log and an empty active
    /// segment.
    #[test]
    fn the_cursor_answers_what_the_search_does() {
        let json = r#"{"kafka": "3.6", "start": "2027-03-12T09:00:00Z", "topic": {"segment.bytes": 300}, "steps": [
            {"produce": {"batches": 300, "every": "1s", "records": [{"timestamp": "now"}]}},
            {"produce": {"batches": 20, "every": "1s", "records": [{"timestamp": "now-1h"}, {"timestamp": -1}]}},
            {"delete_records": {"offset": 77}},
            {"retention": {}}]}"#;
        let mut r = Runner::new(parse(json).unwrap());
        while r.step(&mut |_| {}).is_some() {}
        let p = r.partition();
        assert!(p.segments().len() > 100, "{} segments", p.segments().len());
        let end = p.log_end_offset().0;
        let reads: Vec<i64> = (-3..end + 3)
            .chain((0..end).step_by(37))
            .chain((0..end).rev().step_by(11))
            .chain([5, 5, 0, end, end - 1, 200, 3])
            .collect();
        let c = StampCursor::new(p);
        for o in reads {
            assert_eq!(
                c.timestamp_at(Offset(o)),
                p.timestamp_at(Offset(o)),
                "offset {o}"
            );
        }
    }
}
