//! Arbitrary operation sequences against a partition: no panic, invariants hold after each
//! operation, and every lookup kind answers.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use logtime_model::{Command, Config, ConfigValue, KafkaVersion, Offset, OffsetSpec, Partition, Record, Timestamp};

#[derive(Arbitrary, Debug)]
enum Op {
    Produce(Vec<(i64, u8, u16, bool)>),
    Advance(u32),
    Jump(i64),
    Retention,
    DeleteRecords(i64),
    Set(u8, i64),
    SetText(u8, u8),
    HighWatermark(i64),
    Version(bool),
    Lookup(i64),
}

#[derive(Arbitrary, Debug)]
struct Input {
    v4: bool,
    seed: u64,
    start: i64,
    ops: Vec<Op>,
}

const NAMES: &[&str] = &[
    "message.timestamp.before.max.ms",
    "message.timestamp.after.max.ms",
    "message.timestamp.difference.max.ms",
    "retention.ms",
    "retention.bytes",
    "segment.bytes",
    "segment.ms",
    "segment.jitter.ms",
    "segment.index.bytes",
    "index.interval.bytes",
    "max.message.bytes",
    "log.retention.check.interval.ms",
    "no.such.config",
];

fuzz_target!(|input: Input| {
    let version = if input.v4 { KafkaVersion::V4_0 } else { KafkaVersion::V3_6 };
    let mut p = Partition::new(Config::defaults(version), "f-0", Timestamp(input.start), input.seed);
    let mut now = input.start;
    for op in input.ops.into_iter().take(200) {
        let cmd = match op {
            Op::Produce(rs) => Command::Produce {
                records: rs
                    .into_iter()
                    .take(16)
                    .map(|(d, k, v, rel)| Record {
                        timestamp: Timestamp(if rel { now.wrapping_add(d % 10_000_000) } else { d }),
                        key_bytes: k as u32,
                        empty_key: v % 2 == 0,
                        value_bytes: v as u32,
                        headers: vec![],
                    })
                    .collect(),
            },
            Op::Advance(d) => {
                now = now.saturating_add(d as i64);
                Command::Tick
            }
            Op::Jump(t) => {
                now = t;
                Command::Tick
            }
            Op::Retention => Command::RunRetention,
            Op::DeleteRecords(o) => Command::DeleteRecords { offset: o },
            Op::Set(i, v) => Command::SetConfig { name: NAMES[i as usize % NAMES.len()].into(), value: ConfigValue::Number(v) },
            Op::SetText(i, j) => {
                let (name, values): (&str, &[&str]) = if i % 2 == 0 {
                    ("message.timestamp.type", &["CreateTime", "LogAppendTime", "Bogus"])
                } else {
                    ("cleanup.policy", &["delete", "compact", "compact,delete", ""])
                };
                Command::SetConfig { name: name.into(), value: ConfigValue::Text(values[j as usize % values.len()].into()) }
            }
            Op::HighWatermark(h) => Command::SetHighWatermark { offset: Offset(h) },
            Op::Version(v4) => Command::SetVersion { version: if v4 { KafkaVersion::V4_0 } else { KafkaVersion::V3_6 } },
            Op::Lookup(t) => {
                let _ = p.lookup(OffsetSpec::from_wire(t));
                let _ = p.lookup(OffsetSpec::MaxTimestamp);
                continue;
            }
        };
        let _ = p.apply(Timestamp(now), cmd);
        p.check_invariants();
        // Cap the work per input: retention schedules with a 1 ms interval over huge jumps.
        if p.record_count() > 100_000 {
            break;
        }
    }
    let _ = p.preview_retention(Timestamp(now));
    let _ = p.state();
});
