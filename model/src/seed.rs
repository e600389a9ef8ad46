//! A log that already exists: segments with their batches, sizes, record timestamps and indexes,
//! and a log start offset, from which a [`Partition`] is built as it stands on a broker. Imports
//! produce one from segment files or `kafka-dump-log` text; a scenario's top-level `log` key
//! writes one by hand (`docs/scenarios.md`), so a partition can start at any offset and an
//! imported partition replays exactly.
//!
//! [`build`] checks everything [`Partition::check_invariants`] relies on and refuses the rest with
//! a [`SeedError`] naming the segment, the batch and the field, so a hand-written or damaged seed
//! never panics.
//!
//! Index entries are taken as given when present; when absent they are produced by Kafka's rules
//! ([`rules_indexes`]): per batch, an offset-index entry `(last offset, position)` and a time-index
//! entry `(max timestamp so far, its offset)` when more than `index.interval.bytes` were written
//! since the last entry (`LogSegment.append` and `recover`, 3.8+: one batch at a time), and, for
//! every segment but the active one, the final time-index entry a roll appends
//! (`onBecomeInactiveSegment`).
//!
//! Every seeded segment keeps the config's `index.interval.bytes` for the appends that follow
//! (Kafka fixes the interval per segment when it opens it, and a broker loading a log opens its
//! existing segments with the config in force): the files do not say which interval wrote them.

use crate::config::Config;
use crate::partition::Partition;
use crate::segment::{Segment, SegmentParts, StoredBatch};
use crate::units::{Bytes, Offset, Timestamp};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One batch of a seeded segment: the segment's own stored form, so a seed read from a large file
/// is moved into the partition, not copied. Positions are contiguous from 0 (checked).
pub type BatchSeed = StoredBatch;

/// One seeded segment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentSeed {
    /// Base offset (the file name).
    pub base_offset: Offset,
    /// Batches in file order, contiguous in offsets from `base_offset`.
    pub batches: Vec<BatchSeed>,
    /// Every record's timestamp as a reader sees it, from `base_offset` on (one per offset).
    pub timestamps: Vec<i64>,
    /// `(offset, position)` entries; `None`: Kafka's rules.
    pub offset_index: Option<Vec<(Offset, Bytes)>>,
    /// `(timestamp, offset)` entries; `None`: Kafka's rules.
    pub time_index: Option<Vec<(Timestamp, Offset)>>,
    /// The `.log` file's modification time (Kafka's `largestTimestamp` when no record has a
    /// stamp, and the time-based retention of such segments); `None`: the partition's clock.
    pub last_modified: Option<Timestamp>,
}

/// A whole seeded log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogSeed {
    /// Log start offset; `None`: the first segment's base offset.
    pub log_start_offset: Option<Offset>,
    /// Segments, oldest first; the last is active. Empty: one empty segment at the log start
    /// offset (or 0).
    pub segments: Vec<SegmentSeed>,
}

/// Why a seed cannot be a partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedError {
    /// Index of the segment, when the error is inside one.
    pub segment: Option<usize>,
    /// Index of the batch in that segment, when the error is inside one.
    pub batch: Option<usize>,
    /// The field, e.g. `size` or `offset_index[2]`.
    pub field: String,
    /// Lowercase reason.
    pub reason: String,
}

impl SeedError {
    /// The field path as a scenario names it: `segments[1].batches[0].size`.
    pub fn path(&self) -> String {
        let mut p = String::new();
        if let Some(s) = self.segment {
            p.push_str(&format!("segments[{s}]"));
        }
        if let Some(b) = self.batch {
            p.push_str(&format!(".batches[{b}]"));
        }
        if !self.field.is_empty() {
            if !p.is_empty() {
                p.push('.');
            }
            p.push_str(&self.field);
        }
        p
    }
}

impl fmt::Display for SeedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.path();
        if p.is_empty() {
            f.write_str(&self.reason)
        } else {
            write!(f, "{p}: {}", self.reason)
        }
    }
}

impl std::error::Error for SeedError {}

/// An offset index's `(offset, position)` entries and a time index's `(timestamp, offset)` ones.
pub type IndexEntries = (Vec<(Offset, Bytes)>, Vec<(Timestamp, Offset)>);

/// Kafka's indexes for `batches` (see the module docs): `closed` adds the final time-index entry.
pub fn rules_indexes(
    batches: &[BatchSeed],
    base_offset: Offset,
    index_interval_bytes: i64,
    closed: bool,
) -> IndexEntries {
    let mut oi = Vec::new();
    let mut ti: Vec<(Timestamp, Offset)> = Vec::new();
    let mut since: i64 = 0;
    let mut pos: i64 = 0;
    let mut max = (Timestamp::NONE, base_offset);
    let time_append = |ti: &mut Vec<(Timestamp, Offset)>, e: (Timestamp, Offset)| {
        let last = ti.last().map_or(Timestamp::NONE, |l| l.0);
        if e.0 > last {
            ti.push(e);
        }
    };
    for b in batches {
        if b.max_timestamp > max.0 {
            max = (b.max_timestamp, b.last_offset);
        }
        if since > index_interval_bytes {
            oi.push((b.last_offset, Bytes(pos)));
            time_append(&mut ti, max);
            since = 0;
        }
        pos += b.size.0;
        since += b.size.0;
    }
    if closed {
        time_append(&mut ti, max);
    }
    (oi, ti)
}

/// The range of `index.interval.bytes` values under which Kafka's rules give exactly the offset
/// index `on_disk` for these batches, or `None` when no value does (damage, or batches appended
/// several at a time by a follower or an older broker).
pub fn consistent_interval(
    batches: &[BatchSeed],
    on_disk: &[(Offset, Bytes)],
) -> Option<(i64, i64)> {
    // Entry at batch k requires `since > I`; no entry requires `since <= I`.
    let (mut lo, mut hi) = (0i64, i64::MAX);
    let mut since = 0i64;
    let mut next = on_disk.iter().peekable();
    let mut pos = 0i64;
    for b in batches {
        let indexed = next
            .peek()
            .is_some_and(|&&(o, p)| o == b.last_offset && p.0 == pos);
        if indexed {
            next.next();
            hi = hi.min(since - 1);
            since = 0;
        } else {
            lo = lo.max(since);
        }
        pos += b.size.0;
        since += b.size.0;
    }
    (next.peek().is_none() && lo <= hi && hi >= 0).then_some((lo.max(0), hi))
}

fn err(
    segment: Option<usize>,
    batch: Option<usize>,
    field: impl Into<String>,
    reason: impl Into<String>,
) -> SeedError {
    SeedError {
        segment,
        batch,
        field: field.into(),
        reason: reason.into(),
    }
}

/// Checks one segment and assembles it.
fn segment(
    i: usize,
    s: SegmentSeed,
    last: bool,
    config: &Config,
    now: Timestamp,
) -> Result<Segment, SeedError> {
    let e = |b: Option<usize>, f: &str, r: String| err(Some(i), b, f, r);
    let next = check_batches(i, &s)?;
    let records = next.0 - s.base_offset.0;
    let batches = s.batches;
    if s.timestamps.len() as i64 != records {
        return Err(e(
            None,
            "timestamps",
            format!("{} timestamps for {records} offsets", s.timestamps.len()),
        ));
    }
    if batches.is_empty() && !last {
        return Err(e(
            None,
            "batches",
            "only the last (active) segment may be empty".into(),
        ));
    }
    let max = batches
        .iter()
        .map(|b| b.max_timestamp)
        .fold(Timestamp::NONE, Timestamp::max);
    let (rules_oi, rules_ti) = rules_indexes(
        &batches,
        s.base_offset,
        config.topic.index_interval_bytes,
        !last,
    );
    let offset_index = s.offset_index.unwrap_or(rules_oi);
    let time_index = s.time_index.unwrap_or(rules_ti);
    check_offset_index(i, &batches, &offset_index)?;
    check_time_index(i, (s.base_offset, next), max, &time_index)?;
    let last_modified = s.last_modified.unwrap_or(now);
    Ok(Segment::from_parts(SegmentParts {
        base_offset: s.base_offset,
        batches,
        timestamps: s.timestamps,
        offset_index,
        time_index,
        index_bytes: config.topic.segment_index_bytes,
        // Unknown from the files: the interval in force now, as when a broker loads the log.
        index_interval_bytes: config.topic.index_interval_bytes,
        created: last_modified,
        last_modified,
    }))
}

/// Checks segment `i`'s batches: contiguous in offsets from its base and in positions from 0,
/// each a batch size, the whole under 2 GiB. Returns the offset after the last batch.
fn check_batches(i: usize, s: &SegmentSeed) -> Result<Offset, SeedError> {
    let e = |b: Option<usize>, f: &str, r: String| err(Some(i), b, f, r);
    let mut next = s.base_offset;
    let mut pos: i64 = 0;
    if s.base_offset.0 < 0 {
        return Err(e(
            None,
            "base_offset",
            format!("{} is negative", s.base_offset),
        ));
    }
    for (k, b) in s.batches.iter().enumerate() {
        let eb = |f: &str, r: String| e(Some(k), f, r);
        if b.base_offset != next {
            return Err(eb(
                "base_offset",
                format!(
                    "{} does not follow the previous batch (expected {next}): offsets must be contiguous, as in a delete-policy log",
                    b.base_offset
                ),
            ));
        }
        if b.last_offset < b.base_offset {
            return Err(eb(
                "last_offset",
                format!(
                    "{} is below the base offset {}",
                    b.last_offset, b.base_offset
                ),
            ));
        }
        let rel = b.last_offset.0 - s.base_offset.0;
        if rel > i32::MAX as i64 {
            return Err(eb(
                "last_offset",
                format!(
                    "{} is more than 2^31-1 past the segment's base offset",
                    b.last_offset
                ),
            ));
        }
        if b.size.0 < 14 || b.size.0 > i32::MAX as i64 {
            return Err(eb(
                "size",
                format!("{} is not a batch size (14 to 2^31-1 bytes)", b.size),
            ));
        }
        if pos > i32::MAX as i64 - b.size.0 {
            return Err(eb("size", "the segment would exceed 2 GiB".into()));
        }
        if b.position.0 != pos {
            return Err(eb(
                "position",
                format!(
                    "{} does not follow the previous batch, which ends at byte {pos}",
                    b.position
                ),
            ));
        }
        pos += b.size.0;
        next = b.last_offset.plus(1);
    }
    Ok(next)
}

/// Checks segment `i`'s offset index against its batches: each entry a batch's last offset and
/// position, the offsets strictly increasing.
fn check_offset_index(
    i: usize,
    batches: &[StoredBatch],
    offset_index: &[(Offset, Bytes)],
) -> Result<(), SeedError> {
    let e = |b: Option<usize>, f: &str, r: String| err(Some(i), b, f, r);
    for (j, &(o, p)) in offset_index.iter().enumerate() {
        let f = format!("offset_index[{j}]");
        let at = batches.partition_point(|b| b.position < p);
        match batches.get(at) {
            Some(b) if b.position == p && b.last_offset == o => {}
            _ => {
                return Err(e(
                    None,
                    &f,
                    format!(
                        "({o}, {p}) is not the last offset and position of a batch of this segment"
                    ),
                ))
            }
        }
        if j > 0 && offset_index[j - 1].0 >= o {
            return Err(e(None, &f, "offsets must strictly increase".into()));
        }
    }
    Ok(())
}

/// Checks segment `i`'s time index: offsets inside `[base, next)`, stamps from 0 to the
/// segment's `max`, the stamps strictly increasing and the offsets not decreasing.
fn check_time_index(
    i: usize,
    (base, next): (Offset, Offset),
    max: Timestamp,
    time_index: &[(Timestamp, Offset)],
) -> Result<(), SeedError> {
    let e = |b: Option<usize>, f: &str, r: String| err(Some(i), b, f, r);
    for (j, &(t, o)) in time_index.iter().enumerate() {
        let f = format!("time_index[{j}]");
        if o < base || o >= next {
            return Err(e(
                None,
                &f,
                format!("offset {o} is outside the segment [{}, {next})", base),
            ));
        }
        if t < Timestamp(0) || t > max {
            return Err(e(
                None,
                &f,
                format!("timestamp {t} is negative or above the segment's max timestamp {max}"),
            ));
        }
        if j > 0 && (time_index[j - 1].0 >= t || time_index[j - 1].1 > o) {
            return Err(e(
                None,
                &f,
                "timestamps must strictly increase and offsets must not decrease".into(),
            ));
        }
    }
    Ok(())
}

/// Builds the partition a seed describes, at broker time `now` (the clock, from which the
/// retention schedule starts), or says which field is wrong.
pub fn build(
    config: Config,
    topic_partition: &str,
    now: Timestamp,
    seed: u64,
    log: LogSeed,
) -> Result<Partition, SeedError> {
    let LogSeed {
        log_start_offset,
        segments: mut segs,
    } = log;
    if segs.is_empty() {
        segs.push(SegmentSeed {
            base_offset: log_start_offset.unwrap_or(Offset(0)),
            batches: Vec::new(),
            timestamps: Vec::new(),
            offset_index: None,
            time_index: None,
            last_modified: None,
        });
    }
    let n = segs.len();
    let mut segments: Vec<Box<Segment>> = Vec::with_capacity(n);
    for (i, s) in segs.into_iter().enumerate() {
        let seg = segment(i, s, i + 1 == n, &config, now)?;
        if let Some(prev) = segments.last().map(|s| s.next_offset()) {
            if seg.base_offset() != prev {
                return Err(err(
                    Some(i),
                    None,
                    "base_offset",
                    format!(
                        "{} does not follow the previous segment, which ends before {prev}: segments must be contiguous",
                        seg.base_offset()
                    ),
                ));
            }
        }
        segments.push(Box::new(seg));
    }
    let first = segments[0].base_offset();
    let leo = segments.last().map_or(first, |s| s.next_offset());
    let lso = log_start_offset.unwrap_or(first);
    if lso < first || lso > leo {
        return Err(err(
            None,
            None,
            "log_start_offset",
            format!("{lso} is outside the log [{first}, {leo}] (first segment's base offset to log end offset)"),
        ));
    }
    Ok(Partition::from_parts(
        config,
        topic_partition,
        now,
        seed,
        segments,
        lso,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::Record;
    use crate::config::{ConfigValue, KafkaVersion};
    use crate::partition::Command;

    fn batch(base: i64, n: i64, size: i64, ts: i64) -> BatchSeed {
        BatchSeed {
            base_offset: Offset(base),
            last_offset: Offset(base + n - 1),
            position: Bytes(0),
            size: Bytes(size),
            max_timestamp: Timestamp(ts),
            log_append_time: false,
        }
    }

    #[test]
    fn rules_match_the_segment_model() {
        let bs = vec![
            batch(10, 1, 170, 5),
            batch(11, 2, 300, 9),
            batch(13, 1, 170, 7),
            batch(14, 1, 170, 20),
        ];
        let (oi, ti) = rules_indexes(&bs, Offset(10), 256, false);
        assert_eq!(oi, vec![(Offset(13), Bytes(470))]);
        assert_eq!(ti, vec![(Timestamp(9), Offset(12))]);
        let (_, closed) = rules_indexes(&bs, Offset(10), 256, true);
        assert_eq!(
            closed,
            vec![(Timestamp(9), Offset(12)), (Timestamp(20), Offset(14))]
        );
        assert_eq!(consistent_interval(&bs, &oi), Some((170, 469)));
        assert_eq!(consistent_interval(&bs, &[(Offset(13), Bytes(1))]), None);
    }

    #[test]
    fn a_partition_can_start_anywhere() {
        let config = Config::defaults(KafkaVersion::V3_6);
        let log = LogSeed {
            log_start_offset: Some(Offset(1_843_200)),
            segments: vec![],
        };
        let p = build(config.clone(), "t-0", Timestamp(0), 0, log).unwrap();
        p.check_invariants();
        assert_eq!(p.log_end_offset(), Offset(1_843_200));
        let log = LogSeed {
            log_start_offset: Some(Offset(1_843_201)),
            segments: vec![SegmentSeed {
                base_offset: Offset(1_843_200),
                batches: vec![batch(1_843_200, 3, 300, 1000)],
                timestamps: vec![1000; 3],
                offset_index: None,
                time_index: None,
                last_modified: None,
            }],
        };
        let p = build(config.clone(), "t-0", Timestamp(5000), 0, log.clone()).unwrap();
        p.check_invariants();
        assert_eq!(p.log_start_offset(), Offset(1_843_201));
        let mut bad = log.clone();
        bad.segments[0].timestamps.pop();
        assert_eq!(
            build(config, "t-0", Timestamp(0), 0, bad)
                .unwrap_err()
                .to_string(),
            "segments[0].timestamps: 2 timestamps for 3 offsets"
        );
    }

    /// The files do not say which `index.interval.bytes` wrote a segment: a seeded one keeps the
    /// config's for the appends that follow, as a broker that loads the log does.
    #[test]
    fn seeded_segments_take_the_configs_index_interval() {
        let mut config = Config::defaults(KafkaVersion::V3_6);
        config
            .set("index.interval.bytes", &ConfigValue::Number(0))
            .unwrap();
        let log = LogSeed {
            log_start_offset: None,
            segments: vec![SegmentSeed {
                base_offset: Offset(0),
                batches: vec![batch(0, 1, 170, 1000)],
                timestamps: vec![1000],
                offset_index: None,
                time_index: None,
                last_modified: None,
            }],
        };
        let mut p = build(config, "t-0", Timestamp(5000), 0, log).unwrap();
        assert_eq!(p.segments()[0].index_interval_bytes(), 0);
        assert!(p.segments()[0].offset_index().is_empty());
        let records = vec![Record::at(Timestamp(5000))];
        p.apply(Timestamp(5000), Command::Produce { records })
            .unwrap();
        p.check_invariants();
        // Interval 0: the second batch gets an entry (170 bytes since the last one, more than 0).
        assert_eq!(p.segments()[0].offset_index().len(), 1);
    }
}
