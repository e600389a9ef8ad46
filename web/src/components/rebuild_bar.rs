//! A long rebuild (stepping back, the scrubber, a confirmed rewind) replays the scenario from
//! its start in chunks: this bar shows how far it got and stops it.
//!
//! A plain function rather than a component: it has no state of its own, and each component
//! adds its own copy of Yew's lifecycle code to the wasm.

use yew::prelude::*;

/// "Rebuilding: step 120 of 1000" with a progress bar and a Stop button; `on_cancel` stops the
/// rebuild where it is.
pub fn rebuild_bar(done: usize, steps: usize, on_cancel: &Callback<()>) -> Html {
    let cancel = on_cancel.reform(|_: MouseEvent| ());
    let (done, steps) = (done.min(steps), steps.max(1));
    html! {
        <div class="lt-rebuild" role="status" data-testid="rebuild">
            <label>
                { format!("Rebuilding: step {done} of {steps}") }
                <progress max={steps.to_string()} value={done.to_string()} data-testid="rebuild-progress" />
            </label>
            <button type="button" class="lt-btn lt-btn-small" onclick={cancel} data-testid="rebuild-cancel">
                { "Stop here" }
            </button>
        </div>
    }
}
