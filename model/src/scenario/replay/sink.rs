//! Where a replay step's events go. No Kafka class: the broker says what it did in logs and
//! metrics; a replay collects the same facts from the partition's events for its reports, the
//! caller's callback and a view's marks.

use crate::event::{Appended, Event, Roll};
use crate::fast::sink::Sink;
use crate::retention::RetentionReport;
use crate::scenario::budget::MAX_REPLAY_VERDICTS;
use crate::scenario::outcome::{ConfigChange, VersionChange};
use crate::scenario::summary::{StepSummary, ViewMarks};
use crate::scenario::TimedEvent;
use crate::units::{Bytes, Offset, Timestamp};

/// What the events of one command said, for the step's outcome.
#[derive(Default)]
pub(super) struct Seen {
    pub(super) appended: Option<Appended>,
    pub(super) checks: usize,
    /// The last check that was not quiet ([`Sink::quiet_check`]).
    pub(super) last_check: Option<RetentionReport>,
    pub(super) low_watermark: Option<Offset>,
    pub(super) config: Option<ConfigChange>,
    pub(super) version: Option<VersionChange>,
}

/// Where a command's events go during a replay: to the caller's callback if it has one, into
/// the step's summary, its rolls and retention passes, and what the outcome needs.
pub(super) struct StepSink<'c, 'f> {
    pub(super) index: usize,
    pub(super) at: Timestamp,
    pub(super) on_event: Option<&'c mut (dyn FnMut(TimedEvent<'_>) + 'f)>,
    pub(super) rolls: &'c mut Vec<Roll>,
    pub(super) retention: &'c mut Vec<RetentionReport>,
    /// Verdicts listed by the reports in `retention` (and by those left out once over budget).
    pub(super) verdicts: &'c mut u64,
    /// Verdicts listed by the replay's earlier steps.
    pub(super) before: u64,
    pub(super) summary: &'c mut StepSummary,
    /// What the outcome needs, when the caller reads it ([`super::step::Ctx::with_sink`]); `None` on the
    /// common path ([`super::step::Ctx::with_sink_unseen`]), which then neither builds nor drops one a batch.
    pub(super) seen: Option<Seen>,
    /// What a view marks, for a caller that asked for it instead of the events.
    pub(super) marks: Option<&'c mut ViewMarks>,
}

impl Sink for StepSink<'_, '_> {
    // Inlined where each event is made, so that the event's kind is known there and the
    // matches below fold away: a generated batch's two events then cost no call and no match
    // (measured in the browser: a replay of one-record batches 15-20 % faster).
    #[inline(always)]
    fn emit(&mut self, f: impl FnOnce() -> Event) {
        let event = f();
        // Counted before the callback, which the compiler cannot see into: here the event's
        // kind is still known and both fold to that kind's few lines.
        self.summary.see(&event);
        if let Some(marks) = self.marks.as_deref_mut() {
            marks.see(&event);
        }
        if let Some(on_event) = self.on_event.as_deref_mut() {
            on_event(TimedEvent {
                step: self.index,
                at: self.at,
                event: &event,
            });
        }
        match event {
            Event::SegmentRolled(r) => self.rolls.push(r),
            Event::BatchAppended(a) => {
                if let Some(seen) = &mut self.seen {
                    seen.appended = Some(a);
                }
            }
            Event::RetentionChecked(r) => {
                if !r.deleted.is_empty() {
                    // Past the budget the step fails (Ctx::within_budget): what it would have
                    // kept is left out so that memory stays bounded until then.
                    *self.verdicts += r.verdicts.len() as u64;
                    if self.before.saturating_add(*self.verdicts) <= MAX_REPLAY_VERDICTS {
                        self.retention.push(r.clone());
                    }
                }
                if StepSummary::worth_showing(&r) {
                    self.summary.retention = Some(r.clone());
                }
                if let Some(seen) = &mut self.seen {
                    seen.checks += 1;
                    seen.last_check = Some(r);
                }
            }
            Event::RecordsDeleted { low_watermark, .. } => {
                if let Some(seen) = &mut self.seen {
                    seen.low_watermark = Some(low_watermark);
                }
            }
            Event::ConfigChanged { name, old, new } => {
                if let Some(seen) = &mut self.seen {
                    seen.config = Some(ConfigChange { name, old, new });
                }
            }
            Event::VersionChanged { from, to, reset } => {
                if let Some(seen) = &mut self.seen {
                    seen.version = Some(VersionChange { from, to, reset });
                }
            }
            // Every batch makes one of these, and they own nothing: forgetting one frees
            // nothing and skips a call to the whole enum's drop glue, which the callback above
            // stops the compiler from resolving to this variant (a twentieth of a replay in the
            // browser). Every field is named, so that a new one cannot slip past this; the
            // assertion below the impl checks that none of their types owns anything.
            e @ (Event::HighWatermarkMoved { from: _, to: _ }
            | Event::OffsetIndexEntry {
                segment: _,
                offset: _,
                position: _,
            }
            | Event::TimeIndexEntry {
                segment: _,
                timestamp: _,
                offset: _,
                at_roll: _,
            }) => std::mem::forget(e),
            _ => {}
        }
    }

    fn quiet_check(&mut self, f: impl FnOnce() -> RetentionReport) {
        if self.on_event.is_some() {
            self.emit(|| Event::RetentionChecked(f()));
            return;
        }
        // Without a callback, a quiet check is only counted, as `emit` counts it: the marks and
        // the step's reports keep only checks worth showing or deleting something, and an
        // outcome reads the report only of a check run on request.
        self.summary.retention_checks += 1;
        if let Some(seen) = &mut self.seen {
            seen.checks += 1;
        }
    }
}

// What `StepSink::emit` forgets owns nothing.
const _: () = assert!(!std::mem::needs_drop::<(Offset, Bytes, Timestamp, bool)>());
