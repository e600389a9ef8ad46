//! Offset-for-time lookups (ListOffsets, `UnifiedLog.fetchOffsetByTimestamp`) as a consumer
//! (READ_UNCOMMITTED) sends them, with a trace of every step for the explorer to animate.
//!
//! For a timestamp `T`: the first segment in offset order whose `largestTimestamp >= T`; in it,
//! the time index's largest entry `<= T`, the offset index's largest entry `<=` that entry's offset
//! (or the log start offset, whichever is larger), then a batch scan from that position skipping
//! batches whose max is below `T`, and a record scan for the first record with `ts >= T` at or
//! above the log start offset. Only that one segment is searched. A result at or above the high
//! watermark becomes `-1`.

use crate::config::KafkaVersion;
use crate::index::Probe;
use crate::segment::{Segment, StoredBatch};
use crate::units::{Bytes, Offset, Timestamp};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a ListOffsets request asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "spec", content = "timestamp", rename_all = "kebab-case")]
pub enum OffsetSpec {
    /// `-2`: the log start offset.
    Earliest,
    /// `-1`: the high watermark (a consumer's "latest").
    Latest,
    /// `-3`: the lowest offset carrying the largest timestamp (the 3.8+ rule).
    MaxTimestamp,
    /// `-4`: the local log start offset; without tiered storage the same as earliest.
    EarliestLocal,
    /// `-5`: the highest offset in remote storage; without tiered storage `-1` (3.9 and 4.x).
    LatestTiered,
    /// A time in ms. Negative values other than the special ones are searched as times in
    /// 3.6–3.9 and refused with UNSUPPORTED_VERSION in 4.x.
    Timestamp(Timestamp),
}

impl OffsetSpec {
    /// Maps a ListOffsets timestamp field to a spec (`-1`, `-2`, `-3` are the special values).
    pub fn from_wire(ts: i64) -> OffsetSpec {
        match ts {
            -1 => OffsetSpec::Latest,
            -2 => OffsetSpec::Earliest,
            -3 => OffsetSpec::MaxTimestamp,
            -4 => OffsetSpec::EarliestLocal,
            -5 => OffsetSpec::LatestTiered,
            t => OffsetSpec::Timestamp(Timestamp(t)),
        }
    }

    /// Parses `earliest`, `latest`, `max-timestamp`, or a number, as `kafka-get-offsets --time` does.
    pub fn parse(s: &str) -> Result<OffsetSpec, String> {
        match s.trim() {
            "earliest" => Ok(OffsetSpec::Earliest),
            "latest" => Ok(OffsetSpec::Latest),
            "max-timestamp" => Ok(OffsetSpec::MaxTimestamp),
            "earliest-local" => Ok(OffsetSpec::EarliestLocal),
            "latest-tiered" => Ok(OffsetSpec::LatestTiered),
            other => other.parse::<i64>().map(OffsetSpec::from_wire).map_err(|_| {
                format!("malformed time argument {other}: use earliest, latest, max-timestamp or a timestamp in ms")
            }),
        }
    }
}

impl fmt::Display for OffsetSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OffsetSpec::Earliest => f.write_str("earliest"),
            OffsetSpec::Latest => f.write_str("latest"),
            OffsetSpec::MaxTimestamp => f.write_str("max-timestamp"),
            OffsetSpec::EarliestLocal => f.write_str("earliest-local"),
            OffsetSpec::LatestTiered => f.write_str("latest-tiered"),
            OffsetSpec::Timestamp(t) => write!(f, "{t}"),
        }
    }
}

/// How a scanned record compared with the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordMatch {
    /// `ts >= T` and at or above the log start offset: the answer.
    Match,
    /// `ts < T`: keep scanning.
    Earlier,
    /// `ts >= T` but below the log start offset (deleted by DeleteRecords).
    BelowLogStart,
}

/// One step of a lookup, in the order the broker does it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum TraceStep {
    /// A segment passed over: its largest timestamp is below the target.
    SegmentPassed {
        /// Base offset.
        segment: Offset,
        /// Its `largestTimestamp`.
        largest_timestamp: Timestamp,
        /// Whether that is a record time (`false`: last-modified fallback).
        record_time: bool,
    },
    /// The segment searched: the first whose largest timestamp is at or after the target.
    SegmentChosen {
        /// Base offset.
        segment: Offset,
        /// Its `largestTimestamp`.
        largest_timestamp: Timestamp,
        /// Whether that is a record time.
        record_time: bool,
    },
    /// The time-index binary search and its result (`(-1, base)` when no entry is `<= T`).
    TimeIndexSearch {
        /// Segment base offset.
        segment: Offset,
        /// Entries read, in order.
        probes: Vec<Probe>,
        /// Timestamp of the entry found.
        found_timestamp: Timestamp,
        /// Offset of the entry found.
        found_offset: Offset,
    },
    /// The offset-index search for `max(found offset, log start offset)`.
    OffsetIndexSearch {
        /// Segment base offset.
        segment: Offset,
        /// The offset searched for.
        target: Offset,
        /// Entries read, in order.
        probes: Vec<Probe>,
        /// Offset of the entry found.
        found_offset: Offset,
        /// The position to scan from.
        position: Bytes,
    },
    /// A batch skipped whole because its max timestamp is below the target (or, for
    /// max-timestamp, differs from the max).
    BatchSkipped {
        /// First offset.
        base_offset: Offset,
        /// Last offset.
        last_offset: Offset,
        /// Position.
        position: Bytes,
        /// Batch max timestamp.
        max_timestamp: Timestamp,
    },
    /// A batch opened for a record scan.
    BatchOpened {
        /// First offset.
        base_offset: Offset,
        /// Last offset.
        last_offset: Offset,
        /// Position.
        position: Bytes,
        /// Batch max timestamp.
        max_timestamp: Timestamp,
    },
    /// A record read during the scan.
    RecordScanned {
        /// Offset.
        offset: Offset,
        /// Timestamp as read.
        timestamp: Timestamp,
        /// How it compared.
        result: RecordMatch,
    },
    /// For max-timestamp: the segment with the largest max timestamp (first on ties).
    MaxTimestampSegment {
        /// Base offset.
        segment: Offset,
        /// Its max timestamp.
        max_timestamp: Timestamp,
        /// The last offset of the first batch that reached it.
        shallow_offset: Offset,
    },
    /// No segment has a largest timestamp at or after the target.
    NoSegment,
    /// The chosen segment held no qualifying record; later segments are not tried.
    NotInSegment,
    /// The special value's answer, read off the partition.
    Special {
        /// Which.
        spec: OffsetSpec,
    },
    /// The rest of a run of steps of one kind, after the first [`TRACE_RUN`] of them: segments
    /// passed over, batches skipped, or records read that were not the answer. A lookup past a
    /// million one-record segments, or through a scan that an `index.interval.bytes` of 2 GiB
    /// leaves unindexed, reads a step per segment or batch, and a trace of each would be as
    /// large as the partition; the broker's answer is the same.
    Elided {
        /// What the steps left out were.
        what: Elided,
        /// How many they were.
        count: u64,
        /// The first one's offset: a segment's base offset, a batch's base offset, a record's.
        first: Offset,
        /// The last one's: a segment's base offset, a batch's last offset, a record's.
        last: Offset,
    },
    /// The offset found is at or above the high watermark, so a consumer gets `-1`.
    HighWatermarkFilter {
        /// The offset found.
        offset: Offset,
        /// The high watermark.
        high_watermark: Offset,
    },
}

/// What a [`TraceStep::Elided`] step stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Elided {
    /// [`TraceStep::SegmentPassed`] steps.
    SegmentsPassed,
    /// [`TraceStep::BatchSkipped`] steps.
    BatchesSkipped,
    /// [`TraceStep::RecordScanned`] steps of records that were not the answer.
    RecordsScanned,
}

/// How many steps of one kind in a row a trace lists one by one before it folds the rest of
/// the run into one [`TraceStep::Elided`] step. Above what a default `index.interval.bytes`
/// scan reads (4,096 bytes hold at most 58 batches), so that only unusual partitions elide.
pub const TRACE_RUN: usize = 100;

impl TraceStep {
    /// The kind of run this step belongs to, with its first and last offsets, if it can be
    /// elided.
    fn run(&self) -> Option<(Elided, Offset, Offset)> {
        match *self {
            TraceStep::SegmentPassed { segment, .. } => {
                Some((Elided::SegmentsPassed, segment, segment))
            }
            TraceStep::BatchSkipped {
                base_offset,
                last_offset,
                ..
            } => Some((Elided::BatchesSkipped, base_offset, last_offset)),
            TraceStep::RecordScanned { offset, result, .. } if result != RecordMatch::Match => {
                Some((Elided::RecordsScanned, offset, offset))
            }
            _ => None,
        }
    }
}

/// A lookup's answer: `offset` and `timestamp` are `-1` when nothing qualifies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lookup {
    /// What was asked.
    pub spec: OffsetSpec,
    /// The offset, or `-1`.
    pub offset: Offset,
    /// The record's timestamp (`-1` for earliest/latest and when not found).
    pub timestamp: Timestamp,
    /// What the broker did, step by step.
    pub trace: Vec<TraceStep>,
}

/// A ListOffsets request the broker refuses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LookupError {
    /// 35, `UNSUPPORTED_VERSION`.
    pub error_code: i16,
    /// Why.
    pub message: String,
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "error {} UNSUPPORTED_VERSION: {}",
            self.error_code, self.message
        )
    }
}

impl std::error::Error for LookupError {}

/// The partition state a lookup reads.
pub(crate) struct LogView<'a> {
    /// Segments, oldest first.
    pub segments: &'a [Box<Segment>],
    /// Log start offset.
    pub log_start_offset: Offset,
    /// High watermark.
    pub high_watermark: Offset,
    /// Version in force.
    pub version: KafkaVersion,
}

type Trace<'t> = Option<&'t mut Vec<TraceStep>>;

/// Adds a step, or folds it into the [`TraceStep::Elided`] step its run already has. Telling
/// whether a run has reached [`TRACE_RUN`] reads back at most that many steps, and only while
/// the run is shorter, so a trace costs at most `TRACE_RUN` reads a step.
fn push(trace: &mut Trace<'_>, step: impl FnOnce() -> TraceStep) {
    let Some(t) = trace.as_deref_mut() else {
        return;
    };
    let step = step();
    if let Some((kind, first, last)) = step.run() {
        match t.last_mut() {
            Some(TraceStep::Elided {
                what,
                count,
                last: end,
                ..
            }) if *what == kind => {
                *count += 1;
                *end = last;
                return;
            }
            _ => {}
        }
        let run = t
            .iter()
            .rev()
            .take(TRACE_RUN)
            .take_while(|s| s.run().is_some_and(|(k, ..)| k == kind))
            .count();
        if run == TRACE_RUN {
            t.push(TraceStep::Elided {
                what: kind,
                count: 1,
                first,
                last,
            });
            return;
        }
    }
    t.push(step);
}

/// Records a batch the scan skipped whole or opened.
fn push_batch(trace: &mut Trace<'_>, b: &StoredBatch, opened: bool) {
    push(trace, || {
        let (base_offset, last_offset, position, max_timestamp) =
            (b.base_offset, b.last_offset, b.position, b.max_timestamp);
        if opened {
            TraceStep::BatchOpened {
                base_offset,
                last_offset,
                position,
                max_timestamp,
            }
        } else {
            TraceStep::BatchSkipped {
                base_offset,
                last_offset,
                position,
                max_timestamp,
            }
        }
    });
}

/// Runs a lookup. `trace` collects the steps when given.
pub(crate) fn lookup(
    log: &LogView<'_>,
    spec: OffsetSpec,
    mut trace: Trace<'_>,
) -> Result<(Offset, Timestamp), LookupError> {
    let none = (Offset(-1), Timestamp::NONE);
    let found = match spec {
        OffsetSpec::Earliest => {
            push(&mut trace, || TraceStep::Special { spec });
            return Ok((log.log_start_offset, Timestamp::NONE));
        }
        OffsetSpec::Latest => {
            push(&mut trace, || TraceStep::Special { spec });
            return Ok((log.high_watermark, Timestamp::NONE));
        }
        OffsetSpec::EarliestLocal => {
            push(&mut trace, || TraceStep::Special { spec });
            return Ok((log.log_start_offset, Timestamp::NONE));
        }
        OffsetSpec::LatestTiered => {
            push(&mut trace, || TraceStep::Special { spec });
            return Ok(none);
        }
        OffsetSpec::Timestamp(t) if t.0 < 0 && log.version.refuses_negative_lookup_target() => {
            return Err(LookupError {
                error_code: 35,
                message: format!(
                    "negative timestamp {t} is not a valid ListOffsets target in kafka 4.x"
                ),
            });
        }
        OffsetSpec::MaxTimestamp => max_timestamp(log, &mut trace),
        OffsetSpec::Timestamp(t) => by_timestamp(log, t, &mut trace),
    };
    match found {
        Some((off, _)) if off >= log.high_watermark => {
            push(&mut trace, || TraceStep::HighWatermarkFilter {
                offset: off,
                high_watermark: log.high_watermark,
            });
            Ok(none)
        }
        Some(x) => Ok(x),
        None => Ok(none),
    }
}

fn by_timestamp(
    log: &LogView<'_>,
    target: Timestamp,
    trace: &mut Trace<'_>,
) -> Option<(Offset, Timestamp)> {
    let mut chosen = None;
    for seg in log.segments {
        let (largest, record_time) = (
            seg.largest_timestamp(),
            seg.largest_timestamp_is_record_time(),
        );
        if largest >= target {
            push(trace, || TraceStep::SegmentChosen {
                segment: seg.base_offset(),
                largest_timestamp: largest,
                record_time,
            });
            chosen = Some(seg);
            break;
        }
        push(trace, || TraceStep::SegmentPassed {
            segment: seg.base_offset(),
            largest_timestamp: largest,
            record_time,
        });
    }
    let Some(seg) = chosen else {
        push(trace, || TraceStep::NoSegment);
        return None;
    };
    let r = find_offset_by_timestamp(seg, target, log.log_start_offset, trace);
    if r.is_none() {
        push(trace, || TraceStep::NotInSegment);
    }
    r
}

/// `LogSegment.findOffsetByTimestamp(target, startingOffset)`.
pub(crate) fn find_offset_by_timestamp(
    seg: &Segment,
    target: Timestamp,
    starting_offset: Offset,
    trace: &mut Trace<'_>,
) -> Option<(Offset, Timestamp)> {
    let base = seg.base_offset();
    let mut probes = trace.is_some().then(Vec::new);
    let (ts, off) = seg.time_index().lookup(target, probes.as_mut());
    push(trace, || TraceStep::TimeIndexSearch {
        segment: base,
        probes: probes.take().unwrap_or_default(),
        found_timestamp: ts,
        found_offset: off,
    });
    let want = off.max(starting_offset);
    let mut probes = trace.is_some().then(Vec::new);
    let (found_offset, position, first_batch) = seg.seek(want, probes.as_mut());
    push(trace, || TraceStep::OffsetIndexSearch {
        segment: base,
        target: want,
        probes: probes.take().unwrap_or_default(),
        found_offset,
        position,
    });
    if trace.is_none() {
        return seg.find_from(first_batch, target, starting_offset);
    }
    let stamps = seg.record_timestamps();
    for b in seg.batches_from(first_batch) {
        if b.max_timestamp < target {
            push_batch(trace, &b, false);
            continue;
        }
        push_batch(trace, &b, true);
        for o in b.base_offset.0..=b.last_offset.0 {
            let t = Timestamp(stamps[(o - base.0) as usize]);
            let result = if t < target {
                RecordMatch::Earlier
            } else if o < starting_offset.0 {
                RecordMatch::BelowLogStart
            } else {
                RecordMatch::Match
            };
            push(trace, || TraceStep::RecordScanned {
                offset: Offset(o),
                timestamp: t,
                result,
            });
            if result == RecordMatch::Match {
                return Some((Offset(o), t));
            }
        }
    }
    None
}

/// MAX_TIMESTAMP, 3.8+: the first segment with the greatest max, the first batch from the max's
/// indexed position whose max equals it, and the first record in it carrying it.
fn max_timestamp(log: &LogView<'_>, trace: &mut Trace<'_>) -> Option<(Offset, Timestamp)> {
    let mut best: Option<&Segment> = None;
    for s in log.segments {
        if best.is_none_or(|b| s.max_timestamp_so_far() > b.max_timestamp_so_far()) {
            best = Some(s);
        }
    }
    let seg = best?;
    let (max, shallow) = (seg.max_timestamp_so_far(), seg.offset_of_max_timestamp());
    push(trace, || TraceStep::MaxTimestampSegment {
        segment: seg.base_offset(),
        max_timestamp: max,
        shallow_offset: shallow,
    });
    let mut probes = trace.is_some().then(Vec::new);
    let (found_offset, position, first_batch) = seg.seek(shallow, probes.as_mut());
    push(trace, || TraceStep::OffsetIndexSearch {
        segment: seg.base_offset(),
        target: shallow,
        probes: probes.take().unwrap_or_default(),
        found_offset,
        position,
    });
    let stamps = seg.record_timestamps();
    for b in seg.batches_from(first_batch) {
        if b.max_timestamp != max {
            push_batch(trace, &b, false);
            continue;
        }
        push_batch(trace, &b, true);
        for o in b.base_offset.0..=b.last_offset.0 {
            let t = Timestamp(stamps[(o - seg.base_offset().0) as usize]);
            let hit = t == max;
            push(trace, || TraceStep::RecordScanned {
                offset: Offset(o),
                timestamp: t,
                result: if hit {
                    RecordMatch::Match
                } else {
                    RecordMatch::Earlier
                },
            });
            if hit {
                return Some((Offset(o), t));
            }
        }
        // `offsetOfMaxTimestamp()` is empty when no record carries the max (a batch of
        // negative stamps has max -1): Kafka then answers nothing.
        return None;
    }
    None
}
