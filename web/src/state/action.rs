//! What can happen to an explorer: one small enum per slice of the state, composed in
//! [`Action`]. A component gets a callback of the one slice it acts on (or of a single value),
//! never the whole vocabulary.

use std::rc::Rc;

use logtime_core::scenario::Source;
use logtime_model::{KafkaVersion, Offset, OffsetSpec};

use super::{Inspect, Pending, Restore};
use crate::model::import::Done;
use crate::model::producer::BatchSpec;
use crate::model::viewport::Viewport;
use crate::options::Mode;

/// Loading a scenario and rebuilding a moment of it.
#[derive(Clone, Debug)]
pub enum LoadAction {
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
    /// How the next load is shown: a mode and a lesson variant's seed.
    Want(Option<Mode>, Option<u64>),
}

/// The transport: stepping, playing, seeking, and the rebuilds and confirmations they need.
#[derive(Clone, Debug, PartialEq)]
pub enum TransportAction {
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
    /// Run the next chunk of the rebuild in progress: about this many records (a segment
    /// rolled counting for more: [`Replay::work`](super::Replay::work)).
    RebuildChunk(i64),
    /// Stop the rebuild in progress where it is.
    CancelRebuild,
    /// Ask before a change that would drop the reader's actions.
    Ask(Pending),
    /// The reader confirmed the pending change (the rewind runs; a switch is the caller's).
    Confirm,
    /// The reader kept their actions.
    Dismiss,
}

/// The reader's own commands on the partition (journaled, and observed by a lesson's open task).
#[derive(Clone, Debug)]
pub enum CommandAction {
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
}

/// What only changes the view: the walks' animation, the partition view's window, details.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ViewAction {
    /// One frame of the lookup and retention walks.
    WalkTick,
    /// Show the walks finished (reduced motion).
    WalkFinish,
    /// The partition view's window.
    SetViewport(Viewport),
    /// Open (or close, with `None`) the details of something.
    Inspect(Option<Inspect>),
}

/// Importing a real partition (the worker's progress and result).
#[derive(Clone, Debug)]
pub enum ImportAction {
    /// Import `job` starts reading `total` bytes (a later job supersedes earlier ones).
    Start {
        /// The job.
        job: u64,
        /// Bytes to read.
        total: u64,
    },
    /// Import `job` has read `done` of `total` bytes and is reading `file`.
    Progress {
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
    End {
        /// The job.
        job: u64,
        /// The import, or why it failed.
        result: Result<Rc<Done>, String>,
    },
    /// The reader cancelled the import being read.
    Cancel,
}

/// A learner's moves in a lesson (the lesson plug-in's own vocabulary).
#[derive(Clone, Debug, PartialEq)]
pub enum LessonAction {
    /// On to the next stop.
    Next,
    /// The learner clicked this segment or record (for the open question).
    Select(Offset),
    /// Answer the open question with the selection, or with this typed value.
    Answer(Option<i64>),
    /// The open item's next hint.
    Hint,
    /// Reveal the open item.
    Reveal,
    /// Return to the work kept when going back.
    Return,
    /// Start again, with this variant's seed (`None`: the same one).
    Restart(Option<u64>),
    /// Follow a narration link: outline what it names and bring it into view.
    Follow(logtime_lesson::Target),
}

/// Everything that can happen, by the slice of the state it concerns.
#[derive(Clone, Debug)]
pub enum Action {
    /// Loads and moments.
    Load(LoadAction),
    /// The transport.
    Transport(TransportAction),
    /// The reader's commands on the partition.
    Command(CommandAction),
    /// The view.
    View(ViewAction),
    /// The import.
    Import(ImportAction),
    /// A lesson.
    Lesson(LessonAction),
}

macro_rules! slice {
    ($($t:ident => $v:ident),*) => {$(
        impl From<$t> for Action {
            fn from(a: $t) -> Action {
                Action::$v(a)
            }
        }
    )*};
}
slice!(LoadAction => Load, TransportAction => Transport, CommandAction => Command,
       ViewAction => View, ImportAction => Import, LessonAction => Lesson);

impl Action {
    /// Whether the action may run while a rebuild is in progress: loads (they start over),
    /// moments from the browser's history, the rebuild's own actions and what only changes the
    /// view.
    pub(super) fn allowed_while_rebuilding(&self) -> bool {
        matches!(
            self,
            Action::Load(LoadAction::Loading(_) | LoadAction::Load { .. } | LoadAction::Restore(_))
                | Action::Transport(
                    TransportAction::RebuildChunk(_)
                        | TransportAction::CancelRebuild
                        | TransportAction::SetSpeed(_)
                )
                | Action::View(
                    ViewAction::SetViewport(_) | ViewAction::WalkTick | ViewAction::WalkFinish
                )
        )
    }
}
