//! Arbitrary text as `kafka-dump-log` output: parsing never panics (errors carry a line number),
//! and whatever imports satisfies the partition's invariants.
#![no_main]

use libfuzzer_sys::fuzz_target;
use logtime_core::import::{inspect, parse_dump};
use logtime_model::{Config, KafkaVersion, OffsetSpec, Timestamp};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_dump(text) {
        Err(e) => assert!(e.line <= text.lines().count().max(1)),
        Ok(dump) => {
            let import = dump.into_import("fuzz-0", Config::defaults(KafkaVersion::V4_0));
            if let Ok(imported) = import.finish(Timestamp(1_800_000_000_000), None) {
                imported.partition.check_invariants();
                let _ = inspect(
                    &imported,
                    Timestamp(1_800_000_000_000),
                    Some(OffsetSpec::Timestamp(Timestamp(1_700_000_000_000))),
                );
            }
        }
    }
});
