use yew::prelude::*;

use super::PanelProps;

/// The ARIA live region narrating each event in words, plus a visible event log.
#[function_component(LiveRegion)]
pub fn live_region(p: &PanelProps) -> Html {
    let st = &*p.state;
    html! {
        <section class="lt-panel lt-log" aria-label="What happened">
            <h2>{ "What happened" }</h2>
            <p class="lt-visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="live">
                { st.announce.clone() }
            </p>
            <ol class="lt-log-list" data-testid="event-log">
                { for st.log.iter().rev().take(12).map(|l| html!{ <li>{ l.clone() }</li> }) }
            </ol>
        </section>
    }
}
