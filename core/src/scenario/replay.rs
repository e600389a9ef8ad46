//! Replaying a [`Scenario`] against a [`Partition`].
//!
//! INTERFACE (fixed; the scenario/CLI teammate implements the bodies): see `mod.rs`.
//!
//! The report's JSON bodies are built only with the `report` feature (on by default, used by
//! the CLI). Without it, as in the web explorer, which animates events and never prints a
//! report, every body is `null`: the serialisation code then stays out of the wasm.

#![cfg_attr(
    not(feature = "report"),
    allow(
        unused_variables,
        unused_assignments,
        unused_mut,
        dead_code,
        unused_imports
    )
)]

use super::narrate::verdict_text;
use super::time::{apply_unit, overflow_reason};
use super::{ProduceStep, Scenario, ScenarioError, Step, TimedEvent};
use crate::batch::Record;
use crate::config::Config;
use crate::diagnosis::Diagnosis;
use crate::error::Error;
use crate::event::Event;
use crate::lookup::{Lookup, LookupError};
use crate::partition::{Command, Partition, PartitionState};
use crate::retention::RetentionReport;
use crate::segment::RollReason;
use crate::units::{Offset, Timestamp};
use crate::validation::ProduceError;
use serde::{Serialize, Serializer};
use serde_json::Value;

#[cfg(feature = "report")]
macro_rules! json {
    ($($t:tt)+) => { serde_json::json!($($t)+) };
}

#[cfg(not(feature = "report"))]
macro_rules! json {
    ($($t:tt)+) => {
        serde_json::Value::Null
    };
}

/// `serde_json::to_value`, or `null` without the `report` feature.
#[cfg(feature = "report")]
fn to_json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("report values serialise")
}

#[cfg(not(feature = "report"))]
fn to_json<T>(_: &T) -> Value {
    Value::Null
}

/// What one step did.
#[derive(Clone, Debug, PartialEq)]
pub struct StepReport {
    /// 0-based step index.
    pub index: usize,
    /// Broker time after the step.
    pub now: Timestamp,
    /// The step's kind (`produce`, `advance`, ...), the key of `body` in the report.
    pub kind: &'static str,
    /// The step's entry exactly as the report prints it under `kind`.
    pub body: serde_json::Value,
    /// For lookup steps: the typed answer with its trace (or the broker's refusal).
    pub lookup: Option<Result<Lookup, LookupError>>,
    /// For produce steps: the typed rejection of the first rejected batch, if any.
    pub rejection: Option<ProduceError>,
}

impl Serialize for StepReport {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("index", &self.index)?;
        m.serialize_entry("now", &self.now)?;
        m.serialize_entry(self.kind, &self.body)?;
        m.end()
    }
}

/// A whole replay: `{"steps": [...], "final": STATE}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// One entry per step.
    pub steps: Vec<StepReport>,
    /// The partition at the end.
    #[serde(rename = "final")]
    pub final_state: PartitionState,
}

/// Replays a scenario step by step.
#[derive(Clone, Debug)]
pub struct Runner {
    scenario: Scenario,
    partition: Partition,
    now: Timestamp,
    next: usize,
}

impl Runner {
    /// A runner at the scenario's start, before step 0.
    pub fn new(scenario: Scenario) -> Runner {
        let partition = scenario.partition();
        let now = scenario.start;
        Runner {
            scenario,
            partition,
            now,
            next: 0,
        }
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The partition as replayed so far.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// The partition, for interactive commands between steps (apply them at [`Runner::now`] or
    /// later, then [`Runner::set_now`]).
    pub fn partition_mut(&mut self) -> &mut Partition {
        &mut self.partition
    }

    /// The broker clock.
    pub fn now(&self) -> Timestamp {
        self.now
    }

    /// Moves the runner's clock after interactive commands (never backwards).
    pub fn set_now(&mut self, now: Timestamp) {
        self.now = self.now.max(now);
    }

    /// The index of the next step to run.
    pub fn next_step(&self) -> usize {
        self.next
    }

    /// Whether every step has run.
    pub fn is_done(&self) -> bool {
        self.next >= self.scenario.steps.len()
    }

    /// Runs the next step, handing each event to `on_event` as it happens. `None` when done.
    /// After an error the runner moves on to the next step's index (a replay normally stops).
    pub fn step(
        &mut self,
        on_event: &mut dyn FnMut(TimedEvent<'_>),
    ) -> Option<Result<StepReport, ScenarioError>> {
        let index = self.next;
        let step = self.scenario.steps.get(index)?;
        self.next += 1;
        let mut ctx = Ctx {
            index,
            partition: &mut self.partition,
            on_event,
        };
        Some(ctx.run(step, &mut self.now))
    }
}

struct Ctx<'a, 'f> {
    index: usize,
    partition: &'a mut Partition,
    on_event: &'f mut dyn FnMut(TimedEvent<'_>),
}

fn ms(t: Timestamp) -> i64 {
    t.0
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
fn verdicts_json(r: &RetentionReport, config: &Config) -> Value {
    Value::Array(
        r.verdicts
            .iter()
            .map(|v| {
                let mut o = to_json(v);
                o["reason"] = Value::String(verdict_text(v, config, r.at));
                o
            })
            .collect(),
    )
}

fn diagnoses_json(d: &[Diagnosis]) -> Value {
    Value::Array(
        d.iter()
            .map(|d| json!({"batch_index": d.batch_index, "timestamp": d.timestamp, "rejected": d.rejected, "text": d.text()}))
            .collect(),
    )
}

fn rejection_json(e: &ProduceError) -> Value {
    json!({
        "appended": false,
        "error_code": e.error.code(),
        "error_name": e.error.name(),
        "error_message": e.error_message,
        "record_errors": e.record_errors.iter().map(|r| json!({"batch_index": r.batch_index, "message": r.message})).collect::<Vec<_>>(),
        "diagnoses": diagnoses_json(&e.diagnoses),
    })
}

impl Ctx<'_, '_> {
    fn err(&self, field: &str, reason: impl Into<String>) -> ScenarioError {
        ScenarioError {
            step: Some(self.index),
            field: field.to_string(),
            reason: reason.into(),
            line_column: None,
        }
    }

    /// Applies a command, handing its events to the callback; also collects the retention
    /// checks that deleted something.
    fn apply(
        &mut self,
        now: Timestamp,
        cmd: Command,
        passes: &mut Vec<Value>,
    ) -> Result<Vec<Event>, Error> {
        let events = self.partition.apply(now, cmd)?;
        for event in &events {
            if let Event::RetentionChecked(r) = event {
                if !r.deleted.is_empty() {
                    passes.push(pass_json(r));
                }
            }
            (self.on_event)(TimedEvent {
                step: self.index,
                at: now,
                event,
            });
        }
        Ok(events)
    }

    /// Runs the checks due by `now` (so a rejected batch still lets scheduled retention run).
    fn due_checks(&mut self, now: Timestamp, passes: &mut Vec<Value>) -> Result<(), ScenarioError> {
        if now >= self.partition.next_retention_check() {
            self.apply(now, Command::Tick, passes)
                .map_err(|e| self.err("", e.to_string()))?;
        }
        Ok(())
    }

    fn report(&self, now: Timestamp, kind: &'static str, body: Value) -> StepReport {
        StepReport {
            index: self.index,
            now,
            kind,
            body,
            lookup: None,
            rejection: None,
        }
    }

    fn run(&mut self, step: &Step, now: &mut Timestamp) -> Result<StepReport, ScenarioError> {
        let kind = step.kind();
        let mut passes = Vec::new();
        let mut body = match step {
            Step::Produce(p) if p.generated => return self.generated(p, now),
            Step::Produce(p) => return self.produce_one(p, *now),
            Step::Advance(d) => {
                let to = now
                    .0
                    .checked_add(*d)
                    .ok_or_else(|| self.err("advance", "the clock overflows a 64-bit long"))?;
                self.move_clock(Timestamp(to), now, "advance", &mut passes)?
            }
            Step::At(t) => self.move_clock(*t, now, "at", &mut passes)?,
            Step::Retention => {
                let events = self
                    .apply(*now, Command::RunRetention, &mut passes)
                    .map_err(|e| self.err("retention", e.to_string()))?;
                let r = events
                    .iter()
                    .rev()
                    .find_map(|e| match e {
                        Event::RetentionChecked(r) => Some(r),
                        _ => None,
                    })
                    .expect("a retention command reports its check");
                json!({
                    "at": r.at,
                    "deleted": r.deleted.iter().map(|d| d.base_offset).collect::<Vec<_>>(),
                    "rolled": r.rolled,
                    "log_start_offset": r.log_start_offset,
                    "future_timestamp_segments": r.future_timestamp_segments,
                    "verdicts": verdicts_json(r, self.partition.config()),
                })
            }
            Step::Lookup(spec) => {
                let found = self.partition.lookup(*spec);
                let body = match &found {
                    Ok(l) => {
                        json!({"spec": spec.to_string(), "offset": l.offset, "timestamp": l.timestamp, "trace": l.trace})
                    }
                    Err(e) => {
                        json!({"spec": spec.to_string(), "error_code": e.error_code, "error_message": e.message})
                    }
                };
                let mut r = self.report(*now, kind, body);
                r.lookup = Some(found);
                return Ok(r);
            }
            Step::DeleteRecords(offset) => match self.apply(
                *now,
                Command::DeleteRecords { offset: *offset },
                &mut passes,
            ) {
                Ok(events) => {
                    let lw = events.iter().find_map(|e| match e {
                        Event::RecordsDeleted { low_watermark, .. } => Some(*low_watermark),
                        _ => None,
                    });
                    json!({"low_watermark": lw})
                }
                Err(Error::DeleteRecords(e)) => {
                    json!({"error_code": e.error.code(), "error_name": e.error.name(), "error_message": e.error_message})
                }
                Err(e) => return Err(self.err("delete_records.offset", e.to_string())),
            },
            Step::Config(changes) => {
                let mut changed = Vec::with_capacity(changes.len());
                for (name, value) in changes {
                    let cmd = Command::SetConfig {
                        name: name.clone(),
                        value: value.clone(),
                    };
                    let events = self
                        .apply(*now, cmd, &mut passes)
                        .map_err(|e| self.err(&format!("config.{name}"), e.to_string()))?;
                    for e in events {
                        if let Event::ConfigChanged { name, old, new } = e {
                            changed.push(json!({"name": name, "old": old, "new": new}));
                        }
                    }
                }
                json!({ "changed": changed })
            }
            Step::Snapshot => to_json(&self.partition.state()),
            Step::HighWatermark(o) => {
                self.apply(*now, Command::SetHighWatermark { offset: *o }, &mut passes)
                    .map_err(|e| self.err("high_watermark.offset", e.to_string()))?;
                json!({ "high_watermark": self.partition.high_watermark() })
            }
        };
        if !passes.is_empty() && !matches!(step, Step::Snapshot) {
            body["retention"] = Value::Array(passes);
        }
        Ok(self.report(*now, kind, body))
    }

    fn move_clock(
        &mut self,
        to: Timestamp,
        now: &mut Timestamp,
        field: &str,
        passes: &mut Vec<Value>,
    ) -> Result<Value, ScenarioError> {
        if to < *now {
            return Err(self.err(
                field,
                format!(
                    "clock moved backwards: {} is before now ({})",
                    crate::human::rfc3339(to.0),
                    crate::human::rfc3339(now.0)
                ),
            ));
        }
        let events = self
            .apply(to, Command::Tick, passes)
            .map_err(|e| self.err(field, e.to_string()))?;
        let checks = events
            .iter()
            .filter(|e| matches!(e, Event::RetentionChecked(_)))
            .count();
        let from = *now;
        *now = to;
        Ok(json!({"from": from, "checks": checks, "retention": std::mem::take(passes)}))
    }

    fn records(
        &self,
        p: &ProduceStep,
        now: Timestamp,
        k: u64,
    ) -> Result<Vec<Record>, ScenarioError> {
        let shift = (k as i64).checked_mul(p.timestamp_step_ms).ok_or_else(|| {
            self.err(
                "produce.timestamp_step",
                "batch × timestamp_step overflows a 64-bit long",
            )
        })?;
        let mut out = Vec::with_capacity(p.records.len());
        for (j, r) in p.records.iter().enumerate() {
            let field = || format!("produce.records[{j}].timestamp");
            let base = r
                .timestamp
                .resolve(ms(now))
                .ok_or_else(|| self.err(&field(), overflow_reason(None)))?;
            let intended = if base == -1 || shift == 0 {
                Some(base)
            } else {
                base.checked_add(shift)
            };
            let ts = intended
                .and_then(|t| apply_unit(t, r.unit))
                .ok_or_else(|| self.err(&field(), overflow_reason(r.unit)))?;
            out.push(Record {
                timestamp: Timestamp(ts),
                key_bytes: r.key_bytes,
                value_bytes: r.value_bytes,
                headers: Vec::new(),
            });
        }
        Ok(out)
    }

    fn produce_one(
        &mut self,
        p: &ProduceStep,
        now: Timestamp,
    ) -> Result<StepReport, ScenarioError> {
        let mut passes = Vec::new();
        self.due_checks(now, &mut passes)?;
        let records = self.records(p, now, 0)?;
        let mut rejection = None;
        let mut body = match self.apply(now, Command::Produce { records }, &mut passes) {
            Ok(events) => {
                let mut body = json!({"appended": false, "ignored": "empty record set"});
                let mut rolled = Vec::new();
                for e in &events {
                    match e {
                        Event::BatchAppended(a) => {
                            body = json!({
                                "appended": true,
                                "base_offset": a.base_offset,
                                "last_offset": a.last_offset,
                                "log_append_time": a.log_append_time.unwrap_or(Timestamp::NONE),
                                "segment": a.segment,
                                "size_bytes": a.size,
                                "max_timestamp": a.max_timestamp,
                                "diagnoses": diagnoses_json(&a.diagnoses),
                            });
                        }
                        Event::SegmentRolled {
                            new_base, reason, ..
                        } if !matches!(reason, RollReason::RetentionDeletesAll) => {
                            rolled.push(*new_base)
                        }
                        _ => {}
                    }
                }
                if body["appended"] == true {
                    body["rolled"] = json!(rolled);
                }
                body
            }
            Err(Error::Produce(e)) => {
                let b = rejection_json(&e);
                rejection = Some(e);
                b
            }
            Err(e) => return Err(self.err("produce", e.to_string())),
        };
        if !passes.is_empty() {
            body["retention"] = Value::Array(passes);
        }
        let mut r = self.report(now, "produce", body);
        r.rejection = rejection;
        Ok(r)
    }

    fn generated(
        &mut self,
        p: &ProduceStep,
        now: &mut Timestamp,
    ) -> Result<StepReport, ScenarioError> {
        let mut passes = Vec::new();
        let start = *now;
        let (mut appended, mut rejected, mut records_appended) = (0u64, 0u64, 0u64);
        let (mut first_offset, mut last_offset) = (Offset(-1), Offset(-1));
        let mut rolled = Vec::new();
        let mut first_rejection: Option<(u64, Timestamp, ProduceError)> = None;
        let mut diagnosed = 0u64;
        let mut first_diagnoses = Value::Array(Vec::new());
        for k in 0..p.batches {
            let at = (k as i64)
                .checked_mul(p.every_ms)
                .and_then(|d| start.0.checked_add(d))
                .map(Timestamp)
                .ok_or_else(|| {
                    self.err(
                        "produce.every",
                        "batches × every overflows the 64-bit clock",
                    )
                })?;
            self.due_checks(at, &mut passes)?;
            *now = at;
            let records = self.records(p, at, k)?;
            match self.partition.apply(at, Command::Produce { records }) {
                Ok(events) => {
                    for event in &events {
                        match event {
                            Event::BatchAppended(a) => {
                                appended += 1;
                                records_appended += (a.last_offset.0 - a.base_offset.0 + 1) as u64;
                                if first_offset.0 < 0 {
                                    first_offset = a.base_offset;
                                }
                                last_offset = a.last_offset;
                                if !a.diagnoses.is_empty() {
                                    if diagnosed == 0 {
                                        first_diagnoses = diagnoses_json(&a.diagnoses);
                                    }
                                    diagnosed += 1;
                                }
                            }
                            Event::SegmentRolled {
                                new_base, reason, ..
                            } if !matches!(reason, RollReason::RetentionDeletesAll) => {
                                rolled.push(*new_base)
                            }
                            Event::RetentionChecked(r) if !r.deleted.is_empty() => {
                                passes.push(pass_json(r))
                            }
                            _ => {}
                        }
                        (self.on_event)(TimedEvent {
                            step: self.index,
                            at,
                            event,
                        });
                    }
                }
                Err(Error::Produce(e)) => {
                    rejected += 1;
                    if first_rejection.is_none() {
                        first_rejection = Some((k, at, e));
                    }
                }
                Err(e) => return Err(self.err("produce", e.to_string())),
            }
        }
        let first = first_rejection.as_ref().map(|(k, at, e)| {
            let mut b = rejection_json(e);
            b["batch"] = json!(k);
            b["at"] = json!(at);
            b
        });
        let mut body = json!({
            "batches": p.batches,
            "appended_batches": appended,
            "rejected_batches": rejected,
            "records_appended": records_appended,
            "first_offset": first_offset,
            "last_offset": last_offset,
            "rolled": rolled,
            "first_rejection": first,
            "diagnosed_batches": diagnosed,
            "first_diagnoses": first_diagnoses,
        });
        if !passes.is_empty() {
            body["retention"] = Value::Array(passes);
        }
        let mut r = self.report(*now, "produce", body);
        r.rejection = first_rejection.map(|(_, _, e)| e);
        Ok(r)
    }
}

/// Replays a whole scenario into its report.
pub fn run(scenario: &Scenario) -> Result<Report, ScenarioError> {
    let mut r = Runner::new(scenario.clone());
    let mut steps = Vec::new();
    while let Some(step) = r.step(&mut |_| {}) {
        steps.push(step?);
    }
    Ok(Report {
        steps,
        final_state: r.partition.state(),
    })
}

#[cfg(all(test, feature = "report"))]
mod tests {
    use super::*;
    use crate::scenario::parse;

    const START: i64 = 1_804_842_000_000; // 2027-03-12T09:00:00Z

    fn report(steps: &str) -> Report {
        run(&parse(&format!(r#"{{"start": {START}, "steps": [{steps}]}}"#)).unwrap()).unwrap()
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
        assert_eq!(r.body["appended_batches"], 3);
        assert_eq!(r.body["records_appended"], 6);
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
        let b = &r.steps[0].body;
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
        assert!(r.steps[0].rejection.is_some());
        assert_eq!(r.final_state.log_end_offset, Offset(0));
        let g = report(
            r#"{"produce": {"batches": 4, "every": "1h", "records": [{"timestamp": "2027-03-12T10:30:00Z"}]}}"#,
        );
        let b = &g.steps[0].body;
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
        assert_eq!(r.steps[1].body["rolled"], serde_json::json!([1]));
        assert_eq!(r.steps[2].body["checks"], 1);
        assert_eq!(
            r.steps[2].body["retention"][0]["deleted"],
            serde_json::json!([0])
        );
        assert_eq!(r.steps[3].body["retention"], serde_json::json!([]));
        let r = report(
            r#"{"config": {"segment.ms": 1}}, {"produce": {"records": [{"timestamp": "now-8d"}]}}, {"produce": {"records": [{"timestamp": "now"}]}},
               {"advance": "5m"}"#,
        );
        assert_eq!(r.steps[2].body["rolled"], serde_json::json!([1]));
        let passes = &r.steps[3].body["retention"];
        assert_eq!(passes.as_array().unwrap().len(), 1);
        assert_eq!(passes[0]["at"], START + 300_000);
        assert_eq!(passes[0]["deleted"], serde_json::json!([0]));
        assert_eq!(passes[0]["log_start_offset"], 1);
    }

    #[test]
    fn refusals_are_report_entries() {
        let r = report(
            r#"{"produce": {"records": [{"timestamp": "now"}]}}, {"lookup": {"timestamp": -7}},
               {"delete_records": {"offset": 5}}, {"delete_records": {"offset": -1}}, {"lookup": {"spec": "earliest"}}"#,
        );
        assert_eq!(r.steps[1].body["error_code"], 35);
        assert!(r.steps[1].lookup.as_ref().unwrap().is_err());
        assert_eq!(r.steps[2].body["error_code"], 1);
        assert_eq!(r.steps[3].body["low_watermark"], 1);
        assert_eq!(r.steps[4].body["offset"], 1);
        assert_eq!(r.steps[4].body["timestamp"], -1);
    }

    #[test]
    fn scenario_errors_at_replay_name_step_and_field() {
        let s = parse(&format!(
            r#"{{"start": {START}, "steps": [{{"snapshot": {{}}}}, {{"high_watermark": {{"offset": 3}}}}]}}"#
        ))
        .unwrap();
        let e = run(&s).unwrap_err();
        assert_eq!(e.to_string(), "step 1: high_watermark.offset: high watermark 3 is outside [0, 0] (log start offset to log end offset)");
    }

    #[test]
    fn report_serialises_with_the_kind_as_key() {
        let r = report(r#"{"snapshot": {}}, {"retention": {}}"#);
        let v = serde_json::to_value(&r).unwrap();
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
