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

// `unsafe_code` is forbidden and `missing_docs` warned for every crate by `[workspace.lints]`.

mod batch;
mod batches;
mod config;
mod diagnosis;
mod error;
mod event;
pub mod human;
pub mod import;
mod index;
pub mod lesson;
mod lookup;
mod offset_index;
mod partition;
mod retention;
mod rng;
pub mod scenario;
mod segment;
pub mod stream;
mod time_index;
mod units;
mod validation;

pub use batch::{batch_size, Header, Record};
pub use config::{
    BrokerConfig, CleanupPolicy, Config, ConfigError, ConfigKey, ConfigKind, ConfigUnit,
    ConfigValue, KafkaVersion, TimestampType, TopicConfig, CONFIG_KEYS,
};
pub use diagnosis::{Diagnosis, Finding};
pub use error::{DeleteRecordsError, Error};
pub use event::{Appended, Event, LogStartReason, Roll};
pub use index::{Comparison, Index, Probe, ProbePhase};
pub use lookup::{Lookup, LookupError, OffsetSpec, RecordMatch, TraceStep};
pub use offset_index::OffsetIndex;
pub use partition::{Command, Partition, PartitionState, SegmentState};
pub use retention::{DeletedSegment, RetentionPass, RetentionReport, SegmentVerdict, Verdict};
pub use rng::SplitMix64;
pub use segment::{RollReason, Segment, StoredBatch};
pub use time_index::TimeIndex;
pub use units::{Bytes, Offset, Timestamp};
pub use validation::{validate, ErrorCode, ProduceError, RecordError, Validated};

#[cfg(test)]
mod tests;
