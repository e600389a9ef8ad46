//! A `.log`'s batches as read (`RecordBatch`: v2 `DefaultRecordBatch`, v0/v1
//! `AbstractLegacyRecordBatch`), with Kafka's names for their codec (`CompressionType`) and
//! timestamp type (`TimestampType`), and the reasons `LogSegment.recover` stops at a batch.

use logtime_model::units::{Offset, Timestamp};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A batch's codec (`attributes & 0x07`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Compression {
    /// Uncompressed.
    None,
    /// gzip.
    Gzip,
    /// snappy (xerial framing).
    Snappy,
    /// LZ4 frame.
    Lz4,
    /// zstd (v2 only).
    Zstd,
    /// An id Kafka does not define.
    Unknown(u8),
}

impl Compression {
    /// From the attributes' low three bits.
    pub fn from_id(id: u8) -> Compression {
        match id {
            0 => Compression::None,
            1 => Compression::Gzip,
            2 => Compression::Snappy,
            3 => Compression::Lz4,
            4 => Compression::Zstd,
            n => Compression::Unknown(n),
        }
    }

    /// Kafka's name (`CompressionType.name`), as `kafka-dump-log` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Snappy => "snappy",
            Compression::Lz4 => "lz4",
            Compression::Zstd => "zstd",
            Compression::Unknown(_) => "unknown",
        }
    }

    /// Parses a name as `kafka-dump-log` prints it (any case: older versions print `NONE`).
    pub fn parse(s: &str) -> Option<Compression> {
        Some(match s.to_ascii_lowercase().as_str() {
            "none" => Compression::None,
            "gzip" => Compression::Gzip,
            "snappy" => Compression::Snappy,
            "lz4" => Compression::Lz4,
            "zstd" => Compression::Zstd,
            _ => return None,
        })
    }
}

/// A batch's timestamp type (`TimestampType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimestampKind {
    /// `CreateTime`: the producer's stamps.
    CreateTime,
    /// `LogAppendTime`: the broker's append time, the batch's max timestamp, for every record.
    LogAppendTime,
    /// `NoTimestampType`: magic 0, no timestamps at all.
    NoTimestampType,
}

impl TimestampKind {
    /// Kafka's name, as `kafka-dump-log` prints it.
    pub fn name(self) -> &'static str {
        match self {
            TimestampKind::CreateTime => "CreateTime",
            TimestampKind::LogAppendTime => "LogAppendTime",
            TimestampKind::NoTimestampType => "NoTimestampType",
        }
    }

    /// Parses Kafka's name.
    pub fn parse(s: &str) -> Option<TimestampKind> {
        Some(match s {
            "CreateTime" => TimestampKind::CreateTime,
            "LogAppendTime" => TimestampKind::LogAppendTime,
            "NoTimestampType" => TimestampKind::NoTimestampType,
            _ => return None,
        })
    }
}

/// One record as read from a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordInfo {
    /// Its offset.
    pub offset: Offset,
    /// Its timestamp as a reader sees it (the batch's max under LogAppendTime, `-1` in magic 0).
    pub timestamp: Timestamp,
    /// Key size in bytes: `None` for a null key (length -1 on the wire), `Some(0)` for an empty
    /// key, a different thing (a compacted topic accepts it). The same representation as
    /// [`Record::key_len`](logtime_model::Record::key_len) and a scenario's `key_bytes`.
    pub key_bytes: Option<u32>,
    /// Value size in bytes: `None` for a null value (a tombstone).
    pub value_bytes: Option<u32>,
    /// Number of headers (v2).
    pub headers: u32,
}

/// A key or value length as the wire writes it: a negative one is null (`DefaultRecord.readFrom`
/// and `LegacyRecord` read the bytes only when the length is `>= 0`).
pub(crate) fn nullable_len(len: i32) -> Option<u32> {
    u32::try_from(len).ok()
}

/// Why a batch's records were not read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NotExpanded {
    /// The batch is compressed with a codec this build leaves out (the browser build).
    CodecNotCompiled {
        /// The codec.
        codec: Compression,
    },
    /// The records could not be read (the CRC held, so Kafka keeps the batch).
    Malformed {
        /// Lowercase reason with the byte position.
        reason: String,
    },
    /// The source only gave the batch header (`kafka-dump-log` without `--deep-iteration`).
    HeaderOnly,
}

impl fmt::Display for NotExpanded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotExpanded::CodecNotCompiled { codec } => write!(
                f,
                "{} records not expanded: this build has no {} codec",
                codec.name(),
                codec.name()
            ),
            NotExpanded::Malformed { reason } => write!(f, "records unreadable: {reason}"),
            NotExpanded::HeaderOnly => f.write_str("records not listed (batch header only)"),
        }
    }
}

/// A batch's records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Records {
    /// Every record, in order.
    Expanded {
        /// The records.
        records: Vec<RecordInfo>,
    },
    /// Only the batch header is known.
    NotExpanded {
        /// Why.
        why: NotExpanded,
    },
}

/// One batch (v2) or shallow message (v0/v1) of a `.log` file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogBatch {
    /// Byte position in the file.
    pub position: u64,
    /// Size in bytes, the 12-byte log overhead included (`sizeInBytes`).
    pub size: u32,
    /// Magic: 0, 1 or 2.
    pub magic: u8,
    /// First offset. For a compressed v0/v1 message whose records were not read, the offset after
    /// the previous batch (see `base_offset_inferred`).
    pub base_offset: Offset,
    /// Whether `base_offset` was inferred rather than read.
    pub base_offset_inferred: bool,
    /// Last offset.
    pub last_offset: Offset,
    /// v2 `recordCount`.
    pub count: Option<u32>,
    /// v2 `partitionLeaderEpoch` (`-1` for v0/v1).
    pub partition_leader_epoch: i32,
    /// v2 `producerId` (`-1` for v0/v1).
    pub producer_id: i64,
    /// v2 `producerEpoch`.
    pub producer_epoch: i16,
    /// v2 `baseSequence`.
    pub base_sequence: i32,
    /// v2 transactional flag.
    pub transactional: bool,
    /// v2 control batch (transaction marker).
    pub control: bool,
    /// Timestamp type.
    pub timestamp_type: TimestampKind,
    /// v2 `baseTimestamp` (the producer's first stamp, kept as written even under
    /// LogAppendTime); for v0/v1 the message's timestamp.
    pub base_timestamp: Timestamp,
    /// `maxTimestamp`: what Kafka's segment and indexes use.
    pub max_timestamp: Timestamp,
    /// Codec.
    pub compression: Compression,
    /// The stored CRC.
    pub crc: u32,
    /// The records.
    pub records: Records,
}

/// Why reading stopped before the end of the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DamageKind {
    /// Fewer bytes left than a batch header or than the batch's declared size (a write cut
    /// short by a crash).
    Truncated {
        /// Bytes the batch needs (0 when not even its size field was readable).
        needed: u64,
        /// Bytes left in the file.
        available: u64,
    },
    /// The declared size is below the format's minimum.
    SizeTooSmall {
        /// The size field.
        size: i32,
        /// The minimum.
        minimum: i32,
    },
    /// A magic byte Kafka does not know.
    UnknownMagic {
        /// The byte.
        magic: i8,
    },
    /// The stored CRC does not match the bytes.
    CrcMismatch {
        /// Stored.
        stored: u32,
        /// Computed.
        computed: u32,
    },
    /// A v0/v1 message whose fields run past its declared size.
    Malformed {
        /// Lowercase reason with the byte position.
        reason: String,
    },
}

/// The first invalid batch: Kafka's recovery keeps the `position` bytes before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogDamage {
    /// Byte position of the invalid batch: the segment's valid size.
    pub position: u64,
    /// What is wrong.
    pub kind: DamageKind,
}

impl fmt::Display for DamageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DamageKind::Truncated {
                needed: 0,
                available,
            } => write!(
                f,
                "truncated ({available} bytes left, fewer than a batch header)"
            ),
            DamageKind::Truncated { needed, available } => write!(
                f,
                "truncated (the batch declares {needed} bytes, {available} are left)"
            ),
            DamageKind::SizeTooSmall { size, minimum } => write!(
                f,
                "size {size} is smaller than the minimum record overhead ({minimum})"
            ),
            DamageKind::UnknownMagic { magic } => write!(f, "unknown magic {magic}"),
            DamageKind::CrcMismatch { stored, computed } => write!(
                f,
                "record is corrupt (stored crc = {stored}, computed crc = {computed})"
            ),
            DamageKind::Malformed { reason } => f.write_str(reason),
        }
    }
}

impl fmt::Display for LogDamage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid batch at byte {}: {}", self.position, self.kind)
    }
}
