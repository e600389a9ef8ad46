//! Telling a lesson file from a plain scenario by its shape, and the size limit checked before a
//! file is read.

use super::*;

/// `is_lesson_file` (which tells a lesson file from a plain scenario by its shape) says what a
/// full parse says, for every file Logtime ships and for the
/// shapes of each lesson feature on its own.
#[test]
fn is_lesson_file_agrees_with_the_parse() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../static");
    let mut seen = 0;
    for dir in ["scenarios", "lessons", "incidents"] {
        let mut paths: Vec<_> = std::fs::read_dir(format!("{root}/{dir}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        paths.sort();
        for path in paths {
            let json = std::fs::read_to_string(&path).unwrap();
            let parsed = parse(&json).unwrap();
            assert_eq!(
                is_lesson_file(&json),
                parsed.default_variant().is_lesson,
                "{}",
                path.display()
            );
            assert_eq!(
                is_lesson_file(&json),
                dir != "scenarios",
                "{}",
                path.display()
            );
            seen += 1;
        }
    }
    assert!(seen > 20, "{seen} files");
    let plain = r#"{"kafka": "3.6", "start": 0, "steps": [{"at": "2026-01-01T00:00:00Z"}]}"#;
    assert!(!is_lesson_file(plain));
    assert!(!parse(plain).unwrap().default_variant().is_lesson);
    for shaped in [
        r#"{"lesson": {"kind": "walkthrough"}, "steps": []}"#,
        r#"{"variants": {}, "steps": []}"#,
        r#"{"stream": {}, "steps": []}"#,
        r#"{"steps": [{"at": "2026-01-01T00:00:00Z"}, {"note": "hello"}]}"#,
        r#"{"steps": [{"question": {}}]}"#,
        r#"{"steps": [{"task": {}}]}"#,
        r#"{"steps": [{"at": "2026-01-01T00:00:00Z", "narration": "x"}]}"#,
        r#"{"steps": [{"at": "2026-01-01T00:00:00Z", "show": ["partition"]}]}"#,
        r#"{"steps": [{"at": "2026-01-01T00:00:00Z", "pause": true}]}"#,
    ] {
        assert!(is_lesson_file(shaped), "{shaped}");
    }
    for not_one in [
        "",
        "[]",
        "not json",
        "{\"steps\": 3}",
        "{\"steps\": [1, \"note\"]}",
    ] {
        assert!(!is_lesson_file(not_one), "{not_one}");
    }
}

#[test]
fn a_lesson_over_the_scenario_size_limit_is_refused_before_it_is_read() {
    // Padding with spaces keeps the JSON valid, so only the size can be the reason.
    let head = r#""start": "2027-03-12T09:00:00Z""#;
    let big = format!("{{{head}, \"steps\": []}}{}", " ".repeat(16 << 20));
    let msg = parse(&big).unwrap_err().to_string();
    assert!(msg.contains("larger than the 16 MiB"), "{msg}");
}
