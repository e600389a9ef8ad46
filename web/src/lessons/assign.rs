//! An assignment link (`?scenario=NAME&assign=FINGERPRINT`, made on the class page): the learner
//! types their name, and core's [`seed_for`](logtime_lesson::seed_for) turns it and the
//! lesson's fingerprint into their own variant's seed. Their results carry that seed, so the
//! class page replays the variant they played.

use yew::prelude::*;

/// The assignment box's props.
#[derive(Properties, PartialEq, Clone)]
pub(super) struct AssignProps {
    /// The fingerprint the link names.
    pub(super) fingerprint: AttrValue,
    /// The fingerprint of the lesson this page loaded (`None`: not known yet).
    pub(super) loaded: Option<AttrValue>,
    /// The name the learner started with, once they did.
    pub(super) learner: Option<AttrValue>,
    /// The learner typed their name: start their variant.
    pub(super) on_start: Callback<String>,
}

/// The assignment box: a name field until the learner starts, then whose variant this is.
#[function_component(Assignment)]
pub(super) fn assignment(p: &AssignProps) -> Html {
    let name = use_state(String::new);
    let error = use_state(|| None::<&'static str>);
    let other = p
        .loaded
        .as_ref()
        .is_some_and(|f| f.as_str() != p.fingerprint.as_str());
    let warning = other.then(|| html! {
        <p class="lt-field-error" role="alert" data-testid="assign-version">
            { format!("This link was made for another version of this lesson (fingerprint {}, this page has {}): your trainer's class page will flag your results.",
                p.fingerprint, p.loaded.as_deref().unwrap_or("")) }
        </p>
    });
    if let Some(who) = &p.learner {
        return html! {
            <div class="lt-assign" data-testid="assignment">
                <p class="lt-small" data-testid="assigned">{ format!("Assignment for {who}: your own variant.") }</p>
                { warning.unwrap_or_default() }
            </div>
        };
    }
    let oninput = {
        let (name, error) = (name.clone(), error.clone());
        Callback::from(move |e: InputEvent| {
            use wasm_bindgen::JsCast;
            if let Some(i) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            {
                name.set(i.value());
                error.set(None);
            }
        })
    };
    let onsubmit = {
        let (name, error, cb) = (name.clone(), error.clone(), p.on_start.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let n = name.trim();
            if n.is_empty() {
                error.set(Some("type your name first: it picks your variant"));
            } else {
                cb.emit(n.to_string());
            }
        })
    };
    html! {
        <form class="lt-assign" data-testid="assignment" {onsubmit}>
            <p class="lt-small">{ "Your trainer assigned this lesson. Type your name to get your own variant; your results will carry it." }</p>
            <label class="lt-inline"><span>{ "Your name" }</span>
                <input value={(*name).clone()} {oninput} autocomplete="name" data-testid="assign-name"
                       aria-invalid={error.is_some().then_some("true")} /></label>
            <button type="submit" class="lt-btn lt-btn-primary lt-btn-small" data-testid="assign-start">{ "Start my variant" }</button>
            if let Some(e) = *error { <p class="lt-field-error" role="alert">{ e }</p> }
            { warning.unwrap_or_default() }
        </form>
    }
}
