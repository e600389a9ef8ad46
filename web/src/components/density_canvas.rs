//! The partition's density view: a canvas of bars when too many records are visible for tiles,
//! drawn from the live moment (every frame of a play) while the cards' words may lag it.

use logtime_model::{Offset, Verdict};
use yew::prelude::*;

use super::partition_view::lookup_marks;
use super::use_canvas;
use crate::draw;
use crate::model::scene::{build, SceneInput};
use crate::model::viewport::Viewport;
use crate::state::{LookupState, ReplayView, RetentionState, Shared};

/// The density canvas's props.
#[derive(Properties, PartialEq, Clone)]
pub struct DensityCanvasProps {
    /// The replay (the partition).
    pub replay: ReplayView,
    /// The latest lookup (its answer and scan are outlined).
    pub lookup: Shared<LookupState>,
    /// The latest retention check (pinned segments).
    pub retention: Shared<RetentionState>,
    /// The window onto the offsets.
    pub viewport: Viewport,
    /// Dark colours.
    #[prop_or_default]
    pub dark: bool,
    /// Bars in one neutral colour without ▲ caps (a lesson's `age_marks` hidden).
    #[prop_or_default]
    pub neutral: bool,
    /// Zoom on click.
    pub on_viewport: Callback<Viewport>,
}

/// The moment the density canvas draws, when the explorer provides it: while playback runs
/// fast the partition panel's words lag the moment (`timeline::TextRefresh`), and the canvas,
/// given this as a context, draws every frame without the panel being rendered again.
#[derive(Clone, PartialEq)]
pub struct LiveDensity {
    /// The replay (the partition).
    pub replay: ReplayView,
    /// The latest lookup.
    pub lookup: Shared<LookupState>,
    /// The latest retention check.
    pub retention: Shared<RetentionState>,
    /// The window onto the offsets.
    pub viewport: Viewport,
    /// Bars without age colours or ▲ caps.
    pub neutral: bool,
}

/// The offsets the partition view spans: from the first segment's base to the log end.
fn bounds(replay: &ReplayView) -> Option<(i64, i64)> {
    let r = replay.runner()?;
    let part = r.partition();
    let lo = part.segments().first().map_or(0, |s| s.base_offset().0);
    Some((lo, part.log_end_offset().0.max(lo + 1)))
}

/// The canvas density view for big partitions (the scene in `model/scene.rs`, drawing in
/// `draw.rs`).
#[function_component(DensityCanvas)]
pub fn density_canvas(p: &DensityCanvasProps) -> Html {
    let live = use_context::<LiveDensity>();
    let p = &match live {
        Some(l) => DensityCanvasProps {
            replay: l.replay,
            lookup: l.lookup,
            retention: l.retention,
            viewport: l.viewport,
            neutral: l.neutral,
            ..p.clone()
        },
        None => p.clone(),
    };
    let canvas = {
        let p = p.clone();
        use_canvas(Box::new(move |c, size| draw_density(c, size, &p)), 0)
    };
    let onclick = {
        let (replay, viewport, cb) = (p.replay.clone(), p.viewport, p.on_viewport.clone());
        let canvas = canvas.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(el) = canvas.cast::<web_sys::Element>() else {
                return;
            };
            let w = el.client_width().max(1) as f64;
            let anchor = e.offset_x() as f64 / w;
            if let Some((lo, hi)) = bounds(&replay) {
                let vp = viewport.clamped(lo, hi);
                cb.emit(vp.zoom(if e.shift_key() { 4.0 } else { 0.25 }, anchor, lo, hi));
            }
        })
    };
    html! {
        <canvas ref={canvas} class="lt-density" data-testid="density" onclick={onclick}
                role="img" aria-label="Records as density bars; click to zoom in, shift-click to zoom out" />
    }
}

/// Draws `state`'s partition as density bars on a canvas that is never shown (the warm-up's
/// drawing, [`crate::warm`]); off the browser, nothing.
pub fn draw_offscreen(state: &crate::state::Explorer) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let canvas = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.create_element("canvas").ok())
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
        if let Some(c) = canvas {
            let props = DensityCanvasProps {
                replay: ReplayView::of(&state.replay),
                lookup: state.lookup.clone(),
                retention: state.retention.clone(),
                viewport: state.viewport,
                dark: false,
                neutral: false,
                on_viewport: Callback::noop(),
            };
            draw_density(&c, (320.0, 120.0), &props);
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = state;
}

fn draw_density(
    c: &web_sys::HtmlCanvasElement,
    (width, height): (f64, f64),
    p: &DensityCanvasProps,
) {
    let Some(r) = p.replay.runner() else {
        return;
    };
    let part = r.partition();
    let segs = part.segments();
    let lo = segs.first().map_or(0, |s| s.base_offset().0);
    let leo = part.log_end_offset();
    let vp = p.viewport.clamped(lo, leo.0.max(lo + 1));
    let pinned: Vec<Offset> = p
        .retention
        .report
        .as_ref()
        .map(|rep| {
            rep.verdicts
                .iter()
                .filter(|v| matches!(v.verdict, Verdict::NotOldEnough { future: true, .. }))
                .map(|v| v.base_offset)
                .collect()
        })
        .unwrap_or_default();
    let marks = lookup_marks(&p.lookup).canvas_marks();
    // The bars sample their records in rising offsets.
    let stamps = crate::model::stamps::StampCursor::new(part);
    let mut scene = build(&SceneInput {
        viewport: vp,
        width,
        height,
        now: r.now(),
        retention_ms: part.config().topic.retention_ms,
        log_start: part.log_start_offset(),
        log_end: leo,
        base_at: &|i| segs[i].base_offset(),
        segments: segs.len(),
        pinned: &pinned,
        ts_at: &|o| stamps.timestamp_at(o),
        marks: &marks,
    });
    if p.neutral {
        for (_, _, bar) in &mut scene.bars {
            bar.class = None;
        }
    }
    draw::partition(c, &scene, p.dark);
}
