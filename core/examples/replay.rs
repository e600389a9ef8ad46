//! Replays a scenario file to its end with no report and no event kept, and prints how long it
//! took: the native side of `scripts/measure-web.sh`'s wasm-versus-native comparison (the
//! browser side rebuilds the same scenario to its last step in the explorer, which runs this
//! loop with a callback that only notes what the partition view marks).
//!
//! `cargo run --release -p logtime-core --example replay -- scenario.json`
//! prints `native_replay_ms`, `native_replay_second_half_ms` (the steady state: the partition
//! is already large) and `records`.

use std::time::Instant;

use logtime_core::scenario::{parse, Runner};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: replay <scenario.json>");
        std::process::exit(2);
    };
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let scenario = parse(&json).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    let half = scenario.steps.len() / 2;
    let mut runner = Runner::new(scenario);
    let start = Instant::now();
    let mut mid = start;
    while let Some(r) = runner.step(&mut |_| {}) {
        if let Err(e) = r {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
        if runner.next_step() == half {
            mid = Instant::now();
        }
    }
    let end = Instant::now();
    println!("native_replay_ms: {}", (end - start).as_millis());
    println!("native_replay_second_half_ms: {}", (end - mid).as_millis());
    println!("records: {}", runner.partition().record_count());
}
