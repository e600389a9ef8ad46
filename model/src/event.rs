//! What happened, and why: the events [`crate::Partition::apply`] returns, in order.
//!
//! The web explorer animates these and the command-line tool narrates them; neither re-derives
//! any Kafka logic.

use crate::config::{ConfigValue, KafkaVersion};
use crate::diagnosis::Diagnosis;
use crate::retention::RetentionReport;
use crate::segment::RollReason;
use crate::units::{Bytes, Offset, Timestamp};
use serde::{Deserialize, Serialize};

/// Why the log start offset moved (`LogStartOffsetIncrementReason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogStartReason {
    /// Retention deleted the segments below it.
    SegmentDeletion,
    /// A DeleteRecords request.
    ClientRecordDeletion,
}

/// One accepted batch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Appended {
    /// Base offset of the segment it went into.
    pub segment: Offset,
    /// First offset assigned.
    pub base_offset: Offset,
    /// Last offset assigned.
    pub last_offset: Offset,
    /// Byte position in the segment.
    pub position: Bytes,
    /// Batch size in bytes.
    pub size: Bytes,
    /// The batch max timestamp the broker wrote.
    pub max_timestamp: Timestamp,
    /// `Some(now)` under LogAppendTime (the response's `log_append_time_ms`), else `None` (-1).
    pub log_append_time: Option<Timestamp>,
    /// Suspicious stamps that were accepted (a clock years ahead under 3.x defaults, a replay
    /// already past retention).
    pub diagnoses: Vec<Diagnosis>,
}

/// The active segment was closed and a new one opened (`LocalLog.roll`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// The segment that stopped being active.
    pub old_base: Offset,
    /// The new active segment's base offset.
    pub new_base: Offset,
    /// Why.
    pub reason: RollReason,
    /// The old segment was empty with the same base, so it was replaced (KAFKA-6388).
    pub replaced_empty: bool,
    /// The jitter drawn for the new segment.
    pub roll_jitter_ms: i64,
}

/// Something that happened inside the partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The active segment was closed and a new one opened.
    SegmentRolled(Roll),
    /// A batch was appended.
    BatchAppended(Appended),
    /// An offset-index entry was written.
    OffsetIndexEntry {
        /// Segment base offset.
        segment: Offset,
        /// Entry offset (last offset of the batch).
        offset: Offset,
        /// Entry position (start of the batch).
        position: Bytes,
    },
    /// A time-index entry was written.
    TimeIndexEntry {
        /// Segment base offset.
        segment: Offset,
        /// The segment's running max timestamp.
        timestamp: Timestamp,
        /// Last offset of the batch that first reached it.
        offset: Offset,
        /// Written when the segment became inactive, not by an append.
        at_roll: bool,
    },
    /// The high watermark moved.
    HighWatermarkMoved {
        /// Before.
        from: Offset,
        /// After.
        to: Offset,
    },
    /// The log start offset moved up.
    LogStartOffsetIncremented {
        /// Before.
        from: Offset,
        /// After.
        to: Offset,
        /// Why.
        reason: LogStartReason,
    },
    /// Retention deleted a segment.
    SegmentDeleted {
        /// Its base offset.
        base_offset: Offset,
        /// Which pass.
        pass: crate::retention::RetentionPass,
        /// Kafka's log line for it, approximately.
        reason: String,
    },
    /// `<segment> contains future timestamp(s), making it ineligible to be deleted`, logged at
    /// WARN by `LogFutureTimestampLogger` from Kafka 4.1 (KAFKA-18929).
    FutureTimestampWarning {
        /// Segment base offset.
        segment: Offset,
        /// Its largest timestamp, ahead of the broker clock.
        largest_timestamp: Timestamp,
    },
    /// A retention check ran (scheduled or on request), with every segment's verdict.
    RetentionChecked(RetentionReport),
    /// DeleteRecords succeeded.
    RecordsDeleted {
        /// The offset asked for (after -1 became the high watermark).
        requested: Offset,
        /// The response's low watermark: the log start offset now.
        low_watermark: Offset,
    },
    /// A config changed.
    ConfigChanged {
        /// Kafka name.
        name: String,
        /// Old value.
        old: ConfigValue,
        /// New value.
        new: ConfigValue,
    },
    /// The version preset changed.
    VersionChanged {
        /// Before.
        from: KafkaVersion,
        /// After.
        to: KafkaVersion,
        /// Explicit settings the new preset does not accept, reset to its defaults.
        reset: Vec<String>,
    },
    /// An empty record set was produced: Kafka returns early and nothing changes.
    EmptyBatchIgnored,
}
