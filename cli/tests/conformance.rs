//! Runs the real `logtime` binary on every scenario in `tests/conformance/` and checks its report
//! against the scenario's `.expected.json` fragment: objects match if every listed key matches
//! recursively, arrays if they have the same length and match element-wise, scalars if equal.
//! One test per vector, so a single vector can be ignored; `every_file_has_a_test` keeps the list
//! and the directory in step.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance")
}

/// Where `actual` fails to contain `expected`, as a list of JSON paths with the difference.
fn mismatches(expected: &Value, actual: &Value, path: &str, out: &mut Vec<String>) {
    // Extension: `{"$contains": [a, b]}` matches an array holding elements that match a, b, in
    // that order, with anything between (for traces whose every step is not the point).
    if let (Some(Value::Array(wanted)), Value::Array(a)) = (expected.get("$contains"), actual) {
        let mut rest = a.iter();
        for (i, w) in wanted.iter().enumerate() {
            if !rest.any(|x| {
                let mut d = Vec::new();
                mismatches(w, x, path, &mut d);
                d.is_empty()
            }) {
                out.push(format!(
                    "{path}: no element matching $contains[{i}] = {w} (in order) in {}",
                    short(actual)
                ));
                return;
            }
        }
        return;
    }
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                match a.get(k) {
                    Some(av) => mismatches(ev, av, &format!("{path}.{k}"), out),
                    None => out.push(format!("{path}.{k}: missing (expected {ev})")),
                }
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                out.push(format!(
                    "{path}: expected {} elements, got {}: {}",
                    e.len(),
                    a.len(),
                    short(actual)
                ));
                return;
            }
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                mismatches(ev, av, &format!("{path}[{i}]"), out);
            }
        }
        _ if expected == actual => {}
        _ => out.push(format!(
            "{path}: expected {expected}, got {}",
            short(actual)
        )),
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 300 {
        format!("{}…", &s[..300])
    } else {
        s
    }
}

fn check(name: &str) {
    let scenario = dir().join(format!("{name}.json"));
    let expected_path = dir().join(format!("{name}.expected.json"));
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(&expected_path).expect("expected fragment exists"),
    )
    .expect("expected fragment is JSON");
    let out = Command::new(env!("CARGO_BIN_EXE_logtime"))
        .arg("run")
        .arg(&scenario)
        .output()
        .expect("logtime runs");
    assert!(
        out.status.success(),
        "{name}: logtime run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let actual: Value = serde_json::from_slice(&out.stdout).expect("the report is JSON");
    let mut diffs = Vec::new();
    mismatches(&expected, &actual, "$", &mut diffs);
    assert!(
        diffs.is_empty(),
        "{name}: the report differs from {}:\n{}",
        expected_path.display(),
        diffs.join("\n")
    );
}

macro_rules! vectors {
    ($($(#[$attr:meta])* $name:ident),* $(,)?) => {
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                check(stringify!($name));
            }
        )*
        const NAMES: &[&str] = &[$(stringify!($name)),*];
    };
}

vectors! {
    a01_invalid_create_time,
    a02_past_timestamp_rejected,
    a03_future_timestamp_rejected,
    a04_invalid_timestamp_has_batch_index,
    a06_non_compressed_max_timestamp,
    a07_log_append_time,
    a08_log_append_time_compressed,
    a09_produce_with_invalid_timestamp,
    a10_difference_is_the_fallback,
    a11_boundaries,
    a12_kafka_4_defaults,
    a13_wrapped_upper_bound,
    a14_long_min_3_6,
    a14_long_min_4_0,
    b06_find_offset_by_timestamp,
    b08_time_index_per_append,
    b11_sparse_time_index,
    c01_fetch_offset_by_timestamp,
    c02_max_timestamp_first_offset,
    c03_max_timestamp_unordered,
    c05_max_timestamp_empty_log,
    c06_get_offset_shell,
    c06b_latest_tiered,
    c07_high_watermark_filter,
    d01_time_based_roll_during_append,
    d02_roll_jitter_bounds,
    d03_size_based_roll,
    d07_roll_boundaries_size,
    d07b_roll_boundaries_time,
    e01_retention_idempotency,
    e02_retention_bytes_zero,
    e03_delete_records_then_retention,
    e04_size_based_segments,
    e05_cleanup_to_maintain_size,
    e06_time_based_ready,
    e07_time_based_none_ready,
    e08_compact_policy_keeps_old,
    e09_compact_start_offset_breach,
    e10_checkpoint_log_start_offset,
    e11_high_watermark_bounds_deletion,
    e12_log_start_past_high_watermark,
    e14_last_modified_fallback,
    e15_delete_records_policy,
    e16_future_timestamp_blocks,
    e17_retention_boundary,
    f01_empty_key_compacted,
    f02_index_interval_fixed_per_segment,
    f03_compacted_retention_by_cleaner,
    f04_size_errors_default_message,
    f05_relative_minus_one,
    seed001_future_timestamp_retention,
    seed004_lookup_scan,
    seed004b_lookup_scan_one_batch,
}

#[test]
fn every_file_has_a_test() {
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .expect("tests/conformance exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json") && !n.ends_with(".expected.json"))
        .map(|n| n.trim_end_matches(".json").to_string())
        .collect();
    files.sort();
    let mut names: Vec<String> = NAMES.iter().map(|s| s.to_string()).collect();
    names.sort();
    assert_eq!(
        files, names,
        "every scenario in tests/conformance needs a line in vectors! and vice versa"
    );
    for n in &files {
        assert!(
            dir().join(format!("{n}.expected.json")).exists(),
            "{n}.expected.json is missing"
        );
    }
}

#[test]
fn subset_matcher() {
    let a: Value = serde_json::json!({"x": 1, "y": [1, {"z": 2, "w": 3}]});
    let mut d = Vec::new();
    mismatches(&serde_json::json!({"y": [1, {"z": 2}]}), &a, "$", &mut d);
    assert!(d.is_empty(), "{d:?}");
    mismatches(&serde_json::json!({"y": [1]}), &a, "$", &mut d);
    mismatches(&serde_json::json!({"q": 1}), &a, "$", &mut d);
    mismatches(&serde_json::json!({"x": 2}), &a, "$", &mut d);
    assert_eq!(d.len(), 3, "{d:?}");
    let mut d = Vec::new();
    mismatches(
        &serde_json::json!({"y": {"$contains": [{"w": 3}]}}),
        &a,
        "$",
        &mut d,
    );
    assert!(d.is_empty(), "{d:?}");
    mismatches(
        &serde_json::json!({"y": {"$contains": [{"w": 3}, 1]}}),
        &a,
        "$",
        &mut d,
    );
    assert_eq!(d.len(), 1, "{d:?}");
}
