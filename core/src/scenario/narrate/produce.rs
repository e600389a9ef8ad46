//! Batches: appended, rejected, generated traffic, the diagnoses of suspicious stamps, and the
//! segment rolls appends cause.

use super::{count, list, offset_range, Sentence};
use crate::human::{approx_duration, bytes, duration};
use crate::scenario::{ProduceOutcome, StepReport, Traffic};
use logtime_model::diagnosis::{Diagnosis, Finding};
use logtime_model::event::{Appended, Roll};
use logtime_model::segment::RollReason;
use logtime_model::units::Timestamp;
use logtime_model::validation::ProduceError;
use std::fmt::Write;

/// What a stamp looks like, in one sentence: `this looks like nanoseconds, not milliseconds:
/// ÷1,000,000 it is 12 Mar 2027 09:00 UTC`.
pub fn diagnosis(d: &Diagnosis) -> Sentence {
    let mut s = Sentence::new();
    let near = |s: &mut Sentence, as_ms: Timestamp| {
        s.time(as_ms).text(" UTC");
    };
    match d.finding {
        Finding::LooksLikeSeconds { as_ms } => {
            s.text("this looks like seconds, not milliseconds: ×1000 it is ");
            near(&mut s, as_ms);
        }
        Finding::LooksLikeMicroseconds { as_ms } => {
            s.text("this looks like microseconds, not milliseconds: ÷1000 it is ");
            near(&mut s, as_ms);
        }
        Finding::LooksLikeNanoseconds { as_ms } => {
            s.text("this looks like nanoseconds, not milliseconds: ÷1,000,000 it is ");
            near(&mut s, as_ms);
        }
        Finding::ClockAhead { by_ms } => {
            s.text(format!(
                "a clock ahead of the broker by about {}",
                approx_duration(by_ms)
            ));
        }
        Finding::ClockBehind {
            by_ms,
            older_than_retention,
        } => {
            s.text(format!(
                "a clock behind the broker (or a replay) by about {}",
                approx_duration(by_ms)
            ));
            if older_than_retention {
                s.text("; already older than ")
                    .config("retention.ms")
                    .text(", so retention deletes it soon after its segment closes");
            }
        }
    }
    s
}

/// What a record's key is, in the terms Kafka tells apart (`DefaultRecord.hasKey()` is
/// `key != null`, and `LogValidator.validateKey` refuses only a missing key on a compacted
/// topic): `None` is a null key, `Some(0)` an empty one, `Some(n)` a key of `n` bytes.
pub fn key(key: Option<u32>) -> Sentence {
    let mut s = Sentence::new();
    match key {
        None => {
            s.text("a null key: the record has no key (key length -1); a topic whose ")
                .config("cleanup.policy")
                .text(" includes compact rejects it with 87 INVALID_RECORD");
        }
        Some(0) => {
            s.text(
                "an empty key: a key of zero bytes (key length 0), not a null key; a topic whose ",
            )
            .config("cleanup.policy")
            .text(" includes compact accepts it");
        }
        Some(1) => {
            s.text("a key of 1 byte: any topic accepts it");
        }
        Some(n) => {
            s.text(format!("a key of {n} bytes: any topic accepts it"));
        }
    }
    s
}

/// What the broker logs about a rejection whose text the producer does not get (the size errors,
/// 10 and 18: the response carries no message, so the client shows `Errors`' default one):
/// `the broker logs: "Message batch size is 1170 bytes in append to partition ..."`.
pub fn broker_log(e: &ProduceError) -> Option<Sentence> {
    let log = e.broker_log.as_deref()?;
    Some(Sentence::plain(format!("the broker logs: \"{log}\"")))
}

/// The broker's rejection of a batch, with what the broker logs about it, its first record error
/// and diagnosis.
pub fn rejection(e: &ProduceError) -> Sentence {
    let mut s = Sentence::new();
    let _ = write!(
        s,
        "the broker rejected the batch with error {} {}: \"{}\"",
        e.error.code(),
        e.error.name(),
        e.error_message
    );
    if let Some(log) = broker_log(e) {
        s.text("; ").append(log);
    }
    if let Some(first) = e.record_errors.first() {
        let _ = write!(
            s,
            "; {}, first: \"{}\"",
            count(
                e.record_errors.len() as u64,
                "record error",
                "record errors"
            ),
            first.message
        );
    }
    if let Some(d) = e.diagnoses.first() {
        s.text("; ").append(diagnosis(d));
    }
    s.text("; nothing was appended");
    s
}

/// Why a segment rolled, in a few words: `size`, `time`, `offset index full`, ...
fn roll_label(reason: &RollReason) -> &'static str {
    match reason {
        RollReason::Size { .. } => "size",
        RollReason::Time { .. } => "time",
        RollReason::OffsetIndexFull { .. } => "offset index full",
        RollReason::TimeIndexFull { .. } => "time index full",
        RollReason::OffsetOverflow { .. } => "offset overflow",
        RollReason::RetentionDeletesAll => "retention deletes every segment",
    }
}

/// `segment 0 rolled to a new segment 10 (size)`.
pub fn roll(r: &Roll) -> Sentence {
    let mut s = Sentence::plain("segment ");
    s.segment(r.old_base)
        .text(" rolled to a new segment ")
        .segment(r.new_base)
        .text(format!(" ({})", roll_label(&r.reason)));
    s
}

/// Why a segment rolled, with the figures `LogSegment.shouldRoll` compared: `rolled on size:
/// 900 B + incoming 200 B > segment.bytes 1000 B`.
pub fn roll_reason(reason: &RollReason) -> Sentence {
    let mut s = Sentence::new();
    match reason {
        RollReason::Size {
            size,
            incoming,
            segment_bytes,
        } => {
            s.text(format!(
                "rolled on size: {} + incoming {} > ",
                bytes(size.0),
                bytes(incoming.0)
            ))
            .config("segment.bytes")
            .text(format!(" {}", bytes(segment_bytes.0)));
        }
        RollReason::Time {
            waited_ms,
            limit_ms,
            by_record_time,
        } => {
            s.text(format!(
                "rolled on time: waited {} > ",
                duration(*waited_ms)
            ))
            .config("segment.ms")
            .text(format!(
                " − jitter {} ({})",
                duration(*limit_ms),
                if *by_record_time {
                    "record time"
                } else {
                    "broker clock"
                }
            ));
        }
        RollReason::OffsetIndexFull { max_entries } => {
            s.text(format!("rolled: offset index full ({max_entries} entries)"));
        }
        RollReason::TimeIndexFull { max_entries } => {
            s.text(format!("rolled: time index full ({max_entries} entries)"));
        }
        RollReason::OffsetOverflow { last_offset } => {
            s.text("rolled: offset ")
                .offset(*last_offset)
                .text(" overflows a relative offset");
        }
        RollReason::RetentionDeletesAll => {
            s.text("rolled: retention was about to delete every segment");
        }
    }
    s
}

/// A produce step's clauses.
pub(super) fn outcome(p: &ProduceOutcome, r: &StepReport) -> Vec<Sentence> {
    let mut parts = Vec::new();
    match p {
        ProduceOutcome::Traffic(t) => traffic(&mut parts, t, r),
        ProduceOutcome::Appended(a) => appended(&mut parts, a, r),
        ProduceOutcome::Rejected(e) => parts.push(rejection(e)),
        ProduceOutcome::Empty => parts.push(Sentence::plain(
            "an empty record set: Kafka returns early and nothing changes",
        )),
    }
    parts
}

/// Generated traffic: what was appended and rejected, the first rejection, the rolls (only the
/// first of many) and the first suspicious stamps.
fn traffic(parts: &mut Vec<Sentence>, t: &Traffic, r: &StepReport) {
    let mut s = Sentence::new();
    let _ = write!(
        s,
        "generated traffic: {} of {}, every {}: {} appended ({}",
        count(t.batches, "batch", "batches"),
        count(t.records_per_batch, "record", "records"),
        duration(t.every_ms),
        t.appended_batches,
        count(t.records_appended, "record", "records")
    );
    if t.appended_batches > 0 {
        s.text(", ").offsets(
            offset_range(t.first_offset, t.last_offset),
            t.first_offset,
            t.last_offset,
        );
    }
    let _ = write!(s, "), {} rejected", t.rejected_batches);
    parts.push(s);
    if let Some(f) = &t.first_rejection {
        let mut s = Sentence::plain(format!("first rejection at batch {}: ", f.batch));
        s.append(rejection(&f.error));
        parts.push(s);
    }
    let n = r.rolled_by_appends().count();
    match (n, r.rolls.first()) {
        (0, _) | (_, None) => {}
        (1..=4, _) => parts.push(list(r.rolls.iter().map(roll).collect())),
        // Only the first is told: a step of tiny segments rolls thousands.
        (_, Some(first)) => {
            let mut s = Sentence::plain(format!("{n} segment rolls, the first: "));
            s.append(roll(first));
            parts.push(s);
        }
    }
    if let Some(d) = t.first_diagnoses.first() {
        let mut s = Sentence::plain(format!(
            "{} had suspicious stamps, e.g. ",
            count(t.diagnosed_batches, "batch", "batches")
        ));
        s.append(diagnosis(d));
        parts.push(s);
    }
}

/// One batch appended: its offsets and segment, the timestamp that counts, the rolls it caused
/// and the records accepted with suspicious stamps.
fn appended(parts: &mut Vec<Sentence>, a: &Appended, r: &StepReport) {
    let records = a.last_offset.0 - a.base_offset.0 + 1;
    let mut s = Sentence::plain(format!(
        "produced a batch of {}: ",
        count(records, "record", "records")
    ));
    s.offsets(
        offset_range(a.base_offset, a.last_offset),
        a.base_offset,
        a.last_offset,
    )
    .text(" in segment ")
    .segment(a.segment);
    let log_append_time = a.log_append_time.unwrap_or(Timestamp::NONE);
    if log_append_time.0 >= 0 {
        s.text(", stamped by the broker (LogAppendTime) at ")
            .time(log_append_time);
    } else if a.max_timestamp.0 >= 0 {
        s.text(", batch max timestamp ")
            .time(a.max_timestamp)
            .text(format!(" ({})", a.max_timestamp));
    } else {
        s.text(", no record timestamp (NO_TIMESTAMP, -1)");
    }
    parts.push(s);
    if !r.rolls.is_empty() {
        parts.push(list(r.rolls.iter().map(roll).collect()));
    }
    for d in &a.diagnoses {
        let mut s = Sentence::plain(format!(
            "record {} accepted but suspicious: ",
            d.batch_index
        ));
        s.append(diagnosis(d));
        parts.push(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_model::config::{Config, ConfigValue, KafkaVersion};
    use logtime_model::units::{Bytes, Offset};

    /// A null and an empty key are told apart in the words Kafka's checks use.
    #[test]
    fn null_and_empty_keys_are_different_things() {
        assert_eq!(
            key(None).to_string(),
            "a null key: the record has no key (key length -1); a topic whose cleanup.policy includes compact rejects it with 87 INVALID_RECORD"
        );
        assert_eq!(
            key(Some(0)).to_string(),
            "an empty key: a key of zero bytes (key length 0), not a null key; a topic whose cleanup.policy includes compact accepts it"
        );
        assert_eq!(
            key(Some(8)).to_string(),
            "a key of 8 bytes: any topic accepts it"
        );
        assert_eq!(
            key(Some(1)).to_string(),
            "a key of 1 byte: any topic accepts it"
        );
        assert!(key(None)
            .mentions()
            .any(|m| *m == super::super::Mention::Config("cleanup.policy".into())));
    }

    /// A size error's narration says what the producer got (`Errors`' default message) and what
    /// the broker logs; other errors have no broker log of their own.
    #[test]
    fn size_errors_tell_what_the_broker_logs() {
        let mut c = Config::defaults(KafkaVersion::V3_6);
        c.set("segment.bytes", &ConfigValue::Number(100)).unwrap();
        let now = Timestamp(1_804_842_000_000);
        let e = logtime_model::validation::validate(
            &c,
            "t-0",
            now,
            &[logtime_model::batch::Record::at(now)],
        )
        .unwrap_err();
        assert_eq!(
            rejection(&e).to_string(),
            "the broker rejected the batch with error 18 RECORD_LIST_TOO_LARGE: \"The request included message batch larger than the configured segment size on the server.\"; the broker logs: \"Message batch size is 170 bytes in append to partition t-0, which exceeds the maximum configured segment size of 100.\"; nothing was appended"
        );
        let c = Config::defaults(KafkaVersion::V4_0);
        let late = logtime_model::batch::Record::at(Timestamp(now.0 + 7_200_000));
        let e = logtime_model::validation::validate(&c, "t-0", now, &[late]).unwrap_err();
        assert_eq!(e.error.code(), 32);
        assert_eq!(broker_log(&e), None);
    }

    #[test]
    fn roll_reasons_name_the_config_they_compare() {
        let t = roll_reason(&RollReason::Size {
            size: Bytes(900),
            incoming: Bytes(200),
            segment_bytes: Bytes(1000),
        });
        assert_eq!(
            t.to_string(),
            "rolled on size: 900 B + incoming 200 B > segment.bytes 1000 B"
        );
        let t = roll_reason(&RollReason::Time {
            waited_ms: 90_000,
            limit_ms: 60_000,
            by_record_time: true,
        });
        assert_eq!(
            t.to_string(),
            "rolled on time: waited 1 min 30 s > segment.ms − jitter 1 min (record time)"
        );
        assert!(t
            .mentions()
            .any(|m| *m == super::super::Mention::Config("segment.ms".into())));
        let r = roll(&Roll {
            old_base: Offset(0),
            new_base: Offset(10),
            reason: RollReason::OffsetIndexFull { max_entries: 1 },
            replaced_empty: false,
            roll_jitter_ms: 0,
        });
        assert_eq!(
            r.to_string(),
            "segment 0 rolled to a new segment 10 (offset index full)"
        );
    }
}
