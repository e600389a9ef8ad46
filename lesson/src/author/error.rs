//! Why an author's command could not apply. A draft that is wrong is not an error (its problems
//! are [`super::Checked`] data, shown at their step); an error is a command that cannot be
//! carried out at all, and it leaves the document as it was.

use std::fmt;

/// A command that cannot apply. Every message is lowercase and names the step (1-based, as the
/// lesson pane numbers steps) and the field when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuthorError {
    /// The starting text is not a JSON object (a scenario, lesson or incident file is one).
    Unreadable {
        /// Why, with the line and column of a syntax error.
        reason: String,
    },
    /// A command names a step the lesson does not have.
    NoSuchStep {
        /// The command's field (`step`, `from`, `to`, `at`, `first`, `last`).
        field: &'static str,
        /// The step asked for, 1-based.
        step: usize,
        /// How many steps there are.
        steps: usize,
    },
    /// The step is of a kind the command does not edit (a question edit on a produce step).
    WrongKind {
        /// The step, 1-based.
        step: usize,
        /// What the command needs (`a question or a task`).
        expected: &'static str,
        /// What the step is (`produce`, `note`, …).
        found: String,
    },
    /// A question or task kind needs something pointed at (a lookup's instant, a window's
    /// instant, DeleteRecords' offset) and none was given, or the wrong kind of thing was.
    NeedsTarget {
        /// The field it fills (`question.lookup.timestamp`).
        field: String,
        /// What to point at.
        what: String,
    },
    /// A value the command carries is malformed (a time, a duration, a config value, a
    /// variable, a JSON pointer).
    Invalid {
        /// The field of the file it would go to.
        field: String,
        /// Why.
        reason: String,
    },
    /// An explorer action that the file's grammar cannot say, or that cannot go where it is
    /// being put (before the clock at that step).
    CannotRecord {
        /// Why.
        reason: String,
    },
    /// The steps cannot be made one step of the grammar (a group, or a task of a recorded fix).
    CannotGroup {
        /// The first step, 1-based.
        first: usize,
        /// The last step, 1-based.
        last: usize,
        /// Why.
        reason: String,
    },
    /// Undo with nothing done yet.
    NothingToUndo,
    /// Redo with nothing undone.
    NothingToRedo,
}

impl fmt::Display for AuthorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthorError::Unreadable { reason } => {
                write!(f, "this is not a scenario or lesson file: {reason}")
            }
            AuthorError::NoSuchStep { field, step, steps } => write!(
                f,
                "{field}: there is no step {step} (the lesson has {steps} {})",
                if *steps == 1 { "step" } else { "steps" }
            ),
            AuthorError::WrongKind {
                step,
                expected,
                found,
            } => write!(f, "step {step}: is a {found} step, not {expected}"),
            AuthorError::NeedsTarget { field, what } => write!(f, "{field}: {what}"),
            AuthorError::Invalid { field, reason } => write!(f, "{field}: {reason}"),
            AuthorError::CannotRecord { reason } => {
                write!(f, "this action cannot be recorded as a step: {reason}")
            }
            AuthorError::CannotGroup {
                first,
                last,
                reason,
            } => write!(
                f,
                "steps {first} to {last} cannot be made one step: {reason}"
            ),
            AuthorError::NothingToUndo => f.write_str("there is nothing to undo"),
            AuthorError::NothingToRedo => f.write_str("there is nothing to redo"),
        }
    }
}

impl std::error::Error for AuthorError {}

/// `field = value` as [`AuthorError::Invalid`].
pub(crate) fn invalid(field: impl Into<String>, reason: impl Into<String>) -> AuthorError {
    AuthorError::Invalid {
        field: field.into(),
        reason: reason.into(),
    }
}
