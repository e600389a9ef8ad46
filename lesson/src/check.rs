//! `logtime check` for lessons: the lesson is played on the path where every task is solved by
//! its revealed solution, and every way it can be wrong is reported with the step and the field:
//! a target that does not exist at its step, a question the model cannot answer, a stated answer
//! that disagrees with the model, a goal that already holds or that the solution does not reach,
//! a solution the broker refuses. (Markup, unknown keys and malformed values are parse errors.)

use super::markup::Markup;
use super::play::{Play, PlayError, Reached};
use super::question::{Answer, Question};
use super::task::Task;
use super::variant::Pick;
use super::{Concrete, Item, Lesson, LessonKind, Postmortem};
use logtime_core::scenario::bites::{bites, Bite};
use logtime_core::scenario::ScenarioError;
use logtime_model::partition::Partition;
use std::ops::ControlFlow;

/// What a successful check covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckSummary {
    /// Steps in the file.
    pub steps: usize,
    /// Questions checked.
    pub questions: usize,
    /// Tasks checked.
    pub tasks: usize,
    /// Questions whose stated answer (`expect`) was verified.
    pub expects: usize,
    /// Variants checked.
    pub variants_checked: u64,
    /// Variants declared.
    pub variants: u64,
    /// The replay's effects that bite, in step order (of the default variant, or of the variant
    /// checked alone): warnings, not failures.
    pub bites: Vec<Bite>,
}

fn e(step: usize, field: impl Into<String>, reason: impl Into<String>) -> ScenarioError {
    ScenarioError {
        step: Some(step),
        field: field.into(),
        reason: reason.into(),
        line_column: None,
    }
}

/// Every target of `m` must exist on `p`.
fn targets(m: &Markup, p: &Partition, step: usize, field: &str, out: &mut Vec<ScenarioError>) {
    for t in m.targets() {
        if let Err(r) = t.resolve(p) {
            out.push(e(step, field, format!("{t}: {r}")));
        }
    }
}

fn indexed(ms: &[Markup], p: &Partition, step: usize, field: &str, out: &mut Vec<ScenarioError>) {
    for (i, m) in ms.iter().enumerate() {
        targets(m, p, step, &format!("{field}[{i}]"), out);
    }
}

/// Checks one variant; every error found, in step order.
pub fn check(c: &Concrete) -> Result<CheckSummary, Vec<ScenarioError>> {
    let mut errors = Vec::new();
    let mut summary = CheckSummary {
        steps: c.steps.len(),
        variants_checked: 1,
        variants: 1,
        ..CheckSummary::default()
    };
    if c.meta.kind == LessonKind::Drill && c.items().next().is_none() {
        errors.push(ScenarioError {
            step: None,
            field: "lesson.kind".into(),
            reason: "a drill needs at least one question or task".into(),
            line_column: None,
        });
    }
    let mut play = match Play::open_at(c.clone(), 0) {
        Ok(p) => p,
        Err(err) => return Err(vec![err]),
    };
    while let Some(reached) = play.advance(&mut |_| {}) {
        let at = play.next_step() - 1;
        let step = &c.steps[at];
        let reached = match reached {
            Ok(r) => r,
            Err(PlayError::Scenario(err)) => {
                errors.push(err);
                return Err(errors);
            }
            Err(other) => {
                errors.push(e(at, "", other.to_string()));
                return Err(errors);
            }
        };
        if let Reached::Model(r) = &reached {
            summary
                .bites
                .extend(bites(at, r, play.partition().config()));
        }
        // Borrowed, not cloned: a clone per step made checking a long lesson quadratic.
        let p = play.partition();
        let field = if matches!(step.item, Item::Note) {
            "note"
        } else {
            "narration"
        };
        if let Some(m) = &step.narration {
            targets(m, p, at, field, &mut errors);
        }
        for (k, t) in step.show.iter().enumerate() {
            if let Err(r) = t.resolve(p) {
                errors.push(e(at, format!("show[{k}]"), format!("{t}: {r}")));
            }
        }
        let flow = match (reached, &step.item) {
            (Reached::Question { .. }, Item::Question(q)) => {
                question(&mut play, q, at, &mut summary, &mut errors)
            }
            (Reached::Task { already_met, .. }, Item::Task(t)) => {
                task(&mut play, t, (at, already_met), &mut summary, &mut errors)
            }
            _ => ControlFlow::Continue(()),
        };
        if flow.is_break() {
            return Err(errors);
        }
    }
    if let Some(pm) = &c.meta.postmortem {
        postmortem(pm, play.partition(), &mut errors);
    }
    if errors.is_empty() {
        Ok(summary)
    } else {
        Err(errors)
    }
}

/// Checks a reached question: its targets, that it can be answered, that a stated answer is
/// the model's, and that revealing it works. Breaks when the play cannot go on.
fn question(
    play: &mut Play,
    q: &Question,
    at: usize,
    summary: &mut CheckSummary,
    errors: &mut Vec<ScenarioError>,
) -> ControlFlow<()> {
    let p = play.partition();
    summary.questions += 1;
    targets(&q.ask, p, at, "question.ask", errors);
    indexed(&q.hints, p, at, "question.hints", errors);
    let kind = match q.kind {
        super::Ask::StrikeSegments | super::Ask::StrikeRecords => "question.strike",
        super::Ask::Lookup(..) => "question.lookup",
        super::Ask::Pinning => "question.pinning",
        super::Ask::Choose { .. } => "question.choose",
        super::Ask::Error(_) => "question.error",
        super::Ask::Late(_) => "question.late",
        super::Ask::Closes(..) => "question.closes",
    };
    match play.solved().cloned() {
        Some(Ok(solved)) => {
            if let Some(want) = &q.expect {
                summary.expects += 1;
                let right = match (want, &solved.answer) {
                    (Answer::Value(_), _) => q.grade(&solved, want, p).correct,
                    (w, a) => w == a,
                };
                if !right {
                    let why = q.grade(&solved, &example(&solved.answer), p).feedback;
                    let why: Vec<String> = why.iter().map(|s| s.to_string()).collect();
                    errors.push(e(
                        at,
                        "question.expect",
                        format!(
                            "the model's answer is {}, not {want}: {}",
                            solved.answer,
                            why.join("; ")
                        ),
                    ));
                }
            }
            match play.reveal(&mut |_| {}) {
                Ok(_) => {}
                Err(err) => errors.push(e(at, kind, err.to_string())),
            }
        }
        Some(Err(reason)) => {
            errors.push(e(at, kind, format!("cannot be answered here: {reason}")));
            return ControlFlow::Break(());
        }
        None => unreachable!("a reached question is solved"),
    }
    if let Some(r) = &q.reveal {
        targets(r, play.partition(), at, "question.reveal", errors);
    }
    ControlFlow::Continue(())
}

/// Checks a reached task: its targets, that its goal does not hold already, and that its
/// revealed solution reaches it. Breaks when the play cannot go on.
fn task(
    play: &mut Play,
    t: &Task,
    (at, already_met): (usize, bool),
    summary: &mut CheckSummary,
    errors: &mut Vec<ScenarioError>,
) -> ControlFlow<()> {
    let p = play.partition();
    summary.tasks += 1;
    targets(&t.ask, p, at, "task.ask", errors);
    indexed(&t.hints, p, at, "task.hints", errors);
    if already_met {
        let s = t.goal.evaluate(p);
        let what: Vec<String> = s.checks.iter().map(|c| c.sentence.to_string()).collect();
        errors.push(e(
            at,
            "task.goal",
            format!("already holds before the learner acts: {}", what.join("; ")),
        ));
        return ControlFlow::Continue(());
    }
    match play.reveal(&mut |_| {}) {
        Ok(super::Reveal::Task(r)) => {
            let config = play.partition().config();
            for report in &r.reports {
                summary.bites.extend(bites(at, report, config));
            }
            if !r.goal.met {
                let missing: Vec<String> = r
                    .goal
                    .checks
                    .iter()
                    .filter(|c| !c.met)
                    .map(|c| c.sentence.to_string())
                    .collect();
                errors.push(e(
                    at,
                    "task.goal",
                    format!(
                        "the revealed solution does not reach it: {}",
                        missing.join("; ")
                    ),
                ));
            }
        }
        Ok(_) => unreachable!("a task reveals a task"),
        Err(PlayError::Solution {
            index,
            kind,
            reason,
        }) => {
            errors.push(e(at, format!("task.solution[{index}].{kind}"), reason));
            return ControlFlow::Break(());
        }
        Err(other) => {
            errors.push(e(at, "task", other.to_string()));
            return ControlFlow::Break(());
        }
    }
    if let Some(r) = &t.reveal {
        targets(r, play.partition(), at, "task.reveal", errors);
    }
    ControlFlow::Continue(())
}

/// A post-mortem's targets, resolved on the partition as the lesson ends.
fn postmortem(pm: &Postmortem, end: &Partition, errors: &mut Vec<ScenarioError>) {
    // A post-mortem is read after the lesson: its targets resolve on the partition as it ends.
    for (k, m) in super::POSTMORTEM_KEYS
        .iter()
        .zip([&pm.what_happened, &pm.why, &pm.fix])
    {
        for t in m.targets() {
            if let Err(r) = t.resolve(end) {
                errors.push(ScenarioError {
                        step: None,
                        field: format!("lesson.postmortem.{k}"),
                        reason: format!("{t}: {r} (post-mortem targets resolve on the partition as the lesson ends)"),
                        line_column: None,
                    });
            }
        }
    }
}

/// An answer a learner could give that is right (the least value of a range).
fn example(a: &Answer) -> Answer {
    match a {
        Answer::Values { min, .. } => Answer::Value(*min),
        other => other.clone(),
    }
}

/// The most text the variants [`check_all`] checks may add in all (256 MiB): past it the
/// remaining variants are left unchecked and the summary's `variants_checked` says so.
pub const MAX_CHECKED_SUBSTITUTED_BYTES: u64 = 256 << 20;

/// Checks the default variant and every declared variant (or, when there are more than
/// `max_variants`, that many spread evenly over them; or fewer, when their values add more than
/// [`MAX_CHECKED_SUBSTITUTED_BYTES`] of text in all). The error names the variant (empty
/// without variables).
pub fn check_all(
    l: &Lesson,
    max_variants: u64,
) -> Result<CheckSummary, (String, Vec<ScenarioError>)> {
    // Without variables there is one variant, and nothing to name.
    let name = |c: &Concrete, what: &str| {
        if c.variant.label().is_empty() {
            String::new()
        } else {
            format!("{what} ({})", c.variant.label())
        }
    };
    let d = l.default_variant();
    let mut summary = check(d).map_err(|e| (name(d, "default variant"), e))?;
    let total = l.variant_count();
    if l.variants().variables().is_empty() {
        return Ok(summary);
    }
    let n = total.min(max_variants.max(1));
    let mut checked = 0;
    let mut added = 0u64;
    for k in 0..n {
        let index = ((k as u128 * total as u128) / n as u128) as u64;
        let c = l
            .instantiate(Pick::Index(index))
            .map_err(|e| (format!("variant {index}"), vec![e]))?;
        check(&c).map_err(|e| (name(&c, &format!("variant {index}")), e))?;
        checked += 1;
        // Each variant may add 16 MiB of text; a thousand of them took minutes. Past this
        // the summary says how many were checked.
        added = added.saturating_add(c.variant.added_bytes());
        if added > MAX_CHECKED_SUBSTITUTED_BYTES {
            break;
        }
    }
    summary.variants_checked = checked;
    summary.variants = total;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    /// The trainer's first draft from issue 38: a one-day topic, a replay of three-day-old events
    /// that takes ten minutes, then "which segments does the next retention check delete?".
    /// Scheduled checks deleted the replayed segments during the replay: the check names the file
    /// step (the note before it counts) and the segments.
    #[test]
    fn the_trainers_drill_names_the_mid_replay_deletion_at_its_file_step() {
        let l = parse(
            r#"{"title": "replay", "kafka": "4.0", "lesson": {"kind": "drill"},
                "topic": {"retention.ms": "1d", "segment.bytes": "1MiB"},
                "start": "2027-03-12T09:00:00Z",
                "steps": [
                  {"note": "A replay job starts."},
                  {"produce": {"records": [{"timestamp": "now-3d", "value_bytes": 600000}]}},
                  {"produce": {"batches": 4, "every": "4min", "timestamp_step": "1min",
                               "records": [{"timestamp": "now-3d", "value_bytes": 600000}]}},
                  {"produce": {"records": [{"timestamp": "now", "value_bytes": 600000}]}},
                  {"question": {"ask": "Which segments does the next retention check delete?",
                                "strike": "segments"}}]}"#,
        )
        .unwrap();
        let s = check_all(&l, 10).unwrap();
        assert_eq!(s.bites.len(), 1, "{:?}", s.bites);
        assert_eq!(s.bites[0].step, 2);
        let text = s.bites[0].sentence().to_string();
        assert!(
            text.contains("deleted 4 segments before the step ended: 0, 1, 2, 3 (offsets 0 to 3)"),
            "{text}"
        );
    }

    /// A stated answer written for the partition as the author imagined it still fails; the bite
    /// is what explains it, but the failure is the check's.
    #[test]
    fn a_stated_answer_that_ignores_the_deletion_still_fails() {
        let l = parse(
            r#"{"title": "replay", "kafka": "4.0", "lesson": {"kind": "drill"},
                "topic": {"retention.ms": "1d", "segment.bytes": "1MiB"},
                "start": "2027-03-12T09:00:00Z",
                "steps": [
                  {"produce": {"batches": 4, "every": "4min",
                               "records": [{"timestamp": "now-3d", "value_bytes": 600000}]}},
                  {"produce": {"records": [{"timestamp": "now", "value_bytes": 600000}]}},
                  {"question": {"ask": "Which segments does the next retention check delete?",
                                "strike": "segments", "expect": [0, 1, 2]}}]}"#,
        )
        .unwrap();
        let (_, errors) = check_all(&l, 10).unwrap_err();
        assert_eq!(errors[0].step, Some(2));
        assert_eq!(errors[0].field, "question.expect");
    }
}
