//! The scenario `log` key: bad seeds are refused at parse time with the field and the reason,
//! never a panic.

use std::process::Command;

fn fails(name: &str, log: &str) -> String {
    let dir = std::env::temp_dir().join(format!("logtime-log-seed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{name}.json"));
    std::fs::write(
        &p,
        format!(
            r#"{{"start": "2027-03-12T09:00:00Z", "log": {log}, "steps": [{{"snapshot": {{}}}}]}}"#
        ),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_logtime"))
        .arg("run")
        .arg(&p)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{name}: {err}");
    assert!(!err.contains("panicked"));
    err.trim_end()
        .strip_prefix(&format!("logtime: {}: ", p.display()))
        .unwrap_or_else(|| panic!("{name}: {err}"))
        .to_string()
}

#[test]
fn bad_seeds_name_the_field() {
    let cases = [
        ("not_object", "[]", "log: expected an object, got an array"),
        ("unknown_key", r#"{"segmentz": []}"#, "log.segmentz: unknown key (expected: log_start_offset, segments)"),
        ("negative_lso", r#"{"log_start_offset": -5}"#, "log.log_start_offset: -5 is negative"),
        ("no_base", r#"{"segments": [{}]}"#, "log.segments[0].base_offset: missing"),
        ("no_size", r#"{"segments": [{"base_offset": 0, "batches": [{"timestamps": [1]}]}]}"#,
            "log.segments[0].batches[0].size: missing: the batch's size in bytes, as in the .log file"),
        ("count_mismatch", r#"{"segments": [{"base_offset": 0, "batches": [{"offsets": [0, 2], "size": 300, "timestamps": [1]}]}]}"#,
            "log.segments[0].batches[0].timestamps: 1 timestamps for the 3 offsets [0, 2]"),
        ("backwards", r#"{"segments": [{"base_offset": 0, "batches": [{"offsets": [5, 4], "size": 300, "timestamps": [1]}]}]}"#,
            "log.segments[0].batches[0].offsets: [5, 4] is not a batch of 1 to 16777216 records"),
        ("gap", r#"{"segments": [{"base_offset": 0, "batches": [{"offsets": [1, 1], "size": 300, "timestamps": [1]}]}]}"#,
            "log.segments[0].batches[0].base_offset: 1 does not follow the previous batch (expected 0): offsets must be contiguous, as in a delete-policy log"),
        ("small", r#"{"segments": [{"base_offset": 0, "batches": [{"size": 3, "timestamps": [1]}]}]}"#,
            "log.segments[0].batches[0].size: 3 is not a batch size (14 to 2^31-1 bytes)"),
        ("empty_middle", r#"{"segments": [{"base_offset": 0}, {"base_offset": 0}]}"#,
            "log.segments[0].batches: only the last (active) segment may be empty"),
        ("not_contiguous", r#"{"segments": [{"base_offset": 0, "batches": [{"size": 70, "timestamps": [1]}]}, {"base_offset": 5}]}"#,
            "log.segments[1].base_offset: 5 does not follow the previous segment, which ends before 1: segments must be contiguous"),
        ("lso_outside", r#"{"log_start_offset": 9, "segments": [{"base_offset": 0, "batches": [{"size": 70, "timestamps": [1]}]}]}"#,
            "log.log_start_offset: 9 is outside the log [0, 1] (first segment's base offset to log end offset)"),
        ("bad_index", r#"{"segments": [{"base_offset": 0, "batches": [{"size": 70, "timestamps": [1]}], "offset_index": [[0, 5]]}]}"#,
            "log.segments[0].offset_index[0]: (0, 5) is not the last offset and position of a batch of this segment"),
        ("bad_time_index", r#"{"segments": [{"base_offset": 0, "batches": [{"size": 70, "timestamps": [1]}], "time_index": [[7, 0]]}]}"#,
            "log.segments[0].time_index[0]: timestamp 7 is negative or above the segment's max timestamp 1"),
        ("both_stamps", r#"{"segments": [{"base_offset": 0, "batches": [{"size": 70, "timestamps": [1], "log_append_time": 5}]}]}"#,
            "log.segments[0].batches[0].timestamps: a LogAppendTime batch's records all read log_append_time: give one or the other"),
        ("bad_time", r#"{"segments": [{"base_offset": 0, "batches": [{"size": 70, "timestamps": ["soon"]}]}]}"#,
            "log.segments[0].batches[0].timestamps[0]: malformed time"),
    ];
    for (name, log, want) in cases {
        let got = fails(name, log);
        assert!(got.starts_with(want), "{name}:\n got: {got}\nwant: {want}");
    }
}
