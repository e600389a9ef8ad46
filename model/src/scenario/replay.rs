//! Replaying a [`Scenario`] against a [`Partition`], step by step, into typed [`StepReport`]s.
//!
//! There is one clock: the partition's. A step or a command between steps ([`Runner::apply`])
//! moves it, and [`Runner::now`] reads it.
//!
//! A step of generated traffic can also run in slices ([`Runner::step_slice`]), so that a caller
//! with a frame to keep (the browser) can yield between them. A sliced step is the whole step cut
//! at batch boundaries: the same batches in the same order against the same partition, so it
//! emits the same events and ends in the same state and report; until its last slice it is not
//! finished ([`Runner::next_step`] still names it and no command may run).

use super::budget::MAX_REPLAY_VERDICTS;
use super::outcome::{
    ClockMoved, ConfigChange, ProduceOutcome, StepOutcome, StepReport, Traffic, TrafficRejection,
    VersionChange,
};
use super::spec::{apply_unit, overflow_reason};
use super::summary::{StepSummary, ViewMarks};
use super::{ProduceStep, Scenario, ScenarioError, Step, TimeSpec, TimedEvent, UnitMistake};
use crate::batch::Record;
use crate::config::ConfigValue;
use crate::error::Error;
use crate::event::{Appended, Event, Roll};
use crate::fast::sink::Sink;
use crate::partition::{Command, Partition, PartitionState};
use crate::retention::RetentionReport;
use crate::units::{Bytes, Offset, Timestamp};

/// A whole replay: every step's report and the partition at the end (`{"steps": [...], "final":
/// STATE}` in JSON).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// One entry per step.
    pub steps: Vec<StepReport>,
    /// The partition at the end.
    pub final_state: PartitionState,
}

/// What a segment roll counts for in a slice's work ([`Runner::step_slice`]), against one record
/// sent: closing a segment (its last time-index entry, giving back its reserved room) and
/// opening the next costs about as much as appending a hundred one-record batches on the
/// common path (a million one-record segments replay at about 12 µs a batch in the browser,
/// ten million records in one-megabyte segments at about 0.1 µs).
pub const ROLL_WORK: u64 = 100;

/// Replays a scenario step by step.
///
/// Invariants: the runner's clock is the partition's ([`Partition::clock`]); every step and every
/// command moves it, never backwards. While a step runs in slices (`sliced` is set) it is step
/// `next`, a step of generated traffic, and the partition has been sent exactly its first
/// `sliced.traffic.next_batch` batches.
#[derive(Clone, Debug)]
pub struct Runner {
    scenario: Scenario,
    partition: Partition,
    next: usize,
    sliced: Option<Box<Sliced>>,
    /// What the reports of the steps finished so far list (the replay's budget).
    listed: Listed,
}

/// Segment verdicts listed by a replay's reports so far, against its budget
/// ([`MAX_REPLAY_VERDICTS`], [`super::budget::MAX_RETENTION_LISTING`]).
#[derive(Clone, Copy, Debug, Default)]
struct Listed {
    /// By retention checks that deleted segments and by `retention` steps.
    verdicts: u64,
    /// By `retention` steps.
    retention: u64,
}

/// What [`Runner::step_slice`] did.
// A return value, never stored: boxing the report would only add an allocation a step.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Slice {
    /// The step runs on: `sent` of its `batches` batches are in the partition. It is not
    /// finished: [`Runner::next_step`] still names it and it has no report yet.
    Partial {
        /// The step's index.
        step: usize,
        /// Batches sent so far (appended or rejected).
        sent: u64,
        /// Batches in the step.
        batches: u64,
    },
    /// The step finished, with the report (or error) [`Runner::step`] gives for it.
    Done(Result<StepReport, ScenarioError>),
}

/// A step of generated traffic between two slices: where it got to and what its report has
/// collected so far.
#[derive(Clone, Debug)]
struct Sliced {
    collected: Collected,
    traffic: TrafficRun,
}

impl Runner {
    /// A runner at the scenario's start, before step 0.
    pub fn new(scenario: Scenario) -> Runner {
        let partition = scenario.partition();
        Runner {
            scenario,
            partition,
            next: 0,
            sliced: None,
            listed: Listed::default(),
        }
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The partition as replayed so far.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// The broker clock.
    pub fn now(&self) -> Timestamp {
        self.partition.clock()
    }

    /// The index of the next step to run (or of the step running in slices).
    pub fn next_step(&self) -> usize {
        self.next
    }

    /// The step running in slices, as `(index, batches sent, batches)`: `None` between steps.
    pub fn step_in_progress(&self) -> Option<(usize, u64, u64)> {
        let s = self.sliced.as_deref()?;
        Some((self.next, s.traffic.next_batch, s.traffic.traffic.batches))
    }

    /// Whether every step has run.
    pub fn is_done(&self) -> bool {
        self.next >= self.scenario.steps.len()
    }

    /// Runs the next step (or the rest of the step running in slices), handing each event to
    /// `on_event` as it happens. `None` when done. After an error the runner moves on to the
    /// next step's index (a replay normally stops).
    pub fn step(
        &mut self,
        on_event: &mut dyn FnMut(TimedEvent<'_>),
    ) -> Option<Result<StepReport, ScenarioError>> {
        self.run_whole(Some(on_event), None)
            .map(|r| r.map(|(report, _)| report))
    }

    /// [`Runner::step`] with no callback: what the step changed that a view marks is added to
    /// `marks` as it happens.
    pub fn step_marks(
        &mut self,
        marks: &mut ViewMarks,
    ) -> Option<Result<StepReport, ScenarioError>> {
        self.run_whole(None, Some(marks))
            .map(|r| r.map(|(report, _)| report))
    }

    /// Runs the next step, or goes on with the step running in slices, until this call's work
    /// reaches `work` (at least one batch is sent), handing each event to `on_event`: each
    /// record sent counts one (a batch without records counts as one record), each segment
    /// rolled [`ROLL_WORK`] more. Only a step of generated traffic stops part way; any other
    /// step runs whole. `None` when done.
    ///
    /// The slices of a step, one after the other, do exactly what [`Runner::step`] does for it:
    /// the same events in the same order at the same broker times, the same partition after it
    /// and the same report.
    pub fn step_slice(
        &mut self,
        work: u64,
        on_event: &mut dyn FnMut(TimedEvent<'_>),
    ) -> Option<Slice> {
        self.run_slice(Some(work), Some(on_event), None)
            .map(Ran::into_slice)
    }

    /// [`Runner::step_slice`] with no callback: what the slice changed that a view marks is
    /// added to `marks` as it happens.
    pub fn step_slice_marks(&mut self, work: u64, marks: &mut ViewMarks) -> Option<Slice> {
        self.run_slice(Some(work), None, Some(marks))
            .map(Ran::into_slice)
    }

    /// Runs the next step (or the rest of the step running in slices) and adds up its events
    /// instead of handing them out one by one. `None` when done.
    pub fn step_summary(&mut self) -> Option<Result<(StepReport, StepSummary), ScenarioError>> {
        self.run_whole(None, None)
    }

    /// Runs step `next` (the rest of it, when it runs in slices) to its end.
    fn run_whole(
        &mut self,
        mut on_event: Option<&mut dyn FnMut(TimedEvent<'_>)>,
        mut marks: Option<&mut ViewMarks>,
    ) -> Option<Result<(StepReport, StepSummary), ScenarioError>> {
        loop {
            // Without a limit the step runs to its end in one slice: the loop never repeats.
            let on_event = on_event
                .as_mut()
                .map(|f| &mut **f as &mut dyn FnMut(TimedEvent<'_>));
            match self.run_slice(None, on_event, marks.as_deref_mut())? {
                Ran::Done(result) => return Some(result),
                Ran::Partial { .. } => {}
            }
        }
    }

    /// Runs step `next` (resuming it when it runs in slices) until its work reaches `limit`; the
    /// step is finished, and `next` moves on, only once its last batch is.
    fn run_slice(
        &mut self,
        limit: Option<u64>,
        on_event: Option<&mut dyn FnMut(TimedEvent<'_>)>,
        marks: Option<&mut ViewMarks>,
    ) -> Option<Ran> {
        let index = self.next;
        let step = self.scenario.steps.get(index)?;
        let mut ctx = Ctx::new(index, &mut self.partition, on_event, marks);
        ctx.before = self.listed;
        let resume = self.sliced.take().map(|s| {
            ctx.collected = s.collected;
            s.traffic
        });
        let outcome = match ctx.step(step, resume, limit) {
            Ok(Progress::Partial(traffic)) => {
                let ran = Ran::Partial {
                    step: index,
                    sent: traffic.next_batch,
                    batches: traffic.traffic.batches,
                };
                self.sliced = Some(Box::new(Sliced {
                    collected: ctx.collected,
                    traffic,
                }));
                return Some(ran);
            }
            Ok(Progress::Done(outcome)) => Ok(outcome),
            Err(e) => Err(e),
        };
        self.next += 1;
        let outcome = outcome.and_then(|o| {
            let listed = ctx.listed(Some(&o));
            ctx.within_budget(step.kind(), listed)?;
            self.listed = listed;
            Ok(o)
        });
        Some(Ran::Done(outcome.map(|outcome| ctx.finish(outcome))))
    }

    /// Applies a command between steps at broker time `now` (a person acting in the explorer),
    /// handing each event to `on_event`. The outcome is typed like a step's: a rejected batch
    /// or a refused DeleteRecords is an outcome, as in a replay. Errors (a clock going backwards,
    /// a config value Kafka refuses, a high watermark out of range) change nothing.
    pub fn apply(
        &mut self,
        now: Timestamp,
        command: Command,
        on_event: &mut dyn FnMut(TimedEvent<'_>),
    ) -> Result<StepReport, Error> {
        self.apply_command(now, command, Some(on_event))
            .map(|(report, _)| report)
    }

    /// [`Runner::apply`], adding up the events instead of handing them out.
    pub fn apply_summary(
        &mut self,
        now: Timestamp,
        command: Command,
    ) -> Result<(StepReport, StepSummary), Error> {
        self.apply_command(now, command, None)
    }

    fn apply_command(
        &mut self,
        now: Timestamp,
        command: Command,
        on_event: Option<&mut dyn FnMut(TimedEvent<'_>)>,
    ) -> Result<(StepReport, StepSummary), Error> {
        if self.sliced.is_some() {
            return Err(Error::StepInProgress { step: self.next });
        }
        let mut ctx = Ctx::new(self.next, &mut self.partition, on_event, None);
        let outcome = ctx.command(now, command)?;
        Ok(ctx.finish(outcome))
    }
}

/// How far [`Runner::run_slice`] got.
#[allow(clippy::large_enum_variant)] // as `Slice`
enum Ran {
    /// The step runs on (see [`Slice::Partial`]).
    Partial {
        step: usize,
        sent: u64,
        batches: u64,
    },
    /// The step finished.
    Done(Result<(StepReport, StepSummary), ScenarioError>),
}

impl Ran {
    /// The caller's view of it (the summary is for [`Runner::step_summary`] only).
    fn into_slice(self) -> Slice {
        match self {
            Ran::Done(result) => Slice::Done(result.map(|(report, _)| report)),
            Ran::Partial {
                step,
                sent,
                batches,
            } => Slice::Partial {
                step,
                sent,
                batches,
            },
        }
    }
}

/// How far [`Ctx::step`] got.
enum Progress {
    /// A step of generated traffic stopped at its slice's limit, here.
    Partial(TrafficRun),
    /// The step ran to its end.
    Done(StepOutcome),
}

/// What a step's events have collected for its report so far.
#[derive(Clone, Debug, Default)]
struct Collected {
    rolls: Vec<Roll>,
    retention: Vec<RetentionReport>,
    /// Segment verdicts listed by `retention`.
    verdicts: u64,
    summary: StepSummary,
}

/// Where a step of generated traffic got to: batch `next_batch` is the next to send, at
/// `start + next_batch × every`.
#[derive(Clone, Debug)]
struct TrafficRun {
    start: Timestamp,
    next_batch: u64,
    /// A batch went through the general path and the step's budget was checked after it.
    budget_checked: bool,
    traffic: Traffic,
}

/// What the events of one command said, for the step's outcome.
#[derive(Default)]
struct Seen {
    appended: Option<Appended>,
    checks: usize,
    /// The last check that was not quiet ([`Sink::quiet_check`]).
    last_check: Option<RetentionReport>,
    low_watermark: Option<Offset>,
    config: Option<ConfigChange>,
    version: Option<VersionChange>,
}

/// Where a command's events go during a replay: to the caller's callback if it has one, into
/// the step's summary, its rolls and retention passes, and what the outcome needs.
struct StepSink<'c, 'f> {
    index: usize,
    at: Timestamp,
    on_event: Option<&'c mut (dyn FnMut(TimedEvent<'_>) + 'f)>,
    rolls: &'c mut Vec<Roll>,
    retention: &'c mut Vec<RetentionReport>,
    /// Verdicts listed by the reports in `retention` (and by those left out once over budget).
    verdicts: &'c mut u64,
    /// Verdicts listed by the replay's earlier steps.
    before: u64,
    summary: &'c mut StepSummary,
    /// What the outcome needs, when the caller reads it ([`Ctx::with_sink`]); `None` on the
    /// common path ([`Ctx::with_sink_unseen`]), which then neither builds nor drops one a batch.
    seen: Option<Seen>,
    /// What a view marks, for a caller that asked for it instead of the events.
    marks: Option<&'c mut ViewMarks>,
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

/// One step's (or command's) replay: the partition, the callback, and what the report collects.
struct Ctx<'a, 'f> {
    index: usize,
    partition: &'a mut Partition,
    on_event: Option<&'f mut dyn FnMut(TimedEvent<'_>)>,
    marks: Option<&'a mut ViewMarks>,
    collected: Collected,
    /// The records of the batch being produced, reused from batch to batch.
    buffer: Vec<Record>,
    /// What the replay's earlier steps listed (nothing for a command between steps, which is
    /// outside a replay's budget: a person acting, one command at a time).
    before: Listed,
}

impl<'a, 'f> Ctx<'a, 'f> {
    fn new(
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

    fn finish(self, outcome: StepOutcome) -> (StepReport, StepSummary) {
        let report = StepReport {
            index: self.index,
            now: self.partition.clock(),
            outcome,
            rolls: self.collected.rolls,
            retention: self.collected.retention,
        };
        (report, self.collected.summary)
    }

    fn err(&self, field: &str, reason: impl Into<String>) -> ScenarioError {
        ScenarioError {
            step: Some(self.index),
            field: field.to_string(),
            reason: reason.into(),
            line_column: None,
        }
    }

    /// What the replay's reports list by now, with this step's `outcome` once it has one.
    fn listed(&self, outcome: Option<&StepOutcome>) -> Listed {
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
    fn within_budget(&self, field: &str, listed: Listed) -> Result<(), ScenarioError> {
        super::budget::check_segments(self.partition.segments_rolled())
            .and_then(|()| super::budget::check_replay_verdicts(listed.verdicts))
            .map_err(|reason| self.err(field, reason))
    }

    /// Runs `f` against the partition with a sink over this step's collections.
    fn with_sink<T>(
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
    fn with_sink_unseen<T>(
        &mut self,
        now: Timestamp,
        f: impl FnOnce(&mut Partition, &mut StepSink<'_, 'f>) -> T,
    ) -> T {
        self.run_sink(now, None, f)
    }

    /// Runs `f` against the partition with a sink over this step's collections that keeps what
    /// it sees in `seen` when that is `Some`.
    #[inline]
    fn run_sink<T>(
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
    fn apply(&mut self, now: Timestamp, cmd: Command) -> Result<Seen, Error> {
        self.with_sink(now, |p, sink| p.apply_with(now, cmd, sink))
            .map(|((), seen)| seen)
    }

    /// Runs the checks due by `now` (so a rejected batch still lets scheduled retention run).
    fn due_checks(&mut self, now: Timestamp) -> Result<(), Error> {
        if now >= self.partition.next_retention_check() {
            self.apply(now, Command::Tick)?;
        }
        Ok(())
    }

    /// One batch (the records in `self.buffer`) at `now`: the due checks, then the append or
    /// the broker's rejection.
    fn produce(&mut self, now: Timestamp) -> Result<ProduceOutcome, Error> {
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
    fn move_clock(&mut self, to: Timestamp) -> Result<ClockMoved, Error> {
        let from = self.partition.clock();
        let seen = self.apply(to, Command::Tick)?;
        Ok(ClockMoved {
            from,
            checks: seen.checks,
        })
    }

    fn retention(&mut self, now: Timestamp) -> Result<RetentionReport, Error> {
        Ok(self
            .apply(now, Command::RunRetention)?
            .last_check
            .expect("a retention command reports its check"))
    }

    fn delete_records(&mut self, now: Timestamp, offset: i64) -> Result<StepOutcome, Error> {
        let result = match self.apply(now, Command::DeleteRecords { offset }) {
            Ok(seen) => Ok(seen
                .low_watermark
                .unwrap_or(self.partition.log_start_offset())),
            Err(Error::DeleteRecords(e)) => Err(e),
            Err(e) => return Err(e),
        };
        Ok(StepOutcome::DeleteRecords { offset, result })
    }

    fn set_config(
        &mut self,
        now: Timestamp,
        name: String,
        value: ConfigValue,
    ) -> Result<Option<ConfigChange>, Error> {
        Ok(self.apply(now, Command::SetConfig { name, value })?.config)
    }

    /// One command between steps.
    fn command(&mut self, now: Timestamp, command: Command) -> Result<StepOutcome, Error> {
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
    fn step(
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
                super::budget::check_retention_listing(
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

    fn step_clock(&mut self, to: Timestamp, field: &str) -> Result<ClockMoved, ScenarioError> {
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

    /// Fills `self.buffer` with the records of batch `k` of `p`, sent at `now`.
    fn records(&mut self, p: &ProduceStep, now: Timestamp, k: u64) -> Result<(), ScenarioError> {
        let shift = self.shift(p, k)?;
        let mut out = std::mem::take(&mut self.buffer);
        out.clear();
        for (j, r) in p.records.iter().enumerate() {
            match self.stamp(p, j, now, shift) {
                Ok(ts) => out.push(Record::with_key(ts, r.key_bytes, r.value_bytes)),
                Err(e) => {
                    self.buffer = out;
                    return Err(e);
                }
            }
        }
        self.buffer = out;
        Ok(())
    }

    /// What batch `k` of `p` adds to its records' timestamps.
    #[inline]
    fn shift(&self, p: &ProduceStep, k: u64) -> Result<i64, ScenarioError> {
        mul(k as i64, p.timestamp_step_ms).ok_or_else(|| {
            self.err(
                "produce.timestamp_step",
                "batch × timestamp_step overflows a 64-bit long",
            )
        })
    }

    /// The timestamp of record `j` of `p` in the batch sent at `now`, `shift` added.
    #[inline]
    fn stamp(
        &self,
        p: &ProduceStep,
        j: usize,
        now: Timestamp,
        shift: i64,
    ) -> Result<Timestamp, ScenarioError> {
        let r = &p.records[j];
        // Only the literal -1 is NO_TIMESTAMP: a relative time, or a shifted one, is a clock
        // reading even when it lands on -1, so the step and the unit mistake apply to it.
        if r.timestamp == TimeSpec::Absolute(-1) {
            return Ok(Timestamp::NONE);
        }
        // Once per generated batch: the error is built out of line, so that the browser's
        // compiled loop keeps this path small enough to inline.
        match r.timestamp.resolve(now.0) {
            None => Err(self.stamp_overflow(j, None)),
            Some(base) => match base.checked_add(shift).and_then(|t| apply_unit(t, r.unit)) {
                Some(t) => Ok(Timestamp(t)),
                None => Err(self.stamp_overflow(j, r.unit)),
            },
        }
    }

    /// The error of a record timestamp `j` that overflows (written in `unit`, if any).
    #[cold]
    #[inline(never)]
    fn stamp_overflow(&self, j: usize, unit: Option<UnitMistake>) -> ScenarioError {
        self.err(
            &format!("produce.records[{j}].timestamp"),
            overflow_reason(unit),
        )
    }

    /// Generated traffic: batch `k` at `start + k × every`, counted, from where `resume` says
    /// (the start when `None`) until its work reaches `limit` or the step's batches were sent.
    fn traffic(
        &mut self,
        p: &ProduceStep,
        resume: Option<TrafficRun>,
        limit: Option<u64>,
    ) -> Result<Progress, ScenarioError> {
        let mut run = match resume {
            Some(run) => run,
            None => {
                let start = self.partition.clock();
                if p.batches > 1 {
                    self.records(p, start, 0)?;
                    self.partition.expect_batches(p.batches, &self.buffer);
                }
                TrafficRun {
                    start,
                    next_batch: 0,
                    budget_checked: false,
                    traffic: Traffic {
                        batches: p.batches,
                        records_per_batch: p.records.len() as u64,
                        every_ms: p.every_ms,
                        appended_batches: 0,
                        rejected_batches: 0,
                        records_appended: 0,
                        first_offset: Offset(-1),
                        last_offset: Offset(-1),
                        first_rejection: None,
                        diagnosed_batches: 0,
                        first_diagnoses: Vec::new(),
                    },
                }
            }
        };
        let result = self.traffic_batches(p, &mut run, limit);
        if !matches!(result, Ok(false)) {
            // The step is over: no more batches are coming.
            self.partition.expect_batches(0, &[]);
        }
        Ok(match result? {
            true => Progress::Done(StepOutcome::Produce(ProduceOutcome::Traffic(run.traffic))),
            false => Progress::Partial(run),
        })
    }

    /// Sends the batches of `p` from `run.next_batch` on; `false` when it stopped at `limit`
    /// work ([`Runner::step_slice`]) with batches left.
    fn traffic_batches(
        &mut self,
        p: &ProduceStep,
        run: &mut TrafficRun,
        limit: Option<u64>,
    ) -> Result<bool, ScenarioError> {
        // One-record batches take the partition's common path when they can (their size is
        // worked out once), once this step has checked its budget: a batch on that path rolls
        // no segment and runs no retention check, so the budget stays as it was checked.
        let common = match p.records.as_slice() {
            [r] => Some(self.partition.run_shape(&Record::with_key(
                Timestamp::NONE,
                r.key_bytes,
                r.value_bytes,
            ))),
            _ => None,
        };
        let per_batch = (p.records.len() as u64).max(1);
        let mut sent = 0u64;
        let rolled = self.partition.segments_rolled();
        let start = run.start;
        let t = &mut run.traffic;
        while run.next_batch < p.batches {
            if let Some(limit) = limit {
                let rolls = self.partition.segments_rolled() - rolled;
                let work = sent.saturating_add(roll_work(rolls));
                if sent > 0 && work >= limit {
                    return Ok(false);
                }
            }
            let k = run.next_batch;
            run.next_batch += 1;
            sent = sent.saturating_add(per_batch);
            let at = mul(k as i64, p.every_ms)
                .and_then(|d| start.0.checked_add(d))
                .map(Timestamp)
                .ok_or_else(|| {
                    self.err(
                        "produce.every",
                        "batches × every overflows the 64-bit clock",
                    )
                })?;
            if let (Some(shape), true) = (common, run.budget_checked) {
                let ts = self.stamp(p, 0, at, self.shift(p, k)?)?;
                let base = self.partition.log_end_offset();
                let appended = self.with_sink_unseen(at, |partition, sink| {
                    partition.append_common(shape, at, ts, sink)
                });
                if appended {
                    t.count_appended(base, base);
                    continue;
                }
            }
            self.records(p, at, k)?;
            let outcome = self
                .produce(at)
                .map_err(|e| self.err("produce", e.to_string()))?;
            match outcome {
                ProduceOutcome::Appended(a) => {
                    t.count_appended(a.base_offset, a.last_offset);
                    if !a.diagnoses.is_empty() {
                        if t.diagnosed_batches == 0 {
                            t.first_diagnoses = a.diagnoses;
                        }
                        t.diagnosed_batches += 1;
                    }
                }
                ProduceOutcome::Rejected(error) => {
                    t.rejected_batches += 1;
                    if t.first_rejection.is_none() {
                        t.first_rejection = Some(TrafficRejection {
                            batch: k,
                            at,
                            error,
                        });
                    }
                    // The clock still moves to the batch's time (nothing is due: the checks ran).
                    self.apply(at, Command::Tick)
                        .map_err(|e| self.err("produce", e.to_string()))?;
                }
                ProduceOutcome::Empty | ProduceOutcome::Traffic(_) => {}
            }
            self.within_budget("produce", self.listed(None))?;
            run.budget_checked = true;
        }
        Ok(true)
    }
}

/// Replays a whole scenario into its report.
pub fn run(scenario: &Scenario) -> Result<Report, ScenarioError> {
    let mut r = Runner::new(scenario.clone());
    let mut steps = Vec::new();
    while let Some(step) = r.step(&mut |_| {}) {
        steps.push(step?);
    }
    Ok(Report {
        steps,
        final_state: r.partition.state(),
    })
}

/// `rolls × ROLL_WORK`, saturating. Not [`u64::saturating_mul`]: wasm32 works that out with a
/// call to the 128-bit `__multi3`, and a sliced replay asks once per batch (4 % of a
/// ten-million-record rebuild in the browser).
#[inline]
fn roll_work(rolls: u64) -> u64 {
    if rolls > u64::MAX / ROLL_WORK {
        u64::MAX
    } else {
        rolls * ROLL_WORK
    }
}

/// `a × b`, `None` when it overflows: [`i64::checked_mul`] with a quick path for factors below
/// 2³¹ (batch numbers and step lengths in practice), whose product cannot overflow. wasm32 has
/// no 64-bit multiply that reports overflow, so `checked_mul` calls the 128-bit `__multi3`:
/// twice per generated batch, 1.8 % of a ten-million-record replay in the browser.
#[inline]
fn mul(a: i64, b: i64) -> Option<i64> {
    const SMALL: u64 = 1 << 31;
    if a.unsigned_abs() < SMALL && b.unsigned_abs() < SMALL {
        Some(a * b)
    } else {
        a.checked_mul(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roll_work_is_saturating_mul() {
        let max = u64::MAX / ROLL_WORK;
        for rolls in [
            0,
            1,
            2,
            1_000_000,
            max - 1,
            max,
            max + 1,
            u64::MAX / 2,
            u64::MAX,
        ] {
            assert_eq!(roll_work(rolls), rolls.saturating_mul(ROLL_WORK), "{rolls}");
        }
    }

    #[test]
    fn mul_is_checked_mul() {
        let edges = [
            0,
            1,
            -1,
            2,
            (1 << 31) - 1,
            1 << 31,
            -(1 << 31),
            (1 << 32) + 7,
            3_037_000_499,
            3_037_000_500,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
            i64::MAX / 2,
            86_400_000,
            1_000_000,
        ];
        for &a in &edges {
            for &b in &edges {
                assert_eq!(mul(a, b), a.checked_mul(b), "{a} × {b}");
                assert_eq!(
                    mul(-a.max(i64::MIN + 1), b),
                    (-a.max(i64::MIN + 1)).checked_mul(b)
                );
            }
        }
    }
}
