//! Plain, natively tested maths for the explorer: formatting, the partition viewport (zoom and
//! pan), aggregation of records into density bars and the canvas scene, the lookup's marks, the
//! charts' samples (and the stamps they read), the playback timeline and building a producer's
//! batch. No Kafka logic lives here: every Kafka number comes from `logtime-core` events,
//! verdicts and traces.

pub mod chart;
pub mod disk;
pub mod import;
pub mod producer;
pub mod scene;
pub mod stamps;
pub mod timeline;
pub mod viewport;

// The view model the explorer shares with `logtime render` (one reading of the numbers, one
// set of marks, one link codec), re-exported under the names the explorer always used.
pub use logtime_render::link as moment;
pub use logtime_render::{density, format, marks};

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

/// The order that sorts `keys` stably: the indices of `keys` from the smallest key, equal keys
/// in their first order. Every list the explorer orders goes through this one sort: each
/// `sort_by_key` with its own closure or element type is its own copy of the sort (3–4 KB) in
/// the wasm.
pub fn stable_order(keys: impl Iterator<Item = (i64, i64)>) -> Vec<usize> {
    let mut k: Vec<(i64, i64, usize)> = keys.enumerate().map(|(i, (a, b))| (a, b, i)).collect();
    // The index breaks ties, so the unstable sort gives the stable order.
    k.sort_unstable();
    k.into_iter().map(|(_, _, i)| i).collect()
}

/// `v` reordered by `order` (a permutation of its indices, as [`stable_order`] gives).
pub fn reorder<T>(v: Vec<T>, order: &[usize]) -> Vec<T> {
    let mut slots: Vec<Option<T>> = v.into_iter().map(Some).collect();
    order
        .iter()
        .filter_map(|&i| slots.get_mut(i)?.take())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn stable_order_is_a_stable_sort_by_key() {
        let keys = [(3, 1), (1, 9), (3, 0), (1, 9), (-2, 5), (3, 1)];
        let mut want: Vec<usize> = (0..keys.len()).collect();
        want.sort_by_key(|&i| keys[i]);
        let order = super::stable_order(keys.iter().copied());
        assert_eq!(order, want);
        let words = vec!["c1", "a9", "c0", "a9'", "z5", "c1'"];
        assert_eq!(
            super::reorder(words, &order),
            ["z5", "a9", "a9'", "c0", "c1", "c1'"]
        );
    }

    #[test]
    fn clamp_is_f64_clamp_for_ordered_bounds() {
        for v in [-1.5, 0.0, 0.25, 1.0, 7.0, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(super::clamp(v, 0.0, 1.0), v.clamp(0.0, 1.0));
        }
        assert!(super::clamp(f64::NAN, 0.0, 1.0).is_nan());
        assert_eq!(super::clamp(5.0, 2.0, 1.0), 1.0);
    }
}
