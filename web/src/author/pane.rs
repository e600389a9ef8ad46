//! The author pane: the draft's steps in core's words (a marker on a step with problems or a
//! replay effect that bites), the selected step's editor, and the draft's tools (undo, redo,
//! save, share, the learner's-eye preview).

use logtime_lesson::author::{AuthorCommand, MetaEdit, StepView};
use logtime_lesson::LessonKind;
use yew::prelude::*;

use super::editor::StepEditor;
use super::state::{AuthorAction, Draft, Pointing};
use super::tools::{add_bar, step_bar};
use super::variants::VariantsPreview;
use super::vary::VaryList;
use crate::state::ReplayView;

/// What the pane's tool buttons ask of the page (they leave the draft as it is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Download the file.
    Save,
    /// Make a link to the lesson.
    Share,
    /// Open the draft as a learner sees it.
    Preview,
    /// Leave author mode.
    Leave,
}

/// The author pane's props.
#[derive(Properties, PartialEq, Clone)]
pub struct AuthorPaneProps {
    /// The draft.
    pub draft: Draft,
    /// The step selected (1-based).
    pub selected: Option<usize>,
    /// What a click in the partition does.
    pub pointing: Pointing,
    /// The last thing core (or the page) said, and whether it is an error.
    pub said: Option<(AttrValue, bool)>,
    /// A link made by Share, or why none could be.
    pub link: Option<(AttrValue, bool)>,
    /// The partition as the explorer shows it (narration links are resolved against it).
    pub replay: ReplayView,
    /// Commands for core.
    pub on_command: Callback<AuthorCommand>,
    /// Selection and pointing.
    pub on_author: Callback<AuthorAction>,
    /// Save, share, preview, leave.
    pub on_tool: Callback<Tool>,
    /// Batches taken from the Produce panel for a question about a batch.
    #[prop_or_default]
    pub taken: std::rc::Rc<Vec<logtime_lesson::author::BatchSpec>>,
}

fn step_row(s: &StepView, selected: bool, on_author: &Callback<AuthorAction>) -> Html {
    let i = s.index;
    let onclick = on_author.reform(move |_: MouseEvent| AuthorAction::Show(Some(i)));
    let problems = s.problems.len() + s.bites.len();
    let marker = (problems > 0).then(|| {
        html! { <span class="lt-author-marker" title={format!("{problems} to look at")} aria-label={format!("{problems} to look at")}>{ "⚠" }</span> }
    });
    html! {
        <li class={classes!("lt-author-step", selected.then_some("selected"), (problems > 0).then_some("lt-author-bad"))}
            data-testid={format!("author-step-{i}")} data-kind={s.kind.clone()}>
            <button type="button" class="lt-author-step-btn" {onclick} aria-pressed={if selected { "true" } else { "false" }}>
                <span class="lt-author-num">{ format!("{i}.") }</span>
                <span class="lt-author-kind">{ s.kind.clone() }</span>
                <span class="lt-author-summary">{ s.summary.clone() }</span>
                if s.pause { <span class="lt-author-pause" aria-label="pauses">{ "⏸" }</span> }
                { marker.unwrap_or_default() }
            </button>
        </li>
    }
}

/// The pane: tools, steps, the selected step's editor.
#[function_component(AuthorPane)]
pub fn author_pane(p: &AuthorPaneProps) -> Html {
    let d = &p.draft;
    let tool = |t: Tool| p.on_tool.reform(move |_: MouseEvent| t);
    let (can_undo, can_redo) = d.undo;
    let undo = p.on_command.reform(|_: MouseEvent| AuthorCommand::Undo);
    let redo = p.on_command.reform(|_: MouseEvent| AuthorCommand::Redo);
    let selected = p.selected.and_then(|i| d.steps.get(i.wrapping_sub(1)));
    let problems = d.checked.problems.len();
    let summary = if problems == 0 {
        format!("{} steps · the check passes", d.steps.len())
    } else {
        format!(
            "{} steps · {problems} problem{} found",
            d.steps.len(),
            if problems == 1 { "" } else { "s" }
        )
    };
    html! {
        <section role="group" class="lt-panel lt-author" aria-label="Author: the lesson's steps" data-testid="author" tabindex="-1">
            <div class="lt-author-head">
                <h2>{ "Author" }</h2>
                <span class={classes!("lt-small", (problems > 0).then_some("lt-author-bad"))} data-testid="author-summary">{ summary }</span>
            </div>
            <div class="lt-author-tools" role="toolbar" aria-label="Draft">
                <button type="button" class="lt-btn lt-btn-small" onclick={undo} disabled={!can_undo} data-testid="author-undo" title="Ctrl+Z">{ "Undo" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={redo} disabled={!can_redo} data-testid="author-redo" title="Ctrl+Shift+Z">{ "Redo" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={tool(Tool::Save)} data-testid="author-save">{ "Save" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={tool(Tool::Share)} data-testid="author-share">{ "Share link" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={tool(Tool::Preview)} data-testid="author-preview">{ "Preview as a learner" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={tool(Tool::Leave)} data-testid="author-leave">{ "Leave author mode" }</button>
            </div>
            if let Some((l, ok)) = &p.link {
                if *ok {
                    <p class="lt-small"><label>{ "Link: " }<input class="lt-author-link" readonly=true value={l.clone()} data-testid="author-link" /></label></p>
                } else {
                    <p class="lt-field-error" role="alert" data-testid="author-link-refused">{ l.clone() }</p>
                }
            }
            <p class={classes!("lt-small", "lt-author-said", p.said.as_ref().is_some_and(|s| s.1).then_some("lt-field-error"))}
               role="status" data-testid="author-said">
                { p.said.as_ref().map(|s| s.0.clone()).unwrap_or_default() }
            </p>
            <MetaFields title={d.title()} drill={d.is_drill()} rev={d.rev} on_command={p.on_command.clone()} />
            <ol class="lt-author-steps" aria-label="Steps" data-testid="author-steps">
                { for d.steps.iter().map(|s| step_row(s, Some(s.index) == p.selected, &p.on_author)) }
            </ol>
            if d.steps.is_empty() {
                <p class="lt-small lt-muted">{ "No steps yet: send a batch, change a config, move the clock or run retention in the explorer, and it is recorded here." }</p>
            }
            { super::place::recording_line(d, &p.on_author) }
            { step_bar(p.selected, d.steps.len(), &p.on_command) }
            { add_bar(p.selected, d, &p.taken, p.pointing, &p.on_command, &p.on_author) }
            if let Some(s) = selected {
                <StepEditor step={s.clone()} rev={d.rev} json={d.step_json(s.index)} pointing={p.pointing} replay={p.replay.clone()}
                            on_command={p.on_command.clone()} on_author={p.on_author.clone()} />
            }
            { general_problems(d) }
            <VaryList draft={d.clone()} selected={p.selected} on_command={p.on_command.clone()} />
            if d.has_variants() {
                <VariantsPreview draft={d.clone()} />
            }
        </section>
    }
}

#[derive(Properties, PartialEq, Clone)]
struct MetaFieldsProps {
    title: String,
    drill: bool,
    rev: u64,
    on_command: Callback<AuthorCommand>,
}

/// The lesson's title and kind (a walkthrough is narrated, a drill scored question by question).
#[function_component(MetaFields)]
fn meta_fields(p: &MetaFieldsProps) -> Html {
    let ids = [
        crate::components::use_uid("lt-au-title"),
        crate::components::use_uid("lt-au-kind"),
    ];
    let on_title = p.on_command.reform(|e: Event| {
        let t = crate::components::input_value(&e);
        AuthorCommand::SetMeta(MetaEdit::Title((!t.trim().is_empty()).then_some(t)))
    });
    let on_kind = p.on_command.reform(|e: Event| {
        let kind = match crate::components::input_value(&e).as_str() {
            "drill" => LessonKind::Drill,
            _ => LessonKind::Walkthrough,
        };
        AuthorCommand::SetMeta(MetaEdit::Kind(kind))
    });
    html! {
        <div class="lt-author-row lt-author-meta">
            <label for={ids[0].clone()}>{ "Title" }</label>
            <input id={ids[0].clone()} value={p.title.clone()} onchange={on_title} data-testid="author-title" />
            <label for={ids[1].clone()}>{ "Kind" }</label>
            <select id={ids[1].clone()} onchange={on_kind} data-testid="author-lesson-kind">
                <option value="walkthrough" selected={!p.drill}>{ "walkthrough" }</option>
                <option value="drill" selected={p.drill}>{ "drill" }</option>
            </select>
        </div>
    }
}

/// Problems that belong to no step (the file's top level).
fn general_problems(d: &Draft) -> Html {
    let list: Vec<_> = d
        .checked
        .problems
        .iter()
        .filter(|p| p.step.is_none())
        .collect();
    if list.is_empty() {
        return Html::default();
    }
    html! {
        <ul class="lt-author-problems" data-testid="author-file-problems">
            { for list.iter().map(|p| html!{ <li><code>{ p.field.clone() }</code>{ ": " }{ p.message.clone() }</li> }) }
        </ul>
    }
}
