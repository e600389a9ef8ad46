//! PLACEHOLDER — the UI teammate replaces this file (and owns `src/components/`).
//!
//! Contract with the plumbing in `lib.rs` (keep it when replacing this file):
//! * `App` is a function or struct component taking `AppProps`;
//! * `AppProps` has a `scenario: ScenarioSource` field (`crate::embed`), passed
//!   through unchanged from the host page (built-in name, URL or inline JSON);
//! * the plumbing wraps `App` in `<div class="logtime-root" data-testid="app-root">`,
//!   so `App` need not (and should not) render that test id itself.

use yew::prelude::*;

use crate::embed::ScenarioSource;

#[derive(Properties, PartialEq, Clone, Default)]
pub struct AppProps {
    /// Which scenario to show, exactly as the host page gave it.
    #[prop_or_default]
    pub scenario: ScenarioSource,
}

/// Placeholder explorer: shows which scenario it was asked for. Trivial on purpose.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    html! {
        <section class="logtime-placeholder" aria-label="Logtime explorer">
            <h2 class="logtime-title">{ "Logtime" }</h2>
            <p>{ "Kafka record timestamp explorer — UI coming soon." }</p>
            <p class="logtime-muted">{ props.scenario.to_string() }</p>
        </section>
    }
}
