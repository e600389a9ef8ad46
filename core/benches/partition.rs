//! `cargo bench -p logtime-core`: throughput figures, one `name: value` per line.
//!
//! * `append_records_per_s`: 10,000,000 one-record batches, each validated (KIP-937), sized,
//!   roll-checked and indexed, through `Partition::produce_unchecked`.
//! * `memcpy_records_per_s`: the same records' fields copied into a `Vec` in the same run: the
//!   physical limit of touching each record once. `append_vs_memcpy` is their ratio.
//! * `lookup_per_s`: random offset-for-time lookups on that partition (time index, offset index,
//!   batch and record scan); `linear_lookup_per_s`: brute force over every record, the same
//!   answers; `lookup_speedup` is their ratio.
//! * `retention_pass_us`: one retention check over 100,000 segments that deletes them all (the
//!   worst case: every segment is walked, deleted and reported); `retention_plan_us`: planning a
//!   check over 100,000 segments that deletes nothing but gives each its verdict.
//!
//! Set `LOGTIME_BENCH_RECORDS` to use fewer records (e.g. for a quick run).

use logtime_core::{
    Command, Config, ConfigValue, KafkaVersion, OffsetSpec, Partition, Record, Timestamp,
};
use std::hint::black_box;
use std::time::Instant;

const T0: i64 = 1_700_000_000_000;

/// A tiny deterministic generator (xorshift) for lookup targets.
struct Xs(u64);
impl Xs {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn main() {
    let n: usize = std::env::var("LOGTIME_BENCH_RECORDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000);

    // Out-of-order CreateTime stamps, as producers with skewed clocks write them.
    let records: Vec<Record> = (0..n)
        .map(|i| Record::at(Timestamp(T0 + i as i64 - (i as i64 * 7919) % 50)))
        .collect();

    let mut p = Partition::new(
        Config::defaults(KafkaVersion::V4_0),
        "bench-0",
        Timestamp(T0),
        0,
    );
    let start = Instant::now();
    for (i, r) in records.iter().enumerate() {
        let now = Timestamp(T0 + i as i64);
        p.produce_unchecked(now, std::slice::from_ref(r))
            .expect("in range");
    }
    let append_s = start.elapsed().as_secs_f64();
    assert_eq!(p.log_end_offset().0, n as i64);

    let raw: Vec<(i64, u32, u32)> = records
        .iter()
        .map(|r| (r.timestamp.0, r.key_bytes, r.value_bytes))
        .collect();
    let start = Instant::now();
    let mut copy: Vec<(i64, u32, u32)> = Vec::with_capacity(raw.len());
    copy.extend_from_slice(black_box(&raw));
    black_box(&copy);
    let memcpy_s = start.elapsed().as_secs_f64().max(1e-9);

    let append = n as f64 / append_s;
    let memcpy = n as f64 / memcpy_s;
    println!("append_records_per_s: {append:.0}");
    println!("memcpy_records_per_s: {memcpy:.0}");
    println!("append_vs_memcpy: {:.3}", append / memcpy);
    if std::env::var_os("LOGTIME_BENCH_APPEND_ONLY").is_some() {
        return;
    }
    println!("segments: {}", p.segments().len());
    println!(
        "time_index_entries: {}",
        p.segments()
            .iter()
            .map(|s| s.time_index().len())
            .sum::<usize>()
    );

    let mut rng = Xs(0x9E37_79B9_7F4A_7C15);
    let lookups = 200_000;
    let targets: Vec<i64> = (0..lookups)
        .map(|_| T0 + (rng.next() % n as u64) as i64)
        .collect();
    let start = Instant::now();
    let mut sum = 0i64;
    for &t in &targets {
        sum = sum.wrapping_add(
            p.offset_for(OffsetSpec::Timestamp(Timestamp(t)))
                .unwrap()
                .0
                 .0,
        );
    }
    let fast = lookups as f64 / start.elapsed().as_secs_f64();
    black_box(sum);

    let linear_n = 200;
    let start = Instant::now();
    for &t in &targets[..linear_n] {
        let mut found = -1i64;
        'scan: for s in p.segments() {
            for (k, &ts) in s.record_timestamps().iter().enumerate() {
                if ts >= t {
                    found = s.base_offset().0 + k as i64;
                    break 'scan;
                }
            }
        }
        black_box(found);
    }
    let linear = linear_n as f64 / start.elapsed().as_secs_f64();
    // The two searches must agree (one segment here, so brute force over all records is the
    // broker's answer).
    for &t in &targets[..linear_n] {
        let brute = p
            .segments()
            .iter()
            .flat_map(|s| {
                s.record_timestamps()
                    .iter()
                    .enumerate()
                    .map(move |(k, &ts)| (s.base_offset().0 + k as i64, ts))
            })
            .find(|&(_, ts)| ts >= t)
            .map(|(o, _)| o);
        let fast = p
            .offset_for(OffsetSpec::Timestamp(Timestamp(t)))
            .unwrap()
            .0
             .0;
        if p.segments().len() == 1 {
            assert_eq!(Some(fast), brute, "lookup {t}");
        }
    }
    println!("lookup_per_s: {fast:.0}");
    println!("linear_lookup_per_s: {linear:.1}");
    println!("lookup_speedup: {:.0}", fast / linear);
    drop(p);

    // 100,000 one-batch segments.
    let segs = 100_000;
    let mut c = Config::defaults(KafkaVersion::V3_6);
    let size = logtime_core::batch_size(&[Record::at(Timestamp(T0))]).0;
    c.set("segment.bytes", &ConfigValue::Number(size)).unwrap();
    c.set(
        "log.retention.check.interval.ms",
        &ConfigValue::Number(i64::MAX / 4),
    )
    .unwrap();
    let mut p = Partition::new(c, "bench-0", Timestamp(T0), 0);
    for i in 0..segs {
        p.produce_unchecked(Timestamp(T0 + i), &[Record::at(Timestamp(T0 + i))])
            .unwrap();
    }
    assert_eq!(p.segments().len(), segs as usize);
    let start = Instant::now();
    let report = p.preview_retention(Timestamp(T0 + segs));
    let plan_us = start.elapsed().as_secs_f64() * 1e6;
    assert_eq!(report.verdicts.len(), segs as usize);
    assert!(report.deleted.is_empty());
    let at = Timestamp(T0 + segs + 604_800_001);
    let start = Instant::now();
    let events = p.apply(at, Command::RunRetention).unwrap();
    let pass_us = start.elapsed().as_secs_f64() * 1e6;
    assert_eq!(p.segments().len(), 1);
    black_box(events.len());
    println!("retention_pass_us: {pass_us:.0}");
    println!("retention_plan_us: {plan_us:.0}");
}
