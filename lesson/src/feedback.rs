//! Feedback for lessons: why a segment goes or stays at a check, why an offset is or is not what
//! a lookup returns, what the broker answers to a batch. Every figure comes from the model's
//! reports, so grading never re-derives Kafka logic.

use logtime_core::human::{approx_duration, duration};
use logtime_core::scenario::narrate::{self, list, Sentence};
use logtime_model::retention::{RetentionPass, RetentionReport, SegmentVerdict, Verdict};
use logtime_model::units::Timestamp;
use logtime_model::validation::ProduceError;

/// `its largest timestamp 28 Feb 2027 23:58` (or the last-modified fallback).
fn stamp(s: &mut Sentence, v: &SegmentVerdict) {
    s.text(if v.record_time {
        "its largest timestamp "
    } else {
        "its last-modified time (no record carries a timestamp) "
    })
    .time(v.largest_timestamp);
}

/// What the check `r` does to one segment, and why, e.g. `segment 20000 is kept: its largest
/// timestamp 14 Mar 2030 11:20 is in the future, and retention stops at the first segment it
/// keeps`.
pub fn segment_fate(v: &SegmentVerdict, r: &RetentionReport) -> Sentence {
    let mut s = Sentence::plain("segment ");
    s.segment(v.base_offset);
    match v.verdict {
        Verdict::Deleted {
            pass: RetentionPass::Time,
        } => {
            s.text(" is deleted: ");
            stamp(&mut s, v);
            s.text(format!(
                " is {} old, more than ",
                duration(r.at.wrapping_since(v.largest_timestamp))
            ))
            .config("retention.ms")
            .text(format!(" {}", duration(r.retention_ms)));
        }
        Verdict::Deleted {
            pass: RetentionPass::LogStartOffset,
        } => {
            s.text(" is deleted: every offset in it is below the log start offset ")
                .offset(r.log_start_offset);
        }
        Verdict::Deleted {
            pass: RetentionPass::Size,
        } => {
            s.text(" is deleted: the partition is still larger than ")
                .config("retention.bytes")
                .text(format!(" {} without it", r.retention_bytes));
        }
        Verdict::NotOldEnough {
            age_ms,
            future: true,
            ..
        } => {
            s.text(" is kept: ");
            stamp(&mut s, v);
            s.text(format!(
                " is about {} in the future, and retention stops at the first segment it keeps",
                approx_duration(-age_ms)
            ));
        }
        Verdict::NotOldEnough { age_ms, .. } => {
            s.text(" is kept: ");
            stamp(&mut s, v);
            s.text(format!(" is only {} old, not more than ", duration(age_ms)))
                .config("retention.ms")
                .text(format!(
                    " {}, and retention stops at the first segment it keeps",
                    duration(r.retention_ms)
                ));
        }
        Verdict::KeptBehind {
            blocker,
            expired: true,
        } => {
            s.text(" is kept although ");
            stamp(&mut s, v);
            s.text(format!(
                " is {} old: the walk stopped at segment ",
                duration(r.at.wrapping_since(v.largest_timestamp))
            ))
            .segment(blocker)
            .text(" before it");
        }
        Verdict::KeptBehind {
            blocker,
            expired: false,
        } => {
            s.text(" is kept: it is not old enough, and the walk stopped at segment ")
                .segment(blocker)
                .text(" before it anyway");
        }
        _ => {
            s.text(" is ").append(narrate::verdict(v, r));
        }
    }
    s
}

/// The segment that pins retention and what it pins: `segment 20000 pins 30000 and 40000: ...`.
pub fn pinning(blocker: &SegmentVerdict, r: &RetentionReport) -> Sentence {
    let pinned: Vec<Sentence> = r
        .verdicts
        .iter()
        .filter(|w| {
            matches!(w.verdict, Verdict::KeptBehind { blocker: b, .. } if b == blocker.base_offset)
        })
        .map(|w| {
            let mut one = Sentence::new();
            one.segment(w.base_offset);
            one
        })
        .collect();
    let mut s = segment_fate(blocker, r);
    if !pinned.is_empty() {
        s.text("; it keeps ").append(list(pinned)).text(" with it");
    }
    if let Verdict::NotOldEnough { eligible_at, .. } = blocker.verdict {
        s.text(" until ")
            .time(Timestamp(eligible_at.0.saturating_sub(1)));
    }
    s
}

/// What the broker answers to a batch: `appended` or `rejected with error 32 INVALID_TIMESTAMP:
/// "Timestamp ... is out of range. ..."`, with what the broker logs for a size error (10, 18).
pub fn batch_answer(outcome: &Result<(), ProduceError>) -> Sentence {
    let mut s = Sentence::new();
    match outcome {
        Ok(()) => {
            s.text("the broker appends it (no error)");
        }
        Err(e) => {
            s.text(format!(
                "the broker rejects it with error {} {}",
                e.error.code(),
                e.error.name()
            ));
            match e.record_errors.first() {
                Some(r) => s.text(format!(": \"{}\"", r.message)),
                None => s.text(format!(": \"{}\"", e.error_message)),
            };
            // A size error's response carries only `Errors`' default message; the broker's own
            // words are in its log.
            if let Some(log) = narrate::broker_log(e) {
                s.text("; ").append(log);
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_core::human::parse_rfc3339;
    use logtime_model::units::Offset;

    /// A size error's answer says what the broker logs: the producer gets only `Errors`' default
    /// message.
    #[test]
    fn a_size_error_answer_says_what_the_broker_logs() {
        use logtime_model::config::{Config, ConfigValue, KafkaVersion};
        let mut c = Config::defaults(KafkaVersion::V3_6);
        c.set("max.message.bytes", &ConfigValue::Number(100))
            .unwrap();
        let now = Timestamp(1_804_842_000_000);
        let r = logtime_model::validation::validate(
            &c,
            "t-0",
            now,
            &[logtime_model::batch::Record::at(now)],
        );
        assert_eq!(
            batch_answer(&r.map(|_| ())).to_string(),
            "the broker rejects it with error 10 MESSAGE_TOO_LARGE: \"The request included a message larger than the max message size the server will accept.\"; the broker logs: \"The record batch size in the append to t-0 is 170 bytes which exceeds the maximum configured value of 100).\""
        );
    }

    #[test]
    fn the_pinning_segment_reads_as_the_issue_words_it() {
        let at = Timestamp(parse_rfc3339("2027-03-12T09:00:00Z").unwrap());
        let future = Timestamp(parse_rfc3339("2030-03-14T11:20:00Z").unwrap());
        let old = Timestamp(parse_rfc3339("2027-03-03T23:57:00Z").unwrap());
        let week = 604_800_000;
        let blocker = SegmentVerdict {
            base_offset: Offset(20000),
            largest_timestamp: future,
            record_time: true,
            verdict: Verdict::NotOldEnough {
                age_ms: at.0 - future.0,
                eligible_at: Timestamp(future.0 + week + 1),
                future: true,
            },
        };
        let behind = SegmentVerdict {
            base_offset: Offset(30000),
            largest_timestamp: old,
            record_time: true,
            verdict: Verdict::KeptBehind {
                blocker: Offset(20000),
                expired: true,
            },
        };
        let r = RetentionReport {
            at,
            scheduled: false,
            deleted: vec![],
            rolled: None,
            log_start_offset: Offset(20000),
            future_timestamp_segments: vec![],
            future_timestamp_warnings: vec![],
            verdicts: vec![blocker, behind],
            idle_checks_before: 0,
            retention_ms: week,
            retention_bytes: -1,
        };
        assert_eq!(
            segment_fate(&blocker, &r).to_string(),
            "segment 20000 is kept: its largest timestamp 14 Mar 2030 11:20 is about 3 y in the future, and retention stops at the first segment it keeps"
        );
        assert_eq!(
            segment_fate(&behind, &r).to_string(),
            "segment 30000 is kept although its largest timestamp 3 Mar 2027 23:57 is 8 d 9 h old: the walk stopped at segment 20000 before it"
        );
        assert!(pinning(&blocker, &r)
            .to_string()
            .ends_with("; it keeps 30000 with it until 21 Mar 2030 11:20"));
    }
}
