//! Author mode under random command sequences: whatever an author does, nothing panics, a
//! refused command changes nothing (and an edit's dry run, `refusal`, refuses exactly what
//! `apply` refuses), and undoing everything gives the start document back.

use logtime_core::scenario::Entry;
use logtime_lesson::author::{
    AskKind, AuthorCommand, Authoring, BoundSpec, GoalSpec, MetaEdit, QuestionEdit, Start,
    VariableSpec, VaryValues,
};
use logtime_lesson::{LessonKind, Target};
use logtime_model::batch::Record;
use logtime_model::partition::Command;
use logtime_model::units::{Offset, Timestamp};
use proptest::prelude::*;

/// 2027-03-12T09:00:00Z.
const T: Timestamp = Timestamp(1_804_842_000_000);
const DAY: i64 = 86_400_000;

const SCENARIO: &str = r#"{"title": "two batches", "kafka": "3.6",
  "topic": {"retention.ms": "1d", "segment.bytes": 170},
  "start": "2027-03-12T09:00:00Z",
  "steps": [{"produce": {"records": [{"timestamp": "now-3d"}]}},
            {"produce": {"records": [{"timestamp": "now-2d"}]}}]}"#;

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

/// Commands on the file as a whole and on tasks.
fn file_command() -> impl Strategy<Value = AuthorCommand> {
    let step = 0usize..7;
    prop_oneof![
        (step.clone(), step.clone()).prop_map(|(first, last)| AuthorCommand::MakeTask {
            first,
            last,
            goal: vec![GoalSpec::NoPinnedSegment],
            text: "t".into()
        }),
        (step, 0i64..4).prop_map(|(at, o)| AuthorCommand::AddTask {
            at,
            goal: vec![GoalSpec::LogStartOffset(BoundSpec::Exactly(o))],
            solution: vec![Entry::Command {
                at: T,
                command: Command::DeleteRecords { offset: o }
            }],
            text: "t".into()
        }),
        (1i64..4).prop_map(|to| AuthorCommand::SetVariant {
            name: "r".into(),
            variable: Some(VariableSpec::Range {
                from: serde_json::json!("1d"),
                to: serde_json::json!(format!("{to}d")),
                step: serde_json::json!("1d"),
                default: None
            })
        }),
        Just(AuthorCommand::SetVariant {
            name: "r".into(),
            variable: None
        }),
        prop_oneof![
            Just("/topic/retention.ms"),
            Just("/steps/0/pause"),
            Just("/x/y"),
            Just("")
        ]
        .prop_map(|p| AuthorCommand::SetValue {
            pointer: p.into(),
            value: Some(serde_json::json!("$r"))
        }),
        (
            prop_oneof![
                Just("/topic/retention.ms"),
                Just("/topic/segment.bytes"),
                Just("/steps/0/produce/records/0/timestamp"),
                Just("/steps/9/x"),
            ],
            prop_oneof![Just("r"), Just("s"), Just("Bad name")],
            prop_oneof![
                Just(VaryValues::List("1d, 2d".into())),
                Just(VaryValues::List("now-3d, now-1d".into())),
                Just(VaryValues::List("1d".into())),
                Just(VaryValues::Range {
                    from: "1d".into(),
                    to: "3d".into(),
                    step: "1d".into()
                }),
                Just(VaryValues::Range {
                    from: "1d".into(),
                    to: "soon".into(),
                    step: "".into()
                }),
            ]
        )
            .prop_map(|(p, name, values)| AuthorCommand::Vary {
                pointer: p.into(),
                name: name.into(),
                values
            }),
        prop_oneof![Just("r"), Just("s")].prop_map(|n| AuthorCommand::Unvary { name: n.into() }),
        Just(AuthorCommand::SetMeta(MetaEdit::Kind(LessonKind::Drill))),
        (0u32..700).prop_map(|m| AuthorCommand::SetMeta(MetaEdit::Minutes(Some(m)))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever an author does, nothing panics, a refused command changes nothing, and undoing
    /// everything gives the start document back, byte for byte.
    #[test]
    fn random_commands_never_panic_and_undo_to_the_start(
        cmds in proptest::collection::vec(prop_oneof![4 => command(), 1 => file_command()], 1..24)
    ) {
        let (mut a, _) = Authoring::new(Start::Text(SCENARIO.into())).unwrap();
        let start = a.document();
        for c in cmds {
            let before = a.document();
            let refused = a.refusal(&c);
            match a.apply(T, c) {
                Err(e) => {
                    prop_assert_eq!(a.document(), before);
                    // An edit's dry run gives the same refusal.
                    if let Some(r) = refused {
                        prop_assert_eq!(r, e);
                    }
                }
                // What the dry run passes applies.
                Ok(_) => prop_assert!(refused.is_none()),
            }
            let _ = a.steps();
        }
        while a.can_undo() {
            a.apply(T, AuthorCommand::Undo).unwrap();
        }
        prop_assert_eq!(a.document(), start);
    }
}
