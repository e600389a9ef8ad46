//! Tests of the scenario runner (`logtime_model::scenario::Runner`) and its step summaries,
//! written as scenario files: they need this crate's parser, so they live here.

use super::*;
use logtime_model::config::KafkaVersion;
use logtime_model::error::Error;
use logtime_model::event::Event;
use logtime_model::partition::Command;
use logtime_model::units::{Offset, Timestamp};
use logtime_model::Record;

const START: i64 = 1_804_842_000_000; // 2027-03-12T09:00:00Z

/// Only the literal -1 is NO_TIMESTAMP. `now-1s` at 999 ms after the epoch is a clock
/// reading of -1 ms: a seconds mistake makes it 0 (Java truncation), a microseconds one
/// -1000, and generated traffic shifts it like any other stamp.
#[test]
fn a_relative_time_of_minus_one_is_a_clock_reading() {
    let s = parse(
        r#"{"start": 999, "steps": [
            {"produce": {"records": [{"timestamp": "now-1s", "unit": "s"}, {"timestamp": "now-1s", "unit": "us"},
                                     {"timestamp": -1, "unit": "us"}, {"timestamp": "now-1s"}]}},
            {"produce": {"batches": 2, "timestamp_step": "5ms", "records": [{"timestamp": "now-1s"}, {"timestamp": -1}]}}]}"#,
    )
    .unwrap();
    let mut runner = Runner::new(s);
    while let Some(r) = runner.step(&mut |_| {}) {
        r.unwrap();
    }
    let ts = runner.partition().segments()[0]
        .record_timestamps()
        .to_vec();
    assert_eq!(ts, vec![0, -1000, -1, -1, -1, -1, 4, -1]);
}

#[test]
fn scenario_errors_at_replay_name_step_and_field() {
    let s = parse(&format!(
        r#"{{"start": {START}, "steps": [{{"snapshot": {{}}}}, {{"high_watermark": {{"offset": 3}}}}]}}"#
    ))
    .unwrap();
    let e = run(&s).unwrap_err();
    assert_eq!(e.to_string(), "step 1: high_watermark.offset: high watermark 3 is outside [0, 0] (log start offset to log end offset)");
}

/// Commands between steps move the one clock and are reported like steps.
#[test]
fn commands_between_steps_share_the_clock_and_the_outcomes() {
    let s = parse(&format!(
        r#"{{"start": {START}, "topic": {{"retention.ms": 3600000}}, "steps": [{{"produce": {{"records": [{{"timestamp": "now"}}]}}}}]}}"#
    ))
    .unwrap();
    let mut r = Runner::new(s);
    r.step(&mut |_| {}).unwrap().unwrap();
    let mut seen = Vec::new();
    let rep = r
        .apply(Timestamp(START + 2 * 3_600_000), Command::Tick, &mut |e| {
            seen.push(e.event.clone())
        })
        .unwrap();
    assert_eq!(rep.index, 1, "after step 0");
    assert_eq!(r.now(), Timestamp(START + 2 * 3_600_000));
    assert_eq!(r.partition().clock(), r.now());
    assert!(matches!(rep.outcome, StepOutcome::Advance(ClockMoved { checks, .. }) if checks >= 1));
    assert!(seen.iter().any(|e| matches!(e, Event::RetentionChecked(_))));
    // A rejected batch is an outcome, not an error; the clock stays.
    let now = r.now();
    let rep = r
        .apply(
            now,
            Command::Produce {
                records: vec![Record::at(Timestamp(START * 1000))],
            },
            &mut |_| {},
        )
        .unwrap();
    assert!(matches!(
        rep.outcome,
        StepOutcome::Produce(ProduceOutcome::Rejected(_))
    ));
    let rep = r
        .apply(now, Command::DeleteRecords { offset: 5 }, &mut |_| {})
        .unwrap();
    assert!(matches!(
        rep.outcome,
        StepOutcome::DeleteRecords { result: Err(_), .. }
    ));
    // A clock going backwards is an error and changes nothing.
    let e = r
        .apply(Timestamp(START), Command::Tick, &mut |_| {})
        .unwrap_err();
    assert!(matches!(e, Error::ClockWentBackwards { .. }));
    assert_eq!(r.now(), now);
    let rep = r
        .apply(
            now,
            Command::SetVersion {
                version: KafkaVersion::V3_6,
            },
            &mut |_| {},
        )
        .unwrap();
    assert!(matches!(rep.outcome, StepOutcome::Version(_)));
}

/// A generated batch that is rejected last still moves the clock to its time.
#[test]
fn rejected_traffic_moves_the_clock() {
    let s = parse(&format!(
        r#"{{"start": {START}, "steps": [{{"produce": {{"batches": 3, "every": "1s", "records": [{{"timestamp": "now", "unit": "ns"}}]}}}}]}}"#
    ))
    .unwrap();
    let mut r = Runner::new(s);
    let rep = r.step(&mut |_| {}).unwrap().unwrap();
    assert_eq!(rep.now, Timestamp(START + 2000));
    assert_eq!(r.now(), rep.now);
}

/// A `version` step upgrades the broker between steps: the same batch is appended under
/// 3.6-3.9 defaults and refused under 4.x's, an explicit setting the new preset refuses is
/// dropped (and later config steps are validated by the new ranges), and the report says so.
#[test]
fn a_version_step_switches_the_preset() {
    let s = parse(&format!(
        r#"{{"kafka": "3.6", "start": {START}, "topic": {{"segment.bytes": 170}}, "steps": [
            {{"produce": {{"records": [{{"timestamp": "now", "unit": "ns"}}]}}}},
            {{"version": "4.0"}},
            {{"produce": {{"records": [{{"timestamp": "now", "unit": "ns"}}]}}}}]}}"#
    ))
    .unwrap();
    assert_eq!(s.steps[1], Step::Version(KafkaVersion::V4_0));
    let report = run(&s).unwrap();
    assert!(matches!(
        report.steps[0].outcome,
        StepOutcome::Produce(ProduceOutcome::Appended(_))
    ));
    match &report.steps[1].outcome {
        StepOutcome::Version(v) => {
            assert_eq!((v.from, v.to), (KafkaVersion::V3_6, KafkaVersion::V4_0));
            assert_eq!(v.reset, vec!["segment.bytes".to_string()]);
        }
        other => panic!("{other:?}"),
    }
    match &report.steps[2].outcome {
        StepOutcome::Produce(ProduceOutcome::Rejected(e)) => assert_eq!(e.error.code(), 32),
        other => panic!("{other:?}"),
    }
    let e = parse(&format!(
        r#"{{"kafka": "3.6", "start": {START}, "steps": [{{"version": "4.0"}},
            {{"config": {{"message.timestamp.difference.max.ms": 1000}}}}]}}"#
    ))
    .unwrap_err();
    assert_eq!(e.step, Some(1));
    assert_eq!(e.field, "config.message.timestamp.difference.max.ms");
    let e = parse(&format!(
        r#"{{"start": {START}, "steps": [{{"version": "5.0"}}]}}"#
    ))
    .unwrap_err();
    assert_eq!(e.field, "version");
}

/// The summary of every step of every built-in scenario is what its events add up to.
#[test]
fn summaries_add_up_the_events() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../static/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 5, "the built-in scenarios are found");
    for path in files {
        let s = parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let (mut by_event, mut summarised) = (Runner::new(s.clone()), Runner::new(s));
        let mut steps = 0;
        loop {
            let mut want = StepSummary::default();
            let Some(r) = by_event.step(&mut |e| {
                want.see(e.event);
                if let Event::RetentionChecked(r) = e.event {
                    if StepSummary::worth_showing(r) {
                        want.retention = Some(r.clone());
                    }
                }
            }) else {
                break;
            };
            let (report, got) = summarised.step_summary().expect("as many steps").unwrap();
            assert_eq!(report, r.unwrap(), "{path:?} step {steps}: same report");
            assert_eq!(got, want, "{path:?} step {steps}");
            steps += 1;
        }
        assert!(summarised.step_summary().is_none());
        assert_eq!(by_event.partition().state(), summarised.partition().state());
    }
}

#[test]
fn ranges_span_the_step() {
    let s = parse(
        r#"{"kafka": "3.6", "start": 1000000, "topic": {"segment.bytes": 300}, "steps": [
            {"produce": {"batches": 3, "every": "1ms", "records": [{"timestamp": "now-5ms"}]}},
            {"produce": {"records": [{"timestamp": 500}, {"timestamp": 900}]}}]}"#,
    )
    .unwrap();
    let mut r = Runner::new(s);
    let (_, a) = r.step_summary().unwrap().unwrap();
    assert_eq!((a.batches_appended, a.records_appended), (3, 3));
    assert_eq!(a.offsets, Some((Offset(0), Offset(2))));
    assert_eq!(a.landed, Some((Offset(2), Offset(2))));
    assert_eq!(a.segments, Some((Offset(0), Offset(2))));
    assert_eq!(a.rolls, 2);
    assert_eq!(
        a.max_timestamps,
        Some((Timestamp(1_000_000 - 5), Timestamp(1_000_002 - 5)))
    );
    let (_, b) = r.step_summary().unwrap().unwrap();
    assert_eq!(b.offsets, Some((Offset(3), Offset(4))));
    assert_eq!(b.max_timestamps, Some((Timestamp(900), Timestamp(900))));
    assert_eq!(b.batches_appended, 1);
}
