//! The fields of a lesson's items and annotations: markup, `hide`, points, titles, and the
//! bodies of `question` and `task` steps. Each gives back a [`FieldError`] under the item; the
//! lesson parser names the step and the item's key.

use crate::action::FieldError;
use crate::markup::Markup;
use crate::misconception::Misconception;
use crate::question::{Ask, Question, QUESTION_KEYS};
use crate::score::Scoring;
use crate::stream::StreamConfig;
use crate::target::{Affordance, Affordances};
use crate::task::{self, Task, TASK_KEYS};
use logtime_core::scenario::kind_of;
use logtime_model::config::KafkaVersion;
use serde_json::{Map, Value};

/// Parses markup text; an empty text is an error when `required`.
pub(super) fn markup(v: &Value, required: bool) -> Result<Markup, FieldError> {
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

pub(super) fn markups(v: &Value) -> Result<Vec<Markup>, FieldError> {
    let Value::Array(a) = v else {
        return Err((String::new(), "expected an array of markup texts".into()));
    };
    a.iter()
        .enumerate()
        .map(|(i, x)| markup(x, true).map_err(|(_, r)| (format!("[{i}]"), r)))
        .collect()
}

pub(super) fn hide(v: &Value) -> Result<Affordances, FieldError> {
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

pub(super) fn points(v: &Value) -> Result<u32, FieldError> {
    v.as_u64().filter(|n| *n <= 1000).map(|n| n as u32).ok_or((
        String::new(),
        format!("expected an integer from 0 to 1000, got {v}"),
    ))
}

pub(super) fn title(m: &Map<String, Value>) -> Result<Option<String>, FieldError> {
    match m.get("title") {
        None => Ok(None),
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.trim().to_string())),
        Some(_) => Err(("title".into(), "expected a non-empty string".into())),
    }
}

pub(super) fn body<'a>(v: &'a Value, keys: &[&str]) -> Result<&'a Map<String, Value>, FieldError> {
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

pub(super) fn sub<T>(field: &str, r: Result<T, FieldError>) -> Result<T, FieldError> {
    r.map_err(|(f, reason)| {
        let f = if f.is_empty() || f.starts_with('[') {
            format!("{field}{f}")
        } else {
            format!("{field}.{f}")
        };
        (f, reason)
    })
}

pub(super) fn question(
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
pub(super) fn wrong(v: &Value, kind: &Ask) -> Result<Vec<(Misconception, Markup)>, FieldError> {
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

pub(super) fn task(
    v: &Value,
    scoring: &Scoring,
    stream: Option<&StreamConfig>,
) -> Result<Task, FieldError> {
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
        Some(g) => sub("goal", crate::goal::Goal::parse_with(g, stream))?,
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
