//! A question's or task's words and settings in the step editor: what is asked, its hints
//! (added, rewritten, removed), the author's own words for each class of wrong answer core
//! names for the kind, the explanation, points, and what stays hidden until it is answered
//! (as core resolves it: the kind's default unless the file sets it).

use std::rc::Rc;

use logtime_lesson::author::{AuthorCommand, QuestionEdit};
use logtime_lesson::{Affordance, Affordances, Misconception};
use serde_json::Value;
use yew::prelude::*;

use crate::components::{input_value, sentence, use_uid};

#[derive(Properties, PartialEq, Clone)]
pub(super) struct QuestionFieldsProps {
    /// The step, 1-based.
    pub step: usize,
    /// The step as the file has it.
    pub json: Rc<Value>,
    /// What the learner does not see before answering, as core resolves it (`None` for a
    /// task, whose file value is shown as written).
    pub hide: Option<Affordances>,
    /// The classes of wrong answer core names for the question's kind.
    pub classes: Vec<Misconception>,
    /// What core computed: the answer and the feedback a learner gets (shown with the
    /// author's words for each wrong answer).
    #[prop_or_default]
    pub answer: Html,
    /// Commands for core.
    pub on_command: Callback<AuthorCommand>,
}

/// A question's or task's fields as the file has them.
struct Fields {
    ask: String,
    hints: Vec<String>,
    reveal: Option<String>,
    points: Option<u64>,
    /// `None` when the file leaves it to the kind's default.
    hide: Option<Vec<Affordance>>,
    wrong: serde_json::Map<String, Value>,
}

fn fields(step: &Value) -> Fields {
    let q = step.get("question").or_else(|| step.get("task"));
    let get = |k: &str| q.and_then(|q| q.get(k));
    let text = |k: &str| get(k).and_then(Value::as_str).map(str::to_string);
    let list = |k: &str| {
        get(k).and_then(Value::as_array).map(|a| {
            a.iter()
                .filter_map(|h| h.as_str().map(str::to_string))
                .collect::<Vec<_>>()
        })
    };
    Fields {
        ask: text("ask").unwrap_or_default(),
        hints: list("hints").unwrap_or_default(),
        reveal: text("reveal"),
        points: get("points").and_then(Value::as_u64),
        hide: list("hide").map(|h| h.iter().filter_map(|k| Affordance::parse(k).ok()).collect()),
        wrong: get("wrong")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
    }
}

fn emit(on: &Callback<AuthorCommand>, step: usize, edit: QuestionEdit) {
    on.emit(AuthorCommand::EditQuestion { step, edit });
}

/// The hints, each rewritten in place (emptied: removed) or removed by its button, and a
/// field that adds one.
fn hint_list(step: usize, hints: &[String], on: &Callback<AuthorCommand>, add_id: &str) -> Html {
    let rows = hints.iter().enumerate().map(|(k, h)| {
        let on_edit = {
            let on = on.clone();
            Callback::from(move |e: Event| {
                let text = input_value(&e);
                let edit = if text.trim().is_empty() {
                    QuestionEdit::RemoveHint(k)
                } else {
                    QuestionEdit::EditHint { index: k, text }
                };
                emit(&on, step, edit);
            })
        };
        let on_remove = {
            let on = on.clone();
            Callback::from(move |_: MouseEvent| emit(&on, step, QuestionEdit::RemoveHint(k)))
        };
        html! {
            <li class="lt-author-hint-row" key={format!("{k}:{h}")}>
                <input value={h.clone()} onchange={on_edit} aria-label={format!("Hint {}", k + 1)}
                       data-testid={format!("author-hint-{k}")} />
                <button type="button" class="lt-btn lt-btn-small" onclick={on_remove}
                        aria-label={format!("Remove hint {}", k + 1)} data-testid={format!("author-hint-remove-{k}")}>{ "✕" }</button>
            </li>
        }
    });
    let on_add = {
        let on = on.clone();
        Callback::from(move |e: Event| {
            let Some(t) = e.target_dyn_into::<web_sys::HtmlInputElement>() else {
                return;
            };
            let v = t.value();
            if !v.trim().is_empty() {
                t.set_value("");
                emit(&on, step, QuestionEdit::AddHint(v));
            }
        })
    };
    html! {
        <>
            <label for={add_id.to_string()}>{ format!("Hints ({}): edit, remove, or add one", hints.len()) }</label>
            if !hints.is_empty() {
                <ol class="lt-author-hints" data-testid="author-hints">{ for rows }</ol>
            }
            <input id={add_id.to_string()} onchange={on_add} placeholder="a new hint, then Enter" data-testid="author-hint" />
        </>
    }
}

/// One field per class of wrong answer core names for the kind: the author's words (empty:
/// core's, shown beneath).
fn wrong_words(
    step: usize,
    classes: &[Misconception],
    written: &serde_json::Map<String, Value>,
    on: &Callback<AuthorCommand>,
) -> Html {
    if classes.is_empty() {
        return Html::default();
    }
    let rows = classes.iter().map(|c| {
        let key = c.key();
        let value = written.get(key).and_then(Value::as_str).unwrap_or_default().to_string();
        let onchange = {
            let on = on.clone();
            Callback::from(move |e: Event| {
                let t = input_value(&e);
                let text = (!t.trim().is_empty()).then_some(t);
                emit(&on, step, QuestionEdit::Wrong { class: key.to_string(), text });
            })
        };
        html! {
            <li class="lt-author-wrong-row">
                <label>
                    <span class="lt-small">{ format!("A learner who {}", c.label()) }</span>
                    <input {value} {onchange} placeholder="your words (empty: core's)" data-testid={format!("author-wrong-{key}")} />
                </label>
                <p class="lt-small lt-muted">{ "Core's words: " }{ sentence(&c.teaching()) }</p>
            </li>
        }
    });
    html! {
        <fieldset class="lt-author-wrongs" data-testid="author-wrongs">
            <legend>{ "Your words for each kind of wrong answer" }</legend>
            <ul>{ for rows }</ul>
        </fieldset>
    }
}

/// What stays hidden until the item is answered: ticked as core resolves it (the kind's
/// default unless the file sets it); a change writes the whole set, and a button gives it back
/// to the kind's default.
fn hides(step: usize, shown: Affordances, explicit: bool, on: &Callback<AuthorCommand>) -> Html {
    let boxes = Affordance::ALL.iter().map(|a| {
        let a = *a;
        let checked = shown.contains(a);
        let words = a.words();
        let on = on.clone();
        let onchange = Callback::from(move |_: Event| {
            let next: Vec<Affordance> = Affordance::ALL
                .into_iter()
                .filter(|x| if *x == a { !checked } else { shown.contains(*x) })
                .collect();
            emit(&on, step, QuestionEdit::Hide(Some(next)));
        });
        html! {
            <label class="lt-author-hide" title={words.1}><input type="checkbox" {checked} {onchange} data-testid={format!("author-hide-{}", a.key())} />{ words.0 }</label>
        }
    });
    let on_default = {
        let on = on.clone();
        Callback::from(move |_: MouseEvent| emit(&on, step, QuestionEdit::Hide(None)))
    };
    html! {
        <fieldset class="lt-author-group lt-author-hides" data-testid="author-hides" data-explicit={explicit.to_string()}>
            <legend>{ if explicit { "Hidden until answered (set here)" } else { "Hidden until answered (the kind's default)" } }</legend>
            <div class="lt-author-hide-boxes">{ for boxes }</div>
            if explicit {
                <button type="button" class="lt-btn lt-btn-small" onclick={on_default} data-testid="author-hide-default">{ "Use the kind's default" }</button>
            }
        </fieldset>
    }
}

/// A question's or task's words and settings.
#[function_component(QuestionFields)]
pub(super) fn question_fields(p: &QuestionFieldsProps) -> Html {
    let i = p.step;
    let ids = [
        use_uid("lt-au-ask"),
        use_uid("lt-au-hint"),
        use_uid("lt-au-reveal"),
        use_uid("lt-au-points"),
    ];
    let edit = |f: fn(String) -> QuestionEdit| {
        let on = p.on_command.clone();
        Callback::from(move |e: Event| emit(&on, i, f(input_value(&e))))
    };
    let on_ask = edit(QuestionEdit::Ask);
    let on_reveal = edit(|t| QuestionEdit::Reveal((!t.trim().is_empty()).then_some(t)));
    let on_points = edit(|t| QuestionEdit::Points(t.trim().parse().ok()));
    let q = fields(&p.json);
    let explicit = q.hide.is_some();
    let shown = p
        .hide
        .unwrap_or_else(|| Affordances::of(q.hide.as_deref().unwrap_or_default()));
    // Grouped as an author thinks of a question: what is asked; the answer and what a learner
    // reads; the help around it; what stays hidden.
    html! {
        <div class="lt-author-question" data-testid="author-question">
            <fieldset class="lt-author-group" data-group="asked">
                <legend>{ "What is asked" }</legend>
                <label for={ids[0].clone()}>{ "What the learner is asked" }</label>
                <input id={ids[0].clone()} value={q.ask.clone()} onchange={on_ask} data-testid="author-ask" />
            </fieldset>
            <fieldset class="lt-author-group" data-group="answer">
                <legend>{ "Answer and feedback" }</legend>
                if p.answer == Html::default() {
                    <p class="lt-small lt-muted" data-testid="author-no-answer">{ "Core computes the answer here once the step's problems are fixed." }</p>
                } else {
                    { p.answer.clone() }
                }
                { wrong_words(i, &p.classes, &q.wrong, &p.on_command) }
            </fieldset>
            <fieldset class="lt-author-group" data-group="help">
                <legend>{ "Hints, explanation, points" }</legend>
                { hint_list(i, &q.hints, &p.on_command, &ids[1]) }
                <label for={ids[2].clone()}>{ "Explanation shown once answered" }</label>
                <textarea id={ids[2].clone()} rows="2" value={q.reveal.clone().unwrap_or_default()} onchange={on_reveal} data-testid="author-reveal" />
                <div class="lt-author-row">
                    <label for={ids[3].clone()}>{ "Points" }</label>
                    <input id={ids[3].clone()} class="lt-author-n" inputmode="numeric" value={q.points.map(|n| n.to_string()).unwrap_or_default()} onchange={on_points} placeholder="default" data-testid="author-points" />
                </div>
            </fieldset>
            { hides(i, shown, explicit, &p.on_command) }
        </div>
    }
}
