//! The explorer's state: a reducer ([`Explorer`], [`Action`]) over one struct per panel.
//!
//! Every Kafka fact shown comes from core's typed step outcomes, events, verdicts and traces, and
//! every sentence about them from core's narrator; this module records them for the panels.
//!
//! Panels are [`Shared`]: a reducer works on a copy of the previous state, whose panels it shares
//! until it changes one, so an action clones only what it changes, and a component whose panel
//! did not change compares equal and is not rendered again. The [`Runner`] (and its partition,
//! which can hold millions of records) is shared behind `Rc<RefCell<_>>` and never copied.

mod lesson;
#[cfg(test)]
mod lesson_tests;
mod log;
mod panels;
mod replay;
#[cfg(test)]
mod tests;

pub use lesson::{ItemView, LessonView, Takes};
pub use log::Log;
pub use panels::{
    ConfigState, Disk, ImportState, LookupState, Marks, Playback, ProducerState, RetentionState,
};
pub use replay::{LessonRun, Op, Replay};

use std::ops::Deref;
use std::rc::Rc;

use logtime_core::scenario::narrate::{self, Sentence};
use logtime_core::scenario::{
    Entry, Journal, ProduceOutcome, Replayed, Slice, Source, StepOutcome, StepReport, ViewMarks,
};
use logtime_core::ConfigKey;
use logtime_core::{Command, ConfigValue, Error, KafkaVersion, Offset, OffsetSpec, Timestamp};
use yew::Reducible;

use crate::model::import::Done;
use crate::model::producer::BatchSpec;
use crate::model::timeline;
use crate::model::viewport::Viewport;
use crate::options::{LookupTarget, Mode};
use logtime_core::lesson::{self as core_lesson, Item, Outcome, Reached, Reveal};

/// A moment to rebuild once a scenario has loaded: a saved journal, or `step` and `lookup`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Restore {
    /// A journal's compact form (a link's `moment`).
    pub moment: Option<String>,
    /// Steps to run.
    pub step: Option<usize>,
    /// A lookup to run after them.
    pub lookup: Option<LookupTarget>,
}

/// A change that would undo what the reader did, waiting for them to confirm it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Rebuild to `steps` steps (then play, when `play`), undoing these actions.
    Rewind {
        /// Steps to rebuild to.
        steps: usize,
        /// Play from there.
        play: bool,
        /// What it undoes, for people.
        undone: Vec<String>,
    },
    /// Go back to the previous stop of a lesson, keeping this work as a branch to return to.
    LessonBack {
        /// What it takes back, for people.
        undone: Vec<String>,
    },
    /// Switch to another built-in scenario, dropping these actions.
    Switch {
        /// The built-in's name.
        name: String,
        /// What it drops, for people.
        undone: Vec<String>,
    },
}

/// Records a rebuild replays before it yields to the browser, unless the caller asks for
/// another amount ([`Action::RebuildChunk`]): about 10 ms of one-record batches in the browser.
/// A segment rolled counts as [`logtime_core::scenario::ROLL_WORK`] records ([`Replay::work`]).
pub const REBUILD_CHUNK_RECORDS: i64 = 20_000;

/// A rebuild in progress (step back, the scrubber, a confirmed rewind, a link's moment): the
/// scenario replayed from its start to `steps` steps, a chunk at a time, so a long replay never
/// blocks the page; the reader sees its progress and can stop it. A step of generated traffic
/// bigger than a chunk runs in slices over several chunks ([`Replay::step_slice`]): until its
/// last slice it is not done (`replay.done` leaves it out) and nothing else acts on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rebuild {
    /// Steps to reach.
    pub steps: usize,
    /// Chunks run so far (each one is a new value, so a timer can wait for the next).
    pub chunks: u32,
    /// The journal entries to replay first: the reader's actions before step `steps + 1`.
    entries: Rc<[Entry]>,
    /// Entries replayed so far.
    next: usize,
    /// A scenario step failed: nothing more to run.
    failed: bool,
    /// Play once rebuilt.
    play: bool,
    /// Rebuilding a link's moment ([`Explorer::restore`]), not a seek.
    link: Option<LinkMoment>,
    /// The broker clock when the step running in slices started (its narration's "from").
    step_from: Option<Timestamp>,
    /// The reader stopped the rebuild in the middle of a step: it ends once that step has.
    pub stopping: bool,
}

/// What a link's moment adds to a rebuild: a journal entry that fails sends the scenario back
/// to its start with a notice, and once rebuilt the link's lookup runs and its notice shows.
#[derive(Clone, Debug, PartialEq)]
struct LinkMoment {
    /// The link's lookup, run once the entries are.
    lookup: Option<LookupTarget>,
    /// What the reader is told about the link (a step beyond the scenario's end).
    notice: Option<String>,
}

/// Shared panel state that compares by identity.
///
/// A reducer mutates a copy of the previous [`Explorer`] while the previous one is alive, so the
/// first [`Shared::make_mut`] of an action always copies: a changed panel is a new allocation and
/// compares unequal, an unchanged one is the same allocation and compares equal, without
/// comparing contents.
#[derive(Debug, Default)]
pub struct Shared<T>(Rc<T>);

impl<T> Shared<T> {
    /// Shares `value`.
    pub fn new(value: T) -> Shared<T> {
        Shared(Rc::new(value))
    }
}

impl<T: Clone> Shared<T> {
    /// The value, to change (copied first if it is shared).
    pub fn make_mut(&mut self) -> &mut T {
        Rc::make_mut(&mut self.0)
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Everything the explorer shows, one struct per panel.
#[derive(Clone, Default)]
pub struct Explorer {
    /// The scenario and its replay.
    pub replay: Shared<Replay>,
    /// Playing or paused, and how fast.
    pub playback: Playback,
    /// "What happened": the narration, newest last.
    pub log: Shared<Log>,
    /// What the partition view marks: the batch that landed, why segments rolled.
    pub marks: Shared<Marks>,
    /// The latest lookup and its walk.
    pub lookup: Shared<LookupState>,
    /// The latest retention check worth a walk, and refused remedies.
    pub retention: Shared<RetentionState>,
    /// The producer panel's last send.
    pub producer: Shared<ProducerState>,
    /// The config panel's last refusal.
    pub config: Shared<ConfigState>,
    /// Partition size over broker time.
    pub disk: Shared<Disk>,
    /// The partition view's window.
    pub viewport: Viewport,
    /// The load the explorer waits for: a later choice supersedes an earlier one, whose
    /// response is then ignored.
    pub load_token: u64,
    /// A change waiting for the reader to confirm that it undoes their actions.
    pub pending: Option<Pending>,
    /// A rebuild still running (more chunks to come).
    pub rebuild: Option<Rebuild>,
    /// Importing a real partition.
    pub import: Shared<ImportState>,
    /// How the next load is shown: `(mode, seed)` from the page's options.
    pub wanted: (Option<Mode>, Option<u64>),
    /// The lesson pane, when a lesson is played.
    pub lesson: Shared<LessonView>,
    /// What the reader opened the details of.
    pub inspect: Option<Inspect>,
}

/// Something whose details the reader opened (a click or Enter on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inspect {
    /// A record, by offset.
    Record(Offset),
    /// A segment, by base offset.
    Segment(Offset),
    /// The `n`-th time-index entry of a segment.
    IndexEntry(Offset, usize),
    /// The `n`-th line of the lookup trace.
    Trace(usize),
}

/// What can happen.
#[derive(Clone, Debug)]
pub enum Action {
    /// A load starts (`token` is newer than any before it); until it arrives, earlier loads'
    /// responses are ignored.
    Loading(u64),
    /// Scenario JSON arrived for load `token` (or could not be fetched: `Err(reason)`), with a
    /// moment to rebuild.
    Load {
        /// Which load this answers.
        token: u64,
        /// The JSON, or why there is none.
        json: Result<String, String>,
        /// Where it came from, for the journal.
        origin: Source,
        /// A moment to rebuild once loaded.
        restore: Restore,
    },
    /// Rebuild a moment of the loaded scenario (the browser's back and forward buttons).
    Restore(Restore),
    /// Ask before a change that would drop the reader's actions.
    Ask(Pending),
    /// The reader confirmed the pending change (the rewind runs; a switch is the caller's).
    Confirm,
    /// The reader kept their actions.
    Dismiss,
    /// Run the next step.
    Step,
    /// Playback: the steps due in this animation frame (at least one; fewer when the scenario
    /// ends or stops), shown in one render.
    Steps(usize),
    /// Go back one step (rebuild by replaying from the start).
    Back,
    /// Rebuild to exactly this many steps (asking first when that undoes the reader's actions).
    Seek(usize),
    /// Play (`true`) or pause.
    Play(bool),
    /// Play if paused, pause if playing.
    TogglePlay,
    /// Steps per second.
    SetSpeed(u32),
    /// Move the broker clock forward by this many ms (scheduled retention checks run on the way).
    Advance(i64),
    /// The producer panel's batch.
    Produce(BatchSpec),
    /// The config panel: a config's Kafka name and the value as typed.
    SetConfig(String, String),
    /// The config panel's version preset.
    SetVersion(KafkaVersion),
    /// A retention check now.
    RunRetention,
    /// DeleteRecords; `then_check` runs a retention check afterwards.
    DeleteRecords {
        /// The new log start offset asked for (`-1`: the high watermark).
        offset: i64,
        /// Run a retention check after it.
        then_check: bool,
    },
    /// A remedy: set a millisecond config, then run a retention check.
    Remedy {
        /// Kafka name.
        name: String,
        /// New value.
        value: i64,
    },
    /// A consumer's lookup.
    Lookup(OffsetSpec),
    /// One frame of the lookup and retention walks.
    WalkTick,
    /// Show the walks finished (reduced motion).
    WalkFinish,
    /// The partition view's window.
    SetViewport(Viewport),
    /// Run the next chunk of the rebuild in progress: about this many records (a segment
    /// rolled counting for more: [`Replay::work`]).
    RebuildChunk(i64),
    /// Stop the rebuild in progress where it is.
    CancelRebuild,
    /// Import `job` starts reading `total` bytes (a later job supersedes earlier ones).
    ImportStart {
        /// The job.
        job: u64,
        /// Bytes to read.
        total: u64,
    },
    /// Import `job` has read `done` of `total` bytes and is reading `file`.
    ImportProgress {
        /// The job.
        job: u64,
        /// Bytes read.
        done: u64,
        /// Bytes in all.
        total: u64,
        /// The file being read.
        file: String,
    },
    /// Import `job` ended: the partition as a scenario (loaded next, by the caller), or why not.
    ImportEnd {
        /// The job.
        job: u64,
        /// The import, or why it failed.
        result: Result<Rc<Done>, String>,
    },
    /// The reader cancelled the import being read.
    ImportCancel,
    /// How the next load is shown: a mode and a lesson variant's seed.
    Want(Option<Mode>, Option<u64>),
    /// A lesson: on to the next stop.
    LessonNext,
    /// A lesson: the learner clicked this segment or record (for the open question).
    Select(Offset),
    /// A lesson: answer the open question with the selection, or with this typed value.
    LessonAnswer(Option<i64>),
    /// A lesson: the open item's next hint.
    LessonHint,
    /// A lesson: reveal the open item.
    LessonReveal,
    /// A lesson: return to the work kept when going back.
    LessonReturn,
    /// A lesson: start again, with this variant's seed (`None`: the same one).
    LessonRestart(Option<u64>),
    /// Open (or close, with `None`) the details of something.
    Inspect(Option<Inspect>),
}

impl Explorer {
    /// The broker clock (the start of the epoch before a scenario loads).
    pub fn now(&self) -> Timestamp {
        self.replay.now()
    }

    fn say(&mut self, line: Sentence) {
        self.log.make_mut().say(line);
    }

    fn sample_disk(&mut self) {
        if let Some(point) = self.replay.disk_point() {
            if self.disk.last() != Some(point) {
                self.disk.make_mut().push(point);
            }
        }
    }

    /// Loads a scenario, keeping the speed, the view and the load token; with `Err`, shows why
    /// it could not be.
    fn load(&mut self, json: Result<&str, &str>, origin: Source) {
        let speed = self.playback.speed;
        let viewport = Viewport {
            follow: true,
            ..self.viewport
        };
        let token = self.load_token;
        // An import's findings stay while its own scenario is the one loaded.
        let mut import = self.import.clone();
        if import
            .done
            .as_ref()
            .is_some_and(|d| json != Ok(d.scenario.as_str()))
        {
            import.make_mut().done = None;
        }
        let wanted = self.wanted;
        *self = Explorer::default();
        self.load_token = token;
        self.import = import;
        self.wanted = wanted;
        self.playback.speed = speed;
        self.viewport = viewport;
        let (mode, seed) = wanted;
        let replay = match json {
            Ok(json) => Replay::load_as(json, origin, mode.map(Mode::is_lesson), seed, None),
            Err(e) => Replay::failed(e.to_string()),
        };
        let line = match &replay.error {
            None => {
                let mut s = Sentence::plain(format!(
                    "Loaded “{}”: {}. Broker clock ",
                    replay.title,
                    narrate::count(replay.total as u64, "step", "steps")
                ));
                s.time(replay.now()).text(".");
                s
            }
            Some(e) => Sentence::plain(format!("The scenario could not be loaded: {e}")),
        };
        self.replay = Shared::new(replay);
        self.sample_disk();
        self.say(line);
        // As `logtime explain` does after the setting: what a compacted topic leaves out.
        let note = self
            .replay
            .runner()
            .and_then(|r| narrate::compaction_note(r.partition().config()));
        if let Some(note) = note {
            self.say(note);
        }
        if self.replay.is_lesson() {
            self.lesson_begin(Vec::new());
        }
    }

    /// Rebuilds a saved moment of the loaded scenario. A moment that cannot be rebuilt leaves
    /// the scenario at its start with a notice saying why.
    fn restore(&mut self, r: &Restore) {
        if !self.replay.is_loaded() {
            return;
        }
        if self.replay.is_lesson() {
            // A lesson opens at a step (with the steps before it applied); moments and
            // lookups are the explorer's.
            if let Some(k) = r.step {
                let seed = self.lesson.seed;
                self.lesson_start(seed, Some(k), Vec::new());
            }
            return;
        }
        let source = self.replay.source.clone();
        let origin = (*self.replay.origin).clone();
        if self.replay.entries() > 0 || self.replay.step_in_progress().is_some() {
            self.load(Ok(&source), origin.clone());
        }
        let mut notice = None;
        let entries = match (&r.moment, r.step) {
            (Some(m), _) => {
                Journal::entries_from_compact(m, Some(&source)).map_err(|e| e.to_string())
            }
            (None, step) => {
                let total = self.replay.total;
                let k = step.unwrap_or(0);
                if k > total {
                    notice = Some(format!(
                        "The link asks for step {k}, but this scenario has {total} steps: showing step {total}."
                    ));
                }
                Ok(vec![Entry::Step; k.min(total)])
            }
        };
        let entries = match entries {
            Ok(e) => e,
            Err(e) => {
                self.replay.make_mut().notice =
                    Some(format!("{e}. Showing the scenario from its start."));
                return;
            }
        };
        // Through the chunked rebuild, so that a link to the end of a long scenario shows
        // its progress and keeps the page responsive (a short one finishes in this chunk).
        let steps = entries.iter().filter(|e| **e == Entry::Step).count();
        self.rebuild = Some(Rebuild {
            steps,
            chunks: 0,
            entries: entries.into(),
            next: 0,
            failed: false,
            play: false,
            link: Some(LinkMoment {
                lookup: r.lookup,
                notice,
            }),
            step_from: None,
            stopping: false,
        });
        self.rebuild_chunk(REBUILD_CHUNK_RECORDS);
    }

    /// The end of a link's moment, once its entries ran: its lookup, then its notice.
    fn finish_link(&mut self, link: LinkMoment) {
        let mut notice = link.notice;
        if let Some(target) = link.lookup {
            match target.resolve(self.now().0) {
                Some(spec) => self.lookup(spec),
                None => notice = Some("The link's lookup time overflows a 64-bit long.".into()),
            }
        }
        self.finish_walks();
        self.replay.make_mut().notice = notice;
    }

    /// Replays one journal entry the way the reader's action would show it, a step in slices of
    /// about `work` records ([`Replay::work`]); `Ok(false)` while the step runs on (`from`: the
    /// clock when it started).
    fn run_entry(
        &mut self,
        index: usize,
        entry: &Entry,
        narrate: bool,
        work: u64,
        from: &mut Option<Timestamp>,
    ) -> Result<bool, String> {
        let mut marks = ViewMarks::default();
        let previous = *from.get_or_insert(self.now());
        let replayed = self
            .replay
            .make_mut()
            .replay_entry(index, entry, work, &mut marks)
            .ok_or("no scenario is loaded")?
            .map_err(|e| e.to_string());
        let replayed = match replayed {
            Ok(None) => {
                self.absorb_marks(marks);
                return Ok(false);
            }
            Ok(Some(replayed)) => replayed,
            Err(e) => {
                *from = None;
                return Err(e);
            }
        };
        *from = None;
        match replayed {
            Replayed::Step(outcome) => {
                self.after_step(marks, previous, outcome, narrate);
            }
            Replayed::Command(report) => {
                self.absorb(marks, &report);
                if let StepOutcome::Produce(
                    p @ (ProduceOutcome::Appended(_) | ProduceOutcome::Rejected(_)),
                ) = &report.outcome
                {
                    self.producer.make_mut().set(Some(p.clone()));
                }
                if narrate {
                    let mut heading = Sentence::plain("at ");
                    heading.time(report.now);
                    self.narrate(heading, &report);
                }
            }
            Replayed::Lookup(result) => {
                if let Entry::Lookup(spec) = entry {
                    self.show_lookup(*spec, result, narrate);
                }
            }
        }
        Ok(true)
    }

    /// The walks of the moment landed on show finished.
    fn finish_walks(&mut self) {
        self.lookup.make_mut().cursor = usize::MAX;
        self.retention.make_mut().cursor = usize::MAX;
    }

    /// What rebuilding to `k` steps would undo of the reader's own actions.
    pub fn undone_by_seek(&self, k: usize) -> Vec<String> {
        self.replay
            .journal()
            .map(|j| {
                j.entries[j.prefix_for_steps(k)..]
                    .iter()
                    .filter(|e| e.is_action())
                    .map(Entry::describe)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The reader's own actions so far, for people.
    pub fn actions(&self) -> Vec<String> {
        self.replay
            .journal()
            .map(|j| j.actions().map(Entry::describe).collect())
            .unwrap_or_default()
    }

    /// Runs a slice of the next scenario step, about `work` records ([`Replay::step_slice`]),
    /// and once the step has finished shows it as [`Explorer::run_step`] does (`from`: the
    /// clock when it started). `None` while the step runs on; `Some(false)` when there is no
    /// step or it failed.
    fn run_step_slice(
        &mut self,
        work: u64,
        narrate: bool,
        from: &mut Option<Timestamp>,
    ) -> Option<bool> {
        let mut marks = ViewMarks::default();
        let previous = *from.get_or_insert(self.now());
        let slice = self.replay.make_mut().step_slice(work, &mut marks);
        match slice {
            Some(Slice::Partial { .. }) => {
                self.absorb_marks(marks);
                None
            }
            Some(Slice::Done(outcome)) => {
                *from = None;
                Some(self.after_step(marks, previous, outcome, narrate))
            }
            None => {
                *from = None;
                Some(false)
            }
        }
    }

    /// Runs one scenario step; `false` when there is none or it failed.
    fn run_step(&mut self, narrate: bool) -> bool {
        let mut marks = ViewMarks::default();
        let previous = self.now();
        let Some(outcome) = self.replay.make_mut().step(&mut marks) else {
            return false;
        };
        self.after_step(marks, previous, outcome, narrate)
    }

    /// Shows what a step did (or why it failed); `false` when it failed.
    fn after_step(
        &mut self,
        marks: ViewMarks,
        previous: Timestamp,
        outcome: Result<StepReport, logtime_core::scenario::ScenarioError>,
        narrate: bool,
    ) -> bool {
        match outcome {
            Err(e) => {
                self.replay.make_mut().error = Some(e.to_string());
                self.playback.playing = false;
                self.say(Sentence::plain(format!("The scenario stopped: {e}")));
                false
            }
            Ok(report) => {
                self.absorb(marks, &report);
                if narrate {
                    // Numbered as the step counter and the lesson pane count: the first step is step 1.
                    let heading = narrate::heading(report.index + 1, report.now, previous);
                    self.narrate(heading, &report);
                }
                true
            }
        }
    }

    /// Records what a step or command changed on screen.
    fn absorb(&mut self, marks: ViewMarks, report: &StepReport) {
        self.absorb_marks(marks);
        match &report.outcome {
            StepOutcome::Lookup { result, .. } => self.lookup.make_mut().show(result.clone()),
            StepOutcome::Produce(ProduceOutcome::Rejected(e)) => {
                self.producer
                    .make_mut()
                    .show(ProduceOutcome::Rejected(e.clone()));
            }
            StepOutcome::Produce(ProduceOutcome::Traffic(t)) => {
                if let Some(f) = &t.first_rejection {
                    self.producer
                        .make_mut()
                        .show(ProduceOutcome::Rejected(f.error.clone()));
                }
            }
            _ => {}
        }
        self.sample_disk();
    }

    /// Records what the events of a step (or a slice of one) changed in the partition view and
    /// the retention panel.
    fn absorb_marks(&mut self, marks: ViewMarks) {
        if marks.landed.is_some() {
            self.marks.make_mut().landed = marks.landed;
        }
        if let Some(r) = marks.retention {
            self.retention.make_mut().show(r);
        }
    }

    /// Says what a step or command did, in the narrator's words, under `heading`.
    fn narrate(&mut self, mut heading: Sentence, report: &StepReport) {
        heading.capitalize().text(": ");
        let clauses = match self.replay.runner() {
            Some(r) => narrate::step(report, r.partition().config()),
            None => return,
        };
        heading.append(Sentence::join(clauses, "; "));
        self.say(heading);
    }

    /// Rebuilds from the start with `k` steps run (step back, scrubber), keeping the reader's
    /// actions that came before step `k + 1`. The first chunk runs now; if more remains,
    /// [`Explorer::rebuild`] holds it for [`Action::RebuildChunk`].
    fn seek(&mut self, k: usize) {
        let playing = self.playback.playing;
        let viewport = self.viewport;
        let entries: Rc<[Entry]> = self
            .replay
            .journal()
            .map(|j| j.entries[..j.prefix_for_steps(k)].into())
            .unwrap_or_else(|| Rc::from(Vec::new()));
        let source = self.replay.source.clone();
        let origin = (*self.replay.origin).clone();
        self.load(Ok(&source), origin);
        self.viewport = viewport;
        self.rebuild = Some(Rebuild {
            steps: k,
            chunks: 0,
            entries,
            next: 0,
            failed: false,
            play: playing,
            link: None,
            step_from: None,
            stopping: false,
        });
        self.rebuild_chunk(REBUILD_CHUNK_RECORDS);
    }

    /// Runs the rebuild in progress until about `records` records were replayed, a segment
    /// rolled counting for more ([`Replay::work`]; at least one entry, step or slice of a
    /// step), and finishes it when nothing remains.
    fn rebuild_chunk(&mut self, records: i64) {
        let Some(mut r) = self.rebuild.take() else {
            return;
        };
        let n = r.entries.len();
        let forward = r.steps > r.entries.iter().filter(|e| **e == Entry::Step).count();
        // The work of this chunk: what the partition shows, or at least a slice's whole
        // budget (its batches may have been rejected, appending nothing).
        let mut spent = 0i64;
        let mut ran = false;
        while r.next < n || (!r.failed && self.replay.done < r.steps) {
            if r.stopping && self.replay.step_in_progress().is_none() {
                self.rebuild = Some(r);
                self.cancel_rebuild();
                return;
            }
            if ran && spent >= records {
                r.chunks += 1;
                self.playback.playing = false;
                self.rebuild = Some(r);
                return;
            }
            ran = true;
            let budget = (records - spent).max(1);
            let before = self.replay.work();
            let finished = if r.next < n {
                let i = r.next;
                let entry = r.entries[i].clone();
                let narrate =
                    i + 1 == n && !forward && r.link.as_ref().is_none_or(|l| l.lookup.is_none());
                match self.run_entry(i, &entry, narrate, budget as u64, &mut r.step_from) {
                    Ok(finished) => {
                        if finished {
                            r.next += 1;
                        }
                        finished
                    }
                    Err(e) => {
                        if r.link.is_some() {
                            // A link's moment that cannot be rebuilt: the scenario from its start.
                            let source = self.replay.source.clone();
                            let origin = (*self.replay.origin).clone();
                            self.load(Ok(&source), origin);
                            self.replay.make_mut().notice =
                                Some(format!("{e}. Showing the scenario from its start."));
                            return;
                        }
                        r.next = n;
                        true
                    }
                }
            } else {
                // Forward past the journal: run the scenario's next steps.
                let narrate = self.replay.done + 1 == r.steps;
                match self.run_step_slice(budget as u64, narrate, &mut r.step_from) {
                    Some(ok) => {
                        r.failed = !ok;
                        true
                    }
                    None => false,
                }
            };
            let work = self.replay.work() - before;
            spent += if finished { work } else { budget.max(work) };
        }
        if let Some(link) = r.link {
            self.finish_link(link);
            return;
        }
        if r.steps > 0 || n > 0 {
            self.finish_walks();
        }
        self.playback.playing = r.play && !self.replay.at_end();
        let line = format!(
            "Rebuilt to step {} of {}.",
            self.replay.done, self.replay.total
        );
        self.say(Sentence::plain(line));
    }

    /// Stops the rebuild in progress at the moment it reached; in the middle of a step, once
    /// that step has finished (a moment is a whole number of steps).
    fn cancel_rebuild(&mut self) {
        if self.replay.step_in_progress().is_some() {
            if let Some(r) = &mut self.rebuild {
                r.stopping = true;
            }
            return;
        }
        if self.rebuild.take().is_some() {
            self.finish_walks();
            self.playback.playing = false;
            let line = format!(
                "Stopped rebuilding at step {} of {}.",
                self.replay.done, self.replay.total
            );
            self.say(Sentence::plain(line));
        }
    }

    /// Rebuilds to `k` steps, or asks first when that would undo the reader's actions.
    fn seek_or_ask(&mut self, k: usize, play: bool) {
        let undone = self.undone_by_seek(k);
        if undone.is_empty() {
            self.seek(k);
            if play {
                self.playback.playing = self.replay.is_running();
            }
        } else {
            self.playback.playing = false;
            self.pending = Some(Pending::Rewind {
                steps: k,
                play,
                undone,
            });
        }
    }

    /// Applies a command at `now` through the runner (which moves its one clock) and narrates
    /// it. `None` when no scenario is loaded.
    fn apply(&mut self, now: Timestamp, cmd: Command) -> Option<Result<StepReport, Error>> {
        let mut marks = ViewMarks::default();
        let result = self
            .replay
            .make_mut()
            .apply(now, cmd, &mut |e| marks.see(e))?;
        if let Ok(report) = &result {
            self.absorb(marks, report);
            let mut heading = Sentence::plain("at ");
            heading.time(report.now);
            self.narrate(heading, report);
        }
        Some(result)
    }

    /// [`Explorer::apply`] when only an error matters.
    fn apply_quietly(&mut self, now: Timestamp, cmd: Command) -> Result<(), Error> {
        self.apply(now, cmd).map_or(Ok(()), |r| r.map(|_| ()))
    }

    fn set_command_error(&mut self, e: Option<String>) {
        if self.retention.command_error != e {
            self.retention.make_mut().command_error = e;
        }
    }

    fn produce(&mut self, spec: &BatchSpec) {
        let now = self.now();
        let records = spec.records(now);
        match self.apply(now, Command::Produce { records }) {
            Some(Ok(report)) => {
                let shown = match report.outcome {
                    StepOutcome::Produce(
                        p @ (ProduceOutcome::Appended(_) | ProduceOutcome::Rejected(_)),
                    ) => Some(p),
                    _ => None,
                };
                self.producer.make_mut().set(shown);
            }
            Some(Err(e)) => self.set_command_error(Some(e.to_string())),
            None => {}
        }
    }

    fn set_config(&mut self, name: String, typed: &str) {
        let value = match ConfigKey::find(&name) {
            Some(key) => key.parse_input(typed),
            None => ConfigValue::Text(typed.trim().to_string()),
        };
        let now = self.now();
        let error = match self.apply_quietly(
            now,
            Command::SetConfig {
                name: name.clone(),
                value,
            },
        ) {
            Ok(()) => None,
            Err(e) => {
                self.say(Sentence::plain(format!("Config refused: {e}")));
                Some((name, e.to_string()))
            }
        };
        if self.config.error != error {
            self.config.make_mut().error = error;
        }
    }

    fn delete_records(&mut self, offset: i64, then_check: bool) {
        let now = self.now();
        let refused = match self.apply(now, Command::DeleteRecords { offset }) {
            Some(Ok(report)) => match report.outcome {
                StepOutcome::DeleteRecords { result: Err(e), .. } => Some(Error::DeleteRecords(e)),
                _ => None,
            },
            Some(Err(e)) => Some(e),
            None => return,
        };
        self.set_command_error(refused.as_ref().map(|e| e.to_string()));
        if refused.is_none() && then_check {
            let _ = self.apply_quietly(now, Command::RunRetention);
        }
    }

    fn remedy(&mut self, name: String, value: i64) {
        let now = self.now();
        let set = Command::SetConfig {
            name,
            value: ConfigValue::Number(value),
        };
        match self.apply_quietly(now, set) {
            Ok(()) => {
                let _ = self.apply_quietly(now, Command::RunRetention);
            }
            Err(e) => self.set_command_error(Some(e.to_string())),
        }
    }

    fn lookup(&mut self, spec: OffsetSpec) {
        let Some(result) = self.replay.make_mut().lookup(spec) else {
            return;
        };
        self.show_lookup(spec, result, true);
    }

    fn show_lookup(
        &mut self,
        spec: OffsetSpec,
        result: Result<logtime_core::Lookup, logtime_core::LookupError>,
        narrate: bool,
    ) {
        if narrate {
            let mut line = Sentence::plain("at ");
            line.time(self.now())
                .capitalize()
                .text(": ")
                .append(narrate::lookup(spec, &result));
            self.say(line);
        }
        let panel = self.lookup.make_mut();
        let refused = result.is_err();
        panel.show(result);
        if refused {
            panel.result = None;
        }
    }

    fn play(&mut self, play: bool) {
        if play && self.replay.at_end() && self.replay.total > 0 {
            // Play from the start again (asking first if that undoes the reader's actions).
            if !self.undone_by_seek(0).is_empty() {
                self.seek_or_ask(0, true);
                return;
            }
            self.seek(0);
        }
        self.playback.playing = play && self.replay.is_running();
        let line = if self.playback.playing {
            format!("Playing at {}x.", self.playback.speed)
        } else {
            "Paused.".to_string()
        };
        self.say(Sentence::plain(line));
    }

    fn walk_tick(&mut self) -> bool {
        let lookup_len = self.lookup.trace_len();
        let verdicts = self.retention.verdicts_len();
        if self.lookup.cursor >= lookup_len && self.retention.cursor >= verdicts {
            return false;
        }
        if self.lookup.cursor < lookup_len {
            self.lookup.make_mut().cursor += 1;
        }
        if self.retention.cursor < verdicts {
            self.retention.make_mut().cursor += 1;
        }
        true
    }

    fn walk_finish(&mut self) -> bool {
        if self.lookup.cursor == usize::MAX && self.retention.cursor == usize::MAX {
            return false;
        }
        self.lookup.make_mut().cursor = usize::MAX;
        self.retention.make_mut().cursor = usize::MAX;
        true
    }
}

impl Action {
    /// Whether the action may run while a rebuild is in progress: loads (they start over),
    /// moments from the browser's history, the rebuild's own actions and what only changes the
    /// view.
    fn allowed_while_rebuilding(&self) -> bool {
        matches!(
            self,
            Action::Loading(_)
                | Action::Load { .. }
                | Action::Restore(_)
                | Action::RebuildChunk(_)
                | Action::CancelRebuild
                | Action::SetSpeed(_)
                | Action::SetViewport(_)
                | Action::WalkTick
                | Action::WalkFinish
        )
    }
}

/// Lessons: core's [`Play`](logtime_core::lesson::Play) drives; these record what it said.
impl Explorer {
    /// Starts a lesson run afresh (variant `seed`, opened at `open_at`, or where the lesson
    /// says), keeping the pane's mode, the speed and the view, then replays `ops`.
    fn lesson_start(&mut self, seed: Option<u64>, open_at: Option<usize>, ops: Vec<Op>) {
        let Some((lesson, opened_at)) = self
            .replay
            .lesson()
            .map(|l| (l.lesson.clone(), l.opened_at))
        else {
            return;
        };
        let run = match LessonRun::start(lesson, seed, open_at.or(Some(opened_at))) {
            Ok(run) => run,
            Err(e) => {
                self.lesson.make_mut().error = Some(e);
                return;
            }
        };
        let replay = self.replay.with_run(run);
        let (speed, viewport, token, wanted) = (
            self.playback.speed,
            self.viewport,
            self.load_token,
            self.wanted,
        );
        let branch = self.lesson.branch.clone();
        let import = self.import.clone();
        *self = Explorer::default();
        self.import = import;
        self.playback.speed = speed;
        self.viewport = Viewport {
            follow: true,
            ..viewport
        };
        self.load_token = token;
        self.wanted = wanted;
        self.replay = Shared::new(replay);
        self.sample_disk();
        self.lesson_begin(ops);
        if self.lesson.branch != branch {
            self.lesson.make_mut().branch = branch;
        }
    }

    /// Fills the pane for a freshly started run, takes the first stop, then replays `ops`
    /// (its first `Next` being that stop).
    fn lesson_begin(&mut self, ops: Vec<Op>) {
        let Some(view) = self.replay.lesson().map(|l| {
            let c = l.play.lesson();
            let p = l.play.partition();
            LessonView {
                mode: Some(match self.wanted.0 {
                    Some(m) if m.is_lesson() => m,
                    _ => match c.meta.kind {
                        core_lesson::LessonKind::Drill => Mode::Drill,
                        core_lesson::LessonKind::Walkthrough => Mode::Walkthrough,
                    },
                }),
                kind: c.meta.kind,
                summary: c
                    .meta
                    .summary
                    .as_ref()
                    .map(|m| core_lesson::render(m, p))
                    .unwrap_or_default(),
                authored: c.is_lesson,
                seed: l.seed,
                variant: c.variant.label(),
                has_variants: l.lesson.variant_count() > 1,
                steps: c.steps.len(),
                hidden: l.play.hidden(),
                card: Some(l.play.scorecard()),
                ..LessonView::default()
            }
        }) else {
            return;
        };
        self.lesson = Shared::new(view);
        let replaying = !ops.is_empty();
        let mut ops = ops.into_iter();
        if replaying {
            // The first op is the opening stop.
            ops.next();
        }
        self.lesson_next();
        for op in ops {
            match op {
                Op::Next => {
                    self.lesson_next();
                }
                Op::Act(at, command) => {
                    let _ = self.apply(at, command);
                    self.lesson_after_act();
                }
                Op::Answer(a) => self.lesson_answer_with(a),
                Op::Hint => self.lesson_hint(),
                Op::Reveal => self.lesson_reveal(),
            }
        }
        if replaying {
            self.finish_walks();
        }
    }

    /// Refreshes what depends on the play after any operation: hidden affordances, the score,
    /// whether it is finished, the step counter.
    fn lesson_sync(&mut self) {
        let Some((hidden, card, finished, next)) = self.replay.lesson().map(|l| {
            (
                l.play.hidden(),
                l.play.scorecard(),
                l.play.is_done(),
                l.play.next_step(),
            )
        }) else {
            return;
        };
        if self.replay.done != next {
            self.replay.make_mut().done = next;
        }
        let v = self.lesson.make_mut();
        v.hidden = hidden;
        v.card = Some(card);
        v.finished = finished;
    }

    /// The item view of item `k` as the play holds it now.
    fn item_view(&self, k: usize) -> Option<ItemView> {
        let l = self.replay.lesson()?;
        let c = l.play.lesson();
        let (step, item) = c.items().nth(k)?;
        let p = l.play.partition();
        let card = l.play.scorecard();
        let result = card.items.get(k)?;
        let (takes, title, ask, points) = match item {
            Item::Question(q) => (Takes::of(&q.kind), &q.title, &q.ask, q.points),
            Item::Task(t) => (Takes::Task, &t.title, &t.ask, t.points),
            _ => return None,
        };
        Some(ItemView {
            index: k,
            of: card.items.len(),
            step,
            takes,
            title: title.clone(),
            ask: core_lesson::render(ask, p),
            hints: Vec::new(),
            hints_left: l.play.hints_left(),
            costs: (card.scoring.hint_cost, card.scoring.wrong_cost),
            points,
            feedback: None,
            revealed: None,
            goal: l.play.goal(),
            outcome: result.outcome,
        })
    }

    /// On to the next stop: runs the lesson's steps until one worth stopping at. `false` when
    /// nothing moved (an item is open, or the lesson is over).
    fn lesson_next(&mut self) -> bool {
        let blocked = self
            .replay
            .lesson()
            .is_none_or(|l| l.play.open_item().is_some() || l.play.is_done());
        if blocked {
            return false;
        }
        self.inspect = None;
        let mut passed = Vec::new();
        let mut stop = None;
        loop {
            let mut marks = ViewMarks::default();
            let previous = self.now();
            let Some((step, stops_here)) = self.replay.lesson().map(|l| {
                let c = l.play.lesson();
                let at = l.play.next_step();
                (at, is_stop_at(c, at))
            }) else {
                break;
            };
            let reached = self
                .replay
                .with_lesson(|l| l.play.advance(&mut |e| marks.see(e.event)))
                .flatten();
            let reached = match reached {
                None => break,
                Some(Err(e)) => {
                    self.lesson.make_mut().error = Some(e.to_string());
                    break;
                }
                Some(Ok(r)) => r,
            };
            match reached {
                Reached::Model(report) => {
                    self.absorb(marks, &report);
                    // Numbered as the step counter and the lesson pane count: the first step is step 1.
                    let heading = narrate::heading(report.index + 1, report.now, previous);
                    if !self.lesson.hidden.is_empty() {
                        // The log would give a hidden verdict away: the pane's narration
                        // (which core words with what is hidden) is the record.
                        let mut h = heading;
                        h.capitalize();
                        self.say(h);
                    } else {
                        self.narrate(heading, &report);
                    }
                    if stops_here {
                        stop = Some((step, Some(*report), None));
                        break;
                    }
                    let words = self.replay.lesson().map(|l| {
                        l.play
                            .narration(step, Some(&report))
                            .into_iter()
                            .flat_map(|n| n.sentences)
                            .collect::<Vec<_>>()
                    });
                    passed.push(Sentence::join(words.unwrap_or_default(), "; "));
                }
                Reached::Note => {
                    stop = Some((step, None, None));
                    break;
                }
                Reached::Question { item } | Reached::Task { item, .. } => {
                    stop = Some((step, None, Some(item)));
                    break;
                }
            }
        }
        self.replay.with_lesson(|l| l.ops.push(Op::Next));
        let ops = self.replay.lesson().map_or(0, |l| l.ops.len());
        let Some((step, report, item)) = stop else {
            let v = self.lesson.make_mut();
            v.passed = passed;
            v.stops.push(ops);
            self.lesson_sync();
            return true;
        };
        let (narration, show, pause) = self
            .replay
            .lesson()
            .map(|l| {
                let s = l.play.lesson().steps.get(step);
                (
                    l.play.narration(step, report.as_ref()),
                    s.map(|s| s.show.clone()).unwrap_or_default(),
                    s.is_some_and(|s| s.pause),
                )
            })
            .unwrap_or_default();
        let item = item.and_then(|k| self.item_view(k));
        // the view follows what the step points at
        let focus = focus_of(&show);
        let v = self.lesson.make_mut();
        v.at = Some(step);
        v.narration = narration;
        v.passed = passed;
        v.show = show;
        v.pause = pause;
        v.item = item;
        v.selection.clear();
        v.error = None;
        v.stops.push(ops);
        let segments = v
            .show
            .iter()
            .any(|t| matches!(t, core_lesson::Target::Segment(_)));
        match (focus, self.bounds()) {
            (Some((a, b)), Some((lo, hi))) => self.viewport = Viewport::focus(a, b, lo, hi),
            // a segment is outlined among all of them
            (None, Some((lo, hi))) if segments => self.viewport = Viewport::fit(lo, hi),
            _ => {}
        }
        self.lesson_sync();
        true
    }

    /// The partition's offsets `[first segment's base, log end)`.
    fn bounds(&self) -> Option<(i64, i64)> {
        let r = self.replay.runner()?;
        let p = r.partition();
        let lo = p.segments().first().map_or(0, |s| s.base_offset().0);
        Some((lo, p.log_end_offset().0.max(lo + 1)))
    }

    /// After a learner's command: the open task's goal, and "done" when it holds.
    fn lesson_after_act(&mut self) {
        let Some((goal, solved)) = self
            .replay
            .lesson()
            .map(|l| (l.last_goal.clone(), l.solved))
        else {
            return;
        };
        if let Some(item) = self.lesson.make_mut().item.as_mut() {
            if item.takes == Takes::Task && item.outcome == Outcome::Open {
                if goal.is_some() {
                    item.goal = goal;
                }
                if solved {
                    item.outcome = Outcome::Done;
                }
            }
        }
        self.lesson_sync();
    }

    fn lesson_select(&mut self, o: Offset) {
        let v = self.lesson.make_mut();
        let Some(item) = v.item.as_ref().filter(|i| i.outcome == Outcome::Open) else {
            return;
        };
        v.selection = item.takes.select(&v.selection, o);
        v.error = None;
    }

    fn lesson_answer(&mut self, value: Option<i64>) {
        let Some(item) = self.lesson.open().cloned() else {
            return;
        };
        match item.takes.answer(&self.lesson.selection, value) {
            Ok(a) => self.lesson_answer_with(a),
            Err(e) => self.lesson.make_mut().error = Some(e.to_string()),
        }
    }

    fn lesson_answer_with(&mut self, a: core_lesson::Answer) {
        let graded = self.replay.with_lesson(|l| {
            let g = l.play.answer(&a);
            if g.is_ok() {
                l.ops.push(Op::Answer(a.clone()));
            }
            g
        });
        let Some(graded) = graded else { return };
        let v = self.lesson.make_mut();
        match graded {
            Ok(g) => {
                v.error = None;
                if let Some(item) = v.item.as_mut() {
                    if g.correct {
                        item.outcome = Outcome::Done;
                    }
                    item.feedback = Some((g.correct, g.feedback));
                }
                if g.correct {
                    v.selection.clear();
                }
            }
            Err(e) => v.error = Some(e.to_string()),
        }
        self.lesson_sync();
    }

    fn lesson_hint(&mut self) {
        let hint = self.replay.with_lesson(|l| {
            let h = l.play.hint();
            if let Ok(Some(_)) = &h {
                l.ops.push(Op::Hint);
            }
            (h, l.play.hints_left())
        });
        let Some((hint, left)) = hint else { return };
        let v = self.lesson.make_mut();
        match hint {
            Ok(Some(h)) => {
                if let Some(item) = v.item.as_mut() {
                    item.hints.push(h);
                    item.hints_left = left;
                }
            }
            Ok(None) => {}
            Err(e) => v.error = Some(e.to_string()),
        }
        self.lesson_sync();
    }

    fn lesson_reveal(&mut self) {
        let mut marks = ViewMarks::default();
        let revealed = self.replay.with_lesson(|l| {
            let r = l.play.reveal(&mut |e| marks.see(e.event));
            if r.is_ok() {
                l.ops.push(Op::Reveal);
            }
            r
        });
        let Some(revealed) = revealed else { return };
        let words = match revealed {
            Ok(Reveal::Question {
                feedback, authored, ..
            }) => feedback.into_iter().chain(authored).collect::<Vec<_>>(),
            Ok(Reveal::Task(t)) => {
                for r in &t.reports {
                    let mut heading = Sentence::plain("at ");
                    heading.time(r.now);
                    self.narrate(heading, r);
                }
                if let Some(r) = t.reports.last() {
                    self.absorb(marks, r);
                }
                if let Some(item) = self.lesson.make_mut().item.as_mut() {
                    item.goal = Some(t.goal.clone());
                }
                t.narration.into_iter().chain(t.authored).collect()
            }
            Err(e) => {
                self.lesson.make_mut().error = Some(e.to_string());
                return;
            }
        };
        let v = self.lesson.make_mut();
        if let Some(item) = v.item.as_mut() {
            item.outcome = Outcome::Revealed;
            item.revealed = Some(words);
        }
        v.selection.clear();
        self.lesson_sync();
    }

    /// Back to the previous stop, asking first when that takes back the learner's work (which
    /// is then kept as a branch).
    fn lesson_back(&mut self, confirmed: bool) {
        let Some(ops) = self.replay.lesson().map(|l| l.ops.clone()) else {
            return;
        };
        let stops = &self.lesson.stops;
        if stops.len() < 2 {
            return;
        }
        let keep = stops[stops.len() - 2];
        let undone: Vec<String> = ops[keep..]
            .iter()
            .filter(|o| o.is_work())
            .map(Op::describe)
            .collect();
        if !undone.is_empty() && !confirmed {
            self.playback.playing = false;
            self.pending = Some(Pending::LessonBack { undone });
            return;
        }
        if !undone.is_empty() {
            self.lesson.make_mut().branch = Some(ops.clone());
        }
        let seed = self.lesson.seed;
        self.lesson_start(seed, None, ops[..keep].to_vec());
    }

    /// Back to the work kept as a branch.
    fn lesson_return(&mut self) {
        let Some(ops) = self.lesson.branch.clone() else {
            return;
        };
        let seed = self.lesson.seed;
        self.lesson.make_mut().branch = None;
        self.lesson_start(seed, None, ops);
        if self.lesson.branch.is_some() {
            self.lesson.make_mut().branch = None;
        }
    }
}

/// Whether the play stops at file step `at`.
fn is_stop_at(c: &core_lesson::Concrete, at: usize) -> bool {
    lesson::is_stop(&c.steps, at, c.is_lesson)
}

/// The offsets a stop points at, to bring into view: records and ranges first.
fn focus_of(show: &[core_lesson::Target]) -> Option<(i64, i64)> {
    use core_lesson::Target;
    show.iter().find_map(|t| match t {
        Target::Offset(o) | Target::SegmentOf(o) => Some((o.0, o.0)),
        Target::Offsets { first, last } => Some((first.0, last.0)),
        _ => None,
    })
}

/// Whether an action is a command on the partition (which a lesson's open task checks).
#[derive(Clone, Copy, PartialEq, Eq)]
enum ActionKind {
    Command,
    Other,
}

impl ActionKind {
    fn of(a: &Action) -> ActionKind {
        match a {
            Action::Advance(_)
            | Action::Produce(_)
            | Action::SetConfig(..)
            | Action::SetVersion(_)
            | Action::RunRetention
            | Action::DeleteRecords { .. }
            | Action::Remedy { .. } => ActionKind::Command,
            _ => ActionKind::Other,
        }
    }
}

impl Reducible for Explorer {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        if self.rebuild.is_some() && !action.allowed_while_rebuilding() {
            // The partition is half rebuilt and the journal with it: nothing may act on them
            // until the rebuild finishes or is stopped.
            return self;
        }
        if let Action::Steps(n) = action {
            if !self.playback.playing {
                return self;
            }
            let mut s = self.reduce(Action::Step);
            for _ in 1..n {
                if !s.playback.playing {
                    break;
                }
                s = s.reduce(Action::Step);
            }
            return s;
        }
        let mut s = (*self).clone();
        let action_kind = ActionKind::of(&action);
        match action {
            Action::Loading(token) => {
                s.load_token = token;
                s.pending = None;
                s.replay.make_mut().loading = true;
            }
            Action::Load {
                token,
                json,
                origin,
                restore,
            } => {
                if token != s.load_token {
                    // A later choice superseded this load.
                    return self;
                }
                s.load(json.as_deref().map_err(String::as_str), origin);
                if restore != Restore::default() {
                    s.restore(&restore);
                }
            }
            Action::Restore(r) => {
                s.rebuild = None;
                s.pending = None;
                s.playback.playing = false;
                s.restore(&r);
            }
            Action::Ask(p) => {
                s.playback.playing = false;
                s.pending = Some(p);
            }
            Action::Confirm => {
                // Switching scenario is the caller's (it owns the source).
                let pending = s.pending.take();
                if let Some(Pending::LessonBack { .. }) = pending {
                    s.lesson_back(true);
                }
                if let Some(Pending::Rewind { steps, play, .. }) = pending {
                    s.seek(steps);
                    if play {
                        s.playback.playing = s.replay.is_running();
                    }
                }
            }
            Action::Dismiss => s.pending = None,
            // Run above, a step at a time.
            Action::Steps(_) => {}
            Action::Step if s.replay.is_lesson() => {
                if !s.lesson_next() {
                    s.playback.playing = false;
                    return Rc::new(s);
                }
                if s.lesson.pause || s.lesson.open().is_some() || s.lesson.finished {
                    s.playback.playing = false;
                }
            }
            Action::Back if s.replay.is_lesson() => {
                s.playback.playing = false;
                s.lesson_back(false);
            }
            Action::Step => {
                if !s.replay.is_running() {
                    return self;
                }
                if !s.run_step(true) {
                    s.playback.playing = false;
                    if s.replay.error.is_none() {
                        s.say(Sentence::plain("The scenario has finished."));
                    }
                }
                if s.replay.at_end() {
                    s.playback.playing = false;
                }
            }
            Action::Back => {
                s.playback.playing = false;
                s.seek_or_ask(timeline::step_back(s.replay.done), false);
            }
            Action::Seek(k) => {
                s.playback.playing = false;
                s.seek_or_ask(k.min(s.replay.total), false);
            }
            Action::Play(_) | Action::TogglePlay if s.replay.is_lesson() => {
                let want = match action {
                    Action::Play(p) => p,
                    _ => !self.playback.playing,
                };
                s.playback.playing = want && !s.lesson.finished && s.lesson.open().is_none();
            }
            Action::Play(p) => s.play(p),
            Action::TogglePlay => s.play(!self.playback.playing),
            Action::SetSpeed(v) => {
                s.playback.speed = v;
                s.say(Sentence::plain(format!("Speed {v}x.")));
            }
            Action::Advance(ms) => {
                let to = Timestamp(s.now().0.saturating_add(ms));
                let error = s.apply_quietly(to, Command::Tick).err();
                s.set_command_error(error.map(|e| e.to_string()));
            }
            Action::Produce(spec) => s.produce(&spec),
            Action::SetConfig(name, value) => s.set_config(name, &value),
            Action::SetVersion(version) => {
                let now = s.now();
                if let Err(e) = s.apply_quietly(now, Command::SetVersion { version }) {
                    s.config.make_mut().error = Some(("version".into(), e.to_string()));
                }
            }
            Action::RunRetention => {
                let now = s.now();
                if let Err(e) = s.apply_quietly(now, Command::RunRetention) {
                    s.set_command_error(Some(e.to_string()));
                }
            }
            Action::DeleteRecords { offset, then_check } => s.delete_records(offset, then_check),
            Action::Remedy { name, value } => s.remedy(name, value),
            Action::Lookup(spec) => s.lookup(spec),
            Action::WalkTick => {
                if !s.walk_tick() {
                    return self;
                }
            }
            Action::WalkFinish => {
                if !s.walk_finish() {
                    return self;
                }
            }
            Action::SetViewport(v) => {
                if v == s.viewport {
                    return self;
                }
                s.viewport = v;
            }
            Action::RebuildChunk(records) => {
                if s.rebuild.is_none() {
                    return self;
                }
                s.rebuild_chunk(records.max(1));
            }
            Action::CancelRebuild => {
                if s.rebuild.is_none() {
                    return self;
                }
                s.cancel_rebuild();
            }
            Action::ImportStart { job, total } => {
                let i = s.import.make_mut();
                i.job = job;
                i.error = None;
                i.progress = Some((0, total, String::new()));
            }
            Action::ImportProgress {
                job,
                done,
                total,
                file,
            } => {
                if job != s.import.job || !s.import.busy() {
                    return self;
                }
                s.import.make_mut().progress = Some((done, total, file));
            }
            Action::ImportEnd { job, result } => {
                if job != s.import.job || !s.import.busy() {
                    return self;
                }
                let i = s.import.make_mut();
                i.progress = None;
                match result {
                    Ok(done) => {
                        i.done = Some(done);
                        i.error = None;
                    }
                    Err(e) => i.error = Some(e),
                }
            }
            Action::ImportCancel => {
                if !s.import.busy() {
                    return self;
                }
                let i = s.import.make_mut();
                i.job = 0;
                i.progress = None;
                s.say(Sentence::plain("Import cancelled."));
            }
            Action::Want(mode, seed) => s.wanted = (mode, seed),
            Action::LessonNext => {
                s.playback.playing = false;
                s.lesson_next();
            }
            Action::Select(o) => s.lesson_select(o),
            Action::LessonAnswer(v) => s.lesson_answer(v),
            Action::LessonHint => s.lesson_hint(),
            Action::LessonReveal => s.lesson_reveal(),
            Action::LessonReturn => s.lesson_return(),
            Action::LessonRestart(seed) => {
                let seed = seed.or(s.lesson.seed);
                let branch = s.lesson.branch.is_some();
                s.lesson_start(seed, None, Vec::new());
                if branch {
                    s.lesson.make_mut().branch = None;
                }
            }
            Action::Inspect(i) => {
                if s.inspect == i {
                    return self;
                }
                s.inspect = i;
            }
        }
        // A learner's command in a lesson: the open task's goal, checked live.
        if s.replay.is_lesson() && matches!(action_kind, ActionKind::Command) {
            s.lesson_after_act();
        }
        Rc::new(s)
    }
}
