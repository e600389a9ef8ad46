//! # logtime-core
//!
//! Scenario files and the narrator, above the Kafka partition model of `logtime-model`: the
//! scenario file format and its parser ([`scenario::parse`]), the session journal that records
//! and replays a reader's own steps ([`scenario::session`]), the JSON report of a replay
//! (`report` feature), the narrator that puts every step into words ([`scenario::narrate`]), and
//! the import of real segment files, indexes and dumps into a scenario ([`import`]). No I/O:
//! everything goes from `&str` or bytes to values.
//!
//! The rules themselves (validation, segments, indexes, lookup, retention, DeleteRecords, the
//! presets) and the scenario runner are `logtime-model`, which the browser build optimises for
//! speed while this crate is optimised for size (see `[profile.wasm-release]` in the workspace's
//! `Cargo.toml`). Lessons (walkthroughs, drills and the stream processor their questions read)
//! are `logtime-lesson`, built on this crate.

// `unsafe_code` is forbidden and `missing_docs` warned for every crate by `[workspace.lints]`.

// The model's modules under their own names, so that `crate::partition::Partition` and the like
// read the same in this crate as in `logtime-model`.
use logtime_model::{
    batch, config, diagnosis, error, event, index, lookup, partition, retention, segment, units,
    validation,
};

pub use logtime_model::human;
pub mod import;
pub mod scenario;

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
