//! The loaded scenario and its replay: the session (runner and journal), how far it has run, and
//! why it stopped.

use std::cell::{Ref, RefCell};
use std::rc::Rc;

use logtime_core::scenario::{
    self, Entry, Journal, JournalError, Replayed, Runner, ScenarioError, Session, Source,
    StepReport, TimedEvent,
};
use logtime_core::{Bytes, Command, Error, Event, Lookup, LookupError, OffsetSpec, Timestamp};

/// A scenario being replayed (or the reason it is not).
///
/// The session is shared, never copied: a copy of a `Replay` replays the same partition.
#[derive(Clone)]
pub struct Replay {
    session: Option<Rc<RefCell<Session>>>,
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
        }
    }
}

impl Replay {
    /// Parses a scenario, ready to run step 0 (or with the parse error).
    pub fn load(json: &str, origin: Source) -> Replay {
        let mut r = Replay {
            source: Rc::from(json),
            origin: Rc::new(origin.clone()),
            loading: false,
            ..Replay::default()
        };
        match scenario::parse(json) {
            Ok(sc) => {
                r.title = Rc::from(sc.title.as_deref().unwrap_or("Untitled scenario"));
                r.description = Rc::from(sc.description.as_deref().unwrap_or(""));
                r.total = sc.steps.len();
                r.session = Some(Rc::new(RefCell::new(Session::new(origin, sc))));
            }
            Err(e) => r.error = Some(e.to_string()),
        }
        r
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
        self.session
            .as_ref()
            .map(|s| Ref::map(s.borrow(), Session::runner))
    }

    /// The journal of everything done since the scenario loaded.
    pub fn journal(&self) -> Option<Ref<'_, Journal>> {
        self.session
            .as_ref()
            .map(|s| Ref::map(s.borrow(), Session::journal))
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

    /// Records in the partition.
    pub fn record_count(&self) -> u64 {
        self.runner().map_or(0, |r| r.partition().record_count())
    }

    /// `(broker time, partition size)`, for the disk chart.
    pub fn disk_point(&self) -> Option<(Timestamp, Bytes)> {
        self.runner().map(|r| (r.now(), r.partition().size()))
    }

    /// Runs the next step, handing its events to `on_event`. `None` when there is no step to run.
    pub fn step(
        &mut self,
        on_event: &mut dyn FnMut(&Event),
    ) -> Option<Result<StepReport, ScenarioError>> {
        let session = self.session.clone()?;
        let result = session
            .borrow_mut()
            .step(&mut |e: TimedEvent<'_>| on_event(e.event))?;
        if let Ok(report) = &result {
            self.done = report.index + 1;
        }
        Some(result)
    }

    /// Applies a command between steps at `now`. `None` when no scenario is loaded.
    pub fn apply(
        &mut self,
        now: Timestamp,
        command: Command,
        on_event: &mut dyn FnMut(&Event),
    ) -> Option<Result<StepReport, Error>> {
        let session = self.session.clone()?;
        let result = session
            .borrow_mut()
            .apply(now, command, &mut |e: TimedEvent<'_>| on_event(e.event));
        Some(result)
    }

    /// A consumer's lookup now, journaled. `None` when no scenario is loaded.
    pub fn lookup(&mut self, spec: OffsetSpec) -> Option<Result<Lookup, LookupError>> {
        let session = self.session.clone()?;
        let result = session.borrow_mut().lookup(spec);
        Some(result)
    }

    /// Replays one journal entry (number `index`), handing its events to `on_event`.
    pub fn replay_entry(
        &mut self,
        index: usize,
        entry: &Entry,
        on_event: &mut dyn FnMut(&Event),
    ) -> Option<Result<Replayed, JournalError>> {
        let session = self.session.clone()?;
        let result = session
            .borrow_mut()
            .replay_entry(index, entry, &mut |e: TimedEvent<'_>| on_event(e.event));
        if let Ok(Replayed::Step(Ok(report))) = &result {
            self.done = report.index + 1;
        }
        if let Ok(Replayed::Step(Err(e))) = &result {
            self.done = e.step.map_or(self.done, |s| s + 1);
        }
        Some(result)
    }
}
