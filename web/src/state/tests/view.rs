//! What only changes the view ([`ViewAction`]: walks, the viewport) and the import's progress
//! ([`ImportAction`]).

use super::*;

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
