//! Short readings of retention verdicts for people, shared by the report (`reason`) and the
//! command-line narration.

use crate::human::{approx_duration, date, duration};
use crate::retention::{RetentionPass, RetentionReport, SegmentVerdict, Verdict};

/// One line on why a segment was or was not deleted by the check `r`, e.g. `deleted by
/// retention.ms 7 d: largest timestamp 28 Feb 2027 23:58 is 11 d 9 h old`.
pub fn verdict_text(v: &SegmentVerdict, r: &RetentionReport) -> String {
    let now = r.at;
    let basis = if v.record_time {
        "largest timestamp"
    } else {
        "last modified (no record timestamp)"
    };
    let largest = date(v.largest_timestamp.0);
    let retention = r.retention_ms;
    match v.verdict {
        Verdict::Deleted { pass: RetentionPass::Time } => format!(
            "deleted by retention.ms {}: {basis} {largest} is {} old",
            duration(retention),
            duration(now.wrapping_since(v.largest_timestamp))
        ),
        Verdict::Deleted { pass: RetentionPass::LogStartOffset } => {
            "deleted: every offset in it is below the log start offset".to_string()
        }
        Verdict::Deleted { pass: RetentionPass::Size } => format!(
            "deleted by retention.bytes {}: the partition was still that much bigger without it",
            r.retention_bytes
        ),
        Verdict::NotOldEnough { age_ms, eligible_at, future: true } => format!(
            "kept: {basis} {largest} is stamped about {} in the future, so it is not old enough until {}",
            approx_duration(-age_ms),
            date(eligible_at.0.saturating_sub(1))
        ),
        Verdict::NotOldEnough { age_ms, eligible_at, future: false } => format!(
            "kept: {basis} {largest} is {} old, not more than retention.ms {}; old enough after {}",
            duration(age_ms),
            duration(retention),
            date(eligible_at.0.saturating_sub(1))
        ),
        Verdict::KeptBehind { blocker, expired: true } => {
            format!("kept: past retention on its own ({basis} {largest}) but pinned behind segment {blocker}")
        }
        Verdict::KeptBehind { blocker, expired: false } => {
            format!("kept: not examined, the walk stopped at segment {blocker}")
        }
        Verdict::BeyondHighWatermark { upper_bound, high_watermark } => format!(
            "kept: the high watermark {high_watermark} is below its upper bound {upper_bound}"
        ),
        Verdict::EmptyActive => "kept: the empty active segment is never deleted".to_string(),
        Verdict::NoTimeLimit => "kept: retention.ms is -1, no time limit".to_string(),
        Verdict::CompactOnly => "kept: cleanup.policy has no delete, only the log-start-offset pass runs".to_string(),
    }
}
