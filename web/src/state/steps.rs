//! The transport ([`TransportAction`]): a step, play and pause, the speed, and going back,
//! which rebuilds (`rebuild.rs`); and how a step's report reaches the panels and the narration.

use logtime_core::scenario::narrate::{self, Sentence};
use logtime_core::scenario::{ProduceOutcome, StepOutcome, StepReport, ViewMarks};
use logtime_model::Timestamp;

use super::{Explorer, Pending, TransportAction};
use crate::model::timeline;

impl Explorer {
    /// Reduces a [`TransportAction`] (`was_playing`: before this action); `false` when nothing
    /// changed. While a lesson plays, the lesson plug-in takes the steps.
    pub(super) fn reduce_transport(&mut self, a: TransportAction, was_playing: bool) -> bool {
        if let Some(changed) = self.lesson_transport(&a, was_playing) {
            return changed;
        }
        match a {
            // Run by `Explorer::steps`, a step at a time.
            TransportAction::Steps(_) => {}
            TransportAction::Step => {
                if !self.replay.is_running() {
                    return false;
                }
                if !self.run_step(true) {
                    self.playback.playing = false;
                    if self.replay.error.is_none() {
                        self.say(Sentence::plain("The scenario has finished."));
                    }
                }
                if self.replay.at_end() {
                    self.playback.playing = false;
                }
            }
            TransportAction::Back => {
                self.playback.playing = false;
                self.seek_or_ask(timeline::step_back(self.replay.done), false);
            }
            TransportAction::Seek(k) => {
                self.playback.playing = false;
                self.seek_or_ask(k.min(self.replay.total), false);
            }
            TransportAction::Play(p) => self.play(p),
            TransportAction::TogglePlay => self.play(!was_playing),
            TransportAction::SetSpeed(v) => {
                self.playback.speed = v;
                self.say(Sentence::plain(format!("Speed {v}x.")));
            }
            TransportAction::RebuildChunk(records) => {
                if self.rebuild.is_none() {
                    return false;
                }
                self.rebuild_chunk(records.max(1));
            }
            TransportAction::CancelRebuild => {
                if self.rebuild.is_none() {
                    return false;
                }
                self.cancel_rebuild();
            }
            TransportAction::Ask(p) => {
                self.playback.playing = false;
                self.pending = Some(p);
            }
            TransportAction::Confirm => self.confirm(),
            TransportAction::Dismiss => self.pending = None,
        }
        true
    }

    /// Runs the pending change the reader confirmed (switching scenario is the caller's: it
    /// owns the source).
    fn confirm(&mut self) {
        match self.pending.take() {
            Some(Pending::LessonBack { .. }) => self.lesson_back(true),
            Some(Pending::Rewind { steps, play, .. }) => {
                self.seek(steps);
                if play {
                    self.playback.playing = self.replay.is_running();
                }
            }
            Some(Pending::Switch { .. }) | None => {}
        }
    }

    /// Runs one scenario step; `false` when there is none or it failed.
    pub(crate) fn run_step(&mut self, narrate: bool) -> bool {
        let mut marks = ViewMarks::default();
        let previous = self.now();
        let Some(outcome) = self.replay.make_mut().step(&mut marks) else {
            return false;
        };
        self.after_step(marks, previous, outcome, narrate)
    }

    /// Shows what a step did (or why it failed); `false` when it failed.
    pub(crate) fn after_step(
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
    pub(crate) fn absorb(&mut self, marks: ViewMarks, report: &StepReport) {
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
    pub(crate) fn absorb_marks(&mut self, marks: ViewMarks) {
        if marks.landed.is_some() {
            self.marks.make_mut().landed = marks.landed;
        }
        if let Some(r) = marks.retention {
            self.retention.make_mut().show(r);
        }
    }

    /// Says what a step or command did, in the narrator's words, under `heading`.
    pub(crate) fn narrate(&mut self, mut heading: Sentence, report: &StepReport) {
        heading.capitalize().text(": ");
        let clauses = match self.replay.runner() {
            Some(r) => narrate::step(report, r.partition().config()),
            None => return,
        };
        heading.append(Sentence::join(clauses, "; "));
        self.say(heading);
    }

    pub(crate) fn play(&mut self, play: bool) {
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

    pub(crate) fn say(&mut self, line: Sentence) {
        self.log.make_mut().say(line);
    }

    pub(crate) fn sample_disk(&mut self) {
        if let Some(point) = self.replay.disk_point() {
            if self.disk.last() != Some(point) {
                self.disk.make_mut().push(point);
            }
        }
    }

    /// The broker clock (the start of the epoch before a scenario loads).
    pub fn now(&self) -> Timestamp {
        self.replay.now()
    }

    /// The walks of the moment landed on show finished.
    pub(crate) fn finish_walks(&mut self) {
        self.lookup.make_mut().cursor = usize::MAX;
        self.retention.make_mut().cursor = usize::MAX;
    }
}
