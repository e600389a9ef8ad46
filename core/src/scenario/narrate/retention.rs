//! Retention: why each segment was or was not deleted, and what a check did.

use super::{list, Mention, Sentence, Style};
use crate::human::{age, approx_duration, date_minute, duration};
use logtime_model::config::Config;
use logtime_model::retention::{RetentionPass, RetentionReport, SegmentVerdict, Verdict};
use logtime_model::units::Timestamp;

/// For a topic whose `cleanup.policy` includes `compact`: what the model leaves out, and where its
/// retention passes come from (`cleanup.policy compact,delete: compaction is not modelled (...);
/// the log cleaner runs this topic's retention passes, every log.cleaner.backoff.ms (15 s) ...`).
/// `None` for a topic without `compact`.
pub fn compaction_note(config: &Config) -> Option<Sentence> {
    if !config.retention_by_cleaner() {
        return None;
    }
    let mut s = Sentence::new();
    s.config("cleanup.policy")
        .text(format!(
            " {}: compaction is not modelled (no record is removed for a newer one with the same key); the log cleaner runs this topic's retention passes, every ",
            config.topic.cleanup_policy.name()
        ))
        .config("log.cleaner.backoff.ms")
        .text(format!(
            " ({}) while it has nothing to compact, instead of the retention task",
            duration(config.cleaner_backoff_ms())
        ));
    Some(s)
}

/// `n` of a topic's scheduled retention passes: `2 scheduled retention checks` (the retention
/// task) or `1 log cleaner retention pass` (a topic whose `cleanup.policy` includes `compact`).
pub fn scheduled_passes(config: &Config, n: impl Into<i128>) -> String {
    if config.retention_by_cleaner() {
        super::count(
            n,
            "log cleaner retention pass",
            "log cleaner retention passes",
        )
    } else {
        super::count(n, "scheduled retention check", "scheduled retention checks")
    }
}

/// The next scheduled retention pass, as a label: `next retention check`, or `next log cleaner
/// pass` for a topic whose `cleanup.policy` includes `compact`.
pub fn next_pass_label(config: &Config) -> &'static str {
    if config.retention_by_cleaner() {
        "next log cleaner pass"
    } else {
        "next retention check"
    }
}

/// Kafka 4.1's WARN line for each segment stamped in the future that the check's time walk
/// reached (`the broker logs at WARN (logger LogFutureTimestampLogger, …): LogSegment(…)
/// contains future timestamp(s), making it ineligible to be deleted`). Only the 4.1 preset fills
/// the report's lines, so other presets narrate nothing here.
pub fn future_timestamp_warnings(r: &RetentionReport) -> Vec<Sentence> {
    r.future_timestamp_warnings
        .iter()
        .map(|w| {
            let mut s = Sentence::plain(
                "the broker logs at WARN (logger LogFutureTimestampLogger, Kafka 4.1, KAFKA-18929): ",
            );
            s.styled(w, Style::Code);
            s
        })
        .collect()
}

/// The pass that deleted a segment, by the limit it applies: `retention.ms`, `retention.bytes`
/// or `log start offset`.
pub fn pass_name(pass: RetentionPass) -> &'static str {
    match pass {
        RetentionPass::LogStartOffset => "log start offset",
        RetentionPass::Size => "retention.bytes",
        RetentionPass::Time => "retention.ms",
    }
}

/// Appends a pass's name, mentioning its config when it has one.
fn pass(s: &mut Sentence, pass: RetentionPass) {
    match pass {
        RetentionPass::LogStartOffset => s.text(pass_name(pass)),
        _ => s.config(pass_name(pass)),
    };
}

/// Appends `largest timestamp 28 Feb 2027 23:58` (or the last-modified fallback).
fn basis(s: &mut Sentence, v: &SegmentVerdict) {
    s.text(if v.record_time {
        "largest timestamp "
    } else {
        "last modified (no record timestamp) "
    })
    .time(v.largest_timestamp);
}

/// Why a segment was or was not deleted by the check `r`, e.g. `deleted by retention.ms 7 d:
/// largest timestamp 28 Feb 2027 23:58 is 11 d 9 h old` (the report's `reason`).
pub fn verdict(v: &SegmentVerdict, r: &RetentionReport) -> Sentence {
    let mut s = Sentence::new();
    match v.verdict {
        Verdict::Deleted { pass } => deleted_because(&mut s, pass, v, r),
        _ => kept_because(&mut s, v, r),
    }
    s
}

/// Why a segment was deleted: the pass that deleted it and, for time, its age.
fn deleted_because(s: &mut Sentence, pass: RetentionPass, v: &SegmentVerdict, r: &RetentionReport) {
    match pass {
        RetentionPass::Time => {
            s.text("deleted by ")
                .config("retention.ms")
                .text(format!(" {}: ", duration(r.retention_ms)));
            basis(s, v);
            s.text(format!(
                " is {} old",
                duration(r.at.wrapping_since(v.largest_timestamp))
            ));
        }
        RetentionPass::LogStartOffset => {
            s.text("deleted: every offset in it is below the log start offset");
        }
        RetentionPass::Size => {
            s.text("deleted by ")
                .config("retention.bytes")
                .text(format!(
                    " {}: the partition was still that much bigger without it",
                    r.retention_bytes
                ));
        }
    }
}

/// Why a segment was kept: not old enough (or stamped in the future), behind another, beyond
/// the high watermark, the empty active segment, or no time limit or no delete policy.
fn kept_because(s: &mut Sentence, v: &SegmentVerdict, r: &RetentionReport) {
    let retention = r.retention_ms;
    match v.verdict {
        Verdict::NotOldEnough {
            age_ms,
            eligible_at,
            future: true,
        } => {
            s.text("kept: ");
            basis(s, v);
            s.text(format!(
                " is stamped about {} in the future, so it is not old enough until ",
                approx_duration(-age_ms)
            ))
            .time(Timestamp(eligible_at.0.saturating_sub(1)));
        }
        Verdict::NotOldEnough {
            age_ms,
            eligible_at,
            future: false,
        } => {
            s.text("kept: ");
            basis(s, v);
            s.text(format!(" is {} old, not more than ", duration(age_ms)))
                .config("retention.ms")
                .text(format!(" {}; old enough after ", duration(retention)))
                .time(Timestamp(eligible_at.0.saturating_sub(1)));
        }
        Verdict::KeptBehind {
            blocker,
            expired: true,
        } => {
            s.text("kept: past retention on its own (");
            basis(s, v);
            s.text(") but pinned behind segment ").segment(blocker);
        }
        Verdict::KeptBehind {
            blocker,
            expired: false,
        } => {
            s.text("kept: not examined, the walk stopped at segment ")
                .segment(blocker);
        }
        Verdict::BeyondHighWatermark {
            upper_bound,
            high_watermark,
        } => {
            s.text("kept: the high watermark ")
                .offset(high_watermark)
                .text(" is below its upper bound ")
                .offset(upper_bound);
        }
        Verdict::EmptyActive => {
            s.text("kept: the empty active segment is never deleted");
        }
        Verdict::NoTimeLimit => {
            s.text("kept: ")
                .config("retention.ms")
                .text(" is -1, no time limit");
        }
        Verdict::CompactOnly => {
            s.text("kept: ")
                .config("cleanup.policy")
                .text(" has no delete, only the log-start-offset pass runs");
        }
        // Deleted segments are worded by `deleted_because`.
        Verdict::Deleted { .. } => {}
    }
}

/// Appends an instant to the minute (`21 Mar 2030 11:20`), mentioning it.
fn minute(s: &mut Sentence, t: Timestamp) {
    s.mention(date_minute(t.0), Mention::Time(t));
}

/// A verdict in a few words, for the retention walk: `deleted (retention.ms)`, `pinned: stamped
/// in the future, kept until 21 Mar 2030 11:20`, `kept behind 20000: ...`.
pub fn verdict_brief(v: &SegmentVerdict) -> Sentence {
    let mut s = Sentence::new();
    match v.verdict {
        Verdict::Deleted { pass: p } => {
            s.text("deleted (");
            pass(&mut s, p);
            s.text(")");
        }
        Verdict::NotOldEnough {
            future: true,
            eligible_at,
            ..
        } => {
            s.text("pinned: stamped in the future, kept until ");
            minute(&mut s, eligible_at);
        }
        Verdict::NotOldEnough {
            age_ms,
            eligible_at,
            ..
        } => {
            s.text(format!("kept: {} (deletable from ", age(age_ms)));
            minute(&mut s, eligible_at);
            s.text(")");
        }
        Verdict::KeptBehind {
            blocker,
            expired: true,
        } => {
            s.text("kept behind ")
                .segment(blocker)
                .text(": expired on its own, but the walk stopped at ")
                .segment(blocker);
        }
        Verdict::KeptBehind {
            blocker,
            expired: false,
        } => {
            s.text("kept (not examined: the walk stopped at ")
                .segment(blocker)
                .text(")");
        }
        Verdict::BeyondHighWatermark {
            upper_bound,
            high_watermark,
        } => {
            s.text("kept: beyond the high watermark (")
                .offset(upper_bound)
                .text(" > ")
                .offset(high_watermark)
                .text(")");
        }
        Verdict::EmptyActive => {
            s.text("kept: the empty active segment is never deleted");
        }
        Verdict::NoTimeLimit => {
            s.text("kept: ")
                .config("retention.ms")
                .text(" = -1, no time limit");
        }
        Verdict::CompactOnly => {
            s.text("kept: ")
                .config("cleanup.policy")
                .text(" has no delete");
        }
    }
    s
}

/// What a check that deleted something did: `retention deleted segments 0 and 10000
/// (retention.ms 7 d: ...); segment 20000 is stamped 3 y in the future and pins 30000 and 40000
/// until ...; the log start offset is now 20000`.
pub fn retention_story(r: &RetentionReport) -> Sentence {
    let mut parts = Vec::new();
    if !r.deleted.is_empty() {
        parts.push(deleted_segments(r));
    }
    for v in &r.verdicts {
        if let Verdict::NotOldEnough {
            age_ms,
            eligible_at,
            future,
        } = v.verdict
        {
            parts.push(not_old_enough(r, v, age_ms, eligible_at, future));
        }
    }
    parts.extend(future_timestamp_warnings(r));
    if r.log_start_offset.0 > 0 && !r.deleted.is_empty() {
        let mut s = Sentence::plain("the log start offset is now ");
        s.offset(r.log_start_offset);
        parts.push(s);
    }
    Sentence::join(parts, "; ")
}

/// The segments the check deleted, the passes that deleted them and why each went.
fn deleted_segments(r: &RetentionReport) -> Sentence {
    let why: Vec<Sentence> = r
        .verdicts
        .iter()
        .filter(|v| matches!(v.verdict, Verdict::Deleted { .. }))
        .map(|v| {
            let mut s = Sentence::new();
            s.segment(v.base_offset).text(": ");
            match v.verdict {
                Verdict::Deleted {
                    pass: RetentionPass::Time,
                } => {
                    s.text("largest timestamp ")
                        .time(v.largest_timestamp)
                        .text(format!(
                            " is {} old",
                            duration(r.at.wrapping_since(v.largest_timestamp))
                        ));
                }
                _ => {
                    s.append(verdict(v, r));
                }
            }
            s
        })
        .collect();
    let mut s = Sentence::plain(if r.deleted.len() == 1 {
        "retention deleted segment "
    } else {
        "retention deleted segments "
    });
    s.append(list(
        r.deleted
            .iter()
            .map(|d| {
                let mut one = Sentence::new();
                one.segment(d.base_offset);
                one
            })
            .collect(),
    ));
    s.text(" (");
    let mut passes: Vec<RetentionPass> = r.deleted.iter().map(|d| d.pass).collect();
    passes.dedup();
    if passes == [RetentionPass::Time] {
        s.config("retention.ms")
            .text(format!(" {}", duration(r.retention_ms)));
    } else {
        for (i, p) in passes.into_iter().enumerate() {
            if i > 0 {
                s.text(" and ");
            }
            pass(&mut s, p);
        }
    }
    s.text(": ").append(Sentence::join(why, "; ")).text(")");
    s
}

/// A segment not old enough yet (or stamped in the future), the segments it pins behind it, and
/// until when.
fn not_old_enough(
    r: &RetentionReport,
    v: &SegmentVerdict,
    age_ms: i64,
    eligible_at: Timestamp,
    future: bool,
) -> Sentence {
    let pinned: Vec<Sentence> = r
        .verdicts
        .iter()
        .filter(|w| matches!(w.verdict, Verdict::KeptBehind { blocker, .. } if blocker == v.base_offset))
        .map(|w| {
            let mut one = Sentence::new();
            one.segment(w.base_offset);
            one
        })
        .collect();
    let mut s = Sentence::plain("segment ");
    s.segment(v.base_offset);
    if future {
        s.text(format!(
            " is stamped {} in the future",
            approx_duration(-age_ms)
        ));
    } else {
        s.text(format!(" is {} old, not past ", duration(age_ms)))
            .config("retention.ms")
            .text(" yet");
    }
    if !pinned.is_empty() {
        s.text(" and pins ").append(list(pinned));
    }
    s.text(" until ")
        .time(Timestamp(eligible_at.0.saturating_sub(1)));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human::parse_rfc3339;
    use logtime_model::config::ConfigValue;
    use logtime_model::units::Offset;

    fn pinned() -> SegmentVerdict {
        let eligible = parse_rfc3339("2030-03-21T11:20:00.001Z").unwrap();
        SegmentVerdict {
            base_offset: Offset(20000),
            largest_timestamp: Timestamp(eligible - 604_800_001),
            record_time: true,
            verdict: Verdict::NotOldEnough {
                age_ms: -1,
                eligible_at: Timestamp(eligible),
                future: true,
            },
        }
    }

    #[test]
    fn brief_verdicts_read_as_the_walk_shows_them() {
        let v = pinned();
        assert_eq!(
            verdict_brief(&v).to_string(),
            "pinned: stamped in the future, kept until 21 Mar 2030 11:20"
        );
        let chained = SegmentVerdict {
            verdict: Verdict::KeptBehind {
                blocker: Offset(20000),
                expired: true,
            },
            ..v
        };
        assert_eq!(
            verdict_brief(&chained).to_string(),
            "kept behind 20000: expired on its own, but the walk stopped at 20000"
        );
        let del = SegmentVerdict {
            verdict: Verdict::Deleted {
                pass: RetentionPass::Time,
            },
            ..v
        };
        assert_eq!(verdict_brief(&del).to_string(), "deleted (retention.ms)");
        let kept = SegmentVerdict {
            verdict: Verdict::NotOldEnough {
                age_ms: (11 * 24 + 9) * 3_600_000,
                eligible_at: v.largest_timestamp,
                future: false,
            },
            ..v
        };
        assert!(verdict_brief(&kept)
            .to_string()
            .starts_with("kept: 11 d 9 h old (deletable from "));
    }

    /// Wherever the policy includes `compact`, the narration says compaction is not modelled and
    /// names the log cleaner's passes; without it, nothing is said and the retention task runs.
    #[test]
    fn compacted_topics_say_compaction_is_not_modelled() {
        use logtime_model::config::KafkaVersion;
        let mut c = Config::defaults(KafkaVersion::V4_0);
        assert_eq!(compaction_note(&c), None);
        assert_eq!(next_pass_label(&c), "next retention check");
        assert_eq!(scheduled_passes(&c, 2), "2 scheduled retention checks");
        assert_eq!(scheduled_passes(&c, 1), "1 scheduled retention check");
        c.set(
            "cleanup.policy",
            &ConfigValue::Text("compact,delete".into()),
        )
        .unwrap();
        let note = compaction_note(&c).unwrap();
        assert_eq!(
            note.to_string(),
            "cleanup.policy compact,delete: compaction is not modelled (no record is removed for a newer one with the same key); the log cleaner runs this topic's retention passes, every log.cleaner.backoff.ms (15 s) while it has nothing to compact, instead of the retention task"
        );
        assert_eq!(
            note.mentions().collect::<Vec<_>>(),
            vec![
                &Mention::Config("cleanup.policy".into()),
                &Mention::Config("log.cleaner.backoff.ms".into())
            ]
        );
        assert_eq!(next_pass_label(&c), "next log cleaner pass");
        assert_eq!(scheduled_passes(&c, 0), "0 log cleaner retention passes");
        assert_eq!(scheduled_passes(&c, 1), "1 log cleaner retention pass");
    }
}
