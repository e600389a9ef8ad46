//! The lines of a scenario's explanation: its setting, each step's heading and clauses, and the
//! partition at the end.

use super::{
    compaction_note, count, future_timestamp_warnings, lookup, produce, retention_story,
    scheduled_passes, verdict, Sentence,
};
use crate::human::duration;
use crate::scenario::{ConfigChange, Scenario, StepOutcome, StepReport, VersionChange};
use logtime_model::config::{Config, ConfigValue};
use logtime_model::units::{Offset, Timestamp};
use logtime_model::{DeleteRecordsError, PartitionState, RetentionReport};

/// The scenario's setting on one line: version, partition, timestamp type, the limits that
/// matter and the clock at the start.
pub fn setting(s: &Scenario) -> Sentence {
    let c = &s.config;
    let mut out = Sentence::plain(s.kafka.label());
    out.text(format!(" · partition {} · ", s.topic_partition));
    out.text(c.topic.message_timestamp_type.name());
    out.text(" · ")
        .config("retention.ms")
        .text(format!(" {} · ", duration(c.topic.retention_ms)))
        .config("segment.bytes")
        .text(format!(" {} · ", c.topic.segment_bytes))
        .config("message.timestamp.after.max.ms")
        .text(format!(
            " {} · clock starts ",
            duration(c.effective_after_max_ms())
        ))
        .time(s.start)
        .text(" UTC");
    out
}

/// Where a step's narration starts: `step 3 at 12 Mar 2027 09:05 (+5 min)`, the time since
/// `previous` shown when the clock moved. `number` is the step as the reader counts it: the
/// command line gives the step's index in the file (the report's `index`), the explorer the
/// count of steps run (its step counter's).
pub fn heading(number: usize, now: Timestamp, previous: Timestamp) -> Sentence {
    let mut out = Sentence::plain(format!("step {number} at "));
    out.time(now);
    let delta = now.0.wrapping_sub(previous.0);
    if delta > 0 {
        out.text(format!(" (+{})", duration(delta)));
    }
    out
}

/// The partition at the end of a replay, on one line: its segments (the first eight and the
/// last four of a longer list, with their count, so that a million segments stay one line).
/// It reads the partition itself: a [`logtime_model::PartitionState`] snapshot would copy every index.
pub fn end(p: &logtime_model::Partition) -> Sentence {
    let segments = p.segments();
    let n = segments.len();
    let mut out = Sentence::plain(if n == 1 {
        "at the end: segment "
    } else {
        "at the end: segments "
    });
    let bases = |gs: &[Box<logtime_model::Segment>]| {
        Sentence::join(
            gs.iter().map(|g| {
                let mut s = Sentence::new();
                s.segment(g.base_offset());
                s
            }),
            ", ",
        )
    };
    if n <= 16 {
        out.append(bases(segments));
    } else {
        out.append(bases(&segments[..8]));
        out.text(", …, ");
        out.append(bases(&segments[n - 4..]));
        out.text(format!(" ({n} segments)"));
    }
    out.text(format!(
        "; log start offset {}, log end offset {}, high watermark {}",
        p.log_start_offset(),
        p.log_end_offset(),
        p.high_watermark()
    ));
    out
}

/// A config value as the JSON report prints it: numbers bare, text quoted. A changed config's
/// text is always one of Kafka's own words (`CreateTime`, `compact,delete`), so quoting needs
/// no escapes.
fn json_value(v: &ConfigValue) -> String {
    match v {
        ConfigValue::Number(n) => n.to_string(),
        ConfigValue::Text(t) => format!("\"{t}\""),
    }
}

/// What one step (or one command between steps) did, as clauses for people, in order: the
/// step's own outcome, then the story of every retention check that deleted something.
/// `config` is the config in force after the step: it says which schedule ran the retention
/// passes, and a `cleanup.policy` change to one with `compact` adds [`compaction_note`].
pub fn step(r: &StepReport, config: &Config) -> Vec<Sentence> {
    let mut parts = match &r.outcome {
        StepOutcome::Produce(p) => produce::outcome(p, r),
        StepOutcome::Advance(c) | StepOutcome::At(c) => vec![Sentence::plain(format!(
            "the clock moved on; {} ran",
            scheduled_passes(config, c.checks as u64)
        ))],
        StepOutcome::Retention(_) if !r.rolls.is_empty() || !r.retention.is_empty() => {
            vec![Sentence::plain("a retention check ran")]
        }
        StepOutcome::Retention(rep) => retention_check(rep),
        StepOutcome::Lookup { spec, result } => vec![lookup(*spec, result)],
        StepOutcome::DeleteRecords { offset, result } => vec![delete_records(*offset, result)],
        StepOutcome::Config(changes) => config_changed(changes, config),
        StepOutcome::Version(v) => vec![version_changed(v)],
        StepOutcome::Snapshot(state) => vec![snapshot(state)],
        StepOutcome::HighWatermark(hw) => {
            let mut s = Sentence::plain("the high watermark is set to ");
            s.offset(*hw).text(" (a lagging follower)");
            vec![s]
        }
    };
    parts.extend(r.retention.iter().map(retention_story));
    parts
}

/// A retention check that deleted nothing and rolled nothing: every segment's verdict, then
/// the warnings about timestamps in the future.
fn retention_check(rep: &RetentionReport) -> Vec<Sentence> {
    let mut s = Sentence::plain("a retention check ran: ");
    let verdicts = rep.verdicts.iter().map(|v| {
        let mut one = Sentence::new();
        one.segment(v.base_offset)
            .text(": ")
            .append(verdict(v, rep));
        one
    });
    s.append(Sentence::join(verdicts, "; "));
    let mut parts = vec![s];
    parts.extend(future_timestamp_warnings(rep));
    parts
}

/// DeleteRecords: the broker's refusal, or the new log start offset.
fn delete_records(offset: i64, result: &Result<Offset, DeleteRecordsError>) -> Sentence {
    let mut s = Sentence::plain(format!("DeleteRecords to {offset}"));
    match result {
        Err(e) => {
            s.text(format!(
                " refused with error {} {}: \"{}\"",
                e.error.code(),
                e.error.name(),
                e.error_message
            ));
        }
        Ok(low_watermark) => {
            s.text(": the log start offset (low watermark) is now ")
                .offset(*low_watermark)
                .text("; the files go at the next retention check");
        }
    }
    s
}

/// Configs changed, old value to new; a `cleanup.policy` change adds [`compaction_note`].
fn config_changed(changes: &[ConfigChange], config: &Config) -> Vec<Sentence> {
    let mut s = Sentence::plain("config changed: ");
    let each = changes.iter().map(|c| {
        let mut one = Sentence::new();
        one.config(&c.name)
            .text(format!(" {} → {}", json_value(&c.old), json_value(&c.new)));
        one
    });
    s.append(Sentence::join(each, ", "));
    let mut parts = vec![s];
    if changes.iter().any(|c| c.name == "cleanup.policy") {
        parts.extend(compaction_note(config));
    }
    parts
}

/// The broker's version changed, with the configs reset to the new version's defaults.
fn version_changed(v: &VersionChange) -> Sentence {
    let mut s = Sentence::plain(format!("the broker now behaves as {}", v.to.label()));
    if !v.reset.is_empty() {
        s.text(" (reset to defaults: ");
        let names = v.reset.iter().map(|n| {
            let mut one = Sentence::new();
            one.config(n);
            one
        });
        s.append(Sentence::join(names, ", ")).text(")");
    }
    s
}

/// A snapshot of the partition: its offsets and every segment with its records and largest
/// timestamp.
fn snapshot(state: &PartitionState) -> Sentence {
    let mut s = Sentence::plain(format!(
        "snapshot: log start offset {}, log end offset {}, high watermark {}; segments ",
        state.log_start_offset, state.log_end_offset, state.high_watermark
    ));
    let segs = state.segments.iter().map(|g| {
        let mut one = Sentence::new();
        one.segment(g.base_offset)
            .text(format!(
                " ({}, largest timestamp ",
                count(g.records, "record", "records")
            ))
            .time(g.largest_timestamp)
            .text(")");
        one
    });
    s.append(Sentence::join(segs, ", "));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::narrate::trace_step;
    use logtime_model::units::Offset;

    /// A long segment list keeps its ends and its count; a lookup's folded run reads as one line.
    #[test]
    fn long_lists_stay_one_short_line() {
        use logtime_model::lookup::{Elided, TraceStep};
        let mut p = logtime_model::Partition::new(
            Config::defaults(logtime_model::KafkaVersion::V3_6),
            "t-0",
            Timestamp(0),
            0,
        );
        let size = logtime_model::batch_size(&[logtime_model::Record::at(Timestamp(0))]).0;
        p.apply(
            Timestamp(0),
            logtime_model::Command::SetConfig {
                name: "segment.bytes".into(),
                value: ConfigValue::Number(size),
            },
        )
        .unwrap();
        for i in 0..20 {
            p.produce_unchecked(Timestamp(i), &[logtime_model::Record::at(Timestamp(i))])
                .unwrap();
        }
        assert_eq!(
            end(&p).to_string(),
            "at the end: segments 0, 1, 2, 3, 4, 5, 6, 7, …, 16, 17, 18, 19 (20 segments); \
             log start offset 0, log end offset 20, high watermark 20"
        );
        let folded = TraceStep::Elided {
            what: Elided::SegmentsPassed,
            count: 199,
            first: Offset(100),
            last: Offset(298),
        };
        assert_eq!(
            trace_step(&folded, logtime_model::OffsetSpec::Timestamp(Timestamp(5))).to_string(),
            "pass over 199 more segments, 100 to 298: the largest timestamp of each is before T"
        );
        let (at, max) = (
            logtime_model::OffsetSpec::Timestamp(Timestamp(5)),
            logtime_model::OffsetSpec::MaxTimestamp,
        );
        let fold = |what, count| TraceStep::Elided {
            what,
            count,
            first: Offset(3),
            last: Offset(9),
        };
        for (step, spec, want) in [
            (fold(Elided::BatchesSkipped, 2), at, "skip 2 more batches, offsets 3–9: the max of each is before T"),
            (fold(Elided::BatchesSkipped, 1), max, "skip 1 more batch, offsets 3–9: no max among them is the largest timestamp"),
            (fold(Elided::RecordsScanned, 7), at, "read 7 more records, offsets 3–9: none is the answer (each is before T or below the log start offset)"),
            (fold(Elided::RecordsScanned, 7), max, "read 7 more records, offsets 3–9: none carries the largest timestamp"),
        ] {
            assert_eq!(trace_step(&step, spec).to_string(), want);
        }
    }

    #[test]
    fn headings_show_the_time_since_the_previous_step() {
        let t = Timestamp(1_804_842_000_000);
        assert_eq!(
            heading(3, Timestamp(t.0 + 300_000), t).to_string(),
            "step 3 at 12 Mar 2027 09:05 (+5 min)"
        );
        assert_eq!(heading(0, t, t).to_string(), "step 0 at 12 Mar 2027 09:00");
    }
}
