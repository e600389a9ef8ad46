//! Export → run: any partition built by fuzzed produce, advance and retention operations, written
//! as a scenario (`scenario_text`, what `logtime inspect --export-scenario` writes), either is
//! refused with its size or parses and replays to the same partition: segments, offsets, log
//! start offset and each segment's time index.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use logtime_core::import::scenario_text;
use logtime_core::scenario::{parse, Runner};
use logtime_model::{Command, Config, ConfigValue, KafkaVersion, Partition, Record, Timestamp};

#[derive(Arbitrary, Debug)]
enum Op {
    Produce(Vec<(i64, u8, bool)>),
    Advance(u32),
    Retention,
    SegmentBytes(u16),
    RetentionMs(u32),
}

#[derive(Arbitrary, Debug)]
struct Input {
    v4: bool,
    seed: u64,
    ops: Vec<Op>,
}

fuzz_target!(|input: Input| {
    let version = if input.v4 { KafkaVersion::V4_0 } else { KafkaVersion::V3_6 };
    let start = 1_804_842_000_000i64;
    let mut p = Partition::new(Config::defaults(version), "f-0", Timestamp(start), input.seed);
    let mut now = start;
    for op in input.ops.into_iter().take(300) {
        let cmd = match op {
            Op::Produce(rs) => Command::Produce {
                records: rs
                    .into_iter()
                    .take(16)
                    .map(|(d, v, rel)| Record {
                        timestamp: Timestamp(if rel { now.wrapping_add(d % 10_000_000) } else { d }),
                        key_bytes: 0,
                        empty_key: true,
                        value_bytes: v as u32,
                        headers: vec![],
                    })
                    .collect(),
            },
            Op::Advance(d) => {
                now = now.saturating_add(d as i64);
                Command::Tick
            }
            Op::Retention => Command::RunRetention,
            Op::SegmentBytes(b) => Command::SetConfig {
                name: "segment.bytes".into(),
                value: ConfigValue::Number(b as i64 + 14),
            },
            Op::RetentionMs(ms) => Command::SetConfig {
                name: "retention.ms".into(),
                value: ConfigValue::Number(ms as i64),
            },
        };
        let _ = p.apply(Timestamp(now), cmd);
    }
    let Ok(text) = scenario_text(&p, "fuzzed") else {
        return;
    };
    let scenario = match parse(&text) {
        Ok(s) => s,
        Err(e) => panic!("an exported partition does not parse: {e}\n{text}"),
    };
    let mut runner = Runner::new(scenario);
    while let Some(step) = runner.step(&mut |_| {}) {
        if let Err(e) = step {
            panic!("an exported partition does not replay: {e}\n{text}");
        }
    }
    let (a, b) = (p.state(), runner.partition().state());
    assert_eq!(a.log_start_offset, b.log_start_offset);
    assert_eq!(a.log_end_offset, b.log_end_offset);
    assert_eq!(a.segments.len(), b.segments.len());
    for (x, y) in a.segments.iter().zip(&b.segments) {
        assert_eq!(x.base_offset, y.base_offset);
        assert_eq!(x.time_index, y.time_index);
    }
});
