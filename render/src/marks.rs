//! What a lookup's walk has shown so far, as marks on records, segments and index entries, and
//! the records a time lookup's guarantee does not cover.

use logtime_model::{Elided, Lookup, Offset, OffsetSpec, Partition, Timestamp, TraceStep};

/// How a record is marked on the density canvas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// The lookup's answer.
    Answer,
    /// Read by the lookup's scan.
    Scan,
}

/// What the lookup animation has shown so far, for highlighting records and index entries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LookupMarks {
    /// Segments passed over, one by one.
    pub passed: Vec<Offset>,
    /// Runs of segments passed over that the trace folded into one step: `(first, last)` base
    /// offsets.
    pub passed_runs: Vec<(Offset, Offset)>,
    /// The segment searched.
    pub chosen: Option<Offset>,
    /// Time-index slots read: (segment, slot).
    pub probed: Vec<(Offset, u32)>,
    /// The time-index entry found: (timestamp, offset).
    pub found_entry: Option<(Timestamp, Offset)>,
    /// Records read by the scan, in order (of a folded run, its last 64).
    pub scanned: Vec<Offset>,
    /// Runs of records read that the trace folded into one step: `(first, last)` offsets.
    pub scanned_runs: Vec<(Offset, Offset)>,
    /// The answer, once the whole trace is shown.
    pub answer: Option<Offset>,
    /// The time looked up.
    pub target: Option<Timestamp>,
}

impl LookupMarks {
    /// The marks of the first `cursor` trace steps of `l`.
    pub fn new(l: &Lookup, cursor: usize) -> LookupMarks {
        let mut m = LookupMarks::default();
        if let OffsetSpec::Timestamp(t) = l.spec {
            m.target = Some(t);
        }
        for step in l.trace.iter().take(cursor) {
            match step {
                TraceStep::SegmentPassed { segment, .. } => m.passed.push(*segment),
                TraceStep::SegmentChosen { segment, .. }
                | TraceStep::MaxTimestampSegment { segment, .. } => m.chosen = Some(*segment),
                TraceStep::TimeIndexSearch {
                    segment,
                    probes,
                    found_offset,
                    found_timestamp,
                } => {
                    m.probed.extend(probes.iter().map(|pr| (*segment, pr.slot)));
                    m.found_entry = Some((*found_timestamp, *found_offset));
                }
                TraceStep::RecordScanned { offset, .. } => m.scanned.push(*offset),
                TraceStep::Elided {
                    what: Elided::SegmentsPassed,
                    first,
                    last,
                    ..
                } => m.passed_runs.push((*first, *last)),
                TraceStep::Elided {
                    what: Elided::RecordsScanned,
                    first,
                    last,
                    ..
                } => {
                    // A folded run is the records of one batch, so its offsets are consecutive.
                    let tail = (last.0 - 63).max(first.0);
                    m.scanned.extend((tail..=last.0).map(Offset));
                    m.scanned_runs.push((*first, *last));
                }
                _ => {}
            }
        }
        if cursor >= l.trace.len() && l.offset.0 >= 0 {
            m.answer = Some(l.offset);
        }
        m
    }

    /// Whether the segment at `base` was passed over.
    pub fn is_passed(&self, base: Offset) -> bool {
        self.passed.contains(&base) || in_runs(&self.passed_runs, base)
    }

    /// Whether the scan read the record at `offset`.
    pub fn is_scanned(&self, offset: Offset) -> bool {
        self.scanned.contains(&offset) || in_runs(&self.scanned_runs, offset)
    }

    /// Whether the record at `offset` stamped `ts` comes after the answer but is stamped
    /// before the target: what "the first offset at or after T" does not promise.
    pub fn is_late(&self, offset: Offset, ts: Timestamp) -> bool {
        match (self.answer, self.target) {
            (Some(a), Some(t)) => offset > a && ts < t && ts != Timestamp::NONE,
            _ => false,
        }
    }

    /// Offsets to outline on the density canvas: the answer, then the last 64 records scanned.
    pub fn canvas_marks(&self) -> Vec<(Offset, MarkKind)> {
        let mut out: Vec<(Offset, MarkKind)> = self
            .answer
            .map(|a| (a, MarkKind::Answer))
            .into_iter()
            .collect();
        out.extend(
            self.scanned
                .iter()
                .rev()
                .take(64)
                .map(|o| (*o, MarkKind::Scan)),
        );
        out
    }
}

/// Whether `o` is in one of the `(first, last)` runs.
fn in_runs(runs: &[(Offset, Offset)], o: Offset) -> bool {
    runs.iter().any(|&(a, b)| a <= o && o <= b)
}

/// The records after a time lookup's answer stamped before its target, in offset order, at
/// most `limit` of them.
pub fn late_records(
    partition: &Partition,
    answer: Offset,
    target: Timestamp,
    limit: usize,
) -> Vec<(Offset, Timestamp)> {
    let mut out = Vec::new();
    for s in partition.segments_from(answer) {
        let base = s.base_offset();
        for (i, &ts) in s.record_timestamps().iter().enumerate() {
            if out.len() >= limit {
                return out;
            }
            let o = base.plus(i as i64);
            if o > answer && ts < target.0 && ts != -1 {
                out.push((o, Timestamp(ts)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_core::scenario::{parse, Runner};

    /// Seed 004: T = 10:00:05 returns offset 3; offset 5 is after it but stamped before T.
    fn lookup_scan() -> Runner {
        let json = crate::tests::builtin("scenarios/lookup-scan.json");
        let mut r = Runner::new(parse(&json).unwrap());
        while r.step(&mut |_| {}).is_some() {}
        r
    }

    #[test]
    fn marks_follow_the_walk() {
        let r = lookup_scan();
        let t = Timestamp(1_762_250_405_000);
        let l = r.partition().lookup(OffsetSpec::Timestamp(t)).unwrap();
        let none = LookupMarks::new(&l, 0);
        assert_eq!(none.answer, None);
        assert_eq!(none.target, Some(t));
        let all = LookupMarks::new(&l, usize::MAX);
        assert_eq!(all.answer, Some(Offset(3)));
        assert_eq!(all.chosen, Some(Offset(0)));
        assert!(all.scanned.contains(&Offset(3)));
        assert!(!all.probed.is_empty());
        assert!(all.is_late(Offset(5), Timestamp(t.0 - 1)));
        assert!(!all.is_late(Offset(2), Timestamp(t.0 - 1)));
        assert_eq!(all.canvas_marks()[0], (Offset(3), MarkKind::Answer));
        assert!(all.canvas_marks()[1..]
            .iter()
            .all(|(_, k)| *k == MarkKind::Scan));
        let late = late_records(r.partition(), Offset(3), t, 50);
        assert_eq!(late.first().map(|(o, _)| *o), Some(Offset(5)));
        assert!(late_records(r.partition(), Offset(3), t, 0).is_empty());
    }
}
