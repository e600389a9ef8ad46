//! `logtime explain`: a narration for people of what each step did, and why, built from the
//! step reports and the core's events (no Kafka logic is re-derived here).

use logtime_core::event::Roll;
use logtime_core::human::{approx_duration, date, duration};
use logtime_core::retention::{RetentionPass, RetentionReport, Verdict};
use logtime_core::scenario::narrate::verdict_text;
use logtime_core::scenario::{
    ProduceOutcome, Runner, Scenario, ScenarioError, Step, StepOutcome, StepReport,
};
use logtime_core::{ConfigValue, Lookup, ProduceError, RecordMatch, Timestamp, TraceStep};
use std::fmt::Write;

/// Narrates a whole replay.
pub fn explain(s: &Scenario) -> Result<String, ScenarioError> {
    let mut out = String::new();
    if let Some(t) = &s.title {
        let _ = writeln!(out, "{t}");
    }
    if let Some(d) = &s.description {
        let _ = writeln!(out, "{d}");
    }
    let c = &s.config;
    let _ = writeln!(
        out,
        "{} · partition {} · {} · retention.ms {} · segment.bytes {} · message.timestamp.after.max.ms {} · clock starts {} UTC",
        s.kafka.label(),
        s.topic_partition,
        c.topic.message_timestamp_type.name(),
        duration(c.topic.retention_ms),
        c.topic.segment_bytes,
        duration(c.effective_after_max_ms()),
        date(s.start.0)
    );
    let mut runner = Runner::new(s.clone());
    let mut prev = s.start;
    loop {
        let report = match runner.step(&mut |_| {}) {
            None => break,
            Some(r) => r?,
        };
        let idx = report.index;
        let delta = report.now.0 - prev.0;
        let when = if delta > 0 {
            format!(" (+{})", duration(delta))
        } else {
            String::new()
        };
        let text = narrate(&s.steps[idx], &report);
        let _ = writeln!(out, "step {idx} at {}{when}: {text}", date(report.now.0));
        prev = report.now;
    }
    let f = runner.partition().state();
    let bases: Vec<String> = f
        .segments
        .iter()
        .map(|g| g.base_offset.to_string())
        .collect();
    let _ = writeln!(
        out,
        "at the end: segments {} ; log start offset {}, log end offset {}, high watermark {}",
        bases.join(", "),
        f.log_start_offset,
        f.log_end_offset,
        f.high_watermark
    );
    Ok(out)
}

fn list(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

fn rolls(rolls: &[Roll]) -> Vec<String> {
    rolls
        .iter()
        .map(|r| {
            format!(
                "segment {} rolled to a new segment {} ({})",
                r.old_base,
                r.new_base,
                r.reason.label()
            )
        })
        .collect()
}

/// "retention deleted segments 0 and 10000 (...); segment 20000 ... pins 30000 until ...".
fn retention_story(r: &RetentionReport) -> String {
    let mut parts = Vec::new();
    let deleted: Vec<String> = r
        .deleted
        .iter()
        .map(|d| d.base_offset.to_string())
        .collect();
    if !deleted.is_empty() {
        let why: Vec<String> = r
            .verdicts
            .iter()
            .filter(|v| matches!(v.verdict, Verdict::Deleted { .. }))
            .map(|v| match v.verdict {
                Verdict::Deleted {
                    pass: RetentionPass::Time,
                } => format!(
                    "{}: largest timestamp {} is {} old",
                    v.base_offset,
                    date(v.largest_timestamp.0),
                    duration(r.at.wrapping_since(v.largest_timestamp))
                ),
                _ => format!("{}: {}", v.base_offset, verdict_text(v, r)),
            })
            .collect();
        let word = if deleted.len() == 1 {
            "segment"
        } else {
            "segments"
        };
        let passes: Vec<&str> = {
            let mut p: Vec<&str> = r.deleted.iter().map(|d| d.pass.label()).collect();
            p.dedup();
            p
        };
        let limit = if passes == ["retention.ms"] {
            format!("retention.ms {}", duration(r.retention_ms))
        } else {
            passes.join(" and ")
        };
        parts.push(format!(
            "retention deleted {word} {} ({limit}: {})",
            list(&deleted),
            why.join("; ")
        ));
    }
    for v in &r.verdicts {
        if let Verdict::NotOldEnough {
            age_ms,
            eligible_at,
            future,
        } = v.verdict
        {
            let pinned: Vec<String> = r
                .verdicts
                .iter()
                .filter(|w| matches!(w.verdict, Verdict::KeptBehind { blocker, .. } if blocker == v.base_offset))
                .map(|w| w.base_offset.to_string())
                .collect();
            let pins = if pinned.is_empty() {
                String::new()
            } else {
                format!(" and pins {}", list(&pinned))
            };
            if future {
                parts.push(format!(
                    "segment {} is stamped {} in the future{pins} until {}",
                    v.base_offset,
                    approx_duration(-age_ms),
                    date(eligible_at.0.saturating_sub(1))
                ));
            } else {
                parts.push(format!(
                    "segment {} is {} old, not past retention.ms yet{pins} until {}",
                    v.base_offset,
                    duration(age_ms),
                    date(eligible_at.0.saturating_sub(1))
                ));
            }
        }
    }
    if r.log_start_offset.0 > 0 && !deleted.is_empty() {
        parts.push(format!(
            "the log start offset is now {}",
            r.log_start_offset
        ));
    }
    parts.join("; ")
}

fn rejection(e: &ProduceError) -> String {
    let mut s = format!(
        "the broker rejected the batch with error {} {}: \"{}\"",
        e.error.code(),
        e.error.name(),
        e.error_message
    );
    if let Some(first) = e.record_errors.first() {
        let _ = write!(
            s,
            "; {} record error(s), first: \"{}\"",
            e.record_errors.len(),
            first.message
        );
    }
    if let Some(d) = e.diagnoses.first() {
        let _ = write!(s, "; {}", d.text());
    }
    s.push_str("; nothing was appended");
    s
}

/// A config value as the JSON report prints it: numbers bare, text quoted.
fn json_value(v: &ConfigValue) -> String {
    match v {
        ConfigValue::Number(n) => n.to_string(),
        ConfigValue::Text(t) => serde_json::to_string(t).expect("strings serialise"),
    }
}

fn narrate(step: &Step, r: &StepReport) -> String {
    let mut parts: Vec<String> = Vec::new();
    match (step, &r.outcome) {
        (Step::Produce(p), StepOutcome::Produce(ProduceOutcome::Traffic(t))) => {
            let mut s = format!(
                "generated traffic: {} batches of {} record(s), every {}: {} appended ({} records",
                p.batches,
                p.records.len(),
                duration(p.every_ms),
                t.appended_batches,
                t.records_appended
            );
            if t.appended_batches > 0 {
                let _ = write!(s, ", offsets {} to {}", t.first_offset, t.last_offset);
            }
            let _ = write!(s, "), {} rejected", t.rejected_batches);
            parts.push(s);
            if let Some(f) = &t.first_rejection {
                parts.push(format!(
                    "first rejection at batch {}: {}",
                    f.batch,
                    rejection(&f.error)
                ));
            }
            let n = r.rolled_by_appends().count();
            if n > 0 {
                let all = rolls(&r.rolls);
                if n <= 4 {
                    parts.push(list(&all));
                } else {
                    parts.push(format!("{n} segment rolls, the first: {}", all[0]));
                }
            }
            if let Some(d) = t.first_diagnoses.first() {
                parts.push(format!(
                    "{} batch(es) had suspicious stamps, e.g. {}",
                    t.diagnosed_batches,
                    d.text()
                ));
            }
        }
        (Step::Produce(p), StepOutcome::Produce(ProduceOutcome::Appended(a))) => {
            let mut s = format!(
                "produced a batch of {} record(s): offsets {} to {} in segment {}",
                p.records.len(),
                a.base_offset,
                a.last_offset,
                a.segment
            );
            let log_append_time = a.log_append_time.unwrap_or(Timestamp::NONE).0;
            if log_append_time >= 0 {
                let _ = write!(
                    s,
                    ", stamped by the broker (LogAppendTime) at {}",
                    date(log_append_time)
                );
            } else {
                let max = a.max_timestamp.0;
                if max >= 0 {
                    let _ = write!(s, ", batch max timestamp {} ({max})", date(max));
                } else {
                    let _ = write!(s, ", no record timestamp (NO_TIMESTAMP, -1)");
                }
            }
            parts.push(s);
            let rolled = rolls(&r.rolls);
            if !rolled.is_empty() {
                parts.push(list(&rolled));
            }
            for d in &a.diagnoses {
                parts.push(format!(
                    "record {} accepted but suspicious: {}",
                    d.batch_index,
                    d.text()
                ));
            }
        }
        (_, StepOutcome::Produce(ProduceOutcome::Rejected(e))) => parts.push(rejection(e)),
        (_, StepOutcome::Produce(_)) => {
            parts.push("an empty record set: Kafka returns early and nothing changes".into())
        }
        (_, StepOutcome::Advance(c) | StepOutcome::At(c)) => parts.push(format!(
            "the clock moved on; {} scheduled retention check(s) ran",
            c.checks
        )),
        (_, StepOutcome::Retention(_)) if !r.rolls.is_empty() || !r.retention.is_empty() => {
            parts.push("a retention check ran".into())
        }
        (_, StepOutcome::Retention(rep)) => {
            let verdicts: Vec<String> = rep
                .verdicts
                .iter()
                .map(|v| format!("{}: {}", v.base_offset, verdict_text(v, rep)))
                .collect();
            parts.push(format!("a retention check ran: {}", verdicts.join("; ")));
        }
        (_, StepOutcome::Lookup { spec, result }) => match result {
            Ok(l) => {
                let what = match spec {
                    logtime_core::OffsetSpec::Timestamp(t) if t.0 >= 0 => {
                        format!("{} ({t})", date(t.0))
                    }
                    other => other.to_string(),
                };
                parts.push(lookup_story(&what, l))
            }
            Err(e) => parts.push(format!(
                "lookup for {spec} refused with error {} UNSUPPORTED_VERSION: {}",
                e.error_code, e.message
            )),
        },
        (_, StepOutcome::DeleteRecords { offset, result }) => match result {
            Err(e) => parts.push(format!(
                "DeleteRecords to {offset} refused with error {} {}: \"{}\"",
                e.error.code(),
                e.error.name(),
                e.error_message
            )),
            Ok(low_watermark) => parts.push(format!(
                "DeleteRecords to {offset}: the log start offset (low watermark) is now {low_watermark}; the files go at the next retention check"
            )),
        },
        (_, StepOutcome::Config(changes)) => {
            let changes: Vec<String> = changes
                .iter()
                .map(|c| format!("{} {} → {}", c.name, json_value(&c.old), json_value(&c.new)))
                .collect();
            parts.push(format!("config changed: {}", changes.join(", ")));
        }
        (_, StepOutcome::Version(v)) => parts.push(format!(
            "the broker now behaves as {}",
            v.to.label()
        )),
        (_, StepOutcome::Snapshot(state)) => {
            let segs: Vec<String> = state
                .segments
                .iter()
                .map(|g| {
                    format!(
                        "{} ({} records, largest timestamp {})",
                        g.base_offset,
                        g.records,
                        date(g.largest_timestamp.0)
                    )
                })
                .collect();
            parts.push(format!(
                "snapshot: log start offset {}, log end offset {}, high watermark {}; segments {}",
                state.log_start_offset,
                state.log_end_offset,
                state.high_watermark,
                segs.join(", ")
            ));
        }
        (_, StepOutcome::HighWatermark(hw)) => parts.push(format!(
            "the high watermark is set to {hw} (a lagging follower)"
        )),
    }
    for rep in &r.retention {
        parts.push(retention_story(rep));
    }
    parts.join("; ")
}

fn lookup_story(spec: &str, l: &Lookup) -> String {
    let mut s = if l.offset.0 >= 0 {
        format!("lookup for {spec} returned offset {}", l.offset)
    } else {
        format!("lookup for {spec} found nothing (-1)")
    };
    if l.timestamp.0 >= 0 {
        let _ = write!(s, " (stamped {})", date(l.timestamp.0));
    }
    let mut scanned = Vec::new();
    let mut matched = false;
    for t in &l.trace {
        match t {
            TraceStep::SegmentChosen {
                segment,
                largest_timestamp,
                ..
            } => {
                let _ = write!(s, "; segment {segment} is the first whose largest timestamp ({}) is at or after the target", date(largest_timestamp.0));
            }
            TraceStep::TimeIndexSearch {
                found_timestamp,
                found_offset,
                ..
            } => {
                let _ = write!(
                    s,
                    "; its time index gives ({found_timestamp}, {found_offset})"
                );
            }
            TraceStep::RecordScanned { offset, result, .. } => {
                if !matched {
                    scanned.push(offset.to_string());
                }
                matched |= *result == RecordMatch::Match;
            }
            TraceStep::NoSegment => {
                s.push_str("; no segment has a largest timestamp at or after the target")
            }
            TraceStep::NotInSegment => s.push_str(
                "; the chosen segment held no qualifying record and later segments are not tried",
            ),
            TraceStep::HighWatermarkFilter {
                offset,
                high_watermark,
            } => {
                let _ = write!(s, "; offset {offset} is at or above the high watermark {high_watermark}, so a consumer gets -1");
            }
            TraceStep::MaxTimestampSegment {
                segment,
                max_timestamp,
                ..
            } => {
                let _ = write!(
                    s,
                    "; segment {segment} holds the largest timestamp {max_timestamp}"
                );
            }
            _ => {}
        }
    }
    if !scanned.is_empty() {
        let _ = write!(s, "; the scan read offsets {}", scanned.join(", "));
    }
    s
}
