//! Author mode: a lesson written by acting in the explorer and pointing at the partition, never
//! by typing JSON. A sans-I/O state machine: [`Authoring`] holds the lesson file being written
//! (its JSON), takes [`AuthorCommand`]s (an explorer action recorded from the session journal,
//! an edit, undo, redo) with the time passed in, and hands back [`AuthorEvent`]s. Every change
//! re-runs the live check ([`Checked`]: parse, instantiate, [`crate::check`], the replay's
//! effects that bite, each question's computed answer), so a page shows every problem at its
//! step and field with core's words. A draft may be wrong while it is written: its problems are
//! data; an [`AuthorError`] is only for a command that cannot apply, and leaves the document
//! unchanged.
//!
//! Steps are numbered from 1 everywhere in this module (commands, [`StepView`], [`Problem`],
//! [`BiteAt`]), as the lesson pane numbers them; the file and `logtime check` count from 0.
//!
//! A task needs a solution (the file requires one): [`AuthorCommand::AddTask`] takes it as
//! journal entries (the fix done in the explorer), and [`AuthorCommand::MakeTask`] turns fix
//! steps already recorded into the task's solution.
//!
//! Saving is core's pretty writer ([`logtime_core::scenario::save`]): RFC 3339 instants, human
//! durations and sizes; a saved file opened again with [`Start::Text`] gives the same document.

mod apply;
mod edit;
mod error;
mod group;
mod live;
mod place;
mod record;
mod spec;
mod vary;
mod view;

pub use error::AuthorError;
pub use live::{AnswerView, BiteAt, Checked, Problem, VariantPreview, LIVE_VARIANTS};
pub use spec::{
    AskKind, BatchSpec, BoundSpec, GoalSpec, MetaEdit, QuestionEdit, RecordSpec, VariableSpec,
};
pub use vary::{VaryValues, Varyable};
pub use view::StepView;

use crate::{Lesson, Pick, Target};
use logtime_core::scenario::save::save_value;
use logtime_core::scenario::{Entry, ScenarioError};
use logtime_model::units::Timestamp;
use serde_json::Value;

/// How many changes undo remembers.
pub const UNDO_DEPTH: usize = 200;

/// What author mode starts from.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    /// A scenario, lesson or incident file, or a built-in's JSON.
    Text(String),
    /// `logtime_core::import::inspect::to_scenario`'s output: the imported partition becomes
    /// the scenario's `log`, and the lesson a walkthrough.
    Imported(Value),
    /// An empty partition with chosen configs.
    Empty {
        /// The version preset key (`3.6`, `4.0`, `4.1`).
        kafka: String,
        /// Topic configs by Kafka name, values as the file writes them (`1d`, `1MiB`, `86400000`).
        configs: Vec<(String, String)>,
        /// The broker clock at the start.
        start: Timestamp,
    },
}

/// What an author does.
#[derive(Clone, Debug, PartialEq)]
pub enum AuthorCommand {
    /// An explorer action from the session journal, added as a scenario step (or two: an
    /// `advance` first when the action came later than the clock at that point) where
    /// recordings go (see [`AuthorCommand::RecordAfter`]). [`Entry::Step`] (the explorer ran a
    /// step that is already in the file) moves that place past the next scenario step.
    Record(Entry),
    /// Where recordings go: after step `n` (`Some(0)`: before the first step), or at the end
    /// (`None`, the default).
    RecordAfter(Option<usize>),
    /// Step `from` becomes step `to`.
    Move {
        /// 1-based.
        from: usize,
        /// 1-based.
        to: usize,
    },
    /// Step removed.
    Delete {
        /// 1-based.
        step: usize,
    },
    /// Consecutive steps made one step of the grammar: `config` steps into one, `advance`
    /// steps into their sum, identical batches (with equal clock moves between them) into
    /// generated traffic. Anything else is an [`AuthorError::CannotGroup`].
    Group {
        /// 1-based.
        first: usize,
        /// 1-based.
        last: usize,
    },
    /// A copy of the step right after it.
    Duplicate {
        /// 1-based.
        step: usize,
    },
    /// A step's narration (a note's body); empty text removes a step's narration.
    SetNarration {
        /// 1-based.
        step: usize,
        /// Markup.
        text: String,
    },
    /// What a step highlights (`show`); empty removes it.
    SetHighlights {
        /// 1-based.
        step: usize,
        /// Targets.
        targets: Vec<Target>,
    },
    /// Whether playback pauses after the step.
    SetPause {
        /// 1-based.
        step: usize,
        /// Pause or not.
        pause: bool,
    },
    /// A note inserted as step `at` (1 to steps + 1).
    AddNote {
        /// 1-based position.
        at: usize,
        /// Markup.
        text: String,
    },
    /// A question inserted as step `at`; the model computes its answer there.
    AddQuestion {
        /// 1-based position.
        at: usize,
        /// Its kind.
        ask: AskKind,
        /// What the author clicked (an instant, an offset), for kinds that need one.
        pointing: Option<Target>,
        /// What the learner is asked (markup).
        text: String,
    },
    /// An edit to a question or task.
    EditQuestion {
        /// 1-based.
        step: usize,
        /// The edit.
        edit: QuestionEdit,
    },
    /// A task inserted as step `at`: a goal and the solution that reaches it (explorer actions
    /// recorded from the journal, in order).
    AddTask {
        /// 1-based position.
        at: usize,
        /// Conditions that must all hold.
        goal: Vec<GoalSpec>,
        /// The actions that reach it.
        solution: Vec<Entry>,
        /// What the learner is asked (markup).
        text: String,
    },
    /// Steps `first..=last`, the fix the author just did in the explorer (recorded as steps),
    /// made the solution of a task asked in their place, with a goal from core's goal kinds;
    /// their narrations become the task's `reveal`.
    MakeTask {
        /// 1-based.
        first: usize,
        /// 1-based.
        last: usize,
        /// Conditions that must all hold.
        goal: Vec<GoalSpec>,
        /// What the learner is asked (markup).
        text: String,
    },
    /// A variable of `variants` set (`Some`) or removed (`None`).
    SetVariant {
        /// Its name (`retention`), used in the file as `"$retention"` or `${retention}`.
        name: String,
        /// Its values.
        variable: Option<VariableSpec>,
    },
    /// Any value of the file, by JSON pointer (`/topic/retention.ms`): how a variable is put
    /// in place (`"$retention"`), or a field no other command edits. `None` removes it.
    SetValue {
        /// RFC 6901 pointer; its parent must exist.
        pointer: String,
        /// The new value.
        value: Option<Value>,
    },
    /// A value of the file (one of [`Authoring::varyables`]) made the variable `name`, with
    /// its values as typed: the variable declared and `"$name"` put in place, one change.
    Vary {
        /// Where the value is ([`Varyable::pointer`]).
        pointer: String,
        /// The variable's name (`retention`).
        name: String,
        /// Its values.
        values: VaryValues,
    },
    /// The variable `name` removed, the value the lesson is written with (a list's first, a
    /// range's default) put back wherever it was used.
    Unvary {
        /// The variable's name.
        name: String,
    },
    /// The title or a key of the `lesson` object.
    SetMeta(MetaEdit),
    /// The last change undone.
    Undo,
    /// The last undone change done again.
    Redo,
}

/// What a command did, for the page to follow. Every change ends with [`AuthorEvent::Checked`].
#[derive(Clone, Debug, PartialEq)]
pub enum AuthorEvent {
    /// A step was inserted.
    StepAdded {
        /// Its number, 1-based.
        step: usize,
        /// Its kind (`produce`, `question`, …).
        kind: String,
    },
    /// A step changed in place.
    StepChanged {
        /// 1-based.
        step: usize,
    },
    /// A step moved.
    StepMoved {
        /// 1-based, before.
        from: usize,
        /// 1-based, after.
        to: usize,
    },
    /// A step was removed.
    StepDeleted {
        /// 1-based, before.
        step: usize,
    },
    /// Something outside the steps changed (the title, the `lesson` object, variants, a value).
    FileChanged {
        /// The top-level key.
        key: String,
    },
    /// Where recordings go now: after this step (0: before the first), `None`: at the end.
    RecordingAt(Option<usize>),
    /// A change was undone.
    Undone {
        /// What it was, in a few words.
        what: String,
    },
    /// An undone change was done again.
    Redone {
        /// What it was, in a few words.
        what: String,
    },
    /// The live check after the change.
    Checked(Box<Checked>),
}

/// A lesson being written.
#[derive(Clone, Debug)]
pub struct Authoring {
    /// The lesson file; always a JSON object.
    doc: Value,
    /// Documents before each change, with what the change was; newest last.
    undo: Vec<(Value, String)>,
    /// Documents undone, newest last.
    redo: Vec<(Value, String)>,
    /// Recordings go after this many file steps (`None`: at the end).
    cursor: Option<usize>,
    /// The live check of `doc`.
    checked: Checked,
}

impl Authoring {
    /// Starts author mode, with the first check.
    pub fn new(start: Start) -> Result<(Authoring, Vec<AuthorEvent>), AuthorError> {
        let doc = apply::start_doc(start)?;
        let checked = live::run(&doc);
        let a = Authoring {
            doc,
            undo: Vec::new(),
            redo: Vec::new(),
            cursor: None,
            checked,
        };
        let events = vec![AuthorEvent::Checked(Box::new(a.checked.clone()))];
        Ok((a, events))
    }

    /// Applies one command at `now` (the page's clock, kept for what the journal of authoring
    /// may later need; nothing here reads a clock). On an error nothing changes.
    pub fn apply(
        &mut self,
        now: Timestamp,
        cmd: AuthorCommand,
    ) -> Result<Vec<AuthorEvent>, AuthorError> {
        let _ = now;
        apply::apply(self, cmd)
    }

    /// Every step as the lesson pane shows it.
    pub fn steps(&self) -> Vec<StepView> {
        view::steps(&self.doc, &self.checked)
    }

    /// The live check of the document as it is.
    pub fn check(&self) -> &Checked {
        &self.checked
    }

    /// The file, pretty: RFC 3339 instants, human durations and sizes.
    pub fn document(&self) -> String {
        save_value(self.doc.clone()).unwrap_or_else(|_| self.doc.to_string())
    }

    /// The batch produce step `step` (1-based) sends, as its records are written, for a
    /// question about that batch (`choose`, `error`): "the batch of step 4".
    pub fn batch_of_step(&self, step: usize) -> Result<BatchSpec, AuthorError> {
        spec::batch_of_step(&self.doc, step)
    }

    /// The document as parsed JSON.
    pub fn value(&self) -> &Value {
        &self.doc
    }

    /// The lesson, for the learner's-eye preview (a [`crate::Play`]) and two seeds' variants
    /// side by side.
    pub fn lesson(&self) -> Result<Lesson, ScenarioError> {
        crate::parse(&self.doc.to_string())
    }

    /// The variant a seed (or an index) picks, as a learner gets it: its values, its answers,
    /// its bites and its problems; two of them side by side preview the variants.
    pub fn variant_preview(&self, pick: Pick) -> VariantPreview {
        live::variant(&self.doc, pick)
    }

    /// The values an author may make a variable (topic configs, configs a step sets, recorded
    /// records' timestamps), each with the variable already in its place, if any.
    pub fn varyables(&self) -> Vec<Varyable> {
        vary::varyables(&self.doc)
    }

    /// Why an edit (not a recording, undo or redo) would be refused, without making it: a form
    /// shows it at its field before the author sends it. `None`: it would apply.
    pub fn refusal(&self, cmd: &AuthorCommand) -> Option<AuthorError> {
        match cmd {
            AuthorCommand::Record(_)
            | AuthorCommand::RecordAfter(_)
            | AuthorCommand::AddTask { .. }
            | AuthorCommand::Undo
            | AuthorCommand::Redo => None,
            other => edit::edit(&mut self.doc.clone(), other.clone()).err(),
        }
    }

    /// Whether there is a change to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is an undone change to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Where recordings go: after this step (1-based; 0: before the first), `None`: at the end.
    pub fn recording_at(&self) -> Option<usize> {
        self.cursor
    }
}

#[cfg(test)]
mod tests;
