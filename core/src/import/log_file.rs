//! A segment's `.log` file: v2 record batches (`DefaultRecordBatch`, `DefaultRecord`) and v0/v1
//! message sets (`LegacyRecord`, `AbstractLegacyRecordBatch`), read batch by batch from chunks of
//! any size, so a 1 GiB segment never has to be in memory.
//!
//! The reading follows `LogSegment.recover`: batches are taken in file order while they are whole
//! and valid (`FileLogInputStream.nextBatch`, then `ensureValid`: the size is at least the
//! format's overhead and the stored CRC matches, CRC-32C from the attributes on for v2, CRC-32
//! from the magic byte on for v0/v1). The first batch that is cut short or invalid ends the
//! segment: Kafka's recovery truncates the file there, and [`LogReader`] reports the byte
//! position and the reason as [`LogDamage`] instead of failing.
//!
//! Like recovery, a v2 batch whose CRC holds is kept even when its records cannot be read (an
//! unknown codec, a codec not compiled in, malformed records): its header still gives offsets,
//! size and max timestamp, and the records are reported as
//! [`Records::NotExpanded`](super::Records::NotExpanded).

use super::codec::{inflation_budget, metered};
use super::crc_ahead::{Ahead, PrecomputedBatches};
use super::log_batch::{DamageKind, LogBatch, LogDamage};
use super::v2_batch::parse_v2;
use logtime_model::units::Offset;
use serde::{Deserialize, Serialize};

/// `Records.LOG_OVERHEAD`: the offset and size fields before every batch.
pub(crate) const LOG_OVERHEAD: usize = 12;
/// Where a v2 batch's CRC-32C starts: the attributes, after the CRC field itself.
pub(crate) const V2_CRC_FROM: usize = 21;
/// `Records.HEADER_SIZE_UP_TO_MAGIC`.
const HEADER_SIZE_UP_TO_MAGIC: usize = 17;
/// `DefaultRecordBatch.RECORD_BATCH_OVERHEAD`.
pub(crate) const RECORD_BATCH_OVERHEAD: usize = 61;
/// `LegacyRecord.RECORD_OVERHEAD_V0`.
pub(super) const RECORD_OVERHEAD_V0: i32 = 14;
/// `LegacyRecord.RECORD_OVERHEAD_V1`.
pub(super) const RECORD_OVERHEAD_V1: i32 = 22;

pub(super) const CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

/// Parses the batch at the start of `data` (whose first byte is at file `position`). `data`
/// must hold the whole batch: the caller reads the size field first (see [`batch_extent`]).
/// `next_offset` is the offset after the previous batch, used when a compressed v0/v1 message's
/// first offset cannot be read.
pub fn parse_batch(data: &[u8], position: u64, next_offset: Offset) -> Result<LogBatch, LogDamage> {
    parse_batch_known(data, position, next_offset, None)
}

/// [`parse_batch`], with the CRC-32C of a v2 batch's bytes already computed (by
/// [`precompute_batches`](super::crc_ahead::precompute_batches) over these very bytes) when
/// `known_crc` is given: the comparison with the stored CRC, and everything else, stays here.
pub(crate) fn parse_batch_known(
    data: &[u8],
    position: u64,
    next_offset: Offset,
    known_crc: Option<u32>,
) -> Result<LogBatch, LogDamage> {
    let damage = |kind| LogDamage { position, kind };
    let size_field = i32::from_be_bytes([data[8], data[9], data[10], data[11]]);
    let total = LOG_OVERHEAD + size_field as usize;
    let data = &data[..total];
    let magic = data[16] as i8;
    match magic {
        2 => parse_v2(data, position, known_crc).map_err(damage),
        0 | 1 => {
            super::legacy::parse_legacy(data, position, next_offset, magic as u8).map_err(damage)
        }
        m => Err(damage(DamageKind::UnknownMagic { magic: m })),
    }
}

/// How many bytes the batch at the start of `data` occupies, read the way
/// `FileLogInputStream.nextBatch` does: `Ok(None)` when more bytes are needed to tell (or to hold
/// the batch), `Err` when the size field is below the minimum.
pub fn batch_extent(data: &[u8], position: u64) -> Result<Option<usize>, LogDamage> {
    if data.len() <= HEADER_SIZE_UP_TO_MAGIC {
        return Ok(None);
    }
    let size = i32::from_be_bytes([data[8], data[9], data[10], data[11]]);
    if size < RECORD_OVERHEAD_V0 {
        return Err(LogDamage {
            position,
            kind: DamageKind::SizeTooSmall {
                size,
                minimum: RECORD_OVERHEAD_V0,
            },
        });
    }
    let total = LOG_OVERHEAD + size as usize;
    Ok((data.len() >= total).then_some(total))
}

/// Reads a `.log` file fed in chunks of any size, keeping only the bytes of a batch not yet
/// complete. Batches go to a callback as they complete; reading stops at the first invalid batch.
///
/// ```
/// use logtime_core::import::LogReader;
/// let mut r = LogReader::new();
/// let mut n = 0;
/// r.feed(&[0u8; 10], &mut |_| n += 1);
/// let end = r.finish();
/// assert_eq!(n, 0);
/// assert_eq!(end.valid_bytes, 0);
/// assert!(end.damage.is_some()); // 10 bytes: fewer than a batch header
/// ```
#[derive(Debug, Default)]
pub struct LogReader {
    pending: Vec<u8>,
    /// File position of `pending[0]`.
    pending_at: u64,
    total: u64,
    next_offset: Option<Offset>,
    damage: Option<LogDamage>,
    /// Bytes the file's batches have decompressed to so far (see
    /// [`MAX_INFLATION`](super::codec::MAX_INFLATION)).
    inflated: u64,
    /// Batches checked and read ahead, by file position, during
    /// [`LogReader::feed_precomputed`].
    known: Vec<Ahead>,
}

/// What a whole `.log` file gave, besides its batches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEnd {
    /// Bytes read in all.
    pub file_bytes: u64,
    /// Bytes of whole, valid batches: the size Kafka's recovery truncates the file to.
    pub valid_bytes: u64,
    /// The first invalid batch, if reading stopped before the end.
    pub damage: Option<LogDamage>,
}

impl LogReader {
    /// A reader at the start of a file.
    pub fn new() -> LogReader {
        LogReader::default()
    }

    /// Bytes fed so far.
    pub fn bytes_read(&self) -> u64 {
        self.total
    }

    /// Whether an invalid batch has stopped the reading (later bytes are only counted).
    pub fn stopped(&self) -> Option<&LogDamage> {
        self.damage.as_ref()
    }

    /// Feeds the next chunk; every batch it completes goes to `on_batch`, in file order.
    pub fn feed(&mut self, chunk: &[u8], on_batch: &mut dyn FnMut(LogBatch)) {
        self.total += chunk.len() as u64;
        if self.damage.is_some() {
            return;
        }
        let mut chunk = chunk;
        // A batch split across chunks is completed in `pending` with only the bytes it lacks,
        // and the rest of the chunk is read in place: appending every chunk to `pending` copied
        // each byte once more, a third of the time of a 1 GiB segment.
        while !self.pending.is_empty() {
            match batch_extent(&self.pending, self.pending_at) {
                Err(d) => {
                    self.damage = Some(d);
                    self.pending = Vec::new();
                    return;
                }
                Ok(Some(_)) => {
                    let data = std::mem::take(&mut self.pending);
                    let at = self.scan(&data, on_batch);
                    if self.damage.is_some() {
                        return;
                    }
                    self.pending = data[at..].to_vec();
                }
                Ok(None) => {
                    if chunk.is_empty() {
                        return;
                    }
                    let have = self.pending.len();
                    let want = if have <= HEADER_SIZE_UP_TO_MAGIC {
                        HEADER_SIZE_UP_TO_MAGIC + 1 - have
                    } else {
                        let p = &self.pending;
                        let size = i32::from_be_bytes([p[8], p[9], p[10], p[11]]).max(0) as usize;
                        (LOG_OVERHEAD + size).saturating_sub(have).max(1)
                    };
                    let take = want.min(chunk.len());
                    self.pending.extend_from_slice(&chunk[..take]);
                    chunk = &chunk[take..];
                }
            }
        }
        let at = self.scan(chunk, on_batch);
        if self.damage.is_none() {
            self.pending.extend_from_slice(&chunk[at..]);
        }
    }

    /// [`LogReader::feed`], with the chunk's whole v2 batches checked and read ahead (on other
    /// threads: the CLI's reading of a large segment). The result is the same as `feed`'s
    /// whatever `ahead` holds for these bytes: what was computed for another position than the
    /// chunk's is ignored, and a batch without an entry (a batch across chunks, a v0/v1 message)
    /// is read here.
    pub fn feed_precomputed(
        &mut self,
        chunk: &[u8],
        ahead: PrecomputedBatches,
        on_batch: &mut dyn FnMut(LogBatch),
    ) {
        if ahead.covers(self.total, chunk.len()) {
            self.known = ahead.into_entries();
        }
        self.feed(chunk, on_batch);
        self.known.clear();
    }

    /// Takes a run of the file wholly read ahead ([`PrecomputedBatches::complete`]) without its
    /// bytes: what [`LogReader::feed_precomputed`] does with them, where each batch is found at
    /// its position, read ahead, and taken as it is. Hands `ahead` back when the run is not
    /// complete, is not the next bytes of the file, or a batch split across chunks is pending:
    /// the caller then feeds the bytes.
    pub fn feed_read_ahead(
        &mut self,
        ahead: PrecomputedBatches,
        on_batch: &mut dyn FnMut(LogBatch),
    ) -> Result<(), PrecomputedBatches> {
        let len = ahead.len_bytes();
        if !ahead.covers(self.total, len) || !self.pending.is_empty() || !ahead.complete() {
            return Err(ahead);
        }
        self.total += len as u64;
        if self.damage.is_some() {
            return Ok(());
        }
        for e in ahead.into_entries() {
            if let Some(b) = e.batch {
                self.next_offset = Some(b.last_offset.plus(1));
                on_batch(b);
            }
        }
        self.pending_at += len as u64;
        Ok(())
    }

    /// What was computed ahead for the batch at `position`: the batch as read, else its CRC.
    fn known(&mut self, position: u64) -> (Option<LogBatch>, Option<u32>) {
        match self.known.binary_search_by_key(&position, |k| k.position) {
            Ok(i) => (self.known[i].batch.take(), Some(self.known[i].crc)),
            Err(_) => (None, None),
        }
    }

    /// Reads the whole batches at the start of `data` (at file position `pending_at`), and
    /// returns how many bytes they took; damage stops the reader.
    fn scan(&mut self, data: &[u8], on_batch: &mut dyn FnMut(LogBatch)) -> usize {
        let mut at = 0usize;
        while at < data.len() {
            let pos = self.pending_at + at as u64;
            let step = batch_extent(&data[at..], pos).and_then(|extent| match extent {
                None => Ok(None),
                Some(n) => {
                    let next = self.next_offset.unwrap_or(Offset(0));
                    let allowance = inflation_budget(self.total).saturating_sub(self.inflated);
                    let (parsed, spent) = match self.known(pos) {
                        // Read ahead: uncompressed, so it spent none of the budget.
                        (Some(batch), _) => (Ok(batch), 0),
                        (None, known) => metered(allowance, || {
                            parse_batch_known(&data[at..at + n], pos, next, known)
                        }),
                    };
                    self.inflated = self.inflated.saturating_add(spent);
                    parsed.map(|b| Some((b, n)))
                }
            });
            match step {
                Ok(None) => break,
                Ok(Some((b, n))) => {
                    self.next_offset = Some(b.last_offset.plus(1));
                    on_batch(b);
                    at += n;
                }
                Err(d) => {
                    self.damage = Some(d);
                    self.pending = Vec::new();
                    break;
                }
            }
        }
        self.pending_at += at as u64;
        at
    }

    /// Counts `n` more bytes of the file without reading them: once an invalid batch has stopped
    /// the reading ([`LogReader::stopped`]), the rest of a file is only counted, so a caller
    /// may count it from the file's length instead of reading gigabytes that are not a log.
    pub fn skip(&mut self, n: u64) {
        self.total = self.total.saturating_add(n);
    }

    /// Ends the file: leftover bytes that do not make a whole batch are a truncated tail.
    pub fn finish(self) -> LogEnd {
        let valid_bytes = self.pending_at;
        let damage = self.damage.or_else(|| {
            (!self.pending.is_empty()).then(|| {
                let available = self.pending.len() as u64;
                let needed = if self.pending.len() >= LOG_OVERHEAD {
                    let s = &self.pending;
                    LOG_OVERHEAD as u64
                        + i32::from_be_bytes([s[8], s[9], s[10], s[11]]).max(0) as u64
                } else {
                    0
                };
                LogDamage {
                    position: valid_bytes,
                    kind: DamageKind::Truncated {
                        needed: if needed > available { needed } else { 0 },
                        available,
                    },
                }
            })
        });
        LogEnd {
            file_bytes: self.total,
            valid_bytes,
            damage,
        }
    }
}

/// Reads a whole `.log` file held in memory.
pub fn read_log(bytes: &[u8]) -> (Vec<LogBatch>, LogEnd) {
    let mut batches = Vec::new();
    let mut r = LogReader::new();
    r.feed(bytes, &mut |b| batches.push(b));
    (batches, r.finish())
}

#[cfg(test)]
mod tests {
    use super::super::log_batch::{NotExpanded, Records};
    use super::*;
    use logtime_model::units::Timestamp;

    /// A v2 batch of `records` bytes (already encoded), CRC-32C filled in.
    fn v2(base: i64, last_delta: i32, count: i32, records: &[u8]) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend(base.to_be_bytes());
        b.extend(((RECORD_BATCH_OVERHEAD - LOG_OVERHEAD + records.len()) as i32).to_be_bytes());
        b.extend(0i32.to_be_bytes());
        b.push(2);
        b.extend(0u32.to_be_bytes());
        b.extend(0i16.to_be_bytes());
        b.extend(last_delta.to_be_bytes());
        b.extend(1000i64.to_be_bytes());
        b.extend(1005i64.to_be_bytes());
        b.extend((-1i64).to_be_bytes());
        b.extend((-1i16).to_be_bytes());
        b.extend((-1i32).to_be_bytes());
        b.extend(count.to_be_bytes());
        b.extend(records);
        let crc = crc32c::crc32c(&b[21..]);
        b[17..21].copy_from_slice(&crc.to_be_bytes());
        b
    }

    #[test]
    fn records_are_read_with_their_deltas() {
        // length 7: attributes, ts delta 5 (zig-zag 10), offset delta 0, null key, value of 1
        // byte, no headers.
        let rec = [14u8, 0, 10, 0, 1, 2, b'x', 0];
        let (batches, end) = read_log(&v2(7, 0, 1, &rec));
        assert_eq!(end.damage, None);
        let Records::Expanded { records } = &batches[0].records else {
            panic!("expanded");
        };
        assert_eq!(records[0].offset, Offset(7));
        assert_eq!(records[0].timestamp, Timestamp(1005));
        assert_eq!(
            (records[0].key_bytes, records[0].value_bytes),
            (None, Some(1))
        );
    }

    #[test]
    fn a_valid_crc_over_bad_records_keeps_the_batch() {
        // Declares 2 records, holds one: the CRC holds, so Kafka keeps the batch.
        let rec = [14u8, 0, 10, 0, 1, 2, b'x', 0];
        let (batches, end) = read_log(&v2(0, 1, 2, &rec));
        assert_eq!(end.damage, None);
        match &batches[0].records {
            Records::NotExpanded {
                why: NotExpanded::Malformed { reason },
            } => assert_eq!(
                reason,
                "record 1: record length at byte 69: the data ends inside a varint"
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn damage_is_reported_with_its_position() {
        let rec = [14u8, 0, 10, 0, 1, 2, b'x', 0];
        let good = v2(0, 0, 1, &rec);
        let mut bytes = good.clone();
        let mut bad = v2(1, 0, 1, &rec);
        bad[65] ^= 1;
        bytes.extend(&bad);
        let (batches, end) = read_log(&bytes);
        assert_eq!(batches.len(), 1);
        assert_eq!(end.valid_bytes, good.len() as u64);
        let d = end.damage.unwrap();
        assert!(matches!(d.kind, DamageKind::CrcMismatch { .. }));
        assert!(d
            .to_string()
            .starts_with("invalid batch at byte 69: record is corrupt"));
        // Unknown magic, and a size below the minimum.
        let mut m = good.clone();
        m[16] = 9;
        assert_eq!(
            read_log(&m).1.damage.unwrap().to_string(),
            "invalid batch at byte 0: unknown magic 9"
        );
        let mut z = good;
        z[8..12].copy_from_slice(&3i32.to_be_bytes());
        assert_eq!(
            read_log(&z).1.damage.unwrap().to_string(),
            "invalid batch at byte 0: size 3 is smaller than the minimum record overhead (14)"
        );
    }
}
