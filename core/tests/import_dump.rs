//! `kafka-dump-log` text (written by `scripts/gen-dump-fixtures.py` in the formats of Kafka 1.x,
//! 2.x and 3.x/4.x from the Kafka fixtures, plus output quoted in public sources) imports to the
//! partition the segment files give: same segments, sizes, offsets and indexes, and with
//! `--deep-iteration` the same lookups Kafka answered.

mod common;

use common::pairs;
use logtime_core::import::{inspect, parse_dump, DumpParser, Imported, NotExpanded};
use logtime_core::scenario::{parse, Step};
use logtime_model::{Timestamp, TraceStep};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn path(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/import")
        .join(p)
}

fn text(p: &str) -> String {
    let bytes = std::fs::read(path(p)).unwrap();
    // Payloads are raw bytes (latin-1), as the tool prints them.
    bytes.iter().map(|&b| b as char).collect()
}

/// The fixture's scenario, report and the import of `dump` under its config.
fn import(fixture: &str, dump: &str) -> (Imported, Value, Timestamp) {
    let root = format!("kafka/{fixture}");
    let scenario =
        parse(&std::fs::read_to_string(path(&format!("{root}/scenario.json"))).unwrap()).unwrap();
    let report: Value = serde_json::from_str(
        &std::fs::read_to_string(path(&format!("{root}/report.json"))).unwrap(),
    )
    .unwrap();
    let now = Timestamp(
        report["steps"].as_array().unwrap().last().unwrap()["now"]
            .as_i64()
            .unwrap(),
    );
    let out = parse_dump(&text(&format!("dump/{dump}"))).unwrap_or_else(|e| panic!("{dump}: {e}"));
    assert_eq!(out.topic_partition().as_deref(), Some("clicks-0"));
    let imported = out
        .into_import("clicks-0", scenario.config.clone())
        .finish(now, None)
        .unwrap_or_else(|e| panic!("{dump}: {e}"));
    imported.partition.check_invariants();
    (imported, report, now)
}

#[test]
fn dumps_import_to_what_kafka_reported() {
    let cases = [
        (
            "lookup-out-of-order",
            "lookup-out-of-order-live-3x.txt",
            false,
        ),
        (
            "lookup-out-of-order",
            "lookup-out-of-order-live-3x-deep.txt",
            true,
        ),
        (
            "no-timestamp-and-keys",
            "no-timestamp-and-keys-closed-3x-data.txt",
            true,
        ),
        ("log-append-time", "log-append-time-live-2x-deep.txt", true),
        ("pinned-retention", "pinned-retention-closed-1x.txt", false),
        ("far-offsets", "far-offsets-closed-3x.txt", false),
    ];
    for (fixture, dump, deep) in cases {
        let (imported, report, now) = import(fixture, dump);
        let want = &report["final"];
        let got = imported.partition.state();
        assert_eq!(
            got.log_end_offset.0,
            want["log_end_offset"].as_i64().unwrap(),
            "{dump}"
        );
        let segs = want["segments"].as_array().unwrap();
        assert_eq!(got.segments.len(), segs.len(), "{dump}");
        let closed = dump.contains("closed");
        for (i, (g, w)) in got.segments.iter().zip(segs).enumerate() {
            let ctx = format!("{dump} segment {}", g.base_offset);
            assert_eq!(g.base_offset.0, w["base_offset"].as_i64().unwrap(), "{ctx}");
            assert_eq!(g.next_offset.0, w["next_offset"].as_i64().unwrap(), "{ctx}");
            assert_eq!(g.size_bytes.0, w["size_bytes"].as_i64().unwrap(), "{ctx}");
            assert_eq!(
                g.max_timestamp.0,
                w["max_timestamp_so_far"].as_i64().unwrap(),
                "{ctx}"
            );
            let oi: Vec<(i64, i64)> = g.offset_index.iter().map(|e| (e.0 .0, e.1 .0)).collect();
            assert_eq!(oi, pairs(&w["offset_index"]), "{ctx}");
            let ti: Vec<(i64, i64)> = g.time_index.iter().map(|e| (e.0 .0, e.1 .0)).collect();
            let want_ti = pairs(&w["time_index"]);
            if closed && i + 1 == segs.len() {
                assert!(ti.starts_with(&want_ti), "{ctx}");
            } else {
                assert_eq!(ti, want_ti, "{ctx}");
            }
        }
        // With records listed, lookups are Kafka's; without, a lookup that opens a batch says
        // the record is unknown unless the batch holds one record.
        let scenario = parse(
            &std::fs::read_to_string(path(&format!("kafka/{fixture}/scenario.json"))).unwrap(),
        )
        .unwrap();
        for (i, step) in scenario.steps.iter().enumerate() {
            let Step::Lookup(spec) = step else { continue };
            let answer = inspect(&imported, now, Some(*spec)).lookup.unwrap();
            let l = answer.result.unwrap();
            let w = &report["steps"][i]["lookup"];
            match (&answer.caveat, deep) {
                (Some(c), false) => assert!(c.contains("not listed"), "{dump}: {c}"),
                _ => {
                    let by_mtime = l.trace.iter().any(|t| {
                        matches!(
                            t,
                            TraceStep::SegmentChosen {
                                record_time: false,
                                ..
                            }
                        )
                    });
                    // A segment without record stamps is chosen by its .log modification time,
                    // which a dump does not carry (the clock stands in).
                    if !by_mtime {
                        assert_eq!(l.offset.0, w["offset"].as_i64().unwrap(), "{dump} step {i}");
                    }
                }
            }
        }
        if !deep {
            assert!(imported
                .unexpanded()
                .all(|u| u.why == NotExpanded::HeaderOnly));
        }
    }
}

#[test]
fn print_data_log_of_compressed_batches() {
    let out = parse_dump(&text("dump/v2-compressed-3x-data.txt")).unwrap();
    let imported = out
        .into_import(
            "v2",
            logtime_model::Config::defaults(logtime_model::KafkaVersion::V4_0),
        )
        .finish(Timestamp(1_804_928_500_000), None)
        .unwrap();
    imported.partition.check_invariants();
    assert_eq!(imported.partition.log_end_offset().0, 1_843_200 + 27);
    assert_eq!(imported.unexpanded().count(), 0);
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(path("encoded/v2-compressed/expected.json")).unwrap(),
    )
    .unwrap();
    let seg = &imported.partition.segments()[0];
    let mut stamps = Vec::new();
    for b in expected["batches"].as_array().unwrap() {
        stamps.extend(
            b["timestamps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_i64().unwrap()),
        );
    }
    assert_eq!(seg.record_timestamps(), &stamps[..]);
}

#[test]
fn public_outputs() {
    // Kafka 3.x, quoted in KIP-1057: one batch, header only.
    let out = parse_dump(&text("dump/public/kip-1057-remote-log-metadata.txt")).unwrap();
    assert_eq!(
        out.topic_partition().as_deref(),
        Some("__remote_log_metadata-0")
    );
    let imported = out
        .into_import(
            "t",
            logtime_model::Config::defaults(logtime_model::KafkaVersion::V4_0),
        )
        .finish(Timestamp(1_718_198_600_000), None)
        .unwrap();
    let s = &imported.partition.state().segments[0];
    assert_eq!(
        (s.size_bytes.0, s.records, s.max_timestamp.0),
        (177, 1, 1_718_198_522_340)
    );
    // Kafka 1.x --deep-iteration, quoted in osquery pull request 4181: records carry their
    // batch's position; a fragment from byte 76270 is refused with the line that shows it.
    let e = parse_dump(&text("dump/public/osquery-4181-kafka-1x-deep.txt")).unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    assert!(e.to_string().contains("position 76270, not 0"), "{e}");
}

#[test]
fn malformed_dumps_name_the_line() {
    let cases = [
        ("offset: 1 position: 0\n", 1, "expected a \"Dumping FILE\" line"),
        ("Dumping a/00000000000000000000.index\noffset: x position: 0\n", 2, "offset: \"x\" is not a number"),
        ("Dumping a/00000000000000000000.log\nbaseOffset: 0 lastOffset: 0 position: 0 size: 70 magic: 7 CreateTime: 5\n", 2, "magic: 7"),
        ("Dumping a/00000000000000000000.log\nhello world\n", 2, "not a line kafka-dump-log writes"),
        ("Dumping a/00000000000000000000.log\n| offset: 0 CreateTime: 5 keySize: 1 valueSize: 1\n", 2, "a record line before any batch line"),
        ("", 0, "no \"Dumping FILE\" section"),
    ];
    for (t, line, reason) in cases {
        let e = parse_dump(t).unwrap_err();
        assert_eq!(e.line, line, "{t:?}: {e}");
        assert!(e.to_string().contains(reason), "{t:?}: {e}");
    }
    // Line by line gives the same as whole text.
    let t = text("dump/lookup-out-of-order-live-3x-deep.txt");
    let mut p = DumpParser::new();
    for l in t.lines() {
        p.feed_line(l).unwrap();
    }
    assert_eq!(p.finish().unwrap(), parse_dump(&t).unwrap());
}
