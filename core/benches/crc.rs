//! `cargo bench -p logtime-core --bench crc`: CRC-32C speed in nanoseconds per byte, one
//! `name: value` per line, for the two crates core uses: `crc_fast_*` (native builds: carry-less
//! multiply folding) and `crc32c_*` (the browser build's, and its SSE 4.2 path natively). Over a
//! 16 KB batch (`scripts/measure-import.sh`'s) and a 1 MiB one, 256 MiB a round; the best of 7
//! rounds. Timed by the thread's CPU time (Linux's `/proc/thread-self/schedstat`) where there is
//! one, so that a machine shared with other work does not count their turns, with rounds long
//! enough that the clock's update at scheduler ticks hardly matters; by the wall clock elsewhere
//! (`clock: wall` then). `speedup_16k` is the crc32c crate's time over crc-fast's.

use std::hint::black_box;
use std::time::Instant;

/// Nanoseconds this thread has run on a CPU (the first field of its schedstat).
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Nanoseconds since `start`: CPU time when the thread's is known, else wall time.
struct Clock {
    wall: Instant,
    cpu: Option<u64>,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: cpu_ns(),
        }
    }

    fn elapsed_ns(&self) -> f64 {
        match (self.cpu, cpu_ns()) {
            (Some(a), Some(b)) => b.saturating_sub(a) as f64,
            _ => self.wall.elapsed().as_secs_f64() * 1e9,
        }
    }
}

const ROUND_BYTES: usize = 256 << 20;
const ROUNDS: usize = 7;

fn best_ns_per_byte(buf: &[u8], crc: impl Fn(&[u8]) -> u32) -> f64 {
    let n = ROUND_BYTES / buf.len();
    let mut best = f64::MAX;
    for _ in 0..ROUNDS {
        let t = Clock::start();
        let mut x = 0u32;
        for _ in 0..n {
            x ^= crc(black_box(buf));
        }
        black_box(x);
        best = best.min(t.elapsed_ns() / (n * buf.len()) as f64);
    }
    best
}

fn main() {
    let fast = |b: &[u8]| crc_fast::checksum(crc_fast::CrcAlgorithm::Crc32Iscsi, b) as u32;
    let table = |b: &[u8]| crc32c::crc32c(b);
    let clock = if cpu_ns().is_some() { "cpu" } else { "wall" };
    println!("clock: {clock}");
    let mut speedup = 0.0;
    for (name, size) in [("16k", 16_205usize), ("1m", 1 << 20)] {
        let buf: Vec<u8> = (0..size).map(|i| (i * 31 + 7) as u8).collect();
        assert_eq!(fast(&buf), table(&buf), "the two crates disagree");
        let f = best_ns_per_byte(&buf, fast);
        let c = best_ns_per_byte(&buf, table);
        println!("crc_fast_ns_per_byte_{name}: {f:.3}");
        println!("crc32c_ns_per_byte_{name}: {c:.3}");
        if name == "16k" {
            speedup = c / f;
        }
    }
    println!("speedup_16k: {speedup:.2}");
}
