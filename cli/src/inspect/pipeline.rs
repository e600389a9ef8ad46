//! Reading a large `.log` at disk speed. Three kinds of work overlap: one thread reads the file
//! into reused buffers cut after their last whole batch (the few bytes of the batch that runs on
//! are carried into the next buffer), checker threads check the CRC-32C of each buffer's batches
//! and read them while their bytes are in the core's cache ([`precompute_batches`]), and the
//! calling thread collects the buffers in file order ([`SegmentReader::feed_precomputed`], which
//! reads anything not read ahead itself). Checking the CRC and the kernel's copy were most of the
//! time; now they run side by side on the machine's cores.

use super::read::{io_err, Progress};
use super::Fail;
use logtime_core::import::{
    precompute_batches, whole_batches, PrecomputedBatches, SegmentLog, SegmentReader,
};
use logtime_model::Offset;
use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One buffer: big enough that a batch rarely spans two (Kafka's default largest batch is
/// 1 MiB) and that a read costs few system calls.
pub(super) const BUFFER: usize = 1 << 20;
/// Buffers in flight: two with the reading thread (the one filled, the one its tail goes to),
/// one with each checker, the rest waiting to be parsed in order.
const BUFFERS: usize = 6;

/// A buffer on its way: its place in the file, and whether its first byte starts a batch.
struct Chunk {
    seq: u64,
    buf: Vec<u8>,
    len: usize,
    position: u64,
    aligned: bool,
    ahead: PrecomputedBatches,
}

type Sent = std::io::Result<Chunk>;

/// Reads the `.log` at `path` (open as `f`) through the threads above.
pub(super) fn read_large(
    f: std::fs::File,
    path: &Path,
    base: Offset,
    progress: &Progress,
    draw: bool,
    skip_rest: impl Fn(&mut SegmentReader) -> Result<(), Fail>,
) -> Result<SegmentLog, Fail> {
    let (free_tx, free_rx) = sync_channel::<Vec<u8>>(BUFFERS);
    for _ in 0..BUFFERS {
        let _ = free_tx.send(vec![0u8; BUFFER]);
    }
    let (job_tx, job_rx) = sync_channel::<Sent>(BUFFERS);
    let (done_tx, done_rx) = sync_channel::<Sent>(BUFFERS);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let checkers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 4));
    // `move`: on an early return the channels drop before the scope joins the threads, which
    // then stop instead of waiting for a buffer forever.
    std::thread::scope(move |scope| {
        scope.spawn(move || read_file(f, &free_rx, &job_tx));
        for _ in 0..checkers {
            let (jobs, done) = (Arc::clone(&job_rx), done_tx.clone());
            scope.spawn(move || check(&jobs, &done));
        }
        drop((job_rx, done_tx));
        let mut reader = SegmentReader::new(base);
        let mut waiting = BTreeMap::new();
        let mut next = 0u64;
        let mut last_draw = Instant::now();
        for msg in done_rx.iter() {
            let c = msg.map_err(|e| io_err(path, e))?;
            waiting.insert(c.seq, c);
            while let Some(c) = waiting.remove(&next) {
                next += 1;
                if reader.stopped() {
                    // Dropping the channels at the return stops the other threads.
                    skip_rest(&mut reader)?;
                    return Ok(reader.finish());
                }
                reader.feed_precomputed(&c.buf[..c.len], c.ahead);
                progress.done.fetch_add(c.len as u64, Ordering::Relaxed);
                if draw && last_draw.elapsed() > Duration::from_millis(100) {
                    let name = path.file_name().unwrap_or_default().to_string_lossy();
                    progress.draw(&name);
                    last_draw = Instant::now();
                }
                let _ = free_tx.send(c.buf);
            }
        }
        Ok(reader.finish())
    })
}

/// The reading thread: fills each free buffer, cuts it after its last whole batch and carries
/// the rest into the next one, so that every buffer starts a batch. A batch larger than a buffer
/// ends that: the rest of the file is sent as read, and checked by the parse alone.
fn read_file(mut f: std::fs::File, free: &Receiver<Vec<u8>>, jobs: &SyncSender<Sent>) {
    let Ok(mut cur) = free.recv() else { return };
    let (mut filled, mut position, mut seq, mut aligned) = (0usize, 0u64, 0u64, true);
    loop {
        let mut eof = false;
        while filled < cur.len() {
            match f.read(&mut cur[filled..]) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let _ = jobs.send(Err(e));
                    return;
                }
            }
        }
        if filled == 0 {
            return;
        }
        let cut = if aligned && !eof {
            whole_batches(&cur[..filled])
        } else {
            0
        };
        let whole = if cut > 0 { cut } else { filled };
        let Ok(mut next) = free.recv() else { return };
        next[..filled - whole].copy_from_slice(&cur[whole..filled]);
        let chunk = Chunk {
            seq,
            buf: std::mem::replace(&mut cur, next),
            len: whole,
            position,
            aligned,
            ahead: PrecomputedBatches::default(),
        };
        if jobs.send(Ok(chunk)).is_err() {
            return;
        }
        // Cut anywhere but after a whole batch, the next buffer starts inside one.
        aligned = aligned && (eof || cut > 0);
        (position, seq, filled) = (position + whole as u64, seq + 1, filled - whole);
        if eof && filled == 0 {
            return;
        }
    }
}

/// A checker thread: each buffer's batches checked and read ahead.
fn check(jobs: &Mutex<Receiver<Sent>>, done: &SyncSender<Sent>) {
    loop {
        let msg = {
            let Ok(rx) = jobs.lock() else { return };
            match rx.recv() {
                Ok(m) => m,
                Err(_) => return,
            }
        };
        let msg = msg.map(|mut c| {
            if c.aligned {
                c.ahead = precompute_batches(&c.buf[..c.len], c.position);
            }
            c
        });
        if done.send(msg).is_err() {
            return;
        }
    }
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
        let f = std::fs::File::open(&path).unwrap();
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
    }
}
