//! The charts' maths: the timestamp chart's points (record stamps against offsets, sampled to a
//! bounded number, with every stamp in the future kept) and the axes' tick values.

use logtime_model::{Offset, Partition, Timestamp};

use super::stamps::StampCursor;

/// Points sampled across the log: between this many and twice as many (future outliers come
/// on top).
pub const POINTS: i64 = 1500;

/// `(offset, timestamp)` of records from the log start to the log end: every `n / POINTS`-th
/// record (integer division, so fewer than `2 × POINTS`), plus every record stamped after `now`
/// (they are what the chart is about). Records with no timestamp are left out.
///
/// The samples are read with a [`StampCursor`] (each search starts where the last ended), and
/// the segments are walked for stamps after `now` only when one may hold any
/// ([`Partition::max_timestamp_bound`]): with a million one-record segments, a search per
/// sample and a walk of them all were most of the chart's drawing.
pub fn timestamp_points(partition: &Partition, now: Timestamp) -> Vec<(Offset, Timestamp)> {
    let (lo, hi) = (partition.log_start_offset().0, partition.log_end_offset().0);
    let n = (hi - lo).max(0);
    let stride = (n / POINTS).max(1);
    let mut pts = Vec::with_capacity((n / stride + 1) as usize);
    let stamps = StampCursor::new(partition);
    let mut o = lo;
    while o < hi {
        if let Some(t) = stamps.timestamp_at(Offset(o)) {
            if t != Timestamp::NONE {
                pts.push((Offset(o), t));
            }
        }
        o += stride;
    }
    if partition.max_timestamp_bound() <= now {
        return pts;
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

/// What the timestamp chart says when [`timestamp_points`] has nothing to plot: the log is
/// empty, or every record in it has no timestamp (-1, as message format v0 writes).
pub fn nothing_to_plot(partition: &Partition) -> &'static str {
    if partition.log_start_offset() < partition.log_end_offset() {
        "No record in the log has a timestamp (all are -1)"
    } else {
        "No records in the log"
    }
}

/// Tick values for an axis from `from` to `to` with at most about `max` labels: multiples of a
/// round step (1, 2 or 5 times a power of ten) inside the range, in integer maths so that the
/// labels print exactly; and the step. An empty or reversed range has one tick, at `from`, with
/// a step of one.
pub fn ticks(from: i64, to: i64, max: usize) -> (Vec<i64>, i64) {
    match wanted_step(from, to, max) {
        Some(wanted) => {
            let step = decimal_step(wanted);
            (
                every(from, to, step),
                i64::try_from(step).unwrap_or(i64::MAX),
            )
        }
        None => (vec![from], 1),
    }
}

/// Round steps of a time axis, in milliseconds, up to two weeks: a clock's own divisions (15 s,
/// 30 min, 6 h, a week), not decimal ones, so that no label reads 00:00:50 or 00:01:40.
#[rustfmt::skip]
const TIME_STEPS: [i64; 30] = {
    const S: i64 = 1000;
    const M: i64 = 60 * S;
    const H: i64 = 60 * M;
    const D: i64 = 24 * H;
    [
        1, 2, 5, 10, 20, 50, 100, 200, 500, S, 2 * S, 5 * S, 10 * S, 15 * S, 30 * S, M, 2 * M,
        5 * M, 10 * M, 15 * M, 30 * M, H, 2 * H, 3 * H, 6 * H, 12 * H, D, 2 * D, 7 * D, 14 * D,
    ]
};

/// Tick values for a time axis (milliseconds since the epoch) with at most about `max` labels,
/// and the step between them (which says how precisely to print them): a step of
/// [`TIME_STEPS`], or beyond two weeks a round number of days (1, 2 or 5 times a power of ten),
/// at multiples of the step since the epoch, so that days start at midnight UTC. An empty or
/// reversed range has one tick, at `from`, with a step of one millisecond.
pub fn time_ticks(from: i64, to: i64, max: usize) -> (Vec<i64>, i64) {
    let Some(wanted) = wanted_step(from, to, max) else {
        return (vec![from], 1);
    };
    const DAY: i128 = 86_400_000;
    let step = TIME_STEPS
        .iter()
        .map(|&s| i128::from(s))
        .find(|&s| s >= wanted)
        .unwrap_or_else(|| decimal_step((wanted + DAY - 1) / DAY) * DAY);
    (
        every(from, to, step),
        i64::try_from(step).unwrap_or(i64::MAX),
    )
}

/// The smallest step that gives at most `max` intervals over the range, if it is not empty.
fn wanted_step(from: i64, to: i64, max: usize) -> Option<i128> {
    if to <= from || max == 0 {
        return None;
    }
    let span = i128::from(to) - i128::from(from);
    Some((span + max as i128 - 1) / max as i128)
}

/// The smallest of 1, 2, 5 or 10 times a power of ten that is at least `wanted` (at least 1).
fn decimal_step(wanted: i128) -> i128 {
    let mut power: i128 = 1;
    while power * 10 <= wanted {
        power *= 10;
    }
    [1, 2, 5, 10]
        .iter()
        .map(|m| m * power)
        .find(|s| *s >= wanted)
        .unwrap_or(10 * power)
}

/// The multiples of `step` (positive) from `from` to `to`.
fn every(from: i64, to: i64, step: i128) -> Vec<i64> {
    let mut v = i128::from(from).div_euclid(step) * step;
    if v < i128::from(from) {
        v += step;
    }
    let mut out = Vec::new();
    while v <= i128::from(to) {
        // In range of i64: from <= v <= to.
        out.push(v as i64);
        v += step;
    }
    out
}

/// Where `v` falls between `from` and `to`, as a share of the way (0 at `from`, 1 at `to`).
pub fn share(v: i64, from: i64, to: i64) -> f64 {
    let span = (i128::from(to) - i128::from(from)).max(1);
    (i128::from(v) - i128::from(from)) as f64 / span as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_inside_the_range() {
        let values = |from, to, max| ticks(from, to, max).0;
        assert_eq!(ticks(0, 100, 5), (vec![0, 20, 40, 60, 80, 100], 20));
        assert_eq!(values(3, 97, 6), vec![20, 40, 60, 80]);
        assert_eq!(values(-7, 7, 4), vec![-5, 0, 5]);
        assert_eq!(ticks(1000, 1000, 4), (vec![1000], 1));
        assert_eq!(values(0, 1, 6), vec![0, 1]);
        let (t, step) = ticks(1_773_000_000_000, 1_773_000_900_000, 5);
        assert!(t.len() >= 2 && t.len() <= 6, "{t:?}");
        assert_eq!(step, 200_000);
        assert!(t.windows(2).all(|w| w[1] - w[0] == step), "{t:?}");
        // The whole i64 range does not overflow.
        let t = values(i64::MIN, i64::MAX, 4);
        assert!(!t.is_empty() && t.len() <= 5, "{t:?}");
    }

    #[test]
    fn time_ticks_fall_on_the_clock_s_own_divisions() {
        const S: i64 = 1000;
        const H: i64 = 3_600_000;
        const D: i64 = 24 * H;
        let t0 = 1_773_306_000_000; // 12 Mar 2026 09:00:00 UTC
        let gaps = |(t, step): (Vec<i64>, i64)| {
            assert!(t.windows(2).all(|w| w[1] - w[0] == step), "{t:?} by {step}");
            step
        };
        // Two seconds either side of one stamp: whole seconds, not 500 ms.
        assert_eq!(
            time_ticks(t0 - 2500, t0 + 2500, 5),
            (vec![t0 - 2000, t0 - 1000, t0, t0 + 1000, t0 + 2000], S)
        );
        // 100 s: 30 s (a decimal step would be 50 s, printed 00:00:50, 00:01:40).
        assert_eq!(gaps(time_ticks(t0, t0 + 100 * S, 5)), 30 * S);
        assert_eq!(gaps(time_ticks(t0, t0 + 4 * 60 * S, 4)), 60 * S);
        assert_eq!(gaps(time_ticks(t0, t0 + 20 * H, 5)), 6 * H);
        assert_eq!(gaps(time_ticks(t0, t0 + 30 * D, 5)), 7 * D);
        // Beyond two weeks a step: round days, starting at midnight UTC.
        let (t, step) = time_ticks(t0, t0 + 400 * D, 5);
        assert_eq!(step, 100 * D);
        assert!(t.iter().all(|v| v % D == 0), "{t:?}");
        // Below a second, milliseconds.
        assert_eq!(gaps(time_ticks(t0, t0 + 3, 4)), 1);
        assert_eq!(gaps(time_ticks(t0, t0 + 900, 5)), 200);
        // Empty, reversed and the widest ranges.
        assert_eq!(time_ticks(t0, t0, 4), (vec![t0], 1));
        assert_eq!(time_ticks(t0, t0 - 1, 4), (vec![t0], 1));
        let (t, step) = time_ticks(i64::MIN, i64::MAX, 4);
        assert!(!t.is_empty() && t.len() <= 5 && step > 0, "{t:?}");
    }

    #[test]
    fn share_maps_the_range_to_zero_one() {
        assert_eq!(share(0, 0, 10), 0.0);
        assert_eq!(share(10, 0, 10), 1.0);
        assert_eq!(share(5, 0, 10), 0.5);
        assert_eq!(share(i64::MAX, i64::MIN, i64::MAX), 1.0);
        assert_eq!(share(3, 3, 3), 0.0);
    }
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

    /// An empty log, and a log whose every record has no timestamp, say different things.
    #[test]
    fn nothing_to_plot_says_why() {
        let json = r#"{"kafka": "3.6", "start": "2027-03-12T09:00:00Z", "steps": [
            {"produce": {"batches": 3, "records": [{"timestamp": -1}]}},
            {"delete_records": {"offset": 3}}]}"#;
        let mut r = Runner::new(parse(json).unwrap());
        assert_eq!(nothing_to_plot(r.partition()), "No records in the log");
        r.step(&mut |_| {});
        assert!(timestamp_points(r.partition(), r.now()).is_empty());
        assert_eq!(
            nothing_to_plot(r.partition()),
            "No record in the log has a timestamp (all are -1)"
        );
        r.step(&mut |_| {});
        assert_eq!(nothing_to_plot(r.partition()), "No records in the log");
    }

    /// The samples are what a search for each sampled record's segment finds, over one-record
    /// segments, a log start offset inside the log and stamps in the future.
    #[test]
    fn the_samples_are_what_a_search_finds() {
        let json = r#"{"kafka": "3.6", "start": "2027-03-12T09:00:00Z", "topic": {"segment.bytes": 300}, "steps": [
            {"produce": {"batches": 4000, "every": "1s", "records": [{"timestamp": "now"}]}},
            {"produce": {"batches": 3, "every": "1s", "records": [{"timestamp": "now+3y"}, {"timestamp": -1}]}},
            {"delete_records": {"offset": 1234}},
            {"produce": {"batches": 2000, "every": "1s", "records": [{"timestamp": "now-1h"}]}}]}"#;
        let mut r = Runner::new(parse(json).unwrap());
        while r.step(&mut |_| {}).is_some() {}
        let (p, now) = (r.partition(), r.now());
        assert!(p.segments().len() > 1000, "{} segments", p.segments().len());
        let (lo, hi) = (p.log_start_offset().0, p.log_end_offset().0);
        let stride = ((hi - lo) / POINTS).max(1);
        let mut want: Vec<(Offset, Timestamp)> = (lo..hi)
            .step_by(stride as usize)
            .filter_map(|o| Some((Offset(o), p.timestamp_at(Offset(o))?)))
            .filter(|(_, t)| *t != Timestamp::NONE)
            .collect();
        want.extend((lo..hi).filter_map(|o| {
            let t = p.timestamp_at(Offset(o))?;
            (t > now).then_some((Offset(o), t))
        }));
        assert_eq!(timestamp_points(p, now), want);
    }
}
