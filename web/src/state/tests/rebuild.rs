//! Rebuilds in chunks: a long replay, a late moment, stopping where it got to, and a step
//! bigger than a chunk.

use super::*;

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
