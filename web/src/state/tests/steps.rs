//! The transport ([`TransportAction`]): a step, back and seek, play and pause, the speed, and
//! going back over the reader's own actions.

use super::*;

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
