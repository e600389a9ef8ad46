//! Records and the exact byte size of the v2 record batch that carries them.
//!
//! A produce is one batch. Its size matters twice on the broker: `segment.bytes` rolls on it and
//! `index.interval.bytes` counts it, so the model computes it exactly as
//! `DefaultRecordBatch`/`DefaultRecord` lay it out: a 61-byte batch header
//! (`RECORD_BATCH_OVERHEAD`) and, per record, a varint length followed by the attributes byte,
//! the zig-zag varlong timestamp delta (against the first record's timestamp, the batch's
//! `baseTimestamp`), the varint offset delta, key, value and headers, each length-prefixed.

use crate::units::{Bytes, Timestamp};
use serde::{Deserialize, Serialize};

/// `DefaultRecordBatch.RECORD_BATCH_OVERHEAD`.
pub(crate) const RECORD_BATCH_OVERHEAD: i64 = 61;

/// One header of a record: key and value sizes in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Header key length in bytes (UTF-8).
    pub key_bytes: u32,
    /// Header value length in bytes.
    pub value_bytes: u32,
}

/// One record as a producer sends it. Only sizes are modelled, not content.
///
/// Kafka tells a null key (`keyLength -1` on the wire, `DefaultRecord.hasKey()` is
/// `key != null`) from an empty one (`keyLength 0`): a compacted topic accepts the empty key and
/// rejects the null one. Here `key_bytes: 0` is a null key unless `empty_key` is set; use
/// [`Record::key_len`] rather than reading the two fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The producer's timestamp; `-1` is NO_TIMESTAMP.
    pub timestamp: Timestamp,
    /// Key length in bytes; `0` is a null key unless `empty_key` is set.
    pub key_bytes: u32,
    /// With `key_bytes: 0`: the key is present and empty (zero bytes), not null. Ignored when
    /// `key_bytes > 0`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub empty_key: bool,
    /// Value length in bytes.
    pub value_bytes: u32,
    /// Headers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<Header>,
}

impl Record {
    /// A record with the given timestamp, no key and a 100-byte value.
    pub fn at(timestamp: Timestamp) -> Record {
        Record::with_key(timestamp, None, 100)
    }

    /// A record with the given timestamp, key (`None`: null; `Some(0)`: empty) and value size.
    pub fn with_key(timestamp: Timestamp, key: Option<u32>, value_bytes: u32) -> Record {
        Record {
            timestamp,
            key_bytes: key.unwrap_or(0),
            empty_key: key == Some(0),
            value_bytes,
            headers: Vec::new(),
        }
    }

    /// The key's length, `None` for a null key.
    pub fn key_len(&self) -> Option<u32> {
        (self.key_bytes > 0 || self.empty_key).then_some(self.key_bytes)
    }

    /// Whether the record carries a key, empty or not (`DefaultRecord.hasKey()`: `key != null`);
    /// compacted topics require one.
    pub fn has_key(&self) -> bool {
        self.key_len().is_some()
    }
}

/// Bytes of a zig-zag varint encoding an `i32` (`ByteUtils.sizeOfVarint`).
#[inline]
pub(crate) fn size_of_varint(value: i32) -> i64 {
    let v = ((value << 1) ^ (value >> 31)) as u32;
    let bits = 32 - v.leading_zeros() as i64;
    // 7 payload bits a byte, and zero still takes one byte.
    ((bits + 6) / 7).max(1)
}

/// Bytes of a zig-zag varlong encoding an `i64` (`ByteUtils.sizeOfVarlong`).
#[inline]
pub(crate) fn size_of_varlong(value: i64) -> i64 {
    let v = ((value << 1) ^ (value >> 63)) as u64;
    let bits = 64 - v.leading_zeros() as i64;
    ((bits + 6) / 7).max(1)
}

/// The encoded size of one record inside a batch, its length prefix included
/// (`DefaultRecord.sizeInBytes`).
#[inline]
pub(crate) fn record_size(record: &Record, offset_delta: i32, timestamp_delta: i64) -> i64 {
    // A null key is written as length -1, an empty one as length 0: one varint byte either way.
    let key = match record.key_len() {
        None => size_of_varint(-1),
        Some(n) => size_of_varint(n as i32) + n as i64,
    };
    let value = size_of_varint(record.value_bytes as i32) + record.value_bytes as i64;
    let mut headers = size_of_varint(record.headers.len() as i32);
    for h in &record.headers {
        headers += size_of_varint(h.key_bytes as i32) + h.key_bytes as i64;
        headers += size_of_varint(h.value_bytes as i32) + h.value_bytes as i64;
    }
    let body =
        1 + size_of_varlong(timestamp_delta) + size_of_varint(offset_delta) + key + value + headers;
    size_of_varint(body as i32) + body
}

/// The size in bytes of an uncompressed v2 batch holding `records`.
pub fn batch_size(records: &[Record]) -> Bytes {
    let base = records.first().map_or(Timestamp::NONE, |r| r.timestamp);
    let mut size = RECORD_BATCH_OVERHEAD;
    for (i, r) in records.iter().enumerate() {
        size += record_size(r, i as i32, r.timestamp.wrapping_since(base));
    }
    Bytes(size)
}

/// [`batch_size`] of a batch of one record.
#[inline]
pub(crate) fn single_record_batch_size(record: &Record) -> Bytes {
    Bytes(RECORD_BATCH_OVERHEAD + record_size(record, 0, 0))
}

/// The batch's max timestamp as the broker recomputes it under CreateTime: the largest record
/// timestamp, starting from NO_TIMESTAMP, so a batch of negative stamps has max `-1`.
pub(crate) fn max_timestamp(records: &[Record]) -> Timestamp {
    records
        .iter()
        .map(|r| r.timestamp)
        .fold(Timestamp::NONE, Timestamp::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_sizes_match_byte_utils() {
        assert_eq!(size_of_varint(0), 1);
        assert_eq!(size_of_varint(-1), 1);
        assert_eq!(size_of_varint(63), 1);
        assert_eq!(size_of_varint(64), 2);
        assert_eq!(size_of_varint(-64), 1);
        assert_eq!(size_of_varint(-65), 2);
        assert_eq!(size_of_varint(i32::MAX), 5);
        assert_eq!(size_of_varint(i32::MIN), 5);
        assert_eq!(size_of_varlong(0), 1);
        assert_eq!(size_of_varlong(i64::MAX), 10);
        assert_eq!(size_of_varlong(i64::MIN), 10);
        assert_eq!(size_of_varlong(8191), 2);
        assert_eq!(size_of_varlong(8192), 3);
    }

    #[test]
    fn one_record_batch_size() {
        // attributes 1 + ts delta 1 + offset delta 1 + null key 1 + value len 2 + value 100 +
        // header count 1 = 107, plus its own 2-byte length = 109, plus the 61-byte header.
        let r = Record::at(Timestamp(1_700_000_000_000));
        assert_eq!(batch_size(std::slice::from_ref(&r)), Bytes(61 + 109));
        // The second record's deltas are still one byte each.
        assert_eq!(batch_size(&[r.clone(), r]), Bytes(61 + 109 + 109));
    }

    #[test]
    fn null_and_empty_keys() {
        let t = Timestamp(0);
        let null = Record::with_key(t, None, 100);
        let empty = Record::with_key(t, Some(0), 100);
        let sized = Record::with_key(t, Some(3), 100);
        assert_eq!((null.key_len(), null.has_key()), (None, false));
        assert_eq!((empty.key_len(), empty.has_key()), (Some(0), true));
        assert_eq!((sized.key_len(), sized.has_key()), (Some(3), true));
        assert_eq!(null, Record::at(t));
        // keyLength -1 and 0 are both one varint byte, so the sizes agree.
        assert_eq!(batch_size(&[null]), batch_size(&[empty]));
        assert_eq!(batch_size(&[sized]), Bytes(61 + 109 + 3));
    }

    #[test]
    fn delta_against_first_record_wraps() {
        let a = Record::at(Timestamp(i64::MIN));
        let b = Record::at(Timestamp(i64::MAX));
        // MAX - MIN wraps to -1: a one-byte varlong.
        assert_eq!(batch_size(&[a, b]), Bytes(61 + 109 + 109));
    }
}
