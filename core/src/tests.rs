//! The single-partition test vectors of the spec's §7, each named after the Kafka test it comes
//! from. Invariants are checked after every operation.

use crate::batch::{batch_size, Record};
use crate::config::{Config, ConfigValue, KafkaVersion};
use crate::event::Event;
use crate::lookup::{find_offset_by_timestamp, OffsetSpec};
use crate::partition::{Command, Partition};
use crate::retention::{RetentionPass, Verdict};
use crate::segment::{RollReason, Segment};
use crate::units::{Bytes, Offset, Timestamp};
use crate::validation::validate;
use crate::Error;

const T0: i64 = 1_700_000_000_000;

/// Size of a one-record batch with a 100-byte value and a small timestamp delta.
fn s() -> i64 {
    batch_size(&[Record::at(Timestamp(T0))]).0
}

struct P {
    p: Partition,
    now: i64,
}

impl P {
    fn new(version: KafkaVersion, sets: &[(&str, i64)]) -> P {
        let mut c = Config::defaults(version);
        for (k, v) in sets {
            c.set(k, &ConfigValue::Number(*v)).unwrap();
        }
        P {
            p: Partition::new(c, "t-0", Timestamp(T0), 0),
            now: T0,
        }
    }
    fn v3(sets: &[(&str, i64)]) -> P {
        P::new(KafkaVersion::V3_6, sets)
    }
    fn apply(&mut self, c: Command) -> Result<Vec<Event>, Error> {
        let r = self.p.apply(Timestamp(self.now), c);
        self.p.check_invariants();
        r
    }
    fn produce(&mut self, ts: &[i64]) -> Vec<Event> {
        let records = ts.iter().map(|&t| Record::at(Timestamp(t))).collect();
        self.apply(Command::Produce { records }).unwrap()
    }
    fn produce_each(&mut self, ts: &[i64]) {
        for &t in ts {
            self.produce(&[t]);
        }
    }
    fn sleep(&mut self, ms: i64) {
        self.now += ms;
    }
    fn set(&mut self, name: &str, v: ConfigValue) {
        self.apply(Command::SetConfig {
            name: name.into(),
            value: v,
        })
        .unwrap();
    }
    fn retention(&mut self) -> usize {
        let ev = self.apply(Command::RunRetention).unwrap();
        ev.iter()
            .filter(|e| matches!(e, Event::SegmentDeleted { .. }))
            .count()
    }
    fn bases(&self) -> Vec<i64> {
        self.p
            .segments()
            .iter()
            .map(|s| s.base_offset().0)
            .collect()
    }
    fn find(&self, t: i64) -> (i64, i64) {
        let (o, ts) = self
            .p
            .lookup(OffsetSpec::Timestamp(Timestamp(t)))
            .unwrap()
            .pipe();
        (o, ts)
    }
    fn spec(&self, spec: OffsetSpec) -> (i64, i64) {
        self.p.lookup(spec).unwrap().pipe()
    }
}

trait Pipe {
    fn pipe(self) -> (i64, i64);
}
impl Pipe for crate::lookup::Lookup {
    fn pipe(self) -> (i64, i64) {
        (self.offset.0, self.timestamp.0)
    }
}

fn segment_with(base: i64, ts: &[i64], interval: i64) -> Segment {
    let c = Config::defaults(KafkaVersion::V3_6);
    let mut seg = Segment::new(Offset(base), Timestamp(T0), 10 * 1024 * 1024, 0);
    for (i, &t) in ts.iter().enumerate() {
        let r = [Record::at(Timestamp(t))];
        let v = validate(&c, "t-0", Timestamp(T0), &r).unwrap();
        seg.append(Timestamp(T0), Offset(base + i as i64), &r, &v, interval);
    }
    seg.check_invariants();
    seg
}

/// B6 `LogSegmentTest.testFindOffsetByTimestamp`.
#[test]
fn b6_find_offset_by_timestamp() {
    let ts: Vec<i64> = (40..50).map(|o| 10 * o).collect();
    let seg = segment_with(40, &ts, 2 * s() - 1);
    let idx: Vec<(i64, i64)> = seg
        .time_index()
        .entries()
        .map(|(t, o)| (t.0, o.0))
        .collect();
    assert_eq!(idx, vec![(420, 42), (440, 44), (460, 46), (480, 48)]);
    for (target, want) in [
        (420, Some(42)),
        (421, Some(43)),
        (430, Some(43)),
        (431, Some(44)),
        (491, None),
        (401, Some(41)),
        (399, Some(40)),
    ] {
        let got = find_offset_by_timestamp(&seg, Timestamp(target), Offset(40), &mut None)
            .map(|(o, _)| o.0);
        assert_eq!(got, want, "target {target}");
    }
    // The answer carries the record's real timestamp, not NO_TIMESTAMP (the Javadoc is wrong).
    assert_eq!(
        find_offset_by_timestamp(&seg, Timestamp(399), Offset(40), &mut None),
        Some((Offset(40), Timestamp(400)))
    );
}

/// B8 `UnifiedLogTest.testBuildTimeIndexWhenNotAssigningOffsets` (here on the leader path).
#[test]
fn b8_interval_one_gives_n_minus_one_entries() {
    let mut p = P::v3(&[("index.interval.bytes", 1)]);
    p.produce_each(&(0..100).map(|i| T0 + i).collect::<Vec<_>>());
    let seg = &p.p.segments()[0];
    assert_eq!(seg.time_index().len(), 99);
    assert_eq!(seg.time_index().last_entry().0, Timestamp(T0 + 99));
    assert_eq!(seg.offset_index().len(), 99);
}

/// B11 (derived): sparse time index, first-offset semantics.
#[test]
fn b11_sparse_time_index() {
    let seg = segment_with(0, &[100, 50, 150, 120], 0);
    let idx: Vec<(i64, i64)> = seg
        .time_index()
        .entries()
        .map(|(t, o)| (t.0, o.0))
        .collect();
    assert_eq!(idx, vec![(100, 0), (150, 2)]);
    assert_eq!(
        seg.offset_index()
            .entries()
            .map(|(o, _)| o.0)
            .collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    assert_eq!(
        find_offset_by_timestamp(&seg, Timestamp(120), Offset(0), &mut None),
        Some((Offset(2), Timestamp(150)))
    );
    assert_eq!(
        find_offset_by_timestamp(&seg, Timestamp(151), Offset(0), &mut None),
        None
    );
    let mut seg = seg;
    // The roll-time entry is a no-op: 150 is already the last entry.
    assert_eq!(seg.on_become_inactive(), None);
}

/// C1 `testFetchOffsetByTimestampIncludesLeaderEpoch` (epochs aside).
#[test]
fn c1_fetch_by_timestamp() {
    let mut p = P::v3(&[]);
    assert_eq!(p.find(0), (-1, -1));
    p.produce_each(&[T0, T0 + 1]);
    assert_eq!(p.find(T0), (0, T0));
    assert_eq!(p.find(T0 + 1), (1, T0 + 1));
    assert_eq!(p.spec(OffsetSpec::Earliest), (0, -1));
    assert_eq!(p.spec(OffsetSpec::Latest), (2, -1));
}

/// C2 `testFetchOffsetByTimestampWithMaxTimestampIncludesTimestamp`.
#[test]
fn c2_max_timestamp() {
    let mut p = P::v3(&[]);
    p.produce_each(&[T0, T0 + 1, T0]);
    assert_eq!(p.spec(OffsetSpec::MaxTimestamp), (1, T0 + 1));
}

/// C3 `testFetchOffsetByTimestampForMaxTimestampWithUnorderedTimestamps`.
#[test]
fn c3_max_timestamp_unordered() {
    let mut p = P::v3(&[]);
    p.produce_each(&[0, 1, 2, 3, 4, 6, 5]);
    assert_eq!(p.spec(OffsetSpec::MaxTimestamp), (5, 6));
    assert_eq!(p.p.log_end_offset(), Offset(7));
}

/// C5 `testFetchOffsetByTimestampForMaxTimestampWithEmptyLog`.
#[test]
fn c5_max_timestamp_empty() {
    let p = P::v3(&[]);
    assert_eq!(p.spec(OffsetSpec::MaxTimestamp), (-1, -1));
}

/// C6 `GetOffsetShellTest`: N records produced now.
#[test]
fn c6_get_offsets() {
    let mut p = P::v3(&[]);
    p.produce_each(&[T0; 5]);
    assert_eq!(p.spec(OffsetSpec::Latest).0, 5);
    assert_eq!(p.spec(OffsetSpec::Earliest).0, 0);
    assert_eq!(p.find(T0 / 2).0, 0);
    assert_eq!(p.find(T0 * 2).0, -1);
    assert!((0..=5).contains(&p.spec(OffsetSpec::MaxTimestamp).0));
}

/// C7 (derived): the high-watermark filter.
#[test]
fn c7_high_watermark_filter() {
    let mut p = P::v3(&[]);
    p.produce_each(&[T0, T0, T0, T0, T0, T0, T0, T0, T0, T0 + 5]);
    p.apply(Command::SetHighWatermark { offset: Offset(8) })
        .unwrap();
    assert_eq!(p.find(T0 + 5), (-1, -1));
    assert_eq!(p.spec(OffsetSpec::Latest), (8, -1));
    assert_eq!(p.spec(OffsetSpec::MaxTimestamp), (-1, -1));
    let l =
        p.p.lookup(OffsetSpec::Timestamp(Timestamp(T0 + 5)))
            .unwrap();
    assert!(matches!(
        l.trace.last(),
        Some(crate::lookup::TraceStep::HighWatermarkFilter { .. })
    ));
}

/// Negative targets: searched in 3.x, UNSUPPORTED_VERSION in 4.x.
#[test]
fn negative_lookup_targets() {
    let mut p = P::v3(&[]);
    p.produce_each(&[T0]);
    assert_eq!(
        p.p.lookup(OffsetSpec::Timestamp(Timestamp(-7)))
            .unwrap()
            .offset,
        Offset(0)
    );
    let mut p4 = P::new(KafkaVersion::V4_0, &[]);
    p4.produce_each(&[T0]);
    assert_eq!(
        p4.p.lookup(OffsetSpec::Timestamp(Timestamp(-7)))
            .unwrap_err()
            .error_code,
        35
    );
}

/// D1 `testTimeBasedLogRollDuringAppend`.
#[test]
fn d1_time_based_roll_during_append() {
    let mut p = P::v3(&[("segment.ms", 3600)]);
    p.sleep(3601);
    p.produce(&[-1]);
    assert_eq!(p.bases().len(), 1, "an empty segment never time-rolls");
    p.produce(&[-1]);
    assert_eq!(
        p.bases().len(),
        2,
        "wall clock: the first batch had no timestamp"
    );
    for n in [3, 4] {
        p.sleep(3601);
        p.produce(&[-1]);
        assert_eq!(p.bases().len(), n);
    }
    let future = p.now + 3601;
    p.produce(&[future]);
    assert_eq!(p.bases().len(), 4);
    p.sleep(3601);
    p.produce(&[future]);
    assert_eq!(p.bases().len(), 5);
    assert_eq!(
        p.p.active_segment().rolling_based_timestamp(),
        Some(Timestamp(future))
    );
    p.sleep(3601);
    p.produce(&[future]);
    assert_eq!(p.bases().len(), 5, "record time: T1 - T1 = 0");
    p.produce(&[future + 3601]);
    assert_eq!(p.bases().len(), 6);
    p.sleep(3601);
    let ev = p.apply(Command::Produce { records: vec![] }).unwrap();
    assert_eq!(ev, vec![Event::EmptyBatchIgnored]);
    assert_eq!(p.bases().len(), 6);
}

/// D2 `testTimeBasedLogRollJitter`.
#[test]
fn d2_jitter() {
    for seed in 0..20 {
        let mut c = Config::defaults(KafkaVersion::V3_6);
        c.set("segment.ms", &ConfigValue::Number(3600)).unwrap();
        c.set("segment.jitter.ms", &ConfigValue::Number(1200))
            .unwrap();
        let mut p = P {
            p: Partition::new(c, "t-0", Timestamp(T0), seed),
            now: T0,
        };
        let jitter = p.p.active_segment().roll_jitter_ms();
        assert!((0..1200).contains(&jitter));
        p.produce(&[T0]);
        p.produce(&[T0 + 2400]);
        assert_eq!(p.bases().len(), 1);
        p.produce(&[T0 + 3600 - jitter]);
        assert_eq!(p.bases().len(), 1);
        p.produce(&[T0 + 3600 - jitter + 1]);
        assert_eq!(p.bases().len(), 2);
    }
}

/// D3 `testSizeBasedLogRoll`: the roll happens on the 10th append.
#[test]
fn d3_size_based_roll() {
    let mut p = P::v3(&[("segment.bytes", 10 * (s() - 1))]);
    for i in 1..=11 {
        p.produce(&[T0]);
        assert_eq!(p.bases().len(), if i < 10 { 1 } else { 2 }, "append {i}");
    }
}

/// D4/D6 `testTruncateEmptySegment`, `testAppendForLogSegmentOffsetOverflowException`.
#[test]
fn d4_d6_offset_overflow_and_empty_segments() {
    let seg = Segment::new(Offset(0), Timestamp(T0), 1024, 0);
    let roll = |seg: &Segment, last: i64| {
        seg.should_roll(
            Timestamp(T0 + 300_001),
            Timestamp(T0),
            Bytes(100),
            Offset(last),
            1 << 30,
            300_000,
        )
    };
    assert_eq!(roll(&seg, 5), None, "an empty segment never time-rolls");
    assert!(matches!(
        roll(&seg, i32::MAX as i64 + 200),
        Some(RollReason::OffsetOverflow { .. })
    ));
    assert!(matches!(
        roll(&seg, -1),
        Some(RollReason::OffsetOverflow { .. })
    ));
    assert_eq!(roll(&seg, i32::MAX as i64), None);
}

/// D7 (derived): exact size and time boundaries.
#[test]
fn d7_roll_boundaries() {
    let c = Config::defaults(KafkaVersion::V3_6);
    let mut seg = Segment::new(Offset(0), Timestamp(T0), 1 << 20, 0);
    let r = [Record {
        timestamp: Timestamp(5000),
        key_bytes: 0,
        value_bytes: 830,
        headers: vec![],
    }];
    let v = validate(&c, "t-0", Timestamp(5000), &r).unwrap();
    assert_eq!(v.size, Bytes(900));
    seg.append(Timestamp(5000), Offset(0), &r, &v, 4096);
    let roll = |bytes: i64, ts: i64| {
        seg.should_roll(
            Timestamp(T0),
            Timestamp(ts),
            Bytes(bytes),
            Offset(1),
            1000,
            1000,
        )
    };
    assert_eq!(roll(100, 5000), None);
    assert!(matches!(roll(101, 5000), Some(RollReason::Size { .. })));
    assert_eq!(roll(10, 6000), None);
    assert!(matches!(
        roll(10, 6001),
        Some(RollReason::Time {
            by_record_time: true,
            ..
        })
    ));
    assert_eq!(roll(10, 4000), None);
}

/// `segment.index.bytes = 12`: a permanently full time index rolls on every append, replacing
/// the empty active segment first (KAFKA-6388).
#[test]
fn tiny_index_rolls_every_append() {
    let mut p = P::v3(&[("segment.index.bytes", 12)]);
    let ev = p.produce(&[T0]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::SegmentRolled(crate::event::Roll {
            replaced_empty: true,
            ..
        })
    )));
    p.produce(&[T0]);
    p.produce(&[T0]);
    assert_eq!(p.bases(), vec![0, 1, 2]);
}

/// The final time-index entry at roll equals the segment's max.
#[test]
fn final_time_index_entry_at_roll() {
    let mut p = P::v3(&[("segment.bytes", 3 * s())]);
    p.produce_each(&[T0 + 5, T0 + 3, T0 + 9, T0 + 1]);
    let first = &p.p.segments()[0];
    assert_eq!(
        first.time_index().last_entry(),
        (Timestamp(T0 + 9), Offset(2))
    );
}

/// E1 `testRetentionIdempotency`.
#[test]
fn e1_retention_idempotency() {
    let mut p = P::v3(&[("retention.ms", 900), ("segment.bytes", s())]);
    p.produce_each(&[T0 + 100, T0, T0 + 100]);
    assert_eq!(p.bases(), vec![0, 1, 2]);
    p.sleep(901);
    p.apply(Command::DeleteRecords { offset: 1 }).unwrap();
    assert_eq!(p.retention(), 2);
    assert_eq!(p.retention(), 0);
    assert_eq!(p.bases(), vec![2]);
}

/// E2 `testRetentionDeletesProducerStateSnapshots`: retention.bytes = 0 deletes the active segment too.
#[test]
fn e2_size_retention_deletes_active() {
    let mut p = P::v3(&[("retention.bytes", 0), ("segment.bytes", s())]);
    p.produce_each(&[T0, T0, T0]);
    assert_eq!(p.retention(), 3);
    assert_eq!(p.bases(), vec![3]);
    assert_eq!(p.p.log_start_offset(), Offset(3));
    assert_eq!(p.p.active_segment().size(), Bytes(0));
    assert_eq!(p.retention(), 0, "the empty active segment is kept");
}

/// E3 `testLogDeletionAfterDeleteRecords`.
#[test]
fn e3_deletion_after_delete_records() {
    let mut p = P::v3(&[("segment.bytes", 5 * s())]);
    p.produce_each(&[T0; 15]);
    assert_eq!(p.bases(), vec![0, 5, 10]);
    for (lso, segs) in [(1, 3), (6, 2), (15, 1)] {
        p.apply(Command::DeleteRecords { offset: lso }).unwrap();
        p.retention();
        assert_eq!(p.bases().len(), segs, "lso {lso}");
        assert_eq!(p.p.log_start_offset(), Offset(lso));
    }
}

/// E4 `shouldDeleteSizeBasedSegments` / `shouldNotDeleteSizeBasedSegmentsWhenUnderRetentionSize`.
#[test]
fn e4_size_based() {
    for (limit, remain) in [(10, 2), (15, 3)] {
        let mut p = P::v3(&[
            ("segment.bytes", 5 * s()),
            ("retention.bytes", limit * 5 * s() / 5),
        ]);
        p.produce_each(&[T0; 15]);
        p.retention();
        assert_eq!(p.bases().len(), remain);
    }
}

/// E5 `LogManagerTest.testCleanupSegmentsToMaintainSize`.
#[test]
fn e5_maintain_size() {
    let mut p = P::v3(&[
        ("segment.bytes", 10 * s()),
        ("retention.bytes", 50 * s() + 10),
    ]);
    p.produce_each(&[T0; 200]);
    assert_eq!(p.bases().len(), 20);
    assert_eq!(p.retention(), 14);
    assert_eq!(p.bases().len(), 6);
}

/// E6/E7 `shouldDeleteTimeBasedSegmentsReadyToBeDeleted` and the none-ready twin.
#[test]
fn e6_e7_time_based() {
    let mut p = P::v3(&[("segment.bytes", s()), ("retention.ms", 10_000)]);
    p.produce_each(&[10, 10, 10]);
    assert_eq!(p.retention(), 3);
    assert_eq!(p.bases().len(), 1);
    assert_eq!(p.p.active_segment().size(), Bytes(0));
    let mut p = P::v3(&[("segment.bytes", s()), ("retention.ms", 10_000_000)]);
    p.produce_each(&[T0, T0, T0]);
    assert_eq!(p.retention(), 0);
    assert_eq!(p.bases().len(), 3);
}

fn keyed(ts: i64) -> Record {
    Record {
        timestamp: Timestamp(ts),
        key_bytes: 4,
        value_bytes: 100,
        headers: vec![],
    }
}

/// E8/E9 `shouldNotDeleteSegmentsWhenPolicyDoesNotIncludeDelete` and
/// `shouldDeleteStartOffsetBreachedSegmentsWhenPolicyDoesNotIncludeDelete`.
#[test]
fn e8_e9_compact_only() {
    let ks = batch_size(&[keyed(T0)]).0;
    let mut p = P::v3(&[("segment.bytes", 5 * ks), ("retention.ms", 10_000)]);
    p.set("cleanup.policy", ConfigValue::Text("compact,delete".into()));
    for _ in 0..15 {
        p.apply(Command::Produce {
            records: vec![keyed(T0)],
        })
        .unwrap();
    }
    p.apply(Command::DeleteRecords { offset: 5 }).unwrap();
    p.set("cleanup.policy", ConfigValue::Text("compact".into()));
    p.sleep(20_000);
    assert_eq!(p.retention(), 1, "only the log-start-offset pass runs");
    assert_eq!(p.bases(), vec![5, 10]);
    let v = p.p.preview_retention(Timestamp(p.now));
    assert!(v.verdicts.iter().all(|v| v.verdict == Verdict::CompactOnly));
}

/// E10 `LogManagerTest.testCheckpointLogStartOffsetForNormalTopic`.
#[test]
fn e10_checkpoint_log_start_offset() {
    let mut p = P::v3(&[("segment.bytes", 11 * s())]);
    p.produce_each(&[T0; 11]);
    p.set("segment.bytes", ConfigValue::Number(10 * s()));
    p.produce_each(&[T0; 39]);
    assert_eq!(p.bases(), vec![0, 11, 21, 31, 41]);
    p.apply(Command::SetHighWatermark { offset: Offset(49) })
        .unwrap();
    p.apply(Command::DeleteRecords { offset: 31 }).unwrap();
    p.retention();
    assert_eq!(p.bases(), vec![31, 41]);
    assert_eq!(p.p.log_start_offset(), Offset(31));
}

/// E11 `testCannotDeleteSegmentsAtOrAboveHighWatermark` and `testDeleteOldSegments`.
#[test]
fn e11_high_watermark_bounds_retention() {
    let mut p = P::v3(&[("segment.bytes", 10 * s()), ("retention.ms", 1000)]);
    p.produce_each(&[T0; 100]);
    p.apply(Command::SetHighWatermark { offset: Offset(0) })
        .unwrap();
    p.sleep(5000);
    assert_eq!(p.retention(), 0, "nothing is deletable while HW = 0");
    for hw in 0..=100 {
        p.apply(Command::SetHighWatermark { offset: Offset(hw) })
            .unwrap();
        p.retention();
        assert!(p.p.log_start_offset().0 <= hw);
        for seg in &p.p.segments()[1..] {
            assert!(seg.base_offset().0 > hw);
        }
    }
    assert_eq!(p.p.log_start_offset(), Offset(100));
    assert_eq!(p.bases().len(), 1);
    assert_eq!(p.p.active_segment().size(), Bytes(0));
}

/// E12 `testCannotIncrementLogStartOffsetPastHighWatermark` and E15 (derived, policy).
#[test]
fn e12_e15_delete_records_errors() {
    let mut p = P::v3(&[]);
    p.produce_each(&[T0; 30]);
    p.apply(Command::SetHighWatermark { offset: Offset(25) })
        .unwrap();
    let e = p.apply(Command::DeleteRecords { offset: 26 }).unwrap_err();
    assert_eq!(
        e.to_string(),
        "error 1 OFFSET_OUT_OF_RANGE: Cannot increment the log start offset to 26 of partition t-0 since it is larger than the high watermark 25"
    );
    let e = p.apply(Command::DeleteRecords { offset: -2 }).unwrap_err();
    assert!(e
        .to_string()
        .contains("The offset -2 for partition t-0 is not valid"));
    let ev = p.apply(Command::DeleteRecords { offset: -1 }).unwrap();
    assert!(ev.contains(&Event::RecordsDeleted {
        requested: Offset(25),
        low_watermark: Offset(25)
    }));
    p.set("cleanup.policy", ConfigValue::Text("compact".into()));
    let e = p.apply(Command::DeleteRecords { offset: 1 }).unwrap_err();
    assert_eq!(e.to_string(), "error 44 POLICY_VIOLATION: Records of partition t-0 can not be deleted due to the configured policy");
    p.set("cleanup.policy", ConfigValue::Text("compact,delete".into()));
    assert!(p.apply(Command::DeleteRecords { offset: 1 }).is_ok());
}

/// E13 `testDeletableSegmentsFilter`: the empty last segment is never deletable.
#[test]
fn e13_empty_last_segment() {
    let mut p = P::v3(&[("segment.bytes", s()), ("retention.ms", 1000)]);
    p.produce_each(&[T0; 9]);
    p.apply(Command::SetConfig {
        name: "segment.index.bytes".into(),
        value: ConfigValue::Number(1024),
    })
    .unwrap();
    p.sleep(5000);
    let v = p.p.preview_retention(Timestamp(p.now));
    // Nine one-record segments, the last non-empty: all nine go (and an empty one is rolled).
    assert_eq!(v.deleted.len(), 9);
    assert_eq!(v.rolled, Some(Offset(9)));
}

/// E14 `LogManagerTest.testCleanupExpiredSegments`: the last-modified fallback.
#[test]
fn e14_last_modified_fallback() {
    let mut p = P::v3(&[("segment.bytes", 3 * s()), ("retention.ms", 60_000)]);
    p.produce_each(&[-1; 10]);
    p.sleep(60_001);
    assert_eq!(p.retention(), 4);
    assert_eq!(p.bases().len(), 1);
}

/// E16 (derived): a future timestamp blocks retention, and 4.x logs a warning.
#[test]
fn e16_future_timestamp_blocks_retention() {
    const DAY: i64 = 86_400_000;
    for version in [KafkaVersion::V3_6, KafkaVersion::V4_0] {
        let mut p = P::new(
            version,
            &[
                ("segment.bytes", 1_048_576),
                ("message.timestamp.after.max.ms", 2 * DAY),
            ],
        );
        let big = |ts| Record {
            timestamp: Timestamp(ts),
            key_bytes: 0,
            value_bytes: 600_000,
            headers: vec![],
        };
        for ts in [T0 - 10 * DAY, T0 + DAY, T0 - 9 * DAY] {
            p.apply(Command::Produce {
                records: vec![big(ts)],
            })
            .unwrap();
        }
        assert_eq!(p.bases().len(), 3);
        let ev = p.apply(Command::RunRetention).unwrap();
        assert_eq!(p.bases().len(), 2);
        let warned = ev
            .iter()
            .any(|e| matches!(e, Event::FutureTimestampWarning { .. }));
        assert_eq!(warned, version == KafkaVersion::V4_0);
        let Some(Event::RetentionChecked(r)) = ev.last() else {
            panic!("no report")
        };
        assert_eq!(
            r.verdicts[0].verdict,
            Verdict::Deleted {
                pass: RetentionPass::Time
            }
        );
        assert!(matches!(
            r.verdicts[1].verdict,
            Verdict::NotOldEnough { future: true, .. }
        ));
        assert!(matches!(
            r.verdicts[2].verdict,
            Verdict::KeptBehind { expired: true, .. }
        ));
    }
}

/// Scheduled checks run at `start + k * interval`, at their own instant.
#[test]
fn retention_task_schedule() {
    let mut p = P::v3(&[("retention.ms", 1000), ("segment.bytes", s())]);
    p.produce_each(&[T0, T0]);
    p.now = T0 + 300_000;
    let ev = p.apply(Command::Tick).unwrap();
    let reports: Vec<_> = ev
        .iter()
        .filter_map(|e| {
            if let Event::RetentionChecked(r) = e {
                Some(r)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].at, Timestamp(T0 + 300_000));
    assert_eq!(reports[0].deleted.len(), 2);
    assert_eq!(p.p.next_retention_check(), Timestamp(T0 + 600_000));
}

/// An error leaves everything unchanged, the clock included.
#[test]
fn errors_are_atomic() {
    let mut p = P::new(KafkaVersion::V4_0, &[]);
    p.produce(&[T0]);
    let before = p.p.state();
    p.now = T0 + 900_000;
    let e = p
        .apply(Command::Produce {
            records: vec![Record::at(Timestamp(T0 * 1_000_000))],
        })
        .unwrap_err();
    assert!(matches!(e, Error::Produce(ref pe) if pe.error.code() == 32));
    assert_eq!(p.p.state(), before);
    assert_eq!(p.p.clock(), Timestamp(T0));
    p.now = T0 - 1;
    assert!(matches!(
        p.apply(Command::Tick),
        Err(Error::ClockWentBackwards { .. })
    ));
}

/// LogAppendTime: every record reads `now`; the time roll measures wall time since the first append.
#[test]
fn log_append_time_overwrites() {
    let mut p = P::v3(&[]);
    p.set(
        "message.timestamp.type",
        ConfigValue::Text("LogAppendTime".into()),
    );
    let ev = p.produce(&[1234, 1234, 1234]);
    let Some(Event::BatchAppended(a)) = ev.iter().find(|e| matches!(e, Event::BatchAppended(_)))
    else {
        panic!()
    };
    assert_eq!(a.log_append_time, Some(Timestamp(T0)));
    assert_eq!(p.p.active_segment().record_timestamps(), &[T0, T0, T0]);
    assert_eq!(p.spec(OffsetSpec::MaxTimestamp), (0, T0));
}

/// The seed's five-segment table, at 12 Mar 2027 09:00 with retention.ms = 7 days.
#[test]
fn seed_001_five_segment_table() {
    use crate::human::parse_rfc3339;
    let t = |s: &str| parse_rfc3339(s).unwrap();
    let start = t("2027-02-28T00:00:00Z");
    let mut c = Config::defaults(KafkaVersion::V3_6);
    c.set("segment.bytes", &ConfigValue::Number(10_000 * s()))
        .unwrap();
    // No scheduled check before the one the table describes.
    c.set(
        "log.retention.check.interval.ms",
        &ConfigValue::Number(100 * 86_400_000),
    )
    .unwrap();
    let mut p = P {
        p: Partition::new(c, "clicks-0", Timestamp(start), 0),
        now: start,
    };
    // (first record, the others, last record) per segment; segment 20000 opens with the record
    // stamped three years ahead, so it never time-rolls and rolls on size like the rest.
    let stamps = [
        (
            "2027-02-28T23:50:00Z",
            "2027-02-28T23:50:00Z",
            "2027-02-28T23:58:00Z",
        ),
        (
            "2027-03-01T23:50:00Z",
            "2027-03-01T23:50:00Z",
            "2027-03-01T23:59:00Z",
        ),
        (
            "2030-03-14T11:20:00Z",
            "2027-03-02T23:50:00Z",
            "2027-03-02T23:55:00Z",
        ),
        (
            "2027-03-03T23:50:00Z",
            "2027-03-03T23:50:00Z",
            "2027-03-03T23:57:00Z",
        ),
        (
            "2027-03-12T08:50:00Z",
            "2027-03-12T08:50:00Z",
            "2027-03-12T08:59:00Z",
        ),
    ];
    let cap = t("2027-03-12T08:59:00Z");
    for (k, (first, mid, last)) in stamps.iter().enumerate() {
        let (first, mid, last) = (t(first), t(mid), t(last));
        let n = if k == 4 { 10 } else { 10_000 };
        for i in 0..n {
            let ts = if i == 0 {
                first
            } else if i == n - 1 {
                last
            } else {
                mid + i as i64 % 1000
            };
            p.now = p.now.max(ts.min(cap));
            let r = Record::at(Timestamp(ts));
            p.p.apply(Timestamp(p.now), Command::Produce { records: vec![r] })
                .unwrap();
        }
    }
    p.p.check_invariants();
    assert_eq!(p.bases(), vec![0, 10_000, 20_000, 30_000, 40_000]);
    let at = t("2027-03-12T09:00:00Z");
    let r = p.p.preview_retention(Timestamp(at));
    let v: Vec<Verdict> = r.verdicts.iter().map(|v| v.verdict).collect();
    assert_eq!(
        v[0],
        Verdict::Deleted {
            pass: RetentionPass::Time
        }
    );
    assert_eq!(
        v[1],
        Verdict::Deleted {
            pass: RetentionPass::Time
        }
    );
    let Verdict::NotOldEnough {
        eligible_at,
        future: true,
        ..
    } = v[2]
    else {
        panic!("{:?}", v[2])
    };
    assert_eq!(crate::human::date(eligible_at.0), "21 Mar 2030 11:20:00");
    assert_eq!(
        v[3],
        Verdict::KeptBehind {
            blocker: Offset(20_000),
            expired: true
        }
    );
    assert_eq!(
        v[4],
        Verdict::KeptBehind {
            blocker: Offset(20_000),
            expired: false
        }
    );
}

/// A clock jump of centuries stays cheap: idle checks are skipped and counted, deletions still
/// happen at the first due check after each segment becomes eligible.
#[test]
fn idle_retention_checks_are_skipped() {
    let mut p = P::v3(&[("retention.ms", 1000), ("segment.bytes", s())]);
    p.produce_each(&[T0 + 2_000_000, T0 + 4_000_000]);
    p.now = i64::MAX - 1;
    let ev = p.apply(Command::Tick).unwrap();
    let reports: Vec<_> = ev
        .iter()
        .filter_map(|e| {
            if let Event::RetentionChecked(r) = e {
                Some(r)
            } else {
                None
            }
        })
        .collect();
    // Segment 0 (max T0+2e6) goes at the first check after T0+2e6+1000+1 = T0+2_100_000, then
    // segment 1, rolling an empty one, at T0+4_200_000; the last due check reports the rest.
    assert_eq!(reports[0].at, Timestamp(T0 + 2_100_000));
    assert_eq!(reports[0].idle_checks_before, 6);
    assert_eq!(reports[1].at, Timestamp(T0 + 4_200_000));
    assert_eq!(reports[1].rolled, Some(Offset(2)));
    assert_eq!(reports.len(), 3);
    assert!(reports[2].deleted.is_empty());
    assert!(p.p.next_retention_check() > Timestamp(i64::MAX - 300_001));
}

/// C6's `-4` and `-5` without tiered storage: earliest, and no answer (3.9 and 4.x).
#[test]
fn c6_earliest_local_and_latest_tiered() {
    for version in [KafkaVersion::V3_6, KafkaVersion::V4_0] {
        let mut p = P::new(version, &[]);
        p.produce_each(&[T0, T0]);
        assert_eq!(p.spec(OffsetSpec::from_wire(-4)), (0, -1));
        assert_eq!(p.spec(OffsetSpec::from_wire(-5)), (-1, -1));
    }
}

/// Found by fuzzing: a start near Long.MAX must not wrap the first retention check into the past.
#[test]
fn start_near_long_max() {
    let mut p = Partition::new(
        Config::defaults(KafkaVersion::V4_0),
        "t-0",
        Timestamp(i64::MAX - 8),
        0,
    );
    p.check_invariants();
    assert!(p
        .apply(
            Timestamp(i64::MAX - 8),
            Command::Produce { records: vec![] }
        )
        .is_ok());
    p.check_invariants();
}

/// Random access to record timestamps across segments.
#[test]
fn timestamp_at_finds_the_segment() {
    let mut p = P::v3(&[("segment.bytes", 2 * s())]);
    p.produce_each(&[T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4]);
    assert_eq!(p.bases(), vec![0, 2, 4]);
    for o in 0..5 {
        assert_eq!(p.p.timestamp_at(Offset(o)), Some(Timestamp(T0 + o)));
        assert_eq!(
            p.p.segment_of(Offset(o)).unwrap().base_offset().0,
            o / 2 * 2
        );
    }
    assert_eq!(p.p.timestamp_at(Offset(5)), None);
    assert_eq!(p.p.timestamp_at(Offset(-1)), None);
}
