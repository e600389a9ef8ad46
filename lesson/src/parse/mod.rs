//! Lesson files: a scenario file with a `lesson` object, `variants`, annotations on steps
//! (`narration`, `show`, `pause`) and three more step kinds (`note`, `question`, `task`).
//!
//! The model steps, stripped of their annotations, form a plain scenario that the scenario
//! parser reads (so the scenario format and its errors stay one), and its errors are given back
//! with the step index of the lesson file.

mod item;
mod meta;

use super::action::FieldError;
use super::markup::Markup;
use super::target::Target;
use super::variant::{Pick, Variants};
use super::{Concrete, Item, LessonKind, LessonStep, Meta};
use crate::stream::StreamConfig;
use item::{markup, question, task};
use logtime_core::scenario::{self, kind_of, ScenarioError, STEP_KINDS, TOP_LEVEL_KEYS};
use meta::meta;
use serde_json::{Map, Value};

/// The keys a lesson adds to a scenario's top level.
pub const LESSON_TOP_LEVEL_KEYS: &[&str] = &["lesson", "variants", "stream"];

/// The keys of the `lesson` object.
pub const LESSON_KEYS: &[&str] = &[
    "kind",
    "summary",
    "level",
    "minutes",
    "opens_at",
    "scoring",
    "postmortem",
];

/// The keys of a lesson's `postmortem` object, in the order a post-mortem reads.
pub const POSTMORTEM_KEYS: &[&str] = &["what_happened", "why", "fix"];

/// The step kinds a lesson adds.
pub const LESSON_STEP_KINDS: &[&str] = &["note", "question", "task"];

/// The keys any step may carry beside its kind.
pub const ANNOTATION_KEYS: &[&str] = &["narration", "show", "pause"];

type R<T> = Result<T, ScenarioError>;

fn err(step: Option<usize>, field: impl Into<String>, reason: impl Into<String>) -> ScenarioError {
    ScenarioError {
        step,
        field: field.into(),
        reason: reason.into(),
        line_column: None,
    }
}

/// An item error (`(field under the item, reason)`) named from the step and the item's key.
fn item_err(step: usize, prefix: &str, (f, r): FieldError) -> ScenarioError {
    let field = if f.is_empty() {
        prefix.to_string()
    } else if f.starts_with('[') || f.starts_with('.') {
        format!("{prefix}{f}")
    } else {
        format!("{prefix}.{f}")
    };
    err(Some(step), field, r)
}

/// Whether `json` is shaped like a lesson file rather than a plain scenario: a top-level
/// `lesson`, `variants` or `stream`, or a step of a lesson kind ([`LESSON_STEP_KINDS`]) or with
/// an annotation ([`ANNOTATION_KEYS`]). Only the shape is read, nothing is checked: `false` for
/// text that is not a JSON object (or is over the size limit). It tells a lesson file from a
/// plain scenario without parsing it as a lesson (the built-ins' table is held to it).
pub fn is_lesson_file(json: &str) -> bool {
    if scenario::check_size(json).is_err() {
        return false;
    }
    let Ok(Value::Object(m)) = serde_json::from_str::<Value>(json) else {
        return false;
    };
    if LESSON_TOP_LEVEL_KEYS.iter().any(|k| m.contains_key(*k)) {
        return true;
    }
    let Some(Value::Array(steps)) = m.get("steps") else {
        return false;
    };
    steps.iter().any(|step| {
        step.as_object().is_some_and(|o| {
            o.keys().any(|k| {
                LESSON_STEP_KINDS.contains(&k.as_str()) || ANNOTATION_KEYS.contains(&k.as_str())
            })
        })
    })
}

/// Parses the JSON text into a value, with the scenario parser's errors for syntax.
pub(crate) fn root(json: &str) -> R<Value> {
    scenario::check_size(json)?;
    let v: Value = match scenario::strict::from_str(json) {
        Ok(v) => v,
        // The scenario parser words syntax errors with line and column.
        Err(_) => return Err(scenario::parse(json).expect_err("invalid JSON is an error")),
    };
    let Value::Object(m) = &v else {
        return Err(err(
            None,
            "",
            format!("a scenario is a JSON object, not {}", kind_of(&v)),
        ));
    };
    if let Some(k) = m.keys().find(|k| {
        !TOP_LEVEL_KEYS.contains(&k.as_str()) && !LESSON_TOP_LEVEL_KEYS.contains(&k.as_str())
    }) {
        let all: Vec<&str> = TOP_LEVEL_KEYS
            .iter()
            .chain(LESSON_TOP_LEVEL_KEYS)
            .copied()
            .collect();
        return Err(err(
            None,
            k.clone(),
            format!(
                "unknown top-level key (expected one of: {})",
                all.join(", ")
            ),
        ));
    }
    Ok(v)
}

/// Builds one variant of a lesson: the values put in, the items parsed, the model steps parsed
/// as a scenario.
pub(crate) fn instantiate(raw: &Value, variants: &Variants, pick: Pick) -> R<Concrete> {
    instantiate_owned(raw.clone(), variants, pick)
}

/// [`instantiate`] from a tree it may take apart: the model steps are moved, not copied, into
/// the plain scenario (a file of 100,000 steps is held once).
pub(crate) fn instantiate_owned(mut root: Value, variants: &Variants, pick: Pick) -> R<Concrete> {
    let mut variant = variants.pick(pick);
    variant.substitute(&mut root)?;
    let Value::Object(mut top) = root else {
        unreachable!("checked by root()")
    };
    let (meta, declared) = meta(top.get("lesson"))?;
    let stream = stream_section(top.get("stream"))?;
    let steps_is_array = top.get("steps").is_some_and(Value::is_array);
    let raw_steps = match top.remove("steps") {
        Some(Value::Array(a)) => a,
        // The scenario parser reports a missing or malformed `steps`.
        Some(other) => {
            top.insert("steps".into(), other);
            Vec::new()
        }
        None => Vec::new(),
    };
    let mut model = ModelSteps::default();
    let mut steps = Vec::with_capacity(raw_steps.len());
    let mut annotated = false;
    for (i, s) in raw_steps.into_iter().enumerate() {
        let (step, authored) = lesson_step(i, s, &meta, stream.as_ref(), &mut model)?;
        annotated |= authored;
        steps.push(step);
    }
    let mut plain = top;
    for k in LESSON_TOP_LEVEL_KEYS {
        plain.remove(*k);
    }
    if steps_is_array {
        plain.insert("steps".into(), Value::Array(model.steps));
    }
    let file_index = model.file_index;
    let scenario = scenario::parse_value(Value::Object(plain)).map_err(|mut e| {
        e.step = e.step.map(|k| file_index.get(k).copied().unwrap_or(k));
        e
    })?;
    if meta.opens_at > steps.len() {
        return Err(err(
            None,
            "lesson.opens_at",
            format!(
                "step {} does not exist (the lesson has {})",
                meta.opens_at,
                scenario::narrate::count(steps.len() as u64, "step", "steps")
            ),
        ));
    }
    drill_opens_before_its_items(&meta, &steps)?;
    Ok(Concrete {
        meta,
        is_lesson: declared || annotated || stream.is_some() || !variants.variables().is_empty(),
        stream,
        variant,
        scenario,
        steps,
    })
}

/// The model steps of a lesson file, as a plain scenario's `steps`, and each one's index in
/// the file (so that the scenario parser's errors name the file's step).
#[derive(Default)]
struct ModelSteps {
    steps: Vec<Value>,
    file_index: Vec<usize>,
}

/// The lesson's `stream` section, if it has one; errors are named under `stream`.
fn stream_section(v: Option<&Value>) -> R<Option<StreamConfig>> {
    let Some(v) = v else {
        return Ok(None);
    };
    crate::stream::section::parse(v, None)
        .map(Some)
        .map_err(|(f, r)| {
            err(
                None,
                if f.is_empty() {
                    "stream".to_string()
                } else {
                    format!("stream.{f}")
                },
                r,
            )
        })
}

/// Every step kind a lesson file may use, for errors.
fn all_kinds() -> String {
    STEP_KINDS
        .iter()
        .chain(LESSON_STEP_KINDS)
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

/// Step `i` of the file: its item (a model step goes to `model`) and its annotations, and
/// whether it is authored (annotated or of a lesson kind).
fn lesson_step(
    i: usize,
    s: Value,
    meta: &Meta,
    stream: Option<&StreamConfig>,
    model: &mut ModelSteps,
) -> R<(LessonStep, bool)> {
    let e = |f: &str, r: String| err(Some(i), f, r);
    let Value::Object(mut m) = s else {
        return Err(e(
            "",
            format!(
                "a step is an object with exactly one key, got {}",
                kind_of(&s)
            ),
        ));
    };
    let kind = step_kind(i, &m)?;
    let v = &m[&kind];
    let (mut narration, show, pause) = annotations(i, &m)?;
    let mut authored = m.len() > 1;
    let item = match kind.as_str() {
        "note" => {
            if narration.is_some() {
                return Err(e(
                    "narration",
                    "a note's text is its body; narration is for the other steps".into(),
                ));
            }
            narration = Some(markup(v, true).map_err(|(_, r)| e("note", r))?);
            Item::Note
        }
        "question" => Item::Question(Box::new(
            question(v, &meta.scoring, stream).map_err(|fe| item_err(i, "question", fe))?,
        )),
        "task" => Item::Task(Box::new(
            task(v, &meta.scoring, stream).map_err(|fe| item_err(i, "task", fe))?,
        )),
        k if STEP_KINDS.contains(&k) => {
            let body = m.remove(&kind).expect("the step's key");
            let mut plain = Map::new();
            plain.insert(kind, body);
            model.steps.push(Value::Object(plain));
            model.file_index.push(i);
            Item::Model {
                scenario_step: model.steps.len() - 1,
            }
        }
        other => {
            return Err(e(
                other,
                format!("unknown step kind (expected one of: {})", all_kinds()),
            ));
        }
    };
    authored |= !matches!(item, Item::Model { .. });
    let step = LessonStep {
        index: i,
        item,
        narration,
        show,
        pause,
    };
    Ok((step, authored))
}

/// The one key of step `i` that is not an annotation: its kind.
fn step_kind(i: usize, m: &Map<String, Value>) -> R<String> {
    let kinds: Vec<&String> = m
        .keys()
        .filter(|k| !ANNOTATION_KEYS.contains(&k.as_str()))
        .collect();
    let [kind] = kinds[..] else {
        return Err(err(
            Some(i),
            "",
            format!(
                "a step must have exactly one key (one of: {}) besides narration, show and pause, found {} ({})",
                all_kinds(),
                kinds.len(),
                if kinds.is_empty() { "none".to_string() } else { kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ") }
            ),
        ));
    };
    Ok(kind.clone())
}

/// Step `i`'s annotations: its narration, what it shows and whether it pauses.
fn annotations(i: usize, m: &Map<String, Value>) -> R<(Option<Markup>, Vec<Target>, bool)> {
    let e = |f: &str, r: String| err(Some(i), f, r);
    let narration = match m.get("narration") {
        None => None,
        Some(n) => Some(markup(n, true).map_err(|(_, r)| e("narration", r))?),
    };
    let show = match m.get("show") {
        None => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(k, t)| match t {
                Value::String(t) => Target::parse(t).map_err(|r| e(&format!("show[{k}]"), r)),
                _ => Err(e(
                    &format!("show[{k}]"),
                    "expected a target like \"segment:20000\"".into(),
                )),
            })
            .collect::<R<Vec<_>>>()?,
        Some(_) => {
            return Err(e(
                "show",
                "expected an array of targets like \"segment:20000\"".into(),
            ))
        }
    };
    let pause = match m.get("pause") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(e("pause", "expected true or false".into())),
    };
    Ok((narration, show, pause))
}

/// A drill that opens past every question and task would be scored out of nothing: its items
/// are applied before the learner sees them.
fn drill_opens_before_its_items(meta: &Meta, steps: &[LessonStep]) -> R<()> {
    if meta.kind != LessonKind::Drill || meta.opens_at == 0 {
        return Ok(());
    }
    let scored = |s: &LessonStep| matches!(s.item, Item::Question(_) | Item::Task(_));
    let Some(last) = steps.iter().rposition(scored) else {
        return Ok(());
    };
    if meta.opens_at > last {
        return Err(err(
            None,
            "lesson.opens_at",
            format!(
                "step {} lies past every question and task of the drill (the last is step {}); a drill opens at or before the items it scores",
                meta.opens_at, last
            ),
        ));
    }
    Ok(())
}
