//! Every partition folder Apache Kafka's storage code wrote (`tests/import/kafka/`, see its
//! README), live and after a clean shutdown, imported from its files: the segments, indexes,
//! verdicts and lookups must be the ones Kafka reported in `report.json`, the on-disk indexes
//! must match Kafka's rules, and the partition exported as a scenario must replay to the same
//! state.

mod common;

use common::pairs;
use logtime_core::import::{
    inspect, parse_offset_index, parse_time_index, segment_file, to_scenario, Imported, IndexCheck,
    LogReader, PartitionImport, SegmentFileKind, SegmentLogBuilder,
};
use logtime_core::scenario::{parse, run, Step};
use logtime_model::{Offset, OffsetSpec, Timestamp, Verdict};
use serde_json::Value;
use std::path::{Path, PathBuf};

const FIXTURES: &[&str] = &[
    "pinned-retention",
    "lookup-out-of-order",
    "far-offsets",
    "log-append-time",
    "no-timestamp-and-keys",
    "many-small-segments",
];

fn root(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/import/kafka")
        .join(name)
}

fn report(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(root(name).join("report.json")).unwrap()).unwrap()
}

/// The `.log` modification times are not meaningful in the copies: a segment without record
/// stamps gets the one Kafka used, from `report.json`.
fn mtimes(final_state: &Value) -> Vec<(i64, i64)> {
    final_state["segments"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["max_timestamp_so_far"] == -1)
        .map(|s| {
            (
                s["base_offset"].as_i64().unwrap(),
                s["largest_timestamp"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// Reads a partition folder in 100-byte chunks (to exercise the streaming reader).
fn import(name: &str, copy: &str) -> (Imported, Timestamp) {
    let scenario =
        parse(&std::fs::read_to_string(root(name).join("scenario.json")).unwrap()).unwrap();
    let rep = report(name);
    let now = Timestamp(
        rep["steps"].as_array().unwrap().last().unwrap()["now"]
            .as_i64()
            .unwrap(),
    );
    let mtimes = mtimes(&rep["final"]);
    let dir = root(name).join(copy).join("clicks-0");
    let mut import = PartitionImport::new("clicks-0", scenario.config.clone());
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some((base, kind)) = segment_file(&file) else {
            continue;
        };
        let bytes = std::fs::read(&path).unwrap();
        match kind {
            SegmentFileKind::Log => {
                let mut reader = LogReader::new();
                let mut seg = SegmentLogBuilder::new(base);
                for chunk in bytes.chunks(100) {
                    reader.feed(chunk, &mut |b| seg.push(b));
                }
                let mtime = mtimes
                    .iter()
                    .find(|(b, _)| *b == base.0)
                    .map(|&(_, t)| Timestamp(t));
                import.add_log(base, seg.finish(reader.finish()), mtime);
            }
            SegmentFileKind::OffsetIndex => {
                import.add_offset_index(base, parse_offset_index(base, &bytes))
            }
            SegmentFileKind::TimeIndex => {
                import.add_time_index(base, parse_time_index(base, &bytes))
            }
        }
    }
    (import.finish(now, None).unwrap(), now)
}

#[test]
fn segments_and_indexes_are_what_kafka_reported() {
    for name in FIXTURES {
        for copy in ["live", "closed"] {
            let (imported, _) = import(name, copy);
            let p = &imported.partition;
            p.check_invariants();
            let want = &report(name)["final"];
            let got = p.state();
            assert_eq!(
                got.log_end_offset.0,
                want["log_end_offset"].as_i64().unwrap(),
                "{name}"
            );
            assert_eq!(
                got.log_start_offset.0,
                want["log_start_offset"].as_i64().unwrap(),
                "{name}"
            );
            let segs = want["segments"].as_array().unwrap();
            assert_eq!(
                got.segments.len(),
                segs.len(),
                "{name} {copy}: segment count"
            );
            for (i, (g, w)) in got.segments.iter().zip(segs).enumerate() {
                let ctx = format!("{name} {copy} segment {}", g.base_offset);
                assert_eq!(g.base_offset.0, w["base_offset"].as_i64().unwrap(), "{ctx}");
                assert_eq!(g.next_offset.0, w["next_offset"].as_i64().unwrap(), "{ctx}");
                assert_eq!(g.size_bytes.0, w["size_bytes"].as_i64().unwrap(), "{ctx}");
                assert_eq!(g.records as i64, w["records"].as_i64().unwrap(), "{ctx}");
                assert_eq!(
                    g.largest_timestamp.0,
                    w["largest_timestamp"].as_i64().unwrap(),
                    "{ctx}"
                );
                assert_eq!(
                    g.max_timestamp.0,
                    w["max_timestamp_so_far"].as_i64().unwrap(),
                    "{ctx}"
                );
                let oi: Vec<(i64, i64)> = g.offset_index.iter().map(|e| (e.0 .0, e.1 .0)).collect();
                assert_eq!(oi, pairs(&w["offset_index"]), "{ctx}: offset index");
                let ti: Vec<(i64, i64)> = g.time_index.iter().map(|e| (e.0 .0, e.1 .0)).collect();
                let mut want_ti = pairs(&w["time_index"]);
                let active = i + 1 == segs.len();
                if active && copy == "closed" {
                    // Closing appends the segment's max when it is past the last entry.
                    let max = (g.max_timestamp.0, g.max_timestamp.0);
                    if want_ti.last().is_none_or(|l| l.0 < max.0) && g.max_timestamp.0 >= 0 {
                        let off = p.segments()[i].offset_of_max_timestamp().0;
                        want_ti.push((max.0, off));
                    }
                }
                assert_eq!(ti, want_ti, "{ctx}: time index");
                // The files hold exactly what Kafka's rules give for the batches.
                let r = &imported.segments[i];
                assert!(
                    matches!(r.offset_index, IndexCheck::Matches { .. }),
                    "{ctx}: {:?}",
                    r.offset_index
                );
                assert!(
                    matches!(r.time_index, IndexCheck::Matches { .. }),
                    "{ctx}: {:?}",
                    r.time_index
                );
                assert!(r.damage.is_none() && r.unexpanded.is_empty(), "{ctx}");
            }
        }
    }
}

#[test]
fn lookups_are_what_kafka_answered() {
    for name in FIXTURES {
        let scenario =
            parse(&std::fs::read_to_string(root(name).join("scenario.json")).unwrap()).unwrap();
        let rep = report(name);
        for copy in ["live", "closed"] {
            let (imported, now) = import(name, copy);
            let mut n = 0;
            for (i, step) in scenario.steps.iter().enumerate() {
                let Step::Lookup(spec) = step else { continue };
                let want = &rep["steps"][i]["lookup"];
                let got = inspect(&imported, now, Some(*spec)).lookup.unwrap();
                let got = got.result.unwrap();
                assert_eq!(
                    (got.offset.0, got.timestamp.0),
                    (
                        want["offset"].as_i64().unwrap(),
                        want["timestamp"].as_i64().unwrap()
                    ),
                    "{name} {copy} step {i}: {spec:?}"
                );
                n += 1;
            }
            assert!(n > 0, "{name}: no lookups");
        }
    }
}

#[test]
fn pinned_retention_verdicts_and_the_delete_records_remedy() {
    let rep = report("pinned-retention");
    let want = &rep["steps"][6]["retention"];
    let (imported, now) = import("pinned-retention", "closed");
    assert_eq!(now.0, want["at"].as_i64().unwrap());
    let inspection = inspect(&imported, now, Some(OffsetSpec::Timestamp(Timestamp(0))));
    // Kafka kept every segment: 18 is the first survivor, 24 and 30 only because 18 survives.
    assert!(want["deleted"].as_array().unwrap().is_empty());
    assert!(inspection.retention.deleted.is_empty());
    let rows = &inspection.rows;
    assert_eq!(rows.len(), 3);
    assert!(matches!(
        rows[0].verdict,
        Verdict::NotOldEnough { future: true, .. }
    ));
    for r in &rows[1..] {
        assert_eq!(r.pinned_by, Some(Offset(18)), "segment {}", r.base_offset);
    }
    // Nothing goes before segment 18 is a week past its 2030 stamp.
    for r in rows {
        assert_eq!(
            r.deletable_from,
            Some(Timestamp(1_898_532_000_000 + 604_800_000 + 1))
        );
    }
    let future = &inspection.future;
    assert_eq!(future.len(), 1);
    assert_eq!(future[0].segment, Offset(18));
    assert_eq!(future[0].largest_timestamp, Timestamp(1_898_532_000_000));
    assert_eq!(future[0].pins, vec![Offset(24), Offset(30)]);
    assert!(future[0].diagnosis.is_some());
    // DeleteRecords to 24 (after segment 18) frees 18 by the log-start-offset pass, and then the
    // time pass takes 24 (expired): 30 is the active segment holding the high watermark's batch.
    let d = inspection.delete_records.unwrap();
    assert_eq!(d.offset, Offset(24));
    assert_eq!(
        d.deleted
            .iter()
            .map(|s| s.base_offset.0)
            .collect::<Vec<_>>(),
        vec![18, 24, 30]
    );
    assert_eq!(d.freed_bytes.0, 3060);
}

#[test]
fn exported_scenarios_replay_to_the_same_state() {
    for name in FIXTURES {
        for copy in ["live", "closed"] {
            let (imported, _) = import(name, copy);
            let json = to_scenario(&imported.partition, name);
            let scenario = parse(&json.to_string()).unwrap_or_else(|e| panic!("{name}: {e}"));
            let report = run(&scenario).unwrap();
            let mut want = imported.partition.state();
            let mut got = report.final_state;
            // The export carries every field the state reports.
            want.segments
                .iter_mut()
                .for_each(|s| s.last_modified = Timestamp(0));
            got.segments
                .iter_mut()
                .for_each(|s| s.last_modified = Timestamp(0));
            assert_eq!(got, want, "{name} {copy}");
            let replayed = scenario.partition();
            replayed.check_invariants();
            for (a, b) in replayed
                .segments()
                .iter()
                .zip(imported.partition.segments())
            {
                assert!(a.batches().eq(b.batches()), "{name}: batch boundaries");
                assert_eq!(a.record_timestamps(), b.record_timestamps(), "{name}");
                assert_eq!(a.last_modified(), b.last_modified(), "{name}");
            }
        }
    }
}
