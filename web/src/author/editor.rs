//! The selected step's editor: narration with a live preview of the safe markup, the pause,
//! the highlights (picked by clicking the partition), and for a question what core computed
//! (the answer, the feedback a learner gets), its hints, explanation, points and what stays
//! hidden until it is answered. Every problem and every replay effect that bites at this step
//! is shown at its field, in core's words.

use std::rc::Rc;

use logtime_lesson::author::{AuthorCommand, StepView};
use logtime_lesson::{Markup, Target};
use yew::prelude::*;

use super::question::QuestionFields;
use super::state::{AuthorAction, Pointing};
use crate::components::{sentence, use_uid};
use crate::state::ReplayView;

/// The step editor's props.
#[derive(Properties, PartialEq, Clone)]
pub(super) struct StepEditorProps {
    /// The step.
    pub step: StepView,
    /// The draft's revision (the fields follow the draft when it changes).
    pub rev: u64,
    /// The step as the file has it (a question's hints, explanation, points and what it
    /// hides are shown as written).
    pub json: Rc<serde_json::Value>,
    /// What a click in the partition does.
    pub pointing: Pointing,
    /// The partition shown (narration links are resolved against it in the live preview).
    pub replay: ReplayView,
    /// Commands for core.
    pub on_command: Callback<AuthorCommand>,
    /// Pointing.
    pub on_author: Callback<AuthorAction>,
}

/// The live preview of `text`: core's markup parser, each link resolved on the partition shown.
fn preview(text: &str, replay: &ReplayView) -> Html {
    if text.trim().is_empty() {
        return html! { <p class="lt-muted lt-small">{ "(no narration)" }</p> };
    }
    let markup = match Markup::parse(text) {
        Ok(m) => m,
        Err(e) => {
            return html! { <p class="lt-field-error" data-testid="author-markup-error">{ e.to_string() }</p> }
        }
    };
    let Some(runner) = replay.runner() else {
        return html! { <p>{ markup.plain() }</p> };
    };
    let part = runner.partition();
    match markup.sentences(&|t: &Target| t.resolve(part)) {
        Ok(paras) => paras
            .iter()
            .map(|s| html! { <p class="lt-say">{ sentence(s) }</p> })
            .collect(),
        Err(e) => html! { <p class="lt-field-error" data-testid="author-markup-error">{ e }</p> },
    }
}

/// The problems and the replay's effects that bite at the step, each at its field.
fn problems_at(s: &StepView) -> Html {
    if s.problems.is_empty() && s.bites.is_empty() {
        return Html::default();
    }
    html! {
        <ul class="lt-author-problems" data-testid="author-problems">
            { for s.problems.iter().map(|p| html!{
                <li class="lt-author-problem" data-field={p.field.clone()}>
                    if !p.field.is_empty() { <code>{ p.field.clone() }</code>{ ": " } }
                    { p.message.clone() }
                </li>
            }) }
            { for s.bites.iter().map(|b| html!{ <li class="lt-author-bite" data-testid="author-bite">{ sentence(&b.sentence) }</li> }) }
        </ul>
    }
}

/// Core's sentences as the lesson pane shows feedback: each after the first starts one of its
/// own.
fn sentences(list: &[logtime_core::scenario::narrate::Sentence]) -> Html {
    list.iter()
        .enumerate()
        .map(|(i, s)| {
            let mut s = s.clone();
            if i > 0 {
                s.capitalize();
            }
            // An author's own words may already end their sentence.
            let stop = if s.to_string().trim_end().ends_with(['.', '!', '?']) {
                " "
            } else {
                ". "
            };
            html! { <span>{ sentence(&s) }{ stop }</span> }
        })
        .collect()
}

/// What core computed for the question at the step.
fn answer_at(s: &StepView) -> Html {
    let Some(a) = &s.answer else {
        return Html::default();
    };
    html! {
        <div class="lt-author-answer" data-testid="author-answer">
            if let Some(about) = &a.about {
                <p class="lt-small" data-testid="author-about"><strong>{ "About: " }</strong>{ sentence(about) }</p>
            }
            { match &a.answer {
                Ok(t) => html!{ <p><strong>{ "Answer (computed): " }</strong><span data-testid="author-answer-text">{ t.clone() }</span></p> },
                Err(e) => html!{ <p class="lt-field-error">{ e.clone() }</p> },
            } }
            if !a.right.is_empty() {
                <p class="lt-small"><strong>{ "A learner who answers right reads: " }</strong>{ sentences(&a.right) }</p>
            }
            if let Some((w, said)) = &a.wrong {
                <p class="lt-small" data-testid="author-wrong"><strong>{ format!("A learner who answers {w} reads: ") }</strong>{ sentences(said) }</p>
            }
        </div>
    }
}

/// The selected step's editor.
#[function_component(StepEditor)]
pub(super) fn step_editor(p: &StepEditorProps) -> Html {
    let s = &p.step;
    let i = s.index;
    let written = s.narration.clone().unwrap_or_default();
    let text = use_state(|| written.clone());
    {
        // The field follows the draft (undo, another step selected).
        let text = text.clone();
        use_effect_with((i, p.rev, written.clone()), move |(_, _, n)| {
            text.set(n.clone())
        });
    }
    let ids = [use_uid("lt-au-narr"), use_uid("lt-au-pause")];
    let on_input = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(t) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
                text.set(t.value());
            }
        })
    };
    let on_change = {
        let (on, old) = (p.on_command.clone(), written.clone());
        Callback::from(move |e: Event| {
            let Some(t) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() else {
                return;
            };
            let text = t.value();
            if text != old {
                on.emit(AuthorCommand::SetNarration { step: i, text });
            }
        })
    };
    let on_pause = {
        let (on, pause) = (p.on_command.clone(), s.pause);
        Callback::from(move |_: Event| {
            on.emit(AuthorCommand::SetPause {
                step: i,
                pause: !pause,
            })
        })
    };
    let picking = p.pointing == Pointing::Highlights;
    let on_pick = p.on_author.reform(move |_: MouseEvent| {
        AuthorAction::Point(if picking {
            Pointing::Off
        } else {
            Pointing::Highlights
        })
    });
    let highlights = s.highlights.iter().enumerate().map(|(k, t)| {
        let rest: Vec<Target> = targets(&s.highlights)
            .into_iter()
            .enumerate()
            .filter(|(j, _)| *j != k)
            .map(|(_, t)| t)
            .collect();
        let onclick = p.on_command.reform(move |_: MouseEvent| AuthorCommand::SetHighlights { step: i, targets: rest.clone() });
        html! {
            <li><code>{ t.clone() }</code>
                <button type="button" class="lt-btn lt-btn-small" {onclick} aria-label={format!("Remove highlight {t}")}>{ "✕" }</button></li>
        }
    });
    html! {
        <div class="lt-author-editor" data-testid="author-editor" aria-label={format!("Step {i}")} role="group">
            <h3>{ format!("Step {i}: {}", s.kind) }</h3>
            { problems_at(s) }
            <label for={ids[0].clone()}>{ "Narration (**bold**, `code`, [text](segment:0) links)" }</label>
            <textarea id={ids[0].clone()} rows="3" value={(*text).clone()} oninput={on_input} onchange={on_change} data-testid="author-narration" />
            <div class="lt-author-preview lt-narration" aria-label="Preview" role="group" data-testid="author-preview-text">
                // As written: core's rendering at the step; while typing, core's markup on the
                // partition shown.
                if *text == written && !s.preview.is_empty() {
                    { for s.preview.iter().map(|x| html! { <p class="lt-say">{ sentence(x) }</p> }) }
                } else {
                    { preview(&text, &p.replay) }
                }
            </div>
            <div class="lt-author-row">
                <input type="checkbox" id={ids[1].clone()} checked={s.pause} onchange={on_pause} data-testid="author-pause" />
                <label for={ids[1].clone()}>{ "Pause after this step" }</label>
            </div>
            <div class="lt-author-row">
                <span>{ "Highlights:" }</span>
                <ul class="lt-author-highlights" data-testid="author-highlights" aria-live="polite">{ for highlights }</ul>
                <button type="button" class={classes!("lt-btn", "lt-btn-small", picking.then_some("lt-btn-primary"))} onclick={on_pick}
                        aria-pressed={if picking { "true" } else { "false" }} data-testid="author-pick">
                    { if picking { "Done picking" } else { "Pick highlights" } }
                </button>
            </div>
            <p class="lt-small lt-author-pointing" role="status" data-testid="author-picking" hidden={!picking}>
                { if picking { format!("Picking highlights for step {i}: click (or Enter on) a segment, a record (Shift for a range), a config row's ☆ or a panel's heading. Esc ends picking.") } else { String::new() } }
            </p>
            if s.kind == "question" || s.kind == "task" {
                <QuestionFields step={i} json={p.json.clone()} hide={s.answer.as_ref().map(|a| a.hide)} answer={answer_at(s)}
                                classes={s.answer.as_ref().map(|a| a.classes.clone()).unwrap_or_default()} on_command={p.on_command.clone()} />
            }
        </div>
    }
}

/// The highlights as targets (as written they always parse: core wrote them).
fn targets(written: &[String]) -> Vec<Target> {
    written
        .iter()
        .filter_map(|t| Target::parse(t).ok())
        .collect()
}
