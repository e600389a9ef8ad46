//! The Kafka error responses a batch can get on the produce path: `Errors` (code, name, default
//! message, exception class) and a rejected partition's `ProduceResponse` entry with its
//! `record_errors` (`RecordError`, ProduceResponse v8+).

use crate::diagnosis::Diagnosis;
use crate::units::Timestamp;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Kafka's `error_message` for a batch with an out-of-range timestamp.
pub(crate) const INVALID_TIMESTAMP_MESSAGE: &str =
    "One or more records have been rejected due to invalid timestamp";

/// A Kafka protocol error code with its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorCode {
    /// 1, `OFFSET_OUT_OF_RANGE`.
    OffsetOutOfRange,
    /// 10, `MESSAGE_TOO_LARGE`.
    MessageTooLarge,
    /// 18, `RECORD_LIST_TOO_LARGE`.
    RecordListTooLarge,
    /// 32, `INVALID_TIMESTAMP`.
    InvalidTimestamp,
    /// 44, `POLICY_VIOLATION`.
    PolicyViolation,
    /// 87, `INVALID_RECORD`.
    InvalidRecord,
}

impl ErrorCode {
    /// The numeric code on the wire.
    pub fn code(self) -> i16 {
        match self {
            ErrorCode::OffsetOutOfRange => 1,
            ErrorCode::MessageTooLarge => 10,
            ErrorCode::RecordListTooLarge => 18,
            ErrorCode::InvalidTimestamp => 32,
            ErrorCode::PolicyViolation => 44,
            ErrorCode::InvalidRecord => 87,
        }
    }

    /// The `Errors` enum name.
    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::OffsetOutOfRange => "OFFSET_OUT_OF_RANGE",
            ErrorCode::MessageTooLarge => "MESSAGE_TOO_LARGE",
            ErrorCode::RecordListTooLarge => "RECORD_LIST_TOO_LARGE",
            ErrorCode::InvalidTimestamp => "INVALID_TIMESTAMP",
            ErrorCode::PolicyViolation => "POLICY_VIOLATION",
            ErrorCode::InvalidRecord => "INVALID_RECORD",
        }
    }

    /// `Errors`' default message, what a client shows when the response carries no message of
    /// its own.
    pub fn default_message(self) -> &'static str {
        match self {
            ErrorCode::OffsetOutOfRange => {
                "The requested offset is not within the range of offsets maintained by the server."
            }
            ErrorCode::MessageTooLarge => {
                "The request included a message larger than the max message size the server will accept."
            }
            ErrorCode::RecordListTooLarge => {
                "The request included message batch larger than the configured segment size on the server."
            }
            ErrorCode::InvalidTimestamp => "The timestamp of the message is out of acceptable range.",
            ErrorCode::PolicyViolation => "Request parameters do not satisfy the configured policy.",
            ErrorCode::InvalidRecord => {
                "This record has failed the validation on broker and hence will be rejected."
            }
        }
    }

    /// The exception class a Java client throws for it.
    pub fn exception(self) -> &'static str {
        match self {
            ErrorCode::OffsetOutOfRange => "OffsetOutOfRangeException",
            ErrorCode::MessageTooLarge => "RecordTooLargeException",
            ErrorCode::RecordListTooLarge => "RecordBatchTooLargeException",
            ErrorCode::InvalidTimestamp => "InvalidTimestampException",
            ErrorCode::PolicyViolation => "PolicyViolationException",
            ErrorCode::InvalidRecord => "InvalidRecordException",
        }
    }
}

/// One `record_errors` entry of a produce response (ProduceResponse v8+).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordError {
    /// 0-based position of the record inside its batch.
    pub batch_index: u32,
    /// Kafka's per-record message.
    pub message: String,
}

/// A produce request's partition response when the batch is rejected. Nothing was appended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProduceError {
    /// The error.
    pub error: ErrorCode,
    /// The response's `error_message`, as the client sees it. `ReplicaManager.appendToLocalLog`
    /// forwards the exception's own text only for record validation errors
    /// (`hasCustomErrorMessage`); for the size errors (10, 18) the response carries none and the
    /// client shows `Errors`' default message.
    pub error_message: String,
    /// The exception's text, which the broker logs, when the response does not carry it (the
    /// size errors).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // A thin pointer (8 bytes, a `Box<str>` takes 16) keeps `Error` under clippy's
    // `result_large_err` bound: every command returns it in its `Result`.
    #[allow(clippy::box_collection)]
    pub broker_log: Option<Box<String>>,
    /// One entry per bad record (empty for size errors).
    pub record_errors: Vec<RecordError>,
    /// The acceptable timestamp window `[now - before, now + after]` as Kafka prints it (wrapping),
    /// when the topic is CreateTime.
    pub window: Option<(Timestamp, Timestamp)>,
    /// The broker clock the batch was validated against.
    pub now: Timestamp,
    /// Beyond Kafka: what each rejected or suspicious stamp looks like, for teaching.
    pub diagnoses: Vec<Diagnosis>,
}

impl fmt::Display for ProduceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "error {} {}: {}",
            self.error.code(),
            self.error.name(),
            self.error_message
        )
    }
}

impl std::error::Error for ProduceError {}
