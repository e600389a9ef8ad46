//! The lesson pane's state, driven through the reducer against core's real play.

use std::rc::Rc;

use logtime_core::scenario::Source;
use logtime_lesson::{Answer, Outcome};
use logtime_model::Offset;
use yew::Reducible;

use super::*;
use crate::builtins;
use crate::options::Mode;
use crate::state::{
    Action, CommandAction, Explorer, LessonAction, LoadAction, Pending, Restore, TransportAction,
};

fn act(s: &Rc<Explorer>, a: impl Into<Action>) -> Rc<Explorer> {
    s.clone().reduce(a.into())
}

fn lesson(name: &str, mode: Option<Mode>, seed: Option<u64>) -> Rc<Explorer> {
    let s = act(&Rc::new(Explorer::default()), LoadAction::Want(mode, seed));
    act(
        &s,
        LoadAction::Load {
            token: 0,
            json: Ok(builtins::find(name).expect("a built-in").read()),
            origin: Source::Builtin(name.into()),
            restore: Restore::default(),
        },
    )
}

/// The model's answer to the open question.
fn solved(s: &Explorer) -> Answer {
    let l = s.replay.lesson().expect("a lesson");
    l.play
        .solved()
        .expect("a question is open")
        .clone()
        .expect("answerable")
        .answer
}

/// Answers the open question right, the way the learner does: clicks, or types a value.
fn answer_right(mut s: Rc<Explorer>) -> Rc<Explorer> {
    match solved(&s) {
        Answer::Segments(v) => {
            for o in v {
                s = act(&s, LessonAction::Select(o));
            }
            act(&s, LessonAction::Answer(None))
        }
        Answer::Records(v) => {
            for (a, b) in v {
                for o in a.0..=b.0 {
                    s = act(&s, LessonAction::Select(Offset(o)));
                }
            }
            act(&s, LessonAction::Answer(None))
        }
        Answer::Offset(o) | Answer::Segment(o) => {
            let s = act(&s, LessonAction::Select(o));
            act(&s, LessonAction::Answer(None))
        }
        Answer::Value(v) | Answer::Values { min: v, .. } => act(&s, LessonAction::Answer(Some(v))),
        Answer::ErrorCode(c) => act(&s, LessonAction::Answer(Some(c.into()))),
    }
}

/// Plays a lesson to its end: every question answered right, every task revealed.
fn play_through(mut s: Rc<Explorer>) -> Rc<Explorer> {
    for _ in 0..500 {
        if s.lesson.finished {
            return s;
        }
        match s.lesson.open().map(|i| i.takes.clone()) {
            Some(Takes::Task) => s = act(&s, LessonAction::Reveal),
            Some(_) => {
                s = answer_right(s);
                let item = s.lesson.item.as_ref().unwrap();
                assert_eq!(item.outcome, Outcome::Done, "{:?}", item.feedback);
            }
            None => s = act(&s, LessonAction::Next),
        }
        assert_eq!(s.lesson.error, None);
    }
    panic!("the lesson did not finish");
}

#[test]
fn every_builtin_lesson_and_incident_plays_to_its_score() {
    for name in builtins::LESSONS
        .iter()
        .chain(builtins::INCIDENTS)
        .map(|b| b.name)
    {
        let s = lesson(name, None, None);
        assert_eq!(s.replay.error, None, "{name}");
        assert!(s.replay.is_lesson(), "{name}");
        assert!(s.lesson.at.is_some(), "{name} opens at its first stop");
        let s = play_through(s);
        let card = s.lesson.card.as_ref().unwrap();
        assert!(card.finished(), "{name}");
        assert!(s.lesson.finished, "{name}");
        // a narrated walkthrough may pose nothing; every drill scores
        if name.ends_with("drill") {
            assert!(card.total().1 > 0, "{name} scores something");
        }
        assert!(card.summary().contains("Score:"), "{name}");
    }
}

#[test]
fn a_wrong_answer_and_a_hint_cost_points_and_feedback_comes_from_the_model() {
    let mut s = lesson("future-drill", None, None);
    while s.lesson.open().is_none() {
        s = act(&s, LessonAction::Next);
    }
    let item = s.lesson.open().unwrap().clone();
    assert_eq!(item.takes, Takes::Segment, "pick the pinning segment");
    // nothing picked yet: a clear refusal, nothing counted
    s = act(&s, LessonAction::Answer(None));
    assert_eq!(
        s.lesson.error.as_deref(),
        Some("click one in the partition first (or type it)")
    );
    let right = match solved(&s) {
        Answer::Segment(o) => o,
        a => panic!("{a:?}"),
    };
    let bases: Vec<Offset> = s
        .replay
        .runner()
        .unwrap()
        .partition()
        .segments()
        .iter()
        .map(|x| x.base_offset())
        .collect();
    let wrong = *bases.iter().find(|b| **b != right).unwrap();
    s = act(&s, LessonAction::Select(wrong));
    s = act(&s, LessonAction::Answer(None));
    let (ok, words) = s.lesson.item.as_ref().unwrap().feedback.clone().unwrap();
    assert!(!ok);
    assert!(!words.is_empty(), "the model says why");
    s = act(&s, LessonAction::Hint);
    assert_eq!(s.lesson.item.as_ref().unwrap().hints.len(), 1);
    s = act(&s, LessonAction::Select(right));
    assert_eq!(
        s.lesson.selection,
        vec![right],
        "a single pick replaces the last"
    );
    s = act(&s, LessonAction::Answer(None));
    let item = s.lesson.item.as_ref().unwrap();
    assert_eq!(item.outcome, Outcome::Done);
    let card = s.lesson.card.as_ref().unwrap();
    let r = &card.items[item.index];
    assert_eq!((r.wrong, r.hints_used), (1, 1));
    assert!(r.score(&card.scoring) < r.points);
}

#[test]
fn hidden_affordances_stay_hidden_until_answered() {
    let s = lesson("future-drill", None, None);
    assert!(!s.lesson.hidden.is_empty(), "the drill hides something");
    let s = play_through(s);
    assert!(
        s.lesson.hidden.is_empty(),
        "everything settled shows everything"
    );
}

/// Walks the future walkthrough to its task.
fn at_task() -> Rc<Explorer> {
    let mut s = lesson("future-walkthrough", None, None);
    while s.lesson.open().is_none() {
        s = act(&s, LessonAction::Next);
        assert!(!s.lesson.finished);
    }
    assert_eq!(s.lesson.open().unwrap().takes, Takes::Task);
    s
}

#[test]
fn a_task_is_solved_by_acting_in_the_explorer_and_checked_live() {
    let mut s = at_task();
    let goal = s.lesson.open().unwrap().goal.clone().unwrap();
    assert!(!goal.met);
    s = act(
        &s,
        CommandAction::SetConfig("message.timestamp.after.max.ms".into(), "3600000".into()),
    );
    let item = s.lesson.item.as_ref().unwrap();
    assert_eq!(item.outcome, Outcome::Open);
    let g = item.goal.clone().unwrap();
    assert!(
        !g.met && g.checks.iter().any(|c| c.met),
        "one check holds now"
    );
    s = act(
        &s,
        CommandAction::DeleteRecords {
            offset: 30000,
            then_check: true,
        },
    );
    let item = s.lesson.item.as_ref().unwrap();
    assert_eq!(item.outcome, Outcome::Done, "{:?}", item.goal);
    assert!(item.goal.as_ref().unwrap().met);
    // the next stop is unlocked
    let at = s.lesson.at;
    s = act(&s, LessonAction::Next);
    assert_ne!(s.lesson.at, at);
}

#[test]
fn going_back_asks_and_keeps_the_work_as_a_branch_to_return_to() {
    let mut s = at_task();
    s = act(
        &s,
        CommandAction::SetConfig("message.timestamp.after.max.ms".into(), "3600000".into()),
    );
    let at = s.lesson.at;
    s = act(&s, TransportAction::Back);
    assert!(
        matches!(&s.pending, Some(Pending::LessonBack { undone }) if undone[0].contains("message.timestamp.after.max.ms")),
        "{:?}",
        s.pending
    );
    assert_eq!(
        s.lesson.at, at,
        "nothing changed before the learner answers"
    );
    // keeping the work: nothing happens
    let kept = act(&s, TransportAction::Dismiss);
    assert_eq!(kept.lesson.at, at);
    // going back: the earlier stop, the work kept as a branch
    s = act(&s, TransportAction::Confirm);
    assert!(s.lesson.at < at);
    assert!(s.lesson.branch.is_some());
    let after = s.replay.runner().unwrap().partition().config().clone();
    assert_ne!(
        after.topic.message_timestamp_after_max_ms, 3_600_000,
        "the earlier moment"
    );
    s = act(&s, LessonAction::Return);
    assert_eq!(s.lesson.at, at);
    assert!(s.lesson.branch.is_none());
    let c = s.replay.runner().unwrap().partition().config().clone();
    assert_eq!(
        c.topic.message_timestamp_after_max_ms, 3_600_000,
        "the work is back"
    );
}

#[test]
fn going_back_without_work_just_goes_back() {
    let mut s = lesson("two-kinds-walkthrough", None, None);
    s = act(&s, LessonAction::Next);
    s = act(&s, LessonAction::Next);
    let at = s.lesson.at.unwrap();
    s = act(&s, TransportAction::Back);
    assert_eq!(s.pending, None);
    assert!(s.lesson.at.unwrap() < at);
    assert!(s.lesson.branch.is_none());
}

#[test]
fn a_seed_picks_a_variant_and_the_same_seed_gives_the_same_numbers() {
    let a = lesson("future-drill", None, Some(7));
    let b = lesson("future-drill", None, Some(7));
    assert!(a.lesson.has_variants);
    assert_eq!(a.lesson.variant, b.lesson.variant);
    assert_eq!(a.lesson.seed, Some(7));
    let differs =
        (8..40).any(|k| lesson("future-drill", None, Some(k)).lesson.variant != a.lesson.variant);
    assert!(differs, "other seeds give other numbers");
    // retrying with a new seed
    let r = act(&a, LessonAction::Restart(Some(8)));
    assert_eq!(r.lesson.seed, Some(8));
}

#[test]
fn modes_decide_how_a_file_is_shown() {
    // a lesson in its own kind's mode by default
    assert_eq!(
        lesson("future-drill", None, None).lesson.mode,
        Some(Mode::Drill)
    );
    assert_eq!(
        lesson("future-walkthrough", None, None).lesson.mode,
        Some(Mode::Walkthrough)
    );
    assert_eq!(
        lesson("future-walkthrough", Some(Mode::Presenter), None)
            .lesson
            .mode,
        Some(Mode::Presenter)
    );
    // a lesson in the explorer: its partition, no lesson pane
    let e = lesson("future-drill", Some(Mode::Explorer), None);
    assert!(!e.replay.is_lesson());
    assert_eq!(e.replay.error, None);
    assert!(e.replay.journal().is_some());
    // a plain scenario walked through: every step is a stop, narrated by the narrator
    let mut w = lesson("lookup-scan", Some(Mode::Walkthrough), None);
    assert!(w.replay.is_lesson());
    assert!(!w.lesson.authored);
    let first = w.lesson.at;
    w = act(&w, LessonAction::Next);
    assert_eq!(w.lesson.at, first.map(|a| a + 1));
    assert!(!w.lesson.narration.is_empty());
    // a plain scenario in the explorer is unchanged
    assert!(!lesson("lookup-scan", None, None).replay.is_lesson());
}

#[test]
fn a_lesson_opens_at_the_step_a_link_names() {
    let s = lesson("future-walkthrough", None, None);
    let s = act(
        &s,
        LoadAction::Restore(Restore {
            step: Some(20),
            ..Restore::default()
        }),
    );
    assert!(s.lesson.at.unwrap() >= 20);
}

#[test]
fn selecting_toggles_a_set_and_replaces_a_single_pick() {
    let (a, b) = (Offset(1), Offset(2));
    assert_eq!(Takes::Segments.select(&[a], b), vec![a, b]);
    assert_eq!(Takes::Segments.select(&[a, b], a), vec![b]);
    assert_eq!(Takes::Offset.select(&[a], b), vec![b]);
    // a typed offset wins over a click; -1 is "the lookup finds nothing"
    assert_eq!(
        Takes::Offset.answer(&[a], Some(-1)),
        Ok(Answer::Offset(Offset(-1)))
    );
    assert_eq!(Takes::Segment.answer(&[a], None), Ok(Answer::Segment(a)));
    assert_eq!(
        Takes::Records.answer(&[a, b], None),
        Ok(Answer::Records(vec![(a, b)]))
    );
    assert_eq!(
        Takes::Segments.answer(&[], None),
        Ok(Answer::Segments(vec![]))
    );
    assert_eq!(
        Takes::ErrorCode.answer(&[], Some(40000)),
        Err("an error code is a number from -32768 to 32767")
    );
    assert_eq!(
        Takes::Value("retention.ms".into()).answer(&[], Some(5)),
        Ok(Answer::Value(5))
    );
}
