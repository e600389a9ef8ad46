//! Making variants from the pane, without JSON: the values core says an author may vary (the
//! topic's configs at the start; for the selected step, the configs it sets and its records'
//! timestamps), each with a **Vary…** button. Its form takes a name (core's suggestion) and the
//! values as a list (`1d, 4d`) or a range (from, to, step); core is asked whether it would
//! refuse them before they are sent, and its words show at the field they are about. A value
//! that is a variable shows its values, to change them, or **Make fixed** to write the value
//! the lesson is written with back in its place.

use logtime_lesson::author::{AuthorCommand, AuthorError, VaryValues, Varyable};
use yew::prelude::*;

use super::state::Draft;
use crate::components::{input_value, use_uid};

#[derive(Properties, PartialEq, Clone)]
pub(super) struct VaryListProps {
    /// The draft.
    pub draft: Draft,
    /// The step selected in the pane (1-based): its values are listed after the topic's.
    pub selected: Option<usize>,
    /// Commands for core.
    pub on_command: Callback<AuthorCommand>,
}

/// A test id for a pointer: `/topic/retention.ms` → `topic-retention-ms`.
fn slug(pointer: &str) -> String {
    pointer
        .trim_start_matches('/')
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

fn text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn values_text(v: &VaryValues) -> String {
    match v {
        VaryValues::List(l) => l.clone(),
        VaryValues::Range { from, to, step } => format!("{from} to {to} by {step}"),
    }
}

/// The values that can vary, and the form of the one being made a variable.
#[function_component(VaryList)]
pub(super) fn vary_list(p: &VaryListProps) -> Html {
    // The pointer whose form is open.
    let open = use_state(|| None::<String>);
    let list: Vec<Varyable> = {
        let a = p.draft.authoring();
        a.varyables()
            .into_iter()
            .filter(|v| v.step.is_none() || v.step == p.selected || v.variable.is_some())
            .collect()
    };
    if list.is_empty() {
        return Html::default();
    }
    let row = |v: &Varyable| {
        let id = slug(&v.pointer);
        let shown = open.as_deref() == Some(v.pointer.as_str());
        let toggle = {
            let (open, ptr) = (open.clone(), v.pointer.clone());
            Callback::from(move |_: MouseEvent| {
                open.set((open.as_deref() != Some(ptr.as_str())).then(|| ptr.clone()))
            })
        };
        let close = {
            let open = open.clone();
            Callback::from(move |()| open.set(None))
        };
        let place = match v.step {
            Some(s) => format!("step {s}, "),
            None => "start, ".into(),
        };
        html! {
            <li data-testid={format!("author-vary-row-{id}")}>
                <span class="lt-author-vary-what">
                    { place }<code>{ v.what.clone() }</code>{ " = " }
                    if let Some((name, values)) = &v.variable {
                        <code data-testid="author-vary-variable">{ format!("${name}") }</code>
                        <span class="lt-small">{ format!(" (varies: {})", values_text(values)) }</span>
                    } else {
                        <code>{ text(&v.value) }</code>
                    }
                </span>
                <button type="button" class="lt-btn lt-btn-small" onclick={toggle} aria-expanded={if shown { "true" } else { "false" }}
                        data-testid={format!("author-vary-{id}")}>
                    { if v.variable.is_some() { "Change values…" } else { "Vary…" } }
                </button>
                if let Some((name, _)) = &v.variable {
                    <button type="button" class="lt-btn lt-btn-small" data-testid={format!("author-unvary-{id}")}
                            onclick={p.on_command.reform({ let name = name.clone(); move |_: MouseEvent| AuthorCommand::Unvary { name: name.clone() } })}>
                        { "Make fixed" }
                    </button>
                }
                if shown {
                    <VaryForm draft={p.draft.clone()} of={v.clone()} on_command={p.on_command.clone()} on_done={close} />
                }
            </li>
        }
    };
    html! {
        <section class="lt-author-vary" aria-label="Values a learner's variant can change" data-testid="author-vary">
            <h3>{ "Variables" }</h3>
            <p class="lt-small lt-muted">{ "Vary a value: each learner's seed picks one of its values, and every answer is computed for it." }</p>
            <ul class="lt-author-vary-list">{ for list.iter().map(row) }</ul>
        </section>
    }
}

#[derive(Properties, PartialEq, Clone)]
struct VaryFormProps {
    draft: Draft,
    of: Varyable,
    on_command: Callback<AuthorCommand>,
    on_done: Callback<()>,
}

/// Which field an error of core's is about: `name`, `list`, `from`, `to` or `step`.
fn field_of(e: &AuthorError, name: &str) -> &'static str {
    let AuthorError::Invalid { field, .. } = e else {
        return "name";
    };
    match field.strip_prefix(&format!("variants.{name}")) {
        Some(".choices") => "list",
        Some(".from") => "from",
        Some(".to") => "to",
        Some(".step") => "step",
        _ => "name",
    }
}

/// What the form's text fields share: core's refusal (the field it is about and its words),
/// the id the refusal is shown under, and where a typed value goes.
struct Fields<'a> {
    error: Option<&'a (&'static str, String)>,
    error_id: &'a str,
    on_input: &'a Callback<(&'static str, String)>,
}

impl Fields<'_> {
    fn invalid(&self, f: &str) -> bool {
        self.error.is_some_and(|(at, _)| *at == f)
    }

    /// Core's refusal, under the field it is about.
    fn error_at(&self, f: &str) -> Html {
        match self.error {
            Some((at, t)) if *at == f => html! {
                <p class="lt-field-error" role="alert" id={self.error_id.to_string()} data-testid="author-vary-error">{ t.clone() }</p>
            },
            _ => Html::default(),
        }
    }

    /// A labelled text field (`f`: `name`, `list`, `from`, `to` or `step`).
    fn input(
        &self,
        id: &str,
        label: &'static str,
        f: &'static str,
        value: &str,
        hint: &'static str,
    ) -> Html {
        let oninput = self
            .on_input
            .reform(move |e: InputEvent| (f, input_value(&e)));
        let invalid = self.invalid(f);
        html! {
            <div class="lt-author-vary-field">
                <label for={id.to_string()}>{ label }</label>
                <input id={id.to_string()} value={value.to_string()} placeholder={hint} {oninput} autocomplete="off" spellcheck="false"
                       aria-invalid={invalid.then_some("true")} aria-describedby={invalid.then(|| self.error_id.to_string())}
                       data-testid={format!("author-vary-{f}")} />
                { self.error_at(f) }
            </div>
        }
    }
}

/// `values` with the field `f` typed as `t`.
fn typed(values: &VaryValues, f: &str, t: String) -> VaryValues {
    match (values.clone(), f) {
        (VaryValues::List(_), _) => VaryValues::List(t),
        (VaryValues::Range { to, step, .. }, "from") => VaryValues::Range { from: t, to, step },
        (VaryValues::Range { from, step, .. }, "to") => VaryValues::Range { from, to: t, step },
        (VaryValues::Range { from, to, .. }, _) => VaryValues::Range { from, to, step: t },
    }
}

/// Sends the variable to core, or shows core's refusal at its field (core is asked first).
fn submit(
    p: &VaryFormProps,
    (name, values): (UseStateHandle<String>, UseStateHandle<VaryValues>),
    error: UseStateSetter<Option<(&'static str, String)>>,
) -> Callback<SubmitEvent> {
    let (draft, pointer) = (p.draft.clone(), p.of.pointer.clone());
    let (on_command, on_done) = (p.on_command.clone(), p.on_done.clone());
    Callback::from(move |e: SubmitEvent| {
        e.prevent_default();
        let n = name.trim().to_string();
        let cmd = AuthorCommand::Vary {
            pointer: pointer.clone(),
            name: n.clone(),
            values: (*values).clone(),
        };
        let refused = draft.authoring().refusal(&cmd);
        match refused {
            Some(e) => error.set(Some((field_of(&e, &n), e.to_string()))),
            None => {
                error.set(None);
                on_command.emit(cmd);
                on_done.emit(());
            }
        }
    })
}

/// The form: a name, the values as a list or a range, and core's refusal at its field.
#[function_component(VaryForm)]
fn vary_form(p: &VaryFormProps) -> Html {
    let v = &p.of;
    let (name0, values0) = match &v.variable {
        Some((n, vals)) => (n.clone(), vals.clone()),
        None => (v.suggested.clone(), VaryValues::List(text(&v.value))),
    };
    let name = use_state(|| name0);
    let values = use_state(|| values0);
    let error = use_state(|| None::<(&'static str, String)>);
    let ids = [
        use_uid("lt-au-vname"),
        use_uid("lt-au-vkind"),
        use_uid("lt-au-vlist"),
        use_uid("lt-au-vfrom"),
        use_uid("lt-au-vto"),
        use_uid("lt-au-vstep"),
        use_uid("lt-au-verr"),
    ];
    let on_input = {
        let (name, values) = (name.clone(), values.clone());
        Callback::from(move |(f, t): (&'static str, String)| match f {
            "name" => name.set(t),
            _ => values.set(typed(&values, f, t)),
        })
    };
    let on_kind = {
        let values = values.clone();
        let first = text(&v.value);
        Callback::from(move |e: Event| {
            values.set(match input_value(&e).as_str() {
                "range" => VaryValues::Range {
                    from: first.clone(),
                    to: String::new(),
                    step: String::new(),
                },
                _ => VaryValues::List(first.clone()),
            })
        })
    };
    let submit = submit(p, (name.clone(), values.clone()), error.setter());
    let cancel = p.on_done.reform(|_: MouseEvent| ());
    let fields = Fields {
        error: error.as_ref(),
        error_id: &ids[6],
        on_input: &on_input,
    };
    let is_range = matches!(&*values, VaryValues::Range { .. });
    html! {
        <form class="lt-author-vary-form" onsubmit={submit} data-testid="author-vary-form" aria-label={format!("Vary {}", v.what)}>
            { fields.input(&ids[0], "Variable name", "name", &name, "") }
            <div class="lt-author-vary-field">
                <label for={ids[1].clone()}>{ "Values as" }</label>
                <select id={ids[1].clone()} onchange={on_kind} data-testid="author-vary-kind">
                    <option value="list" selected={!is_range}>{ "a list" }</option>
                    <option value="range" selected={is_range}>{ "a range" }</option>
                </select>
            </div>
            { match &*values {
                VaryValues::List(l) => fields.input(&ids[2], "Values (commas between; the first is the lesson's own)", "list", l, "1d, 4d"),
                VaryValues::Range { from, to, step } => html! { <>
                    { fields.input(&ids[3], "From", "from", from, "1d") }
                    { fields.input(&ids[4], "To", "to", to, "4d") }
                    { fields.input(&ids[5], "Step", "step", step, "1d") }
                </> },
            } }
            <div class="lt-author-row">
                <button type="submit" class="lt-btn lt-btn-small lt-btn-primary" data-testid="author-vary-apply">
                    { if v.variable.is_some() { "Change its values" } else { "Make it a variable" } }
                </button>
                <button type="button" class="lt-btn lt-btn-small" onclick={cancel}>{ "Cancel" }</button>
            </div>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pointer_is_a_test_id() {
        assert_eq!(slug("/topic/retention.ms"), "topic-retention-ms");
        assert_eq!(
            slug("/steps/0/produce/records/0/timestamp"),
            "steps-0-produce-records-0-timestamp"
        );
    }

    #[test]
    fn cores_refusal_goes_to_the_field_it_names() {
        let at = |field: &str| {
            let e = AuthorError::Invalid {
                field: field.into(),
                reason: "x".into(),
            };
            field_of(&e, "retention")
        };
        assert_eq!(at("variants.retention.choices"), "list");
        assert_eq!(at("variants.retention.from"), "from");
        assert_eq!(at("variants.retention.to"), "to");
        assert_eq!(at("variants.retention.step"), "step");
        assert_eq!(at("variants.retention"), "name");
        assert_eq!(at("pointer \"/topic/x\""), "name");
        assert_eq!(field_of(&AuthorError::NothingToUndo, "retention"), "name");
    }
}
