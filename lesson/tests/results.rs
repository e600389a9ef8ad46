//! Results a trainer collects: written, read back, checked, and re-scored by replaying them.

use logtime_lesson::{
    self as lesson, class_table, rescore, seed_for, Answer, Entry, Flag, Move, Outcome, Pick, Play,
    Reached, Results, ResultsError,
};

const FUTURE_DRILL: &str = include_str!("../../static/lessons/future-drill.json");

/// Plays `json` with `seed`: every question answered first with `wrong(item)` (when it gives
/// one), then right; tasks revealed. The moves are recorded as the web records them.
fn played(json: &str, learner: &str, wrong: &dyn Fn(usize, &Answer) -> Option<Answer>) -> Results {
    let l = lesson::parse(json).unwrap();
    let seed = seed_for(learner, l.fingerprint());
    let mut play = Play::new(l.instantiate(Pick::Seed(seed)).unwrap()).unwrap();
    let mut entries = Vec::new();
    let mut ms = 0;
    let mut push = |m: Move, entries: &mut Vec<Entry>| {
        ms += 7_000;
        entries.push(Entry { ms, play: m });
    };
    while let Some(r) = play.advance(&mut |_| {}) {
        match r.unwrap() {
            Reached::Question { item } => {
                let right = play.solved().unwrap().as_ref().unwrap().answer.clone();
                let right = match right {
                    Answer::Values { min, .. } => Answer::Value(min),
                    a => a,
                };
                if let Some(w) = wrong(item, &right) {
                    play.answer(&w).unwrap();
                    push(Move::Answer { item, answer: w }, &mut entries);
                }
                play.answer(&right).unwrap();
                push(
                    Move::Answer {
                        item,
                        answer: right,
                    },
                    &mut entries,
                );
            }
            Reached::Task { item, .. } if play.open_item().is_some() => {
                play.reveal(&mut |_| {}).unwrap();
                push(Move::Reveal { item }, &mut entries);
            }
            _ => {}
        }
    }
    Results {
        learner: learner.into(),
        lesson: play.lesson().title().into(),
        fingerprint: l.fingerprint().into(),
        seed: Some(seed),
        entries,
    }
}

fn never(_: usize, _: &Answer) -> Option<Answer> {
    None
}

#[test]
fn results_round_trip_and_an_edit_is_caught() {
    let r = played(FUTURE_DRILL, "Ada", &never);
    let text = r.to_json();
    assert_eq!(Results::from_json(&text), Ok(r.clone()));
    assert!(!text.contains("score"), "no score in the results");
    // An answer changed by hand without recomputing the check.
    let edited = text.replacen("\"segment\":", "\"segment\":1", 1);
    assert_ne!(edited, text);
    assert_eq!(Results::from_json(&edited), Err(ResultsError::Edited));
    assert_eq!(
        Results::from_json("{\"v\": 2}").unwrap_err().to_string(),
        "results: version 2 is not one this build reads (it reads 1)"
    );
    assert_eq!(
        Results::from_json("[").unwrap_err().to_string(),
        "results: not results json: EOF while parsing a list at line 1 column 1"
    );
}

#[test]
fn the_seed_comes_from_the_name_and_the_lesson() {
    let f = lesson::parse(FUTURE_DRILL).unwrap();
    let a = seed_for("Ada Lovelace", f.fingerprint());
    assert_eq!(a, seed_for("  ada lovelace ", f.fingerprint()));
    assert_ne!(a, seed_for("Grace Hopper", f.fingerprint()));
    assert!(a < 1 << 53);
}

#[test]
fn rescoring_replays_the_moves_and_flags_what_does_not_count() {
    let l = lesson::parse(FUTURE_DRILL).unwrap();
    let ada = played(FUTURE_DRILL, "Ada", &never);
    let bob = played(FUTURE_DRILL, "Bob", &|item, right| match (item, right) {
        (0, Answer::Segment(_)) => Some(Answer::Segment(logtime_model::units::Offset(0))),
        _ => None,
    });
    let g = rescore(&l, &ada);
    assert!(g.flags.is_empty(), "{:?}", g.flags);
    assert_eq!(g.items[0].outcome, Outcome::Done);
    assert_eq!(g.items[0].cell(), "✓ 7 s");
    let b = rescore(&l, &bob);
    assert_eq!(b.items[0].tries, 2);
    assert_eq!(b.items[0].cell(), "✓ after 2 tries, 14 s");
    assert!(b.score.0 < g.score.0);
    // A forged answer the engine refuses, and results for another version of the lesson.
    let mut forged = ada.clone();
    forged.entries.insert(
        0,
        Entry {
            ms: 1,
            play: Move::Answer {
                item: 99,
                answer: Answer::ErrorCode(0),
            },
        },
    );
    forged.fingerprint = "0000000000000000".into();
    let f = rescore(&l, &forged);
    assert!(matches!(f.flags[0], Flag::OtherVersion { .. }));
    assert_eq!(
        f.flags[1].describe(),
        "move 0 refused: the lesson has no item 99"
    );
    let table = class_table(&l, vec![g, b, f]);
    assert_eq!(table.first_try[0], (2, 3));
    assert_eq!(table.common_wrong[0][0].0, "segment 0");
    assert_eq!(
        table.common_wrong[0][0].1,
        Some(lesson::Misconception::DeletedSegment)
    );
    let csv = table.to_csv();
    assert!(csv.starts_with("learner,seed,score,"), "{csv}");
    assert_eq!(csv.lines().count(), 5);
    assert!(table
        .to_text()
        .contains("1× segment 0 (picked a segment the check deletes)"));
}

/// Plays the future drill with `learner`'s variant, every question right at once; its task is
/// solved by acting as a learner does in the explorer: each command of `acts` (from the task's
/// own solution, or none) applied at the broker clock and recorded as a [`Move::Act`]. Returns
/// the results and the goal's status after each act (checked live, as the pane shows it).
fn acted(
    learner: &str,
    acts: &dyn Fn(&[logtime_lesson::Action]) -> Vec<logtime_lesson::Action>,
) -> (Results, Vec<bool>) {
    let l = lesson::parse(FUTURE_DRILL).unwrap();
    let seed = seed_for(learner, l.fingerprint());
    let mut play = Play::new(l.instantiate(Pick::Seed(seed)).unwrap()).unwrap();
    let (mut entries, mut goals, mut ms) = (Vec::new(), Vec::new(), 0);
    // A task left unsolved blocks the way on: the learner stops there.
    while let Some(Ok(r)) = play.advance(&mut |_| {}) {
        match r {
            Reached::Question { item } => {
                let right = play.solved().unwrap().as_ref().unwrap().answer.clone();
                play.answer(&right).unwrap();
                ms += 5_000;
                entries.push(Entry {
                    ms,
                    play: Move::Answer {
                        item,
                        answer: right,
                    },
                });
            }
            Reached::Task { .. } => {
                for a in acts(&play.task().unwrap().solution) {
                    let now = play.runner().now();
                    for (at, command) in a.commands(now).unwrap() {
                        let step = play.next_step();
                        let done = play.act(at, command.clone(), &mut |_| {}).unwrap();
                        goals.push(done.goal.unwrap().met);
                        ms += 5_000;
                        entries.push(Entry {
                            ms,
                            play: Move::Act { step, at, command },
                        });
                    }
                }
            }
            _ => {}
        }
    }
    let results = Results {
        learner: learner.into(),
        lesson: play.lesson().title().into(),
        fingerprint: l.fingerprint().into(),
        seed: Some(seed),
        entries,
    };
    (results, goals)
}

#[test]
fn a_task_solved_by_acting_is_checked_live_and_scored_again_from_the_acts() {
    let l = lesson::parse(FUTURE_DRILL).unwrap();
    let task = 3;
    for learner in ["Ada", "Grace"] {
        // The solution's own actions, as a learner would click them: the config first, then
        // DeleteRecords past the pinned segment, then a retention check.
        let (r, goals) = acted(learner, &|solution| solution.to_vec());
        assert_eq!(goals.len(), 3, "{learner}: one goal check per act");
        assert_eq!(
            goals,
            [false, false, true],
            "{learner}: the goal holds after the last act only"
        );
        let g = rescore(&l, &r);
        assert!(g.flags.is_empty(), "{learner}: {:?}", g.flags);
        assert_eq!(g.items[task].outcome, Outcome::Done, "{learner}");
        assert_eq!(g.items[task].cell(), "✓ 15 s");
        assert_eq!(
            g.score,
            (50, 50),
            "{learner}: every item right, the task solved by acting"
        );
        // Through the code's text form too: the acts survive it.
        let back = Results::from_json(&r.to_json()).unwrap();
        assert_eq!(rescore(&l, &back).score, (50, 50));
    }
    // Acting short of the goal (the config only) leaves the task open: no points for it, and
    // the learner goes no further.
    let (r, goals) = acted("Ada", &|solution| solution[..1].to_vec());
    assert_eq!(goals, [false]);
    let g = rescore(&l, &r);
    assert!(g.flags.is_empty(), "{:?}", g.flags);
    assert_eq!(g.items[task].outcome, Outcome::Open);
    assert_eq!(g.score, (30, 50));
}
