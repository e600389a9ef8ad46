//! A long rebuild (stepping back, the scrubber, a confirmed rewind) replays the scenario from
//! its start in chunks: this bar shows how far it got and stops it.
//!
//! A plain function rather than a component: it has no state of its own, and each component
//! adds its own copy of Yew's lifecycle code to the wasm.

use yew::prelude::*;

use crate::model::format;

/// How far a rebuild got: `done` of `steps` steps, and the step running in slices as
/// `(batches sent, batches)`; `stopping` once the reader stopped it in the middle of a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RebuildProgress {
    /// Steps done.
    pub done: usize,
    /// Steps to reach.
    pub steps: usize,
    /// The step running in slices: batches sent and batches.
    pub partial: Option<(u64, u64)>,
    /// The reader stopped it: it ends with the step in progress.
    pub stopping: bool,
}

impl RebuildProgress {
    /// The bar's value out of `steps`: the steps done and the share of the next one sent.
    pub fn value(&self) -> f64 {
        let done = self.done.min(self.steps) as f64;
        let share = self
            .partial
            .map_or(0.0, |(sent, of)| sent as f64 / of.max(1) as f64);
        (done + share).min(self.steps as f64)
    }

    /// [`value`](Self::value) as the `<progress>` element's `value` attribute: three decimals.
    pub fn value_attr(&self) -> String {
        format::three_decimals(self.value())
    }

    /// What the bar says: "Rebuilding: step 12 of 100", and of a step running in slices
    /// "(step 13: 2,000 of 10,000 batches)"; "Stopping after step 13" once stopped.
    pub fn label(&self) -> String {
        let (done, steps) = (self.done.min(self.steps), self.steps.max(1));
        match self.partial {
            Some(_) if self.stopping => format!("Stopping after step {} of {steps}", done + 1),
            Some((sent, of)) => format!(
                "Rebuilding: step {done} of {steps} (step {}: {} of {} batches)",
                done + 1,
                format::count(sent as i64),
                format::count(of as i64)
            ),
            None => format!("Rebuilding: step {done} of {steps}"),
        }
    }
}

/// "Rebuilding: step 120 of 1000" with a progress bar and a Stop button; `on_cancel` stops the
/// rebuild where it is (at the end of the step in progress).
pub fn rebuild_bar(p: RebuildProgress, on_cancel: &Callback<()>) -> Html {
    let cancel = on_cancel.reform(|_: MouseEvent| ());
    html! {
        <div class="lt-rebuild" role="status" data-testid="rebuild">
            <label>
                { p.label() }
                <progress max={p.steps.max(1).to_string()} value={p.value_attr()} data-testid="rebuild-progress" />
            </label>
            <button type="button" class="lt-btn lt-btn-small" onclick={cancel} data-testid="rebuild-cancel"
                    disabled={p.stopping}>
                { "Stop here" }
            </button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_in_slices_moves_the_bar_but_not_the_step_count() {
        let mut p = RebuildProgress {
            done: 12,
            steps: 100,
            partial: None,
            stopping: false,
        };
        assert_eq!(p.label(), "Rebuilding: step 12 of 100");
        assert_eq!(p.value(), 12.0);
        p.partial = Some((2_500, 10_000));
        assert_eq!(
            p.label(),
            "Rebuilding: step 12 of 100 (step 13: 2,500 of 10,000 batches)"
        );
        assert_eq!(p.value(), 12.25);
        p.stopping = true;
        assert_eq!(p.label(), "Stopping after step 13 of 100");
        let end = RebuildProgress {
            done: 7,
            steps: 5,
            partial: Some((1, 0)),
            stopping: false,
        };
        assert_eq!(end.value(), 5.0, "never past the end");
    }

    #[test]
    fn the_value_attribute_is_the_value_to_three_decimals() {
        let p = RebuildProgress {
            done: 1,
            steps: 3,
            partial: Some((1, 16)),
            stopping: false,
        };
        // 1.0625 exactly: a tie, rounded to even as `{:.3}` does
        assert_eq!(p.value_attr(), "1.062");
        assert_eq!(p.value_attr(), format!("{:.3}", p.value()));
    }
}
