//! # logtime-model
//!
//! The hot half of `logtime-core`: the exact, sans-I/O model of one Apache Kafka partition's
//! record timestamps (KIP-937 validation, v2 batch sizes, segment rolling, the offset and time
//! indexes, offset-for-time lookups with a step-by-step trace, retention with a verdict per
//! segment, DeleteRecords) and the scenario [`scenario::Runner`] that replays steps against it.
//!
//! It is a crate of its own so that the browser build can optimise it for speed (a replay of
//! ten million records runs through it) while the rest of `logtime-core`, text parsers, lessons,
//! narration, imports and the stream processor, is optimised for size (see `[profile.wasm-release]`
//! in the workspace's `Cargo.toml`). `logtime-core` re-exports every module and item here under
//! the same paths (`logtime_core::Partition`, `logtime_core::scenario::Runner`, ...); use it
//! rather than this crate. Items marked `#[doc(hidden)]` are shared with `logtime-core` and are
//! not an API.
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
// The hidden concept modules' own docs link to items private to the crate: they are read in the
// source, as they were when the modules were private to `logtime-core`.
#![allow(rustdoc::private_intra_doc_links)]

// The concept modules are public for `logtime-core`, which names them as its own
// (`crate::partition::...`); their items are documented at the root, where they are re-exported.
#[doc(hidden)]
pub mod batch;
#[doc(hidden)]
pub mod batches;
#[doc(hidden)]
pub mod config;
#[doc(hidden)]
pub mod diagnosis;
#[doc(hidden)]
pub mod error;
#[doc(hidden)]
pub mod event;
pub mod human;
#[doc(hidden)]
pub mod index;
#[doc(hidden)]
pub mod lookup;
#[doc(hidden)]
pub mod offset_index;
#[doc(hidden)]
pub mod partition;
#[doc(hidden)]
pub mod retention;
#[doc(hidden)]
pub mod rng;
pub mod scenario;
pub mod seed;
#[doc(hidden)]
pub mod segment;
#[doc(hidden)]
pub mod time_index;
#[doc(hidden)]
pub mod units;
#[doc(hidden)]
pub mod validation;

pub use batch::{batch_size, Header, Record};
pub use config::{
    BrokerConfig, CleanupPolicy, Config, ConfigError, ConfigKey, ConfigKind, ConfigUnit,
    ConfigValue, KafkaVersion, TimestampType, TopicConfig, CONFIG_KEYS,
};
pub use diagnosis::{Diagnosis, Finding};
pub use error::{DeleteRecordsError, Error};
pub use event::{Appended, Event, LogStartReason, Roll};
pub use index::{Comparison, Index, Probe, ProbePhase};
pub use lookup::{Elided, Lookup, LookupError, OffsetSpec, RecordMatch, TraceStep, TRACE_RUN};
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
