use super::*;
use logtime_core::scenario::{STEP_KINDS, TOP_LEVEL_KEYS};
use logtime_lesson::{
    ANNOTATION_KEYS, LESSON_KEYS, LESSON_STEP_KINDS, LESSON_TOP_LEVEL_KEYS, POSTMORTEM_KEYS,
    QUESTION_KEYS, STREAM_KEYS, TASK_KEYS,
};
use std::collections::BTreeSet;

fn keys(v: &Value) -> BTreeSet<String> {
    v["properties"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

fn set(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn def<'a>(root: &'a Value, name: &str) -> &'a Value {
    &root["$defs"][name]
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::validator_for(schema).expect("a valid JSON Schema")
}

fn shipped(dir: &str) -> Vec<(String, Value)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../static/");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(format!("{root}{dir}"))
        .expect("static dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read");
            (
                p.display().to_string(),
                serde_json::from_str(&text).expect("json"),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn the_schema_has_exactly_the_keys_the_parser_reads() {
    let s = scenario();
    let mut top = set(TOP_LEVEL_KEYS);
    top.insert("$schema".into());
    assert_eq!(keys(&s), top);
    let kinds: BTreeSet<String> = def(&s, "Step")["oneOf"]
        .as_array()
        .expect("steps are one of")
        .iter()
        .flat_map(keys)
        .collect();
    assert_eq!(kinds, set(STEP_KINDS));
    assert_eq!(
        keys(def(&s, "Produce")),
        set(&["records", "batches", "every", "timestamp_step"])
    );
    assert_eq!(
        keys(def(&s, "Record")),
        set(&["timestamp", "key_bytes", "value_bytes", "unit"])
    );

    let l = lesson();
    let mut all = top.clone();
    all.extend(set(LESSON_TOP_LEVEL_KEYS));
    assert_eq!(keys(&l), all);
    assert_eq!(keys(def(&l, "LessonMeta")), set(LESSON_KEYS));
    assert_eq!(keys(def(&l, "Postmortem")), set(POSTMORTEM_KEYS));
    assert_eq!(keys(def(&l, "Question")), set(QUESTION_KEYS));
    assert_eq!(keys(def(&l, "Task")), set(TASK_KEYS));
    assert_eq!(keys(def(&l, "Stream")), set(STREAM_KEYS));
    let mut step_kinds = set(STEP_KINDS);
    step_kinds.extend(set(LESSON_STEP_KINDS));
    for b in def(&l, "LessonStep")["oneOf"].as_array().expect("one of") {
        let k = keys(b);
        let kind: Vec<&String> = k.iter().filter(|x| step_kinds.contains(*x)).collect();
        assert_eq!(kind.len(), 1, "{b}");
        let rest: BTreeSet<String> = k
            .iter()
            .filter(|x| !step_kinds.contains(*x))
            .cloned()
            .collect();
        assert_eq!(rest, set(ANNOTATION_KEYS), "{b}");
        assert_eq!(b["additionalProperties"], json!(false), "{b}");
    }
}

#[test]
fn every_shipped_scenario_and_lesson_validates() {
    let sv = validator(&scenario());
    let lv = validator(&lesson());
    for (name, v) in shipped("scenarios") {
        let errors: Vec<String> = sv
            .iter_errors(&v)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        assert!(lv.is_valid(&v), "{name}: a scenario is a lesson file too");
    }
    let mut n = 0;
    for dir in ["lessons", "incidents"] {
        for (name, v) in shipped(dir) {
            let errors: Vec<String> = lv
                .iter_errors(&v)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .take(3)
                .collect();
            assert!(errors.is_empty(), "{name}: {errors:?}");
            n += 1;
        }
    }
    assert!(n >= 20);
}

#[test]
fn a_typo_is_refused_where_the_parser_refuses_it() {
    let sv = validator(&scenario());
    let lv = validator(&lesson());
    let good = json!({"$schema": "static/schema/scenario.json", "kafka": "4.0", "topic": {"retention.ms": "1d"},
        "start": "2027-03-12T09:00:00Z", "steps": [{"produce": {"records": [{"timestamp": "now-3d"}]}}, {"retention": {}}]});
    assert!(sv.is_valid(&good));
    assert!(logtime_core::scenario::parse(&good.to_string()).is_ok());
    for (bad, why) in [
        (json!({"start": 0, "stpes": []}), "top-level typo"),
        (
            json!({"start": 0, "steps": [{"retension": {}}]}),
            "step kind typo",
        ),
        (
            json!({"start": 0, "steps": [{"produce": {"records": [{"timestamp": 0, "value_byte": 1}]}}]}),
            "record key typo",
        ),
        (
            json!({"start": 0, "topic": {"retention.msx": 1}, "steps": []}),
            "config name typo",
        ),
        (
            json!({"start": 0, "topic": {"log.retention.check.interval.ms": 1}, "steps": []}),
            "a broker config under topic",
        ),
        (
            json!({"start": 0, "kafka": "2.8", "steps": []}),
            "unknown version",
        ),
        (
            json!({"start": 0, "steps": [{"advance": "1s", "retention": {}}]}),
            "two kinds in a step",
        ),
        (json!({"steps": []}), "start missing"),
    ] {
        assert!(!sv.is_valid(&bad), "{why}: {bad}");
        assert!(!lv.is_valid(&bad), "{why}: {bad}");
        assert!(
            logtime_core::scenario::parse(&bad.to_string()).is_err(),
            "{why}: the parser agrees"
        );
    }
    for (bad, why) in [
        (
            json!({"start": 0, "lesson": {"knd": "drill"}, "steps": []}),
            "lesson key typo",
        ),
        (
            json!({"start": 0, "steps": [{"note": "n", "narations": "x"}]}),
            "annotation typo",
        ),
        (
            json!({"start": 0, "steps": [{"question": {"ask": "a", "pinning": {}, "hint": []}}]}),
            "question key typo",
        ),
    ] {
        assert!(!lv.is_valid(&bad), "{why}: {bad}");
        assert!(
            logtime_lesson::parse(&bad.to_string()).is_err(),
            "{why}: the parser agrees"
        );
    }
}

#[test]
fn the_served_schemas_are_a_fresh_generation() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../static/schema");
    for which in ["scenario", "lesson"] {
        let path = format!("{dir}/{which}.json");
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            committed,
            text(which).expect("a schema"),
            "{path} is stale: run `cargo run -p logtime-cli -- schema {which} > {path}`"
        );
    }
    assert_eq!(text("nope"), None);
}
