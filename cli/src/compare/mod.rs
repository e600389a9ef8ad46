//! Compares the report of `logtime run` with the report of the Kafka oracle
//! (`../shared/kafka-oracle`, Apache Kafka 4.1.1's storage code replaying the same scenario).
//!
//! The two reports have different shapes, and Logtime's carries much more (error names,
//! diagnoses, traces, verdict kinds). Each step of each side is first mapped to one normal form
//! holding only what both report, under one name, then the forms are compared field by field:
//!
//! | step | compared |
//! |---|---|
//! | every step | `now`, the kind |
//! | `produce` | `appended`; `base_offset`, `last_offset`, `log_append_time`, `rolled`; or `error_code`, `error_message`, `record_errors`, `broker_log` |
//! | generated `produce` | `batches`, `appended`, `rejected` (Logtime: `appended_batches`, `rejected_batches`), `first_rejection` (its `batch`, `now` (Logtime: `at`) and rejection), `first_offset`, `last_offset`, `rolled`, `passes` |
//! | `advance`, `at` | `passes` (Logtime: `retention`): each pass's `at`, `deleted`, `log_start_offset` |
//! | `retention` | `at`, `deleted`, `log_start_offset`, `rolled` (Logtime: a base or `null`), every segment's verdict (`deleted` or `kept`) |
//! | `lookup` | `offset`, `timestamp` |
//! | `delete_records` | `low_watermark`, or `error_code` and `error_message` |
//! | `config` | the names of the configs applied |
//! | `snapshot`, `final` | `log_start_offset`, `log_end_offset`, `high_watermark`, and per segment `base_offset`, `next_offset`, `size_bytes`, `records`, `largest_timestamp`, `max_timestamp_so_far` (Logtime: `max_timestamp`), `time_index`, `offset_index` |
//!
//! Not compared: `checks` (how many retention passes ran): both sides skip passes that cannot
//! delete anything, each by its own rule, so the counts differ while every deletion agrees; a
//! pass's `rolled` (Logtime's passes do not list it; the roll shows in the next state); the
//! values of a `config` step (the oracle echoes its input text, Logtime prints the parsed value).

mod normal;

use normal::{kind_and_body, normal_forms, state};
use serde_json::{json, Value};
use std::fmt;

/// What one side made of a scenario: its report, or its refusal (exit 1 and one line).
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The JSON report.
    Report(Value),
    /// The scenario was refused; the error line.
    Refused(String),
}

/// One field on which the two sides disagree.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// Where: `step 3 produce: error_code`, `final: segments[1].size_bytes`.
    pub at: String,
    /// Logtime's value (`null` when it has none).
    pub logtime: Value,
    /// Kafka's value (`null` when it has none).
    pub kafka: Value,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: logtime {}, kafka {}",
            self.at,
            short(&self.logtime),
            short(&self.kafka)
        )
    }
}

/// A value on one line, cut to a readable length.
fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 300 {
        let cut: String = s.chars().take(300).collect();
        format!("{cut}…")
    } else {
        s
    }
}

/// Compares two outcomes of the same scenario. Both refusing is agreement (the scenario is
/// outside what either accepts); one refusing is a difference.
pub fn compare_outcomes(logtime: &Outcome, kafka: &Outcome) -> Vec<Difference> {
    match (logtime, kafka) {
        (Outcome::Report(l), Outcome::Report(k)) => compare(l, k),
        (Outcome::Refused(_), Outcome::Refused(_)) => Vec::new(),
        (l, k) => vec![Difference {
            at: "scenario".into(),
            logtime: outcome_summary(l),
            kafka: outcome_summary(k),
        }],
    }
}

fn outcome_summary(o: &Outcome) -> Value {
    match o {
        Outcome::Report(_) => json!("replayed"),
        Outcome::Refused(e) => json!(format!("refused: {e}")),
    }
}

/// Compares a `logtime run` report with the oracle's report of the same scenario.
pub fn compare(logtime: &Value, kafka: &Value) -> Vec<Difference> {
    let mut out = Vec::new();
    let empty = Vec::new();
    let ls = logtime["steps"].as_array().unwrap_or(&empty);
    let ks = kafka["steps"].as_array().unwrap_or(&empty);
    if ls.len() != ks.len() {
        out.push(Difference {
            at: "steps".into(),
            logtime: json!(format!("{} steps", ls.len())),
            kafka: json!(format!("{} steps", ks.len())),
        });
    }
    for (i, (l, k)) in ls.iter().zip(ks).enumerate() {
        let (lk, lb) = kind_and_body(l);
        let (kk, kb) = kind_and_body(k);
        if lk != kk {
            out.push(Difference {
                at: format!("step {i}"),
                logtime: json!(lk),
                kafka: json!(kk),
            });
            continue;
        }
        let at = format!("step {i} {lk}");
        diff(&format!("{at}: now"), &l["now"], &k["now"], &mut out);
        let (ln, kn) = normal_forms(lk, lb, kb);
        diff_into(&at, &ln, &kn, &mut out);
    }
    diff_into(
        "final",
        &state(&logtime["final"]),
        &state(&kafka["final"]),
        &mut out,
    );
    out
}

/// Compares two normal forms of the same thing under `at`.
fn diff_into(at: &str, l: &Value, k: &Value, out: &mut Vec<Difference>) {
    diff(&format!("{at}:"), l, k, out)
}

fn diff(path: &str, l: &Value, k: &Value, out: &mut Vec<Difference>) {
    match (l, k) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let sep = if path.ends_with(':') { " " } else { "." };
                diff(
                    &format!("{path}{sep}{key}"),
                    a.get(key).unwrap_or(&Value::Null),
                    b.get(key).unwrap_or(&Value::Null),
                    out,
                );
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                diff(&format!("{path}[{i}]"), x, y, out);
            }
        }
        _ if l != k => out.push(Difference {
            at: path.trim_end_matches(':').to_string(),
            logtime: l.clone(),
            kafka: k.clone(),
        }),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(base: i64, size: i64) -> Value {
        json!({"base_offset": base, "next_offset": base + 1, "size_bytes": size, "records": 1,
               "largest_timestamp": 5, "time_index": [], "offset_index": []})
    }

    fn logtime_state(segs: Vec<Value>) -> Value {
        let segs: Vec<Value> = segs
            .into_iter()
            .map(|mut s| {
                s["max_timestamp"] = json!(5);
                s["last_modified"] = json!(9);
                s
            })
            .collect();
        json!({"log_start_offset": 0, "log_end_offset": 1, "high_watermark": 1, "segments": segs})
    }

    fn kafka_state(segs: Vec<Value>) -> Value {
        let segs: Vec<Value> = segs
            .into_iter()
            .map(|mut s| {
                s["max_timestamp_so_far"] = json!(5);
                s
            })
            .collect();
        json!({"log_start_offset": 0, "log_end_offset": 1, "high_watermark": 1, "segments": segs})
    }

    fn reports(l: Vec<Value>, k: Vec<Value>) -> (Value, Value) {
        (
            json!({"steps": l, "final": logtime_state(vec![seg(0, 170)])}),
            json!({"steps": k, "final": kafka_state(vec![seg(0, 170)]), "oracle": "x"}),
        )
    }

    #[test]
    fn same_facts_in_different_shapes_agree() {
        let (l, k) = reports(
            vec![
                json!({"index": 0, "now": 10, "produce": {"appended": true, "base_offset": 0, "last_offset": 0,
                       "log_append_time": -1, "segment": 0, "size_bytes": 170, "rolled": [], "diagnoses": []}}),
                json!({"index": 1, "now": 70, "produce": {"batches": 2, "appended_batches": 1, "rejected_batches": 1,
                       "records_appended": 1, "first_offset": 1, "last_offset": 1, "rolled": [1],
                       "first_rejection": {"appended": false, "error_code": 32, "error_name": "INVALID_TIMESTAMP",
                         "error_message": "m", "record_errors": [{"batch_index": 0, "message": "r"}], "diagnoses": [], "batch": 1, "at": 70},
                       "diagnosed_batches": 0, "first_diagnoses": [],
                       "retention": [{"at": 60, "scheduled": true, "deleted": [0], "log_start_offset": 1}]}}),
                json!({"index": 2, "now": 80, "advance": {"from": 70, "checks": 3, "retention": []}}),
                json!({"index": 3, "now": 80, "retention": {"at": 80, "deleted": [], "rolled": null, "log_start_offset": 1,
                       "future_timestamp_segments": [], "verdicts": [{"base_offset": 1, "verdict": {"kind": "not_old_enough"}, "reason": "x"}]}}),
                json!({"index": 4, "now": 80, "lookup": {"spec": "5", "offset": 1, "timestamp": 5, "trace": []}}),
                json!({"index": 5, "now": 80, "config": {"changed": [{"name": "retention.ms", "old": 1, "new": 2}]}}),
                json!({"index": 6, "now": 80, "snapshot": logtime_state(vec![seg(0, 170)])}),
            ],
            vec![
                json!({"index": 0, "now": 10, "produce": {"appended": true, "base_offset": 0, "last_offset": 0,
                       "log_append_time": -1, "rolled": []}}),
                json!({"index": 1, "now": 70, "produce": {"batches": 2, "appended": 1, "rejected": 1,
                       "first_rejection": {"batch": 1, "now": 70, "appended": false, "error_code": 32,
                         "error_message": "m", "record_errors": [{"batch_index": 0, "message": "r"}]},
                       "first_offset": 1, "last_offset": 1, "rolled": [1],
                       "passes": [{"at": 60, "deleted": [0], "log_start_offset": 1, "rolled": [1]}], "checks": 1}}),
                json!({"index": 2, "now": 80, "advance": {"passes": [], "checks": 0}}),
                json!({"index": 3, "now": 80, "retention": {"at": 80, "deleted": [], "log_start_offset": 1, "rolled": [],
                       "verdicts": [{"base_offset": 1, "verdict": "kept", "reason": "y"}]}}),
                json!({"index": 4, "now": 80, "lookup": {"offset": 1, "timestamp": 5}}),
                json!({"index": 5, "now": 80, "config": {"applied": {"retention.ms": "2"}}}),
                json!({"index": 6, "now": 80, "snapshot": kafka_state(vec![seg(0, 170)])}),
            ],
        );
        assert_eq!(compare(&l, &k), vec![]);
    }

    #[test]
    fn each_disagreement_is_named_with_both_values() {
        let (l, mut k) = reports(
            vec![
                json!({"index": 0, "now": 10, "produce": {"appended": false, "error_code": 87, "error_name": "INVALID_RECORD",
                        "error_message": "a", "record_errors": [{"batch_index": 0, "message": "k"}], "diagnoses": []}}),
            ],
            vec![
                json!({"index": 0, "now": 10, "produce": {"appended": true, "base_offset": 0, "last_offset": 0,
                        "log_append_time": -1, "rolled": []}}),
            ],
        );
        k["final"]["segments"][0]["size_bytes"] = json!(171);
        let d = compare(&l, &k);
        let text: Vec<String> = d.iter().map(ToString::to_string).collect();
        assert!(
            text.contains(&"step 0 produce: appended: logtime false, kafka true".to_string()),
            "{text:?}"
        );
        assert!(
            text.contains(&"step 0 produce: error_code: logtime 87, kafka null".to_string()),
            "{text:?}"
        );
        assert!(
            text.contains(&"step 0 produce: base_offset: logtime null, kafka 0".to_string()),
            "{text:?}"
        );
        assert!(
            text.contains(&"final: segments[0].size_bytes: logtime 170, kafka 171".to_string()),
            "{text:?}"
        );
    }

    #[test]
    fn passes_and_verdicts_are_compared() {
        let (l, k) = reports(
            vec![
                json!({"index": 0, "now": 10, "at": {"from": 0, "checks": 1, "retention": [{"at": 5, "scheduled": true, "deleted": [0], "log_start_offset": 1}]}}),
                json!({"index": 1, "now": 10, "retention": {"at": 10, "deleted": [1], "rolled": 2, "log_start_offset": 2,
                       "future_timestamp_segments": [], "verdicts": [{"base_offset": 1, "verdict": {"kind": "deleted", "pass": "time"}},
                       {"base_offset": 2, "verdict": {"kind": "empty_active"}}]}}),
            ],
            vec![
                json!({"index": 0, "now": 10, "at": {"passes": [{"at": 6, "deleted": [0], "log_start_offset": 1}], "checks": 1}}),
                json!({"index": 1, "now": 10, "retention": {"at": 10, "deleted": [1], "log_start_offset": 2, "rolled": [],
                       "verdicts": [{"base_offset": 1, "verdict": "kept"}]}}),
            ],
        );
        let text: Vec<String> = compare(&l, &k).iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            vec![
                "step 0 at: passes[0].at: logtime 5, kafka 6",
                "step 1 retention: rolled: logtime [2], kafka []",
                "step 1 retention: verdicts[0].verdict: logtime \"deleted\", kafka \"kept\"",
            ]
        );
    }

    #[test]
    fn refusals() {
        let r = Outcome::Report(json!({}));
        let no = Outcome::Refused("bad".into());
        assert!(compare_outcomes(&no, &no.clone()).is_empty());
        let d = compare_outcomes(&r, &no);
        assert_eq!(d.len(), 1);
        assert_eq!(
            d[0].to_string(),
            "scenario: logtime \"replayed\", kafka \"refused: bad\""
        );
    }

    #[test]
    fn step_count_and_kind_mismatches() {
        let (l, k) = reports(
            vec![
                json!({"index": 0, "now": 1, "snapshot": logtime_state(vec![])}),
                json!({"index": 1, "now": 1, "snapshot": {}}),
            ],
            vec![json!({"index": 0, "now": 1, "lookup": {"offset": 0, "timestamp": 0}})],
        );
        let text: Vec<String> = compare(&l, &k).iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            vec![
                "steps: logtime \"2 steps\", kafka \"1 steps\"",
                "step 0: logtime \"snapshot\", kafka \"lookup\"",
            ]
        );
    }
}
