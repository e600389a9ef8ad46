//! One struct per panel: what each shows besides the partition itself.

use std::rc::Rc;

use logtime_core::scenario::ProduceOutcome;
use logtime_model::{Bytes, Lookup, LookupError, Offset, RetentionReport, Timestamp};

use crate::model::disk;
use crate::model::import::Done;

/// Playing or paused, and how fast.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playback {
    /// The playback timer runs.
    pub playing: bool,
    /// Steps per second.
    pub speed: u32,
}

impl Default for Playback {
    fn default() -> Self {
        Playback {
            playing: false,
            speed: 2,
        }
    }
}

/// What the partition view marks besides the records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    /// Offsets of the last appended batch (the landing animation).
    pub landed: Option<(Offset, Offset)>,
}

/// The lookup panel: the latest answer, how much of its trace the walk has shown, a refusal.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LookupState {
    /// The latest answer.
    pub result: Option<Rc<Lookup>>,
    /// Trace steps shown so far (`usize::MAX`: all).
    pub cursor: usize,
    /// The broker's refusal of the latest lookup.
    pub error: Option<String>,
    /// Bumped by every new lookup: restarts the walk.
    pub rev: u64,
}

impl LookupState {
    /// Shows a lookup's answer from its first trace step, or the broker's refusal (keeping the
    /// previous answer on screen).
    pub fn show(&mut self, result: Result<Lookup, LookupError>) {
        match result {
            Ok(l) => {
                self.result = Some(Rc::new(l));
                self.error = None;
                self.rev += 1;
                self.cursor = 0;
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Trace steps of the latest answer.
    pub fn trace_len(&self) -> usize {
        self.result.as_ref().map_or(0, |l| l.trace.len())
    }

    /// Whether the walk has shown the whole trace.
    pub fn finished(&self) -> bool {
        self.cursor >= self.trace_len()
    }
}

/// The retention panel: the latest check worth a walk, and refused commands.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RetentionState {
    /// The latest check that was asked for, deleted something or met a future stamp.
    pub report: Option<Rc<RetentionReport>>,
    /// Verdicts shown so far (`usize::MAX`: all).
    pub cursor: usize,
    /// Bumped by every new check: restarts the walk.
    pub rev: u64,
    /// Why the last command (DeleteRecords, a remedy, moving the clock) was refused.
    pub command_error: Option<String>,
}

impl RetentionState {
    /// Shows a check from its first verdict.
    pub fn show(&mut self, report: RetentionReport) {
        self.report = Some(Rc::new(report));
        self.rev += 1;
        self.cursor = 0;
    }

    /// Verdicts of the latest check.
    pub fn verdicts_len(&self) -> usize {
        self.report.as_ref().map_or(0, |r| r.verdicts.len())
    }
}

/// The producer panel's last send.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProducerState {
    /// Appended or rejected (or nothing to show).
    pub last: Option<ProduceOutcome>,
    /// Bumped by every send: replays the animation.
    pub rev: u64,
}

impl ProducerState {
    /// Shows a send's result.
    pub fn set(&mut self, last: Option<ProduceOutcome>) {
        self.last = last;
        self.rev += 1;
    }

    /// Shows a send's result (a batch a scenario step sent).
    pub fn show(&mut self, last: ProduceOutcome) {
        self.set(Some(last));
    }
}

/// The config panel's last refusal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigState {
    /// `(config name or "version", Kafka's message)`.
    pub error: Option<(String, String)>,
}

/// Partition size over broker time, thinned to a bounded number of samples.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Disk {
    samples: Vec<(Timestamp, Bytes)>,
}

impl Disk {
    /// Adds a sample (thinning older ones; see [`disk::push`]).
    pub fn push(&mut self, point: (Timestamp, Bytes)) {
        disk::push(&mut self.samples, point);
    }

    /// The samples, oldest first.
    pub fn samples(&self) -> &[(Timestamp, Bytes)] {
        &self.samples
    }

    /// The newest sample.
    pub fn last(&self) -> Option<(Timestamp, Bytes)> {
        self.samples.last().copied()
    }
}

/// The import panel: a partition being read, why the last import failed, and what the last one
/// found (kept while its scenario is the one loaded).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportState {
    /// The import being read (0: none); messages of any other are stale.
    pub job: u64,
    /// `(bytes read, bytes in all, file being read)` while reading.
    pub progress: Option<(u64, u64, String)>,
    /// Why the last import failed.
    pub error: Option<String>,
    /// The last import, while its scenario is loaded.
    pub done: Option<Rc<Done>>,
}

impl ImportState {
    /// Whether a file is being read.
    pub fn busy(&self) -> bool {
        self.progress.is_some()
    }
}
