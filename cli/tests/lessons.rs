//! `logtime` on lessons: every built-in lesson passes `check` in every variant, a wrong lesson
//! fails it with one line per error naming the step and the field, and `explain` prints the
//! trainer's answer sheet, the same for the same seed.

use std::path::{Path, PathBuf};

mod common;
use common::{logtime, stdout};

fn lessons() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../static/lessons");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_built_in_lesson_passes_check() {
    let files = lessons();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for want in [
        "future-walkthrough.json",
        "future-drill.json",
        "two-kinds-walkthrough.json",
        "two-kinds-drill.json",
        "kip937-drill.json",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} in {names:?}");
    }
    let mut args: Vec<&std::ffi::OsStr> = vec!["check".as_ref()];
    args.extend(files.iter().map(|p| p.as_os_str()));
    let out = logtime(&args);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    // Warnings (the replay's effects that bite) may come before a file's `ok` line.
    let ok = text.lines().filter(|l| l.contains(": ok: ")).count();
    assert_eq!(ok, files.len(), "{text}");
    for line in text.lines().filter(|l| !l.contains(": ok: ")) {
        assert!(line.contains(": warning: step "), "{line}");
    }
    assert!(
        text.contains("drill \"Timestamps from the future: find and fix the pinned segment\": 4 questions, 1 task, 4 stated answers verified, 9 of 9 variants checked;"),
        "{text}"
    );
}

#[test]
fn a_wrong_lesson_fails_check_naming_step_and_field() {
    let dir = std::env::temp_dir().join(format!("logtime-lessons-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("wrong.json");
    std::fs::write(
        &p,
        r#"{"title": "wrong", "lesson": {"kind": "drill"}, "kafka": "3.6",
            "topic": {"retention.ms": 86400000, "segment.bytes": 170}, "start": "2027-03-12T09:00:00Z",
            "steps": [
              {"produce": {"records": [{"timestamp": "now-3d"}]}, "show": ["segment:7"]},
              {"produce": {"records": [{"timestamp": "now+365d"}]}},
              {"produce": {"records": [{"timestamp": "now"}]}},
              {"question": {"ask": "Which segment pins retention?", "pinning": {}, "expect": 0}},
              {"task": {"ask": "Delete the first record.", "goal": {"records_gone": [0, 0]},
                        "solution": [{"retention": {}}]}}
            ]}"#,
    )
    .unwrap();
    let out = logtime(&["check".as_ref(), p.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let prefix = format!("{}: error: ", p.display());
    let errors: Vec<&str> = lines
        .iter()
        .map(|l| l.strip_prefix(&prefix).unwrap_or_else(|| panic!("{l}")))
        .collect();
    assert_eq!(
        errors[0],
        "step 0: show[0]: segment:7: no segment with base offset 7 (segments at this step: 0)"
    );
    assert!(
        errors[1].starts_with(
            "step 3: question.expect: the model's answer is segment 1, not segment 0: "
        ),
        "{}",
        errors[1]
    );
    assert_eq!(errors.len(), 2, "the task's goal is reached: {text}");
    // The same lesson with an unreachable goal.
    let text = std::fs::read_to_string(&p)
        .unwrap()
        .replace("[0, 0]", "[0, 1]")
        .replace(r#", "show": ["segment:7"]"#, "")
        .replace(r#""expect": 0"#, r#""expect": 1"#);
    std::fs::write(&p, text).unwrap();
    let out = logtime(&["check".as_ref(), p.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        format!(
            "{prefix}step 4: task.goal: the revealed solution does not reach it: records 0 to 1 must go, but 1 is still readable\n"
        )
    );
}

#[test]
fn explain_prints_the_answer_sheet_and_a_seed_picks_the_numbers() {
    let drill = lessons()
        .into_iter()
        .find(|p| p.ends_with("future-drill.json"))
        .unwrap();
    let sheet = |seed: Option<&str>| {
        let mut args: Vec<&std::ffi::OsStr> = vec!["explain".as_ref()];
        if let Some(s) = seed {
            args.push("--seed".as_ref());
            args.push(s.as_ref());
        }
        args.push(drill.as_os_str());
        let out = logtime(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout(&out)
    };
    let default = sheet(None);
    assert!(default.contains("  answer: segment 20000\n"), "{default}");
    assert!(default.contains("  answer: segments 0, 10000\n"));
    assert!(default.contains("  solution: set message.timestamp.after.max.ms = 3600000; DeleteRecords to offset 30000; run a retention check\n"));
    assert!(default.contains("variant: case = future stamp at offset 20000, retention = 7 d\n"));
    assert_eq!(sheet(Some("5")), sheet(Some("5")), "same seed, same sheet");
    let sheets: std::collections::BTreeSet<String> =
        (0..8).map(|s| sheet(Some(&s.to_string()))).collect();
    assert!(sheets.len() > 2, "different seeds give different numbers");
    let out = logtime(&["explain".as_ref(), "--seed".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    let out = logtime(&[
        "check".as_ref(),
        "--seed".as_ref(),
        "x".as_ref(),
        drill.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// A lesson keeps the scenario's `log` key (an incident walked through from the real partition):
/// `check`, `explain` and `run` start from the seeded segments at their real offsets.
#[test]
fn a_lesson_from_a_seeded_log_checks_explains_and_runs() {
    let dir = std::env::temp_dir().join(format!("logtime-lessons-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("seeded.json");
    std::fs::write(
        &p,
        r#"{"title": "seeded", "lesson": {"kind": "walkthrough"}, "kafka": "3.6",
            "topic": {"retention.ms": 604800000, "segment.bytes": 1024}, "start": "2027-03-12T09:00:00Z",
            "log": {"log_start_offset": 1843200, "segments": [
              {"base_offset": 1843200, "batches": [{"size": 170, "timestamps": ["2028-03-01T09:00:00Z"]}]},
              {"base_offset": 1843201, "batches": [{"size": 170, "timestamps": ["2027-03-01T09:00:00Z"]}]},
              {"base_offset": 1843202, "batches": []}]},
            "steps": [
              {"retention": {}, "narration": "Segment [1843200](segment:1843200) is stamped a year ahead."},
              {"question": {"ask": "Which segment pins retention?", "pinning": {}, "expect": 1843200}},
              {"task": {"ask": "Free the segment behind it.", "goal": {"records_gone": [1843200, 1843201]},
                        "solution": [{"delete_records": {"offset": 1843202}}]}}
            ]}"#,
    )
    .unwrap();
    let out = logtime(&["check".as_ref(), p.as_os_str()]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(": ok: walkthrough \"seeded\": 1 question, 1 task, 1 stated answer verified; 1 step, 0 records appended, 0 rejected, 3 segments at the end, log start offset 1843200, log end offset 1843202"),
        "{text}"
    );
    let out = logtime(&["explain".as_ref(), p.as_os_str()]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("  answer: segment 1843200\n"), "{text}");
    assert!(
        text.contains("goal, after: met: records 1843200 to 1843201 are gone"),
        "{text}"
    );
    let out = logtime(&["run".as_ref(), p.as_os_str()]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("\"log_start_offset\": 1843200"));
}

/// `--seed` picks a lesson's variant for run, check and explain, while `gen --seed` stays the
/// generator's seed and `inspect` reads its own options.
#[test]
fn gen_and_inspect_keep_their_own_options() {
    let gen = |seed: &str| logtime(&["gen".as_ref(), "--seed".as_ref(), seed.as_ref()]);
    let a = gen("3");
    assert!(a.status.success());
    assert_eq!(
        stdout(&a),
        stdout(&gen("3")),
        "the same seed, the same scenario"
    );
    assert_eq!(gen("x").status.code(), Some(2));
    let out = logtime(&["inspect".as_ref(), "--seed".as_ref(), "3".as_ref()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "logtime: inspect: unknown option --seed\n"
    );
}

/// The trainer's drill from issue 38, whose replay outlasts the retention check interval: the
/// check passes (no stated answer disagrees) but warns, at the file step, that scheduled checks
/// deleted the replayed segments; a version switch that drops a 3.x `segment.bytes` below 4.x's
/// minimum warns at its step too. Warnings come before the file's `ok` line.
#[test]
fn check_warns_of_the_replays_effects_that_bite_at_their_steps() {
    let dir = std::env::temp_dir().join(format!("logtime-bites-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let drill = dir.join("drill.json");
    std::fs::write(
        &drill,
        r#"{"title": "replay", "kafka": "4.0", "lesson": {"kind": "drill"},
            "topic": {"retention.ms": "1d", "segment.bytes": "1MiB"},
            "start": "2027-03-12T09:00:00Z",
            "steps": [
              {"note": "A replay job starts."},
              {"produce": {"batches": 4, "every": "4min",
                           "records": [{"timestamp": "now-3d", "value_bytes": 600000}]}},
              {"produce": {"records": [{"timestamp": "now", "value_bytes": 600000}]}},
              {"question": {"ask": "Which segments does the next retention check delete?",
                            "strike": "segments"}}]}"#,
    )
    .unwrap();
    let upgrade = dir.join("upgrade.json");
    std::fs::write(
        &upgrade,
        r#"{"kafka": "3.6", "topic": {"segment.bytes": 170}, "start": "2027-03-12T09:00:00Z",
            "steps": [{"produce": {"records": [{"timestamp": "now"}]}}, {"version": "4.0"}]}"#,
    )
    .unwrap();
    let out = logtime(&["check".as_ref(), drill.as_os_str(), upgrade.as_os_str()]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    let d = drill.display();
    assert!(
        lines[0].starts_with(&format!(
            "{d}: warning: step 1: 2 scheduled retention checks from 12 Mar 2027 09:05 to 12 Mar 2027 09:10 deleted 3 segments before the step ended: 0, 1, 2 (offsets 0 to 2), by the retention.ms pass"
        )),
        "{text}"
    );
    assert!(
        lines[1].starts_with(&format!("{d}: ok: drill \"replay\"")),
        "{text}"
    );
    assert_eq!(
        lines[2],
        format!(
            "{}: warning: step 1: switching from Kafka 3.6–3.9 to Kafka 4.x reset 1 setting that Kafka 4.x does not accept: segment.bytes is now 1073741824, the default",
            upgrade.display()
        )
    );
    assert!(lines[3].contains(": ok: 2 steps"), "{text}");
}
