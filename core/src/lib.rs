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

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
pub mod config;
pub mod diagnosis;
pub mod error;
pub mod event;
pub mod human;
pub mod index;
pub mod lookup;
pub mod offset_index;
pub mod partition;
pub mod retention;
pub mod rng;
pub mod scenario;
pub mod segment;
pub mod time_index;
pub mod units;
pub mod validation;

pub use batch::{Header, Record};
pub use config::{CleanupPolicy, Config, ConfigError, ConfigValue, KafkaVersion, TimestampType};
pub use diagnosis::{Diagnosis, Finding};
pub use error::{DeleteRecordsError, Error};
pub use event::{Appended, Event, LogStartReason};
pub use lookup::{Lookup, LookupError, OffsetSpec, RecordMatch, TraceStep};
pub use partition::{Command, Partition, PartitionState, SegmentState};
pub use retention::{RetentionPass, RetentionReport, SegmentVerdict, Verdict};
pub use segment::{RollReason, Segment};
pub use units::{Bytes, Offset, Timestamp};
pub use validation::{ErrorCode, ProduceError, RecordError};

#[cfg(test)]
mod tests;
