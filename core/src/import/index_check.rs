//! A segment's on-disk `.index` and `.timeindex` (`OffsetIndex`, `TimeIndex`) compared with the
//! entries Kafka's rules give for its batches (`LogSegment.append` every `index.interval.bytes`,
//! and the final time-index entry `onBecomeInactiveSegment` adds): an index that fits the
//! batches is what the model uses, as the broker would; one that does not is replaced by the
//! rules' one, as `LogSegment.recover` rebuilds it.

use super::index_file::IndexKind;
use super::rebuild::{Pending, SegmentReport};
use super::seed::{self, consistent_interval, rules_indexes, LogSeed, SeedError, SegmentSeed};
use super::segment_log::SegmentLog;
use logtime_model::config::Config;
use logtime_model::units::{Bytes, Offset, Timestamp};
use serde::{Deserialize, Serialize};

/// How a segment's on-disk index compares with Kafka's rules for its batches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum IndexCheck {
    /// No file: the model uses the index Kafka's rules give.
    Missing,
    /// The file holds exactly what Kafka's rules give.
    Matches {
        /// For the active segment's time index: it holds the final entry a clean shutdown adds.
        closed: bool,
    },
    /// The file differs from Kafka's rules with the topic's `index.interval.bytes`.
    Differs {
        /// Slot of the first difference.
        slot: usize,
        /// The entry on disk there, as `[key, value]` (absent: the file has fewer entries).
        on_disk: Option<(i64, i64)>,
        /// The entry Kafka's rules put there.
        expected: Option<(i64, i64)>,
        /// The `index.interval.bytes` values that would give the file exactly, when some do
        /// (for the time index: those the offset index shows, when they give it too).
        interval_range: Option<(i64, i64)>,
        /// The file is consistent with the batches, so the model uses it (else the rules' one).
        used: bool,
        /// Why it could not be used, when it was not.
        unusable: Option<String>,
    },
}

fn first_difference<A: Copy, B: Copy>(
    a: &[A],
    b: &[B],
    eq: impl Fn(A, B) -> bool,
) -> Option<usize> {
    (0..a.len().max(b.len())).find(|&i| match (a.get(i), b.get(i)) {
        (Some(&x), Some(&y)) => !eq(x, y),
        _ => true,
    })
}

type OffsetEntries = Vec<(Offset, Bytes)>;
type TimeEntries = Vec<(Timestamp, Offset)>;

/// One segment being checked: its batches, and the indexes Kafka's rules give for them.
struct Segment<'a> {
    base: Offset,
    log: &'a SegmentLog,
    config: &'a Config,
    active: bool,
    rules_oi: OffsetEntries,
    rules_ti_closed: TimeEntries,
    rules_ti_live: TimeEntries,
}

impl Segment<'_> {
    /// Why `seed::build` refuses the segment with these indexes, if it does. Which of the two
    /// indexes the model uses is settled by its checks: an index that does not fit the batches
    /// is replaced by the rules' one.
    fn probe(&self, oi: Option<OffsetEntries>, ti: Option<TimeEntries>) -> Option<String> {
        let s = SegmentSeed {
            base_offset: self.base,
            batches: self.log.batches.clone(),
            timestamps: vec![0; self.log.timestamps.len()],
            offset_index: oi,
            time_index: ti,
            last_modified: None,
        };
        seed::build(
            self.config.clone(),
            "probe",
            Timestamp(i64::MAX / 2),
            0,
            LogSeed {
                log_start_offset: None,
                segments: vec![s],
            },
        )
        .err()
        .map(|e: SeedError| e.reason)
    }

    /// The time index the rules give: with the final entry a clean shutdown adds, unless the
    /// segment is the active one.
    fn rules_ti(&self) -> &TimeEntries {
        if self.active {
            &self.rules_ti_live
        } else {
            &self.rules_ti_closed
        }
    }

    fn offset_index(&self, disk: Option<OffsetEntries>) -> (IndexCheck, Option<OffsetEntries>) {
        let Some(disk) = disk else {
            return (IndexCheck::Missing, None);
        };
        match first_difference(&disk, &self.rules_oi, |a, b| a == b) {
            None => (IndexCheck::Matches { closed: false }, Some(disk)),
            Some(slot) => {
                let unusable = self.probe(Some(disk.clone()), Some(Vec::new()));
                let check = IndexCheck::Differs {
                    slot,
                    on_disk: disk.get(slot).map(|e| (e.0 .0, e.1 .0)),
                    expected: self.rules_oi.get(slot).map(|e| (e.0 .0, e.1 .0)),
                    interval_range: consistent_interval(&self.log.batches, &disk),
                    used: unusable.is_none(),
                    unusable: unusable.clone(),
                };
                (check, unusable.is_none().then_some(disk))
            }
        }
    }

    /// `inferred`: the `index.interval.bytes` values the offset index shows, if it differs.
    fn time_index(
        &self,
        disk: Option<TimeEntries>,
        inferred: Option<(i64, i64)>,
    ) -> (IndexCheck, Option<TimeEntries>) {
        let Some(disk) = disk else {
            return (IndexCheck::Missing, None);
        };
        let eq = |a: (Timestamp, Offset), b: (Timestamp, Offset)| a == b;
        let active = self.active;
        let closed_match = first_difference(&disk, &self.rules_ti_closed, eq).is_none();
        let live_match = active && first_difference(&disk, &self.rules_ti_live, eq).is_none();
        if closed_match || live_match {
            // A one-batch active segment has the same entries live and closed: say live.
            let closed = active && !live_match;
            return (IndexCheck::Matches { closed }, Some(disk));
        }
        let (batches, base) = (&self.log.batches, self.base);
        let expected = self.rules_ti();
        let slot = first_difference(&disk, expected, eq).unwrap_or(0);
        let on_disk = disk.get(slot).map(|e| (e.0 .0, e.1 .0));
        let expected = expected.get(slot).map(|e| (e.0 .0, e.1 .0));
        if let Some(range) = inferred.filter(|r| {
            // Under the interval the offset index shows, the time index may match too.
            let (_, closed) = rules_indexes(batches, base, r.0, true);
            let (_, live) = rules_indexes(batches, base, r.0, false);
            first_difference(&disk, &closed, eq).is_none()
                || active && first_difference(&disk, &live, eq).is_none()
        }) {
            let check = IndexCheck::Differs {
                slot,
                on_disk,
                expected,
                interval_range: Some(range),
                used: true,
                unusable: None,
            };
            return (check, Some(disk));
        }
        let unusable = self.probe(Some(Vec::new()), Some(disk.clone()));
        let check = IndexCheck::Differs {
            slot,
            on_disk,
            expected,
            interval_range: None,
            used: unusable.is_none(),
            unusable: unusable.clone(),
        };
        (check, unusable.is_none().then_some(disk))
    }
}

/// A segment's seed for the model, and its report: each on-disk index compared with the rules'
/// and used when it fits the batches.
pub(super) fn check_segment(
    base: Offset,
    p: Pending,
    active: bool,
    config: &Config,
) -> (SegmentSeed, SegmentReport) {
    let log = p.log.expect("checked by the caller");
    let interval = config.topic.index_interval_bytes;
    let (rules_oi, rules_ti_closed) = rules_indexes(&log.batches, base, interval, true);
    let (_, rules_ti_live) = rules_indexes(&log.batches, base, interval, false);
    let mut notes = Vec::new();
    let offset_index = p.offset_index.map(|f| {
        notes.extend(f.notes.iter().map(|n| (IndexKind::Offset, n.clone())));
        f.entries
            .iter()
            .map(|e| (e.offset, e.position))
            .collect::<Vec<_>>()
    });
    let time_index = p.time_index.map(|f| {
        notes.extend(f.notes.iter().map(|n| (IndexKind::Time, n.clone())));
        f.entries
            .iter()
            .map(|e| (e.timestamp, e.offset))
            .collect::<Vec<_>>()
    });
    let s = Segment {
        base,
        log: &log,
        config,
        active,
        rules_oi,
        rules_ti_closed,
        rules_ti_live,
    };
    let (oi_check, oi_used) = s.offset_index(offset_index);
    let inferred = match &oi_check {
        IndexCheck::Differs { interval_range, .. } => *interval_range,
        _ => None,
    };
    let (ti_check, ti_used) = s.time_index(time_index, inferred);
    let Segment {
        rules_oi,
        rules_ti_closed,
        rules_ti_live,
        ..
    } = s;
    let report = SegmentReport {
        base_offset: base,
        damage: log.end.damage.clone(),
        file_bytes: log.end.file_bytes,
        valid_bytes: log.end.valid_bytes,
        formats: log.formats.clone(),
        unexpanded: log.unexpanded.clone(),
        offset_index: oi_check,
        time_index: ti_check,
        index_notes: notes,
        last_modified_assumed: p.last_modified.is_none(),
        compacted: log.compacted.clone(),
    };
    let seed = SegmentSeed {
        base_offset: base,
        offset_index: Some(oi_used.unwrap_or(rules_oi)),
        time_index: Some(ti_used.unwrap_or(if active {
            rules_ti_live
        } else {
            rules_ti_closed
        })),
        batches: log.batches,
        timestamps: log.timestamps,
        last_modified: p.last_modified,
    };
    (seed, report)
}
