//! `logtime inspect` given several partitions at once (files from several folders, dump text
//! with several `Dumping` blocks): each partition reported on its own, never merged; a mix that
//! cannot be told apart refused naming the files; binary files named for what they are; and the
//! log directory's "oldest stamp" column is the oldest record's.

use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

mod common;

fn logtime(args: &[&str]) -> std::process::Output {
    common::logtime(&args.iter().map(OsStr::new).collect::<Vec<_>>())
}

fn ok(args: &[&str]) -> String {
    let out = logtime(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

fn fails(args: &[&str]) -> String {
    let out = logtime(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    err.trim_end().to_string()
}

fn kafka(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/import/kafka")
        .join(name)
        .join("closed/clicks-0")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("logtime-parts-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `a-0` holds pinned-retention's segment 18, `b-0` log-append-time's segment 0.
fn two_partitions(d: &Path) -> (String, String) {
    let (a, b) = (d.join("a-0"), d.join("b-0"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let (fa, fb) = (
        a.join("00000000000000000018.log"),
        b.join("00000000000000000000.log"),
    );
    std::fs::copy(
        kafka("pinned-retention").join("00000000000000000018.log"),
        &fa,
    )
    .unwrap();
    std::fs::copy(
        kafka("log-append-time").join("00000000000000000000.log"),
        &fb,
    )
    .unwrap();
    (
        fa.to_string_lossy().to_string(),
        fb.to_string_lossy().to_string(),
    )
}

#[test]
fn files_of_two_partitions_are_reported_each_on_its_own() {
    let d = tmp("files");
    let (a, b) = two_partitions(&d);
    let out = ok(&["inspect", &a, &b, "--now", "0"]);
    assert!(
        out.starts_with("a-0: 1 segment, 1020 B, offsets 18–23"),
        "{out}"
    );
    assert!(
        out.contains("\nb-0: 1 segment, 449 B, offsets 0–2"),
        "{out}"
    );
    let v: Value = serde_json::from_str(&ok(&["inspect", &a, &b, "--now", "0", "--json"])).unwrap();
    let parts = v["partitions"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn one_export_for_two_partitions_is_refused() {
    let d = tmp("export");
    let (a, b) = two_partitions(&d);
    let f = d.join("s.json");
    let e = fails(&["inspect", &a, &b, "--export-scenario", f.to_str().unwrap()]);
    assert_eq!(
        e,
        "logtime: inspect: --export-scenario writes one partition, and 2 were given: give one partition's files"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_same_file_twice_is_refused_naming_it() {
    let d = tmp("twice");
    let (a, _) = two_partitions(&d);
    let e = fails(&["inspect", &a, &a]);
    assert_eq!(
        e,
        format!("logtime: inspect: {a} and {a} are the same segment file: give each partition's files once")
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn dump_text_with_two_dumping_blocks_is_two_partitions() {
    let d = tmp("dump");
    let (a, b) = two_partitions(&d);
    let dump = |path: &str, base: i64| {
        format!(
            "Dumping {path}\nLog starting offset: {base}\nbaseOffset: {base} lastOffset: {base} count: 1 baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 partitionLeaderEpoch: 0 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty position: 0 CreateTime: 1762250402000 size: 108 magic: 2 compresscodec: none crc: 57628571 isvalid: true\n"
        )
    };
    let text = format!(
        "$ kafka-dump-log.sh --files {a},{b}\n{}{}",
        dump(&a, 18),
        dump(&b, 0)
    );
    let f = d.join("dump.txt");
    std::fs::write(&f, text).unwrap();
    let out = ok(&["inspect", f.to_str().unwrap(), "--now", "1762250402000"]);
    assert!(
        out.starts_with("a-0: 1 segment, 108 B, offsets 18–18"),
        "{out}"
    );
    assert!(
        out.contains("\nb-0: 1 segment, 108 B, offsets 0–0"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn index_only_dump_is_reported() {
    let d = tmp("index");
    let f = d.join("dump.txt");
    std::fs::write(
        &f,
        "Dumping /d/c-0/00000000000000000018.index\noffset: 20 position: 340\nDumping /d/c-0/00000000000000000018.timeindex\ntimestamp: 1803927600000 offset: 20\n",
    )
    .unwrap();
    let out = ok(&["inspect", f.to_str().unwrap(), "--now", "0"]);
    assert!(
        out.starts_with("c-0: index files only (1 segment), no .log: retention, lookups and sizes need the segment's .log (or its dump)\n"),
        "{out}"
    );
    assert!(out.contains("20 (byte 340)"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_binary_checkpoint_is_named_as_such() {
    let d = tmp("checkpoint");
    let f = d.join("00000000000000000123-0000000001.checkpoint");
    std::fs::write(&f, [0u8, 1, 2, 255, 254]).unwrap();
    let e = fails(&["inspect", f.to_str().unwrap()]);
    assert_eq!(
        e,
        format!("logtime: inspect: {}: a kraft snapshot (.checkpoint), a binary file: logtime reads segment files (.log, .index, .timeindex) and kafka-dump-log text; give the __cluster_metadata-0 folder's .log files instead", f.display())
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_directory_table_shows_the_oldest_record_stamp() {
    // pinned-retention's segment 18 holds a far-future stamp (its largest) and records of
    // 2027-03-06: the oldest data is 2027's, not 2030's.
    let d = tmp("oldest");
    two_partitions(&d);
    let v: Value = serde_json::from_str(&ok(&[
        "inspect",
        d.to_str().unwrap(),
        "--now",
        "0",
        "--json",
    ]))
    .unwrap();
    let a = v["partitions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["topic_partition"] == "a-0")
        .unwrap();
    assert_eq!(a["oldest"], 1_803_924_000_000i64);
    assert_eq!(a["newest"], 1_898_532_000_000i64);
    let _ = std::fs::remove_dir_all(&d);
}

/// A folder named after an internal topic, holding pinned-retention's three segments.
fn internal(d: &Path, name: &str) -> String {
    let p = d.join(name);
    std::fs::create_dir_all(&p).unwrap();
    for base in [18, 24, 30] {
        let f = format!("{base:020}.log");
        std::fs::copy(kafka("pinned-retention").join(&f), p.join(&f)).unwrap();
    }
    p.to_string_lossy().to_string()
}

#[test]
fn consumer_offsets_get_compact_verdicts_and_say_why() {
    let d = tmp("offsets");
    let p = internal(&d, "__consumer_offsets-3");
    let out = ok(&["inspect", &p, "--now", "2030-06-01T00:00:00Z"]);
    assert!(
        out.contains("\nconfigs: segment.bytes=104857600, cleanup.policy=compact (kafka creates __consumer_offsets with these: GroupCoordinator.groupMetadataTopicConfigs (offsets.topic.segment.bytes)); every other config is kafka's default\n"),
        "{out}"
    );
    assert_eq!(out.matches("kept: compact only").count(), 3, "{out}");
    assert!(!out.contains("deleted (retention.ms)"), "{out}");
    // A config the person gives wins over the internal topic's.
    let out = ok(&[
        "inspect",
        &p,
        "--now",
        "2030-06-01T00:00:00Z",
        "--config",
        "cleanup.policy=delete",
    ]);
    assert!(out.contains("cleanup.policy=delete (given)"), "{out}");
    assert!(out.contains("deleted (retention.ms)"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_metadata_log_is_never_trimmed_by_retention_ms() {
    let d = tmp("metadata");
    let p = internal(&d, "__cluster_metadata-0");
    let out = ok(&["inspect", &p, "--now", "2030-06-01T00:00:00Z"]);
    assert!(
        out.contains("\nnote: the KRaft metadata log is trimmed after snapshots (metadata.max.retention.ms, metadata.max.retention.bytes, only segments a snapshot covers), never by retention.ms: no time or size verdict applies\n"),
        "{out}"
    );
    assert!(!out.contains("retention check now deletes"), "{out}");
    let v: Value = serde_json::from_str(&ok(&["inspect", &p, "--now", "0", "--json"])).unwrap();
    assert_eq!(v["internal_topic"]["topic"], "__cluster_metadata");
    assert_eq!(v["configs"][0]["origin"]["kind"], "internal_topic");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn every_internal_topic_is_known() {
    for (tp, policy) in [
        ("__consumer_offsets-0", Some("compact")),
        ("__transaction_state-49", Some("compact")),
        ("__share_group_state-0", Some("delete")),
        ("__remote_log_metadata-0", Some("delete")),
        ("__cluster_metadata-0", None),
    ] {
        let t = logtime_core::import::internal_topic(tp).unwrap();
        let p = t.configs.iter().find(|(n, _)| *n == "cleanup.policy");
        assert_eq!(p.map(|x| x.1), policy, "{tp}");
    }
    assert!(logtime_core::import::internal_topic("clicks-0").is_none());
    assert!(logtime_core::import::internal_topic("__consumer_offsets_backup-0").is_none());
}
