//! Segment files written by an independent encoder (kafka-python's record batch builders, see
//! `scripts/gen-import-fixtures.py`): compressed v2 batches, v0/v1 message sets, and damaged
//! copies. The reader must give each batch's position, size, offsets, max timestamp and record
//! timestamps as the generator wrote them, whatever the chunking, and stop at the first invalid
//! batch where Kafka's recovery would. Without the `codecs` feature compressed batches must be
//! reported as not expanded, with their headers still read.

use logtime_core::import::{
    read_log, to_scenario, Compression, DamageKind, LogBatch, LogReader, NotExpanded,
    PartitionImport, Records, SegmentLogBuilder, CODECS_AVAILABLE,
};
use logtime_core::scenario::{parse, run};
use logtime_model::{Config, KafkaVersion, Offset, Timestamp};
use serde_json::Value;
use std::path::{Path, PathBuf};

const FOLDERS: &[&str] = &[
    "v2-compressed",
    "legacy-v0-v1",
    "truncated-tail",
    "flipped-crc",
    "legacy-flipped-crc",
    "zeroed-tail",
];

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/import/encoded")
        .join(name)
}

fn load(name: &str) -> (Vec<u8>, Value) {
    let d = dir(name);
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("expected.json")).unwrap()).unwrap();
    let base = expected["base_offset"].as_i64().unwrap();
    let log = std::fs::read(d.join(format!("{base:020}.log"))).unwrap();
    (log, expected)
}

fn chunked(bytes: &[u8], n: usize) -> (Vec<LogBatch>, logtime_core::import::LogEnd) {
    let mut r = LogReader::new();
    let mut out = Vec::new();
    for c in bytes.chunks(n) {
        r.feed(c, &mut |b| out.push(b));
    }
    (out, r.finish())
}

#[test]
fn batches_are_what_the_encoder_wrote() {
    for name in FOLDERS {
        let (bytes, want) = load(name);
        let (whole, end) = read_log(&bytes);
        for n in [1, 7, 61, 4096] {
            let (b, e) = chunked(&bytes, n);
            assert_eq!(b, whole, "{name}: chunks of {n}");
            assert_eq!(e, end, "{name}: chunks of {n}");
        }
        let batches = want["batches"].as_array().unwrap();
        assert_eq!(whole.len(), batches.len(), "{name}: batch count");
        assert_eq!(
            end.valid_bytes,
            want["valid_bytes"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(end.file_bytes, bytes.len() as u64);
        match want["damage"].as_object() {
            None => assert_eq!(end.damage, None, "{name}"),
            Some(d) => {
                let damage = end
                    .damage
                    .clone()
                    .unwrap_or_else(|| panic!("{name}: no damage"));
                assert_eq!(damage.position, d["position"].as_u64().unwrap(), "{name}");
                let kind = match damage.kind {
                    DamageKind::Truncated { .. } => "truncated",
                    DamageKind::CrcMismatch { .. } => "crc_mismatch",
                    DamageKind::SizeTooSmall { .. } => "size_too_small",
                    _ => "other",
                };
                assert_eq!(kind, d["kind"].as_str().unwrap(), "{name}: {damage}");
                assert!(damage
                    .to_string()
                    .contains(&format!("at byte {}", damage.position)));
            }
        }
        for (got, w) in whole.iter().zip(batches) {
            let ctx = format!("{name}: batch at {}", got.position);
            assert_eq!(got.position, w["position"].as_u64().unwrap(), "{ctx}");
            assert_eq!(got.size as u64, w["size"].as_u64().unwrap(), "{ctx}");
            assert_eq!(got.magic as u64, w["magic"].as_u64().unwrap(), "{ctx}");
            assert_eq!(
                got.compression.name(),
                w["codec"].as_str().unwrap(),
                "{ctx}"
            );
            assert_eq!(
                got.last_offset.0,
                w["last_offset"].as_i64().unwrap(),
                "{ctx}"
            );
            assert_eq!(
                got.max_timestamp.0,
                w["max_timestamp"].as_i64().unwrap(),
                "{ctx}"
            );
            let stamps: Vec<i64> = w["timestamps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_i64().unwrap())
                .collect();
            match &got.records {
                Records::Expanded { records } => {
                    assert_eq!(
                        got.base_offset.0,
                        w["base_offset"].as_i64().unwrap(),
                        "{ctx}"
                    );
                    let ts: Vec<i64> = records.iter().map(|r| r.timestamp.0).collect();
                    assert_eq!(ts, stamps, "{ctx}");
                    let offs: Vec<i64> = records.iter().map(|r| r.offset.0).collect();
                    let first = w["base_offset"].as_i64().unwrap();
                    assert_eq!(
                        offs,
                        (first..first + stamps.len() as i64).collect::<Vec<_>>()
                    );
                }
                Records::NotExpanded { why } => {
                    let codecs = CODECS_AVAILABLE;
                    assert!(!codecs, "{ctx}: not expanded: {why}");
                    assert_ne!(got.compression, Compression::None, "{ctx}");
                    assert_eq!(
                        why,
                        &NotExpanded::CodecNotCompiled {
                            codec: got.compression
                        }
                    );
                }
            }
        }
    }
}

#[test]
fn keys_are_null_or_empty_or_sized() {
    let (bytes, _) = load("v2-compressed");
    let (batches, _) = read_log(&bytes);
    let Records::Expanded { records } = &batches[0].records else {
        panic!("uncompressed");
    };
    // A null key and an empty key are different things.
    assert_eq!(records[0].key_bytes, None);
    assert_eq!(records[1].key_bytes, Some(0));
    assert_eq!(records[1].headers, 1);
    assert_eq!(batches[7].producer_id, 42);
    assert_eq!(batches[7].base_sequence, 7);
}

fn import(name: &str) -> logtime_core::import::Imported {
    let (bytes, want) = load(name);
    let base = Offset(want["base_offset"].as_i64().unwrap());
    let mut seg = SegmentLogBuilder::new(base);
    let mut r = LogReader::new();
    r.feed(&bytes, &mut |b| seg.push(b));
    let mut import = PartitionImport::new("t-0", Config::defaults(KafkaVersion::V4_0));
    import.add_log(
        base,
        seg.finish(r.finish()),
        Some(Timestamp(1_804_928_400_000)),
    );
    import.finish(Timestamp(1_804_928_500_000), None).unwrap()
}

#[test]
fn encoded_segments_import_and_round_trip() {
    for name in FOLDERS {
        let imported = import(name);
        let p = &imported.partition;
        p.check_invariants();
        let (_, want) = load(name);
        let batches = want["batches"].as_array().unwrap();
        assert_eq!(p.segments()[0].batch_count(), batches.len(), "{name}");
        assert_eq!(
            p.size().0 as u64,
            want["valid_bytes"].as_u64().unwrap(),
            "{name}: the valid size Kafka's recovery keeps"
        );
        let report = &imported.segments[0];
        assert_eq!(report.damage.is_some(), !want["damage"].is_null(), "{name}");
        // Every folder holds compressed batches.
        assert_eq!(report.unexpanded.is_empty(), CODECS_AVAILABLE, "{name}");
        let json = to_scenario(p, name);
        let replayed = run(&parse(&json.to_string()).unwrap()).unwrap();
        assert_eq!(
            replayed.final_state.segments[0].time_index,
            p.state().segments[0].time_index
        );
        assert_eq!(replayed.final_state.log_end_offset, p.log_end_offset());
    }
}
