//! Reading a large `.log` at disk speed. Worker threads take the file in turns: each, holding
//! the file, reads the next few hundred KiB into its own buffer and cuts it after its last whole
//! batch (the next worker reads from there), then, with the file released, checks the CRC-32C
//! of those batches and reads them ([`precompute_batches`]) while the bytes are still in its
//! core's cache. Whichever worker finishes the run the reader needs next feeds it, and those
//! waiting behind it, in file order ([`SegmentReader::feed_read_ahead`]); a run's bytes are kept
//! only when something in it was not read ahead (a compressed or damaged batch, a v0/v1
//! message, a cut tail), for [`SegmentReader::feed_precomputed`] to read.
//!
//! Why this shape: copying from the page cache and checking the CRC are nearly all of the time.
//! A read that fits the core's cache (256 KiB against 512 KiB of L2) lets the copy and the check
//! each run at cache speed, and no buffer passes between threads: with one thread reading 1 MiB
//! buffers for checker threads and a third collecting them, the reading thread was the
//! bottleneck and every buffer cost about five futex calls.

use super::read::{io_err, Progress};
use super::Fail;
use logtime_core::import::{
    batch_extent, precompute_batches, whole_batches, PrecomputedBatches, SegmentLog, SegmentReader,
};
use logtime_model::Offset;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// One read: small enough that the bytes are still in the core's cache when their CRC is
/// checked, large enough that a read costs few system calls.
pub(super) const BUFFER: usize = 256 << 10;
/// A batch larger than a read is read whole up to this size (Kafka's default largest batch is
/// 1 MiB); past it, the rest of the file is read in plain chunks and checked by the parse alone.
const LARGEST_ALIGNED: usize = 16 << 20;
/// Runs read ahead of the one the calling thread waits for: bounds the memory held when a
/// worker is slow (descheduled on a busy machine) and the others run on.
const WINDOW: u64 = 16;

/// The file as the workers share it: where the next read starts.
struct Cursor {
    file: File,
    position: u64,
    seq: u64,
    /// Whether `position` starts a batch (false once a batch was too large to read whole).
    aligned: bool,
    done: bool,
}

/// The runs on their way into the reader, in file order: whichever worker completes the run
/// the reader needs next feeds it (and any that wait behind it), so no thread waits for
/// another's hand-off.
struct Order {
    reader: SegmentReader,
    waiting: BTreeMap<u64, Run>,
    next: u64,
    /// Workers waiting for room in the window.
    waiters: usize,
    /// The reading is over: damage stopped the reader, or a read failed (`failed`).
    stop: bool,
    failed: Option<Fail>,
    last_draw: Instant,
}

struct Shared<'a> {
    cursor: Mutex<Cursor>,
    order: Mutex<Order>,
    moved: Condvar,
    path: &'a Path,
    progress: &'a Progress,
    draw: bool,
}

/// A run of the file read ahead.
struct Run {
    position: u64,
    len: usize,
    ahead: PrecomputedBatches,
    /// The run's bytes, when something in it was not read ahead.
    bytes: Option<Vec<u8>>,
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
    let shared = Shared {
        cursor: Mutex::new(Cursor {
            file: f,
            position: 0,
            seq: 0,
            aligned: true,
            done: false,
        }),
        order: Mutex::new(Order {
            reader: SegmentReader::new(base),
            waiting: BTreeMap::new(),
            next: 0,
            waiters: 0,
            stop: false,
            failed: None,
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
    let mut reader = order.reader;
    if reader.stopped() {
        skip_rest(&mut reader)?;
    }
    Ok(reader.finish())
}

/// Feeds one run to the reader: without its bytes when it was wholly read ahead. Should the
/// reader want the bytes of such a run after all, they are read again from the file.
fn take(reader: &mut SegmentReader, run: Run, path: &Path) -> Result<(), Fail> {
    if let Some(bytes) = run.bytes {
        reader.feed_precomputed(&bytes, run.ahead);
        return Ok(());
    }
    let Err(ahead) = reader.feed_read_ahead(run.ahead) else {
        return Ok(());
    };
    let mut bytes = vec![0u8; run.len];
    let mut f = File::open(path).map_err(|e| io_err(path, e))?;
    f.seek(SeekFrom::Start(run.position))
        .and_then(|_| f.read_exact(&mut bytes))
        .map_err(|e| io_err(path, e))?;
    reader.feed_precomputed(&bytes, ahead);
    Ok(())
}

/// A worker: takes the next run of the file, reads it ahead, hands it to the reader; until the
/// file ends, a read fails, or the reading is over.
fn work(shared: &Shared) {
    let mut buf = vec![0u8; BUFFER];
    loop {
        let (seq, position, len, aligned) = match claim(shared, &mut buf) {
            Ok(Some(c)) => c,
            Ok(None) => return,
            Err(e) => return end(shared, Some(io_err(shared.path, e))),
        };
        let bytes = &buf[..len];
        let ahead = if aligned {
            precompute_batches(bytes, position)
        } else {
            PrecomputedBatches::default()
        };
        let bytes = (!ahead.complete()).then(|| bytes.to_vec());
        let run = Run {
            position,
            len,
            ahead,
            bytes,
        };
        if !deliver(shared, seq, run) {
            return;
        }
    }
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

/// Hands run `seq` over, and feeds the reader every run now next in file order; false once the
/// reading is over.
fn deliver(shared: &Shared, seq: u64, run: Run) -> bool {
    let Ok(mut guard) = shared.order.lock() else {
        return false;
    };
    let o = &mut *guard;
    if o.stop {
        return false;
    }
    o.waiting.insert(seq, run);
    let moved = o.waiting.contains_key(&o.next);
    while let Some(run) = o.waiting.remove(&o.next) {
        if o.reader.stopped() {
            // Nothing after an invalid batch is read as batches: the rest is counted at the end.
            o.stop = true;
            break;
        }
        o.next += 1;
        let len = run.len as u64;
        if let Err(f) = take(&mut o.reader, run, shared.path) {
            (o.stop, o.failed) = (true, Some(f));
            break;
        }
        shared.progress.done.fetch_add(len, Ordering::Relaxed);
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

/// Reads the next run into `buf`, holding the file: its sequence number, file position,
/// length, and whether it starts a batch. `None` once the file has ended or the calling thread
/// has left.
fn claim(shared: &Shared, buf: &mut Vec<u8>) -> std::io::Result<Option<(u64, u64, usize, bool)>> {
    let Ok(mut c) = shared.cursor.lock() else {
        return Ok(None);
    };
    if c.done || !room(shared, c.seq) {
        return Ok(None);
    }
    let (seq, position, aligned) = (c.seq, c.position, c.aligned);
    let read = fill(&mut c, buf, 0, BUFFER);
    let (mut filled, mut eof) = match read {
        Ok(r) => r,
        Err(e) => {
            c.done = true;
            return Err(e);
        }
    };
    if filled == 0 {
        c.done = true;
        return Ok(None);
    }
    let mut cut = if aligned {
        whole_batches(&buf[..filled])
    } else {
        0
    };
    let larger = aligned && cut == 0 && !eof && matches!(batch_extent(&buf[..filled], 0), Ok(None));
    if let Some(need) = declared_size(&buf[..filled]).filter(|n| larger && *n <= LARGEST_ALIGNED) {
        // A batch larger than a read, of a plausible size: read it whole.
        if buf.len() < need {
            buf.resize(need, 0);
        }
        match fill(&mut c, buf, filled, need) {
            Ok(r) => (filled, eof) = r,
            Err(e) => {
                c.done = true;
                return Err(e);
            }
        }
        cut = whole_batches(&buf[..filled]);
    }
    let len = if cut > 0 { cut } else { filled };
    // Cut anywhere but after a whole batch, the next run starts inside one.
    c.aligned = aligned && (eof || cut > 0);
    c.position += len as u64;
    c.seq += 1;
    c.done = eof && len == filled;
    Ok(Some((seq, position, len, aligned)))
}

/// The bytes the batch at the start of `data` declares, from its size field.
fn declared_size(data: &[u8]) -> Option<usize> {
    let size = i32::from_be_bytes(data.get(8..12)?.try_into().ok()?);
    usize::try_from(size).ok().map(|s| s + 12)
}

/// Waits, holding the file, until the run `seq` is within [`WINDOW`] of the one the reader
/// takes next; false once the reading is over.
fn room(shared: &Shared, seq: u64) -> bool {
    let Ok(mut o) = shared.order.lock() else {
        return false;
    };
    while !o.stop && seq >= o.next + WINDOW {
        o.waiters += 1;
        o = match shared.moved.wait(o) {
            Ok(o) => o,
            Err(_) => return false,
        };
        o.waiters -= 1;
    }
    !o.stop
}

/// Reads the file at the cursor into `buf[from..to]`: bytes now in `buf`, and whether the file
/// ended first.
fn fill(c: &mut Cursor, buf: &mut [u8], from: usize, to: usize) -> std::io::Result<(usize, bool)> {
    let at = c.position + from as u64;
    c.file.seek(SeekFrom::Start(at))?;
    let mut filled = from;
    while filled < to {
        match c.file.read(&mut buf[filled..to]) {
            Ok(0) => return Ok((filled, true)),
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((filled, false))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut body = vec![0u8];
        for v in [0, 0, -1, value as i64] {
            varint(v, &mut body);
        }
        body.extend(std::iter::repeat_n(b'v', value));
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
}
