//! The trainer's answer sheet (`logtime explain` on a lesson): every step's authored and
//! generated narration, and every question and task with its answer, the model's explanation,
//! its hints and its solution, on the path where each task is solved by its revealed solution;
//! and the same answers as data ([`answer_key`]).

use super::play::{Play, PlayError, Reached, Reveal};
use super::question::{Question, Solved};
use super::task::{Task, TaskReveal};
use super::{render, Concrete, Item, LessonKind, LessonStep};
use logtime_core::scenario::narrate::{self, Sentence};
use logtime_core::scenario::ScenarioError;
use logtime_model::partition::Partition;

/// What a line of the sheet is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// The title, kind, level and length.
    Title,
    /// Facts about the lesson: its variant, where it opens, the scoring, the setting.
    Fact,
    /// A step's heading.
    Heading,
    /// Authored narration.
    Authored,
    /// The narrator's words for what the step did.
    Generated,
    /// What a question or task asks.
    Ask,
    /// A hint.
    Hint,
    /// A question's answer.
    Answer,
    /// Why, from the model.
    Why,
    /// A task's goal, and its state.
    Goal,
    /// A task's solution.
    Solution,
    /// What an item hides until it is settled.
    Hides,
    /// The partition at the end.
    End,
    /// A section of a post-mortem: `Timeline`, `What happened`, `Why`, `The fix`, `Answer
    /// sheet`.
    Section,
}

/// One line of the sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// What it is.
    pub kind: LineKind,
    /// Its text.
    pub sentence: Sentence,
}

fn line(kind: LineKind, sentence: Sentence) -> Line {
    Line { kind, sentence }
}

fn plain(kind: LineKind, text: impl AsRef<str>) -> Line {
    line(kind, Sentence::plain(text))
}

/// The answer sheet of one variant.
pub fn answer_sheet(c: &Concrete) -> Result<Vec<Line>, ScenarioError> {
    let mut out = header(c);
    let postmortem = c.meta.postmortem.as_ref();
    if postmortem.is_some() {
        out.push(plain(LineKind::Section, "Timeline"));
    }
    let mut play = Play::open_at(c.clone(), 0)?;
    let mut previous = c.scenario.start;
    let mut number = 0;
    let mut key = Vec::new();
    while let Some(reached) = play.advance(&mut |_| {}) {
        let at = play.next_step() - 1;
        let step = &c.steps[at];
        if at == c.meta.opens_at && at > 0 {
            out.push(plain(
                LineKind::Fact,
                "\n(the lesson opens here: the learner first sees the partition as the steps above left it)",
            ));
        }
        let reached = reached.map_err(|e| fail(at, e))?;
        let p = play.partition().clone();
        let mut heading = narrate::heading(at, p.clock(), previous);
        previous = p.clock();
        if step.pause {
            heading.text(" · pause");
        }
        match (reached, &step.item) {
            (Reached::Model(r), _) => {
                out.push(line(LineKind::Heading, heading));
                narration(&mut out, step, &p);
                out.push(line(
                    LineKind::Generated,
                    Sentence::join(narrate::step(&r, p.config()), "; "),
                ));
                if let Some(lines) = c.stream_narration(&r, &p, super::Affordances::NONE) {
                    out.extend(lines.into_iter().map(|s| line(LineKind::Generated, s)));
                }
            }
            (Reached::Note, _) => {
                heading.text(" · note");
                out.push(line(LineKind::Heading, heading));
                narration(&mut out, step, &p);
            }
            (Reached::Question { .. }, Item::Question(q)) => {
                number += 1;
                key.push(question(
                    &mut out,
                    &mut play,
                    (at, number),
                    heading,
                    q,
                    step,
                    &p,
                )?);
            }
            (Reached::Task { already_met, .. }, Item::Task(t)) => {
                number += 1;
                let (k, revealed) = task(
                    &mut out,
                    &mut play,
                    (at, number, already_met),
                    heading,
                    t,
                    step,
                    &p,
                )?;
                key.push(k);
                if revealed {
                    previous = play.partition().clock();
                }
            }
            _ => {}
        }
    }
    out.push(line(LineKind::End, narrate::end(play.partition())));
    footer(c, &play, key, &mut out);
    Ok(out)
}

/// The lines before the timeline: title, summary, the scenario's setting, the variant, where
/// the lesson opens and how it scores.
fn header(c: &Concrete) -> Vec<Line> {
    let mut out = Vec::new();
    let mut head = format!("{} · {}", c.title(), c.meta.kind.key());
    if let Some(l) = c.meta.level {
        head.push_str(&format!(" · {}", l.key()));
    }
    if let Some(m) = c.meta.minutes {
        head.push_str(&format!(" · {m} min"));
    }
    out.push(plain(LineKind::Title, head));
    let p0 = c.scenario.partition();
    if let Some(s) = &c.meta.summary {
        out.extend(
            render(s, &p0)
                .into_iter()
                .map(|s| line(LineKind::Authored, s)),
        );
    }
    if let Some(d) = &c.scenario.description {
        out.push(plain(LineKind::Fact, d));
    }
    out.push(line(LineKind::Fact, narrate::setting(&c.scenario)));
    if let Some(note) = narrate::compaction_note(&c.scenario.config) {
        out.push(line(LineKind::Fact, note));
    }
    if let Some(sc) = &c.stream {
        out.push(line(LineKind::Fact, crate::stream::narrate::setting(sc)));
    }
    if !c.variant.label().is_empty() {
        out.push(plain(
            LineKind::Fact,
            format!("variant: {}", c.variant.label()),
        ));
    }
    if c.meta.opens_at > 0 {
        out.push(plain(
            LineKind::Fact,
            format!(
                "opens at step {}, with the steps before it applied",
                c.meta.opens_at
            ),
        ));
    }
    if c.items().next().is_some() {
        let s = c.meta.scoring;
        out.push(plain(
            LineKind::Fact,
            format!(
                "scoring: each hint costs {}, each wrong answer {}; a revealed answer scores 0",
                narrate::count(s.hint_cost, "point", "points"),
                s.wrong_cost
            ),
        ));
    }
    out
}

/// A play error at step `at` as the scenario error the sheet fails with.
fn fail(at: usize, e: PlayError) -> ScenarioError {
    match e {
        PlayError::Scenario(e) => e,
        other => ScenarioError {
            step: Some(at),
            field: String::new(),
            reason: other.to_string(),
            line_column: None,
        },
    }
}

/// The step's own narration, rendered on the partition `p` it is read on.
fn narration(out: &mut Vec<Line>, step: &LessonStep, p: &Partition) {
    if let Some(m) = &step.narration {
        out.extend(
            render(m, p)
                .into_iter()
                .map(|s| line(LineKind::Authored, s)),
        );
    }
}

/// A question's lines, from its heading to its revealed answer and why; its line of the answer
/// key.
fn question(
    out: &mut Vec<Line>,
    play: &mut Play,
    (at, number): (usize, usize),
    mut heading: Sentence,
    q: &Question,
    step: &LessonStep,
    p: &Partition,
) -> Result<String, ScenarioError> {
    let key;
    heading.text(format!(
        " · question {number} ({}): {}",
        narrate::count(q.points, "point", "points"),
        q.title
    ));
    if let Some(v) = q.kafka {
        heading.text(format!(" · under {}", v.label()));
    }
    out.push(line(LineKind::Heading, heading));
    narration(out, step, p);
    out.extend(
        render(&q.ask, p)
            .into_iter()
            .map(|s| line(LineKind::Ask, s)),
    );
    for (i, h) in q.hints.iter().enumerate() {
        for s in render(h, p) {
            let mut l = Sentence::plain(format!("hint {}: ", i + 1));
            l.append(s);
            out.push(line(LineKind::Hint, l));
        }
    }
    if !q.hide.is_empty() {
        out.push(plain(
            LineKind::Hides,
            format!("hidden until answered: {}", q.hide),
        ));
    }
    match play.reveal(&mut |_| {}).map_err(|e| fail(at, e))? {
        Reveal::Question {
            answer,
            feedback,
            authored,
        } => {
            out.push(plain(LineKind::Answer, format!("answer: {answer}")));
            key = format!("{number}. {} (step {at}): {answer}", q.title);
            out.extend(feedback.into_iter().map(|s| line(LineKind::Why, s)));
            out.extend(authored.into_iter().map(|s| line(LineKind::Authored, s)));
        }
        Reveal::Task(_) => unreachable!("a question reveals a question"),
    }
    Ok(key)
}

/// A task's lines, from its heading to the goal after its revealed solution; its line of the
/// answer key, and whether the solution was applied (not when the goal already held).
fn task(
    out: &mut Vec<Line>,
    play: &mut Play,
    (at, number, already_met): (usize, usize, bool),
    mut heading: Sentence,
    t: &Task,
    step: &LessonStep,
    p: &Partition,
) -> Result<(String, bool), ScenarioError> {
    heading.text(format!(
        " · task {number} ({}): {}",
        narrate::count(t.points, "point", "points"),
        t.title
    ));
    out.push(line(LineKind::Heading, heading));
    narration(out, step, p);
    out.extend(
        render(&t.ask, p)
            .into_iter()
            .map(|s| line(LineKind::Ask, s)),
    );
    let before = t.goal.evaluate(p);
    let mut g = Sentence::plain("goal, before: ");
    g.append(Sentence::join(
        before.checks.iter().map(|c| c.sentence.clone()),
        "; ",
    ));
    out.push(line(LineKind::Goal, g));
    for (i, h) in t.hints.iter().enumerate() {
        for s in render(h, p) {
            let mut l = Sentence::plain(format!("hint {}: ", i + 1));
            l.append(s);
            out.push(line(LineKind::Hint, l));
        }
    }
    if !t.hide.is_empty() {
        out.push(plain(
            LineKind::Hides,
            format!("hidden until solved: {}", t.hide),
        ));
    }
    let steps: Vec<String> = t.solution.iter().map(|a| a.to_string()).collect();
    out.push(plain(
        LineKind::Solution,
        format!("solution: {}", steps.join("; ")),
    ));
    let key = format!("{number}. {} (step {at}): {}", t.title, steps.join("; "));
    if already_met {
        out.push(plain(LineKind::Goal, "the goal already holds"));
        return Ok((key, false));
    }
    match play.reveal(&mut |_| {}).map_err(|e| fail(at, e))? {
        Reveal::Task(r) => {
            out.extend(r.narration.into_iter().map(|s| line(LineKind::Why, s)));
            let mut g = Sentence::plain(if r.goal.met {
                "goal, after: met: "
            } else {
                "goal, after: NOT met: "
            });
            g.append(Sentence::join(
                r.goal.checks.iter().map(|c| c.sentence.clone()),
                "; ",
            ));
            out.push(line(LineKind::Goal, g));
            out.extend(r.authored.into_iter().map(|s| line(LineKind::Authored, s)));
        }
        Reveal::Question { .. } => unreachable!("a task reveals a task"),
    }
    Ok((key, true))
}

/// The lines after the timeline: the post-mortem, the answer key and the points in all.
fn footer(c: &Concrete, play: &Play, key: Vec<String>, out: &mut Vec<Line>) {
    let postmortem = c.meta.postmortem.as_ref();
    if let Some(pm) = postmortem {
        let end = play.partition();
        for (title, m) in [
            ("What happened", &pm.what_happened),
            ("Why", &pm.why),
            ("The fix", &pm.fix),
        ] {
            out.push(plain(LineKind::Section, title));
            out.extend(
                render(m, end)
                    .into_iter()
                    .map(|s| line(LineKind::Authored, s)),
            );
        }
    }
    if !key.is_empty() {
        out.push(plain(LineKind::Section, "Answer sheet"));
        out.extend(key.into_iter().map(|k| plain(LineKind::Answer, k)));
    }
    if c.meta.kind == LessonKind::Drill || c.items().next().is_some() {
        let (_, max) = play.scorecard().total();
        out.push(plain(
            LineKind::Fact,
            format!("{} in all", narrate::count(max, "point", "points")),
        ));
    }
}

/// What the model computed for a question or task, on the path where every task is solved by
/// its revealed solution.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyAnswer {
    /// A question's answer and the report it comes from.
    Question(Box<Solved>),
    /// A task's solution, what it did, and the goal afterwards.
    Task(TaskReveal),
}

/// One entry of the answer key.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyEntry {
    /// The file step.
    pub step: usize,
    /// Its index among [`Concrete::items`].
    pub item: usize,
    /// What the model computed.
    pub answer: KeyAnswer,
}

/// Every question's and task's computed answer, in order, for one variant: what a drill's
/// results screen or a trainer's view shows without replaying anything itself. An error names
/// the step and field of an item the model cannot answer (a lesson that passes `check` has
/// none).
pub fn answer_key(c: &Concrete) -> Result<Vec<KeyEntry>, ScenarioError> {
    let mut play = Play::open_at(c.clone(), 0)?;
    let mut out = Vec::new();
    let fail = |at: usize, field: &str, reason: String| ScenarioError {
        step: Some(at),
        field: field.to_string(),
        reason,
        line_column: None,
    };
    while let Some(reached) = play.advance(&mut |_| {}) {
        let at = play.next_step() - 1;
        match reached.map_err(|e| fail(at, "", e.to_string()))? {
            Reached::Question { item } => {
                let solved = match play.solved() {
                    Some(Ok(s)) => s.clone(),
                    Some(Err(r)) => return Err(fail(at, "question", r.clone())),
                    None => unreachable!("a reached question is solved"),
                };
                play.reveal(&mut |_| {})
                    .map_err(|e| fail(at, "question", e.to_string()))?;
                out.push(KeyEntry {
                    step: at,
                    item,
                    answer: KeyAnswer::Question(Box::new(solved)),
                });
            }
            Reached::Task {
                item,
                already_met: true,
            } => {
                return Err(fail(
                    at,
                    "task.goal",
                    format!("item {item} already holds before the learner acts"),
                ))
            }
            Reached::Task { item, .. } => match play.reveal(&mut |_| {}) {
                Ok(Reveal::Task(r)) => out.push(KeyEntry {
                    step: at,
                    item,
                    answer: KeyAnswer::Task(r),
                }),
                Ok(Reveal::Question { .. }) => unreachable!("a task reveals a task"),
                Err(e) => return Err(fail(at, "task.solution", e.to_string())),
            },
            Reached::Model(_) | Reached::Note => {}
        }
    }
    Ok(out)
}
