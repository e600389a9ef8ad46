//! Beyond Kafka: what a rejected or suspicious timestamp most likely is, for teaching.
//!
//! Kafka only says a stamp is out of range. People want to know why: a stamp a thousand or a
//! million times too large is a unit mix-up (seconds, microseconds, nanoseconds); otherwise it is
//! a clock ahead or behind by some amount. A stamp is *suspicious* even when accepted if it is
//! more than an hour ahead (KIP-937's proposed threshold) or already older than `retention.ms`.

use crate::config::Config;
use crate::units::Timestamp;
use serde::{Deserialize, Serialize};

pub(crate) const HOUR: i64 = 3_600_000;
/// A converted stamp this close to the broker clock is taken as the intended time.
const PLAUSIBLE: i64 = 2 * 365 * 24 * HOUR;

/// What a stamp looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Finding {
    /// The producer wrote seconds: times 1000 it is near the broker clock.
    LooksLikeSeconds {
        /// The stamp read as seconds, in milliseconds.
        as_ms: Timestamp,
    },
    /// The producer wrote microseconds: divided by 1000 it is near the broker clock.
    LooksLikeMicroseconds {
        /// The stamp read as microseconds, in milliseconds.
        as_ms: Timestamp,
    },
    /// The producer wrote nanoseconds: divided by 1,000,000 it is near the broker clock.
    LooksLikeNanoseconds {
        /// The stamp read as nanoseconds, in milliseconds.
        as_ms: Timestamp,
    },
    /// A clock ahead of the broker's.
    ClockAhead {
        /// How far ahead, in ms.
        by_ms: i64,
    },
    /// A clock behind the broker's (or a replay of old events).
    ClockBehind {
        /// How far behind, in ms.
        by_ms: i64,
        /// Already older than `retention.ms`: the next retention check deletes its segment once
        /// the segment closes.
        older_than_retention: bool,
    },
}

/// A finding about one record of a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnosis {
    /// 0-based position in the batch.
    pub batch_index: u32,
    /// The stamp as sent.
    pub timestamp: Timestamp,
    /// Whether Kafka rejected it.
    pub rejected: bool,
    /// What it looks like.
    pub finding: Finding,
}

fn near_now(candidate: Option<i64>, now: Timestamp) -> Option<Timestamp> {
    let c = candidate?;
    (c.checked_sub(now.0)?.checked_abs()? <= PLAUSIBLE).then_some(Timestamp(c))
}

/// Whether an accepted stamp needs no diagnosis: NO_TIMESTAMP, or at most an hour ahead and
/// not older than `retention.ms` (`retention_ms`, negative: no limit).
pub(crate) fn unremarkable(ts: Timestamp, now: Timestamp, retention_ms: i64) -> bool {
    if ts == Timestamp::NONE {
        return true;
    }
    // A difference that overflows a long is remarkable either way.
    let Some(ahead) = ts.0.checked_sub(now.0) else {
        return false;
    };
    let older_than_retention = retention_ms >= 0 && ahead < -retention_ms;
    ahead <= HOUR && !older_than_retention
}

/// Diagnoses one stamp; `None` when it is unremarkable (accepted and within an hour ahead and
/// within retention behind) or is NO_TIMESTAMP.
pub fn diagnose(
    batch_index: u32,
    ts: Timestamp,
    now: Timestamp,
    config: &Config,
    rejected: bool,
) -> Option<Diagnosis> {
    if !rejected && unremarkable(ts, now, config.topic.retention_ms) {
        return None;
    }
    if ts == Timestamp::NONE {
        return None;
    }
    let ahead = ts.0 as i128 - now.0 as i128;
    let retention = config.topic.retention_ms;
    let older_than_retention = retention >= 0 && -ahead > retention as i128;
    let finding = if ahead.abs() > PLAUSIBLE as i128 {
        if let Some(as_ms) = near_now(ts.0.checked_div(1_000_000), now) {
            Some(Finding::LooksLikeNanoseconds { as_ms })
        } else if let Some(as_ms) = near_now(ts.0.checked_div(1000), now) {
            Some(Finding::LooksLikeMicroseconds { as_ms })
        } else {
            near_now(ts.0.checked_mul(1000), now).map(|as_ms| Finding::LooksLikeSeconds { as_ms })
        }
    } else {
        None
    };
    let clamp = |v: i128| v.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
    let finding = finding.unwrap_or(if ahead > 0 {
        Finding::ClockAhead {
            by_ms: clamp(ahead),
        }
    } else {
        Finding::ClockBehind {
            by_ms: clamp(-ahead),
            older_than_retention,
        }
    });
    Some(Diagnosis {
        batch_index,
        timestamp: ts,
        rejected,
        finding,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::KafkaVersion;

    const NOW: Timestamp = Timestamp(1_700_000_000_000);

    fn d(ts: i64) -> Option<Finding> {
        diagnose(
            0,
            Timestamp(ts),
            NOW,
            &Config::defaults(KafkaVersion::V4_0),
            true,
        )
        .map(|d| d.finding)
    }

    #[test]
    fn unit_mixups() {
        assert!(matches!(
            d(NOW.0 * 1_000_000),
            Some(Finding::LooksLikeNanoseconds { .. })
        ));
        assert!(matches!(
            d(NOW.0 * 1000),
            Some(Finding::LooksLikeMicroseconds { .. })
        ));
        assert!(matches!(
            d(NOW.0 / 1000),
            Some(Finding::LooksLikeSeconds { .. })
        ));
        assert_eq!(
            d(NOW.0 + 10 * 60_000),
            Some(Finding::ClockAhead { by_ms: 600_000 })
        );
        assert!(matches!(d(i64::MIN), Some(Finding::ClockBehind { .. })));
        assert!(matches!(d(i64::MAX), Some(Finding::ClockAhead { .. })));
        assert_eq!(d(-1), None);
    }

    #[test]
    fn accepted_stamps_are_quiet_unless_suspicious() {
        let c = Config::defaults(KafkaVersion::V3_6);
        assert!(diagnose(0, NOW, NOW, &c, false).is_none());
        assert!(diagnose(0, Timestamp(NOW.0 + 3 * 365 * 86_400_000), NOW, &c, false).is_some());
        let replay = diagnose(0, Timestamp(NOW.0 - 8 * 86_400_000), NOW, &c, false).unwrap();
        assert!(matches!(
            replay.finding,
            Finding::ClockBehind {
                older_than_retention: true,
                ..
            }
        ));
    }
}
