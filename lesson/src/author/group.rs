//! Grouping consecutive steps into one step of the grammar, where the grammar has one that
//! means the same: `config` steps into one `config` (later values win, as they would have),
//! `advance` steps into one advance of their sum, and identical one-batch `produce` steps,
//! with the same clock move between each two, into generated traffic (`batches`, `every`).
//! Narrations are joined as paragraphs, highlights kept, a pause kept.

use super::edit::{steps, steps_mut, Change};
use super::error::AuthorError;
use super::spec::{goal_json, GoalSpec};
use super::view::kind_of;
use super::AuthorEvent;
use logtime_core::scenario::parse_duration;
use logtime_core::scenario::save::duration_text;
use serde_json::{json, Map, Value};

fn cannot(first: usize, last: usize, reason: impl Into<String>) -> AuthorError {
    AuthorError::CannotGroup {
        first,
        last,
        reason: reason.into(),
    }
}

/// Checks that `first..=last` (1-based) names two or more steps (one or more with `one`).
fn range(doc: &Value, first: usize, last: usize, one: bool) -> Result<(), AuthorError> {
    let n = steps(doc)?.len();
    if first == 0 || first > n {
        return Err(AuthorError::NoSuchStep {
            field: "first",
            step: first,
            steps: n,
        });
    }
    if last == 0 || last > n {
        return Err(AuthorError::NoSuchStep {
            field: "last",
            step: last,
            steps: n,
        });
    }
    if last < first || (last == first && !one) {
        return Err(cannot(
            first,
            last,
            "name two or more steps, the first before the last",
        ));
    }
    Ok(())
}

/// Groups steps `first..=last` (1-based).
pub(crate) fn group(doc: &mut Value, first: usize, last: usize) -> Result<Change, AuthorError> {
    range(doc, first, last, false)?;
    let run: Vec<Value> = steps(doc)?[first - 1..last].to_vec();
    let kinds: Vec<&str> = run.iter().map(|s| kind_of(s).unwrap_or("?")).collect();
    let body = if kinds.iter().all(|k| *k == "config") {
        configs(&run)
    } else if kinds.iter().all(|k| *k == "advance") {
        advances(&run).map_err(|r| cannot(first, last, r))?
    } else if kinds.iter().all(|k| matches!(*k, "produce" | "advance")) {
        traffic(&run).map_err(|r| cannot(first, last, r))?
    } else {
        return Err(cannot(
            first,
            last,
            format!(
                "the grammar has one step for several config changes, several clock moves, or identical batches sent at a steady pace, not for {}",
                kinds.join(", ")
            ),
        ));
    };
    let mut step = match body {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    annotations(&run, &mut step);
    let s = steps_mut(doc)?;
    s.splice(first - 1..last, [Value::Object(step)]);
    Ok((
        format!("grouped steps {first} to {last}"),
        merged(first, last),
    ))
}

/// The events of steps `first..=last` becoming one step at `first`: that step changed, and the
/// others deleted from the last down, so each number is valid when its event is read.
fn merged(first: usize, last: usize) -> Vec<AuthorEvent> {
    std::iter::once(AuthorEvent::StepChanged { step: first })
        .chain(
            (first + 1..=last)
                .rev()
                .map(|step| AuthorEvent::StepDeleted { step }),
        )
        .collect()
}

fn configs(run: &[Value]) -> Value {
    let mut m = Map::new();
    for s in run {
        if let Some(Value::Object(c)) = s.get("config") {
            for (k, v) in c {
                m.insert(k.clone(), v.clone());
            }
        }
    }
    json!({ "config": m })
}

fn ms(v: &Value) -> Result<i64, String> {
    match v {
        Value::String(s) => parse_duration(s),
        Value::Number(n) => n.as_i64().ok_or_else(|| format!("{n} is not a duration")),
        other => Err(format!("{other} is not a duration")),
    }
}

fn advances(run: &[Value]) -> Result<Value, String> {
    let mut total = 0i64;
    for s in run {
        total = total
            .checked_add(ms(&s["advance"])?)
            .ok_or("the clock moves add up past what a time can hold")?;
    }
    Ok(json!({ "advance": duration_text(total) }))
}

/// `produce, advance D, produce, advance D, produce…` with one-batch produce steps whose
/// records are the same (stamps relative to the clock, so they follow it as traffic's do).
fn traffic(run: &[Value]) -> Result<Value, String> {
    let batches: Vec<&Value> = run.iter().filter_map(|s| s.get("produce")).collect();
    let gaps: Vec<i64> = run
        .iter()
        .filter_map(|s| s.get("advance"))
        .map(ms)
        .collect::<Result<_, _>>()?;
    let alternates = run.iter().enumerate().all(|(i, s)| {
        s.get(if gaps.is_empty() || i % 2 == 0 {
            "produce"
        } else {
            "advance"
        })
        .is_some()
    });
    if !alternates || run.last().and_then(|s| s.get("produce")).is_none() {
        return Err("batches sent at a steady pace alternate a produce and a clock move, and end with a produce".into());
    }
    let first = batches[0];
    if first.get("batches").is_some() || batches.iter().any(|b| *b != first) {
        return Err("only identical one-batch produce steps become generated traffic".into());
    }
    if gaps.iter().any(|g| *g != gaps[0] || *g < 0) {
        return Err("the clock moves between the batches differ".into());
    }
    let mut p = first.as_object().cloned().unwrap_or_default();
    p.insert("batches".into(), json!(batches.len()));
    if let Some(g) = gaps.first().filter(|g| **g > 0) {
        p.insert("every".into(), json!(duration_text(*g)));
    }
    Ok(json!({ "produce": p }))
}

/// Narrations joined, highlights in order without repeats, a pause if any had one.
fn annotations(run: &[Value], step: &mut Map<String, Value>) {
    let text: Vec<&str> = run
        .iter()
        .filter_map(|s| s.get("narration").and_then(Value::as_str))
        .collect();
    if !text.is_empty() {
        step.insert("narration".into(), json!(text.join("\n\n")));
    }
    let mut show: Vec<Value> = Vec::new();
    for s in run {
        if let Some(Value::Array(a)) = s.get("show") {
            for t in a {
                if !show.contains(t) {
                    show.push(t.clone());
                }
            }
        }
    }
    if !show.is_empty() {
        step.insert("show".into(), Value::Array(show));
    }
    if run.iter().any(|s| s.get("pause") == Some(&json!(true))) {
        step.insert("pause".into(), json!(true));
    }
}

/// The step kinds a task's solution holds ([`crate::ACTION_KINDS`]).
const SOLUTION_KINDS: &[&str] = &[
    "produce",
    "advance",
    "at",
    "retention",
    "delete_records",
    "config",
    "version",
];

/// Steps `first..=last` (1-based), the fix the author did in the explorer, become the solution
/// of a task asked in their place; their narrations become the task's `reveal`.
pub(crate) fn make_task(
    doc: &mut Value,
    (first, last): (usize, usize),
    goal: &[GoalSpec],
    text: String,
) -> Result<Change, AuthorError> {
    range(doc, first, last, true)?;
    let run: Vec<Value> = steps(doc)?[first - 1..last].to_vec();
    let mut solution = Vec::with_capacity(run.len());
    for (i, s) in run.iter().enumerate() {
        let kind = kind_of(s).unwrap_or("?");
        let body = &s[kind];
        if !SOLUTION_KINDS.contains(&kind) || (kind == "produce" && body.get("batches").is_some()) {
            return Err(cannot(
                first,
                last,
                format!(
                    "step {} ({kind}{}) cannot be part of a task's solution, which holds one batch, a clock move, a retention check, DeleteRecords, a config or a version change",
                    first + i,
                    if kind == "produce" { ", generated traffic" } else { "" }
                ),
            ));
        }
        solution.push(json!({ kind: body }));
    }
    let mut task = Map::new();
    task.insert("ask".into(), json!(text));
    task.insert("goal".into(), goal_json(goal)?);
    task.insert("solution".into(), Value::Array(solution));
    let told: Vec<&str> = run
        .iter()
        .filter_map(|s| s.get("narration").and_then(Value::as_str))
        .collect();
    if !told.is_empty() {
        task.insert("reveal".into(), json!(told.join("\n\n")));
    }
    steps_mut(doc)?.splice(first - 1..last, [json!({ "task": task })]);
    Ok((
        format!("made steps {first} to {last} a task"),
        merged(first, last),
    ))
}
