//! A learner's play: grading, hints, scoring, hiding, tasks solved by acting and revealed,
//! narration, where a lesson opens, and answers computed from the live partition.

use super::*;

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
