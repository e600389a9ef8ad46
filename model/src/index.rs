//! The search shared by the offset index and the time index (`AbstractIndex`), with a record of
//! every entry it reads so the explorer can animate the binary search probe by probe.
//!
//! Kafka first compares the target with the first entry of the "warm" tail (the last
//! `8192 / entry_size` entries, which stay in the page cache), binary-searches that tail when the
//! target is past it, and otherwise checks slot 0 and binary-searches the cold head
//! (`AbstractIndex.java:485-538`). The probes recorded here are exactly the entries that search
//! reads, in order.

use crate::units::Offset;
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;

/// One index file (`AbstractIndex`): `(key, value)` entries of `ENTRY_SIZE` bytes each, keys
/// non-decreasing, at most `segment.index.bytes / ENTRY_SIZE` of them. Its two kinds are
/// [`crate::OffsetIndex`] (offset → position) and [`crate::TimeIndex`] (timestamp → offset),
/// which add their own append and lookup rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Index<K, V, const ENTRY_SIZE: usize> {
    base_offset: Offset,
    max_entries: usize,
    entries: Vec<(i64, i64)>,
    #[serde(skip)]
    kinds: PhantomData<fn() -> (K, V)>,
}

impl<K: From<i64>, V: From<i64>, const ENTRY_SIZE: usize> Index<K, V, ENTRY_SIZE> {
    /// An empty index for a segment at `base_offset` with `segment.index.bytes = index_bytes`.
    pub fn new(base_offset: Offset, index_bytes: i64) -> Self {
        Index {
            base_offset,
            max_entries: (index_bytes.max(0) as usize) / ENTRY_SIZE,
            entries: Vec::new(),
            kinds: PhantomData,
        }
    }

    /// The entries, oldest first, as `(key, value)`.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (K, V)> + '_ {
        self.entries.iter().map(|&(k, v)| (K::from(k), V::from(v)))
    }

    /// The entry in `slot`.
    pub fn entry(&self, slot: usize) -> (K, V) {
        let (k, v) = self.entries[slot];
        (K::from(k), V::from(v))
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the index has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `floor(segment.index.bytes / ENTRY_SIZE)`.
    pub fn max_entries(&self) -> usize {
        self.max_entries
    }

    /// The base offset of the segment the index belongs to.
    pub(crate) fn base_offset(&self) -> Offset {
        self.base_offset
    }

    /// The raw entries, oldest first.
    pub(crate) fn raw(&self) -> &[(i64, i64)] {
        &self.entries
    }

    /// Heap bytes the entries hold, reserved room included.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.entries.capacity() * size_of::<(i64, i64)>()
    }

    /// Reserves room for `entries` more entries.
    pub(crate) fn reserve(&mut self, entries: usize) {
        self.entries.reserve(entries);
    }

    /// Gives back reserved room (the segment stopped growing).
    pub(crate) fn shrink(&mut self) {
        self.entries.shrink_to_fit();
    }

    /// Appends a raw entry; the caller keeps the keys ordered and the capacity.
    pub(crate) fn push(&mut self, entry: (i64, i64)) {
        self.entries.push(entry);
    }

    /// The slot of the largest entry whose key is `<= target`: with `probes`, read the way
    /// Kafka reads it, each read recorded; without, by a plain binary search.
    pub(crate) fn search(&self, target: i64, probes: Option<&mut Vec<Probe>>) -> Option<usize> {
        match probes {
            Some(p) => largest_lower_bound(&self.entries, target, ENTRY_SIZE, Some(p)),
            None => largest_lower_bound_fast(&self.entries, target),
        }
    }
}

/// Why an entry was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProbePhase {
    /// The first entry of the warm tail, read to choose which part to search.
    WarmCheck,
    /// Slot 0, read to see whether any entry is at or below the target.
    FirstCheck,
    /// A midpoint of the binary search.
    Binary,
}

/// How an entry's key compares with the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Comparison {
    /// Key < target.
    Below,
    /// Key == target.
    Equal,
    /// Key > target.
    Above,
}

/// One entry read by an index search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probe {
    /// Slot number in the index.
    pub slot: u32,
    /// The entry's key (timestamp for the time index, offset for the offset index).
    pub key: i64,
    /// The entry's value (offset for the time index, position for the offset index).
    pub value: i64,
    /// Key against target.
    pub comparison: Comparison,
    /// Why it was read.
    pub phase: ProbePhase,
}

/// Finds the slot of the largest entry whose key is `<= target`, or `None`, reading entries the
/// way `AbstractIndex.largestLowerBoundSlotFor` does. `entries[i] = (key, value)`, keys
/// non-decreasing. Each read is pushed onto `probes` when given.
pub(crate) fn largest_lower_bound(
    entries: &[(i64, i64)],
    target: i64,
    entry_size: usize,
    mut probes: Option<&mut Vec<Probe>>,
) -> Option<usize> {
    let n = entries.len();
    if n == 0 {
        return None;
    }
    let mut read = |slot: usize, phase: ProbePhase| -> Comparison {
        let (key, value) = entries[slot];
        let comparison = match key.cmp(&target) {
            std::cmp::Ordering::Less => Comparison::Below,
            std::cmp::Ordering::Equal => Comparison::Equal,
            std::cmp::Ordering::Greater => Comparison::Above,
        };
        if let Some(p) = probes.as_deref_mut() {
            p.push(Probe {
                slot: slot as u32,
                key,
                value,
                comparison,
                phase,
            });
        }
        comparison
    };
    let warm_entries = 8192 / entry_size;
    let first_hot = (n - 1).saturating_sub(warm_entries);
    let (mut lo, mut hi) = if read(first_hot, ProbePhase::WarmCheck) == Comparison::Below {
        (first_hot, n - 1)
    } else {
        if read(0, ProbePhase::FirstCheck) == Comparison::Above {
            return None;
        }
        (0, first_hot)
    };
    while lo < hi {
        let mid = (lo + hi + 1) >> 1;
        match read(mid, ProbePhase::Binary) {
            Comparison::Above => hi = mid - 1,
            Comparison::Below => lo = mid,
            Comparison::Equal => return Some(mid),
        }
    }
    Some(lo)
}

/// The largest lower bound without the probe record (the hot path): the slot
/// `partition_point(key <= target) - 1` names, found from a guess.
///
/// Both kinds of index grow nearly evenly with the slot: an entry is written every
/// `index.interval.bytes`, so offsets advance by about the same step under steady traffic and
/// timestamps by about the same time. The slot that the target's place between the first and
/// last keys suggests is then within a few slots of the answer, and a gallop outwards from it
/// reads one or two cache lines where a binary search over 200,000 entries reads 18 scattered
/// ones. Uneven keys only make the guess worse: the gallop then costs at most twice the reads
/// of a binary search, and the answer is the same slot either way.
pub(crate) fn largest_lower_bound_fast(entries: &[(i64, i64)], target: i64) -> Option<usize> {
    let (first, last) = (entries.first()?.0, entries.last()?.0);
    if target < first {
        return None;
    }
    let n = entries.len();
    if target >= last {
        return Some(n - 1);
    }
    // Here `first <= target < last`, so `n >= 2` and the partition point `p` is in `1..n`.
    // The guess is a float because the keys' span can be all of i64's range.
    let share = target.abs_diff(first) as f64 / last.abs_diff(first) as f64;
    let guess = ((share * (n - 1) as f64) as usize).min(n - 2);
    // `p` is in `lo..=hi`: every key before `lo` is `<= target`, every key from `hi` on above.
    let (mut lo, mut hi);
    let mut step = 1;
    if entries[guess].0 <= target {
        lo = guess + 1;
        hi = n - 1;
        while guess + step < n - 1 {
            let at = guess + step;
            if entries[at].0 > target {
                hi = at;
                break;
            }
            lo = at + 1;
            step *= 2;
        }
    } else {
        lo = 0;
        hi = guess;
        while step <= guess {
            let at = guess - step;
            if entries[at].0 <= target {
                lo = at + 1;
                break;
            }
            hi = at;
            step *= 2;
        }
    }
    Some(lo + entries[lo..hi].partition_point(|e| e.0 <= target) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_plain_search_and_records_probes() {
        for n in [0usize, 1, 2, 3, 10, 700, 1500] {
            let entries: Vec<(i64, i64)> = (0..n).map(|i| (10 * i as i64 + 10, i as i64)).collect();
            for target in [-5, 0, 10, 15, 20, 5000, 7000, 15005, 20000] {
                let mut probes = Vec::new();
                let a = largest_lower_bound(&entries, target, 12, Some(&mut probes));
                let b = largest_lower_bound_fast(&entries, target);
                // Keys are distinct here, so both searches name the same slot.
                assert_eq!(a, b, "n={n} target={target}");
                assert!(n == 0 || !probes.is_empty());
            }
        }
    }

    /// The guessed search names the slot a plain binary search names, however uneven the keys.
    #[test]
    fn guessed_search_agrees_with_partition_point() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let shapes: [&dyn Fn(i64) -> i64; 5] = [
            &|i| 100 * i,
            &|i| i * i * i,
            &|i| if i < 50 { i } else { 1 << 40 | i },
            &|i| i64::MIN / 2 + i * (i64::MAX / 600),
            &|i| i64::MAX - 1_000_000 + i,
        ];
        for n in [1usize, 2, 3, 4, 7, 64, 500] {
            for shape in shapes {
                let entries: Vec<(i64, i64)> = (0..n as i64).map(|i| (shape(i), i)).collect();
                let mut targets: Vec<i64> = entries
                    .iter()
                    .flat_map(|e| [e.0 - 1, e.0, e.0 + 1])
                    .collect();
                targets.extend([i64::MIN, i64::MAX, 0, -1]);
                targets.extend((0..200).map(|_| {
                    let (a, b) = (entries[0].0, entries[n - 1].0);
                    a.saturating_add((next() % (b.abs_diff(a) + 3)) as i64 - 1)
                }));
                for t in targets {
                    let want = entries.partition_point(|e| e.0 <= t).checked_sub(1);
                    assert_eq!(largest_lower_bound_fast(&entries, t), want, "n={n} t={t}");
                }
            }
        }
        assert_eq!(largest_lower_bound_fast(&[], 5), None);
    }

    /// With equal keys Kafka's search may stop at any of them: the time index never holds equal
    /// keys (strict `>` on append), and the offset index never either.
    #[test]
    fn warm_section_is_checked_first() {
        let entries: Vec<(i64, i64)> = (0..1000).map(|i| (i, i)).collect();
        let mut probes = Vec::new();
        assert_eq!(
            largest_lower_bound(&entries, 999, 12, Some(&mut probes)),
            Some(999)
        );
        assert_eq!(probes[0].phase, ProbePhase::WarmCheck);
        assert_eq!(probes[0].slot as usize, 999 - 682);
        let mut probes = Vec::new();
        assert_eq!(
            largest_lower_bound(&entries, 5, 12, Some(&mut probes)),
            Some(5)
        );
        assert_eq!(probes[1].phase, ProbePhase::FirstCheck);
    }
}
