//! Edits to the document: steps moved, deleted, duplicated, narrated, highlighted, paused; notes,
//! questions and tasks inserted; the `lesson` object, variants and any value set. Each works on
//! a copy the caller keeps only when the edit succeeds.

use super::error::{invalid, AuthorError};
use super::spec::{ask_json, goal_json, variable_json, MetaEdit, QuestionEdit};
use super::view::kind_of;
use super::{group, AuthorCommand, AuthorEvent};
use crate::{Affordance, Target};
use serde_json::{json, Map, Value};

/// What an edit was (for undo) and its events.
pub(crate) type Change = (String, Vec<AuthorEvent>);

/// The steps.
pub(crate) fn steps(doc: &Value) -> Result<&Vec<Value>, AuthorError> {
    match doc.get("steps") {
        Some(Value::Array(a)) => Ok(a),
        _ => Err(invalid(
            "steps",
            "is not a list of steps; fix the file first",
        )),
    }
}

pub(crate) fn steps_mut(doc: &mut Value) -> Result<&mut Vec<Value>, AuthorError> {
    match doc.get_mut("steps") {
        Some(Value::Array(a)) => Ok(a),
        _ => Err(invalid(
            "steps",
            "is not a list of steps; fix the file first",
        )),
    }
}

/// The 0-based index of step `step` (1-based), which must exist.
fn index(doc: &Value, field: &'static str, step: usize) -> Result<usize, AuthorError> {
    let n = steps(doc)?.len();
    if step == 0 || step > n {
        return Err(AuthorError::NoSuchStep {
            field,
            step,
            steps: n,
        });
    }
    Ok(step - 1)
}

/// The 0-based insertion index of a new step `at` (1 to steps + 1).
pub(crate) fn position(doc: &Value, at: usize) -> Result<usize, AuthorError> {
    let n = steps(doc)?.len();
    if at == 0 || at > n + 1 {
        return Err(AuthorError::NoSuchStep {
            field: "at",
            step: at,
            steps: n,
        });
    }
    Ok(at - 1)
}

/// Inserts `new` at 0-based `k`.
pub(crate) fn insert(
    doc: &mut Value,
    k: usize,
    new: Vec<Value>,
) -> Result<Vec<AuthorEvent>, AuthorError> {
    let s = steps_mut(doc)?;
    let k = k.min(s.len());
    let mut events = Vec::new();
    for (i, v) in new.into_iter().enumerate() {
        events.push(AuthorEvent::StepAdded {
            step: k + i + 1,
            kind: kind_of(&v).unwrap_or("?").into(),
        });
        s.insert(k + i, v);
    }
    Ok(events)
}

fn step_mut<'a>(
    doc: &'a mut Value,
    field: &'static str,
    step: usize,
) -> Result<&'a mut Map<String, Value>, AuthorError> {
    let i = index(doc, field, step)?;
    match &mut steps_mut(doc)?[i] {
        Value::Object(m) => Ok(m),
        _ => Err(invalid(
            format!("steps[{i}]"),
            "is not an object; delete it or fix the file",
        )),
    }
}

fn changed(what: String, step: usize) -> Result<Change, AuthorError> {
    Ok((what, vec![AuthorEvent::StepChanged { step }]))
}

/// Carries out an edit.
pub(crate) fn edit(doc: &mut Value, cmd: AuthorCommand) -> Result<Change, AuthorError> {
    match cmd {
        AuthorCommand::Move { from, to } => move_step(doc, from, to),
        AuthorCommand::Delete { step } => {
            let i = index(doc, "step", step)?;
            steps_mut(doc)?.remove(i);
            Ok((
                format!("deleted step {step}"),
                vec![AuthorEvent::StepDeleted { step }],
            ))
        }
        AuthorCommand::Duplicate { step } => {
            let i = index(doc, "step", step)?;
            let copy = steps(doc)?[i].clone();
            let events = insert(doc, i + 1, vec![copy])?;
            Ok((format!("duplicated step {step}"), events))
        }
        AuthorCommand::Group { first, last } => group::group(doc, first, last),
        AuthorCommand::MakeTask {
            first,
            last,
            goal,
            text,
        } => group::make_task(doc, (first, last), &goal, text),
        AuthorCommand::SetNarration { step, text } => narration(doc, step, text),
        AuthorCommand::SetHighlights { step, targets } => highlights(doc, step, &targets),
        AuthorCommand::SetPause { step, pause } => set_pause(doc, step, pause),
        AuthorCommand::AddNote { at, text } => {
            let k = position(doc, at)?;
            let events = insert(doc, k, vec![json!({ "note": text })])?;
            Ok((format!("added a note as step {at}"), events))
        }
        AuthorCommand::AddQuestion {
            at,
            ask,
            pointing,
            text,
        } => {
            let k = position(doc, at)?;
            let (key, body) = ask_json(&ask, pointing.as_ref())?;
            let mut q = Map::new();
            q.insert("ask".into(), json!(text));
            q.insert(key.into(), body);
            let events = insert(doc, k, vec![json!({ "question": q })])?;
            Ok((format!("added a {key} question as step {at}"), events))
        }
        AuthorCommand::EditQuestion { step, edit } => item_edit(doc, step, edit),
        AuthorCommand::SetVariant { name, variable } => variant(doc, name, variable),
        AuthorCommand::SetValue { pointer, value } => set_value(doc, &pointer, value),
        AuthorCommand::SetMeta(m) => meta(doc, m),
        AuthorCommand::Vary {
            pointer,
            name,
            values,
        } => super::vary::vary(doc, &pointer, &name, &values),
        AuthorCommand::Unvary { name } => super::vary::unvary(doc, &name),
        AuthorCommand::Record(_)
        | AuthorCommand::RecordAfter(_)
        | AuthorCommand::AddTask { .. }
        | AuthorCommand::Undo
        | AuthorCommand::Redo => Err(invalid("command", "is not an edit")),
    }
}

fn move_step(doc: &mut Value, from: usize, to: usize) -> Result<Change, AuthorError> {
    let f = index(doc, "from", from)?;
    let t = index(doc, "to", to)?;
    let s = steps_mut(doc)?;
    let v = s.remove(f);
    s.insert(t, v);
    Ok((
        format!("moved step {from} to {to}"),
        vec![AuthorEvent::StepMoved { from, to }],
    ))
}

fn highlights(doc: &mut Value, step: usize, targets: &[Target]) -> Result<Change, AuthorError> {
    let m = step_mut(doc, "step", step)?;
    if targets.is_empty() {
        m.remove("show");
    } else {
        let t: Vec<Value> = targets.iter().map(|t| json!(t.to_string())).collect();
        m.insert("show".into(), Value::Array(t));
    }
    changed(format!("changed what step {step} highlights"), step)
}

fn set_pause(doc: &mut Value, step: usize, pause: bool) -> Result<Change, AuthorError> {
    let m = step_mut(doc, "step", step)?;
    if pause {
        m.insert("pause".into(), json!(true));
    } else {
        m.remove("pause");
    }
    changed(format!("set the pause after step {step}"), step)
}

fn narration(doc: &mut Value, step: usize, text: String) -> Result<Change, AuthorError> {
    let m = step_mut(doc, "step", step)?;
    if m.contains_key("note") {
        m.insert("note".into(), json!(text));
    } else if text.trim().is_empty() {
        m.remove("narration");
    } else {
        m.insert("narration".into(), json!(text));
    }
    changed(format!("changed the narration of step {step}"), step)
}

/// A task inserted at 0-based `k`.
pub(crate) fn add_task(
    doc: &mut Value,
    k: usize,
    goal: &[super::GoalSpec],
    solution: Value,
    text: String,
) -> Result<Change, AuthorError> {
    let task = json!({"task": {"ask": text, "goal": goal_json(goal)?, "solution": solution}});
    let events = insert(doc, k, vec![task])?;
    Ok((format!("added a task as step {}", k + 1), events))
}

fn item_edit(doc: &mut Value, step: usize, edit: QuestionEdit) -> Result<Change, AuthorError> {
    let m = step_mut(doc, "step", step)?;
    let key = if m.contains_key("question") {
        "question"
    } else if m.contains_key("task") {
        "task"
    } else {
        return Err(AuthorError::WrongKind {
            step,
            expected: "a question or a task",
            found: kind_of(&Value::Object(m.clone())).unwrap_or("?").into(),
        });
    };
    let Some(Value::Object(body)) = m.get_mut(key) else {
        return Err(invalid(format!("step {step}: {key}"), "is not an object"));
    };
    let set = |b: &mut Map<String, Value>, k: &str, v: Option<Value>| match v {
        Some(v) => {
            b.insert(k.into(), v);
        }
        None => {
            b.remove(k);
        }
    };
    match edit {
        QuestionEdit::Ask(t) => set(body, "ask", Some(json!(t))),
        QuestionEdit::Title(t) => set(body, "title", t.map(|t| json!(t))),
        QuestionEdit::Reveal(t) => set(body, "reveal", t.map(|t| json!(t))),
        QuestionEdit::Points(p) => set(body, "points", p.map(|p| json!(p))),
        QuestionEdit::Hide(h) => set(
            body,
            "hide",
            h.map(|h| Value::Array(h.iter().map(|a| json!(Affordance::key(*a))).collect())),
        ),
        QuestionEdit::AddHint(t) => hints(body, step)?.push(json!(t)),
        QuestionEdit::EditHint { index, text } => {
            let h = hints(body, step)?;
            let n = h.len();
            *h.get_mut(index)
                .ok_or_else(|| no_hint(step, key, index, n))? = json!(text);
        }
        QuestionEdit::RemoveHint(index) => {
            let h = hints(body, step)?;
            if index >= h.len() {
                return Err(no_hint(step, key, index, h.len()));
            }
            h.remove(index);
            if h.is_empty() {
                body.remove("hints");
            }
        }
        QuestionEdit::Wrong { class, text } if key == "question" => {
            let w = body.entry("wrong").or_insert_with(|| json!({}));
            let Value::Object(w) = w else {
                return Err(invalid(
                    format!("step {step}: question.wrong"),
                    "is not an object",
                ));
            };
            set(w, &class, text.map(|t| json!(t)));
            if w.is_empty() {
                body.remove("wrong");
            }
        }
        QuestionEdit::Expect(v) if key == "question" => set(body, "expect", v),
        QuestionEdit::Wrong { .. } | QuestionEdit::Expect(_) => {
            return Err(AuthorError::WrongKind {
                step,
                expected: "a question (a task has no wrong-answer classes or stated answer)",
                found: "task".into(),
            })
        }
    }
    changed(format!("edited the {key} of step {step}"), step)
}

fn hints(body: &mut Map<String, Value>, step: usize) -> Result<&mut Vec<Value>, AuthorError> {
    match body.entry("hints").or_insert_with(|| json!([])) {
        Value::Array(h) => Ok(h),
        _ => Err(invalid(format!("step {step}: hints"), "is not a list")),
    }
}

fn no_hint(step: usize, key: &str, index: usize, n: usize) -> AuthorError {
    invalid(
        format!("step {step}: {key}.hints[{index}]"),
        format!("there is no such hint (it has {n})"),
    )
}

fn root(doc: &mut Value) -> Result<&mut Map<String, Value>, AuthorError> {
    doc.as_object_mut()
        .ok_or_else(|| invalid("", "the file is not an object"))
}

fn variant(
    doc: &mut Value,
    name: String,
    v: Option<super::VariableSpec>,
) -> Result<Change, AuthorError> {
    let field = format!("variants.{name}");
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(invalid(field, "a variable's name is letters, digits and _"));
    }
    let r = root(doc)?;
    match v {
        Some(v) => {
            let value = variable_json(&v)?;
            let vs = r.entry("variants").or_insert_with(|| json!({}));
            let Value::Object(vs) = vs else {
                return Err(invalid("variants", "is not an object"));
            };
            vs.insert(name.clone(), value);
        }
        None => {
            if let Some(Value::Object(vs)) = r.get_mut("variants") {
                vs.remove(&name);
                if vs.is_empty() {
                    r.remove("variants");
                }
            }
        }
    }
    Ok((
        format!("set the variable {name}"),
        vec![AuthorEvent::FileChanged {
            key: "variants".into(),
        }],
    ))
}

fn set_value(doc: &mut Value, pointer: &str, value: Option<Value>) -> Result<Change, AuthorError> {
    let bad = |r: &str| invalid(format!("pointer {pointer:?}"), r.to_string());
    let (parent, last) = pointer
        .rsplit_once('/')
        .filter(|(p, _)| p.is_empty() || p.starts_with('/'))
        .ok_or_else(|| bad("a pointer starts with / and names a key (/topic/retention.ms)"))?;
    let last = last.replace("~1", "/").replace("~0", "~");
    let top = pointer.split('/').nth(1).unwrap_or_default().to_string();
    let target = doc
        .pointer_mut(parent)
        .ok_or_else(|| bad("its parent is not in the file"))?;
    match (target, value) {
        (Value::Object(m), Some(v)) => {
            m.insert(last, v);
        }
        (Value::Object(m), None) => {
            m.remove(&last);
        }
        (Value::Array(a), v) => {
            let i: usize = last
                .parse()
                .map_err(|_| bad("a list is indexed by a number"))?;
            match v {
                Some(v) if i < a.len() => a[i] = v,
                None if i < a.len() => {
                    a.remove(i);
                }
                _ => return Err(bad("the index is past the end of the list")),
            }
        }
        _ => return Err(bad("its parent is neither an object nor a list")),
    }
    if steps(doc).is_err() {
        return Err(bad("the file must keep its list of steps"));
    }
    Ok((
        format!("set {pointer}"),
        vec![AuthorEvent::FileChanged { key: top }],
    ))
}

fn meta(doc: &mut Value, edit: MetaEdit) -> Result<Change, AuthorError> {
    let r = root(doc)?;
    let (key, v) = match edit {
        MetaEdit::Title(t) => {
            match t {
                Some(t) => r.insert("title".into(), json!(t)),
                None => r.remove("title"),
            };
            return Ok((
                "changed the title".into(),
                vec![AuthorEvent::FileChanged {
                    key: "title".into(),
                }],
            ));
        }
        MetaEdit::Kind(k) => ("kind", Some(json!(k.key()))),
        MetaEdit::Summary(s) => ("summary", s.map(|s| json!(s))),
        MetaEdit::Level(l) => ("level", l.map(|l| json!(l.key()))),
        MetaEdit::Minutes(Some(m)) if !(1..=600).contains(&m) => {
            return Err(invalid(
                "lesson.minutes",
                format!("{m} is not from 1 to 600"),
            ))
        }
        MetaEdit::Minutes(m) => ("minutes", m.map(|m| json!(m))),
    };
    let l = r.entry("lesson").or_insert_with(|| json!({}));
    let Value::Object(l) = l else {
        return Err(invalid("lesson", "is not an object"));
    };
    match v {
        Some(v) => l.insert(key.into(), v),
        None => l.remove(key),
    };
    Ok((
        format!("changed lesson.{key}"),
        vec![AuthorEvent::FileChanged {
            key: "lesson".into(),
        }],
    ))
}
