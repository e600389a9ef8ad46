//! A segment's offset index (`OffsetIndex.java`): `(offset, position)` entries, 8 bytes each.
//!
//! Invariants: offsets strictly increase, positions strictly increase, at most
//! `segment.index.bytes / 8` entries. `is_full` is `entries >= max_entries`.

use crate::index::{Index, Probe};
use crate::units::{Bytes, Offset};

/// An offset index: offset → position, 8 bytes an entry.
pub type OffsetIndex = Index<Offset, Bytes, 8>;

impl OffsetIndex {
    /// `entries >= maxEntries` (`AbstractIndex.java:148-150`).
    pub fn is_full(&self) -> bool {
        self.len() >= self.max_entries()
    }

    /// Appends `(offset, position)`; the offset must exceed the last one (the segment guarantees it).
    pub fn append(&mut self, offset: Offset, position: Bytes) {
        debug_assert!(!self.is_full(), "offset index full");
        debug_assert!(self.raw().last().is_none_or(|&(o, _)| offset.0 > o));
        self.push((offset.0, position.0));
    }

    /// The slot of the largest entry with offset `<= target`, if any (the search `lookup` does).
    pub fn lookup_slot(&self, target: Offset, probes: Option<&mut Vec<Probe>>) -> Option<usize> {
        self.search(target.0, probes)
    }

    /// `lookup`: the largest entry with offset `<= target`, or `(base_offset, 0)`.
    pub fn lookup(&self, target: Offset, probes: Option<&mut Vec<Probe>>) -> (Offset, Bytes) {
        self.lookup_slot(target, probes)
            .map_or((self.base_offset(), Bytes(0)), |s| self.entry(s))
    }

    /// Panics if an invariant does not hold (tests only).
    pub fn check_invariants(&self) {
        assert!(
            self.len() <= self.max_entries(),
            "offset index over capacity"
        );
        for w in self.raw().windows(2) {
            assert!(
                w[0].0 < w[1].0 && w[0].1 < w[1].1,
                "offset index must strictly increase: {w:?}"
            );
        }
        if let Some(&(o, p)) = self.raw().first() {
            assert!(o >= self.base_offset().0 && p >= 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `OffsetIndexTest.lookupExtremeCases` (B4).
    #[test]
    fn b4_extremes() {
        let base = 100;
        let mut idx = OffsetIndex::new(Offset(base), 8 * 10);
        assert_eq!(idx.lookup(Offset(base), None), (Offset(base), Bytes(0)));
        for i in 0..idx.max_entries() as i64 {
            idx.append(Offset(base + i + 1), Bytes(i));
        }
        assert_eq!(idx.lookup(Offset(base), None), (Offset(base), Bytes(0)));
        let m = idx.max_entries() as i64;
        assert_eq!(
            idx.lookup(Offset(base + m), Some(&mut Vec::new())),
            (Offset(base + m), Bytes(m - 1))
        );
        assert!(idx.is_full());
        idx.check_invariants();
    }
}
