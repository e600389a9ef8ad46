//! Bad input never panics: `logtime run` exits 1 with one line on stderr naming the step, the
//! field and the reason, and `logtime check` reports it and goes on with the other files.

use std::path::PathBuf;
use std::process::Command;

mod common;
use common::logtime;

fn file(name: &str, json: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("logtime-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{name}.json"));
    std::fs::write(&p, json).unwrap();
    p
}

/// Runs `logtime run` on `json` and returns its single stderr line, after the common checks.
fn fails(name: &str, json: &str) -> String {
    let p = file(name, json);
    let out = logtime(&["run".as_ref(), p.as_os_str()]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{name}: exit code; stderr: {stderr}"
    );
    assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
    assert!(!stderr.contains("panicked"), "{name}: panicked: {stderr}");
    let line = stderr.strip_suffix('\n').expect("ends with a newline");
    assert!(!line.contains('\n'), "{name}: more than one line: {stderr}");
    let prefix = format!("logtime: {}: ", p.display());
    line.strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{name}: names the file: {line}"))
        .to_string()
}

const HEAD: &str = r#""start": "2027-03-12T09:00:00Z""#;

fn steps(s: &str) -> String {
    format!("{{{HEAD}, \"steps\": [{s}]}}")
}

#[test]
fn unknown_config() {
    assert_eq!(
        fails(
            "unknown_config",
            &format!(r#"{{"topic": {{"retention.msx": 1}}, {HEAD}, "steps": []}}"#)
        ),
        "topic.retention.msx: unknown config retention.msx for Kafka 4.x"
    );
    assert_eq!(
        fails(
            "unknown_config_step",
            &steps(r#"{"advance": "1s"}, {"config": {"retension.ms": 5}}"#)
        ),
        "step 1: config.retension.ms: unknown config retension.ms for Kafka 4.x"
    );
}

#[test]
fn value_out_of_range() {
    assert_eq!(
        fails("out_of_range", &format!(r#"{{"topic": {{"segment.bytes": 1000}}, {HEAD}, "steps": []}}"#)),
        "topic.segment.bytes: invalid value 1000 for configuration segment.bytes: value must be at least 1048576 (valid range [1048576, 2147483647] in Kafka 4.x)"
    );
    assert_eq!(
        fails("out_of_range_step", &steps(r#"{"config": {"retention.ms": -2}}"#)),
        "step 0: config.retention.ms: invalid value -2 for configuration retention.ms: value must be at least -1 (valid range [-1, ...] in Kafka 4.x)"
    );
}

#[test]
fn clock_moved_backwards() {
    assert_eq!(
        fails("backwards", &steps(r#"{"advance": "1h"}, {"at": "2027-03-12T09:30:00Z"}"#)),
        "step 1: at: clock moved backwards: 2027-03-12T09:30:00Z is before now (2027-03-12T10:00:00Z)"
    );
}

#[test]
fn malformed_time() {
    assert_eq!(
        fails("malformed_time", &steps(r#"{"produce": {"records": [{"timestamp": "now+5x"}]}}"#)),
        "step 0: produce.records[0].timestamp: malformed time \"now+5x\": malformed duration \"+5x\": unknown unit \"x\" (use ms, s, m, h, d, w or y)"
    );
    let line = fails(
        "malformed_rfc3339",
        &steps(r#"{"at": "2027-02-30T00:00:00Z"}"#),
    );
    assert!(
        line.starts_with(
            "step 0: at: malformed time \"2027-02-30T00:00:00Z\": day 30 does not exist in month 2"
        ),
        "{line}"
    );
}

#[test]
fn timestamp_overflow() {
    assert_eq!(
        fails("overflow", &steps(r#"{"produce": {"records": [{"timestamp": 9223372036854775, "unit": "ns"}]}}"#)),
        "step 0: produce.records[0].timestamp: timestamp overflows a 64-bit long when written in ns"
    );
    // A now-relative stamp only overflows at replay time; the error still names step and field.
    assert_eq!(
        fails("overflow_replay", &steps(r#"{"advance": "1d"}, {"produce": {"records": [{"timestamp": "now+300y", "unit": "ns"}]}}"#)),
        "step 1: produce.records[0].timestamp: timestamp overflows a 64-bit long when written in ns"
    );
}

#[test]
fn unknown_step_kind() {
    assert_eq!(
        fails("unknown_step", &steps(r#"{"sleep": "1s"}"#)),
        "step 0: sleep: unknown step kind (expected one of: produce, advance, at, retention, lookup, delete_records, config, snapshot, high_watermark, version, note, question, task)"
    );
}

#[test]
fn step_with_zero_or_several_keys() {
    assert_eq!(
        fails("zero_keys", &steps(r#"{"advance": "1s"}, {}"#)),
        "step 1: a step must have exactly one key (one of: produce, advance, at, retention, lookup, delete_records, config, snapshot, high_watermark, version, note, question, task) besides narration, show and pause, found 0 (none)"
    );
    assert_eq!(
        fails("two_keys", &steps(r#"{"advance": "1s", "retention": {}}"#)),
        "step 0: a step must have exactly one key (one of: produce, advance, at, retention, lookup, delete_records, config, snapshot, high_watermark, version, note, question, task) besides narration, show and pause, found 2 (advance, retention)"
    );
}

#[test]
fn json_syntax_error() {
    assert_eq!(
        fails(
            "syntax",
            "{\n  \"start\": 0,\n  \"steps\": [\n    {\"advance\": \"1s\"},\n  ]\n}\n"
        ),
        "line 5, column 3: json syntax error: trailing comma"
    );
}

#[test]
fn unknown_keys() {
    assert_eq!(
        fails("unknown_top_level", &format!(r#"{{"kafak": "3.6", {HEAD}, "steps": []}}"#)),
        "kafak: unknown top-level key (expected one of: title, description, kafka, topic, broker, start, seed, topic_partition, steps, log, $schema, lesson, variants, stream)"
    );
    assert_eq!(
        fails("unknown_record_key", &steps(r#"{"produce": {"records": [{"timestamp": "now", "value_size": 10}]}}"#)),
        "step 0: produce.records[0].value_size: unknown key in a record (expected: timestamp, key_bytes, value_bytes, unit)"
    );
}

#[test]
fn missing_file() {
    let out = logtime(&["run".as_ref(), "/nonexistent/logtime.json".as_ref()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("logtime: /nonexistent/logtime.json: cannot read the file: "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
}

#[test]
fn usage_errors_and_help() {
    let out = logtime(&[]);
    assert_eq!(out.status.code(), Some(2));
    let out = logtime(&["frobnicate".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    let out = logtime(&["--help".as_ref()]);
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for cmd in [
        "logtime run [--seed N] FILE",
        "logtime check [--seed N] FILE...",
        "logtime explain [--seed N] FILE",
        "logtime inspect DIR|FILE...",
        "logtime gen --seed S",
        "logtime render SCENARIO|NAME",
    ] {
        assert!(help.contains(cmd), "{help}");
    }
}

#[test]
fn check_reports_every_file_and_fails_if_any_does() {
    let good = file(
        "check_good",
        &steps(
            r#"{"produce": {"records": [{"timestamp": "now"}, {"timestamp": "now+2h"}]}}, {"produce": {"records": [{"timestamp": "now"}]}}"#,
        ),
    );
    let bad = file("check_bad", &steps(r#"{"sleep": 1}"#));
    let out = logtime(&["check".as_ref(), bad.as_os_str(), good.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        lines[0].starts_with(&format!(
            "{}: error: step 0: sleep: unknown step kind",
            bad.display()
        )),
        "{stdout}"
    );
    // The rejected batch is a warning at its step, not a failure.
    assert!(
        lines[1].starts_with(&format!(
            "{}: warning: step 0: the broker rejected the batch with error 32 INVALID_TIMESTAMP",
            good.display()
        )),
        "{stdout}"
    );
    assert_eq!(
        lines[2],
        format!(
            "{}: ok: 2 steps, 1 record appended, 2 rejected, 1 segment at the end, log start offset 0, log end offset 1",
            good.display()
        )
    );
    let out = logtime(&["check".as_ref(), good.as_os_str()]);
    assert!(out.status.success());
}

#[test]
fn explain_narrates() {
    let p = file(
        "explain",
        &steps(
            r#"{"produce": {"records": [{"timestamp": "now+2h"}]}}, {"produce": {"records": [{"timestamp": "now"}]}}, {"lookup": {"timestamp": "now"}}"#,
        ),
    );
    let out = logtime(&["explain".as_ref(), p.as_os_str()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("step 0 at 12 Mar 2027 09:00: the broker rejected the batch with error 32 INVALID_TIMESTAMP: \"One or more records have been rejected due to invalid timestamp\""), "{text}");
    assert!(text.contains("step 2 at 12 Mar 2027 09:00: lookup for 12 Mar 2027 09:00 (1804842000000) returned offset 0"), "{text}");
}

/// Wherever a topic's policy includes compact, the narration says compaction is not modelled and
/// that the log cleaner, not the retention task, runs its retention passes.
#[test]
fn explain_says_compaction_is_not_modelled() {
    let p = file(
        "explain-compact",
        r#"{"start": "2027-03-12T09:00:00Z", "topic": {"cleanup.policy": "compact,delete", "retention.ms": 1000},
            "steps": [{"produce": {"records": [{"timestamp": "now", "key_bytes": 0}]}}, {"advance": "1m"},
                      {"config": {"cleanup.policy": "delete"}}, {"advance": "1m"}, {"config": {"cleanup.policy": "compact"}}]}"#,
    );
    let out = logtime(&["explain".as_ref(), p.as_os_str()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[1].starts_with("cleanup.policy compact,delete: compaction is not modelled"),
        "{text}"
    );
    assert!(
        lines[3].contains("2 log cleaner retention passes ran"),
        "{text}"
    );
    assert!(!lines[4].contains("compaction"), "{text}");
    assert!(
        lines[5].contains("0 scheduled retention checks ran"),
        "{text}"
    );
    assert!(
        lines[6].contains("cleanup.policy compact: compaction is not modelled"),
        "{text}"
    );
}

#[test]
fn an_endless_input_is_refused_early() {
    let out = logtime(&["run".as_ref(), "/dev/zero".as_ref()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr,
        "logtime: /dev/zero: cannot read the file: the file is larger than 16777216 bytes (16 MiB), the most logtime reads as a scenario\n"
    );
}

#[test]
fn work_over_budget_is_refused_before_the_replay() {
    // Ten million one-record segments: over the segment budget, named with how it was reached.
    let tiny = format!(
        r#"{{{HEAD}, "kafka": "3.6", "topic": {{"segment.bytes": 170}}, "steps": [{{"produce": {{"batches": 10000000, "every": "1ms", "records": [{{"timestamp": "now"}}]}}}}]}}"#
    );
    assert_eq!(
        fails("tiny-segments", &tiny),
        "step 0: produce.batches: with segment.bytes 170, 10000000 batches of at least 170 bytes roll at least 9999999 segments, 9999999 by this step; a scenario may roll at most 1000000"
    );
    // Snapshots of a large partition, many times over.
    let mut s = String::from(
        r#"{"produce": {"batches": 100000, "every": "1ms", "records": [{"timestamp": "now"}]}}"#,
    );
    for _ in 0..20_000 {
        s.push_str(r#", {"snapshot": {}}"#);
    }
    let line = fails("snapshots", &steps(&s));
    assert!(line.starts_with("step "), "{line}");
    assert!(
        line.contains(": snapshot: the snapshots by this step list about ")
            && line.ends_with("a scenario's snapshots may list at most 10000000"),
        "{line}"
    );
}

#[test]
fn a_failure_late_in_a_replay_leaves_stdout_empty() {
    // Thousands of steps written out before the error at the last one.
    let mut s = String::from(
        r#"{"produce": {"batches": 2000, "every": "1ms", "records": [{"timestamp": "now"}]}}"#,
    );
    for _ in 0..4_000 {
        s.push_str(r#", {"lookup": {"timestamp": "-1s"}}, {"advance": "1ms"}"#);
    }
    s.push_str(r#", {"advance_to": "2027-03-12T08:00:00Z"}"#);
    let line = fails("late-failure", &steps(&s));
    assert!(line.starts_with("step 8001: "), "{line}");
}

/// Config values: one duration grammar for every `*.ms` config, one byte-size grammar for every
/// `*.bytes` config, in `topic`, `broker` and `config` steps; the report holds the exact value
/// Kafka would store.
#[test]
fn durations_and_byte_sizes_in_every_config_place() {
    let p = file(
        "grammar",
        &format!(
            r#"{{"topic": {{"retention.ms": "7d", "segment.bytes": "1MiB", "message.timestamp.after.max.ms": "1.5h"}},
                "broker": {{"log.retention.check.interval.ms": "5m", "log.cleaner.backoff.ms": "30s"}}, {HEAD},
                "steps": [{{"config": {{"retention.bytes": "1GiB", "segment.ms": "1h30m", "log.cleaner.backoff.ms": "2m"}}}}]}}"#
        ),
    );
    let out = logtime(&["run".as_ref(), p.as_os_str()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let changes = &report["steps"][0]["config"]["changed"];
    let text = changes.to_string();
    assert!(text.contains("1073741824"), "{text}");
    assert!(text.contains("5400000"), "{text}");
    assert!(text.contains("120000"), "{text}");
    assert_eq!(
        fails(
            "bad_duration",
            &format!(r#"{{"topic": {{"retention.ms": "7 days"}}, {HEAD}, "steps": []}}"#)
        ),
        "topic.retention.ms: invalid value 7 days for configuration retention.ms: not a number of type LONG nor a duration like 7d or 1h30m (malformed duration \"7 days\": missing unit after 7 (use ms, s, m, h, d, w or y))"
    );
    assert_eq!(
        fails(
            "bad_size",
            &steps(r#"{"config": {"segment.bytes": "1h"}}"#)
        ),
        "step 0: config.segment.bytes: invalid value 1h for configuration segment.bytes: not a number of type INT nor a byte size like 1GiB or 512KB (malformed byte size \"1h\": unknown unit \"h\" (use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB))"
    );
}

/// The messages issue 10 listed, each precise.
#[test]
fn precise_messages() {
    assert_eq!(
        fails("above_max", &format!(r#"{{"topic": {{"segment.bytes": 3000000000}}, {HEAD}, "steps": []}}"#)),
        "topic.segment.bytes: invalid value 3000000000 for configuration segment.bytes: value must be at most 2147483647 (valid range [1048576, 2147483647] in Kafka 4.x)"
    );
    assert_eq!(
        fails("empty_policy", &format!(r#"{{"topic": {{"cleanup.policy": ""}}, {HEAD}, "steps": []}}"#)),
        "topic.cleanup.policy: invalid value \"\" for configuration cleanup.policy: the list is empty; expected one or more of: compact, delete"
    );
    assert_eq!(
        fails("offset_25", r#"{"start": "2027-03-12T09:00:00+25:00", "steps": []}"#),
        "start: malformed time \"2027-03-12T09:00:00+25:00\": UTC offset +25:00 is out of range (hours 00 to 23, minutes 00 to 59) (expected ms since the epoch, RFC 3339 like 2027-03-12T09:00:00Z, now, now+D or now-D)"
    );
    assert_eq!(
        fails("fraction_no_unit", &steps(r#"{"advance": "1.5"}"#)),
        "step 0: advance: malformed duration \"1.5\": missing unit after 1.5 (use ms, s, m, h, d, w or y)"
    );
    // -0 is zero, wherever an integer goes.
    let p = file(
        "minus_zero",
        &steps(
            r#"{"produce": {"records": [{"timestamp": "now", "key_bytes": -0}]}}, {"delete_records": {"offset": -0}}, {"config": {"retention.ms": -0}}"#,
        ),
    );
    let out = logtime(&["run".as_ref(), p.as_os_str()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // 1.5h is a duration.
    let p = file("fraction", &steps(r#"{"advance": "1.5h"}"#));
    assert!(logtime(&["run".as_ref(), p.as_os_str()]).status.success());
}

/// `-` reads the scenario from standard input.
#[test]
fn dash_reads_standard_input() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_logtime"))
        .args(["check", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(steps(r#"{"produce": {"records": [{"timestamp": "now"}]}}"#).as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with("-: ok: 1 step, 1 record appended"),
        "{stdout}"
    );
}
