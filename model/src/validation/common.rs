//! The common case of `LogValidator`: the checks of a one-record batch that every rule accepts
//! and that needs no diagnosis, worked out once per config ([`Limits`]) so that generated
//! traffic takes them without walking the whole validation.

use super::{timestamp_in_range, Validated};
use crate::batch::Record;
use crate::config::{Config, TimestampType};
use crate::diagnosis::unremarkable;
use crate::units::{Bytes, Timestamp};
use std::ops::RangeInclusive;

/// What validation reads of the config on every batch, worked out once per config (the
/// partition keeps it until a config or the version changes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    pub(super) create_time: bool,
    pub(super) compact: bool,
    pub(super) before: i64,
    pub(super) after: i64,
    pub(super) max_message_bytes: i64,
    pub(super) segment_bytes: i64,
    pub(super) retention_ms: i64,
}

impl Limits {
    /// The limits of `config`.
    pub(crate) fn of(config: &Config) -> Limits {
        let t = &config.topic;
        Limits {
            create_time: t.message_timestamp_type == TimestampType::CreateTime,
            compact: t.cleanup_policy.compact,
            before: config.effective_before_max_ms(),
            after: config.effective_after_max_ms(),
            max_message_bytes: t.max_message_bytes,
            segment_bytes: t.segment_bytes,
            retention_ms: t.retention_ms,
        }
    }
}

impl Limits {
    /// The checks of [`accepted_single`] that do not depend on the stamp: whether a one-record
    /// batch of `size` bytes, with a key or without, can be accepted without a word at all
    /// (CreateTime, within `max.message.bytes` and `segment.bytes`, a key when compacted).
    #[inline]
    pub(crate) fn takes_common(&self, size: Bytes, has_key: bool) -> bool {
        self.create_time
            && size.0 <= self.max_message_bytes
            && size.0 <= self.segment_bytes
            && (has_key || !self.compact)
    }

    /// The rest of [`accepted_single`]'s checks, for a CreateTime stamp `ts` at `now`: inside
    /// KIP-937's window and needing no diagnosis.
    #[inline]
    pub(crate) fn stamp_common(&self, now: Timestamp, ts: Timestamp) -> bool {
        timestamp_in_range(ts, now, self.before, self.after)
            && unremarkable(ts, now, self.retention_ms)
    }

    /// The stamps [`Limits::stamp_common`] surely accepts, as a range of `ts - now` worked out
    /// once: inside both KIP-937 bounds, at most an hour ahead, not older than `retention.ms`.
    /// A run checks a stamp against it first and asks `stamp_common` only about the others
    /// (NO_TIMESTAMP, a difference that overflows, a stamp outside), so the range needs to be
    /// sound, not complete.
    pub(crate) fn common_ahead(&self) -> RangeInclusive<i64> {
        // `-before` saturates at `-i64::MAX`, so no difference of `i64::MIN` gets in (its
        // negation wraps in `timestamp_in_range`).
        let mut lo = self.before.saturating_neg();
        if self.retention_ms >= 0 {
            lo = lo.max(-self.retention_ms);
        }
        lo..=self.after.min(crate::diagnosis::HOUR)
    }
}

/// The common case on its own: a one-record batch that every check accepts and that needs no
/// diagnosis. `None` sends the batch through the whole validation, which says why it is not.
#[inline(always)]
pub(crate) fn accepted_single(limits: &Limits, now: Timestamp, r: &Record) -> Option<Validated> {
    let size = crate::batch::single_record_batch_size(r);
    if size.0 > limits.max_message_bytes
        || size.0 > limits.segment_bytes
        || (limits.compact && !r.has_key())
    {
        return None;
    }
    if !limits.create_time {
        return Some(Validated {
            size,
            max_timestamp: now,
            log_append_time: Some(now),
            diagnoses: Vec::new(),
        });
    }
    let ts = r.timestamp;
    if !limits.stamp_common(now, ts) {
        return None;
    }
    Some(Validated {
        size,
        max_timestamp: ts.max(Timestamp::NONE),
        log_append_time: None,
        diagnoses: Vec::new(),
    })
}
