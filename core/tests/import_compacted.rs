//! A compacted partition (offsets the log cleaner removed: whole batches, and records inside a
//! batch), typed after `DumpLogSegments`' `--deep-iteration` output: read where the topic's
//! policy allows gaps, refused naming the policy where it does not, accepted with a note where
//! the policy is unknown; lookups answer as Kafka's reads do (the first record that is there),
//! and a compacted topic gets compact-only verdicts.

use logtime_core::import::{inspect, parse_dump, words, ImportError, Imported};
use logtime_model::Verdict;
use logtime_model::{Config, ConfigValue, KafkaVersion, Offset, OffsetSpec, Timestamp};

fn batch(base: i64, last: i64, count: u32, position: u64, max: i64) -> String {
    format!(
        "baseOffset: {base} lastOffset: {last} count: {count} baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 partitionLeaderEpoch: 0 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty position: {position} CreateTime: {max} size: 100 magic: 2 compresscodec: none crc: 1 isvalid: true\n"
    )
}

fn record(offset: i64, ts: i64) -> String {
    format!(
        "| offset: {offset} CreateTime: {ts} keySize: 1 valueSize: 1 sequence: -1 headerKeys: []\n"
    )
}

/// Offsets 2–4 removed (a whole batch) and offset 8 removed inside the last batch.
fn dump() -> String {
    let mut s = String::from(
        "Dumping /d/__consumer_offsets-7/00000000000000000000.log\nLog starting offset: 0\n",
    );
    s += &batch(0, 1, 2, 0, 2_000);
    s += &record(0, 1_000);
    s += &record(1, 2_000);
    s += &batch(5, 6, 2, 100, 6_000);
    s += &record(5, 5_000);
    s += &record(6, 6_000);
    s += &batch(7, 9, 2, 200, 9_000);
    s += &record(7, 7_000);
    s += &record(9, 9_000);
    s
}

fn import(policy: Option<&str>) -> Result<Imported, ImportError> {
    let mut config = Config::defaults(KafkaVersion::V4_0);
    if let Some(p) = policy {
        config
            .set("cleanup.policy", &ConfigValue::Text(p.into()))
            .unwrap();
    }
    let mut import = parse_dump(&dump())
        .unwrap()
        .into_import("__consumer_offsets-7", config);
    import.policy_known(policy.is_some());
    import.finish(Timestamp(10_000), None)
}

#[test]
fn a_delete_policy_refuses_gaps_naming_it() {
    let e = import(Some("delete")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "segment 0: offsets are missing from byte 100 on (offset 2 expected): a compacted log, but cleanup.policy is delete, whose offsets are contiguous (a gap between files, or the wrong policy given)"
    );
}

#[test]
fn an_unknown_policy_accepts_gaps_with_a_note() {
    let imported = import(None).unwrap();
    let notes = words::import_notes(&imported, "x");
    assert!(
        notes.iter().any(|n| n == "segment 0: 4 offsets removed by compaction (the first before byte 100): held as records without a timestamp, which lookups skip and no largest timestamp counts; cleanup.policy was not given and the gaps say the topic is compacted: the verdicts are for delete, give the real one (cleanup.policy=compact or compact,delete)"),
        "{notes:?}"
    );
    assert_eq!(imported.segments[0].compacted.missing_offsets, 4);
}

#[test]
fn lookups_land_on_the_records_that_are_there() {
    for policy in ["compact", "compact,delete"] {
        let imported = import(Some(policy)).unwrap();
        let p = &imported.partition;
        assert_eq!(p.log_end_offset(), Offset(10));
        let at = |t: i64| {
            p.lookup(OffsetSpec::Timestamp(Timestamp(t)))
                .unwrap()
                .offset
        };
        assert_eq!(at(3_000), Offset(5), "{policy}: 2–4 are gone");
        assert_eq!(at(8_000), Offset(9), "{policy}: 8 is gone");
        assert_eq!(at(1_000), Offset(0));
        assert_eq!(p.segments()[0].largest_timestamp(), Timestamp(9_000));
    }
}

#[test]
fn compacted_topics_get_compact_verdicts() {
    let imported = import(Some("compact")).unwrap();
    let r = inspect(&imported, Timestamp(1_000_000_000_000), None);
    assert!(r.rows.iter().all(|row| row.verdict == Verdict::CompactOnly));
    // compact,delete: time retention applies to a compacted log as Kafka computes it.
    let imported = import(Some("compact,delete")).unwrap();
    let r = inspect(&imported, Timestamp(1_000_000_000_000), None);
    assert!(r.rows.iter().all(|row| row.verdict != Verdict::CompactOnly));
}
