//! # logtime-model
//!
//! The Kafka rules: the exact, sans-I/O model of one Apache Kafka partition's record timestamps
//! (KIP-937 validation, v2 batch sizes, segment rolling, the offset and time indexes,
//! offset-for-time lookups with a step-by-step trace, retention with a verdict per segment,
//! DeleteRecords, the version presets) and the scenario [`scenario::Runner`] that replays steps
//! against it. `model/README.md` lists each rule with the Kafka class it follows.
//!
//! Each rule is one public module named after its Kafka concept, opening with the class it
//! follows; the items callers use most are re-exported at the root. The speed machinery that
//! lets a replay of millions of batches run in the browser (the compact batch store, the run and
//! stretch fast paths, the event sinks) is the private module `fast`, apart from the rules.
//!
//! It is a crate of its own so that the browser build can optimise it for speed while the crates
//! above it, `logtime-core` (the scenario format, its parser, the narrator, the import) and
//! `logtime-lesson`, are optimised for size (see `[profile.wasm-release]` in the workspace's
//! `Cargo.toml`).
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
// Some rule modules' docs link to items private to the crate: they are read in the source too.
#![allow(rustdoc::private_intra_doc_links)]

pub mod batch;
pub mod calendar;
pub mod config;
pub mod diagnosis;
pub mod error;
pub mod event;
mod fast;
pub mod index;
pub mod lookup;
pub mod offset_index;
pub mod partition;
pub mod quantity;
pub mod retention;
pub mod rng;
pub mod scenario;
pub mod seed;
pub mod segment;
pub mod time_index;
pub mod units;
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
