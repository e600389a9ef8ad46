//! Author mode end to end, natively: a session's journal recorded into a file that replays to
//! the session's partition; the trainer's drill of issue 38 built by commands only and played
//! by a learner; an imported Kafka partition narrated as a walkthrough; random command
//! sequences that never panic and undo back to the start.

use logtime_core::import::{
    parse_offset_index, parse_time_index, segment_file, to_scenario, LogReader, PartitionImport,
    SegmentFileKind, SegmentLogBuilder,
};
use logtime_core::scenario::{parse as parse_scenario, Entry, Runner, Session, Source};
use logtime_lesson::author::{
    AskKind, AuthorCommand, AuthorEvent, Authoring, MetaEdit, QuestionEdit, Start,
};
use logtime_lesson::{Answer, LessonKind, Pick, Play, Reached, Target};
use logtime_model::batch::Record;
use logtime_model::config::{ConfigValue, KafkaVersion};
use logtime_model::lookup::OffsetSpec;
use logtime_model::partition::{Command, Partition};
use logtime_model::units::{Offset, Timestamp};
use proptest::prelude::*;
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
    let mut actions: Vec<Box<Action>> = vec![
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
            (
                Timestamp(t.0 + 60_000),
                Command::SetConfig {
                    name: "message.timestamp.after.max.ms".into(),
                    value: ConfigValue::Number(3_600_000),
                },
            )
        }),
        Box::new(|t| (t, Command::DeleteRecords { offset: 2 })),
        Box::new(|t| {
            (
                t,
                Command::SetVersion {
                    version: KafkaVersion::V4_0,
                },
            )
        }),
        Box::new(|t| {
            let r = vec![Record::at(Timestamp(t.0 - DAY))];
            (t, Command::Produce { records: r })
        }),
        Box::new(|_| (T, Command::SetHighWatermark { offset: Offset(2) })),
    ];
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

/// Issue 38's drill, with no JSON typed: a topic that keeps one day, a replay of three-day-old
/// events, and "which segments does the next retention check delete?".
#[test]
fn the_trainers_drill_is_built_by_commands_and_played_by_a_learner() {
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

fn command() -> impl Strategy<Value = AuthorCommand> {
    let step = 0usize..7;
    prop_oneof![
        (step.clone(), step.clone()).prop_map(|(from, to)| AuthorCommand::Move { from, to }),
        step.clone().prop_map(|step| AuthorCommand::Delete { step }),
        step.clone()
            .prop_map(|step| AuthorCommand::Duplicate { step }),
        (step.clone(), step.clone()).prop_map(|(first, last)| AuthorCommand::Group { first, last }),
        (step.clone(), "[a-z <*\\[\\]()`:]{0,12}")
            .prop_map(|(step, text)| AuthorCommand::SetNarration { step, text }),
        (step.clone(), any::<bool>())
            .prop_map(|(step, pause)| AuthorCommand::SetPause { step, pause }),
        (step.clone(), 0i64..6).prop_map(|(step, o)| AuthorCommand::SetHighlights {
            step,
            targets: vec![Target::Segment(Offset(o))]
        }),
        (step.clone(), "[a-z ]{0,8}").prop_map(|(at, text)| AuthorCommand::AddNote { at, text }),
        (
            step.clone(),
            prop_oneof![
                Just(AskKind::StrikeSegments),
                Just(AskKind::Pinning),
                Just(AskKind::Lookup(None)),
                Just(AskKind::Lookup(Some("now-1d".into()))),
                Just(AskKind::ErrorDeleteRecords(None)),
            ]
        )
            .prop_map(|(at, ask)| AuthorCommand::AddQuestion {
                at,
                ask,
                pointing: Some(Target::Offset(Offset(1))),
                text: "q".into()
            }),
        (step.clone(), 0usize..3).prop_map(|(step, i)| AuthorCommand::EditQuestion {
            step,
            edit: QuestionEdit::EditHint {
                index: i,
                text: "h".into()
            }
        }),
        (step, "[a-z ]{0,8}").prop_map(|(step, h)| AuthorCommand::EditQuestion {
            step,
            edit: QuestionEdit::AddHint(h)
        }),
        (-2i64..3, 0i64..3).prop_map(|(d, ago)| AuthorCommand::Record(Entry::Command {
            at: Timestamp(T.0 + d * 60_000),
            command: Command::Produce {
                records: vec![Record::at(Timestamp(T.0 - ago * DAY))]
            }
        })),
        (0i64..3).prop_map(|m| AuthorCommand::Record(Entry::Command {
            at: Timestamp(T.0 + m * 600_000),
            command: Command::Tick
        })),
        Just(AuthorCommand::Record(Entry::Step)),
        proptest::option::of(0usize..7).prop_map(AuthorCommand::RecordAfter),
        Just(AuthorCommand::Undo),
        Just(AuthorCommand::Redo),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever an author does, nothing panics, a refused command changes nothing, and undoing
    /// everything gives the start document back, byte for byte.
    #[test]
    fn random_commands_never_panic_and_undo_to_the_start(cmds in proptest::collection::vec(command(), 1..24)) {
        let (mut a, _) = Authoring::new(Start::Text(SCENARIO.into())).unwrap();
        let start = a.document();
        for c in cmds {
            let before = a.document();
            if a.apply(T, c).is_err() {
                prop_assert_eq!(a.document(), before);
            }
            let _ = a.steps();
        }
        while a.can_undo() {
            a.apply(T, AuthorCommand::Undo).unwrap();
        }
        prop_assert_eq!(a.document(), start);
    }
}
