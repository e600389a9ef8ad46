//! A segment's `.log` as a partition keeps it (`LogSegment`): its batches in offset order, one
//! timestamp per offset, what the reading found (formats, unread batches, offsets the log
//! cleaner removed), collected batch by batch as a [`LogReader`](super::LogReader) or the
//! dump-log parser hands them over.

use super::log_batch::{Compression, LogBatch, NotExpanded, RecordInfo, Records, TimestampKind};
use super::log_file::LogEnd;
use super::seed::BatchSeed;
use logtime_model::units::{Bytes, Offset};
use serde::{Deserialize, Serialize};

/// A batch whose records were not read: lookups that open it cannot name the exact record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnexpandedBatch {
    /// First offset.
    pub base_offset: Offset,
    /// Last offset.
    pub last_offset: Offset,
    /// Byte position.
    pub position: u64,
    /// Why.
    pub why: NotExpanded,
}

/// What kinds of batches a segment holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchFormats {
    /// Batches per magic (0, 1, 2).
    pub by_magic: [u64; 3],
    /// Compressed batches per codec name.
    pub compressed: Vec<(String, u64)>,
    /// LogAppendTime batches.
    pub log_append_time: u64,
    /// Transaction markers (control batches).
    pub control: u64,
}

/// A segment's `.log`, read: batches and timestamps in the seed's compact form, plus what the
/// reading found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentLog {
    /// Base offset (from the file name).
    pub base_offset: Offset,
    /// Batches.
    pub batches: Vec<BatchSeed>,
    /// Record timestamps, one per offset from `base_offset` (stand-ins, the batch's max timestamp,
    /// for unexpanded batches).
    pub timestamps: Vec<i64>,
    /// Batches whose records were not read.
    pub unexpanded: Vec<UnexpandedBatch>,
    /// Formats seen.
    pub formats: BatchFormats,
    /// Where and why reading stopped early (Kafka's recovery truncates there).
    pub end: LogEnd,
    /// The first place the batches cannot be read into the model (offsets that overlap, an
    /// implausible batch).
    pub problem: Option<String>,
    /// Offsets the log cleaner removed (a compacted segment): gaps before batches and records
    /// missing inside them. The model holds them as records without a timestamp (`-1`), which no
    /// time lookup returns and no largest timestamp counts, as Kafka's reads skip what is not
    /// there.
    pub compacted: Compacted,
}

/// What compaction removed from a segment, as the import found it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Compacted {
    /// Offsets missing in all.
    pub missing_offsets: u64,
    /// The first place, for messages: the batch's byte position, and the offset expected
    /// there.
    pub first: Option<(u64, Offset)>,
}

/// Collects the batches of one `.log`, as a [`LogReader`](super::LogReader) (or the dump-log
/// parser) hands them over, in the compact form a partition keeps.
#[derive(Debug)]
pub struct SegmentLogBuilder {
    log: SegmentLog,
    next: Offset,
    /// Records of the unread batches so far (see [`MAX_UNREAD_RECORDS`]).
    unread: i64,
}

/// Records in a batch whose records are not read are bounded by what a batch can hold (the
/// decompression cap over the 7-byte minimum record), so a crafted header cannot make the
/// import allocate without bound.
/// The same bound holds for all the unread batches of a segment, and of a partition: a 61-byte
/// header can claim 38 million records, and each takes 8 bytes once held.
pub const MAX_UNREAD_RECORDS: i64 = (super::codec::MAX_DECOMPRESSED / 7) as i64;

/// Records of the batches of `log` whose records were not read.
pub(super) fn unread_records(log: &SegmentLog) -> i64 {
    log.unexpanded
        .iter()
        .map(|u| {
            u.last_offset
                .0
                .saturating_sub(u.base_offset.0)
                .saturating_add(1)
        })
        .fold(0i64, i64::saturating_add)
}

pub(super) fn missing_refusal(total: u64, whose: &str) -> String {
    format!(
        "{whose} offsets removed by compaction count {total} by now; logtime holds at most {MAX_UNREAD_RECORDS} such offsets (each is held as a record without a timestamp)"
    )
}

pub(super) fn unread_refusal(total: i64, whose: &str) -> String {
    format!(
        "{whose} batches whose records are not read count {total} records by now; logtime holds at most {MAX_UNREAD_RECORDS} such records (the decompression cap over the 7-byte smallest record)"
    )
}

impl SegmentLogBuilder {
    /// A builder for the segment at `base_offset`.
    pub fn new(base_offset: Offset) -> SegmentLogBuilder {
        SegmentLogBuilder {
            log: SegmentLog {
                base_offset,
                batches: Vec::new(),
                timestamps: Vec::new(),
                unexpanded: Vec::new(),
                formats: BatchFormats::default(),
                end: LogEnd {
                    file_bytes: 0,
                    valid_bytes: 0,
                    damage: None,
                },
                problem: None,
                compacted: Compacted::default(),
            },
            next: base_offset,
            unread: 0,
        }
    }

    /// The offset the next batch should start at.
    pub fn next_offset(&self) -> Offset {
        self.next
    }

    fn problem(&mut self, p: String) {
        if self.log.problem.is_none() {
            self.log.problem = Some(p);
        }
    }

    /// Adds the next batch.
    pub fn push(&mut self, mut b: LogBatch) {
        if self.log.problem.is_some() {
            return;
        }
        self.count_format(&b);
        if b.base_offset < self.next {
            return self.problem(format!(
                "the batch at byte {} starts at offset {} where {} was expected: it overlaps the offsets before it",
                b.position, b.base_offset, self.next
            ));
        }
        // Offsets the cleaner removed before this batch go into it, as records without a
        // stamp: Kafka's read of such an offset lands in this batch too (its last offset is the
        // first at or after the one asked for).
        let gap = b.base_offset.0 - self.next.0;
        if gap > 0 && !self.missing(b.position, gap) {
            return;
        }
        let first = self.next;
        let n = b.last_offset.0.wrapping_sub(first.0).wrapping_add(1);
        if n <= 0 || n > MAX_UNREAD_RECORDS {
            return self.problem(format!(
                "the batch at byte {} spans offsets {} to {}: not a plausible batch",
                b.position, b.base_offset, b.last_offset
            ));
        }
        let records = std::mem::replace(
            &mut b.records,
            Records::Expanded {
                records: Vec::new(),
            },
        );
        let kept = match records {
            Records::Expanded { records } => self.push_records(&b, first, &records),
            Records::NotExpanded { why } => self.push_unread(&b, gap, n, why),
        };
        if !kept {
            return;
        }
        self.log.batches.push(BatchSeed {
            base_offset: first,
            last_offset: b.last_offset,
            position: Bytes(b.position as i64),
            size: Bytes(b.size as i64),
            max_timestamp: b.max_timestamp,
            log_append_time: b.timestamp_type == TimestampKind::LogAppendTime,
        });
        self.next = b.last_offset.plus(1);
    }

    fn count_format(&mut self, b: &LogBatch) {
        let f = &mut self.log.formats;
        f.by_magic[(b.magic as usize).min(2)] += 1;
        if b.compression != Compression::None {
            let name = b.compression.name();
            match f.compressed.iter_mut().find(|(n, _)| n == name) {
                Some((_, c)) => *c += 1,
                None => f.compressed.push((name.to_string(), 1)),
            }
        }
        if b.timestamp_type == TimestampKind::LogAppendTime {
            f.log_append_time += 1;
        }
        if b.control {
            f.control += 1;
        }
    }

    /// The stamps of a read batch's records, from offset `first` (the gap before it included);
    /// false when the batch stopped the segment.
    fn push_records(&mut self, b: &LogBatch, first: Offset, records: &[RecordInfo]) -> bool {
        let in_order = records.windows(2).all(|w| w[0].offset < w[1].offset)
            && records
                .iter()
                .all(|r| r.offset >= b.base_offset && r.offset <= b.last_offset);
        if !in_order {
            self.problem(format!(
                "the batch at byte {} holds records outside offsets {} to {}, or out of order",
                b.position, b.base_offset, b.last_offset
            ));
            return false;
        }
        let inside = (b.last_offset.0 - b.base_offset.0 + 1) - records.len() as i64;
        if inside > 0 && !self.missing(b.position, inside) {
            return false;
        }
        let mut at = first.0;
        for r in records {
            let skip = (r.offset.0 - at) as usize;
            self.log.timestamps.extend(std::iter::repeat_n(-1, skip));
            self.log.timestamps.push(r.timestamp.0);
            at = r.offset.0 + 1;
        }
        let tail = (b.last_offset.0 + 1 - at) as usize;
        self.log.timestamps.extend(std::iter::repeat_n(-1, tail));
        true
    }

    /// The stand-in stamps of a batch whose records were not read: its `n` offsets (`gap` of
    /// them before its base offset); false when the batch stopped the segment.
    fn push_unread(&mut self, b: &LogBatch, gap: i64, n: i64, why: NotExpanded) -> bool {
        let gap = gap as usize;
        self.log.timestamps.extend(std::iter::repeat_n(-1, gap));
        let own = (n as usize).saturating_sub(gap);
        if let Some(c) = b.count {
            // Which of the batch's offsets are gone is unknown: its records stand at
            // its max timestamp, as any unread batch's do.
            if (c as usize) < own && !self.missing(b.position, (own - c as usize) as i64) {
                return false;
            }
        }
        self.unread = self.unread.saturating_add(n);
        if self.unread > MAX_UNREAD_RECORDS {
            self.problem(format!(
                "at the batch at byte {}: {}",
                b.position,
                unread_refusal(self.unread, "this segment's")
            ));
            return false;
        }
        self.log
            .timestamps
            .extend(std::iter::repeat_n(b.max_timestamp.0, own));
        // A one-record batch's max timestamp is its record's: nothing is unknown.
        if n > 1 {
            self.log.unexpanded.push(UnexpandedBatch {
                base_offset: b.base_offset,
                last_offset: b.last_offset,
                position: b.position,
                why,
            });
        }
        true
    }

    /// Counts `n` offsets removed by compaction before or in the batch at `position`; false
    /// (and the segment's problem) once the segment's gaps pass [`MAX_UNREAD_RECORDS`]: each
    /// batch's gap is bounded by it, but a crafted file of many batches each skipping millions
    /// of offsets would otherwise hold 8 bytes for every offset skipped.
    fn missing(&mut self, position: u64, n: i64) -> bool {
        let c = &mut self.log.compacted;
        c.missing_offsets = c.missing_offsets.saturating_add(n as u64);
        if c.first.is_none() {
            c.first = Some((position, self.next));
        }
        if c.missing_offsets > MAX_UNREAD_RECORDS as u64 {
            let total = c.missing_offsets;
            self.problem(format!(
                "at the batch at byte {position}: {}",
                missing_refusal(total, "this segment's")
            ));
            return false;
        }
        true
    }

    /// The log, with how the reading ended.
    pub fn finish(mut self, end: LogEnd) -> SegmentLog {
        self.log.end = end;
        self.log
    }

    /// The log of an empty `.log` file.
    pub fn finish_empty(self) -> SegmentLog {
        self.finish(LogEnd {
            file_bytes: 0,
            valid_bytes: 0,
            damage: None,
        })
    }
}

/// A segment's `.log` read into the partition's compact form in one object, for callers that
/// need nothing of each batch on the way (the browser's import, the CLI): feed chunks as they
/// are read, show `bytes_read()` as progress, then `finish`.
///
/// ```
/// use logtime_core::import::SegmentReader;
/// use logtime_model::Offset;
/// let mut r = SegmentReader::new(Offset(1_843_200));
/// r.feed(&[]);
/// let log = r.finish();
/// assert!(log.batches.is_empty() && log.end.damage.is_none());
/// ```
#[derive(Debug)]
pub struct SegmentReader {
    reader: super::LogReader,
    builder: SegmentLogBuilder,
}

impl SegmentReader {
    /// A reader for the segment at `base_offset` (the file name's number).
    pub fn new(base_offset: Offset) -> SegmentReader {
        SegmentReader {
            reader: super::LogReader::new(),
            builder: SegmentLogBuilder::new(base_offset),
        }
    }

    /// Feeds the next chunk of the file.
    pub fn feed(&mut self, chunk: &[u8]) {
        let builder = &mut self.builder;
        self.reader.feed(chunk, &mut |b| builder.push(b));
    }

    /// [`Self::feed`], with the chunk's batches checked and read ahead (see
    /// [`LogReader::feed_precomputed`](super::LogReader::feed_precomputed)).
    pub fn feed_precomputed(&mut self, chunk: &[u8], ahead: super::PrecomputedBatches) {
        let builder = &mut self.builder;
        self.reader
            .feed_precomputed(chunk, ahead, &mut |b| builder.push(b));
    }

    /// Takes a run wholly read ahead without its bytes (see
    /// [`LogReader::feed_read_ahead`](super::LogReader::feed_read_ahead)); hands it back when
    /// its bytes are needed.
    pub fn feed_read_ahead(
        &mut self,
        ahead: super::PrecomputedBatches,
    ) -> Result<(), super::PrecomputedBatches> {
        let builder = &mut self.builder;
        self.reader.feed_read_ahead(ahead, &mut |b| builder.push(b))
    }

    /// Bytes fed so far.
    pub fn bytes_read(&self) -> u64 {
        self.reader.bytes_read()
    }

    /// Whether an invalid batch has stopped the reading: the rest of the file need not be read.
    pub fn stopped(&self) -> bool {
        self.reader.stopped().is_some()
    }

    /// Counts `n` bytes of the file as read without reading them (after [`Self::stopped`]).
    pub fn skip(&mut self, n: u64) {
        self.reader.skip(n);
    }

    /// The segment's log, once the whole file is fed.
    pub fn finish(self) -> SegmentLog {
        self.builder.finish(self.reader.finish())
    }
}
