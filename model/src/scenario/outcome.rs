//! What a step did, typed: [`StepReport`] and its [`StepOutcome`], one variant per step kind.
//!
//! The command line, the narrator and the web explorer read these types; the JSON report that
//! `logtime run` prints is one serialisation of them (the `report` feature, `report.rs`).

use crate::config::{ConfigValue, KafkaVersion};
use crate::diagnosis::Diagnosis;
use crate::error::DeleteRecordsError;
use crate::event::{Appended, Roll};
use crate::lookup::{Lookup, LookupError, OffsetSpec};
use crate::partition::PartitionState;
use crate::retention::RetentionReport;
use crate::segment::RollReason;
use crate::units::{Offset, Timestamp};
use crate::validation::ProduceError;

/// What one step did, or one command applied between steps ([`super::Runner::apply`]).
#[derive(Clone, Debug, PartialEq)]
pub struct StepReport {
    /// How many scenario steps had run before this one: a step's 0-based index, or for a command
    /// applied between steps, the number of the step it follows.
    pub index: usize,
    /// Broker time after the step.
    pub now: Timestamp,
    /// What happened, with its figures.
    pub outcome: StepOutcome,
    /// Every segment roll during the step, in order (including the empty segment a retention
    /// check rolls before deleting every segment).
    pub rolls: Vec<Roll>,
    /// Every retention check during the step that deleted something, in order, whether it ran on
    /// schedule or on request.
    pub retention: Vec<RetentionReport>,
}

impl StepReport {
    /// The bases of the segments rolled by appends (retention's own rolls left out), as the
    /// report's `rolled` lists them.
    pub fn rolled_by_appends(&self) -> impl Iterator<Item = Offset> + '_ {
        self.rolls
            .iter()
            .filter(|r| !matches!(r.reason, RollReason::RetentionDeletesAll))
            .map(|r| r.new_base)
    }
}

/// What happened in a step, one variant per step kind.
#[derive(Clone, Debug, PartialEq)]
pub enum StepOutcome {
    /// `produce`: one batch or generated traffic.
    Produce(ProduceOutcome),
    /// `advance`: the clock moved forward by a duration.
    Advance(ClockMoved),
    /// `at`: the clock moved to an instant.
    At(ClockMoved),
    /// `retention`: one check on request, with every segment's verdict.
    Retention(RetentionReport),
    /// `lookup`: a consumer's ListOffsets, answered with its trace or refused.
    Lookup {
        /// What was asked.
        spec: OffsetSpec,
        /// The answer, or the broker's refusal.
        result: Result<Lookup, LookupError>,
    },
    /// `delete_records`: the new low watermark, or the broker's refusal.
    DeleteRecords {
        /// The offset asked for (`-1`: the high watermark).
        offset: i64,
        /// The low watermark (the log start offset) after it, or the refusal.
        result: Result<Offset, DeleteRecordsError>,
    },
    /// `config`: the configs changed, in order.
    Config(Vec<ConfigChange>),
    /// `version`: the version preset switched (an upgrade or a downgrade).
    Version(VersionChange),
    /// `snapshot`: the full partition state.
    Snapshot(PartitionState),
    /// `high_watermark`: the high watermark after the step.
    HighWatermark(Offset),
}

impl StepOutcome {
    /// The step kind: the key of the step in scenario files and in the report (`version` for a
    /// preset switch, which has no step).
    pub fn kind(&self) -> &'static str {
        match self {
            StepOutcome::Produce(_) => "produce",
            StepOutcome::Advance(_) => "advance",
            StepOutcome::At(_) => "at",
            StepOutcome::Retention(_) => "retention",
            StepOutcome::Lookup { .. } => "lookup",
            StepOutcome::DeleteRecords { .. } => "delete_records",
            StepOutcome::Config(_) => "config",
            StepOutcome::Version(_) => "version",
            StepOutcome::Snapshot(_) => "snapshot",
            StepOutcome::HighWatermark(_) => "high_watermark",
        }
    }
}

/// What a produce step did.
#[derive(Clone, Debug, PartialEq)]
pub enum ProduceOutcome {
    /// One batch, appended.
    Appended(Appended),
    /// One batch, rejected by the broker: nothing was appended.
    Rejected(ProduceError),
    /// An empty record set: Kafka returns early and nothing changes.
    Empty,
    /// Generated traffic (`batches`), counted.
    Traffic(Traffic),
}

/// Generated traffic, counted: what `batches` copies of a batch did.
#[derive(Clone, Debug, PartialEq)]
pub struct Traffic {
    /// Batches sent.
    pub batches: u64,
    /// Records in each batch.
    pub records_per_batch: u64,
    /// Broker time between two batches, in ms.
    pub every_ms: i64,
    /// Batches appended.
    pub appended_batches: u64,
    /// Batches rejected.
    pub rejected_batches: u64,
    /// Records appended.
    pub records_appended: u64,
    /// First offset appended (`-1`: none).
    pub first_offset: Offset,
    /// Last offset appended (`-1`: none).
    pub last_offset: Offset,
    /// The first rejected batch, if any.
    pub first_rejection: Option<TrafficRejection>,
    /// Appended batches with suspicious stamps.
    pub diagnosed_batches: u64,
    /// The diagnoses of the first of them.
    pub first_diagnoses: Vec<Diagnosis>,
}

impl Traffic {
    /// Counts a batch appended at offsets `base..=last`.
    pub(crate) fn count_appended(&mut self, base: Offset, last: Offset) {
        self.appended_batches += 1;
        self.records_appended += (last.0 - base.0 + 1) as u64;
        if self.first_offset.0 < 0 {
            self.first_offset = base;
        }
        self.last_offset = last;
    }
}

/// The first batch of generated traffic that the broker rejected.
#[derive(Clone, Debug, PartialEq)]
pub struct TrafficRejection {
    /// Its index among the step's batches, from 0.
    pub batch: u64,
    /// When it was sent.
    pub at: Timestamp,
    /// The broker's response.
    pub error: ProduceError,
}

/// The clock moved forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockMoved {
    /// The broker time before.
    pub from: Timestamp,
    /// Scheduled retention checks that ran on the way (idle ones skipped count once).
    pub checks: usize,
}

/// One config changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigChange {
    /// Kafka name.
    pub name: String,
    /// Value before.
    pub old: ConfigValue,
    /// Value after.
    pub new: ConfigValue,
}

/// The version preset switched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionChange {
    /// Before.
    pub from: KafkaVersion,
    /// After.
    pub to: KafkaVersion,
    /// Explicit settings the new preset does not accept, reset to its defaults.
    pub reset: Vec<String>,
}
