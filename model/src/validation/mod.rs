//! Leader-side validation of a produced batch (`LogValidator`, KIP-937), and the Kafka error
//! responses a batch can get on the produce path.
//!
//! Order, as in `UnifiedLog.append`: `max.message.bytes` (`analyzeAndValidateRecords`), then per
//! record the compacted-topic key check and the timestamp range check, then `segment.bytes`.
//! One bad record rejects the whole batch; every bad record gets a `record_errors` entry.

mod common;
mod errors;

pub(crate) use common::Limits;
pub use errors::{ErrorCode, ProduceError, RecordError};

use crate::batch::{batch_size, max_timestamp, Record};
use crate::config::Config;
use crate::diagnosis::{diagnose, Diagnosis};
use crate::units::{Bytes, Timestamp};
use common::accepted_single;
use errors::INVALID_TIMESTAMP_MESSAGE;

/// What validation hands on to the append.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Validated {
    /// The batch's size in bytes.
    pub size: Bytes,
    /// The batch's max timestamp as written into its header: recomputed from the records under
    /// CreateTime, `now` under LogAppendTime.
    pub max_timestamp: Timestamp,
    /// `Some(now)` when the topic is LogAppendTime (every record then reads `now`).
    pub log_append_time: Option<Timestamp>,
    /// Suspicious but accepted stamps, for teaching.
    pub diagnoses: Vec<Diagnosis>,
}

/// The per-record message for an out-of-range timestamp (`LogValidator.java:617-620`).
pub(crate) fn out_of_range_message(
    ts: Timestamp,
    relative_offset: u32,
    lower: Timestamp,
    upper: Timestamp,
) -> String {
    format!(
        "Timestamp {ts} of message with offset {relative_offset} is out of range. The timestamp should be within [{lower}, {upper}]"
    )
}

/// The acceptable window Kafka prints: `[now - before, now + after]`, wrapping like Java longs.
pub(crate) fn window(config: &Config, now: Timestamp) -> (Timestamp, Timestamp) {
    (
        now.wrapping_add(config.effective_before_max_ms().wrapping_neg()),
        now.wrapping_add(config.effective_after_max_ms()),
    )
}

/// Whether one CreateTime stamp passes KIP-937's check: strict `>` on the wrapped difference.
pub(crate) fn timestamp_in_range(ts: Timestamp, now: Timestamp, before: i64, after: i64) -> bool {
    if ts == Timestamp::NONE {
        return true;
    }
    let diff = now.wrapping_since(ts);
    !(diff > before || diff.wrapping_neg() > after)
}

/// Validates one batch at broker time `now` for topic-partition `tp` (used in messages).
pub fn validate(
    config: &Config,
    tp: &str,
    now: Timestamp,
    records: &[Record],
) -> Result<Validated, ProduceError> {
    validate_with(&Limits::of(config), config, tp, now, records)
}

/// [`validate`] with the config's [`Limits`] already worked out.
pub(crate) fn validate_with(
    limits: &Limits,
    config: &Config,
    tp: &str,
    now: Timestamp,
    records: &[Record],
) -> Result<Validated, ProduceError> {
    if let [r] = records {
        if let Some(v) = accepted_single(limits, now, r) {
            return Ok(v);
        }
    }
    let size = batch_size(records);
    let t = &config.topic;
    let create_time = limits.create_time;
    let win = create_time.then(|| window(config, now));
    let reject = |error: ErrorCode,
                  error_message: String,
                  record_errors: Vec<RecordError>,
                  diagnoses| ProduceError {
        error,
        error_message,
        broker_log: None,
        record_errors,
        window: win,
        now,
        diagnoses,
    };
    // The size errors reach the client without their text (see `ProduceError::error_message`).
    let size_error = |error: ErrorCode, text: String, diagnoses| ProduceError {
        broker_log: Some(Box::new(text)),
        ..reject(
            error,
            error.default_message().to_string(),
            Vec::new(),
            diagnoses,
        )
    };
    if size.0 > t.max_message_bytes {
        // Kafka's text has the stray parenthesis (UnifiedLog.analyzeAndValidateRecords).
        return Err(size_error(
            ErrorCode::MessageTooLarge,
            format!(
                "The record batch size in the append to {tp} is {} bytes which exceeds the maximum configured value of {}).",
                size.0, t.max_message_bytes
            ),
            Vec::new(),
        ));
    }
    let checks = check_records(limits, config, tp, now, win, records);
    if let Some((error, message)) = checks.rejection() {
        return Err(reject(error, message, checks.errors, checks.diagnoses));
    }
    let diagnoses = checks.diagnoses;
    if size.0 > t.segment_bytes {
        return Err(size_error(
            ErrorCode::RecordListTooLarge,
            format!(
                "Message batch size is {} bytes in append to partition {tp}, which exceeds the maximum configured segment size of {}.",
                size.0, t.segment_bytes
            ),
            diagnoses,
        ));
    }
    let (max_timestamp, log_append_time) = if create_time {
        (max_timestamp(records), None)
    } else {
        (now, Some(now))
    };
    Ok(Validated {
        size,
        max_timestamp,
        log_append_time,
        diagnoses,
    })
}

/// What the per-record checks of a batch found: every bad record's error, whether any of them
/// is a timestamp out of range, and the diagnoses of suspicious stamps.
struct RecordChecks {
    errors: Vec<RecordError>,
    any_timestamp_error: bool,
    diagnoses: Vec<Diagnosis>,
}

/// `LogValidator`'s per-record checks: the compacted-topic key check, then (CreateTime only)
/// KIP-937's window, `win` being the window Kafka prints.
fn check_records(
    limits: &Limits,
    config: &Config,
    tp: &str,
    now: Timestamp,
    win: Option<(Timestamp, Timestamp)>,
    records: &[Record],
) -> RecordChecks {
    let t = &config.topic;
    let create_time = limits.create_time;
    let (before, after) = (limits.before, limits.after);
    let mut errors = Vec::new();
    let mut any_timestamp_error = false;
    let mut diagnoses = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let i = i as u32;
        if t.cleanup_policy.compact && !r.has_key() {
            // The key check comes first and hides the timestamp (LogValidator.java:586-591).
            errors.push(RecordError {
                batch_index: i,
                message: format!(
                    "Compacted topic cannot accept message without key in topic partition {tp}"
                ),
            });
            continue;
        }
        if !create_time {
            continue;
        }
        let ok = timestamp_in_range(r.timestamp, now, before, after);
        if !ok {
            let (lo, hi) = win.expect("create time has a window");
            errors.push(RecordError {
                batch_index: i,
                message: out_of_range_message(r.timestamp, i, lo, hi),
            });
            any_timestamp_error = true;
        }
        if let Some(d) = diagnose(i, r.timestamp, now, config, !ok) {
            diagnoses.push(d);
        }
    }
    RecordChecks {
        errors,
        any_timestamp_error,
        diagnoses,
    }
}

impl RecordChecks {
    /// The batch's error and `error_message` when a record is bad: INVALID_TIMESTAMP when any
    /// stamp is out of range, else INVALID_RECORD, whose message shows the first three errors.
    fn rejection(&self) -> Option<(ErrorCode, String)> {
        if self.errors.is_empty() {
            return None;
        }
        Some(if self.any_timestamp_error {
            (
                ErrorCode::InvalidTimestamp,
                INVALID_TIMESTAMP_MESSAGE.to_string(),
            )
        } else {
            (
                ErrorCode::InvalidRecord,
                invalid_record_message(&self.errors),
            )
        })
    }
}

/// The `error_message` of an INVALID_RECORD rejection: the count and the first three errors.
fn invalid_record_message(errors: &[RecordError]) -> String {
    let shown: Vec<String> = errors
        .iter()
        .take(3)
        .map(|e| {
            format!(
                "RecordError(batchIndex={}, message='{}')",
                e.batch_index, e.message
            )
        })
        .collect();
    format!(
        "One or more records have been rejected due to {} record errors in total, and only showing the first three errors at most: [{}]",
        errors.len(),
        shown.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ConfigValue, KafkaVersion};

    const NOW: Timestamp = Timestamp(1_700_000_000_000);

    fn cfg(version: KafkaVersion, sets: &[(&str, i64)]) -> Config {
        let mut c = Config::defaults(version);
        for (k, v) in sets {
            c.set(k, &ConfigValue::Number(*v)).unwrap();
        }
        c
    }

    fn batch(ts: &[i64]) -> Vec<Record> {
        ts.iter().map(|t| Record::at(Timestamp(*t))).collect()
    }

    /// Values where the arithmetic of the checks turns: the extremes, zero, an hour.
    fn edgy() -> impl proptest::strategy::Strategy<Value = i64> {
        use proptest::prelude::*;
        prop_oneof![
            prop::sample::select(vec![
                i64::MIN,
                i64::MIN + 1,
                -3_600_001,
                -3_600_000,
                -1,
                0,
                1,
                3_600_000,
                3_600_001,
                i64::MAX - 1,
                i64::MAX,
            ]),
            -10_000_000i64..10_000_000,
            any::<i64>(),
        ]
    }

    proptest::proptest! {
        /// A stamp inside `common_ahead` is one `stamp_common` accepts, whatever the limits.
        #[test]
        fn the_common_window_admits_only_common_stamps(
            before in edgy(), after in edgy(), retention_ms in edgy(),
            now in edgy(), ts in edgy(), near in -5_000_000i64..5_000_000,
        ) {
            let limits = Limits {
                create_time: true,
                compact: false,
                before,
                after,
                max_message_bytes: 1 << 20,
                segment_bytes: 1 << 30,
                retention_ms,
            };
            let window = limits.common_ahead();
            for ts in [ts, now.saturating_add(near)] {
                if ts.checked_sub(now).is_some_and(|a| window.contains(&a)) {
                    proptest::prop_assert!(limits.stamp_common(Timestamp(now), Timestamp(ts)));
                }
            }
        }
    }

    /// A11 (derived from LogValidator.java:633-635): strict bounds, -1 exempt.
    #[test]
    fn a11_boundaries_are_inclusive() {
        let c = cfg(
            KafkaVersion::V3_6,
            &[
                ("message.timestamp.before.max.ms", 1000),
                ("message.timestamp.after.max.ms", 1000),
            ],
        );
        for (ts, ok) in [
            (1_699_999_999_000, true),
            (1_699_999_998_999, false),
            (1_700_000_001_000, true),
            (1_700_000_001_001, false),
            (-1, true),
        ] {
            assert_eq!(
                validate(&c, "t-0", NOW, &batch(&[ts])).is_ok(),
                ok,
                "ts {ts}"
            );
        }
    }

    /// A12: 4.0 defaults and the exact message.
    #[test]
    fn a12_four_oh_defaults_message() {
        let c = Config::defaults(KafkaVersion::V4_0);
        assert!(validate(&c, "t-0", NOW, &batch(&[1_700_003_600_000])).is_ok());
        let e = validate(&c, "t-0", NOW, &batch(&[1_700_003_600_001])).unwrap_err();
        assert_eq!(e.error.code(), 32);
        assert_eq!(e.error_message, INVALID_TIMESTAMP_MESSAGE);
        assert_eq!(
            e.record_errors[0].message,
            "Timestamp 1700003600001 of message with offset 0 is out of range. The timestamp should be within [-9223370336854775807, 1700003600000]"
        );
    }

    /// A13: 3.x wraps the printed upper bound.
    #[test]
    fn a13_three_x_upper_bound_wraps() {
        let c = cfg(
            KafkaVersion::V3_6,
            &[("message.timestamp.before.max.ms", 86_400_000)],
        );
        let e = validate(&c, "t-0", NOW, &batch(&[1_699_913_599_999])).unwrap_err();
        assert!(
            e.record_errors[0]
                .message
                .ends_with("[1699913600000, -9223370336854775809]"),
            "{}",
            e.record_errors[0].message
        );
    }

    /// A14: Long.MIN wraps the check itself.
    #[test]
    fn a14_long_min_flips_to_future() {
        let b = batch(&[i64::MIN]);
        assert!(validate(&Config::defaults(KafkaVersion::V3_6), "t-0", NOW, &b).is_ok());
        assert!(validate(&Config::defaults(KafkaVersion::V4_0), "t-0", NOW, &b).is_err());
    }

    /// A1/A2/A3/A9 (`testRecordWithPastTimestampIsRejected`, `testRecordWithFutureTimestampIsRejected`,
    /// `ProduceRequestTest.testProduceWithInvalidTimestamp`): every bad record is reported.
    #[test]
    fn a2_a3_every_record_gets_an_error() {
        let c = cfg(
            KafkaVersion::V4_0,
            &[("message.timestamp.before.max.ms", 86_400_000)],
        );
        let past = NOW.0 - 86_400_000 - 300_000;
        let e = validate(&c, "t-0", NOW, &batch(&[past, past, past])).unwrap_err();
        assert_eq!(
            e.record_errors
                .iter()
                .map(|r| r.batch_index)
                .collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        let fut = NOW.0 + 3_600_000 + 300_000;
        let e = validate(&c, "t-0", NOW, &batch(&[fut, fut, fut])).unwrap_err();
        assert_eq!(e.record_errors.len(), 3);
        assert_eq!(e.error_message, INVALID_TIMESTAMP_MESSAGE);
    }

    /// A9's `difference` variant, 3.6–3.9 only.
    #[test]
    fn a9_difference_rejects_in_three_x() {
        let c = cfg(
            KafkaVersion::V3_6,
            &[("message.timestamp.difference.max.ms", 1000)],
        );
        let five_hours = 5 * 3_600_000;
        let e = validate(&c, "t-0", NOW, &batch(&[NOW.0 - five_hours; 3])).unwrap_err();
        assert_eq!(e.error.code(), 32);
        assert_eq!(e.record_errors.len(), 3);
    }

    /// A5 (`testBatchWithInvalidRecordsAndInvalidTimestamp`): the timestamp error wins and every
    /// error is attached; here the other errors are compacted-topic key errors.
    #[test]
    fn a5_invalid_timestamp_wins_over_invalid_record() {
        let mut c = cfg(
            KafkaVersion::V4_0,
            &[
                ("message.timestamp.before.max.ms", 1000),
                ("message.timestamp.after.max.ms", 1000),
            ],
        );
        c.set("cleanup.policy", &ConfigValue::Text("compact".into()))
            .unwrap();
        let mut b = batch(&[1200, 0, 0, 0, 0, 0]);
        b[0].key_bytes = 3;
        let e = validate(&c, "t-0", Timestamp(0), &b).unwrap_err();
        assert_eq!(e.error, ErrorCode::InvalidTimestamp);
        assert_eq!(e.record_errors.len(), 6);
        b[0].timestamp = Timestamp(0);
        let e = validate(&c, "t-0", Timestamp(0), &b).unwrap_err();
        assert_eq!(e.error, ErrorCode::InvalidRecord);
        assert!(e.error_message.starts_with("One or more records have been rejected due to 5 record errors in total, and only showing the first three errors at most: [RecordError(batchIndex=1, message='Compacted topic cannot accept message without key in topic partition t-0')"));
    }

    /// An empty key is a key (`LogValidator.validateKey` rejects only `!record.hasKey()`, and
    /// `DefaultRecord.hasKey()` is `key != null`): a compacted topic appends it, and a bad stamp
    /// next to it is INVALID_TIMESTAMP with one record error, not INVALID_RECORD.
    #[test]
    fn empty_key_is_a_key_on_compacted_topics() {
        let mut c = cfg(
            KafkaVersion::V4_0,
            &[("message.timestamp.after.max.ms", 1000)],
        );
        c.set("cleanup.policy", &ConfigValue::Text("compact".into()))
            .unwrap();
        let empty = |ts| Record::with_key(Timestamp(ts), Some(0), 100);
        assert!(validate(&c, "t-0", NOW, &[empty(NOW.0)]).is_ok());
        let e = validate(&c, "t-0", NOW, &[empty(NOW.0), Record::at(NOW)]).unwrap_err();
        assert_eq!(e.error, ErrorCode::InvalidRecord);
        assert_eq!(e.record_errors.len(), 1);
        assert_eq!(e.record_errors[0].batch_index, 1);
        let e = validate(&c, "t-0", NOW, &[empty(NOW.0 + 1001), empty(NOW.0)]).unwrap_err();
        assert_eq!(e.error, ErrorCode::InvalidTimestamp);
        assert_eq!(e.record_errors.len(), 1);
    }

    /// A6/A7: max timestamp recomputed under CreateTime, `now` under LogAppendTime.
    #[test]
    fn a6_a7_max_timestamp() {
        let c = cfg(
            KafkaVersion::V3_6,
            &[
                ("message.timestamp.before.max.ms", 1000),
                ("message.timestamp.after.max.ms", 1000),
            ],
        );
        let v = validate(&c, "t-0", NOW, &batch(&[NOW.0 - 1, NOW.0 + 1, NOW.0])).unwrap();
        assert_eq!(v.max_timestamp, Timestamp(NOW.0 + 1));
        let mut c = c;
        c.set(
            "message.timestamp.type",
            &ConfigValue::Text("LogAppendTime".into()),
        )
        .unwrap();
        let v = validate(&c, "t-0", NOW, &batch(&[1234, 1234, 1234])).unwrap();
        assert_eq!(v.max_timestamp, NOW);
        assert_eq!(v.log_append_time, Some(NOW));
    }

    #[test]
    fn size_limits() {
        let mut c = Config::defaults(KafkaVersion::V3_6);
        c.set("segment.bytes", &ConfigValue::Number(100)).unwrap();
        let e = validate(&c, "t-0", NOW, &batch(&[NOW.0])).unwrap_err();
        assert_eq!(e.error.code(), 18);
        // The response carries no text for size errors: the client shows Errors' default message
        // (ReplicaManager: hasCustomErrorMessage = false for RecordBatchTooLargeException).
        assert_eq!(
            e.error_message,
            "The request included message batch larger than the configured segment size on the server."
        );
        assert_eq!(e.broker_log.as_deref().map(String::as_str), Some("Message batch size is 170 bytes in append to partition t-0, which exceeds the maximum configured segment size of 100."));
        c.set("max.message.bytes", &ConfigValue::Number(169))
            .unwrap();
        let e = validate(&c, "t-0", NOW, &batch(&[NOW.0])).unwrap_err();
        assert_eq!(e.error.code(), 10);
        assert_eq!(
            e.error_message,
            "The request included a message larger than the max message size the server will accept."
        );
        assert_eq!(e.broker_log.as_deref().map(String::as_str), Some("The record batch size in the append to t-0 is 170 bytes which exceeds the maximum configured value of 169)."));
    }
}
