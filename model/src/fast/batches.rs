//! A segment's batches and record timestamps, stored compactly.
//!
//! Most batches carry one record (a producer with `linger.ms` 0, generated traffic, a replay of
//! single events), and such a batch is described by its position and its record's timestamp:
//! its offset follows from its index, its size from the next batch's position, and its max
//! timestamp is its record's (or `-1`, NO_TIMESTAMP, when the stamp is negative: the broker's
//! max starts from `-1`). So [`Batches`] keeps 8 bytes a record (the timestamp a reader sees)
//! and 4 bytes a batch (its position: a segment is at most 2 GiB, Kafka's positions are ints),
//! and only a segment with a wider batch (several records, or a max timestamp that is not its
//! record's) also keeps each batch's end offset and max timestamp, 12 bytes more a batch.
//! LogAppendTime batches are kept as runs of batch indexes (a topic config, so runs are long).
//!
//! Invariants (checked by [`Batches::check_invariants`]):
//! * positions strictly increase from 0 and stay below `size`;
//! * in the narrow form every batch holds one record (`stamps.len() == starts.len()`);
//! * in the wide form `ends` and `maxes` have one entry a batch, `ends` strictly increase and
//!   the last is `stamps.len()`;
//! * LogAppendTime runs are non-empty, ordered, apart and inside `[0, batches)`.

/// The batches and record timestamps of one segment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Batches {
    /// Each record's timestamp as a reader sees it, from the segment's base offset on.
    stamps: Vec<i64>,
    /// Each batch's byte position in the segment.
    starts: Vec<u32>,
    /// The segment's size in bytes: the end of the last batch.
    size: u32,
    /// What narrow segments do without.
    extra: Option<Box<Extra>>,
}

/// The parts of [`Batches`] that only some segments need.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Extra {
    /// One past each batch's last record, relative to the segment's first record; empty while
    /// every batch is narrow.
    ends: Vec<u32>,
    /// Each batch's max timestamp; empty while every batch is narrow.
    maxes: Vec<i64>,
    /// `[from, to)` batch indexes written under LogAppendTime.
    log_append_time: Vec<(u32, u32)>,
}

/// One batch as the store gives it back, offsets relative to the segment's base offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BatchAt {
    /// Index of its first record.
    pub(crate) first: u32,
    /// One past its last record.
    pub(crate) end: u32,
    /// Byte position.
    pub(crate) position: u32,
    /// Size in bytes.
    pub(crate) size: u32,
    /// The header's max timestamp.
    pub(crate) max_timestamp: i64,
    /// Written under LogAppendTime.
    pub(crate) log_append_time: bool,
}

/// The max timestamp a one-record batch gets from its record (`max(-1, ts)`).
fn natural_max(stamp: i64) -> i64 {
    stamp.max(-1)
}

impl Batches {
    /// Number of batches.
    pub(crate) fn len(&self) -> usize {
        self.starts.len()
    }

    /// Number of records.
    pub(crate) fn records(&self) -> usize {
        self.stamps.len()
    }

    /// The segment's size in bytes.
    pub(crate) fn size(&self) -> u32 {
        self.size
    }

    /// Record timestamps, from the segment's first record.
    pub(crate) fn stamps(&self) -> &[i64] {
        &self.stamps
    }

    fn wide(&self) -> Option<&Extra> {
        self.extra.as_deref().filter(|e| !e.ends.is_empty())
    }

    /// Batch `i`.
    pub(crate) fn get(&self, i: usize) -> BatchAt {
        let position = self.starts[i];
        let next = self.starts.get(i + 1).copied().unwrap_or(self.size);
        let (first, end, max_timestamp) = match self.wide() {
            Some(w) => (
                if i == 0 { 0 } else { w.ends[i - 1] },
                w.ends[i],
                w.maxes[i],
            ),
            None => (i as u32, i as u32 + 1, natural_max(self.stamps[i])),
        };
        let log_append_time = self.extra.as_deref().is_some_and(|e| {
            let k = e
                .log_append_time
                .partition_point(|&(_, to)| to as usize <= i);
            e.log_append_time
                .get(k)
                .is_some_and(|&(from, _)| from as usize <= i)
        });
        BatchAt {
            first,
            end,
            position,
            size: next - position,
            max_timestamp,
            log_append_time,
        }
    }

    /// The first record, scanning the batches from batch `from` on, that a timestamp lookup
    /// answers: in the first batch whose max timestamp is `>= target`, the first record with
    /// `ts >= target` at or after record index `min_record`; when that batch has none, the next
    /// such batch. It reads only the max timestamps and the record stamps, where
    /// [`Batches::get`] builds each batch whole, so the untraced lookup skips the batches
    /// before the answer at the speed of a slice scan.
    pub(crate) fn find_from(&self, from: usize, target: i64, min_record: usize) -> Option<usize> {
        let Some(w) = self.wide() else {
            // Each batch is its one record, so the batch a record qualifies is its own: a batch
            // whose max is -1 only because its stamp is lower holds no answer.
            let start = from.max(min_record).min(self.stamps.len());
            return Some(start + self.stamps[start..].iter().position(|&t| t >= target)?);
        };
        let mut i = from;
        while i < self.len() {
            i += w.maxes[i..].iter().position(|&m| m >= target)?;
            let (first, end) = (if i == 0 { 0 } else { w.ends[i - 1] }, w.ends[i]);
            let start = (first as usize).max(min_record).min(end as usize);
            if let Some(k) = self.stamps[start..end as usize]
                .iter()
                .position(|&t| t >= target)
            {
                return Some(start + k);
            }
            i += 1;
        }
        None
    }

    /// The index of the batch that starts at `position`, or of the first one after it.
    pub(crate) fn index_at(&self, position: u32) -> usize {
        self.starts.partition_point(|&p| p < position)
    }

    /// Appends a batch of `size` bytes at the end of the segment: its records' timestamps (as a
    /// reader sees them), its header's max timestamp, and whether it is LogAppendTime.
    #[inline]
    pub(crate) fn push(
        &mut self,
        size: u32,
        stamps: impl Iterator<Item = i64>,
        max_timestamp: i64,
        log_append_time: bool,
    ) {
        let first = self.stamps.len();
        self.stamps.extend(stamps);
        let end = self.stamps.len();
        self.close(first, end, size, max_timestamp, log_append_time);
    }

    /// [`Batches::push`] of a one-record batch.
    #[inline]
    pub(crate) fn push_one(
        &mut self,
        size: u32,
        stamp: i64,
        max_timestamp: i64,
        log_append_time: bool,
    ) {
        if self.extra.is_none() && !log_append_time && max_timestamp == natural_max(stamp) {
            // Narrow, and stays so: what `close` does for it, without its checks.
            self.stamps.push(stamp);
            self.starts.push(self.size);
            self.size += size;
            return;
        }
        let first = self.stamps.len();
        self.stamps.push(stamp);
        self.close(first, first + 1, size, max_timestamp, log_append_time);
    }

    /// Appends one-record batches of `size` bytes each, narrow ones (a CreateTime stamp and its
    /// natural max) stamped `stamps`. The caller checks [`Batches::is_plain`] first.
    pub(crate) fn extend_narrow(&mut self, size: u32, stamps: &[i64]) {
        debug_assert!(self.is_plain());
        self.stamps.extend_from_slice(stamps);
        let from = self.size;
        let mut end = from;
        self.starts.extend(stamps.iter().map(|_| {
            let start = end;
            end += size;
            start
        }));
        self.size = end;
    }

    /// Whether every batch so far is narrow and CreateTime (no [`Extra`] at all), so that
    /// [`Batches::extend_narrow`] may append.
    pub(crate) fn is_plain(&self) -> bool {
        self.extra.is_none()
    }

    /// A store over `stamps` (every record's timestamp, moved in, not copied), with `batches` as
    /// `(records, size, max timestamp, log append time)` in order; the caller checks that the
    /// record counts add up to `stamps.len()`.
    pub(crate) fn from_parts(
        stamps: Vec<i64>,
        batches: impl ExactSizeIterator<Item = (usize, u32, i64, bool)>,
    ) -> Batches {
        let mut b = Batches {
            starts: Vec::with_capacity(batches.len()),
            ..Batches::default()
        };
        let total = stamps.len();
        b.stamps = stamps;
        let mut first = 0;
        for (n, size, max, lat) in batches {
            b.close(first, first + n, size, max, lat);
            first += n;
        }
        debug_assert_eq!(first, total);
        b
    }

    /// Records the batch made of the stamps `first..end`.
    #[inline]
    fn close(
        &mut self,
        first: usize,
        end: usize,
        size: u32,
        max_timestamp: i64,
        log_append_time: bool,
    ) {
        let i = self.starts.len() as u32;
        debug_assert!(end > first, "a stored batch holds records");
        let narrow = end - first == 1 && max_timestamp == natural_max(self.stamps[first]);
        let was_wide = self.wide().is_some();
        if !narrow || was_wide {
            if !was_wide {
                self.widen();
            }
            let w = self.extra.get_or_insert_with(Default::default);
            w.ends.push(end as u32);
            w.maxes.push(max_timestamp);
        }
        if log_append_time {
            self.mark_log_append_time(i);
        }
        self.starts.push(self.size);
        self.size += size;
    }

    /// Adds batch `i` to the LogAppendTime runs.
    #[cold]
    fn mark_log_append_time(&mut self, i: u32) {
        let lat = &mut self
            .extra
            .get_or_insert_with(Default::default)
            .log_append_time;
        match lat.last_mut() {
            Some((_, to)) if *to == i => *to += 1,
            _ => lat.push((i, i + 1)),
        }
    }

    /// Switches to the wide form, giving every batch so far its end and max.
    #[cold]
    fn widen(&mut self) {
        let e = self.extra.get_or_insert_with(Default::default);
        // Narrow so far: batch `i` is record `i`.
        let n = self.starts.len();
        e.ends = (1..=n as u32).collect();
        e.maxes = self.stamps[..n].iter().map(|&t| natural_max(t)).collect();
    }

    /// Reserves room for `batches` more batches of `records_per_batch` records each.
    pub(crate) fn reserve(&mut self, batches: usize, records_per_batch: usize) {
        self.starts.reserve(batches);
        self.stamps
            .reserve(batches.saturating_mul(records_per_batch));
        if let Some(w) = self.extra.as_deref_mut().filter(|e| !e.ends.is_empty()) {
            w.ends.reserve(batches);
            w.maxes.reserve(batches);
        }
    }

    /// Gives back the room reserved for growth (the segment stopped being active).
    pub(crate) fn shrink(&mut self) {
        self.stamps.shrink_to_fit();
        self.starts.shrink_to_fit();
        if let Some(e) = self.extra.as_deref_mut() {
            e.ends.shrink_to_fit();
            e.maxes.shrink_to_fit();
            e.log_append_time.shrink_to_fit();
        }
    }

    /// Heap bytes held, reserved room included.
    pub(crate) fn heap_bytes(&self) -> usize {
        let mut n = self.stamps.capacity() * 8 + self.starts.capacity() * 4;
        if let Some(e) = self.extra.as_deref() {
            n += size_of::<Extra>()
                + e.ends.capacity() * 4
                + e.maxes.capacity() * 8
                + e.log_append_time.capacity() * 8;
        }
        n
    }

    /// Panics if an invariant does not hold (tests only).
    pub(crate) fn check_invariants(&self) {
        assert!(
            self.starts.first().is_none_or(|&p| p == 0),
            "the first batch starts at 0"
        );
        for w in self.starts.windows(2) {
            assert!(w[0] < w[1], "positions strictly increase");
        }
        assert!(self.starts.last().is_none_or(|&p| p < self.size));
        match self.wide() {
            None => assert_eq!(
                self.stamps.len(),
                self.starts.len(),
                "narrow: one record a batch"
            ),
            Some(w) => {
                assert_eq!(w.ends.len(), self.starts.len());
                assert_eq!(w.maxes.len(), self.starts.len());
                assert!(w.ends[0] > 0);
                for p in w.ends.windows(2) {
                    assert!(p[0] < p[1], "ends strictly increase");
                }
                assert_eq!(
                    *w.ends.last().expect("not empty") as usize,
                    self.stamps.len()
                );
            }
        }
        if let Some(e) = self.extra.as_deref() {
            let mut prev_to = None;
            for &(from, to) in &e.log_append_time {
                assert!(from < to && to as usize <= self.starts.len());
                assert!(
                    prev_to.is_none_or(|p| p < from),
                    "runs are ordered and apart"
                );
                prev_to = Some(to);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_until_a_wide_batch_arrives() {
        let mut b = Batches::default();
        b.push(170, [5].into_iter(), 5, false);
        b.push(170, [-7].into_iter(), -1, false);
        assert!(b.wide().is_none());
        assert_eq!(
            b.get(1),
            BatchAt {
                first: 1,
                end: 2,
                position: 170,
                size: 170,
                max_timestamp: -1,
                log_append_time: false
            }
        );
        b.push(300, [9, 3].into_iter(), 9, false);
        assert!(b.wide().is_some());
        b.push(170, [4].into_iter(), 4, true);
        b.push(170, [4].into_iter(), 4, true);
        b.check_invariants();
        assert_eq!(b.get(0).max_timestamp, 5);
        assert_eq!(b.get(1).max_timestamp, -1);
        assert_eq!((b.get(2).first, b.get(2).end, b.get(2).size), (2, 4, 300));
        assert_eq!((b.get(3).first, b.get(3).log_append_time), (4, true));
        assert!(!b.get(2).log_append_time && b.get(4).log_append_time);
        assert_eq!(b.index_at(340), 2);
        assert_eq!(b.index_at(341), 3);
        assert_eq!(b.size(), 980);
    }

    /// A one-record batch whose header max is not its record's (an imported file) widens.
    #[test]
    fn an_odd_max_widens() {
        let mut b = Batches::default();
        b.push(170, [5].into_iter(), 5, false);
        b.push(170, [5].into_iter(), 8, false);
        assert!(b.wide().is_some());
        assert_eq!((b.get(0).max_timestamp, b.get(1).max_timestamp), (5, 8));
        b.check_invariants();
    }
}
