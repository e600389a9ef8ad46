//! Aggregation of records into density bars for big partitions. The work is bounded by the
//! number of bars (pixels), never by the number of records: each bar samples at most
//! [`SAMPLES`] records spread evenly across its offsets.

use super::format::AgeClass;

/// Records read per bar, at most.
pub const SAMPLES: i64 = 16;

/// Draw individual tiles (DOM) when at most this many records are visible.
pub const TILE_LIMIT: i64 = 160;

/// One bar of the density view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar {
    /// First offset covered.
    pub first: i64,
    /// One past the last offset covered.
    pub end: i64,
    /// Offsets in range that still hold a record (above the log start, below the log end).
    pub present: i64,
    /// Largest sampled stamp (`None` when nothing is present).
    pub max_ts: Option<i64>,
    /// Smallest sampled stamp.
    pub min_ts: Option<i64>,
    /// Class of the largest sampled stamp.
    pub class: Option<AgeClass>,
}

/// Splits `[first, end)` into at most `max_bars` bars and samples each. `ts_at(offset)` returns
/// the record's stamp, or `None` for offsets with no record (deleted, beyond the log end).
pub fn bars(
    first: i64,
    end: i64,
    max_bars: usize,
    now: i64,
    retention_ms: i64,
    ts_at: &dyn Fn(i64) -> Option<i64>,
) -> Vec<Bar> {
    let n = end - first;
    if n <= 0 || max_bars == 0 {
        return Vec::new();
    }
    let count = (max_bars as i64).min(n);
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count {
        let a = first + n * i / count;
        let b = first + n * (i + 1) / count;
        let width = b - a;
        let samples = width.min(SAMPLES);
        let mut max_ts: Option<i64> = None;
        let mut min_ts: Option<i64> = None;
        let mut seen = 0;
        for k in 0..samples {
            let off = a + width * k / samples;
            if let Some(ts) = ts_at(off) {
                seen += 1;
                max_ts = Some(max_ts.map_or(ts, |m| m.max(ts)));
                min_ts = Some(min_ts.map_or(ts, |m| m.min(ts)));
            }
        }
        let present = if samples == 0 {
            0
        } else {
            width * seen / samples
        };
        out.push(Bar {
            first: a,
            end: b,
            present,
            max_ts,
            min_ts,
            class: max_ts.map(|t| AgeClass::of(t, now, retention_ms)),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn splits_evenly_and_covers_everything() {
        let b = bars(0, 1000, 10, 0, -1, &|o| Some(o));
        assert_eq!(b.len(), 10);
        assert_eq!(b[0].first, 0);
        assert_eq!(b[9].end, 1000);
        for w in b.windows(2) {
            assert_eq!(w[0].end, w[1].first);
        }
        assert!(b.iter().all(|x| x.present == 100));
        assert_eq!(b[3].min_ts, Some(300));
        assert!(b[3].max_ts.unwrap() >= 393);
    }

    #[test]
    fn work_is_bounded_by_bars_not_records() {
        let reads = Cell::new(0u64);
        let f = |o: i64| {
            reads.set(reads.get() + 1);
            Some(o)
        };
        let b = bars(0, 1_000_000, 800, 0, -1, &f);
        assert_eq!(b.len(), 800);
        assert!(reads.get() <= 800 * SAMPLES as u64, "{} reads", reads.get());
    }

    #[test]
    fn fewer_records_than_bars() {
        let b = bars(5, 8, 100, 0, -1, &|o| Some(o));
        assert_eq!(b.len(), 3);
        assert_eq!((b[0].first, b[0].end), (5, 6));
    }

    #[test]
    fn missing_records_and_classes() {
        // offsets below 50 were deleted; a future stamp at 70
        let f = |o: i64| {
            if o < 50 {
                None
            } else if o == 70 {
                Some(10_000)
            } else {
                Some(0)
            }
        };
        let b = bars(0, 100, 10, 100, 1000, &f);
        assert_eq!(b[0].present, 0);
        assert_eq!(b[0].class, None);
        assert_eq!(b[5].present, 10);
        assert_eq!(b[7].class, Some(AgeClass::Future));
        assert_eq!(b[8].class, Some(AgeClass::Fresh));
    }
}
