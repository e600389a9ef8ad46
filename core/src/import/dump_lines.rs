//! The lines `DumpLogSegments` writes for a `.log` (`printBatchLevel` for a batch, `dumpLog`'s
//! record lines under `--deep-iteration`, and the older forms of both), read into batches and
//! records: `name: value` fields, whatever their order and case.

use super::dump_log::DumpError;
use super::log_batch::{
    nullable_len, Compression, LogBatch, NotExpanded, RecordInfo, Records, TimestampKind,
};
use logtime_model::units::{Offset, Timestamp};

/// `name: value` pairs of a line, and the free text after `key:` / `payload:`.
pub(super) fn fields(line: &str) -> Vec<(&str, &str)> {
    let cut = [" key: ", " payload: ", "| key: "]
        .iter()
        .filter_map(|m| line.find(m))
        .min()
        .unwrap_or(line.len());
    let mut out = Vec::new();
    let mut it = line[..cut].split_whitespace().peekable();
    while let Some(tok) = it.next() {
        let Some(name) = tok.strip_suffix(':') else {
            continue;
        };
        let mut value = it.next().unwrap_or("");
        // `headerKeys: [a, b]` may hold spaces: keep the first token, enough to count.
        if value.starts_with('[') && !value.ends_with(']') {
            while let Some(t) = it.peek() {
                if t.ends_with(':') {
                    break;
                }
                let t = it.next().unwrap_or("");
                if t.ends_with(']') {
                    break;
                }
            }
            value = "[?]";
        }
        out.push((name, value));
    }
    out
}

pub(super) fn get<'a>(f: &[(&str, &'a str)], names: &[&str]) -> Option<&'a str> {
    f.iter()
        .find(|(n, _)| names.iter().any(|m| n.eq_ignore_ascii_case(m)))
        .map(|(_, v)| *v)
}

/// The number of the line being read, which every error names.
pub(super) struct LineNo(pub(super) usize);

impl LineNo {
    pub(super) fn err(&self, reason: impl Into<String>) -> DumpError {
        DumpError {
            line: self.0,
            reason: reason.into(),
        }
    }

    pub(super) fn num<T: std::str::FromStr>(
        &self,
        f: &[(&str, &str)],
        names: &[&str],
    ) -> Result<T, DumpError> {
        let v = get(f, names).ok_or_else(|| self.err(format!("no {}: field", names[0])))?;
        v.parse()
            .map_err(|_| self.err(format!("{}: {v:?} is not a number", names[0])))
    }

    pub(super) fn batch(&self, f: &[(&str, &str)]) -> Result<(LogBatch, bool), DumpError> {
        if let Some(missing) = ["magic", "size", "position"]
            .iter()
            .find(|n| get(f, &[n]).is_none())
        {
            return Err(self.err(format!(
                "this batch line stops before its {missing}: field: the text was wrapped or cut (kafka-dump-log writes each batch on one line); paste the output unwrapped"
            )));
        }
        let magic: u8 = self.num(f, &["magic"])?;
        if magic > 2 {
            return Err(self.err(format!("magic: {magic} is not 0, 1 or 2")));
        }
        let position: u64 = self.num(f, &["position"])?;
        let size: u32 = self.num(f, &["size"])?;
        let (timestamp_type, max_ts) = ["CreateTime", "LogAppendTime", "NoTimestampType"]
            .iter()
            .find_map(|k| Some((TimestampKind::parse(k)?, get(f, &[k])?)))
            .ok_or_else(|| self.err("no CreateTime:, LogAppendTime: or NoTimestampType: field"))?;
        let max_timestamp: i64 = max_ts.parse().map_err(|_| {
            self.err(format!(
                "{}: {max_ts:?} is not a number",
                timestamp_type.name()
            ))
        })?;
        let codec = get(f, &["compresscodec", "compressType"]).unwrap_or("none");
        let compression = Compression::parse(codec)
            .ok_or_else(|| self.err(format!("compresscodec: unknown codec {codec:?}")))?;
        let crc: u32 = get(f, &["crc"]).and_then(|c| c.parse().ok()).unwrap_or(0);
        let inferred = get(f, &["baseOffset"]).is_none();
        let (base, last, count) = if magic == 2 && !inferred {
            let base: i64 = self.num(f, &["baseOffset"])?;
            let last: i64 = self.num(f, &["lastOffset"])?;
            let count = match get(f, &["count"]) {
                Some(c) => Some(
                    c.parse::<u32>()
                        .map_err(|_| self.err(format!("count: {c:?} is not a number")))?,
                ),
                None => None,
            };
            (base, last, count)
        } else {
            let last: i64 = self.num(f, &["offset"])?;
            (last, last, None)
        };
        let flag = |n: &str| get(f, &[n]) == Some("true");
        let num_or = |n: &str, d: i64| get(f, &[n]).and_then(|v| v.parse().ok()).unwrap_or(d);
        let valid = get(f, &["isvalid"]) != Some("false");
        let batch = LogBatch {
            position,
            size,
            magic,
            base_offset: Offset(base),
            // Before 2.2, and for v0/v1, a batch line names only the last offset.
            base_offset_inferred: inferred && (magic == 2 || compression != Compression::None),
            last_offset: Offset(last),
            count,
            partition_leader_epoch: num_or("partitionLeaderEpoch", -1) as i32,
            producer_id: num_or("producerId", -1),
            producer_epoch: num_or("producerEpoch", -1) as i16,
            base_sequence: num_or("baseSequence", -1) as i32,
            transactional: flag("isTransactional"),
            control: flag("isControl"),
            timestamp_type,
            base_timestamp: Timestamp(max_timestamp),
            max_timestamp: Timestamp(max_timestamp),
            compression,
            crc,
            records: Records::NotExpanded {
                why: NotExpanded::HeaderOnly,
            },
        };
        Ok((batch, valid))
    }

    pub(super) fn record(&self, f: &[(&str, &str)]) -> Result<RecordInfo, DumpError> {
        let offset: i64 = self.num(f, &["offset"])?;
        let ts = ["CreateTime", "LogAppendTime", "NoTimestampType"]
            .iter()
            .find_map(|k| get(f, &[k]))
            .ok_or_else(|| self.err("no CreateTime:, LogAppendTime: or NoTimestampType: field"))?;
        let timestamp: i64 = ts
            .parse()
            .map_err(|_| self.err(format!("record timestamp {ts:?} is not a number")))?;
        let headers = match get(f, &["headerKeys"]) {
            None | Some("[]") => 0,
            Some(h) => h.matches(',').count() as u32 + 1,
        };
        Ok(RecordInfo {
            offset: Offset(offset),
            timestamp: Timestamp(timestamp),
            key_bytes: self.num(f, &["keySize"]).ok().and_then(nullable_len),
            value_bytes: self.num(f, &["valueSize"]).ok().and_then(nullable_len),
            headers,
        })
    }

    /// The batch a record line of an old format names (its position, and in 2.8 its batch's
    /// offsets and size).
    pub(super) fn batch_of_record(
        &self,
        f: &[(&str, &str)],
        rec: &RecordInfo,
        position: u64,
    ) -> Result<(LogBatch, bool), DumpError> {
        let size: Option<u32> = get(f, &["batchSize"]).and_then(|v| v.parse().ok());
        let magic: u8 = get(f, &["magic"]).and_then(|v| v.parse().ok()).unwrap_or(2);
        let codec = get(f, &["compresscodec", "compressType"]).unwrap_or("none");
        let compression = Compression::parse(codec)
            .ok_or_else(|| self.err(format!("compresscodec: unknown codec {codec:?}")))?;
        let timestamp_type = ["CreateTime", "LogAppendTime", "NoTimestampType"]
            .iter()
            .find_map(|k| get(f, &[k]).and(TimestampKind::parse(k)))
            .unwrap_or(TimestampKind::CreateTime);
        let num = |n: &str, d: i64| get(f, &[n]).and_then(|v| v.parse().ok()).unwrap_or(d);
        let base = num("baseOffset", rec.offset.0);
        let last = num("lastOffset", rec.offset.0);
        Ok((
            LogBatch {
                position,
                size: size.unwrap_or(0),
                magic,
                base_offset: Offset(base),
                base_offset_inferred: false,
                last_offset: Offset(last),
                count: None,
                partition_leader_epoch: num("partitionLeaderEpoch", -1) as i32,
                producer_id: num("producerId", -1),
                producer_epoch: num("producerEpoch", -1) as i16,
                base_sequence: num("baseSequence", -1) as i32,
                transactional: get(f, &["isTransactional"]) == Some("true"),
                control: false,
                timestamp_type,
                base_timestamp: rec.timestamp,
                max_timestamp: Timestamp::NONE,
                compression,
                crc: 0,
                records: Records::Expanded {
                    records: Vec::new(),
                },
            },
            size.is_some(),
        ))
    }
}

/// Lines the tool writes on stderr (index mismatch reports), accepted and ignored when mixed in.
pub(super) fn is_ignored(t: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "Mismatches in ",
        "Index offset: ",
        "Found timestamp mismatch",
        "Index timestamp: ",
        "Found out of order timestamp",
        "The following indexed offsets are not found",
        "Indexed offset: ",
        "Non-consecutive offsets in ",
        "Ignoring unknown file ",
    ];
    PREFIXES.iter().any(|p| t.starts_with(p)) || t.contains(" is followed by ")
}

pub(super) fn clip(t: &str) -> String {
    t.chars().take(80).collect()
}
