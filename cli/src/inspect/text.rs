//! The single-partition report: the retention table, future stamps, the DeleteRecords remedy,
//! the lookup and its trace, import notes; and the same as JSON.

use super::Options;
use logtime_core::human::{bytes, duration, rfc3339};
use logtime_core::import::{
    configs_with_metadata, internal_topic, words, DumpOutput, Imported, Inspection,
};
use logtime_core::scenario::narrate;
use logtime_model::Config;
use logtime_model::{Elided, Offset, OffsetSpec, RecordMatch, Timestamp, TraceStep};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{json, Value};
use std::fmt::Write as _;

const INTERVAL_HINT: &str = "pass --config index.interval.bytes=N";

pub(super) fn clock_line(now: Timestamp, given: bool) -> String {
    if given {
        format!("clock: {} (--now)", rfc3339(now.0))
    } else {
        format!(
            "clock: {} (this machine's clock; pass --now T to inspect at another instant)",
            rfc3339(now.0)
        )
    }
}

fn offsets(from: Offset, to: Offset) -> String {
    if to.0 <= from.0 {
        format!("{from} (empty)")
    } else {
        format!("{from}–{}", to.0 - 1)
    }
}

pub(super) fn table(rows: &[Vec<String>], right: &[bool]) -> String {
    let n = rows[0].len();
    let widths: Vec<usize> = (0..n)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut s = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            if c > 0 {
                line.push_str("  ");
            }
            if right[c] {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                if c + 1 < n {
                    line.push_str(&" ".repeat(pad));
                }
            }
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

pub(super) fn text_single(
    imported: &Imported,
    r: &Inspection,
    clock_given: bool,
    export: Option<&str>,
    opts: &Options,
) -> String {
    let p = &imported.partition;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: {} segment{}, {}, offsets {} (log start offset {}, log end offset {})",
        p.topic_partition(),
        p.segments().len(),
        if p.segments().len() == 1 { "" } else { "s" },
        bytes(p.size().0),
        offsets(p.segments()[0].base_offset(), p.log_end_offset()),
        p.log_start_offset(),
        p.log_end_offset()
    );
    let _ = writeln!(s, "{}", clock_line(r.now, clock_given));
    let _ = writeln!(
        s,
        "rules: {}; retention.ms {}{}",
        p.config().version.label(),
        r.retention_ms,
        if r.retention_ms >= 0 {
            format!(" ({})", duration(r.retention_ms))
        } else {
            " (no time limit)".into()
        }
    );
    s.push_str(&origins_text(p.topic_partition(), p.config(), opts));
    s.push('\n');
    let mut rows = vec![vec![
        "segment".to_string(),
        "offsets".into(),
        "size".into(),
        "largest timestamp".into(),
        "age".into(),
        "verdict".into(),
        "pinned by".into(),
        "deletable from".into(),
    ]];
    for row in &r.rows {
        rows.push(vec![
            row.base_offset.to_string(),
            offsets(row.base_offset, row.next_offset),
            bytes(row.size_bytes.0),
            format!(
                "{}{}",
                rfc3339(row.largest_timestamp.0),
                if row.record_time { "" } else { " (mtime)" }
            ),
            words::age(row.age_ms),
            words::verdict_cell(&row.verdict),
            row.pinned_by.map(|b| b.to_string()).unwrap_or_default(),
            match row.deletable_from {
                Some(t) if t <= r.now => "now".into(),
                Some(t) => rfc3339(t.0),
                None => "-".into(),
            },
        ]);
    }
    s.push_str(&table(
        &rows,
        &[true, false, true, false, true, false, true, false],
    ));
    if r.rows.iter().any(|x| !x.record_time) {
        s.push_str("(mtime): no record in the segment has a timestamp; Kafka uses the .log file's modification time\n");
    }
    let deleted: Vec<String> = r
        .retention
        .deleted
        .iter()
        .map(|d| d.base_offset.to_string())
        .collect();
    if !deleted.is_empty() {
        let _ = writeln!(
            s,
            "\nA retention check now deletes segment{} {} ({}).",
            if deleted.len() == 1 { "" } else { "s" },
            deleted.join(", "),
            bytes(r.retention.deleted.iter().map(|d| d.size.0).sum())
        );
    }
    for f in &r.future {
        let _ = write!(
            s,
            "\nFuture timestamp: segment {} has largest timestamp {}, {} ahead of the clock",
            f.segment,
            rfc3339(f.largest_timestamp.0),
            duration(f.ahead_ms)
        );
        if let Some(d) = &f.diagnosis {
            let _ = write!(s, " ({})", narrate::diagnosis(d));
        }
        s.push('.');
        if let Some(e) = f.eligible_at {
            let _ = write!(s, " Retention cannot delete it before {}.", rfc3339(e.0));
        }
        if !f.pins.is_empty() {
            let list: Vec<String> = f.pins.iter().map(|o| o.to_string()).collect();
            let _ = write!(
                s,
                " It pins {} expired segment{} behind it ({}: {}).",
                f.pins.len(),
                if f.pins.len() == 1 { "" } else { "s" },
                list.join(", "),
                bytes(f.pinned_bytes.0)
            );
        }
        s.push('\n');
    }
    if let Some(w) = &r.kafka_41_warning {
        let _ = writeln!(s, "{}", words::kafka_41_warning(w));
    }
    if let Some(d) = &r.delete_records {
        s.push('\n');
        match &d.refused {
            Some(e) => {
                let _ = writeln!(
                    s,
                    "DeleteRecords to offset {} would be refused: {e}",
                    d.offset
                );
            }
            None => {
                let list: Vec<String> = d
                    .deleted
                    .iter()
                    .map(|x| x.base_offset.to_string())
                    .collect();
                let _ = writeln!(
                    s,
                    "DeleteRecords to offset {} (the end of pinning segment {}) would let the next retention check delete segment{} {} ({}); the log start offset becomes {}.",
                    d.offset,
                    d.pinning_segment,
                    if list.len() == 1 { "" } else { "s" },
                    list.join(", "),
                    bytes(d.freed_bytes.0),
                    d.log_start_offset
                );
            }
        }
    }
    if let Some(l) = &r.lookup {
        s.push('\n');
        match &l.result {
            Err(e) => {
                let _ = writeln!(s, "Lookup refused: {e}");
            }
            Ok(lk) => {
                let target = match lk.spec {
                    OffsetSpec::Timestamp(t) => format!("{} ({t})", rfc3339(t.0)),
                    other => other.to_string(),
                };
                let answer = if lk.offset.0 < 0 {
                    "-1 (nothing qualifies)".to_string()
                } else if lk.timestamp.0 >= 0 {
                    format!(
                        "offset {} (timestamp {})",
                        lk.offset,
                        rfc3339(lk.timestamp.0)
                    )
                } else {
                    format!("offset {}", lk.offset)
                };
                let _ = writeln!(s, "Lookup {target} → {answer}");
                for step in &lk.trace {
                    let _ = writeln!(s, "  {}", trace_line(step));
                }
                if let Some(c) = &l.caveat {
                    let _ = writeln!(s, "  caveat: {c}");
                }
            }
        }
    }
    let notes = words::import_notes_with(
        imported,
        INTERVAL_HINT,
        "pass --config cleanup.policy=compact or compact,delete",
    );
    if !notes.is_empty() {
        s.push_str("\nImport notes:\n");
        for n in notes {
            let _ = writeln!(s, "  {n}");
        }
    }
    if let Some(path) = export {
        let _ = writeln!(
            s,
            "\nScenario written to {path} (edit its steps for what-ifs; logtime run replays it)."
        );
    }
    s
}

/// A timestamp for people: RFC 3339, or `-1 (none)`.
fn ts(t: Timestamp) -> String {
    if t.0 < 0 {
        format!("{} (none)", t.0)
    } else {
        rfc3339(t.0)
    }
}

fn trace_line(step: &TraceStep) -> String {
    match step {
        TraceStep::SegmentPassed {
            segment,
            largest_timestamp,
            ..
        } => format!(
            "segment {segment}: largest timestamp {} is before the target, passed",
            rfc3339(largest_timestamp.0)
        ),
        TraceStep::SegmentChosen {
            segment,
            largest_timestamp,
            record_time,
        } => format!(
            "segment {segment}: largest timestamp {}{} reaches the target: searched (only this segment is)",
            rfc3339(largest_timestamp.0),
            if *record_time { "" } else { " (mtime)" }
        ),
        TraceStep::TimeIndexSearch {
            probes,
            found_timestamp,
            found_offset,
            ..
        } => format!(
            "time index: {} entr{} read, largest entry at or before the target: ({}, {found_offset})",
            probes.len(),
            if probes.len() == 1 { "y" } else { "ies" },
            ts(*found_timestamp)
        ),
        TraceStep::OffsetIndexSearch {
            target,
            probes,
            found_offset,
            position,
            ..
        } => format!(
            "offset index: {} entr{} read for offset {target}: scan from byte {position} (entry offset {found_offset})",
            probes.len(),
            if probes.len() == 1 { "y" } else { "ies" }
        ),
        TraceStep::BatchSkipped {
            base_offset,
            last_offset,
            position,
            max_timestamp,
        } => format!(
            "batch {base_offset}–{last_offset} at byte {position}: max timestamp {} does not reach the target, skipped",
            ts(*max_timestamp)
        ),
        TraceStep::BatchOpened {
            base_offset,
            last_offset,
            position,
            max_timestamp,
        } => format!(
            "batch {base_offset}–{last_offset} at byte {position}: max timestamp {} reaches the target, opened",
            ts(*max_timestamp)
        ),
        TraceStep::RecordScanned {
            offset,
            timestamp,
            result,
        } => format!(
            "record {offset}: timestamp {}: {}",
            ts(*timestamp),
            match result {
                RecordMatch::Match => "the answer",
                RecordMatch::Earlier => "before the target",
                RecordMatch::BelowLogStart => "below the log start offset",
            }
        ),
        TraceStep::MaxTimestampSegment {
            segment,
            max_timestamp,
            shallow_offset,
        } => format!(
            "segment {segment} holds the largest timestamp {} (batch ending at {shallow_offset})",
            rfc3339(max_timestamp.0)
        ),
        TraceStep::Elided {
            what,
            count,
            first,
            last,
        } => match what {
            Elided::SegmentsPassed => format!(
                "segments {first} to {last} ({count} more): largest timestamps before the target, passed"
            ),
            Elided::BatchesSkipped => format!(
                "batches {first}–{last} ({count} more): max timestamps do not reach the target, skipped"
            ),
            Elided::RecordsScanned => format!(
                "records {first}–{last} ({count} more): none is the answer"
            ),
        },
        TraceStep::NoSegment => "no segment's largest timestamp reaches the target".into(),
        TraceStep::NotInSegment => {
            "no record in that segment qualifies, and later segments are not searched".into()
        }
        TraceStep::Special { spec } => format!("{spec}: read off the partition"),
        TraceStep::HighWatermarkFilter {
            offset,
            high_watermark,
        } => format!("offset {offset} is at or above the high watermark {high_watermark}: -1"),
    }
}

/// One partition's report as JSON, written straight from the typed values when serialised: a
/// tree of `Value`s for 100,000 segments took over a gigabyte.
pub(super) struct SingleJson<'a> {
    imported: &'a Imported,
    r: &'a Inspection,
    clock_given: bool,
    configs: Value,
    internal_topic: Option<Value>,
    lookup: Option<Value>,
}

impl Serialize for SingleJson<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let (imported, r) = (self.imported, self.r);
        let p = &imported.partition;
        // Keys in the order a JSON object of them sorts in.
        let mut m = ser.serialize_map(None)?;
        m.serialize_entry("clock", if self.clock_given { "given" } else { "system" })?;
        m.serialize_entry("configs", &self.configs)?;
        m.serialize_entry("delete_records", &r.delete_records)?;
        m.serialize_entry("future", &r.future)?;
        m.serialize_entry("import", &imported.segments)?;
        m.serialize_entry("internal_topic", &self.internal_topic)?;
        m.serialize_entry("kafka", p.config().version.key())?;
        m.serialize_entry("kafka_41_warning", &r.kafka_41_warning)?;
        m.serialize_entry("lookup", &self.lookup)?;
        m.serialize_entry(
            "notes",
            &words::import_notes_with(
                imported,
                INTERVAL_HINT,
                "pass --config cleanup.policy=compact or compact,delete",
            ),
        )?;
        m.serialize_entry("now", &r.now)?;
        m.serialize_entry("retention", &r.retention)?;
        m.serialize_entry("retention_ms", &r.retention_ms)?;
        m.serialize_entry("state", &p.state())?;
        m.serialize_entry("topic_partition", p.topic_partition())?;
        m.serialize_entry("verdicts", &r.rows)?;
        m.end()
    }
}

pub(super) fn json_single<'a>(
    imported: &'a Imported,
    r: &'a Inspection,
    clock_given: bool,
    opts: &Options,
) -> SingleJson<'a> {
    let p = &imported.partition;
    let tp = p.topic_partition();
    let (_, configs) = configs_with_metadata(tp, p.config(), &opts.given, &opts.metadata_for(tp));
    let lookup = r.lookup.as_ref().map(|l| match &l.result {
        Ok(lk) => json!({
            "spec": lk.spec,
            "offset": lk.offset,
            "timestamp": lk.timestamp,
            "trace": lk.trace,
            "caveat": l.caveat,
        }),
        Err(e) => json!({"error_code": e.error_code, "error_message": e.message}),
    });
    SingleJson {
        imported,
        r,
        clock_given,
        configs: json!(configs),
        internal_topic: internal_topic(p.topic_partition())
            .map(|t| json!({"topic": t.name, "created_by": t.created_by, "note": t.note})),
        lookup,
    }
}

/// A dump of index files without their `.log`: what the indexes say, and what needs the data.
pub(super) fn text_index_only(tp: &str, dump: &DumpOutput) -> String {
    let mut s = String::new();
    let rows = dump.index_rows();
    let _ = writeln!(
        s,
        "{tp}: index files only ({} segment{}), no .log: retention, lookups and sizes need the segment's .log (or its dump)",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
    );
    let mut t = vec![vec![
        "segment".to_string(),
        ".index entries".into(),
        "last indexed offset".into(),
        ".timeindex entries".into(),
        "largest indexed stamp".into(),
    ]];
    for r in &rows {
        t.push(vec![
            r.base_offset.to_string(),
            r.offset_entries.map_or("-".into(), |n| n.to_string()),
            r.last_indexed
                .map_or("-".into(), |(o, p)| format!("{o} (byte {p})")),
            r.time_entries.map_or("-".into(), |n| n.to_string()),
            r.largest_indexed
                .map_or("-".into(), |(t, o)| format!("{} (offset {o})", ts(t))),
        ]);
    }
    s.push_str(&table(&t, &[false, true, false, true, false]));
    s
}

/// The same as JSON.
pub(super) fn json_index_only(tp: &str, dump: &DumpOutput) -> Value {
    json!({
        "topic_partition": tp,
        "index_only": dump.index_rows(),
    })
}

/// The configs that differ from Kafka's defaults, grouped by where they came from, and what an
/// internal topic's retention means; nothing when every config is Kafka's default.
fn origins_text(tp: &str, config: &Config, opts: &Options) -> String {
    let (_, list) = configs_with_metadata(tp, config, &opts.given, &opts.metadata_for(tp));
    let mut s = String::new();
    if let Some(line) = words::config_origins(&list) {
        let _ = writeln!(s, "{line}");
    }
    if let Some(note) = internal_topic(tp).and_then(|t| t.note) {
        let _ = writeln!(s, "note: {note}");
    }
    s
}
