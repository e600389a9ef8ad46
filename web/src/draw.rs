//! All canvas drawing, in one place: the partition's density view (plain Canvas 2D, O(bars))
//! and the two charts (plotters on a canvas). Components call it from
//! [`crate::components::use_canvas`], which draws only in the browser.

use logtime_core::{Bytes, Offset, Timestamp};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::model::format::{self, AgeClass};
use crate::model::marks::MarkKind;
use crate::model::scene::Scene;

/// Colours per theme, matching the tokens in static/style.css.
struct Theme {
    bg: &'static str,
    fg: &'static str,
    muted: &'static str,
    grid: &'static str,
    accent: &'static str,
    danger: &'static str,
    warning: &'static str,
    fresh: &'static str,
    ageing: &'static str,
    expired: &'static str,
    future: &'static str,
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

/// Sizes the canvas backing store to its CSS size × devicePixelRatio; returns the CSS size and
/// the ratio. Every drawing starts here.
fn fit(canvas: &HtmlCanvasElement) -> (f64, f64, f64) {
    let dpr = web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .unwrap_or(1.0)
        .max(1.0);
    let (w, h) = css_size(canvas);
    let (bw, bh) = ((w * dpr).round() as u32, (h * dpr).round() as u32);
    if canvas.width() != bw {
        canvas.set_width(bw);
    }
    if canvas.height() != bh {
        canvas.set_height(bh);
    }
    (w, h, dpr)
}

/// CSS size of a canvas, for building a scene before drawing.
pub fn css_size(canvas: &HtmlCanvasElement) -> (f64, f64) {
    (
        canvas.client_width().max(1) as f64,
        canvas.client_height().max(1) as f64,
    )
}

fn ctx(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()??
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()
}

/// Paints the partition's density view. Work is O(bars + boundaries + marks).
pub fn partition(canvas: &HtmlCanvasElement, scene: &Scene, dark: bool) {
    let (w, h, dpr) = fit(canvas);
    let Some(c) = ctx(canvas) else { return };
    let p = theme(dark);
    let _ = c.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    c.set_fill_style_str(p.bg);
    c.fill_rect(0.0, 0.0, w, h);
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
    // segment boundaries
    c.set_font("11px system-ui, sans-serif");
    let mut last_label = f64::NEG_INFINITY;
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
        if b.x - last_label > 70.0 || b.active || b.pinned {
            c.set_fill_style_str(p.fg);
            let label = if b.active {
                format!("▶ {} active", format::count(b.base.0))
            } else if b.pinned {
                format!("⚓ {}", format::count(b.base.0))
            } else {
                format::count(b.base.0)
            };
            let _ = c.fill_text(&label, b.x + 3.0, 12.0);
            last_label = b.x;
        }
    }
    if let Some(x) = scene.log_start_x {
        c.set_stroke_style_str(p.danger);
        c.set_line_width(2.0);
        c.begin_path();
        c.move_to(x, 0.0);
        c.line_to(x, h);
        c.stroke();
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

mod charts {
    use super::*;
    use plotters::prelude::*;
    use plotters_canvas::CanvasBackend;

    fn rgb(hex: &str) -> RGBColor {
        let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap_or(0);
        RGBColor((v >> 16) as u8, (v >> 8) as u8, v as u8)
    }

    type Root = DrawingArea<CanvasBackend, plotters::coord::Shift>;
    type Chart<'a> = ChartContext<
        'a,
        CanvasBackend,
        Cartesian2d<plotters::coord::types::RangedCoordi64, plotters::coord::types::RangedCoordi64>,
    >;

    /// The canvas sized to its box and cleared to the theme's background, with the theme, or
    /// `None` when it cannot be drawn on.
    fn open(canvas: &HtmlCanvasElement, dark: bool) -> Option<(Root, Theme)> {
        fit(canvas);
        let p = theme(dark);
        let root = CanvasBackend::with_canvas_object(canvas.clone())?.into_drawing_area();
        let _ = root.fill(&rgb(p.bg));
        Some((root, p))
    }

    /// One axis: its range, how many labels and how to print them.
    struct Axis<'f> {
        from: i64,
        to: i64,
        labels: usize,
        label: &'f dyn Fn(&i64) -> String,
    }

    impl<'f> Axis<'f> {
        fn new(from: i64, to: i64, labels: usize, label: &'f dyn Fn(&i64) -> String) -> Self {
            Axis {
                from,
                to,
                labels,
                label,
            }
        }
    }

    /// Both axes, and the width of the y label area in CSS pixels.
    struct Axes<'f> {
        x: Axis<'f>,
        y: Axis<'f>,
        y_label_width: f64,
    }

    /// Both charts' frame: margins, label areas and a themed mesh, scaled to the device pixel
    /// ratio. Returns the chart and the ratio.
    fn frame<'a>(root: &'a Root, p: &Theme, axes: Axes<'_>) -> Option<(Chart<'a>, f64)> {
        let dpr = web_sys::window()
            .map(|w| w.device_pixel_ratio())
            .unwrap_or(1.0);
        let font = (12.0 * dpr) as u32;
        let mut chart = ChartBuilder::on(root)
            .margin((8.0 * dpr) as u32)
            .x_label_area_size((24.0 * dpr) as u32)
            .y_label_area_size((axes.y_label_width * dpr) as u32)
            .build_cartesian_2d(axes.x.from..axes.x.to, axes.y.from..axes.y.to)
            .ok()?;
        let fg = rgb(p.fg);
        let _ = chart
            .configure_mesh()
            .light_line_style(rgb(p.grid))
            .bold_line_style(rgb(p.grid))
            .axis_style(rgb(p.muted))
            .label_style((FontFamily::SansSerif, font).into_font().color(&fg))
            .x_labels(axes.x.labels)
            .y_labels(axes.y.labels)
            .x_label_formatter(axes.x.label)
            .y_label_formatter(axes.y.label)
            .draw();
        Some((chart, dpr))
    }

    /// Timestamp against offset: every point sampled, future stamps as triangles, the lookup
    /// target as a dashed line and the answer as a vertical line.
    pub fn timestamp_chart(
        canvas: &HtmlCanvasElement,
        points: &[(Offset, Timestamp)],
        now: Timestamp,
        target: Option<Timestamp>,
        answer: Option<Offset>,
        dark: bool,
    ) {
        let points: Vec<(i64, i64)> = points.iter().map(|(o, t)| (o.0, t.0)).collect();
        let (points, now) = (&points[..], now.0);
        let (target, answer) = (target.map(|t| t.0), answer.map(|a| a.0));
        let Some((root, p)) = open(canvas, dark).filter(|_| !points.is_empty()) else {
            return;
        };
        let (mut x0, mut x1) = (i64::MAX, i64::MIN);
        let (mut y0, mut y1) = (i64::MAX, i64::MIN);
        for &(o, t) in points {
            x0 = x0.min(o);
            x1 = x1.max(o);
            y0 = y0.min(t);
            y1 = y1.max(t);
        }
        if let Some(t) = target {
            y0 = y0.min(t);
            y1 = y1.max(t);
        }
        let pad = ((y1 - y0) / 20).max(1000);
        let (y0, y1) = (y0 - pad, y1 + pad);
        let x1 = x1.max(x0 + 1);
        let span = y1 - y0;
        let Some((mut chart, dpr)) = frame(
            &root,
            &p,
            Axes {
                x: Axis::new(x0, x1, 6, &|v| format::count(*v)),
                y: Axis::new(y0, y1, 5, &|v| format::axis_time(*v, span)),
                y_label_width: 112.0,
            },
        ) else {
            return;
        };
        let fresh = rgb(p.fresh);
        let future = rgb(p.future);
        let r = (2.0 * dpr) as i32;
        let _ = chart.draw_series(
            points
                .iter()
                .filter(|(_, t)| *t <= now)
                .map(|&(o, t)| Circle::new((o, t), r, fresh.filled())),
        );
        let _ = chart.draw_series(
            points
                .iter()
                .filter(|(_, t)| *t > now)
                .map(|&(o, t)| TriangleMarker::new((o, t), r * 3, future.filled())),
        );
        if let Some(t) = target {
            let accent = rgb(p.accent);
            let _ = chart.draw_series(LineSeries::new(
                vec![(x0, t), (x1, t)],
                accent.stroke_width((2.0 * dpr) as u32),
            ));
        }
        if let Some(a) = answer {
            let warn = rgb(p.warning);
            let _ = chart.draw_series(LineSeries::new(
                vec![(a, y0), (a, y1)],
                warn.stroke_width((2.0 * dpr) as u32),
            ));
        }
        let _ = root.present();
    }

    /// Disk usage over simulated time.
    pub fn disk_chart(canvas: &HtmlCanvasElement, points: &[(Timestamp, Bytes)], dark: bool) {
        let points: Vec<(i64, i64)> = points.iter().map(|(t, b)| (t.0, b.0)).collect();
        let points = &points[..];
        let Some((root, p)) = open(canvas, dark).filter(|_| points.len() >= 2) else {
            return;
        };
        let x0 = points.first().map(|p| p.0).unwrap_or(0);
        let x1 = points.last().map(|p| p.0).unwrap_or(1).max(x0 + 1);
        let y1 = points.iter().map(|p| p.1).max().unwrap_or(1).max(1);
        let Some((mut chart, dpr)) = frame(
            &root,
            &p,
            Axes {
                x: Axis::new(x0, x1, 4, &|v| format::axis_time(*v, x1 - x0)),
                y: Axis::new(0, y1 + y1 / 10, 4, &|v| logtime_core::human::bytes(*v)),
                y_label_width: 64.0,
            },
        ) else {
            return;
        };
        let accent = rgb(p.accent);
        let _ = chart.draw_series(LineSeries::new(
            points.iter().copied(),
            accent.stroke_width((2.0 * dpr) as u32),
        ));
        let _ = root.present();
    }
}

pub use charts::{disk_chart, timestamp_chart};
