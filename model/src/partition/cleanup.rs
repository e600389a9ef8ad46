//! Moving a partition's log start offset: `LogManager.cleanupLogs` (the retention task) and the
//! log cleaner's `deleteOldSegments` pass, on their schedules, and DeleteRecords
//! (`UnifiedLog.maybeIncrementLogStartOffset` behind `ReplicaManager.deleteRecords`).

use super::Partition;
use crate::error::{DeleteRecordsError, Error};
use crate::event::{Event, LogStartReason};
use crate::fast::sink::Sink;
use crate::retention::{self, Inputs, RetentionReport, Step};
use crate::segment::RollReason;
use crate::units::{Offset, Timestamp};
use crate::validation::ErrorCode;

impl Partition {
    pub(super) fn check_delete_records(&self, offset: i64) -> Result<Offset, Error> {
        let tp = &self.topic_partition;
        if !self.config.topic.cleanup_policy.delete {
            return Err(Error::DeleteRecords(DeleteRecordsError {
                error: ErrorCode::PolicyViolation,
                error_message: format!(
                    "Records of partition {tp} can not be deleted due to the configured policy"
                ),
            }));
        }
        let target = if offset == -1 {
            self.high_watermark.0
        } else {
            offset
        };
        if target < 0 {
            return Err(Error::DeleteRecords(DeleteRecordsError {
                error: ErrorCode::OffsetOutOfRange,
                error_message: format!("The offset {target} for partition {tp} is not valid"),
            }));
        }
        if target > self.high_watermark.0 {
            return Err(Error::DeleteRecords(DeleteRecordsError {
                error: ErrorCode::OffsetOutOfRange,
                error_message: format!(
                    "Cannot increment the log start offset to {target} of partition {tp} since it is larger than the high watermark {}",
                    self.high_watermark
                ),
            }));
        }
        Ok(Offset(target))
    }

    /// Moves the schedule that does not run retention on this topic (the retention task for a
    /// compacted topic, the cleaner for the others) to its first instant after `now`.
    pub(super) fn skip_idle_schedule(&mut self, now: Timestamp) {
        fn past(next: Timestamp, period: i64, now: Timestamp) -> Timestamp {
            if next > now {
                return next;
            }
            let k = (now.0 as i128 - next.0 as i128) / period as i128 + 1;
            Timestamp((next.0 as i128 + k * period as i128).min(i64::MAX as i128) as i64)
        }
        if self.config.retention_by_cleaner() {
            let period = self.config.broker.log_retention_check_interval_ms.max(1);
            self.next_retention_check = past(self.next_retention_check, period, now);
        } else {
            let period = self.config.cleaner_backoff_ms();
            self.next_cleaner_pass = past(self.next_cleaner_pass, period, now);
        }
    }

    /// Runs every retention pass due at or before `now` on the schedule in force (the retention
    /// task, or the log cleaner for a compacted topic), each at its own instant.
    ///
    /// A check that deletes nothing changes nothing, so the checks after it are idle too until
    /// the first remaining segment becomes old enough (or forever, when the walk is stopped by
    /// the high watermark, the empty active segment or a disabled limit). Those idle checks are
    /// skipped and counted in the next report's `idle_checks_before`; the last due check always
    /// runs so the latest verdicts are reported. This keeps a clock jump of centuries cheap.
    pub(super) fn run_due_checks(&mut self, now: Timestamp, events: &mut impl Sink) {
        self.skip_idle_schedule(now);
        let by_cleaner = self.config.retention_by_cleaner();
        let interval = if by_cleaner {
            self.config.cleaner_backoff_ms()
        } else {
            self.config.broker.log_retention_check_interval_ms.max(1)
        };
        let mut next = self.next_retention_check();
        let mut idle: u64 = 0;
        while next <= now {
            let at = next;
            let plan = retention::plan(&self.config, &self.segments, self.inputs(at));
            // How many more checks are due after this one, at or before `now`.
            let last_due =
                ((now.0 as i128 - at.0 as i128) / interval as i128).min(i64::MAX as i128) as i64;
            if plan.deletes_nothing() && last_due > 0 {
                // Idle: jump to the first due instant at or after the blocker's eligibility,
                // but no further than the last check due at or before `now`.
                let k = match plan.wake() {
                    Some(w) if w > at => ((w.0 as i128 - at.0 as i128 + interval as i128 - 1)
                        / interval as i128)
                        .min(last_due as i128) as i64,
                    Some(_) => 1,
                    None => last_due,
                }
                .max(1);
                idle += k as u64;
                next = Timestamp((at.0 as i128 + k as i128 * interval as i128) as i64);
                continue;
            }
            if plan.is_quiet() {
                // Nothing to execute; the report (every segment's verdict) is made only for a
                // sink that keeps it.
                events.quiet_check(|| {
                    let (_, mut report) = plan.finish(true);
                    report.idle_checks_before = idle;
                    report
                });
            } else {
                let (steps, report) = plan.finish(true);
                self.execute_retention(at, steps, report, idle, events);
            }
            idle = 0;
            match at.0.checked_add(interval) {
                Some(n) => next = Timestamp(n),
                None => {
                    next = Timestamp(i64::MAX);
                    break;
                }
            }
        }
        if by_cleaner {
            self.next_cleaner_pass = next;
        } else {
            self.next_retention_check = next;
        }
    }

    fn inputs(&self, now: Timestamp) -> Inputs {
        Inputs {
            now,
            log_start_offset: self.log_start_offset,
            high_watermark: self.high_watermark,
            log_end_offset: self.log_end_offset(),
            size: self.size,
        }
    }

    /// What a retention check at `now` would do, without doing it.
    pub fn preview_retention(&self, now: Timestamp) -> RetentionReport {
        retention::plan(&self.config, &self.segments, self.inputs(now))
            .finish(false)
            .1
    }

    pub(super) fn retention_check(
        &mut self,
        at: Timestamp,
        scheduled: bool,
        events: &mut impl Sink,
    ) {
        let (steps, report) =
            retention::plan(&self.config, &self.segments, self.inputs(at)).finish(scheduled);
        self.execute_retention(at, steps, report, 0, events);
    }

    fn execute_retention(
        &mut self,
        at: Timestamp,
        steps: Vec<Step>,
        mut report: RetentionReport,
        idle: u64,
        events: &mut impl Sink,
    ) {
        report.idle_checks_before = idle;
        for &base in &report.future_timestamp_segments {
            let largest = self
                .segments
                .binary_search_by_key(&base, |s| s.base_offset())
                .ok()
                .map(|i| self.segments[i].largest_timestamp());
            events.emit(|| Event::FutureTimestampWarning {
                segment: base,
                largest_timestamp: largest.unwrap_or(Timestamp::NONE),
            });
        }
        let mut deleted = report.deleted.iter();
        for step in steps {
            match step {
                Step::Roll => {
                    let leo = self.log_end_offset();
                    self.roll(at, leo, RollReason::RetentionDeletesAll, events);
                }
                Step::Delete { n, pass: _ } => {
                    for seg in &self.segments[..n] {
                        self.size -= seg.size().0;
                        self.records -= seg.record_count();
                    }
                    let size_after = self.size;
                    for seg in self.segments.drain(..n) {
                        let d = deleted.next().expect("the plan lists every deletion");
                        let reason = retention::deletion_reason(
                            &self.config,
                            d,
                            seg.largest_timestamp(),
                            seg.largest_timestamp_is_record_time(),
                            self.log_start_offset,
                            size_after,
                        );
                        events.emit(|| Event::SegmentDeleted {
                            base_offset: d.base_offset,
                            pass: d.pass,
                            reason,
                        });
                    }
                    let first = self.segments[0].base_offset();
                    if first > self.log_start_offset {
                        let from = self.log_start_offset;
                        self.log_start_offset = first;
                        events.emit(|| Event::LogStartOffsetIncremented {
                            from,
                            to: first,
                            reason: LogStartReason::SegmentDeletion,
                        });
                    }
                }
            }
        }
        debug_assert_eq!(report.log_start_offset, self.log_start_offset);
        events.emit(|| Event::RetentionChecked(report));
    }
}
