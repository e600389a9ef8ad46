//! The live check, run after every change: the file parsed and every variant checked by
//! [`crate::check_all`] (the problems `logtime check` prints), and one walk of the default
//! variant on the path where each task is solved by its solution, collecting what the author
//! sees beside each step: the replay's effects that bite, each question's computed answer with
//! the feedback a learner gets for it and for one sample wrong answer, and each narration
//! rendered on the partition at its step.

use crate::{
    check, check_all, Affordances, Answer, Bite, Concrete, Misconception, Pick, Play, Reached,
    Reveal,
};
use logtime_core::scenario::bites::bites;
use logtime_core::scenario::narrate::Sentence;
use logtime_core::scenario::ScenarioError;
use logtime_model::partition::Partition;
use logtime_model::units::Offset;
use serde_json::Value;
use std::fmt;

/// How many variants the live check checks (spread evenly); `logtime check` checks up to 1000.
pub const LIVE_VARIANTS: u64 = 4;

/// One way the draft is wrong, in core's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The step, 1-based; `None` for the file as a whole (the `lesson` object, `variants`).
    pub step: Option<usize>,
    /// The field (`narration`, `question.expect`, `show[0]`); empty for the step itself.
    pub field: String,
    /// What is wrong (with the variant's name first when only a variant is wrong).
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = self.step {
            write!(f, "step {s}: ")?;
        }
        if !self.field.is_empty() {
            write!(f, "{}: ", self.field)?;
        }
        f.write_str(&self.message)
    }
}

/// An effect of the replay that bites, at its step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BiteAt {
    /// The step, 1-based.
    pub step: usize,
    /// What happened, in the words `logtime check` prints.
    pub sentence: Sentence,
    /// The effect itself.
    pub bite: Bite,
}

/// A question's answer as the model computes it at its step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerView {
    /// The question's step, 1-based.
    pub step: usize,
    /// The answer (`segments 0, 1`), or why the model cannot answer it there.
    pub answer: Result<String, String>,
    /// What a learner who answers right reads.
    pub right: Vec<Sentence>,
    /// A sample wrong answer and what a learner who gives it reads.
    pub wrong: Option<(String, Vec<Sentence>)>,
    /// The classes of wrong answer this kind of question names, for the author's own words
    /// (`wrong`).
    pub classes: Vec<Misconception>,
    /// What the learner does not see before answering (the kind's default unless set).
    pub hide: Affordances,
    /// What the question asks about beyond its kind (a choice's config and batches, an error
    /// question's action), for the author to see the batches meant are the ones taken.
    pub about: Option<Sentence>,
}

/// The live check of a draft.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Every problem, in step order; empty when `logtime check` would pass.
    pub problems: Vec<Problem>,
    /// The replay's effects that bite (warnings, not problems).
    pub bites: Vec<BiteAt>,
    /// Each question's answer, in step order.
    pub answers: Vec<AnswerView>,
    /// Each step's narration rendered on the partition at that step (0-based by file step; empty
    /// where there is none or the walk did not reach it).
    pub previews: Vec<Vec<Sentence>>,
}

impl Checked {
    /// Whether a learner may play it: no problem (a stated answer that disagrees with the model
    /// is one, as in `logtime check`).
    pub fn playable(&self) -> bool {
        self.problems.is_empty()
    }

    /// The problems at step `step` (1-based).
    pub fn at(&self, step: usize) -> impl Iterator<Item = &Problem> {
        self.problems.iter().filter(move |p| p.step == Some(step))
    }
}

/// A core error as a problem (steps 1-based).
pub(crate) fn problem(e: &ScenarioError, variant: &str) -> Problem {
    let mut message = e.reason.clone();
    if let Some((l, c)) = e.line_column {
        message = format!("{message} (line {l}, column {c})");
    }
    if !variant.is_empty() {
        message = format!("{variant}: {message}");
    }
    Problem {
        step: e.step.map(|s| s + 1),
        field: e.field.clone(),
        message,
    }
}

/// A core error in one line, steps 1-based.
pub(crate) fn problem_of(e: &ScenarioError) -> String {
    problem(e, "").to_string()
}

/// Checks `doc`.
pub(crate) fn run(doc: &Value) -> Checked {
    let mut out = Checked::default();
    let lesson = match crate::parse(&doc.to_string()) {
        Ok(l) => l,
        Err(e) => {
            out.problems.push(problem(&e, ""));
            return out;
        }
    };
    if let Err((variant, errors)) = check_all(&lesson, LIVE_VARIANTS) {
        out.problems
            .extend(errors.iter().map(|e| problem(e, &variant)));
    }
    walk(lesson.default_variant().clone(), &mut out);
    out
}

/// One variant as a learner given `pick` gets it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VariantPreview {
    /// Its values for people (`retention = 2 d`); empty without variables.
    pub label: String,
    /// What is wrong in this variant alone.
    pub problems: Vec<Problem>,
    /// The replay's effects that bite in it.
    pub bites: Vec<BiteAt>,
    /// Each question's answer in it.
    pub answers: Vec<AnswerView>,
}

/// The variant `pick` of `doc`, checked and walked.
pub(crate) fn variant(doc: &Value, pick: Pick) -> VariantPreview {
    let mut out = VariantPreview::default();
    let c = match crate::parse(&doc.to_string()).and_then(|l| l.instantiate(pick)) {
        Ok(c) => c,
        Err(e) => {
            out.problems.push(problem(&e, ""));
            return out;
        }
    };
    out.label = c.variant.label();
    if let Err(errors) = check(&c) {
        out.problems.extend(errors.iter().map(|e| problem(e, "")));
    }
    let mut walked = Checked::default();
    walk(c, &mut walked);
    out.bites = walked.bites;
    out.answers = walked.answers;
    out
}

/// Plays `c` as `check` does, collecting bites, answers and previews; stops where it fails
/// (the failure is already a problem).
fn walk(c: Concrete, out: &mut Checked) {
    out.previews = vec![Vec::new(); c.steps.len()];
    let Ok(mut play) = Play::open_at(c, 0) else {
        return;
    };
    while let Some(reached) = play.advance(&mut |_| {}) {
        let at = play.next_step() - 1;
        let Ok(reached) = reached else { return };
        let mut found = Vec::new();
        match reached {
            Reached::Model(r) => found = bites(at, &r, play.partition().config()),
            Reached::Question { .. } => {
                out.answers.push(answer(&play, at));
                if play.reveal(&mut |_| {}).is_err() {
                    return;
                }
            }
            Reached::Task { already_met, .. } if !already_met => match play.reveal(&mut |_| {}) {
                Ok(Reveal::Task(r)) => {
                    let config = play.partition().config();
                    for report in &r.reports {
                        found.extend(bites(at, report, config));
                    }
                }
                _ => return,
            },
            _ => {}
        }
        out.bites.extend(found.into_iter().map(|b| BiteAt {
            step: b.step + 1,
            sentence: b.sentence(),
            bite: b,
        }));
        let step = &play.lesson().steps[at];
        if let Some(m) = &step.narration {
            out.previews[at] = crate::render(m, play.partition());
        }
    }
}

/// The open question's answer, right feedback and a sample wrong answer's feedback.
fn answer(play: &Play, at: usize) -> AnswerView {
    let mut view = AnswerView {
        step: at + 1,
        answer: Err(String::new()),
        right: Vec::new(),
        wrong: None,
        classes: Vec::new(),
        hide: Affordances::NONE,
        about: None,
    };
    let (Some(q), Some(solved)) = (play.question(), play.solved()) else {
        return view;
    };
    view.classes = crate::grade::classes_of(&q.kind).to_vec();
    view.hide = q.hide;
    view.about = q.subject(play.partition().clock());
    let solved = match solved {
        Ok(s) => s,
        Err(reason) => {
            view.answer = Err(reason.clone());
            return view;
        }
    };
    let p = play.partition();
    view.answer = Ok(solved.answer.to_string());
    let right = match &solved.answer {
        Answer::Values { min, .. } => Answer::Value(*min),
        a => a.clone(),
    };
    view.right = q.grade(solved, &right, p).feedback;
    view.wrong = sample_wrong(&solved.answer, p).and_then(|w| {
        let g = q.grade(solved, &w, p);
        (!g.correct).then(|| (w.to_string(), g.feedback))
    });
    view
}

/// A wrong answer a learner might give: one segment or record too few (or one too many when
/// the answer is none), a neighbouring offset, another segment, a value just outside.
fn sample_wrong(right: &Answer, p: &Partition) -> Option<Answer> {
    let bases: Vec<Offset> = p.segments().iter().map(|s| s.base_offset()).collect();
    Some(match right {
        Answer::Segments(v) if v.is_empty() => Answer::segments(vec![*bases.first()?]),
        Answer::Segments(v) => Answer::segments(v[..v.len() - 1].to_vec()),
        Answer::Records(v) if v.is_empty() => {
            let o = p.log_start_offset();
            Answer::records(vec![(o, o)])
        }
        Answer::Records(v) => {
            let mut v = v.clone();
            let last = v.last_mut()?;
            if last.0 == last.1 {
                v.pop();
            } else {
                last.1 = Offset(last.1 .0 - 1);
            }
            Answer::records(v)
        }
        Answer::Offset(o) if o.0 < 0 => Answer::Offset(p.log_start_offset()),
        Answer::Offset(o) => Answer::Offset(Offset(o.0.saturating_add(1))),
        Answer::Segment(o) => Answer::Segment(*bases.iter().find(|b| *b != o)?),
        Answer::Value(v) => Answer::Value(v.saturating_add(1)),
        Answer::Values { max, .. } => Answer::Value(max.saturating_add(1)),
        Answer::ErrorCode(0) => Answer::ErrorCode(32),
        Answer::ErrorCode(_) => Answer::ErrorCode(0),
    })
}
