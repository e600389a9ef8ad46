//! Model-based test: a naive reference (plain vectors of batches, brute-force lookups and
//! retention, index entries recounted from the batch list) against the real partition, over
//! random operation sequences.
//!
//! `cargo test -p logtime-core --release --test reference` runs 256 cases by default; set
//! `PROPTEST_CASES=10000` for the long run (see README).

use logtime_model::{
    Command, Config, ConfigValue, Error, KafkaVersion, OffsetSpec, Partition, Record, Timestamp,
};
use proptest::prelude::*;

#[path = "reference/naive.rs"]
mod naive;

use naive::Naive;

const T0: i64 = 1_700_000_000_000;

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

/// A record's stamp `d` after `now`, the special stamps (`NO_TIMESTAMP`, other negatives,
/// `i64::MIN`, one far ahead) as they are.
fn stamp(d: i64, now: i64) -> i64 {
    if d == -1 || d == -5 || d == i64::MIN || d == T0 * 999_999 {
        d
    } else {
        now.wrapping_add(d)
    }
}

/// [`Op::Run`]: `produce_run` of the batches against the reference's one-by-one appends, up to
/// the first rejection.
fn run_batches(
    p: &mut Partition,
    n: &mut Naive,
    now: &mut i64,
    items: &[(i64, i64)],
    key: bool,
    v: u32,
) {
    // The same batches one by one in the reference, up to the first rejection.
    let shape = Record::with_key(Timestamp(0), key.then_some(4), v);
    let batches: Vec<(Timestamp, Timestamp)> = items
        .iter()
        .map(|&(advance, d)| {
            *now += advance;
            (Timestamp(*now), Timestamp(stamp(d, *now)))
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

/// [`Op::Produce`]: one batch at `now`, accepted or refused with the same error on both sides.
fn produce(p: &mut Partition, n: &mut Naive, now: i64, rs: &[(i64, bool, u32)]) {
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
    for op in ops {
        match op {
            Op::Run(items, key, v) => run_batches(&mut p, &mut n, &mut now, &items, key, v),
            Op::Produce(rs) => produce(&mut p, &mut n, now, &rs),
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
                let mut probe = n.clone();
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
