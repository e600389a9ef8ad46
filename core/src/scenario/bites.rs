//! The replay's effects that bite: what a step did that its author may not have meant and that
//! the file does not say. A scheduled retention check that deleted segments while the steps ran
//! (a drill about "the next check" finds them already gone), a batch the broker rejected (a
//! KIP-937 timestamp window, a size limit: nothing was appended), a version switch that put
//! explicit settings back to the new preset's defaults (a 3.x `segment.bytes` below Kafka 4.x's
//! 1 MiB minimum).
//!
//! These are read from the typed [`StepReport`] the runner already returns; nothing here decides
//! anything Kafka does. `logtime check` prints them as warnings at their step; the web explorer
//! can show them beside the step (see [`bites`] and [`replay`]).

use super::narrate::{self, Sentence};
use super::{ProduceOutcome, Runner, Scenario, ScenarioError, StepOutcome, StepReport};
use crate::human;
use logtime_model::config::{Config, KafkaVersion};
use logtime_model::retention::DeletedSegment;
use logtime_model::units::{Offset, Timestamp};
use logtime_model::validation::ProduceError;
use std::fmt::Write;

/// One effect that bites, at its step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bite {
    /// The step it happened in: the 0-based index `logtime check` prints as `step N` (a lesson's
    /// file step, a scenario's step).
    pub step: usize,
    /// What happened.
    pub kind: BiteKind,
}

/// What bit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BiteKind {
    /// Retention checks run by the `log.retention.check.interval.ms` schedule deleted segments
    /// during the step (every such check of the step, together).
    ScheduledDeletion {
        /// When the first of them ran.
        first_at: Timestamp,
        /// When the last of them ran.
        last_at: Timestamp,
        /// How many scheduled checks deleted something.
        checks: usize,
        /// The segments they deleted, in deletion order, each with its pass.
        deleted: Vec<DeletedSegment>,
        /// `retention.ms` in force at the last of them.
        retention_ms: i64,
        /// `retention.bytes` in force at the last of them.
        retention_bytes: i64,
    },
    /// The broker rejected a batch (a KIP-937 timestamp window, a size limit): nothing of it was
    /// appended.
    Rejected {
        /// For generated traffic, the first rejected batch's index among the step's batches and
        /// how many were rejected in all; `None` for a single batch.
        traffic: Option<(u64, u64)>,
        /// The broker's response, with the acceptable window when the topic is CreateTime.
        error: ProduceError,
    },
    /// A version switch put explicit settings back to the new preset's defaults because the new
    /// preset does not accept them (a value below its minimum, a removed config).
    SettingsReset {
        /// The preset before.
        from: KafkaVersion,
        /// The preset after.
        to: KafkaVersion,
        /// Each dropped setting with the value in force after the switch (`None`: the config does
        /// not exist in the new preset).
        settings: Vec<(String, Option<String>)>,
    },
}

/// The effects that bite in one step's report; `config` is the configuration after the step.
/// `step` is the index to report them at.
pub fn bites(step: usize, report: &StepReport, config: &Config) -> Vec<Bite> {
    let mut out = Vec::new();
    let mut push = |kind| out.push(Bite { step, kind });
    let scheduled: Vec<_> = report
        .retention
        .iter()
        .filter(|r| r.scheduled && !r.deleted.is_empty())
        .collect();
    if let (Some(first), Some(last)) = (scheduled.first(), scheduled.last()) {
        push(BiteKind::ScheduledDeletion {
            first_at: first.at,
            last_at: last.at,
            checks: scheduled.len(),
            deleted: scheduled.iter().flat_map(|r| r.deleted.clone()).collect(),
            retention_ms: last.retention_ms,
            retention_bytes: last.retention_bytes,
        });
    }
    match &report.outcome {
        StepOutcome::Produce(ProduceOutcome::Rejected(e)) => push(BiteKind::Rejected {
            traffic: None,
            error: e.clone(),
        }),
        StepOutcome::Produce(ProduceOutcome::Traffic(t)) => {
            if let Some(first) = &t.first_rejection {
                push(BiteKind::Rejected {
                    traffic: Some((first.batch, t.rejected_batches)),
                    error: first.error.clone(),
                });
            }
        }
        StepOutcome::Version(v) if !v.reset.is_empty() => push(BiteKind::SettingsReset {
            from: v.from,
            to: v.to,
            settings: v
                .reset
                .iter()
                .map(|name| (name.clone(), config.get(name).map(|v| v.to_string())))
                .collect(),
        }),
        _ => {}
    }
    out
}

/// Replays `scenario` and returns every effect that bites, in step order, or the first step
/// that failed.
pub fn replay(scenario: Scenario) -> Result<Vec<Bite>, ScenarioError> {
    let mut runner = Runner::new(scenario);
    let mut out = Vec::new();
    while let Some(step) = runner.step_summary() {
        let (report, _) = step?;
        out.extend(bites(report.index, &report, runner.partition().config()));
    }
    Ok(out)
}

impl Bite {
    /// What happened, in the words `logtime check` prints after `step N: warning: `.
    pub fn sentence(&self) -> Sentence {
        let mut s = Sentence::new();
        match &self.kind {
            BiteKind::ScheduledDeletion {
                first_at,
                last_at,
                checks,
                deleted,
                retention_ms,
                retention_bytes,
            } => deletion(
                &mut s,
                (*first_at, *last_at, *checks),
                deleted,
                (*retention_ms, *retention_bytes),
            ),
            BiteKind::Rejected { traffic, error } => {
                if let Some((first, n)) = traffic {
                    let _ = write!(
                        s,
                        "{} of the step's traffic rejected, the first is batch {first}: ",
                        narrate::count(*n, "batch", "batches")
                    );
                }
                s.append(narrate::rejection(error));
                if let Some(w) = error.window {
                    window(&mut s, w);
                }
            }
            BiteKind::SettingsReset { from, to, settings } => {
                let _ = write!(
                    s,
                    "switching from {} to {} reset {} that {} does not accept: ",
                    from.label(),
                    to.label(),
                    narrate::count(settings.len() as u64, "setting", "settings"),
                    to.label()
                );
                let each = settings.iter().map(|(name, now)| {
                    let mut one = Sentence::new();
                    one.config(name);
                    match now {
                        Some(v) => one.text(format!(" is now {v}, the default")),
                        None => one.text(" no longer exists"),
                    };
                    one
                });
                s.append(Sentence::join(each, ", "));
            }
        }
        s
    }
}

/// ` (the KIP-937 window accepts timestamps up to 12 Mar 2027 10:00)`. Kafka prints the bounds
/// as `now - before` and `now + after` in Java arithmetic: a bound far before the epoch (the
/// `Long.MAX_VALUE` default) or wrapped past it means no limit on that side.
fn window(s: &mut Sentence, (lo, hi): (Timestamp, Timestamp)) {
    let lo_shown = lo.0 >= 0;
    let hi_shown = hi.0 >= 0 && hi.0 >= lo.0;
    match (lo_shown, hi_shown) {
        (true, true) => s
            .text(" (the KIP-937 window accepts timestamps from ")
            .time(lo)
            .text(" to ")
            .time(hi),
        (false, true) => s
            .text(" (the KIP-937 window accepts timestamps up to ")
            .time(hi),
        (true, false) => s
            .text(" (the KIP-937 window accepts timestamps from ")
            .time(lo)
            .text(" on"),
        (false, false) => return,
    };
    s.text(")");
}

/// The most deleted segments a warning names one by one.
const NAMED_SEGMENTS: usize = 8;

/// `scheduled retention checks from .. to .. (3) deleted 5 segments before the step ended: ...`.
fn deletion(
    s: &mut Sentence,
    (first_at, last_at, checks): (Timestamp, Timestamp, usize),
    deleted: &[DeletedSegment],
    (retention_ms, retention_bytes): (i64, i64),
) {
    if checks == 1 {
        s.text("a scheduled retention check at ").time(first_at);
    } else {
        let _ = write!(s, "{checks} scheduled retention checks from ");
        s.time(first_at).text(" to ").time(last_at);
    }
    let _ = write!(
        s,
        " deleted {} before the step ended: ",
        narrate::count(deleted.len() as u64, "segment", "segments")
    );
    let named = deleted.iter().take(NAMED_SEGMENTS).map(|d| {
        let mut one = Sentence::new();
        one.segment(d.base_offset);
        one
    });
    s.append(Sentence::join(named, ", "));
    if deleted.len() > NAMED_SEGMENTS {
        let _ = write!(s, " and {} more", deleted.len() - NAMED_SEGMENTS);
    }
    if let (Some(a), Some(b)) = (deleted.first(), deleted.last()) {
        let _ = write!(
            s,
            " ({})",
            narrate::offset_range(a.base_offset, Offset(b.next_offset.0 - 1))
        );
    }
    let mut passes: Vec<&str> = Vec::new();
    for d in deleted {
        let name = narrate::pass_name(d.pass);
        if !passes.contains(&name) {
            passes.push(name);
        }
    }
    let _ = write!(
        s,
        ", by the {} {} (retention.ms {}, retention.bytes {}); later steps see them gone",
        passes.join(" and "),
        if passes.len() == 1 { "pass" } else { "passes" },
        limit(retention_ms, human::duration),
        limit(retention_bytes, human::bytes)
    );
}

/// A retention limit for people: `none` when negative.
fn limit(v: i64, show: fn(i64) -> String) -> String {
    if v < 0 {
        "none".into()
    } else {
        show(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn bites_of(json: &str) -> Vec<Bite> {
        replay(super::super::parse(json).unwrap()).unwrap()
    }

    /// The trainer's drill as first drafted: a replay of three-day-old events into a one-day
    /// topic that takes longer than the retention check interval, so scheduled checks delete
    /// the replayed segments before the question is asked.
    #[test]
    fn a_scheduled_check_that_deletes_mid_replay_is_named_at_its_step() {
        let b = bites_of(
            r#"{"kafka": "4.0", "topic": {"retention.ms": "1d", "segment.bytes": "1MiB"},
                "start": "2027-03-12T09:00:00Z",
                "steps": [
                  {"produce": {"records": [{"timestamp": "now-3d", "value_bytes": 600000}]}},
                  {"produce": {"batches": 4, "every": "4min", "timestamp_step": "1min",
                               "records": [{"timestamp": "now-3d", "value_bytes": 600000}]}}]}"#,
        );
        assert_eq!(b.len(), 1, "{b:?}");
        assert_eq!(b[0].step, 1);
        let BiteKind::ScheduledDeletion {
            deleted, checks, ..
        } = &b[0].kind
        else {
            panic!("{b:?}")
        };
        assert_eq!(*checks, 2);
        let bases: Vec<i64> = deleted.iter().map(|d| d.base_offset.0).collect();
        assert_eq!(bases, vec![0, 1, 2, 3]);
        assert_eq!(
            b[0].sentence().to_string(),
            "2 scheduled retention checks from 12 Mar 2027 09:05 to 12 Mar 2027 09:10 deleted 4 \
             segments before the step ended: 0, 1, 2, 3 (offsets 0 to 3), by the retention.ms pass \
             (retention.ms 1 d, retention.bytes none); later steps see them gone"
        );
    }

    #[test]
    fn a_retention_step_on_request_is_not_a_bite() {
        let b = bites_of(
            r#"{"kafka": "3.6", "topic": {"retention.ms": "1d", "segment.bytes": 170},
                "start": "2027-03-12T09:00:00Z",
                "steps": [
                  {"produce": {"records": [{"timestamp": "now-3d"}]}},
                  {"produce": {"records": [{"timestamp": "now"}]}},
                  {"retention": {}}]}"#,
        );
        assert_eq!(b, vec![]);
    }

    #[test]
    fn a_batch_outside_the_kip_937_window_is_named_with_the_window() {
        let b = bites_of(
            r#"{"kafka": "3.6", "topic": {"message.timestamp.after.max.ms": "1h"},
                "start": "2027-03-12T09:00:00Z",
                "steps": [
                  {"produce": {"records": [{"timestamp": "now"}]}},
                  {"produce": {"records": [{"timestamp": "now+2h"}]}},
                  {"produce": {"batches": 3, "every": "1s",
                               "records": [{"timestamp": "now+3h"}]}}]}"#,
        );
        assert_eq!(b.len(), 2, "{b:?}");
        assert_eq!((b[0].step, b[1].step), (1, 2));
        let BiteKind::Rejected { traffic, error } = &b[0].kind else {
            panic!("{b:?}")
        };
        assert_eq!(*traffic, None);
        assert_eq!(error.error.code(), 32);
        let text = b[0].sentence().to_string();
        assert!(
            text.starts_with("the broker rejected the batch with error 32 INVALID_TIMESTAMP"),
            "{text}"
        );
        assert!(
            text.ends_with(
                "nothing was appended (the KIP-937 window accepts timestamps up to 12 Mar 2027 10:00)"
            ),
            "{text}"
        );
        let BiteKind::Rejected { traffic, .. } = &b[1].kind else {
            panic!("{b:?}")
        };
        assert_eq!(*traffic, Some((0, 3)));
        assert!(b[1]
            .sentence()
            .to_string()
            .starts_with("3 batches of the step's traffic rejected, the first is batch 0: "));
    }

    /// Kafka 4.x's 1 MiB minimum `segment.bytes`: a 3.x setting below it is put back to the 4.x
    /// default by a version switch, and the segments stop rolling where the author expects.
    #[test]
    fn a_setting_below_the_new_minimum_reset_by_a_version_switch_is_named() {
        let b = bites_of(
            r#"{"kafka": "3.6", "topic": {"segment.bytes": 170},
                "start": "2027-03-12T09:00:00Z",
                "steps": [
                  {"produce": {"records": [{"timestamp": "now"}]}},
                  {"version": "4.0"}]}"#,
        );
        assert_eq!(b.len(), 1, "{b:?}");
        assert_eq!(b[0].step, 1);
        assert_eq!(
            b[0].kind,
            BiteKind::SettingsReset {
                from: KafkaVersion::parse("3.6").unwrap(),
                to: KafkaVersion::parse("4.0").unwrap(),
                settings: vec![("segment.bytes".into(), Some("1073741824".into()))],
            }
        );
        assert_eq!(
            b[0].sentence().to_string(),
            "switching from Kafka 3.6–3.9 to Kafka 4.x reset 1 setting that Kafka 4.x does not accept: segment.bytes is now 1073741824, the default"
        );
    }
}
