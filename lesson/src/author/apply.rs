//! The document a start gives, and each command carried out: a change is made on a copy, and
//! only when it succeeds does the copy replace the document, with the old one kept for undo and
//! the live check run again.

use super::error::AuthorError;
use super::{edit, live, record, AuthorCommand, AuthorEvent, Authoring, Start, UNDO_DEPTH};
use crate::{Item, Pick};
use logtime_core::human::rfc3339;
use logtime_core::scenario::Entry;
use serde_json::{json, Map, Value};

/// The document for `start`.
pub(crate) fn start_doc(start: Start) -> Result<Value, AuthorError> {
    match start {
        Start::Text(t) => {
            let v = logtime_core::scenario::strict::from_str(&t).map_err(|e| {
                AuthorError::Unreadable {
                    reason: format!(
                        "json syntax error: {e} (line {}, column {})",
                        e.line(),
                        e.column()
                    ),
                }
            })?;
            object(v)
        }
        Start::Imported(v) => {
            let mut v = object(v)?;
            if let Value::Object(m) = &mut v {
                m.entry("lesson")
                    .or_insert_with(|| json!({"kind": "walkthrough"}));
            }
            Ok(v)
        }
        Start::Empty {
            kafka,
            configs,
            start,
        } => {
            let mut topic = Map::new();
            for (name, value) in configs {
                let v = match value.trim().parse::<i64>() {
                    Ok(n) => json!(n),
                    Err(_) => json!(value.trim()),
                };
                topic.insert(name, v);
            }
            Ok(json!({"kafka": kafka, "topic": topic, "start": rfc3339(start.0), "steps": []}))
        }
    }
}

fn object(v: Value) -> Result<Value, AuthorError> {
    match v {
        Value::Object(mut m) => {
            m.entry("steps").or_insert_with(|| json!([]));
            Ok(Value::Object(m))
        }
        other => Err(AuthorError::Unreadable {
            reason: format!(
                "a scenario is a JSON object, not {}",
                logtime_core::scenario::kind_of(&other)
            ),
        }),
    }
}

/// A change made on a copy of the document: what it was (for undo) and its events.
type Change = (String, Vec<AuthorEvent>);

/// Carries out `cmd` on `a`.
pub(crate) fn apply(
    a: &mut Authoring,
    cmd: AuthorCommand,
) -> Result<Vec<AuthorEvent>, AuthorError> {
    match cmd {
        AuthorCommand::Undo => undo(a, true),
        AuthorCommand::Redo => undo(a, false),
        AuthorCommand::RecordAfter(at) => {
            if let Some(n) = at {
                let steps = edit::steps(&a.doc)?.len();
                if n > steps {
                    return Err(AuthorError::NoSuchStep {
                        field: "after",
                        step: n,
                        steps,
                    });
                }
            }
            a.cursor = at;
            Ok(vec![AuthorEvent::RecordingAt(at)])
        }
        AuthorCommand::Record(Entry::Step) => step_ran(a),
        AuthorCommand::Record(entry) => {
            let mut doc = a.doc.clone();
            let k = a.cursor.unwrap_or(edit::steps(&doc)?.len());
            let clock = record::clock_after(&doc, k)?;
            let new = record::steps_for(&entry, clock)?;
            if new.is_empty() {
                return Ok(Vec::new());
            }
            let events = edit::insert(&mut doc, k, new.clone())?;
            if let Some(c) = &mut a.cursor {
                *c += new.len();
            }
            commit(a, doc, (entry.describe(), events))
        }
        AuthorCommand::AddTask {
            at,
            goal,
            solution,
            text,
        } => {
            let mut doc = a.doc.clone();
            let k = edit::position(&doc, at)?;
            let clock = record::clock_after(&doc, k)?;
            let solution = record::solution_for(&solution, clock)?;
            let change = edit::add_task(&mut doc, k, &goal, solution, text)?;
            commit(a, doc, change)
        }
        other => {
            let mut doc = a.doc.clone();
            let change = edit::edit(&mut doc, other)?;
            commit(a, doc, change)
        }
    }
}

/// The default variant of `doc`, for what a command needs to know of the replay.
pub(crate) fn concrete(doc: &Value) -> Result<crate::Concrete, AuthorError> {
    crate::parse(&doc.to_string())
        .and_then(|l| l.instantiate(Pick::Default))
        .map_err(|e| AuthorError::CannotRecord {
            reason: format!(
                "the lesson does not read as it is ({}); fix that first",
                live::problem_of(&e)
            ),
        })
}

/// The explorer ran a step already in the file: recordings now go after the next scenario
/// step.
fn step_ran(a: &mut Authoring) -> Result<Vec<AuthorEvent>, AuthorError> {
    let Some(k) = a.cursor else {
        return Ok(Vec::new());
    };
    let c = concrete(&a.doc)?;
    let next = c.steps[k.min(c.steps.len())..]
        .iter()
        .position(|s| matches!(s.item, Item::Model { .. }))
        .map(|i| k + i + 1)
        .ok_or_else(|| AuthorError::CannotRecord {
            reason: format!("no scenario step comes after step {k} for the explorer to run"),
        })?;
    a.cursor = Some(next);
    Ok(vec![AuthorEvent::RecordingAt(a.cursor)])
}

/// Replaces the document with `doc`, keeping the old one for undo, and checks it.
fn commit(
    a: &mut Authoring,
    doc: Value,
    (what, mut events): Change,
) -> Result<Vec<AuthorEvent>, AuthorError> {
    let old = std::mem::replace(&mut a.doc, doc);
    a.undo.push((old, what));
    if a.undo.len() > UNDO_DEPTH {
        a.undo.remove(0);
    }
    a.redo.clear();
    clamp_cursor(a);
    a.checked = live::run(&a.doc);
    events.push(AuthorEvent::Checked(Box::new(a.checked.clone())));
    Ok(events)
}

fn clamp_cursor(a: &mut Authoring) {
    let n = edit::steps(&a.doc).map_or(0, Vec::len);
    if let Some(c) = &mut a.cursor {
        *c = (*c).min(n);
    }
}

/// Undo (`back`) or redo.
fn undo(a: &mut Authoring, back: bool) -> Result<Vec<AuthorEvent>, AuthorError> {
    let (from, to) = if back {
        (&mut a.undo, &mut a.redo)
    } else {
        (&mut a.redo, &mut a.undo)
    };
    let (doc, what) = from.pop().ok_or(if back {
        AuthorError::NothingToUndo
    } else {
        AuthorError::NothingToRedo
    })?;
    let old = std::mem::replace(&mut a.doc, doc);
    to.push((old, what.clone()));
    clamp_cursor(a);
    a.checked = live::run(&a.doc);
    let first = if back {
        AuthorEvent::Undone { what }
    } else {
        AuthorEvent::Redone { what }
    };
    Ok(vec![
        first,
        AuthorEvent::Checked(Box::new(a.checked.clone())),
    ])
}
