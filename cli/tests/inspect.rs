//! `logtime inspect` on the partition folders Kafka wrote (`tests/import/kafka`), on damaged and
//! compressed segments, on dump-log text and on a whole log directory: the segments, indexes,
//! verdicts and lookups Kafka reported, and clear one-line errors.

use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, UNIX_EPOCH};

mod common;

/// [`common::logtime`] with plain string arguments (paths here are UTF-8).
fn logtime(args: &[&str]) -> std::process::Output {
    common::logtime(&args.iter().map(OsStr::new).collect::<Vec<_>>())
}

const FIXTURES: &[&str] = &[
    "pinned-retention",
    "lookup-out-of-order",
    "far-offsets",
    "log-append-time",
    "no-timestamp-and-keys",
    "many-small-segments",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/import")
}

fn ok(args: &[&str]) -> String {
    let out = logtime(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    assert!(
        err.is_empty(),
        "{args:?}: nothing on stderr when piped: {err}"
    );
    String::from_utf8(out.stdout).unwrap()
}

fn fails(args: &[&str]) -> String {
    let out = logtime(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    assert!(err.starts_with("logtime: inspect: "), "{err}");
    err.trim_end().to_string()
}

fn json(name: &str, file: &str) -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(root().join("kafka").join(name).join(file)).unwrap(),
    )
    .unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("logtime-inspect-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A copy of a fixture's partition folder whose .log modification times are the ones Kafka's
/// replay had (they matter only for segments without record stamps).
fn copy(name: &str, which: &str, to: &Path) -> PathBuf {
    let report = json(name, "report.json");
    let src = root().join("kafka").join(name).join(which).join("clicks-0");
    let dst = to.join("clicks-0");
    std::fs::create_dir_all(&dst).unwrap();
    for e in std::fs::read_dir(&src).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dst.join(e.file_name())).unwrap();
    }
    for s in report["final"]["segments"].as_array().unwrap() {
        let base = s["base_offset"].as_i64().unwrap();
        let t = s["largest_timestamp"].as_i64().unwrap();
        let f = std::fs::File::options()
            .write(true)
            .open(dst.join(format!("{base:020}.log")))
            .unwrap();
        f.set_modified(UNIX_EPOCH + Duration::from_millis(t as u64))
            .unwrap();
    }
    dst
}

/// The scenario's topic configs as `--config` arguments, and its lookups as `--lookup` values
/// with the step index.
fn scenario_args(name: &str) -> (Vec<String>, Vec<(usize, String)>) {
    let s = json(name, "scenario.json");
    let mut args = vec![
        "--kafka".to_string(),
        s["kafka"].as_str().unwrap().to_string(),
    ];
    for (k, v) in s["topic"].as_object().unwrap() {
        let v = match v {
            Value::String(t) => t.clone(),
            other => other.to_string(),
        };
        args.push("--config".into());
        args.push(format!("{k}={v}"));
    }
    let mut lookups = Vec::new();
    for (i, step) in s["steps"].as_array().unwrap().iter().enumerate() {
        if let Some(l) = step.get("lookup") {
            let v = l
                .get("timestamp")
                .or(l.get("spec"))
                .unwrap()
                .as_str()
                .unwrap();
            lookups.push((i, v.to_string()));
        }
    }
    (args, lookups)
}

#[test]
fn json_state_and_lookups_are_what_kafka_reported() {
    for name in FIXTURES {
        let report = json(name, "report.json");
        let now = report["steps"].as_array().unwrap().last().unwrap()["now"].to_string();
        let (config, lookups) = scenario_args(name);
        for which in ["live", "closed"] {
            let dir = copy(name, which, &tmp(&format!("{name}-{which}")));
            for (i, spec) in &lookups {
                let mut args = vec![
                    "inspect",
                    dir.to_str().unwrap(),
                    "--json",
                    "--now",
                    &now,
                    "--lookup",
                    spec,
                ];
                args.extend(config.iter().map(String::as_str));
                let v: Value = serde_json::from_str(&ok(&args)).unwrap();
                let want = &report["steps"][*i]["lookup"];
                assert_eq!(
                    v["lookup"]["offset"], want["offset"],
                    "{name} {which} {spec}"
                );
                assert_eq!(
                    v["lookup"]["timestamp"], want["timestamp"],
                    "{name} {which} {spec}"
                );
                let state = &v["state"];
                let fin = &report["final"];
                assert_eq!(state["log_start_offset"], fin["log_start_offset"], "{name}");
                assert_eq!(state["log_end_offset"], fin["log_end_offset"], "{name}");
                let (got, exp) = (
                    state["segments"].as_array().unwrap(),
                    fin["segments"].as_array().unwrap(),
                );
                assert_eq!(got.len(), exp.len());
                for (g, w) in got.iter().zip(exp) {
                    for k in [
                        "base_offset",
                        "next_offset",
                        "size_bytes",
                        "records",
                        "largest_timestamp",
                        "offset_index",
                    ] {
                        assert_eq!(g[k], w[k], "{name} {which} {k}");
                    }
                    if which == "live" {
                        assert_eq!(g["time_index"], w["time_index"], "{name} live time index");
                    }
                }
                assert_eq!(v["clock"], "given");
                assert!(v["verdicts"].is_array() && v["import"].is_array());
            }
        }
    }
}

#[test]
fn pinned_partition_reads_as_a_table_with_the_remedy() {
    let dir = copy("pinned-retention", "closed", &tmp("pinned-text"));
    let out = ok(&[
        "inspect",
        dir.to_str().unwrap(),
        "--now",
        "2027-03-11T00:00:00Z",
        "--retention-ms",
        "7d",
        "--lookup",
        "2027-03-02T00:00:00Z",
        "--config",
        "index.interval.bytes=256",
    ]);
    for want in [
        "clicks-0: 3 segments, 3060 B, offsets 18–35 (log start offset 18, log end offset 36)",
        "clock: 2027-03-11T00:00:00Z (--now)",
        "     18  18–23    1020 B  2030-02-28T18:00:00Z  in 2 y 355 d  kept: stamped in the future",
        "     24  24–29    1020 B  2027-03-02T04:00:00Z      8 d 20 h  expired, pinned                     18",
        "Future timestamp: segment 18 has largest timestamp 2030-02-28T18:00:00Z",
        "It pins 2 expired segments behind it (24, 30: 2040 B).",
        "DeleteRecords to offset 24 (the end of pinning segment 18) would let the next retention check delete segments 18, 24, 30 (3060 B); the log start offset becomes 36.",
        "Lookup 2027-03-02T00:00:00Z (1803945600000) → offset 18 (timestamp 2030-02-28T18:00:00Z)",
        "  record 18: timestamp 2030-02-28T18:00:00Z: the answer",
        "expired, pinned                     18  2030-03-07T18:00:00.001Z",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    assert!(
        !out.contains("Import notes"),
        "indexes match with 256:\n{out}"
    );
    // Without --now it says which clock it used.
    let out = ok(&["inspect", dir.to_str().unwrap()]);
    assert!(out.contains("(this machine's clock; pass --now T"), "{out}");
}

#[test]
fn a_log_directory_is_summarised_worst_first() {
    let logdir = tmp("logdir");
    for name in FIXTURES {
        let d = copy(name, "closed", &tmp(&format!("src-{name}")));
        let dst = logdir.join(format!("{name}-0"));
        std::fs::rename(&d, &dst).unwrap();
    }
    std::fs::write(
        logdir.join("log-start-offset-checkpoint"),
        "0\n1\nfar-offsets 0 28600\n",
    )
    .unwrap();
    let out = ok(&[
        "inspect",
        logdir.to_str().unwrap(),
        "--now",
        "2027-03-11T00:00:00Z",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("6 partitions, 1 with expired segments pinned"),
        "{out}"
    );
    assert!(lines[3].starts_with("topic-partition"), "{out}");
    assert!(
        lines[4].starts_with("pinned-retention-0"),
        "worst first:\n{out}"
    );
    let v: Value = serde_json::from_str(&ok(&[
        "inspect",
        logdir.to_str().unwrap(),
        "--now",
        "2027-03-11T00:00:00Z",
        "--json",
    ]))
    .unwrap();
    let parts = v["partitions"].as_array().unwrap();
    assert_eq!(parts.len(), 6);
    assert_eq!(parts[0]["topic_partition"], "pinned-retention-0");
    assert_eq!(parts[0]["pinned_by"], 18);
    assert_eq!(parts[0]["would_free"], 3060);
    assert!(v["errors"].as_array().unwrap().is_empty());
}

#[test]
fn damaged_and_compressed_segments_and_dump_text() {
    let enc = root().join("encoded");
    let out = ok(&[
        "inspect",
        enc.join("truncated-tail/00000000000001843200.log")
            .to_str()
            .unwrap(),
        "--now",
        "2027-03-12T09:00:10Z",
    ]);
    assert!(
        out.contains(
            "invalid batch at byte 1097: truncated (the batch declares 143 bytes, 71 are left)"
        ),
        "{out}"
    );
    assert!(
        out.contains("Kafka's recovery keeps the first 1097 of 1168 bytes"),
        "{out}"
    );
    let out = ok(&[
        "inspect",
        enc.join("legacy-v0-v1/00000000000000000000.log")
            .to_str()
            .unwrap(),
        "--now",
        "2027-03-12T09:00:10Z",
        "--lookup",
        "2027-03-13T09:00:00.100Z",
    ]);
    assert!(
        out.contains("5 v0 and 5 v1 message batches (read-only formats)"),
        "{out}"
    );
    // v1 gzip wrapper: inner records 100, 99, 98, 97 ms past T0; the first at or after 100 ms.
    assert!(
        out.contains("→ offset 11 (timestamp 2027-03-13T09:00:00.100Z)"),
        "{out}"
    );
    let dump = root().join("dump/lookup-out-of-order-live-3x-deep.txt");
    let v: Value = serde_json::from_str(&ok(&[
        "inspect",
        dump.to_str().unwrap(),
        "--json",
        "--now",
        "2025-11-04T10:00:10Z",
        "--lookup",
        "2025-11-04T10:00:03Z",
    ]))
    .unwrap();
    assert_eq!(v["lookup"]["offset"], 1);
    assert_eq!(v["topic_partition"], "clicks-0");
    // The same text on stdin.
    let mut child = Command::new(env!("CARGO_BIN_EXE_logtime"))
        .args(["inspect", "-", "--now", "2025-11-04T10:00:10Z", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&std::fs::read(&dump).unwrap())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let v2: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v2["state"], v["state"]);
}

#[test]
fn exported_scenario_replays_to_the_same_state() {
    let dir = copy("far-offsets", "live", &tmp("export"));
    let file = tmp("export-out").join("far.json");
    let v: Value = serde_json::from_str(&ok(&[
        "inspect",
        dir.to_str().unwrap(),
        "--json",
        "--now",
        "2027-03-12T09:05:01Z",
        "--config",
        "index.interval.bytes=1024",
        "--export-scenario",
        file.to_str().unwrap(),
    ]))
    .unwrap();
    let run: Value =
        serde_json::from_str(&ok(&["run", file.to_str().unwrap()]).replace("logtime: ", ""))
            .unwrap();
    let mut a = v["state"].clone();
    let mut b = run["final"].clone();
    for s in a["segments"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .chain(b["segments"].as_array_mut().unwrap())
    {
        s.as_object_mut().unwrap().remove("last_modified");
    }
    assert_eq!(a, b);
}

#[test]
fn errors_are_one_clear_line() {
    let missing = fails(&["inspect", "/nonexistent/clicks-0"]);
    assert!(
        missing.contains("/nonexistent/clicks-0: no such file or directory"),
        "{missing}"
    );
    let empty = tmp("empty");
    assert!(fails(&["inspect", empty.to_str().unwrap()]).contains("no segment files (.log)"));
    let d = root().join("kafka/pinned-retention/closed/clicks-0");
    let d = d.to_str().unwrap();
    assert!(fails(&["inspect", d, "--now", "yesterday"]).contains("--now \"yesterday\""));
    assert!(fails(&["inspect", d, "--lookup", "soon"]).contains("--lookup \"soon\""));
    assert!(fails(&["inspect", d, "--retention-ms", "7x"]).contains("--retention-ms \"7x\""));
    assert!(fails(&["inspect", d, "--frobnicate"]).contains("unknown option --frobnicate"));
    assert!(fails(&["inspect", d, "--config", "segment.bytes=1"]).contains("config segment.bytes"));
    assert!(fails(&["inspect", d, "--kafka", "9"]).contains("--kafka \"9\""));
    assert!(fails(&["inspect"]).contains("inspect takes a partition folder"));
    let garbage = tmp("garbage").join("notes.txt");
    std::fs::write(
        &garbage,
        "Dumping x/00000000000000000000.log\nthis is not a dump\n",
    )
    .unwrap();
    let e = fails(&["inspect", garbage.to_str().unwrap()]);
    assert!(
        e.contains("not kafka-dump-log output: line 2: not a line kafka-dump-log writes"),
        "{e}"
    );
    // Index files without their .log.
    let lone = tmp("lone");
    std::fs::copy(
        root().join("kafka/pinned-retention/closed/clicks-0/00000000000000000018.index"),
        lone.join("00000000000000000018.index"),
    )
    .unwrap();
    let e = fails(&[
        "inspect",
        lone.join("00000000000000000018.index").to_str().unwrap(),
    ]);
    assert!(
        e.contains("segment 18: index files without a .log file"),
        "{e}"
    );
}

#[test]
fn a_dump_larger_than_the_limit_is_refused_before_it_is_read() {
    let dir = std::env::temp_dir().join(format!("logtime-inspect-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("dump.txt");
    // Sparse: no disk is used, and nothing is read.
    std::fs::File::create(&p)
        .unwrap()
        .set_len((1 << 30) + 1)
        .unwrap();
    let err = fails(&["inspect", p.to_str().unwrap()]);
    assert_eq!(
        err,
        format!(
            "logtime: inspect: {}: kafka-dump-log output larger than 1073741824 bytes (1024 MiB), the most logtime reads; give the segment files instead, which are read in chunks",
            p.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
