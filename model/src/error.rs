//! The errors [`crate::Partition::apply`] can return. When `apply` returns an error the partition
//! is unchanged: commands are checked before anything moves, the clock included.

use crate::config::ConfigError;
use crate::units::{Offset, Timestamp};
use crate::validation::{ErrorCode, ProduceError};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A refused DeleteRecords request, as the partition response carries it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeleteRecordsError {
    /// `POLICY_VIOLATION` (44) or `OFFSET_OUT_OF_RANGE` (1).
    pub error: ErrorCode,
    /// Kafka's message.
    pub error_message: String,
}

/// Why a command was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Error {
    /// `now` is earlier than the last instant the partition saw. The model's clock never goes
    /// backwards: a broker's wall clock can, but retention scheduling and roll timing would then
    /// depend on the OS, which this model does not simulate.
    ClockWentBackwards {
        /// The instant given.
        now: Timestamp,
        /// The partition's clock.
        clock: Timestamp,
    },
    /// The broker rejected the produced batch; nothing was appended.
    Produce(ProduceError),
    /// The broker refused DeleteRecords.
    DeleteRecords(DeleteRecordsError),
    /// A config value was refused.
    Config(ConfigError),
    /// A high watermark outside `[log_start_offset, log_end_offset]`.
    HighWatermarkOutOfRange {
        /// The value given.
        requested: Offset,
        /// Lowest allowed (the log start offset).
        min: Offset,
        /// Highest allowed (the log end offset).
        max: Offset,
    },
    /// A command between steps while a scenario step runs in slices
    /// ([`crate::scenario::Runner::step_slice`]): it would land in the middle of the step.
    StepInProgress {
        /// The step running.
        step: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ClockWentBackwards { now, clock } => {
                write!(
                    f,
                    "clock moved backwards: {now} is before the partition's clock {clock}"
                )
            }
            Error::Produce(e) => e.fmt(f),
            Error::DeleteRecords(e) => write!(
                f,
                "error {} {}: {}",
                e.error.code(),
                e.error.name(),
                e.error_message
            ),
            Error::Config(e) => e.fmt(f),
            Error::HighWatermarkOutOfRange {
                requested,
                min,
                max,
            } => {
                write!(f, "high watermark {requested} is outside [{min}, {max}] (log start offset to log end offset)")
            }
            Error::StepInProgress { step } => write!(
                f,
                "step {step} is still running: a command can only run between steps"
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<ConfigError> for Error {
    fn from(e: ConfigError) -> Self {
        Error::Config(e)
    }
}
