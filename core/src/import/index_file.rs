//! A segment's `.index` (`OffsetIndex`: 8-byte entries, relative offset int32 and position
//! int32) and `.timeindex` (`TimeIndex`: 12-byte entries, timestamp int64 and relative offset
//! int32), both big-endian, offsets relative to the segment's base offset.
//!
//! The active segment's index files are preallocated to `segment.index.bytes` (rounded down to
//! whole entries) and zero-filled past the last entry; the entry count is stored nowhere. As
//! `kafka-dump-log` does, the entries end at the first all-zero entry after the first one
//! (an entry can only be zero at slot 0: `(base_offset, 0)` of an empty preallocated offset index,
//! or a time-index entry stamped 0 at the base offset). Bytes after that are reported when they
//! are not all zero, and so is a length that is not a whole number of entries.

use logtime_model::units::{Bytes, Offset, Timestamp};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IndexKind {
    /// `.index`.
    Offset,
    /// `.timeindex`.
    Time,
}

impl IndexKind {
    /// Bytes per entry.
    pub fn entry_size(self) -> usize {
        match self {
            IndexKind::Offset => 8,
            IndexKind::Time => 12,
        }
    }

    /// The file suffix.
    pub fn suffix(self) -> &'static str {
        match self {
            IndexKind::Offset => ".index",
            IndexKind::Time => ".timeindex",
        }
    }
}

/// Something odd about an index file's layout (not fatal: the entries before it are used).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum IndexNote {
    /// The length is not a whole number of entries; the trailing bytes are ignored.
    PartialEntry {
        /// Byte position of the partial entry.
        position: u64,
        /// Its length.
        bytes: u64,
    },
    /// Non-zero bytes after the zero entry that ended the entries.
    DataAfterZeroTail {
        /// Byte position of the first such byte.
        position: u64,
    },
}

impl fmt::Display for IndexNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexNote::PartialEntry { position, bytes } => write!(
                f,
                "{bytes} trailing bytes at byte {position} are not a whole entry (ignored)"
            ),
            IndexNote::DataAfterZeroTail { position } => write!(
                f,
                "non-zero data at byte {position}, after the zero-filled tail that ended the entries (ignored)"
            ),
        }
    }
}

/// A parsed index file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexFile<E> {
    /// The entries, with absolute offsets.
    pub entries: Vec<E>,
    /// The file's length in bytes.
    pub file_bytes: u64,
    /// Bytes of zero-filled preallocation after the entries (0 for a closed, trimmed index).
    pub preallocated_tail: u64,
    /// Layout oddities.
    pub notes: Vec<IndexNote>,
}

/// An offset-index entry: the last offset of a batch and that batch's byte position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetEntry {
    /// Absolute offset.
    pub offset: Offset,
    /// Byte position in the `.log`.
    pub position: Bytes,
}

/// A time-index entry: a timestamp and the last offset of the batch that carried it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeEntry {
    /// The timestamp.
    pub timestamp: Timestamp,
    /// Absolute offset.
    pub offset: Offset,
}

fn entries<E>(bytes: &[u8], kind: IndexKind, decode: impl Fn(&[u8]) -> E) -> IndexFile<E> {
    let size = kind.entry_size();
    let whole = bytes.len() / size * size;
    let mut notes = Vec::new();
    if whole != bytes.len() {
        notes.push(IndexNote::PartialEntry {
            position: whole as u64,
            bytes: (bytes.len() - whole) as u64,
        });
    }
    let mut out = Vec::new();
    let mut end = whole;
    for (i, e) in bytes[..whole].chunks_exact(size).enumerate() {
        if i > 0 && e.iter().all(|&b| b == 0) {
            end = i * size;
            break;
        }
        // Slot 0 all-zero: an empty preallocated file, unless more entries follow.
        if i == 0 && e.iter().all(|&b| b == 0) && bytes[size..whole].iter().all(|&b| b == 0) {
            end = 0;
            break;
        }
        out.push(decode(e));
    }
    if let Some(p) = bytes[end..whole].iter().position(|&b| b != 0) {
        notes.push(IndexNote::DataAfterZeroTail {
            position: (end + p) as u64,
        });
    }
    IndexFile {
        entries: out,
        file_bytes: bytes.len() as u64,
        preallocated_tail: (whole - end) as u64,
        notes,
    }
}

/// Parses a `.index` file of the segment at `base_offset`.
pub fn parse_offset_index(base_offset: Offset, bytes: &[u8]) -> IndexFile<OffsetEntry> {
    entries(bytes, IndexKind::Offset, |e| OffsetEntry {
        offset: Offset(
            base_offset
                .0
                .wrapping_add(i32::from_be_bytes([e[0], e[1], e[2], e[3]]) as i64),
        ),
        position: Bytes(i32::from_be_bytes([e[4], e[5], e[6], e[7]]) as i64),
    })
}

/// Parses a `.timeindex` file of the segment at `base_offset`.
pub fn parse_time_index(base_offset: Offset, bytes: &[u8]) -> IndexFile<TimeEntry> {
    entries(bytes, IndexKind::Time, |e| TimeEntry {
        timestamp: Timestamp(i64::from_be_bytes([
            e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7],
        ])),
        offset: Offset(
            base_offset
                .0
                .wrapping_add(i32::from_be_bytes([e[8], e[9], e[10], e[11]]) as i64),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_filled_tail_ends_the_entries() {
        let mut b = vec![0u8; 1024];
        b[..8].copy_from_slice(&[0, 0, 0, 2, 0, 0, 0, 156]);
        let idx = parse_offset_index(Offset(3), &b);
        assert_eq!(
            idx.entries,
            vec![OffsetEntry {
                offset: Offset(5),
                position: Bytes(156)
            }]
        );
        assert_eq!(idx.preallocated_tail, 1016);
        assert!(idx.notes.is_empty());
        // An empty preallocated index has no entries.
        assert!(parse_offset_index(Offset(3), &[0u8; 1024])
            .entries
            .is_empty());
        assert!(parse_time_index(Offset(3), &[0u8; 1020]).entries.is_empty());
    }

    #[test]
    fn odd_layouts_are_noted() {
        // Entry 0 stamped 1, entry 1 zero (the end), a stray byte in entry 2, 6 trailing bytes.
        let mut b = vec![0u8; 42];
        b[7] = 1;
        b[30] = 9;
        let idx = parse_time_index(Offset(0), &b);
        assert_eq!(idx.entries.len(), 1);
        assert_eq!(idx.entries[0].timestamp, Timestamp(1));
        assert_eq!(
            idx.notes,
            vec![
                IndexNote::PartialEntry {
                    position: 36,
                    bytes: 6
                },
                IndexNote::DataAfterZeroTail { position: 30 }
            ]
        );
        assert_eq!(idx.preallocated_tail, 24);
    }
}
