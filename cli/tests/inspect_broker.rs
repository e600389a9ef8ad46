//! A broker's log directory with its KRaft metadata log: `logtime inspect` reads TopicRecords
//! and ConfigRecords (topic and broker configs, later overrides, deletions by a null value,
//! removed topics) and inspects each partition with the configs the broker had, saying where
//! each came from; `meta.properties` names the cluster and the node. The metadata log here is
//! written by the encoder below, after Kafka's record schemas (`TopicRecord`, `ConfigRecord`,
//! `RemoveTopicRecord`, flexible versions: compact strings and an empty tagged-field section)
//! framed as `MetadataRecordSerde` does, in uncompressed v2 batches. The same encoder writes a
//! compacted `__consumer_offsets` segment (offsets missing between batches).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

mod common;

fn logtime(args: &[&str]) -> String {
    let out = common::logtime(&args.iter().map(OsStr::new).collect::<Vec<_>>());
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn crc32c(data: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in data {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 == 1 {
                (c >> 1) ^ 0x82F6_3B78
            } else {
                c >> 1
            };
        }
    }
    !c
}

fn uvarint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn varint(out: &mut Vec<u8>, v: i64) {
    uvarint(out, ((v << 1) ^ (v >> 63)) as u64);
}

fn compact(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        None => out.push(0),
        Some(s) => {
            uvarint(out, s.len() as u64 + 1);
            out.extend(s.as_bytes());
        }
    }
}

/// `MetadataRecordSerde`: frame version 1, api key, version 0, the message, no tagged fields.
fn message(api_key: u64, body: &[u8]) -> Vec<u8> {
    let mut v = vec![];
    uvarint(&mut v, 1);
    uvarint(&mut v, api_key);
    uvarint(&mut v, 0);
    v.extend(body);
    v.push(0);
    v
}

fn topic(name: &str, id: u8) -> Vec<u8> {
    let mut b = vec![];
    compact(&mut b, Some(name));
    b.extend([id; 16]);
    message(2, &b)
}

fn config(kind: i8, resource: &str, name: &str, value: Option<&str>) -> Vec<u8> {
    let mut b = vec![kind as u8];
    compact(&mut b, Some(resource));
    compact(&mut b, Some(name));
    compact(&mut b, value);
    message(4, &b)
}

fn remove(id: u8) -> Vec<u8> {
    message(9, &[id; 16])
}

/// One uncompressed v2 batch at `base` holding `values` as records without keys.
fn batch(base: i64, values: &[Vec<u8>]) -> Vec<u8> {
    let mut records = vec![];
    for (i, v) in values.iter().enumerate() {
        let mut r = vec![0u8];
        varint(&mut r, 0);
        varint(&mut r, i as i64);
        varint(&mut r, -1);
        varint(&mut r, v.len() as i64);
        r.extend(v);
        varint(&mut r, 0);
        varint(&mut records, r.len() as i64);
        records.extend(r);
    }
    let ts = 1_800_000_000_000i64;
    let mut after_crc = vec![];
    after_crc.extend(0i16.to_be_bytes());
    after_crc.extend((values.len() as i32 - 1).to_be_bytes());
    after_crc.extend(ts.to_be_bytes());
    after_crc.extend(ts.to_be_bytes());
    after_crc.extend((-1i64).to_be_bytes());
    after_crc.extend((-1i16).to_be_bytes());
    after_crc.extend((-1i32).to_be_bytes());
    after_crc.extend((values.len() as i32).to_be_bytes());
    after_crc.extend(records);
    let mut b = vec![];
    b.extend(base.to_be_bytes());
    b.extend((4 + 1 + 4 + after_crc.len() as i32).to_be_bytes());
    b.extend(1i32.to_be_bytes());
    b.push(2);
    b.extend(crc32c(&after_crc).to_be_bytes());
    b.extend(after_crc);
    b
}

/// A broker log directory whose metadata log is our encoder's, or (`kafka_written`) the one
/// Kafka's own code wrote with the same records (`scripts/kafka-metadata-log`).
fn broker_dir(name: &str, kafka_written: bool) -> PathBuf {
    let d = std::env::temp_dir().join(format!("logtime-broker-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let meta = d.join("__cluster_metadata-0");
    std::fs::create_dir_all(&meta).unwrap();
    std::fs::write(
        d.join("meta.properties"),
        "#\nnode.id=3\ndirectory.id=x\nversion=1\ncluster.id=Lt9ClusterId00000000AA\n",
    )
    .unwrap();
    let mut log = batch(
        0,
        &[
            topic("clicks", 1),
            config(2, "clicks", "retention.ms", Some("3600000")),
            config(4, "", "log.retention.ms", Some("86400000")),
            config(2, "clicks", "segment.ms", Some("1000000")),
        ],
    );
    log.extend(batch(
        4,
        &[
            config(2, "clicks", "retention.ms", Some("7200000")),
            config(2, "clicks", "segment.ms", None),
            topic("gone", 2),
            remove(2),
            topic("views", 3),
            config(4, "3", "log.cleanup.policy", Some("compact")),
        ],
    ));
    if kafka_written {
        log = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(
            "../tests/import/kafka/metadata-log/__cluster_metadata-0/00000000000000000000.log",
        ))
        .unwrap();
    }
    std::fs::write(meta.join("00000000000000000000.log"), log).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/import/kafka/pinned-retention/closed/clicks-0");
    for tp in ["clicks-0", "views-1"] {
        std::fs::create_dir_all(d.join(tp)).unwrap();
        for base in [18, 24, 30] {
            let f = format!("{base:020}.log");
            std::fs::copy(src.join(&f), d.join(tp).join(&f)).unwrap();
        }
    }
    d
}

#[test]
fn partitions_get_the_configs_the_metadata_log_records() {
    let d = broker_dir("configs", false);
    let clicks = d.join("clicks-0");
    let out = logtime(&[
        "inspect",
        clicks.to_str().unwrap(),
        "--now",
        "2027-03-20T00:00:00Z",
    ]);
    // The later ConfigRecord wins; the null value deleted segment.ms; node 3's dynamic
    // log.cleanup.policy applies to every topic on it.
    assert!(
        out.contains("rules: Kafka 4.x; retention.ms 7200000 (2 h)"),
        "{out}"
    );
    assert!(
        out.contains("\nconfigs: retention.ms=7200000, cleanup.policy=compact (the metadata log); every other config is kafka's default\n"),
        "{out}"
    );
    let views = d.join("views-1");
    let v: serde_json::Value = serde_json::from_str(&logtime(&[
        "inspect",
        views.to_str().unwrap(),
        "--now",
        "2027-03-20T00:00:00Z",
        "--json",
    ]))
    .unwrap();
    // views has no topic config: the cluster-wide log.retention.ms stands.
    assert_eq!(v["retention_ms"], 86_400_000);
    assert_eq!(v["configs"][0]["origin"]["kind"], "metadata_log");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_directory_report_names_the_broker() {
    let d = broker_dir("names", false);
    let out = logtime(&[
        "inspect",
        d.to_str().unwrap(),
        "--now",
        "2027-03-20T00:00:00Z",
    ]);
    assert!(
        out.contains("\nbroker: cluster Lt9ClusterId00000000AA, node 3; topic configs from the kraft metadata log (10 records: 2 topics, 1 deleted)\n"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// A `__consumer_offsets` partition the cleaner compacted: offsets 2–4 gone between two
/// batches. Read (its policy is compact), with compact-only verdicts; the same bytes in a topic
/// given `cleanup.policy=delete` are refused naming the policy.
#[test]
fn compacted_consumer_offsets_are_read() {
    let d = std::env::temp_dir().join(format!("logtime-compacted-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let mut log = batch(0, &[vec![1], vec![2]]);
    let mut second = batch(5, &[vec![3], vec![4]]);
    // The base offset is outside the CRC: the batch encoded at 0 moves to 5 as it is.
    log.append(&mut second);
    for tp in ["__consumer_offsets-7", "clicks-0"] {
        std::fs::create_dir_all(d.join(tp)).unwrap();
        std::fs::write(d.join(tp).join("00000000000000000000.log"), &log).unwrap();
    }
    let p = d.join("__consumer_offsets-7");
    let out = logtime(&[
        "inspect",
        p.to_str().unwrap(),
        "--now",
        "2027-03-20T00:00:00Z",
    ]);
    assert!(out.contains("offsets 0–6"), "{out}");
    assert!(out.contains("kept: compact only"), "{out}");
    assert!(
        out.contains("segment 0: 3 offsets removed by compaction (the first before byte "),
        "{out}"
    );
    let c = d.join("clicks-0");
    let err = common::logtime(
        &[
            "inspect",
            c.to_str().unwrap(),
            "--config",
            "cleanup.policy=delete",
        ]
        .iter()
        .map(OsStr::new)
        .collect::<Vec<_>>(),
    );
    let e = String::from_utf8_lossy(&err.stderr);
    assert!(
        e.contains("clicks-0: segment 0: offsets are missing from byte "),
        "{e}"
    );
    assert!(e.contains("but cleanup.policy is delete"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The metadata log Kafka's own code wrote (a LeaderChange control batch first, records framed
/// by `MetadataRecordSerde` and batched by raft's `BatchBuilder`) gives every partition the same
/// configs, and the directory the same broker line and rows, as our encoder's.
#[test]
fn a_metadata_log_kafka_wrote_reads_as_ours() {
    for what in ["clicks-0", "views-1", ""] {
        let run = |kafka| {
            let d = broker_dir(&format!("same{what}{kafka}"), kafka);
            let out = logtime(&[
                "inspect",
                d.join(what).to_str().unwrap(),
                "--now",
                "2027-03-20T00:00:00Z",
            ]);
            let _ = std::fs::remove_dir_all(&d);
            // The metadata log's own row differs (other bytes, other stamps): left out.
            out.replace(d.to_str().unwrap(), "DIR")
                .lines()
                .filter(|l| !l.starts_with("__cluster_metadata-0 "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let (ours, kafka) = (run(false), run(true));
        assert_eq!(kafka, ours, "{what}");
    }
    let d = broker_dir("kafka-names", true);
    let out = logtime(&[
        "inspect",
        d.to_str().unwrap(),
        "--now",
        "2027-03-20T00:00:00Z",
    ]);
    assert!(
        out.contains("\nbroker: cluster Lt9ClusterId00000000AA, node 3; topic configs from the kraft metadata log (10 records: 2 topics, 1 deleted)\n"),
        "{out}"
    );
}

/// `meta.properties` is read only as a small regular file, and a metadata log past its limit
/// is refused before it is read (issue 41).
#[test]
fn broker_files_are_bounded() {
    let refused = |d: &Path| {
        let out = common::logtime(&[OsStr::new("inspect"), d.join("clicks-0").as_os_str()]);
        assert!(!out.status.success());
        String::from_utf8(out.stderr).unwrap()
    };
    let d = broker_dir("huge-props", false);
    std::fs::write(d.join("meta.properties"), vec![b'#'; 100_000]).unwrap();
    let e = refused(&d);
    assert!(
        e.contains(
            "meta.properties: 100000 bytes, more than the 65536 bytes a meta.properties may be"
        ),
        "{e}"
    );
    std::fs::remove_file(d.join("meta.properties")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.join("meta.properties")).unwrap();
    let e = refused(&d);
    assert!(e.contains("meta.properties: not a regular file"), "{e}");
    std::fs::remove_file(d.join("meta.properties")).unwrap();
    // A sparse segment of 300 MiB after the first (477 bytes): refused by its size, not read.
    let f = std::fs::File::create(d.join("__cluster_metadata-0/00000000000000000100.log")).unwrap();
    f.set_len(300 << 20).unwrap();
    let e = refused(&d);
    assert!(
        e.contains("the kraft metadata log could not be read: its segments hold 314573277 bytes"),
        "{e}"
    );
    assert!(e.contains("at most 268435456 bytes of metadata log"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
}
