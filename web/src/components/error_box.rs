//! A visible error box (a scenario that cannot be shown).

use yew::prelude::*;

/// The error box's props.
#[derive(Properties, PartialEq, Clone)]
pub struct ErrorBoxProps {
    /// What failed, for people.
    pub title: AttrValue,
    /// The error itself, e.g. the `ScenarioError` line.
    pub detail: AttrValue,
    /// What to do about it.
    #[prop_or_default]
    pub hint: Option<AttrValue>,
}

/// A visible error naming the problem (e.g. the `ScenarioError` line).
#[function_component(ErrorBox)]
pub fn error_box(p: &ErrorBoxProps) -> Html {
    html! {
        <div class="lt-error" role="alert" data-testid="scenario-error">
            <strong class="lt-error-title">{ "⚠ " }{ p.title.clone() }</strong>
            <pre class="lt-error-detail">{ p.detail.clone() }</pre>
            if let Some(h) = &p.hint { <p class="lt-error-hint">{ h.clone() }</p> }
        </div>
    }
}
