//! A [`Session`]: a scenario replayed through the [`Runner`] with the journal kept as it goes,
//! rewound by replaying a prefix. No Kafka class: the partition's rules are the runner's; this
//! only records what a reader did to it.

use super::{Entry, Journal, JournalError, Source};
use crate::scenario::{
    narrate, Runner, Scenario, ScenarioError, Slice, StepReport, TimedEvent, ViewMarks,
};
use logtime_model::error::Error;
use logtime_model::lookup::{Lookup, LookupError, OffsetSpec};
use logtime_model::partition::Command;
use logtime_model::units::Timestamp;

/// A scenario being replayed, with the journal of everything done to it.
///
/// Invariant: `journal.replay(scenario)` rebuilds `runner`'s partition exactly.
#[derive(Clone, Debug)]
pub struct Session {
    runner: Runner,
    journal: Journal,
}

/// What replaying one entry did.
#[derive(Clone, Debug)]
pub enum Replayed {
    /// A scenario step ran (or stopped with the scenario's error).
    Step(Result<StepReport, ScenarioError>),
    /// A command was applied.
    Command(StepReport),
    /// A lookup was answered.
    Lookup(Result<Lookup, LookupError>),
}

impl Session {
    /// A session at the scenario's start.
    pub fn new(source: Source, scenario: Scenario) -> Session {
        Session {
            runner: Runner::new(scenario),
            journal: Journal::new(source),
        }
    }

    /// The runner (the scenario, the partition, the clock).
    pub fn runner(&self) -> &Runner {
        &self.runner
    }

    /// Everything done so far.
    pub fn journal(&self) -> &Journal {
        &self.journal
    }

    /// Runs the next scenario step ([`Runner::step`]) and records it. `None` when done.
    pub fn step(
        &mut self,
        on_event: &mut dyn FnMut(TimedEvent<'_>),
    ) -> Option<Result<StepReport, ScenarioError>> {
        let result = self.runner.step(on_event)?;
        // Recorded even when the step failed: the runner moved on, and a replay fails the same.
        self.journal.entries.push(Entry::Step);
        Some(result)
    }

    /// Runs a slice of the next step ([`Runner::step_slice`]: about `work` records, a segment
    /// rolled counting for more) and records the step once its last slice has run. `None`
    /// when done.
    pub fn step_slice(
        &mut self,
        work: u64,
        on_event: &mut dyn FnMut(TimedEvent<'_>),
    ) -> Option<Slice> {
        let slice = self.runner.step_slice(work, on_event)?;
        if let Slice::Done(_) = slice {
            // As in `step`: recorded even when the step failed.
            self.journal.entries.push(Entry::Step);
        }
        Some(slice)
    }

    /// [`Session::step`] with no callback: what the step changed that a view marks is added
    /// to `marks` ([`Runner::step_marks`]).
    pub fn step_marks(
        &mut self,
        marks: &mut ViewMarks,
    ) -> Option<Result<StepReport, ScenarioError>> {
        let result = self.runner.step_marks(marks)?;
        self.journal.entries.push(Entry::Step);
        Some(result)
    }

    /// [`Session::step_slice`] with no callback: what the slice changed that a view marks is
    /// added to `marks` ([`Runner::step_slice_marks`]).
    pub fn step_slice_marks(&mut self, work: u64, marks: &mut ViewMarks) -> Option<Slice> {
        let slice = self.runner.step_slice_marks(work, marks)?;
        if let Slice::Done(_) = slice {
            self.journal.entries.push(Entry::Step);
        }
        Some(slice)
    }

    /// Applies a command between steps ([`Runner::apply`]) and records it when it succeeds (a
    /// refused command changes nothing).
    pub fn apply(
        &mut self,
        now: Timestamp,
        command: Command,
        on_event: &mut dyn FnMut(TimedEvent<'_>),
    ) -> Result<StepReport, Error> {
        let report = self.runner.apply(now, command.clone(), on_event)?;
        self.journal
            .entries
            .push(Entry::Command { at: now, command });
        Ok(report)
    }

    /// A consumer's lookup now, recorded.
    pub fn lookup(&mut self, spec: OffsetSpec) -> Result<Lookup, LookupError> {
        self.journal.entries.push(Entry::Lookup(spec));
        self.runner.partition().lookup(spec)
    }

    /// Replays one journal entry (number `index`, for errors) and records it.
    pub fn replay_entry(
        &mut self,
        index: usize,
        entry: &Entry,
        on_event: &mut dyn FnMut(TimedEvent<'_>),
    ) -> Result<Replayed, JournalError> {
        Ok(match entry {
            Entry::Step => match self.step(on_event) {
                Some(result) => Replayed::Step(result),
                None => return Err(self.too_few_steps(index)),
            },
            Entry::Lookup(spec) => Replayed::Lookup(self.lookup(*spec)),
            Entry::Command { at, command } => {
                Replayed::Command(self.apply(*at, command.clone(), on_event).map_err(|e| {
                    JournalError::Replay {
                        entry: index,
                        reason: e.to_string(),
                    }
                })?)
            }
        })
    }

    /// [`Session::replay_entry`] with no callback: what the entry changed that a view marks is
    /// added to `marks`. A step runs as [`Session::step_marks`] (no event made into a call, no
    /// quiet retention check's report made); a reader's action hands its few events to
    /// [`ViewMarks::see`].
    pub fn replay_entry_marks(
        &mut self,
        index: usize,
        entry: &Entry,
        marks: &mut ViewMarks,
    ) -> Result<Replayed, JournalError> {
        match entry {
            Entry::Step => match self.step_marks(marks) {
                Some(result) => Ok(Replayed::Step(result)),
                None => Err(self.too_few_steps(index)),
            },
            _ => self.replay_entry(index, entry, &mut |e| marks.see(e.event)),
        }
    }

    /// [`Session::replay_entry_marks`], running a step entry in slices
    /// ([`Session::step_slice_marks`]): `Ok(None)` while the step runs on (replay the same entry
    /// again to go on with it).
    pub fn replay_entry_slice(
        &mut self,
        index: usize,
        entry: &Entry,
        work: u64,
        marks: &mut ViewMarks,
    ) -> Result<Option<Replayed>, JournalError> {
        if *entry != Entry::Step {
            return self.replay_entry_marks(index, entry, marks).map(Some);
        }
        match self.step_slice_marks(work, marks) {
            Some(Slice::Partial { .. }) => Ok(None),
            Some(Slice::Done(result)) => Ok(Some(Replayed::Step(result))),
            None => Err(self.too_few_steps(index)),
        }
    }

    /// Journal entry `index` asks for a step the scenario does not have.
    fn too_few_steps(&self, index: usize) -> JournalError {
        JournalError::Replay {
            entry: index,
            reason: format!(
                "the scenario has only {}",
                narrate::count(self.runner.scenario().steps.len() as u64, "step", "steps")
            ),
        }
    }

    /// A session rebuilt from the scenario's start with the first `entries` entries of this
    /// one's journal, and the entries it leaves out (to ask before dropping them, or to keep
    /// them as a branch).
    pub fn rewind(&self, entries: usize) -> Result<(Session, Vec<Entry>), JournalError> {
        let keep = entries.min(self.journal.entries.len());
        let mut s = Session::new(self.journal.source.clone(), self.runner.scenario().clone());
        for (i, e) in self.journal.entries[..keep].iter().enumerate() {
            s.replay_entry_marks(i, e, &mut ViewMarks::default())?;
        }
        Ok((s, self.journal.entries[keep..].to_vec()))
    }
}
