//! Sentences about an import and its inspection, shared by `logtime inspect` and the browser's
//! import panel so both word the same findings the same way.

use super::{ConfigInForce, ConfigOrigin, Imported, IndexCheck};
use crate::human::{date, duration, rfc3339};
use crate::scenario::narrate;
use logtime_model::retention::Verdict;
use logtime_model::Timestamp;
use std::fmt::Write as _;

/// A retention verdict in a table cell (`kept: stamped in the future`, `expired, pinned`...).
pub fn verdict_cell(v: &Verdict) -> String {
    match v {
        Verdict::Deleted { pass } => format!("deleted ({})", narrate::pass_name(*pass)),
        Verdict::NotOldEnough { future: true, .. } => "kept: stamped in the future".into(),
        // Deletable once `now - largest > retention.ms`: strictly after largest + retention.ms.
        Verdict::NotOldEnough { eligible_at, .. } => {
            format!(
                "kept: old enough after {}",
                date(eligible_at.0.saturating_sub(1))
            )
        }
        Verdict::KeptBehind { expired: true, .. } => "expired, pinned".into(),
        Verdict::KeptBehind { expired: false, .. } => "kept (behind)".into(),
        Verdict::BeyondHighWatermark { .. } => "kept: above high watermark".into(),
        Verdict::EmptyActive => "kept: empty active".into(),
        Verdict::NoTimeLimit => "kept: retention.ms -1".into(),
        Verdict::CompactOnly => "kept: compact only".into(),
    }
}

/// The line that introduces the WARN a Kafka 4.1 broker logs (`line`:
/// [`Inspection::kafka_41_warning`](super::Inspection::kafka_41_warning)), so that an engineer
/// can grep the broker's log for it.
pub fn kafka_41_warning(line: &str) -> String {
    format!("A 4.1 broker logs at WARN, on the logger LogFutureTimestampLogger (KAFKA-18929), at each retention check: {line}")
}

/// The oldest record stamp ([`Inspection::oldest_record`](super::Inspection::oldest_record))
/// and its age at `now`: the age of the oldest data, which a segment's largest stamp overstates.
pub fn oldest_record(stamp: Timestamp, now: Timestamp) -> String {
    format!(
        "oldest record stamp: {} (age {})",
        rfc3339(stamp.0),
        age(now.0.saturating_sub(stamp.0))
    )
}

/// The configs that differ from Kafka's defaults, grouped by where they came from (the metadata
/// log, an option, an internal topic's); `None` when every config is Kafka's default.
pub fn config_origins(list: &[ConfigInForce]) -> Option<String> {
    let mut groups: Vec<(&ConfigOrigin, Vec<String>)> = Vec::new();
    for c in list {
        let kv = format!("{}={}", c.name, c.value);
        match groups.iter_mut().find(|(o, _)| *o == &c.origin) {
            Some((_, v)) => v.push(kv),
            None => groups.push((&c.origin, vec![kv])),
        }
    }
    if groups.is_empty() {
        return None;
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(origin, kvs)| {
            let from = match origin {
                ConfigOrigin::Option => "given".to_string(),
                ConfigOrigin::KafkaDefault => "kafka default".to_string(),
                ConfigOrigin::MetadataLog => "the metadata log".to_string(),
                ConfigOrigin::InternalTopic { topic, created_by } => {
                    format!("kafka creates {topic} with these: {created_by}")
                }
            };
            format!("{} ({from})", kvs.join(", "))
        })
        .collect();
    Some(format!(
        "configs: {}; every other config is kafka's default",
        parts.join("; ")
    ))
}

/// The configs a topic got from the broker's metadata log (see [`config_origins`]), said also
/// when the log sets none for it.
pub fn metadata_configs(list: &[ConfigInForce]) -> String {
    config_origins(list).unwrap_or_else(|| {
        "configs: the metadata log sets none for this topic; every config is kafka's default".into()
    })
}

/// A segment's age (`now - largest_timestamp`) for people: `3 h`, or `in 2 y` when in the future.
pub fn age(ms: i64) -> String {
    if ms < 0 {
        format!("in {}", duration(-ms))
    } else {
        duration(ms)
    }
}

fn index_note(kind: &str, check: &IndexCheck, set_interval: &str) -> Option<String> {
    match check {
        IndexCheck::Matches { .. } => None,
        IndexCheck::Missing => Some(format!("no {kind} file: Kafka's rules rebuilt it")),
        IndexCheck::Differs {
            slot,
            on_disk,
            expected,
            interval_range,
            used,
            unusable,
        } => {
            let e = |x: &Option<(i64, i64)>| {
                x.map_or("nothing".to_string(), |(a, b)| format!("({a}, {b})"))
            };
            let mut s = format!(
                "{kind} differs from Kafka's rules with this index.interval.bytes at entry {slot}: {} on disk, {} expected",
                e(on_disk),
                e(expected)
            );
            if let Some((lo, hi)) = interval_range {
                let _ = write!(
                    s,
                    "; the file matches index.interval.bytes {lo}–{hi} ({set_interval})"
                );
            }
            if *used {
                s.push_str("; the on-disk entries are used");
            } else if let Some(u) = unusable {
                let _ = write!(
                    s,
                    "; not consistent with the batches ({u}), so Kafka's rules are used"
                );
            }
            Some(s)
        }
    }
}

/// When every index that differs from the rules is explained by one other
/// `index.interval.bytes` range, one note says so instead of one per file.
fn common_interval(imported: &Imported) -> Option<(i64, i64)> {
    let mut range: Option<(i64, i64)> = None;
    for seg in &imported.segments {
        for check in [&seg.offset_index, &seg.time_index] {
            match check {
                IndexCheck::Differs {
                    interval_range: Some((lo, hi)),
                    ..
                } => {
                    let (a, b) = range.unwrap_or((*lo, *hi));
                    range = Some((a.max(*lo), b.min(*hi)));
                }
                IndexCheck::Differs { .. } => return None,
                _ => {}
            }
        }
    }
    range.filter(|(lo, hi)| lo <= hi)
}

/// What the import found, one sentence each: indexes that differ from Kafka's rules (with the
/// `index.interval.bytes` that explains them), damage and where Kafka's recovery truncates,
/// batches whose records were not read and why, index layout notes, old message formats, and
/// segments without a known modification time. `set_interval` says how to set
/// `index.interval.bytes` where the notes are read (a command-line option, a form field).
pub fn import_notes(imported: &Imported, set_interval: &str) -> Vec<String> {
    import_notes_with(
        imported,
        set_interval,
        "cleanup.policy=compact or compact,delete",
    )
}

/// [`import_notes`], with the words that tell how to give `cleanup.policy`
/// (`--config cleanup.policy=compact` on the command line).
pub fn import_notes_with(
    imported: &Imported,
    set_interval: &str,
    set_cleanup: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut assumed = 0;
    let common = common_interval(imported);
    if let Some((lo, hi)) = common {
        out.push(format!(
            "the on-disk indexes are what Kafka's rules give with index.interval.bytes {} (not the {} assumed here), and are used as they are ({set_interval} to match)",
            if lo == hi { lo.to_string() } else { format!("between {lo} and {hi}") },
            imported.partition.config().topic.index_interval_bytes
        ));
    }
    for seg in &imported.segments {
        let b = seg.base_offset;
        if let Some(d) = &seg.damage {
            out.push(format!(
                "segment {b}: {d}; Kafka's recovery keeps the first {} of {} bytes",
                seg.valid_bytes, seg.file_bytes
            ));
        }
        if let (n @ 1.., Some((position, _))) = (seg.compacted.missing_offsets, seg.compacted.first)
        {
            let config = imported.partition.config();
            out.push(format!(
                "segment {b}: {n} offset{} removed by compaction (the first before byte {position}): held as records without a timestamp, which lookups skip and no largest timestamp counts{}",
                if n == 1 { "" } else { "s" },
                if config.retention_by_cleaner() {
                    String::new()
                } else {
                    format!(
                        "; cleanup.policy was not given and the gaps say the topic is compacted: the verdicts are for {}, give the real one ({set_cleanup})",
                        config.topic.cleanup_policy.name()
                    )
                }
            ));
        }
        for u in &seg.unexpanded {
            out.push(format!(
                "segment {b}: batch {}–{} at byte {}: {}",
                u.base_offset, u.last_offset, u.position, u.why
            ));
        }
        if common.is_none() {
            if let Some(n) = index_note(".index", &seg.offset_index, set_interval) {
                out.push(format!("segment {b}: {n}"));
            }
            if let Some(n) = index_note(".timeindex", &seg.time_index, set_interval) {
                out.push(format!("segment {b}: {n}"));
            }
        }
        for (k, n) in &seg.index_notes {
            out.push(format!("segment {b}: {}: {n}", k.suffix()));
        }
        if seg.last_modified_assumed {
            assumed += 1;
        }
        if seg.formats.by_magic[0] + seg.formats.by_magic[1] > 0 {
            out.push(format!(
                "segment {b}: {} v0 and {} v1 message batches (read-only formats)",
                seg.formats.by_magic[0], seg.formats.by_magic[1]
            ));
        }
    }
    if assumed > 0 {
        out.push(format!(
            "{assumed} segment{} without a known .log modification time: the clock stands in for it",
            if assumed == 1 { "" } else { "s" }
        ));
    }
    out
}
