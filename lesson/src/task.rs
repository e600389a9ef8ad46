//! Tasks ("try it yourself"): the learner acts in the explorer until a [`Goal`] holds on the
//! live partition. A task has ordered hints, a revealed solution (a list of [`Action`]s that
//! `logtime check` proves reaches the goal) and a reveal that explains it from the events the
//! solution caused.

use super::action::{Action, FieldError};
use super::goal::{Goal, GoalStatus};
use super::markup::Markup;
use super::target::{Affordance, Affordances};
use logtime_core::scenario::narrate::Sentence;
use logtime_core::scenario::StepReport;

/// One task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// A short name for score summaries.
    pub title: String,
    /// What the learner is asked to do (markup).
    pub ask: Markup,
    /// When it is done.
    pub goal: Goal,
    /// Ordered hints.
    pub hints: Vec<Markup>,
    /// The revealed solution.
    pub solution: Vec<Action>,
    /// Shown after the solution's own narration.
    pub reveal: Option<Markup>,
    /// Points for solving it.
    pub points: u32,
    /// Affordances hidden until it is solved or revealed.
    pub hide: Affordances,
}

/// Every key of a task.
pub const TASK_KEYS: &[&str] = &[
    "title", "ask", "goal", "hints", "solution", "reveal", "points", "hide",
];

/// The affordances a task hides by default: the remedy buttons (they would do it for the
/// learner), the pinned badges and the answer panel.
pub(crate) fn default_hide() -> Affordances {
    Affordances::of(&[
        Affordance::Remedies,
        Affordance::PinnedBadges,
        Affordance::AnswerPanel,
    ])
}

/// Parses a task's `solution`: a non-empty list of actions.
pub(crate) fn solution(v: &serde_json::Value) -> Result<Vec<Action>, FieldError> {
    let serde_json::Value::Array(a) = v else {
        return Err((String::new(), "expected an array of actions".into()));
    };
    if a.is_empty() {
        return Err((
            String::new(),
            "expected at least one action: the solution proves the goal can be reached".into(),
        ));
    }
    a.iter()
        .enumerate()
        .map(|(i, x)| {
            Action::parse(x).map_err(|(f, r)| {
                (
                    if f.is_empty() {
                        format!("[{i}]")
                    } else {
                        format!("[{i}].{f}")
                    },
                    r,
                )
            })
        })
        .collect()
}

/// What revealing a task shows: the solution, what it did, the author's explanation and the goal
/// reached.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskReveal {
    /// The actions applied.
    pub solution: Vec<Action>,
    /// What each command did, in order.
    pub reports: Vec<StepReport>,
    /// The generated narration of those reports.
    pub narration: Vec<Sentence>,
    /// The author's explanation.
    pub authored: Vec<Sentence>,
    /// The goal afterwards.
    pub goal: GoalStatus,
}
