//! Lesson files through core's saver (`logtime_core::scenario::save`): every lesson and incident
//! Logtime ships saves to a file that parses to the same lesson, passes the same check, and saves
//! again to the same bytes.

use logtime_core::scenario::save::save;
use logtime_core::scenario::{Scenario, Step};
use logtime_lesson::{check, parse, Concrete};
use logtime_model::config::{ConfigKey, ConfigValue};

/// The saver writes a config step's `86400000` as `"1d"`, which the parser keeps as text until
/// the step runs: compare the numbers they mean.
fn meaning(mut c: Concrete) -> Concrete {
    let s: &mut Scenario = &mut c.scenario;
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
    c
}

#[test]
fn every_shipped_lesson_saves_to_the_same_lesson_and_saving_twice_is_byte_identical() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../static");
    let mut seen = 0;
    for dir in ["lessons", "incidents"] {
        let mut paths: Vec<_> = std::fs::read_dir(format!("{root}/{dir}"))
            .expect("static dir")
            .map(|e| e.expect("entry").path())
            .collect();
        paths.sort();
        for path in paths {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(&path).expect("read");
            let saved = save(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let before = parse(&text).expect("shipped lessons parse");
            let after = parse(&saved).unwrap_or_else(|e| panic!("{name}: {e}\n{saved}"));
            assert_eq!(
                meaning(after.default_variant().clone()),
                meaning(before.default_variant().clone()),
                "{name}"
            );
            assert!(
                check(after.default_variant()).is_ok(),
                "{name}: check fails after save"
            );
            assert_eq!(
                save(&saved).expect("saved"),
                saved,
                "{name}: not a fixed point"
            );
            assert!(
                !saved.contains("000000000,"),
                "{name}: epoch ms left:\n{saved}"
            );
            seen += 1;
        }
    }
    assert!(seen >= 20, "{seen}");
}
