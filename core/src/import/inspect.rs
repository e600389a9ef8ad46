//! The questions an on-call engineer asks of an imported partition, answered by the model (never
//! re-derived): which segment pins retention and when each would be deleted, which stamps are in
//! the future and what they look like, what a lookup for T returns and why, and what DeleteRecords
//! to the offset after a pinning segment would free. Plus the export of the partition as a
//! scenario that replays to the same state.

use super::rebuild::Imported;
use super::segment_log::UnexpandedBatch;
use logtime_model::config::{Config, ConfigValue};
use logtime_model::diagnosis::{diagnose, Diagnosis};
use logtime_model::lookup::{Lookup, LookupError, OffsetSpec, TraceStep};
use logtime_model::partition::{Command, Partition};
use logtime_model::retention::{
    future_timestamp_warning_for, DeletedSegment, RetentionReport, Verdict,
};
use logtime_model::units::{Bytes, Offset, Timestamp};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// One row of the retention table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentRow {
    /// Base offset.
    pub base_offset: Offset,
    /// End offset (exclusive).
    pub next_offset: Offset,
    /// Size in bytes.
    pub size_bytes: Bytes,
    /// Records.
    pub records: u64,
    /// Kafka's `largestTimestamp`.
    pub largest_timestamp: Timestamp,
    /// Whether that is a record stamp (`false`: the `.log` modification time).
    pub record_time: bool,
    /// `now - largest_timestamp` (negative: in the future).
    pub age_ms: i64,
    /// What a retention check at `now` decides.
    pub verdict: Verdict,
    /// The surviving segment that keeps this expired one on disk.
    pub pinned_by: Option<Offset>,
    /// The first instant at which a retention check could delete it by `retention.ms`, if
    /// nothing else changes: its own `largest + retention.ms + 1`, or a later one of a segment
    /// before it (the walk stops at the first survivor). `None`: never by time (no limit, the
    /// empty active segment, beyond the high watermark, compact only).
    pub deletable_from: Option<Timestamp>,
}

/// A segment whose largest timestamp is ahead of the clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FutureStamp {
    /// The segment.
    pub segment: Offset,
    /// Its largest timestamp.
    pub largest_timestamp: Timestamp,
    /// How far ahead of `now`, in ms.
    pub ahead_ms: i64,
    /// The first instant at which retention may delete it (`largest + retention.ms + 1`).
    pub eligible_at: Option<Timestamp>,
    /// What the stamp looks like (a unit mix-up, a clock ahead).
    pub diagnosis: Option<Diagnosis>,
    /// Expired segments it keeps on disk.
    pub pins: Vec<Offset>,
    /// Their bytes.
    pub pinned_bytes: Bytes,
}

/// A lookup's answer, with a caveat when it lands in a batch whose records were not read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LookupAnswer {
    /// The answer and its trace, or the broker's refusal.
    pub result: Result<Lookup, LookupError>,
    /// Set when the record scan opened a batch whose records are unknown: the offset found is
    /// then only the batch's first (the batch is right, the record may not be).
    pub caveat: Option<String>,
}

/// What DeleteRecords to the offset after the pinning segment would free.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeleteRecordsWhatIf {
    /// The pinning segment.
    pub pinning_segment: Offset,
    /// The offset asked for: the pinning segment's end offset.
    pub offset: Offset,
    /// Segments the next retention check would then delete.
    pub deleted: Vec<DeletedSegment>,
    /// Their bytes.
    pub freed_bytes: Bytes,
    /// The log start offset afterwards.
    pub log_start_offset: Offset,
    /// Kafka's refusal, if it refuses (a compact-only topic).
    pub refused: Option<String>,
}

/// Everything [`inspect`] answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inspection {
    /// The broker clock the answers are for.
    pub now: Timestamp,
    /// `retention.ms` in force.
    pub retention_ms: i64,
    /// The retention table, oldest segment first.
    pub rows: Vec<SegmentRow>,
    /// What a retention check at `now` would do.
    pub retention: RetentionReport,
    /// Segments stamped in the future.
    pub future: Vec<FutureStamp>,
    /// The lookup asked for.
    pub lookup: Option<LookupAnswer>,
    /// The DeleteRecords what-if, when a segment pins expired ones.
    pub delete_records: Option<DeleteRecordsWhatIf>,
    /// The smallest record stamp at or after the log start offset (a batch whose records were
    /// not read counts its max timestamp): the age of the oldest data, which a segment's largest
    /// stamp overstates.
    pub oldest_record: Option<Timestamp>,
    /// The WARN line a Kafka 4.1 broker logs at this check (logger `LogFutureTimestampLogger`,
    /// KAFKA-18929), whatever the preset: the time-retention walk stops at the first segment it
    /// does not delete, and the line is logged when that segment's largest timestamp is ahead of
    /// the clock (segments past the high watermark are never reached). Grep the broker's log for
    /// it.
    pub kafka_41_warning: Option<String>,
}

/// One line of a broker-wide summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// `topic-partition`.
    pub topic_partition: String,
    /// Segments.
    pub segments: usize,
    /// Bytes.
    pub size_bytes: Bytes,
    /// The oldest record stamp ([`Inspection::oldest_record`]).
    pub oldest: Option<Timestamp>,
    /// Largest segment largest timestamp.
    pub newest: Option<Timestamp>,
    /// The segment pinning expired ones, if any.
    pub pinned_by: Option<Offset>,
    /// Bytes of expired segments kept behind it.
    pub pinned_bytes: Bytes,
    /// What DeleteRecords past the pinning segment would free.
    pub would_free: Bytes,
    /// Bytes the next retention check deletes anyway.
    pub deletable_now: Bytes,
}

impl Inspection {
    /// The broker-wide summary line for this partition.
    pub fn summary(&self, topic_partition: &str) -> Summary {
        let size = self.rows.iter().map(|r| r.size_bytes.0).sum();
        let stamps = self.rows.iter().filter(|r| r.size_bytes.0 > 0);
        let pinned_by = self.rows.iter().find_map(|r| r.pinned_by);
        Summary {
            topic_partition: topic_partition.to_string(),
            segments: self.rows.len(),
            size_bytes: Bytes(size),
            oldest: self.oldest_record,
            newest: stamps.map(|r| r.largest_timestamp).max(),
            pinned_by,
            pinned_bytes: Bytes(
                self.rows
                    .iter()
                    .filter(|r| r.pinned_by.is_some())
                    .map(|r| r.size_bytes.0)
                    .sum(),
            ),
            would_free: self
                .delete_records
                .as_ref()
                .map_or(Bytes(0), |d| d.freed_bytes),
            deletable_now: Bytes(self.retention.deleted.iter().map(|d| d.size.0).sum()),
        }
    }
}

fn caveat(lookup: &Lookup, unexpanded: &[&UnexpandedBatch]) -> Option<String> {
    lookup.trace.iter().find_map(|s| match s {
        TraceStep::BatchOpened { base_offset, .. } => unexpanded
            .iter()
            .find(|u| u.base_offset == *base_offset)
            .map(|u| {
                format!(
                    "the scan opened the batch at offsets {}–{} (byte {}), whose records were not read ({}): the answer is in that batch, but the exact record is unknown",
                    u.base_offset, u.last_offset, u.position, u.why
                )
            }),
        _ => None,
    })
}

/// Answers the on-call questions about `imported` at broker time `now` (not before the
/// partition's clock, which the import set), with an optional lookup.
pub fn inspect(imported: &Imported, now: Timestamp, lookup: Option<OffsetSpec>) -> Inspection {
    let p = &imported.partition;
    let now = now.max(p.clock());
    let config = p.config();
    let retention = p.preview_retention(now);
    let rows = segment_rows(p, &retention, now);
    let future = future_stamps(&rows, now, config);
    let unexpanded: Vec<&UnexpandedBatch> = imported.unexpanded().collect();
    let lookup = lookup.map(|spec| {
        let result = p.lookup(spec);
        let caveat = result.as_ref().ok().and_then(|l| caveat(l, &unexpanded));
        LookupAnswer { result, caveat }
    });
    let delete_records = recommended_delete_records(p, now);
    let oldest_record = oldest_record(p);
    let kafka_41_warning = kafka_41_warning(p, &retention);
    Inspection {
        oldest_record,
        kafka_41_warning,
        now,
        retention_ms: config.topic.retention_ms,
        rows,
        retention,
        future,
        lookup,
        delete_records,
    }
}

/// One row per segment: its figures and retention verdict, and from when a time-retention walk
/// reaching it could delete it.
fn segment_rows(p: &Partition, retention: &RetentionReport, now: Timestamp) -> Vec<SegmentRow> {
    let config = p.config();
    let mut rows: Vec<SegmentRow> = p
        .segments()
        .iter()
        .zip(&retention.verdicts)
        .map(|(s, v)| SegmentRow {
            base_offset: s.base_offset(),
            next_offset: s.next_offset(),
            size_bytes: s.size(),
            records: s.record_count(),
            largest_timestamp: s.largest_timestamp(),
            record_time: s.largest_timestamp_is_record_time(),
            age_ms: now.wrapping_since(s.largest_timestamp()),
            verdict: v.verdict,
            pinned_by: match v.verdict {
                Verdict::KeptBehind {
                    blocker,
                    expired: true,
                } => Some(blocker),
                _ => None,
            },
            deletable_from: None,
        })
        .collect();
    let retention_ms = config.topic.retention_ms;
    let mut walk = Some(Timestamp(i64::MIN));
    for r in &mut rows {
        let own = match r.verdict {
            Verdict::EmptyActive
            | Verdict::BeyondHighWatermark { .. }
            | Verdict::NoTimeLimit
            | Verdict::CompactOnly => None,
            _ if retention_ms < 0 => None,
            _ => Some(Timestamp(
                (r.largest_timestamp.0 as i128 + retention_ms as i128 + 1)
                    .clamp(i64::MIN as i128, i64::MAX as i128) as i64,
            )),
        };
        walk = match (walk, own) {
            (Some(w), Some(o)) => Some(w.max(o)),
            _ => None,
        };
        r.deletable_from = walk;
    }
    // A check never takes the empty active segment; everything else has a verdict.
    rows.retain(|r| r.size_bytes.0 > 0 || r.base_offset == p.active_segment().base_offset());
    rows
}

/// The segments stamped in the future, each with the segments it pins.
fn future_stamps(rows: &[SegmentRow], now: Timestamp, config: &Config) -> Vec<FutureStamp> {
    // The segments each segment pins, gathered once: a scan of every row for each segment
    // stamped in the future was quadratic (25,000 such segments took seconds).
    let mut pinned: std::collections::HashMap<Offset, Vec<&SegmentRow>> =
        std::collections::HashMap::new();
    for x in rows {
        if let Some(b) = x.pinned_by {
            pinned.entry(b).or_default().push(x);
        }
    }
    rows.iter()
        .filter(|r| r.largest_timestamp > now && r.record_time)
        .map(|r| {
            let pins: &[&SegmentRow] = pinned.get(&r.base_offset).map_or(&[], Vec::as_slice);
            FutureStamp {
                segment: r.base_offset,
                largest_timestamp: r.largest_timestamp,
                ahead_ms: r.largest_timestamp.wrapping_since(now),
                eligible_at: match r.verdict {
                    Verdict::NotOldEnough { eligible_at, .. } => Some(eligible_at),
                    _ => None,
                },
                diagnosis: diagnose(0, r.largest_timestamp, now, config, false),
                pins: pins.iter().map(|x| x.base_offset).collect(),
                pinned_bytes: Bytes(pins.iter().map(|x| x.size_bytes.0).sum()),
            }
        })
        .collect()
}

fn kafka_41_warning(p: &Partition, r: &RetentionReport) -> Option<String> {
    let v = r
        .verdicts
        .iter()
        .find(|v| !matches!(v.verdict, Verdict::Deleted { .. }))?;
    let Verdict::NotOldEnough { future: true, .. } = v.verdict else {
        return None;
    };
    let s = p
        .segments()
        .iter()
        .find(|s| s.base_offset() == v.base_offset)?;
    Some(future_timestamp_warning_for(s))
}

fn oldest_record(p: &Partition) -> Option<Timestamp> {
    let lso = p.log_start_offset().0;
    p.segments()
        .iter()
        .flat_map(|s| {
            let skip = usize::try_from(lso.saturating_sub(s.base_offset().0)).unwrap_or(0);
            s.record_timestamps().iter().skip(skip).copied()
        })
        .filter(|t| *t >= 0)
        .min()
        .map(Timestamp)
}

/// The one DeleteRecords remedy to recommend for `p` at broker time `now`, wherever it is
/// offered (the CLI's report, the import panel, the Retention panel's pre-filled offset): the end
/// offset of the first segment that keeps expired segments on disk behind it (the walk's
/// blocker), which frees that segment and lets the next check delete the expired ones, and
/// deletes no record past it. `None` when no segment pins expired ones (then there is nothing
/// to recommend: DeleteRecords to the high watermark would delete every record).
pub fn recommended_delete_records(p: &Partition, now: Timestamp) -> Option<DeleteRecordsWhatIf> {
    let now = now.max(p.clock());
    let report = p.preview_retention(now);
    let blocker = report.verdicts.iter().find_map(|v| match v.verdict {
        Verdict::KeptBehind {
            blocker,
            expired: true,
        } => Some(blocker),
        _ => None,
    })?;
    let seg = p.segments().iter().find(|s| s.base_offset() == blocker)?;
    Some(what_if_delete_records(p, now, blocker, seg.next_offset()))
}

fn what_if_delete_records(
    p: &Partition,
    now: Timestamp,
    blocker: Offset,
    offset: Offset,
) -> DeleteRecordsWhatIf {
    let mut q = p.clone();
    let mut out = DeleteRecordsWhatIf {
        pinning_segment: blocker,
        offset,
        deleted: Vec::new(),
        freed_bytes: Bytes(0),
        log_start_offset: p.log_start_offset(),
        refused: None,
    };
    if let Err(e) = q.apply(now, Command::DeleteRecords { offset: offset.0 }) {
        out.refused = Some(e.to_string());
        return out;
    }
    if let Ok(events) = q.apply(now, Command::RunRetention) {
        for e in events {
            if let logtime_model::event::Event::RetentionChecked(r) = e {
                out.deleted.extend(r.deleted);
            }
        }
    }
    out.freed_bytes = Bytes(out.deleted.iter().map(|d| d.size.0).sum());
    out.log_start_offset = q.log_start_offset();
    out
}

/// The topic configs that differ from the preset's defaults, by Kafka name.
fn changed_configs(config: &Config) -> (Map<String, Value>, Map<String, Value>) {
    let defaults = Config::defaults(config.version);
    let (mut topic, mut broker) = (Map::new(), Map::new());
    for (key, value) in config.entries() {
        if defaults.get(key.name).as_ref() == Some(&value) {
            continue;
        }
        let v = match value {
            ConfigValue::Number(n) => json!(n),
            ConfigValue::Text(t) => json!(t),
        };
        if key.broker {
            broker.insert(key.name.to_string(), v);
        } else {
            topic.insert(key.name.to_string(), v);
        }
    }
    (topic, broker)
}

/// [`to_scenario`] as the text of a scenario file: pretty when that fits in
/// [`MAX_SCENARIO_BYTES`](crate::scenario::MAX_SCENARIO_BYTES), else compact, else refused with
/// its size, so that an export is always a file `logtime run` and the page read back.
pub fn scenario_text(partition: &Partition, title: &str) -> Result<String, String> {
    let max = crate::scenario::MAX_SCENARIO_BYTES;
    let v = to_scenario(partition, title);
    let pretty = serde_json::to_string_pretty(&v).expect("scenarios serialise") + "\n";
    if pretty.len() as u64 <= max {
        return Ok(pretty);
    }
    let compact = serde_json::to_string(&v).expect("scenarios serialise") + "\n";
    if compact.len() as u64 <= max {
        return Ok(compact);
    }
    Err(format!(
        "the partition as a scenario is {} bytes, larger than the {} MiB a scenario may be ({} segments, {} records); export fewer segments",
        compact.len(),
        max >> 20,
        partition.segments().len(),
        partition.log_end_offset().0 - partition.log_start_offset().0
    ))
}

/// The partition as a scenario (`docs/scenarios.md`, the `log` key) that replays to the same
/// state: base offsets, batch boundaries, sizes, timestamps and indexes, log start offset and the
/// configs in force, starting at the partition's clock and taking a snapshot. Edit its steps for
/// what-ifs (another `retention.ms`, a check at another clock, DeleteRecords).
pub fn to_scenario(partition: &Partition, title: &str) -> Value {
    let config = partition.config();
    let (topic, broker) = changed_configs(config);
    let segments: Vec<Value> = partition
        .segments()
        .iter()
        .map(|s| {
            let stamps = s.record_timestamps();
            let batches: Vec<Value> = s
                .batches()
                .map(|b| {
                    let from = (b.base_offset.0 - s.base_offset().0) as usize;
                    let to = (b.last_offset.0 - s.base_offset().0) as usize;
                    let mut m = Map::new();
                    m.insert("offsets".into(), json!([b.base_offset, b.last_offset]));
                    m.insert("size".into(), json!(b.size));
                    if b.log_append_time {
                        m.insert("log_append_time".into(), json!(b.max_timestamp));
                    } else {
                        let ts = &stamps[from..=to];
                        if ts.iter().copied().fold(-1, i64::max) != b.max_timestamp.0 {
                            m.insert("max_timestamp".into(), json!(b.max_timestamp));
                        }
                        m.insert("timestamps".into(), json!(ts));
                    }
                    Value::Object(m)
                })
                .collect();
            let oi: Vec<Value> = s
                .offset_index()
                .entries()
                .map(|(o, p)| json!([o, p]))
                .collect();
            let ti: Vec<Value> = s
                .time_index()
                .entries()
                .map(|(t, o)| json!([t, o]))
                .collect();
            json!({
                "base_offset": s.base_offset(),
                "last_modified": s.last_modified(),
                "batches": batches,
                "offset_index": oi,
                "time_index": ti,
            })
        })
        .collect();
    let mut root = Map::new();
    root.insert("title".into(), json!(title));
    root.insert("kafka".into(), json!(config.version.key()));
    if !topic.is_empty() {
        root.insert("topic".into(), Value::Object(topic));
    }
    if !broker.is_empty() {
        root.insert("broker".into(), Value::Object(broker));
    }
    root.insert("topic_partition".into(), json!(partition.topic_partition()));
    root.insert(
        "start".into(),
        json!(crate::human::rfc3339(partition.clock().0)),
    );
    root.insert(
        "log".into(),
        json!({
            "log_start_offset": partition.log_start_offset(),
            "segments": segments,
        }),
    );
    root.insert("steps".into(), json!([{"snapshot": {}}]));
    Value::Object(root)
}
