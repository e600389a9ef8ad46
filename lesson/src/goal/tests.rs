//! Goals parsed and evaluated on small partitions.

use super::*;
use logtime_model::batch::Record;
use logtime_model::config::ConfigValue;
use logtime_model::config::{Config, KafkaVersion};
use logtime_model::partition::Command;
use logtime_model::partition::Partition;
use serde_json::json;

const START: i64 = 1_804_842_000_000;

/// 32 one-record batches in segments of 4 (offsets 0 to 31), stamped one second apart.
fn partition() -> Partition {
    let mut c = Config::defaults(KafkaVersion::V3_6);
    c.set("segment.bytes", &ConfigValue::Number(4 * 170))
        .unwrap();
    let mut p = Partition::new(c, "clicks-0", Timestamp(START), 0);
    for k in 0..32 {
        let t = Timestamp(START + k * 1000);
        p.apply(
            t,
            Command::Produce {
                records: vec![Record::at(t)],
            },
        )
        .unwrap();
    }
    p
}

fn g(v: Value) -> Goal {
    Goal::parse(&v).unwrap()
}

#[test]
fn offsets_and_records_present() {
    let mut p = partition();
    let goal = g(json!({"log_start_offset": {"at_least": 16}, "records_present": [24, 28]}));
    let s = goal.evaluate(&p);
    assert!(!s.met);
    assert_eq!(
        s.checks[0].sentence.to_string(),
        "log start offset 0 (needs at least 16)"
    );
    assert_eq!(
        s.checks[1].sentence.to_string(),
        "records 24 to 28 are still present"
    );
    p.apply(p.clock(), Command::DeleteRecords { offset: 16 })
        .unwrap();
    assert!(goal.holds(&p));
    p.apply(p.clock(), Command::DeleteRecords { offset: 26 })
        .unwrap();
    let s = goal.evaluate(&p);
    assert!(!s.met);
    assert_eq!(
        s.checks[1].sentence.to_string(),
        "records 24 to 28 must stay, but 24 is gone"
    );
    assert!(g(json!({"records_gone": [0, 25]})).holds(&p));
    assert!(!g(json!({"records_gone": [0, 26]})).holds(&p));
    assert!(g(json!({"any": [{"segments": 1}, {"log_end_offset": 32}]})).holds(&p));
    assert!(g(json!({"high_watermark": {"at_most": 32, "at_least": 32}})).holds(&p));
}

#[test]
fn pinned_and_future_segments() {
    let t = Timestamp(START);
    let mut c = Config::defaults(KafkaVersion::V3_6);
    c.set("segment.bytes", &ConfigValue::Number(170)).unwrap();
    c.set("retention.ms", &ConfigValue::Number(86_400_000))
        .unwrap();
    let mut p = Partition::new(c, "clicks-0", t, 0);
    for ts in [
        START - 3 * 86_400_000,
        START + 365 * 86_400_000,
        START - 2 * 86_400_000,
        START,
    ] {
        p.apply(
            t,
            Command::Produce {
                records: vec![Record::at(Timestamp(ts))],
            },
        )
        .unwrap();
    }
    let goal = g(json!({"no_pinned_segment": true, "no_future_segment": true}));
    let s = goal.evaluate(&p);
    assert!(!s.met);
    assert_eq!(
        s.checks[0].sentence.to_string(),
        "segment 2 is still pinned behind segment 1"
    );
    assert!(s.checks[1]
        .sentence
        .to_string()
        .starts_with("segment 1 is still stamped 11 Mar 2028"));
    p.apply(t, Command::DeleteRecords { offset: 2 }).unwrap();
    p.apply(t, Command::RunRetention).unwrap();
    assert!(goal.holds(&p), "{:?}", goal.evaluate(&p));
}

#[test]
fn rejects_accepts_config_and_lookup() {
    let mut p = partition();
    let goal = g(json!({
        "rejects": {"label": "the 9-hour-fast producer's batch", "records": [{"timestamp": "now+9h"}]},
        "accepts": {"records": [{"timestamp": "now+30m"}]},
        "config": {"message.timestamp.after.max.ms": {"at_most": 3600000}, "message.timestamp.type": "CreateTime"}
    }));
    let s = goal.evaluate(&p);
    assert!(!s.met);
    assert_eq!(
        s.checks[0].sentence.to_string(),
        "message.timestamp.after.max.ms is 9223372036854775807 (needs at most 3600000)"
    );
    assert_eq!(
        s.checks[2].sentence.to_string(),
        "the 9-hour-fast producer's batch would be appended (it must be rejected)"
    );
    p.apply(
        p.clock(),
        Command::SetConfig {
            name: "message.timestamp.after.max.ms".into(),
            value: ConfigValue::Number(3_600_000),
        },
    )
    .unwrap();
    let s = goal.evaluate(&p);
    assert!(s.met, "{s:?}");
    assert_eq!(
        s.checks[2].sentence.to_string(),
        "the 9-hour-fast producer's batch would be rejected with error 32 INVALID_TIMESTAMP"
    );
    let l = g(json!({"lookup": {"timestamp": START + 4500, "offset": 5}}));
    assert!(l.holds(&p));
    assert_eq!(
        l.evaluate(&p).checks[0].sentence.to_string(),
        "a lookup for 12 Mar 2027 09:00:04 returns offset 5"
    );
}

#[test]
fn malformed_goals_name_the_condition() {
    let e = |v: Value| Goal::parse(&v).unwrap_err();
    assert_eq!(e(json!({})).1, "a goal needs at least one condition");
    assert_eq!(e(json!({"log_start": 3})).0, "log_start");
    assert_eq!(
        e(json!({"log_start_offset": {"at_least": 5, "at_most": 4}})),
        (
            "log_start_offset".into(),
            "at_least 5 is above at_most 4: nothing can hold".into()
        )
    );
    assert_eq!(
        e(json!({"records_present": [5, 2]})).1,
        "[5, 2] is not a range of offsets"
    );
    assert_eq!(e(json!({"no_pinned_segment": 1})).1, "expected true");
    assert_eq!(
        e(json!({"rejects": {"records": [{"timestamp": "soon"}]}})).0,
        "rejects.records[0].timestamp"
    );
    assert_eq!(
        e(json!({"lookup": {"timestamp": "now"}})).0,
        "lookup.offset"
    );
    assert_eq!(e(json!({"any": [{"segments": "x"}]})).0, "any[0].segments");
}
