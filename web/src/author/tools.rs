//! The pane's step tools (move, duplicate, group, delete) and what can be added after the
//! selected step: a note, a question made by pointing at the partition, a task with a goal.

use std::rc::Rc;

use logtime_lesson::author::{AskKind, AuthorCommand, BatchSpec, BoundSpec, GoalSpec};
use yew::prelude::*;

use super::batch::BatchQuestion;
use super::state::{AuthorAction, Draft, Pointing};
use crate::components::{input_value, use_uid};

/// The question kinds the pane offers: the file's key, what the learner does, and whether the
/// author points at a record to make it (its offset, or its timestamp as the instant asked
/// about).
pub(super) const KINDS: &[(&str, &str, bool)] = &[
    (
        "strike-segments",
        "strike the segments the next retention check deletes",
        false,
    ),
    (
        "strike-records",
        "strike the records the next retention check deletes",
        false,
    ),
    ("pinning", "pick the segment that pins retention", false),
    (
        "lookup",
        "click the offset a lookup for a record's timestamp returns",
        true,
    ),
    (
        "error-delete",
        "pick the error DeleteRecords to a record's offset gets",
        true,
    ),
    (
        "error-produce",
        "pick the error the broker answers to a batch",
        false,
    ),
    (
        "choose",
        "set a config value that accepts one batch and rejects another",
        false,
    ),
    (
        "late",
        "strike the records the stream processor drops as late",
        false,
    ),
    (
        "closes",
        "click the record whose read closes a record's window",
        true,
    ),
];

/// The kind `i` of [`KINDS`], made with what the author pointed at: `(offset, timestamp)` of a
/// record clicked. A question about a batch is made from the batch instead (`None`).
pub(super) fn ask_of(i: usize, pointed: Option<(i64, i64)>) -> Option<AskKind> {
    let (key, _, needs) = KINDS.get(i)?;
    if *needs && pointed.is_none() {
        return None;
    }
    let (offset, ts) = pointed.unwrap_or_default();
    Some(match *key {
        "strike-segments" => AskKind::StrikeSegments,
        "strike-records" => AskKind::StrikeRecords,
        "pinning" => AskKind::Pinning,
        "lookup" => AskKind::Lookup(Some(ts.to_string())),
        "error-delete" => AskKind::ErrorDeleteRecords(Some(offset)),
        "late" => AskKind::Late,
        "error-produce" | "choose" => return None,
        _ => AskKind::Closes(Some(ts.to_string())),
    })
}

/// Goals the pane offers (core's goal kinds that take at most one number).
const GOALS: &[(&str, &str)] = &[
    ("no_pinned_segment", "no segment pins retention"),
    ("no_future_segment", "no segment is stamped in the future"),
    ("log_start_offset", "the log start offset is at least N"),
    ("segments", "at most N segments"),
    ("records_gone", "records 0 to N are gone"),
];

fn goal_of(key: &str, n: i64) -> Option<GoalSpec> {
    let at_least = BoundSpec::Within {
        at_least: Some(n),
        at_most: None,
    };
    Some(match key {
        "no_pinned_segment" => GoalSpec::NoPinnedSegment,
        "no_future_segment" => GoalSpec::NoFutureSegment,
        "log_start_offset" => GoalSpec::LogStartOffset(at_least),
        "segments" => GoalSpec::Segments(BoundSpec::Within {
            at_least: None,
            at_most: Some(n),
        }),
        "records_gone" => GoalSpec::RecordsGone(0, n),
        _ => return None,
    })
}

/// Move up, move down, duplicate, group with the next, delete: on the selected step.
pub(super) fn step_bar(
    selected: Option<usize>,
    steps: usize,
    on: &Callback<AuthorCommand>,
) -> Html {
    let Some(i) = selected.filter(|i| *i >= 1 && *i <= steps) else {
        return Html::default();
    };
    let cmd = |c: AuthorCommand| on.reform(move |_: MouseEvent| c.clone());
    html! {
        <div class="lt-author-tools" role="toolbar" aria-label={format!("Step {i}")} data-testid="author-step-tools">
            <button type="button" class="lt-btn lt-btn-small" disabled={i == 1} onclick={cmd(AuthorCommand::Move { from: i, to: i - 1 })} data-testid="author-up">{ "Move up" }</button>
            <button type="button" class="lt-btn lt-btn-small" disabled={i == steps} onclick={cmd(AuthorCommand::Move { from: i, to: i + 1 })} data-testid="author-down">{ "Move down" }</button>
            <button type="button" class="lt-btn lt-btn-small" onclick={cmd(AuthorCommand::Duplicate { step: i })} data-testid="author-duplicate">{ "Duplicate" }</button>
            <button type="button" class="lt-btn lt-btn-small" disabled={i == steps} onclick={cmd(AuthorCommand::Group { first: i, last: i + 1 })} data-testid="author-group">{ "Group with next" }</button>
            <button type="button" class="lt-btn lt-btn-small" onclick={cmd(AuthorCommand::Delete { step: i })} data-testid="author-delete">{ "Delete" }</button>
        </div>
    }
}

/// Where a new step goes: after the selected one, else where recordings go (the explorer's
/// moment), else last.
pub(super) fn at(selected: Option<usize>, recording_at: Option<usize>, steps: usize) -> usize {
    selected
        .or(recording_at)
        .filter(|i| *i <= steps)
        .map_or(steps + 1, |i| i + 1)
}

/// Whether kind `i` of [`KINDS`] asks about a batch (made from a batch, not by pointing).
fn about_a_batch(i: usize) -> Option<bool> {
    match KINDS.get(i)?.0 {
        "choose" => Some(true),
        "error-produce" => Some(false),
        _ => None,
    }
}

/// Add a note, a question (pointing at the partition when its kind needs it, or from a batch)
/// or a task.
pub(super) fn add_bar(
    selected: Option<usize>,
    draft: &Draft,
    taken: &Rc<Vec<BatchSpec>>,
    pointing: Pointing,
    on: &Callback<AuthorCommand>,
    on_author: &Callback<AuthorAction>,
) -> Html {
    let at = at(selected, draft.recording_at, draft.steps.len());
    html! { <AddBar {at} {selected} {pointing} draft={draft.clone()} taken={taken.clone()} on_command={on.clone()} on_author={on_author.clone()} /> }
}

#[derive(Properties, PartialEq, Clone)]
struct AddBarProps {
    at: usize,
    /// The step selected: the fix a task is made of.
    selected: Option<usize>,
    pointing: Pointing,
    /// The draft (its produce steps are batches a question can be about).
    draft: Draft,
    /// Batches taken from the Produce panel.
    taken: Rc<Vec<BatchSpec>>,
    on_command: Callback<AuthorCommand>,
    on_author: Callback<AuthorAction>,
}

#[function_component(AddBar)]
fn add_bar_c(p: &AddBarProps) -> Html {
    let kind = use_state(|| 0usize);
    let goal = use_state(|| GOALS[0].0.to_string());
    let n = use_state(|| "0".to_string());
    let ids = [
        use_uid("lt-au-kind"),
        use_uid("lt-au-goal"),
        use_uid("lt-au-n"),
    ];
    let at = p.at;
    let on_note = p
        .on_command
        .reform(move |_: MouseEvent| AuthorCommand::AddNote {
            at,
            text: String::new(),
        });
    let on_kind = {
        let kind = kind.clone();
        Callback::from(move |e: Event| kind.set(input_value(&e).parse().unwrap_or(0)))
    };
    let on_question = {
        let (kind, on, on_author) = (*kind, p.on_command.clone(), p.on_author.clone());
        Callback::from(move |_: MouseEvent| match ask_of(kind, None) {
            Some(ask) => on.emit(AuthorCommand::AddQuestion {
                at,
                ask,
                pointing: None,
                text: String::new(),
            }),
            None => on_author.emit(AuthorAction::Point(Pointing::Question(kind))),
        })
    };
    let on_goal = {
        let goal = goal.clone();
        Callback::from(move |e: Event| goal.set(input_value(&e)))
    };
    let on_n = {
        let n = n.clone();
        Callback::from(move |e: Event| n.set(input_value(&e)))
    };
    let selected = p.selected;
    let on_task = {
        let (goal, n, on, on_author) = (
            (*goal).clone(),
            (*n).clone(),
            p.on_command.clone(),
            p.on_author.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            match n.trim().parse::<i64>().ok().and_then(|v| goal_of(&goal, v)) {
                // The selected step (the fix, recorded) becomes the task's solution; without one
                // the task has none yet, and the check says so.
                Some(g) => on.emit(match selected {
                    Some(s) => AuthorCommand::MakeTask {
                        first: s,
                        last: s,
                        goal: vec![g],
                        text: String::new(),
                    },
                    None => AuthorCommand::AddTask {
                        at,
                        goal: vec![g],
                        solution: Vec::new(),
                        text: String::new(),
                    },
                }),
                None => {
                    on_author.emit(AuthorAction::Say("N: expected a whole number".into(), true))
                }
            }
        })
    };
    let cancel = p
        .on_author
        .reform(|_: MouseEvent| AuthorAction::Point(Pointing::Off));
    let asking = matches!(p.pointing, Pointing::Question(_));
    html! {
        <div class="lt-author-add" data-testid="author-add">
            <button type="button" class="lt-btn lt-btn-small" onclick={on_note} data-testid="author-add-note">{ format!("Add a note as step {at}") }</button>
            <div class="lt-author-row">
                <label for={ids[0].clone()}>{ "Question" }</label>
                <select id={ids[0].clone()} onchange={on_kind} data-testid="author-kind">
                    { for KINDS.iter().enumerate().map(|(i, (_, words, _))| html!{
                        <option value={i.to_string()} selected={i == *kind}>{ *words }</option>
                    }) }
                </select>
                if about_a_batch(*kind).is_none() {
                    <button type="button" class="lt-btn lt-btn-small" onclick={on_question} disabled={asking} data-testid="author-add-question">{ "Add question" }</button>
                }
            </div>
            if let Some(choose) = about_a_batch(*kind) {
                <BatchQuestion {at} {choose} draft={p.draft.clone()} taken={p.taken.clone()} on_command={p.on_command.clone()} on_author={p.on_author.clone()} />
            }
            if asking {
                <p class="lt-author-pointing" role="status" data-testid="author-pointing">
                    { "Click a record in the partition (or Tab to it and press Enter) to point the question. " }
                    <button type="button" class="lt-btn lt-btn-small" onclick={cancel}>{ "Cancel" }</button>
                </p>
            }
            <div class="lt-author-row">
                <label for={ids[1].clone()}>{ "Task goal" }</label>
                <select id={ids[1].clone()} onchange={on_goal} data-testid="author-goal">
                    { for GOALS.iter().map(|(k, words)| html!{ <option value={*k} selected={*k == goal.as_str()}>{ *words }</option> }) }
                </select>
                <label for={ids[2].clone()}>{ "N" }</label>
                <input id={ids[2].clone()} class="lt-author-n" inputmode="numeric" value={(*n).clone()} onchange={on_n} />
                <button type="button" class="lt-btn lt-btn-small" onclick={on_task} data-testid="author-add-task">
                    { match selected { Some(s) => format!("Make step {s} a task"), None => "Add task".into() } }
                </button>
            </div>
        </div>
    }
}
