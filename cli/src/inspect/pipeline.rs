//! Reading a large `.log` at disk speed. The file is cut into stripes of a few MiB, and worker
//! threads take the stripes in turns, each with its own handle on the file and no lock while it
//! reads: a worker finds the first batch of its stripe (the stripe at 0 starts with one; any
//! other is found by [`find_batch_start`], a guess), then reads the stripe 256 KiB at a time
//! into its own buffer, cut after the last whole batch, and checks the CRC-32C of those batches
//! and reads them ([`precompute_batches`]) while the bytes are still in its core's cache. The
//! stripe's last batch is the one that runs past its end, so the next stripe's first batch is
//! where this one's reading arrives.
//!
//! Whichever worker completes the stripe the reader needs next feeds it, and those waiting
//! behind it, in file order: each run wholly read ahead without its bytes
//! ([`SegmentReader::feed_read_ahead`]), the others with them
//! ([`SegmentReader::feed_precomputed`]). The reader takes a run only where its own reading
//! arrives; where it does not (a wrong guess, a batch too large to read whole, a damaged size,
//! v0/v1 messages the guess does not look for), the bytes up to the end of that run are read
//! from the file and fed as they are, so the result is the plain reader's whatever the guesses.
//!
//! Why this shape: copying from the page cache and checking the CRC are nearly all of the time.
//! A read that fits the core's cache (256 KiB against 512 KiB of L2) lets the check run on
//! cached bytes, and the workers share nothing while they read: with one thread reading 1 MiB
//! buffers for checker threads and a third collecting them, the reading thread was the
//! bottleneck and every buffer cost about five futex calls; with workers taking turns at one
//! file handle, a worker that lost its core while holding it (on a busy machine) stopped both.

use super::read::{io_err, Progress};
use super::Fail;
use logtime_core::import::{
    batch_extent, find_batch_start, precompute_batches, whole_batches_to, BatchStart,
    PrecomputedBatches, SegmentLog, SegmentReader,
};
use logtime_model::Offset;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// One read: small enough that the bytes are still in the core's cache when their CRC is
/// checked, large enough that a read costs few system calls.
pub(super) const BUFFER: usize = 256 << 10;
/// A stripe: large enough that finding its first batch and the one-stripe hand-off are small
/// beside its reading, small enough that the stripes read ahead of the reader hold little.
const STRIPE: u64 = 4 << 20;
/// A batch larger than a read is read whole up to this size (Kafka's default largest batch is
/// 1 MiB); a larger one is left to the plain reading.
const LARGEST_ALIGNED: usize = 16 << 20;
/// Stripes read ahead of the one the reader waits for: bounds the memory held when a worker
/// is slow (descheduled on a busy machine) and the others run on.
const WINDOW: u64 = 8;

/// A run of the file read ahead.
struct Run {
    position: u64,
    len: usize,
    ahead: PrecomputedBatches,
    /// The run's bytes, when something in it was not read ahead.
    bytes: Option<Vec<u8>>,
}

/// The stripes on their way into the reader, in file order.
struct Order {
    reader: SegmentReader,
    /// Stripes read, by number: where each ends, and its runs.
    waiting: BTreeMap<u64, (u64, Vec<Run>)>,
    next: u64,
    /// Workers waiting for room in the window.
    waiters: usize,
    /// The reading is over: damage stopped the reader, or a read failed (`failed`).
    stop: bool,
    failed: Option<Fail>,
    /// Bytes of the reader's counted in the progress so far.
    counted: u64,
    last_draw: Instant,
}

impl Order {
    /// Adds what the reader read since the last call to the progress (which may count other
    /// partitions read at the same time).
    fn count(&mut self, progress: &Progress) {
        let now = self.reader.bytes_read();
        progress
            .done
            .fetch_add(now.saturating_sub(self.counted), Ordering::Relaxed);
        self.counted = now;
    }
}

struct Shared<'a> {
    /// The next stripe to take.
    claim: AtomicU64,
    stripes: u64,
    len: u64,
    order: Mutex<Order>,
    moved: Condvar,
    path: &'a Path,
    progress: &'a Progress,
    draw: bool,
}

/// Reads the `.log` at `path` (open as `f`) through the threads above.
pub(super) fn read_large(
    f: File,
    path: &Path,
    base: Offset,
    progress: &Progress,
    draw: bool,
    skip_rest: impl Fn(&mut SegmentReader) -> Result<(), Fail>,
) -> Result<SegmentLog, Fail> {
    let len = f.metadata().map_err(|e| io_err(path, e))?.len();
    let shared = Shared {
        claim: AtomicU64::new(0),
        stripes: len.div_ceil(STRIPE),
        len,
        order: Mutex::new(Order {
            reader: SegmentReader::new(base),
            waiting: BTreeMap::new(),
            next: 0,
            waiters: 0,
            stop: false,
            failed: None,
            counted: 0,
            last_draw: Instant::now(),
        }),
        moved: Condvar::new(),
        path,
        progress,
        draw,
    };
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 4));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| work(&shared));
        }
    });
    let order = shared
        .order
        .into_inner()
        .map_err(|_| Fail(format!("{}: a reading thread failed", path.display())))?;
    if let Some(f) = order.failed {
        return Err(f);
    }
    let mut order = order;
    if !order.reader.stopped() {
        // What no stripe's reading reached: a tail cut short, or the file grown since.
        let mut f = f;
        plain(&mut order.reader, &mut f, path, u64::MAX)?;
    }
    order.count(progress);
    let mut reader = order.reader;
    if reader.stopped() {
        skip_rest(&mut reader)?;
    }
    Ok(reader.finish())
}

/// Feeds the reader the file's bytes from where its reading is to `end` (or the file's end),
/// as they are.
fn plain(reader: &mut SegmentReader, f: &mut File, path: &Path, end: u64) -> Result<(), Fail> {
    let at = reader.bytes_read();
    if at >= end || reader.stopped() {
        return Ok(());
    }
    f.seek(SeekFrom::Start(at)).map_err(|e| io_err(path, e))?;
    let mut r = f.take(end.saturating_sub(at));
    let mut buf = vec![0u8; BUFFER];
    while !reader.stopped() {
        let n = r.read(&mut buf).map_err(|e| io_err(path, e))?;
        if n == 0 {
            break;
        }
        reader.feed(&buf[..n]);
    }
    Ok(())
}

/// Feeds one run to the reader: without its bytes when it was wholly read ahead. Where the
/// reader's reading does not arrive at the run's start, or it wants the bytes of a run read
/// ahead after all, the file's bytes up to the run's end are fed as they are.
fn take(reader: &mut SegmentReader, f: &mut File, run: Run, path: &Path) -> Result<(), Fail> {
    if reader.bytes_read() == run.position {
        let ahead = match run.bytes {
            Some(bytes) => {
                reader.feed_precomputed(&bytes, run.ahead);
                return Ok(());
            }
            None => reader.feed_read_ahead(run.ahead),
        };
        if ahead.is_ok() {
            return Ok(());
        }
    }
    plain(reader, f, path, run.position + run.len as u64)
}

/// A worker: takes the next stripe, reads it ahead, hands it to the reader; until the stripes
/// are all taken, a read fails, or the reading is over.
fn work(shared: &Shared) {
    let mut f = match File::open(shared.path) {
        Ok(f) => f,
        Err(e) => return end(shared, Some(io_err(shared.path, e))),
    };
    let mut buf = vec![0u8; BUFFER];
    loop {
        let k = shared.claim.fetch_add(1, Ordering::Relaxed);
        if k >= shared.stripes || !room(shared, k) {
            return;
        }
        let runs = match read_stripe(&mut f, &mut buf, k, shared.len) {
            Ok(r) => r,
            Err(e) => return end(shared, Some(io_err(shared.path, e))),
        };
        let end = ((k + 1) * STRIPE).min(shared.len);
        if !deliver(shared, &mut f, k, (end, runs)) {
            return;
        }
    }
}

/// Stripe `k` of a file of `len` bytes, read ahead in runs from its first batch to the first
/// batch boundary at or past its end (none when no batch start is found in it, or the first
/// batch cannot be read whole).
fn read_stripe(f: &mut File, buf: &mut Vec<u8>, k: u64, len: u64) -> std::io::Result<Vec<Run>> {
    let (start, end) = (k * STRIPE, ((k + 1) * STRIPE).min(len));
    let mut runs = Vec::new();
    let Some(mut position) = first_batch(f, buf, start, end)? else {
        return Ok(runs);
    };
    while position < end {
        let (mut filled, eof) = read_at(f, &mut buf[..BUFFER], position)?;
        let limit = (end - position) as usize;
        let mut cut = whole_batches_to(&buf[..filled], limit);
        if cut == 0 && !eof {
            // A batch larger than a read: read it whole, when its size is plausible.
            let Some(need) = larger_batch(&buf[..filled]) else {
                break;
            };
            if buf.len() < need {
                buf.resize(need, 0);
            }
            filled = read_at(f, &mut buf[..need], position)?.0;
            cut = whole_batches_to(&buf[..filled], limit);
        }
        if cut == 0 {
            break;
        }
        let bytes = &buf[..cut];
        let ahead = precompute_batches(bytes, position);
        let bytes = (!ahead.complete()).then(|| bytes.to_vec());
        runs.push(Run {
            position,
            len: cut,
            ahead,
            bytes,
        });
        position += cut as u64;
    }
    Ok(runs)
}

/// The size of the batch at the start of `data` when it needs more bytes than `data` holds and
/// is at most [`LARGEST_ALIGNED`].
fn larger_batch(data: &[u8]) -> Option<usize> {
    if !matches!(batch_extent(data, 0), Ok(None)) {
        return None;
    }
    let size = i32::from_be_bytes(data.get(8..12)?.try_into().ok()?);
    let need = usize::try_from(size).ok()?.checked_add(12)?;
    (need <= LARGEST_ALIGNED).then_some(need)
}

/// Where the first batch of the stripe from `start` to `end` starts: `start` for the first
/// stripe, else the guess of [`find_batch_start`] within the stripe.
fn first_batch(
    f: &mut File,
    buf: &mut Vec<u8>,
    start: u64,
    end: u64,
) -> std::io::Result<Option<u64>> {
    if start == 0 {
        return Ok(Some(0));
    }
    let mut want = BUFFER;
    loop {
        if buf.len() < want {
            buf.resize(want, 0);
        }
        let (filled, eof) = read_at(f, &mut buf[..want], start)?;
        match find_batch_start(&buf[..filled], LARGEST_ALIGNED) {
            BatchStart::Found(i) if start + (i as u64) < end => return Ok(Some(start + i as u64)),
            BatchStart::Needs(n) if !eof && n > want && n <= LARGEST_ALIGNED + BUFFER => want = n,
            _ => return Ok(None),
        }
    }
}

/// Reads the file at `position` into `buf`, to its end or the file's: bytes read, and whether
/// the file ended first.
fn read_at(f: &mut File, buf: &mut [u8], position: u64) -> std::io::Result<(usize, bool)> {
    f.seek(SeekFrom::Start(position))?;
    let mut filled = 0;
    while filled < buf.len() {
        match f.read(&mut buf[filled..]) {
            Ok(0) => return Ok((filled, true)),
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((filled, false))
}

/// Ends the reading for every worker, with why when a read failed.
fn end(shared: &Shared, failed: Option<Fail>) {
    if let Ok(mut o) = shared.order.lock() {
        o.stop = true;
        if o.failed.is_none() {
            o.failed = failed;
        }
    }
    shared.moved.notify_all();
}

/// Hands stripe `k` over, and feeds the reader every stripe now next in file order; false once
/// the reading is over.
fn deliver(shared: &Shared, f: &mut File, k: u64, stripe: (u64, Vec<Run>)) -> bool {
    let Ok(mut guard) = shared.order.lock() else {
        return false;
    };
    let o = &mut *guard;
    if o.stop {
        return false;
    }
    o.waiting.insert(k, stripe);
    let moved = o.waiting.contains_key(&o.next);
    'stripes: while let Some((end, runs)) = o.waiting.remove(&o.next) {
        o.next += 1;
        for run in runs {
            if o.reader.stopped() {
                // Nothing after an invalid batch is read as batches: the rest is counted at
                // the end.
                o.stop = true;
                break 'stripes;
            }
            if let Err(e) = take(&mut o.reader, f, run, shared.path) {
                (o.stop, o.failed) = (true, Some(e));
                break 'stripes;
            }
        }
        // What the stripe's runs left unread (none found, a batch too large, a damaged size) is
        // read now: damage there stops the reading before the workers go on through the file.
        if let Err(e) = plain(&mut o.reader, f, shared.path, end) {
            (o.stop, o.failed) = (true, Some(e));
            break;
        }
        if o.reader.stopped() {
            o.stop = true;
            break;
        }
        o.count(shared.progress);
        if shared.draw && o.last_draw.elapsed() > Duration::from_millis(100) {
            let name = shared.path.file_name().unwrap_or_default();
            shared.progress.draw(&name.to_string_lossy());
            o.last_draw = Instant::now();
        }
    }
    if moved && (o.waiters > 0 || o.stop) {
        shared.moved.notify_all();
    }
    !o.stop
}

/// Waits until stripe `k` is within [`WINDOW`] of the one the reader takes next; false once
/// the reading is over.
fn room(shared: &Shared, k: u64) -> bool {
    let Ok(mut o) = shared.order.lock() else {
        return false;
    };
    while !o.stop && k >= o.next + WINDOW {
        o.waiters += 1;
        o = match shared.moved.wait(o) {
            Ok(o) => o,
            Err(_) => return false,
        };
        o.waiters -= 1;
    }
    !o.stop
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_core::import::whole_batches;

    fn varint(v: i64, out: &mut Vec<u8>) {
        let mut v = ((v << 1) ^ (v >> 63)) as u64;
        while v >= 0x80 {
            out.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }

    /// A v2 batch of one record whose value is `value` bytes, CRC-32C filled in.
    fn v2(base: i64, ts: i64, value: usize) -> Vec<u8> {
        v2_holding(base, ts, &vec![b'v'; value])
    }

    /// A v2 batch of one record whose value is `value`.
    fn v2_holding(base: i64, ts: i64, value: &[u8]) -> Vec<u8> {
        let mut body = vec![0u8];
        for v in [0, 0, -1, value.len() as i64] {
            varint(v, &mut body);
        }
        body.extend(value);
        body.push(0);
        let mut rec = Vec::new();
        varint(body.len() as i64, &mut rec);
        rec.extend(body);
        let mut b = Vec::new();
        b.extend(base.to_be_bytes());
        b.extend(((49 + rec.len()) as i32).to_be_bytes());
        b.extend(0i32.to_be_bytes());
        b.push(2);
        b.extend([0u8; 4]);
        b.extend(0i16.to_be_bytes());
        b.extend(0i32.to_be_bytes());
        b.extend(ts.to_be_bytes());
        b.extend(ts.to_be_bytes());
        b.extend((-1i64).to_be_bytes());
        b.extend((-1i16).to_be_bytes());
        b.extend((-1i32).to_be_bytes());
        b.extend(1i32.to_be_bytes());
        b.extend(rec);
        let crc = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI).checksum(&b[21..]);
        b[17..21].copy_from_slice(&crc.to_be_bytes());
        b
    }

    fn both(name: &str, bytes: &[u8]) {
        let path =
            std::env::temp_dir().join(format!("logtime-pipeline-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        let f = File::open(&path).unwrap();
        let progress = Progress::new(0);
        let fast = read_large(f, &path, Offset(0), &progress, false, |r| {
            let rest = bytes.len() as u64 - r.bytes_read();
            r.skip(rest);
            Ok(())
        });
        std::fs::remove_file(&path).unwrap();
        let mut plain = SegmentReader::new(Offset(0));
        plain.feed(bytes);
        assert_eq!(fast.ok(), Some(plain.finish()), "{name}");
    }

    /// Sizes from a fixed generator: small batches, batches across buffers, one batch larger
    /// than a buffer (after which the rest is read unaligned), then damage.
    #[test]
    fn the_threads_read_what_the_plain_reader_reads() {
        let mut seed = 12345u64;
        let mut bytes = Vec::new();
        for i in 0..400i64 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let value = (seed >> 33) as usize % 30_000;
            bytes.extend(v2(
                i,
                1_000 + i,
                if i == 300 { BUFFER + 1000 } else { value },
            ));
        }
        both("clean", &bytes);
        let mut cut = bytes.clone();
        cut.truncate(bytes.len() - 100);
        both("cut", &cut);
        let mut flipped = bytes.clone();
        flipped[BUFFER * 2 + 77] ^= 4;
        both("flipped", &flipped);
        both("short", &bytes[..BUFFER * 2]);
        // A batch too large to read whole: the rest of the file in plain chunks.
        let mut huge = bytes[..BUFFER * 3].to_vec();
        let at = whole_batches(&huge);
        huge.truncate(at);
        huge.extend(v2(9_000, 9_000, LARGEST_ALIGNED + 10));
        huge.extend(v2(9_001, 9_001, 100));
        both("huge", &huge);
        let mut flipped = huge.clone();
        flipped[huge.len() - 20] ^= 4;
        both("huge-flipped", &flipped);
    }

    /// A record whose value is itself a whole batch, just after a stripe's start: the guess at
    /// the stripe's first batch finds that one, and the reading, which arrives elsewhere, does
    /// not take it.
    #[test]
    fn a_wrong_guess_at_a_stripe_start_reads_what_the_plain_reader_reads() {
        let mut bytes = Vec::new();
        let mut i = 0i64;
        let target = STRIPE as usize - 30;
        while target - bytes.len() > 40_000 {
            bytes.extend(v2(i, 1_000 + i, 20_000));
            i += 1;
        }
        let left = target - bytes.len();
        let filler = (0..left)
            .rev()
            .map(|v| v2(i, 1_000 + i, v))
            .find(|b| b.len() == left)
            .unwrap();
        bytes.extend(filler);
        assert_eq!(bytes.len(), target);
        let inner = v2(7, 7, 500);
        bytes.extend(v2_holding(i + 1, 1_000 + i, &inner));
        for j in i + 2..i + 300 {
            bytes.extend(v2(j, 1_000 + j, 20_000));
        }
        let stripe = &bytes[STRIPE as usize..];
        assert!(matches!(
            find_batch_start(stripe, LARGEST_ALIGNED),
            BatchStart::Found(n) if n < 100
        ));
        both("inner", &bytes);
    }
}
