//! One step (or one command between steps) against the partition. No single Kafka class: a step
//! stands for a client request the broker serves (Produce, ListOffsets, DeleteRecords,
//! IncrementalAlterConfigs) or for the broker's clock moving on, which runs the retention checks
//! due on the way as `LogManager`'s scheduler does.

use super::sink::{Seen, StepSink};
use super::Listed;
use crate::batch::Record;
use crate::config::ConfigValue;
use crate::error::Error;
use crate::event::Roll;
use crate::partition::{Command, Partition};
use crate::retention::RetentionReport;
use crate::scenario::outcome::{
    ClockMoved, ConfigChange, ProduceOutcome, StepOutcome, StepReport, Traffic,
};
use crate::scenario::summary::{StepSummary, ViewMarks};
use crate::scenario::{ScenarioError, Step, TimedEvent};
use crate::units::Timestamp;

/// How far [`Ctx::step`] got.
pub(super) enum Progress {
    /// A step of generated traffic stopped at its slice's limit, here.
    Partial(TrafficRun),
    /// The step ran to its end.
    Done(StepOutcome),
}

/// What a step's events have collected for its report so far.
#[derive(Clone, Debug, Default)]
pub(super) struct Collected {
    pub(super) rolls: Vec<Roll>,
    pub(super) retention: Vec<RetentionReport>,
    /// Segment verdicts listed by `retention`.
    pub(super) verdicts: u64,
    pub(super) summary: StepSummary,
}

/// Where a step of generated traffic got to: batch `next_batch` is the next to send, at
/// `start + next_batch × every`.
#[derive(Clone, Debug)]
pub(super) struct TrafficRun {
    pub(super) start: Timestamp,
    pub(super) next_batch: u64,
    /// A batch went through the general path and the step's budget was checked after it.
    pub(super) budget_checked: bool,
    pub(super) traffic: Traffic,
}
/// One step's (or command's) replay: the partition, the callback, and what the report collects.
pub(super) struct Ctx<'a, 'f> {
    pub(super) index: usize,
    pub(super) partition: &'a mut Partition,
    pub(super) on_event: Option<&'f mut dyn FnMut(TimedEvent<'_>)>,
    pub(super) marks: Option<&'a mut ViewMarks>,
    pub(super) collected: Collected,
    /// The records of the batch being produced, reused from batch to batch.
    pub(super) buffer: Vec<Record>,
    /// What the replay's earlier steps listed (nothing for a command between steps, which is
    /// outside a replay's budget: a person acting, one command at a time).
    pub(super) before: Listed,
}

impl<'a, 'f> Ctx<'a, 'f> {
    pub(super) fn new(
        index: usize,
        partition: &'a mut Partition,
        on_event: Option<&'f mut dyn FnMut(TimedEvent<'_>)>,
        marks: Option<&'a mut ViewMarks>,
    ) -> Self {
        Ctx {
            index,
            partition,
            on_event,
            marks,
            collected: Collected::default(),
            buffer: Vec::new(),
            before: Listed::default(),
        }
    }

    pub(super) fn finish(self, outcome: StepOutcome) -> (StepReport, StepSummary) {
        let report = StepReport {
            index: self.index,
            now: self.partition.clock(),
            outcome,
            rolls: self.collected.rolls,
            retention: self.collected.retention,
        };
        (report, self.collected.summary)
    }

    pub(super) fn err(&self, field: &str, reason: impl Into<String>) -> ScenarioError {
        ScenarioError {
            step: Some(self.index),
            field: field.to_string(),
            reason: reason.into(),
            line_column: None,
        }
    }

    /// What the replay's reports list by now, with this step's `outcome` once it has one.
    pub(super) fn listed(&self, outcome: Option<&StepOutcome>) -> Listed {
        let retention = match outcome {
            Some(StepOutcome::Retention(r)) => r.verdicts.len() as u64,
            _ => 0,
        };
        Listed {
            verdicts: self
                .before
                .verdicts
                .saturating_add(self.collected.verdicts)
                .saturating_add(retention),
            retention: self.before.retention.saturating_add(retention),
        }
    }

    /// What the parser could not foresee against the scenario's budget: the segments rolled so
    /// far (the parser counts size rolls; time rolls only show here) and the verdicts the
    /// replay's retention checks list by the end of this step (of kind `field`).
    pub(super) fn within_budget(&self, field: &str, listed: Listed) -> Result<(), ScenarioError> {
        crate::scenario::budget::check_segments(self.partition.segments_rolled())
            .and_then(|()| crate::scenario::budget::check_replay_verdicts(listed.verdicts))
            .map_err(|reason| self.err(field, reason))
    }

    /// Runs `f` against the partition with a sink over this step's collections.
    pub(super) fn with_sink<T>(
        &mut self,
        now: Timestamp,
        f: impl FnOnce(&mut Partition, &mut StepSink<'_, 'f>) -> Result<T, Error>,
    ) -> Result<(T, Seen), Error> {
        self.run_sink(now, Some(Seen::default()), |partition, sink| {
            let out = f(partition, sink)?;
            Ok((out, sink.seen.take().unwrap_or_default()))
        })
    }

    /// [`Ctx::with_sink`] for a call whose [`Seen`] nobody reads (a batch on the common path):
    /// no `Seen` is built, moved out or dropped, hundreds of bytes a batch (a `memory.copy` and
    /// an out-of-line drop each in the browser).
    #[inline]
    pub(super) fn with_sink_unseen<T>(
        &mut self,
        now: Timestamp,
        f: impl FnOnce(&mut Partition, &mut StepSink<'_, 'f>) -> T,
    ) -> T {
        self.run_sink(now, None, f)
    }

    /// Runs `f` against the partition with a sink over this step's collections that keeps what
    /// it sees in `seen` when that is `Some`.
    #[inline]
    pub(super) fn run_sink<T>(
        &mut self,
        now: Timestamp,
        seen: Option<Seen>,
        f: impl FnOnce(&mut Partition, &mut StepSink<'_, 'f>) -> T,
    ) -> T {
        let mut sink = StepSink {
            index: self.index,
            at: now,
            on_event: self.on_event.as_deref_mut(),
            rolls: &mut self.collected.rolls,
            retention: &mut self.collected.retention,
            verdicts: &mut self.collected.verdicts,
            before: self.before.verdicts,
            summary: &mut self.collected.summary,
            seen,
            marks: self.marks.as_deref_mut(),
        };
        f(self.partition, &mut sink)
    }

    /// Applies a command, handing its events to the sink.
    pub(super) fn apply(&mut self, now: Timestamp, cmd: Command) -> Result<Seen, Error> {
        self.with_sink(now, |p, sink| p.apply_with(now, cmd, sink))
            .map(|((), seen)| seen)
    }

    /// Runs the checks due by `now` (so a rejected batch still lets scheduled retention run).
    pub(super) fn due_checks(&mut self, now: Timestamp) -> Result<(), Error> {
        if now >= self.partition.next_retention_check() {
            self.apply(now, Command::Tick)?;
        }
        Ok(())
    }

    /// One batch (the records in `self.buffer`) at `now`: the due checks, then the append or
    /// the broker's rejection.
    pub(super) fn produce(&mut self, now: Timestamp) -> Result<ProduceOutcome, Error> {
        self.due_checks(now)?;
        let records = std::mem::take(&mut self.buffer);
        let result = self.with_sink(now, |p, sink| p.produce_with(now, &records, sink));
        self.buffer = records;
        match result {
            Ok(((), seen)) => Ok(seen
                .appended
                .map_or(ProduceOutcome::Empty, ProduceOutcome::Appended)),
            Err(Error::Produce(e)) => Ok(ProduceOutcome::Rejected(e)),
            Err(e) => Err(e),
        }
    }

    /// Moves the clock to `to`, running the retention checks due on the way.
    pub(super) fn move_clock(&mut self, to: Timestamp) -> Result<ClockMoved, Error> {
        let from = self.partition.clock();
        let seen = self.apply(to, Command::Tick)?;
        Ok(ClockMoved {
            from,
            checks: seen.checks,
        })
    }

    pub(super) fn retention(&mut self, now: Timestamp) -> Result<RetentionReport, Error> {
        Ok(self
            .apply(now, Command::RunRetention)?
            .last_check
            .expect("a retention command reports its check"))
    }

    pub(super) fn delete_records(
        &mut self,
        now: Timestamp,
        offset: i64,
    ) -> Result<StepOutcome, Error> {
        let result = match self.apply(now, Command::DeleteRecords { offset }) {
            Ok(seen) => Ok(seen
                .low_watermark
                .unwrap_or(self.partition.log_start_offset())),
            Err(Error::DeleteRecords(e)) => Err(e),
            Err(e) => return Err(e),
        };
        Ok(StepOutcome::DeleteRecords { offset, result })
    }

    pub(super) fn set_config(
        &mut self,
        now: Timestamp,
        name: String,
        value: ConfigValue,
    ) -> Result<Option<ConfigChange>, Error> {
        Ok(self.apply(now, Command::SetConfig { name, value })?.config)
    }

    /// One command between steps.
    pub(super) fn command(
        &mut self,
        now: Timestamp,
        command: Command,
    ) -> Result<StepOutcome, Error> {
        Ok(match command {
            Command::Tick => StepOutcome::Advance(self.move_clock(now)?),
            Command::Produce { records } => {
                self.buffer = records;
                StepOutcome::Produce(self.produce(now)?)
            }
            Command::RunRetention => StepOutcome::Retention(self.retention(now)?),
            Command::DeleteRecords { offset } => self.delete_records(now, offset)?,
            Command::SetConfig { name, value } => {
                StepOutcome::Config(self.set_config(now, name, value)?.into_iter().collect())
            }
            Command::SetVersion { version } => StepOutcome::Version(
                self.apply(now, Command::SetVersion { version })?
                    .version
                    .expect("a version switch reports itself"),
            ),
            Command::SetHighWatermark { offset } => {
                self.apply(now, Command::SetHighWatermark { offset })?;
                StepOutcome::HighWatermark(self.partition.high_watermark())
            }
        })
    }

    /// One scenario step, at the partition's clock; a step of generated traffic from where
    /// `resume` says (set only for one) until its work reaches `limit`.
    pub(super) fn step(
        &mut self,
        step: &Step,
        resume: Option<TrafficRun>,
        limit: Option<u64>,
    ) -> Result<Progress, ScenarioError> {
        let now = self.partition.clock();
        Ok(Progress::Done(match step {
            Step::Produce(p) if p.generated => return self.traffic(p, resume, limit),
            Step::Produce(p) => {
                self.records(p, now, 0)?;
                let outcome = self
                    .produce(now)
                    .map_err(|e| self.err("produce", e.to_string()))?;
                StepOutcome::Produce(outcome)
            }
            Step::Advance(d) => {
                let to = now
                    .0
                    .checked_add(*d)
                    .ok_or_else(|| self.err("advance", "the clock overflows a 64-bit long"))?;
                StepOutcome::Advance(self.step_clock(Timestamp(to), "advance")?)
            }
            Step::At(t) => StepOutcome::At(self.step_clock(*t, "at")?),
            Step::Retention => {
                let report = self
                    .retention(now)
                    .map_err(|e| self.err("retention", e.to_string()))?;
                crate::scenario::budget::check_retention_listing(
                    self.before.retention,
                    report.verdicts.len() as u64,
                )
                .map_err(|e| self.err("retention", e))?;
                StepOutcome::Retention(report)
            }
            Step::Lookup(spec) => StepOutcome::Lookup {
                spec: *spec,
                result: self.partition.lookup(*spec),
            },
            Step::DeleteRecords(offset) => self
                .delete_records(now, *offset)
                .map_err(|e| self.err("delete_records.offset", e.to_string()))?,
            Step::Config(changes) => {
                let mut changed = Vec::with_capacity(changes.len());
                for (name, value) in changes {
                    let change = self
                        .set_config(now, name.clone(), value.clone())
                        .map_err(|e| self.err(&format!("config.{name}"), e.to_string()))?;
                    changed.extend(change);
                }
                StepOutcome::Config(changed)
            }
            Step::Snapshot => StepOutcome::Snapshot(self.partition.state()),
            Step::HighWatermark(o) => {
                self.apply(now, Command::SetHighWatermark { offset: *o })
                    .map_err(|e| self.err("high_watermark.offset", e.to_string()))?;
                StepOutcome::HighWatermark(self.partition.high_watermark())
            }
            Step::Version(v) => self
                .command(now, Command::SetVersion { version: *v })
                .map_err(|e| self.err("version", e.to_string()))?,
        }))
    }

    pub(super) fn step_clock(
        &mut self,
        to: Timestamp,
        field: &str,
    ) -> Result<ClockMoved, ScenarioError> {
        let now = self.partition.clock();
        if to < now {
            return Err(self.err(
                field,
                format!(
                    "clock moved backwards: {} is before now ({})",
                    crate::calendar::rfc3339(to.0),
                    crate::calendar::rfc3339(now.0)
                ),
            ));
        }
        self.move_clock(to)
            .map_err(|e| self.err(field, e.to_string()))
    }
}
