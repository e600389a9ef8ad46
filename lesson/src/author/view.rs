//! Steps as the lesson pane lists them: number, kind, a one-line summary in core's words, the
//! narration as written and as rendered at its step, highlights, pause, and what the live
//! check found there.

use super::live::{AnswerView, BiteAt, Checked, Problem};
use crate::QUESTION_KEYS;
use logtime_core::scenario::narrate::{count, Sentence};
use logtime_core::scenario::STEP_KINDS;
use serde_json::Value;

/// One step of the lesson being written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepView {
    /// Its number, 1-based.
    pub index: usize,
    /// Its kind key (`produce`, `advance`, `note`, `question`, `task`, …); `?` when it has none.
    pub kind: String,
    /// What it does, in a few words (`sent a batch of 1 record stamped now-3d`).
    pub summary: String,
    /// The narration as written (a note's body, or the step's `narration`).
    pub narration: Option<String>,
    /// The narration rendered on the partition at this step (empty when it does not parse or
    /// the replay does not reach the step).
    pub preview: Vec<Sentence>,
    /// Playback pauses after it.
    pub pause: bool,
    /// What it highlights, as targets are written (`segment:0`).
    pub highlights: Vec<String>,
    /// The problems at this step.
    pub problems: Vec<Problem>,
    /// The replay's effects that bite at this step.
    pub bites: Vec<BiteAt>,
    /// A question's computed answer.
    pub answer: Option<AnswerView>,
}

/// Every step of `doc`.
pub(crate) fn steps(doc: &Value, checked: &Checked) -> Vec<StepView> {
    let Some(Value::Array(steps)) = doc.get("steps") else {
        return Vec::new();
    };
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| view(i, s, checked))
        .collect()
}

fn view(i: usize, s: &Value, checked: &Checked) -> StepView {
    let index = i + 1;
    let kind = kind_of(s).unwrap_or("?").to_string();
    let narration = match (kind.as_str(), s.get("note"), s.get("narration")) {
        ("note", Some(Value::String(t)), _) | (_, _, Some(Value::String(t))) => Some(t.clone()),
        _ => None,
    };
    StepView {
        index,
        summary: summary(s),
        kind,
        narration,
        preview: checked.previews.get(i).cloned().unwrap_or_default(),
        pause: s.get("pause") == Some(&Value::Bool(true)),
        highlights: match s.get("show") {
            Some(Value::Array(a)) => a
                .iter()
                .map(|t| t.as_str().map_or_else(|| t.to_string(), str::to_string))
                .collect(),
            _ => Vec::new(),
        },
        problems: checked.at(index).cloned().collect(),
        bites: checked
            .bites
            .iter()
            .filter(|b| b.step == index)
            .cloned()
            .collect(),
        answer: checked.answers.iter().find(|a| a.step == index).cloned(),
    }
}

/// A step's kind key: a scenario step kind, or `note`, `question`, `task`.
pub(crate) fn kind_of(s: &Value) -> Option<&'static str> {
    let m = s.as_object()?;
    STEP_KINDS
        .iter()
        .chain(["note", "question", "task"].iter())
        .find(|k| m.contains_key(**k))
        .copied()
}

/// Text of a value as the file has it.
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn first_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or_default();
    let mut out: String = line.chars().take(80).collect();
    if out.len() < s.trim_end().len() {
        out.push('…');
    }
    out
}

fn produce(p: &Value) -> String {
    let records = p.get("records").and_then(Value::as_array);
    let n = records.map_or(0, Vec::len) as u64;
    let stamp = records
        .and_then(|r| r.first())
        .and_then(|r| r.get("timestamp"))
        .map(text)
        .map(|t| format!(" stamped {t}"))
        .unwrap_or_default();
    match p.get("batches").and_then(Value::as_u64) {
        Some(b) => {
            let every = p
                .get("every")
                .map(|e| format!(", one every {}", text(e)))
                .unwrap_or_default();
            format!(
                "sent {} of {}{stamp}{every}",
                count(b, "batch", "batches"),
                count(n, "record", "records")
            )
        }
        None => format!("sent a batch of {}{stamp}", count(n, "record", "records")),
    }
}

fn question(q: &Value) -> String {
    let kind = QUESTION_KEYS
        .iter()
        .skip(2)
        .take(7)
        .find(|k| q.get(**k).is_some())
        .copied()
        .unwrap_or("?");
    let ask = q.get("ask").map(text).unwrap_or_default();
    format!("{kind} question: {}", first_line(&ask))
}

/// What a step does, in a few words.
pub(crate) fn summary(s: &Value) -> String {
    let Some(kind) = kind_of(s) else {
        return "a step without a kind".into();
    };
    let body = &s[kind];
    match kind {
        "produce" => produce(body),
        "advance" => format!("moved the clock {}", text(body)),
        "at" => format!("moved the clock to {}", text(body)),
        "retention" => "ran a retention check".into(),
        "lookup" => match (body.get("spec"), body.get("timestamp")) {
            (Some(s), _) => format!("looked up {}", text(s)),
            (_, Some(t)) => format!("looked up {}", text(t)),
            _ => "looked up".into(),
        },
        "delete_records" => format!(
            "deleted records to offset {}",
            body.get("offset").map(text).unwrap_or_default()
        ),
        "config" => match body.as_object() {
            Some(m) => {
                let set: Vec<String> = m
                    .iter()
                    .map(|(k, v)| format!("{k} to {}", text(v)))
                    .collect();
                format!("set {}", set.join(", "))
            }
            None => "changed configs".into(),
        },
        "snapshot" => "took a snapshot of the partition".into(),
        "high_watermark" => format!(
            "set the high watermark to {}",
            body.get("offset").map(text).unwrap_or_default()
        ),
        "version" => format!("switched to Kafka {}", text(body)),
        "note" => format!("note: {}", first_line(&text(body))),
        "question" => question(body),
        "task" => format!(
            "task: {}",
            first_line(&body.get("ask").map(text).unwrap_or_default())
        ),
        _ => kind.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn summaries_use_the_files_own_words() {
        assert_eq!(
            summary(&json!({"produce": {"records": [{"timestamp": "now-3d"}]}})),
            "sent a batch of 1 record stamped now-3d"
        );
        assert_eq!(
            summary(
                &json!({"produce": {"batches": 4, "every": "4m", "records": [{"timestamp": "now-3d"}, {"timestamp": "now"}]}})
            ),
            "sent 4 batches of 2 records stamped now-3d, one every 4m"
        );
        assert_eq!(
            summary(&json!({"config": {"retention.ms": "1d"}})),
            "set retention.ms to 1d"
        );
        assert_eq!(
            summary(&json!({"question": {"ask": "Which segments go?", "strike": "segments"}})),
            "strike question: Which segments go?"
        );
    }
}
