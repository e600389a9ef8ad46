//! What the panels are drawn from at this render: during a rebuild, the moment its first chunk
//! showed; while playback runs fast, words that catch up ten times a second
//! (`timeline::TextRefresh`) while the canvases and the clock follow every frame.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::timeline;
use crate::model::viewport::Viewport;
use crate::state::{self, Explorer, Shared};

/// What the partition's panels are drawn from: the explorer's state, or during a rebuild what
/// it was once the first chunk had run.
#[derive(Clone, PartialEq)]
pub struct PanelState {
    /// The replay.
    pub replay: Shared<state::Replay>,
    /// The partition view's marks.
    pub marks: Shared<state::Marks>,
    /// The latest lookup.
    pub lookup: Shared<state::LookupState>,
    /// The latest retention check.
    pub retention: Shared<state::RetentionState>,
    /// Disk usage over time.
    pub disk: Shared<state::Disk>,
    /// The partition view's window.
    pub viewport: Viewport,
}

impl PanelState {
    fn of(st: &Explorer) -> PanelState {
        PanelState {
            replay: st.replay.clone(),
            marks: st.marks.clone(),
            lookup: st.lookup.clone(),
            retention: st.retention.clone(),
            disk: st.disk.clone(),
            viewport: st.viewport,
        }
    }
}

/// What the panels' words show while they lag the moment: the partition's column, and the
/// narration's log and producer clock.
#[derive(Clone)]
pub struct Words {
    /// The partition's column.
    pub wide: Rc<PanelState>,
    /// The narration.
    pub log: Shared<state::Log>,
    /// The producer's clock.
    pub now: logtime_model::Timestamp,
}

/// The page clock (ms) in the browser; off it, no clock (0).
fn page_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    return js_sys::Date::now();
    #[cfg(not(target_arch = "wasm32"))]
    0.0
}

/// `(live, words)`: what the canvases draw now (frozen while a rebuild runs: the partition part
/// way through a rebuild is not a moment to read, and redrawing a million segments after every
/// chunk would cost as much as the chunk), and what the panels' words show (catching up with
/// the moment ten times a second, the partition's column and the narration's in turns, while
/// playback runs fast). A panel whose props did not change is not rendered again, so a frame
/// lays out a clock instead of every panel.
#[hook]
pub fn use_panel_words(st: &Explorer) -> (Rc<PanelState>, Words) {
    let frozen = use_mut_ref(|| None::<Rc<PanelState>>);
    let words = use_mut_ref(|| None::<Words>);
    let refresh = use_mut_ref(timeline::TextRefresh::default);
    let live = {
        let mut f = frozen.borrow_mut();
        match &st.rebuild {
            None => {
                *f = None;
                Rc::new(PanelState::of(st))
            }
            Some(_) => f.get_or_insert_with(|| Rc::new(PanelState::of(st))).clone(),
        }
    };
    let lagging =
        timeline::text_lags(st.playback.playing, st.playback.speed) && st.rebuild.is_none();
    let (wide_due, side_due) = refresh.borrow_mut().due(lagging, page_ms());
    let mut w = words.borrow_mut();
    let w = w.get_or_insert_with(|| Words {
        wide: live.clone(),
        log: st.log.clone(),
        now: st.replay.now(),
    });
    if wide_due {
        w.wide = live.clone();
    }
    if side_due {
        w.log = st.log.clone();
        w.now = st.replay.now();
    }
    (live.clone(), w.clone())
}
