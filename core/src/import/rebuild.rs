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

use super::index_check::{check_segment, IndexCheck};
use super::index_file::{IndexFile, IndexKind, IndexNote, OffsetEntry, TimeEntry};
use super::log_batch::LogDamage;
use super::seed::{self, LogSeed, SegmentSeed};
use super::segment_log::{
    missing_refusal, unread_records, unread_refusal, BatchFormats, Compacted, SegmentLog,
    UnexpandedBatch, MAX_UNREAD_RECORDS,
};
use super::ImportError;
use logtime_model::config::Config;
use logtime_model::partition::Partition;
use logtime_model::units::{Offset, Timestamp};
use serde::{Deserialize, Serialize};
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

/// A segment's files as they are added, in any order.
#[derive(Debug)]
pub(super) struct Pending {
    pub(super) log: Option<SegmentLog>,
    pub(super) offset_index: Option<IndexFile<OffsetEntry>>,
    pub(super) time_index: Option<IndexFile<TimeEntry>>,
    pub(super) last_modified: Option<Timestamp>,
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
