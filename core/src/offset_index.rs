//! A segment's offset index (`OffsetIndex.java`): `(offset, position)` entries, 8 bytes each.
//!
//! Invariants: offsets strictly increase, positions strictly increase, at most
//! `segment.index.bytes / 8` entries. `is_full` is `entries >= max_entries`.

use crate::index::{largest_lower_bound, largest_lower_bound_fast, Probe};
use crate::units::{Bytes, Offset};
use serde::{Deserialize, Serialize};

/// Bytes per offset-index entry.
pub(crate) const ENTRY_SIZE: usize = 8;

/// An offset index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetIndex {
    base_offset: Offset,
    max_entries: usize,
    entries: Vec<(i64, i64)>,
}

impl OffsetIndex {
    /// An empty index for a segment at `base_offset` with `segment.index.bytes = index_bytes`.
    pub fn new(base_offset: Offset, index_bytes: i64) -> OffsetIndex {
        OffsetIndex {
            base_offset,
            max_entries: (index_bytes.max(0) as usize) / ENTRY_SIZE,
            entries: Vec::new(),
        }
    }

    /// The entries, oldest first, as `(offset, position)`.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (Offset, Bytes)> + '_ {
        self.entries.iter().map(|&(o, p)| (Offset(o), Bytes(p)))
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the index has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `floor(segment.index.bytes / 8)`.
    pub fn max_entries(&self) -> usize {
        self.max_entries
    }

    /// `entries >= maxEntries` (`AbstractIndex.java:148-150`).
    pub fn is_full(&self) -> bool {
        self.entries.len() >= self.max_entries
    }

    /// Appends `(offset, position)`; the offset must exceed the last one (the segment guarantees it).
    pub fn append(&mut self, offset: Offset, position: Bytes) {
        debug_assert!(!self.is_full(), "offset index full");
        debug_assert!(self.entries.last().is_none_or(|&(o, _)| offset.0 > o));
        self.entries.push((offset.0, position.0));
    }

    /// The entry in `slot`.
    pub fn entry(&self, slot: usize) -> (Offset, Bytes) {
        let (o, p) = self.entries[slot];
        (Offset(o), Bytes(p))
    }

    /// The slot of the largest entry with offset `<= target`, if any (the search `lookup` does).
    pub fn lookup_slot(&self, target: Offset, probes: Option<&mut Vec<Probe>>) -> Option<usize> {
        match probes {
            Some(p) => largest_lower_bound(&self.entries, target.0, ENTRY_SIZE, Some(p)),
            None => largest_lower_bound_fast(&self.entries, target.0),
        }
    }

    /// `lookup`: the largest entry with offset `<= target`, or `(base_offset, 0)`.
    pub fn lookup(&self, target: Offset, probes: Option<&mut Vec<Probe>>) -> (Offset, Bytes) {
        let slot = match probes {
            Some(p) => largest_lower_bound(&self.entries, target.0, ENTRY_SIZE, Some(p)),
            None => largest_lower_bound_fast(&self.entries, target.0),
        };
        slot.map_or((self.base_offset, Bytes(0)), |s| {
            (Offset(self.entries[s].0), Bytes(self.entries[s].1))
        })
    }

    /// Panics if an invariant does not hold (tests only).
    pub fn check_invariants(&self) {
        assert!(
            self.entries.len() <= self.max_entries,
            "offset index over capacity"
        );
        for w in self.entries.windows(2) {
            assert!(
                w[0].0 < w[1].0 && w[0].1 < w[1].1,
                "offset index must strictly increase: {w:?}"
            );
        }
        if let Some(&(o, p)) = self.entries.first() {
            assert!(o >= self.base_offset.0 && p >= 0);
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
