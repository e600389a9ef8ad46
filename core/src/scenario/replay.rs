//! Replaying a [`Scenario`] against a [`Partition`].
//!
//! INTERFACE (fixed; the scenario/CLI teammate implements the bodies): see `mod.rs`.

use super::narrate::verdict_text;
use super::time::{apply_unit, overflow_reason, resolve};
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
use serde_json::{json, Value};

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
                let mut o = serde_json::to_value(v).expect("verdicts serialise");
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
            Step::Snapshot => {
                serde_json::to_value(self.partition.state()).expect("state serialises")
            }
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
            let base = resolve(r.timestamp, ms(now))
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
