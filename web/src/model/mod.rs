//! Plain, natively tested maths for the explorer: formatting, the partition viewport (zoom and
//! pan), aggregation of records into density bars and the canvas scene, the lookup's marks, the
//! charts' samples, the playback timeline and building a producer's batch. No Kafka logic lives
//! here: every Kafka number comes from `logtime-core` events, verdicts and traces.

pub mod chart;
pub mod density;
pub mod disk;
pub mod format;
pub mod import;
pub mod marks;
pub mod moment;
pub mod producer;
pub mod progress;
pub mod scene;
pub mod stream_lane;
pub mod timeline;
pub mod viewport;

/// `v` limited to `[lo, hi]`, like `f64::clamp` for `lo <= hi` (NaN stays NaN), but without
/// `f64::clamp`'s assertion: its message formats the bounds with `{:?}`, which links the whole
/// float formatting machinery (dragon4, grisu and their tables) into the wasm. Bounds out of
/// order give `hi` instead of a panic.
pub fn clamp(v: f64, lo: f64, hi: f64) -> f64 {
    if v > hi {
        hi
    } else if v < lo {
        lo
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clamp_is_f64_clamp_for_ordered_bounds() {
        for v in [-1.5, 0.0, 0.25, 1.0, 7.0, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(super::clamp(v, 0.0, 1.0), v.clamp(0.0, 1.0));
        }
        assert!(super::clamp(f64::NAN, 0.0, 1.0).is_nan());
        assert_eq!(super::clamp(5.0, 2.0, 1.0), 1.0);
    }
}
