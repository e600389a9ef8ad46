//! Runs of one-record batches of one shape ([`Partition::produce_run`]): generated traffic, the
//! benchmark's ten million appends.
//!
//! A batch of a run is [`Command::Produce`](crate::Command::Produce) of that batch, always.
//! What a run saves is the work that does not change from one batch to the next. The batch's
//! size is worked out once. Batches are pulled a block at a time; the active segment says how
//! many can follow before one could roll it by size or overflow its offsets
//! ([`Segment::stretch_room`](crate::segment::Segment::stretch_room)), the prefix of the block
//! that passes the checks that depend on the batch (the clock, the due retention check, a stamp
//! inside KIP-937's window that needs no diagnosis, the roll by time) is found, from the
//! block's bounds in one pass when they settle it for every batch, else by one tight loop up
//! to the first batch that fails, and that prefix is stored as slices, with its index entries where `index.interval.bytes`
//! puts them ([`Segment::append_stretch`](crate::segment::Segment::append_stretch)). The batch
//! after a prefix goes the one-batch way, which decides exactly what happens to it (a roll, a
//! retention check, a diagnosis, a rejection).

use crate::batch::Record;
use crate::error::Error;
use crate::fast::sink::Discard;
use crate::partition::{Partition, RunShape};
use crate::segment::TimeRoll;
use crate::units::Timestamp;
use std::ops::RangeInclusive;

/// How many batches a run pulls from its iterator ahead of appending them: checking a block
/// at once, then storing its admitted prefix as slices, is what makes a run fast.
const BLOCK: usize = 256;

impl Partition {
    /// Produces one-record batches shaped like `shape` (its key, value and headers; its
    /// timestamp is not read), the way generated traffic sends them: each item is a batch's
    /// `(broker time, record timestamp)`. Exactly [`Command::Produce`](crate::Command::Produce)
    /// of each batch in turn (due retention checks, KIP-937 validation, rolls, both indexes,
    /// the high watermark), but the common batch (nothing due, accepted without a diagnosis,
    /// no roll) is appended in stretches without being sized or validated again. The events
    /// are not built. Stops at the first error (a rejected batch, the clock going backwards):
    /// `Err` holds it with the `k` batches appended before it (the iterator may have been
    /// advanced past the failing batch: batches are pulled a block at a time); otherwise `Ok`
    /// with the number of batches.
    pub fn produce_run(
        &mut self,
        shape: &Record,
        batches: impl IntoIterator<Item = (Timestamp, Timestamp)>,
    ) -> Result<u64, Box<(u64, Error)>> {
        let run = self.run_shape(shape);
        let mut batches = batches.into_iter();
        let (mut nows, mut stamps) = ([Timestamp::NONE; BLOCK], [0i64; BLOCK]);
        let mut n = 0;
        loop {
            // The slots come first in the zip, so that no batch is pulled without one.
            let mut pulled = 0;
            for ((now, stamp), (at, ts)) in nows.iter_mut().zip(&mut stamps).zip(&mut batches) {
                (*now, *stamp) = (at, ts.0);
                pulled += 1;
            }
            if pulled == 0 {
                return Ok(n);
            }
            let mut i = 0;
            while i < pulled {
                let k = self.append_stretch(run, &nows[i..pulled], &stamps[i..pulled]);
                n += k as u64;
                i += k;
                if i < pulled {
                    self.produce_one(run, shape, nows[i], Timestamp(stamps[i]))
                        .map_err(|e| Box::new((n, e)))?;
                    n += 1;
                    i += 1;
                }
            }
        }
    }

    /// One batch of a run, on its own: the common path when it can take it, else the whole of
    /// [`Command::Produce`](crate::Command::Produce).
    fn produce_one(
        &mut self,
        run: RunShape,
        shape: &Record,
        now: Timestamp,
        ts: Timestamp,
    ) -> Result<(), Error> {
        if self.append_common(run, now, ts, &mut Discard) {
            return Ok(());
        }
        let record = Record {
            timestamp: ts,
            ..shape.clone()
        };
        self.produce_with(now, std::slice::from_ref(&record), &mut Discard)
    }

    /// Appends the longest prefix of the batches `(nows, stamps)` that
    /// [`Partition::append_common`] would take as they come and the active segment has room
    /// for (see the module's documentation). Returns how many.
    fn append_stretch(&mut self, run: RunShape, nows: &[Timestamp], stamps: &[i64]) -> usize {
        #[cfg(debug_assertions)]
        assert_eq!(self.limits, run.limits, "the config changed during a run");
        if !run.common {
            return 0;
        }
        let t = &self.config.topic;
        let (segment_bytes, segment_ms) = (t.segment_bytes, t.segment_ms);
        let (due, common) = (self.next_retention_check(), self.limits.common_ahead());
        let seg = self
            .segments
            .last_mut()
            .expect("a partition always has a segment");
        let room = seg.stretch_room(run.size, segment_bytes).min(nows.len());
        let time_roll = seg.time_roll(segment_ms);
        // `append_common`'s checks: the clock, the due check, the stamp (a stamp outside the
        // window that needs no diagnosis all the same, NO_TIMESTAMP say, goes the one-batch
        // way), and `should_roll`'s by time; for the whole stretch at once when its bounds
        // settle them, else batch by batch up to the first that fails.
        let (nows, stamps) = (&nows[..room], &stamps[..room]);
        let mut clock = self.clock;
        let admitted = if all_pass(nows, stamps, clock, due, &common, time_roll) {
            room
        } else {
            nows.iter()
                .zip(stamps)
                .take_while(|&(&now, &ts)| {
                    let ok = now >= clock
                        && now < due
                        && ts.checked_sub(now.0).is_some_and(|a| common.contains(&a))
                        && !time_roll.rolls(now, Timestamp(ts).max(Timestamp::NONE));
                    clock = now;
                    ok
                })
                .count()
        };
        let k = seg.append_stretch(run.size, &nows[..admitted], &stamps[..admitted]);
        if k > 0 {
            self.clock = nows[k - 1];
            // Each batch moved the high watermark to its end.
            self.high_watermark = seg.next_offset();
            self.size += k as i64 * run.size.0;
            self.records += k as u64;
            if let Some(e) = &mut self.expected {
                e.batches = e.batches.saturating_sub(k as u64);
                if e.batches == 0 {
                    self.expected = None;
                }
            }
        }
        k
    }
}

/// Whether every batch of `(nows, stamps)` surely passes `append_common`'s checks that depend
/// on the batch (the broker clock being `clock` before them): what a stretch of generated
/// traffic usually is, told from bounds of the whole stretch in one pass instead of batch by
/// batch. The broker times must not go down, the last before the due retention check; every
/// `ts - now` is between the smallest stamp minus the last broker time and the largest stamp
/// minus the first, which must both be inside the window; and the roll by record time is a
/// bound on the largest stamp. `false` when that does not settle it (the roll by the wall
/// clock, a stretch that reaches a bound): the batches are then checked one by one.
fn all_pass(
    nows: &[Timestamp],
    stamps: &[i64],
    clock: Timestamp,
    due: Timestamp,
    common: &RangeInclusive<i64>,
    time_roll: TimeRoll,
) -> bool {
    let (Some(&first), Some(&last)) = (nows.first(), nows.last()) else {
        return true;
    };
    let Some(limit) = time_roll.record_time_limit() else {
        return false;
    };
    // Four lanes of each bound, and no branch before the end: the compare-and-moves of the
    // lanes run side by side, and a stretch is checked at a fraction of a batch-by-batch loop.
    let (mut ordered, mut low, mut high) = (first >= clock, [i64::MAX; 4], [i64::MIN; 4]);
    let mut prev = first;
    let (now_chunks, stamp_chunks) = (nows.chunks_exact(4), stamps.chunks_exact(4));
    let tail = now_chunks.remainder().iter().zip(stamp_chunks.remainder());
    for (n, t) in now_chunks.zip(stamp_chunks) {
        ordered &= (prev <= n[0]) & (n[0] <= n[1]) & (n[1] <= n[2]) & (n[2] <= n[3]);
        prev = n[3];
        for ((low, high), &t) in low.iter_mut().zip(&mut high).zip(t) {
            (*low, *high) = ((*low).min(t), (*high).max(t));
        }
    }
    for (&n, &t) in tail {
        ordered &= prev <= n;
        prev = n;
        (low[0], high[0]) = (low[0].min(t), high[0].max(t));
    }
    let (low, high) = (
        low.into_iter().fold(i64::MAX, i64::min),
        high.into_iter().fold(i64::MIN, i64::max),
    );
    ordered
        && last < due
        && low
            .checked_sub(last.0)
            .is_some_and(|a| a >= *common.start())
        && high
            .checked_sub(first.0)
            .is_some_and(|a| a <= *common.end())
        && high.max(Timestamp::NONE.0) <= limit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, ConfigValue, KafkaVersion};
    use proptest::prelude::*;

    /// Everything a batch can change, compared whole (the segments with their stores, indexes
    /// and roll bookkeeping, the clock, the schedules, the expected batches).
    fn state(p: &Partition) -> String {
        format!(
            "{:?} {} {} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {}",
            p.segments,
            p.size,
            p.records,
            p.log_start_offset,
            p.high_watermark,
            p.clock,
            p.next_retention_check,
            p.next_cleaner_pass,
            p.expected.map(|e| e.batches),
            p.rng,
            p.rolled
        )
    }

    const START: i64 = 1_000_000;

    /// A 3.6 partition created at `start` with these `segment.bytes`, `index.interval.bytes`,
    /// `segment.ms`, `segment.jitter.ms` and `segment.index.bytes`.
    fn partition(
        start: i64,
        segment_bytes: i64,
        interval: i64,
        ms: i64,
        jitter: i64,
        index_bytes: i64,
    ) -> Partition {
        let mut c = Config::defaults(KafkaVersion::V3_6);
        for (name, v) in [
            ("segment.bytes", segment_bytes),
            ("index.interval.bytes", interval),
            ("segment.ms", ms),
            ("segment.index.bytes", index_bytes),
            ("segment.jitter.ms", jitter),
            ("retention.ms", 20_000),
            ("log.retention.check.interval.ms", 5_000),
        ] {
            c.set(name, &ConfigValue::Number(v)).expect("in range");
        }
        Partition::new(c, "t-0", Timestamp(start), 3)
    }

    /// The outcome and the state after `items` as one run and after the same batches one at a
    /// time, each way from `p`.
    fn both_ways(p: &Partition, shape: &Record, items: &[(Timestamp, Timestamp)]) -> [String; 2] {
        let mut a = p.clone();
        let stretched = a.produce_run(shape, items.iter().copied()).map_err(|e| *e);
        a.check_invariants();
        let mut b = p.clone();
        let run = b.run_shape(shape);
        let mut one_by_one = Ok(0);
        for &(now, ts) in items {
            let done = *one_by_one.as_ref().expect("stopped at the first error");
            if let Err(e) = b.produce_one(run, shape, now, ts) {
                one_by_one = Err((done, e));
                break;
            }
            one_by_one = Ok(done + 1);
        }
        [
            format!("{stretched:?} {}", state(&a)),
            format!("{one_by_one:?} {}", state(&b)),
        ]
    }

    /// Batches `0..n`, batch `i` at `START + i × every` stamped by `stamp(now)`.
    fn evenly(n: i64, every: i64, stamp: impl Fn(i64) -> i64) -> Vec<(Timestamp, Timestamp)> {
        (0..n)
            .map(|i| START + i * every)
            .map(|now| (Timestamp(now), Timestamp(stamp(now))))
            .collect()
    }

    /// The roll by record time falls on the batch that first waits more than `segment.ms`
    /// (no jitter here), inside a stretch.
    #[test]
    fn a_stretch_rolls_by_record_time_at_the_limit() {
        let p = partition(START, 1 << 20, 4096, 100, 0, 10_485_760);
        let [a, b] = both_ways(&p, &Record::at(Timestamp::NONE), &evenly(350, 1, |now| now));
        assert_eq!(a, b);
        assert!(a.contains("Time { waited_ms: 101, limit_ms: 100, by_record_time: true }"));
    }

    /// A segment whose first batch has no timestamp rolls by the wall clock, also when the
    /// batches after it have none either.
    #[test]
    fn a_stretch_rolls_by_the_wall_clock_without_stamps() {
        let p = partition(START, 1 << 20, 4096, 100, 0, 10_485_760);
        let [a, b] = both_ways(&p, &Record::at(Timestamp::NONE), &evenly(200, 7, |_| -1));
        assert_eq!(a, b);
        assert!(a.contains("by_record_time: false"));
    }

    /// A run is checked a block at a time from the block's bounds when they settle every
    /// batch: bounds exactly at a limit (KIP-937's windows, here inside the one that needs no
    /// diagnosis; the roll by record time; the due retention check) and one past it end
    /// exactly where single batches do.
    #[test]
    fn stretches_at_the_limits() {
        // KIP-937's windows inside the one that needs no diagnosis (`retention.ms` 20,000).
        let partition = |segment_ms: i64| {
            let mut c = Config::defaults(KafkaVersion::V3_6);
            for (name, v) in [
                ("segment.ms", segment_ms),
                ("retention.ms", 20_000),
                ("log.retention.check.interval.ms", 5_000),
                ("message.timestamp.before.max.ms", 15_000),
                ("message.timestamp.after.max.ms", 3_600_000),
            ] {
                c.set(name, &ConfigValue::Number(v)).expect("in range");
            }
            Partition::new(c, "t-0", Timestamp(START), 3)
        };
        // The first batch sets the roll basis (`START`), the others share one broker time, so
        // that the block's bounds are the stamps' own.
        let at = |stamp: i64| {
            let mut items = vec![(Timestamp(START), Timestamp(START))];
            items.extend((0..300).map(|_| (Timestamp(START + 1), Timestamp(stamp))));
            items
        };
        let week = 604_800_000;
        let mut cases = vec![
            (week, at(START + 1 - 15_000)),
            (week, at(START - 15_000)),
            (week, at(START + 1 + 3_600_000)),
            (week, at(START + 2 + 3_600_000)),
            // Only the roll by record time limits these.
            (1000, at(START + 1000)),
            (1000, at(START + 1001)),
        ];
        // Across the due retention check (every 5 s): broker times 20 ms apart, stamped at them.
        cases.push((week, evenly(600, 20, |now| now)));
        // The clock going back by 1 ms, at any place in a block.
        for i in 2..10 {
            let mut back = at(START + 1);
            back[i].0 = Timestamp(START);
            cases.push((week, back));
        }
        for (segment_ms, items) in cases {
            let [a, b] = both_ways(&partition(segment_ms), &Record::at(Timestamp::NONE), &items);
            assert_eq!(a, b, "{:?}", items[1]);
        }
    }

    proptest! {
        /// A run in stretches ends exactly where the same batches one at a time end, after
        /// every batch count, whatever stops a stretch (a roll by size or time, a full index,
        /// an index entry, a due retention check, a stamp outside the window or remarkable, the
        /// clock going backwards).
        #[test]
        fn stretches_change_what_single_batches_do(
            segment_bytes in prop::sample::select(vec![300i64, 5000, 20_000, 1 << 20]),
            interval in prop::sample::select(vec![0i64, 200, 1000, 4096]),
            segment_ms in prop::sample::select(vec![500i64, 60_000, 604_800_000]),
            index_bytes in prop::sample::select(vec![36i64, 10_485_760]),
            key in prop::sample::select(vec![None, Some(4u32)]),
            value in prop::sample::select(vec![0u32, 90]),
            expect in prop::sample::select(vec![0u64, 5, 1000]),
            near_zero in any::<bool>(),
            items in prop::collection::vec(
                (
                    prop_oneof![
                        40 => prop::sample::select(vec![0i64, 1, 7, 40]),
                        2 => Just(3000i64),
                        // The clock going backwards ends the run with an error.
                        1 => Just(-1i64),
                    ],
                    prop_oneof![
                        30 => -400i64..400,
                        // Equal stamps: the first batch to reach the max keeps it.
                        15 => Just(0i64),
                        1 => Just(-10_000_000i64),
                        1 => Just(5_000_000i64),
                        1 => Just(i64::MIN),
                    ],
                ),
                0..600,
            ),
        ) {
            // Near 0, stamps behind the clock are negative (their batches' max is -1).
            let start = if near_zero { 0 } else { START };
            let mut p =
                partition(start, segment_bytes, interval, segment_ms, segment_ms / 3, index_bytes);
            let shape = Record::with_key(Timestamp::NONE, key, value);
            p.expect_batches(expect, std::slice::from_ref(&shape));
            let mut now = start;
            let items: Vec<(Timestamp, Timestamp)> = items
                .iter()
                .map(|&(advance, d)| {
                    now += advance;
                    let ts = if d == i64::MIN { -1 } else { now + d };
                    (Timestamp(now), Timestamp(ts))
                })
                .collect();
            let [a, b] = both_ways(&p, &shape, &items);
            prop_assert_eq!(a, b);
        }
    }
}
