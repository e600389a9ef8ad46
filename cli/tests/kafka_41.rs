//! Kafka 4.1's WARN line for a segment stamped in the future (logger `LogFutureTimestampLogger`,
//! KAFKA-18929, from `UnifiedLog.deleteRetentionMsBreachedSegments` in 4.1.1): narrated by
//! `logtime explain` under the 4.1 preset only (other presets' output is unchanged), and printed
//! by `logtime inspect` as what a 4.1 broker logs.

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

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/import/kafka/pinned-retention/closed/clicks-0")
}

const LINE_END: &str = "contains future timestamp(s), making it ineligible to be deleted";

/// pinned-retention exported as a scenario under `kafka`, with one retention check.
fn scenario(kafka: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("logtime-41-{}-{kafka}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("s.json");
    let dir = fixture();
    logtime(&[
        "inspect",
        dir.to_str().unwrap(),
        "--now",
        "2027-03-20T00:00:00Z",
        "--export-scenario",
        f.to_str().unwrap(),
    ]);
    let mut s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
    s["kafka"] = kafka.into();
    s["steps"] = serde_json::json!([{"retention": {}}]);
    std::fs::write(&f, s.to_string()).unwrap();
    f
}

#[test]
fn explain_quotes_the_warning_under_4_1_only() {
    let f = scenario("4.1");
    let out = logtime(&["explain", f.to_str().unwrap()]);
    assert!(out.contains("Kafka 4.1+ · partition clicks-0"), "{out}");
    let line = out
        .lines()
        .find(|l| l.contains(LINE_END))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains("the broker logs at WARN (logger LogFutureTimestampLogger, Kafka 4.1, KAFKA-18929): LogSegment(baseOffset=18, size=1020, lastModifiedTime="),
        "{line}"
    );
    assert!(
        line.contains(&format!(
            ", largestRecordTimestamp=1898532000000) {LINE_END}"
        )),
        "{line}"
    );
    // Only segment 18 stops the walk: 24 and 30 are never reached.
    assert_eq!(out.matches(LINE_END).count(), 1, "{out}");
    let f = scenario("4.0");
    let out = logtime(&["explain", f.to_str().unwrap()]);
    assert!(!out.contains(LINE_END), "{out}");
}

#[test]
fn inspect_says_what_a_4_1_broker_logs() {
    let dir = fixture();
    let out = logtime(&[
        "inspect",
        dir.to_str().unwrap(),
        "--now",
        "2027-03-20T00:00:00Z",
    ]);
    let line = out
        .lines()
        .find(|l| l.contains(LINE_END))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.starts_with("A 4.1 broker logs at WARN, on the logger LogFutureTimestampLogger (KAFKA-18929), at each retention check: LogSegment(baseOffset=18, size=1020, lastModifiedTime="),
        "{line}"
    );
    // Once the future segment is old enough, nothing is logged.
    let out = logtime(&[
        "inspect",
        dir.to_str().unwrap(),
        "--now",
        "2031-01-01T00:00:00Z",
    ]);
    assert!(!out.contains(LINE_END), "{out}");
}
