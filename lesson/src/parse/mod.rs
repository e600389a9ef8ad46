//! Lesson files: a scenario file with a `lesson` object, `variants`, annotations on steps
//! (`narration`, `show`, `pause`) and three more step kinds (`note`, `question`, `task`).
//!
//! The model steps, stripped of their annotations, form a plain scenario that the scenario
//! parser reads (so the scenario format and its errors stay one), and its errors are given back
//! with the step index of the lesson file.

use super::action::FieldError;
use super::markup::Markup;
use super::question::{Ask, Question, QUESTION_KEYS};
use super::score::Scoring;
use super::target::{Affordance, Affordances, Target};
use super::task::{self, Task, TASK_KEYS};
use super::variant::{Pick, Variants};
use super::{Concrete, Item, LessonKind, LessonStep, Level, Meta, Postmortem};
use crate::misconception::Misconception;
use crate::stream::StreamConfig;
use logtime_core::scenario::{self, kind_of, ScenarioError, STEP_KINDS, TOP_LEVEL_KEYS};
use logtime_model::config::KafkaVersion;
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

/// Parses markup text; an empty text is an error when `required`.
pub(crate) fn markup(v: &Value, required: bool) -> Result<Markup, FieldError> {
    let Value::String(s) = v else {
        return Err((
            String::new(),
            format!("expected markup text, got {}", kind_of(v)),
        ));
    };
    let m = Markup::parse(s).map_err(|e| (String::new(), e.to_string()))?;
    if required && m.is_empty() {
        return Err((String::new(), "empty text".into()));
    }
    Ok(m)
}

fn markups(v: &Value) -> Result<Vec<Markup>, FieldError> {
    let Value::Array(a) = v else {
        return Err((String::new(), "expected an array of markup texts".into()));
    };
    a.iter()
        .enumerate()
        .map(|(i, x)| markup(x, true).map_err(|(_, r)| (format!("[{i}]"), r)))
        .collect()
}

fn hide(v: &Value) -> Result<Affordances, FieldError> {
    let Value::Array(a) = v else {
        return Err((String::new(), "expected an array of affordances".into()));
    };
    let mut out = Affordances::NONE;
    for (i, x) in a.iter().enumerate() {
        let key = x
            .as_str()
            .ok_or((format!("[{i}]"), "expected an affordance name".to_string()))?;
        out.insert(Affordance::parse(key).map_err(|r| (format!("[{i}]"), r))?);
    }
    Ok(out)
}

fn points(v: &Value) -> Result<u32, FieldError> {
    v.as_u64().filter(|n| *n <= 1000).map(|n| n as u32).ok_or((
        String::new(),
        format!("expected an integer from 0 to 1000, got {v}"),
    ))
}

fn title(m: &Map<String, Value>) -> Result<Option<String>, FieldError> {
    match m.get("title") {
        None => Ok(None),
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.trim().to_string())),
        Some(_) => Err(("title".into(), "expected a non-empty string".into())),
    }
}

fn body<'a>(v: &'a Value, keys: &[&str]) -> Result<&'a Map<String, Value>, FieldError> {
    let Value::Object(m) = v else {
        return Err((
            String::new(),
            format!("expected an object, got {}", kind_of(v)),
        ));
    };
    if let Some(k) = m.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err((
            k.clone(),
            format!("unknown key (expected: {})", keys.join(", ")),
        ));
    }
    Ok(m)
}

fn sub<T>(field: &str, r: Result<T, FieldError>) -> Result<T, FieldError> {
    r.map_err(|(f, reason)| {
        let f = if f.is_empty() || f.starts_with('[') {
            format!("{field}{f}")
        } else {
            format!("{field}.{f}")
        };
        (f, reason)
    })
}

fn question(
    v: &Value,
    scoring: &Scoring,
    stream: Option<&StreamConfig>,
) -> Result<Question, FieldError> {
    let m = body(v, QUESTION_KEYS)?;
    let ask =
        sub("ask", markup(m.get("ask").unwrap_or(&Value::Null), true)).map_err(|(f, r)| {
            if m.contains_key("ask") {
                (f, r)
            } else {
                (f, "missing: what the learner is asked (markup)".into())
            }
        })?;
    let kind = Ask::parse(m, stream)?;
    let kafka = match m.get("kafka") {
        None => None,
        Some(Value::String(s)) => Some(KafkaVersion::parse(s).ok_or_else(|| {
            (
                "kafka".to_string(),
                format!(
                    "unknown version {s:?} (expected {})",
                    KafkaVersion::keys_for_people()
                ),
            )
        })?),
        Some(_) => return Err(("kafka".into(), "expected a version string".into())),
    };
    let expect = match m.get("expect") {
        None => None,
        Some(x) => Some(
            kind.parse_answer(x)
                .map_err(|r| ("expect".to_string(), r))?,
        ),
    };
    Ok(Question {
        title: title(m)?.unwrap_or_else(|| kind.default_title()),
        ask,
        kafka,
        hints: m
            .get("hints")
            .map(|h| sub("hints", markups(h)))
            .transpose()?
            .unwrap_or_default(),
        reveal: m
            .get("reveal")
            .map(|r| sub("reveal", markup(r, true)))
            .transpose()?,
        wrong: m
            .get("wrong")
            .map(|w| wrong(w, &kind))
            .transpose()?
            .unwrap_or_default(),
        expect,
        points: m
            .get("points")
            .map(|p| sub("points", points(p)))
            .transpose()?
            .unwrap_or(scoring.points),
        hide: m
            .get("hide")
            .map(|h| sub("hide", hide(h)))
            .transpose()?
            .unwrap_or_else(|| kind.default_hide()),
        kind,
    })
}

/// A question's `wrong` object: the author's words for classes of wrong answer this kind of
/// question can name.
fn wrong(v: &Value, kind: &Ask) -> Result<Vec<(Misconception, Markup)>, FieldError> {
    let Value::Object(o) = v else {
        return Err((
            "wrong".into(),
            "expected an object from a class of wrong answer to its text, like {\"behind_pinning\": \"...\"}".into(),
        ));
    };
    let classes = crate::grade::classes_of(kind);
    let mut out = Vec::with_capacity(o.len());
    for (k, text) in o {
        let at = format!("wrong.{k}");
        let c = Misconception::parse(k).map_err(|r| (at.clone(), r))?;
        if !classes.contains(&c) {
            return Err((
                at,
                format!(
                    "this kind of question never gives a {k} answer (it can give: {})",
                    classes
                        .iter()
                        .map(|c| c.key())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        out.push((c, sub(&at, markup(text, true))?));
    }
    Ok(out)
}

fn task(v: &Value, scoring: &Scoring, stream: Option<&StreamConfig>) -> Result<Task, FieldError> {
    let m = body(v, TASK_KEYS)?;
    let ask = match m.get("ask") {
        None => {
            return Err((
                "ask".into(),
                "missing: what the learner is asked to do (markup)".into(),
            ))
        }
        Some(a) => sub("ask", markup(a, true))?,
    };
    let goal = match m.get("goal") {
        None => {
            return Err((
                "goal".into(),
                "missing: the condition that says the task is done".into(),
            ))
        }
        Some(g) => sub("goal", super::goal::Goal::parse_with(g, stream))?,
    };
    let solution = match m.get("solution") {
        None => return Err(("solution".into(), "missing: the actions that reach the goal (shown on reveal and checked by logtime check)".into())),
        Some(s) => sub("solution", task::solution(s))?,
    };
    Ok(Task {
        title: title(m)?.unwrap_or_else(|| "Reach the goal".into()),
        ask,
        goal,
        hints: m
            .get("hints")
            .map(|h| sub("hints", markups(h)))
            .transpose()?
            .unwrap_or_default(),
        solution,
        reveal: m
            .get("reveal")
            .map(|r| sub("reveal", markup(r, true)))
            .transpose()?,
        points: m
            .get("points")
            .map(|p| sub("points", points(p)))
            .transpose()?
            .unwrap_or(scoring.points),
        hide: m
            .get("hide")
            .map(|h| sub("hide", hide(h)))
            .transpose()?
            .unwrap_or_else(task::default_hide),
    })
}

fn meta(v: Option<&Value>) -> R<(Meta, bool)> {
    let e = |f: &str, r: String| err(None, format!("lesson{f}"), r);
    let Some(v) = v else {
        return Ok((Meta::default(), false));
    };
    let m = body(v, LESSON_KEYS)
        .map_err(|(f, r)| e(&if f.is_empty() { f } else { format!(".{f}") }, r))?;
    let mut meta = Meta::default();
    if let Some(k) = m.get("kind") {
        meta.kind = match k.as_str() {
            Some("walkthrough") => LessonKind::Walkthrough,
            Some("drill") => LessonKind::Drill,
            _ => return Err(e(".kind", "expected \"walkthrough\" or \"drill\"".into())),
        };
    }
    if let Some(s) = m.get("summary") {
        meta.summary = Some(markup(s, true).map_err(|(_, r)| e(".summary", r))?);
    }
    if let Some(l) = m.get("level") {
        meta.level = Some(match l.as_str() {
            Some("intro") => Level::Intro,
            Some("intermediate") => Level::Intermediate,
            Some("advanced") => Level::Advanced,
            _ => {
                return Err(e(
                    ".level",
                    "expected \"intro\", \"intermediate\" or \"advanced\"".into(),
                ))
            }
        });
    }
    if let Some(n) = m.get("minutes") {
        meta.minutes = Some(
            n.as_u64()
                .filter(|n| (1..=600).contains(n))
                .ok_or_else(|| {
                    e(
                        ".minutes",
                        format!("expected an integer from 1 to 600, got {n}"),
                    )
                })? as u32,
        );
    }
    if let Some(n) = m.get("opens_at") {
        meta.opens_at = n
            .as_u64()
            .ok_or_else(|| e(".opens_at", format!("expected a step index, got {n}")))?
            as usize;
    }
    if let Some(p) = m.get("postmortem") {
        let Value::Object(o) = p else {
            return Err(e(
                ".postmortem",
                "expected {\"what_happened\", \"why\", \"fix\"}, each in markup".into(),
            ));
        };
        if let Some(k) = o.keys().find(|k| !POSTMORTEM_KEYS.contains(&k.as_str())) {
            return Err(e(
                &format!(".postmortem.{k}"),
                format!("unknown key (expected: {})", POSTMORTEM_KEYS.join(", ")),
            ));
        }
        let mut parts = Vec::with_capacity(3);
        for k in POSTMORTEM_KEYS {
            let text = o.get(*k).ok_or_else(|| {
                e(
                    &format!(".postmortem.{k}"),
                    "missing (a post-mortem says what happened, why, and the fix)".into(),
                )
            })?;
            parts.push(markup(text, true).map_err(|(_, r)| e(&format!(".postmortem.{k}"), r))?);
        }
        let mut parts = parts.into_iter();
        meta.postmortem = Some(Postmortem {
            what_happened: parts.next().expect("three parts"),
            why: parts.next().expect("three parts"),
            fix: parts.next().expect("three parts"),
        });
    }
    if let Some(s) = m.get("scoring") {
        let Value::Object(o) = s else {
            return Err(e(
                ".scoring",
                "expected {\"points\", \"hint_cost\", \"wrong_cost\"}".into(),
            ));
        };
        for (k, x) in o {
            let n = points(x).map_err(|(_, r)| e(&format!(".scoring.{k}"), r))?;
            match k.as_str() {
                "points" => meta.scoring.points = n,
                "hint_cost" => meta.scoring.hint_cost = n,
                "wrong_cost" => meta.scoring.wrong_cost = n,
                _ => {
                    return Err(e(
                        &format!(".scoring.{k}"),
                        "unknown key (expected: points, hint_cost, wrong_cost)".into(),
                    ))
                }
            }
        }
    }
    Ok((meta, true))
}

/// Parses the JSON text into a value, with the scenario parser's errors for syntax.
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
    let stream = match top.get("stream") {
        None => None,
        Some(v) => Some(crate::stream::section::parse(v, None).map_err(|(f, r)| {
            err(
                None,
                if f.is_empty() {
                    "stream".to_string()
                } else {
                    format!("stream.{f}")
                },
                r,
            )
        })?),
    };
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
    let all_kinds = || {
        STEP_KINDS
            .iter()
            .chain(LESSON_STEP_KINDS)
            .copied()
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut model_steps = Vec::new();
    let mut file_index = Vec::new();
    let mut steps = Vec::with_capacity(raw_steps.len());
    let mut annotated = false;
    for (i, s) in raw_steps.into_iter().enumerate() {
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
        let kinds: Vec<&String> = m
            .keys()
            .filter(|k| !ANNOTATION_KEYS.contains(&k.as_str()))
            .collect();
        let [kind] = kinds[..] else {
            return Err(e(
                "",
                format!(
                    "a step must have exactly one key (one of: {}) besides narration, show and pause, found {} ({})",
                    all_kinds(),
                    kinds.len(),
                    if kinds.is_empty() { "none".to_string() } else { kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ") }
                ),
            ));
        };
        let v = &m[kind];
        let mut narration = match m.get("narration") {
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
        annotated |= m.len() > 1;
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
                question(v, &meta.scoring, stream.as_ref())
                    .map_err(|fe| item_err(i, "question", fe))?,
            )),
            "task" => Item::Task(Box::new(
                task(v, &meta.scoring, stream.as_ref()).map_err(|fe| item_err(i, "task", fe))?,
            )),
            k if STEP_KINDS.contains(&k) => {
                let kind = kind.clone();
                let body = m.remove(&kind).expect("the step's key");
                let mut plain = Map::new();
                plain.insert(kind, body);
                model_steps.push(Value::Object(plain));
                file_index.push(i);
                Item::Model {
                    scenario_step: model_steps.len() - 1,
                }
            }
            other => {
                return Err(e(
                    other,
                    format!("unknown step kind (expected one of: {})", all_kinds()),
                ));
            }
        };
        annotated |= !matches!(item, Item::Model { .. });
        steps.push(LessonStep {
            index: i,
            item,
            narration,
            show,
            pause,
        });
    }
    let mut plain = top;
    for k in LESSON_TOP_LEVEL_KEYS {
        plain.remove(*k);
    }
    if steps_is_array {
        plain.insert("steps".into(), Value::Array(model_steps));
    }
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
