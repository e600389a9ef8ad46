//! Retention's passes, the verdicts they give, DeleteRecords and the retention schedule
//! (`UnifiedLogTest`, `LogManagerTest`; conformance: `e*_*`, `seed001_*`).

use super::*;
use crate::retention::RetentionReport;

/// The retention checks among `events`, in order.
fn checks(events: &[Event]) -> Vec<&RetentionReport> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::RetentionChecked(r) => Some(r),
            _ => None,
        })
        .collect()
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

/// The instants of the scheduled retention passes (with what they deleted) while the clock moves
/// to `to`.
fn passes_until(p: &mut P, to: i64) -> Vec<(i64, usize)> {
    p.now = to;
    p.apply(Command::Tick)
        .unwrap()
        .iter()
        .filter_map(|e| match e {
            Event::RetentionChecked(r) => Some((r.at.0 - T0, r.deleted.len())),
            _ => None,
        })
        .collect()
}

/// Compacted topics get retention from the log cleaner, not from the retention task:
/// `LogManager.cleanupLogs` skips logs whose policy includes compact, and
/// `CleanerThread.doWork` runs `deleteOldSegments` on them through
/// `LogCleanerManager.deletableLogs` on every loop, pausing `log.cleaner.backoff.ms` when it had
/// nothing to compact: passes at `start + k × backoff`.
#[test]
fn compacted_topics_get_retention_from_the_cleaner() {
    let ks = batch_size(&[keyed(T0)]).0;
    let mut p = P::v3(&[
        ("segment.bytes", ks),
        ("retention.ms", 10_000),
        ("log.retention.check.interval.ms", 60_000),
    ]);
    p.set("cleanup.policy", ConfigValue::Text("compact,delete".into()));
    for _ in 0..3 {
        p.apply(Command::Produce {
            records: vec![keyed(T0)],
        })
        .unwrap();
    }
    assert_eq!(p.p.next_retention_check(), Timestamp(T0 + 15_000));
    // The first cleaner pass (T0 + 15 s) finds all three segments 15 s old: it rolls an empty
    // segment and deletes them.
    assert_eq!(passes_until(&mut p, T0 + 15_000), vec![(15_000, 3)]);
    assert_eq!(p.bases(), vec![3]);
    // Nothing else to delete: the passes at 30 s .. 90 s are idle and skipped, the last one
    // reports; the retention task's run at 60 s does not touch this log.
    let mut ks = passes_until(&mut p, T0 + 90_000);
    assert_eq!(ks.pop(), Some((90_000, 0)));
    assert!(ks.is_empty(), "{ks:?}");
    // Back to delete: the retention task takes over at its next instant (120 s).
    p.set("cleanup.policy", ConfigValue::Text("delete".into()));
    assert_eq!(p.p.next_retention_check(), Timestamp(T0 + 120_000));
    p.set("log.cleaner.backoff.ms", ConfigValue::Number(0));
    p.set("cleanup.policy", ConfigValue::Text("compact".into()));
    // A new backoff applies from the next pause: the pass already due at 105 s stays, then a
    // backoff of 0 is a pass every millisecond.
    assert_eq!(p.p.next_retention_check(), Timestamp(T0 + 105_000));
    p.now = T0 + 105_000;
    p.apply(Command::Tick).unwrap();
    assert_eq!(p.p.next_retention_check(), Timestamp(T0 + 105_001));
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
        let big = |ts| Record::with_key(Timestamp(ts), None, 600_000);
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
    let reports = checks(&ev);
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].at, Timestamp(T0 + 300_000));
    assert_eq!(reports[0].deleted.len(), 2);
    assert_eq!(p.p.next_retention_check(), Timestamp(T0 + 600_000));
}

/// A clock jump of centuries stays cheap: idle checks are skipped and counted, deletions still
/// happen at the first due check after each segment becomes eligible.
#[test]
fn idle_retention_checks_are_skipped() {
    let mut p = P::v3(&[("retention.ms", 1000), ("segment.bytes", s())]);
    p.produce_each(&[T0 + 2_000_000, T0 + 4_000_000]);
    p.now = i64::MAX - 1;
    let ev = p.apply(Command::Tick).unwrap();
    let reports = checks(&ev);
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

/// The seed's five-segment table, at 12 Mar 2027 09:00 with retention.ms = 7 days.
#[test]
fn seed_001_five_segment_table() {
    use crate::calendar::days_from_civil;
    // `YYYY-MM-DDTHH:MM:SSZ`, read with the calendar the runner uses.
    let t = |s: &str| {
        let n = |r: std::ops::Range<usize>| s[r].parse::<i64>().unwrap();
        let day = days_from_civil(n(0..4), n(5..7) as u32, n(8..10) as u32);
        day * 86_400_000 + n(11..13) * 3_600_000 + n(14..16) * 60_000 + n(17..19) * 1000
    };
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
    assert_eq!(
        crate::calendar::rfc3339(eligible_at.0),
        "2030-03-21T11:20:00.001Z"
    );
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
