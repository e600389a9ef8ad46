//! Segment rolls by size, time, jitter, full indexes and offset overflow
//! (`UnifiedLogTest.testTimeBasedLogRoll*`, `testSizeBasedLogRoll`, `LogSegmentTest`;
//! conformance: `d0*_*`).

use super::*;

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
    let seg = Segment::new(Offset(0), Timestamp(T0), 1024, 4096, 0);
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
    let mut seg = Segment::new(Offset(0), Timestamp(T0), 1 << 20, 4096, 0);
    let r = [Record::with_key(Timestamp(5000), None, 830)];
    let v = validate(&c, "t-0", Timestamp(5000), &r).unwrap();
    assert_eq!(v.size, Bytes(900));
    seg.append(Timestamp(5000), Offset(0), &r, &v);
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
