//! Author mode end to end, natively: a session's journal recorded into a file that replays to
//! the session's partition; the trainer's drill of issue 38 built by commands only and played
//! by a learner; an imported Kafka partition narrated as a walkthrough; every built-in opened,
//! saved and reopened. Random command sequences are `author_props.rs`.

use logtime_core::import::{
    parse_offset_index, parse_time_index, segment_file, to_scenario, LogReader, PartitionImport,
    SegmentFileKind, SegmentLogBuilder,
};
use logtime_core::scenario::{parse as parse_scenario, Entry, Runner, Session, Source};
use logtime_lesson::author::{
    AskKind, AuthorCommand, AuthorEvent, Authoring, GoalSpec, MetaEdit, QuestionEdit, Start,
};
use logtime_lesson::{Answer, LessonKind, Pick, Play, Reached, Target};
use logtime_model::batch::Record;
use logtime_model::config::{ConfigValue, KafkaVersion};
use logtime_model::lookup::OffsetSpec;
use logtime_model::partition::{Command, Partition};
use logtime_model::units::{Offset, Timestamp};
use std::path::Path;

/// 2027-03-12T09:00:00Z.
const T: Timestamp = Timestamp(1_804_842_000_000);
const DAY: i64 = 86_400_000;

fn run(a: &mut Authoring, cmd: AuthorCommand) -> Vec<AuthorEvent> {
    a.apply(T, cmd.clone())
        .unwrap_or_else(|e| panic!("{cmd:?}: {e}"))
}

/// The partition a file replays to.
fn replayed(doc: &str) -> Partition {
    let l = logtime_lesson::parse(doc).unwrap();
    let mut r = Runner::new(l.default_variant().scenario.clone());
    while let Some(s) = r.step(&mut |_| {}) {
        s.unwrap();
    }
    r.partition().clone()
}

const SCENARIO: &str = r#"{"title": "two batches", "kafka": "3.6",
  "topic": {"retention.ms": "1d", "segment.bytes": 170},
  "start": "2027-03-12T09:00:00Z",
  "steps": [{"produce": {"records": [{"timestamp": "now-3d"}]}},
            {"produce": {"records": [{"timestamp": "now-2d"}]}}]}"#;

/// An explorer action made at the session's clock: when, and what.
type Action = dyn Fn(Timestamp) -> (Timestamp, Command);

/// One action of every kind the explorer journals, each made at the session's clock (or later).
fn actions() -> Vec<Box<Action>> {
    vec![
        Box::new(|t| {
            let r = vec![
                Record::with_key(Timestamp(t.0 + 90_000), Some(0), 40),
                Record::with_key(Timestamp(-1), Some(8), 100),
            ];
            (t, Command::Produce { records: r })
        }),
        Box::new(|t| (Timestamp(t.0 + 3_600_000), Command::Tick)),
        Box::new(|t| (t, Command::RunRetention)),
        Box::new(|t| {
            let name = "message.timestamp.after.max.ms".into();
            let value = ConfigValue::Number(3_600_000);
            (Timestamp(t.0 + 60_000), Command::SetConfig { name, value })
        }),
        Box::new(|t| (t, Command::DeleteRecords { offset: 2 })),
        Box::new(|t| {
            let version = KafkaVersion::V4_0;
            (t, Command::SetVersion { version })
        }),
        Box::new(|t| {
            let r = vec![Record::at(Timestamp(t.0 - DAY))];
            (t, Command::Produce { records: r })
        }),
        Box::new(|_| (T, Command::SetHighWatermark { offset: Offset(2) })),
    ]
}

/// Every kind of journal entry, done in a session on a scenario and recorded as it happens,
/// gives a file that replays to the session's partition.
#[test]
fn a_recorded_session_saves_to_a_file_that_replays_to_the_same_partition() {
    let mut session = Session::new(
        Source::Inline(SCENARIO.into()),
        parse_scenario(SCENARIO).unwrap(),
    );
    let (mut a, _) = Authoring::new(Start::Text(SCENARIO.into())).unwrap();
    run(&mut a, AuthorCommand::RecordAfter(Some(0)));
    session.step(&mut |_| {}).unwrap().unwrap();
    let now = |s: &Session| s.runner().now();
    let mut actions = actions();
    let record = |a: &mut Authoring, e: Entry| {
        run(a, AuthorCommand::Record(e));
    };
    record(&mut a, Entry::Step);
    for (k, make) in actions.drain(..).enumerate() {
        let (mut at, command) = make(now(&session));
        at = Timestamp(at.0.max(now(&session).0));
        session.apply(at, command.clone(), &mut |_| {}).unwrap();
        record(&mut a, Entry::Command { at, command });
        if k == 2 {
            session.lookup(OffsetSpec::MaxTimestamp).unwrap();
            record(&mut a, Entry::Lookup(OffsetSpec::MaxTimestamp));
            session
                .lookup(OffsetSpec::Timestamp(Timestamp(T.0 - DAY)))
                .unwrap();
            record(
                &mut a,
                Entry::Lookup(OffsetSpec::Timestamp(Timestamp(T.0 - DAY))),
            );
        }
    }
    while let Some(s) = session.step(&mut |_| {}) {
        s.unwrap();
        record(&mut a, Entry::Step);
    }
    let kinds: Vec<String> = a.steps().iter().map(|s| s.kind.clone()).collect();
    assert_eq!(
        kinds,
        [
            "produce",
            "produce",
            "advance",
            "retention",
            "lookup",
            "lookup",
            "advance",
            "config",
            "delete_records",
            "version",
            "produce",
            "high_watermark",
            "produce"
        ]
    );
    assert!(a.check().playable(), "{:?}", a.check().problems);
    let doc = a.document();
    assert!(doc.contains("\"timestamp\": \"now+1m30s\""), "{doc}");
    assert!(doc.contains("{\"advance\": \"1h\"}"), "{doc}");
    let got = replayed(&doc);
    assert_eq!(got.state(), session.runner().partition().state());
    got.check_invariants();
}

/// Issue 38's drill built by commands: what a trainer clicks and types.
fn trainers_drill() -> Authoring {
    let (mut a, _) = Authoring::new(Start::Empty {
        kafka: "4.0".into(),
        configs: vec![
            ("retention.ms".into(), "1d".into()),
            ("segment.bytes".into(), "1MiB".into()),
        ],
        start: T,
    })
    .unwrap();
    run(
        &mut a,
        AuthorCommand::SetMeta(MetaEdit::Title(Some(
            "A replay into a one-day topic".into(),
        ))),
    );
    run(
        &mut a,
        AuthorCommand::SetMeta(MetaEdit::Kind(LessonKind::Drill)),
    );
    for stamp in [-3 * DAY, -71 * 3_600_000, 0] {
        let records = vec![Record::with_key(Timestamp(T.0 + stamp), None, 600_000)];
        run(
            &mut a,
            AuthorCommand::Record(Entry::Command {
                at: T,
                command: Command::Produce { records },
            }),
        );
    }
    run(
        &mut a,
        AuthorCommand::SetNarration {
            step: 1,
            text: "A replay job sends events from **three days ago**.".into(),
        },
    );
    run(
        &mut a,
        AuthorCommand::AddQuestion {
            at: 4,
            ask: AskKind::StrikeSegments,
            pointing: None,
            text: "Which segments does the next retention check delete?".into(),
        },
    );
    run(
        &mut a,
        AuthorCommand::EditQuestion {
            step: 4,
            edit: QuestionEdit::AddHint(
                "Time retention compares each segment's largest timestamp with the clock minus `retention.ms`.".into(),
            ),
        },
    );
    a
}

/// Issue 38's drill, with no JSON typed: a topic that keeps one day, a replay of three-day-old
/// events, and "which segments does the next retention check delete?".
#[test]
fn the_trainers_drill_is_built_by_commands_and_played_by_a_learner() {
    let mut a = trainers_drill();
    let c = a.check();
    assert!(c.playable(), "{:?}", c.problems);
    assert!(c.bites.is_empty(), "{:?}", c.bites);
    assert_eq!(c.answers[0].answer, Ok("segments 0, 1".into()));
    // The author states the answer; the check verifies it as `logtime check` does.
    run(
        &mut a,
        AuthorCommand::EditQuestion {
            step: 4,
            edit: QuestionEdit::Expect(Some(serde_json::json!([0, 1]))),
        },
    );
    assert!(a.check().playable(), "{:?}", a.check().problems);
    let doc = a.document();
    assert!(doc.contains("\"timestamp\": \"now-2d23h\""), "{doc}");
    let lesson = logtime_lesson::parse(&doc).unwrap();
    assert!(logtime_lesson::check_all(&lesson, 10).is_ok());

    // A learner plays it: one wrong try, then right.
    let mut play = Play::new(lesson.instantiate(Pick::Seed(7)).unwrap()).unwrap();
    let mut graded = 0;
    while let Some(step) = play.advance(&mut |_| {}) {
        if let Reached::Question { .. } = step.unwrap() {
            let g = play.answer(&Answer::segments(vec![Offset(0)])).unwrap();
            assert!(!g.correct);
            let g = play
                .answer(&Answer::segments(vec![Offset(0), Offset(1)]))
                .unwrap();
            assert!(g.correct);
            graded += 1;
        }
    }
    assert_eq!(graded, 1);
    assert_eq!(play.scorecard().total(), (8, 10)); // one wrong answer: 10 − 2
}

/// The pinned-retention partition Kafka wrote, imported from its files.
fn imported() -> Partition {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/import/kafka/pinned-retention");
    let scenario =
        parse_scenario(&std::fs::read_to_string(root.join("scenario.json")).unwrap()).unwrap();
    let mut import = PartitionImport::new("clicks-0", scenario.config.clone());
    for entry in std::fs::read_dir(root.join("closed/clicks-0")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some((base, kind)) = segment_file(&name) else {
            continue;
        };
        let bytes = std::fs::read(&path).unwrap();
        match kind {
            SegmentFileKind::Log => {
                let mut reader = LogReader::new();
                let mut seg = SegmentLogBuilder::new(base);
                reader.feed(&bytes, &mut |b| seg.push(b));
                import.add_log(base, seg.finish(reader.finish()), None);
            }
            SegmentFileKind::OffsetIndex => {
                import.add_offset_index(base, parse_offset_index(base, &bytes))
            }
            SegmentFileKind::TimeIndex => {
                import.add_time_index(base, parse_time_index(base, &bytes))
            }
        }
    }
    // 2027-03-11T00:00:00Z, the fixture's last clock.
    import
        .finish(Timestamp(1_804_723_200_000), None)
        .unwrap()
        .partition
}

#[test]
fn an_imported_partition_becomes_a_narrated_walkthrough_that_checks() {
    let p = imported();
    let (mut a, _) = Authoring::new(Start::Imported(to_scenario(&p, "pinned-retention"))).unwrap();
    assert_eq!(a.value()["lesson"]["kind"], "walkthrough");
    let pin = a
        .lesson()
        .unwrap()
        .default_variant()
        .scenario
        .partition()
        .segments()
        .iter()
        .find(|s| {
            s.record_timestamps()
                .iter()
                .any(|t| *t > 1_804_723_200_000 + 365 * DAY)
        })
        .map(|s| s.base_offset())
        .unwrap();
    run(
        &mut a,
        AuthorCommand::AddNote {
            at: 1,
            text: format!("Segment [{pin}](segment:{pin}) holds a record stamped three years ahead: retention stops there."),
        },
    );
    run(
        &mut a,
        AuthorCommand::SetHighlights {
            step: 1,
            targets: vec![Target::Segment(pin), Target::Config("retention.ms".into())],
        },
    );
    run(
        &mut a,
        AuthorCommand::SetPause {
            step: 1,
            pause: true,
        },
    );
    run(
        &mut a,
        AuthorCommand::AddQuestion {
            at: 2,
            ask: AskKind::Pinning,
            pointing: None,
            text: "Which segment pins retention?".into(),
        },
    );
    let c = a.check();
    assert!(c.playable(), "{:?}", c.problems);
    assert_eq!(c.answers[0].answer, Ok(format!("segment {pin}")));
    let note = &a.steps()[0];
    assert_eq!(note.kind, "note");
    assert!(note.preview[0]
        .to_string()
        .starts_with(&format!("Segment {pin} holds")));
    let saved = a.document();
    assert!(
        saved.contains("\"log\""),
        "the imported partition is the scenario's log"
    );
    let (b, _) = Authoring::new(Start::Text(saved.clone())).unwrap();
    assert_eq!(b.document(), saved);
}

/// Every built-in scenario, lesson and incident opens in author mode with no problem, saves to
/// a file that opens as the same document, and an edit undone gives that document back.
#[test]
fn every_built_in_opens_saves_and_reopens_as_the_same_document() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../static");
    let mut opened = 0;
    for dir in ["scenarios", "lessons", "incidents"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for path in files {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let (mut a, _) = Authoring::new(Start::Text(text)).unwrap();
            assert!(a.check().playable(), "{name}: {:?}", a.check().problems);
            let saved = a.document();
            let (b, _) = Authoring::new(Start::Text(saved.clone())).unwrap();
            assert_eq!(b.document(), saved, "{name}");
            run(
                &mut a,
                AuthorCommand::AddNote {
                    at: 1,
                    text: "An author's note.".into(),
                },
            );
            run(&mut a, AuthorCommand::Undo);
            assert_eq!(a.document(), saved, "{name}");
            opened += 1;
        }
    }
    assert!(opened >= 24, "{opened}");
}

/// The on-call engineer's fix, done in the explorer and recorded as steps, becomes a "try it
/// yourself" task whose solution it is.
#[test]
fn a_recorded_fix_becomes_a_task_whose_solution_it_is() {
    let (mut a, _) = Authoring::new(Start::Empty {
        kafka: "3.6".into(),
        configs: vec![
            ("retention.ms".into(), "1d".into()),
            ("segment.bytes".into(), "170".into()),
        ],
        start: T,
    })
    .unwrap();
    let at = |command| AuthorCommand::Record(Entry::Command { at: T, command });
    for s in [-3 * DAY, 365 * DAY, -2 * DAY, 0] {
        let records = vec![Record::at(Timestamp(T.0 + s))];
        run(&mut a, at(Command::Produce { records }));
    }
    run(&mut a, at(Command::DeleteRecords { offset: 2 }));
    run(&mut a, at(Command::RunRetention));
    run(
        &mut a,
        AuthorCommand::SetNarration {
            step: 6,
            text: "The check deletes segments 0 to 2.".into(),
        },
    );
    run(
        &mut a,
        AuthorCommand::Record(Entry::Lookup(OffsetSpec::Earliest)),
    );
    let goal = vec![GoalSpec::NoPinnedSegment, GoalSpec::RecordsPresent(3, 3)];
    let e = a
        .apply(
            T,
            AuthorCommand::MakeTask {
                first: 5,
                last: 7,
                goal: goal.clone(),
                text: "Unpin it.".into(),
            },
        )
        .unwrap_err();
    assert!(
        e.to_string().starts_with("steps 5 to 7 cannot be made one step: step 7 (lookup) cannot be part of a task's solution"),
        "{e}"
    );
    let events = run(
        &mut a,
        AuthorCommand::MakeTask {
            first: 5,
            last: 6,
            goal,
            text: "Free the segments pinned behind segment 1, keeping record 3.".into(),
        },
    );
    assert_eq!(events[0], AuthorEvent::StepChanged { step: 5 });
    assert_eq!(
        a.value()["steps"][4]["task"],
        serde_json::json!({"ask": "Free the segments pinned behind segment 1, keeping record 3.",
            "goal": {"no_pinned_segment": true, "records_present": [3, 3]},
            "solution": [{"delete_records": {"offset": 2}}, {"retention": {}}],
            "reveal": "The check deletes segments 0 to 2."})
    );
    assert!(a.check().playable(), "{:?}", a.check().problems);
    assert_eq!(
        a.steps()[4].summary,
        "task: Free the segments pinned behind segment 1, keeping record 3."
    );
}

/// A narration with a markup mistake, being typed, does not stop the recording: the clock
/// comes from the scenario steps, and the mistake stays a problem at its step.
#[test]
fn recording_goes_on_while_a_narration_has_a_mistake() {
    let (mut a, _) = Authoring::new(Start::Text(SCENARIO.into())).unwrap();
    run(
        &mut a,
        AuthorCommand::SetNarration {
            step: 2,
            text: "See <b>this</b>".into(),
        },
    );
    assert_eq!(a.check().problems[0].field, "narration");
    run(
        &mut a,
        AuthorCommand::Record(Entry::Command {
            at: Timestamp(T.0 + 60_000),
            command: Command::RunRetention,
        }),
    );
    let kinds: Vec<String> = a.steps().iter().map(|s| s.kind.clone()).collect();
    assert_eq!(kinds, ["produce", "produce", "advance", "retention"]);
    assert_eq!(a.steps()[2].summary, "moved the clock 1m");
    assert_eq!(a.check().problems.len(), 1);
}
