//! Compacted topics, keys and seeded logs: the log cleaner's cadence, null and empty keys, and a
//! lesson that starts from a seeded partition at real offsets.

use super::*;

/// A two-segment drill on a topic with `policy`: segment 0 holds one record stamped 23 h 59 min
/// before the start (retention.ms 1 day), segment 1 is the active one. Records carry empty keys,
/// which a compacted topic accepts (a null key it rejects).
fn cadence(policy: &str, items: &str) -> String {
    format!(
        r#"{{"title": "cadence", "kafka": "3.6", "lesson": {{"kind": "drill"}},
            "topic": {{"cleanup.policy": "{policy}", "retention.ms": 86400000, "segment.bytes": 170}},
            "start": "2027-03-12T09:00:00Z",
            "steps": [
              {{"produce": {{"records": [{{"timestamp": "2027-03-11T09:01:00Z", "key_bytes": 0}}]}}}},
              {{"produce": {{"records": [{{"timestamp": "now", "key_bytes": 0}}]}}}}{items}
            ]}}"#
    )
}

/// A strike question asks about the next scheduled pass: the retention task's (every 5 min) on
/// a delete topic, the log cleaner's (every `log.cleaner.backoff.ms`, 15 s) on a compacted one,
/// which comes before segment 0 is a day old.
#[test]
fn strike_questions_follow_the_log_cleaners_cadence_on_a_compacted_topic() {
    let strike = r#", {"question": {"ask": "x", "strike": "segments"}}"#;
    let answer = |policy: &str| {
        let mut play = Play::new(concrete(&cadence(policy, strike))).unwrap();
        for _ in 0..3 {
            play.advance(&mut |_| {}).unwrap().unwrap();
        }
        let solved = play.solved().unwrap().clone().unwrap();
        let g = play.answer(&solved.answer).unwrap();
        assert!(g.correct);
        (solved.answer, g.feedback[0].to_string())
    };
    assert_eq!(
        answer("delete"),
        (
            Answer::segments(vec![Offset(0)]),
            "the next retention check runs at 12 Mar 2027 09:05".to_string()
        )
    );
    assert_eq!(
        answer("compact,delete"),
        (
            Answer::segments(vec![]),
            "the next log cleaner pass runs at 12 Mar 2027 09:00:15".to_string()
        )
    );
}

/// The answer sheet of a compacted topic says compaction is not modelled and counts the log
/// cleaner's passes; a stated answer is checked at the cleaner's next pass.
#[test]
fn the_answer_sheet_of_a_compacted_topic_counts_the_log_cleaners_passes() {
    let items =
        r#", {"advance": "1m"}, {"question": {"ask": "x", "strike": "segments", "expect": [0]}}"#;
    let c = concrete(&cadence("compact,delete", items));
    assert_eq!(check(&c).unwrap().expects, 1);
    let sheet: Vec<String> = answer_sheet(&c)
        .unwrap()
        .iter()
        .map(|l| l.sentence.to_string())
        .collect();
    assert!(
        sheet
            .iter()
            .any(|l| l.starts_with("cleanup.policy compact,delete: compaction is not modelled")),
        "{sheet:#?}"
    );
    assert!(
        sheet
            .iter()
            .any(|l| l == "the clock moved on; 1 log cleaner retention pass ran"),
        "{sheet:#?}"
    );
    assert!(
        sheet
            .iter()
            .any(|l| l == "the next log cleaner pass runs at 12 Mar 2027 09:01:15"),
        "{sheet:#?}"
    );
    // On a delete topic the same minute runs no check, and the next one is at 09:05.
    let c = concrete(&cadence("delete", items));
    let sheet: Vec<String> = answer_sheet(&c)
        .unwrap()
        .iter()
        .map(|l| l.sentence.to_string())
        .collect();
    assert!(
        !sheet.iter().any(|l| l.contains("compaction")),
        "{sheet:#?}"
    );
    assert!(
        sheet
            .iter()
            .any(|l| l == "the clock moved on; 0 scheduled retention checks ran"),
        "{sheet:#?}"
    );
}

/// A question's batch keeps a null key (absent or `null`) apart from an empty one (`0`): a
/// compacted topic refuses the first with 87 INVALID_RECORD and appends the second.
#[test]
fn error_questions_tell_a_null_key_from_an_empty_one() {
    let items = r#",
        {"question": {"ask": "x", "error": {"produce": {"records": [{"timestamp": "now"}]}}, "expect": "INVALID_RECORD"}},
        {"question": {"ask": "x", "error": {"produce": {"records": [{"timestamp": "now", "key_bytes": null}]}}, "expect": 87}},
        {"question": {"ask": "x", "error": {"produce": {"records": [{"timestamp": "now", "key_bytes": 0}]}}, "expect": 0}}"#;
    let l = parse(&cadence("compact,delete", items)).unwrap();
    assert_eq!(check_all(&l, 10).unwrap().expects, 3);
    let wrong = cadence(
        "compact,delete",
        &items.replace(r#""expect": 0"#, r#""expect": 87"#),
    );
    assert!(
        first_error(&wrong)
            .starts_with("step 4: question.expect: the model's answer is error 0 NONE, not error 87 INVALID_RECORD: produced a batch of 1 record:"),
        "{}",
        first_error(&wrong)
    );
}

/// A lesson keeps the scenario's `log` key: it starts from a partition at real offsets, its
/// targets name the seeded segments, and a variant's value reaches inside the seed.
#[test]
fn a_lesson_starts_from_a_seeded_log_at_real_offsets() {
    let json = r#"{"title": "seeded", "kafka": "3.6", "lesson": {"kind": "walkthrough"},
        "variants": {"future": {"choices": ["2028-03-01T09:00:00Z", "2027-03-01T08:00:00Z"]}},
        "topic": {"retention.ms": 604800000, "segment.bytes": 1024},
        "start": "2027-03-12T09:00:00Z",
        "log": {"log_start_offset": 1843200, "segments": [
          {"base_offset": 1843200, "batches": [{"size": 170, "timestamps": ["$future"]}]},
          {"base_offset": 1843201, "batches": [{"size": 170, "timestamps": ["2027-03-01T09:00:00Z"]}]},
          {"base_offset": 1843202, "batches": []}]},
        "steps": [
          {"note": "Segment [1843200](segment:1843200) holds one record.", "show": ["segment:1843201"]},
          {"question": {"ask": "Which segment pins retention?", "pinning": {}, "expect": 1843200}},
          {"task": {"ask": "Free the segment behind it.", "goal": {"records_gone": [1843200, 1843201]},
                    "solution": [{"delete_records": {"offset": 1843202}}]}}
        ]}"#;
    let l = parse(json).unwrap();
    let c = l.default_variant();
    assert_eq!(c.scenario.partition().log_start_offset(), Offset(1843200));
    let s = check(c).unwrap();
    assert_eq!((s.questions, s.expects, s.tasks), (1, 1, 1));
    let (variant, errors) = check_all(&l, 10).unwrap_err();
    assert_eq!(variant, "variant 1 (future = 2027-03-01T08:00:00Z)");
    assert!(
        errors[0].to_string().starts_with(
            "step 1: question.pinning: cannot be answered here: no segment pins retention"
        ),
        "{errors:?}"
    );
}
