//! The time and offset indexes a segment builds as batches land, and the search over them
//! (`LogSegmentTest`, `UnifiedLogTest`; conformance: `b06_*`, `b08_*`, `b11_*`).

use super::*;

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
    assert_eq!(
        seg.on_become_inactive(RollReason::RetentionDeletesAll),
        None
    );
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

/// `index.interval.bytes` is fixed per segment when it is created (`LogSegment.open` passes
/// `config.indexInterval` to the constructor's final field; `LocalLog.updateConfig` only swaps the
/// config object): a `config` step changes it for the next segment, not the active one.
#[test]
fn index_interval_is_fixed_per_segment() {
    let mut p = P::v3(&[("index.interval.bytes", 0), ("segment.bytes", 4 * s())]);
    p.produce_each(&[T0, T0 + 1]);
    p.set("index.interval.bytes", ConfigValue::Number(1 << 20));
    // The active segment keeps interval 0: an entry for every batch after the first.
    p.produce_each(&[T0 + 2, T0 + 3]);
    assert_eq!(p.p.segments()[0].offset_index().len(), 3);
    assert_eq!(p.p.segments()[0].index_interval_bytes(), 0);
    // The next segment, rolled by size, takes the new interval: no entries.
    p.produce_each(&[T0 + 4, T0 + 5, T0 + 6]);
    assert_eq!(p.bases(), vec![0, 4]);
    assert_eq!(p.p.segments()[1].index_interval_bytes(), 1 << 20);
    assert_eq!(p.p.segments()[1].offset_index().len(), 0);
    // And back: lowering it does not give the active segment entries either.
    p.set("index.interval.bytes", ConfigValue::Number(0));
    p.produce(&[T0 + 7]);
    assert_eq!(p.p.segments()[1].offset_index().len(), 0);
}
