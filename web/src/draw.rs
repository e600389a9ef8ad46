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
    // bars: height = share of offsets still present; colour + hatch by class
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
        c.set_fill_style_str(class_colour(&p, bar.class));
        let gap = if *bw > 4.0 { 1.0 } else { 0.0 };
        c.fill_rect(*x, base_y - bh, (bw - gap).max(1.0), bh);
        if bar.class == Some(AgeClass::Future) {
            // a pattern as well as a colour: a bright cap marks future stamps
            c.set_fill_style_str(p.fg);
            c.fill_rect(*x, base_y - bh - 4.0, (bw - gap).max(1.0), 3.0);
        }
    }
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

mod charts {
    use super::*;
    use crate::model::chart::{share, ticks, time_ticks};

    const MARGIN: f64 = 8.0;
    const X_LABELS_HEIGHT: f64 = 24.0;
    const FONT: &str = "12px system-ui, sans-serif";
    /// Room between the plot's left and right edges and the first and last offsets or times, so
    /// that a dot on either is drawn whole rather than cut in half by the edge.
    const INSET: f64 = 6.0;

    /// One axis: its range, how many labels at most, how to place its ticks (values and step
    /// for at most so many intervals) and how to print a tick (its value and the step).
    struct Axis<'f> {
        from: i64,
        to: i64,
        labels: usize,
        ticks: fn(i64, i64, usize) -> (Vec<i64>, i64),
        label: &'f dyn Fn(i64, i64) -> String,
    }

    /// The plot area inside the margins and label areas, and the data ranges it shows.
    struct Plot {
        left: f64,
        top: f64,
        right: f64,
        bottom: f64,
        x: (i64, i64),
        y: (i64, i64),
    }

    impl Plot {
        fn x(&self, v: i64) -> f64 {
            let width = (self.right - self.left - 2.0 * INSET).max(0.0);
            self.left + INSET + share(v, self.x.0, self.x.1) * width
        }
        fn y(&self, v: i64) -> f64 {
            self.bottom - share(v, self.y.0, self.y.1) * (self.bottom - self.top)
        }
        /// Limits what is drawn next to the plot area (until `ctx.restore()`).
        fn clip(&self, c: &CanvasRenderingContext2d) {
            c.save();
            c.begin_path();
            c.rect(
                self.left,
                self.top,
                self.right - self.left,
                self.bottom - self.top,
            );
            c.clip();
        }
    }

    /// A chart with nothing to plot says so, rather than keeping the plot of an earlier moment.
    fn empty(c: &CanvasRenderingContext2d, p: &Theme, w: f64, h: f64, text: &str) {
        font(c, FONT);
        c.set_fill_style_str(p.muted);
        c.set_text_align("center");
        c.set_text_baseline("middle");
        let _ = c.fill_text(text, w / 2.0, h / 2.0);
    }

    /// A chart with no data behind it at all (no partition yet): only `text`, so that it does
    /// not keep the plot of the scenario before.
    pub fn chart_note(canvas: &HtmlCanvasElement, size: (f64, f64), text: &str, dark: bool) {
        if let Some((c, p, w, h)) = open(canvas, size, dark) {
            empty(&c, &p, w, h, text);
        }
    }

    /// Both charts' frame: grid lines and labels at round ticks, and the axes.
    fn frame(
        c: &CanvasRenderingContext2d,
        p: &Theme,
        w: f64,
        h: f64,
        x: Axis<'_>,
        y: Axis<'_>,
        y_labels_width: f64,
    ) -> Plot {
        let plot = Plot {
            left: MARGIN + y_labels_width,
            top: MARGIN,
            right: (w - MARGIN).max(MARGIN + y_labels_width + 1.0),
            bottom: (h - MARGIN - X_LABELS_HEIGHT).max(MARGIN + 1.0),
            x: (x.from, x.to),
            y: (y.from, y.to),
        };
        font(c, FONT);
        c.set_line_width(1.0);
        c.set_stroke_style_str(p.grid);
        c.set_fill_style_str(p.fg);
        c.begin_path();
        c.set_text_align("center");
        c.set_text_baseline("top");
        // As many x labels as fit side by side: "10,000,000" or a date takes room.
        let width = |text: &str| c.measure_text(text).map_or(0.0, |m| m.width());
        let x_labels = (1..=x.labels.max(1))
            .rev()
            .map(|n| {
                let (values, step) = (x.ticks)(x.from, x.to, n);
                let labels: Vec<String> = values.iter().map(|&v| (x.label)(v, step)).collect();
                (values, labels)
            })
            .find(|(values, labels)| {
                // The ticks are evenly spaced: the first two say how far apart. The gap leaves
                // room for the last label, moved left to stay inside the canvas.
                let widest = labels.iter().map(|l| width(l)).fold(0.0, f64::max);
                match values.as_slice() {
                    [a, b, ..] => plot.x(*b) - plot.x(*a) >= widest + 24.0,
                    _ => true,
                }
            })
            .unwrap_or_else(|| (vec![x.from], vec![(x.label)(x.from, 1)]));
        for (&v, label) in x_labels.0.iter().zip(&x_labels.1) {
            let px = plot.x(v).round() + 0.5;
            c.move_to(px, plot.top);
            c.line_to(px, plot.bottom);
            // Centred on its tick, but inside the canvas: the last tick is often at the plot's
            // right edge, where half of its label would be cut off.
            let half = width(label) / 2.0;
            let _ = c.fill_text(label, px.min(w - 1.0 - half).max(half), plot.bottom + 6.0);
        }
        c.set_text_align("right");
        c.set_text_baseline("middle");
        let (y_ticks, y_step) = (y.ticks)(y.from, y.to, y.labels);
        for v in y_ticks {
            let py = plot.y(v).round() + 0.5;
            c.move_to(plot.left, py);
            c.line_to(plot.right, py);
            let _ = c.fill_text(&(y.label)(v, y_step), plot.left - 6.0, py);
        }
        c.stroke();
        c.set_stroke_style_str(p.muted);
        c.begin_path();
        c.move_to(plot.left + 0.5, plot.top);
        c.line_to(plot.left + 0.5, plot.bottom + 0.5);
        c.line_to(plot.right, plot.bottom + 0.5);
        c.stroke();
        plot
    }

    /// What the timestamp chart shows.
    pub struct Stamps<'a> {
        /// The sampled records.
        pub points: &'a [(Offset, Timestamp)],
        /// What to say when there are no points.
        pub nothing: &'a str,
        /// The broker clock: points after it are stamps in the future.
        pub now: Timestamp,
        /// The latest lookup's T.
        pub target: Option<Timestamp>,
        /// The latest lookup's answer.
        pub answer: Option<Offset>,
    }

    /// Timestamp against offset: every point sampled, future stamps as triangles, the lookup
    /// target as a horizontal line and the answer as a vertical line.
    pub fn timestamp_chart(
        canvas: &HtmlCanvasElement,
        size: (f64, f64),
        s: &Stamps<'_>,
        dark: bool,
    ) {
        let Stamps {
            points,
            nothing,
            now,
            target,
            answer,
        } = *s;
        let Some((c, p, w, h)) = open(canvas, size, dark) else {
            return;
        };
        if points.is_empty() {
            return empty(&c, &p, w, h, nothing);
        }
        let (mut x0, mut x1) = (i64::MAX, i64::MIN);
        let (mut y0, mut y1) = (i64::MAX, i64::MIN);
        for (o, t) in points {
            x0 = x0.min(o.0);
            x1 = x1.max(o.0);
            y0 = y0.min(t.0);
            y1 = y1.max(t.0);
        }
        if let Some(t) = target {
            y0 = y0.min(t.0);
            y1 = y1.max(t.0);
        }
        // At least 2.5 s either side, so that the stamps of one moment get whole-second ticks.
        let pad = (y1.saturating_sub(y0) / 20).max(2500);
        let (y0, y1) = (y0.saturating_sub(pad), y1.saturating_add(pad));
        let x1 = x1.max(x0.saturating_add(1));
        let span = y1.saturating_sub(y0);
        let plot = frame(
            &c,
            &p,
            w,
            h,
            Axis {
                from: x0,
                to: x1,
                labels: 6,
                ticks,
                label: &|v, _| format::count(v),
            },
            Axis {
                from: y0,
                to: y1,
                labels: 5,
                ticks: time_ticks,
                label: &|v, step| format::axis_time(v, span, step),
            },
            112.0,
        );
        plot.clip(&c);
        // One path per shape, so thousands of points are two fills; a dot on the pixel of the
        // one before it adds nothing (a steady stream of stamps is a line of them).
        c.set_fill_style_str(p.fresh);
        c.begin_path();
        let mut last = (f64::NAN, f64::NAN);
        for (o, t) in points.iter().filter(|(_, t)| *t <= now) {
            let (x, y) = (plot.x(o.0).round(), plot.y(t.0).round());
            if (x, y) != last {
                last = (x, y);
                c.move_to(x + 2.0, y);
                let _ = c.arc(x, y, 2.0, 0.0, std::f64::consts::TAU);
            }
        }
        c.fill();
        c.set_fill_style_str(p.future);
        c.begin_path();
        for (o, t) in points.iter().filter(|(_, t)| *t > now) {
            let (x, y) = (plot.x(o.0), plot.y(t.0));
            c.move_to(x, y - 6.0);
            c.line_to(x + 5.2, y + 3.0);
            c.line_to(x - 5.2, y + 3.0);
            c.close_path();
        }
        c.fill();
        if let Some(t) = target {
            let y = plot.y(t.0);
            line(&c, p.accent, (plot.left, y), (plot.right, y));
        }
        if let Some(a) = answer {
            let x = plot.x(a.0);
            line(&c, p.warning, (x, plot.top), (x, plot.bottom));
        }
        c.restore();
    }

    /// Disk usage over simulated time.
    pub fn disk_chart(
        canvas: &HtmlCanvasElement,
        size: (f64, f64),
        points: &[(Timestamp, Bytes)],
        dark: bool,
    ) {
        let Some((c, p, w, h)) = open(canvas, size, dark) else {
            return;
        };
        // The samples of a single moment are not a line yet.
        let (x0, x1) = points
            .iter()
            .fold((i64::MAX, i64::MIN), |(lo, hi), (t, _)| {
                (lo.min(t.0), hi.max(t.0))
            });
        if x1 <= x0 {
            return empty(&c, &p, w, h, "The size is plotted as broker time passes");
        }
        let y1 = points.iter().map(|p| p.1 .0).max().unwrap_or(1).max(1);
        let plot = frame(
            &c,
            &p,
            w,
            h,
            Axis {
                from: x0,
                to: x1,
                labels: 4,
                ticks: time_ticks,
                label: &|v, step| format::axis_time(v, x1 - x0, step),
            },
            Axis {
                from: 0,
                to: y1.saturating_add(y1 / 10),
                labels: 4,
                ticks,
                label: &|v, _| logtime_core::human::bytes(v),
            },
            64.0,
        );
        plot.clip(&c);
        c.set_stroke_style_str(p.accent);
        c.set_line_width(2.0);
        c.set_line_join("round");
        c.begin_path();
        for (i, (t, b)) in points.iter().enumerate() {
            let (x, y) = (plot.x(t.0), plot.y(b.0));
            if i == 0 {
                c.move_to(x, y);
            } else {
                c.line_to(x, y);
            }
        }
        c.stroke();
        c.restore();
    }
}

pub use charts::{chart_note, disk_chart, timestamp_chart, Stamps};
