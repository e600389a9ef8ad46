//! `kafka-dump-log.sh` (`DumpLogSegments`) text: the output for `.log` files, with or without
//! `--deep-iteration` and `--print-data-log`, and for `.index` and `.timeindex` files, several
//! files in one text as the tool prints them (each after a `Dumping PATH` line).
//!
//! The lines, as `DumpLogSegments.printBatchLevel` and `dumpLog` write them (3.x/4.x; older
//! releases differ in small ways that are accepted too: `Starting offset:`, `compresscodec: NONE`,
//! `keysize:`, no `count:` or `deleteHorizonMs:`):
//!
//! ```text
//! Dumping /var/lib/kafka/clicks-0/00000000000000000000.log
//! Log starting offset: 0
//! baseOffset: 0 lastOffset: 1 count: 2 baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 partitionLeaderEpoch: 0 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty position: 0 CreateTime: 1762250404000 size: 132 magic: 2 compresscodec: none crc: 2717340327 isvalid: true
//! | offset: 0 CreateTime: 1762250400000 keySize: -1 valueSize: 40 sequence: -1 headerKeys: []
//! offset: 5 position: 300 CreateTime: 1762250404000 size: 80 magic: 1 compresscodec: none crc: 123 isvalid: true
//! Found 17 invalid bytes at the end of 00000000000000000000.log
//! Dumping /var/lib/kafka/clicks-0/00000000000000000000.index
//! offset: 2 position: 156
//! Dumping /var/lib/kafka/clicks-0/00000000000000000000.timeindex
//! timestamp: 1762250404000 offset: 1
//! ```
//!
//! A batch line gives offsets, position, size, max timestamp and codec; record lines (deep
//! iteration) give each record's offset and timestamp, so without them the records are reported
//! as not expanded. `isvalid: false` ends the segment there, as Kafka's recovery would. Lines
//! the tool writes on stderr (mismatch reports) are accepted and ignored when mixed in.

use super::dump_lines::{clip, fields, get, is_ignored, LineNo};
use super::dump_paste::{folder_of, is_paste_furniture, outside, starting_offset};
use super::index_file::{IndexFile, OffsetEntry, TimeEntry};
use super::log_batch::{DamageKind, LogBatch, LogDamage, Records};
use super::log_file::LogEnd;
use super::rebuild::PartitionImport;
use super::segment_log::{SegmentLog, SegmentLogBuilder};
use super::{segment_file, SegmentFileKind};
use logtime_model::config::Config;
use logtime_model::units::{Bytes, Offset, Timestamp};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DumpError {
    /// 1-based line number.
    pub line: usize,
    /// Lowercase reason.
    pub reason: String,
}

impl fmt::Display for DumpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for DumpError {}

/// What one dumped file held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DumpedContent {
    /// A `.log`.
    Log(SegmentLog),
    /// A `.index`.
    OffsetIndex(IndexFile<OffsetEntry>),
    /// A `.timeindex`.
    TimeIndex(IndexFile<TimeEntry>),
}

/// One dumped file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpFile {
    /// The path after `Dumping`.
    pub path: String,
    /// The segment's base offset (from the file name).
    pub base_offset: Offset,
    /// Its content.
    pub content: DumpedContent,
}

/// All the files of a dump.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DumpOutput {
    /// Files in the order dumped (snapshots and other files skipped).
    pub files: Vec<DumpFile>,
}

impl DumpOutput {
    /// The partition folder's name (`clicks-0`), when the paths have one.
    pub fn topic_partition(&self) -> Option<String> {
        folder_of(&self.files.first()?.path)
    }

    /// An import of these files under `config` (the `.log` modification times are unknown).
    pub fn into_import(self, topic_partition: &str, config: Config) -> PartitionImport {
        let mut import = PartitionImport::new(topic_partition, config);
        for f in self.files {
            match f.content {
                DumpedContent::Log(log) => import.add_log(f.base_offset, log, None),
                DumpedContent::OffsetIndex(i) => import.add_offset_index(f.base_offset, i),
                DumpedContent::TimeIndex(i) => import.add_time_index(f.base_offset, i),
            }
        }
        import
    }
}

enum Current {
    None,
    Skipped,
    Log {
        builder: Box<SegmentLogBuilder>,
        pending: Option<Pending>,
        next_position: u64,
        damage: Option<LogDamage>,
        invalid_tail: Option<u64>,
        after_record: bool,
    },
    OffsetIndex(Vec<OffsetEntry>),
    TimeIndex(Vec<TimeEntry>),
}

/// A batch whose lines are still being read.
struct Pending {
    batch: LogBatch,
    /// Line of its first line, for errors.
    line: usize,
    /// Old formats print records without a batch line: the size is then the distance to the
    /// next batch, and the max timestamp the largest record's.
    size_known: bool,
    max_from_records: bool,
}

/// Reads dump text line by line (for large dumps, fed as they are read).
pub struct DumpParser {
    line: usize,
    path: String,
    base: Offset,
    current: Current,
    out: DumpOutput,
}

impl Default for DumpParser {
    fn default() -> Self {
        DumpParser::new()
    }
}

impl DumpParser {
    /// A parser at the start of the text.
    pub fn new() -> DumpParser {
        DumpParser {
            line: 0,
            path: String::new(),
            base: Offset(0),
            current: Current::None,
            out: DumpOutput::default(),
        }
    }

    fn at(&self) -> LineNo {
        LineNo(self.line)
    }

    fn err(&self, reason: impl Into<String>) -> DumpError {
        self.at().err(reason)
    }

    fn num<T: std::str::FromStr>(
        &self,
        f: &[(&str, &str)],
        names: &[&str],
    ) -> Result<T, DumpError> {
        self.at().num(f, names)
    }

    /// Reads the next line (without its line break).
    pub fn feed_line(&mut self, line: &str) -> Result<(), DumpError> {
        self.line += 1;
        let line = line.trim_end_matches('\r');
        let t = line.trim();
        if let Some(path) = t.strip_prefix("Dumping ") {
            self.close_file()?;
            return self.open_file(path.trim());
        }
        if t.is_empty() || is_ignored(t) || is_paste_furniture(t) {
            return Ok(());
        }
        if let Some(reason) = outside(t) {
            return Err(self.err(reason));
        }
        match &mut self.current {
            Current::None => {
                // A paste that lost its `Dumping` line still names the segment: `dumpLog`
                // prints the base offset from the file name first.
                if let Some(base) = starting_offset(t) {
                    return self.open_file(&format!("{:020}.log", base.max(0)));
                }
                Err(self.err(format!(
                    "expected a \"Dumping FILE\" line before {:?}",
                    clip(t)
                )))
            }
            Current::Skipped => Ok(()),
            Current::OffsetIndex(_) | Current::TimeIndex(_) => self.index_line(t),
            Current::Log { .. } => self.log_line(t),
        }
    }

    fn open_file(&mut self, path: &str) -> Result<(), DumpError> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        self.path = path.to_string();
        self.current = match segment_file(name) {
            Some((base, kind)) => {
                self.base = base;
                match kind {
                    SegmentFileKind::Log => Current::Log {
                        builder: Box::new(SegmentLogBuilder::new(base)),
                        pending: None,
                        next_position: 0,
                        damage: None,
                        invalid_tail: None,
                        after_record: false,
                    },
                    SegmentFileKind::OffsetIndex => Current::OffsetIndex(Vec::new()),
                    SegmentFileKind::TimeIndex => Current::TimeIndex(Vec::new()),
                }
            }
            // Snapshots, transaction indexes and other files dump lines Logtime does not use.
            None => Current::Skipped,
        };
        Ok(())
    }

    fn index_line(&mut self, t: &str) -> Result<(), DumpError> {
        if t.ends_with(" is empty.") || t.ends_with(" passed sanity check.") {
            return Ok(());
        }
        let f = fields(t);
        let base = self.base;
        match &self.current {
            Current::OffsetIndex(_) => {
                let offset: i64 = self.num(&f, &["offset"])?;
                let position: i64 = self.num(&f, &["position"])?;
                // An empty preallocated index dumps its zero slot 0 as `(base, 0)`.
                if offset == base.0 && position == 0 {
                    return Ok(());
                }
                if let Current::OffsetIndex(v) = &mut self.current {
                    v.push(OffsetEntry {
                        offset: Offset(offset),
                        position: Bytes(position),
                    });
                }
            }
            _ => {
                let timestamp: i64 = self.num(&f, &["timestamp"])?;
                let offset: i64 = self.num(&f, &["offset"])?;
                if offset == base.0 && timestamp == 0 {
                    return Ok(());
                }
                if let Current::TimeIndex(v) = &mut self.current {
                    v.push(TimeEntry {
                        timestamp: Timestamp(timestamp),
                        offset: Offset(offset),
                    });
                }
            }
        }
        Ok(())
    }

    fn log_line(&mut self, t: &str) -> Result<(), DumpError> {
        if t.starts_with("Log starting offset:")
            || t.starts_with("Starting offset:")
            || t.starts_with("Snapshot end offset:")
        {
            return Ok(());
        }
        if let Some(rest) = t.strip_prefix("Found ") {
            let n = rest.split_whitespace().next().unwrap_or("");
            if rest.contains("invalid bytes at the end of") {
                let n: u64 = n
                    .parse()
                    .map_err(|_| self.err(format!("{n:?} is not a byte count")))?;
                if let Current::Log { invalid_tail, .. } = &mut self.current {
                    *invalid_tail = Some(n);
                }
                return Ok(());
            }
        }
        let record_line = t.starts_with('|');
        let f = fields(t.trim_start_matches('|'));
        if record_line && get(&f, &["offset"]).is_none() {
            // `--skip-record-metadata` prints only `| key: … payload: …` (or a bare `|`): the
            // batch line above still gives offsets, size and stamp; the records stay unread.
            return match &mut self.current {
                Current::Log {
                    pending: Some(_),
                    after_record,
                    ..
                } => {
                    *after_record = true;
                    Ok(())
                }
                _ => Err(self.err("a record line before any batch line")),
            };
        }
        let is_batch = !record_line
            && (get(&f, &["baseOffset"]).is_some()
                || (get(&f, &["position"]).is_some() && get(&f, &["size"]).is_some()));
        let old_record = !record_line
            && !is_batch
            && get(&f, &["offset"]).is_some()
            && get(&f, &["keySize"]).is_some();
        if is_batch {
            let (batch, valid) = self.at().batch(&f)?;
            return self.push_batch(batch, valid, true, false);
        }
        if (record_line || old_record) && self.add_record(&f)? {
            return Ok(());
        }
        // A payload printed with `--print-data-log` may span lines.
        if let Current::Log {
            after_record: true, ..
        } = self.current
        {
            return Ok(());
        }
        Err(self.err(format!(
            "not a line kafka-dump-log writes for a .log file: {:?}",
            clip(t)
        )))
    }

    /// A record line (or an old format's record with its batch's fields): added to the
    /// pending batch; false when the reader is not in a `.log` (the line is then refused).
    fn add_record(&mut self, f: &[(&str, &str)]) -> Result<bool, DumpError> {
        let rec = self.at().record(f)?;
        // Kafka before 2.2 (and 2.8) printed each record with its batch's position and no
        // batch line of its own: a new position starts a new batch.
        if let Some(position) = get(f, &["position"]) {
            let position: u64 = position
                .parse()
                .map_err(|_| self.err(format!("position: {position:?} is not a number")))?;
            let same = matches!(&self.current, Current::Log { pending: Some(p), .. } if p.batch.position == position);
            if !same {
                let batch = self.at().batch_of_record(f, &rec, position)?;
                self.push_batch(batch.0, true, batch.1, true)?;
            }
        }
        if let Current::Log {
            pending,
            after_record,
            ..
        } = &mut self.current
        {
            match pending {
                Some(p) => {
                    let b = &mut p.batch;
                    if rec.offset > b.last_offset && !p.size_known {
                        b.last_offset = rec.offset;
                    }
                    if let Records::Expanded { records } = &mut b.records {
                        records.push(rec);
                    } else {
                        b.records = Records::Expanded { records: vec![rec] };
                    }
                    *after_record = true;
                    return Ok(true);
                }
                None => {
                    return Err(self.err("a record line before any batch line"));
                }
            }
        }
        Ok(false)
    }

    /// Ends the pending batch: its size (when the format did not print it) is the distance to
    /// `next_position`, the position of the batch after it.
    fn finish_pending(&mut self, next: Option<u64>) -> Result<(), DumpError> {
        let Current::Log {
            builder,
            pending,
            next_position,
            ..
        } = &mut self.current
        else {
            return Ok(());
        };
        let Some(mut p) = pending.take() else {
            return Ok(());
        };
        if !p.size_known {
            let size = next
                .and_then(|n| n.checked_sub(p.batch.position))
                .filter(|s| *s > 0);
            match size.and_then(|s| u32::try_from(s).ok()) {
                Some(s) => p.batch.size = s,
                None => {
                    return Err(DumpError {
                        line: p.line,
                        reason: "this format (kafka-dump-log before 2.2 with --deep-iteration) prints no batch sizes, and the last batch's cannot be told: dump the .log without --deep-iteration".into(),
                    })
                }
            }
        }
        if p.max_from_records {
            if let Records::Expanded { records } = &p.batch.records {
                p.batch.max_timestamp = records
                    .iter()
                    .map(|r| r.timestamp)
                    .fold(Timestamp::NONE, Timestamp::max);
            }
        }
        if p.batch.position != *next_position {
            return Err(DumpError {
                line: p.line,
                reason: not_following(p.batch.position, *next_position),
            });
        }
        *next_position += p.batch.size as u64;
        finish_batch(builder, p.batch);
        Ok(())
    }

    fn push_batch(
        &mut self,
        batch: LogBatch,
        valid: bool,
        size_known: bool,
        max_from_records: bool,
    ) -> Result<(), DumpError> {
        let line = self.line;
        if matches!(
            self.current,
            Current::Log {
                damage: Some(_),
                ..
            }
        ) {
            return Ok(());
        }
        self.finish_pending(Some(batch.position))?;
        let Current::Log {
            pending,
            next_position,
            damage,
            after_record,
            ..
        } = &mut self.current
        else {
            return Ok(());
        };
        *after_record = false;
        if batch.position != *next_position {
            return Err(DumpError {
                line,
                reason: not_following(batch.position, *next_position),
            });
        }
        if !valid {
            *damage = Some(LogDamage {
                position: batch.position,
                kind: DamageKind::Malformed {
                    reason: format!(
                        "kafka-dump-log marks it isvalid: false (stored crc {})",
                        batch.crc
                    ),
                },
            });
            return Ok(());
        }
        *pending = Some(Pending {
            batch,
            line,
            size_known,
            max_from_records,
        });
        Ok(())
    }

    fn close_file(&mut self) -> Result<(), DumpError> {
        self.finish_pending(None)?;
        let base = self.base;
        let path = std::mem::take(&mut self.path);
        let content = match std::mem::replace(&mut self.current, Current::None) {
            Current::None | Current::Skipped => return Ok(()),
            Current::Log {
                builder,
                next_position,
                damage,
                invalid_tail,
                ..
            } => {
                let tail = invalid_tail.unwrap_or(0);
                let damage = damage.or_else(|| {
                    (tail > 0).then_some(LogDamage {
                        position: next_position,
                        kind: DamageKind::Truncated {
                            needed: 0,
                            available: tail,
                        },
                    })
                });
                DumpedContent::Log(builder.finish(LogEnd {
                    file_bytes: next_position + tail,
                    valid_bytes: damage.as_ref().map_or(next_position, |d| d.position),
                    damage,
                }))
            }
            Current::OffsetIndex(entries) => DumpedContent::OffsetIndex(IndexFile {
                file_bytes: entries.len() as u64 * 8,
                entries,
                preallocated_tail: 0,
                notes: Vec::new(),
            }),
            Current::TimeIndex(entries) => DumpedContent::TimeIndex(IndexFile {
                file_bytes: entries.len() as u64 * 12,
                entries,
                preallocated_tail: 0,
                notes: Vec::new(),
            }),
        };
        self.out.files.push(DumpFile {
            path,
            base_offset: base,
            content,
        });
        Ok(())
    }

    /// Ends the text.
    pub fn finish(mut self) -> Result<DumpOutput, DumpError> {
        self.close_file()?;
        if self.out.files.is_empty() {
            return Err(DumpError {
                line: self.line,
                reason: "no \"Dumping FILE\" section for a .log, .index or .timeindex file".into(),
            });
        }
        Ok(self.out)
    }
}

/// A legacy compressed message lists its inner records: its first offset is theirs.
fn finish_batch(builder: &mut SegmentLogBuilder, mut b: LogBatch) {
    if let Records::Expanded { records } = &b.records {
        if let Some(first) = records.first() {
            if b.magic < 2 {
                b.base_offset = first.offset;
                b.base_offset_inferred = false;
            }
        }
    } else if b.base_offset_inferred {
        b.base_offset = builder.next_offset().min(b.last_offset);
    }
    builder.push(b);
}

fn not_following(position: u64, expected: u64) -> String {
    if expected == 0 {
        format!("the first batch is at position {position}, not 0: a partial dump (a quote, or --max-bytes) cannot be imported exactly")
    } else {
        format!("the batch at position {position} does not follow the previous one, which ends at {expected}: a partial dump cannot be imported exactly")
    }
}

/// Parses a whole dump.
pub fn parse_dump(text: &str) -> Result<DumpOutput, DumpError> {
    let mut p = DumpParser::new();
    for line in text.lines() {
        p.feed_line(line)?;
    }
    p.finish()
}
