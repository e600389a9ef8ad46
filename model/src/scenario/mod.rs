//! Scenarios (documented in `docs/scenarios.md`): the parsed form and its replay, with no I/O.
//!
//! A scenario fixes the Kafka version, the topic config, the broker clock at the start, a jitter
//! seed and a list of steps. `logtime_core::scenario::parse` turns JSON into a [`Scenario`]
//! (every error names the step index, the field and the reason); a [`Runner`] replays it step by
//! step against a [`crate::Partition`], handing every event to a callback (the web explorer
//! animates them) and returning a typed [`StepReport`] per step, which
//! `logtime_core::scenario::narrate` puts into words and, with `logtime-core`'s `report`
//! feature, serialises as the JSON report `logtime run` prints. A written time is a [`TimeSpec`],
//! resolved when its step runs; `logtime_core::scenario::time` reads it from text.
//!
//! The parser, the narration, the report and the session journal live in `logtime-core`, which
//! re-exports this module's items under the same path.

use crate::config::{Config, ConfigValue, KafkaVersion};
use crate::event::Event;
use crate::lookup::OffsetSpec;
use crate::partition::{Partition, PartitionState};
use crate::seed::LogSeed;
use crate::units::{Offset, Timestamp};
use serde::{Deserialize, Serialize};
use std::fmt;

pub mod budget;
mod outcome;
mod replay;
mod spec;
mod summary;

pub use budget::{
    MAX_LOOKUP_WALK, MAX_RECORDS, MAX_REPLAY_VERDICTS, MAX_RETENTION_LISTING, MAX_SCENARIO_BYTES,
    MAX_SEGMENTS, MAX_SNAPSHOT_VOLUME,
};
pub use outcome::{
    ClockMoved, ConfigChange, ProduceOutcome, StepOutcome, StepReport, Traffic, TrafficRejection,
    VersionChange,
};
pub use replay::{run, Report, Runner, Slice, ROLL_WORK};
pub use spec::{apply_unit, overflow_reason, TimeSpec};
pub use summary::{StepSummary, ViewMarks};

/// A producer's unit mistake: the time it meant, in ms, written in another unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitMistake {
    /// Seconds: the ms value divided by 1000 (Java truncation).
    S,
    /// Microseconds: the ms value times 1000.
    Us,
    /// Nanoseconds: the ms value times 1,000,000.
    Ns,
}

/// One record of a produce step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordSpec {
    /// Its timestamp.
    pub timestamp: TimeSpec,
    /// A unit mistake applied after resolving the timestamp (never to `-1`).
    pub unit: Option<UnitMistake>,
    /// Key size: `None` (absent or `null` in the file) is a null key, `Some(0)` an empty key.
    pub key_bytes: Option<u32>,
    /// Value size.
    pub value_bytes: u32,
}

/// A produce step: one batch, or generated traffic of `batches` batches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProduceStep {
    /// The batch's records.
    pub records: Vec<RecordSpec>,
    /// How many batches (1 for a plain `produce`).
    pub batches: u64,
    /// Broker time between batches, ms.
    pub every_ms: i64,
    /// Added to every timestamp of batch `k`, times `k`, ms.
    pub timestamp_step_ms: i64,
    /// Written as generated traffic (`"batches"` present), which changes the report's shape.
    pub generated: bool,
}

/// One step of a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Produce one batch or generated traffic.
    Produce(ProduceStep),
    /// Move the clock forward by this many ms.
    Advance(i64),
    /// Move the clock to this instant (not before now).
    At(Timestamp),
    /// One retention check now.
    Retention,
    /// A consumer's ListOffsets.
    Lookup(OffsetSpec),
    /// DeleteRecords to this offset (-1 = the high watermark).
    DeleteRecords(i64),
    /// Change configs now, in order.
    Config(Vec<(String, ConfigValue)>),
    /// Record the full partition state.
    Snapshot,
    /// Set the high watermark (a lagging follower); the next append moves it back to the log end.
    HighWatermark(Offset),
    /// Switch the broker's version preset (an upgrade or a downgrade): configs at the old
    /// preset's default take the new one's, explicit settings the new preset refuses are dropped.
    Version(KafkaVersion),
}

impl Step {
    /// The step's key in the file: `produce`, `advance`, `at`, ...
    pub fn kind(&self) -> &'static str {
        match self {
            Step::Produce(_) => "produce",
            Step::Advance(_) => "advance",
            Step::At(_) => "at",
            Step::Retention => "retention",
            Step::Lookup(_) => "lookup",
            Step::DeleteRecords(_) => "delete_records",
            Step::Config(_) => "config",
            Step::Snapshot => "snapshot",
            Step::HighWatermark(_) => "high_watermark",
            Step::Version(_) => "version",
        }
    }
}

/// A parsed scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    /// Optional title.
    pub title: Option<String>,
    /// Optional description for people.
    pub description: Option<String>,
    /// Version preset.
    pub kafka: KafkaVersion,
    /// The resolved config: the preset's defaults with `topic` and `broker` applied.
    pub config: Config,
    /// `topic-partition` used in Kafka's messages (default `clicks-0`).
    pub topic_partition: String,
    /// Broker clock at the start.
    pub start: Timestamp,
    /// Jitter seed.
    pub seed: u64,
    /// The steps.
    pub steps: Vec<Step>,
    /// The log the partition already holds at the start (the `log` key), instead of one empty
    /// segment at offset 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<LogSeed>,
}

impl Scenario {
    /// The partition at the scenario's start: empty, or holding the `log` key's segments.
    ///
    /// # Panics
    /// If `log` does not make a partition. `logtime_core::scenario::parse` checks it, so only a
    /// `Scenario` built by hand with a bad `log` can; [`Scenario::try_partition`] reports that
    /// instead.
    pub fn partition(&self) -> Partition {
        self.try_partition()
            .expect("parse() checked that the log seed builds a partition")
    }

    /// [`Scenario::partition`], or why the `log` key does not make a partition.
    pub fn try_partition(&self) -> Result<Partition, crate::seed::SeedError> {
        match &self.log {
            None => Ok(Partition::new(
                self.config.clone(),
                &self.topic_partition,
                self.start,
                self.seed,
            )),
            Some(log) => crate::seed::build(
                self.config.clone(),
                &self.topic_partition,
                self.start,
                self.seed,
                log.clone(),
            ),
        }
    }
}

/// Why a scenario could not be parsed or replayed. Its `Display` is one line: the step index (if
/// any), the field and the reason, e.g. `step 3: produce.records[0].timestamp: malformed time
/// "now+5x": unknown unit "x"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioError {
    /// 0-based step index, when the error is inside a step.
    pub step: Option<usize>,
    /// The field path, e.g. `topic.segment.bytes` or `produce.records[0].timestamp`.
    pub field: String,
    /// Lowercase reason.
    pub reason: String,
    /// For JSON syntax errors: 1-based line and column.
    pub line_column: Option<(usize, usize)>,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((l, c)) = self.line_column {
            write!(f, "line {l}, column {c}: ")?;
        }
        if let Some(s) = self.step {
            write!(f, "step {s}: ")?;
        }
        if self.field.is_empty() {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "{}: {}", self.field, self.reason)
        }
    }
}

impl std::error::Error for ScenarioError {}

/// An event seen during replay, for callers that animate: the step it belongs to and the broker
/// time at which it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedEvent<'a> {
    /// Step index.
    pub step: usize,
    /// Broker time.
    pub at: Timestamp,
    /// The event.
    pub event: &'a Event,
}

/// Re-exported for report consumers.
pub type State = PartitionState;
