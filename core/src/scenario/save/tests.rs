use super::*;
use crate::scenario::{parse, Scenario, Step};
use logtime_model::config::{ConfigKey, ConfigValue};

/// A config step's values as the numbers they mean: the saver writes `86400000` as `"1d"`,
/// which the parser keeps as text until the step runs.
fn meaning(mut s: Scenario) -> Scenario {
    for step in &mut s.steps {
        if let Step::Config(values) = step {
            for (name, v) in values.iter_mut() {
                if let (ConfigValue::Text(t), Some(key)) = (&*v, ConfigKey::find(name)) {
                    if let Ok(n) = key.parse_number(t) {
                        *v = ConfigValue::Number(n);
                    }
                }
            }
        }
    }
    s
}

fn builtins() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../static/scenarios");
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("static/scenarios")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read");
            (p.display().to_string(), text)
        })
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    files
}

#[test]
fn every_builtin_scenario_saves_to_the_same_scenario_and_saving_twice_is_byte_identical() {
    for (name, text) in builtins() {
        let saved = save(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let reread = parse(&saved).unwrap_or_else(|e| panic!("{name}: {e}\n{saved}"));
        let before = parse(&text).expect("built-ins parse");
        assert_eq!(meaning(reread), meaning(before), "{name}");
        assert_eq!(
            save(&saved).expect("saved file"),
            saved,
            "{name}: not a fixed point"
        );
        assert_eq!(
            save(&text).expect("again"),
            saved,
            "{name}: two saves differ"
        );
    }
}

#[test]
fn epoch_milliseconds_become_rfc3339_and_durations_and_sizes_become_words() {
    let text = r#"{"steps": [{"produce": {"records": [{"timestamp": 1804842000000},
        {"timestamp": -1}, {"timestamp": "now-3d"}], "batches": 2, "every": 90000}},
        {"advance": 86400000}, {"at": 1804928500500}, {"lookup": {"timestamp": -2}},
        {"config": {"retention.ms": 86400000, "segment.bytes": 1048576, "retention.bytes": -1,
        "message.timestamp.after.max.ms": 9223372036854775807}}],
        "start": 1804842000000, "kafka": "4.0", "topic": {"segment.bytes": 1048577},
        "title": "t"}"#;
    let saved = save(text).expect("saves");
    assert_eq!(
        saved,
        r#"{
  "title": "t",
  "kafka": "4.0",
  "topic": {"segment.bytes": 1048577},
  "start": "2027-03-12T09:00:00Z",
  "steps": [
    {
      "produce": {
        "batches": 2,
        "every": "1m30s",
        "records": [{"timestamp": "2027-03-12T09:00:00Z"}, {"timestamp": -1}, {"timestamp": "now-3d"}]
      }
    },
    {"advance": "1d"},
    {"at": "2027-03-13T09:01:40.500Z"},
    {"lookup": {"timestamp": -2}},
    {
      "config": {
        "message.timestamp.after.max.ms": 9223372036854775807,
        "retention.bytes": -1,
        "retention.ms": "1d",
        "segment.bytes": "1MiB"
      }
    }
  ]
}
"#
    );
    assert_eq!(
        meaning(parse(&saved).expect("parses")),
        meaning(parse(text).expect("parses"))
    );
}

#[test]
fn a_step_is_written_kind_first_and_the_top_level_in_reading_order() {
    let saved = save(r#"{"steps": [{"pause": true, "show": ["panel:log"], "note": "x"}], "start": 0, "title": "t", "lesson": {}}"#)
        .expect("saves");
    assert_eq!(
        saved,
        "{\n  \"title\": \"t\",\n  \"lesson\": {},\n  \"start\": \"1970-01-01T00:00:00Z\",\n  \"steps\": [{\"note\": \"x\", \"pause\": true, \"show\": [\"panel:log\"]}]\n}\n"
    );
}

#[test]
fn duration_and_byte_texts_read_back_exactly() {
    for (ms, text) in [
        (0, "0ms"),
        (1, "1ms"),
        (90_000, "1m30s"),
        (86_400_000, "1d"),
        (10 * 86_400_000, "10d"),
        (14 * 86_400_000, "2w"),
        (3 * 365 * 86_400_000, "3y"),
        (-3_600_000, "-1h"),
        (90_061_001, "1d1h1m1s1ms"),
    ] {
        assert_eq!(duration_text(ms), text);
        assert_eq!(parse_duration(text), Ok(ms), "{text}");
    }
    assert_eq!(byte_text(1 << 20).as_deref(), Some("1MiB"));
    assert_eq!(byte_text(512 << 10).as_deref(), Some("512KiB"));
    assert_eq!(byte_text(1000), None);
    assert_eq!(byte_text(0), None);
}

#[test]
fn bad_input_is_a_clear_error() {
    assert_eq!(
        save("[]").unwrap_err().to_string(),
        "a scenario is a JSON object"
    );
    assert!(save("{")
        .unwrap_err()
        .to_string()
        .starts_with("line 1, column 1: json syntax error"));
}
