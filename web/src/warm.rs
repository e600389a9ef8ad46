//! Runs the explorer's busiest code once, on a scratch partition, while the page is idle, so
//! that the reader's first play does not pay for compiling it.
//!
//! V8 compiles a wasm function the first time it is called, on the main thread, into quick
//! unoptimised code, and recompiles the functions that keep running, optimised, on background
//! threads. A play of a big scenario used to pay for both in its first frames: on a 2-core
//! machine the background compiles took the main thread's core, and the first second of a
//! ten-million-record play at 64× had long tasks of 50–85 ms (none once the same code had run
//! before). The warm-up runs the same reducer actions as a play (generated traffic rolling
//! segments, scheduled retention checks deleting them, narration) and draws the density view
//! onto a canvas that is never shown, in small pieces at idle moments, once per page: every
//! explorer of a page shares the compiled module. Its state is its own and is dropped at the
//! end; the replay clock of `tests/e2e/measure.mjs` does not count its steps.

use std::cell::Cell;
use std::rc::Rc;

use logtime_core::scenario::Source;
use yew::Reducible;

use crate::state::{Explorer, LoadAction, Restore, TransportAction};

/// One-record batches into small segments with a short retention, checked often: a few
/// thousand batches per step (as a big play's steps are), several rolls per step, retention
/// checks that delete segments from the second step on.
const SCENARIO: &str = r#"{"title": "warm-up", "kafka": "3.6", "start": 1762250400000,
  "topic": {"segment.bytes": 65536, "retention.ms": 4000},
  "broker": {"log.retention.check.interval.ms": 2000},
  "steps": [
    {"produce": {"batches": 2500, "every": "1ms", "records": [{"timestamp": "now", "value_bytes": 10}]}},
    {"produce": {"batches": 2500, "every": "1ms", "records": [{"timestamp": "now", "value_bytes": 10}]}},
    {"produce": {"batches": 2500, "every": "1ms", "records": [{"timestamp": "now", "value_bytes": 10}]}},
    {"produce": {"batches": 2500, "every": "1ms", "records": [{"timestamp": "now", "value_bytes": 10}]}}
  ]}"#;

thread_local! {
    /// The warm-up has started on this page (the module is compiled once per page).
    static STARTED: Cell<bool> = const { Cell::new(false) };
}

/// Starts the warm-up at the page's next idle moment, unless it already ran on this page.
pub fn start() {
    if STARTED.with(|s| s.replace(true)) {
        return;
    }
    let warm = WarmUp::new();
    crate::glue::when_idle(move || next(warm));
}

/// Runs a piece and, while more is left, asks for the next idle moment.
fn next(mut warm: WarmUp) {
    if warm.piece() {
        crate::glue::when_idle(move || next(warm));
    }
}

/// The scratch explorer and how far it got.
pub struct WarmUp {
    state: Rc<Explorer>,
    drawn: bool,
}

impl WarmUp {
    /// A scratch explorer with the warm-up scenario loaded.
    pub fn new() -> WarmUp {
        let load = LoadAction::Load {
            token: 0,
            json: Ok(SCENARIO.to_string()),
            origin: Source::Inline(String::new()),
            restore: Restore::default(),
        };
        WarmUp {
            state: Rc::new(Explorer::default()).reduce(load.into()),
            drawn: false,
        }
    }

    /// Runs the next piece (a step, as each frame of a play does, then the density drawing); `false`
    /// once nothing is left.
    pub fn piece(&mut self) -> bool {
        if !self.state.replay.at_end() && self.state.replay.is_loaded() {
            let state = self.state.clone();
            self.state = crate::glue::untimed(|| state.reduce(TransportAction::Step.into()));
            return true;
        }
        if !self.drawn {
            self.drawn = true;
            crate::components::density_canvas::draw_offscreen(&self.state);
        }
        false
    }

    /// The scratch explorer.
    pub fn state(&self) -> &Explorer {
        &self.state
    }
}

impl Default for WarmUp {
    fn default() -> Self {
        WarmUp::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_warm_up_runs_the_play_paths_to_the_end() {
        let mut warm = WarmUp::new();
        assert!(
            warm.state().replay.is_loaded(),
            "{:?}",
            warm.state().replay.notice
        );
        let mut pieces = 0;
        while warm.piece() {
            pieces += 1;
            assert!(pieces < 10, "the warm-up never ends");
        }
        assert_eq!(pieces, 4, "one piece per step");
        {
            let r = warm.state().replay.runner().expect("loaded");
            let p = r.partition();
            assert_eq!(p.log_end_offset().0, 10_000);
            // Rolls and deletions happened: the paths a big play takes.
            assert!(p.segments_rolled() >= 4, "{} rolls", p.segments_rolled());
            assert!(p.log_start_offset().0 > 0, "nothing was deleted");
        }
        assert!(!warm.piece(), "nothing is left");
    }
}
