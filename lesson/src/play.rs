//! A learner's way through a lesson: [`Play`] holds the live partition (a scenario
//! [`Runner`]), the next step, the question or task that is open, hints taken, wrong answers and
//! reveals, and derives from them what to hide and the score. The web explorer drives one; `check`
//! and `answer_sheet` drive one on the path where every task is solved by its revealed solution.
//!
//! Rules: a question or task blocks the way on until it is settled (answered right, solved, or
//! revealed); answers are computed on the live partition when the item is reached, so a
//! learner's own actions in an earlier task are taken into account; revealing a task applies its
//! solution to the live partition.

use super::action::Action;
use super::goal::GoalStatus;
use super::question::{Answer, Grade, Question, Solved};
use super::score::{ItemResult, Outcome, Scorecard};
use super::target::Affordances;
use super::task::{Task, TaskReveal};
use super::{render, Concrete, Item, LessonKind, Narration};
use logtime_core::scenario::narrate::{self, Sentence};
use logtime_core::scenario::{Runner, ScenarioError, StepReport, TimedEvent};
use logtime_model::error::Error;
use logtime_model::partition::{Command, Partition};
use logtime_model::units::Timestamp;
use std::fmt;

/// What reaching a step did.
#[derive(Clone, Debug, PartialEq)]
pub enum Reached {
    /// A scenario step ran.
    Model(Box<StepReport>),
    /// A note: narration only.
    Note,
    /// A question is now open (the `item`-th of [`Concrete::items`]).
    Question {
        /// Its index among the items.
        item: usize,
    },
    /// A task is now open.
    Task {
        /// Its index among the items.
        item: usize,
        /// Whether its goal already held (the learner did it before it was asked): it is then
        /// settled as done at once.
        already_met: bool,
    },
}

/// Why a play action was refused. Nothing changes when one is returned.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayError {
    /// A question or task is open: settle it first.
    Blocked {
        /// Its file step.
        step: usize,
    },
    /// No question or task is open.
    NothingOpen,
    /// The open item is not a question (or not a task).
    WrongItem {
        /// What the call needs: `question` or `task`.
        expected: &'static str,
    },
    /// The answer is of another kind than the question asks.
    AnswerKind {
        /// What the question takes, e.g. `an offset`.
        expected: &'static str,
    },
    /// The model cannot answer the question on this partition (the learner's earlier actions
    /// took it elsewhere, or the lesson is wrong): it can only be revealed.
    Unanswerable(String),
    /// A scenario step failed (a lesson that passes `logtime check` never does this).
    Scenario(ScenarioError),
    /// An action of a task's solution was refused.
    Solution {
        /// Its index in the solution.
        index: usize,
        /// Its kind (`delete_records`, ...).
        kind: &'static str,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Blocked { step } => write!(
                f,
                "step {step} is open: answer it, solve it or reveal it first"
            ),
            PlayError::NothingOpen => f.write_str("no question or task is open"),
            PlayError::WrongItem { expected } => write!(f, "the open item is not a {expected}"),
            PlayError::AnswerKind { expected } => write!(f, "this question takes {expected}"),
            PlayError::Unanswerable(r) => {
                write!(f, "the model cannot answer this question here: {r}")
            }
            PlayError::Scenario(e) => e.fmt(f),
            PlayError::Solution {
                index,
                kind,
                reason,
            } => write!(f, "solution[{index}].{kind}: {reason}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// What a reveal shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Reveal {
    /// A question's answer and why.
    Question {
        /// The right answer.
        answer: Answer,
        /// The model's explanation.
        feedback: Vec<Sentence>,
        /// The author's.
        authored: Vec<Sentence>,
    },
    /// A task's solution, applied.
    Task(TaskReveal),
}

/// What a learner's action did.
#[derive(Clone, Debug, PartialEq)]
pub struct Acted {
    /// The command's report.
    pub report: StepReport,
    /// The open task's goal afterwards.
    pub goal: Option<GoalStatus>,
    /// Whether this action solved the open task.
    pub solved: bool,
}

#[derive(Clone, Debug)]
struct ItemState {
    step: usize,
    hints_used: u32,
    wrong: u32,
    outcome: Outcome,
    /// A question's answer, computed when it was reached.
    solved: Option<Result<Solved, String>>,
}

/// A learner's way through one variant of a lesson.
#[derive(Clone, Debug)]
pub struct Play {
    lesson: Concrete,
    runner: Runner,
    next: usize,
    items: Vec<ItemState>,
    open: Option<usize>,
}

type OnEvent<'a> = &'a mut dyn FnMut(TimedEvent<'_>);

fn question_takes(q: &Question, a: &Answer) -> Result<(), &'static str> {
    use super::question::Ask;
    let ok = matches!(
        (&q.kind, a),
        (Ask::StrikeSegments, Answer::Segments(_))
            | (Ask::StrikeRecords, Answer::Records(_))
            | (Ask::Lookup(..), Answer::Offset(_))
            | (Ask::Pinning, Answer::Segment(_))
            | (Ask::Choose { .. }, Answer::Value(_))
            | (Ask::Error(_), Answer::ErrorCode(_))
            | (Ask::Late(_), Answer::Records(_))
            | (Ask::Closes(..), Answer::Offset(_))
    );
    if ok {
        return Ok(());
    }
    Err(match q.kind {
        Ask::StrikeSegments => "a set of segments",
        Ask::StrikeRecords => "a set of records",
        Ask::Lookup(..) => "an offset",
        Ask::Pinning => "a segment",
        Ask::Choose { .. } => "a config value",
        Ask::Error(_) => "an error code",
        Ask::Late(_) => "a set of records",
        Ask::Closes(..) => "an offset",
    })
}

impl Play {
    /// A play opening where the lesson says (`lesson.opens_at`).
    pub fn new(lesson: Concrete) -> Result<Play, ScenarioError> {
        let at = lesson.meta.opens_at;
        Play::open_at(lesson, at)
    }

    /// A play opening at file step `step`, with the steps before it applied: scenario steps run,
    /// tasks solved by their solutions, questions skipped (they do not count).
    pub fn open_at(lesson: Concrete, step: usize) -> Result<Play, ScenarioError> {
        let runner = Runner::new(lesson.scenario.clone());
        let items = lesson
            .items()
            .map(|(s, _)| ItemState {
                step: s,
                hints_used: 0,
                wrong: 0,
                outcome: Outcome::Open,
                solved: None,
            })
            .collect();
        let mut play = Play {
            lesson,
            runner,
            next: 0,
            items,
            open: None,
        };
        let step = step.min(play.lesson.steps.len());
        while play.next < step {
            let reached = play
                .advance(&mut |_| {})
                .expect("not done before the open step");
            let skip = |e: PlayError, at: usize| match e {
                PlayError::Scenario(e) => e,
                other => ScenarioError {
                    step: Some(at),
                    field: "task.solution".into(),
                    reason: other.to_string(),
                    line_column: None,
                },
            };
            let at = play.next - 1;
            match reached.map_err(|e| skip(e, at))? {
                Reached::Question { item } => play.settle(item, Outcome::Skipped),
                Reached::Task { item, .. } => {
                    if play.open == Some(item) {
                        play.reveal(&mut |_| {}).map_err(|e| skip(e, at))?;
                    }
                    play.items[item].outcome = Outcome::Skipped;
                }
                _ => {}
            }
        }
        Ok(play)
    }

    /// The lesson.
    pub fn lesson(&self) -> &Concrete {
        &self.lesson
    }

    /// The live replay.
    pub fn runner(&self) -> &Runner {
        &self.runner
    }

    /// The live partition.
    pub fn partition(&self) -> &Partition {
        self.runner.partition()
    }

    /// The next file step to reach.
    pub fn next_step(&self) -> usize {
        self.next
    }

    /// Whether every step has been reached and nothing is open.
    pub fn is_done(&self) -> bool {
        self.next >= self.lesson.steps.len() && self.open.is_none()
    }

    /// The open item's index among [`Concrete::items`], if one is open.
    pub fn open_item(&self) -> Option<usize> {
        self.open
    }

    fn open_entry(&self) -> Option<&Item> {
        let k = self.open?;
        self.lesson.steps.get(self.items[k].step).map(|s| &s.item)
    }

    /// The open question.
    pub fn question(&self) -> Option<&Question> {
        match self.open_entry()? {
            Item::Question(q) => Some(q),
            _ => None,
        }
    }

    /// The open task.
    pub fn task(&self) -> Option<&Task> {
        match self.open_entry()? {
            Item::Task(t) => Some(t),
            _ => None,
        }
    }

    /// The open question's answer as the model computed it when the question was reached (an
    /// error when it cannot be answered on this partition).
    pub fn solved(&self) -> Option<&Result<Solved, String>> {
        self.items[self.open?].solved.as_ref()
    }

    fn settle(&mut self, item: usize, outcome: Outcome) {
        self.items[item].outcome = outcome;
        if self.open == Some(item) {
            self.open = None;
        }
    }

    /// Reaches the next step. `None` when every step has been reached.
    pub fn advance(&mut self, on_event: OnEvent<'_>) -> Option<Result<Reached, PlayError>> {
        if let Some(k) = self.open {
            return Some(Err(PlayError::Blocked {
                step: self.items[k].step,
            }));
        }
        let step = self.lesson.steps.get(self.next)?;
        let index = step.index;
        let item_of = |items: &[ItemState]| {
            items
                .iter()
                .position(|i| i.step == index)
                .expect("every item has a state")
        };
        let reached = match &step.item {
            Item::Model { .. } => match self.runner.step(on_event)? {
                Ok(r) => Reached::Model(Box::new(r)),
                Err(e) => return Some(Err(PlayError::Scenario(e))),
            },
            Item::Note => Reached::Note,
            Item::Question(q) => {
                let k = item_of(&self.items);
                self.items[k].solved = Some(q.solve(&self.runner));
                self.open = Some(k);
                Reached::Question { item: k }
            }
            Item::Task(t) => {
                let k = item_of(&self.items);
                let already_met = t.goal.holds(self.runner.partition());
                if already_met {
                    self.items[k].outcome = Outcome::Done;
                } else {
                    self.open = Some(k);
                }
                Reached::Task {
                    item: k,
                    already_met,
                }
            }
        };
        self.next += 1;
        Some(Ok(reached))
    }

    /// Grades an answer to the open question; a right one settles it, a wrong one counts.
    pub fn answer(&mut self, given: &Answer) -> Result<Grade, PlayError> {
        let k = self.open.ok_or(PlayError::NothingOpen)?;
        let q = self.question().ok_or(PlayError::WrongItem {
            expected: "question",
        })?;
        question_takes(q, given).map_err(|expected| PlayError::AnswerKind { expected })?;
        let solved = match &self.items[k].solved {
            Some(Ok(s)) => s,
            Some(Err(r)) => return Err(PlayError::Unanswerable(r.clone())),
            None => return Err(PlayError::Unanswerable("not reached".into())),
        };
        let grade = q.grade(solved, given, self.runner.partition());
        if grade.correct {
            self.settle(k, Outcome::Done);
        } else {
            self.items[k].wrong += 1;
        }
        Ok(grade)
    }

    /// The open item's next hint (its cost is counted), or `None` when there is no other.
    pub fn hint(&mut self) -> Result<Option<Vec<Sentence>>, PlayError> {
        let k = self.open.ok_or(PlayError::NothingOpen)?;
        let hints = match self.open_entry() {
            Some(Item::Question(q)) => &q.hints,
            Some(Item::Task(t)) => &t.hints,
            _ => return Err(PlayError::NothingOpen),
        };
        let Some(h) = hints.get(self.items[k].hints_used as usize) else {
            return Ok(None);
        };
        let out = render(h, self.runner.partition());
        self.items[k].hints_used += 1;
        Ok(Some(out))
    }

    /// How many hints the open item has left.
    pub fn hints_left(&self) -> usize {
        let Some(k) = self.open else { return 0 };
        let n = match self.open_entry() {
            Some(Item::Question(q)) => q.hints.len(),
            Some(Item::Task(t)) => t.hints.len(),
            _ => 0,
        };
        n.saturating_sub(self.items[k].hints_used as usize)
    }

    /// Reveals the open item: a question's answer with its explanation, or a task's solution,
    /// applied to the live partition. It scores nothing.
    pub fn reveal(&mut self, on_event: OnEvent<'_>) -> Result<Reveal, PlayError> {
        let k = self.open.ok_or(PlayError::NothingOpen)?;
        match self.open_entry().cloned() {
            Some(Item::Question(q)) => {
                let p = self.runner.partition();
                let authored = q.explanation(p);
                let out = match &self.items[k].solved {
                    Some(Ok(s)) => Reveal::Question {
                        answer: s.answer.clone(),
                        feedback: q.explain(s, p),
                        authored,
                    },
                    Some(Err(r)) => return Err(PlayError::Unanswerable(r.clone())),
                    None => return Err(PlayError::NothingOpen),
                };
                self.settle(k, Outcome::Revealed);
                Ok(out)
            }
            Some(Item::Task(t)) => {
                let (reports, narration) = self.apply_all(&t.solution, on_event)?;
                let p = self.runner.partition();
                let reveal = TaskReveal {
                    solution: t.solution.clone(),
                    reports,
                    narration,
                    authored: t.reveal.as_ref().map(|m| render(m, p)).unwrap_or_default(),
                    goal: t.goal.evaluate(p),
                };
                self.settle(k, Outcome::Revealed);
                Ok(Reveal::Task(reveal))
            }
            _ => Err(PlayError::NothingOpen),
        }
    }

    /// Applies a task's solution: what each command did, and its narration (worded by the config
    /// in force right after it, which a later action may change).
    fn apply_all(
        &mut self,
        actions: &[Action],
        on_event: OnEvent<'_>,
    ) -> Result<(Vec<StepReport>, Vec<Sentence>), PlayError> {
        let (mut reports, mut narration) = (Vec::new(), Vec::new());
        for (index, a) in actions.iter().enumerate() {
            let fail = |reason: String| PlayError::Solution {
                index,
                kind: a.kind(),
                reason,
            };
            for (t, c) in a.commands(self.runner.now()).map_err(fail)? {
                let r = self
                    .runner
                    .apply(t, c, on_event)
                    .map_err(|e| fail(e.to_string()))?;
                let config = self.runner.partition().config();
                narration.push(Sentence::join(narrate::step(&r, config), "; "));
                reports.push(r);
            }
        }
        Ok((reports, narration))
    }

    /// A learner's action in the explorer at broker time `now`. When a task is open its goal is
    /// evaluated afterwards, and the task is solved once it holds.
    pub fn act(
        &mut self,
        now: Timestamp,
        command: Command,
        on_event: OnEvent<'_>,
    ) -> Result<Acted, Error> {
        let report = self.runner.apply(now, command, on_event)?;
        let mut solved = false;
        let goal = self
            .task()
            .map(|t| t.goal.evaluate(self.runner.partition()));
        if let (Some(g), Some(k)) = (&goal, self.open) {
            if g.met {
                self.settle(k, Outcome::Done);
                solved = true;
            }
        }
        Ok(Acted {
            report,
            goal,
            solved,
        })
    }

    /// The open task's goal on the live partition.
    pub fn goal(&self) -> Option<GoalStatus> {
        self.task()
            .map(|t| t.goal.evaluate(self.runner.partition()))
    }

    /// The affordances to hide now.
    pub fn hidden(&self) -> Affordances {
        let settled: Vec<bool> = self
            .items
            .iter()
            .map(|i| i.outcome != Outcome::Open)
            .collect();
        // The open item was reached: in a walkthrough it hides from its own step.
        let at = match self.open {
            Some(k) => self.items[k].step + 1,
            None => self.next,
        };
        self.lesson.hidden(at, &settled)
    }

    /// The narration of file step `step` on the live partition (see [`Concrete::narration`]).
    pub fn narration(&self, step: usize, report: Option<&StepReport>) -> Vec<Narration> {
        self.lesson
            .narration(step, report, self.runner.partition(), self.hidden())
    }

    /// The score so far.
    pub fn scorecard(&self) -> Scorecard {
        let title = format!(
            "{} ({})",
            self.lesson.title(),
            match self.lesson.meta.kind {
                LessonKind::Walkthrough => "walkthrough",
                LessonKind::Drill => "drill",
            }
        );
        let items = self
            .lesson
            .items()
            .zip(&self.items)
            .map(|((_, item), st)| {
                let (title, kind, points) = match item {
                    Item::Question(q) => (q.title.clone(), "question", q.points),
                    Item::Task(t) => (t.title.clone(), "task", t.points),
                    _ => unreachable!("items are questions and tasks"),
                };
                ItemResult {
                    step: st.step,
                    title,
                    kind,
                    points,
                    hints_used: st.hints_used,
                    wrong: st.wrong,
                    outcome: st.outcome,
                }
            })
            .collect();
        Scorecard {
            title,
            variant: self.lesson.variant.label(),
            scoring: self.lesson.meta.scoring,
            items,
        }
    }
}
