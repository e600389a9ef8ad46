//! One test per reducer [`Action`], run natively against the real core.

use std::rc::Rc;

use logtime_core::scenario::ProduceOutcome;
use logtime_model::{KafkaVersion, Offset, OffsetSpec, Timestamp};
use yew::Reducible;

use super::log::LOG_LINES;
use super::*;
use crate::builtins;
use crate::model::import::Done;
use crate::model::producer::BatchSpec;
use logtime_core::scenario::Source;
use logtime_model::scenario::UnitMistake;

/// Seed 004: three steps to the lookup of 10:00:05 (answer: offset 3).
const LOOKUP_SCAN: &str = "lookup-scan";
/// A nanosecond batch rejected under 4.x between accepted ones.
const NANOSECONDS: &str = "nanoseconds-4x";
/// 2025-11-04T10:00:00Z, lookup-scan's start.
const T0: i64 = 1_762_250_400_000;

/// A load answering the explorer's current token, with no moment to rebuild.
fn load(json: Result<String, String>) -> Action {
    LoadAction::Load {
        token: 0,
        json,
        origin: Source::Inline(String::new()),
        restore: Restore::default(),
    }
    .into()
}

fn act(s: &Rc<Explorer>, a: impl Into<Action>) -> Rc<Explorer> {
    s.clone().reduce(a.into())
}

fn loaded(name: &str) -> Rc<Explorer> {
    let json = builtins::find(name).expect("a built-in").read();
    act(&Rc::new(Explorer::default()), load(Ok(json)))
}

fn stepped(name: &str, n: usize) -> Rc<Explorer> {
    let mut s = loaded(name);
    for _ in 0..n {
        s = act(&s, TransportAction::Step);
    }
    s
}

fn last_line(s: &Explorer) -> String {
    s.log
        .lines()
        .last()
        .map(ToString::to_string)
        .unwrap_or_default()
}

fn config(s: &Explorer) -> logtime_model::Config {
    s.replay.runner().unwrap().partition().config().clone()
}

/// A compacted topic (3.6 rules, small segments), no steps: what the producer panel sends is
/// the test.
const COMPACTED: &str = r#"{"title": "compacted", "kafka": "3.6", "start": 1762250400000,
    "topic": {"cleanup.policy": "compact,delete", "segment.bytes": 1000}, "steps": []}"#;

fn inline(json: &str) -> Rc<Explorer> {
    act(&Rc::new(Explorer::default()), load(Ok(json.into())))
}

#[test]
fn loading_shows_the_scenario_is_on_its_way() {
    let s = act(&Rc::new(Explorer::default()), LoadAction::Loading(0));
    assert!(s.replay.loading);
    assert!(!s.replay.is_loaded());
}

#[test]
fn load_parses_the_scenario_and_says_so() {
    let s = loaded(LOOKUP_SCAN);
    assert!(!s.replay.loading);
    assert_eq!(&*s.replay.title, "Lookup: the scan past T");
    assert_eq!((s.replay.done, s.replay.total), (0, 4));
    assert_eq!(s.now(), Timestamp(T0));
    assert_eq!(
        last_line(&s),
        "Loaded “Lookup: the scan past T”: 4 steps. Broker clock 4 Nov 2025 10:00."
    );
    assert_eq!(s.disk.samples().len(), 1);
}

/// Loading a compacted topic says, in the narrator's words, that compaction is not modelled.
#[test]
fn load_of_a_compacted_topic_says_compaction_is_not_modelled() {
    let s = inline(COMPACTED);
    assert!(
        last_line(&s).starts_with("cleanup.policy compact,delete: compaction is not modelled"),
        "{}",
        last_line(&s)
    );
    assert!(!last_line(&loaded(LOOKUP_SCAN)).contains("compaction"));
}

#[test]
fn load_of_bad_json_shows_the_scenario_error() {
    let s = act(&Rc::new(Explorer::default()), load(Ok("{".into())));
    let error = s.replay.error.as_deref().unwrap_or_default();
    assert!(error.contains("line 1"), "{error}");
    assert!(!s.replay.is_loaded());
    assert!(last_line(&s).starts_with("The scenario could not be loaded: line 1"));
}

#[test]
fn load_that_could_not_be_fetched_names_the_source() {
    let s = act(
        &Rc::new(Explorer::default()),
        load(Err("src: could not fetch x.json: HTTP 404".into())),
    );
    assert_eq!(
        s.replay.error.as_deref(),
        Some("src: could not fetch x.json: HTTP 404")
    );
    assert!(!s.replay.loading);
}

#[test]
fn step_runs_one_step_and_narrates_it() {
    let s = stepped(LOOKUP_SCAN, 1);
    assert_eq!(s.replay.done, 1);
    assert_eq!(s.marks.landed, Some((Offset(0), Offset(0))));
    assert!(
        last_line(&s).starts_with(
            "Step 1 at 4 Nov 2025 10:00: produced a batch of 1 record: offset 0 in segment 0"
        ),
        "{}",
        last_line(&s)
    );
    // The last step's lookup lands in the lookup panel, walked from its first trace step.
    let s = stepped(LOOKUP_SCAN, 4);
    let l = s.lookup.result.as_ref().unwrap();
    assert_eq!(l.offset, Offset(3));
    assert_eq!(s.lookup.cursor, 0);
    assert!(last_line(&s).contains("returned offset 3"));
    // Past the end: nothing to run, and playback stops.
    let done = act(&s, TransportAction::Step);
    assert_eq!(last_line(&done), "The scenario has finished.");
    assert!(!done.playback.playing);
}

#[test]
fn back_rebuilds_one_step_earlier() {
    let s = act(&stepped(LOOKUP_SCAN, 3), TransportAction::Back);
    assert_eq!(s.replay.done, 2);
    assert_eq!(s.now(), Timestamp(T0 + 9000));
    assert_eq!(last_line(&s), "Rebuilt to step 2 of 4.");
    let start = act(&loaded(LOOKUP_SCAN), TransportAction::Back);
    assert_eq!(start.replay.done, 0);
}

#[test]
fn seek_rebuilds_to_a_step_with_its_walks_finished() {
    let s = act(&loaded(LOOKUP_SCAN), TransportAction::Seek(4));
    assert_eq!(s.replay.done, 4);
    assert_eq!(s.lookup.cursor, usize::MAX);
    assert_eq!(s.retention.cursor, usize::MAX);
    let beyond = act(&loaded(LOOKUP_SCAN), TransportAction::Seek(99));
    assert_eq!(beyond.replay.done, 4);
}

/// Six steps of 10,000 one-record batches: more than one rebuild chunk.
/// Six steps of 10,000 one-record batches in one segment (a rebuild's chunks count records).
const BIG: &str = r#"{"kafka": "3.6", "topic": {"segment.bytes": 1073741824}, "start": "2026-01-15T00:00:00Z",
    "steps": [
      {"produce": {"batches": 10000, "every": "1ms", "records": [{"timestamp": "now"}]}},
      {"produce": {"batches": 10000, "every": "1ms", "records": [{"timestamp": "now"}]}},
      {"produce": {"batches": 10000, "every": "1ms", "records": [{"timestamp": "now"}]}},
      {"produce": {"batches": 10000, "every": "1ms", "records": [{"timestamp": "now"}]}},
      {"produce": {"batches": 10000, "every": "1ms", "records": [{"timestamp": "now"}]}},
      {"produce": {"batches": 10000, "every": "1ms", "records": [{"timestamp": "now"}]}}]}"#;

fn partition_summary(s: &Explorer) -> (usize, i64, usize, Timestamp) {
    let r = s.replay.runner().unwrap();
    let p = r.partition();
    (
        s.replay.done,
        p.log_end_offset().0,
        p.segments().len(),
        r.now(),
    )
}

/// Runs the rebuild in progress to its end, 10,000 records a chunk: the state and the chunks.
fn rebuilt(mut s: Rc<Explorer>) -> (Rc<Explorer>, u32) {
    let mut chunks = 0;
    while s.rebuild.is_some() {
        s = act(&s, TransportAction::RebuildChunk(10_000));
        chunks += 1;
        assert!(chunks < 10);
    }
    (s, chunks)
}

/// [`BIG`] freshly loaded and stepped `n` times (fresh, because states derived from one load
/// share its runner).
fn big_stepped(n: usize) -> Rc<Explorer> {
    let mut s = act(&Rc::new(Explorer::default()), load(Ok(BIG.into())));
    for _ in 0..n {
        s = act(&s, TransportAction::Step);
    }
    s
}

#[test]
fn a_long_rebuild_runs_in_chunks_to_the_same_moment() {
    let big = act(&Rc::new(Explorer::default()), load(Ok(BIG.into())));
    let s = act(&big, TransportAction::Seek(6));
    let first = s.rebuild.clone().expect("more than one chunk");
    assert_eq!(first.steps, 6);
    assert_eq!(s.replay.done, 2, "20,000 records in the first chunk");
    // Nothing else acts on a half-rebuilt partition.
    for a in [
        TransportAction::Step,
        TransportAction::Play(true),
        TransportAction::Seek(1),
        TransportAction::Back,
    ] {
        let t = act(&s, a);
        assert!(Rc::ptr_eq(&t, &s));
    }
    let (s, chunks) = rebuilt(s);
    assert_eq!(chunks, 4, "one step a chunk");
    assert_eq!(last_line(&s), "Rebuilt to step 6 of 6.");
    assert_eq!(partition_summary(&s), partition_summary(&big_stepped(6)));
    // A rebuild that fits in one chunk finishes at once.
    let short = act(&s, TransportAction::Seek(1));
    assert!(short.rebuild.is_none());
    assert_eq!(short.replay.done, 1);
}

#[test]
fn a_link_to_a_late_moment_rebuilds_in_chunks_then_looks_up() {
    let big = act(&Rc::new(Explorer::default()), load(Ok(BIG.into())));
    let link = Restore {
        step: Some(9),
        lookup: Some(LookupTarget::Special(OffsetSpec::MaxTimestamp)),
        ..Restore::default()
    };
    let s = act(&big, LoadAction::Restore(link));
    let first = s.rebuild.clone().expect("more than one chunk");
    assert_eq!(first.steps, 6, "a link past the end asks for the last step");
    assert_eq!(s.replay.done, 2, "20,000 records in the first chunk");
    assert!(s.lookup.result.is_none(), "the lookup waits for the moment");
    assert_eq!(s.replay.notice, None);
    let (s, chunks) = rebuilt(s);
    assert_eq!(chunks, 4, "one step a chunk");
    assert!(s.lookup.result.is_some());
    assert!(s
        .replay
        .notice
        .as_deref()
        .unwrap()
        .contains("this scenario has 6 steps"));
    assert!(!s.playback.playing);
    assert_eq!(partition_summary(&s), partition_summary(&big_stepped(6)));
}

#[test]
fn a_rebuild_stops_where_it_got_to() {
    let big = act(&Rc::new(Explorer::default()), load(Ok(BIG.into())));
    let s = act(&big, TransportAction::Seek(6));
    let s = act(&s, TransportAction::RebuildChunk(10_000));
    let s = act(&s, TransportAction::CancelRebuild);
    assert!(s.rebuild.is_none());
    assert_eq!(s.replay.done, 3);
    assert!(!s.playback.playing);
    assert_eq!(last_line(&s), "Stopped rebuilding at step 3 of 6.");
    // Then it is an ordinary moment: stepping goes on from there.
    let s = act(&s, TransportAction::Step);
    assert_eq!(s.replay.done, 4);
    let again = act(&s, TransportAction::CancelRebuild);
    assert!(Rc::ptr_eq(&again, &s));
}

/// Runs the rebuild in progress to its end, `records` a chunk: the state and the chunks.
fn rebuilt_by(mut s: Rc<Explorer>, records: i64) -> (Rc<Explorer>, u32) {
    let mut chunks = 0;
    while s.rebuild.is_some() {
        let before = (s.replay.done, s.replay.step_in_progress());
        s = act(&s, TransportAction::RebuildChunk(records));
        assert_ne!(
            (s.replay.done, s.replay.step_in_progress()),
            before,
            "every chunk gets on"
        );
        chunks += 1;
        assert!(chunks < 100);
    }
    (s, chunks)
}

fn log_end(s: &Explorer) -> i64 {
    s.replay.runner().unwrap().partition().log_end_offset().0
}

#[test]
fn a_step_bigger_than_a_chunk_rebuilds_in_slices() {
    let big = act(&Rc::new(Explorer::default()), load(Ok(BIG.into())));
    let s = act(&big, TransportAction::Seek(6));
    assert_eq!(s.replay.done, 2);
    let s = act(&s, TransportAction::RebuildChunk(3_000));
    // Step 3 (index 2) is part way: not done, and nothing else may act on it.
    assert_eq!(s.replay.done, 2, "a partial step is not a step done");
    assert_eq!(s.replay.step_in_progress(), Some((2, 3_000, 10_000)));
    assert_eq!(log_end(&s), 23_000);
    for a in [
        TransportAction::Step.into(),
        TransportAction::Play(true).into(),
        TransportAction::Seek(1).into(),
        Action::from(CommandAction::Advance(1_000)),
    ] {
        assert!(Rc::ptr_eq(&act(&s, a), &s));
    }
    let (s, chunks) = rebuilt_by(s, 3_000);
    assert_eq!(chunks, 13, "37,000 records, 3,000 a chunk");
    assert_eq!(last_line(&s), "Rebuilt to step 6 of 6.");
    assert_eq!(partition_summary(&s), partition_summary(&big_stepped(6)));
    assert_eq!(s.replay.step_in_progress(), None);
    // The narration of the last step is the one a rebuild in whole steps gives.
    let whole = rebuilt(act(&big_stepped(0), TransportAction::Seek(6))).0;
    let lines = |s: &Explorer| {
        s.log
            .lines()
            .iter()
            .rev()
            .take(2)
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&s), lines(&whole));
}

#[test]
fn stopping_in_the_middle_of_a_step_ends_with_that_step() {
    let big = act(&Rc::new(Explorer::default()), load(Ok(BIG.into())));
    let s = act(&big, TransportAction::Seek(6));
    let s = act(&s, TransportAction::RebuildChunk(3_000));
    let s = act(&s, TransportAction::CancelRebuild);
    let r = s.rebuild.clone().expect("the step in progress goes on");
    assert!(r.stopping);
    assert_eq!(s.replay.done, 2);
    let (s, chunks) = rebuilt_by(s, 3_000);
    assert_eq!(chunks, 3, "the 7,000 records left of step 3");
    assert_eq!(s.replay.done, 3);
    assert_eq!(last_line(&s), "Stopped rebuilding at step 3 of 6.");
    assert_eq!(partition_summary(&s), partition_summary(&big_stepped(3)));
    // An ordinary moment again: stepping goes on from there.
    let s = act(&s, TransportAction::Step);
    assert_eq!(partition_summary(&s), partition_summary(&big_stepped(4)));
}

#[test]
fn a_moment_asked_for_in_the_middle_of_a_step_starts_over() {
    let big = act(&Rc::new(Explorer::default()), load(Ok(BIG.into())));
    let s = act(&big, TransportAction::Seek(6));
    let s = act(&s, TransportAction::RebuildChunk(3_000));
    assert!(s.replay.step_in_progress().is_some());
    let s = act(
        &s,
        LoadAction::Restore(Restore {
            step: Some(1),
            ..Restore::default()
        }),
    );
    assert!(s.rebuild.is_none());
    assert_eq!(partition_summary(&s), partition_summary(&big_stepped(1)));
}

/// Two steps of 1,000 one-record segments each.
const TINY_SEGMENTS: &str = r#"{"kafka": "3.6", "topic": {"segment.bytes": 170}, "start": "2026-01-15T00:00:00Z",
    "steps": [
      {"produce": {"batches": 1000, "every": "1ms", "records": [{"timestamp": "now", "value_bytes": 100}]}},
      {"produce": {"batches": 1000, "every": "1ms", "records": [{"timestamp": "now", "value_bytes": 100}]}}]}"#;

#[test]
fn a_rebuild_counts_a_segment_roll_as_many_records() {
    use logtime_core::scenario::ROLL_WORK;
    let tiny = act(
        &Rc::new(Explorer::default()),
        load(Ok(TINY_SEGMENTS.into())),
    );
    let s = act(&tiny, TransportAction::Seek(2));
    // The first chunk's 20,000 records' worth: 200 batches, each but the first rolling a
    // segment (1 + 199 × 101 = 20,100).
    let per_batch = 1 + ROLL_WORK as i64;
    assert_eq!(s.replay.done, 0);
    assert_eq!(log_end(&s), 200);
    let (s, chunks) = rebuilt_by(s, 50 * per_batch);
    assert_eq!(chunks, 36, "1,800 batches left, 50 a chunk");
    assert_eq!(s.replay.done, 2);
    assert_eq!(log_end(&s), 2_000);
    assert_eq!(
        s.replay.runner().unwrap().partition().segments().len(),
        2_000
    );
}

#[test]
fn play_and_pause() {
    let s = act(&loaded(LOOKUP_SCAN), TransportAction::Play(true));
    assert!(s.playback.playing);
    assert_eq!(last_line(&s), "Playing at 2x.");
    let s = act(&s, TransportAction::Play(false));
    assert!(!s.playback.playing);
    assert_eq!(last_line(&s), "Paused.");
    // Playing at the end starts again from step 0.
    let s = act(&stepped(LOOKUP_SCAN, 4), TransportAction::Play(true));
    assert_eq!(s.replay.done, 0);
    assert!(s.playback.playing);
    // Nothing to play without a scenario.
    let s = act(&Rc::new(Explorer::default()), TransportAction::Play(true));
    assert!(!s.playback.playing);
}

#[test]
fn playback_runs_a_frames_steps_and_stops_at_the_end() {
    // lookup-scan has 4 steps.
    let paused = act(&loaded(LOOKUP_SCAN), TransportAction::Steps(2));
    assert_eq!(paused.replay.done, 0, "nothing runs while paused");
    let s = act(&loaded(LOOKUP_SCAN), TransportAction::Play(true));
    let s = act(&s, TransportAction::Steps(3));
    assert_eq!(s.replay.done, 3);
    assert_eq!(s.replay.now(), stepped(LOOKUP_SCAN, 3).replay.now());
    assert!(s.playback.playing);
    let s = act(&s, TransportAction::Steps(3));
    assert_eq!(s.replay.done, 4);
    assert!(!s.playback.playing, "the end pauses");
}

#[test]
fn toggle_play_flips_playback() {
    let s = act(&loaded(LOOKUP_SCAN), TransportAction::TogglePlay);
    assert!(s.playback.playing);
    assert!(!act(&s, TransportAction::TogglePlay).playback.playing);
}

#[test]
fn set_speed() {
    let s = act(&loaded(LOOKUP_SCAN), TransportAction::SetSpeed(16));
    assert_eq!(s.playback.speed, 16);
    assert_eq!(last_line(&s), "Speed 16x.");
    // A new scenario keeps the speed.
    let json = builtins::find(NANOSECONDS).unwrap().read();
    assert_eq!(act(&s, load(Ok(json))).playback.speed, 16);
}

#[test]
fn advance_moves_the_one_clock() {
    let s = act(&loaded(LOOKUP_SCAN), CommandAction::Advance(3_600_000));
    let r = s.replay.runner().unwrap();
    assert_eq!(r.now(), Timestamp(T0 + 3_600_000));
    assert_eq!(r.partition().clock(), r.now());
    assert!(
        last_line(&s).starts_with("At 4 Nov 2025 11:00: the clock moved on; 1 scheduled"),
        "{}",
        last_line(&s)
    );
    assert_eq!(s.retention.command_error, None);
}

#[test]
fn produce_appends_or_shows_the_rejection() {
    let s = stepped(NANOSECONDS, 1);
    let ok = act(&s, CommandAction::Produce(BatchSpec::default()));
    assert!(matches!(
        ok.producer.last,
        Some(ProduceOutcome::Appended(ref a)) if a.base_offset == Offset(2)
    ));
    assert_eq!(ok.producer.rev, s.producer.rev + 1);
    let bad = act(
        &ok,
        CommandAction::Produce(BatchSpec {
            unit: Some(UnitMistake::Ns),
            ..BatchSpec::default()
        }),
    );
    assert!(matches!(
        bad.producer.last,
        Some(ProduceOutcome::Rejected(ref e)) if e.error.code() == 32
    ));
    assert!(last_line(&bad).contains("the broker rejected the batch with error 32"));
    assert_eq!(
        bad.replay.runner().unwrap().partition().log_end_offset(),
        Offset(3)
    );
}

/// A compacted topic refuses a null key (87) and appends an empty one: the producer panel's key
/// choice reaches the broker as it is.
#[test]
fn produce_tells_a_null_key_from_an_empty_one() {
    let s = inline(COMPACTED);
    let null = act(&s, CommandAction::Produce(BatchSpec::default()));
    assert!(matches!(
        null.producer.last,
        Some(ProduceOutcome::Rejected(ref e)) if e.error.code() == 87
    ));
    let empty = act(
        &null,
        CommandAction::Produce(BatchSpec {
            key: Some(0),
            ..BatchSpec::default()
        }),
    );
    assert!(matches!(
        empty.producer.last,
        Some(ProduceOutcome::Appended(ref a)) if a.base_offset == Offset(0)
    ));
    let sized = act(
        &empty,
        CommandAction::Produce(BatchSpec {
            key: Some(8),
            ..BatchSpec::default()
        }),
    );
    assert!(matches!(
        sized.producer.last,
        Some(ProduceOutcome::Appended(ref a)) if a.base_offset == Offset(1)
    ));
}

/// A batch larger than `segment.bytes` is error 18: the producer gets `Errors`' default
/// message, and the rejection keeps what the broker logs, which the narration also says.
#[test]
fn produce_of_an_oversized_batch_keeps_the_broker_log() {
    let s = act(
        &inline(COMPACTED),
        CommandAction::Produce(BatchSpec {
            key: Some(8),
            value_bytes: 2000,
            ..BatchSpec::default()
        }),
    );
    let Some(ProduceOutcome::Rejected(e)) = &s.producer.last else {
        panic!("{:?}", s.producer.last)
    };
    assert_eq!(e.error.code(), 18);
    assert_eq!(
        e.error_message,
        "The request included message batch larger than the configured segment size on the server."
    );
    assert_eq!(
        e.broker_log.as_deref().map(String::as_str),
        Some("Message batch size is 2078 bytes in append to partition clicks-0, which exceeds the maximum configured segment size of 1000.")
    );
    assert!(
        last_line(&s).contains("; the broker logs: \"Message batch size is 2078 bytes"),
        "{}",
        last_line(&s)
    );
}

#[test]
fn set_config_takes_kafka_values_and_durations() {
    let s = act(
        &loaded(LOOKUP_SCAN),
        CommandAction::SetConfig("retention.ms".into(), "1h".into()),
    );
    assert_eq!(config(&s).topic.retention_ms, 3_600_000);
    assert_eq!(s.config.error, None);
    assert!(last_line(&s).ends_with("config changed: retention.ms 604800000 → 3600000"));
    let bad = act(
        &s,
        CommandAction::SetConfig("retention.ms".into(), "-2".into()),
    );
    let (name, why) = bad.config.error.clone().unwrap();
    assert_eq!(name, "retention.ms");
    assert!(why.contains("value must be at least -1"), "{why}");
    assert!(last_line(&bad).starts_with("Config refused: "));
    assert_eq!(config(&bad).topic.retention_ms, 3_600_000);
    // A policy with compact: the narration says what the model leaves out, and the log
    // cleaner's passes take over from the retention task.
    let compact = act(
        &bad,
        CommandAction::SetConfig("cleanup.policy".into(), "compact".into()),
    );
    assert!(
        last_line(&compact).ends_with("; cleanup.policy compact: compaction is not modelled (no record is removed for a newer one with the same key); the log cleaner runs this topic's retention passes, every log.cleaner.backoff.ms (15 s) while it has nothing to compact, instead of the retention task"),
        "{}",
        last_line(&compact)
    );
    let r = compact.replay.runner().unwrap();
    assert_eq!(r.partition().next_retention_check(), Timestamp(T0 + 15_000));
}

#[test]
fn set_version_switches_the_preset() {
    let s = act(
        &loaded(LOOKUP_SCAN),
        CommandAction::SetVersion(KafkaVersion::V4_0),
    );
    assert_eq!(config(&s).version, KafkaVersion::V4_0);
    assert!(last_line(&s).contains("the broker now behaves as Kafka 4.x"));
}

#[test]
fn run_retention_shows_the_walk() {
    let s = stepped(LOOKUP_SCAN, 1);
    let rev = s.retention.rev;
    let s = act(&s, CommandAction::RunRetention);
    assert_eq!(s.retention.rev, rev + 1);
    assert_eq!(s.retention.cursor, 0);
    assert_eq!(s.retention.verdicts_len(), 1);
    assert!(last_line(&s).contains("a retention check ran: 0: kept"));
}

#[test]
fn delete_records_refused_or_done_then_checked() {
    let s = stepped(LOOKUP_SCAN, 3);
    let refused = act(
        &s,
        CommandAction::DeleteRecords {
            offset: 99,
            then_check: true,
        },
    );
    let e = refused.retention.command_error.as_deref().unwrap();
    assert!(e.starts_with("error 1 OFFSET_OUT_OF_RANGE"), "{e}");
    let done = act(
        &refused,
        CommandAction::DeleteRecords {
            offset: 1,
            then_check: true,
        },
    );
    assert_eq!(done.retention.command_error, None);
    let r = done.replay.runner().unwrap();
    assert_eq!(r.partition().log_start_offset(), Offset(1));
    assert!(done.retention.report.is_some(), "the check ran");
}

#[test]
fn remedy_sets_the_config_then_checks() {
    let s = act(
        &stepped(LOOKUP_SCAN, 3),
        CommandAction::Remedy {
            name: "retention.ms".into(),
            value: 1000,
        },
    );
    assert_eq!(config(&s).topic.retention_ms, 1000);
    assert!(s.retention.report.is_some());
    let bad = act(
        &s,
        CommandAction::Remedy {
            name: "retention.ms".into(),
            value: -5,
        },
    );
    assert!(bad.retention.command_error.is_some());
}

#[test]
fn lookup_walks_or_shows_the_refusal() {
    let s = stepped(LOOKUP_SCAN, 3);
    let found = act(
        &s,
        CommandAction::Lookup(OffsetSpec::Timestamp(Timestamp(T0 + 5000))),
    );
    assert_eq!(found.lookup.result.as_ref().unwrap().offset, Offset(3));
    assert_eq!(found.lookup.rev, s.lookup.rev + 1);
    assert!(last_line(&found).contains("returned offset 3"));
    let v4 = act(&found, CommandAction::SetVersion(KafkaVersion::V4_0));
    let refused = act(
        &v4,
        CommandAction::Lookup(OffsetSpec::Timestamp(Timestamp(-7))),
    );
    assert!(refused.lookup.result.is_none());
    assert!(refused
        .lookup
        .error
        .as_deref()
        .unwrap()
        .contains("UNSUPPORTED_VERSION"));
}

#[test]
fn walk_tick_advances_and_stops_rerendering_when_done() {
    let s = stepped(LOOKUP_SCAN, 4);
    let t = act(&s, ViewAction::WalkTick);
    assert_eq!(t.lookup.cursor, 1);
    let idle = Rc::new(Explorer::default());
    assert!(Rc::ptr_eq(&idle, &act(&idle, ViewAction::WalkTick)));
}

#[test]
fn walk_finish_shows_every_step_once() {
    let s = act(&stepped(LOOKUP_SCAN, 4), ViewAction::WalkFinish);
    assert_eq!(s.lookup.cursor, usize::MAX);
    assert!(s.lookup.finished());
    assert!(Rc::ptr_eq(&s, &act(&s, ViewAction::WalkFinish)));
}

#[test]
fn set_viewport_changes_only_on_a_new_window() {
    let s = loaded(LOOKUP_SCAN);
    let same = act(&s, ViewAction::SetViewport(s.viewport));
    assert!(Rc::ptr_eq(&s, &same));
    let v = Viewport::fit(0, 1000);
    assert_eq!(act(&s, ViewAction::SetViewport(v)).viewport, v);
}

/// An action copies only the panels it changes: the others stay shared, so their components
/// compare equal and are not rendered again.
#[test]
fn unchanged_panels_stay_shared() {
    let s = stepped(LOOKUP_SCAN, 1);
    let t = act(&s, TransportAction::SetSpeed(4));
    assert!(t.replay == s.replay && t.lookup == s.lookup && t.config == s.config);
    assert!(t.log != s.log);
    let u = act(&t, TransportAction::Step);
    assert!(u.replay != t.replay && u.config == t.config);
}

#[test]
fn narration_is_bounded() {
    let mut s = loaded(LOOKUP_SCAN);
    for v in 0..(LOG_LINES as u32 + 10) {
        s = act(&s, TransportAction::SetSpeed(v));
    }
    assert_eq!(s.log.lines().len(), LOG_LINES);
    assert_eq!(s.log.announce(), format!("Speed {}x.", LOG_LINES + 9));
}

/// Every built-in scenario parses and replays to its end in the explorer's state.
#[test]
fn every_builtin_scenario_loads_and_replays() {
    for name in builtins::BUILTINS.iter().map(|b| b.name) {
        let mut s = loaded(name);
        assert_eq!(s.replay.error, None, "{name}");
        let total = s.replay.total;
        assert!(total > 0, "{name}");
        s = act(&s, TransportAction::Seek(total));
        while s.rebuild.is_some() {
            s = act(&s, TransportAction::RebuildChunk(REBUILD_CHUNK_RECORDS));
        }
        assert_eq!(s.replay.done, total, "{name}");
        assert_eq!(s.replay.error, None, "{name}");
    }
}

/// A later load supersedes an earlier one: the earlier response is ignored when it arrives.
#[test]
fn the_last_load_wins() {
    let s = act(&Rc::new(Explorer::default()), LoadAction::Loading(1));
    let s = act(&s, LoadAction::Loading(2));
    let landing = builtins::find("landing").unwrap().read();
    let late = LoadAction::Load {
        token: 1,
        json: Ok(builtins::find(LOOKUP_SCAN).unwrap().read()),
        origin: Source::Builtin(LOOKUP_SCAN.into()),
        restore: Restore::default(),
    };
    let s = act(
        &s,
        LoadAction::Load {
            token: 2,
            json: Ok(landing),
            origin: Source::Builtin("landing".into()),
            restore: Restore::default(),
        },
    );
    let after = act(&s, late);
    assert!(Rc::ptr_eq(&s, &after), "the stale response changed nothing");
    assert!(after.replay.title.starts_with("Records landing"));
}

/// Stepping back keeps the reader's actions before the target and asks before undoing later
/// ones; confirming undoes them, dismissing keeps them.
#[test]
fn stepping_back_asks_before_undoing_the_readers_actions() {
    let s = stepped(LOOKUP_SCAN, 2);
    let s = act(&s, CommandAction::Produce(BatchSpec::default()));
    let records = s.replay.record_count();
    // Back to step 1 would undo the batch sent after step 2: ask.
    let asked = act(&s, TransportAction::Back);
    assert_eq!(
        asked.pending,
        Some(Pending::Rewind {
            steps: 1,
            play: false,
            undone: vec!["sent a batch of 1 record".into()],
        })
    );
    assert_eq!(asked.replay.record_count(), records, "nothing undone yet");
    let kept = act(&asked, TransportAction::Dismiss);
    assert_eq!((kept.pending.clone(), kept.replay.done), (None, 2));
    // One more step, then back to step 2: the batch came before step 3, so it stays.
    let s3 = act(&kept, TransportAction::Step);
    let back = act(&s3, TransportAction::Back);
    assert_eq!(back.pending, None);
    assert_eq!(back.replay.done, 2);
    assert_eq!(back.replay.record_count(), records);
    assert_eq!(back.actions(), vec!["sent a batch of 1 record".to_string()]);
    // Confirmed: undone.
    let undone = act(&act(&back, TransportAction::Back), TransportAction::Confirm);
    assert_eq!(undone.replay.done, 1);
    assert!(undone.actions().is_empty());
    // Replaying from the start at the end asks too.
    let end = act(&stepped(LOOKUP_SCAN, 4), CommandAction::Advance(60_000));
    let replay = act(&end, TransportAction::TogglePlay);
    assert!(matches!(
        replay.pending,
        Some(Pending::Rewind {
            steps: 0,
            play: true,
            ..
        })
    ));
}

/// A saved moment rebuilds the same partition; a damaged one says why and starts over.
#[test]
fn a_saved_moment_rebuilds_the_partition() {
    let s = stepped(NANOSECONDS, 2);
    let s = act(&s, CommandAction::Produce(BatchSpec::default()));
    let s = act(&s, CommandAction::Advance(3_600_000));
    let s = act(&s, CommandAction::Lookup(OffsetSpec::Earliest));
    let compact = s
        .replay
        .journal()
        .unwrap()
        .to_compact(Some(&s.replay.source));
    let restored = act(
        &loaded(NANOSECONDS),
        LoadAction::Restore(Restore {
            moment: Some(compact),
            ..Restore::default()
        }),
    );
    let state = |e: &Explorer| {
        let r = e.replay.runner().unwrap();
        format!("{:?}", r)
    };
    assert_eq!(state(&restored), state(&s));
    assert_eq!(restored.replay.notice, None);
    assert!(restored.lookup.result.is_some());
    let bad = act(
        &loaded(NANOSECONDS),
        LoadAction::Restore(Restore {
            moment: Some("1~s~q".into()),
            ..Restore::default()
        }),
    );
    assert_eq!(bad.replay.done, 0);
    assert_eq!(
        bad.replay.notice.as_deref(),
        Some("the saved moment is damaged (truncated or edited): entry 1: unknown entry kind 'q'. Showing the scenario from its start.")
    );
    // step and lookup: the readable form.
    let at = act(
        &loaded(LOOKUP_SCAN),
        LoadAction::Restore(Restore {
            step: Some(9),
            lookup: Some(LookupTarget::Special(OffsetSpec::MaxTimestamp)),
            ..Restore::default()
        }),
    );
    assert_eq!(at.replay.done, 4);
    assert!(at
        .replay
        .notice
        .as_deref()
        .unwrap()
        .contains("this scenario has 4 steps"));
    assert!(at.lookup.result.is_some());
}

fn imported_done(scenario: &str) -> Rc<Done> {
    Rc::new(Done {
        scenario: scenario.to_string(),
        notes: vec!["a note".into()],
        skipped: Vec::new(),
        segments: 1,
        bytes: 10,
        configs: None,
    })
}

#[test]
fn import_progress_of_a_superseded_or_cancelled_job_is_ignored() {
    let s = loaded(LOOKUP_SCAN);
    let s = act(&s, ImportAction::Start { job: 1, total: 100 });
    let s = act(&s, ImportAction::Start { job: 2, total: 50 });
    let stale = act(
        &s,
        ImportAction::Progress {
            job: 1,
            done: 10,
            total: 100,
            file: "a.log".into(),
        },
    );
    assert!(Rc::ptr_eq(&stale, &s));
    let s = act(
        &s,
        ImportAction::Progress {
            job: 2,
            done: 25,
            total: 50,
            file: "b.log".into(),
        },
    );
    assert_eq!(s.import.progress, Some((25, 50, "b.log".into())));
    let s = act(&s, ImportAction::Cancel);
    assert!(!s.import.busy());
    assert_eq!(last_line(&s), "Import cancelled.");
    // The cancelled job's end arrives late: nothing changes, the scenario stays.
    let late = act(
        &s,
        ImportAction::End {
            job: 2,
            result: Err("boom".into()),
        },
    );
    assert!(Rc::ptr_eq(&late, &s));
    assert!(s.replay.is_running());
}

#[test]
fn a_failed_import_says_why_and_keeps_the_loaded_scenario() {
    let s = stepped(LOOKUP_SCAN, 2);
    let s = act(&s, ImportAction::Start { job: 3, total: 10 });
    let s = act(
        &s,
        ImportAction::End {
            job: 3,
            result: Err("x.txt: not kafka-dump-log output: line 1: …".into()),
        },
    );
    assert!(s.import.error.as_deref().unwrap().contains("line 1"));
    assert_eq!(s.replay.done, 2);
    // The next import clears the error.
    let s = act(&s, ImportAction::Start { job: 4, total: 10 });
    assert_eq!(s.import.error, None);
}

#[test]
fn an_imports_findings_stay_while_its_scenario_is_loaded() {
    let json = builtins::find(LOOKUP_SCAN).unwrap().read();
    let s = Rc::new(Explorer::default());
    let s = act(&s, ImportAction::Start { job: 1, total: 10 });
    let s = act(
        &s,
        ImportAction::End {
            job: 1,
            result: Ok(imported_done(&json)),
        },
    );
    let s = act(&s, load(Ok(json.clone())));
    assert!(s.replay.is_running());
    assert_eq!(
        s.import.done.as_ref().unwrap().notes,
        vec!["a note".to_string()]
    );
    // Another scenario drops them.
    let other = builtins::find(NANOSECONDS).unwrap().read();
    let s = act(&s, load(Ok(other)));
    assert!(s.import.done.is_none());
}

#[test]
fn the_remembered_size_and_count_follow_appends_rolls_and_deletions() {
    let mut s = loaded("future-pins-retention");
    let size = |s: &Explorer| s.replay.runner().unwrap().partition().size();
    assert_eq!(s.replay.size(), size(&s));
    let mut deleted = false;
    while !s.replay.at_end() {
        let segments = s.replay.runner().unwrap().partition().segments().len();
        s = act(&s, TransportAction::Step);
        deleted |= s.replay.runner().unwrap().partition().segments().len() < segments;
        assert_eq!(s.replay.size(), size(&s));
        assert_eq!(s.disk.last().map(|(_, b)| b), Some(size(&s)));
        let records = s.replay.runner().unwrap().partition().record_count();
        assert_eq!(s.replay.record_count(), records);
    }
    assert!(deleted, "retention deleted segments on the way");
}

#[test]
fn a_document_that_is_neither_shows_the_scenario_error() {
    let s = act(
        &Rc::new(Explorer::default()),
        load(Ok("{\"kafka\": 3}".into())),
    );
    assert!(s
        .replay
        .error
        .as_deref()
        .is_some_and(|e| e.contains("kafka")));
    assert!(Replay::check("{\"kafka\": 3}").is_err());
    assert!(Replay::check(&builtins::find("future-drill").unwrap().read()).is_ok());
    assert!(Replay::check(&builtins::find(LOOKUP_SCAN).unwrap().read()).is_ok());
}

/// A lesson opened from a file, a paste or a link is checked as `logtime check` checks it: one
/// whose stated answer the model disagrees with is refused, naming the step and the field in
/// core's words; the same lesson with the model's answer plays.
#[test]
fn a_lesson_whose_stated_answer_is_wrong_is_refused_at_its_step_and_field() {
    let drill = |expect: &str| {
        format!(
            r#"{{"lesson": {{"kind": "drill"}}, "kafka": "4.0", "topic": {{"retention.ms": "1d", "segment.bytes": "1MiB"}},
            "start": "2027-03-12T09:00:00Z", "steps": [
              {{"produce": {{"records": [{{"timestamp": "now-3d", "value_bytes": 600000}}]}}}},
              {{"produce": {{"records": [{{"timestamp": "now", "value_bytes": 600000}}]}}}},
              {{"question": {{"ask": "Which segments go?", "strike": "segments", "expect": {expect}}}}}]}}"#
        )
    };
    let wrong = drill("[0, 1]");
    let r = Replay::load_as(
        &wrong,
        Source::Inline(wrong.clone()),
        Some(true),
        None,
        None,
    );
    let e = r.error.clone().expect("refused");
    assert!(e.starts_with("this lesson is not played: the model disagrees with it (1 problem), as `logtime check` reports:\nstep 2: question.expect: the model's answer is segments 0, not segments 0, 1"), "{e}");
    assert!(!r.is_lesson());
    let right = drill("[0]");
    let r = Replay::load_as(
        &right,
        Source::Inline(right.clone()),
        Some(true),
        None,
        None,
    );
    assert_eq!(r.error, None);
    assert!(r.is_lesson());
}
