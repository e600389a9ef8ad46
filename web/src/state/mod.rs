//! The explorer's state: a reducer ([`Explorer`], [`Action`]) over one struct per panel.
//!
//! Every Kafka fact shown comes from core's typed step outcomes, events, verdicts and traces, and
//! every sentence about them from core's narrator; this module records them for the panels.
//!
//! Panels are [`Shared`]: a reducer works on a copy of the previous state, whose panels it shares
//! until it changes one, so an action clones only what it changes, and a component whose panel
//! did not change compares equal and is not rendered again. The [`Runner`] (and its partition,
//! which can hold millions of records) is shared behind `Rc<RefCell<_>>` and never copied.
//!
//! [`Action`] is composed of one small enum per slice, each reduced in its own module:
//! [`LoadAction`] (`load.rs`), [`TransportAction`] (`steps.rs`, with the chunked rebuilds of
//! `rebuild.rs`), [`CommandAction`] (`commands.rs`), [`ViewAction`] and [`ImportAction`]
//! (`view.rs`); a [`LessonAction`] goes to the lesson plug-in (`crate::lessons`), which also
//! observes the reader's commands and the transport while a lesson plays.
//!
//! [`Runner`]: logtime_core::scenario::Runner

mod action;
mod commands;
mod load;
mod log;
mod panels;
mod rebuild;
mod replay;
mod steps;
#[cfg(test)]
mod tests;
mod view;

pub use action::{
    Action, CommandAction, ImportAction, LessonAction, LoadAction, TransportAction, ViewAction,
};
pub use log::Log;
pub use panels::{
    ConfigState, Disk, ImportState, LookupState, Marks, Playback, ProducerState, RetentionState,
};
pub use rebuild::{Rebuild, REBUILD_CHUNK_RECORDS};
pub use replay::Replay;

use std::ops::Deref;
use std::rc::Rc;

use yew::Reducible;

use logtime_model::Offset;

use crate::lessons::LessonView;
use crate::model::viewport::Viewport;
use crate::options::{LookupTarget, Mode};

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

impl Reducible for Explorer {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        if self.rebuild.is_some() && !action.allowed_while_rebuilding() {
            // The partition is half rebuilt and the journal with it: nothing may act on them
            // until the rebuild finishes or is stopped.
            return self;
        }
        if let Action::Transport(TransportAction::Steps(n)) = action {
            return Explorer::steps(self, n);
        }
        let was_playing = self.playback.playing;
        let mut s = (*self).clone();
        let changed = match action {
            Action::Load(a) => s.reduce_load(a),
            Action::Transport(a) => s.reduce_transport(a, was_playing),
            Action::Command(a) => {
                s.reduce_command(a);
                // A learner's command in a lesson: the open task's goal, checked live.
                s.lesson_after_act();
                true
            }
            Action::View(a) => s.reduce_view(a),
            Action::Import(a) => s.reduce_import(a),
            Action::Lesson(a) => s.reduce_lesson(a),
        };
        if changed {
            Rc::new(s)
        } else {
            self
        }
    }
}

impl Explorer {
    /// Playback's steps due in one animation frame, each reduced as a [`TransportAction::Step`]
    /// and shown in one render; stops early when playback does.
    fn steps(state: Rc<Explorer>, n: usize) -> Rc<Explorer> {
        if !state.playback.playing {
            return state;
        }
        let mut s = state.reduce(TransportAction::Step.into());
        for _ in 1..n {
            if !s.playback.playing {
                break;
            }
            s = s.reduce(TransportAction::Step.into());
        }
        s
    }
}
