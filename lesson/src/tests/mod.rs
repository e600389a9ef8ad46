//! Lesson tests across modules: a learner's play (grading, hints, scoring, hiding, tasks solved
//! by acting), variants, where a lesson opens, the built-in lessons, and one test per way
//! `check` finds a lesson wrong, each asserting the step and the field it names.

use super::*;
use logtime_core::scenario::narrate::{Mention, Origin};
use logtime_model::config::ConfigValue;
use logtime_model::partition::Command;
use logtime_model::units::{Offset, Timestamp};

const FUTURE_DRILL: &str = include_str!("../../static/lessons/future-drill.json");
const FUTURE_WALK: &str = include_str!("../../static/lessons/future-walkthrough.json");
const TWO_KINDS_DRILL: &str = include_str!("../../static/lessons/two-kinds-drill.json");
const TWO_KINDS_WALK: &str = include_str!("../../static/lessons/two-kinds-walkthrough.json");
const KIP937_DRILL: &str = include_str!("../../static/lessons/kip937-drill.json");

const BUILT_INS: [(&str, &str); 5] = [
    ("future-drill", FUTURE_DRILL),
    ("future-walkthrough", FUTURE_WALK),
    ("two-kinds-drill", TWO_KINDS_DRILL),
    ("two-kinds-walkthrough", TWO_KINDS_WALK),
    ("kip937-drill", KIP937_DRILL),
];

/// A small lesson: three one-record segments (170 bytes each) stamped 3 days ago, 1 year ahead
/// and 2 days ago, then the active one, on a 1-day topic (a walkthrough); `items` follow.
fn small(items: &str) -> String {
    format!(
        r#"{{"title": "small", "kafka": "3.6", "lesson": {{"kind": "walkthrough"}},
            "topic": {{"retention.ms": 86400000, "segment.bytes": 170}},
            "start": "2027-03-12T09:00:00Z",
            "steps": [
              {{"produce": {{"records": [{{"timestamp": "now-3d"}}]}}}},
              {{"produce": {{"records": [{{"timestamp": "now+365d"}}]}}}},
              {{"produce": {{"records": [{{"timestamp": "now-2d"}}]}}}},
              {{"produce": {{"records": [{{"timestamp": "now"}}]}}}}{items}
            ]}}"#
    )
}

fn concrete(json: &str) -> Concrete {
    parse(json).unwrap().default_variant().clone()
}

/// Every error `check` reports for the lesson, as one-line strings.
fn check_errors(json: &str) -> Vec<String> {
    match parse(json) {
        Err(e) => vec![e.to_string()],
        Ok(l) => match check_all(&l, 100) {
            Ok(_) => Vec::new(),
            Err((_, errors)) => errors.iter().map(|e| e.to_string()).collect(),
        },
    }
}

fn first_error(json: &str) -> String {
    check_errors(json)
        .into_iter()
        .next()
        .expect("the lesson is wrong")
}

// ---------------------------------------------------------------- the built-in lessons

#[test]
fn every_built_in_lesson_passes_check_in_every_variant() {
    for (name, json) in BUILT_INS {
        let l = parse(json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(l.default_variant().is_lesson, "{name}");
        let total = l.variant_count();
        for k in 0..total {
            let c = l.instantiate(Pick::Index(k)).unwrap();
            if let Err(e) = check(&c) {
                panic!("{name}, variant {k} ({}): {e:?}", c.variant.label());
            }
        }
        let s = check_all(&l, 1000).unwrap_or_else(|(v, e)| panic!("{name} {v}: {e:?}"));
        assert_eq!(s.variants_checked, total.max(1), "{name}");
        assert!(
            s.questions + s.tasks >= 2,
            "{name}: a lesson asks something"
        );
        let key = answer_key(l.default_variant()).unwrap();
        assert_eq!(key.len(), s.questions + s.tasks, "{name}");
        let sheet = answer_sheet(l.default_variant()).unwrap();
        assert!(sheet
            .iter()
            .any(|l| l.kind == LineKind::Answer || l.kind == LineKind::Solution));
    }
}

#[test]
fn the_future_drill_has_the_numbers_of_the_story() {
    let c = concrete(FUTURE_DRILL);
    let mut play = Play::new(c).unwrap();
    // The five-segment table at 12 Mar 2027 08:59, retention.ms still 30 days.
    let bases: Vec<i64> = play
        .partition()
        .segments()
        .iter()
        .map(|s| s.base_offset().0)
        .collect();
    assert_eq!(bases, [0, 10000, 20000, 30000, 40000]);
    let largest: Vec<String> = play
        .partition()
        .segments()
        .iter()
        .map(|s| logtime_core::human::date(s.largest_timestamp().0))
        .collect();
    assert_eq!(
        largest,
        [
            "28 Feb 2027 23:58",
            "1 Mar 2027 23:59",
            "14 Mar 2030 11:20",
            "3 Mar 2027 23:57",
            "12 Mar 2027 08:59"
        ]
    );
    // Note, config, then the pinning question.
    for _ in 0..2 {
        play.advance(&mut |_| {}).unwrap().unwrap();
    }
    assert_eq!(
        play.advance(&mut |_| {}).unwrap().unwrap(),
        Reached::Question { item: 0 }
    );
    assert_eq!(
        play.solved().unwrap().as_ref().unwrap().answer,
        Answer::Segment(Offset(20000))
    );
    // The answer key holds every computed answer, in order.
    let key = answer_key(play.lesson()).unwrap();
    let answers: Vec<String> = key
        .iter()
        .map(|k| match &k.answer {
            KeyAnswer::Question(s) => s.answer.to_string(),
            KeyAnswer::Task(r) => format!("goal met: {}", r.goal.met),
        })
        .collect();
    assert_eq!(
        answers,
        [
            "segment 20000",
            "segments 0, 10000",
            "offset 20000",
            "goal met: true",
            "error 32 INVALID_TIMESTAMP"
        ]
    );
}

// ---------------------------------------------------------------- a learner's play

#[test]
fn a_drill_played_with_wrong_answers_hints_and_a_task_solved_by_acting() {
    let mut play = Play::new(concrete(FUTURE_DRILL)).unwrap();
    // Every affordance but the stream processor's: the drill has no stream section.
    let mut all = Affordances::of(&Affordance::ALL[..5]);
    all.insert(Affordance::AgeMarks);
    assert_eq!(
        play.hidden(),
        all,
        "a drill hides everything its items hide from the start"
    );
    play.advance(&mut |_| {}).unwrap().unwrap(); // note
    play.advance(&mut |_| {}).unwrap().unwrap(); // retention.ms lowered
    play.advance(&mut |_| {}).unwrap().unwrap(); // the pinning question
    assert!(matches!(
        play.advance(&mut |_| {}),
        Some(Err(PlayError::Blocked { .. }))
    ));
    assert!(matches!(
        play.answer(&Answer::Offset(Offset(3))),
        Err(PlayError::AnswerKind {
            expected: "a segment"
        })
    ));
    let g = play.answer(&Answer::Segment(Offset(30000))).unwrap();
    assert!(!g.correct);
    let text: Vec<String> = g.feedback.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        text[0],
        "segment 30000 is kept although its largest timestamp 3 Mar 2027 23:57 is 8 d 9 h old: the walk stopped at a segment before it"
    );
    // The rule it misses, never the segment that pins.
    assert_eq!(g.misconception, Some(Misconception::BehindPinning));
    assert!(
        text[1].starts_with("retention walks the segments from the oldest"),
        "{text:?}"
    );
    assert_eq!(text.len(), 2);
    let hint = play.hint().unwrap().unwrap();
    assert!(hint[0]
        .to_string()
        .starts_with("Retention walks the segments"));
    assert!(
        play.answer(&Answer::Segment(Offset(20000)))
            .unwrap()
            .correct
    );
    // The strike question: a wrong set names the segments that were wrong.
    play.advance(&mut |_| {}).unwrap().unwrap();
    let g = play
        .answer(&Answer::segments(vec![
            Offset(0),
            Offset(10000),
            Offset(30000),
        ]))
        .unwrap();
    assert!(!g.correct);
    assert_eq!(g.feedback.len(), 3);
    assert_eq!(
        g.feedback[0].to_string(),
        "the next retention check runs at 12 Mar 2027 09:00"
    );
    assert!(g.feedback[1]
        .to_string()
        .starts_with("segment 30000 is kept although"));
    assert_eq!(g.misconception, Some(Misconception::BehindPinning));
    let r = play.reveal(&mut |_| {}).unwrap();
    let Reveal::Question { answer, .. } = r else {
        panic!()
    };
    assert_eq!(answer, Answer::segments(vec![Offset(0), Offset(10000)]));
    // 09:00: the check runs, then the lookup question.
    play.advance(&mut |_| {}).unwrap().unwrap();
    play.advance(&mut |_| {}).unwrap().unwrap();
    let g = play.answer(&Answer::Offset(Offset(30000))).unwrap();
    assert!(!g.correct);
    assert_eq!(g.feedback[0].to_string(), "offset 30000 is stamped 3 Mar 2027 00:59, before the target 5 Mar 2027 00:00, so the scan reads past it");
    assert_eq!(g.misconception, Some(Misconception::BeforeTarget));
    assert!(play.answer(&Answer::Offset(Offset(20000))).unwrap().correct);
    // The task: solved by acting, the goal checked after each action.
    let reached = play.advance(&mut |_| {}).unwrap().unwrap();
    assert_eq!(
        reached,
        Reached::Task {
            item: 3,
            already_met: false
        }
    );
    assert!(play.hidden().contains(Affordance::Remedies));
    let now = play.runner().now();
    let a = play
        .act(now, Command::DeleteRecords { offset: 30000 }, &mut |_| {})
        .unwrap();
    let goal = a.goal.unwrap();
    assert!(!goal.met && !a.solved);
    assert_eq!(
        goal.checks[1].sentence.to_string(),
        "segment 20000 is still stamped 14 Mar 2030 11:20"
    );
    play.act(now, Command::RunRetention, &mut |_| {}).unwrap();
    let a = play
        .act(
            now,
            Command::SetConfig {
                name: "message.timestamp.after.max.ms".into(),
                value: ConfigValue::Number(3_600_000),
            },
            &mut |_| {},
        )
        .unwrap();
    assert!(a.solved && a.goal.unwrap().met);
    assert!(!play.hidden().contains(Affordance::Remedies));
    // The last question, answered right at once.
    play.advance(&mut |_| {}).unwrap().unwrap();
    assert!(play.answer(&Answer::ErrorCode(32)).unwrap().correct);
    assert!(play.advance(&mut |_| {}).is_none());
    assert!(play.is_done());
    assert_eq!(play.hidden(), Affordances::NONE);
    let card = play.scorecard();
    // 5 (a hint and a wrong answer), 0 (revealed), 8 (a wrong answer), 10, 10.
    assert_eq!(card.total(), (33, 50));
    assert!(card.finished());
    let summary = card.summary();
    assert!(summary.contains("Score: 33 / 50"), "{summary}");
    assert!(summary.contains(
        "1. Pick the segment that pins retention (question): correct, 1 wrong answer, 1 hint: 5/10"
    ));
    assert!(summary.contains(
        "2. Strike what the 09:00 check deletes (question): revealed, 1 wrong answer: 0/10"
    ));
    assert!(summary.contains("4. Unpin the partition (task): solved: 10/10"));
}

#[test]
fn revealing_a_task_applies_its_solution_and_explains_it() {
    let c = concrete(FUTURE_WALK);
    let task_step = c
        .steps
        .iter()
        .position(|s| matches!(s.item, Item::Task(_)))
        .unwrap();
    let mut play = Play::open_at(c, task_step).unwrap();
    assert_eq!(
        play.hidden(),
        Affordances::NONE,
        "a walkthrough hides nothing before its items"
    );
    play.advance(&mut |_| {}).unwrap().unwrap();
    assert!(play.hidden().contains(Affordance::Remedies));
    assert_eq!(play.hints_left(), 2);
    let Reveal::Task(r) = play.reveal(&mut |_| {}).unwrap() else {
        panic!()
    };
    assert!(r.goal.met);
    assert_eq!(r.solution.len(), 3);
    assert!(r.narration[2]
        .to_string()
        .starts_with("a retention check ran; retention deleted segments 20000 and 30000"));
    assert!(r.authored[0]
        .to_string()
        .contains("kafka-delete-records.sh"));
    assert_eq!(play.partition().log_start_offset(), Offset(40000));
    assert_eq!(play.scorecard().items[0].outcome, Outcome::Revealed);
}

#[test]
fn narration_is_authored_first_then_generated_and_hides_verdicts() {
    let c = concrete(FUTURE_WALK);
    let step = c
        .steps
        .iter()
        .position(|s| {
            matches!(
                c.scenario.steps.get(match s.item {
                    Item::Model { scenario_step } => scenario_step,
                    _ => usize::MAX,
                }),
                Some(logtime_core::scenario::Step::Retention)
            )
        })
        .unwrap();
    let mut play = Play::open_at(c.clone(), step).unwrap();
    let Reached::Model(report) = play.advance(&mut |_| {}).unwrap().unwrap() else {
        panic!()
    };
    let n = play.narration(step, Some(&report));
    assert_eq!(n.len(), 2);
    assert_eq!(n[0].origin, Origin::Authored);
    assert!(n[0].sentences[0]
        .mentions()
        .any(|m| *m == Mention::Segment(Offset(20000))));
    assert_eq!(n[1].origin, Origin::Generated);
    assert!(n[1].sentences[0]
        .to_string()
        .contains("pinned behind segment 20000"));
    let hidden = Affordances::of(&[Affordance::Verdicts]);
    let n = c.narration(step, Some(&report), play.partition(), hidden);
    assert_eq!(
        n[1].sentences[0].to_string(),
        "a retention check ran (its verdicts are hidden until you answer)"
    );
}

#[test]
fn a_lesson_opens_at_any_step_with_the_steps_before_applied() {
    let c = concrete(FUTURE_DRILL);
    assert_eq!(c.meta.opens_at, 18);
    let play = Play::new(c.clone()).unwrap();
    assert_eq!(play.next_step(), 18);
    assert_eq!(play.partition().log_end_offset(), Offset(40005));
    // Opening after the task applies its solution and skips the questions before.
    let last = c.steps.len() - 1;
    let play = Play::open_at(c, last).unwrap();
    assert_eq!(play.partition().log_start_offset(), Offset(40000));
    let card = play.scorecard();
    assert!(card.items[..4]
        .iter()
        .all(|i| i.outcome == Outcome::Skipped));
    assert_eq!(card.total(), (0, 10), "skipped items do not count");
}

#[test]
fn a_lookup_question_computes_its_answer_from_the_live_partition() {
    let c = concrete(TWO_KINDS_DRILL);
    let mut play = Play::new(c).unwrap();
    play.advance(&mut |_| {}).unwrap().unwrap(); // note
    play.advance(&mut |_| {}).unwrap().unwrap(); // lookup for 10:00:05
    let g = play.answer(&Answer::Offset(Offset(122))).unwrap();
    assert!(!g.correct);
    assert_eq!(
        g.feedback[0].to_string(),
        "offset 122 is stamped 4 Nov 2025 10:00:04, before the target 4 Nov 2025 10:00:05, so the scan reads past it"
    );
    let g = play.answer(&Answer::Offset(Offset(124))).unwrap();
    assert!(g.feedback[1]
        .to_string()
        .contains("not the record whose stamp is closest to T"));
    assert!(play.answer(&Answer::Offset(Offset(123))).unwrap().correct);
}

#[test]
fn a_choose_question_takes_any_value_in_the_range() {
    let c = concrete(KIP937_DRILL);
    let mut play = Play::open_at(c.clone(), 0).unwrap();
    let k = c
        .steps
        .iter()
        .position(|s| matches!(&s.item, Item::Question(q) if matches!(q.kind, Ask::Choose { .. })))
        .unwrap();
    while play.next_step() <= k {
        if play.open_item().is_some() {
            play.reveal(&mut |_| {}).unwrap();
        }
        play.advance(&mut |_| {}).unwrap().unwrap();
    }
    assert_eq!(
        play.solved().unwrap().as_ref().unwrap().answer,
        Answer::Values {
            min: 1_800_000,
            max: 7_199_999
        }
    );
    let g = play.answer(&Answer::Value(7_200_000)).unwrap();
    assert!(!g.correct);
    assert!(
        g.feedback[0].to_string().contains("the broker appends it"),
        "{:?}",
        g.feedback
    );
    assert_eq!(g.misconception, Some(Misconception::ValueTooLarge));
    let g = play.answer(&Answer::Value(1_799_999)).unwrap();
    assert!(g.feedback[0]
        .to_string()
        .contains("rejects it with error 32"));
    assert_eq!(g.misconception, Some(Misconception::ValueTooSmall));
    // Milliseconds typed as nanoseconds.
    let g = play.answer(&Answer::Value(3_600_000_000_000)).unwrap();
    assert_eq!(g.misconception, Some(Misconception::NanosForMillis));
    assert!(play.answer(&Answer::Value(3_600_000)).unwrap().correct);
}

// ---------------------------------------------------------------- variants

#[test]
fn variants_same_seed_same_numbers_and_recomputed_answers() {
    let l = parse(FUTURE_DRILL).unwrap();
    assert_eq!(l.variant_count(), 9);
    assert_eq!(
        l.instantiate(Pick::Seed(7)).unwrap(),
        l.instantiate(Pick::Seed(7)).unwrap()
    );
    let indexes: std::collections::BTreeSet<u64> = (0..12)
        .map(|s| l.instantiate(Pick::Seed(s)).unwrap().variant.index)
        .collect();
    assert!(
        indexes.len() >= 4,
        "seeds pick different variants: {indexes:?}"
    );
    // The variant with the future stamp in segment 10000: every answer moves with it.
    let k = (0..9)
        .find(|k| {
            l.instantiate(Pick::Index(*k))
                .unwrap()
                .variant
                .label()
                .contains("offset 10000")
        })
        .unwrap();
    let mut play = Play::new(l.instantiate(Pick::Index(k)).unwrap()).unwrap();
    for _ in 0..3 {
        play.advance(&mut |_| {}).unwrap().unwrap();
    }
    assert_eq!(
        play.solved().unwrap().as_ref().unwrap().answer,
        Answer::Segment(Offset(10000))
    );
    play.reveal(&mut |_| {}).unwrap();
    play.advance(&mut |_| {}).unwrap().unwrap();
    assert_eq!(
        play.solved().unwrap().as_ref().unwrap().answer,
        Answer::segments(vec![Offset(0)])
    );
}

// ---------------------------------------------------------------- every way a lesson is wrong

#[test]
fn a_well_formed_small_lesson_passes() {
    let json = small(
        r#", {"question": {"ask": "Which segment pins retention?", "pinning": {}, "expect": 1}},
           {"question": {"ask": "Strike what the next check deletes.", "strike": "segments", "expect": [0]}},
           {"task": {"ask": "Unpin it.", "goal": {"no_pinned_segment": true, "records_present": [3, 3]},
                     "solution": [{"delete_records": {"offset": 2}}, {"retention": {}}]}}"#,
    );
    assert_eq!(check_errors(&json), Vec::<String>::new());
}

#[test]
fn malformed_markup_names_the_step_and_field() {
    assert_eq!(
        first_error(&small(r#", {"note": "a **bold"}"#)),
        "step 4: note: malformed markup at character 3: ** is not closed before the paragraph ends (write \\*\\* for literal asterisks)"
    );
    assert_eq!(
        first_error(&small(
            r#", {"retention": {}, "narration": "<b>kept</b>"}"#
        )),
        "step 4: narration: malformed markup at character 1: raw HTML is not allowed: use **bold**, `code` or [text](link) (write \\< for a literal <)"
    );
    assert_eq!(
        first_error(&small(
            r#", {"question": {"ask": "x", "pinning": {}, "hints": ["ok", "see [docs](https://example.com/)"]}}"#
        )),
        "step 4: question.hints[1]: malformed markup at character 12: links go to Kafka's documentation only (an https URL starting https://kafka.apache.org/, https://cwiki.apache.org/confluence/, https://github.com/apache/kafka/, https://issues.apache.org/jira/browse/KAFKA-), not \"https://example.com/\""
    );
    assert_eq!(
        first_error(&small(r#", {"note": "x", "show": ["segment 3"]}"#)),
        "step 4: show[0]: malformed target \"segment 3\": expected kind:value, with kind one of segment, segment-of, offset, record, offsets, records, config, panel, time"
    );
}

#[test]
fn an_unknown_target_names_the_step_and_field() {
    assert_eq!(
        first_error(&small(r#", {"note": "x", "show": ["segment:5"]}"#)),
        "step 4: show[0]: segment:5: no segment with base offset 5 (segments at this step: 0, 1, 2, 3)"
    );
    assert_eq!(
        first_error(&small(
            r#", {"retention": {}, "narration": "see [it](record:9)"}"#
        )),
        "step 4: narration: offset:9: no record at offset 9 (records at this step: 1 to 3)"
    );
    assert_eq!(
        first_error(&small(
            r#", {"question": {"ask": "Look at [retention](config:retention.msx).", "pinning": {}}}"#
        )),
        "step 4: question.ask: config:retention.msx: unknown config retention.msx for Kafka 3.6–3.9"
    );
    // A target that exists later but not yet at its step.
    let json = small("").replace(
        r#"{"produce": {"records": [{"timestamp": "now-3d"}]}}"#,
        r#"{"produce": {"records": [{"timestamp": "now-3d"}]}, "show": ["segment:1"]}"#,
    );
    assert_eq!(
        first_error(&json),
        "step 0: show[0]: segment:1: no segment with base offset 1 (segments at this step: 0)"
    );
    // A task's reveal is checked on the partition after the solution.
    assert_eq!(
        first_error(&small(
            r#", {"task": {"ask": "x", "goal": {"log_start_offset": {"at_least": 2}}, "solution": [{"delete_records": {"offset": 2}}, {"retention": {}}], "reveal": "Segment [0](segment:0) is gone."}}"#
        )),
        "step 4: task.reveal: segment:0: no segment with base offset 0 (segments at this step: 3)"
    );
}

#[test]
fn a_stated_answer_that_disagrees_with_the_model_names_the_step() {
    assert_eq!(
        first_error(&small(
            r#", {"question": {"ask": "x", "strike": "segments", "expect": [0, 1]}}"#
        )),
        "step 4: question.expect: the model's answer is segments 0, not segments 0, 1: the next retention check runs at 12 Mar 2027 09:05; segment 0 is deleted: its largest timestamp 9 Mar 2027 09:00 is 3 d 5 min old, more than retention.ms 1 d; segment 1 is kept: its largest timestamp 11 Mar 2028 09:00 is about 365 d in the future, and retention stops at the first segment it keeps"
    );
    assert!(first_error(&small(
        r#", {"question": {"ask": "x", "lookup": {"timestamp": "now-1d"}, "expect": 2}}"#
    ))
    .starts_with("step 4: question.expect: the model's answer is offset 1, not offset 2: lookup for 11 Mar 2027 09:00 (1804755600000) returned offset 1 (stamped 11 Mar 2028 09:00)"));
    assert_eq!(
        first_error(&small(
            r#", {"question": {"ask": "x", "error": {"produce": {"records": [{"timestamp": "now+3y"}]}}, "expect": "INVALID_TIMESTAMP"}}"#
        )).split(": produced").next().unwrap(),
        "step 4: question.expect: the model's answer is error 0 NONE, not error 32 INVALID_TIMESTAMP"
    );
    assert!(first_error(&small(
        r#", {"question": {"ask": "x", "choose": {"config": "message.timestamp.after.max.ms", "accept": {"records": [{"timestamp": "now+30m"}]}, "reject": {"records": [{"timestamp": "now+2h"}]}}, "expect": 7200000}}"#
    ))
    .starts_with("step 4: question.expect: the model's answer is any value from 1800000 to 7199999, not 7200000: "));
}

#[test]
fn a_question_the_model_cannot_answer_names_the_step_and_kind() {
    let json = small(r#", {"question": {"ask": "x", "pinning": {}}}"#)
        .replace("now+365d", "now-1h")
        .replace("now-2d", "now-2h");
    assert_eq!(
        first_error(&json),
        "step 4: question.pinning: cannot be answered here: no segment pins retention at this step: the first segment a check keeps is neither stamped in the future nor keeping expired segments behind it"
    );
    assert_eq!(
        first_error(&small(
            r#", {"question": {"ask": "x", "choose": {"config": "message.timestamp.after.max.ms", "accept": {"records": [{"timestamp": "now+2h"}]}, "reject": {"records": [{"timestamp": "now+30m"}]}}}}"#
        )),
        "step 4: question.choose: cannot be answered here: every value of message.timestamp.after.max.ms that accepts the batch stamped 12 Mar 2027 11:00 also accepts the batch stamped 12 Mar 2027 09:30"
    );
    let json = small(r#", {"question": {"ask": "x", "lookup": {"timestamp": -7}}}"#)
        .replace(r#""kafka": "3.6""#, r#""kafka": "4.0""#)
        .replace(r#""segment.bytes": 170"#, r#""segment.bytes": 1048576"#);
    assert!(first_error(&json).starts_with("step 4: question.lookup: cannot be answered here: the broker refuses this lookup (error 35 UNSUPPORTED_VERSION"), "{}", first_error(&json));
}

#[test]
fn an_unreachable_or_already_reached_goal_names_the_task() {
    assert_eq!(
        first_error(&small(
            r#", {"task": {"ask": "x", "goal": {"no_pinned_segment": true}, "solution": [{"delete_records": {"offset": 1}}, {"retention": {}}]}}"#
        )),
        "step 4: task.goal: the revealed solution does not reach it: segment 2 is still pinned behind segment 1"
    );
    assert_eq!(
        first_error(&small(
            r#", {"task": {"ask": "x", "goal": {"log_end_offset": 4}, "solution": [{"retention": {}}]}}"#
        )),
        "step 4: task.goal: already holds before the learner acts: log end offset 4"
    );
    assert_eq!(
        first_error(&small(
            r#", {"task": {"ask": "x", "goal": {"log_start_offset": 2}, "solution": [{"config": {"retention.ms": -2}}]}}"#
        )),
        "step 4: task.solution[0].config: invalid value -2 for configuration retention.ms: value must be at least -1 (valid range [-1, ...] in Kafka 3.6–3.9)"
    );
}

#[test]
fn malformed_items_name_the_step_and_field() {
    let e = |items: &str| first_error(&small(items));
    assert_eq!(
        e(r#", {"question": {"pinning": {}}}"#),
        "step 4: question.ask: missing: what the learner is asked (markup)"
    );
    assert_eq!(
        e(r#", {"question": {"ask": "x", "pinning": {}, "strike": "segments"}}"#),
        "step 4: question: a question has exactly one of: strike, lookup, pinning, choose, error, late, closes (found strike, pinning)"
    );
    assert_eq!(
        e(r#", {"question": {"ask": "x", "pinning": {}, "expext": 1}}"#),
        "step 4: question.expext: unknown key (expected: title, ask, strike, lookup, pinning, choose, error, late, closes, stream, kafka, hints, reveal, wrong, expect, points, hide)"
    );
    assert_eq!(
        e(r#", {"question": {"ask": "x", "lookup": {"timestamp": "now"}, "expect": "three"}}"#),
        "step 4: question.expect: expected an offset (-1: the lookup finds nothing)"
    );
    assert_eq!(
        e(r#", {"question": {"ask": "x", "pinning": {}, "hide": ["verdict"]}}"#),
        "step 4: question.hide[0]: unknown affordance \"verdict\" (expected one of: remedies, verdicts, pinned_badges, lookup_trace, answer_panel, stream_verdicts, age_marks)"
    );
    assert_eq!(
        e(r#", {"question": {"ask": "x", "error": {"retention": {}}}}"#),
        "step 4: question.error: an error question probes produce or delete_records"
    );
    assert_eq!(
        e(r#", {"task": {"ask": "x", "goal": {"log_start": 2}, "solution": [{"retention": {}}]}}"#),
        "step 4: task.goal.log_start: unknown condition (expected one of: log_start_offset, log_end_offset, high_watermark, segments, records_present, records_gone, no_pinned_segment, no_future_segment, config, rejects, accepts, lookup, late_records, any)"
    );
    assert_eq!(
        e(r#", {"task": {"ask": "x", "goal": {"log_start_offset": 2}}}"#),
        "step 4: task.solution: missing: the actions that reach the goal (shown on reveal and checked by logtime check)"
    );
    assert_eq!(
        e(
            r#", {"task": {"ask": "x", "goal": {"log_start_offset": 2}, "solution": [{"config": {"retention.ms": 1.5}}]}}"#
        ),
        "step 4: task.solution[0].config.retention.ms: 1.5 is not a 64-bit integer"
    );
    assert_eq!(
        e(r#", {"note": "x", "narration": "y"}"#),
        "step 4: narration: a note's text is its body; narration is for the other steps"
    );
    assert_eq!(
        e(r#", {"note": "x", "pause": "yes"}"#),
        "step 4: pause: expected true or false"
    );
}

#[test]
fn lesson_and_variant_errors_name_the_field() {
    assert_eq!(
        first_error(&small("").replace(r#""kind": "walkthrough""#, r#""kind": "exam""#)),
        "lesson.kind: expected \"walkthrough\" or \"drill\""
    );
    assert_eq!(
        first_error(&small("").replace("walkthrough", "drill")),
        "lesson.kind: a drill needs at least one question or task"
    );
    assert_eq!(
        first_error(&small("").replace(r#""kind": "walkthrough""#, r#""opens_at": 9"#)),
        "lesson.opens_at: step 9 does not exist (the lesson has 4 steps)"
    );
    let v = small(r#", {"note": "x"}"#)
        .replace(
            r#""kafka": "3.6","#,
            r#""kafka": "3.6", "variants": {"ret": {"from": "1d", "to": "2d", "step": "1d"}},"#,
        )
        .replace(r#""retention.ms": 86400000"#, r#""retention.ms": "$rett""#);
    assert_eq!(
        first_error(&v),
        "topic.retention.ms: unknown variable \"rett\""
    );
    let v = small(r#", {"note": "x"}"#).replace(
        r#""kafka": "3.6","#,
        r#""kafka": "3.6", "variants": {"ret": {"from": "1d", "to": "2d"}},"#,
    );
    assert_eq!(
        first_error(&v),
        "variants.ret.step: missing: a duration between values, like \"1d\""
    );
}

#[test]
fn errors_in_model_steps_keep_the_file_step_index() {
    let json = small(r#", {"note": "x"}, {"at": "2027-03-12T08:00:00Z"}"#);
    assert_eq!(
        first_error(&json),
        "step 5: at: clock moved backwards: 2027-03-12T08:00:00Z is before now (2027-03-12T09:00:00Z)"
    );
}

#[test]
fn a_wrong_answer_in_one_variant_names_the_variant() {
    let json = small(r#", {"question": {"ask": "x", "strike": "segments", "expect": [0]}}"#)
        .replace(r#""now-3d""#, r#""$age""#)
        .replace(
            r#""kafka": "3.6","#,
            r#""kafka": "3.6", "variants": {"age": {"choices": ["now-3d", "now-12h"]}},"#,
        );
    let l = parse(&json).unwrap();
    let (variant, errors) = check_all(&l, 10).unwrap_err();
    assert_eq!(variant, "variant 1 (age = now-12h)");
    assert_eq!(
        errors[0].to_string().split(": the next").next().unwrap(),
        "step 4: question.expect: the model's answer is no segment, not segments 0"
    );
}

#[test]
fn a_plain_scenario_is_a_lesson_with_nothing_authored() {
    let c = concrete(
        r#"{"start": "2027-03-12T09:00:00Z", "steps": [{"produce": {"records": [{"timestamp": "now"}]}}]}"#,
    );
    assert!(!c.is_lesson);
    assert_eq!(c.steps.len(), 1);
    assert_eq!(check(&c).unwrap().questions, 0);
    let mut play = Play::new(c).unwrap();
    assert!(matches!(
        play.advance(&mut |_| {}),
        Some(Ok(Reached::Model(_)))
    ));
    assert_eq!(play.partition().clock(), Timestamp(1_804_842_000_000));
}

// ---------------------------------------------------------------- compacted topics, keys, seeded logs

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

// ---------------------------------------------------------------- the stream processor

/// Records around 10:00, one stamped a day ago (offset 2), one whose producer wrote nanoseconds
/// (offset 3), then three on-time records; a Kafka Streams processor with five-minute windows
/// and a one-minute grace reads the partition; `items` follow.
fn streamed(stream: &str, items: &str) -> String {
    format!(
        r#"{{"title": "streamed", "kafka": "3.6", "lesson": {{"kind": "drill"}}, {stream}
            "start": "2027-03-12T10:00:00Z",
            "steps": [
              {{"produce": {{"records": [{{"timestamp": "now"}}]}}}},
              {{"advance": "30s"}},
              {{"produce": {{"records": [{{"timestamp": "now"}}]}}}},
              {{"produce": {{"records": [{{"timestamp": "now-1d"}}]}}}},
              {{"advance": "30s"}},
              {{"produce": {{"records": [{{"timestamp": "now", "unit": "ns"}}]}}}},
              {{"advance": "30s"}},
              {{"produce": {{"batches": 3, "every": "20s", "records": [{{"timestamp": "now"}}]}}}}{items}
            ]}}"#
    )
}

const STREAM: &str = r#""stream": {"window": "5m", "delay": "1m"},"#;

#[test]
fn stream_questions_are_answered_by_the_processor() {
    let json = streamed(
        STREAM,
        r#", {"question": {"ask": "Which records are dropped?", "late": {}, "expect": [2, [4, 6]]}},
            {"question": {"ask": "Which record closes 10:00?", "closes": {"window": "2027-03-12T10:03:00Z"}, "expect": 3}},
            {"question": {"ask": "And 10:05?", "closes": {"window": "2027-03-12T10:05:00Z"}, "expect": 3}},
            {"question": {"ask": "With a Flink job?", "late": {}, "stream": {"semantics": "flink"}, "expect": [2, [4, 6]]}},
            {"question": {"ask": "The ten-minute window holding now+1h?", "closes": {"window": "now+1h"}, "stream": {"window": "10m"}, "expect": 3}}"#,
    );
    assert_eq!(check_errors(&json), Vec::<String>::new());
    let c = concrete(&json);
    assert_eq!(c.stream.unwrap().window_ms(), 300_000);
    let mut play = Play::new(c).unwrap();
    let mut grades = Vec::new();
    while let Some(step) = play.advance(&mut |_| {}) {
        if let Reached::Question { item } = step.unwrap() {
            assert!(play.hidden().contains(Affordance::StreamVerdicts));
            let given = match item {
                0 => Answer::Records(vec![(Offset(2), Offset(2)), (Offset(5), Offset(6))]),
                3 => Answer::records(vec![(Offset(2), Offset(2)), (Offset(4), Offset(6))]),
                _ => Answer::Offset(Offset(4)),
            };
            assert_eq!(
                play.answer(&Answer::Segment(Offset(0))),
                Err(PlayError::AnswerKind {
                    expected: if matches!(item, 0 | 3) {
                        "a set of records"
                    } else {
                        "an offset"
                    }
                })
            );
            let g = play.answer(&given).unwrap();
            let text: Vec<String> = g.feedback.iter().map(|s| s.to_string()).collect();
            grades.push((g.correct, text));
            if !g.correct {
                play.reveal(&mut |_| {}).unwrap();
            }
        }
    }
    assert!(!grades[0].0);
    // A record left out is counted, not named.
    assert_eq!(
        grades[0].1[0],
        "you left 1 record the processor drops as late"
    );
    assert!(!grades[1].0);
    assert!(
        grades[1].1[0].starts_with("after record 4: stream time "),
        "{:?}",
        grades[1].1
    );
    assert!(grades[1].1[0].ends_with(", and the window is already closed"));
    assert!(grades[3].0, "Flink with no lateness drops the same records");
}

#[test]
fn a_stream_question_or_goal_without_a_stream_section_is_an_error() {
    let e = |stream: &str, items: &str| first_error(&streamed(stream, items));
    assert_eq!(
        e("", r#", {"question": {"ask": "x", "late": {}}}"#),
        "step 8: question.late: this question reads the stream processor: give the lesson a top-level \"stream\" section (or the question a \"stream\" object with a window)"
    );
    assert_eq!(
        e("", r#", {"task": {"ask": "x", "goal": {"late_records": 0}, "solution": [{"retention": {}}]}}"#),
        "step 8: task.goal.late_records: reads the stream processor: give the lesson a top-level \"stream\" section"
    );
    assert_eq!(
        e(
            STREAM,
            r#", {"question": {"ask": "x", "pinning": {}, "stream": {"delay": "1h"}}}"#
        ),
        "step 8: question.stream: only late and closes questions read the stream processor"
    );
    assert_eq!(
        e(
            STREAM,
            r#", {"question": {"ask": "x", "late": {}, "stream": {"delay": "-1m"}}}"#
        ),
        "step 8: question.stream.delay: delay -60000 ms is not from 0 to 100 y"
    );
    assert_eq!(
        e(r#""stream": {"window": "5m", "grace": "1m"},"#, ""),
        "stream.grace: unknown key (expected: window, delay, semantics, allowed_lateness, from)"
    );
    assert_eq!(
        e(STREAM, r#", {"question": {"ask": "x", "closes": {"window": "2027-03-12T10:00:00Z"}, "expect": 4}}"#)
            .split(": the model's answer")
            .next()
            .unwrap(),
        "step 8: question.expect"
    );
    assert_eq!(
        e(STREAM, r#", {"question": {"ask": "x", "closes": {"window": -5}}}"#),
        "step 8: question.closes: cannot be answered here: 1969-12-31T23:59:59.995Z is in no window of the processor (a negative stamp under Kafka Streams, or a window ending past Long.MAX)"
    );
}

/// A task whose goal counts late records: a bigger grace does not help against a stamp
/// millions of years ahead, but the goal is reached once DeleteRecords moves the processor's
/// start past the bad record.
#[test]
fn a_late_records_goal_reads_the_processor_on_the_live_partition() {
    let json = streamed(
        STREAM,
        r#", {"task": {"ask": "Leave the processor nothing to drop.", "goal": {"late_records": 0},
                      "solution": [{"delete_records": {"offset": 4}}]}}"#,
    );
    assert_eq!(check_errors(&json), Vec::<String>::new());
    let mut play = Play::new(concrete(&json)).unwrap();
    while let Some(step) = play.advance(&mut |_| {}) {
        if let Reached::Task { already_met, .. } = step.unwrap() {
            assert!(!already_met);
            let g = play.goal().unwrap();
            assert_eq!(
                g.checks[0].sentence.to_string(),
                "records dropped as late by the stream processor: 4 (needs 0)"
            );
            let now = play.partition().clock();
            let acted = play
                .act(now, Command::DeleteRecords { offset: 4 }, &mut |_| {})
                .unwrap();
            assert!(acted.solved);
        }
    }
}

#[test]
fn a_post_mortem_is_printed_after_the_timeline_and_its_targets_are_checked() {
    let pm = |what: &str| {
        small("").replace(
            r#""lesson": {"kind": "walkthrough"}"#,
            &format!(
                r#""lesson": {{"kind": "walkthrough", "postmortem": {{"what_happened": "{what}", "why": "Retention stops at the first survivor.", "fix": "DeleteRecords."}}}}"#
            ),
        )
    };
    let c = concrete(&pm("Segment [1](segment:1) was stamped a year ahead."));
    let sheet = answer_sheet(&c).unwrap();
    let sections: Vec<String> = sheet
        .iter()
        .filter(|l| l.kind == LineKind::Section)
        .map(|l| l.sentence.to_string())
        .collect();
    assert_eq!(sections, ["Timeline", "What happened", "Why", "The fix"]);
    assert_eq!(
        first_error(&pm("Segment [9](segment:9).")),
        "lesson.postmortem.what_happened: segment:9: no segment with base offset 9 (segments at this step: 0, 1, 2, 3) (post-mortem targets resolve on the partition as the lesson ends)"
    );
    let e = parse(&small("").replace(
        r#""lesson": {"kind": "walkthrough"}"#,
        r#""lesson": {"postmortem": {"what_happened": "x", "why": "y"}}"#,
    ))
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "lesson.postmortem.fix: missing (a post-mortem says what happened, why, and the fix)"
    );
}

// ---------------------------------------------------------------- the incident library

macro_rules! incidents {
    ($($n:literal $slug:literal),* $(,)?) => {
        [$(
            ($n, "walkthrough", include_str!(concat!("../../static/incidents/", $slug, "-walkthrough.json"))),
            ($n, "drill", include_str!(concat!("../../static/incidents/", $slug, "-drill.json"))),
        )*]
    };
}

const INCIDENTS: [(u32, &str, &str); 16] = incidents!(
    1 "01-nanoseconds",
    2 "02-reminder-pins-retention",
    3 "03-replay-into-24h-topic",
    4 "04-fixes-that-fail",
    5 "05-rolling-stops",
    6 "06-reset-by-time",
    7 "07-upgrade-to-4x",
    8 "08-event-time-downstream",
);

/// Every incident is a walkthrough and a drill that pass `check` in every variant, with the
/// first screen's one sentence, a level, a length and a post-mortem; a walkthrough narrates and
/// highlights, a drill asks at least three questions or tasks.
#[test]
fn every_incident_passes_check_in_every_variant() {
    for (n, kind, json) in INCIDENTS {
        let l = parse(json).unwrap_or_else(|e| panic!("incident {n} {kind}: {e}"));
        let summary =
            check_all(&l, 1000).unwrap_or_else(|(v, e)| panic!("incident {n} {kind} {v}: {e:?}"));
        assert_eq!(summary.variants_checked, l.variant_count());
        let c = l.default_variant();
        assert!(
            c.title().starts_with(&format!("Incident {n}")),
            "{}",
            c.title()
        );
        assert_eq!(c.meta.kind.key(), kind, "incident {n}");
        let s = c.meta.summary.as_ref().expect("a first-screen sentence");
        let words = s.sentences(&|_| Ok(Mention::Link(String::new()))).unwrap();
        assert_eq!(words.len(), 1, "incident {n} {kind}: one sentence");
        assert!(c.meta.level.is_some() && c.meta.minutes.is_some());
        assert!(c.meta.postmortem.is_some(), "incident {n} {kind}");
        match c.meta.kind {
            LessonKind::Drill => assert!(
                summary.questions + summary.tasks >= 3,
                "incident {n} drill: {summary:?}"
            ),
            LessonKind::Walkthrough => {
                let narrated = c.steps.iter().filter(|s| s.narration.is_some()).count();
                let shown = c.steps.iter().filter(|s| !s.show.is_empty()).count();
                assert!(
                    narrated >= 5 && shown >= 5,
                    "incident {n}: {narrated} {shown}"
                );
                assert!(c.steps.iter().any(|s| s.pause));
            }
        }
    }
    // Incident 8 reads the partition with the stream processor, in both kinds.
    for (n, _, json) in INCIDENTS.iter().filter(|i| i.0 == 8) {
        assert!(concrete(json).stream.is_some(), "incident {n}");
    }
}

/// Incident 2 reaches seed 001's table at 12 Mar 2027 09:00: segments 0 and 10000 deleted,
/// 20000 not old enough until 21 Mar 2030 11:20, 30000 kept behind it, 40000 not examined.
#[test]
fn incident_2_reaches_the_seed_001_table() {
    let c = concrete(INCIDENTS[2].2);
    let mut play = Play::new(c).unwrap();
    while play.partition().clock() < Timestamp(1_804_842_000_000) {
        play.advance(&mut |_| {}).unwrap().unwrap();
    }
    let p = play.partition();
    let bases: Vec<i64> = p.segments().iter().map(|s| s.base_offset().0).collect();
    assert_eq!(bases, [20_000, 30_000, 40_000]);
    let r = p.preview_retention(p.clock());
    let v: Vec<String> = r
        .verdicts
        .iter()
        .map(|v| narrate::verdict(v, &r).to_string())
        .collect();
    assert!(
        v[0].contains("not old enough until 21 Mar 2030 11:20"),
        "{v:?}"
    );
    assert!(v[1].contains("pinned behind segment 20000"), "{v:?}");
}

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
