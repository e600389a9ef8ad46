//! Property test of steps run in slices ([`Runner::step_slice`]): whatever the scenario (tiny
//! segments that roll on every batch, retention that deletes while a step runs, batches the
//! broker rejects, several records a batch) and wherever the slices cut, running a scenario in
//! slices emits the same events, in the same order and at the same broker times, as running it
//! step by step, ends each step with the same report and summary, and leaves the same partition.
//! Between two slices the step is not finished: the runner still names it and refuses commands.
//! Run for their marks alone (no callback), slices and steps mark what their events say.

use logtime_core::scenario::{parse, Runner, Slice, StepReport, StepSummary, ViewMarks, ROLL_WORK};
use logtime_model::{Command, Error, Event, Timestamp};
use proptest::prelude::*;

/// A step of the generated scenario.
#[derive(Clone, Debug)]
enum Gen {
    /// Generated traffic: batches, ms between them, records a batch, stamp offset in ms (the
    /// nanosecond mistake when `ns`).
    Traffic {
        batches: u64,
        every_ms: i64,
        records: usize,
        skew_ms: i64,
        ns: bool,
    },
    /// A single batch of one record.
    One,
    Advance(i64),
    Retention,
    Lookup,
}

fn gen_step() -> impl Strategy<Value = Gen> {
    prop_oneof![
        4 => (1u64..400, 0i64..120_000, 1usize..4, -7_200_000i64..100_000_000, prop::bool::weighted(0.1)).prop_map(
            |(batches, every_ms, records, skew_ms, ns)| Gen::Traffic { batches, every_ms, records, skew_ms, ns }
        ),
        1 => Just(Gen::One),
        1 => (0i64..10_800_000).prop_map(Gen::Advance),
        1 => Just(Gen::Retention),
        1 => Just(Gen::Lookup),
    ]
}

fn scenario_json(strict: bool, segment_bytes: u32, steps: &[Gen]) -> String {
    let steps: Vec<String> = steps
        .iter()
        .map(|s| match s {
            Gen::Traffic {
                batches,
                every_ms,
                records,
                skew_ms,
                ns,
            } => {
                let unit = if *ns { r#", "unit": "ns""# } else { "" };
                let record =
                    format!(r#"{{"timestamp": "now+{skew_ms}ms", "value_bytes": 100{unit}}}"#)
                        .replace("+-", "-");
                let records = vec![record; *records].join(", ");
                format!(
                    r#"{{"produce": {{"batches": {batches}, "every": "{every_ms}ms", "records": [{records}]}}}}"#
                )
            }
            Gen::One => r#"{"produce": {"records": [{"timestamp": "now"}]}}"#.into(),
            Gen::Advance(ms) => format!(r#"{{"advance": "{ms}ms"}}"#),
            Gen::Retention => r#"{"retention": {}}"#.into(),
            Gen::Lookup => r#"{"lookup": {"timestamp": "now-1h"}}"#.into(),
        })
        .collect();
    // KIP-937's window: stamps over an hour ahead are rejected.
    let strict = if strict {
        r#""message.timestamp.after.max.ms": 3600000, "#
    } else {
        ""
    };
    format!(
        r#"{{"kafka": "3.6", "start": "2027-03-12T09:00:00Z", "topic": {{{strict}"segment.bytes": {segment_bytes},
            "retention.ms": "2h", "segment.ms": "30m"}},
            "broker": {{"log.retention.check.interval.ms": 300000}},
            "steps": [{}]}}"#,
        steps.join(", ")
    )
}

/// Everything a replay shows: each event with its step and broker time, each step's report.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    events: Vec<(usize, Timestamp, Event)>,
    reports: Vec<Result<StepReport, String>>,
}

fn whole(json: &str) -> (Seen, Runner) {
    let mut r = Runner::new(parse(json).unwrap());
    let mut seen = Seen::default();
    loop {
        let mut events = Vec::new();
        let Some(result) = r.step(&mut |e| events.push((e.step, e.at, e.event.clone()))) else {
            break;
        };
        seen.events.extend(events);
        seen.reports.push(result.map_err(|e| e.to_string()));
        r.partition().check_invariants();
    }
    (seen, r)
}

fn sliced(json: &str, cuts: &[u64]) -> Result<(Seen, Runner), TestCaseError> {
    let mut r = Runner::new(parse(json).unwrap());
    let mut seen = Seen::default();
    for i in 0.. {
        let records = cuts[i % cuts.len()];
        let before = r.next_step();
        let mut events = Vec::new();
        let Some(slice) = r.step_slice(records, &mut |e| {
            events.push((e.step, e.at, e.event.clone()))
        }) else {
            break;
        };
        seen.events.extend(events);
        r.partition().check_invariants();
        match slice {
            Slice::Done(result) => {
                prop_assert_eq!(r.next_step(), before + 1);
                prop_assert!(r.step_in_progress().is_none());
                seen.reports.push(result.map_err(|e| e.to_string()));
            }
            Slice::Partial {
                step,
                sent,
                batches,
            } => {
                prop_assert_eq!(step, before, "a partial step is not finished");
                prop_assert_eq!(r.next_step(), before);
                prop_assert!(0 < sent && sent < batches);
                prop_assert_eq!(r.step_in_progress(), Some((step, sent, batches)));
                // No command may land in the middle of the step, and a refused one changes nothing.
                let state = r.partition().state();
                let now = r.now();
                let refused = r.apply(now, Command::RunRetention, &mut |_| {});
                prop_assert!(
                    matches!(refused, Err(Error::StepInProgress { step: s }) if s == step),
                    "{:?}",
                    refused
                );
                prop_assert_eq!(r.partition().state(), state);
            }
        }
    }
    Ok((seen, r))
}

/// A scenario's inputs (strict KIP-937 or not, `segment.bytes`, its steps) and the records per
/// slice to cut its steps into, in turn.
fn inputs() -> impl Strategy<Value = (bool, u32, Vec<Gen>, Vec<u64>)> {
    (
        any::<bool>(),
        prop::sample::select(vec![170u32, 600, 4096, 1 << 20]),
        prop::collection::vec(gen_step(), 1..8),
        prop::collection::vec(prop_oneof![3 => 1u64..40, 1 => 40u64..1000], 1..6),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn slices_of_a_step_do_what_the_whole_step_does(
        (strict, segment_bytes, steps, cuts) in inputs(),
    ) {
        let json = scenario_json(strict, segment_bytes, &steps);
        let (expected, w) = whole(&json);
        let (got, s) = sliced(&json, &cuts)?;
        prop_assert_eq!(got.reports.len(), expected.reports.len());
        for (g, e) in got.reports.iter().zip(&expected.reports) {
            prop_assert_eq!(g, e);
        }
        prop_assert!(got.events == expected.events, "events differ");
        prop_assert_eq!(s.partition().state(), w.partition().state());
        prop_assert_eq!(s.now(), w.now());
    }

    /// Slices run for their marks (`step_slice_marks`, no callback) do what slices run with a
    /// callback do, and mark exactly what those slices' events say; the same for whole steps
    /// (`step_marks`).
    #[test]
    fn marks_without_events_are_what_the_events_mark(
        (strict, segment_bytes, steps, cuts) in inputs(),
    ) {
        let json = scenario_json(strict, segment_bytes, &steps);
        let runner = || Runner::new(parse(&json).unwrap());
        let (mut by_event, mut by_marks) = (runner(), runner());
        for i in 0.. {
            let records = cuts[i % cuts.len()];
            let mut want = ViewMarks::default();
            let a = by_event.step_slice(records, &mut |e| want.see(e.event));
            let mut got = ViewMarks::default();
            let b = by_marks.step_slice_marks(records, &mut got);
            prop_assert_eq!(format!("{b:?}"), format!("{a:?}"));
            prop_assert_eq!(&got, &want);
            if a.is_none() {
                break;
            }
        }
        prop_assert_eq!(by_marks.partition().state(), by_event.partition().state());
        let (mut by_event, mut by_marks) = (runner(), runner());
        loop {
            let mut want = ViewMarks::default();
            let a = by_event.step(&mut |e| want.see(e.event));
            let mut got = ViewMarks::default();
            let b = by_marks.step_marks(&mut got);
            prop_assert_eq!(format!("{b:?}"), format!("{a:?}"));
            prop_assert_eq!(&got, &want);
            if a.is_none() {
                break;
            }
        }
    }

    /// A step run for its summary alone (`step_summary`, no callback: a quiet retention check is
    /// counted, its report never made) adds up what the same step's events say, with the same
    /// report (an `advance` counts the checks it ran).
    #[test]
    fn summaries_without_events_are_what_the_events_add_up_to(
        (strict, segment_bytes, steps, _cuts) in inputs(),
    ) {
        let json = scenario_json(strict, segment_bytes, &steps);
        let runner = || Runner::new(parse(&json).unwrap());
        let (mut by_event, mut summarised) = (runner(), runner());
        loop {
            let mut want = StepSummary::default();
            let a = by_event.step(&mut |e| {
                want.see(e.event);
                if let Event::RetentionChecked(r) = e.event {
                    if StepSummary::worth_showing(r) {
                        want.retention = Some(r.clone());
                    }
                }
            });
            let b = summarised.step_summary();
            match (a, b) {
                (None, None) => break,
                (Some(a), Some(b)) => match (a, b) {
                    (Ok(a), Ok((b, got))) => {
                        prop_assert_eq!(b, a);
                        prop_assert_eq!(got, want);
                    }
                    (a, b) => prop_assert_eq!(format!("{:?}", b.map(|r| r.0)), format!("{a:?}")),
                },
                (a, b) => prop_assert!(false, "one ran a step, the other did not: {a:?} / {b:?}"),
            }
        }
        prop_assert_eq!(summarised.partition().state(), by_event.partition().state());
    }

    /// A step started in slices and finished by `step_summary` adds up the same summary as the
    /// whole step.
    #[test]
    fn a_sliced_step_adds_up_the_same_summary(
        segment_bytes in prop::sample::select(vec![170u32, 600, 1 << 20]),
        batches in 2u64..500,
        records in 1usize..3,
        first in 1u64..300,
    ) {
        let steps = [Gen::Traffic { batches, every_ms: 1000, records, skew_ms: 0, ns: false }];
        let json = scenario_json(false, segment_bytes, &steps);
        let mut w = Runner::new(parse(&json).unwrap());
        let whole: (StepReport, StepSummary) = w.step_summary().unwrap().unwrap();
        let mut s = Runner::new(parse(&json).unwrap());
        // At most `batches - 1` batches: the step is left part way.
        let first = 1 + first % ((batches - 1) * records as u64);
        let partial = s.step_slice(first, &mut |_| {}).unwrap();
        prop_assert!(matches!(partial, Slice::Partial { .. }), "{:?}", partial);
        let finished = s.step_summary().unwrap().unwrap();
        prop_assert_eq!(finished, whole);
        prop_assert!(s.step_summary().is_none());
    }
}

/// The million-segment shape (one-record segments) in slices: a roll counts for [`ROLL_WORK`]
/// records, so a slice sends about `work / (1 + ROLL_WORK)` batches; each step stops where its
/// slices do, and only its last slice finishes it.
#[test]
fn one_record_segments_stop_at_each_slice() {
    let traffic = Gen::Traffic {
        batches: 1000,
        every_ms: 1,
        records: 1,
        skew_ms: 0,
        ns: false,
    };
    let json = scenario_json(false, 170, &[traffic.clone(), traffic]);
    let mut r = Runner::new(parse(&json).unwrap());
    let work = 30 * (1 + ROLL_WORK);
    let mut partials = 0;
    let mut reports = Vec::new();
    let mut sent_before = 0;
    while let Some(slice) = r.step_slice(work, &mut |_| {}) {
        match slice {
            Slice::Partial { step, sent, .. } => {
                partials += 1;
                let batches = sent - sent_before;
                assert!((30..=31).contains(&batches), "{batches} batches in a slice");
                sent_before = sent;
                let log_end = r.partition().log_end_offset().0 as u64;
                assert_eq!(log_end, step as u64 * 1000 + sent);
            }
            Slice::Done(report) => {
                reports.push(report.unwrap());
                sent_before = 0;
            }
        }
    }
    assert_eq!(partials, 66, "33 partial slices a step");
    assert_eq!(reports.len(), 2);
    assert_eq!(reports[1].rolls.len(), 1000);
    assert_eq!(r.partition().segments().len(), 2000, "one segment a batch");
}

/// A session records a sliced step once, when its last slice has run; a command in the middle
/// is refused and not recorded; the journal replays to the same partition.
#[test]
fn a_session_journals_a_sliced_step_once() {
    use logtime_core::scenario::{Entry, Replayed, Session, Source};
    let steps = [
        Gen::Traffic {
            batches: 50,
            every_ms: 1000,
            records: 1,
            skew_ms: 0,
            ns: false,
        },
        Gen::Advance(60_000),
    ];
    let json = scenario_json(false, 1 << 20, &steps);
    let mut s = Session::new(Source::Builtin("t".into()), parse(&json).unwrap());
    assert!(matches!(
        s.step_slice(20, &mut |_| {}),
        Some(Slice::Partial { sent: 20, .. })
    ));
    assert!(s.journal().entries.is_empty(), "not a step yet");
    let now = s.runner().now();
    let e = s.apply(now, Command::Tick, &mut |_| {}).unwrap_err();
    assert_eq!(
        e.to_string(),
        "step 0 is still running: a command can only run between steps"
    );
    assert!(s.journal().entries.is_empty());
    let r = s.replay_entry_slice(0, &Entry::Step, 20, &mut ViewMarks::default());
    assert!(matches!(r, Ok(None)), "40 of 50 sent");
    let r = s.replay_entry_slice(0, &Entry::Step, 20, &mut ViewMarks::default());
    assert!(matches!(r, Ok(Some(Replayed::Step(Ok(_))))));
    assert_eq!(s.journal().entries, vec![Entry::Step]);
    // The advance is not generated traffic: it runs whole whatever the slice.
    assert!(matches!(
        s.step_slice(1, &mut |_| {}),
        Some(Slice::Done(Ok(_)))
    ));
    assert!(s.step_slice(1, &mut |_| {}).is_none());
    let e = s
        .replay_entry_slice(2, &Entry::Step, 1, &mut ViewMarks::default())
        .unwrap_err();
    assert!(e
        .to_string()
        .ends_with("entry 2: the scenario has only 2 steps"));
    let replayed = s.journal().replay(parse(&json).unwrap()).unwrap();
    assert_eq!(
        replayed.runner().partition().state(),
        s.runner().partition().state()
    );
}
