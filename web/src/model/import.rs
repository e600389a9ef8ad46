//! The page's side of an import (the reading itself runs in the import worker, see
//! `import-worker/`): the broker clock as typed, what the worker reports back, and whether a
//! moment link can carry the imported partition.

use logtime_core::human::{bytes, rfc3339};
use logtime_core::import::{words, SegmentRow};
use logtime_model::Timestamp;

/// An imported partition, as the import worker reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct Done {
    /// The partition as a scenario's JSON (`docs/scenarios.md`, the `log` key).
    pub scenario: String,
    /// What the import found, one sentence each (core's `import::words`).
    pub notes: Vec<String>,
    /// Files left aside.
    pub skipped: Vec<String>,
    /// Segments read.
    pub segments: usize,
    /// Bytes read.
    pub bytes: u64,
    /// When the import read the broker's metadata log: the configs it gave the topic, and where
    /// each came from (core's words).
    pub configs: Option<String>,
}

/// The longest moment link the explorer offers: a scenario packed beyond this is refused with a
/// reason instead (mail clients and chat tools cut longer URLs, and browsers slow down on them).
pub const MAX_LINK_CHARS: usize = 64 * 1024;

/// The broker clock of an import: the field as typed (RFC 3339 or epoch ms), or this computer's
/// clock (`machine`) when it is empty.
pub fn parse_clock(text: &str, machine: i64) -> Result<Timestamp, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(Timestamp(machine));
    }
    t.parse::<i64>()
        .or_else(|_| logtime_core::human::parse_rfc3339(t))
        .map(Timestamp)
        .map_err(|e| {
            format!("broker clock {t:?}: {e} (use RFC 3339 such as 2027-03-11T00:00:00Z, or epoch ms; empty: this computer's clock)")
        })
}

/// Why a moment link cannot hold a scenario packed to `packed_chars`, if it cannot.
pub fn link_refusal(packed_chars: usize) -> Option<String> {
    (packed_chars > MAX_LINK_CHARS).then(|| {
        format!(
            "This partition is too large to share by link: packed, it takes {} KB, and a link holds at most {} KB. Download it as a scenario file instead.",
            packed_chars.div_ceil(1024),
            MAX_LINK_CHARS / 1024
        )
    })
}

/// The files an import left aside, briefly: names, with snapshots (one per segment) counted.
pub fn skipped(names: &[String]) -> String {
    let snapshots = names.iter().filter(|n| n.ends_with(".snapshot")).count();
    // Sorted as `&String`, the type `Variants::parse` sorts: the wasm then holds one copy of the sort.
    let mut listed: Vec<&String> = names.iter().filter(|n| !n.ends_with(".snapshot")).collect();
    listed.sort();
    let mut listed: Vec<String> = listed.into_iter().cloned().collect();
    match snapshots {
        0 => {}
        1 => listed.push("1 producer snapshot".into()),
        n => listed.push(format!("{n} producer snapshots")),
    }
    format!("Left aside (not segment files): {}.", listed.join(", "))
}

/// The inspection table's columns.
pub const HEADS: [&str; 8] = [
    "Segment",
    "Offsets",
    "Size",
    "Largest timestamp",
    "Age",
    "Verdict",
    "Pinned by",
    "Deletable from",
];

/// Which columns are numbers (right-aligned).
pub const NUMERIC: [bool; 8] = [false, false, true, false, true, false, false, false];

/// One segment's cells in the inspection table at broker time `now`, in core's words.
pub fn row_cells(row: &SegmentRow, now: Timestamp) -> [String; 8] {
    [
        row.base_offset.0.to_string(),
        if row.next_offset > row.base_offset {
            format!("{}–{}", row.base_offset.0, row.next_offset.0 - 1)
        } else {
            "empty".into()
        },
        bytes(row.size_bytes.0),
        format!(
            "{}{}",
            rfc3339(row.largest_timestamp.0),
            if row.record_time { "" } else { " (mtime)" }
        ),
        words::age(row.age_ms),
        words::verdict_cell(&row.verdict),
        row.pinned_by.map(|b| b.0.to_string()).unwrap_or_default(),
        match row.deletable_from {
            Some(t) if t <= now => "now".into(),
            Some(t) => rfc3339(t.0),
            None => "–".into(),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_is_typed_or_this_computers() {
        assert_eq!(parse_clock(" ", 42), Ok(Timestamp(42)));
        assert_eq!(
            parse_clock("1804723200000", 0),
            Ok(Timestamp(1_804_723_200_000))
        );
        assert_eq!(
            parse_clock("2027-03-11T00:00:00Z", 0),
            Ok(Timestamp(1_804_723_200_000))
        );
        let e = parse_clock("yesterday", 0).unwrap_err();
        assert!(e.starts_with("broker clock \"yesterday\": "), "{e}");
    }

    #[test]
    fn left_aside_files_are_named_and_snapshots_counted() {
        let names: Vec<String> = [
            "partition.metadata",
            "00000000000000000018.snapshot",
            "leader-epoch-checkpoint",
            "00000000000000000024.snapshot",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            skipped(&names),
            "Left aside (not segment files): leader-epoch-checkpoint, partition.metadata, 2 producer snapshots."
        );
    }

    #[test]
    fn table_cells_say_what_core_decided() {
        use logtime_model::{Bytes, Offset, Verdict};
        let row = SegmentRow {
            base_offset: Offset(24),
            next_offset: Offset(30),
            size_bytes: Bytes(1020),
            records: 6,
            largest_timestamp: Timestamp(1_803_960_000_000),
            record_time: false,
            age_ms: 8 * 86_400_000,
            verdict: Verdict::KeptBehind {
                blocker: Offset(18),
                expired: true,
            },
            pinned_by: Some(Offset(18)),
            deletable_from: Some(Timestamp(1_803_960_000_000 + 604_800_001)),
        };
        let c = row_cells(&row, Timestamp(1_804_723_200_000));
        assert_eq!(c[1], "24–29");
        assert_eq!(c[2], "1020 B");
        assert_eq!(c[3], "2027-03-02T04:00:00Z (mtime)");
        assert_eq!(c[5], "expired, pinned");
        assert_eq!(c[6], "18");
        assert_eq!(c[7], "now");
        let empty = SegmentRow {
            next_offset: Offset(24),
            deletable_from: None,
            ..row
        };
        let c = row_cells(&empty, Timestamp(0));
        assert_eq!((c[1].as_str(), c[7].as_str()), ("empty", "–"));
    }

    #[test]
    fn links_refuse_partitions_too_large_to_carry() {
        assert_eq!(link_refusal(MAX_LINK_CHARS), None);
        let r = link_refusal(MAX_LINK_CHARS + 1).unwrap();
        assert!(
            r.contains("too large to share by link") && r.contains("65 KB"),
            "{r}"
        );
    }
}
