//! # logtime-core
//!
//! An exact, sans-I/O model of one Apache Kafka partition's record timestamps: KIP-937
//! validation, v2 batch sizes, segment rolling, the offset and time indexes, offset-for-time
//! lookups with a step-by-step trace, retention with a verdict per segment, and DeleteRecords.
//!
//! Every number is what a Kafka broker computes; the code cites the Kafka source it follows.
//! Time is always passed in ([`Partition::apply`] takes `now`); nothing reads a clock, and the
//! only randomness (segment jitter) comes from a seeded generator, so replays are deterministic.
//!
//! Operations return [`Event`]s that say what happened and why; queries take `&self`.
//!
//! The `3.6` preset models the 3.9 code paths (MAX_TIMESTAMP by the 3.8+ rule, the batch's last
//! offset as the time index's offset); 3.6.0 and 3.7 differed in that bookkeeping.
//!
//! The partition model and the scenario runner (the explorer's hot loop) are the crate
//! `logtime-model`, which the browser build optimises for speed while this crate (parsers,
//! lessons, narration, imports, the stream processor) is optimised for size; this crate
//! re-exports all of it under the paths below, so callers use `logtime_core` only.

// `unsafe_code` is forbidden and `missing_docs` warned for every crate by `[workspace.lints]`.

// The model's modules under their own names, so that `crate::partition::Partition` and the like
// read the same in this crate as in `logtime-model`.
use logtime_model::{
    batch, config, diagnosis, error, event, index, lookup, partition, retention, rng, segment,
    units, validation,
};

pub use logtime_model::human;
pub mod import;
pub mod lesson;
pub mod scenario;
pub mod stream;

pub use logtime_model::{
    batch_size, validate, Appended, BrokerConfig, Bytes, CleanupPolicy, Command, Comparison,
    Config, ConfigError, ConfigKey, ConfigKind, ConfigUnit, ConfigValue, DeleteRecordsError,
    DeletedSegment, Diagnosis, Elided, Error, ErrorCode, Event, Finding, Header, Index,
    KafkaVersion, LogStartReason, Lookup, LookupError, Offset, OffsetIndex, OffsetSpec, Partition,
    PartitionState, Probe, ProbePhase, ProduceError, Record, RecordError, RecordMatch,
    RetentionPass, RetentionReport, Roll, RollReason, Segment, SegmentState, SegmentVerdict,
    SplitMix64, StoredBatch, TimeIndex, Timestamp, TimestampType, TopicConfig, TraceStep,
    Validated, Verdict, CONFIG_KEYS, TRACE_RUN,
};
