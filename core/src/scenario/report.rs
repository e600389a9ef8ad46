//! The JSON report `logtime run` prints (`{"steps": [...], "final": STATE}`, documented in
//! `docs/scenarios.md`): a serialisation of the typed [`Report`], built only with the `report`
//! feature, so the web explorer, which reads the typed outcomes, carries none of it.
//!
//! Step entries are JSON objects with their keys in alphabetical order, the final state in field
//! order, exactly as the conformance expectations were written against.
//!
//! [`Report`] and [`StepReport`] are `logtime-model`'s types and the JSON needs this crate's
//! narration, so the serialisation is on a wrapper: `serde_json::to_string(&Json(&report))`.

use super::narrate;
use super::Report;
use super::{ProduceOutcome, StepOutcome, StepReport};
use logtime_model::diagnosis::Diagnosis;
use logtime_model::retention::RetentionReport;
use logtime_model::units::Timestamp;
use logtime_model::validation::ProduceError;
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::{json, Value};

/// A [`Report`] or a [`StepReport`] as the JSON report writes it (its `Serialize`).
#[derive(Clone, Copy, Debug)]
pub struct Json<'a, T>(pub &'a T);

/// `{"steps": [STEP...], "final": STATE}`.
impl Serialize for Json<'_, Report> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        /// The steps as a JSON array of step entries.
        struct Steps<'a>(&'a [StepReport]);
        impl Serialize for Steps<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.0.iter().map(Json))
            }
        }
        let mut r = s.serialize_struct("Report", 2)?;
        r.serialize_field("steps", &Steps(&self.0.steps))?;
        r.serialize_field("final", &self.0.final_state)?;
        r.end()
    }
}

/// `{"index": i, "now": t, KIND: BODY}`.
impl Serialize for Json<'_, StepReport> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("index", &r.index)?;
        m.serialize_entry("now", &r.now)?;
        m.serialize_entry(r.outcome.kind(), &body(r))?;
        m.end()
    }
}

fn to_json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("report values serialise")
}

/// A retention check that deleted something, as the report lists it.
fn pass_json(r: &RetentionReport) -> Value {
    json!({
        "at": r.at,
        "scheduled": r.scheduled,
        "deleted": r.deleted.iter().map(|d| d.base_offset).collect::<Vec<_>>(),
        "log_start_offset": r.log_start_offset,
    })
}

/// Every segment's verdict with a reason for people.
fn verdicts_json(r: &RetentionReport) -> Value {
    Value::Array(
        r.verdicts
            .iter()
            .map(|v| {
                let mut o = to_json(v);
                o["reason"] = Value::String(narrate::verdict(v, r).to_string());
                o
            })
            .collect(),
    )
}

fn diagnoses_json(d: &[Diagnosis]) -> Value {
    Value::Array(
        d.iter()
            .map(|d| json!({"batch_index": d.batch_index, "timestamp": d.timestamp, "rejected": d.rejected, "text": narrate::diagnosis(d).to_string()}))
            .collect(),
    )
}

fn rejection_json(e: &ProduceError) -> Value {
    let mut v = json!({
        "appended": false,
        "error_code": e.error.code(),
        "error_name": e.error.name(),
        "error_message": e.error_message,
        "record_errors": e.record_errors.iter().map(|r| json!({"batch_index": r.batch_index, "message": r.message})).collect::<Vec<_>>(),
        "diagnoses": diagnoses_json(&e.diagnoses),
    });
    if let Some(log) = &e.broker_log {
        v["broker_log"] = json!(log);
    }
    v
}

/// The step's entry under its kind. Every entry but a snapshot lists the retention checks that
/// deleted something during the step under `retention` (always for `advance` and `at`, else
/// only when there was one).
fn body(r: &StepReport) -> Value {
    let passes = || Value::Array(r.retention.iter().map(pass_json).collect());
    let rolled = || r.rolled_by_appends().collect::<Vec<_>>();
    let mut body = match &r.outcome {
        StepOutcome::Produce(ProduceOutcome::Appended(a)) => json!({
            "appended": true,
            "base_offset": a.base_offset,
            "last_offset": a.last_offset,
            "log_append_time": a.log_append_time.unwrap_or(Timestamp::NONE),
            "segment": a.segment,
            "size_bytes": a.size,
            "max_timestamp": a.max_timestamp,
            "diagnoses": diagnoses_json(&a.diagnoses),
            "rolled": rolled(),
        }),
        StepOutcome::Produce(ProduceOutcome::Rejected(e)) => rejection_json(e),
        StepOutcome::Produce(ProduceOutcome::Empty) => {
            json!({"appended": false, "ignored": "empty record set"})
        }
        StepOutcome::Produce(ProduceOutcome::Traffic(t)) => json!({
            "batches": t.batches,
            "appended_batches": t.appended_batches,
            "rejected_batches": t.rejected_batches,
            "records_appended": t.records_appended,
            "first_offset": t.first_offset,
            "last_offset": t.last_offset,
            "rolled": rolled(),
            "first_rejection": t.first_rejection.as_ref().map(|f| {
                let mut b = rejection_json(&f.error);
                b["batch"] = json!(f.batch);
                b["at"] = json!(f.at);
                b
            }),
            "diagnosed_batches": t.diagnosed_batches,
            "first_diagnoses": diagnoses_json(&t.first_diagnoses),
        }),
        StepOutcome::Advance(c) | StepOutcome::At(c) => {
            return json!({"from": c.from, "checks": c.checks, "retention": passes()});
        }
        StepOutcome::Retention(rep) => json!({
            "at": rep.at,
            "deleted": rep.deleted.iter().map(|d| d.base_offset).collect::<Vec<_>>(),
            "rolled": rep.rolled,
            "log_start_offset": rep.log_start_offset,
            "future_timestamp_segments": rep.future_timestamp_segments,
            "verdicts": verdicts_json(rep),
        }),
        StepOutcome::Lookup { spec, result } => match result {
            Ok(l) => {
                json!({"spec": spec.to_string(), "offset": l.offset, "timestamp": l.timestamp, "trace": l.trace})
            }
            Err(e) => {
                json!({"spec": spec.to_string(), "error_code": e.error_code, "error_message": e.message})
            }
        },
        StepOutcome::DeleteRecords { result, .. } => match result {
            Ok(low_watermark) => json!({ "low_watermark": low_watermark }),
            Err(e) => {
                json!({"error_code": e.error.code(), "error_name": e.error.name(), "error_message": e.error_message})
            }
        },
        StepOutcome::Config(changes) => json!({
            "changed": changes.iter().map(|c| json!({"name": c.name, "old": c.old, "new": c.new})).collect::<Vec<_>>(),
        }),
        StepOutcome::Version(v) => json!({"from": v.from, "to": v.to, "reset": v.reset}),
        StepOutcome::Snapshot(state) => return to_json(state),
        StepOutcome::HighWatermark(hw) => json!({ "high_watermark": hw }),
    };
    if !r.retention.is_empty() {
        body["retention"] = passes();
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse, run, Runner};
    use logtime_model::event::Event;
    use logtime_model::units::{Offset, Timestamp};

    const START: i64 = 1_804_842_000_000; // 2027-03-12T09:00:00Z

    fn report(steps: &str) -> Report {
        run(&parse(&format!(r#"{{"start": {START}, "steps": [{steps}]}}"#)).unwrap()).unwrap()
    }

    /// The step's entry under its kind, as `logtime run` prints it.
    fn entry(r: &StepReport) -> Value {
        to_json(&Json(r))[r.outcome.kind()].clone()
    }

    #[test]
    fn generated_traffic_follows_the_clock() {
        let s = parse(&format!(
            r#"{{"start": {START}, "topic": {{"index.interval.bytes": 0}}, "steps": [
                {{"produce": {{"batches": 3, "every": "1s", "timestamp_step": "10ms", "records": [{{"timestamp": "now-1s"}}, {{"timestamp": "now", "unit": "s"}}]}}}}]}}"#
        ))
        .unwrap();
        let mut runner = Runner::new(s);
        let mut appended = Vec::new();
        let r = runner
            .step(&mut |e| {
                if let Event::BatchAppended(a) = e.event {
                    appended.push((e.at.0, a.base_offset.0));
                }
            })
            .unwrap()
            .unwrap();
        assert!(runner.step(&mut |_| {}).is_none());
        assert_eq!(
            appended,
            vec![(START, 0), (START + 1000, 2), (START + 2000, 4)]
        );
        assert_eq!(r.now, Timestamp(START + 2000));
        assert_eq!(runner.now(), r.now);
        assert_eq!(entry(&r)["appended_batches"], 3);
        assert_eq!(entry(&r)["records_appended"], 6);
        // Batch 2 at START + 2000: now-1s + 2 x 10 ms, then the seconds mistake (÷1000).
        let ts = runner.partition().segments()[0]
            .record_timestamps()
            .to_vec();
        assert_eq!(ts[4], START + 1000 + 20);
        assert_eq!(ts[5], (START + 2000 + 20) / 1000);
    }

    #[test]
    fn rejected_batch_is_a_report_entry() {
        let r =
            report(r#"{"produce": {"records": [{"timestamp": "now+2h"}, {"timestamp": "now"}]}}"#);
        let b = entry(&r.steps[0]);
        assert_eq!(b["appended"], false);
        assert_eq!(b["error_code"], 32);
        assert_eq!(
            b["error_message"],
            "One or more records have been rejected due to invalid timestamp"
        );
        assert_eq!(b["record_errors"].as_array().unwrap().len(), 1);
        assert_eq!(b["record_errors"][0]["batch_index"], 0);
        assert!(b["diagnoses"][0]["text"]
            .as_str()
            .unwrap()
            .contains("ahead"));
        assert!(matches!(
            r.steps[0].outcome,
            StepOutcome::Produce(ProduceOutcome::Rejected(_))
        ));
        assert_eq!(r.final_state.log_end_offset, Offset(0));
        let g = report(
            r#"{"produce": {"batches": 4, "every": "1h", "records": [{"timestamp": "2027-03-12T10:30:00Z"}]}}"#,
        );
        let b = entry(&g.steps[0]);
        // Batches at 09:00 (1.5 h ahead: rejected), 10:00, 11:00, 12:00 (accepted).
        assert_eq!(
            (
                b["appended_batches"].as_u64(),
                b["rejected_batches"].as_u64()
            ),
            (Some(3), Some(1))
        );
        assert_eq!(b["first_rejection"]["batch"], 0);
        assert_eq!(b["first_rejection"]["error_code"], 32);
    }

    #[test]
    fn advance_lists_the_passes_that_deleted() {
        let r = report(
            r#"{"produce": {"records": [{"timestamp": "now-8d"}]}}, {"produce": {"records": [{"timestamp": "now"}]}},
               {"advance": "5m"}, {"advance": "5m"}"#,
        );
        // The second stamp is 8 d past the first batch's (> segment.ms 7 d): a time roll, and the
        // first check deletes the closed, expired segment 0; the second check deletes nothing.
        assert_eq!(entry(&r.steps[1])["rolled"], json!([1]));
        assert_eq!(entry(&r.steps[2])["checks"], 1);
        assert_eq!(entry(&r.steps[2])["retention"][0]["deleted"], json!([0]));
        assert_eq!(entry(&r.steps[3])["retention"], json!([]));
        let r = report(
            r#"{"config": {"segment.ms": 1}}, {"produce": {"records": [{"timestamp": "now-8d"}]}}, {"produce": {"records": [{"timestamp": "now"}]}},
               {"advance": "5m"}"#,
        );
        assert_eq!(entry(&r.steps[2])["rolled"], json!([1]));
        let passes = &entry(&r.steps[3])["retention"];
        assert_eq!(passes.as_array().unwrap().len(), 1);
        assert_eq!(passes[0]["at"], START + 300_000);
        assert_eq!(passes[0]["deleted"], json!([0]));
        assert_eq!(passes[0]["log_start_offset"], 1);
    }

    #[test]
    fn refusals_are_report_entries() {
        let r = report(
            r#"{"produce": {"records": [{"timestamp": "now"}]}}, {"lookup": {"timestamp": -7}},
               {"delete_records": {"offset": 5}}, {"delete_records": {"offset": -1}}, {"lookup": {"spec": "earliest"}}"#,
        );
        assert_eq!(entry(&r.steps[1])["error_code"], 35);
        assert!(matches!(
            r.steps[1].outcome,
            StepOutcome::Lookup { result: Err(_), .. }
        ));
        assert_eq!(entry(&r.steps[2])["error_code"], 1);
        assert_eq!(entry(&r.steps[3])["low_watermark"], 1);
        assert_eq!(entry(&r.steps[4])["offset"], 1);
        assert_eq!(entry(&r.steps[4])["timestamp"], -1);
    }

    #[test]
    fn report_serialises_with_the_kind_as_key() {
        let r = report(r#"{"snapshot": {}}, {"retention": {}}"#);
        let v = serde_json::to_value(Json(&r)).unwrap();
        assert_eq!(v["steps"][0]["index"], 0);
        assert_eq!(v["steps"][0]["now"], START);
        assert_eq!(v["steps"][0]["snapshot"]["log_end_offset"], 0);
        assert_eq!(
            v["steps"][1]["retention"]["verdicts"][0]["verdict"]["kind"],
            "empty_active"
        );
        assert_eq!(v["final"]["segments"][0]["base_offset"], 0);
    }
}
