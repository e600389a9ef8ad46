//! What the partition canvas shows, as plain data: density bars placed in pixels, segment
//! boundaries, the active segment, the log start and lookup highlights. Built from the
//! visible range only (O(pixels)); `draw.rs` paints it.

use super::density::{self, Bar};
use super::marks::MarkKind;
use super::viewport::Viewport;
use logtime_core::{Offset, Timestamp};

/// A segment boundary in the canvas.
#[derive(Clone, Debug, PartialEq)]
pub struct Boundary {
    /// x of the segment's base offset.
    pub x: f64,
    /// Base offset (labelled when there is room).
    pub base: Offset,
    /// The active segment starts here.
    pub active: bool,
    /// Retention pins this segment (future largest timestamp).
    pub pinned: bool,
}

/// The canvas content.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// Canvas width in CSS px.
    pub width: f64,
    /// Canvas height in CSS px.
    pub height: f64,
    /// Bars with their x and width.
    pub bars: Vec<(f64, f64, Bar)>,
    /// Segment boundaries in view (thinned when too dense to tell apart).
    pub boundaries: Vec<Boundary>,
    /// x of the log start offset when in view.
    pub log_start_x: Option<f64>,
    /// Highlighted records `(x, w, kind)`.
    pub marks: Vec<(f64, f64, MarkKind)>,
}

/// Inputs for [`build`].
pub struct SceneInput<'a> {
    /// The window onto the offsets.
    pub viewport: Viewport,
    /// Canvas width in CSS px.
    pub width: f64,
    /// Canvas height in CSS px.
    pub height: f64,
    /// The broker clock.
    pub now: Timestamp,
    /// `retention.ms` (negative: no limit), for the age classes.
    pub retention_ms: i64,
    /// The log start offset.
    pub log_start: Offset,
    /// The log end offset.
    pub log_end: Offset,
    /// Base offsets of all segments, ascending (the last is active).
    pub bases: &'a [Offset],
    /// Segments retention pins.
    pub pinned: &'a [Offset],
    /// The stamp of the record at an offset, if one is stored there.
    pub ts_at: &'a dyn Fn(Offset) -> Option<Timestamp>,
    /// Records to mark.
    pub marks: &'a [(Offset, MarkKind)],
}

/// Px per bar at least.
pub const BAR_PX: f64 = 3.0;

/// Builds the scene for the visible range.
pub fn build(inp: &SceneInput<'_>) -> Scene {
    let vp = inp.viewport;
    let (a, b) = vp.visible();
    let a = a.max(inp.bases.first().map_or(0, |o| o.0));
    let b = b.min(inp.log_end.0);
    let max_bars = (inp.width / BAR_PX).floor().max(1.0) as usize;
    let raw = density::bars(a, b, max_bars, inp.now.0, inp.retention_ms, &|o| {
        if o < inp.log_start.0 {
            None
        } else {
            (inp.ts_at)(Offset(o)).map(|t| t.0)
        }
    });
    let bars = raw
        .into_iter()
        .map(|bar| {
            let x0 = vp.x_of(bar.first as f64, inp.width);
            let x1 = vp.x_of(bar.end as f64, inp.width);
            (x0, (x1 - x0).max(1.0), bar)
        })
        .collect();
    // segments in view: binary search, then thin out to one per BAR_PX
    let first = inp.bases.partition_point(|base| (base.0 as f64) < vp.start);
    let last = inp
        .bases
        .partition_point(|base| (base.0 as f64) <= vp.start + vp.span);
    let in_view = &inp.bases[first..last];
    let stride = ((in_view.len() as f64 * BAR_PX / inp.width).ceil() as usize).max(1);
    let active_base = inp.bases.last().copied();
    let mut boundaries = Vec::new();
    for (i, &base) in in_view.iter().enumerate() {
        let is_active = Some(base) == active_base;
        let pinned = inp.pinned.contains(&base);
        if i % stride == 0 || is_active || pinned {
            boundaries.push(Boundary {
                x: vp.x_of(base.0 as f64, inp.width),
                base,
                active: is_active,
                pinned,
            });
        }
    }
    let log_start_x = {
        let x = vp.x_of(inp.log_start.0 as f64, inp.width);
        (0.0..=inp.width).contains(&x).then_some(x)
    };
    let unit = (inp.width / vp.span).max(1.0);
    let marks = inp
        .marks
        .iter()
        .filter(|(o, _)| (o.0 as f64) >= vp.start - 1.0 && (o.0 as f64) <= vp.start + vp.span)
        .map(|(o, k)| (vp.x_of(o.0 as f64, inp.width), unit, *k))
        .collect();
    Scene {
        width: inp.width,
        height: inp.height,
        bars,
        boundaries,
        log_start_x,
        marks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(
        vp: Viewport,
        bases: &'a [Offset],
        f: &'a dyn Fn(Offset) -> Option<Timestamp>,
    ) -> SceneInput<'a> {
        SceneInput {
            viewport: vp,
            width: 600.0,
            height: 120.0,
            now: Timestamp(0),
            retention_ms: -1,
            log_start: Offset(0),
            log_end: Offset(1_000_000),
            bases,
            pinned: &[],
            ts_at: f,
            marks: &[],
        }
    }

    #[test]
    fn a_million_records_make_at_most_one_bar_per_three_px() {
        let bases: Vec<Offset> = (0..2000).map(|i| Offset(i * 500)).collect();
        let f = |o: Offset| Some(Timestamp(o.0));
        let s = build(&input(Viewport::fit(0, 1_000_000), &bases, &f));
        assert_eq!(s.bars.len(), 200);
        // 2000 segments in 600 px: thinned to one boundary per 3 px, plus the active one
        assert!(s.boundaries.len() <= 201, "{}", s.boundaries.len());
        assert!(s.boundaries.iter().any(|b| b.active));
        assert_eq!(s.log_start_x, Some(0.0));
    }

    #[test]
    fn zoomed_in_shows_single_records_and_marks() {
        let bases = [Offset(0), Offset(100), Offset(200)];
        let f = |o: Offset| Some(Timestamp(o.0));
        let vp = Viewport {
            start: 95.0,
            span: 10.0,
            follow: false,
        };
        let mut inp = input(vp, &bases, &f);
        inp.log_end = Offset(300);
        let marks = [
            (Offset(100), MarkKind::Answer),
            (Offset(5000), MarkKind::Scan),
        ];
        inp.marks = &marks;
        let s = build(&inp);
        assert_eq!(s.bars.len(), 10);
        assert_eq!(s.bars[0].2.first, 95);
        assert_eq!(s.boundaries.len(), 1);
        assert_eq!(s.boundaries[0].base, Offset(100));
        assert_eq!(s.boundaries[0].x, 300.0);
        assert_eq!(s.marks, vec![(300.0, 60.0, MarkKind::Answer)]);
        assert_eq!(s.log_start_x, None);
    }
}
