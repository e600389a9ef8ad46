//! The lesson plug-in's reducer: core's [`Play`](logtime_lesson::Play) drives; these
//! record what it said for the pane, and take the transport while a lesson plays.

use logtime_core::scenario::narrate::{self, Sentence};
use logtime_core::scenario::{StepReport, ViewMarks};
use logtime_lesson::{self as core_lesson, Item, Outcome, Reached, Reveal};
use logtime_model::Offset;

use super::run::{LessonRun, Op};
use super::view::{is_stop, ItemView, LessonView, Takes};
use crate::model::viewport::Viewport;
use crate::options::Mode;
use crate::state::{Explorer, LessonAction, Pending, Shared, TransportAction};

/// Where a lesson stopped: the file step, its model step's report (when the step ran one), and
/// the item it opened.
type Stop = (usize, Option<StepReport>, Option<usize>);

impl Explorer {
    /// Reduces a [`LessonAction`]; `false` when nothing changed.
    pub(crate) fn reduce_lesson(&mut self, a: LessonAction) -> bool {
        match a {
            LessonAction::Next => {
                self.playback.playing = false;
                self.lesson_next();
            }
            LessonAction::Select(o) => self.lesson_select(o),
            LessonAction::Answer(v) => self.lesson_answer(v),
            LessonAction::Hint => self.lesson_hint(),
            LessonAction::Reveal => self.lesson_reveal(),
            LessonAction::Return => self.lesson_return(),
            LessonAction::Follow(t) => self.lesson_follow(t),
            LessonAction::Restart(seed) => {
                let seed = seed.or(self.lesson.seed);
                let branch = self.lesson.branch.is_some();
                self.lesson_start(seed, None, Vec::new());
                if branch {
                    self.lesson.make_mut().branch = None;
                }
            }
        }
        true
    }

    /// The transport while a lesson plays: a step is the next stop, back the previous one, and
    /// play runs stops until one waits for the learner. `None` when no lesson plays (the
    /// explorer's own transport then runs); otherwise whether anything changed.
    pub(crate) fn lesson_transport(
        &mut self,
        a: &TransportAction,
        was_playing: bool,
    ) -> Option<bool> {
        if !self.replay.is_lesson() {
            return None;
        }
        match a {
            TransportAction::Step => {
                if !self.lesson_next() {
                    self.playback.playing = false;
                    return Some(true);
                }
                if self.lesson.pause || self.lesson.open().is_some() || self.lesson.finished {
                    self.playback.playing = false;
                }
            }
            TransportAction::Back => {
                self.playback.playing = false;
                self.lesson_back(false);
            }
            TransportAction::Play(_) | TransportAction::TogglePlay => {
                let want = match a {
                    TransportAction::Play(p) => *p,
                    _ => !was_playing,
                };
                self.playback.playing =
                    want && !self.lesson.finished && self.lesson.open().is_none();
            }
            _ => return None,
        }
        Some(true)
    }

    /// Starts a lesson run afresh (variant `seed`, opened at `open_at`, or where the lesson
    /// says), keeping the pane's mode, the speed and the view, then replays `ops`.
    pub(crate) fn lesson_start(&mut self, seed: Option<u64>, open_at: Option<usize>, ops: Vec<Op>) {
        let Some((lesson, opened_at)) = self
            .replay
            .lesson()
            .map(|l| (l.lesson.clone(), l.opened_at))
        else {
            return;
        };
        let run = match LessonRun::start(lesson, seed, open_at.or(Some(opened_at))) {
            Ok(run) => run,
            Err(e) => {
                self.lesson.make_mut().error = Some(e);
                return;
            }
        };
        let old = self.replay.lesson().map(|l| (l.started, l.moves.clone()));
        let replay = self.replay.with_run(run);
        let (speed, viewport, token, wanted) = (
            self.playback.speed,
            self.viewport,
            self.load_token,
            self.wanted,
        );
        let branch = self.lesson.branch.clone();
        let import = self.import.clone();
        *self = Explorer::default();
        self.import = import;
        self.playback.speed = speed;
        self.viewport = Viewport {
            follow: true,
            ..viewport
        };
        self.load_token = token;
        self.wanted = wanted;
        self.replay = Shared::new(replay);
        self.sample_disk();
        self.lesson_begin(ops);
        if let Some(old) = old {
            self.replay.with_lesson(|l| l.keep_times(old.0, &old.1));
        }
        if self.lesson.branch != branch {
            self.lesson.make_mut().branch = branch;
        }
    }

    /// Fills the pane for a freshly started run, takes the first stop, then replays `ops`
    /// (its first `Next` being that stop).
    pub(crate) fn lesson_begin(&mut self, ops: Vec<Op>) {
        let Some(view) = self.replay.lesson().map(|l| {
            let c = l.play.lesson();
            let p = l.play.partition();
            LessonView {
                mode: Some(match self.wanted.0 {
                    Some(m) if m.is_lesson() => m,
                    _ => match c.meta.kind {
                        core_lesson::LessonKind::Drill => Mode::Drill,
                        core_lesson::LessonKind::Walkthrough => Mode::Walkthrough,
                    },
                }),
                kind: c.meta.kind,
                summary: c
                    .meta
                    .summary
                    .as_ref()
                    .map(|m| core_lesson::render(m, p))
                    .unwrap_or_default(),
                authored: c.is_lesson,
                seed: l.seed,
                variant: c.variant.label(),
                has_variants: l.lesson.variant_count() > 1,
                steps: c.steps.len(),
                hidden: l.play.hidden(),
                card: Some(l.play.scorecard()),
                ..LessonView::default()
            }
        }) else {
            return;
        };
        self.lesson = Shared::new(view);
        let replaying = !ops.is_empty();
        let mut ops = ops.into_iter();
        if replaying {
            // The first op is the opening stop.
            ops.next();
        }
        self.lesson_next();
        for op in ops {
            match op {
                Op::Next => {
                    self.lesson_next();
                }
                Op::Act(at, command) => {
                    let _ = self.apply(at, command);
                    self.lesson_after_act();
                }
                Op::Answer(a) => self.lesson_answer_with(a),
                Op::Hint => self.lesson_hint(),
                Op::Reveal => self.lesson_reveal(),
            }
        }
        if replaying {
            self.finish_walks();
        }
    }

    /// Refreshes what depends on the play after any operation: hidden affordances, the score,
    /// whether it is finished, the step counter.
    pub(crate) fn lesson_sync(&mut self) {
        let Some((hidden, card, finished, next, results)) = self.replay.lesson().map(|l| {
            (
                l.play.hidden(),
                l.play.scorecard(),
                l.play.is_done(),
                l.play.next_step(),
                l.results(""),
            )
        }) else {
            return;
        };
        if self.replay.done != next {
            self.replay.make_mut().done = next;
        }
        let v = self.lesson.make_mut();
        v.hidden = hidden;
        v.card = Some(card);
        v.finished = finished;
        v.results = Some(results);
    }

    /// The item view of item `k` as the play holds it now.
    pub(crate) fn item_view(&self, k: usize) -> Option<ItemView> {
        let l = self.replay.lesson()?;
        let c = l.play.lesson();
        let (step, item) = c.items().nth(k)?;
        let p = l.play.partition();
        let card = l.play.scorecard();
        let result = card.items.get(k)?;
        let (takes, title, ask, points) = match item {
            Item::Question(q) => (Takes::of(&q.kind), &q.title, &q.ask, q.points),
            Item::Task(t) => (Takes::Task, &t.title, &t.ask, t.points),
            _ => return None,
        };
        Some(ItemView {
            index: k,
            of: card.items.len(),
            step,
            takes,
            title: title.clone(),
            ask: core_lesson::render(ask, p),
            hints: Vec::new(),
            hints_left: l.play.hints_left(),
            costs: (card.scoring.hint_cost, card.scoring.wrong_cost),
            points,
            feedback: None,
            revealed: None,
            explanation: Vec::new(),
            goal: l.play.goal(),
            outcome: result.outcome,
        })
    }

    /// On to the next stop: runs the lesson's steps until one worth stopping at. `false` when
    /// nothing moved (an item is open, or the lesson is over).
    pub(crate) fn lesson_next(&mut self) -> bool {
        let blocked = self
            .replay
            .lesson()
            .is_none_or(|l| l.play.open_item().is_some() || l.play.is_done());
        if blocked {
            return false;
        }
        self.inspect = None;
        let (passed, stop) = self.lesson_run_to_stop();
        self.replay.with_lesson(|l| l.ops.push(Op::Next));
        let ops = self.replay.lesson().map_or(0, |l| l.ops.len());
        match stop {
            Some(stop) => self.lesson_show_stop(stop, passed, ops),
            None => {
                let v = self.lesson.make_mut();
                v.passed = passed;
                v.stops.push(ops);
            }
        }
        self.lesson_sync();
        true
    }

    /// Runs the lesson's steps up to the next stop: the narration of the steps passed on the
    /// way, and the stop (none when the play ended or failed).
    fn lesson_run_to_stop(&mut self) -> (Vec<Sentence>, Option<Stop>) {
        let mut passed = Vec::new();
        loop {
            let mut marks = ViewMarks::default();
            let previous = self.now();
            let Some((step, stops_here)) = self.replay.lesson().map(|l| {
                let c = l.play.lesson();
                let at = l.play.next_step();
                (at, is_stop_at(c, at))
            }) else {
                return (passed, None);
            };
            let reached = self
                .replay
                .with_lesson(|l| l.play.advance(&mut |e| marks.see(e.event)))
                .flatten();
            let reached = match reached {
                None => return (passed, None),
                Some(Err(e)) => {
                    self.lesson.make_mut().error = Some(e.to_string());
                    return (passed, None);
                }
                Some(Ok(r)) => r,
            };
            let report = match reached {
                Reached::Model(report) => report,
                Reached::Note => return (passed, Some((step, None, None))),
                Reached::Question { item } | Reached::Task { item, .. } => {
                    return (passed, Some((step, None, Some(item))))
                }
            };
            self.absorb(marks, &report);
            // Numbered by the lesson file's steps, as the pane's "Step N of M" counts them (notes
            // and questions included), not by the scenario's model steps.
            let heading = narrate::heading(step + 1, report.now, previous);
            if !self.lesson.hidden.is_empty() {
                // The log would give a hidden verdict away: the pane's narration (which core
                // words with what is hidden) is the record.
                let mut h = heading;
                h.capitalize();
                self.say(h);
            } else {
                self.narrate(heading, &report);
            }
            if stops_here {
                return (passed, Some((step, Some(*report), None)));
            }
            let words = self.replay.lesson().map(|l| {
                l.play
                    .narration(step, Some(&report))
                    .into_iter()
                    .flat_map(|n| n.sentences)
                    .collect::<Vec<_>>()
            });
            passed.push(Sentence::join(words.unwrap_or_default(), "; "));
        }
    }

    /// Shows a stop in the pane (its narration, targets, pause and item), `ops` operations
    /// into the run, and brings what it points at into view.
    fn lesson_show_stop(&mut self, (step, report, item): Stop, passed: Vec<Sentence>, ops: usize) {
        let (narration, show, pause) = self
            .replay
            .lesson()
            .map(|l| {
                let s = l.play.lesson().steps.get(step);
                (
                    l.play.narration(step, report.as_ref()),
                    s.map(|s| s.show.clone()).unwrap_or_default(),
                    s.is_some_and(|s| s.pause),
                )
            })
            .unwrap_or_default();
        let item = item.and_then(|k| self.item_view(k));
        // the view follows what the step points at
        let focus = focus_of(&show);
        let v = self.lesson.make_mut();
        v.at = Some(step);
        v.narration = narration;
        v.passed = passed;
        v.show = show;
        v.followed = None;
        v.pause = pause;
        v.item = item;
        v.selection.clear();
        v.error = None;
        v.stops.push(ops);
        let segments = v
            .show
            .iter()
            .any(|t| matches!(t, core_lesson::Target::Segment(_)));
        match (focus, self.bounds()) {
            (Some((a, b)), Some((lo, hi))) => self.viewport = Viewport::focus(a, b, lo, hi),
            // a segment is outlined among all of them
            (None, Some((lo, hi))) if segments => self.viewport = Viewport::fit(lo, hi),
            _ => {}
        }
    }

    /// The partition's offsets `[first segment's base, log end)`.
    pub(crate) fn bounds(&self) -> Option<(i64, i64)> {
        let r = self.replay.runner()?;
        let p = r.partition();
        let lo = p.segments().first().map_or(0, |s| s.base_offset().0);
        Some((lo, p.log_end_offset().0.max(lo + 1)))
    }

    /// After a learner's command: the open task's goal, and "done" when it holds.
    pub(crate) fn lesson_after_act(&mut self) {
        let Some((goal, solved)) = self
            .replay
            .lesson()
            .map(|l| (l.last_goal.clone(), l.solved))
        else {
            return;
        };
        if let Some(item) = self.lesson.make_mut().item.as_mut() {
            if item.takes == Takes::Task && item.outcome == Outcome::Open {
                if goal.is_some() {
                    item.goal = goal;
                }
                if solved {
                    item.outcome = Outcome::Done;
                }
            }
        }
        self.lesson_sync();
    }

    pub(crate) fn lesson_select(&mut self, o: Offset) {
        let v = self.lesson.make_mut();
        let Some(item) = v.item.as_ref().filter(|i| i.outcome == Outcome::Open) else {
            return;
        };
        v.selection = item.takes.select(&v.selection, o);
        v.error = None;
    }

    pub(crate) fn lesson_answer(&mut self, value: Option<i64>) {
        let Some(item) = self.lesson.open().cloned() else {
            return;
        };
        match item.takes.answer(&self.lesson.selection, value) {
            Ok(a) => self.lesson_answer_with(a),
            Err(e) => self.lesson.make_mut().error = Some(e.to_string()),
        }
    }

    pub(crate) fn lesson_answer_with(&mut self, a: core_lesson::Answer) {
        let graded = self.replay.with_lesson(|l| {
            let item = l.play.open_item();
            let g = l.play.answer(&a);
            if g.is_ok() {
                l.ops.push(Op::Answer(a.clone()));
                if let Some(item) = item {
                    l.record(core_lesson::Move::Answer {
                        item,
                        answer: a.clone(),
                    });
                }
            }
            g
        });
        let Some(graded) = graded else { return };
        let v = self.lesson.make_mut();
        match graded {
            Ok(g) => {
                v.error = None;
                if let Some(item) = v.item.as_mut() {
                    if g.correct {
                        item.outcome = Outcome::Done;
                        item.explanation = g.explanation;
                    }
                    item.feedback = Some((g.correct, g.feedback));
                }
                if g.correct {
                    v.selection.clear();
                }
            }
            Err(e) => v.error = Some(e.to_string()),
        }
        self.lesson_sync();
    }

    pub(crate) fn lesson_hint(&mut self) {
        let hint = self.replay.with_lesson(|l| {
            let item = l.play.open_item();
            let h = l.play.hint();
            if let (Ok(Some(_)), Some(item)) = (&h, item) {
                l.ops.push(Op::Hint);
                l.record(core_lesson::Move::Hint { item });
            }
            (h, l.play.hints_left())
        });
        let Some((hint, left)) = hint else { return };
        let v = self.lesson.make_mut();
        match hint {
            Ok(Some(h)) => {
                if let Some(item) = v.item.as_mut() {
                    item.hints.push(h);
                    item.hints_left = left;
                }
            }
            Ok(None) => {}
            Err(e) => v.error = Some(e.to_string()),
        }
        self.lesson_sync();
    }

    pub(crate) fn lesson_reveal(&mut self) {
        let mut marks = ViewMarks::default();
        let revealed = self.replay.with_lesson(|l| {
            let item = l.play.open_item();
            let r = l.play.reveal(&mut |e| marks.see(e.event));
            if let (true, Some(item)) = (r.is_ok(), item) {
                l.ops.push(Op::Reveal);
                l.record(core_lesson::Move::Reveal { item });
            }
            r
        });
        let Some(revealed) = revealed else { return };
        let words = match revealed {
            Ok(Reveal::Question {
                feedback, authored, ..
            }) => feedback.into_iter().chain(authored).collect::<Vec<_>>(),
            Ok(Reveal::Task(t)) => {
                for r in &t.reports {
                    let mut heading = Sentence::plain("at ");
                    heading.time(r.now);
                    self.narrate(heading, r);
                }
                if let Some(r) = t.reports.last() {
                    self.absorb(marks, r);
                }
                if let Some(item) = self.lesson.make_mut().item.as_mut() {
                    item.goal = Some(t.goal.clone());
                }
                t.narration.into_iter().chain(t.authored).collect()
            }
            Err(e) => {
                self.lesson.make_mut().error = Some(e.to_string());
                return;
            }
        };
        let v = self.lesson.make_mut();
        if let Some(item) = v.item.as_mut() {
            item.outcome = Outcome::Revealed;
            item.revealed = Some(words);
        }
        v.selection.clear();
        self.lesson_sync();
    }

    /// Back to the previous stop, asking first when that takes back the learner's work (which
    /// is then kept as a branch).
    pub(crate) fn lesson_back(&mut self, confirmed: bool) {
        let Some(ops) = self.replay.lesson().map(|l| l.ops.clone()) else {
            return;
        };
        let stops = &self.lesson.stops;
        if stops.len() < 2 {
            return;
        }
        let keep = stops[stops.len() - 2];
        let undone: Vec<String> = ops[keep..]
            .iter()
            .filter(|o| o.is_work())
            .map(Op::describe)
            .collect();
        if !undone.is_empty() && !confirmed {
            self.playback.playing = false;
            self.pending = Some(Pending::LessonBack { undone });
            return;
        }
        if !undone.is_empty() {
            self.lesson.make_mut().branch = Some(ops.clone());
        }
        let seed = self.lesson.seed;
        self.lesson_start(seed, None, ops[..keep].to_vec());
    }

    /// Back to the work kept as a branch.
    pub(crate) fn lesson_return(&mut self) {
        let Some(ops) = self.lesson.branch.clone() else {
            return;
        };
        let seed = self.lesson.seed;
        self.lesson.make_mut().branch = None;
        self.lesson_start(seed, None, ops);
        if self.lesson.branch.is_some() {
            self.lesson.make_mut().branch = None;
        }
    }
}

/// Whether the play stops at file step `at`.
fn is_stop_at(c: &core_lesson::Concrete, at: usize) -> bool {
    is_stop(&c.steps, at, c.is_lesson)
}

/// The offsets a stop points at, to bring into view: records and ranges first.
fn focus_of(show: &[core_lesson::Target]) -> Option<(i64, i64)> {
    use core_lesson::Target;
    show.iter().find_map(|t| match t {
        Target::Offset(o) | Target::SegmentOf(o) => Some((o.0, o.0)),
        Target::Offsets { first, last } => Some((first.0, last.0)),
        _ => None,
    })
}
