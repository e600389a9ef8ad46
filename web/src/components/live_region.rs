//! "What happened": the narration list and the ARIA live region that announces its newest line.

use yew::prelude::*;

use crate::author::PickPanel;
use logtime_core::scenario::narrate::Panel;

use super::sentence;
use crate::state::{Log, Shared};

/// What the live region shows.
#[derive(Properties, PartialEq, Clone)]
pub struct LiveRegionProps {
    /// The narration.
    pub log: Shared<Log>,
}

/// The ARIA live region narrating each step in words, plus a visible event log.
#[function_component(LiveRegion)]
pub fn live_region(p: &LiveRegionProps) -> Html {
    html! {
        <section role="group" class="lt-panel lt-log" aria-label="What happened" data-panel="log">
            <h2><PickPanel panel={Panel::Log}>{ "What happened" }</PickPanel></h2>
            <p class="lt-visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="live">
                { p.log.announce() }
            </p>
            <ol class="lt-log-list" data-testid="event-log" tabindex="0" aria-label="Narration, newest first">
                { for p.log.newest_first().take(12).map(|(n, l)| html!{ <li key={n}>{ sentence(l) }</li> }) }
            </ol>
        </section>
    }
}
