//! v0/v1 message sets (`LegacyRecord`, `AbstractLegacyRecordBatch`), read-only: each shallow
//! message is a batch; a compressed one wraps inner messages whose offsets are relative to the
//! wrapper's (v1: the wrapper carries the last inner offset) or absolute (v0), and whose
//! timestamps are the wrapper's under LogAppendTime. Every message's CRC-32 (from the magic byte
//! on) is checked, as `LegacyRecord.ensureValid` does.

use super::codec::{decompress, Decompressed};
use super::log_batch::{
    nullable_len, Compression, DamageKind, LogBatch, NotExpanded, RecordInfo, Records,
    TimestampKind,
};
use super::log_file::{CRC32, RECORD_OVERHEAD_V0, RECORD_OVERHEAD_V1};
use super::wire::{Cursor, WireError};
use logtime_model::units::{Offset, Timestamp};

/// One v0/v1 message: `(offset, timestamp, attributes, key size, value, crc)`.
struct Legacy<'a> {
    offset: i64,
    timestamp: i64,
    attributes: i8,
    /// `None`: a null key.
    key_bytes: Option<u32>,
    value: Option<&'a [u8]>,
    crc: u32,
}

fn malformed(reason: String) -> DamageKind {
    DamageKind::Malformed { reason }
}

fn wire_damage(e: WireError) -> DamageKind {
    malformed(e.to_string())
}

/// Reads one v0/v1 message (offset and size fields included) from `c`, checking its CRC
/// (`LegacyRecord.ensureValid`).
fn read_legacy<'a>(c: &mut Cursor<'a>, expect_magic: Option<u8>) -> Result<Legacy<'a>, DamageKind> {
    let wire = wire_damage;
    let start = c.position();
    let offset = c.i64("message offset").map_err(wire)?;
    let size = c.i32("message size").map_err(wire)?;
    if size < RECORD_OVERHEAD_V0 {
        return Err(malformed(format!(
            "message at byte {start}: size {size} is smaller than the minimum record overhead ({RECORD_OVERHEAD_V0})"
        )));
    }
    let body_start = c.position();
    let body = c.bytes(size as usize, "message").map_err(wire)?;
    let mut r = Cursor::new(body, body_start);
    let crc = r.u32("crc").map_err(wire)?;
    let magic = r.i8("magic").map_err(wire)?;
    if !(0..=1).contains(&magic) || expect_magic.is_some_and(|m| m as i8 != magic) {
        return Err(malformed(format!(
            "message at byte {start}: unexpected magic {magic}"
        )));
    }
    if magic == 1 && size < RECORD_OVERHEAD_V1 {
        return Err(malformed(format!(
            "message at byte {start}: size {size} is smaller than the v1 overhead ({RECORD_OVERHEAD_V1})"
        )));
    }
    let computed = CRC32.checksum(&body[4..]);
    if computed != crc {
        return Err(DamageKind::CrcMismatch {
            stored: crc,
            computed,
        });
    }
    let attributes = r.i8("attributes").map_err(wire)?;
    let timestamp = if magic == 1 {
        r.i64("timestamp").map_err(wire)?
    } else {
        -1
    };
    let key_bytes = nullable_len(r.i32("key length").map_err(wire)?);
    if let Some(n) = key_bytes {
        r.bytes(n as usize, "key").map_err(wire)?;
    }
    let value_size = r.i32("value length").map_err(wire)?;
    let value = if value_size >= 0 {
        Some(r.bytes(value_size as usize, "value").map_err(wire)?)
    } else {
        None
    };
    Ok(Legacy {
        offset,
        timestamp,
        attributes,
        key_bytes,
        value,
        crc,
    })
}

pub(super) fn parse_legacy(
    data: &[u8],
    position: u64,
    next_offset: Offset,
    magic: u8,
) -> Result<LogBatch, DamageKind> {
    let mut c = Cursor::new(data, position);
    let outer = read_legacy(&mut c, Some(magic))?;
    let compression = Compression::from_id((outer.attributes & 0x07) as u8);
    let timestamp_type = match (magic, outer.attributes & 0x08 != 0) {
        (0, _) => TimestampKind::NoTimestampType,
        (_, true) => TimestampKind::LogAppendTime,
        (_, false) => TimestampKind::CreateTime,
    };
    let mut batch = LogBatch {
        position,
        size: data.len() as u32,
        magic,
        base_offset: Offset(outer.offset),
        base_offset_inferred: false,
        last_offset: Offset(outer.offset),
        count: None,
        partition_leader_epoch: -1,
        producer_id: -1,
        producer_epoch: -1,
        base_sequence: -1,
        transactional: false,
        control: false,
        timestamp_type,
        base_timestamp: Timestamp(outer.timestamp),
        max_timestamp: Timestamp(outer.timestamp),
        compression,
        crc: outer.crc,
        records: Records::Expanded {
            records: vec![RecordInfo {
                offset: Offset(outer.offset),
                timestamp: Timestamp(outer.timestamp),
                key_bytes: outer.key_bytes,
                value_bytes: outer.value.map(|v| v.len() as u32),
                headers: 0,
            }],
        },
    };
    if compression == Compression::None {
        return Ok(batch);
    }
    match inner_records(&outer, compression, timestamp_type, position, magic) {
        Ok(records) => {
            batch.base_offset = records[0].offset;
            batch.records = Records::Expanded { records };
        }
        Err(why) => {
            batch.records = Records::NotExpanded { why };
            batch.base_offset = next_offset.min(batch.last_offset);
            batch.base_offset_inferred = true;
        }
    }
    Ok(batch)
}

/// The records of a compressed message, read from its inner messages (never empty), or why
/// they cannot be read: the message is then kept as a batch whose records are not read.
fn inner_records(
    outer: &Legacy,
    compression: Compression,
    timestamp_type: TimestampKind,
    position: u64,
    magic: u8,
) -> Result<Vec<RecordInfo>, NotExpanded> {
    let unreadable = |reason| NotExpanded::Malformed { reason };
    let inner_bytes = match (compression, outer.value) {
        (Compression::Unknown(_) | Compression::Zstd, _) => {
            return Err(unreadable(format!(
                "message at byte {position}: codec {} is not allowed before magic 2",
                compression.name()
            )));
        }
        (_, None) => {
            return Err(unreadable(format!(
                "compressed message at byte {position} has a null value"
            )));
        }
        (codec, Some(v)) => match decompress(codec, v, magic) {
            Decompressed::Bytes(b) => b,
            Decompressed::Unavailable => return Err(NotExpanded::CodecNotCompiled { codec }),
            Decompressed::Invalid(reason) => {
                return Err(unreadable(format!(
                    "{} data of the message at byte {position}: {reason}",
                    codec.name()
                )));
            }
        },
    };
    let mut inner = Vec::new();
    let mut r = Cursor::new(&inner_bytes, 0);
    while r.remaining() > 0 {
        let at = r.position();
        match read_legacy(&mut r, Some(magic)) {
            Ok(m) => inner.push(m),
            Err(kind) => {
                return Err(unreadable(format!(
                    "inner message at byte {at} of the decompressed message at byte {position}: {kind}"
                )));
            }
        }
    }
    let Some(last_inner) = inner.last().map(|m| m.offset) else {
        return Err(unreadable(format!(
            "compressed message at byte {position} holds no messages"
        )));
    };
    // v1 inner offsets are relative (the wrapper carries the last one); v0 are absolute.
    let shift = if magic == 1 {
        outer.offset.wrapping_sub(last_inner)
    } else {
        0
    };
    Ok(inner
        .iter()
        .map(|m| RecordInfo {
            offset: Offset(m.offset.wrapping_add(shift)),
            timestamp: Timestamp(match timestamp_type {
                TimestampKind::LogAppendTime => outer.timestamp,
                _ => m.timestamp,
            }),
            key_bytes: m.key_bytes,
            value_bytes: m.value.map(|v| v.len() as u32),
            headers: 0,
        })
        .collect())
}
