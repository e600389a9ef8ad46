//! Replays a scenario file to its end with no report and no event kept, and prints how long it
//! took: the native side of `scripts/measure-web.sh`'s wasm-versus-native comparison (the
//! browser side rebuilds the same scenario to its last step in the explorer, which runs this
//! loop: each step noting what the partition view marks, with no event handed out).
//!
//! `cargo run --release -p logtime-core --example replay -- scenario.json`
//! prints `native_replay_ms`, `native_replay_second_half_ms` (the steady state: the partition
//! is already large), `native_replay_step_median_us` (the median step of that second half: on
//! a shared machine, a step another process preempted does not move it) and `records`.

use std::time::Instant;

use logtime_core::scenario::{parse, Runner, ViewMarks};

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
    let mut steps = Vec::with_capacity(runner.scenario().steps.len());
    let start = Instant::now();
    let mut mid = start;
    loop {
        let before = Instant::now();
        let mut marks = ViewMarks::default();
        let Some(r) = runner.step_marks(&mut marks) else {
            break;
        };
        steps.push(before.elapsed().as_secs_f64() * 1e6);
        if let Err(e) = r {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
        if runner.next_step() == half {
            mid = Instant::now();
        }
    }
    let end = Instant::now();
    let second = &mut steps[half..];
    second.sort_by(f64::total_cmp);
    println!("native_replay_ms: {}", (end - start).as_millis());
    println!("native_replay_second_half_ms: {}", (end - mid).as_millis());
    if let Some(median) = second.get(second.len() / 2) {
        println!("native_replay_step_median_us: {median:.0}");
    }
    println!("records: {}", runner.partition().record_count());
}
