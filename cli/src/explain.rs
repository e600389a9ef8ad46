//! `logtime explain`: a narration for people of what each step did, and why, built from the
//! step reports and the core's events (no Kafka logic is re-derived here).

use logtime_core::human::{approx_duration, date, duration};
use logtime_core::retention::{RetentionPass, RetentionReport, Verdict};
use logtime_core::scenario::narrate::verdict_text;
use logtime_core::scenario::{Runner, Scenario, ScenarioError, Step, StepReport};
use logtime_core::{Config, Event, Lookup, RecordMatch, TraceStep};
use serde_json::Value;
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
        // Keep only the events a narration needs (generated traffic can append millions).
        let mut kept: Vec<Event> = Vec::new();
        let step = runner.step(&mut |t| match t.event {
            Event::SegmentRolled { .. } | Event::SegmentDeleted { .. } => {
                kept.push(t.event.clone())
            }
            Event::RetentionChecked(r) if !r.deleted.is_empty() => kept.push(t.event.clone()),
            _ => {}
        });
        let report = match step {
            None => break,
            Some(r) => r?,
        };
        let idx = report.index;
        let config = runner.partition().config().clone();
        let delta = report.now.0 - prev.0;
        let when = if delta > 0 {
            format!(" (+{})", duration(delta))
        } else {
            String::new()
        };
        let text = narrate(&s.steps[idx], &report, &kept, &config);
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

fn rolls(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentRolled {
                old_base,
                new_base,
                reason,
                ..
            } => Some(format!(
                "segment {old_base} rolled to a new segment {new_base} ({})",
                reason.label()
            )),
            _ => None,
        })
        .collect()
}

/// "retention deleted segments 0 and 10000 (...); segment 20000 ... pins 30000 until ...".
fn retention_story(r: &RetentionReport, config: &Config) -> String {
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
                _ => format!("{}: {}", v.base_offset, verdict_text(v, config, r.at)),
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
            format!("retention.ms {}", duration(config.topic.retention_ms))
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

fn rejection(b: &Value) -> String {
    let mut s = format!(
        "the broker rejected the batch with error {} {}: \"{}\"",
        b["error_code"],
        b["error_name"].as_str().unwrap_or(""),
        b["error_message"].as_str().unwrap_or("")
    );
    if let Some(errs) = b["record_errors"].as_array() {
        if let Some(first) = errs.first() {
            let _ = write!(
                s,
                "; {} record error(s), first: \"{}\"",
                errs.len(),
                first["message"].as_str().unwrap_or("")
            );
        }
    }
    if let Some(d) = b["diagnoses"].as_array().and_then(|d| d.first()) {
        let _ = write!(s, "; {}", d["text"].as_str().unwrap_or(""));
    }
    s.push_str("; nothing was appended");
    s
}

fn narrate(step: &Step, r: &StepReport, events: &[Event], config: &Config) -> String {
    let b = &r.body;
    let mut parts: Vec<String> = Vec::new();
    match step {
        Step::Produce(p) if p.generated => {
            let mut s = format!(
                "generated traffic: {} batches of {} record(s), every {}: {} appended ({} records",
                p.batches,
                p.records.len(),
                duration(p.every_ms),
                b["appended_batches"],
                b["records_appended"]
            );
            if b["appended_batches"].as_u64().unwrap_or(0) > 0 {
                let _ = write!(s, ", offsets {} to {}", b["first_offset"], b["last_offset"]);
            }
            let _ = write!(s, "), {} rejected", b["rejected_batches"]);
            parts.push(s);
            if b["first_rejection"].is_object() {
                parts.push(format!(
                    "first rejection at batch {}: {}",
                    b["first_rejection"]["batch"],
                    rejection(&b["first_rejection"])
                ));
            }
            let n = b["rolled"].as_array().map_or(0, Vec::len);
            if n > 0 {
                let r = rolls(events);
                if n <= 4 {
                    parts.push(list(&r));
                } else {
                    parts.push(format!("{n} segment rolls, the first: {}", r[0]));
                }
            }
            if let Some(d) = b["first_diagnoses"].as_array().and_then(|d| d.first()) {
                parts.push(format!(
                    "{} batch(es) had suspicious stamps, e.g. {}",
                    b["diagnosed_batches"],
                    d["text"].as_str().unwrap_or("")
                ));
            }
        }
        Step::Produce(p) => {
            if b["appended"] == true {
                let mut s = format!(
                    "produced a batch of {} record(s): offsets {} to {} in segment {}",
                    p.records.len(),
                    b["base_offset"],
                    b["last_offset"],
                    b["segment"]
                );
                if b["log_append_time"].as_i64().unwrap_or(-1) >= 0 {
                    let _ = write!(
                        s,
                        ", stamped by the broker (LogAppendTime) at {}",
                        date(b["log_append_time"].as_i64().unwrap_or(0))
                    );
                } else {
                    let max = b["max_timestamp"].as_i64().unwrap_or(-1);
                    if max >= 0 {
                        let _ = write!(s, ", batch max timestamp {} ({max})", date(max));
                    } else {
                        let _ = write!(s, ", no record timestamp (NO_TIMESTAMP, -1)");
                    }
                }
                parts.push(s);
                let rolled = rolls(events);
                if !rolled.is_empty() {
                    parts.push(list(&rolled));
                }
                if let Some(ds) = b["diagnoses"].as_array() {
                    for d in ds {
                        parts.push(format!(
                            "record {} accepted but suspicious: {}",
                            d["batch_index"],
                            d["text"].as_str().unwrap_or("")
                        ));
                    }
                }
            } else if b.get("error_code").is_some() {
                parts.push(rejection(b));
            } else {
                parts.push("an empty record set: Kafka returns early and nothing changes".into());
            }
        }
        Step::Advance(_) | Step::At(_) => {
            let n = b["checks"].as_u64().unwrap_or(0);
            parts.push(format!(
                "the clock moved on; {n} scheduled retention check(s) ran"
            ));
        }
        Step::Retention if !events.is_empty() => parts.push("a retention check ran".into()),
        Step::Retention => {
            let verdicts: Vec<String> = b["verdicts"]
                .as_array()
                .map(|vs| {
                    vs.iter()
                        .map(|v| {
                            format!(
                                "{}: {}",
                                v["base_offset"],
                                v["reason"].as_str().unwrap_or("")
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            parts.push(format!("a retention check ran: {}", verdicts.join("; ")));
        }
        Step::Lookup(spec) => match &r.lookup {
            Some(Ok(l)) => {
                let what = match spec {
                    logtime_core::OffsetSpec::Timestamp(t) if t.0 >= 0 => {
                        format!("{} ({t})", date(t.0))
                    }
                    other => other.to_string(),
                };
                parts.push(lookup_story(&what, l))
            }
            Some(Err(e)) => parts.push(format!(
                "lookup for {spec} refused with error {} UNSUPPORTED_VERSION: {}",
                e.error_code, e.message
            )),
            None => {}
        },
        Step::DeleteRecords(o) => {
            if b.get("error_code").is_some() {
                parts.push(format!(
                    "DeleteRecords to {o} refused with error {} {}: \"{}\"",
                    b["error_code"],
                    b["error_name"].as_str().unwrap_or(""),
                    b["error_message"].as_str().unwrap_or("")
                ));
            } else {
                parts.push(format!(
                    "DeleteRecords to {o}: the log start offset (low watermark) is now {}; the files go at the next retention check",
                    b["low_watermark"]
                ));
            }
        }
        Step::Config(_) => {
            let changes: Vec<String> = b["changed"]
                .as_array()
                .map(|cs| {
                    cs.iter()
                        .map(|c| {
                            format!(
                                "{} {} → {}",
                                c["name"].as_str().unwrap_or(""),
                                c["old"],
                                c["new"]
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            parts.push(format!("config changed: {}", changes.join(", ")));
        }
        Step::Snapshot => {
            let segs: Vec<String> = b["segments"]
                .as_array()
                .map(|ss| {
                    ss.iter()
                        .map(|g| {
                            format!(
                                "{} ({} records, largest timestamp {})",
                                g["base_offset"],
                                g["records"],
                                date(g["largest_timestamp"].as_i64().unwrap_or(-1))
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            parts.push(format!(
                "snapshot: log start offset {}, log end offset {}, high watermark {}; segments {}",
                b["log_start_offset"],
                b["log_end_offset"],
                b["high_watermark"],
                segs.join(", ")
            ));
        }
        Step::HighWatermark(_) => parts.push(format!(
            "the high watermark is set to {} (a lagging follower)",
            b["high_watermark"]
        )),
    }
    for e in events {
        if let Event::RetentionChecked(rep) = e {
            parts.push(retention_story(rep, config));
        }
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
