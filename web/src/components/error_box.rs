use yew::prelude::*;

#[derive(Properties, PartialEq, Clone)]
pub struct ErrorBoxProps {
    pub title: AttrValue,
    pub detail: AttrValue,
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
