//! The two charts: axes, points and lines on a Canvas 2D, no charting library.

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
    /// Every stamp a dot: none is marked as ahead of the clock.
    pub neutral: bool,
}

/// The offsets and stamps the chart spans: the points', and the lookup's target.
fn extent(points: &[(Offset, Timestamp)], target: Option<Timestamp>) -> (i64, i64, i64, i64) {
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
    (x0, x1, y0, y1)
}

/// The stamps: dots up to `now`, triangles past it. One path per shape, so thousands of
/// points are two fills; a dot on the pixel of the one before it adds nothing (a steady
/// stream of stamps is a line of them).
fn stamp_points(
    c: &CanvasRenderingContext2d,
    p: &Theme,
    plot: &Plot,
    points: &[(Offset, Timestamp)],
    now: Timestamp,
) {
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
}

/// Timestamp against offset: every point sampled, future stamps as triangles, the lookup
/// target as a horizontal line and the answer as a vertical line.
pub fn timestamp_chart(canvas: &HtmlCanvasElement, size: (f64, f64), s: &Stamps<'_>, dark: bool) {
    let Stamps {
        points,
        nothing,
        now,
        target,
        answer,
        neutral,
    } = *s;
    let Some((c, p, w, h)) = open(canvas, size, dark) else {
        return;
    };
    if points.is_empty() {
        return empty(&c, &p, w, h, nothing);
    }
    let (x0, x1, y0, y1) = extent(points, target);
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
    // Neutral: a clock no stamp is after, so every stamp is a dot.
    let now = if neutral { Timestamp(i64::MAX) } else { now };
    stamp_points(&c, &p, &plot, points, now);
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
