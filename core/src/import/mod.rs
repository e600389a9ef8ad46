//! Importing a real partition: a broker's segment files (`.log`, `.index`, `.timeindex`) or
//! `kafka-dump-log.sh` output, into a [`Partition`](logtime_model::Partition) with its real base offsets,
//! batch boundaries, sizes, timestamps and indexes, plus what the import found on the way
//! (damage, indexes that differ from Kafka's rules, batches whose records were not read).
//!
//! Still no I/O: bytes and text go in, a partition comes out. Everything is incremental, so a
//! caller reading a 1 GiB segment (the CLI from disk, the browser from a dropped `File`) feeds it in
//! chunks and can show progress between them; only one batch's bytes are ever held.
//!
//! The steps, for the files of one partition:
//!
//! 1. for each segment's `.log`, a [`SegmentReader`] fed chunk by chunk (or, to see each batch
//!    on the way, a [`LogReader`] whose batches go into a [`SegmentLogBuilder`]), then
//!    [`PartitionImport::add_log`] with the file's modification time when known (Kafka's
//!    `largestTimestamp` for a segment without record stamps);
//! 2. each `.index`/`.timeindex` parsed whole ([`parse_offset_index`], [`parse_time_index`]:
//!    small files) and added;
//! 3. [`PartitionImport::finish`] at broker time `now` gives an [`Imported`] partition;
//! 4. [`inspect`] answers the on-call questions about it (retention verdicts and what pins them,
//!    future stamps and their diagnosis, a lookup with its trace, what DeleteRecords would free),
//!    and [`to_scenario`] writes it as a scenario that replays to the same state.
//!
//! `kafka-dump-log` text takes the place of step 1 and 2: [`DumpParser`], fed line by line, or
//! [`parse_dump`] on the whole text, then [`DumpOutput::into_import`].
//!
//! ```
//! use logtime_core::import::{inspect, LogReader, PartitionImport, SegmentLogBuilder};
//! use logtime_model::{Config, KafkaVersion, Offset, Timestamp};
//! # let chunks: Vec<&[u8]> = vec![];
//! let base = Offset(0);
//! let mut reader = LogReader::new();
//! let mut segment = SegmentLogBuilder::new(base);
//! for chunk in chunks {
//!     reader.feed(chunk, &mut |batch| segment.push(batch));
//!     // progress: reader.bytes_read()
//! }
//! let mut import = PartitionImport::new("clicks-0", Config::defaults(KafkaVersion::V3_6));
//! import.add_log(base, segment.finish(reader.finish()), None);
//! let imported = import.finish(Timestamp(1_800_000_000_000), None).unwrap();
//! let report = inspect(&imported, Timestamp(1_800_000_000_000), None);
//! assert!(report.rows.is_empty() || report.rows.len() == 1);
//! ```

mod codec;
mod crc_ahead;
mod dump_lines;
mod dump_log;
mod dump_paste;
mod index_check;
mod index_file;
mod inspect;
mod internal_topic;
mod legacy;
mod log_batch;
mod log_file;
mod metadata_log;
mod rebuild;
mod segment_log;
mod v2_batch;
pub use logtime_model::seed;
mod wire;
pub mod words;

pub use codec::{CODECS_AVAILABLE, MAX_INFLATION};
pub use crc_ahead::{
    find_batch_start, precompute_batches, whole_batches, whole_batches_to, BatchStart,
    PrecomputedBatches,
};
pub use dump_log::{parse_dump, DumpError, DumpFile, DumpOutput, DumpParser, DumpedContent};
pub use dump_paste::{DumpSplitError, IndexOnlyRow};
pub use index_check::IndexCheck;
pub use index_file::{
    parse_offset_index, parse_time_index, IndexFile, IndexKind, IndexNote, OffsetEntry, TimeEntry,
};
pub use inspect::{
    inspect, recommended_delete_records, scenario_text, to_scenario, DeleteRecordsWhatIf,
    FutureStamp, Inspection, LookupAnswer, SegmentRow, Summary,
};
pub use internal_topic::{
    configs_for, configs_with_metadata, internal_topic, ConfigInForce, ConfigOrigin, InternalTopic,
    INTERNAL_TOPICS,
};
pub use log_batch::{
    Compression, DamageKind, LogBatch, LogDamage, NotExpanded, RecordInfo, Records, TimestampKind,
};
pub use log_file::{batch_extent, parse_batch, read_log, LogEnd, LogReader};
pub use metadata_log::{
    meta_properties, MetadataConfigs, MetadataError, MetadataTopic, MAX_METADATA_LOG_BYTES,
    MAX_METADATA_RECORDS, MAX_META_PROPERTIES_BYTES,
};
pub use rebuild::{Imported, PartitionImport, SegmentReport};
pub use segment_log::{
    BatchFormats, Compacted, SegmentLog, SegmentLogBuilder, SegmentReader, UnexpandedBatch,
    MAX_UNREAD_RECORDS,
};
pub use v2_batch::MAX_EXPANDED_RECORDS;

use logtime_model::units::Offset;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why files could not be imported as a partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ImportError {
    /// No segment was given.
    NoSegments,
    /// A segment has index files but no `.log`.
    MissingLog {
        /// Its base offset.
        base_offset: Offset,
    },
    /// The segment holds something the model cannot represent (offset gaps of a compacted log).
    NotModelled {
        /// Its base offset.
        base_offset: Offset,
        /// Lowercase reason.
        reason: String,
    },
    /// The segments do not make a partition (not contiguous, a bad log start offset).
    Seed {
        /// The segment, when the error is inside one.
        base_offset: Option<Offset>,
        /// The check that failed.
        error: seed::SeedError,
    },
    /// A file name is not a segment file (`NNNNNNNNNNNNNNNNNNNN.log`, `.index`, `.timeindex`).
    FileName {
        /// The name.
        name: String,
        /// Lowercase reason.
        reason: String,
    },
    /// `kafka-dump-log` text that could not be read.
    Dump(DumpError),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::NoSegments => f.write_str("no segment files (.log) found"),
            ImportError::MissingLog { base_offset } => {
                write!(f, "segment {base_offset}: index files without a .log file")
            }
            ImportError::NotModelled {
                base_offset,
                reason,
            } => write!(f, "segment {base_offset}: {reason}"),
            ImportError::Seed {
                base_offset: Some(b),
                error,
            } => write!(
                f,
                "segment {b}: {}{}",
                if error.field.is_empty() {
                    String::new()
                } else {
                    format!("{}: ", error.field)
                },
                error.reason
            ),
            ImportError::Seed {
                base_offset: None,
                error,
            } => error.fmt(f),
            ImportError::FileName { name, reason } => write!(f, "{name}: {reason}"),
            ImportError::Dump(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ImportError {}

/// A segment file's base offset from its name (`00000000000001843200.log` → 1843200), and which
/// file it is (`.log`, `.index`, `.timeindex`; anything else is `None`).
pub fn segment_file(name: &str) -> Option<(Offset, SegmentFileKind)> {
    let (stem, kind) = if let Some(s) = name.strip_suffix(".log") {
        (s, SegmentFileKind::Log)
    } else if let Some(s) = name.strip_suffix(".timeindex") {
        (s, SegmentFileKind::TimeIndex)
    } else if let Some(s) = name.strip_suffix(".index") {
        (s, SegmentFileKind::OffsetIndex)
    } else {
        return None;
    };
    if stem.is_empty() || !stem.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    stem.parse::<i64>().ok().map(|b| (Offset(b), kind))
}

/// Why a name shaped like a segment file's (digits, then `.log`, `.index` or `.timeindex`) is
/// not one: its number is past the largest offset. `None` for a good name and for a name of no
/// segment file at all. Such a file would otherwise be skipped silently, and the partition read
/// without it.
pub fn segment_file_refusal(name: &str) -> Option<String> {
    let stem = [".log", ".timeindex", ".index"]
        .iter()
        .find_map(|s| name.strip_suffix(s))?;
    let digits = !stem.is_empty() && stem.bytes().all(|b| b.is_ascii_digit());
    (digits && stem.parse::<i64>().is_err()).then(|| {
        format!(
            "{name}: the file name's offset is past the largest offset ({}), so it names no segment",
            i64::MAX
        )
    })
}

/// The latest clock an import is inspected at: 9999-12-31T23:59:59.999Z.
pub const MAX_CLOCK_MS: i64 = 253_402_300_799_999;

/// Refuses a clock to inspect a partition at outside 1970 to 9999: at the ends of the 64-bit
/// range the retention arithmetic saturates, and a segment reads as both deleted and deletable
/// in the future.
pub fn check_clock(ms: i64) -> Result<(), String> {
    if (0..=MAX_CLOCK_MS).contains(&ms) {
        return Ok(());
    }
    Err(format!(
        "{ms} is outside the clocks logtime inspects at, 0 (1970-01-01T00:00:00Z) to {MAX_CLOCK_MS} (9999-12-31T23:59:59.999Z)"
    ))
}

/// The most bytes an offset or time index file may have (64 MiB, six times the 10 MiB of
/// `segment.index.bytes`' default): index files are read whole, by the command line and the page
/// alike, so a larger one (a sparse 2 GiB file takes no disk) is refused before it is read.
pub const MAX_INDEX_BYTES: u64 = 64 << 20;

/// Which segment file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SegmentFileKind {
    /// `.log`.
    Log,
    /// `.index`.
    OffsetIndex,
    /// `.timeindex`.
    TimeIndex,
}
