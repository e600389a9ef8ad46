//! A v2 record batch (`DefaultRecordBatch`) and its records (`DefaultRecord.readFrom`): the
//! 61-byte header, the CRC-32C check of `ensureValid`, and the records, decompressed first when
//! the batch is compressed.

use super::codec::{decompress, Decompressed};
use super::log_batch::{
    nullable_len, Compression, DamageKind, LogBatch, NotExpanded, RecordInfo, Records,
    TimestampKind,
};
use super::log_file::{LOG_OVERHEAD, RECORD_BATCH_OVERHEAD, V2_CRC_FROM};
use super::wire::{Cursor, WireError};
use logtime_model::units::{Offset, Timestamp};

/// The most records of one batch that are listed one by one (a producer's batch holds
/// thousands; a header may claim 38 million, some 1.5 GB once listed). A batch that claims more
/// is read at the batch level, as a batch whose records are not read.
pub const MAX_EXPANDED_RECORDS: u64 = 4_000_000;

/// CRC-32C (Castagnoli), as `Crc32C.compute`: natively through crc-fast's carry-less multiply
/// folding, in the browser through the crc32c crate's tables (see core/Cargo.toml for why).
pub(crate) fn crc32c(bytes: &[u8]) -> u32 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        crc_fast::checksum(crc_fast::CrcAlgorithm::Crc32Iscsi, bytes) as u32
    }
    #[cfg(target_arch = "wasm32")]
    {
        crc32c::crc32c(bytes)
    }
}

fn wire(e: WireError) -> String {
    e.to_string()
}

/// The fields of a v2 batch header, in wire order (`DefaultRecordBatch`'s offsets).
struct Header {
    base: i64,
    epoch: i32,
    crc: u32,
    attrs: i16,
    last_delta: i32,
    base_ts: i64,
    max_ts: i64,
    pid: i64,
    pepoch: i16,
    seq: i32,
    count: i32,
}

fn read_header(c: &mut Cursor) -> Result<Header, WireError> {
    let base = c.i64("baseOffset")?;
    let _len = c.i32("batchLength")?;
    let epoch = c.i32("partitionLeaderEpoch")?;
    let _magic = c.i8("magic")?;
    Ok(Header {
        base,
        epoch,
        crc: c.u32("crc")?,
        attrs: c.i16("attributes")?,
        last_delta: c.i32("lastOffsetDelta")?,
        base_ts: c.i64("baseTimestamp")?,
        max_ts: c.i64("maxTimestamp")?,
        pid: c.i64("producerId")?,
        pepoch: c.i16("producerEpoch")?,
        seq: c.i32("baseSequence")?,
        count: c.i32("recordCount")?,
    })
}

pub(super) fn parse_v2(
    data: &[u8],
    position: u64,
    known_crc: Option<u32>,
) -> Result<LogBatch, DamageKind> {
    if data.len() < RECORD_BATCH_OVERHEAD {
        return Err(DamageKind::SizeTooSmall {
            size: (data.len() - LOG_OVERHEAD) as i32,
            minimum: (RECORD_BATCH_OVERHEAD - LOG_OVERHEAD) as i32,
        });
    }
    let mut c = Cursor::new(data, position);
    // The header is 61 bytes and `data` holds at least that: these reads cannot fail.
    let h = read_header(&mut c).map_err(|e| DamageKind::Malformed { reason: wire(e) })?;
    let computed = known_crc.unwrap_or_else(|| crc32c(&data[V2_CRC_FROM..]));
    if computed != h.crc {
        return Err(DamageKind::CrcMismatch {
            stored: h.crc,
            computed,
        });
    }
    let compression = Compression::from_id((h.attrs & 0x07) as u8);
    let log_append = h.attrs & 0x08 != 0;
    let timestamp_type = if log_append {
        TimestampKind::LogAppendTime
    } else {
        TimestampKind::CreateTime
    };
    let records = match read_v2_records(
        &data[RECORD_BATCH_OVERHEAD..],
        position + RECORD_BATCH_OVERHEAD as u64,
        compression,
        &h,
        log_append.then_some(h.max_ts),
    ) {
        Ok(records) => Records::Expanded { records },
        Err(why) => Records::NotExpanded { why },
    };
    Ok(LogBatch {
        position,
        size: data.len() as u32,
        magic: 2,
        base_offset: Offset(h.base),
        base_offset_inferred: false,
        last_offset: Offset(h.base.wrapping_add(h.last_delta as i64)),
        count: Some(h.count.max(0) as u32),
        partition_leader_epoch: h.epoch,
        producer_id: h.pid,
        producer_epoch: h.pepoch,
        base_sequence: h.seq,
        transactional: h.attrs & 0x10 != 0,
        control: h.attrs & 0x20 != 0,
        timestamp_type,
        base_timestamp: Timestamp(h.base_ts),
        max_timestamp: Timestamp(h.max_ts),
        compression,
        crc: h.crc,
        records,
    })
}

fn malformed(reason: String) -> NotExpanded {
    NotExpanded::Malformed { reason }
}

/// The records section to read: the batch's own bytes, or the decompressed ones (whose
/// positions are not file positions, so errors name the batch's instead: origin 0).
enum Section<'a> {
    Plain(&'a [u8], u64),
    Decompressed(Vec<u8>),
}

fn records_section(
    section: &[u8],
    origin: u64,
    compression: Compression,
) -> Result<Section<'_>, NotExpanded> {
    match compression {
        Compression::None => Ok(Section::Plain(section, origin)),
        Compression::Unknown(id) => Err(malformed(format!("unknown compression codec id {id}"))),
        codec => match decompress(codec, section, 2) {
            Decompressed::Bytes(b) => Ok(Section::Decompressed(b)),
            Decompressed::Unavailable => Err(NotExpanded::CodecNotCompiled { codec }),
            Decompressed::Invalid(reason) => Err(malformed(format!(
                "{} data at byte {origin}: {reason}",
                codec.name()
            ))),
        },
    }
}

/// The records of a v2 batch (`DefaultRecord.readFrom`), decompressing first if needed.
fn read_v2_records(
    section: &[u8],
    origin: u64,
    compression: Compression,
    h: &Header,
    log_append_time: Option<i64>,
) -> Result<Vec<RecordInfo>, NotExpanded> {
    let count = h.count;
    if count < 0 {
        return Err(malformed(format!("negative record count {count}")));
    }
    if count as u64 > MAX_EXPANDED_RECORDS {
        // Refused before decompressing: each record listed takes some 40 bytes.
        return Err(malformed(format!(
            "record count {count} is more than the {MAX_EXPANDED_RECORDS} records logtime lists of one batch"
        )));
    }
    let section = records_section(section, origin, compression)?;
    let (bytes, origin, compressed) = match &section {
        Section::Plain(b, origin) => (*b, *origin, false),
        Section::Decompressed(b) => (&b[..], 0, true),
    };
    let where_ = |e: WireError| {
        if compressed {
            format!(
                "{} (byte {} of the decompressed records)",
                e.what, e.position
            ) + ": "
                + e.reason
        } else {
            wire(e)
        }
    };
    // Every record takes at least 7 bytes: cap the allocation by what the data can hold.
    let mut records = Vec::with_capacity((count as usize).min(bytes.len() / 7 + 1));
    let mut c = Cursor::new(bytes, origin);
    for i in 0..count {
        let start = c.position();
        let len = c
            .varint("record length")
            .map_err(|e| malformed(format!("record {i}: {}", where_(e))))?;
        if len < 0 || len as usize > c.remaining() {
            return Err(malformed(format!(
                "record {i} at byte {start}{}: length {len} does not fit the {} bytes left",
                if compressed {
                    " of the decompressed records"
                } else {
                    ""
                },
                c.remaining()
            )));
        }
        let body = c
            .bytes(len as usize, "record")
            .map_err(|e| malformed(where_(e)))?;
        let mut r = Cursor::new(body, c.position() - len as u64);
        let rec = read_record(&mut r, h, log_append_time)
            .map_err(|e| malformed(format!("record {i}: {}", where_(e))))?;
        if r.remaining() != 0 {
            return Err(malformed(format!(
                "record {i} at byte {start}: {} bytes left over after its headers",
                r.remaining()
            )));
        }
        records.push(rec);
    }
    if c.remaining() != 0 {
        return Err(malformed(format!(
            "{} bytes after the batch's {count} records (incorrect declared batch size)",
            c.remaining()
        )));
    }
    Ok(records)
}

/// One record's body after its length: its stamp is the batch's LogAppendTime when it has one,
/// else the base timestamp plus its delta.
fn read_record(
    r: &mut Cursor,
    h: &Header,
    log_append_time: Option<i64>,
) -> Result<RecordInfo, WireError> {
    let _attributes = r.i8("record attributes")?;
    let ts_delta = r.varlong("timestamp delta")?;
    let offset_delta = r.varint("offset delta")?;
    let key_size = r.varint("key length")?;
    if key_size >= 0 {
        r.bytes(key_size as usize, "key")?;
    }
    let value_size = r.varint("value length")?;
    if value_size >= 0 {
        r.bytes(value_size as usize, "value")?;
    }
    let headers = r.varint("header count")?;
    if headers < 0 {
        return Err(WireError {
            position: r.position(),
            what: "header count",
            reason: "negative",
        });
    }
    for _ in 0..headers {
        let k = r.varint("header key length")?;
        if k < 0 {
            return Err(WireError {
                position: r.position(),
                what: "header key length",
                reason: "negative (header keys cannot be null)",
            });
        }
        r.bytes(k as usize, "header key")?;
        let v = r.varint("header value length")?;
        if v >= 0 {
            r.bytes(v as usize, "header value")?;
        }
    }
    Ok(RecordInfo {
        offset: Offset(h.base.wrapping_add(offset_delta as i64)),
        timestamp: Timestamp(log_append_time.unwrap_or(h.base_ts.wrapping_add(ts_delta))),
        key_bytes: nullable_len(key_size),
        value_bytes: nullable_len(value_size),
        headers: headers as u32,
    })
}
