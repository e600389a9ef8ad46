//! The timestamp chart's points: record stamps against offsets, sampled to a bounded number,
//! with every stamp in the future kept.

use logtime_core::{Offset, Partition, Timestamp};

/// Points sampled across the log: between this many and twice as many (future outliers come
/// on top).
pub const POINTS: i64 = 1500;

/// `(offset, timestamp)` of records from the log start to the log end: every `n / POINTS`-th
/// record (integer division, so fewer than `2 × POINTS`), plus every record stamped after `now`
/// (they are what the chart is about). Records with no timestamp are left out.
pub fn timestamp_points(partition: &Partition, now: Timestamp) -> Vec<(Offset, Timestamp)> {
    let (lo, hi) = (partition.log_start_offset().0, partition.log_end_offset().0);
    let n = (hi - lo).max(0);
    let stride = (n / POINTS).max(1);
    let mut pts = Vec::with_capacity((n / stride + 1) as usize);
    let mut o = lo;
    while o < hi {
        if let Some(t) = partition.timestamp_at(Offset(o)) {
            if t != Timestamp::NONE {
                pts.push((Offset(o), t));
            }
        }
        o += stride;
    }
    for s in partition
        .segments()
        .iter()
        .filter(|s| s.max_timestamp_so_far() > now)
    {
        let base = s.base_offset();
        for (i, &t) in s.record_timestamps().iter().enumerate() {
            let o = base.plus(i as i64);
            if t > now.0 && o.0 >= lo {
                pts.push((o, Timestamp(t)));
            }
        }
    }
    pts
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_core::scenario::{parse, Runner};

    #[test]
    fn samples_are_bounded_and_keep_future_stamps() {
        let json = r#"{"kafka": "3.6", "start": "2027-03-12T09:00:00Z", "steps": [
            {"produce": {"batches": 5000, "every": "1s", "records": [{"timestamp": "now"}]}},
            {"produce": {"records": [{"timestamp": "now+3y"}]}}]}"#;
        let mut r = Runner::new(parse(json).unwrap());
        while r.step(&mut |_| {}).is_some() {}
        let now = r.now();
        let pts = timestamp_points(r.partition(), now);
        assert!(pts.len() < 2 * POINTS as usize + 2, "{}", pts.len());
        assert_eq!(pts[0], (Offset(0), Timestamp(now.0 - 4999 * 1000)));
        assert!(pts.iter().any(|(o, t)| *o == Offset(5000) && *t > now));
        assert!(pts.iter().all(|(o, _)| o.0 < 5001));
    }
}
