//! Author mode's plumbing, natively: the mode the explorer loads with, the reducer over core's
//! `Authoring` (recording, selection, errors in core's words, undo), what a click picks or
//! points, and the question kinds made by pointing.

use std::rc::Rc;

use logtime_core::scenario::Entry;
use logtime_lesson::author::{AskKind, AuthorCommand, Authoring, Start};
use logtime_model::partition::Command;
use logtime_model::{Offset, Record, Timestamp};
use yew::Reducible;

use super::state::{AuthorAction, AuthorState, Pointing};
use super::tools::ask_of;
use super::{marks, options_in};
use crate::options::{Context, Mode, Options};

const T: Timestamp = Timestamp(1_805_446_800_000);

fn started() -> Rc<AuthorState> {
    let (a, _) = Authoring::new(Start::Empty {
        kafka: "4.0".into(),
        configs: vec![("retention.ms".into(), "1d".into())],
        start: T,
    })
    .unwrap();
    Rc::new(AuthorState::default()).reduce(AuthorAction::Started(Ok(Box::new(a)), 0, None))
}

fn send(s: Rc<AuthorState>, ago_ms: i64) -> Rc<AuthorState> {
    let records = vec![Record::with_key(Timestamp(T.0 - ago_ms), None, 100)];
    let e = Entry::Command {
        at: T,
        command: Command::Produce { records },
    };
    s.reduce(AuthorAction::Apply(T, Box::new(AuthorCommand::Record(e))))
}

#[test]
fn author_mode_loads_the_explorer_mode_and_leaving_ends_it() {
    let mut o = Options::new(Context::Standalone);
    o.mode = Some(Mode::Author);
    let off = AuthorState::default();
    assert_eq!(options_in(&o, &off).mode, Some(Mode::Author));
    let left = Rc::new(off.clone()).reduce(AuthorAction::Stop);
    assert!(left.left);
    assert_eq!(options_in(&o, &left).mode, None);
    // The Author button on a page without mode=author: on while a draft is written.
    let plain = Options::new(Context::Standalone);
    assert_eq!(options_in(&plain, &off).mode, None);
    assert_eq!(options_in(&plain, &started()).mode, Some(Mode::Author));
    assert!(!Mode::Author.is_lesson());
}

#[test]
fn a_recorded_batch_is_a_step_selected_and_undo_takes_it_back() {
    let s = send(started(), 3 * 86_400_000);
    let d = s.draft.as_ref().unwrap();
    assert_eq!(d.steps.len(), 1);
    assert_eq!(d.steps[0].kind, "produce");
    assert_eq!(s.selected, Some(1));
    assert!(d.undo.0 && !d.undo.1);
    assert!(d.document().contains("now-3d"), "{}", d.document());
    let s = s.reduce(AuthorAction::Apply(T, Box::new(AuthorCommand::Undo)));
    let d = s.draft.as_ref().unwrap();
    assert!(d.steps.is_empty());
    assert_eq!(s.selected, None, "the selection does not outlive its step");
    assert!(s
        .said
        .as_ref()
        .is_some_and(|(w, e)| w.starts_with("Undone") && !e));
}

#[test]
fn a_command_that_cannot_apply_says_why_in_core_words_and_changes_nothing() {
    let s = send(started(), 0);
    let rev = s.draft.as_ref().unwrap().rev;
    let s = s.reduce(AuthorAction::Apply(
        T,
        Box::new(AuthorCommand::Delete { step: 9 }),
    ));
    let (said, error) = s.said.clone().unwrap();
    assert!(error);
    assert_eq!(said, "step: there is no step 9 (the lesson has 1 step)");
    assert_eq!(s.draft.as_ref().unwrap().rev, rev);
}

#[test]
fn picking_a_highlight_toggles_it_on_the_selected_step() {
    let s = send(started(), 0);
    let s = s.reduce(AuthorAction::Point(Pointing::Highlights));
    let replay = crate::state::ReplayView::default();
    let pick = super::pointed(
        &s,
        &replay,
        crate::state::Inspect::Segment(Offset(0)),
        false,
    )
    .unwrap();
    let s = s.reduce(pick);
    assert_eq!(
        s.draft.as_ref().unwrap().steps[0].highlights,
        vec!["segment:0"]
    );
    let (m, _) = marks(&s).unwrap();
    assert_eq!(m.segments, vec![Offset(0)]);
    let again = super::pointed(
        &s,
        &replay,
        crate::state::Inspect::Segment(Offset(0)),
        false,
    )
    .unwrap();
    let s = s.reduce(again);
    assert!(s.draft.as_ref().unwrap().steps[0].highlights.is_empty());
    // Not picking: the click is the explorer's.
    let off = s.reduce(AuthorAction::Point(Pointing::Off));
    assert!(super::pointed(
        &off,
        &replay,
        crate::state::Inspect::Segment(Offset(0)),
        false
    )
    .is_none());
}

#[test]
fn a_kind_that_needs_a_record_waits_for_the_click() {
    assert_eq!(ask_of(0, None), Some(AskKind::StrikeSegments));
    assert_eq!(ask_of(3, None), None, "a lookup needs a record's timestamp");
    assert_eq!(
        ask_of(3, Some((4, 1_000))),
        Some(AskKind::Lookup(Some("1000".into())))
    );
    assert_eq!(
        ask_of(4, Some((4, 1_000))),
        Some(AskKind::ErrorDeleteRecords(Some(4)))
    );
    assert_eq!(ask_of(99, None), None);
}

#[test]
fn a_draft_with_variants_previews_two_seeds_and_one_without_has_none() {
    use logtime_lesson::Pick;
    let text = include_str!("../../../static/lessons/future-drill.json");
    let (a, _) = Authoring::new(Start::Text(text.into())).unwrap();
    let s = Rc::new(AuthorState::default()).reduce(AuthorAction::Started(Ok(Box::new(a)), 0, None));
    let d = s.draft.as_ref().unwrap();
    assert!(d.has_variants());
    for seed in [1, 2] {
        let v = d.variant_preview(Pick::Seed(seed));
        assert!(v.label.contains("case = "), "{}", v.label);
        assert_eq!(v.answers.len(), 4, "one answer per question");
        assert!(v.problems.is_empty(), "{:?}", v.problems);
    }
    assert!(!started().draft.as_ref().unwrap().has_variants());
}
