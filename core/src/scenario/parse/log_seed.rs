//! The top-level `log` key: a partition whose log already exists when the scenario starts (see
//! `docs/scenarios.md`, "Starting from an existing log"). It is checked here by building the
//! partition once, so a scenario that parses always replays.

use super::value::{int, kind_of, time_value};
use super::{err, R};
use crate::import::seed::{self, BatchSeed, LogSeed, SegmentSeed};
use crate::scenario::budget::MAX_RECORDS;
use logtime_model::config::Config;
use logtime_model::units::{Bytes, Offset, Timestamp};
use serde_json::{Map, Value};

const LOG_KEYS: &[&str] = &["log_start_offset", "segments"];
const SEGMENT_KEYS: &[&str] = &[
    "base_offset",
    "last_modified",
    "batches",
    "offset_index",
    "time_index",
];
const BATCH_KEYS: &[&str] = &[
    "offsets",
    "size",
    "timestamps",
    "max_timestamp",
    "log_append_time",
    "records",
];

fn object<'a>(v: &'a Value, field: &str, allowed: &[&str]) -> R<&'a Map<String, Value>> {
    let Value::Object(m) = v else {
        return Err(err(
            None,
            field,
            format!("expected an object, got {}", kind_of(v)),
        ));
    };
    for k in m.keys() {
        if !allowed.contains(&k.as_str()) {
            return Err(err(
                None,
                format!("{field}.{k}"),
                format!("unknown key (expected: {})", allowed.join(", ")),
            ));
        }
    }
    Ok(m)
}

fn array<'a>(v: &'a Value, field: &str) -> R<&'a Vec<Value>> {
    match v {
        Value::Array(a) => Ok(a),
        other => Err(err(
            None,
            field,
            format!("expected an array, got {}", kind_of(other)),
        )),
    }
}

fn integer(v: &Value, field: &str) -> R<i64> {
    int(v).map_err(|r| err(None, field, r))
}

/// An absolute time: ms, RFC 3339, or `now±D` relative to the scenario's start.
fn time(v: &Value, field: &str, start: i64) -> R<i64> {
    let spec = time_value(v).map_err(|r| err(None, field, r))?;
    spec.resolve(start)
        .ok_or_else(|| err(None, field, "overflows a 64-bit millisecond time"))
}

fn pair<'a>(v: &'a Value, field: &str) -> R<(&'a Value, &'a Value)> {
    match v {
        Value::Array(a) if a.len() == 2 => Ok((&a[0], &a[1])),
        _ => Err(err(None, field, "expected a pair [a, b]")),
    }
}

/// What a seeded log holds, for the scenario's budget.
pub(super) struct Held {
    pub(super) records: u64,
    pub(super) segments: u64,
    pub(super) active_bytes: i64,
    pub(super) index_entries: u64,
}

/// Parses the `log` key against `start` (for relative times), checking it builds a partition
/// and that it holds at most [`MAX_RECORDS`] records (before allocating them).
pub(super) fn parse_log(
    v: &Value,
    start: i64,
    config: &Config,
    topic_partition: &str,
) -> R<(LogSeed, Held)> {
    let m = object(v, "log", LOG_KEYS)?;
    let log_start_offset = match m.get("log_start_offset") {
        None => None,
        Some(v) => {
            let o = integer(v, "log.log_start_offset")?;
            if o < 0 {
                return Err(err(
                    None,
                    "log.log_start_offset",
                    format!("{o} is negative"),
                ));
            }
            Some(Offset(o))
        }
    };
    let mut segments = Vec::new();
    let mut held = 0u64;
    if let Some(v) = m.get("segments") {
        for (i, s) in array(v, "log.segments")?.iter().enumerate() {
            segments.push(segment(s, &format!("log.segments[{i}]"), start, &mut held)?);
        }
    }
    let log = LogSeed {
        log_start_offset,
        segments,
    };
    let p = seed::build(
        config.clone(),
        topic_partition,
        Timestamp(start),
        0,
        log.clone(),
    )
    .map_err(|e| err(None, format!("log.{}", e.path()), e.reason))?;
    let held = Held {
        records: p.record_count(),
        segments: p.segments().len() as u64,
        active_bytes: p.active_segment().size().0,
        index_entries: p
            .segments()
            .iter()
            .map(|s| s.offset_index().len() as u64)
            .sum(),
    };
    Ok((log, held))
}

fn segment(v: &Value, f: &str, start: i64, held: &mut u64) -> R<SegmentSeed> {
    let m = object(v, f, SEGMENT_KEYS)?;
    let base = match m.get("base_offset") {
        Some(v) => integer(v, &format!("{f}.base_offset"))?,
        None => return Err(err(None, format!("{f}.base_offset"), "missing")),
    };
    let last_modified = match m.get("last_modified") {
        Some(v) => Some(Timestamp(time(v, &format!("{f}.last_modified"), start)?)),
        None => None,
    };
    let mut batches = Vec::new();
    let mut timestamps = Vec::new();
    let mut next = base;
    let mut position: i64 = 0;
    if let Some(v) = m.get("batches") {
        for (k, b) in array(v, &format!("{f}.batches"))?.iter().enumerate() {
            let bf = format!("{f}.batches[{k}]");
            let (mut batch, stamps) = batch(b, &bf, next, start, held)?;
            // Batches follow each other in the file.
            batch.position = Bytes(position);
            position = position.saturating_add(batch.size.0.max(0));
            next = batch.last_offset.0.saturating_add(1);
            batches.push(batch);
            timestamps.extend(stamps);
        }
    }
    let offset_index = match m.get("offset_index") {
        None => None,
        Some(v) => {
            let mut out = Vec::new();
            for (j, e) in array(v, &format!("{f}.offset_index"))?.iter().enumerate() {
                let ef = format!("{f}.offset_index[{j}]");
                let (o, p) = pair(e, &ef)?;
                out.push((Offset(integer(o, &ef)?), Bytes(integer(p, &ef)?)));
            }
            Some(out)
        }
    };
    let time_index = match m.get("time_index") {
        None => None,
        Some(v) => {
            let mut out = Vec::new();
            for (j, e) in array(v, &format!("{f}.time_index"))?.iter().enumerate() {
                let ef = format!("{f}.time_index[{j}]");
                let (t, o) = pair(e, &ef)?;
                out.push((Timestamp(time(t, &ef, start)?), Offset(integer(o, &ef)?)));
            }
            Some(out)
        }
    };
    Ok(SegmentSeed {
        base_offset: Offset(base),
        batches,
        timestamps,
        offset_index,
        time_index,
        last_modified,
    })
}

/// Record offsets are capped so a typo cannot make the parser allocate without bound.
const MAX_RECORDS_PER_BATCH: i64 = 1 << 24;

fn batch(v: &Value, f: &str, next: i64, start: i64, held: &mut u64) -> R<(BatchSeed, Vec<i64>)> {
    let m = object(v, f, BATCH_KEYS)?;
    let size = match m.get("size") {
        Some(v) => integer(v, &format!("{f}.size"))?,
        None => {
            return Err(err(
                None,
                format!("{f}.size"),
                "missing: the batch's size in bytes, as in the .log file",
            ))
        }
    };
    let lat = match m.get("log_append_time") {
        Some(v) => Some(time(v, &format!("{f}.log_append_time"), start)?),
        None => None,
    };
    let stamps = match m.get("timestamps") {
        Some(v) => {
            let a = array(v, &format!("{f}.timestamps"))?;
            let mut out = Vec::with_capacity(a.len());
            for (i, t) in a.iter().enumerate() {
                out.push(time(t, &format!("{f}.timestamps[{i}]"), start)?);
            }
            Some(out)
        }
        None => None,
    };
    let declared = match m.get("records") {
        Some(v) => Some(integer(v, &format!("{f}.records"))?),
        None => None,
    };
    let (base, last) = offsets(m, f, next, stamps.as_deref(), declared)?;
    let n = last.saturating_sub(base).saturating_add(1);
    if !(1..=MAX_RECORDS_PER_BATCH).contains(&n) {
        return Err(err(
            None,
            format!("{f}.offsets"),
            format!("[{base}, {last}] is not a batch of 1 to {MAX_RECORDS_PER_BATCH} records"),
        ));
    }
    *held += n as u64;
    if *held > MAX_RECORDS {
        return Err(err(
            None,
            format!("{f}.offsets"),
            format!("the log holds more than {MAX_RECORDS} records by this batch; a scenario may hold at most {MAX_RECORDS}"),
        ));
    }
    if declared.is_some_and(|d| d != n) {
        return Err(err(
            None,
            format!("{f}.records"),
            format!(
                "{} does not match the offsets [{base}, {last}]",
                declared.unwrap_or(0)
            ),
        ));
    }
    if lat.is_some() && m.contains_key("max_timestamp") {
        return Err(err(
            None,
            format!("{f}.max_timestamp"),
            "a LogAppendTime batch's max timestamp is its log_append_time: give only that",
        ));
    }
    let (stamps, max) = stamps_and_max(m, f, start, lat, stamps, (base, last))?;
    Ok((
        BatchSeed {
            base_offset: Offset(base),
            last_offset: Offset(last),
            position: Bytes(0),
            size: Bytes(size),
            max_timestamp: Timestamp(max),
            log_append_time: lat.is_some(),
        },
        stamps,
    ))
}

/// A batch's first and last offsets: its `offsets`, else `records` or as many as its
/// `timestamps` from `next`, the offset after the previous batch.
fn offsets(
    m: &Map<String, Value>,
    f: &str,
    next: i64,
    stamps: Option<&[i64]>,
    declared: Option<i64>,
) -> R<(i64, i64)> {
    Ok(match m.get("offsets") {
        Some(v) => {
            let (a, b) = pair(v, &format!("{f}.offsets"))?;
            (
                integer(a, &format!("{f}.offsets"))?,
                integer(b, &format!("{f}.offsets"))?,
            )
        }
        None => {
            let n =
                match (stamps, declared) {
                    (_, Some(n)) => n,
                    (Some(s), None) => s.len() as i64,
                    (None, None) => return Err(err(
                        None,
                        f,
                        "give offsets, records or timestamps: the batch's record count is unknown",
                    )),
                };
            (next, next.saturating_add(n).saturating_sub(1))
        }
    })
}

/// A batch's record stamps and max timestamp: `log_append_time` for every record of a
/// LogAppendTime batch, else its `timestamps` (one per offset of `[base, last]`) and their max
/// or the `max_timestamp` given.
fn stamps_and_max(
    m: &Map<String, Value>,
    f: &str,
    start: i64,
    lat: Option<i64>,
    stamps: Option<Vec<i64>>,
    (base, last): (i64, i64),
) -> R<(Vec<i64>, i64)> {
    let n = last.saturating_sub(base).saturating_add(1);
    Ok(match (lat, stamps) {
        (Some(_), Some(_)) => {
            return Err(err(
                None,
                format!("{f}.timestamps"),
                "a LogAppendTime batch's records all read log_append_time: give one or the other",
            ))
        }
        (Some(t), None) => (vec![t; n as usize], t),
        (None, None) => {
            return Err(err(
                None,
                format!("{f}.timestamps"),
                "missing: every record's timestamp (or log_append_time)",
            ))
        }
        (None, Some(s)) => {
            if s.len() as i64 != n {
                return Err(err(
                    None,
                    format!("{f}.timestamps"),
                    format!(
                        "{} timestamps for the {n} offsets [{base}, {last}]",
                        s.len()
                    ),
                ));
            }
            let max = match m.get("max_timestamp") {
                Some(v) => time(v, &format!("{f}.max_timestamp"), start)?,
                None => s.iter().copied().fold(-1, i64::max),
            };
            (s, max)
        }
    })
}
