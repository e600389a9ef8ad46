//! The partition view's window onto the offset axis: zoom about a point, pan, clamp, and the
//! pixel ↔ offset mapping. All in `f64` offsets so zooming is smooth.

/// Fewest offsets a view may span (fully zoomed in).
pub const MIN_SPAN: f64 = 6.0;

/// A window `[start, start + span)` onto the offsets `[lo, hi)` of the log.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// First visible offset.
    pub start: f64,
    /// Visible offsets.
    pub span: f64,
    /// Keep the log end in view as records arrive (set by fitting, cleared by zoom/pan).
    pub follow: bool,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport {
            start: 0.0,
            span: MIN_SPAN,
            follow: true,
        }
    }
}

impl Viewport {
    /// The whole log `[lo, hi)`.
    pub fn fit(lo: i64, hi: i64) -> Viewport {
        let span = ((hi - lo) as f64).max(MIN_SPAN);
        Viewport {
            start: lo as f64,
            span,
            follow: true,
        }
    }

    /// A window on offsets `first..=last` of the log `[lo, hi)`, with a few records either side
    /// (a lesson's step pointing at records brings them into view as tiles).
    pub fn focus(first: i64, last: i64, lo: i64, hi: i64) -> Viewport {
        let (first, last) = (first.min(last), first.max(last));
        let pad = 4.0;
        let span = ((last - first + 1) as f64 + 2.0 * pad).max(MIN_SPAN);
        Viewport {
            start: first as f64 - pad,
            span,
            follow: false,
        }
        .clamped(lo, hi)
    }

    /// Keeps the window inside `[lo, hi)`; a following view refits.
    pub fn clamped(self, lo: i64, hi: i64) -> Viewport {
        if self.follow {
            return Viewport::fit(lo, hi);
        }
        let total = ((hi - lo) as f64).max(MIN_SPAN);
        let span = super::clamp(self.span, MIN_SPAN.min(total), total);
        let start = super::clamp(
            self.start,
            lo as f64,
            (lo as f64 + total - span).max(lo as f64),
        );
        Viewport {
            start,
            span,
            follow: false,
        }
    }

    /// Zooms by `factor` (< 1 zooms in) keeping the offset under `anchor` (0..1 of the width)
    /// where it is.
    pub fn zoom(self, factor: f64, anchor: f64, lo: i64, hi: i64) -> Viewport {
        let anchor = super::clamp(anchor, 0.0, 1.0);
        let at = self.start + self.span * anchor;
        let span = self.span * factor;
        let v = Viewport {
            start: at - span * anchor,
            span,
            follow: false,
        };
        let v = v.clamped(lo, hi);
        // Zooming out to the whole log resumes following.
        if v.span >= (hi - lo) as f64 {
            Viewport::fit(lo, hi)
        } else {
            v
        }
    }

    /// Pans by `fraction` of the visible span (negative = towards older offsets).
    pub fn pan(self, fraction: f64, lo: i64, hi: i64) -> Viewport {
        let v = Viewport {
            start: self.start + self.span * fraction,
            span: self.span,
            follow: false,
        };
        v.clamped(lo, hi)
    }

    /// The integer offsets at least partly visible: `[first, end)`.
    pub fn visible(&self) -> (i64, i64) {
        (
            self.start.floor() as i64,
            (self.start + self.span).ceil() as i64,
        )
    }

    /// Pixel x of an offset's left edge in a view `width` px wide.
    pub fn x_of(&self, offset: f64, width: f64) -> f64 {
        (offset - self.start) / self.span * width
    }

    /// The offset under pixel `x`.
    pub fn offset_at(&self, x: f64, width: f64) -> f64 {
        self.start + x / width * self.span
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_and_clamp() {
        let v = Viewport::fit(100, 1100);
        assert_eq!(v.visible(), (100, 1100));
        assert!(v.follow);
        // a following view refits as the log grows
        assert_eq!(v.clamped(100, 2000).visible(), (100, 2000));
        // tiny logs still span MIN_SPAN
        assert_eq!(Viewport::fit(0, 2).span, MIN_SPAN);
    }

    #[test]
    fn zoom_keeps_anchor() {
        let v = Viewport::fit(0, 1000);
        let z = v.zoom(0.5, 0.5, 0, 1000);
        assert_eq!(z.span, 500.0);
        assert_eq!(z.start, 250.0);
        assert!(!z.follow);
        // anchor at the left edge keeps offset 250 at x = 0
        let z2 = z.zoom(0.5, 0.0, 0, 1000);
        assert_eq!(z2.start, 250.0);
        assert_eq!(z2.span, 250.0);
        // cannot zoom below MIN_SPAN
        let mut t = z2;
        for _ in 0..40 {
            t = t.zoom(0.5, 0.3, 0, 1000);
        }
        assert_eq!(t.span, MIN_SPAN);
        // zooming all the way out resumes following
        let out = z.zoom(4.0, 0.5, 0, 1000);
        assert!(out.follow);
        assert_eq!(out.visible(), (0, 1000));
    }

    #[test]
    fn pan_is_clamped() {
        let v = Viewport::fit(0, 1_000_000).zoom(0.001, 0.5, 0, 1_000_000);
        assert_eq!(v.span, 1000.0);
        let left = v.pan(-1e6, 0, 1_000_000);
        assert_eq!(left.start, 0.0);
        let right = v.pan(1e6, 0, 1_000_000);
        assert_eq!(right.start, 999_000.0);
        let step = left.pan(0.5, 0, 1_000_000);
        assert_eq!(step.start, 500.0);
    }

    #[test]
    fn pixel_mapping_roundtrips() {
        let v = Viewport {
            start: 100.0,
            span: 50.0,
            follow: false,
        };
        assert_eq!(v.x_of(125.0, 200.0), 100.0);
        assert_eq!(v.offset_at(100.0, 200.0), 125.0);
    }
}
