//! Model-based test: a naive reference (plain vectors of batches, brute-force lookups and
//! retention, index entries recounted from the batch list) against the real partition, over
//! random operation sequences.
//!
//! `cargo test -p logtime-core --release --test reference` runs 256 cases by default; set
//! `PROPTEST_CASES=10000` for the long run (see README).

use logtime_model::{
    validate, Command, Config, ConfigValue, Error, KafkaVersion, OffsetSpec, Partition, Record,
    SplitMix64, Timestamp,
};
use proptest::prelude::*;

const T0: i64 = 1_700_000_000_000;

#[derive(Clone, Debug)]
struct NBatch {
    base: i64,
    size: i64,
    max: i64,
    ts: Vec<i64>,
    now: i64,
}

#[derive(Clone, Debug)]
struct NSeg {
    base: i64,
    batches: Vec<NBatch>,
    created: i64,
    jitter: i64,
    index_bytes: i64,
    /// `index.interval.bytes` when the segment was created (Kafka keeps it per segment).
    interval: i64,
    /// The final time-index entry written when the segment became inactive.
    final_entry: bool,
}

impl NSeg {
    fn size(&self) -> i64 {
        self.batches.iter().map(|b| b.size).sum()
    }
    fn next(&self) -> i64 {
        self.batches
            .last()
            .map_or(self.base, |b| b.base + b.ts.len() as i64)
    }
    fn max(&self) -> i64 {
        self.batches.iter().map(|b| b.max).fold(-1, i64::max)
    }
    fn largest(&self) -> i64 {
        let m = self.max();
        if m >= 0 {
            m
        } else {
            self.batches.last().map_or(self.created, |b| b.now)
        }
    }
    /// Index entries recounted from scratch: (offset entries, time entries).
    fn index_counts(&self) -> (usize, usize) {
        let (mut since, mut off, mut time) = (0i64, 0usize, 0usize);
        let (mut running, mut last_ts) = (-1i64, -1i64);
        for b in &self.batches {
            running = running.max(b.max);
            if since > self.interval {
                off += 1;
                if running > last_ts {
                    time += 1;
                    last_ts = running;
                }
                since = 0;
            }
            since += b.size;
        }
        if self.final_entry && self.max() > last_ts {
            time += 1;
        }
        (off, time)
    }
}

struct Naive {
    cfg: Config,
    segs: Vec<NSeg>,
    lso: i64,
    hw: i64,
    clock: i64,
    next_check: i64,
    /// The log cleaner's next pass (it runs retention on compacted topics).
    next_clean: i64,
    rng: SplitMix64,
}

impl Naive {
    fn new(cfg: Config, seed: u64) -> Naive {
        let mut n = Naive {
            next_check: T0 + cfg.broker.log_retention_check_interval_ms,
            next_clean: T0 + cfg.broker.log_cleaner_backoff_ms.max(1),
            cfg,
            segs: vec![],
            lso: 0,
            hw: 0,
            clock: T0,
            rng: SplitMix64::new(seed),
        };
        let s = n.new_seg(0, T0);
        n.segs.push(s);
        n
    }
    fn new_seg(&mut self, base: i64, now: i64) -> NSeg {
        let t = &self.cfg.topic;
        let jitter = if t.segment_jitter_ms == 0 {
            0
        } else {
            let r = self.rng.next_i32();
            (if r == i32::MIN { 0 } else { r.abs() as i64 }) % t.segment_jitter_ms.min(t.segment_ms)
        };
        NSeg {
            base,
            batches: vec![],
            created: now,
            jitter,
            index_bytes: t.segment_index_bytes,
            interval: t.index_interval_bytes,
            final_entry: false,
        }
    }
    fn leo(&self) -> i64 {
        self.segs.last().unwrap().next()
    }
    fn roll(&mut self, now: i64) {
        let leo = self.leo();
        let s = self.new_seg(leo, now);
        let last = self.segs.last_mut().unwrap();
        last.final_entry = true;
        if last.batches.is_empty() {
            *last = s;
        } else {
            self.segs.push(s);
        }
    }
    /// Every instant of both schedules, in time order: the retention task's run retention on
    /// topics without `compact`, the cleaner's on topics with it.
    fn due(&mut self, now: i64) {
        loop {
            let compact = self.cfg.topic.cleanup_policy.compact;
            // The idle schedule's instants do nothing: skip them in one step.
            let (idle, period) = if compact {
                (
                    &mut self.next_check,
                    self.cfg.broker.log_retention_check_interval_ms,
                )
            } else {
                (
                    &mut self.next_clean,
                    self.cfg.broker.log_cleaner_backoff_ms.max(1),
                )
            };
            if *idle <= now {
                *idle += ((now - *idle) / period + 1) * period;
            }
            if self.next_check.min(self.next_clean) > now {
                break;
            }
            if self.next_check <= self.next_clean {
                let at = self.next_check;
                if !compact {
                    self.retention(at);
                }
                self.next_check += self.cfg.broker.log_retention_check_interval_ms;
            } else {
                let at = self.next_clean;
                if compact {
                    self.retention(at);
                }
                self.next_clean += self.cfg.broker.log_cleaner_backoff_ms.max(1);
            }
        }
    }
    /// Deletes the leading segments a walk accepts; returns how many.
    fn delete_walk(
        &mut self,
        now: i64,
        mut pred: impl FnMut(&NSeg, Option<&NSeg>) -> bool,
    ) -> usize {
        let mut n = 0;
        while n < self.segs.len() {
            let seg = &self.segs[n];
            let next = self.segs.get(n + 1);
            let upper = next.map_or(self.leo(), |s| s.base);
            let ok =
                self.hw >= upper && pred(seg, next) && !(next.is_none() && seg.batches.is_empty());
            if !ok {
                break;
            }
            n += 1;
        }
        if n > 0 {
            if n == self.segs.len() {
                self.roll(now);
            }
            self.segs.drain(..n);
            self.lso = self.lso.max(self.segs[0].base);
        }
        n
    }
    fn retention(&mut self, now: i64) -> usize {
        let t = self.cfg.topic.clone();
        let lso = self.lso;
        let mut n = self.delete_walk(now, |_, next| next.is_some_and(|s| s.base <= lso));
        if !t.cleanup_policy.delete {
            return n;
        }
        let total: i64 = self.segs.iter().map(NSeg::size).sum();
        if t.retention_bytes >= 0 && total >= t.retention_bytes {
            let mut diff = total - t.retention_bytes;
            n += self.delete_walk(now, |s, _| {
                let ok = diff - s.size() >= 0;
                if ok {
                    diff -= s.size();
                }
                ok
            });
        }
        if t.retention_ms >= 0 {
            n += self.delete_walk(now, |s, _| now.wrapping_sub(s.largest()) > t.retention_ms);
        }
        n
    }
    fn produce(&mut self, now: i64, records: &[Record]) -> Result<(), i16> {
        let v = validate(&self.cfg, "t-0", Timestamp(now), records).map_err(|e| e.error.code())?;
        self.due(now);
        if records.is_empty() {
            return Ok(());
        }
        let t = self.cfg.topic.clone();
        let base = self.leo();
        let last = base + records.len() as i64 - 1;
        let seg = self.segs.last().unwrap();
        let size = seg.size();
        let waited = match seg.batches.first() {
            Some(b) if b.max >= 0 => v.max_timestamp.0.wrapping_sub(b.max),
            _ => now.wrapping_sub(seg.created),
        };
        let (off_entries, time_entries) = seg.index_counts();
        let roll = size > t.segment_bytes - v.size.0
            || (size > 0 && waited > t.segment_ms - seg.jitter)
            || off_entries >= (seg.index_bytes / 8) as usize
            || time_entries + 1 >= (seg.index_bytes / 12) as usize
            || !(0..=i32::MAX as i64).contains(&(last - seg.base));
        if roll {
            self.roll(now);
        }
        let ts = match v.log_append_time {
            Some(t) => vec![t.0; records.len()],
            None => records.iter().map(|r| r.timestamp.0).collect(),
        };
        let b = NBatch {
            base,
            size: v.size.0,
            max: v.max_timestamp.0,
            ts,
            now,
        };
        self.segs.last_mut().unwrap().batches.push(b);
        self.hw = last + 1;
        Ok(())
    }
    /// Brute force: the first record, in the first segment whose largest timestamp >= t.
    fn find(&self, t: i64) -> (i64, i64) {
        let Some(seg) = self.segs.iter().find(|s| s.largest() >= t) else {
            return (-1, -1);
        };
        for b in &seg.batches {
            for (i, &ts) in b.ts.iter().enumerate() {
                let o = b.base + i as i64;
                if ts >= t && o >= self.lso {
                    return if o >= self.hw { (-1, -1) } else { (o, ts) };
                }
            }
        }
        (-1, -1)
    }
    fn max_timestamp(&self) -> (i64, i64) {
        let mut best: Option<&NSeg> = None;
        for s in &self.segs {
            if best.is_none_or(|b| s.max() > b.max()) {
                best = Some(s);
            }
        }
        let seg = best.unwrap();
        let m = seg.max();
        let Some(b) = seg.batches.iter().find(|b| b.max == m) else {
            return (-1, -1);
        };
        match b.ts.iter().position(|&t| t == m) {
            Some(i) if b.base + (i as i64) < self.hw => (b.base + i as i64, m),
            _ => (-1, -1),
        }
    }
}

#[derive(Clone, Debug)]
enum Op {
    Produce(Vec<(i64, bool, u32)>),
    /// `Partition::produce_run` of one-record batches: each `(advance, ts delta)`, one shape.
    Run(Vec<(i64, i64)>, bool, u32),
    Advance(i64),
    Retention,
    DeleteRecords(i64),
    Set(&'static str, ConfigValue),
    HighWatermark(i64),
}

fn ts_delta() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => -5_000i64..5_000,
        3 => prop::sample::select(vec![0i64, -1000, 1000, -60_000]),
        1 => Just(i64::MIN),
        1 => Just(-1i64),
        1 => Just(-5i64),
        1 => (1i64..4).prop_map(|y| y * 365 * 86_400_000),
        1 => (1i64..40).prop_map(|d| -d * 86_400_000),
        1 => Just(T0 * 999_999),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let set = prop_oneof![
        (prop::sample::select(vec![-1i64, 1000, 60_000, 604_800_000]))
            .prop_map(|v| Op::Set("retention.ms", ConfigValue::Number(v))),
        (prop::sample::select(vec![-1i64, 0, 500, 3000]))
            .prop_map(|v| Op::Set("retention.bytes", ConfigValue::Number(v))),
        (prop::sample::select(vec![300i64, 1000, 5000, 1 << 30]))
            .prop_map(|v| Op::Set("segment.bytes", ConfigValue::Number(v))),
        (prop::sample::select(vec![1000i64, 60_000, 604_800_000]))
            .prop_map(|v| Op::Set("segment.ms", ConfigValue::Number(v))),
        (prop::sample::select(vec![0i64, 700]))
            .prop_map(|v| Op::Set("segment.jitter.ms", ConfigValue::Number(v))),
        (prop::sample::select(vec![0i64, 1, 200, 4096]))
            .prop_map(|v| Op::Set("index.interval.bytes", ConfigValue::Number(v))),
        (prop::sample::select(vec![12i64, 36, 100, 10_485_760]))
            .prop_map(|v| Op::Set("segment.index.bytes", ConfigValue::Number(v))),
        (prop::sample::select(vec!["CreateTime", "LogAppendTime"]))
            .prop_map(|v| Op::Set("message.timestamp.type", ConfigValue::Text(v.into()))),
        (prop::sample::select(vec![0i64, 3_600_000, i64::MAX]))
            .prop_map(|v| Op::Set("message.timestamp.after.max.ms", ConfigValue::Number(v))),
        (prop::sample::select(vec![1000i64, 86_400_000, i64::MAX]))
            .prop_map(|v| Op::Set("message.timestamp.before.max.ms", ConfigValue::Number(v))),
        (prop::sample::select(vec!["delete", "compact", "compact,delete"]))
            .prop_map(|v| Op::Set("cleanup.policy", ConfigValue::Text(v.into()))),
        (prop::sample::select(vec![1000i64, 300_000]))
            .prop_map(|v| Op::Set("log.retention.check.interval.ms", ConfigValue::Number(v))),
        (prop::sample::select(vec![5000i64, 15_000]))
            .prop_map(|v| Op::Set("log.cleaner.backoff.ms", ConfigValue::Number(v))),
    ];
    prop_oneof![
        8 => prop::collection::vec((ts_delta(), any::<bool>(), 0u32..300), 0..4).prop_map(Op::Produce),
        3 => (
            prop::collection::vec(
                (prop::sample::select(vec![0i64, 1, 7, 1000, 100_000]), ts_delta()),
                0..40,
            ),
            any::<bool>(),
            0u32..300,
        )
            .prop_map(|(b, key, v)| Op::Run(b, key, v)),
        3 => prop_oneof![
            0i64..2000,
            0i64..400_000,
            prop::sample::select(vec![1000i64, 1001, 60_000, 60_001, 300_000, 8 * 86_400_000]),
        ].prop_map(Op::Advance),
        1 => Just(Op::Retention),
        1 => (-2i64..40).prop_map(Op::DeleteRecords),
        2 => set,
        1 => (0i64..40).prop_map(Op::HighWatermark),
    ]
}

fn check(p: &Partition, n: &Naive) {
    p.check_invariants();
    assert_eq!(p.log_start_offset().0, n.lso, "log start offset");
    assert_eq!(p.high_watermark().0, n.hw, "high watermark");
    assert_eq!(p.log_end_offset().0, n.leo(), "log end offset");
    let real: Vec<_> = p
        .segments()
        .iter()
        .map(|s| {
            (
                s.base_offset().0,
                s.size().0,
                s.record_count(),
                s.largest_timestamp().0,
            )
        })
        .collect();
    let naive: Vec<_> = n
        .segs
        .iter()
        .map(|s| {
            (
                s.base,
                s.size(),
                s.next() as u64 - s.base as u64,
                s.largest(),
            )
        })
        .collect();
    assert_eq!(real, naive, "segments (base, size, records, largest)");
    for (s, ns) in p.segments().iter().zip(&n.segs) {
        assert_eq!(
            (s.offset_index().len(), s.time_index().len()),
            ns.index_counts(),
            "index entries of segment {}",
            ns.base
        );
    }
    let mut targets: Vec<i64> = n
        .segs
        .iter()
        .flat_map(|s| s.batches.iter().flat_map(|b| b.ts.iter().copied()))
        .take(60)
        .collect();
    targets.extend([0, T0, T0 + 1, i64::MAX, n.clock, -7, i64::MIN]);
    for t in targets {
        for t in [t.saturating_sub(1), t, t.saturating_add(1)] {
            if t < 0 {
                // The naive model leaves negative targets out (special values, or refused in
                // 4.x); 3.6-3.9 search them as times, and both of the real searches must agree.
                let spec = OffsetSpec::from_wire(t);
                if let Ok(traced) = p.lookup(spec) {
                    let fast = p.offset_for(spec).unwrap();
                    assert_eq!(
                        (traced.offset, traced.timestamp),
                        fast,
                        "negative lookup {t}"
                    );
                }
                continue;
            }
            let (o, ts) = p.offset_for(OffsetSpec::Timestamp(Timestamp(t))).unwrap();
            assert_eq!((o.0, ts.0), n.find(t), "lookup {t}");
            let traced = p.lookup(OffsetSpec::Timestamp(Timestamp(t))).unwrap();
            assert_eq!(
                (traced.offset, traced.timestamp),
                (o, ts),
                "traced lookup {t}"
            );
        }
    }
    let (o, ts) = p.offset_for(OffsetSpec::MaxTimestamp).unwrap();
    assert_eq!((o.0, ts.0), n.max_timestamp(), "max-timestamp");
    assert_eq!(p.offset_for(OffsetSpec::Earliest).unwrap().0 .0, n.lso);
    assert_eq!(p.offset_for(OffsetSpec::Latest).unwrap().0 .0, n.hw);
}

fn run(version: KafkaVersion, seed: u64, ops: Vec<Op>) {
    let mut cfg = Config::defaults(version);
    cfg.set(
        "segment.bytes",
        &ConfigValue::Number(if version == KafkaVersion::V3_6 {
            1000
        } else {
            1 << 20
        }),
    )
    .unwrap();
    cfg.set("index.interval.bytes", &ConfigValue::Number(200))
        .unwrap();
    cfg.set("retention.ms", &ConfigValue::Number(60_000))
        .unwrap();
    let mut p = Partition::new(cfg.clone(), "t-0", Timestamp(T0), seed);
    let mut n = Naive::new(cfg, seed);
    let mut now = T0;
    let stamp = |d: i64, now: i64| {
        if d == -1 || d == -5 || d == i64::MIN || d == T0 * 999_999 {
            d
        } else {
            now.wrapping_add(d)
        }
    };
    for op in ops {
        match op {
            Op::Run(items, key, v) => {
                // The same batches one by one in the reference, up to the first rejection.
                let shape = Record::with_key(Timestamp(0), key.then_some(4), v);
                let batches: Vec<(Timestamp, Timestamp)> = items
                    .iter()
                    .map(|&(advance, d)| {
                        now += advance;
                        (Timestamp(now), Timestamp(stamp(d, now)))
                    })
                    .collect();
                let real = p
                    .produce_run(&shape, batches.iter().copied())
                    .map_err(|e| *e);
                let mut done = 0u64;
                let mut rejected = None;
                for &(at, ts) in &batches {
                    let record = Record {
                        timestamp: ts,
                        ..shape.clone()
                    };
                    match n.produce(at.0, std::slice::from_ref(&record)) {
                        Ok(()) => {
                            n.clock = at.0;
                            done += 1;
                        }
                        Err(code) => {
                            rejected = Some(code);
                            break;
                        }
                    }
                }
                match (real, rejected) {
                    (Ok(k), None) => assert_eq!(k, done),
                    (Err((k, Error::Produce(e))), Some(code)) => {
                        assert_eq!(k, done);
                        assert_eq!(e.error.code(), code);
                    }
                    (real, naive) => panic!("produce_run disagrees: {real:?} vs {naive:?}"),
                }
            }
            Op::Produce(rs) => {
                let records: Vec<Record> = rs
                    .iter()
                    .map(|&(d, key, v)| {
                        let ts = stamp(d, now);
                        // A key of 4 bytes, or else an empty key or a null one: a compacted
                        // topic accepts the first two.
                        let key = match (key, v % 2) {
                            (true, _) => Some(4),
                            (false, 0) => Some(0),
                            (false, _) => None,
                        };
                        Record::with_key(Timestamp(ts), key, v)
                    })
                    .collect();
                let real = p.apply(
                    Timestamp(now),
                    Command::Produce {
                        records: records.clone(),
                    },
                );
                let naive = n.produce(now, &records);
                match (&real, &naive) {
                    (Ok(_), Ok(())) => {}
                    (Err(Error::Produce(e)), Err(code)) => assert_eq!(e.error.code(), *code),
                    _ => panic!("produce disagrees: {real:?} vs {naive:?}"),
                }
            }
            Op::Advance(d) => {
                now += d;
                p.apply(Timestamp(now), Command::Tick).unwrap();
                n.due(now);
            }
            Op::Retention => {
                p.apply(Timestamp(now), Command::RunRetention).unwrap();
                n.due(now);
                n.retention(now);
            }
            Op::DeleteRecords(o) => {
                let real = p.apply(Timestamp(now), Command::DeleteRecords { offset: o });
                let target = if o == -1 { n.hw } else { o };
                let ok = n.cfg.topic.cleanup_policy.delete && target >= 0 && target <= n.hw;
                assert_eq!(real.is_ok(), ok, "delete records {o}: {real:?}");
                if ok {
                    n.due(now);
                    n.lso = n.lso.max(target);
                }
            }
            Op::Set(name, v) => {
                let real = p.apply(
                    Timestamp(now),
                    Command::SetConfig {
                        name: name.into(),
                        value: v.clone(),
                    },
                );
                let mut c = n.cfg.clone();
                let naive = c.set(name, &v);
                assert_eq!(real.is_ok(), naive.is_ok());
                if naive.is_ok() {
                    n.due(now);
                    n.cfg = c;
                }
            }
            Op::HighWatermark(h) => {
                let mut probe = Naive {
                    cfg: n.cfg.clone(),
                    segs: n.segs.clone(),
                    lso: n.lso,
                    hw: n.hw,
                    clock: n.clock,
                    next_check: n.next_check,
                    next_clean: n.next_clean,
                    rng: n.rng.clone(),
                };
                probe.due(now);
                let ok = h >= probe.lso && h <= n.leo();
                let real = p.apply(
                    Timestamp(now),
                    Command::SetHighWatermark {
                        offset: logtime_model::Offset(h),
                    },
                );
                assert_eq!(real.is_ok(), ok, "high watermark {h}: {real:?}");
                if ok {
                    n.due(now);
                    n.hw = h;
                }
            }
        }
        n.clock = now;
        check(&p, &n);
    }
}

proptest! {
    // 256 cases by default; PROPTEST_CASES overrides (an explicit `cases` here would not let it).
    #![proptest_config(ProptestConfig::default())]

    #[test]
    fn model_matches_reference_3_6(seed in any::<u64>(), ops in prop::collection::vec(op(), 1..60)) {
        run(KafkaVersion::V3_6, seed, ops);
    }

    #[test]
    fn model_matches_reference_4_0(seed in any::<u64>(), ops in prop::collection::vec(op(), 1..60)) {
        run(KafkaVersion::V4_0, seed, ops);
    }
}
