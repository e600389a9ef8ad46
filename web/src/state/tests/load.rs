//! Loading ([`LoadAction`]): a scenario, a lesson or an import's document, the last load winning,
//! and a saved moment rebuilt.

use super::*;

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
