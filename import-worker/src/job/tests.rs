//! The import of real partitions as the page runs it: folders Kafka wrote, in any chunk size,
//! checked against what Kafka reported about them; dump text; refusals.

use super::*;
use logtime_model::KafkaVersion;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/import")
}

/// The files of a folder as a browser gives a dropped folder: paths under its name.
fn folder_files(dir: &Path) -> (Vec<Picked>, Vec<Vec<u8>>) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    let top = dir.file_name().unwrap().to_string_lossy().to_string();
    let bytes: Vec<Vec<u8>> = names
        .iter()
        .map(|n| std::fs::read(dir.join(n)).unwrap())
        .collect();
    let picked = names
        .iter()
        .zip(&bytes)
        .map(|(n, b)| Picked {
            name: n.clone(),
            path: format!("{top}/{n}"),
            size: b.len() as u64,
            modified: None,
        })
        .collect();
    (picked, bytes)
}

/// Runs a job over `files`, `chunk` bytes at a time, as the page does.
fn run(files: Vec<Picked>, bytes: &[Vec<u8>], chunk: usize, now: i64) -> Result<Done, String> {
    let plan = plan(&files)?;
    let mut job = Job::new(files, plan, Config::defaults(KafkaVersion::V3_6));
    for n in 0..job.plan().reads.len() {
        let i = job.plan().reads[n].0;
        job.begin(n);
        for c in bytes[i].chunks(chunk) {
            job.feed(c)?;
        }
        job.end()?;
    }
    let (done, total) = job.progress();
    assert_eq!(done, total);
    job.finish(Timestamp(now))
}

fn report(name: &str) -> Value {
    let text = std::fs::read_to_string(fixtures().join("kafka").join(name).join("report.json"));
    serde_json::from_str(&text.unwrap()).unwrap()
}

/// The imported scenario's partition against what Kafka reported at the end.
fn assert_kafka_state(done: &Done, report: &Value, what: &str) {
    let sc = logtime_core::scenario::parse(&done.scenario).unwrap();
    let p = sc.try_partition().unwrap();
    let fin = &report["final"];
    assert_eq!(
        p.log_start_offset().0,
        fin["log_start_offset"].as_i64().unwrap(),
        "{what}"
    );
    assert_eq!(
        p.log_end_offset().0,
        fin["log_end_offset"].as_i64().unwrap(),
        "{what}"
    );
    let want = fin["segments"].as_array().unwrap();
    assert_eq!(p.segments().len(), want.len(), "{what}");
    for (s, w) in p.segments().iter().zip(want) {
        assert_eq!(
            s.base_offset().0,
            w["base_offset"].as_i64().unwrap(),
            "{what}"
        );
        assert_eq!(
            s.next_offset().0,
            w["next_offset"].as_i64().unwrap(),
            "{what}"
        );
        assert_eq!(s.size().0, w["size_bytes"].as_i64().unwrap(), "{what}");
        assert_eq!(
            s.largest_timestamp().0,
            w["largest_timestamp"].as_i64().unwrap(),
            "{what}"
        );
        let oi: Vec<Value> = s
            .offset_index()
            .entries()
            .map(|(o, pos)| serde_json::json!([o, pos]))
            .collect();
        assert_eq!(Value::Array(oi), w["offset_index"], "{what}");
    }
}

#[test]
fn a_dropped_partition_folder_in_any_chunk_size_is_what_kafka_reported() {
    for name in [
        "pinned-retention",
        "lookup-out-of-order",
        "far-offsets",
        "log-append-time",
    ] {
        let r = report(name);
        let now = r["steps"].as_array().unwrap().last().unwrap()["now"]
            .as_i64()
            .unwrap();
        let dir = fixtures().join("kafka").join(name).join("live/clicks-0");
        let (files, bytes) = folder_files(&dir);
        let whole = run(files.clone(), &bytes, usize::MAX, now).unwrap();
        assert_kafka_state(&whole, &r, name);
        // Chunks that cut batches and lines anywhere give the same partition.
        let small = run(files, &bytes, 7, now).unwrap();
        assert_eq!(small, whole, "{name}");
        assert!(whole.scenario.contains("\"topic_partition\":\"clicks-0\""));
    }
}

#[test]
fn other_files_in_the_folder_are_skipped_and_named() {
    let dir = fixtures().join("kafka/pinned-retention/live/clicks-0");
    let (files, _) = folder_files(&dir);
    let p = plan(&files).unwrap();
    assert_eq!(p.topic_partition, "clicks-0");
    assert_eq!(p.reads.len(), 9);
    assert!(p.skipped.contains(&"leader-epoch-checkpoint".to_string()));
    assert!(p
        .skipped
        .contains(&"00000000000000000018.snapshot".to_string()));
}

#[test]
fn files_of_two_partitions_are_refused() {
    let f = |path: &str| Picked {
        name: path.rsplit('/').next().unwrap().into(),
        path: path.into(),
        size: 0,
        modified: None,
    };
    let e = plan(&[
        f("a-0/00000000000000000000.log"),
        f("b-0/00000000000000000000.log"),
    ])
    .unwrap_err();
    assert!(e.contains("2 folders (a-0, b-0)"), "{e}");
    assert_eq!(plan(&[]).unwrap_err(), "no files were given");
    // Bare files (a file picker) take the default name.
    let p = plan(&[f("00000000000000000000.log")]).unwrap();
    assert_eq!(p.topic_partition, "partition");
    let mut big = f("00000000000000000000.index");
    big.size = MAX_INDEX_BYTES + 1;
    assert!(plan(&[big]).unwrap_err().contains("larger than any index"));
}

#[test]
fn dump_text_from_a_file_or_pasted_gives_the_same_partition() {
    let path = fixtures().join("dump/pinned-retention-closed-1x.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let r = report("pinned-retention");
    let now = r["steps"].as_array().unwrap().last().unwrap()["now"]
        .as_i64()
        .unwrap();
    let pasted = paste(&text, Config::defaults(KafkaVersion::V3_6), Timestamp(now)).unwrap();
    assert_kafka_state(&pasted, &r, "pasted dump");
    // Windows line ends and chunks that split lines.
    let crlf = text.replace('\n', "\r\n").into_bytes();
    let file = Picked {
        name: "dump.txt".into(),
        path: "dump.txt".into(),
        size: crlf.len() as u64,
        modified: None,
    };
    let read = run(vec![file], &[crlf], 5, now).unwrap();
    assert_eq!(read.scenario, pasted.scenario);
}

#[test]
fn malformed_input_says_where() {
    let now = 1_804_723_200_000;
    let junk =
        b"Dumping x/00000000000000000000.log\nStarting offset: 0\n\xff\xfe binary\n".to_vec();
    let file = Picked {
        name: "notes.bin".into(),
        path: "notes.bin".into(),
        size: junk.len() as u64,
        modified: None,
    };
    let e = run(vec![file], &[junk], 4, now).unwrap_err();
    assert!(
        e.starts_with("notes.bin: not kafka-dump-log output: line 3 is not text"),
        "{e}"
    );
    let e = paste(
        "hello\n",
        Config::defaults(KafkaVersion::V3_6),
        Timestamp(now),
    )
    .unwrap_err();
    assert!(
        e.starts_with("the pasted text: not kafka-dump-log output: line 1"),
        "{e}"
    );
    assert!(paste("  \n", Config::defaults(KafkaVersion::V3_6), Timestamp(now)).is_err());
    // A damaged segment is tolerated as Kafka's recovery does, and the note says where.
    let dir = fixtures().join("encoded/truncated-tail");
    let log = std::fs::read(dir.join("00000000000001843200.log")).unwrap();
    let file = Picked {
        name: "00000000000001843200.log".into(),
        path: "00000000000001843200.log".into(),
        size: log.len() as u64,
        modified: None,
    };
    let d = run(vec![file], &[log], 100, now).unwrap();
    assert!(
        d.notes
            .iter()
            .any(|n| n.contains("invalid batch at byte 1097")
                && n.contains("keeps the first 1097 of 1168 bytes")),
        "{:?}",
        d.notes
    );
    // An index without its log.
    let idx = std::fs::read(
        fixtures().join("kafka/pinned-retention/live/clicks-0/00000000000000000018.index"),
    )
    .unwrap();
    let file = Picked {
        name: "00000000000000000018.index".into(),
        path: "00000000000000000018.index".into(),
        size: idx.len() as u64,
        modified: None,
    };
    let e = run(vec![file], &[idx], 100, now).unwrap_err();
    assert_eq!(e, "segment 18: index files without a .log file");
}

#[test]
fn compressed_batches_are_read_at_batch_level_and_say_so() {
    let dir = fixtures().join("encoded/v2-compressed");
    let log = std::fs::read(dir.join("00000000000001843200.log")).unwrap();
    let file = Picked {
        name: "00000000000001843200.log".into(),
        path: "00000000000001843200.log".into(),
        size: log.len() as u64,
        modified: None,
    };
    let d = run(vec![file], &[log], 64, 1_804_928_410_000).unwrap();
    let sc = logtime_core::scenario::parse(&d.scenario).unwrap();
    let p = sc.try_partition().unwrap();
    assert_eq!(p.log_start_offset(), Offset(1_843_200));
    assert_eq!(p.log_end_offset(), Offset(1_843_227));
    if !import::CODECS_AVAILABLE {
        assert_eq!(d.notes[0], CODEC_NOTE);
        assert!(
            d.notes
                .iter()
                .any(|n| n.contains("gzip records not expanded")),
            "{:?}",
            d.notes
        );
    }
}

/// A broker's log directory picked whole: the partition's segments read under the configs
/// the KRaft metadata log (written by Kafka's own code) gives its topic on the node
/// `meta.properties` names, and those configs said in core's words.
#[test]
fn a_broker_directory_gives_the_configs_of_its_metadata_log() {
    let top = fixtures().join("kafka").join("metadata-log");
    let mut files = Vec::new();
    let mut bytes = Vec::new();
    for rel in [
        "meta.properties",
        "__cluster_metadata-0/00000000000000000000.log",
        "clicks-0/00000000000000000018.log",
        "clicks-0/00000000000000000024.log",
        "clicks-0/00000000000000000024.index",
        "clicks-0/00000000000000000030.log",
    ] {
        let b = std::fs::read(top.join(rel)).unwrap();
        files.push(Picked {
            name: rel.rsplit('/').next().unwrap().into(),
            path: format!("metadata-log/{rel}"),
            size: b.len() as u64,
            modified: None,
        });
        bytes.push(b);
    }
    let p = plan(&files).unwrap();
    assert_eq!(p.topic_partition, "clicks-0");
    assert_eq!(p.reads[0], (0, Kind::MetaProperties));
    assert_eq!(p.reads[1], (1, Kind::Metadata));
    assert!(p.skipped.is_empty(), "{:?}", p.skipped);
    let d = run(files, &bytes, 100, 1_805_500_800_000).unwrap();
    // Node 1: node 3's log.cleanup.policy=compact does not apply; the topic's later
    // retention.ms does.
    assert_eq!(
        d.configs.as_deref(),
        Some("configs: retention.ms=7200000 (the metadata log); every other config is kafka's default")
    );
    let sc = logtime_core::scenario::parse(&d.scenario).unwrap();
    assert_eq!(
        sc.try_partition().unwrap().config().topic.retention_ms,
        7_200_000
    );
    // Without the metadata log, the same partition has no configs line.
    let (files, bytes) = folder_files(&top.join("clicks-0"));
    assert_eq!(
        run(files, &bytes, 100, 1_805_500_800_000).unwrap().configs,
        None
    );
}
