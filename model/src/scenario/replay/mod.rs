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

mod sink;
mod step;
mod traffic;

use super::outcome::StepReport;
use super::summary::{StepSummary, ViewMarks};
use super::{Scenario, ScenarioError, TimedEvent};
use crate::error::Error;
use crate::partition::{Command, Partition, PartitionState};
use crate::units::Timestamp;
use step::{Collected, Ctx, Progress, TrafficRun};

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
/// ([`super::budget::MAX_REPLAY_VERDICTS`], [`super::budget::MAX_RETENTION_LISTING`]).
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
