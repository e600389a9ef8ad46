//! Replaying a [`Scenario`] against a [`Partition`].
//!
//! INTERFACE (fixed; the scenario/CLI teammate implements the bodies): see `mod.rs`.

use super::{Scenario, ScenarioError, TimedEvent};
use crate::lookup::{Lookup, LookupError};
use crate::partition::{Partition, PartitionState};
use crate::units::Timestamp;
use crate::validation::ProduceError;
use serde::{Serialize, Serializer};

/// What one step did.
#[derive(Clone, Debug, PartialEq)]
pub struct StepReport {
    /// 0-based step index.
    pub index: usize,
    /// Broker time after the step.
    pub now: Timestamp,
    /// The step's kind (`produce`, `advance`, ...), the key of `body` in the report.
    pub kind: &'static str,
    /// The step's entry exactly as the report prints it under `kind`.
    pub body: serde_json::Value,
    /// For lookup steps: the typed answer with its trace (or the broker's refusal).
    pub lookup: Option<Result<Lookup, LookupError>>,
    /// For produce steps: the typed rejection of the first rejected batch, if any.
    pub rejection: Option<ProduceError>,
}

impl Serialize for StepReport {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("index", &self.index)?;
        m.serialize_entry("now", &self.now)?;
        m.serialize_entry(self.kind, &self.body)?;
        m.end()
    }
}

/// A whole replay: `{"steps": [...], "final": STATE}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// One entry per step.
    pub steps: Vec<StepReport>,
    /// The partition at the end.
    #[serde(rename = "final")]
    pub final_state: PartitionState,
}

/// Replays a scenario step by step.
#[derive(Clone, Debug)]
pub struct Runner {
    scenario: Scenario,
    partition: Partition,
    now: Timestamp,
    next: usize,
}

impl Runner {
    /// A runner at the scenario's start, before step 0.
    pub fn new(scenario: Scenario) -> Runner {
        let partition = scenario.partition();
        let now = scenario.start;
        Runner { scenario, partition, now, next: 0 }
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The partition as replayed so far.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// The partition, for interactive commands between steps (apply them at [`Runner::now`] or
    /// later, then [`Runner::set_now`]).
    pub fn partition_mut(&mut self) -> &mut Partition {
        &mut self.partition
    }

    /// The broker clock.
    pub fn now(&self) -> Timestamp {
        self.now
    }

    /// Moves the runner's clock after interactive commands (never backwards).
    pub fn set_now(&mut self, now: Timestamp) {
        self.now = self.now.max(now);
    }

    /// The index of the next step to run.
    pub fn next_step(&self) -> usize {
        self.next
    }

    /// Whether every step has run.
    pub fn is_done(&self) -> bool {
        self.next >= self.scenario.steps.len()
    }

    /// Runs the next step, handing each event to `on_event` as it happens. `None` when done.
    pub fn step(&mut self, on_event: &mut dyn FnMut(TimedEvent<'_>)) -> Option<Result<StepReport, ScenarioError>> {
        let _ = on_event;
        todo!("scenario teammate: implement replay")
    }
}

/// Replays a whole scenario into its report.
pub fn run(scenario: &Scenario) -> Result<Report, ScenarioError> {
    let mut r = Runner::new(scenario.clone());
    let mut steps = Vec::new();
    while let Some(step) = r.step(&mut |_| {}) {
        steps.push(step?);
    }
    Ok(Report { steps, final_state: r.partition.state() })
}
