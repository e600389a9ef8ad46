//! The disk chart's samples: partition size over broker time, bounded in number.

/// Samples kept (older ones are thinned out).
pub const DISK_SAMPLES: usize = 600;

/// Appends a sample unless it repeats the last one; beyond [`DISK_SAMPLES`], every other sample
/// of the older half is dropped, so recent history stays dense and old history stays visible.
pub fn push<T: Copy + PartialEq>(samples: &mut Vec<T>, point: T) {
    if samples.last() == Some(&point) {
        return;
    }
    samples.push(point);
    if samples.len() > DISK_SAMPLES {
        let half = samples.len() / 2;
        let older: Vec<T> = samples[..half].iter().copied().step_by(2).collect();
        samples.splice(..half, older);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_stay_bounded_and_ordered() {
        let mut s = Vec::new();
        push(&mut s, 1);
        push(&mut s, 1);
        assert_eq!(s, vec![1]);
        for i in 2..5000 {
            push(&mut s, i);
        }
        assert!(s.len() <= DISK_SAMPLES);
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(s.first(), Some(&1));
        assert_eq!(s.last(), Some(&4999));
    }
}
