//! From a partition's files (or `kafka-dump-log` text) to a [`Partition`]: each segment's
//! batches, sizes and record timestamps as read, its on-disk indexes compared with what Kafka's
//! rules give for the same batches, and the whole checked and assembled through
//! [`seed::build`](super::seed::build).
//!
//! ```
//! use logtime_core::import::{PartitionImport, SegmentLogBuilder};
//! use logtime_model::{Config, KafkaVersion, Offset, Timestamp};
//! let mut import = PartitionImport::new("clicks-0", Config::defaults(KafkaVersion::V3_6));
//! let log = SegmentLogBuilder::new(Offset(1_843_200)).finish_empty();
//! import.add_log(Offset(1_843_200), log, None);
//! let imported = import.finish(Timestamp(0), None).unwrap();
//! assert_eq!(imported.partition.log_end_offset(), Offset(1_843_200));
//! ```

use super::index_file::{IndexFile, IndexKind, IndexNote, OffsetEntry, TimeEntry};
use super::log_file::{
    Compression, LogBatch, LogDamage, LogEnd, NotExpanded, Records, TimestampKind,
};
use super::seed::{
    self, consistent_interval, rules_indexes, BatchSeed, LogSeed, SeedError, SegmentSeed,
};
use super::ImportError;
use logtime_model::config::Config;
use logtime_model::partition::Partition;
use logtime_model::units::{Bytes, Offset, Timestamp};
use serde::{Deserialize, Serialize};

/// A batch whose records were not read: lookups that open it cannot name the exact record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnexpandedBatch {
    /// First offset.
    pub base_offset: Offset,
    /// Last offset.
    pub last_offset: Offset,
    /// Byte position.
    pub position: u64,
    /// Why.
    pub why: NotExpanded,
}

/// What kinds of batches a segment holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchFormats {
    /// Batches per magic (0, 1, 2).
    pub by_magic: [u64; 3],
    /// Compressed batches per codec name.
    pub compressed: Vec<(String, u64)>,
    /// LogAppendTime batches.
    pub log_append_time: u64,
    /// Transaction markers (control batches).
    pub control: u64,
}

/// A segment's `.log`, read: batches and timestamps in the seed's compact form, plus what the
/// reading found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentLog {
    /// Base offset (from the file name).
    pub base_offset: Offset,
    /// Batches.
    pub batches: Vec<BatchSeed>,
    /// Record timestamps, one per offset from `base_offset` (stand-ins, the batch's max timestamp,
    /// for unexpanded batches).
    pub timestamps: Vec<i64>,
    /// Batches whose records were not read.
    pub unexpanded: Vec<UnexpandedBatch>,
    /// Formats seen.
    pub formats: BatchFormats,
    /// Where and why reading stopped early (Kafka's recovery truncates there).
    pub end: LogEnd,
    /// The first place the batches cannot be read into the model (offsets that overlap, an
    /// implausible batch).
    pub problem: Option<String>,
    /// Offsets the log cleaner removed (a compacted segment): gaps before batches and records
    /// missing inside them. The model holds them as records without a timestamp (`-1`), which no
    /// time lookup returns and no largest timestamp counts, as Kafka's reads skip what is not
    /// there.
    pub compacted: Compacted,
}

/// What compaction removed from a segment, as the import found it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Compacted {
    /// Offsets missing in all.
    pub missing_offsets: u64,
    /// The first place, for messages: the batch's byte position, and the offset expected
    /// there.
    pub first: Option<(u64, Offset)>,
}

/// Collects the batches of one `.log`, as a [`LogReader`](super::LogReader) (or the dump-log
/// parser) hands them over, in the compact form a partition keeps.
#[derive(Debug)]
pub struct SegmentLogBuilder {
    log: SegmentLog,
    next: Offset,
    /// Records of the unread batches so far (see [`MAX_UNREAD_RECORDS`]).
    unread: i64,
}

/// Records in a batch whose records are not read are bounded by what a batch can hold (the
/// decompression cap over the 7-byte minimum record), so a crafted header cannot make the
/// import allocate without bound.
/// The same bound holds for all the unread batches of a segment, and of a partition: a 61-byte
/// header can claim 38 million records, and each takes 8 bytes once held.
pub const MAX_UNREAD_RECORDS: i64 = (super::codec::MAX_DECOMPRESSED / 7) as i64;

/// Records of the batches of `log` whose records were not read.
fn unread_records(log: &SegmentLog) -> i64 {
    log.unexpanded
        .iter()
        .map(|u| {
            u.last_offset
                .0
                .saturating_sub(u.base_offset.0)
                .saturating_add(1)
        })
        .fold(0i64, i64::saturating_add)
}

fn missing_refusal(total: u64, whose: &str) -> String {
    format!(
        "{whose} offsets removed by compaction count {total} by now; logtime holds at most {MAX_UNREAD_RECORDS} such offsets (each is held as a record without a timestamp)"
    )
}

fn unread_refusal(total: i64, whose: &str) -> String {
    format!(
        "{whose} batches whose records are not read count {total} records by now; logtime holds at most {MAX_UNREAD_RECORDS} such records (the decompression cap over the 7-byte smallest record)"
    )
}

impl SegmentLogBuilder {
    /// A builder for the segment at `base_offset`.
    pub fn new(base_offset: Offset) -> SegmentLogBuilder {
        SegmentLogBuilder {
            log: SegmentLog {
                base_offset,
                batches: Vec::new(),
                timestamps: Vec::new(),
                unexpanded: Vec::new(),
                formats: BatchFormats::default(),
                end: LogEnd {
                    file_bytes: 0,
                    valid_bytes: 0,
                    damage: None,
                },
                problem: None,
                compacted: Compacted::default(),
            },
            next: base_offset,
            unread: 0,
        }
    }

    /// The offset the next batch should start at.
    pub fn next_offset(&self) -> Offset {
        self.next
    }

    fn problem(&mut self, p: String) {
        if self.log.problem.is_none() {
            self.log.problem = Some(p);
        }
    }

    /// Adds the next batch.
    pub fn push(&mut self, b: LogBatch) {
        if self.log.problem.is_some() {
            return;
        }
        let f = &mut self.log.formats;
        f.by_magic[(b.magic as usize).min(2)] += 1;
        if b.compression != Compression::None {
            let name = b.compression.name();
            match f.compressed.iter_mut().find(|(n, _)| n == name) {
                Some((_, c)) => *c += 1,
                None => f.compressed.push((name.to_string(), 1)),
            }
        }
        if b.timestamp_type == TimestampKind::LogAppendTime {
            f.log_append_time += 1;
        }
        if b.control {
            f.control += 1;
        }
        if b.base_offset < self.next {
            return self.problem(format!(
                "the batch at byte {} starts at offset {} where {} was expected: it overlaps the offsets before it",
                b.position, b.base_offset, self.next
            ));
        }
        // Offsets the cleaner removed before this batch go into it, as records without a
        // stamp: Kafka's read of such an offset lands in this batch too (its last offset is the
        // first at or after the one asked for).
        let gap = b.base_offset.0 - self.next.0;
        if gap > 0 && !self.missing(b.position, gap) {
            return;
        }
        let first = self.next;
        let n = b.last_offset.0.wrapping_sub(first.0).wrapping_add(1);
        if n <= 0 || n > MAX_UNREAD_RECORDS {
            return self.problem(format!(
                "the batch at byte {} spans offsets {} to {}: not a plausible batch",
                b.position, b.base_offset, b.last_offset
            ));
        }
        match b.records {
            Records::Expanded { records } => {
                let in_order = records.windows(2).all(|w| w[0].offset < w[1].offset)
                    && records
                        .iter()
                        .all(|r| r.offset >= b.base_offset && r.offset <= b.last_offset);
                if !in_order {
                    return self.problem(format!(
                        "the batch at byte {} holds records outside offsets {} to {}, or out of order",
                        b.position, b.base_offset, b.last_offset
                    ));
                }
                let inside = (b.last_offset.0 - b.base_offset.0 + 1) - records.len() as i64;
                if inside > 0 && !self.missing(b.position, inside) {
                    return;
                }
                let mut at = first.0;
                for r in &records {
                    let skip = (r.offset.0 - at) as usize;
                    self.log.timestamps.extend(std::iter::repeat_n(-1, skip));
                    self.log.timestamps.push(r.timestamp.0);
                    at = r.offset.0 + 1;
                }
                let tail = (b.last_offset.0 + 1 - at) as usize;
                self.log.timestamps.extend(std::iter::repeat_n(-1, tail));
            }
            Records::NotExpanded { why } => {
                let gap = gap as usize;
                self.log.timestamps.extend(std::iter::repeat_n(-1, gap));
                let own = (n as usize).saturating_sub(gap);
                if let Some(c) = b.count {
                    // Which of the batch's offsets are gone is unknown: its records stand at
                    // its max timestamp, as any unread batch's do.
                    if (c as usize) < own && !self.missing(b.position, (own - c as usize) as i64) {
                        return;
                    }
                }
                self.unread = self.unread.saturating_add(n);
                if self.unread > MAX_UNREAD_RECORDS {
                    return self.problem(format!(
                        "at the batch at byte {}: {}",
                        b.position,
                        unread_refusal(self.unread, "this segment's")
                    ));
                }
                self.log
                    .timestamps
                    .extend(std::iter::repeat_n(b.max_timestamp.0, own));
                // A one-record batch's max timestamp is its record's: nothing is unknown.
                if n > 1 {
                    self.log.unexpanded.push(UnexpandedBatch {
                        base_offset: b.base_offset,
                        last_offset: b.last_offset,
                        position: b.position,
                        why,
                    });
                }
            }
        }
        self.log.batches.push(BatchSeed {
            base_offset: first,
            last_offset: b.last_offset,
            position: Bytes(b.position as i64),
            size: Bytes(b.size as i64),
            max_timestamp: b.max_timestamp,
            log_append_time: b.timestamp_type == TimestampKind::LogAppendTime,
        });
        self.next = b.last_offset.plus(1);
    }

    /// Counts `n` offsets removed by compaction before or in the batch at `position`; false
    /// (and the segment's problem) once the segment's gaps pass [`MAX_UNREAD_RECORDS`]: each
    /// batch's gap is bounded by it, but a crafted file of many batches each skipping millions
    /// of offsets would otherwise hold 8 bytes for every offset skipped.
    fn missing(&mut self, position: u64, n: i64) -> bool {
        let c = &mut self.log.compacted;
        c.missing_offsets = c.missing_offsets.saturating_add(n as u64);
        if c.first.is_none() {
            c.first = Some((position, self.next));
        }
        if c.missing_offsets > MAX_UNREAD_RECORDS as u64 {
            let total = c.missing_offsets;
            self.problem(format!(
                "at the batch at byte {position}: {}",
                missing_refusal(total, "this segment's")
            ));
            return false;
        }
        true
    }

    /// The log, with how the reading ended.
    pub fn finish(mut self, end: LogEnd) -> SegmentLog {
        self.log.end = end;
        self.log
    }

    /// The log of an empty `.log` file.
    pub fn finish_empty(self) -> SegmentLog {
        self.finish(LogEnd {
            file_bytes: 0,
            valid_bytes: 0,
            damage: None,
        })
    }
}

/// A segment's `.log` read into the partition's compact form in one object, for callers that
/// need nothing of each batch on the way (the browser's import, the CLI): feed chunks as they
/// are read, show `bytes_read()` as progress, then `finish`.
///
/// ```
/// use logtime_core::import::SegmentReader;
/// use logtime_model::Offset;
/// let mut r = SegmentReader::new(Offset(1_843_200));
/// r.feed(&[]);
/// let log = r.finish();
/// assert!(log.batches.is_empty() && log.end.damage.is_none());
/// ```
#[derive(Debug)]
pub struct SegmentReader {
    reader: super::LogReader,
    builder: SegmentLogBuilder,
}

impl SegmentReader {
    /// A reader for the segment at `base_offset` (the file name's number).
    pub fn new(base_offset: Offset) -> SegmentReader {
        SegmentReader {
            reader: super::LogReader::new(),
            builder: SegmentLogBuilder::new(base_offset),
        }
    }

    /// Feeds the next chunk of the file.
    pub fn feed(&mut self, chunk: &[u8]) {
        let builder = &mut self.builder;
        self.reader.feed(chunk, &mut |b| builder.push(b));
    }

    /// [`Self::feed`], with the CRC-32C of the chunk's batches computed ahead (see
    /// [`LogReader::feed_with_crcs`](super::LogReader::feed_with_crcs)).
    pub fn feed_with_crcs(&mut self, chunk: &[u8], crcs: super::PrecomputedCrcs) {
        let builder = &mut self.builder;
        self.reader
            .feed_with_crcs(chunk, crcs, &mut |b| builder.push(b));
    }

    /// Bytes fed so far.
    pub fn bytes_read(&self) -> u64 {
        self.reader.bytes_read()
    }

    /// Whether an invalid batch has stopped the reading: the rest of the file need not be read.
    pub fn stopped(&self) -> bool {
        self.reader.stopped().is_some()
    }

    /// Counts `n` bytes of the file as read without reading them (after [`Self::stopped`]).
    pub fn skip(&mut self, n: u64) {
        self.reader.skip(n);
    }

    /// The segment's log, once the whole file is fed.
    pub fn finish(self) -> SegmentLog {
        self.builder.finish(self.reader.finish())
    }
}

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

/// What the import found about one segment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentReport {
    /// Base offset.
    pub base_offset: Offset,
    /// Where the reading of `.log` stopped early.
    pub damage: Option<LogDamage>,
    /// `.log` bytes in all.
    pub file_bytes: u64,
    /// Bytes of valid batches.
    pub valid_bytes: u64,
    /// Formats seen.
    pub formats: BatchFormats,
    /// Unread batches.
    pub unexpanded: Vec<UnexpandedBatch>,
    /// The offset index against Kafka's rules.
    pub offset_index: IndexCheck,
    /// The time index against Kafka's rules.
    pub time_index: IndexCheck,
    /// Layout notes about the index files.
    pub index_notes: Vec<(IndexKind, IndexNote)>,
    /// The `.log` modification time was not given: the partition's clock stands in for it.
    pub last_modified_assumed: bool,
    /// Offsets the log cleaner removed.
    pub compacted: Compacted,
}

/// A partition read from its files.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The partition as the broker holds it.
    pub partition: Partition,
    /// Per segment, what the import found.
    pub segments: Vec<SegmentReport>,
}

impl Imported {
    /// Batches whose records were not read, across segments.
    pub fn unexpanded(&self) -> impl Iterator<Item = &UnexpandedBatch> {
        self.segments.iter().flat_map(|s| s.unexpanded.iter())
    }
}

/// Assembles a partition from its segments, added in any order.
#[derive(Debug)]
pub struct PartitionImport {
    topic_partition: String,
    config: Config,
    segments: Vec<(Offset, Pending)>,
    /// Where each base offset's segment is in `segments`: a search of the list for every file
    /// made reading 100,000 segments quadratic.
    slots: std::collections::HashMap<Offset, usize>,
    /// Records of unread batches held so far, across segments (see [`MAX_UNREAD_RECORDS`]).
    unread: i64,
    /// Offsets removed by compaction held so far, across segments (the same bound).
    missing: u64,
    policy_known: bool,
}

#[derive(Debug)]
struct Pending {
    log: Option<SegmentLog>,
    offset_index: Option<IndexFile<OffsetEntry>>,
    time_index: Option<IndexFile<TimeEntry>>,
    last_modified: Option<Timestamp>,
}

impl PartitionImport {
    /// An import for `topic_partition` (e.g. `clicks-0`) under `config` (its `index.interval.bytes`
    /// and `segment.index.bytes` are what the on-disk indexes are compared with).
    pub fn new(topic_partition: &str, config: Config) -> PartitionImport {
        PartitionImport {
            topic_partition: topic_partition.to_string(),
            config,
            segments: Vec::new(),
            slots: std::collections::HashMap::new(),
            unread: 0,
            missing: 0,
            policy_known: false,
        }
    }

    /// Says that the config's `cleanup.policy` is the topic's real one (given, the metadata
    /// log, an internal topic's), not a default standing in for it: a delete-only policy then
    /// refuses offset gaps, which its log cannot have. Left unknown, gaps are accepted and the
    /// report says so.
    pub fn policy_known(&mut self, known: bool) {
        self.policy_known = known;
    }

    fn slot(&mut self, base: Offset) -> &mut Pending {
        let n = self.segments.len();
        let i = *self.slots.entry(base).or_insert(n);
        if i == n {
            self.segments.push((
                base,
                Pending {
                    log: None,
                    offset_index: None,
                    time_index: None,
                    last_modified: None,
                },
            ));
        }
        &mut self.segments[i].1
    }

    /// Adds a segment's `.log`, with the file's modification time when known.
    pub fn add_log(&mut self, base: Offset, mut log: SegmentLog, last_modified: Option<Timestamp>) {
        self.unread = self.unread.saturating_add(unread_records(&log));
        if self.unread > MAX_UNREAD_RECORDS && log.problem.is_none() {
            // Each segment is bounded on its own; this bounds the partition, whose segments
            // are all held until `finish`.
            log.timestamps = Vec::new();
            log.problem = Some(unread_refusal(self.unread, "the partition's segments"));
        }
        self.missing = self.missing.saturating_add(log.compacted.missing_offsets);
        if self.missing > MAX_UNREAD_RECORDS as u64 && log.problem.is_none() {
            log.timestamps = Vec::new();
            log.problem = Some(missing_refusal(self.missing, "the partition's segments'"));
        }
        let s = self.slot(base);
        s.log = Some(log);
        s.last_modified = last_modified;
    }

    /// Adds a segment's `.index`.
    pub fn add_offset_index(&mut self, base: Offset, index: IndexFile<OffsetEntry>) {
        self.slot(base).offset_index = Some(index);
    }

    /// Adds a segment's `.timeindex`.
    pub fn add_time_index(&mut self, base: Offset, index: IndexFile<TimeEntry>) {
        self.slot(base).time_index = Some(index);
    }

    /// Builds the partition at broker time `now`, with `log_start_offset` (default: the first
    /// segment's base offset).
    pub fn finish(
        mut self,
        now: Timestamp,
        log_start_offset: Option<Offset>,
    ) -> Result<Imported, ImportError> {
        self.segments.sort_by_key(|(b, _)| *b);
        if self.segments.is_empty() {
            return Err(ImportError::NoSegments);
        }
        let n = self.segments.len();
        let mut seeds = Vec::with_capacity(n);
        let mut reports = Vec::with_capacity(n);
        for (i, (base, p)) in self.segments.into_iter().enumerate() {
            let Some(log) = &p.log else {
                return Err(ImportError::MissingLog { base_offset: base });
            };
            if let Some(problem) = &log.problem {
                return Err(ImportError::NotModelled {
                    base_offset: base,
                    reason: problem.clone(),
                });
            }
            if let Some((position, expected)) = log.compacted.first {
                if self.policy_known && !self.config.retention_by_cleaner() {
                    return Err(ImportError::NotModelled {
                        base_offset: base,
                        reason: format!(
                            "offsets are missing from byte {position} on (offset {expected} expected): a compacted log, but cleanup.policy is {}, whose offsets are contiguous (a gap between files, or the wrong policy given)",
                            self.config.topic.cleanup_policy.name()
                        ),
                    });
                }
            }
            let (seed, report) = check_segment(base, p, i + 1 == n, &self.config);
            seeds.push(seed);
            reports.push(report);
        }
        let bases: Vec<Offset> = seeds.iter().map(|s: &SegmentSeed| s.base_offset).collect();
        let partition = seed::build(
            self.config,
            &self.topic_partition,
            now,
            0,
            LogSeed {
                log_start_offset,
                segments: seeds,
            },
        )
        .map_err(|error| ImportError::Seed {
            base_offset: error.segment.map(|i| bases[i]),
            error,
        })?;
        Ok(Imported {
            partition,
            segments: reports,
        })
    }
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

fn check_segment(
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
    // Which of the two the model uses is settled by `seed::build`'s checks: an index that
    // does not fit the batches is replaced by the rules' one.
    let probe = |oi: Option<Vec<(Offset, Bytes)>>, ti: Option<Vec<(Timestamp, Offset)>>| {
        let s = SegmentSeed {
            base_offset: base,
            batches: log.batches.clone(),
            timestamps: vec![0; log.timestamps.len()],
            offset_index: oi,
            time_index: ti,
            last_modified: None,
        };
        seed::build(
            config.clone(),
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
    };
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
    let (oi_check, oi_used) = match offset_index {
        None => (IndexCheck::Missing, None),
        Some(disk) => match first_difference(&disk, &rules_oi, |a, b| a == b) {
            None => (IndexCheck::Matches { closed: false }, Some(disk)),
            Some(slot) => {
                let unusable = probe(Some(disk.clone()), Some(Vec::new()));
                let check = IndexCheck::Differs {
                    slot,
                    on_disk: disk.get(slot).map(|e| (e.0 .0, e.1 .0)),
                    expected: rules_oi.get(slot).map(|e| (e.0 .0, e.1 .0)),
                    interval_range: consistent_interval(&log.batches, &disk),
                    used: unusable.is_none(),
                    unusable: unusable.clone(),
                };
                (check, unusable.is_none().then_some(disk))
            }
        },
    };
    let inferred = match &oi_check {
        IndexCheck::Differs { interval_range, .. } => *interval_range,
        _ => None,
    };
    let (ti_check, ti_used) = match time_index {
        None => (IndexCheck::Missing, None),
        Some(disk) => {
            let eq = |a: (Timestamp, Offset), b: (Timestamp, Offset)| a == b;
            let closed_match = first_difference(&disk, &rules_ti_closed, eq).is_none();
            let live_match = active && first_difference(&disk, &rules_ti_live, eq).is_none();
            if closed_match || live_match {
                // A one-batch active segment has the same entries live and closed: say live.
                (
                    IndexCheck::Matches {
                        closed: active && !live_match,
                    },
                    Some(disk),
                )
            } else if let Some(range) = inferred.filter(|r| {
                // Under the interval the offset index shows, the time index may match too.
                let (_, closed) = rules_indexes(&log.batches, base, r.0, true);
                let (_, live) = rules_indexes(&log.batches, base, r.0, false);
                first_difference(&disk, &closed, eq).is_none()
                    || active && first_difference(&disk, &live, eq).is_none()
            }) {
                let expected = if active {
                    &rules_ti_live
                } else {
                    &rules_ti_closed
                };
                let slot = first_difference(&disk, expected, eq).unwrap_or(0);
                (
                    IndexCheck::Differs {
                        slot,
                        on_disk: disk.get(slot).map(|e| (e.0 .0, e.1 .0)),
                        expected: expected.get(slot).map(|e| (e.0 .0, e.1 .0)),
                        interval_range: Some(range),
                        used: true,
                        unusable: None,
                    },
                    Some(disk),
                )
            } else {
                let expected = if active {
                    &rules_ti_live
                } else {
                    &rules_ti_closed
                };
                let slot = first_difference(&disk, expected, eq).unwrap_or(0);
                let unusable = probe(Some(Vec::new()), Some(disk.clone()));
                let check = IndexCheck::Differs {
                    slot,
                    on_disk: disk.get(slot).map(|e| (e.0 .0, e.1 .0)),
                    expected: expected.get(slot).map(|e| (e.0 .0, e.1 .0)),
                    interval_range: None,
                    used: unusable.is_none(),
                    unusable: unusable.clone(),
                };
                (check, unusable.is_none().then_some(disk))
            }
        }
    };
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
