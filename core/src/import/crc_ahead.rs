//! The fast path of reading a large `.log`: the CRC-32C of its v2 batches computed ahead of the
//! parse, so that a caller with threads can check one chunk while the next is read and the one
//! before is parsed. Checking a CRC is the costliest step of reading an uncompressed segment.
//!
//! This is only a cache: [`LogReader::feed_with_crcs`](super::LogReader::feed_with_crcs) still
//! compares each stored CRC and reads each batch as [`LogReader::feed`](super::LogReader::feed)
//! does, so the rule stays in one place. The property test below proves the two paths read the
//! same segment from any bytes cut into any chunks.

use super::log_file::{batch_extent, RECORD_BATCH_OVERHEAD, V2_CRC_FROM};

/// The CRC-32C of each whole v2 batch in a run of a `.log`'s bytes, by file position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrecomputedCrcs {
    /// File position of the run's first byte.
    position: u64,
    /// Length of the run.
    len: usize,
    /// (file position of a batch, CRC-32C of its bytes from the attributes on), in file order.
    entries: Vec<(u64, u32)>,
}

impl PrecomputedCrcs {
    /// Whether these CRCs were computed over the run of `len` bytes at `position`.
    pub(crate) fn covers(&self, position: u64, len: usize) -> bool {
        self.position == position && self.len == len
    }

    pub(crate) fn into_entries(self) -> Vec<(u64, u32)> {
        self.entries
    }

    /// How many batches have a CRC here.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no batch has one.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Bytes of the whole batches at the start of `data` (the first byte of a batch), found from
/// their size fields alone: where a reader can cut the file so that no batch spans two chunks.
/// Stops at a batch cut short or at a size field below the minimum (the parse reports that).
pub fn whole_batches(data: &[u8]) -> usize {
    let mut at = 0;
    while let Ok(Some(n)) = batch_extent(&data[at..], 0) {
        at += n;
    }
    at
}

/// The CRC-32C of every whole v2 batch at the start of `data`, whose first byte is the start of
/// a batch at file `position`. Batches of other formats, and those too short to be a v2 batch,
/// are left to the parse.
pub fn precompute_crcs(data: &[u8], position: u64) -> PrecomputedCrcs {
    let mut entries = Vec::new();
    let mut at = 0;
    while let Ok(Some(n)) = batch_extent(&data[at..], 0) {
        let batch = &data[at..at + n];
        if batch[16] == 2 && n >= RECORD_BATCH_OVERHEAD {
            entries.push((position + at as u64, crc32c::crc32c(&batch[V2_CRC_FROM..])));
        }
        at += n;
    }
    PrecomputedCrcs {
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
        let crc = crc32c::crc32c(&b[V2_CRC_FROM..]);
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
    /// leaves any (the rest carried into the next chunk), CRCs computed ahead.
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
            let crcs = precompute_crcs(&carry[..whole], position);
            r.feed_with_crcs(&carry[..whole], crcs);
            position += whole as u64;
            carry.drain(..whole);
        }
        r.feed_with_crcs(&carry, precompute_crcs(&carry, position));
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
    fn crcs_for_another_position_are_not_used() {
        let b = v2(0, 3, 1_000, false);
        let mut bad = b.clone();
        bad[70] ^= 1;
        // CRCs of the good bytes offered for the damaged ones at another position: ignored.
        let mut r = SegmentReader::new(Offset(0));
        r.feed_with_crcs(&bad, precompute_crcs(&b, 1));
        let log = r.finish();
        assert!(log.end.damage.is_some());
        assert_eq!(log, plain(&bad, &[]));
        assert_eq!(precompute_crcs(&b, 0).len(), 1);
        // At the chunk's position they are used (which is why the caller computes them over the
        // very bytes it feeds): the damaged batch then passes.
        let mut r = SegmentReader::new(Offset(0));
        r.feed_with_crcs(&bad, precompute_crcs(&b, 0));
        assert_eq!(r.finish().end.damage, None);
    }
}
