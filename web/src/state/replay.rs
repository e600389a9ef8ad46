//! The loaded scenario and its replay: the session (runner and journal) or, for a lesson, core's
//! [`Play`] and the learner's operations on it; how far it has run, and why it stopped.

use std::cell::{Ref, RefCell};
use std::rc::Rc;

use logtime_lesson::{self as lesson, Acted, Pick};

use crate::lessons::{LessonRun, Op};
use logtime_core::scenario::{
    self, Entry, Journal, JournalError, Replayed, Runner, ScenarioError, Session, Slice, Source,
    StepReport, TimedEvent, ViewMarks, ROLL_WORK,
};
use logtime_lesson::stream::StreamConfig;
use logtime_model::{Bytes, Command, Error, Event, Lookup, LookupError, OffsetSpec, Timestamp};

/// What a replay runs: a scenario with its journal, or a lesson.
#[derive(Clone, Debug)]
enum Backing {
    Session(Box<Session>),
    Lesson(Box<LessonRun>),
}

impl Backing {
    /// A lesson run to replay.
    fn lesson(run: LessonRun) -> Option<Rc<RefCell<Backing>>> {
        Some(Rc::new(RefCell::new(Backing::Lesson(Box::new(run)))))
    }
}

/// A scenario being replayed (or the reason it is not).
///
/// The session is shared, never copied: a copy of a `Replay` replays the same partition.
#[derive(Clone)]
pub struct Replay {
    session: Option<Rc<RefCell<Backing>>>,
    /// The scenario's JSON, to rebuild from the start when stepping back.
    pub source: Rc<str>,
    /// Where the scenario came from (for the journal and moment links).
    pub origin: Rc<Source>,
    /// A saved moment that could not be rebuilt, shown above the explorer.
    pub notice: Option<String>,
    /// Title (`Untitled scenario` when it has none).
    pub title: Rc<str>,
    /// Description.
    pub description: Rc<str>,
    /// Why the scenario could not be loaded or replayed: the `ScenarioError` line.
    pub error: Option<String>,
    /// Still fetching.
    pub loading: bool,
    /// Steps run.
    pub done: usize,
    /// Steps in the scenario.
    pub total: usize,
    /// The downstream stream processor a lesson file's `stream` section declares (shown as a
    /// lane under the partition, in a lesson or in the explorer).
    pub stream: Option<StreamConfig>,
}

impl Default for Replay {
    fn default() -> Self {
        Replay {
            session: None,
            source: Rc::from(""),
            origin: Rc::new(Source::Inline(String::new())),
            notice: None,
            title: Rc::from(""),
            description: Rc::from(""),
            error: None,
            loading: true,
            done: 0,
            total: 0,
            stream: None,
        }
    }
}

/// Why a lesson is refused: each of `logtime check`'s problems, at its step and field, in core's
/// words.
fn refused(errors: &[ScenarioError]) -> String {
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let n = errors.len();
    format!(
        "this lesson is not played: the model disagrees with it ({n} problem{}), as `logtime check` reports:\n{}",
        if n == 1 { "" } else { "s" },
        lines.join("\n")
    )
}

impl Replay {
    /// Whether a fetched document can be shown: a scenario or a lesson file (an error names what is
    /// wrong).
    pub fn check(json: &str) -> Result<(), String> {
        lesson::parse(json).map(drop).map_err(|e| e.to_string())
    }

    /// Parses a scenario, ready to run step 0 (or with the parse error).
    pub fn load(json: &str, origin: Source) -> Replay {
        Replay::parsed(json, origin, scenario::parse(json))
    }

    /// A scenario already parsed (or the parse error), ready to run step 0.
    fn parsed(
        json: &str,
        origin: Source,
        parsed: Result<scenario::Scenario, ScenarioError>,
    ) -> Replay {
        let mut r = Replay {
            source: Rc::from(json),
            origin: Rc::new(origin.clone()),
            loading: false,
            ..Replay::default()
        };
        match parsed {
            Ok(sc) => {
                r.title = Rc::from(sc.title.as_deref().unwrap_or("Untitled scenario"));
                r.description = Rc::from(sc.description.as_deref().unwrap_or(""));
                r.total = sc.steps.len();
                r.session = Some(Rc::new(RefCell::new(Backing::Session(Box::new(
                    Session::new(origin, sc),
                )))));
            }
            Err(e) => r.error = Some(e.to_string()),
        }
        r
    }

    /// Loads `json` as the explorer shows it: a lesson in a lesson `mode` (a plain scenario
    /// too: its narration is the narrator's), or a lesson file's partition in the explorer
    /// (variant `seed`), or a plain scenario. `open_at` opens a lesson at that file step.
    pub fn load_as(
        json: &str,
        origin: Source,
        lesson_mode: Option<bool>,
        seed: Option<u64>,
        open_at: Option<usize>,
    ) -> Replay {
        // A plain scenario in the explorer takes the plain path (and its error messages).
        let plain = if lesson_mode == Some(true) {
            None
        } else {
            match scenario::parse(json) {
                Ok(sc) => return Replay::parsed(json, origin, Ok(sc)),
                Err(e) => Some(e),
            }
        };
        let parsed = match lesson::parse(json) {
            Ok(l) => l,
            Err(e) => {
                // A lesson file's own error says what is wrong with it; the plain parser's
                // would only call its lesson keys unknown.
                let plain = plain.filter(|_| !lesson::is_lesson_file(json));
                let mut r = match plain {
                    Some(p) => Replay::parsed(json, origin, Err(p)),
                    None if lesson_mode != Some(true) => {
                        Replay::parsed(json, origin, Err(e.clone()))
                    }
                    None => Replay::load(json, origin),
                };
                if r.error.is_none() {
                    r.error = Some(e.to_string());
                }
                return r;
            }
        };
        let mut r = Replay {
            source: Rc::from(json),
            origin: Rc::new(origin.clone()),
            loading: false,
            ..Replay::default()
        };
        if lesson_mode == Some(false) {
            // The lesson's partition, free to explore: its variant's plain scenario.
            let pick = seed.map_or(Pick::Default, Pick::Seed);
            match parsed.instantiate(pick) {
                Ok(c) => {
                    r.title = Rc::from(c.title());
                    r.description = Rc::from(c.scenario.description.as_deref().unwrap_or_default());
                    r.total = c.scenario.steps.len();
                    r.stream = c.stream;
                    r.session = Some(Rc::new(RefCell::new(Backing::Session(Box::new(
                        Session::new(origin, c.scenario),
                    )))));
                }
                Err(e) => r.error = Some(e.to_string()),
            }
            return r;
        }
        // As `logtime check` does: a lesson whose stated answers, targets or solutions the model
        // disagrees with is not played. The built-ins are checked by their own tests.
        if !matches!(origin, Source::Builtin(_)) {
            if let Err(errors) = lesson::check(parsed.default_variant()) {
                r.error = Some(refused(&errors));
                return r;
            }
        }
        match LessonRun::start(parsed, seed, open_at) {
            Ok(run) => {
                let c = run.play.lesson();
                r.title = Rc::from(c.title());
                r.description = Rc::from(c.scenario.description.as_deref().unwrap_or_default());
                r.total = c.steps.len();
                r.stream = c.stream;
                r.done = run.play.next_step();
                r.session = Backing::lesson(run);
            }
            Err(e) => r.error = Some(e),
        }
        r
    }

    /// A replay of an already started lesson run (rebuilding after going back).
    pub fn with_run(&self, run: LessonRun) -> Replay {
        let mut r = Replay {
            source: self.source.clone(),
            origin: self.origin.clone(),
            title: self.title.clone(),
            description: self.description.clone(),
            loading: false,
            total: run.play.lesson().steps.len(),
            done: run.play.next_step(),
            stream: run.play.lesson().stream,
            ..Replay::default()
        };
        r.session = Backing::lesson(run);
        r
    }

    /// The lesson being played, when this replay is one.
    pub fn lesson(&self) -> Option<Ref<'_, LessonRun>> {
        let s = self.session.as_ref()?;
        Ref::filter_map(s.borrow(), |b| match b {
            Backing::Lesson(l) => Some(&**l),
            Backing::Session(_) => None,
        })
        .ok()
    }

    /// Runs `f` on the lesson being played (`None` when this replay is not one).
    pub fn with_lesson<T>(&self, f: impl FnOnce(&mut LessonRun) -> T) -> Option<T> {
        let s = self.session.as_ref()?;
        let mut b = s.borrow_mut();
        match &mut *b {
            Backing::Lesson(l) => Some(f(l)),
            Backing::Session(_) => None,
        }
    }

    /// For a lesson being played, the step a link opened it at (`None`: its own start).
    pub fn lesson_opened_at(&self) -> Option<Option<usize>> {
        self.lesson()
            .map(|l| Some(l.opened_at).filter(|&k| k != l.play.lesson().meta.opens_at))
    }

    /// Whether a lesson is being played.
    pub fn is_lesson(&self) -> bool {
        self.lesson().is_some()
    }

    /// A scenario that could not be fetched.
    pub fn failed(reason: String) -> Replay {
        Replay {
            loading: false,
            error: Some(reason),
            ..Replay::default()
        }
    }

    /// The runner, to read the partition, when a scenario is loaded.
    pub fn runner(&self) -> Option<Ref<'_, Runner>> {
        self.session.as_ref().map(|s| {
            Ref::map(s.borrow(), |b| match b {
                Backing::Session(s) => s.runner(),
                Backing::Lesson(l) => l.play.runner(),
            })
        })
    }

    /// The journal of everything done since the scenario loaded.
    pub fn journal(&self) -> Option<Ref<'_, Journal>> {
        let s = self.session.as_ref()?;
        Ref::filter_map(s.borrow(), |b| match b {
            Backing::Session(s) => Some(s.journal()),
            Backing::Lesson(..) => None,
        })
        .ok()
    }

    /// Journal entries so far (changes whenever the moment does).
    pub fn entries(&self) -> usize {
        self.journal().map_or(0, |j| j.entries.len())
    }

    /// Whether a scenario is loaded and has not failed.
    pub fn is_running(&self) -> bool {
        self.session.is_some() && self.error.is_none()
    }

    /// Whether a scenario is loaded.
    pub fn is_loaded(&self) -> bool {
        self.session.is_some()
    }

    /// Whether every step has run.
    pub fn at_end(&self) -> bool {
        self.done >= self.total
    }

    /// The broker clock (the epoch before a scenario loads).
    pub fn now(&self) -> Timestamp {
        self.runner().map_or(Timestamp(0), |r| r.now())
    }

    /// The replay's work so far, in records appended, a segment rolled counting for
    /// [`ROLL_WORK`] (what a rebuild's chunk is measured in).
    pub fn work(&self) -> i64 {
        self.runner().map_or(0, |r| {
            let p = r.partition();
            let rolled = p.segments_rolled().saturating_mul(ROLL_WORK);
            p.log_end_offset().0.saturating_add(rolled as i64)
        })
    }

    /// Records in the partition.
    pub fn record_count(&self) -> u64 {
        self.runner().map_or(0, |r| r.partition().record_count())
    }

    /// `(broker time, partition size)`, for the disk chart.
    pub fn disk_point(&self) -> Option<(Timestamp, Bytes)> {
        let now = self.runner()?.now();
        Some((now, self.size()))
    }

    /// The partition's size.
    pub fn size(&self) -> Bytes {
        self.runner().map_or(Bytes(0), |r| r.partition().size())
    }

    /// Runs the next step, adding what it changed for the view to `marks`. `None` when there
    /// is no step to run.
    pub fn step(&mut self, marks: &mut ViewMarks) -> Option<Result<StepReport, ScenarioError>> {
        let session = self.session.clone()?;
        let result = match &mut *session.borrow_mut() {
            Backing::Session(s) => crate::glue::timed_step(|| s.step_marks(marks), |_| true)?,
            Backing::Lesson(..) => return None,
        };
        if let Ok(report) = &result {
            self.done = report.index + 1;
        }
        Some(result)
    }

    /// Runs a slice of the next step, about `records` records ([`Session::step_slice`]),
    /// adding what it changed for the view to `marks`; the step counts as done once its last
    /// slice has run. `None` when there is no step to run.
    pub fn step_slice(&mut self, records: u64, marks: &mut ViewMarks) -> Option<Slice> {
        let session = self.session.clone()?;
        let slice = match &mut *session.borrow_mut() {
            Backing::Session(s) => crate::glue::timed_step(
                || s.step_slice_marks(records, marks),
                |s| !matches!(s, Some(Slice::Partial { .. })),
            )?,
            Backing::Lesson(..) => return None,
        };
        if let Slice::Done(Ok(report)) = &slice {
            self.done = report.index + 1;
        }
        Some(slice)
    }

    /// The step running in slices, as `(index, batches sent, batches)`.
    pub fn step_in_progress(&self) -> Option<(usize, u64, u64)> {
        self.runner()?.step_in_progress()
    }

    /// Applies a command between steps at `now`. `None` when no scenario is loaded.
    pub fn apply(
        &mut self,
        now: Timestamp,
        command: Command,
        on_event: &mut dyn FnMut(&Event),
    ) -> Option<Result<StepReport, Error>> {
        let session = self.session.clone()?;
        let result = match &mut *session.borrow_mut() {
            Backing::Session(s) => {
                s.apply(now, command, &mut |e: TimedEvent<'_>| on_event(e.event))
            }
            Backing::Lesson(l) => {
                let op = Op::Act(now, command.clone());
                let step = l.play.next_step();
                let recorded = lesson::Move::Act {
                    step,
                    at: now,
                    command: command.clone(),
                };
                let acted = l
                    .play
                    .act(now, command, &mut |e: TimedEvent<'_>| on_event(e.event));
                acted.map(
                    |Acted {
                         report,
                         goal,
                         solved,
                     }| {
                        l.ops.push(op);
                        l.record(recorded);
                        l.last_goal = goal;
                        l.solved = solved;
                        report
                    },
                )
            }
        };
        Some(result)
    }

    /// A consumer's lookup now, journaled. `None` when no scenario is loaded.
    pub fn lookup(&mut self, spec: OffsetSpec) -> Option<Result<Lookup, LookupError>> {
        let session = self.session.clone()?;
        let result = match &mut *session.borrow_mut() {
            Backing::Session(s) => s.lookup(spec),
            Backing::Lesson(l) => l.play.partition().lookup(spec),
        };
        Some(result)
    }

    /// Replays one journal entry (number `index`), a step in slices of about `work` records'
    /// worth ([`Session::replay_entry_slice`]), adding what it changed that the partition view
    /// marks to `marks`: `Ok(None)` while the step runs on.
    pub fn replay_entry(
        &mut self,
        index: usize,
        entry: &Entry,
        work: u64,
        marks: &mut ViewMarks,
    ) -> Option<Result<Option<Replayed>, JournalError>> {
        let session = self.session.clone()?;
        let result = match &mut *session.borrow_mut() {
            Backing::Session(s) => s.replay_entry_slice(index, entry, work, marks),
            Backing::Lesson(..) => return None,
        };
        if let Ok(Some(Replayed::Step(Ok(report)))) = &result {
            self.done = report.index + 1;
        }
        if let Ok(Some(Replayed::Step(Err(e)))) = &result {
            self.done = e.step.map_or(self.done, |s| s + 1);
        }
        Some(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lesson that the lesson parser refuses shows the lesson's own error, not the plain
    /// parser's "unknown top-level key" for its lesson keys (issue 41: the variant bomb).
    #[test]
    fn a_refused_lesson_says_why_as_a_lesson() {
        let big = "x".repeat(1_000_000);
        let json = serde_json::json!({
            "title": "hostile", "start": "2027-03-12T09:00:00Z",
            "variants": {"big": {"choices": [big]}},
            "steps": [{"note": "${big}".repeat(1000)}],
        })
        .to_string();
        let r = Replay::load_as(&json, Source::Inline(String::new()), None, None, None);
        let e = r.error.expect("refused");
        assert!(
            e.contains("add more than 16777216 bytes (16 MiB) of text"),
            "{e}"
        );
    }
}
