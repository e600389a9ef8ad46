//! Author mode: editing, undo and redo, the live check's words, files saved and opened again.

use super::*;
use crate::{Affordance, LessonKind, Pick};
use logtime_model::batch::Record;
use logtime_model::partition::Command;
use logtime_model::units::Offset;
use serde_json::json;

/// 2027-03-12T09:00:00Z.
const T: Timestamp = Timestamp(1_804_842_000_000);
const DAY: i64 = 86_400_000;

fn empty(kafka: &str, configs: &[(&str, &str)]) -> Authoring {
    let start = Start::Empty {
        kafka: kafka.into(),
        configs: configs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        start: T,
    };
    Authoring::new(start).unwrap().0
}

fn run(a: &mut Authoring, cmd: AuthorCommand) -> Vec<AuthorEvent> {
    a.apply(T, cmd.clone())
        .unwrap_or_else(|e| panic!("{cmd:?}: {e}"))
}

fn send(a: &mut Authoring, at: Timestamp, stamps: &[i64], value_bytes: u32) {
    let records = stamps
        .iter()
        .map(|s| Record::with_key(Timestamp(at.0 + s), None, value_bytes))
        .collect();
    run(
        a,
        AuthorCommand::Record(Entry::Command {
            at,
            command: Command::Produce { records },
        }),
    );
}

/// A 3.6 topic with 170-byte segments: each 100-byte record rolls the log.
fn three_segments() -> Authoring {
    let mut a = empty("3.6", &[("retention.ms", "1d"), ("segment.bytes", "170")]);
    for s in [-3 * DAY, -2 * DAY, 0] {
        send(&mut a, T, &[s], 100);
    }
    a
}

#[test]
fn an_empty_partition_starts_a_file_in_the_grammar() {
    let a = empty(
        "4.0",
        &[("retention.ms", "86400000"), ("segment.bytes", "1MiB")],
    );
    assert_eq!(
        a.document(),
        "{\n  \"kafka\": \"4.0\",\n  \"topic\": {\"retention.ms\": \"1d\", \"segment.bytes\": \"1MiB\"},\n  \"start\": \"2027-03-12T09:00:00Z\",\n  \"steps\": []\n}\n"
    );
    assert!(a.check().playable(), "{:?}", a.check().problems);
    assert!(!a.can_undo() && !a.can_redo());
}

#[test]
fn edits_and_their_undo_restore_byte_identical_documents() {
    let mut a = three_segments();
    let mut docs = vec![a.document()];
    let edits = vec![
        AuthorCommand::SetNarration {
            step: 2,
            text: "A producer stamps record [1](record:1) two days back.".into(),
        },
        AuthorCommand::SetHighlights {
            step: 2,
            targets: vec![Target::Offset(Offset(1)), Target::Segment(Offset(1))],
        },
        AuthorCommand::SetPause {
            step: 2,
            pause: true,
        },
        AuthorCommand::AddNote {
            at: 1,
            text: "Each batch fills a segment.".into(),
        },
        AuthorCommand::Duplicate { step: 4 },
        AuthorCommand::Move { from: 5, to: 2 },
        AuthorCommand::Delete { step: 2 },
    ];
    for e in edits {
        run(&mut a, e);
        docs.push(a.document());
    }
    let steps = a.steps();
    assert_eq!(steps.len(), 4);
    assert_eq!(steps[0].kind, "note");
    assert_eq!(steps[2].highlights, vec!["offset:1", "segment:1"]);
    assert!(steps[2].pause);
    assert_eq!(
        steps[2].preview[0].to_string(),
        "A producer stamps record 1 two days back."
    );
    for want in docs.iter().rev().skip(1) {
        let ev = run(&mut a, AuthorCommand::Undo);
        assert!(matches!(ev[0], AuthorEvent::Undone { .. }));
        assert_eq!(&a.document(), want);
    }
    // The three recorded batches before the edits undo too, back to the empty file.
    for _ in 0..3 {
        run(&mut a, AuthorCommand::Undo);
    }
    assert_eq!(
        a.apply(T, AuthorCommand::Undo).unwrap_err(),
        AuthorError::NothingToUndo
    );
    for _ in 0..3 {
        run(&mut a, AuthorCommand::Redo);
    }
    assert_eq!(a.document(), docs[0]);
    for want in docs.iter().skip(1) {
        run(&mut a, AuthorCommand::Redo);
        assert_eq!(&a.document(), want);
    }
    assert!(!a.can_redo());
}

#[test]
fn a_command_that_cannot_apply_changes_nothing_and_says_why() {
    let mut a = three_segments();
    let before = a.document();
    let cases = [
        (
            AuthorCommand::Delete { step: 9 },
            "step: there is no step 9 (the lesson has 3 steps)",
        ),
        (
            AuthorCommand::Move { from: 1, to: 4 },
            "to: there is no step 4 (the lesson has 3 steps)",
        ),
        (
            AuthorCommand::AddQuestion {
                at: 4,
                ask: AskKind::Lookup(None),
                pointing: Some(Target::Segment(Offset(0))),
                text: "Where does it land?".into(),
            },
            "question.lookup.timestamp: needs an instant: give one, or point at a time on the chart or clock",
        ),
        (
            AuthorCommand::EditQuestion {
                step: 1,
                edit: QuestionEdit::AddHint("no".into()),
            },
            "step 1: is a produce step, not a question or a task",
        ),
        (
            AuthorCommand::Group { first: 1, last: 3 },
            "steps 1 to 3 cannot be made one step: only identical one-batch produce steps become generated traffic",
        ),
        (
            AuthorCommand::SetMeta(MetaEdit::Minutes(Some(0))),
            "lesson.minutes: 0 is not from 1 to 600",
        ),
        (AuthorCommand::Redo, "there is nothing to redo"),
    ];
    for (cmd, want) in cases {
        let e = a.apply(T, cmd).unwrap_err();
        assert_eq!(e.to_string(), want);
        assert_eq!(a.document(), before);
    }
}

#[test]
fn grouping_makes_one_step_of_the_grammar() {
    let mut a = empty("3.6", &[("segment.bytes", "170")]);
    for k in 0..3 {
        send(&mut a, Timestamp(T.0 + k * 60_000), &[-3 * DAY], 100);
    }
    // Recorded a minute apart: produce, advance 1m, produce, advance 1m, produce.
    assert_eq!(a.steps().len(), 5);
    let before = a.lesson().unwrap().default_variant().scenario.partition();
    run(&mut a, AuthorCommand::Group { first: 1, last: 5 });
    let steps = a.steps();
    assert_eq!(steps.len(), 1);
    assert_eq!(
        steps[0].summary,
        "sent 3 batches of 1 record stamped now-3d, one every 1m"
    );
    let after = a.lesson().unwrap().default_variant().scenario.partition();
    assert_eq!(before.state(), after.state());
    // Config changes merge, later values winning.
    for (n, v) in [
        ("retention.ms", 1000),
        ("segment.ms", 5000),
        ("retention.ms", 2000),
    ] {
        run(
            &mut a,
            AuthorCommand::Record(Entry::Command {
                at: Timestamp(T.0 + 120_000),
                command: Command::SetConfig {
                    name: n.into(),
                    value: logtime_model::config::ConfigValue::Number(v),
                },
            }),
        );
    }
    run(&mut a, AuthorCommand::Group { first: 2, last: 4 });
    assert_eq!(
        a.value()["steps"][1],
        json!({"config": {"retention.ms": 2000, "segment.ms": 5000}})
    );
}

#[test]
fn the_live_check_names_the_step_and_field_of_bad_markup() {
    let mut a = three_segments();
    run(
        &mut a,
        AuthorCommand::SetNarration {
            step: 2,
            text: "Look at <b>this</b>".into(),
        },
    );
    let p = &a.check().problems;
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!((p[0].step, p[0].field.as_str()), (Some(2), "narration"));
    assert!(
        p[0].message.contains("raw HTML is not allowed"),
        "{}",
        p[0].message
    );
    assert_eq!(a.steps()[1].problems, p.clone());
    assert!(!a.check().playable());
}

#[test]
fn a_question_the_model_cannot_answer_at_its_step_is_a_problem_there() {
    // Nothing is stamped in the future: no segment pins retention.
    let mut a = three_segments();
    run(
        &mut a,
        AuthorCommand::AddQuestion {
            at: 4,
            ask: AskKind::Pinning,
            pointing: None,
            text: "Which segment pins retention?".into(),
        },
    );
    let p = &a.check().problems;
    assert_eq!(
        (p[0].step, p[0].field.as_str()),
        (Some(4), "question.pinning")
    );
    assert!(
        p[0].message.starts_with("cannot be answered here: "),
        "{}",
        p[0].message
    );
    let answer = a.steps()[3].answer.clone().unwrap();
    assert!(answer.answer.is_err());
}

#[test]
fn a_questions_answer_and_feedback_are_shown_to_the_author() {
    let mut a = three_segments();
    run(
        &mut a,
        AuthorCommand::AddQuestion {
            at: 4,
            ask: AskKind::StrikeSegments,
            pointing: None,
            text: "Which segments does the next retention check delete?".into(),
        },
    );
    assert!(a.check().playable(), "{:?}", a.check().problems);
    let v = a.steps()[3].answer.clone().unwrap();
    assert_eq!(v.answer, Ok("segments 0, 1".into()));
    assert!(!v.right.is_empty());
    let (wrong, feedback) = v.wrong.unwrap();
    assert_eq!(wrong, "segments 0");
    assert!(!feedback.is_empty());
    // A stated answer the model disagrees with is a problem at `question.expect`.
    run(
        &mut a,
        AuthorCommand::EditQuestion {
            step: 4,
            edit: QuestionEdit::Expect(Some(json!([0]))),
        },
    );
    let p = &a.check().problems;
    assert_eq!(
        (p[0].step, p[0].field.as_str()),
        (Some(4), "question.expect")
    );
}

#[test]
fn a_scheduled_deletion_during_a_clock_move_is_a_bite_at_that_step() {
    let mut a = empty("4.0", &[("retention.ms", "1d"), ("segment.bytes", "1MiB")]);
    send(&mut a, T, &[-3 * DAY], 600_000);
    send(&mut a, T, &[-3 * DAY], 600_000);
    send(&mut a, T, &[0], 600_000);
    run(
        &mut a,
        AuthorCommand::Record(Entry::Command {
            at: Timestamp(T.0 + 600_000),
            command: Command::Tick,
        }),
    );
    assert_eq!(a.steps()[3].summary, "moved the clock 10m");
    let bites = &a.check().bites;
    assert_eq!(bites.len(), 1, "{bites:?}");
    assert_eq!(bites[0].step, 4);
    assert!(
        bites[0].sentence.to_string().contains("deleted 2 segments"),
        "{}",
        bites[0].sentence
    );
    assert_eq!(a.steps()[3].bites.len(), 1);
}

#[test]
fn a_saved_file_opens_as_the_same_document() {
    let mut a = three_segments();
    run(
        &mut a,
        AuthorCommand::SetMeta(MetaEdit::Kind(LessonKind::Drill)),
    );
    run(
        &mut a,
        AuthorCommand::SetMeta(MetaEdit::Title(Some("Three segments".into()))),
    );
    run(
        &mut a,
        AuthorCommand::AddQuestion {
            at: 4,
            ask: AskKind::StrikeSegments,
            pointing: None,
            text: "Which segments go?".into(),
        },
    );
    run(
        &mut a,
        AuthorCommand::EditQuestion {
            step: 4,
            edit: QuestionEdit::AddHint(
                "Compare each largest timestamp with `retention.ms`.".into(),
            ),
        },
    );
    let saved = a.document();
    let (b, _) = Authoring::new(Start::Text(saved.clone())).unwrap();
    assert_eq!(b.document(), saved);
    let (c, _) = Authoring::new(Start::Text(b.document())).unwrap();
    assert_eq!(c.document(), saved, "saving twice gives the same bytes");
    assert_eq!(b.check(), a.check());
}

#[test]
fn variants_and_values_are_set_in_the_files_grammar() {
    let mut a = three_segments();
    run(
        &mut a,
        AuthorCommand::SetVariant {
            name: "retention".into(),
            variable: Some(VariableSpec::Range {
                from: json!("1d"),
                to: json!("3d"),
                step: json!("1d"),
                default: None,
            }),
        },
    );
    run(
        &mut a,
        AuthorCommand::SetValue {
            pointer: "/topic/retention.ms".into(),
            value: Some(json!("$retention")),
        },
    );
    let l = a.lesson().unwrap();
    assert_eq!(l.variant_count(), 3);
    assert!(a.check().playable(), "{:?}", a.check().problems);
    run(
        &mut a,
        AuthorCommand::AddQuestion {
            at: 4,
            ask: AskKind::StrikeSegments,
            pointing: None,
            text: "Which segments go after ${retention:duration}?".into(),
        },
    );
    // Two variants side by side: at the next scheduled check (five minutes on) one day of
    // retention deletes both old segments, three days only the three-day-old one.
    let one = a.variant_preview(Pick::Index(0));
    let three = a.variant_preview(Pick::Index(2));
    assert_eq!(one.label, "retention = 1 d");
    assert_eq!(one.answers[0].answer, Ok("segments 0, 1".into()));
    assert_eq!(three.answers[0].answer, Ok("segments 0".into()));
    assert!(one.problems.is_empty() && three.problems.is_empty());
    let e = a
        .apply(
            T,
            AuthorCommand::SetValue {
                pointer: "/nowhere/x".into(),
                value: Some(json!(1)),
            },
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "pointer \"/nowhere/x\": its parent is not in the file"
    );
}

#[test]
fn unreadable_starts_are_refused_in_words() {
    let e = Authoring::new(Start::Text("[1, 2]".into())).unwrap_err();
    assert_eq!(
        e.to_string(),
        "this is not a scenario or lesson file: a scenario is a JSON object, not an array"
    );
    let e = Authoring::new(Start::Text("{\"steps\": [".into())).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("this is not a scenario or lesson file: json syntax error"),
        "{e}"
    );
}

/// A year-ahead stamp pins the segments behind it.
fn pinned() -> Authoring {
    let mut a = empty("3.6", &[("retention.ms", "1d"), ("segment.bytes", "170")]);
    for s in [-3 * DAY, 365 * DAY, -2 * DAY, 0] {
        send(&mut a, T, &[s], 100);
    }
    a
}

#[test]
fn a_task_takes_its_goal_from_cores_kinds_and_its_solution_from_the_journal() {
    let mut a = pinned();
    let fix = |command| Entry::Command { at: T, command };
    run(
        &mut a,
        AuthorCommand::AddTask {
            at: 5,
            goal: vec![
                GoalSpec::NoPinnedSegment,
                GoalSpec::RecordsPresent(3, 3),
                GoalSpec::Rejects(BatchSpec {
                    label: Some("a batch stamped a year ahead".into()),
                    records: vec![RecordSpec::at("now+365d")],
                }),
            ],
            solution: vec![
                fix(Command::DeleteRecords { offset: 2 }),
                fix(Command::RunRetention),
                fix(Command::SetConfig {
                    name: "message.timestamp.after.max.ms".into(),
                    value: logtime_model::config::ConfigValue::Number(3_600_000),
                }),
            ],
            text: "Free the pinned segments and refuse the next stamp a year ahead.".into(),
        },
    );
    assert!(a.check().playable(), "{:?}", a.check().problems);
    assert_eq!(
        a.value()["steps"][4]["task"]["solution"],
        json!([{"delete_records": {"offset": 2}}, {"retention": {}},
               {"config": {"message.timestamp.after.max.ms": 3600000}}])
    );
    // A goal that already holds is a problem at `task.goal`.
    run(
        &mut a,
        AuthorCommand::AddTask {
            at: 5,
            goal: vec![GoalSpec::LogEndOffset(BoundSpec::Exactly(4))],
            solution: vec![fix(Command::RunRetention)],
            text: "Keep four records.".into(),
        },
    );
    let p = &a.check().problems;
    assert_eq!((p[0].step, p[0].field.as_str()), (Some(5), "task.goal"));
    assert!(p[0]
        .message
        .starts_with("already holds before the learner acts"));
    let e = a
        .apply(
            T,
            AuthorCommand::AddTask {
                at: 5,
                goal: vec![GoalSpec::NoPinnedSegment],
                solution: vec![],
                text: "x".into(),
            },
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "this action cannot be recorded as a step: a task needs a solution: do what solves it in the explorer first"
    );
}

#[test]
fn question_edits_write_the_keys_a_learner_is_graded_by() {
    let mut a = pinned();
    run(
        &mut a,
        AuthorCommand::AddQuestion {
            at: 5,
            ask: AskKind::Pinning,
            pointing: None,
            text: "Which segment pins retention?".into(),
        },
    );
    let edits = [
        QuestionEdit::Title(Some("The pin".into())),
        QuestionEdit::AddHint("Retention stops at the first segment it keeps.".into()),
        QuestionEdit::AddHint("Look for a stamp ahead of the clock.".into()),
        QuestionEdit::EditHint {
            index: 1,
            text: "Look for a largest timestamp ahead of the clock.".into(),
        },
        QuestionEdit::RemoveHint(0),
        QuestionEdit::Reveal(Some(
            "Segment [1](segment:1) is stamped a year ahead.".into(),
        )),
        QuestionEdit::Points(Some(20)),
        QuestionEdit::Wrong {
            class: "behind_pinning".into(),
            text: Some("Look before this one.".into()),
        },
        QuestionEdit::Hide(Some(vec![Affordance::Verdicts, Affordance::AnswerPanel])),
        QuestionEdit::Expect(Some(json!(1))),
    ];
    for edit in edits {
        run(&mut a, AuthorCommand::EditQuestion { step: 5, edit });
    }
    assert!(a.check().playable(), "{:?}", a.check().problems);
    assert_eq!(
        a.value()["steps"][4]["question"],
        json!({"ask": "Which segment pins retention?", "pinning": {}, "title": "The pin",
               "hints": ["Look for a largest timestamp ahead of the clock."],
               "reveal": "Segment [1](segment:1) is stamped a year ahead.", "points": 20,
               "wrong": {"behind_pinning": "Look before this one."},
               "hide": ["verdicts", "answer_panel"], "expect": 1})
    );
    // The author's words for a wrong class are what a learner who makes that mistake reads.
    let v = a.steps()[4].answer.clone().unwrap();
    assert_eq!(v.answer, Ok("segment 1".into()));
    let (wrong, feedback) = v.wrong.unwrap();
    assert_eq!(wrong, "segment 0");
    assert!(!feedback.is_empty());
    // A class this kind never gives is a problem at its field, with core's words.
    run(
        &mut a,
        AuthorCommand::EditQuestion {
            step: 5,
            edit: QuestionEdit::Wrong {
                class: "closest_stamp".into(),
                text: Some("no".into()),
            },
        },
    );
    let p = &a.check().problems;
    assert_eq!(p[0].step, Some(5));
    assert!(p[0].field.starts_with("question.wrong"), "{p:?}");
}

#[test]
fn the_author_sees_a_questions_wrong_classes_and_what_it_hides() {
    let mut a = three_segments();
    run(
        &mut a,
        AuthorCommand::AddQuestion {
            at: 4,
            ask: AskKind::StrikeSegments,
            pointing: None,
            text: "Which segments go?".into(),
        },
    );
    let v = a.steps()[3].answer.clone().unwrap();
    let keys: Vec<&str> = v.classes.iter().map(|c| c.key()).collect();
    assert_eq!(
        keys,
        [
            "behind_pinning",
            "first_stamp",
            "kept_struck",
            "missed_deleted"
        ]
    );
    assert!(v.hide.contains(Affordance::Verdicts));
}
