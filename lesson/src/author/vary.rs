//! Making a value of the draft a variable without writing JSON: the values an author may vary
//! (a topic config at the start, a config a step sets, a recorded record's timestamp) are
//! listed with a suggested name; [`AuthorCommand::Vary`](super::AuthorCommand::Vary) takes the
//! values as typed (a list, or a range), declares the variable and puts `"$name"` in place in
//! one change (one undo); [`AuthorCommand::Unvary`](super::AuthorCommand::Unvary) removes it
//! and writes the value the lesson was written with back in every place it was used.
//!
//! The variable is read by the lesson's own `variants` parser before it goes in, so a value the
//! grammar cannot read is refused with the parser's words at `variants.<name>.<key>`.

use super::edit::Change;
use super::error::{invalid, AuthorError};
use super::spec::{variable_json, VariableSpec};
use super::AuthorEvent;
use crate::variant::Variants;
use serde_json::{json, Map, Value};

/// How an author gives a variable's values, as typed in the pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VaryValues {
    /// Values separated by commas (`1d, 4d`); the first is the one the lesson is written with.
    List(String),
    /// From, to and step: numbers, durations (`1d`) or RFC 3339 times.
    Range {
        /// The first value.
        from: String,
        /// The last value.
        to: String,
        /// The step between values.
        step: String,
    },
}

/// A value of the draft an author may make a variable, or has made one.
#[derive(Clone, Debug, PartialEq)]
pub struct Varyable {
    /// Where it is, as an RFC 6901 pointer (`/topic/retention.ms`).
    pub pointer: String,
    /// Its step, 1-based; `None` for the topic's configs at the start.
    pub step: Option<usize>,
    /// What it is, for people (`retention.ms`, `record 1's timestamp`).
    pub what: String,
    /// The value as the file writes it (`"1d"`, `"now-3d"`; `"$retention"` for a variable).
    pub value: Value,
    /// The variable in its place, and its values as the pane shows them for editing.
    pub variable: Option<(String, VaryValues)>,
    /// A name for a new variable, not used by another one (`retention`, `stamp`).
    pub suggested: String,
}

/// Every value of `doc` an author may vary, topic configs first, then by step.
pub(crate) fn varyables(doc: &Value) -> Vec<Varyable> {
    let variants = doc.get("variants").and_then(Value::as_object);
    let mut out = Vec::new();
    let mut add =
        |pointer: String, step: Option<usize>, what: String, value: &Value, base: String| {
            let variable = variable_in(value).and_then(|n| {
                let spec = variants.and_then(|v| v.get(&n))?;
                Some((n, values_of(spec)))
            });
            let suggested = match &variable {
                Some((n, _)) => n.clone(),
                None => unused(&base, variants),
            };
            out.push(Varyable {
                pointer,
                step,
                what,
                value: value.clone(),
                variable,
                suggested,
            });
        };
    if let Some(Value::Object(topic)) = doc.get("topic") {
        for (k, v) in topic.iter().filter(|(_, v)| is_scalar(v)) {
            add(
                format!("/topic/{}", escape(k)),
                None,
                k.clone(),
                v,
                name_of_config(k),
            );
        }
    }
    let steps = doc.get("steps").and_then(Value::as_array);
    for (i, s) in steps.into_iter().flatten().enumerate() {
        let at = format!("/steps/{i}");
        if let Some(Value::Object(c)) = s.get("config") {
            for (k, v) in c.iter().filter(|(_, v)| is_scalar(v)) {
                let p = format!("{at}/config/{}", escape(k));
                add(p, Some(i + 1), k.clone(), v, name_of_config(k));
            }
        }
        let records = s.pointer("/produce/records").and_then(Value::as_array);
        for (j, r) in records.into_iter().flatten().enumerate() {
            if let Some(t) = r.get("timestamp").filter(|t| is_scalar(t)) {
                let p = format!("{at}/produce/records/{j}/timestamp");
                let what = format!("record {}'s timestamp", j + 1);
                add(p, Some(i + 1), what, t, "stamp".into());
            }
        }
    }
    out
}

/// Declares the variable `name` with `values` and puts it at `pointer`.
pub(crate) fn vary(
    doc: &mut Value,
    pointer: &str,
    name: &str,
    values: &VaryValues,
) -> Result<Change, AuthorError> {
    let spec = spec_of(name, values)?;
    let written = variable_json(&spec)?;
    // The lesson's own parser reads it first: its words, at its field.
    Variants::parse(&json!({ name: written.clone() })).map_err(|e| invalid(e.field, e.reason))?;
    let old = doc
        .pointer(pointer)
        .cloned()
        .ok_or_else(|| invalid(format!("pointer {pointer:?}"), "is not in the file"))?;
    let root = doc
        .as_object_mut()
        .ok_or_else(|| invalid("", "the file is not an object"))?;
    let vs = root.entry("variants").or_insert_with(|| json!({}));
    let Value::Object(vs) = vs else {
        return Err(invalid("variants", "is not an object"));
    };
    vs.insert(name.to_string(), written);
    if let Some(slot) = doc.pointer_mut(pointer) {
        *slot = json!(format!("${name}"));
    }
    // A variable this one replaced, used nowhere else now, goes.
    if let Some(other) = variable_in(&old).filter(|o| o != name) {
        if !uses(doc, &other) {
            remove_variable(doc, &other);
        }
    }
    Ok((
        format!("made {pointer} the variable {name}"),
        events(pointer),
    ))
}

/// Removes the variable `name`, writing the value the lesson was written with wherever it was.
pub(crate) fn unvary(doc: &mut Value, name: &str) -> Result<Change, AuthorError> {
    let field = format!("variants.{name}");
    let spec = doc
        .pointer(&format!("/variants/{}", escape(name)))
        .cloned()
        .ok_or_else(|| invalid(field.clone(), "there is no such variable"))?;
    let fixed = default_of(&spec).ok_or_else(|| invalid(field, "has no value to write back"))?;
    let mut changed = Vec::new();
    if let Some(Value::Array(steps)) = doc.get_mut("steps") {
        for (i, s) in steps.iter_mut().enumerate() {
            if put_back(s, name, &fixed) {
                changed.push(i + 1);
            }
        }
    }
    for (k, v) in doc.as_object_mut().into_iter().flatten() {
        if k != "steps" && k != "variants" {
            put_back(v, name, &fixed);
        }
    }
    remove_variable(doc, name);
    let mut ev: Vec<AuthorEvent> = changed
        .into_iter()
        .map(|step| AuthorEvent::StepChanged { step })
        .collect();
    ev.push(AuthorEvent::FileChanged {
        key: "variants".into(),
    });
    Ok((format!("made the variable {name} a fixed value"), ev))
}

/// The variable's values as given: a list of at least two values, or a range.
fn spec_of(name: &str, values: &VaryValues) -> Result<VariableSpec, AuthorError> {
    let field = format!("variants.{name}");
    Ok(match values {
        VaryValues::List(text) => {
            let list: Vec<Value> = text
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(scalar)
                .collect();
            if list.len() < 2 {
                return Err(invalid(
                    format!("{field}.choices"),
                    "a variable needs two values at least, separated by commas",
                ));
            }
            VariableSpec::Choices(list)
        }
        VaryValues::Range { from, to, step } => {
            for (k, t) in [("from", from), ("to", to), ("step", step)] {
                if t.trim().is_empty() {
                    return Err(invalid(format!("{field}.{k}"), "is empty"));
                }
            }
            VariableSpec::Range {
                from: scalar(from),
                to: scalar(to),
                step: scalar(step),
                default: None,
            }
        }
    })
}

/// A value as typed: a whole number as a JSON number, anything else as text (`1d`, `now-3d`),
/// as the file writes them.
fn scalar(t: &str) -> Value {
    let t = t.trim();
    t.parse::<i64>().map_or_else(|_| json!(t), |n| json!(n))
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A variable's declaration as the pane's fields show it.
fn values_of(spec: &Value) -> VaryValues {
    if let Some(Value::Array(c)) = spec.get("choices") {
        return VaryValues::List(c.iter().map(text_of).collect::<Vec<_>>().join(", "));
    }
    let get = |k: &str| spec.get(k).map(text_of).unwrap_or_default();
    VaryValues::Range {
        from: get("from"),
        to: get("to"),
        step: get("step"),
    }
}

/// The value a lesson with the variable is written with: a list's first, a range's default
/// (else its first).
fn default_of(spec: &Value) -> Option<Value> {
    match spec.get("choices") {
        Some(Value::Array(c)) => c.first().cloned(),
        _ => spec.get("default").or_else(|| spec.get("from")).cloned(),
    }
}

/// Writes `fixed` back where `v` uses the variable `name`; whether anything changed.
fn put_back(v: &mut Value, name: &str, fixed: &Value) -> bool {
    match v {
        Value::String(s) if *s == format!("${name}") => {
            *v = fixed.clone();
            true
        }
        Value::String(s) if s.starts_with(&format!("${name}.")) => {
            let field = &s[name.len() + 2..];
            match fixed.get(field) {
                Some(f) => {
                    *v = f.clone();
                    true
                }
                None => false,
            }
        }
        Value::String(s) if s.contains(&format!("${{{name}}}")) => {
            *s = s.replace(&format!("${{{name}}}"), &text_of(fixed));
            true
        }
        // Every place is written back: no short cut after the first.
        Value::Array(a) => a
            .iter_mut()
            .map(|x| put_back(x, name, fixed))
            .fold(false, |c, x| c | x),
        Value::Object(m) => m
            .values_mut()
            .map(|x| put_back(x, name, fixed))
            .fold(false, |c, x| c | x),
        _ => false,
    }
}

/// Whether anything outside `variants` still names the variable.
fn uses(doc: &Value, name: &str) -> bool {
    fn walk(v: &Value, name: &str) -> bool {
        match v {
            Value::String(s) => {
                *s == format!("${name}")
                    || s.starts_with(&format!("${name}."))
                    || s.contains(&format!("${{{name}"))
            }
            Value::Array(a) => a.iter().any(|x| walk(x, name)),
            Value::Object(m) => m.values().any(|x| walk(x, name)),
            _ => false,
        }
    }
    doc.as_object()
        .is_some_and(|m| m.iter().any(|(k, v)| k != "variants" && walk(v, name)))
}

fn remove_variable(doc: &mut Value, name: &str) {
    let Some(root) = doc.as_object_mut() else {
        return;
    };
    if let Some(Value::Object(vs)) = root.get_mut("variants") {
        vs.remove(name);
        if vs.is_empty() {
            root.remove("variants");
        }
    }
}

fn events(pointer: &str) -> Vec<AuthorEvent> {
    let mut ev = Vec::new();
    let mut parts = pointer.split('/').skip(1);
    if parts.next() == Some("steps") {
        if let Some(i) = parts.next().and_then(|i| i.parse::<usize>().ok()) {
            ev.push(AuthorEvent::StepChanged { step: i + 1 });
        }
    }
    ev.push(AuthorEvent::FileChanged {
        key: "variants".into(),
    });
    ev
}

/// The variable a value is (`"$retention"`), if it is one.
fn variable_in(v: &Value) -> Option<String> {
    let s = v.as_str()?.strip_prefix('$')?;
    (!s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).then(|| s.into())
}

fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Number(_))
}

fn escape(k: &str) -> String {
    k.replace('~', "~0").replace('/', "~1")
}

/// A variable name for a config: its words without the unit and the `message.timestamp.`
/// prefix (`retention.ms` → `retention`, `message.timestamp.after.max.ms` → `after_max`).
fn name_of_config(k: &str) -> String {
    let mut words: Vec<&str> = k.split('.').collect();
    if matches!(words.last(), Some(&("ms" | "bytes"))) && words.len() > 1 {
        words.pop();
    }
    if words.starts_with(&["message", "timestamp"]) && words.len() > 2 {
        words.drain(..2);
    }
    let name: String = words
        .join("_")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        name
    } else {
        format!("v_{name}")
    }
}

/// `base`, or `base_2`, `base_3`… when a variable has that name.
fn unused(base: &str, variants: Option<&Map<String, Value>>) -> String {
    let taken = |n: &str| variants.is_some_and(|v| v.contains_key(n));
    if !taken(base) {
        return base.into();
    }
    (2..)
        .map(|k| format!("{base}_{k}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| base.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> Value {
        json!({
            "topic": {"retention.ms": "1d", "message.timestamp.after.max.ms": 3600000},
            "steps": [
                {"produce": {"records": [{"timestamp": "now-3d"}]}},
                {"config": {"segment.ms": "1h"}}
            ]
        })
    }

    #[test]
    fn lists_topic_configs_step_configs_and_record_timestamps_with_names() {
        let v = varyables(&doc());
        let seen: Vec<(&str, Option<usize>, &str)> = v
            .iter()
            .map(|x| (x.pointer.as_str(), x.step, x.suggested.as_str()))
            .collect();
        assert_eq!(
            seen,
            [
                ("/topic/message.timestamp.after.max.ms", None, "after_max"),
                ("/topic/retention.ms", None, "retention"),
                ("/steps/0/produce/records/0/timestamp", Some(1), "stamp"),
                ("/steps/1/config/segment.ms", Some(2), "segment"),
            ]
        );
    }

    #[test]
    fn a_list_goes_in_place_and_unvary_writes_the_first_value_back() {
        let mut d = doc();
        vary(
            &mut d,
            "/topic/retention.ms",
            "retention",
            &VaryValues::List("1d, 4d".into()),
        )
        .unwrap();
        assert_eq!(d["topic"]["retention.ms"], json!("$retention"));
        assert_eq!(
            d["variants"],
            json!({"retention": {"choices": ["1d", "4d"]}})
        );
        let listed = varyables(&d);
        let r = listed
            .iter()
            .find(|x| x.pointer == "/topic/retention.ms")
            .unwrap();
        assert_eq!(
            r.variable,
            Some(("retention".into(), VaryValues::List("1d, 4d".into())))
        );
        let (_, ev) = unvary(&mut d, "retention").unwrap();
        assert_eq!(d, doc());
        assert!(ev.contains(&AuthorEvent::FileChanged {
            key: "variants".into()
        }));
    }

    #[test]
    fn a_range_is_read_by_the_variants_parser_first() {
        let mut d = doc();
        let bad = VaryValues::Range {
            from: "1d".into(),
            to: "soon".into(),
            step: "1d".into(),
        };
        let e = vary(&mut d, "/topic/retention.ms", "retention", &bad).unwrap_err();
        assert!(e.to_string().starts_with("variants.retention.to: "), "{e}");
        assert_eq!(d, doc(), "nothing changed");
        let one = VaryValues::List("1d".into());
        let e = vary(&mut d, "/topic/retention.ms", "retention", &one).unwrap_err();
        assert_eq!(
            e.to_string(),
            "variants.retention.choices: a variable needs two values at least, separated by commas"
        );
        let e = vary(&mut d, "/topic/nope", "x", &VaryValues::List("1, 2".into())).unwrap_err();
        assert_eq!(e.to_string(), "pointer \"/topic/nope\": is not in the file");
        let e = vary(
            &mut d,
            "/topic/retention.ms",
            "Bad-Name",
            &VaryValues::List("1, 2".into()),
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("variants.Bad-Name: a variable name is"),
            "{e}"
        );
    }

    #[test]
    fn a_variable_replaced_and_used_nowhere_else_goes() {
        let mut d = doc();
        let p = "/steps/0/produce/records/0/timestamp";
        vary(
            &mut d,
            p,
            "stamp",
            &VaryValues::List("now-3d, now-2d".into()),
        )
        .unwrap();
        vary(&mut d, p, "ago", &VaryValues::List("now-1d, now-2d".into())).unwrap();
        assert_eq!(
            d["variants"],
            json!({"ago": {"choices": ["now-1d", "now-2d"]}})
        );
        assert_eq!(unused("ago", d["variants"].as_object()), "ago_2");
    }

    /// The issue's drill: one day of retention, a replay of three-day-old events.
    const DRILL: &str = r#"{"kafka": "4.0", "topic": {"retention.ms": "1d", "segment.bytes": "1MiB"},
        "start": "2026-01-01T00:00:00Z", "lesson": {"kind": "drill"}, "steps": [
        {"produce": {"records": [{"timestamp": "now-3d", "value_bytes": 600000}]}},
        {"produce": {"records": [{"timestamp": "now-71h", "value_bytes": 600000}]}},
        {"produce": {"records": [{"timestamp": "now", "value_bytes": 600000}]}},
        {"question": {"ask": "Which segments does the next retention check delete?", "strike": "segments"}}]}"#;

    #[test]
    fn two_values_give_two_answers_and_one_undo_takes_it_back() {
        use crate::author::{AuthorCommand, Authoring, Start};
        use crate::Pick;
        use logtime_model::units::Timestamp;
        let (mut a, _) = Authoring::new(Start::Text(DRILL.into())).unwrap();
        let before = a.document();
        let cmd = AuthorCommand::Vary {
            pointer: "/topic/retention.ms".into(),
            name: "retention".into(),
            values: VaryValues::List("1d, 4d".into()),
        };
        a.apply(Timestamp(0), cmd).unwrap();
        assert!(a.check().playable(), "{:?}", a.check().problems);
        let answer = |k| {
            let v = a.variant_preview(Pick::Index(k));
            let answers: Vec<_> = v.answers.iter().map(|x| x.answer.clone()).collect();
            (v.label, answers)
        };
        let (l0, a0) = answer(0);
        let (l1, a1) = answer(1);
        assert_ne!(l0, l1);
        assert_eq!(a0, [Ok("segments 0, 1".to_string())]);
        assert_ne!(a0, a1);
        let one = AuthorCommand::Vary {
            pointer: "/topic/segment.bytes".into(),
            name: "segment".into(),
            values: VaryValues::List("1MiB".into()),
        };
        let refused = a.refusal(&one).unwrap();
        assert_eq!(a.apply(Timestamp(0), one).unwrap_err(), refused);
        a.apply(Timestamp(0), AuthorCommand::Undo).unwrap();
        assert_eq!(a.document(), before);
        a.apply(Timestamp(0), AuthorCommand::Redo).unwrap();
        a.apply(
            Timestamp(0),
            AuthorCommand::Unvary {
                name: "retention".into(),
            },
        )
        .unwrap();
        assert_eq!(a.document(), before);
    }
}
