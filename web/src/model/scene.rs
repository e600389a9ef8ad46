//! What the partition canvas shows, as plain data: density bars placed in pixels, segment
//! boundaries, the active segment, the log start and lookup highlights. Built from the
//! visible range only (O(pixels)); `draw.rs` paints it.

use super::density::{self, Bar};
use super::marks::MarkKind;
use super::viewport::Viewport;
use logtime_model::{Offset, Timestamp};

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
    /// The base offset of the `i`-th segment, ascending in `i` (read only for the segments in
    /// view, thinned, so a million segments cost what a thousand do).
    pub base_at: &'a dyn Fn(usize) -> Offset,
    /// How many segments there are (the last is active).
    pub segments: usize,
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
    let n = inp.segments;
    let a = if n == 0 { a } else { a.max((inp.base_at)(0).0) };
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
    // segments in view: binary search, then every stride-th one (one per BAR_PX), the active
    // one and the pinned ones
    let base = |i: usize| (inp.base_at)(i).0 as f64;
    let first = lower_bound(n, |i| base(i) < vp.start);
    let last = lower_bound(n, |i| base(i) <= vp.start + vp.span);
    let stride = (((last - first) as f64 * BAR_PX / inp.width).ceil() as usize).max(1);
    let boundary = |i: usize| {
        let base = (inp.base_at)(i);
        Boundary {
            x: vp.x_of(base.0 as f64, inp.width),
            base,
            active: i + 1 == n,
            pinned: inp.pinned.contains(&base),
        }
    };
    let mut boundaries: Vec<Boundary> = (first..last)
        .step_by(stride)
        .chain((first < last && last == n).then(|| n - 1))
        .map(boundary)
        .collect();
    for &p in inp.pinned {
        let i = lower_bound(n, |i| (inp.base_at)(i) < p);
        if (first..last).contains(&i) && (inp.base_at)(i) == p {
            boundaries.push(boundary(i));
        }
    }
    let order = super::stable_order(boundaries.iter().map(|b| (b.base.0, 0)));
    let mut boundaries = super::reorder(boundaries, &order);
    boundaries.dedup_by(|a, b| a.base == b.base);
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

/// The first `i` in `0..n` for which `before(i)` is false (`before` is true, then false).
fn lower_bound(n: usize, before: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if before(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(
        vp: Viewport,
        bases: &'a dyn Fn(usize) -> Offset,
        segments: usize,
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
            base_at: bases,
            segments,
            pinned: &[],
            ts_at: f,
            marks: &[],
        }
    }

    #[test]
    fn a_million_records_make_at_most_one_bar_per_three_px() {
        let bases = |i: usize| Offset(i as i64 * 500);
        let f = |o: Offset| Some(Timestamp(o.0));
        let s = build(&input(Viewport::fit(0, 1_000_000), &bases, 2000, &f));
        assert_eq!(s.bars.len(), 200);
        // 2000 segments in 600 px: thinned to one boundary per 3 px, plus the active one
        assert!(s.boundaries.len() <= 201, "{}", s.boundaries.len());
        assert!(s.boundaries.iter().any(|b| b.active));
        assert_eq!(s.log_start_x, Some(0.0));
    }

    #[test]
    fn a_million_segments_cost_what_the_pixels_do() {
        let reads = std::cell::Cell::new(0usize);
        let bases = |i: usize| {
            reads.set(reads.get() + 1);
            Offset(i as i64)
        };
        let f = |o: Offset| Some(Timestamp(o.0));
        let mut inp = input(Viewport::fit(0, 1_000_000), &bases, 1_000_000, &f);
        let pinned = [Offset(123_457)];
        inp.pinned = &pinned;
        let s = build(&inp);
        assert!(s.boundaries.len() <= 203, "{}", s.boundaries.len());
        assert!(s.boundaries.windows(2).all(|w| w[0].base < w[1].base));
        assert!(s.boundaries.iter().any(|b| b.pinned && b.base == pinned[0]));
        assert_eq!(
            s.boundaries.last().map(|b| (b.base, b.active)),
            Some((Offset(999_999), true))
        );
        assert!(reads.get() < 2_000, "{} segment bases read", reads.get());
    }

    #[test]
    fn zoomed_in_shows_single_records_and_marks() {
        let bases = |i: usize| Offset(i as i64 * 100);
        let f = |o: Offset| Some(Timestamp(o.0));
        let vp = Viewport {
            start: 95.0,
            span: 10.0,
            follow: false,
        };
        let mut inp = input(vp, &bases, 3, &f);
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
