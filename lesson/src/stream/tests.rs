use super::*;
use logtime_model::config::{Config, KafkaVersion};
use logtime_model::partition::{Command, Partition};
use logtime_model::Record;
use proptest::prelude::*;

const MIN: i64 = 60_000;
/// 2027-03-12T10:00:00Z
const TEN: i64 = 1_804_845_600_000;

fn ks(window: i64, grace: i64) -> StreamConfig {
    StreamConfig::new(window, grace).unwrap()
}

fn feed(c: StreamConfig, stamps: &[i64]) -> (Processor, Vec<Read>) {
    let mut p = Processor::new(c);
    let reads = stamps
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let r = p.read(Offset(i as i64), Timestamp(t));
            p.check_invariants();
            r
        })
        .collect();
    (p, reads)
}

fn late(reads: &[Read]) -> Vec<i64> {
    reads
        .iter()
        .filter(|r| r.fate.is_late())
        .map(|r| r.offset.0)
        .collect()
}

/// Seed 000's story under Kafka Streams, five-minute windows with a one-minute grace: a record
/// stamped a day ago is late by itself; a record whose producer wrote nanoseconds (the event
/// happened at 10:01) moves stream time millions of years ahead, closes every window, and the
/// on-time records after it are dropped.
#[test]
fn the_seed_000_story() {
    let ns = (TEN + 60_000) * 1_000_000;
    let stamps = [
        TEN,                    // 0: 10:00:00
        TEN + 30_000,           // 1: 10:00:30
        TEN - 86_400_000,       // 2: a day ago
        TEN + 50_000,           // 3: 10:00:50
        TEN + 80_000,           // 4: 10:01:20
        ns,                     // 5: 10:01 in nanoseconds
        TEN + 2 * MIN,          // 6: 10:02
        TEN + 2 * MIN + 30_000, // 7: 10:02:30
        TEN + 6 * MIN,          // 8: 10:06
    ];
    let (p, reads) = feed(ks(5 * MIN, MIN), &stamps);
    assert_eq!(late(&reads), vec![2, 6, 7, 8]);
    // The day-old record's window closed as soon as stream time reached 10:00.
    assert_eq!(
        reads[2].fate,
        Fate::Late {
            closed_by: Offset(0)
        }
    );
    assert_eq!(
        reads[2].window,
        Some(Window {
            start: Timestamp(TEN - 86_400_000),
            end: Timestamp(TEN - 86_400_000 + 5 * MIN)
        })
    );
    // The nanosecond record closed the 10:00 window that held records 0, 1, 3 and 4.
    let ten = Window {
        start: Timestamp(TEN),
        end: Timestamp(TEN + 5 * MIN),
    };
    assert_eq!(reads[5].closed, vec![ten]);
    assert_eq!(reads[5].after.stream_time, Some(Timestamp(ns)));
    assert_eq!(reads[5].after.watermark, Some(Timestamp(ns - MIN)));
    assert_eq!(
        reads[5].before.watermark,
        Some(Timestamp(TEN + 80_000 - MIN))
    );
    for r in &reads[6..] {
        assert_eq!(
            r.fate,
            Fate::Late {
                closed_by: Offset(5)
            }
        );
    }
    let w: Vec<(i64, u64, u64)> = p
        .windows()
        .map(|s| (s.window.start.0, s.counted, s.late))
        .collect();
    assert_eq!(
        w,
        vec![
            (TEN - 86_400_000, 0, 1),
            (TEN, 4, 2),
            (TEN + 5 * MIN, 0, 1),
            (ns - ns % (5 * MIN), 1, 0)
        ]
    );
    let s = p.windows().nth(1).unwrap();
    assert_eq!(
        s.closed,
        Some(Closing {
            by: Offset(5),
            by_timestamp: Timestamp(ns),
            watermark: Timestamp(ns - MIN)
        })
    );
    // The 10:05 window never held a record before it closed: it closed at the same read.
    assert_eq!(p.windows().nth(2).unwrap().closed.unwrap().by, Offset(5));
    // Flink with the same delay and no allowed lateness drops the same records.
    let flink = ks(5 * MIN, MIN)
        .with_semantics(Semantics::Flink, 0)
        .unwrap();
    let (_, f) = feed(flink, &stamps);
    assert_eq!(late(&f), vec![2, 6, 7, 8]);
    assert_eq!(f[5].after.watermark, Some(Timestamp(ns - MIN - 1)));
}

/// The grace boundary, exactly: the 10:00 window (end 10:05) closes when stream time reaches
/// 10:06 with a one-minute grace, not one millisecond earlier; a record for a window whose end
/// equals the close time is dropped.
#[test]
fn a_window_closes_when_stream_time_reaches_end_plus_grace() {
    let end = TEN + 5 * MIN;
    let (_, reads) = feed(ks(5 * MIN, MIN), &[TEN, end + MIN - 1, TEN + 1]);
    assert!(reads[1].closed.is_empty());
    assert_eq!(reads[2].fate, Fate::OnTime);
    let (p, reads) = feed(ks(5 * MIN, MIN), &[TEN, end + MIN, TEN + 1]);
    assert_eq!(reads[1].closed.len(), 1);
    assert_eq!(
        reads[2].fate,
        Fate::Late {
            closed_by: Offset(1)
        }
    );
    let ten = p.windows().next().unwrap();
    assert_eq!((ten.counted, ten.late), (1, 1));
    // Flink: the watermark max − delay − 1 reaches end − 1 at the same read.
    let flink = ks(5 * MIN, MIN)
        .with_semantics(Semantics::Flink, 0)
        .unwrap();
    let (_, reads) = feed(flink, &[TEN, end + MIN - 1, TEN + 1]);
    assert_eq!(reads[2].fate, Fate::OnTime);
    let (_, reads) = feed(flink, &[TEN, end + MIN, TEN + 1]);
    assert!(reads[2].fate.is_late());
    // A zero grace closes a window as soon as a record reaches its end.
    let (_, reads) = feed(ks(5 * MIN, 0), &[TEN, end, end - 1]);
    assert_eq!(reads[1].closed.len(), 1);
    assert!(reads[2].fate.is_late());
}

/// Flink's allowed lateness: after the window fires, a late record within the lateness is
/// counted and fires it again; past the lateness it is dropped.
#[test]
fn flink_allowed_lateness_counts_late_records_until_cleanup() {
    let c = ks(5 * MIN, 0)
        .with_semantics(Semantics::Flink, 2 * MIN)
        .unwrap();
    let end = TEN + 5 * MIN;
    // Watermark after read 1: end + 1 min − 1 ≥ end − 1: fired, not cleaned up.
    let (p, reads) = feed(c, &[TEN, end + MIN, TEN + 1, end + 2 * MIN, TEN + 2]);
    assert_eq!(reads[2].fate, Fate::LateAccepted);
    // Read 3 moves the watermark to end + 2 min − 1 = cleanup time (end − 1 + 2 min).
    assert_eq!(reads[3].closed.len(), 1);
    assert_eq!(
        reads[4].fate,
        Fate::Late {
            closed_by: Offset(3)
        }
    );
    let s = p.windows().next().unwrap();
    assert_eq!((s.counted, s.late), (2, 1));
    assert_eq!(s.fired.unwrap().by, Offset(1));
    assert_eq!(s.closed.unwrap().by, Offset(3));
    assert_eq!(
        ks(5 * MIN, 0).with_semantics(Semantics::KafkaStreams, 1),
        Err(StreamConfigError::LatenessNeedsFlink)
    );
}

/// Negative stamps: Kafka Streams skips them (its `RecordQueue` drops a negative extracted
/// timestamp) and they move nothing; Flink windows them like any event time. A window ending
/// past `Long.MAX` exists in neither.
#[test]
fn negative_and_overflowing_stamps() {
    let (p, reads) = feed(ks(5 * MIN, 0), &[-1, TEN, -5, i64::MAX]);
    assert_eq!(reads[0].fate, Fate::Skipped(Skip::NegativeTimestamp));
    assert_eq!(reads[0].after, Progress::default());
    assert_eq!(reads[2].fate, Fate::Skipped(Skip::NegativeTimestamp));
    assert_eq!(reads[3].fate, Fate::Skipped(Skip::NoWindow));
    assert_eq!(p.progress().stream_time, Some(Timestamp(TEN)));
    let flink = ks(5 * MIN, 0).with_semantics(Semantics::Flink, 0).unwrap();
    let (_, reads) = feed(flink, &[-1, i64::MIN]);
    assert_eq!(
        reads[0].window,
        Some(Window {
            start: Timestamp(-5 * MIN),
            end: Timestamp(0)
        })
    );
    assert_eq!(reads[0].fate, Fate::OnTime);
    assert_eq!(reads[1].fate, Fate::Skipped(Skip::NoWindow));
}

#[test]
fn configs_out_of_range_are_refused() {
    assert_eq!(StreamConfig::new(0, 0), Err(StreamConfigError::Window(0)));
    assert_eq!(
        StreamConfig::new(MIN, -1),
        Err(StreamConfigError::Delay(-1))
    );
    assert_eq!(
        StreamConfig::new(MAX_DURATION_MS + 1, 0),
        Err(StreamConfigError::Window(MAX_DURATION_MS + 1))
    );
    assert_eq!(
        ks(MIN, 0).with_semantics(Semantics::Flink, i64::MAX),
        Err(StreamConfigError::Lateness(i64::MAX))
    );
    assert_eq!(
        StreamConfigError::Window(0).to_string(),
        "window size 0 ms is not from 1 ms to 100 y"
    );
}

/// `run` reads what a consumer can: from the log start offset (or a later `from`) to the high
/// watermark.
#[test]
fn run_reads_from_the_log_start_offset_to_the_high_watermark() {
    let mut p = Partition::new(
        Config::defaults(KafkaVersion::V3_6),
        "clicks-0",
        Timestamp(TEN),
        0,
    );
    for k in 0..6 {
        p.apply(
            Timestamp(TEN + k * 10_000),
            Command::Produce {
                records: vec![Record::with_key(Timestamp(TEN + k * 10_000), None, 100)],
            },
        )
        .unwrap();
    }
    let c = ks(5 * MIN, 0);
    let r = run(&c, &p);
    assert_eq!((r.from, r.to, r.reads.len()), (Offset(0), Offset(6), 6));
    p.apply(
        Timestamp(TEN + 60_000),
        Command::DeleteRecords { offset: 2 },
    )
    .unwrap();
    p.apply(
        Timestamp(TEN + 60_000),
        Command::SetHighWatermark { offset: Offset(5) },
    )
    .unwrap();
    let r = run(&c, &p);
    assert_eq!((r.from, r.to), (Offset(2), Offset(5)));
    assert_eq!(
        r.read_of(Offset(4)).unwrap().timestamp,
        Timestamp(TEN + 40_000)
    );
    assert!(r.read_of(Offset(1)).is_none());
    let r = run(&c.starting_at(Some(Offset(4))), &p);
    assert_eq!(r.reads.len(), 1);
    let r = run(&c.starting_at(Some(Offset(0))), &p);
    assert_eq!(
        r.from,
        Offset(2),
        "a consumer below the log start offset is reset to it"
    );
}

/// The fate of each record by brute force: late when the largest stamp read so far (itself
/// included), minus the grace, has reached its window's end.
fn reference(window: i64, grace: i64, stamps: &[i64]) -> Vec<bool> {
    let mut out = Vec::new();
    for (i, &t) in stamps.iter().enumerate() {
        if t < 0 {
            out.push(false);
            continue;
        }
        let end = t - t % window + window;
        let max = stamps[..=i]
            .iter()
            .copied()
            .filter(|&s| s >= 0)
            .max()
            .unwrap();
        out.push(end <= max - grace);
    }
    out
}

proptest! {
    /// Kafka Streams' rule against a brute-force reference, and Flink with no allowed lateness
    /// against Kafka Streams, over random out-of-order stamps.
    #[test]
    fn the_processor_matches_a_brute_force_reference(
        window in 1i64..10_000,
        grace in 0i64..20_000,
        stamps in proptest::collection::vec(-100i64..100_000, 0..60),
    ) {
        let c = ks(window, grace);
        let (p, reads) = feed(c, &stamps);
        let got: Vec<bool> = reads.iter().map(|r| r.fate.is_late()).collect();
        prop_assert_eq!(&got, &reference(window, grace, &stamps));
        let counted: u64 = p.windows().map(|w| w.counted).sum();
        let on_time = reads.iter().filter(|r| r.fate == Fate::OnTime).count() as u64;
        prop_assert_eq!(counted, on_time);
        let flink = c.with_semantics(Semantics::Flink, 0).unwrap();
        let (_, f) = feed(flink, &stamps);
        for (a, b) in reads.iter().zip(&f) {
            if a.timestamp.0 >= 0 {
                prop_assert_eq!(a.fate.is_late(), b.fate.is_late());
            }
        }
    }
}
