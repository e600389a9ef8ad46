//! The fast path of reading a large `.log`: its uncompressed v2 batches checked and read ahead of
//! the parse, so that a caller with threads can check and read one chunk while the next is
//! copied from the file and the one before is collected. Checking a CRC is the costliest step of
//! reading an uncompressed segment, and reading a batch right after its CRC finds its bytes still
//! in the core's cache.
//!
//! This is only a cache: each batch is read by the same [`parse_batch_known`] that
//! [`LogReader::feed`](super::LogReader::feed) calls, over the same bytes at the same position,
//! and [`LogReader::feed_precomputed`](super::LogReader::feed_precomputed) takes from it only
//! the batches it would read there itself; anything else (a batch across chunks, a damaged or
//! compressed batch, a v0/v1 message) is read as `feed` reads it. The property test below proves
//! the two paths read the same segment from any bytes cut into any chunks.

use super::log_batch::LogBatch;
use super::log_file::{batch_extent, parse_batch_known, RECORD_BATCH_OVERHEAD, V2_CRC_FROM};
use super::v2_batch::crc32c;
use logtime_model::units::Offset;

/// One batch checked ahead: its CRC-32C and, when it is an uncompressed v2 batch whose CRC
/// holds, the batch as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ahead {
    pub(crate) position: u64,
    pub(crate) crc: u32,
    pub(crate) batch: Option<LogBatch>,
}

/// The v2 batches of a run of a `.log`'s bytes, checked and read ahead, by file position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrecomputedBatches {
    /// File position of the run's first byte.
    position: u64,
    /// Length of the run.
    len: usize,
    /// The run's whole v2 batches, in file order.
    entries: Vec<Ahead>,
}

impl PrecomputedBatches {
    /// Whether these were computed over the run of `len` bytes at `position`.
    pub(crate) fn covers(&self, position: u64, len: usize) -> bool {
        self.position == position && self.len == len
    }

    /// Bytes of the run.
    pub(crate) fn len_bytes(&self) -> usize {
        self.len
    }

    pub(crate) fn into_entries(self) -> Vec<Ahead> {
        self.entries
    }

    /// How many batches were checked here.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether the run is wholly read ahead: batches that follow one another from its first
    /// byte to its last, each read. A reader can then take the run without its bytes
    /// ([`LogReader::feed_read_ahead`](super::LogReader::feed_read_ahead)), so a thread that
    /// checked it need not hand the bytes over.
    pub fn complete(&self) -> bool {
        let mut at = self.position;
        for e in &self.entries {
            match &e.batch {
                Some(b) if e.position == at => at += u64::from(b.size),
                _ => return false,
            }
        }
        at == self.position + self.len as u64
    }
}

/// Bytes of the whole batches at the start of `data` (the first byte of a batch), found from
/// their size fields alone: where a reader can cut the file so that no batch spans two chunks.
/// Stops at a batch cut short or at a size field below the minimum (the parse reports that).
pub fn whole_batches(data: &[u8]) -> usize {
    whole_batches_to(data, usize::MAX)
}

/// [`whole_batches`], stopping at the first batch boundary at or after `limit`: where a reader
/// that takes the file in stripes ends its stripe (the batch that runs past the stripe's end is
/// the stripe's).
pub fn whole_batches_to(data: &[u8], limit: usize) -> usize {
    let mut at = 0;
    while at < limit {
        match batch_extent(&data[at..], 0) {
            Ok(Some(n)) => at += n,
            _ => break,
        }
    }
    at
}

/// Where [`find_batch_start`] found a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchStart {
    /// A v2 batch whose CRC-32C holds starts at this byte.
    Found(usize),
    /// A header that could start a batch needs this many bytes from the start of the data to
    /// be checked: call again with them.
    Needs(usize),
    /// None in the data.
    NotFound,
}

/// A guess at where the first v2 batch starts in `data`, which begins anywhere in a `.log`: the
/// first byte where a header with the v2 magic, a size of at most `max_len` bytes, attributes
/// Kafka writes and counts that are not negative, starts a batch whose CRC-32C holds. It is
/// only a guess (a record's value may hold a whole batch): a reader that takes a run of the file
/// from here takes it only where its own reading arrives
/// ([`LogReader::feed_read_ahead`](super::LogReader::feed_read_ahead)), so a wrong guess costs
/// time, never a wrong reading.
pub fn find_batch_start(data: &[u8], max_len: usize) -> BatchStart {
    for i in 0..data.len().saturating_sub(RECORD_BATCH_OVERHEAD - 1) {
        let h = &data[i..];
        let size = i32::from_be_bytes([h[8], h[9], h[10], h[11]]);
        let attrs = u16::from_be_bytes([h[21], h[22]]);
        let last_delta = i32::from_be_bytes([h[23], h[24], h[25], h[26]]);
        let count = i32::from_be_bytes([h[57], h[58], h[59], h[60]]);
        let total = 12usize.saturating_add(size.max(0) as usize);
        let plausible = h[16] == 2
            && total >= RECORD_BATCH_OVERHEAD
            && total <= max_len
            && attrs & 0xff80 == 0
            && attrs & 0x07 <= 4
            && last_delta >= 0
            && count >= 0;
        if !plausible {
            continue;
        }
        if h.len() < total {
            return BatchStart::Needs(i + total);
        }
        let stored = u32::from_be_bytes([h[17], h[18], h[19], h[20]]);
        if crc32c(&h[V2_CRC_FROM..total]) == stored {
            return BatchStart::Found(i);
        }
    }
    BatchStart::NotFound
}

/// Every whole v2 batch at the start of `data`, whose first byte is the start of a batch at
/// file `position`: its CRC-32C, and the batch read when it is uncompressed and its CRC holds
/// (a compressed batch's reading is metered against the whole file's inflation budget, which only
/// the reader in file order knows). Batches of other formats, and those too short to be a v2
/// batch, are left to the parse.
pub fn precompute_batches(data: &[u8], position: u64) -> PrecomputedBatches {
    let mut entries = Vec::new();
    let mut at = 0;
    while let Ok(Some(n)) = batch_extent(&data[at..], 0) {
        let bytes = &data[at..at + n];
        if bytes[16] == 2 && n >= RECORD_BATCH_OVERHEAD {
            let pos = position + at as u64;
            let crc = crc32c(&bytes[V2_CRC_FROM..]);
            let uncompressed = bytes[22] & 0x07 == 0;
            // The offset after the previous batch only matters to v0/v1 messages.
            let batch = uncompressed
                .then(|| parse_batch_known(bytes, pos, Offset(0), Some(crc)).ok())
                .flatten();
            entries.push(Ahead {
                position: pos,
                crc,
                batch,
            });
        }
        at += n;
    }
    PrecomputedBatches {
        position,
        len: data.len(),
        entries,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{SegmentLog, SegmentReader};
    use logtime_model::Offset;
    use proptest::prelude::*;

    /// A v2 batch of `n` one-byte-value records, CRC-32C filled in.
    fn v2(base: i64, n: i32, ts: i64, log_append: bool) -> Vec<u8> {
        let mut recs = Vec::new();
        for i in 0..n {
            // attributes, ts delta i (zig-zag), offset delta i, null key, 1-byte value, no headers
            let body = [0u8, (2 * i) as u8, (2 * i) as u8, 1, 2, b'v', 0];
            recs.push(body.len() as u8 * 2);
            recs.extend(body);
        }
        let mut b = Vec::new();
        b.extend(base.to_be_bytes());
        b.extend(((RECORD_BATCH_OVERHEAD - 12 + recs.len()) as i32).to_be_bytes());
        b.extend(0i32.to_be_bytes());
        b.push(2);
        b.extend(0u32.to_be_bytes());
        b.extend((if log_append { 8i16 } else { 0 }).to_be_bytes());
        b.extend((n - 1).to_be_bytes());
        b.extend(ts.to_be_bytes());
        b.extend((ts + n as i64 - 1).to_be_bytes());
        b.extend((-1i64).to_be_bytes());
        b.extend((-1i16).to_be_bytes());
        b.extend((-1i32).to_be_bytes());
        b.extend(n.to_be_bytes());
        b.extend(recs);
        let crc = crc32c(&b[V2_CRC_FROM..]);
        b[17..21].copy_from_slice(&crc.to_be_bytes());
        b
    }

    /// The plain path: every chunk through `feed`.
    fn plain(bytes: &[u8], cuts: &[usize]) -> SegmentLog {
        let mut r = SegmentReader::new(Offset(0));
        for c in chunks(bytes, cuts) {
            r.feed(c);
        }
        r.finish()
    }

    /// The fast path as the CLI takes it: chunks cut after their whole batches where that
    /// leaves any (the rest carried into the next chunk), batches checked and read ahead, and a
    /// chunk wholly read ahead taken without its bytes.
    fn fast(bytes: &[u8], cuts: &[usize]) -> SegmentLog {
        let mut r = SegmentReader::new(Offset(0));
        let mut carry: Vec<u8> = Vec::new();
        let mut position = 0u64;
        for c in chunks(bytes, cuts) {
            carry.extend_from_slice(c);
            let whole = match whole_batches(&carry) {
                0 => carry.len(),
                n => n,
            };
            let crcs = precompute_batches(&carry[..whole], position);
            if let Err(crcs) = r.feed_read_ahead(crcs) {
                r.feed_precomputed(&carry[..whole], crcs);
            }
            position += whole as u64;
            carry.drain(..whole);
        }
        r.feed_precomputed(&carry, precompute_batches(&carry, position));
        r.finish()
    }

    fn chunks<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
        let mut at = 0;
        let mut out = Vec::new();
        for c in cuts {
            let end = (at + c).min(bytes.len());
            out.push(&bytes[at..end]);
            at = end;
        }
        out.push(&bytes[at..]);
        out
    }

    /// A segment of v2 batches, then damage: a flipped byte, a cut tail, a bad size.
    fn segment() -> impl Strategy<Value = Vec<u8>> {
        (
            prop::collection::vec((1i32..12, any::<bool>()), 0..20),
            prop::option::of((any::<prop::sample::Index>(), 1u8..=255)),
            0usize..40,
        )
            .prop_map(|(batches, flip, cut)| {
                let mut bytes = Vec::new();
                let mut base = 0i64;
                for (n, la) in batches {
                    bytes.extend(v2(base, n, 1_000 + base, la));
                    base += n as i64;
                }
                if let (Some((i, x)), false) = (flip, bytes.is_empty()) {
                    let i = i.index(bytes.len());
                    bytes[i] ^= x;
                }
                bytes.truncate(bytes.len().saturating_sub(cut));
                bytes
            })
    }

    proptest! {
        #[test]
        fn crcs_computed_ahead_read_the_same_segment(
            bytes in segment(),
            cuts in prop::collection::vec(1usize..400, 0..12),
        ) {
            prop_assert_eq!(fast(&bytes, &cuts), plain(&bytes, &cuts));
        }
    }

    #[test]
    fn uncompressed_batches_are_read_ahead_and_compressed_ones_left_to_the_reader() {
        let b = v2(0, 3, 1_000, false);
        let ahead = precompute_batches(&b, 0);
        let read = parse_batch_known(&b, 0, Offset(0), None).ok();
        assert!(read.is_some());
        assert_eq!(ahead.entries[0].batch, read);
        // The gzip bit set (CRC fixed up): its reading spends the file's inflation budget,
        // which only the reader in file order knows.
        let mut gz = b.clone();
        gz[22] |= 1;
        let crc = crc32c(&gz[V2_CRC_FROM..]);
        gz[17..21].copy_from_slice(&crc.to_be_bytes());
        let ahead = precompute_batches(&gz, 0);
        assert_eq!((ahead.len(), ahead.entries[0].batch.is_none()), (1, true));
        // A damaged batch keeps its computed CRC only: the reader reports the mismatch.
        let mut bad = b.clone();
        bad[70] ^= 1;
        assert!(precompute_batches(&bad, 0).entries[0].batch.is_none());
    }

    #[test]
    fn only_a_run_wholly_read_ahead_is_taken_without_its_bytes() {
        let (a, b) = (v2(0, 3, 1_000, false), v2(3, 2, 1_003, false));
        let both = [a.clone(), b.clone()].concat();
        assert!(precompute_batches(&both, 0).complete());
        // A tail cut short, a damaged batch, a compressed one: their bytes are needed.
        assert!(!precompute_batches(&both[..both.len() - 1], 0).complete());
        let mut bad = both.clone();
        bad[a.len() + 70] ^= 1;
        assert!(!precompute_batches(&bad, 0).complete());
        let mut gz = b.clone();
        gz[22] |= 1;
        let crc = crc32c(&gz[V2_CRC_FROM..]);
        gz[17..21].copy_from_slice(&crc.to_be_bytes());
        assert!(!precompute_batches(&[a.clone(), gz].concat(), 0).complete());
        // Taken only as the next bytes of the file, and read as `feed` reads them.
        let mut r = SegmentReader::new(Offset(0));
        assert!(r
            .feed_read_ahead(precompute_batches(&b, a.len() as u64))
            .is_err());
        assert!(r.feed_read_ahead(precompute_batches(&a, 0)).is_ok());
        assert!(r
            .feed_read_ahead(precompute_batches(&b, a.len() as u64))
            .is_ok());
        assert_eq!(r.bytes_read(), both.len() as u64);
        assert_eq!(r.finish(), plain(&both, &[]));
        // Not while a batch split across chunks waits for its bytes.
        let mut r = SegmentReader::new(Offset(0));
        r.feed(&a[..10]);
        assert!(r.feed_read_ahead(precompute_batches(&b, 10)).is_err());
    }

    #[test]
    fn a_batch_start_is_found_from_anywhere_in_the_file() {
        let (a, b) = (v2(0, 3, 1_000, false), v2(3, 2, 1_003, false));
        let both = [a.clone(), b.clone()].concat();
        assert_eq!(find_batch_start(&both, 1 << 20), BatchStart::Found(0));
        // From inside the first batch: the second is the first whose CRC holds.
        assert_eq!(
            find_batch_start(&both[5..], 1 << 20),
            BatchStart::Found(a.len() - 5)
        );
        // Cut inside the second: more bytes are asked for, unless it is larger than allowed.
        let cut = &both[5..both.len() - 3];
        assert_eq!(
            find_batch_start(cut, 1 << 20),
            BatchStart::Needs(both.len() - 5)
        );
        assert_eq!(find_batch_start(cut, b.len() - 1), BatchStart::NotFound);
        let mut bad = b.clone();
        bad[70] ^= 1;
        assert_eq!(find_batch_start(&bad, 1 << 20), BatchStart::NotFound);
        assert_eq!(find_batch_start(&[], 1 << 20), BatchStart::NotFound);
        // A stripe ends after the batch that runs past its end.
        assert_eq!(whole_batches_to(&both, 1), a.len());
        assert_eq!(whole_batches_to(&both, a.len()), a.len());
        assert_eq!(whole_batches_to(&both, a.len() + 1), both.len());
    }

    #[test]
    fn crcs_for_another_position_are_not_used() {
        let b = v2(0, 3, 1_000, false);
        let mut bad = b.clone();
        bad[70] ^= 1;
        // CRCs of the good bytes offered for the damaged ones at another position: ignored.
        let mut r = SegmentReader::new(Offset(0));
        r.feed_precomputed(&bad, precompute_batches(&b, 1));
        let log = r.finish();
        assert!(log.end.damage.is_some());
        assert_eq!(log, plain(&bad, &[]));
        assert_eq!(precompute_batches(&b, 0).len(), 1);
        // At the chunk's position they are used (which is why the caller computes them over the
        // very bytes it feeds): the damaged batch then passes.
        let mut r = SegmentReader::new(Offset(0));
        r.feed_precomputed(&bad, precompute_batches(&b, 0));
        assert_eq!(r.finish().end.damage, None);
    }
}
