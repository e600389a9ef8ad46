//! The explorer's canvas drawing: the partition's density view (plain Canvas 2D, O(bars)) and
//! the two charts (axes, points and lines on a Canvas 2D, no charting library); the lesson
//! plug-in's stream lane paints with the same helpers (`lessons/draw_lane.rs`). Components call it from
//! [`crate::components::use_canvas`], which draws only in the browser.

use logtime_model::{Bytes, Offset, Timestamp};
use wasm_bindgen::JsCast;
use web_sys::{
    CanvasRenderingContext2d, HtmlCanvasElement, OffscreenCanvas, OffscreenCanvasRenderingContext2d,
};

use crate::model::format::{self, AgeClass};
use crate::model::marks::MarkKind;
use crate::model::scene::Scene;

/// Colours per theme, matching the tokens in static/style.css.
pub(crate) struct Theme {
    pub(crate) bg: &'static str,
    pub(crate) fg: &'static str,
    pub(crate) muted: &'static str,
    pub(crate) grid: &'static str,
    pub(crate) accent: &'static str,
    pub(crate) danger: &'static str,
    pub(crate) warning: &'static str,
    pub(crate) fresh: &'static str,
    pub(crate) ageing: &'static str,
    pub(crate) expired: &'static str,
    pub(crate) future: &'static str,
}

fn theme(dark: bool) -> Theme {
    if dark {
        Theme {
            bg: "#171c23",
            fg: "#e8edf4",
            muted: "#a9b4c4",
            grid: "#262e3a",
            accent: "#7fb0ff",
            danger: "#ffb3bd",
            warning: "#ffd27a",
            fresh: "#3ccfa0",
            ageing: "#e69f00",
            expired: "#a9b4c4",
            future: "#e58ac0",
        }
    } else {
        Theme {
            bg: "#f5f7fa",
            fg: "#14181f",
            muted: "#4a5566",
            grid: "#dde3ec",
            accent: "#1f5fbf",
            danger: "#a1001c",
            warning: "#7a4a00",
            fresh: "#007a5a",
            ageing: "#c75b00",
            expired: "#8a94a6",
            future: "#b3367a",
        }
    }
}

fn class_colour(p: &Theme, c: Option<AgeClass>) -> &'static str {
    match c {
        Some(AgeClass::Future) => p.future,
        Some(AgeClass::Fresh) => p.fresh,
        Some(AgeClass::Ageing) => p.ageing,
        Some(AgeClass::Expired) => p.expired,
        Some(AgeClass::NoStamp) | None => p.grid,
    }
}

/// Sizes the canvas backing store to its CSS size (`size`, cached by the caller) ×
/// devicePixelRatio; returns the CSS size and the ratio. Every drawing starts here.
fn fit(canvas: &HtmlCanvasElement, (w, h): (f64, f64)) -> (f64, f64, f64) {
    let dpr = device_pixel_ratio();
    let (bw, bh) = ((w * dpr).round() as u32, (h * dpr).round() as u32);
    if canvas.width() != bw {
        canvas.set_width(bw);
    }
    if canvas.height() != bh {
        canvas.set_height(bh);
    }
    (w, h, dpr)
}

/// Device pixels per CSS pixel, at least 1.
fn device_pixel_ratio() -> f64 {
    web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .unwrap_or(1.0)
        .max(1.0)
}

/// Sets the context's font unless it already has it. Setting a canvas font resolves it against
/// the page's styles, which forces a style recalculation after every DOM update (13 % of a
/// 10M-record play); the context keeps its font between frames (until the canvas is resized).
fn font(c: &CanvasRenderingContext2d, font: &str) {
    if c.font() != font {
        c.set_font(font);
    }
}

fn ctx(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()??
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()
}

/// A straight line from `from` to `to` in `colour`, 2 px wide (markers across a canvas).
pub(crate) fn line(c: &CanvasRenderingContext2d, colour: &str, from: (f64, f64), to: (f64, f64)) {
    c.set_stroke_style_str(colour);
    c.set_line_width(2.0);
    c.begin_path();
    c.move_to(from.0, from.1);
    c.line_to(to.0, to.1);
    c.stroke();
}

/// The canvas sized to its box and cleared to the theme's background: its context (in CSS
/// pixels), the theme and the CSS size, or `None` when it cannot be drawn on.
pub(crate) fn open(
    canvas: &HtmlCanvasElement,
    size: (f64, f64),
    dark: bool,
) -> Option<(CanvasRenderingContext2d, Theme, f64, f64)> {
    let (w, h, dpr) = fit(canvas, size);
    let c = ctx(canvas)?;
    let p = theme(dark);
    let _ = c.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    c.set_fill_style_str(p.bg);
    c.fill_rect(0.0, 0.0, w, h);
    Some((c, p, w, h))
}

/// Paints the partition's density view. Work is O(bars + boundaries + marks).
pub fn partition(canvas: &HtmlCanvasElement, scene: &Scene, dark: bool) {
    let Some((c, p, w, h)) = open(canvas, (scene.width, scene.height), dark) else {
        return;
    };
    let top = 18.0;
    let base_y = h - 6.0;
    let max_h = base_y - top;
    density_bars(&c, &p, scene, base_y, max_h);
    // segment boundaries, labelled where there is room; no label is cut at the right edge:
    // the active segment's stays in view (left of its line when need be), others give way
    let label_of = |b: &crate::model::scene::Boundary| {
        if b.active {
            format!("▶ {} active", format::count(b.base.0))
        } else if b.pinned {
            format!("⚓ {}", format::count(b.base.0))
        } else {
            format::count(b.base.0)
        }
    };
    // about an 11 px character, generously, so an estimate never overlaps
    let width_of = |l: &str| l.chars().count() as f64 * 6.5;
    let active = scene.boundaries.iter().find(|b| b.active).map(|b| {
        let lw = width_of(&label_of(b));
        ((b.x + 3.0).min(w - lw - 2.0), lw)
    });
    let mut last_label = f64::NEG_INFINITY;
    let mut labels = Vec::new();
    for b in &scene.boundaries {
        c.set_stroke_style_str(if b.active {
            p.accent
        } else if b.pinned {
            p.future
        } else {
            p.muted
        });
        c.set_line_width(if b.active || b.pinned { 2.0 } else { 1.0 });
        c.begin_path();
        c.move_to(b.x + 0.5, top - 4.0);
        c.line_to(b.x + 0.5, base_y);
        c.stroke();
        let label = label_of(b);
        let (x, lw) = match active {
            Some((ax, _)) if b.active => (ax, 0.0),
            _ => (b.x + 3.0, width_of(&label)),
        };
        let clear = b.active
            || (x + lw <= w && active.is_none_or(|(ax, aw)| x + lw < ax - 4.0 || x > ax + aw));
        if clear && (b.x - last_label > 70.0 || b.active || b.pinned) {
            labels.push((label, x));
            last_label = b.x;
        }
    }
    label_strip(&c, &p, (w, top), &labels);
    if let Some(x) = scene.log_start_x {
        line(&c, p.danger, (x, 0.0), (x, h));
    }
    for (x, mw, kind) in &scene.marks {
        let colour = match kind {
            MarkKind::Answer => p.accent,
            MarkKind::Scan => p.muted,
        };
        c.set_stroke_style_str(colour);
        c.set_line_width(2.0);
        c.stroke_rect(*x + 1.0, top, (mw - 2.0).max(2.0), max_h);
    }
}

/// The density bars: height = share of offsets still present; colour + hatch by class.
fn density_bars(c: &CanvasRenderingContext2d, p: &Theme, scene: &Scene, base_y: f64, max_h: f64) {
    for (x, bw, bar) in &scene.bars {
        if bar.present == 0 {
            // deleted below the log start: a hatched ghost
            c.set_stroke_style_str(p.grid);
            c.set_line_width(1.0);
            c.begin_path();
            c.move_to(*x, base_y);
            c.line_to(x + bw, base_y - 8.0);
            c.stroke();
            continue;
        }
        let share = bar.present as f64 / (bar.end - bar.first).max(1) as f64;
        let bh = (max_h * share).max(2.0);
        c.set_fill_style_str(class_colour(p, bar.class));
        let gap = if *bw > 4.0 { 1.0 } else { 0.0 };
        c.fill_rect(*x, base_y - bh, (bw - gap).max(1.0), bh);
        if bar.class == Some(AgeClass::Future) {
            // a pattern as well as a colour: a bright cap marks future stamps
            c.set_fill_style_str(p.fg);
            c.fill_rect(*x, base_y - bh - 4.0, (bw - gap).max(1.0), 3.0);
        }
    }
}

/// The font of the density view's labels.
const LABEL_FONT: &str = "11px system-ui, sans-serif";

/// An OffscreenCanvas and its 2D context.
type Strip = (OffscreenCanvas, OffscreenCanvasRenderingContext2d);

thread_local! {
    /// The strip the density view's labels are drawn on, shared by every explorer on the page
    /// (drawing is synchronous): `None` until first used, `Some(None)` where none can be made,
    /// so that a browser without OffscreenCanvas is asked once, not every frame.
    static STRIP: std::cell::RefCell<Option<Option<Strip>>> = const { std::cell::RefCell::new(None) };
}

/// Draws the density view's segment labels (`(text, x)`, baseline 12 px) in the band of height
/// `band` at the top of the canvas.
///
/// They are drawn on an OffscreenCanvas and copied with one `drawImage`. Chromium brings the
/// page's styles up to date before a `fillText` on a canvas that is in the page, and after a
/// step's DOM updates that cost the first label of every frame 0.8–3 ms while a 10M-record
/// partition played at 64× (on 2 cores, about a fifth of the explorer's own work a frame); an
/// offscreen canvas has no element and no styles to update. Where there is none (Firefox before
/// 105), or it cannot be made, the labels go straight onto the canvas.
fn label_strip(
    c: &CanvasRenderingContext2d,
    p: &Theme,
    (w, band): (f64, f64),
    labels: &[(String, f64)],
) {
    if labels.is_empty() {
        return;
    }
    let dpr = device_pixel_ratio();
    let (bw, bh) = (
        (w * dpr).round().max(1.0) as u32,
        (band * dpr).round().max(1.0) as u32,
    );
    let drawn = STRIP.with(|strip| {
        let mut strip = strip.borrow_mut();
        let made = strip.get_or_insert_with(|| {
            let o = OffscreenCanvas::new(bw, bh).ok()?;
            let ctx = o
                .get_context("2d")
                .ok()??
                .dyn_into::<OffscreenCanvasRenderingContext2d>()
                .ok()?;
            Some((o, ctx))
        });
        let Some((o, oc)) = made.as_ref() else {
            return false;
        };
        // Resizing clears the strip and resets its context, font and transform included.
        if o.width() != bw || o.height() != bh {
            o.set_width(bw);
            o.set_height(bh);
        }
        let _ = oc.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        oc.clear_rect(0.0, 0.0, w, band);
        if oc.font() != LABEL_FONT {
            oc.set_font(LABEL_FONT);
        }
        oc.set_fill_style_str(p.fg);
        for (text, x) in labels {
            let _ = oc.fill_text(text, *x, 12.0);
        }
        c.draw_image_with_offscreen_canvas_and_dw_and_dh(o, 0.0, 0.0, w, band)
            .is_ok()
    });
    if !drawn {
        font(c, LABEL_FONT);
        c.set_fill_style_str(p.fg);
        for (text, x) in labels {
            let _ = c.fill_text(text, *x, 12.0);
        }
    }
}

mod charts;

pub use charts::{chart_note, disk_chart, timestamp_chart, Stamps};
