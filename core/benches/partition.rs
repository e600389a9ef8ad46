//! `cargo bench -p logtime-core`: throughput and memory figures, one `name: value` per line.
//!
//! * `append_records_per_s`: 10,000,000 one-record batches, each checked against the retention
//!   schedule, validated (KIP-937), roll-checked and indexed, through `Partition::produce_run`
//!   (the path of a scenario's generated traffic: the batch's size is worked out once for the
//!   run), announced first with `Partition::expect_batches` as generated traffic is.
//! * `bytes_per_record`: the heap the model holds for them (`Partition::heap_bytes`: batches,
//!   timestamps, indexes, the segment list, room reserved for growth included) per record.
//! * `memcpy_records_per_s`: copying `bytes_per_record` bytes per record (rounded up) from one
//!   buffer into another that is already touched: the memory bandwidth of writing what the
//!   model stores, without the page faults of fresh memory. The appends run in ten chunks, each
//!   followed by copies of a chunk's worth repeated for as long as the chunk's appends took
//!   (the mean copy time counts), and `append_vs_memcpy` is the median of the ten ratios, so
//!   that both sides see the same machine load and are as likely to be preempted. The buffers
//!   hold every record's bytes, as the model does, and each copy takes the next chunk's window
//!   of them, so that the copies stream through memory as the model's appends do.
//!   `memcpy_cached_records_per_s` and `append_vs_memcpy_cached` copy one window again and
//!   again instead, which can stay in the processor's cache (a tenth of 10M records' bytes is
//!   14 MB, less than many server processors' last-level cache).
//! * `lookup_per_s` and `linear_lookup_per_s`: offset-for-time lookups at random targets, a
//!   tenth of them past the newest record (misses, answered `-1`), through the indexes (time
//!   index, offset index, batch and record scan) and by brute force over every record.
//!   `lookup_speedup` is the median of seven pairs of timings taken one after the other
//!   (indexed, then brute force, on the same targets), so both sides see the same machine load;
//!   `lookup_speedup_min`/`_max` are the spread. Both searches must give the same answer for
//!   every brute-forced target (checked, whatever the number of segments).
//! * `retention_pass_us`: one retention check over 100,000 segments that deletes them all (the
//!   worst case: every segment is walked, deleted and reported); `retention_plan_us`: planning a
//!   check over 100,000 segments that deletes nothing but gives every segment its verdict.
//!
//! Set `LOGTIME_BENCH_RECORDS` to use fewer records (e.g. for a quick run).

use logtime_model::{
    Command, Config, ConfigValue, KafkaVersion, Offset, OffsetSpec, Partition, Record, Timestamp,
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

/// The answer a consumer must get, by brute force: the first offset at or above the log start
/// offset whose timestamp is at or after `t`, if it is below the high watermark. (With these
/// one-record batches this is exactly Kafka's search: every earlier segment's largest timestamp
/// is below `t`, and no record before the time index's entry reaches it.)
fn brute_force(p: &Partition, t: i64) -> i64 {
    let lso = p.log_start_offset().0;
    for s in p.segments() {
        let base = s.base_offset().0;
        for (k, &ts) in s.record_timestamps().iter().enumerate() {
            let o = base + k as i64;
            if ts >= t && o >= lso {
                return if o < p.high_watermark().0 { o } else { -1 };
            }
        }
    }
    -1
}

fn indexed(p: &Partition, t: i64) -> i64 {
    p.offset_for(OffsetSpec::Timestamp(Timestamp(t)))
        .unwrap()
        .0
         .0
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// A partition of `n` one-record batches appended in ten timed chunks (`chunk` gets each
/// chunk's seconds), and its model bytes per record.
fn appended(n: usize, chunk: &mut dyn FnMut(f64)) -> (Partition, f64) {
    let mut p = Partition::new(
        Config::defaults(KafkaVersion::V4_0),
        "bench-0",
        Timestamp(T0),
        0,
    );
    // What generated traffic tells the partition: it reserves room instead of doubling.
    p.expect_batches(n as u64, &[Record::at(Timestamp(T0))]);
    let shape = Record::at(Timestamp(T0));
    for c in 0..10 {
        let (from, to) = ((n * c / 10) as i64, (n * (c + 1) / 10) as i64);
        let start = Instant::now();
        // Batch `i` is sent at `T0 + i` with an out-of-order CreateTime stamp, as producers with
        // skewed clocks write them, made as it is sent (not read from a long list).
        let sent = p
            .produce_run(
                &shape,
                (from..to).map(|i| (Timestamp(T0 + i), Timestamp(T0 + i - (i * 7919) % 50))),
            )
            .expect("in range");
        chunk(start.elapsed().as_secs_f64());
        assert_eq!(sent, (to - from) as u64);
    }
    assert_eq!(p.log_end_offset().0, n as i64);
    p.check_invariants();
    let bytes = p.heap_bytes() as f64 / n as f64;
    (p, bytes)
}

fn main() {
    let n: usize = std::env::var("LOGTIME_BENCH_RECORDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000);

    // What the model stores per record, from the same run untimed, so that the warm copies
    // below can be timed between the chunks of the real run.
    let width = appended(n, &mut |_| {}).1.ceil() as usize;
    // Appends in ten chunks, each followed by warm copies of what the model stores for that
    // many records (both buffers touched before) for as long: both sides of each ratio then see
    // the same machine load (other builds on two cores). `append_vs_memcpy` is the median.
    // The buffers hold every record's bytes, as the model does, and each copy takes the next
    // chunk's window of them, so that the copies stream through memory as the appends do; one
    // window copied again and again can stay in the processor's cache (a chunk is 14 MB),
    // which `append_vs_memcpy_cached` compares with.
    let chunks = 10;
    let window = n / chunks * width;
    let src: Vec<u8> = (0..chunks * window).map(|i| i as u8).collect();
    let mut dst = vec![1u8; chunks * window];
    let (mut append_s, mut memcpy_s, mut cached_s) = (0.0, 0.0, 0.0);
    let (mut ratios, mut cached_ratios) = (Vec::new(), Vec::new());
    let mut turn = 0;
    let (p, bytes_per_record) = appended(n, &mut |t| {
        // Copies for as long as the chunk's appends took (twice at least), so that both sides
        // are as exposed to the other processes' time slices: a lone copy of a few
        // milliseconds often runs uninterrupted where a chunk of appends does not.
        let mut copies_for = |t: f64, rotate: bool| {
            let start = Instant::now();
            let mut copies = 0u32;
            while copies < 2 || start.elapsed().as_secs_f64() < t {
                if rotate {
                    turn = (turn + 1) % chunks;
                }
                let w = if rotate { turn * window } else { 0 };
                dst[w..w + window].copy_from_slice(black_box(&src[w..w + window]));
                black_box(&mut dst);
                copies += 1;
            }
            (start.elapsed().as_secs_f64() / f64::from(copies)).max(1e-9)
        };
        let copy = copies_for(t, true);
        let cached = copies_for(t, false);
        append_s += t;
        memcpy_s += copy;
        cached_s += cached;
        ratios.push(copy / t);
        cached_ratios.push(cached / t);
    });
    drop((src, dst));

    let append = n as f64 / append_s;
    println!("append_records_per_s: {append:.0}");
    println!("bytes_per_record: {bytes_per_record:.2}");
    println!("memcpy_bytes_per_record: {width}");
    println!("memcpy_records_per_s: {:.0}", n as f64 / memcpy_s);
    println!("append_vs_memcpy: {:.3}", median(&mut ratios));
    println!("memcpy_cached_records_per_s: {:.0}", n as f64 / cached_s);
    println!("append_vs_memcpy_cached: {:.3}", median(&mut cached_ratios));
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

    // Targets over the records' time span and a tenth past it (misses).
    let mut rng = Xs(0x9E37_79B9_7F4A_7C15);
    let span = n as u64 + n as u64 / 9;
    let pairs = 7;
    let (fast_n, linear_n) = (100_000, 20);
    let mut ratios = Vec::with_capacity(pairs);
    let (mut fast_rates, mut linear_rates) = (Vec::new(), Vec::new());
    let mut misses = 0;
    for _ in 0..pairs {
        let targets: Vec<i64> = (0..fast_n)
            .map(|_| T0 + (rng.next() % span) as i64)
            .collect();
        let start = Instant::now();
        let mut sum = 0i64;
        for &t in &targets {
            sum = sum.wrapping_add(indexed(&p, t));
        }
        let fast = fast_n as f64 / start.elapsed().as_secs_f64();
        black_box(sum);
        let start = Instant::now();
        for &t in &targets[..linear_n] {
            black_box(brute_force(&p, black_box(t)));
        }
        let linear = linear_n as f64 / start.elapsed().as_secs_f64();
        for &t in &targets[..linear_n] {
            let want = brute_force(&p, t);
            assert_eq!(indexed(&p, t), want, "lookup {t}");
            misses += usize::from(want == -1);
        }
        fast_rates.push(fast);
        linear_rates.push(linear);
        ratios.push(fast / linear);
    }
    assert!(misses > 0, "the targets include misses");
    let (lo, hi) = (
        ratios.iter().copied().fold(f64::MAX, f64::min),
        ratios.iter().copied().fold(0.0, f64::max),
    );
    println!("lookup_per_s: {:.0}", median(&mut fast_rates));
    println!("linear_lookup_per_s: {:.1}", median(&mut linear_rates));
    println!("lookup_checked: {} ({misses} misses)", pairs * linear_n);
    println!("lookup_speedup: {:.0}", median(&mut ratios));
    println!("lookup_speedup_min: {lo:.0}");
    println!("lookup_speedup_max: {hi:.0}");
    assert_eq!(indexed(&p, T0 + n as i64 + 1000), -1);
    assert_eq!(p.high_watermark(), Offset(n as i64));
    drop(p);

    // 100,000 one-batch segments.
    let segs = 100_000;
    let mut c = Config::defaults(KafkaVersion::V3_6);
    let size = logtime_model::batch_size(&[Record::at(Timestamp(T0))]).0;
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
    println!(
        "bytes_per_segment: {:.0}",
        p.heap_bytes() as f64 / segs as f64
    );
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
