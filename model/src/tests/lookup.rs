//! Offset-for-time lookups and the special offsets (`UnifiedLogTest.testFetchOffsetByTimestamp*`,
//! `GetOffsetShellTest`; conformance: `c0*_*`).

use super::*;
use crate::lookup::{RecordMatch, TraceStep};

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
        Some(TraceStep::HighWatermarkFilter { .. })
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
    let bases = |o: i64| -> Vec<i64> {
        p.p.segments_from(Offset(o))
            .iter()
            .map(|s| s.base_offset().0)
            .collect()
    };
    assert_eq!(bases(3), vec![2, 4]);
    assert_eq!(bases(0), vec![0, 2, 4]);
    assert_eq!(bases(9), Vec::<i64>::new());
    assert_eq!(p.p.timestamp_at(Offset(-1)), None);
}

/// The steps a trace folds: each run of more than `TRACE_RUN` steps of one kind keeps its first
/// `TRACE_RUN` and ends in one `Elided` step that counts the rest; the answer is unchanged.
fn folded(l: &crate::lookup::Lookup) -> Vec<(usize, crate::lookup::Elided, u64, i64, i64)> {
    l.trace
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match *s {
            TraceStep::Elided {
                what,
                count,
                first,
                last,
            } => Some((i, what, count, first.0, last.0)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_lookup_past_many_segments_folds_the_passes() {
    use crate::lookup::{Elided, TRACE_RUN};
    let mut p = P::v3(&[("segment.bytes", s())]);
    let ts: Vec<i64> = (0..300).map(|i| T0 + i).collect();
    p.produce_each(&ts);
    assert_eq!(p.p.segments().len(), 300);
    let l =
        p.p.lookup(OffsetSpec::Timestamp(Timestamp(T0 + 299)))
            .unwrap();
    assert_eq!((l.offset, l.timestamp), p.p.offset_for(l.spec).unwrap());
    assert_eq!(l.offset, Offset(299));
    let passed = l
        .trace
        .iter()
        .take_while(|s| matches!(s, TraceStep::SegmentPassed { .. }))
        .count();
    assert_eq!(passed, TRACE_RUN);
    assert_eq!(
        folded(&l),
        vec![(TRACE_RUN, Elided::SegmentsPassed, 199, 100, 298)]
    );
    assert!(matches!(
        l.trace[TRACE_RUN + 1],
        TraceStep::SegmentChosen {
            segment: Offset(299),
            ..
        }
    ));
    // A run one step short of the limit is listed whole.
    let l =
        p.p.lookup(OffsetSpec::Timestamp(Timestamp(T0 + 100)))
            .unwrap();
    assert!(folded(&l).is_empty());
    assert_eq!(l.offset, Offset(100));
}

#[test]
fn an_unindexed_scan_folds_the_skipped_batches_and_records() {
    use crate::lookup::{Elided, TRACE_RUN};
    let mut p = P::v3(&[("index.interval.bytes", i32::MAX as i64)]);
    let ts: Vec<i64> = (0..300).map(|i| T0 + i).collect();
    p.produce_each(&ts);
    let l =
        p.p.lookup(OffsetSpec::Timestamp(Timestamp(T0 + 250)))
            .unwrap();
    assert_eq!((l.offset, l.timestamp), p.p.offset_for(l.spec).unwrap());
    assert_eq!(l.offset, Offset(250));
    assert_eq!(
        folded(&l),
        vec![(3 + TRACE_RUN, Elided::BatchesSkipped, 150, 100, 249)]
    );
    // One batch of 300 records, the answer the last: the records before it fold.
    let mut p = P::v3(&[]);
    let mut ts = vec![T0; 299];
    ts.push(T0 + 5);
    p.produce(&ts);
    let l =
        p.p.lookup(OffsetSpec::Timestamp(Timestamp(T0 + 5)))
            .unwrap();
    assert_eq!((l.offset, l.timestamp), (Offset(299), Timestamp(T0 + 5)));
    let f = folded(&l);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].1, Elided::RecordsScanned);
    assert_eq!((f[0].2, f[0].3, f[0].4), (199, 100, 298));
    assert!(matches!(
        l.trace.last(),
        Some(TraceStep::RecordScanned {
            offset: Offset(299),
            result: RecordMatch::Match,
            ..
        })
    ));
    // The max-timestamp lookup reads the same batch.
    let l = p.p.lookup(OffsetSpec::MaxTimestamp).unwrap();
    assert_eq!(l.offset, Offset(299));
    assert_eq!(folded(&l).len(), 1);
}
